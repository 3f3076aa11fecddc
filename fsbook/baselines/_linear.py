"""What the two embedded-selection SVMs share: binary labels, a linear decision, a support mask."""
from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._selection import SupportSelectorMixin, refuse_constant_X


class LinearBinarySelectorMixin(SupportSelectorMixin, ClassifierMixin):
    """``decision_function = X coef_ + intercept_``, ``predict``, ``support_`` as the selection.

    ``X`` may be sparse (CSR) where a subclass sets ``_sparse_input = "csr"``.
    """

    def _check_binary(self, X, y):
        """Validate ``(X, y)``, set ``classes_`` and return ``X, y`` (exactly two classes)."""
        X, y = validate_data(self, X, y, accept_sparse=self._sparse_input, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size > 2:
            raise ValueError("Only binary classification is supported. The type of the target "
                             "is multiclass.")
        if self.classes_.size < 2:
            raise ValueError(f"y has one class: {type(self).__name__} needs two")
        refuse_constant_X(self, X)
        return X, y

    def decision_function(self, X):
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, accept_sparse=self._sparse_input, dtype=np.float64, reset=False)
        return np.asarray(X @ self.coef_[0]).ravel() + self.intercept_[0]

    def predict(self, X):
        check_is_fitted(self, "coef_")
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

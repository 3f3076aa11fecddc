"""Shared plumbing of the l1/linf chapter's baseline selectors (validation, k, tags)."""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook.decisions import top_k_mask

N_FEATURES_CONSTRAINT = [Interval(Integral, 1, None, closed="left"), Interval(Real, 0, 1, closed="right"), None]


def n_to_select(n_features_to_select, d):
    """``k`` from an int, a fraction in (0, 1] or None (half); error if ``k > d``."""
    k = n_features_to_select
    if k is None:
        return max(1, d // 2)
    if isinstance(k, Real) and not isinstance(k, Integral):
        return max(1, int(round(k * d)))
    if k > d:
        raise ValueError(f"n_features_to_select={k} exceeds the number of features {d}")
    return int(k)


class KSelector(SelectorMixin, BaseEstimator):
    """Base of a supervised selector keeping ``n_features_to_select`` features in ``support_``."""

    def _validate(self, X, y, accept_sparse="csr"):
        """Validated ``(X, class codes, k)``; sets ``classes_``; at least two classes."""
        X, y = validate_data(self, X, y, accept_sparse=accept_sparse, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"{type(self).__name__} needs at least two classes; got 1 ({self.classes_[0]!r})")
        return X, codes, n_to_select(self.n_features_to_select, X.shape[1])

    def _keep_top(self, scores, k):
        """``support_`` = the ``k`` largest ``scores`` (:func:`fsbook.decisions.top_k_mask`: scores
        within a relative :data:`fsbook.decisions.RTOL` are ties, kept by the earlier feature)."""
        self.support_ = top_k_mask(scores, k)

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags

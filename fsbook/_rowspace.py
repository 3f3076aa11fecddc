"""A linear SVM on more features than samples, fitted in the row space of its training matrix.

The ℓ2-penalised linear SVM's weights lie in the span of its training rows (the representer
theorem; liblinear's intercept is a separate, equally penalised column, so it is unaffected): a
part of ``w`` orthogonal to every training row changes no training decision value and only adds
penalty.  With the thin SVD ``X = U S Vᵀ`` of rank ``r``, the problem on ``X`` (``n × d``) is the
problem on ``Φ = U S`` (``n × r``, ``r ≤ n``) with ``w = V u``: the same objective at every
corresponding point.  liblinear's dual coordinate descent, which scikit-learn uses for
``n < d``, reads the data only through the decision values ``w·x_i``, and those are the same
numbers (up to rounding) in both coordinates, so it takes the same steps on a matrix ``d / r``
times narrower.  No library offers this for liblinear (scikit-learn's ``LinearSVC`` works on the
columns it is given), hence this small subclass.

It serves the benchmark's projection-penalised SVM, whose augmented design ``[x, z/√λ]`` has
every feature of ARCENE or the 20 Newsgroups pair against a few dozen training posts or spectra.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.svm import LinearSVC
from sklearn.utils.validation import validate_data

__all__ = ["RowSpaceLinearSVC"]


class RowSpaceLinearSVC(LinearSVC):
    """:class:`sklearn.svm.LinearSVC` solved in the row space of its training matrix when
    scikit-learn would solve its dual (``n_samples < n_features``, ℓ2 penalty, dense input).

    The parameters, attributes and predictions are :class:`~sklearn.svm.LinearSVC`'s: ``coef_``
    has one weight per input feature (``V u``).  Otherwise (more samples than features, an ℓ1
    penalty, the primal requested, sparse input) it is ``LinearSVC`` itself.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import LinearSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(20, 500)); y = np.repeat([0, 1], 10); X[y == 1, :5] += 1.0
    >>> fast = RowSpaceLinearSVC(C=1.0, random_state=0).fit(X, y)
    >>> ref = LinearSVC(C=1.0, random_state=0).fit(X, y)
    >>> fast.coef_.shape, bool(np.allclose(fast.decision_function(X), ref.decision_function(X), atol=1e-8))
    ((1, 500), True)
    """

    def _in_row_space(self, X):
        dual = self.dual is True or (self.dual == "auto" and X.shape[0] < X.shape[1])
        return dual and self.penalty == "l2" and X.shape[0] < X.shape[1]

    def fit(self, X, y, sample_weight=None):
        """Fit as :meth:`sklearn.svm.LinearSVC.fit`, in the row space of ``X`` when ``n < d``."""
        if sp.issparse(X):
            return super().fit(X, y, sample_weight=sample_weight)
        A, y_checked = validate_data(self, X, y, dtype=np.float64, order="C")
        if not self._in_row_space(A):
            return super().fit(X, y, sample_weight=sample_weight)
        U, s, Vt = np.linalg.svd(A, full_matrices=False)
        r = int(np.sum(s > s[0] * max(A.shape) * np.finfo(float).eps)) if s.size and s[0] > 0 else 0
        inner = LinearSVC(**{**self.get_params(), "dual": True})
        inner.fit(U[:, :r] * s[:r] if r else np.zeros((A.shape[0], 1)), y_checked, sample_weight=sample_weight)
        self.coef_ = inner.coef_ @ Vt[:r] if r else np.zeros((inner.coef_.shape[0], A.shape[1]))
        self.intercept_, self.classes_, self.n_iter_ = inner.intercept_, inner.classes_, inner.n_iter_
        return self

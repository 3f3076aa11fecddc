"""Zero-norm SVM of Weston, Elisseeff, Schölkopf and Tipping (2003): AROM feature selection.

"Use of the zero-norm with linear models and kernel methods" (JMLR 3) approximates
``min ||w||_0`` subject to the margin constraints by *approximation of the zero-norm
minimisation* (AROM, their Section 3): train a linear SVM on rescaled inputs ``x ⊙ z``, multiply
the scaling by the weights, ``z ← z ⊙ |w|``, and repeat; features whose scale vanishes drop out.
Each step decreases ``Σ_j log|w_j|`` (a smooth surrogate of the zero-norm), so the iteration
concentrates the weight on fewer and fewer features.  The number of features is a parameter:
the iteration stops as soon as at most ``n_features_to_select`` scales are non-zero (or when the
scales stop changing), and the largest scales are kept.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.svm import LinearSVC

from fsbook._compat import Interval, check_sample_weight, fit_context
from fsbook.baselines._linear import LinearBinarySelectorMixin
from fsbook.decisions import top_k

__all__ = ["ZeroNormSVM"]


class ZeroNormSVM(LinearBinarySelectorMixin, BaseEstimator):
    """Binary linear SVM with zero-norm feature selection by multiplicative rescaling (AROM).

    Parameters
    ----------
    n_features_to_select : int or float in (0, 1], default 1.0
        Number of features to keep, or that fraction of the features (at least one).
    C : float, default 1.0
        Soft-margin parameter of every inner linear SVM (hinge loss, liblinear).
    max_iter : int, default 100
        Cap on the rescaling iterations.
    tol : float, default 1e-6
        Scales below ``tol × max scale`` are set to zero (the feature is removed); the iteration
        also stops when the relative change of the scales falls below ``tol``.

    Attributes
    ----------
    scale_ : array (n_features_in_,), the final scales ``z`` (0 for removed features, max 1)
    support_ : bool array, the selected features
    coef_ : array (1, n_features_in_), the linear classifier on the original inputs
        (``w ⊙ z``, zero outside the support); ``intercept_`` : array (1,)
    n_iter_ : int, linear SVMs trained (rescaling iterations and the final fit)
    classes_ : the two labels

    See Also
    --------
    fsbook.baselines.FeatureWeightingSVM : the convex feature-weighting SVM of the same tables.
    fsbook.baselines.L1SVMSelector : an ℓ1-SVM on a ``C`` path to ``k`` features.

    Notes
    -----
    ``X`` may be sparse (CSR): the rescaled inputs ``x ⊙ z`` stay sparse (liblinear works on
    the non-zeros either way), and the selection equals that of the dense ``X``.

    Sample weights.  AROM is a sequence of linear SVMs, each minimising a hinge loss: ``fit``'s
    ``sample_weight`` weights that loss (``C w_i`` per sample), so integer weights give the
    objective of the repeated samples (equal fits up to liblinear's tolerance).  With
    ``sklearn.set_config(enable_metadata_routing=True)``, ``set_fit_request(sample_weight=True)``
    routes them from a Pipeline.

    References
    ----------
    .. [1] Weston, J., Elisseeff, A., Schölkopf, B. and Tipping, M. (2003). Use of the
       Zero-Norm with Linear Models and Kernel Methods. Journal of Machine Learning Research, 3,
       1439-1461. ``references.bib``: ``weston2003zero``.
    .. [2] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``. Its Table 4 compares disjunctive HKL with the zero-norm SVM.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.baselines import ZeroNormSVM
    >>> svm = ZeroNormSVM(n_features_to_select=2).fit(X, y)
    >>> svm.get_support(indices=True)
    array([0, 1])
    >>> round(svm.score(X, y), 2)                          # a linear SVM on those two features
    0.91
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"),
                                 Interval(Real, 0, 1, closed="right")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, 1, closed="neither")],
    }

    def __init__(self, n_features_to_select=1.0, C=1.0, max_iter=100, tol=1e-6):
        self.n_features_to_select = n_features_to_select
        self.C = C
        self.max_iter = max_iter
        self.tol = tol

    def _svm(self, X, y, sample_weight=None):
        return LinearSVC(C=self.C, loss="hinge", dual=True, max_iter=100000, tol=1e-6,
                         random_state=0).fit(X, y, sample_weight=sample_weight)

    @staticmethod
    def _rescaled(X, active, z):
        """``X[:, active] ⊙ z[active]`` (sparse stays sparse)."""
        if sp.issparse(X):
            return (X[:, active] @ sp.diags(z[active])).tocsr()
        return X[:, active] * z[active]

    @staticmethod
    def _top(z, k):
        """``z`` with all but its ``k`` largest entries set to zero (ties within a relative
        :data:`fsbook.decisions.RTOL` by index)."""
        out = np.zeros_like(z)
        keep = top_k(z, k)
        out[keep] = z[keep]
        return out

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Run AROM on ``(X, y)`` (two classes).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Labels of two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples in the hinge loss of every linear SVM
            (``LinearSVC``'s per-sample ``C w_i``; see Notes); None weights every sample 1.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, y = self._check_binary(X, y)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, ensure_non_negative=True)
        n = X.shape[1]
        k = self._resolve_k(n)
        z = np.ones(n)
        self.n_iter_ = 0
        while self.n_iter_ < self.max_iter and np.count_nonzero(z) > k:
            active = np.flatnonzero(z)
            w = self._svm(self._rescaled(X, active, z), y, sample_weight).coef_.ravel()
            self.n_iter_ += 1
            z_new = np.zeros(n)
            z_new[active] = z[active] * np.abs(w)
            if z_new.max() <= 0:
                break
            z_new /= z_new.max()
            if np.count_nonzero(z_new >= self.tol) < k:     # never drop below the target
                z = self._top(z_new, k)
                break
            z_new[z_new < self.tol] = 0.0
            change = np.abs(z_new - z).max()
            z = z_new
            if change < self.tol:
                break
        if np.count_nonzero(z) > k:                       # keep the k largest scales
            z = self._top(z, k)
        self.support_ = z > 0
        active = np.flatnonzero(self.support_)
        svm = self._svm(self._rescaled(X, active, z), y, sample_weight)
        self.n_iter_ += 1
        self.scale_ = z
        self.coef_ = np.zeros((1, n))
        self.coef_[0, active] = svm.coef_.ravel() * z[active]
        self.intercept_ = svm.intercept_.copy()
        return self

"""A convex feature-weighting SVM in the spirit of Nguyen and De la Torre (2010).

The paper's reference [21] ("optimal feature selection for support vector machines") learns
non-negative feature weights ``d`` jointly with the SVM in one convex problem and relates it to
the L1-norm SVM.  What is implemented here is the linear-kernel case written as multiple kernel
learning with one linear kernel per feature:

    min_{d ∈ Δ, w, b}  ½ Σ_j w_j² / d_j + C Σ_i max(0, 1 − y_i (wᵀx_i + b)),
    Δ = {d ≥ 0, Σ_j d_j = 1},

a jointly convex problem (``w_j²/d_j`` is a perspective function).  Minimising over ``d`` in
closed form (``d_j = |w_j| / ||w||_1``) leaves

    min_{w, b}  ½ ||w||_1² + C Σ_i max(0, 1 − y_i (wᵀx_i + b)),        (★)

an L1-regularised SVM whose regulariser is squared: the feature weights ``d`` are sparse, and a
feature is selected when ``d_j > 0``.  (★) is solved as a second-order cone program with cvxpy
(Clarabel), imported lazily; the test checks it against an independent solution (an LP per value
of ``||w||_1`` solved by HiGHS, minimised over that value).
"""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator

from fsbook._compat import Interval, check_sample_weight, fit_context
from fsbook._selection import refuse_constant_X
from fsbook.baselines._linear import LinearBinarySelectorMixin

__all__ = ["FeatureWeightingSVM"]


class FeatureWeightingSVM(LinearBinarySelectorMixin, BaseEstimator):
    """Binary linear SVM with jointly learnt simplex feature weights (problem ★ above).

    Parameters
    ----------
    C : float, default 1.0
    tol : float, default 1e-6
        Features with weight ``d_j ≤ tol`` are not selected.

    Attributes
    ----------
    feature_weights_ : array (n_features_in_,), ``d`` (sums to 1; all zero if ``w = 0``)
    support_ : bool array, ``d > tol``
    coef_ : array (1, n_features_in_), intercept_ : array (1,)
    objective_ : float, the optimal value of (★)
    classes_ : the two labels

    See Also
    --------
    fsbook.baselines.ZeroNormSVM : zero-norm SVM by multiplicative rescaling.
    fsbook.baselines.L1SVMSelector : an ℓ1-SVM (unsquared penalty) on a ``C`` path.

    Notes
    -----
    ``X`` may be sparse (CSR): cvxpy takes it as a sparse constant, so the cone program has one
    entry per non-zero of ``X``.

    Sample weights.  ``fit``'s ``sample_weight`` gives each sample's slack the cost ``C w_i``:

        min_{w, b}  ½ ||w||_1² + C Σ_i w_i max(0, 1 − y_i (wᵀx_i + b)),

    the objective of (★) on the samples repeated ``w_i`` times when the weights are integers; a
    sample of zero weight is left out of the cone program.  The optimal value is unique, and
    weighted and repeated fits reach it to the solver's tolerance (relative differences below
    1e-8 in the tests).  The optimal ``(w, b)`` is unique on data in general position, where the
    two fits' coefficients agree to ~1e-6 and select the same features (``d_j > tol``, the same
    rule); it is not always unique (two equal columns may share their weight in any
    proportion), and then the fits agree on the value and on what is determined (the pair's
    total weight), while the point is Clarabel's: its interior-point path ends at the even split,
    in weighted and repeated fits alike.  With ``sklearn.set_config(enable_metadata_routing=True)``,
    ``set_fit_request(sample_weight=True)`` routes the weights from a Pipeline.

    References
    ----------
    .. [1] Nguyen, M. H. and De la Torre, F. (2010). Optimal feature selection for support
       vector machines. Pattern Recognition, 43(3), 584-591. ``references.bib``:
       ``nguyen2010optimal``.  The problem (★) is written in its spirit (module docstring).
    .. [2] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``. Its Table 5 compares disjunctive HKL with the weighted SVM.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.baselines import FeatureWeightingSVM
    >>> svm = FeatureWeightingSVM(C=1.0).fit(X, y)
    >>> np.flatnonzero(svm.feature_weights_ > 0.2)        # weights sum to 1; most on 0 and 1
    array([0, 1])
    >>> round(svm.score(X, y), 2)
    0.93
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, 1, closed="neither")],
    }

    def __init__(self, C=1.0, tol=1e-6):
        self.C = C
        self.tol = tol

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Solve (★) on ``(X, y)`` (two classes).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Labels of two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights: sample ``i``'s hinge loss costs ``C w_i`` (see Notes), so
            integer weights give the problem of the repeated samples and a zero weight that of
            the samples without it; the samples of positive weight must hold both classes.
            None weights every sample 1.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        import cvxpy as cp

        X, y = self._check_binary(X, y)
        s = np.where(y == self.classes_[1], 1.0, -1.0)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, ensure_non_negative=True)
            positive = sample_weight > 0
            if np.unique(s[positive]).size < 2:
                raise ValueError("FeatureWeightingSVM: the samples of positive weight hold one class; "
                                 "it needs both")
            X, s, sample_weight = X[positive], s[positive], sample_weight[positive]
            refuse_constant_X(self, X)
        m, n = X.shape
        w, b = cp.Variable(n), cp.Variable()
        slack = cp.pos(1 - cp.multiply(s, X @ w + b))
        hinge = cp.sum(slack) if sample_weight is None else sample_weight @ slack
        prob = cp.Problem(cp.Minimize(0.5 * cp.square(cp.norm1(w)) + self.C * hinge))
        try:
            prob.solve(solver=cp.CLARABEL)
        except cp.error.SolverError as err:       # e.g. features of scale 1e150
            scale = float(abs(X).max()) if X.size else 0.0
            raise ValueError(f"FeatureWeightingSVM: the cone solver (Clarabel) failed on this data "
                             f"(largest |x| = {scale:.3g}); standardise X (e.g. StandardScaler) so the "
                             "features have a moderate scale") from err
        if prob.status not in ("optimal", "optimal_inaccurate"):
            raise RuntimeError(f"the solver failed: {prob.status}")
        coef = np.asarray(w.value, dtype=np.float64)
        l1 = np.abs(coef).sum()
        self.feature_weights_ = np.abs(coef) / l1 if l1 > 0 else np.zeros(n)
        self.support_ = self.feature_weights_ > self.tol
        self.coef_ = np.where(self.support_, coef, 0.0)[None, :]
        self.intercept_ = np.array([float(b.value)])
        self.objective_ = float(prob.value)
        return self

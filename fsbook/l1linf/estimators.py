"""LDFS and HSFS: ℓ1/ℓ∞ transformation-based feature selection as scikit-learn selectors.

``fit`` scales every feature to unit standard deviation (no centring, so a
sparse ``X`` stays sparse; both criteria are translation invariant), draws the
start ``W₀`` (seeded Gaussian, ``d × q``), and runs the warm-started λ path of
:func:`fsbook.l1linf.path.select_k_path` on the criterion of eq. (6) (LDFS,
:class:`~fsbook.l1linf.lda.LDACriterion`) or eq. (9) (HSFS,
:class:`~fsbook.l1linf.hsic.HSICCriterion`).
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

from fsbook._compat import Interval, StrOptions, check_sample_weight, fit_context
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin
from fsbook.l1linf.hsic import PAIR_KERNELS, HSICCriterion
from fsbook.l1linf.lda import LDACriterion
from fsbook.l1linf.path import select_k_path

__all__ = ["LDFS", "HSFS", "feature_scales", "initial_transformation"]


def feature_scales(X, sample_weight=None):
    """Standard deviation of every column (1 for constant columns); sparse-aware.

    With ``sample_weight`` (non-negative, positive sum) the weighted standard deviation
    ``sqrt(Σ_i p_i (x_ij − x̄_j)²)``, ``p = w / Σw``, ``x̄_j = Σ_i p_i x_ij``: integer weights give the
    scales of the repeated samples, and ``w`` and ``c w`` the same scales.
    """
    if sample_weight is not None:
        return _weighted_feature_scales(X, sample_weight)
    if sp.issparse(X):
        mean = np.asarray(X.mean(axis=0)).ravel()
        sq = np.asarray(X.multiply(X).mean(axis=0)).ravel()
        sd = np.sqrt(np.maximum(sq - mean ** 2, 0.0))
    else:
        sd = X.std(axis=0)
    return np.where(sd > 1e-12 * max(1.0, float(np.max(sd, initial=0.0))), sd, 1.0)


def _weighted_feature_scales(X, sample_weight):
    p = np.asarray(sample_weight, dtype=float)
    p = p / p.sum()
    if sp.issparse(X):                                     # as the unweighted sparse form: E[x²] − E[x]²
        mean = np.asarray(X.T @ p).ravel()
        sq = np.asarray(X.multiply(X).T @ p).ravel()
        sd = np.sqrt(np.maximum(sq - mean ** 2, 0.0))
    else:                                                  # two passes, as ``X.std``
        X = np.asarray(X, dtype=float)
        sd = np.sqrt(p @ (X - p @ X) ** 2)
    return np.where(sd > 1e-12 * max(1.0, float(np.max(sd, initial=0.0))), sd, 1.0)


def initial_transformation(d, q, scale, random_state):
    """Seeded Gaussian start ``W₀`` with entries ``N(0, scale² / (d q))``.

    For unit-variance features this makes ``||W₀ᵀ(x_i − x_j)||² ≈ 2 scale²``
    on average, i.e. a kernel on ``XW₀`` that is neither flat nor diagonal.
    """
    rng = check_random_state(random_state)
    return rng.standard_normal((d, q)) * (scale / np.sqrt(d * q))


class _L1LinfSelector(SupportSelectorMixin, BaseEstimator):
    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "scale": ["boolean"],
        "lambda_factor": [Interval(Real, 1, None, closed="neither")],
        "max_bisect": [Interval(Integral, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "solver": [StrOptions({"active-set", "fista"})],
        "lambda_start": [Interval(Real, 0, None, closed="neither")],
        "path_tol": [Interval(Real, 0, None, closed="neither"), None],
        "row_threshold": [Interval(Real, 0, None, closed="neither"), None],
        "random_state": ["random_state"],
    }

    def _criterion(self, X, y, regression=False, sample_weight=None):  # pragma: no cover - abstract
        raise NotImplementedError

    def _default_components(self, d, n_classes):  # pragma: no cover - abstract
        raise NotImplementedError

    def _start_scale(self):
        return 1.0

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Run the λ path to ``n_features_to_select`` features.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels (at least two classes); HSFS also takes a regression target
            (continuous values), LDFS refuses it.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative, finite weights (scikit-learn's ``check_sample_weight`` refuses others).
            Sample ``i`` counts with ``p_i = w_i / Σw`` wherever the unweighted fit counts it with
            ``1/n``: in the feature scales (weighted standard deviations) and in the criterion
            (see the class's Notes), so that integer weights give the fit of the repeated samples
            and a zero weight that of the samples without it.  None runs the unweighted fit.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, target, regression = self._validate_classes_or_values(X, y)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
            if not regression and np.unique(target[sample_weight > 0]).size < 2:
                raise ValueError(f"{type(self).__name__} needs samples of at least two classes with a "
                                 "positive sample_weight")
        d = X.shape[1]
        k = self._resolve_k(d)
        if sample_weight is None:
            n_classes = None if regression else len(self.classes_)
        else:                                              # the classes that the weights keep
            n_classes = None if regression else np.unique(target[sample_weight > 0]).size
        q = self.n_components if self.n_components is not None else self._default_components(d, n_classes)
        self.scale_ = feature_scales(X, sample_weight) if self.scale else np.ones(d)
        Xs = X @ sp.diags(1.0 / self.scale_) if sp.issparse(X) else X / self.scale_
        W0 = initial_transformation(d, q, self._start_scale(), self.random_state)
        if sample_weight is None:
            criterion = self._criterion(Xs, target, regression)
        else:
            criterion = self._criterion(Xs, target, regression, sample_weight=sample_weight)
        res = select_k_path(criterion, W0, k, factor=self.lambda_factor,
                            max_bisect=self.max_bisect, solver=self.solver, start=self.lambda_start,
                            path_tol=self.path_tol, solver_options={"max_iter": self.max_iter, "tol": self.tol},
                            row_threshold=self.row_threshold)
        self.n_features_to_select_ = k
        self.n_components_ = q
        self.W_ = res.W
        self.lambda_ = res.lam
        self.support_ = res.support
        self.exact_ = res.exact
        self.path_ = res.path
        self.n_iter_ = res.n_iter
        self.feature_scores_ = np.abs(res.W).max(axis=1)
        return self


class LDFS(_L1LinfSelector):
    """Linear discriminant feature selection (LDA-ℓ1/ℓ∞, eq. 6).

    Minimises ``−tr[(WᵀS_W W + δI)⁻¹ WᵀS_B W] + λ Σ_j ||w_j||∞`` (the scalar
    LDA form of :mod:`fsbook.l1linf.lda`) along a λ path to exactly
    ``n_features_to_select`` non-zero rows of ``W``.

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
        Number (or fraction) of features to keep; None keeps half.
    n_components : int or None
        q, columns of ``W``; None uses ``C − 1`` (the rank of ``S_B``).
    ridge : float, default 1.0
        δ, the ridge that fixes the scale of ``W``.
    shrinkage : "ledoit-wolf", float in [0, 1] or None, default "ledoit-wolf"
        γ of the shrunk within-class scatter ``(1 − γ) S_W + γ (tr S_W / d) I``
        (:mod:`fsbook.l1linf.lda`): the Ledoit–Wolf estimate
        (:func:`~fsbook.l1linf.lda.ledoit_wolf_within`), a fixed value, or None for γ = 0 (the
        plain ``S_W``, whose criterion has no minimiser when ``S_W`` is singular, i.e. when
        there are more features than samples minus classes).
    scale : bool, default True
        Divide every feature by its standard deviation first.
    lambda_factor : float, default 2.0
        Growth of λ along the path.
    max_bisect : int, default 12
    max_iter : int, default 300
        Iterations of each proximal-gradient solve.
    tol : float, default 1e-5
        Stopping tolerance of the solves that decide the selection (the bisection).
    solver : {"fista", "active-set"}, default "fista"
        :func:`~fsbook.l1linf.solvers.accelerated_proximal_gradient` on every row, or
        :func:`~fsbook.l1linf.solvers.active_set_proximal_gradient` on the rows that can be
        non-zero (same fixed points, much cheaper when ``d`` is large).
    lambda_start : float, default 1e-3
        First λ as a fraction of ``max_j ||∇_j J(W₀)||₁``.
    path_tol : float or None, default None
        Tolerance of the solves before the bisection (they only warm-start it); None uses ``tol``.
    row_threshold : float or None, default None
        The rule that counts a feature as selected along the λ path: None counts the non-zero
        rows of ``W`` (the proximal solver returns exact zeros; ours), a positive value counts
        the rows with ``||w_j||∞ > row_threshold`` (the paper's rule: "the maximum value of the
        row is less than 0.01" discards a feature, so ``row_threshold=0.01``).  With a threshold
        the path stops at a smaller λ, where the other rows may be small but not zero.
    random_state : int, RandomState or None, default 0
        Seed of the start ``W₀``.  The default is a fixed seed, so two fits on the same data
        select the same features; None draws a new start from NumPy's global generator.

    Attributes
    ----------
    W_ : ndarray (n_features_in_, n_components_)
    lambda_ : float
    path_ : DataFrame (lambda, n_selected, criterion, objective, n_iter, converged, stage)
    n_iter_ : int, proximal-gradient iterations over the path
    support_ : boolean mask; exact_ : whether ``W_`` itself has k non-zero rows
    feature_scores_ : ``||w_j||∞``
    scale_ : feature scales
    shrinkage_ : float, the γ of the shrunk within-class scatter the fit used

    See Also
    --------
    fsbook.l1linf.HSFS : the same ℓ1/ℓ∞ penalty on the HSIC criterion (eq. (9) of [1]_).
    fsbook.baselines.LaplacianScore : a filter on the same two-class problem (Table 1 of [1]_).
    fsbook.baselines.L1SVMSelector : an ℓ1-SVM on a ``C`` path to ``k`` features (Table 1 of [1]_).

    Notes
    -----
    Sample weights.  ``fit(X, y, sample_weight=w)`` uses the weighted scatter matrices of
    :mod:`fsbook.l1linf.lda`: with ``p = w / Σw``, class masses ``π_c = Σ_{i∈c} p_i``, weighted
    class means ``m_c`` and mean ``x̄``,

    ``S_W = Σ_i p_i (x_i − m_{c(i)})(x_i − m_{c(i)})ᵀ``,  ``S_B = Σ_c π_c (m_c − x̄)(m_c − x̄)ᵀ``,

    the ``1/N``-scaled scatters of the data with sample ``i`` repeated ``w_i`` times when ``w`` is
    an integer vector, and features scaled by their weighted standard deviations.  δ, the
    shrunk scatter's ``γ m`` and λ (a fraction of the largest gradient row) act on these
    normalised scatters, so integer weights give the fit of the repeated samples (to rounding), a
    zero weight that of the samples without it, and ``w`` and ``c w`` the same fit, except with
    the default ``shrinkage="ledoit-wolf"``: the Ledoit–Wolf γ takes ``Σw`` for the number of
    samples (as the repeated samples do), so scaling the weights changes γ; a fixed ``shrinkage``
    makes the fit invariant to it.  ``n_components=None`` uses ``C − 1`` for the ``C`` classes
    of positive weight.  With ``sklearn.set_config(enable_metadata_routing=True)``,
    ``set_fit_request(sample_weight=True)`` routes the weights from a Pipeline.

    References
    ----------
    .. [1] Masaeli, M., Fung, G. and Dy, J. G. (2010). From Transformation-Based Dimensionality
       Reduction to Feature Selection. Proceedings of the 27th International Conference on
       Machine Learning (ICML). ``references.bib``: ``masaeli2010transformation``.
       LDFS is its eq. (6).

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.l1linf import LDFS
    >>> sel = LDFS(n_features_to_select=2, random_state=0).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    >>> sel.transform(X).shape
    (100, 2)
    """

    _parameter_constraints = {**_L1LinfSelector._parameter_constraints,
                              "ridge": [Interval(Real, 0, None, closed="neither")],
                              "shrinkage": [StrOptions({"ledoit-wolf"}), Interval(Real, 0, 1, closed="both"),
                                            None]}

    def __init__(self, n_features_to_select=None, *, n_components=None, ridge=1.0, shrinkage="ledoit-wolf",
                 scale=True, lambda_factor=2.0, max_bisect=12, max_iter=300, tol=1e-5, solver="fista",
                 lambda_start=1e-3, path_tol=None, row_threshold=None, random_state=0):
        self.n_features_to_select = n_features_to_select
        self.n_components = n_components
        self.ridge = ridge
        self.shrinkage = shrinkage
        self.scale = scale
        self.lambda_factor = lambda_factor
        self.max_bisect = max_bisect
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.lambda_start = lambda_start
        self.path_tol = path_tol
        self.row_threshold = row_threshold
        self.random_state = random_state

    def _criterion(self, X, y, regression=False, sample_weight=None):
        # a regression y is refused before fit
        if sample_weight is None:
            crit = LDACriterion(X, y, ridge=self.ridge)
            within, between = crit.scatter_traces()
            total = float(np.asarray(X.multiply(X).sum() if sp.issparse(X) else np.einsum("ij,ij->", X, X))) / X.shape[0]
        else:
            crit = LDACriterion(X, y, ridge=self.ridge, sample_weight=sample_weight)
            within, between = crit.scatter_traces()
            p = sample_weight / sample_weight.sum()
            total = float(np.sum(np.asarray(X.multiply(X).T @ p) if sp.issparse(X) else p @ (X * X)))
        if between > 0 and within <= 1e-12 * total:
            # S_W = 0 and S_B != 0: J(cW) = -c² tr(WᵀS_B W)/δ goes to -∞ faster than the penalty
            # grows, so problem (6) has no minimiser and the solver would diverge: refuse it
            raise ValueError(
                "LDFS needs within-class variation: every class of y is a single point of X (e.g. one "
                "sample per class), so the within-class scatter S_W is zero and the LDA criterion of "
                "eq. (6) is unbounded below. Give several distinct samples per class, or use HSFS.")
        gamma = crit.ledoit_wolf() if self.shrinkage == "ledoit-wolf" else float(self.shrinkage or 0.0)
        self.shrinkage_ = gamma
        return crit.shrunk(gamma) if gamma else crit

    def _default_components(self, d, n_classes):
        return max(1, min(d, n_classes - 1))

    def _start_scale(self):
        return np.sqrt(self.ridge)


#: measured CPU seconds of a default :class:`HSFS` on 1 000 × 100 (5 classes), and the growth
#: assumed in ``n`` (the pairs of samples) and ``d``.  Measured: 9.8 s at 2 000 × 100 (estimated
#: 25.6), more than 60 s at 5 000 × 300 (estimated 277), 3.5 s on DEXTER's 210 × 20 000 training
#: part dense and 1.0 s sparse (estimated 4.0): the path's cost grows slowly with the width
HSFS_SECONDS_AT_REFERENCE, HSFS_N_GROWTH, HSFS_D_GROWTH = 6.4, 2.0, 0.5


def hsfs_seconds(n_samples, n_features):
    """Estimated CPU seconds of a default :class:`HSFS` fit (see :data:`HSFS_D_GROWTH`)."""
    return (HSFS_SECONDS_AT_REFERENCE * (n_samples / 1000) ** HSFS_N_GROWTH
            * (n_features / 100) ** HSFS_D_GROWTH)


class HSFS(_L1LinfSelector):
    """Hilbert-Schmidt feature selection (HSIC-ℓ1/ℓ∞, eq. 9).

    Minimises ``−(1/n²) tr(KHLH) + λ Σ_j ||w_j||∞`` with a Gaussian kernel of
    width ``sigma`` on ``XW`` and the delta kernel on the labels, along a λ
    path to exactly ``n_features_to_select`` non-zero rows of ``W``.  For a regression
    target (continuous ``y``) ``L`` is the linear kernel ``t tᵀ`` of the standardised target
    ``t`` (:func:`~fsbook.l1linf.hsic.centred_target_kernel`).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
        Number (or fraction) of features to keep; None keeps half.
    n_components : int or None
        q, columns of ``W``; None uses ``min(d, 10)`` (the paper uses ``q = d``).
    sigma : float, default 1.0
        Width of the Gaussian kernel on ``XW``.
    scale, lambda_factor, max_bisect, max_iter, tol, row_threshold, random_state
        As in :class:`LDFS`.
    solver : {"active-set", "fista"}, default "active-set"
        As in :class:`LDFS`; ``"fista"`` with ``lambda_start=1e-3, path_tol=None`` is the
        path before the active-set solver (the reference of the tests and the benchmark).
    lambda_start : float, default 0.1
        As in :class:`LDFS`.  The λ below a tenth of the largest gradient row at ``W₀`` only
        move ``W`` among thousands of non-zero rows on DEXTER and ARCENE.
    path_tol : float or None, default 1e-2
        As in :class:`LDFS`: the grow stages only warm-start the bisection, whose solves use
        ``tol``.
    pair_kernel : {"vectorised", "libm"}, default "vectorised"
        The exponentials of the HSIC pair kernel (:class:`~fsbook.l1linf.HSICCriterion`):
        vectorisable arithmetic within one ulp (about 1.8× faster on DEXTER), or libm's ``exp``
        per pair.  The stored protocols were run with ``"libm"`` and pin it: one ulp in the
        criterion moves HSFS's path on some ARCENE folds to other features.

    Attributes
    ----------
    As in :class:`LDFS`.

    See Also
    --------
    fsbook.l1linf.LDFS : the same ℓ1/ℓ∞ penalty on the LDA criterion (eq. (6) of [1]_).
    fsbook.baselines.FOHSIC : greedy forward selection on the same HSIC criterion (Table 1 of [1]_).

    Notes
    -----
    Cost.  Every gradient of the HSIC criterion sums over all pairs of samples and the λ path
    grows with the features: ``fit`` estimates the time from ``n`` and ``d`` (:func:`hsfs_seconds`,
    calibrated on measured fits) and raises a ``ValueError`` at once when it exceeds
    :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute of CPU); fit on a subsample of the
    rows or on fewer features, or raise the limit with :func:`fsbook.cost_limits`.

    Sample weights.  ``fit(X, y, sample_weight=w)`` maximises the weighted (biased) HSIC
    ``HSIC_p = tr(K D_p H_p L H_pᵀ D_p) = Σ_ij p_i p_j K_ij (H_p L H_pᵀ)_ij`` with ``p = w / Σw``,
    ``D_p = diag(p)`` and the weighted centring ``H_p = I − 1pᵀ`` (labels centred by the weighted
    class priors; a regression target standardised by its weighted mean and standard
    deviation), on features scaled by their weighted standard deviations.  Repeating sample ``i``
    ``c_i`` times turns ``(1/N²) tr(K̃H̃L̃H̃)`` into exactly this sum with ``p = c/N``
    (:mod:`fsbook.l1linf.hsic`), so integer weights give the fit of the repeated samples (to
    rounding), a zero weight that of the samples without it, and ``w`` and ``c w`` the same fit.
    σ and λ (a fraction of the largest gradient row) act on the normalised criterion, so
    their meaning does not depend on the weights' sum.  The weighted fit costs the same pair
    sums as the unweighted one (plus an ``n × n`` product to form ``Γ``).  With
    ``sklearn.set_config(enable_metadata_routing=True)``, ``set_fit_request(sample_weight=True)``
    routes the weights from a Pipeline.

    References
    ----------
    .. [1] Masaeli, M., Fung, G. and Dy, J. G. (2010). From Transformation-Based Dimensionality
       Reduction to Feature Selection. Proceedings of the 27th International Conference on
       Machine Learning (ICML). ``references.bib``: ``masaeli2010transformation``.
       HSFS is its eq. (9).
    .. [2] Song, L., Smola, A., Gretton, A., Borgwardt, K. M. and Bedo, J. (2007). Supervised
       Feature Selection via Dependence Estimation. Proceedings of the 24th International
       Conference on Machine Learning, 823-830. ``references.bib``: ``song2007fohsic``.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.l1linf import HSFS
    >>> sel = HSFS(n_features_to_select=2, random_state=0).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])

    A regression target carried by column 2 alone:

    >>> t = X[:, 2] + 0.1 * np.random.default_rng(1).normal(size=100)
    >>> HSFS(n_features_to_select=1, random_state=0).fit(X, t).get_support(indices=True)
    array([2])
    """

    _parameter_constraints = {**_L1LinfSelector._parameter_constraints,
                              "sigma": [Interval(Real, 0, None, closed="neither")],
                              "pair_kernel": [StrOptions(set(PAIR_KERNELS))]}

    def __init__(self, n_features_to_select=None, *, n_components=None, sigma=1.0, scale=True,
                 lambda_factor=2.0, max_bisect=12, max_iter=300, tol=1e-5, solver="active-set", lambda_start=0.1,
                 path_tol=1e-2, row_threshold=None, pair_kernel="vectorised", random_state=0):
        self.n_features_to_select = n_features_to_select
        self.n_components = n_components
        self.sigma = sigma
        self.scale = scale
        self.lambda_factor = lambda_factor
        self.max_bisect = max_bisect
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.lambda_start = lambda_start
        self.path_tol = path_tol
        self.row_threshold = row_threshold
        self.pair_kernel = pair_kernel
        self.random_state = random_state

    def _criterion(self, X, y, regression=False, sample_weight=None):
        from fsbook._cost import check_cost
        n, d = X.shape
        check_cost("HSFS", f"{n} samples x {d} features", seconds=hsfs_seconds(n, d),
                   why="every gradient of the HSIC criterion sums over all pairs of samples and the "
                       "lambda path grows with the features",
                   fix="fit on a subsample of the rows or on fewer features (e.g. a cheap filter first)")
        return HSICCriterion(X, y, sigma=self.sigma, pair_kernel=self.pair_kernel, regression=regression,
                             sample_weight=sample_weight)

    def _default_components(self, d, n_classes):
        return min(d, 10)

    def _start_scale(self):
        return self.sigma

"""scikit-learn estimators for disjunctive HKL (the method of the paper, Section 2).

- :class:`DisjunctiveHKL` -- one model at fixed ``C``, ``β``, ``μ``.
- :class:`DisjunctiveHKLCV` -- the same with ``C`` (and ``β``) chosen by stratified
  cross-validation along a warm-started regularisation path.

Several classes: wrap in :class:`sklearn.multiclass.OneVsRestClassifier` (a dedicated
one-vs-rest wrapper would add nothing).
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import Interval, StrOptions, check_feature_names_in, check_sample_weight, fit_context
from fsbook.hkl import lattice
from fsbook.hkl.solver import HKLProblem, solve_active_set, source_scores

__all__ = ["DisjunctiveHKL", "DisjunctiveHKLCV", "disjunctive_hkl_path", "c_start", "path_stops",
           "C_LADDER"]

#: the C values of the data-driven path: 1 and 3 times the powers of ten from 10⁻⁴ to 10⁵,
#: parsed from decimal literals (the same floats on every CPU)
C_LADDER = tuple(float(f"{d}e{e}") for e in range(-4, 6) for d in (1, 3))


def _booleanize(X, binarize):
    """``X > binarize`` as float 0/1 (``binarize=None``: check that X already is 0/1)."""
    if binarize is None:
        vals = X.data if sp.issparse(X) else np.asarray(X).ravel()
        if vals.size and not np.all((vals == 0) | (vals == 1)):
            raise ValueError("DisjunctiveHKL(binarize=None) needs boolean (0/1) features; "
                             "pass binarize=<threshold> to booleanise as x > threshold")
        return X
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)
        X.data = (X.data > binarize).astype(np.float64)
        X.eliminate_zeros()
        if binarize < 0:
            raise ValueError("a negative binarize threshold would turn the zeros of sparse input "
                             "into ones; densify the input first")
        return X
    return (np.asarray(X) > binarize).astype(np.float64)


def _resolve_beta(beta, n):
    return max(2.0, float(np.sqrt(n))) if beta == "auto" else float(beta)


def _positive_rows(X, ys, sample_weight):
    """The samples of positive weight (a zero weight drops the sample): ``(X, ys, weights)``."""
    if sample_weight is None:
        return X, ys, None
    sample_weight = np.asarray(sample_weight, dtype=np.float64)
    keep = sample_weight > 0
    if keep.all():
        return X, ys, sample_weight
    return X[keep], ys[keep], sample_weight[keep]


def _make_problem(X, ys, om, beta, C, mu, p, sample_weight=None):
    """``HKLProblem`` with ``δ_∅ = 1``, ``δ_v = μ β^{|v|−1} ∏ ω_i`` (eq. (hkl-delta)); with
    ``sample_weight`` the loss of sample ``i`` is weighted by ``s_i`` (the samples of zero
    weight are left out)."""
    X, ys, sample_weight = _positive_rows(X, ys, sample_weight)
    return HKLProblem(X, ys, C=C, p=p, omega=beta * om, delta_top=1.0, delta_node=mu / beta,
                      sample_weight=sample_weight)


def disjunctive_hkl_path(X, ys, Cs, beta, mu=1.0, p=2.0, feature_weights=None, tol=1e-3,
                         max_active=None, max_add=200, max_iter=100, solver="working_set",
                         sample_weight=None):
    """Warm-started regularisation path of problem (1): yields one solution per ``C``.

    A generator (the ``Cs`` may be any iterable, consumed lazily, so callers can stop the path
    on a rule of their own): each solve starts from the previous active set, its ``η`` and the
    inner SVM's dual point (kept by the one :class:`HKLProblem` of the path) and, for
    ``solver="working_set"`` or ``"variational"``, its weights and intercept, as
    ``sklearn.linear_model.enet_path`` serves ``LassoCV``.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (m, n), 0/1
    ys : ndarray of shape (m,), ±1
    Cs : iterable of float
    beta, mu, p, feature_weights, tol, max_active, max_add, max_iter, solver
        As in :class:`DisjunctiveHKL` (``beta`` a number).
    sample_weight : ndarray of shape (m,) or None
        Non-negative sample weights: the loss of sample ``i`` is ``C s_i ξ_i`` (a zero weight
        leaves the sample out); ``None``: 1.

    Yields
    ------
    C : float
    result : dict
        The result of :func:`fsbook.hkl.solve_active_set` at ``C``.
    """
    om = np.ones(X.shape[1]) if feature_weights is None else np.asarray(feature_weights, float)
    prob = warm = None
    for C in Cs:
        if prob is None:
            prob = _make_problem(X, ys, om, beta, C, mu, p, sample_weight)
        prob.C = float(C)
        res = solve_active_set(prob, tol=tol, max_active=max_active, max_add=max_add,
                               max_iter=max_iter, solver=solver, **({} if warm is None else warm))
        warm = dict(nodes=res["nodes"], eta=res["eta"])
        if solver in ("working_set", "variational"):   # start from the previous C's solution
            warm.update(w=res["w"], b=res["b"])
        yield float(C), res


def c_start(X, ys, beta, mu=1.0, p=2.0, feature_weights=None, sample_weight=None):
    """First ``C`` of the data-driven path, read off the empty model.

    The empty model (active set ``{∅}``, ``ψ_∅ = 0``) has the dual solution ``α = C a`` at the
    box: ``a_i = 1`` on the smaller class and ``n_small/n_large`` on the larger one
    (``yᵀa = 0``).  With ``Q* = max_t Q(t)`` over the single-feature sources (the sufficiency
    bound of :func:`fsbook.hkl.source_scores`, ``Ω*(s(a))² ≤ Q*``), the dual of (1) at the
    feasible ``κ a`` is at least ``κ 1ᵀa − ½ κ² Q*``, which grows with ``κ`` up to
    ``κ* = 1ᵀa / Q*``: below ``κ*`` every sample stays at the bound, i.e. the model is still
    the empty one scaled.  The path starts at the largest value of :data:`C_LADDER` at most
    ``κ*`` (snapped down to the ladder: the start is a decimal literal, so a last-bit
    difference in ``κ*`` can only change it when ``κ*`` lies within rounding of a ladder
    value).

    With ``sample_weight`` (the box is ``0 ≤ α_i ≤ C s_i``) the counts are weighted: ``a_i = s_i``
    on the class of smaller total weight and ``s_i W_small/W_large`` on the other, so integer
    weights give the ``a`` of the repeated samples (samples of zero weight are left out).

    Returns
    -------
    float
    """
    n = X.shape[1]
    om = np.ones(n) if feature_weights is None else np.asarray(feature_weights, float)
    X, ys, sample_weight = _positive_rows(X, ys, sample_weight)
    prob = _make_problem(X, ys, om, beta, 1.0, mu, p)
    pos = ys > 0
    if sample_weight is None:
        n_pos, n_neg = int(pos.sum()), int((~pos).sum())
        a = np.where(pos, 1.0, n_pos / n_neg) if n_pos <= n_neg else \
            np.where(pos, n_neg / n_pos, 1.0)
    else:
        n_pos, n_neg = float(sample_weight[pos].sum()), float(sample_weight[~pos].sum())
        a = sample_weight * (np.where(pos, 1.0, n_pos / n_neg) if n_pos <= n_neg else
                             np.where(pos, n_neg / n_pos, 1.0))
    logq = source_scores(prob, a * ys, [(i,) for i in range(n)])
    kappa = float(a.sum() * np.exp(-np.max(logq)))
    below = [c for c in C_LADDER if c <= kappa]
    return below[-1] if below else C_LADDER[0]


def path_stops(scores, tie_tol, patience):
    """Whether the data-driven ``C`` path of :class:`DisjunctiveHKLCV` stops after the last score.

    The rule of ``Cs=None``: the path stops once none of the last ``patience`` validation
    scores is more than ``tie_tol`` above the best score before it.

    Parameters
    ----------
    scores : sequence of float
        Mean validation accuracies along the path, smallest ``C`` first.
    tie_tol : float
        Scores within ``tie_tol`` of the best are ties (the estimator uses ``1/(2m)``).
    patience : int
        Scores without improvement after which the path stops.

    Returns
    -------
    bool

    Examples
    --------
    >>> from fsbook.hkl.estimator import path_stops
    >>> path_stops([0.70, 0.80, 0.80, 0.79], tie_tol=0.01, patience=2)
    True
    >>> path_stops([0.70, 0.80, 0.80, 0.85], tie_tol=0.01, patience=2)
    False
    """
    best, since = -np.inf, 0
    for sc in scores:
        if sc > best + tie_tol:
            best, since = sc, 0
        else:
            since += 1
    return since >= patience


class _DisjunctiveHKLBase(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Shared input checks, prediction and transform of the two estimators."""

    def _check_fit_input(self, X, y, sample_weight=None):
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64,
                             ensure_all_finite=True)
        if sample_weight is not None:
            # non-negative, finite, one per sample (scikit-learn's messages)
            sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64,
                                                ensure_non_negative=True)
        # the labels first: a wrong target is reported as such even when X is not boolean
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.size == 1:
            raise ValueError("DisjunctiveHKL needs two classes; y has only 1 class")
        if classes.size > 2:
            raise ValueError(f"Only binary classification is supported: y has {classes.size} "
                             "classes (wrap in sklearn.multiclass.OneVsRestClassifier)")
        self.classes_ = classes
        if sample_weight is not None and not all(np.any(sample_weight[y == c] > 0)
                                                 for c in classes):
            raise ValueError("DisjunctiveHKL needs two classes of positive weight; all the "
                             "samples of one class have sample_weight 0")
        X = _booleanize(X, self.binarize)
        n = X.shape[1]
        om = np.ones(n) if self.feature_weights is None else \
            np.asarray(self.feature_weights, dtype=float)
        if om.shape != (n,) or not np.all(om > 0):
            raise ValueError("feature_weights must be positive, one per feature")
        ys = np.where(y == classes[1], 1.0, -1.0)
        if sample_weight is not None:
            return X, ys, om, sample_weight
        return X, ys, om

    def _store(self, res):
        nodes, w = res["nodes"], res["w"]
        scale = max(np.abs(w).max(), 1e-300)
        keep = [k for k in np.argsort(-np.abs(w), kind="stable")
                if nodes[k] and abs(w[k]) > 1e-4 * scale]
        self.active_set_ = nodes[1:]
        self.eta_ = res["eta"]
        self.disjunctions_ = [nodes[k] for k in keep]
        self.coef_ = w[keep]
        self.nodes_, self.weights_ = nodes, w
        self.intercept_ = res["b"]
        names = getattr(self, "feature_names_in_", None)
        names = [f"x{i}" for i in range(self.n_features_in_)] if names is None else list(names)
        self.disjunction_names_ = [tuple(names[i] for i in v) for v in self.disjunctions_]
        self.n_iter_ = res["n_iter"]
        self.duality_gap_ = res["gap"]
        self.certified_ = bool(res["converged"])
        self.stop_reason_ = res["stop_reason"]
        self.objective_ = res["primal"]
        self.history_ = pd.DataFrame(res["history"])
        self.times_ = res["times"]

    # ------------------------------------------------------------------ prediction
    def _transform_input(self, X):
        X = validate_data(self, X, reset=False, accept_sparse="csr", dtype=np.float64,
                          ensure_all_finite=True)
        return _booleanize(X, self.binarize)

    def decision_function(self, X):
        """``Σ_v w_v ψ_v(x) + b`` (eq. (hkl-primal); positive for ``classes_[1]``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = self._transform_input(X)
        return np.asarray(lattice.node_indicator(X, self.nodes_, sparse=True) @ self.weights_
                          ).ravel() + self.intercept_

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive, else ``classes_[0]``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def transform(self, X):
        """The selected disjunctions ``ψ_v(x)`` (eq. (hkl-psi)), the reduced representation.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of bool, shape (n_samples, len(disjunctions_))
        """
        check_is_fitted(self)
        X = self._transform_input(X)
        return lattice.node_indicator(X, self.disjunctions_).astype(bool)

    def get_feature_names_out(self, input_features=None):
        """Names of the selected disjunctions, ``"a OR b"``.

        Parameters
        ----------
        input_features : array-like of str or None
            Input feature names; default ``feature_names_in_`` or ``x0, x1, …``.

        Returns
        -------
        ndarray of str (object)
        """
        check_is_fitted(self)
        names = check_feature_names_in(self, input_features)
        return np.array([" OR ".join(str(names[i]) for i in v) for v in self.disjunctions_],
                        dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        # transform returns booleans (the disjunctions), whatever the input dtype
        tags.transformer_tags.preserves_dtype = []
        if self.binarize is None:
            tags.input_tags.positive_only = True
        return tags


class DisjunctiveHKL(_DisjunctiveHKLBase):
    """Max-margin dimension reduction with disjunctive features learnt by HKL.

    Solves problem (1) of the paper (chapter 5, eq. (hkl-primal)),
    ``min ½(Σ_v δ_v ||w_{D(v)}||_p)² + C Σ_i ξ_i`` over all disjunctions ``v`` of the boolean
    input features, with the active-set algorithm of Figure 1, the sufficiency condition derived
    in the chapter and a certified duality gap.  Node weights (eq. (hkl-delta)):
    ``δ_∅ = 1`` for the top node (a ridge penalty on all weights) and
    ``δ_v = μ β^{|v|−1} ∏_{i∈v} ω_i`` for a non-empty disjunction: a single feature costs
    ``μ ω_i``, and every feature added to a disjunction multiplies its cost by ``β``.
    ``fit(X, y, sample_weight=s)`` weights the hinge loss, ``C Σ_i s_i ξ_i`` (see ``fit``).

    Parameters
    ----------
    C : float, default=1.0
        Hinge-loss weight of (1).
    beta : float or "auto", default="auto"
        Cost factor per additional feature of a disjunction.  ``"auto"`` is
        ``max(2, √n)``: the descendant sums of the sufficiency condition grow like
        ``exp(n/(1+β)²)``, so a smaller ``β`` leaves the certificate loose for thousands of
        features (chapter 5, Section 5).
    mu : float, default=1.0
        Weight ``μ`` of the single features relative to the top node (``μ → 0``: a ridge
        penalty, larger ``μ``: sparser).
    p : float in (1, 2], default=2.0
        Norm of the groups ``w_{D(v)}``.
    binarize : float or None, default=0.0
        Threshold for booleanising the input as ``x > binarize`` (as
        :class:`sklearn.naive_bayes.BernoulliNB`); ``None`` requires 0/1 input.
    tol : float, default=1e-3
        Relative duality-gap tolerance ε (on the full problem).
    max_active : int or None, default=None
        Cap on the active set (top node excluded); ``None``: no cap (the fit runs to its
        certificate, bounded by ``max_iter``).  A fit that reaches the
        cap before its certificate warns and reports ``certified_ = False`` with its
        ``duality_gap_`` and ``stop_reason_ = "max_active"``.
    max_add : int, default=200
        Cap on the violating nodes added per active-set iteration: larger values mean fewer,
        larger restricted problems on the way to the same certified optimum.  200 is the cheapest
        of 20, 50, 100, 200, 400 and 1 000 on a 20 Newsgroups training fold (1 070 posts,
        12 511 words; ``benchmarks/hkl.py --only max_add``).
    max_iter : int or None, default=100
        Cap on active-set iterations (``None``: no cap); a fit stopped by it warns and reports
        ``stop_reason_ = "max_iter"`` with its gap.
    feature_weights : array-like of shape (n_features,) or None, default=None
        Per-feature prior weights ``ω_i > 0`` (the paper's "background knowledge"); ``None``
        means 1.
    solver : {"working_set", "conic", "mirror", "variational"}, default="working_set"
        Solver of the problem restricted to the active set (:func:`fsbook.hkl.solve_active_set`):
        one conic program on the node features (:mod:`fsbook.hkl.primal`), solved on the
        samples near the margin of the previous active-set iteration's (or, on the path of
        :class:`DisjunctiveHKLCV`, the previous ``C``'s) solution, the others checked after
        the solve (``"working_set"``, the default,
        :func:`fsbook.hkl.primal.restricted_working_set`), or on every sample (``"conic"``); an
        interior point leaves the weights of unused nodes many orders of magnitude below the used
        ones, so ``disjunctions_`` cannot flip on rounding.  Both reach the same optimum within the
        certified gap; the working set is cheaper (a whole ``DisjunctiveHKLCV`` task on a
        20 Newsgroups fold: 6.1 times, with ``max_add=200``, ``benchmarks/hkl.py --only
        task_settings``).  ``"mirror"``: mirror descent on ``η`` with one inner SVM per step
        (the paper's algorithm, kept as the tested reference); same certificate.
        ``"variational"`` (opt-in, ``p = 2``): alternating minimisation of the variational form
        (4)–(7), a warm-started SVM and the closed-form ``η``
        (:func:`fsbook.hkl.variational.restricted_variational`), finished by the working-set
        program when the alternation is slow.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels (``classes_[1]`` is the positive class).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Present when ``X`` was a DataFrame with string column names.
    beta_ : float
        The ``β`` used.
    disjunctions_ : list of tuple of int
        The selected disjunctions (nodes with ``|w_v|`` above ``1e-4`` of the largest), by
        decreasing ``|w_v|``.
    disjunction_names_ : list of tuple of str
        The same with feature names (``feature_names_in_`` or ``x0, x1, …``).
    coef_ : ndarray
        The weights ``w_v`` of ``disjunctions_``.
    intercept_ : float
    active_set_ : list of tuple
        All active nodes (top excluded); ``eta_`` their ``η`` (top first).
    n_iter_ : int
        Active-set iterations.
    duality_gap_ : float
        Certified relative duality gap at termination.
    certified_ : bool
        Whether the relative duality gap reached ``tol``.
    stop_reason_ : str
        ``"certified"``, ``"max_active"``, ``"max_iter"`` or ``"stalled"``
        (:func:`fsbook.hkl.solve_active_set`).
    objective_ : float
        Value of (1).
    history_ : pandas.DataFrame
        One row per active-set iteration (iteration, n_active, primal, dual, gap, …).
    times_ : dict
        Seconds in SVMs, mirror descent and sufficiency checks.

    See Also
    --------
    fsbook.hkl.DisjunctiveHKLCV : the same with ``C`` (and ``β``) chosen by cross-validation.
    fsbook.hkl.HKLRanker : a feature selector ranking the features of a cross-validated model.

    References
    ----------
    .. [1] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``. The primal is its eq. (1), the dual in ``η`` its eq. (8) (``g(η)``, solved
       by ``solver="mirror"``) and the active-set algorithm its Figure 1.
    .. [2] Bach, F. (2009). Exploring Large Feature Spaces with Hierarchical Multiple Kernel
       Learning. Advances in Neural Information Processing Systems 21 (NIPS).
       ``references.bib``: ``bach2009hkl``.
    .. [3] Bach, F. (2009). High-Dimensional Non-Linear Variable Selection through Hierarchical
       Kernel Learning. Technical report, INRIA, arXiv:0909.0844. ``references.bib``:
       ``bach2009highdim``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import DisjunctiveHKL
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((80, 5)) < 0.3).astype(float)
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> est = DisjunctiveHKL(C=10.0, beta=2.0).fit(X, y)
    >>> sorted(est.get_feature_names_out().tolist())      # the two features and their OR
    ['x0', 'x0 OR x1', 'x1']
    >>> est.certified_, est.score(X, y)
    (True, 1.0)
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "beta": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "mu": [Interval(Real, 0, None, closed="neither")],
        "p": [Interval(Real, 1, 2, closed="right")],
        "binarize": [Real, None],
        "tol": [Interval(Real, 0, 1, closed="neither")],
        "max_active": [Interval(Integral, 1, None, closed="left"), None],
        "max_add": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "feature_weights": ["array-like", None],
        "solver": [StrOptions({"mirror", "conic", "working_set", "variational"})],
    }

    def __init__(self, C=1.0, beta="auto", mu=1.0, p=2.0, binarize=0.0, tol=1e-3,
                 max_active=None, max_add=200, max_iter=100, feature_weights=None,
                 solver="working_set"):
        self.C = C
        self.beta = beta
        self.mu = mu
        self.p = p
        self.binarize = binarize
        self.tol = tol
        self.max_active = max_active
        self.max_add = max_add
        self.max_iter = max_iter
        self.feature_weights = feature_weights
        self.solver = solver

    def _problem(self, X, ys, om, beta, C, sample_weight=None):
        return _make_problem(X, ys, om, beta, C, self.mu, self.p, sample_weight)

    def _solve(self, prob, warm=None):
        res = solve_active_set(prob, tol=self.tol, max_active=self.max_active,
                               max_add=self.max_add, max_iter=self.max_iter,
                               solver=self.solver, **({} if warm is None else warm))
        self._store(res)
        return res

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit problem (1) on ``X`` (booleanised as ``x > binarize``) and binary ``y``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, booleanised as ``x > binarize`` (0/1 required when ``binarize`` is None).
        y : array-like of shape (n_samples,)
            Labels of two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights ``s_i`` of the samples in the hinge loss of (1):
            ``½ Ω(w)² + C Σ_i s_i ξ_i``, i.e. sample ``i`` has the cost ``C s_i`` (its dual
            variable lies in ``0 ≤ α_i ≤ C s_i``).  The restricted solves, the primal value
            and duality gap of the certificate (``objective_``, ``duality_gap_``) are those of
            the weighted problem; the sufficiency condition, a function of the dual point
            alone, is unchanged.  Integer weights give the fit of the repeated samples, a zero
            weight that of the samples without it (the sample is left out).  Weights are
            counts, not normalised: scaling them all by ``k`` is the same as scaling ``C``.
            None weights every sample 1 (the unweighted computation, unchanged).

        Returns
        -------
        self : object
            The fitted estimator.
        """
        checked = self._check_fit_input(X, y, sample_weight)
        X, ys, om = checked[:3]
        self.beta_ = _resolve_beta(self.beta, X.shape[1])
        self._solve(self._problem(X, ys, om, self.beta_, self.C,
                                  None if sample_weight is None else checked[3]))
        return self


def _check_cv_cost(shape):
    """Refuse at once a cross-validated fit out of reach (:func:`fsbook._cost.check_cost`): the
    time is estimated from the measured 8.4 CPU s of a default fit on 2 000 × 100 (two classes,
    ``benchmarks/defaults.py``), linear in the samples and growing as ``d^1.3`` in the features
    (more than 60 s at 5 000 × 300).  The time depends on the data as much as on the size: on
    2 000 × 100 normal columns whose two classes differ by one along three columns only, the same
    fit ran for more than 9 CPU minutes (stopped)."""
    from fsbook._cost import check_cost
    n, d = shape
    check_cost("DisjunctiveHKLCV", f"{n} samples x {d} features",
               seconds=8.4 * (n / 2000) * (d / 100) ** 1.3,
               why="it fits a path of C on every inner fold and refits, each fit exploring "
                   "disjunctions of the features",
               fix="fit on fewer features (select first) or fewer samples, or give a short grid Cs")


class DisjunctiveHKLCV(_DisjunctiveHKLBase):
    """Disjunctive HKL with ``C`` (and ``β``) chosen by cross-validated accuracy.

    A sibling of :class:`DisjunctiveHKL`, as ``LassoCV`` stands beside ``Lasso``: on every
    fold the ``C`` values are solved in increasing order by the warm-started path function
    :func:`disjunctive_hkl_path`, and one :class:`DisjunctiveHKL` (``estimator_``) is refitted
    on all data at the chosen ``(C, β)``.

    The ``C`` values (``Cs=None``, the default) are read off the data: the path starts at
    :func:`c_start` (the largest value of :data:`C_LADDER`, ``1, 3, 10, 30, …`` times a power of
    ten, below the ``C`` up to which the empty model stays optimal) and climbs the ladder, a
    factor ≈ 3 per step, until the cross-validated accuracy has not improved for ``patience``
    steps (default 4: two decades) or ``max_Cs`` values (default 12: six decades) have been
    tried.  Scores within ``tie_tol = 1/(2m)`` (``m``
    training samples) are ties: one more correctly classified sample raises the mean fold
    accuracy by about ``1/m``, rounding differences by ``10⁻¹⁶``, so half a sample separates
    the two; "improved" means more than ``tie_tol`` above the best so far.  Ties are broken
    (``tie="two_class"``, the default) first toward fits that predict both classes on the
    validation points (a tied fit that predicts one class on all of them is the majority-rate
    model, at chance: on small, lopsided data the smallest ``C`` often is one), then toward the
    simpler model: the smaller ``C``, then the larger ``β``; ``tie="simplest"`` skips the first
    step (the rule of the stored benchmark, :data:`fsbook.experiments.benchmark.paper.HKL_SETTINGS`).  Cost: at most
    ``max_Cs`` warm-started fits per fold and ``β``, plus the refit; typically the path stops
    ``patience`` steps after the best ``C``.

    Parameters
    ----------
    Cs : array-like of float or None, default=None
        Candidate ``C`` (solved in increasing order); ``None``: the data-driven rule above.
    betas : array-like of (float or "auto"), default=("auto",)
        Candidate ``β``.
    patience : int, default=4
        Steps without improvement after which the data-driven path stops (two decades).
    max_Cs : int, default=12
        Cap on the values of the data-driven path (six decades).
    tie : {"two_class", "simplest"}, default="two_class"
        How ties in the cross-validated accuracy are broken (above).
    cv : int, cross-validation generator or iterable of (train, test) splits, default=3
        An int is the number of stratified folds, shuffled with ``random_state``.
    random_state : int, default=0
    mu, p, binarize, tol, max_active, max_add, max_iter, feature_weights, solver
        As in :class:`DisjunctiveHKL`.

    Attributes
    ----------
    C_, beta_ : float
        The chosen values.
    Cs_ : ndarray
        The ``C`` values tried (for the first ``β``).
    cv_results_ : pandas.DataFrame
        One row per ``(β, C)``: mean and per-fold validation accuracy, mean number of
        selected disjunctions and of multi-feature ones, whether every fold's fit was certified,
        and whether the folds' fits predict one class on all the validation points pooled
        (``one_class``: the majority-rate model, at chance).
    estimator_ : DisjunctiveHKL
        The model refitted at ``(C_, β_)``; its fitted attributes (``disjunctions_``,
        ``coef_``, ``duality_gap_``, ``certified_``, …) are also set on this estimator.

    See Also
    --------
    fsbook.hkl.DisjunctiveHKL : one model at fixed ``C`` and ``β`` (problem (1) of [1]_).
    fsbook.hkl.HKLRanker : a feature selector ranking the features of this model.

    Notes
    -----
    Sample weights.  ``fit(X, y, sample_weight=s)`` weights the hinge loss of every fit
    (:class:`DisjunctiveHKL`'s ``sample_weight``: the fold paths on the weights of their training
    samples, the refit on all of them) and the selection of ``C``: a fold's validation
    accuracy is the weighted fraction ``Σ_{i∈fold} s_i [ŷ_i = y_i] / Σ_{i∈fold} s_i``, the
    ``one_class`` column looks at the validation points of positive weight, the tie tolerance is
    ``½ min(1, min_{s_i>0} s_i) / Σ_i s_i`` (``1/(2m)`` for ``m`` repeated samples when the weights
    are integers; half the smallest sample's share of the accuracy for smaller weights), and
    :func:`c_start` counts the classes by weight.  So with the same folds (``cv`` given as
    splits), integer weights choose the ``C`` and fit the model of the repeated samples; the
    folds themselves (``cv`` an int) are drawn on the samples as given, whatever their weights.

    References
    ----------
    .. [1] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``.
    .. [2] Bach, F. (2009). Exploring Large Feature Spaces with Hierarchical Multiple Kernel
       Learning. Advances in Neural Information Processing Systems 21 (NIPS).
       ``references.bib``: ``bach2009hkl``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import DisjunctiveHKLCV
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((120, 5)) < 0.3).astype(float)
    >>> y = ((X[:, 0] + X[:, 1] > 0) ^ (X[:, 2] * X[:, 3] > 0)).astype(int)
    >>> est = DisjunctiveHKLCV().fit(X, y)
    >>> est.Cs_.tolist()          # from c_start up the ladder, capped at max_Cs = 12 values
    [0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0]
    >>> est.C_
    1000.0
    >>> "x0 OR x1" in est.get_feature_names_out(), est.certified_
    (True, True)
    """

    _parameter_constraints: dict = {
        **{k: v for k, v in DisjunctiveHKL._parameter_constraints.items()
           if k not in ("C", "beta")},
        "Cs": ["array-like", None],
        "betas": ["array-like"],
        "patience": [Interval(Integral, 1, None, closed="left")],
        "max_Cs": [Interval(Integral, 1, None, closed="left")],
        "cv": ["cv_object"],
        "random_state": ["random_state"],
        "tie": [StrOptions({"two_class", "simplest"})],
    }

    def __init__(self, Cs=None, betas=("auto",), mu=1.0, p=2.0, binarize=0.0, tol=1e-3,
                 max_active=None, max_add=200, max_iter=100, feature_weights=None, patience=4,
                 max_Cs=12, cv=3, random_state=0, solver="working_set", tie="two_class"):
        self.Cs = Cs
        self.betas = betas
        self.mu = mu
        self.p = p
        self.binarize = binarize
        self.tol = tol
        self.max_active = max_active
        self.max_add = max_add
        self.max_iter = max_iter
        self.feature_weights = feature_weights
        self.patience = patience
        self.max_Cs = max_Cs
        self.cv = cv
        self.random_state = random_state
        self.solver = solver
        self.tie = tie

    def _folds(self, ys):
        if isinstance(self.cv, Integral):
            cv = StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
        else:
            cv = check_cv(self.cv, ys, classifier=True)
        return list(cv.split(np.zeros((len(ys), 1)), ys))

    def _candidates(self, X, ys, beta, sample_weight=None):
        """The ``C`` values: the given ``Cs`` sorted, or the ladder from :func:`c_start`."""
        if self.Cs is not None:
            Cs = np.sort(np.asarray(self.Cs, dtype=float))
            if Cs.size == 0 or not np.all(Cs > 0):
                raise ValueError("Cs must be a non-empty list of positive numbers")
            return list(Cs), False
        c0 = c_start(X, ys, beta, self.mu, self.p, self.feature_weights, sample_weight)
        return [c for c in C_LADDER if c >= c0][: self.max_Cs], True

    def _cv_path(self, X, ys, beta, folds, tie_tol, sample_weight=None):
        """Advance every fold's path in lock-step; returns one row per ``C`` tried."""
        Cs, adaptive = self._candidates(X, ys, beta, sample_weight)
        kw = dict(beta=beta, mu=self.mu, p=self.p, feature_weights=self.feature_weights,
                  tol=self.tol, max_active=self.max_active, max_add=self.max_add,
                  max_iter=self.max_iter, solver=self.solver)
        sw = sample_weight
        if sw is not None:
            for k, (_, va) in enumerate(folds):
                if not sw[va].sum() > 0:
                    raise ValueError(f"DisjunctiveHKLCV: the validation samples of fold {k} all "
                                     "have sample_weight 0, so their weighted accuracy is "
                                     "undefined; give them weight or choose other folds (cv)")
        paths = [disjunctive_hkl_path(X[tr], ys[tr], iter(Cs), **kw,
                                      **({} if sw is None else {"sample_weight": sw[tr]}))
                 for tr, _ in folds]
        rows = []
        for C in Cs:
            acc, ndis, nmulti, cert, positive = [], [], [], [], []
            for path, (_, va) in zip(paths, folds):
                _, res = next(path)
                f = np.asarray(lattice.node_indicator(X[va], res["nodes"], sparse=True)
                               @ res["w"]).ravel() + res["b"]
                if sw is None:
                    acc.append(float(np.mean((f > 0) == (ys[va] > 0))))
                    positive.append(f > 0)
                else:                # weighted accuracy; the points of zero weight do not count
                    acc.append(float(np.average((f > 0) == (ys[va] > 0), weights=sw[va])))
                    positive.append(f[sw[va] > 0] > 0)
                w = np.abs(res["w"])
                sel = [v for v, wv in zip(res["nodes"], w) if v and wv > 1e-4 * max(w.max(), 1e-300)]
                ndis.append(len(sel))
                nmulti.append(sum(len(v) > 1 for v in sel))
                cert.append(bool(res["converged"]))
            rows.append(dict(beta=beta, C=C, mean_accuracy=float(np.mean(acc)),
                             **{f"fold{k}_accuracy": a for k, a in enumerate(acc)},
                             mean_disjunctions=float(np.mean(ndis)),
                             mean_multi_feature=float(np.mean(nmulti)), certified=all(cert),
                             one_class=bool(np.unique(np.concatenate(positive)).size < 2)))
            if adaptive and path_stops([r["mean_accuracy"] for r in rows], tie_tol,
                                        self.patience):
                break
        return rows

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Choose ``(C, β)`` by cross-validation, then refit one :class:`DisjunctiveHKL`.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, booleanised as ``x > binarize`` (0/1 required when ``binarize`` is None).
        y : array-like of shape (n_samples,)
            Labels of two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples, used throughout (see Notes): in the hinge loss
            of every fit (each fold's path on its training samples' weights, and the refit, as
            :class:`DisjunctiveHKL`'s ``sample_weight``), in the validation accuracy (the
            weighted fraction of a fold's validation samples classified correctly), in the
            tie tolerance and in the data-driven start of the ``C`` path (:func:`c_start`).
            They do not change the folds.  None weights every sample 1.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        X_in, y_in = X, y
        checked = self._check_fit_input(X, y, sample_weight)
        X, ys = checked[:2]
        sw = None if sample_weight is None else checked[3]
        _check_cv_cost(X.shape)
        betas = [_resolve_beta(b, X.shape[1]) if b == "auto" else float(b) for b in self.betas]
        if not betas or not all(b > 0 for b in betas):
            raise ValueError("betas must be a non-empty list of positive numbers or 'auto'")
        folds = self._folds(ys)
        X = sp.csr_matrix(X)
        if sw is None:
            tie_tol = 0.5 / len(ys)
        else:   # half the smallest weight a sample counts with (1 for integer weights)
            tie_tol = 0.5 * min(1.0, float(sw[sw > 0].min())) / float(sw.sum())
        rows = []
        with warnings.catch_warnings():
            # fold fits that stop uncertified are recorded in cv_results_["certified"]
            warnings.simplefilter("ignore", ConvergenceWarning)
            for beta in betas:
                rows += self._cv_path(X, ys, beta, folds, tie_tol, sw)
        res = pd.DataFrame(rows)
        top = res.mean_accuracy.max()
        tied = res[res.mean_accuracy >= top - tie_tol]
        order = ["one_class", "C", "_nb"] if self.tie == "two_class" else ["C", "_nb"]
        best = tied.assign(_nb=-tied.beta).sort_values(order, kind="stable").iloc[0]
        self.cv_results_ = res
        self.Cs_ = res.C[res.beta == betas[0]].to_numpy()
        self.C_, self.beta_ = float(best.C), float(best.beta)
        params = {k: getattr(self, k) for k in ("mu", "p", "binarize", "tol", "max_active",
                                                 "max_add", "max_iter", "feature_weights",
                                                 "solver")}
        self.estimator_ = DisjunctiveHKL(C=self.C_, beta=self.beta_, **params).fit(
            X_in, y_in, **({} if sw is None else {"sample_weight": sw}))
        for k, v in vars(self.estimator_).items():
            if k.endswith("_") and not k.startswith("_") and k not in ("beta_",):
                setattr(self, k, v)
        return self

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
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, _fit_context
from sklearn.model_selection import StratifiedKFold
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from . import lattice
from .solver import HKLProblem, solve_active_set

__all__ = ["DisjunctiveHKL", "DisjunctiveHKLCV"]


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


class DisjunctiveHKL(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Max-margin dimension reduction with disjunctive features learnt by HKL.

    Solves problem (1) of the paper (chapter 5, eq. (hkl-primal)),
    ``min ½(Σ_v δ_v ||w_{D(v)}||_p)² + C Σ_i ξ_i`` over all disjunctions ``v`` of the boolean
    input features, with the active-set algorithm of Figure 1, the sufficiency condition derived
    in the chapter and a certified duality gap.  Node weights (eq. (hkl-delta)):
    ``δ_∅ = 1`` for the top node (a ridge penalty on all weights) and
    ``δ_v = μ β^{|v|−1} ∏_{i∈v} ω_i`` for a non-empty disjunction: a single feature costs
    ``μ ω_i``, and every feature added to a disjunction multiplies its cost by ``β``.

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
    max_active : int, default=200
        Cap on the active set (top node excluded).
    max_add : int, default=20
        Cap on the violating nodes added per active-set iteration.
    max_iter : int, default=100
        Cap on active-set iterations.
    feature_weights : array-like of shape (n_features,) or None, default=None
        Per-feature prior weights ``ω_i > 0`` (the paper's "background knowledge"); ``None``
        means 1.

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
    converged_ : bool
    objective_ : float
        Value of (1).
    history_ : pandas.DataFrame
        One row per active-set iteration (iteration, n_active, primal, dual, gap, …).
    times_ : dict
        Seconds in SVMs, mirror descent and sufficiency checks.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import DisjunctiveHKL
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((80, 5)) < 0.3).astype(float)
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> est = DisjunctiveHKL(C=10.0, beta=2.0).fit(X, y)
    >>> est.get_feature_names_out()[0]
    'x0 OR x1'
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "beta": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "mu": [Interval(Real, 0, None, closed="neither")],
        "p": [Interval(Real, 1, 2, closed="right")],
        "binarize": [Real, None],
        "tol": [Interval(Real, 0, 1, closed="neither")],
        "max_active": [Interval(Integral, 1, None, closed="left")],
        "max_add": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "feature_weights": ["array-like", None],
    }

    def __init__(self, C=1.0, beta="auto", mu=1.0, p=2.0, binarize=0.0, tol=1e-3,
                 max_active=200, max_add=20, max_iter=100, feature_weights=None):
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

    # ------------------------------------------------------------------ fitting
    def _check_fit_input(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64,
                             ensure_all_finite=True)
        # the labels first: a wrong target is reported as such even when X is not boolean
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.size == 1:
            raise ValueError("DisjunctiveHKL needs two classes; y has only 1 class")
        if classes.size > 2:
            raise ValueError(f"Only binary classification is supported: y has {classes.size} "
                             "classes (wrap in sklearn.multiclass.OneVsRestClassifier)")
        self.classes_ = classes
        X = _booleanize(X, self.binarize)
        n = X.shape[1]
        om = np.ones(n) if self.feature_weights is None else \
            np.asarray(self.feature_weights, dtype=float)
        if om.shape != (n,) or not np.all(om > 0):
            raise ValueError("feature_weights must be positive, one per feature")
        return X, np.where(y == classes[1], 1.0, -1.0), om

    def _problem(self, X, ys, om, beta, C):
        """``HKLProblem`` with ``δ_∅ = 1``, ``δ_v = μ β^{|v|−1} ∏ ω_i`` (eq. (hkl-delta))."""
        return HKLProblem(X, ys, C=C, p=self.p, omega=beta * om, delta_top=1.0,
                          delta_node=self.mu / beta)

    def _solve(self, prob, warm=None):
        res = solve_active_set(prob, tol=self.tol, max_active=self.max_active,
                               max_add=self.max_add, max_iter=self.max_iter,
                               **({} if warm is None else warm))
        self._store(res)
        return res

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
        self.converged_ = res["converged"]
        self.objective_ = res["primal"]
        self.history_ = pd.DataFrame(res["history"])
        self.times_ = res["times"]

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit problem (1) on ``X`` (booleanised as ``x > binarize``) and binary ``y``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), two classes

        Returns
        -------
        self
        """
        X, ys, om = self._check_fit_input(X, y)
        self.beta_ = _resolve_beta(self.beta, X.shape[1])
        self._solve(self._problem(X, ys, om, self.beta_, self.C))
        return self

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
        names = _check_feature_names_in(self, input_features)
        return np.array([" OR ".join(str(names[i]) for i in v) for v in self.disjunctions_],
                        dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        if self.binarize is None:
            tags.input_tags.positive_only = True
        return tags


class DisjunctiveHKLCV(DisjunctiveHKL):
    """Disjunctive HKL with ``C`` (and ``β``) chosen by cross-validated accuracy.

    For every ``β`` in ``betas`` and every inner fold, the ``Cs`` are solved in increasing
    order along a regularisation path: each solve starts from the previous active set, its
    ``η`` and the inner SVM's dual variables (the warm-started SMO of :mod:`fsbook.hkl.smo`).
    The pair with the best mean validation accuracy (ties: smaller ``C``, then larger ``β``,
    i.e. the sparser model) is refitted on all data, again along the path up to the chosen
    ``C``.

    Parameters
    ----------
    Cs : array-like of float, default=(0.01, 0.1, 1.0, 10.0)
        Candidate ``C``.
    betas : array-like of (float or "auto"), default=("auto",)
        Candidate ``β``.
    cv : int, default=3
        Number of stratified folds (shuffled with ``random_state``).
    random_state : int, default=0
    mu, p, binarize, tol, max_active, max_add, max_iter, feature_weights
        As in :class:`DisjunctiveHKL`.

    Attributes
    ----------
    C_, beta_ : float
        The chosen values.
    cv_results_ : pandas.DataFrame
        One row per ``(β, C)``: mean and per-fold validation accuracy, mean number of
        selected disjunctions and of multi-feature ones.
    All attributes of :class:`DisjunctiveHKL` for the refitted model.
    """

    _parameter_constraints: dict = {
        **{k: v for k, v in DisjunctiveHKL._parameter_constraints.items()
           if k not in ("C", "beta")},
        "Cs": ["array-like"],
        "betas": ["array-like"],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, Cs=(0.01, 0.1, 1.0, 10.0), betas=("auto",), mu=1.0, p=2.0, binarize=0.0,
                 tol=1e-3, max_active=200, max_add=20, max_iter=100, feature_weights=None,
                 cv=3, random_state=0):
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
        self.cv = cv
        self.random_state = random_state

    def _path(self, X, ys, om, beta, Cs, on_fit):
        """Solve the ``Cs`` in increasing order with warm starts; ``on_fit(C)`` after each."""
        prob = None
        warm = None
        for C in Cs:
            if prob is None:
                prob = self._problem(X, ys, om, beta, C)
            prob.C = float(C)
            res = self._solve(prob, warm)
            warm = dict(nodes=res["nodes"], eta=res["eta"])
            on_fit(C)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Choose ``(C, β)`` by cross-validation, then refit on all of ``X, y``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), two classes

        Returns
        -------
        self
        """
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        X, ys, om = self._check_fit_input(X, y)
        Cs = np.sort(np.asarray(self.Cs, dtype=float))
        if Cs.size == 0 or not np.all(Cs > 0):
            raise ValueError("Cs must be a non-empty list of positive numbers")
        betas = [_resolve_beta(b, X.shape[1]) if b == "auto" else float(b) for b in self.betas]
        if not betas or not all(b > 0 for b in betas):
            raise ValueError("betas must be a non-empty list of positive numbers or 'auto'")
        folds = list(StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
                     .split(np.zeros(len(ys)), ys))
        X = sp.csr_matrix(X)
        rows = []
        for beta in betas:
            acc = {C: [] for C in Cs}
            ndis = {C: [] for C in Cs}
            nmulti = {C: [] for C in Cs}
            for tr, va in folds:
                def score(C, va=va):
                    f = np.asarray(lattice.node_indicator(X[va], self.nodes_, sparse=True)
                                   @ self.weights_).ravel() + self.intercept_
                    acc[C].append(float(np.mean((f > 0) == (ys[va] > 0))))
                    ndis[C].append(len(self.disjunctions_))
                    nmulti[C].append(sum(len(v) > 1 for v in self.disjunctions_))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    self._path(X[tr], ys[tr], om, beta, Cs, score)
            for C in Cs:
                rows.append(dict(beta=beta, C=C, mean_accuracy=float(np.mean(acc[C])),
                                 **{f"fold{k}_accuracy": a for k, a in enumerate(acc[C])},
                                 mean_disjunctions=float(np.mean(ndis[C])),
                                 mean_multi_feature=float(np.mean(nmulti[C]))))
        res = pd.DataFrame(rows)
        order = res.assign(_nb=-res.beta).sort_values(["mean_accuracy", "C", "_nb"],
                                                      ascending=[False, True, True], kind="stable")
        best = order.iloc[0]
        self.cv_results_ = res
        self.C_, self.beta_ = float(best.C), float(best.beta)
        self._path(X, ys, om, self.beta_, Cs[Cs <= self.C_], lambda C: None)
        return self

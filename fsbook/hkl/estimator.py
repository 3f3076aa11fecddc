"""scikit-learn estimator for disjunctive HKL (the method of the paper, Section 2)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import lattice
from .solver import HKLProblem, solve_active_set

__all__ = ["DisjunctiveHKL", "OneVsRestDisjunctiveHKL"]


def _check_boolean(X):
    vals = X.data if sp.issparse(X) else np.asarray(X).ravel()
    if vals.size and not np.all((vals == 0) | (vals == 1)):
        raise ValueError("DisjunctiveHKL needs boolean (0/1) features; booleanise first "
                         "(e.g. X > 0 for counts, fsbook.booleanize.threshold for numbers)")


class DisjunctiveHKL(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Max-margin dimension reduction with disjunctive features learnt by HKL.

    Solves problem (1) of the paper, ``min ½(Σ_v δ_v ||w_{D(v)}||_p)² + C Σ_i ξ_i``
    over all disjunctions ``v`` of the boolean input features, with the
    active-set algorithm of Figure 1 and the sufficiency condition derived in
    the chapter.  Node weights are ``δ_v = ∏_{i∈v} β ω_i`` (``ω`` =
    ``feature_weights``, default 1, i.e. ``δ_v = β^{|v|}``).

    Parameters
    ----------
    C : float, default 1.0
    beta : float or "auto", default "auto"
        ``"auto"`` uses ``β = max(2, √n)``: the descendant sums in the
        sufficiency condition grow like ``exp(n/(1+β)²)``, so a smaller ``β``
        makes the condition impossible to certify for thousands of features.
    p : float in (1, 2], default 2.0
    tol : float, default 1e-3
        Relative duality-gap tolerance ε (on the full problem).
    max_active : int, default 200
        Cap on the active set (top node excluded).
    max_add : int, default 20
        Cap on the violating nodes added per active-set iteration.
    max_iter : int, default 100
        Cap on active-set iterations.
    feature_weights : array (n,) or None
        Per-feature prior weights ``ω_i > 0`` (the paper's "background knowledge").
    feature_names : sequence of str or None
        Names for ``disjunctions_``; taken from a DataFrame's columns otherwise.

    Attributes
    ----------
    classes_ : array of the two labels (``classes_[1]`` is the positive class).
    disjunctions_ : list of tuples of feature indices, the selected disjunctions
        (nodes with non-negligible weight), by decreasing ``|w_v|``.
    disjunction_names_ : list of tuples of names (None without names).
    coef_ : array, the weights ``w_v`` of ``disjunctions_``; ``intercept_`` : float.
    active_set_ : all active nodes; ``eta_`` their η.
    n_iter_ : int, active-set iterations.
    duality_gap_ : float, certified relative duality gap at termination.
    history_ : pandas.DataFrame, one row per active-set iteration (iteration,
        n_active, primal, dual, gap, n_violating, …).
    times_ : dict, seconds in SVMs, mirror descent and sufficiency checks.
    """

    def __init__(self, C=1.0, beta="auto", p=2.0, tol=1e-3, max_active=200, max_add=20,
                 max_iter=100, feature_weights=None, feature_names=None):
        self.C = C
        self.beta = beta
        self.p = p
        self.tol = tol
        self.max_active = max_active
        self.max_add = max_add
        self.max_iter = max_iter
        self.feature_weights = feature_weights
        self.feature_names = feature_names

    def _validate_X(self, X, reset):
        X = validate_data(self, X, reset=reset, accept_sparse="csr", dtype=np.float64,
                          ensure_all_finite=True)
        _check_boolean(X)
        return X

    def fit(self, X, y):
        names = list(map(str, X.columns)) if isinstance(X, pd.DataFrame) else None
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64,
                             ensure_all_finite=True)
        # the labels first: a wrong target is reported as such even when X is not boolean
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size == 1:
            raise ValueError("DisjunctiveHKL needs two classes; y has only 1 class")
        if self.classes_.size > 2:
            raise ValueError(f"Only binary classification is supported: y has {self.classes_.size} "
                             "classes (use OneVsRestDisjunctiveHKL for more)")
        _check_boolean(X)
        if not (1.0 < float(self.p) <= 2.0):
            raise ValueError(f"p must be in (1, 2], got {self.p}")
        if not self.C > 0:
            raise ValueError("C must be positive")
        n = X.shape[1]
        beta = max(2.0, np.sqrt(n)) if self.beta == "auto" else float(self.beta)
        if not beta > 0:
            raise ValueError("beta must be positive")
        om = np.ones(n) if self.feature_weights is None else \
            np.asarray(self.feature_weights, dtype=float)
        if om.shape != (n,) or not np.all(om > 0):
            raise ValueError("feature_weights must be positive, one per feature")
        if self.feature_names is not None:
            names = list(map(str, self.feature_names))
            if len(names) != n:
                raise ValueError("feature_names must have one name per feature")
        self.beta_ = beta
        ys = np.where(y == self.classes_[1], 1.0, -1.0)
        prob = HKLProblem(X, ys, C=self.C, p=self.p, omega=beta * om, delta_top=1.0)
        res = solve_active_set(prob, tol=self.tol, max_active=self.max_active,
                               max_add=self.max_add, max_iter=self.max_iter)
        nodes, w = res["nodes"], res["w"]
        scale = max(np.abs(w).max(), 1e-300)
        keep = [k for k in np.argsort(-np.abs(w), kind="stable")
                if nodes[k] and abs(w[k]) > 1e-4 * scale]
        self.active_set_ = nodes[1:]
        self.eta_ = res["eta"]
        self.disjunctions_ = [nodes[k] for k in keep]
        self.coef_ = w[keep]
        self._all_nodes, self._all_w = nodes, w
        self.intercept_ = res["b"]
        self.feature_names_ = names
        self.disjunction_names_ = None if names is None else \
            [tuple(names[i] for i in v) for v in self.disjunctions_]
        self.n_iter_ = res["n_iter"]
        self.duality_gap_ = res["gap"]
        self.converged_ = res["converged"]
        self.objective_ = res["primal"]
        self.history_ = pd.DataFrame(res["history"])
        self.times_ = res["times"]
        return self

    def decision_function(self, X):
        """``Σ_v w_v ψ_v(x) + b`` (positive for ``classes_[1]``)."""
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        return np.asarray(lattice.node_indicator(X, self._all_nodes, sparse=True) @ self._all_w
                          ).ravel() + self.intercept_

    def predict(self, X):
        """The label ``classes_[1]`` where the decision function is positive, else ``classes_[0]``."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def transform(self, X):
        """Boolean matrix (samples × ``len(disjunctions_)``) of the selected disjunctions."""
        check_is_fitted(self)
        X = self._validate_X(X, reset=False)
        return lattice.node_indicator(X, self.disjunctions_).astype(bool)

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self)
        names = self.disjunction_names_ or [tuple(f"x{i}" for i in v) for v in self.disjunctions_]
        return np.array([" OR ".join(v) for v in names], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = True     # 0/1 input only
        tags.classifier_tags.multi_class = False
        return tags


class OneVsRestDisjunctiveHKL(ClassifierMixin, BaseEstimator):
    """One-vs-rest wrapper: one :class:`DisjunctiveHKL` per class (``estimators_``)."""

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        check_classification_targets(y)
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError("y needs at least two classes")
        base = self.estimator if self.estimator is not None else DisjunctiveHKL()
        if self.classes_.size == 2:
            self.estimators_ = [clone(base).fit(X, y)]
        else:
            self.estimators_ = [clone(base).fit(X, (y == c).astype(int)) for c in self.classes_]
        return self

    def decision_function(self, X):
        check_is_fitted(self)
        D = np.column_stack([e.decision_function(X) for e in self.estimators_])
        return D[:, 0] if self.classes_.size == 2 else D

    def predict(self, X):
        D = self.decision_function(X)
        if D.ndim == 1:
            return self.classes_[(D > 0).astype(int)]
        return self.classes_[D.argmax(axis=1)]

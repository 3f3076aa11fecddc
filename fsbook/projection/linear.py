"""Projection penalties for linear models (Zhang & Schneider 2010, Sections 2.2, 2.4, 2.5).

With a reducer :math:`P\\in\\mathbb R^{d\\times n}` the penalised problem (eq. 6 with the
extra term of Section 2.4) is

.. math::

    \\min_{w,b}\\; L(w,b) + \\alpha\\,\\min_{v}\\big(\\lVert w-P^\\top v\\rVert_2^2
    + \\lambda\\lVert v\\rVert_2^2\\big),

and the change of variables :math:`\\tilde w = w - P^\\top v` (eq. 7) turns it into an ordinary
ℓ2-regularised model on the augmented representation :math:`[x;\\,Px]` in which only
:math:`\\tilde w` (and :math:`\\sqrt\\lambda\\,v`) is penalised.  ``λ > 0`` is therefore the wrapped
estimator fitted on :math:`[x;\\,Px/\\sqrt\\lambda]`; ``λ = 0`` leaves :math:`v` unpenalised, which
no scikit-learn estimator offers, so it is solved exactly here (closed form for squared loss,
L-BFGS on the exact smooth objective for the logistic and squared-hinge losses).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.sparse as sp
import scipy.special
from sklearn import get_config
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone, is_classifier
from sklearn.cross_decomposition import CCA, PLSSVD, PLSCanonical, PLSRegression
from sklearn.decomposition import PCA, IncrementalPCA, TruncatedSVD
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.svm import LinearSVC
from sklearn.utils import Bunch
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import HasMethods, Interval, fit_context, raise_for_params
from fsbook.projection.pls import ExhaustedSafePLS

__all__ = ["ProjectionPenalty", "augment_features", "reduce"]

#: above this many input features the reducer is not probed for linearity
MAX_PROBE_FEATURES = 2000


def augment_features(X, Z, scale=1.0):
    """Augmented representation ``[X, scale * Z]`` of eq. (7).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (m, n)
    Z : array-like of shape (m, d)
        Reduced representation ``P x`` (or ``θ(x)``, Section 2.5).
    scale : float, default=1.0
        ``1/sqrt(λ)`` implements the penalty ``α λ ||v||²`` through a uniform ℓ2 penalty.

    Returns
    -------
    ndarray or CSR matrix of shape (m, n + d)
    """
    Z = np.asarray(Z, dtype=float) * scale
    if sp.issparse(X):
        return sp.hstack([X, sp.csr_matrix(Z)], format="csr")
    return np.hstack([np.asarray(X, dtype=float), Z])


def reduce(reducer, X):
    """Reduced representation: ``X @ P.T`` for a matrix ``P``, else ``reducer.transform(X)``."""
    if isinstance(reducer, np.ndarray):
        return np.asarray(X @ reducer.T)
    return np.asarray(reducer.transform(X), dtype=float)


#: reducers whose components are linear combinations of the input features: a linear reduction is
#: a d x n_features matrix P, so at most n_features components
_LINEAR_REDUCERS = (PCA, IncrementalPCA, TruncatedSVD, PLSRegression, PLSCanonical, CCA, PLSSVD,
                    LinearDiscriminantAnalysis, ExhaustedSafePLS)


def _check_components(owner, reducer, n_features):
    """Refuse a reducer's ``n_components`` outside its valid range, before the reducer is fitted.

    The range is ``[1, n_features]`` for a linear reducer (:data:`_LINEAR_REDUCERS`) and
    ``[1, ∞)`` for any other (a kernel or Section 2.5 reducer checks its own upper bound);
    ``n_components=None`` (the reducer's default size) and reducers without the parameter pass.
    A matrix reducer ``P`` must have ``1 ≤ d`` rows.
    """
    if isinstance(reducer, np.ndarray):
        if reducer.shape[0] < 1:
            raise ValueError(f"{owner}: the reducer matrix P has d = {reducer.shape[0]} rows; a projection "
                             "penalty needs d >= 1 reduced components (P of shape (d, n_features))")
        return
    params = reducer.get_params(deep=False) if hasattr(reducer, "get_params") else {}
    k = params.get("n_components")
    if not isinstance(k, Integral) or isinstance(k, bool):
        return
    linear = isinstance(reducer, _LINEAR_REDUCERS)
    upper = n_features if linear else None
    if k < 1 or (upper is not None and k > upper):
        valid = (f"[1, {upper}] (a linear reducer has at most n_features = {upper} components)"
                 if linear else "[1, inf)")
        raise ValueError(f"{owner}: reducer__n_components = {k} (n_components of the reducer "
                         f"{type(reducer).__name__}) is outside its valid range {valid}")


def _check_reduced(owner, Z):
    """Refuse a fitted reducer whose transform gives no column (a reduced space of dimension 0)."""
    if Z.ndim != 2 or Z.shape[1] < 1:
        raise ValueError(f"{owner}: the fitted reducer gives {Z.shape[1] if Z.ndim == 2 else 'no'} "
                         "reduced components; a projection penalty needs at least 1 (reducer__n_components "
                         "in [1, inf))")


def _probe_linear(reducer, X):
    """Return ``(M, c)`` with ``reduce(X) = X M + c`` if the reducer is affine, else ``None``.

    The map is read off by transforming the origin and the unit vectors, then verified on
    (up to 20 of) the training rows.
    """
    n = X.shape[1]
    if isinstance(reducer, np.ndarray):
        return reducer.T.copy(), np.zeros(reducer.shape[0])
    if n > MAX_PROBE_FEATURES:
        return None
    try:
        E = np.vstack([np.zeros((1, n)), np.eye(n)])
        T = reduce(reducer, sp.csr_matrix(E) if sp.issparse(X) else E)
    except Exception:  # reducer refuses synthetic input (e.g. needs counts)
        return None
    c, M = T[0], T[1:] - T[0]
    Xs = X[:20]
    pred = np.asarray(Xs @ M) + c
    actual = reduce(reducer, Xs)
    tol = 1e-7 * max(1.0, np.abs(actual).max())
    if not np.allclose(pred, actual, rtol=1e-6, atol=tol):
        return None
    return M, c


# --------------------------------------------------------------------------- exact λ = 0
def _ridge_unpenalised_v(X, Z, y, alpha, fit_intercept):
    """Exact minimiser of ``||y - X w - Z v - b||² + α ||w||²`` (v, b free).

    Frisch-Waugh-Lovell: the free block ``E = [1, Z]`` is projected out of ``X`` and ``y``,
    ``w`` is the ridge solution on the residuals, then ``(b, v)`` is the least-squares fit of
    ``y - X w`` on ``E`` (minimum-norm ``v`` if ``Z`` is rank deficient).
    """
    E = np.hstack([np.ones((X.shape[0], 1)), Z]) if fit_intercept else Z
    Q = scipy.linalg.orth(E) if E.shape[1] else np.zeros((X.shape[0], 0))
    Xr = X - Q @ (Q.T @ X)
    yr = y - Q @ (Q.T @ y)
    n = X.shape[1]
    W = scipy.linalg.solve(Xr.T @ Xr + alpha * np.eye(n), Xr.T @ yr, assume_a="pos")
    coef_free, *_ = scipy.linalg.lstsq(E, y - X @ W) if E.shape[1] else (np.zeros((0,) + y.shape[1:]),)
    if fit_intercept:
        b, V = coef_free[0], coef_free[1:]
    else:
        b, V = np.zeros(y.shape[1:]), coef_free
    return W, V, b


def _smooth_objective(kind, A, Y, n_pen, C, fit_intercept):
    """Objective ``½||W[:, :n_pen]||² + C Σ loss`` and gradient for L-BFGS.

    ``kind`` is ``"logistic"`` (binary, Y in ±1, one row), ``"multinomial"`` (Y one-hot) or
    ``"squared_hinge"`` (one-vs-rest, Y in ±1 per column).
    """
    m, p = A.shape
    k = Y.shape[1]

    def unpack(theta):
        W = theta[: k * p].reshape(k, p)
        b = theta[k * p:] if fit_intercept else np.zeros(k)
        return W, b

    def fun(theta):
        W, b = unpack(theta)
        F = np.asarray(A @ W.T) + b  # (m, k)
        if kind == "logistic":
            z = Y * F
            loss = np.logaddexp(0.0, -z).sum()
            G = -Y * scipy.special.expit(-z)
        elif kind == "multinomial":
            lse = scipy.special.logsumexp(F, axis=1, keepdims=True)
            loss = (lse - (F * Y).sum(axis=1, keepdims=True)).sum()
            G = np.exp(F - lse) - Y
        else:  # squared hinge
            s = np.maximum(0.0, 1.0 - Y * F)
            loss = (s ** 2).sum()
            G = -2.0 * Y * s
        Wp = W[:, :n_pen]
        f = 0.5 * np.sum(Wp ** 2) + C * loss
        gW = C * np.asarray(A.T @ G).T
        gW[:, :n_pen] += Wp
        grad = [gW.ravel()]
        if fit_intercept:
            grad.append(C * G.sum(axis=0))
        return f, np.concatenate(grad)

    return fun, unpack


def _exact_classifier(estimator, X, Z, y, classes, W0, b0):
    """Exact λ = 0 solution for LogisticRegression / LinearSVC on ``[X, Z]``."""
    A = augment_features(X, Z, 1.0)
    n = X.shape[1]
    C = float(estimator.C)
    fit_intercept = bool(estimator.fit_intercept)
    if isinstance(estimator, LogisticRegression):
        if len(classes) == 2:
            kind, Y = "logistic", np.where(y == classes[1], 1.0, -1.0)[:, None]
        else:
            kind, Y = "multinomial", (y[:, None] == classes[None, :]).astype(float)
    else:
        kind = "squared_hinge"
        if len(classes) == 2:
            Y = np.where(y == classes[1], 1.0, -1.0)[:, None]
        else:
            Y = np.where(y[:, None] == classes[None, :], 1.0, -1.0)
    fun, unpack = _smooth_objective(kind, A, Y, n, C, fit_intercept)
    theta0 = np.concatenate([W0.ravel()] + ([b0.ravel()] if fit_intercept else []))
    res = scipy.optimize.minimize(fun, theta0, jac=True, method="L-BFGS-B",
                                  options={"maxiter": 20000, "maxcor": 30,
                                           "ftol": 1e-15, "gtol": 1e-9})
    grad_norm = np.abs(fun(res.x)[1]).max()
    if grad_norm > 1e-6 * max(1.0, abs(res.fun)):
        warnings.warn(f"ProjectionPenalty: exact solver stopped ({res.message}); with "
                      "reduced_penalty=0 the reduced coefficients are unpenalised and may "
                      "diverge on separable data", ConvergenceWarning, stacklevel=3)
    return unpack(res.x)


# --------------------------------------------------------------------------- estimator
class ProjectionPenalty(MetaEstimatorMixin, BaseEstimator):
    """Projection-penalised ℓ2 linear model (eqs. 6-7 and Section 2.4).

    Minimises ``L(w, b) + α min_v (||w − Pᵀv||² + λ ||v||²)`` where ``α`` is the regularisation
    strength of ``estimator`` (``alpha`` of Ridge; ``1/(2C)`` of LogisticRegression and
    LinearSVC, whose objectives are ``½||w||² + C Σ loss``) and ``λ = reduced_penalty``.

    Parameters
    ----------
    estimator : Ridge, LogisticRegression or LinearSVC
        The ℓ2-regularised linear model (its loss and strength are used).  With
        ``reduced_penalty > 0`` any estimator with an ℓ2 penalty on ``coef_`` works.
    reducer : transformer or ndarray of shape (d, n)
        A linear reducer (PCA, PLSRegression, LinearDiscriminantAnalysis, ...), a user matrix
        ``P``, or any transformer whose ``transform`` gives the reduced representation
        (Section 2.5, e.g. LatentDirichletAllocation).  It is cloned and fitted on ``(X, y)``
        unless ``prefit=True``.  It must give at least one component: ``fit`` raises a
        ``ValueError`` for an ``n_components`` outside ``[1, n_features]`` of a linear reducer
        (PCA, PLS, LDA, TruncatedSVD, ExhaustedSafePLS), below 1 for any other, a ``P`` with
        no row, or a fitted reducer whose ``transform`` gives no column.
    reduced_penalty : float, default=0.0
        ``λ ≥ 0`` of Section 2.4.  ``0`` is solved exactly with ``v`` unpenalised.
    prefit : bool, default=False
        Use ``reducer`` as already fitted.

    Attributes
    ----------
    reducer_ : fitted reducer (or the matrix ``P``)
    estimator_ : the estimator fitted on ``[X, Z/√λ]`` (λ > 0); for λ = 0 its ``coef_`` and
        ``intercept_`` are replaced by the exact solution on ``[X, Z]``.
    coef_tilde_ : ndarray, ``w̃`` (eq. 7)
    coef_reduced_ : ndarray, ``v``
    coef_ : ndarray, ``w = w̃ + Pᵀv`` in the input space (only for an affine reducer)
    intercept_ : intercept in the input space (affine reducer) else of the augmented model

    See Also
    --------
    fsbook.projection.ProjectionPenaltySVC : the projection penalty for a kernel SVM and a
        kernel-based (or any) reducer, eqs. (8)-(19).
    fsbook.projection.ExhaustedSafePLS : the PLS reducer of Proj-PLS (Table 1).

    Notes
    -----
    ``X`` may be sparse (CSR) when the reducer accepts it (``TruncatedSVD``, a matrix ``P``,
    ``PCA`` with a solver for sparse input, ...): the augmented representation ``[X, Z]`` is a
    sparse matrix and the wrapped estimator or the exact λ = 0 solver for LogisticRegression and
    LinearSVC works on it.  **Ridge with reduced_penalty=0 densifies** ``X`` (its exact solution
    needs the dense residual ``X − QQᵀX``, ``m × n``).

    References
    ----------
    .. [1] Zhang, Y. and Schneider, J. (2010). Projection Penalties: Dimension Reduction
       without Loss. Proceedings of the 27th International Conference on Machine Learning
       (ICML). ``references.bib``: ``zhang2010projection``.

    Examples
    --------
    Ridge regression pulled towards the span of the first three principal directions:

    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.decomposition import PCA
    >>> from sklearn.linear_model import Ridge
    >>> from fsbook.projection import ProjectionPenalty
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = ProjectionPenalty(Ridge(alpha=1.0), PCA(n_components=3)).fit(X[:300], y[:300])
    >>> model.coef_.shape, model.coef_reduced_.shape
    ((10,), (3,))
    >>> round(model.score(X[300:], y[300:]), 2)          # R² on the 142 held-out rows
    0.48
    >>> round(Ridge(alpha=1.0).fit(X[:300], y[:300]).score(X[300:], y[300:]), 2)   # plain ridge
    0.44
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"])],
        "reducer": [HasMethods(["fit", "transform"]), HasMethods(["transform"]), "array-like"],
        "reduced_penalty": [Interval(Real, 0, None, closed="left")],
        "prefit": ["boolean"],
    }

    def __init__(self, estimator, reducer, reduced_penalty=0.0, prefit=False):
        self.estimator = estimator
        self.reducer = reducer
        self.reduced_penalty = reduced_penalty
        self.prefit = prefit

    # -- tags / delegation ------------------------------------------------------------------
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = self.estimator.__sklearn_tags__()
        tags.estimator_type = inner.estimator_type
        tags.classifier_tags = inner.classifier_tags
        tags.regressor_tags = inner.regressor_tags
        tags.target_tags = inner.target_tags
        tags.input_tags.sparse = True
        return tags

    @property
    def _estimator_type(self):
        return getattr(self.estimator, "_estimator_type", None)

    def _check_params(self):
        lam = self.reduced_penalty
        if not np.isscalar(lam) or not np.isfinite(lam) or lam < 0:
            raise ValueError(f"reduced_penalty must be a finite number >= 0, got {lam!r}")
        if lam == 0 and not isinstance(self.estimator, (Ridge, LogisticRegression, LinearSVC)):
            raise ValueError("reduced_penalty=0 (unpenalised v) is solved exactly only for Ridge, "
                             "LogisticRegression and LinearSVC; use reduced_penalty > 0 for "
                             f"{type(self.estimator).__name__}")
        if isinstance(self.estimator, LogisticRegression) and getattr(self.estimator, "l1_ratio", 0) not in (0, 0.0, None):
            raise ValueError("ProjectionPenalty needs an l2-regularised LogisticRegression (l1_ratio=0)")
        if isinstance(self.estimator, LinearSVC) and (self.estimator.penalty != "l2" or
                                                      (lam == 0 and self.estimator.loss != "squared_hinge")):
            raise ValueError("ProjectionPenalty supports LinearSVC(penalty='l2'); with reduced_penalty=0 "
                             "only loss='squared_hinge' (use ProjectionPenaltySVC(kernel='linear') for the hinge)")
        if isinstance(self.reducer, np.ndarray) and self.reducer.ndim != 2:
            raise ValueError("a matrix reducer P must have shape (d, n_features)")

    def get_metadata_routing(self):
        """The routing of ``fit``'s metadata to ``estimator.fit`` and ``reducer.fit``
        (scikit-learn's metadata routing).

        Returns
        -------
        sklearn.utils.metadata_routing.MetadataRouter
        """
        router = MetadataRouter(owner=self).add(
            estimator=self.estimator, method_mapping=MethodMapping().add(caller="fit", callee="fit"))
        if hasattr(self.reducer, "get_metadata_routing") and not self.prefit:
            router.add(reducer=self.reducer, method_mapping=MethodMapping().add(caller="fit", callee="fit"))
        return router

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, **fit_params):
        """Fit the reducer (unless prefit) and the penalised model (eq. 7).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (m, n)
            Training data (sparse when the reducer accepts it, see Notes).
        y : array-like of shape (m,) or (m, k)
            Targets (class labels for a classifier ``estimator``).
        **fit_params : dict
            Metadata routed to ``estimator.fit`` and ``reducer.fit`` (scikit-learn's metadata
            routing, which must be enabled: ``sklearn.set_config(enable_metadata_routing=True)``),
            for example ``sample_weight`` to ``Ridge().set_fit_request(sample_weight=True)``:
            the loss of eq. (7) is then weighted.  Only with ``reduced_penalty > 0``: the exact
            solutions of ``reduced_penalty=0`` are unweighted and refuse it.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        raise_for_params(fit_params, self, "fit")
        self._check_params()
        routed = (process_routing(self, "fit", **fit_params) if get_config()["enable_metadata_routing"]
                  else Bunch(estimator=Bunch(fit={}), reducer=Bunch(fit={})))
        if routed.estimator.fit and float(self.reduced_penalty) == 0:
            raise ValueError(f"ProjectionPenalty: reduced_penalty=0 is solved exactly for an unweighted loss "
                             f"only, so it cannot route {sorted(routed.estimator.fit)} to "
                             f"{type(self.estimator).__name__}.fit; use reduced_penalty > 0")
        try:
            reducer_params = routed.reducer.fit
        except (AttributeError, KeyError):        # no reducer to route to (a matrix, or prefit)
            reducer_params = {}
        classifier = is_classifier(self.estimator)
        X, y = validate_data(self, X, y, accept_sparse="csr", multi_output=not classifier,
                             y_numeric=not classifier, dtype=np.float64)
        if classifier:
            check_classification_targets(y)
            classes = np.unique(y)
            if classes.size < 2:
                raise ValueError(f"ProjectionPenalty needs at least 2 classes, got {classes.size} class")
        if isinstance(self.reducer, np.ndarray):
            if self.reducer.shape[1] != X.shape[1]:
                raise ValueError(f"P has {self.reducer.shape[1]} columns, X has {X.shape[1]} features")
            _check_components("ProjectionPenalty", self.reducer, X.shape[1])
            self.reducer_ = self.reducer
        elif self.prefit:
            self.reducer_ = self.reducer
        else:
            _check_components("ProjectionPenalty", self.reducer, X.shape[1])
            self.reducer_ = clone(self.reducer)
            try:
                self.reducer_.fit(X, y, **reducer_params)
            except Exception as err:  # noqa: BLE001 - re-raised below, naming the reducer
                if isinstance(err, (ValueError, TypeError)) and not isinstance(err, np.linalg.LinAlgError):
                    raise
                Xd = X.toarray() if sp.issparse(X) else X       # only on this failure path
                hint = " (every column of X is constant)" if np.all(Xd == Xd[0]) else ""
                raise ValueError(f"ProjectionPenalty: the reducer {self.reducer!r} failed to fit X"
                                 f"{hint}: {type(err).__name__}: {err}; check X or choose another "
                                 "reducer") from err
        Z = reduce(self.reducer_, X)
        _check_reduced("ProjectionPenalty", Z)
        lam = float(self.reduced_penalty)
        self.scale_ = 1.0 / np.sqrt(lam) if lam > 0 else 1.0
        A = augment_features(X, Z, self.scale_)
        n = X.shape[1]
        est = clone(self.estimator)
        if lam > 0:
            est.fit(A, y, **routed.estimator.fit)
        elif classifier:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                est.fit(A, y)  # warm start and the estimator's prediction machinery
            W, b = _exact_classifier(est, X, Z, y, est.classes_,
                                     np.atleast_2d(est.coef_), np.atleast_1d(est.intercept_))
            est.coef_, est.intercept_ = W, b
        else:
            est.fit(A, y)
            Xd = X.toarray() if sp.issparse(X) else X      # the residual X − QQᵀX is dense
            W, V, b = _ridge_unpenalised_v(Xd, Z, y.astype(float), est.alpha, est.fit_intercept)
            est.coef_ = np.vstack([W, V]).T if y.ndim > 1 else np.concatenate([W, V])
            est.intercept_ = b
        self.estimator_ = est
        coef = np.asarray(est.coef_)
        self.coef_tilde_ = coef[..., :n]
        self.coef_reduced_ = coef[..., n:] * self.scale_
        self.n_components_ = Z.shape[1]
        self.linear_map_ = _probe_linear(self.reducer_, X)
        return self

    # -- input space model --------------------------------------------------------------------
    def _augment(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False, dtype=np.float64)
        return augment_features(X, reduce(self.reducer_, X), self.scale_)

    @property
    def coef_(self):
        check_is_fitted(self)
        if self.linear_map_ is None:
            raise AttributeError("coef_ in the input space exists only for an affine reducer; "
                                 "see coef_tilde_ and coef_reduced_")
        M, _ = self.linear_map_
        return self.coef_tilde_ + self.coef_reduced_ @ M.T

    @property
    def intercept_(self):
        check_is_fitted(self)
        b = self.estimator_.intercept_
        if self.linear_map_ is None:
            return b
        _, c = self.linear_map_
        return b + self.coef_reduced_ @ c

    @property
    def classes_(self):
        return self.estimator_.classes_

    def predict(self, X):
        """Predict with ``w̃ᵀx + vᵀ(Px) + b``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (m', n)
            Samples.

        Returns
        -------
        ndarray of shape (m',) or (m', k)
            The wrapped estimator's prediction on the augmented representation ``[X, Z]``.
        """
        A = self._augment(X)
        return self.estimator_.predict(A)

    @available_if(lambda self: hasattr(self.estimator, "decision_function"))
    def decision_function(self, X):
        A = self._augment(X)
        return self.estimator_.decision_function(A)

    @available_if(lambda self: hasattr(self.estimator, "predict_proba"))
    def predict_proba(self, X):
        A = self._augment(X)
        return self.estimator_.predict_proba(A)

    @available_if(lambda self: hasattr(self.estimator, "predict_log_proba"))
    def predict_log_proba(self, X):
        A = self._augment(X)
        return self.estimator_.predict_log_proba(A)

    def score(self, X, y):
        A = self._augment(X)
        return self.estimator_.score(A, y)

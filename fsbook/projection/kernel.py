"""Projection penalties for kernel SVMs (Zhang & Schneider 2010, Sections 2.3-2.5).

Primal (17): ``min ½||w̃||² + (ρ/2)||v||² + C Σ ξ_i`` s.t.
``y_i(w̃ᵀφ(x_i) + vᵀz_i + b) ≥ 1 − ξ_i``, ``ξ ≥ 0``, with ``z_i = Pφ(x_i)`` (or any ``θ(x_i)``,
Section 2.5).  Writing ``β_i = α_i y_i``:

* ``ρ = 0`` (eq. 10): dual (13)-(15), the SVM dual with the ``d`` extra equality constraints
  ``Σ α_i y_i z_i = 0``.  Solved here as a QP (cvxpy + Clarabel); ``v`` and ``b`` then follow
  from the linear programme of Section 2.3 (``w̃`` fixed, minimise ``Σ ξ``) solved with HiGHS.
* ``ρ > 0``: dual (19) is exactly the standard SVM dual with the kernel
  ``K + Z Zᵀ/ρ`` (the augmented features ``[φ(x); z/√ρ]``), so it is handed to libsvm
  (``SVC(kernel="precomputed")``); ``v = Σ λ_i y_i z_i / ρ`` by (18).

The paper writes α for the dual multipliers and γ for the penalty on ``v``; the book writes
``λ_i`` (multipliers, as in the book's notation) and ``ρ`` (``reduced_penalty``, the same
name as in :class:`~fsbook.projection.ProjectionPenalty`), and ``gamma`` keeps scikit-learn's
meaning: the kernel coefficient.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.optimize
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.decomposition import KernelPCA
from sklearn.metrics.pairwise import PAIRWISE_KERNEL_FUNCTIONS, pairwise_kernels
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import HasMethods, Interval, StrOptions, fit_context
from fsbook._cost import check_cost
from fsbook.projection.linear import _check_components, _check_reduced, reduce

__all__ = ["ProjectionPenaltySVC", "solve_constrained_dual", "solve_penalised_dual",
           "dual_objective", "fit_offsets"]


def dual_objective(lam, K, Z, y, reduced_penalty):
    """Dual objective of (13) (``reduced_penalty=0``) or (19) (``reduced_penalty=ρ>0``) at the
    multipliers ``lam``: ``Σλ_i − ½βᵀKβ − ||Zᵀβ||²/(2ρ)`` with ``β = λ ∘ y``."""
    beta = lam * y
    val = lam.sum() - 0.5 * beta @ K @ beta
    if reduced_penalty > 0:
        u = Z.T @ beta
        val -= 0.5 / reduced_penalty * u @ u
    return val


def solve_constrained_dual(K, Z, y, C, *, solver="CLARABEL"):
    """Solve the dual (13)-(15) as a QP with cvxpy.

    Parameters
    ----------
    K : ndarray (m, m), kernel matrix of the training points.
    Z : ndarray (m, d), reduced representation ``Pφ(x_i)``.
    y : ndarray (m,), labels in {-1, +1}.
    C : float, SVM cost.

    Returns
    -------
    lam : ndarray (m,), the multipliers ``λ``, clipped to [0, C].
    """
    import cvxpy as cp

    m = K.shape[0]
    # factor K = G Gᵀ so that βᵀKβ = ||Gᵀβ||² (robust to round-off negative eigenvalues)
    evals, evecs = np.linalg.eigh((K + K.T) / 2)
    keep = evals > 1e-12 * max(evals.max(), 1.0)
    G = evecs[:, keep] * np.sqrt(evals[keep])
    a = cp.Variable(m)
    beta = cp.multiply(y, a)
    cons = [a >= 0, a <= C, y @ a == 0]
    if Z.shape[1]:
        # equality constraints (15), rows orthonormalised so that redundant ones do no harm
        B = np.linalg.svd(Z.T, full_matrices=False)
        U, s, Vt = B
        r = int(np.sum(s > 1e-10 * max(s.max(), 1.0))) if s.size else 0
        if r:
            cons.append(Vt[:r] @ beta == 0)
    scale = max(1.0, C)
    prob = cp.Problem(cp.Minimize((0.5 * cp.sum_squares(G.T @ beta) - cp.sum(a)) / scale), cons)
    try:
        prob.solve(solver=solver)
    except cp.error.SolverError as err:
        raise RuntimeError(f"QP solver failed: {err}") from err
    if a.value is None:
        raise RuntimeError(f"QP solver failed: {prob.status}")
    return np.clip(a.value, 0.0, C)


def solve_penalised_dual(K, Z, y, C, reduced_penalty, *, tol=1e-6):
    """Solve the dual (19) with libsvm through the kernel ``K + Z Zᵀ/ρ``, ``ρ = reduced_penalty``.

    Returns
    -------
    lam : ndarray (m,), the multipliers ``λ``.
    b : float, intercept.
    """
    if reduced_penalty <= 0:
        raise ValueError("reduced_penalty must be > 0 for the dual (19)")
    Kp = K + (Z @ Z.T) / reduced_penalty
    svc = SVC(kernel="precomputed", C=C, tol=tol).fit(Kp, np.where(y > 0, 1, -1))
    alpha = np.zeros(K.shape[0])
    # classes_ = [-1, 1]; dual_coef_ = α_i y_i for the support vectors
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return alpha, float(svc.intercept_[0])


def fit_offsets(f_tilde, Z, y, C):
    """``v`` and ``b`` given ``w̃`` (Section 2.3): the LP ``min Σ ξ`` s.t.
    ``y_i(f̃_i + vᵀz_i + b) ≥ 1 − ξ_i``, ``ξ ≥ 0`` (HiGHS)."""
    m, d = Z.shape
    # variables [v (d, free), b (free), xi (m, >= 0)]
    c = np.concatenate([np.zeros(d + 1), np.ones(m)])
    A_ub = -np.hstack([y[:, None] * Z, y[:, None], np.eye(m)])
    b_ub = -(1.0 - y * f_tilde)
    bounds = [(None, None)] * (d + 1) + [(0, None)] * m
    res = scipy.optimize.linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if res.status != 0:
        raise RuntimeError(f"LP for (v, b) failed: {res.message}")
    return res.x[:d], float(res.x[d])


#: CPU seconds of the constrained dual (13)-(15) on one binary problem of 1 000 samples (cvxpy and
#: Clarabel on the dense factor of the kernel matrix, measured: 3 s at 1 000 × 100, 155 s at
#: 2 000 × 100), and the growth exponent in ``m`` these two measurements give
QP_SECONDS_AT_1000, QP_GROWTH = 3.0, 5.7


def qp_seconds(m, n_problems):
    """Estimated CPU seconds of ``n_problems`` constrained duals (13)-(15) on ``m`` samples."""
    return n_problems * QP_SECONDS_AT_1000 * (m / 1000.0) ** QP_GROWTH


class ProjectionPenaltySVC(ClassifierMixin, BaseEstimator):
    """Kernel SVM with a projection penalty (eqs. 8-19).

    Parameters
    ----------
    reducer : transformer or None, default=None
        Kernel-based reducer sharing the SVM's kernel (KernelPCA, GeneralizedDiscriminantAnalysis)
        or any transformer (Section 2.5 trick, e.g. OrthogonalLaplacianfaces).  Cloned and fitted
        on ``(X, y)`` unless ``prefit=True``.  ``None``: kernel PCA with the SVM's kernel and
        ``min(2, m − 1)`` components (the kernel reduction of eqs. 8-16).  ``fit`` raises a
        ``ValueError`` for an ``n_components`` below 1 (or above ``n_features`` for a linear
        reducer such as PCA) and for a reducer whose ``transform`` gives no column.
    reduced_penalty : float, default=0.0
        ``ρ ≥ 0``, the penalty ``(ρ/2)||v||²`` of eq. (17) (``γ`` in the paper); ``0`` gives the
        constrained dual (13)-(15).  Same name and role as in ``ProjectionPenalty``.
    C : float, default=1.0
    kernel : str or callable, default="poly"
        Any metric of :func:`sklearn.metrics.pairwise.pairwise_kernels`.
    degree : float, default=2
    gamma : float, default=1.0
        Kernel coefficient, as in :class:`sklearn.svm.SVC` (``(gamma xᵀx' + coef0)^degree``).
    coef0 : float, default=1.0
    prefit : bool, default=False

    Attributes
    ----------
    classes_ : ndarray
    reducer_ : the fitted reducer
    dual_coef_ : ndarray (k, m), ``λ_i y_i`` per one-vs-rest problem (k = 1 for two classes)
    coef_reduced_ : ndarray (k, d), ``v``
    intercept_ : ndarray (k,)

    See Also
    --------
    fsbook.projection.ProjectionPenalty : the projection penalty for a linear model and a
        linear reducer, eqs. (6)-(7).
    fsbook.projection.GeneralizedDiscriminantAnalysis : a kernel reducer (Proj-GDA, Tables 5-7).
    fsbook.projection.OrthogonalLaplacianfaces : a reducer used through the trick of Section 2.5
        (Proj-OLap, Tables 5-7).

    Notes
    -----
    Cost.  ``reduced_penalty=0`` (the default, the constrained dual (13)-(15)) is solved as a
    general QP on the dense factor of the ``m × m`` kernel matrix, whose time grows about as
    ``m^5.7`` (3 CPU s at ``m = 1 000``, 155 s at ``m = 2 000``, for each of the ``k``
    one-vs-rest problems): ``fit`` estimates it from ``m`` and the number of classes
    (:func:`qp_seconds`) and raises a ``ValueError`` at once when it exceeds
    :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute of CPU).  A positive
    ``reduced_penalty`` (the paper's Section 3.3 uses ``1e-5``) solves the dual (19) with libsvm
    instead, about 30 CPU s on 5 000 × 300 with 5 classes; :func:`fsbook.cost_limits` raises the
    limit.

    ``X`` may be sparse (CSR): the kernel matrices come from ``pairwise_kernels``, which takes
    sparse input, and the default kernel PCA works on the ``m × m`` kernel matrix (a method on
    the ``m × m`` kernel matrix, as every kernel SVM); a user's reducer must accept sparse input.

    References
    ----------
    .. [1] Zhang, Y. and Schneider, J. (2010). Projection Penalties: Dimension Reduction
       without Loss. Proceedings of the 27th International Conference on Machine Learning
       (ICML). ``references.bib``: ``zhang2010projection``.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from fsbook.projection import ProjectionPenaltySVC
    >>> X, y = make_moons(n_samples=200, noise=0.2, random_state=0)
    >>> svc = ProjectionPenaltySVC(reduced_penalty=0.01, C=10.0).fit(X[:100], y[:100])
    >>> svc.dual_coef_.shape, svc.coef_reduced_.shape      # one problem, kernel PCA to 2 dims
    ((1, 100), (1, 2))
    >>> svc.score(X[100:], y[100:])
    0.84
    """

    _parameter_constraints: dict = {
        "reducer": [HasMethods(["fit", "transform"]), HasMethods(["transform"]), None],
        "reduced_penalty": [Interval(Real, 0, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "kernel": [StrOptions(set(PAIRWISE_KERNEL_FUNCTIONS)), callable],
        "degree": [Interval(Real, 0, None, closed="left")],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "coef0": [Real],
        "prefit": ["boolean"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def __init__(self, reducer=None, *, reduced_penalty=0.0, C=1.0, kernel="poly", degree=2,
                 gamma=1.0, coef0=1.0, prefit=False):
        self.reducer = reducer
        self.reduced_penalty = reduced_penalty
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.prefit = prefit

    def _kernel(self, X, Y):
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, degree=self.degree,
                                coef0=self.coef0, gamma=self.gamma)

    def _fit_binary(self, K, Z, y):
        rho = float(self.reduced_penalty)
        if rho > 0:
            lam, b = solve_penalised_dual(K, Z, y, self.C, rho)
            beta = lam * y
            v = Z.T @ beta / rho
        else:
            lam = solve_constrained_dual(K, Z, y, self.C)
            beta = lam * y
            v, b = fit_offsets(K @ beta, Z, y, self.C)
        return beta, v, b

    def _default_reducer(self, m):
        return KernelPCA(n_components=max(1, min(2, m - 1)), kernel=self.kernel, degree=self.degree,
                         gamma=self.gamma, coef0=self.coef0)

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the reducer (unless prefit) and solve the dual(s) (13)-(15) or (19).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (m, n)
            Training data.
        y : array-like of shape (m,)
            Class labels.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        if self.prefit and self.reducer is None:
            raise ValueError("prefit=True needs a fitted reducer")
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"ProjectionPenaltySVC needs at least 2 classes, got {self.classes_.size} class")
        n_problems = 1 if self.classes_.size == 2 else self.classes_.size
        if float(self.reduced_penalty) == 0.0:
            m = X.shape[0]
            check_cost("ProjectionPenaltySVC", f"{m} samples, {self.classes_.size} classes",
                       seconds=qp_seconds(m, n_problems),
                       why=f"reduced_penalty=0 solves the constrained dual (13)-(15) as a QP on the "
                           f"dense factor of the {m} x {m} kernel matrix, for each of {n_problems} "
                           f"binary problem(s), in a time growing about as m^{QP_GROWTH}",
                       fix="set reduced_penalty > 0 (e.g. 1e-5, the paper's Section 3.3 value: the "
                           "penalised dual (19), solved by libsvm), or fit on fewer samples")
        K = self._kernel(X, X)
        if not np.all(np.isfinite(K)):
            raise ValueError(f"ProjectionPenaltySVC: the {self.kernel!r} kernel matrix of X overflows "
                             f"(largest |x| = {float(abs(X).max()):.3g}); standardise X (e.g. "
                             "StandardScaler) or change the kernel parameters")
        if self.prefit:
            self.reducer_ = self.reducer
        else:
            if self.reducer is not None:
                _check_components("ProjectionPenaltySVC", self.reducer, X.shape[1])
            base = self._default_reducer(X.shape[0]) if self.reducer is None else clone(self.reducer)
            self.reducer_ = base.fit(X, y)
        Z = reduce(self.reducer_, X)
        _check_reduced("ProjectionPenaltySVC", Z)
        targets = [self.classes_[1]] if self.classes_.size == 2 else list(self.classes_)
        betas, vs, bs = [], [], []
        for c in targets:
            try:
                beta, v, b = self._fit_binary(K, Z, np.where(y == c, 1.0, -1.0))
            except RuntimeError as err:    # the QP or LP solver refused the problem
                raise ValueError(
                    "ProjectionPenaltySVC: the QP or LP solver failed on this input (its message is in the "
                    "chained exception); the "
                    f"{self.kernel!r} kernel matrix of X has entries up to {float(np.abs(K).max()):.3g} "
                    "and the reduced features up to "
                    f"{float(np.abs(Z).max()) if Z.size else 0.0:.3g}: standardise X (e.g. "
                    "StandardScaler) or change C or the kernel parameters") from err
            betas.append(beta), vs.append(v), bs.append(b)
        self.dual_coef_ = np.array(betas)
        self.coef_reduced_ = np.array(vs)
        self.intercept_ = np.array(bs)
        self.X_fit_ = X
        return self

    def decision_function(self, X):
        """``w̃ᵀφ(x) + vᵀz(x) + b`` with ``w̃ = Σ λ_i y_i φ(x_i)`` (eq. 16).

        Parameters
        ----------
        X : array-like of shape (m', n)

        Returns
        -------
        ndarray of shape (m',) for two classes, else (m', k)
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False, dtype=np.float64)
        F = self._kernel(X, self.X_fit_) @ self.dual_coef_.T + reduce(self.reducer_, X) @ self.coef_reduced_.T
        F = F + self.intercept_
        return F[:, 0] if self.classes_.size == 2 else F

    def predict(self, X):
        """Class of the largest decision value (sign for two classes).

        Parameters
        ----------
        X : array-like of shape (m', n)

        Returns
        -------
        ndarray of shape (m',)
        """
        F = self.decision_function(X)
        if self.classes_.size == 2:
            return self.classes_[(F > 0).astype(int)]
        return self.classes_[np.argmax(F, axis=1)]

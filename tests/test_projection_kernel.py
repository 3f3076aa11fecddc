"""Tests of fsbook.projection.kernel: duals (13)-(15) and (19), KKT, limits, cvxpy primal."""

import cvxpy as cp
import numpy as np
import pytest
from sklearn.decomposition import PCA, KernelPCA
from sklearn.metrics.pairwise import polynomial_kernel
from sklearn.svm import SVC
from sklearn_checks import parametrize_with_checks

from fsbook.projection import (
    GeneralizedDiscriminantAnalysis,
    OrthogonalLaplacianfaces,
    ProjectionPenaltySVC,
    dual_objective,
    solve_constrained_dual,
    solve_penalised_dual,
)
from fsbook.projection.kernel import fit_offsets


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.7 * rng.normal(size=30) > 0.3, 1.0, -1.0)
    Z = PCA(2).fit_transform(X)
    return X, y, Z


def _primal_linear(X, Z, y, C, gamma):
    """Primal (10)/(17) with the linear kernel (φ(x) = x), solved by cvxpy."""
    w, v, b = cp.Variable(X.shape[1]), cp.Variable(Z.shape[1]), cp.Variable()
    xi = cp.Variable(X.shape[0], nonneg=True)
    obj = 0.5 * cp.sum_squares(w) + 0.5 * gamma * cp.sum_squares(v) + C * cp.sum(xi)
    cons = [cp.multiply(y, X @ w + Z @ v + b) >= 1 - xi]
    prob = cp.Problem(cp.Minimize(obj), cons)
    prob.solve(solver="CLARABEL")
    return w.value, v.value, b.value, prob.value


def test_constrained_dual_kkt(data):
    X, y, Z = data
    C = 2.0
    K = polynomial_kernel(X, degree=2, coef0=1, gamma=1)
    alpha = solve_constrained_dual(K, Z, y, C)
    beta = alpha * y
    # equality constraints (14), (15)
    assert abs(beta.sum()) < 1e-6
    np.testing.assert_allclose(Z.T @ beta, 0, atol=1e-6)
    v, b = fit_offsets(K @ beta, Z, y, C)
    margin = y * (K @ beta + Z @ v + b)
    xi = np.maximum(0, 1 - margin)
    tol = 1e-4
    free = (alpha > tol * C) & (alpha < (1 - tol) * C)
    assert free.sum() >= 1
    np.testing.assert_allclose(margin[free], 1.0, atol=1e-4)  # complementary slackness
    assert np.all(margin[alpha < 1e-7 * C] >= 1 - 1e-4)
    assert np.all(margin[alpha > (1 - 1e-7) * C] <= 1 + 1e-4)
    # zero duality gap: primal (10) value = dual (13) value
    primal = 0.5 * beta @ K @ beta + C * xi.sum()
    assert primal == pytest.approx(dual_objective(alpha, K, Z, y, 0.0), rel=1e-5)


@pytest.mark.parametrize("gamma", [0.0, 0.05, 1.0])
def test_estimator_matches_primal_cvxpy(data, gamma):
    X, y, Z = data
    C = 1.5
    clf = ProjectionPenaltySVC(PCA(2), reduced_penalty=gamma, C=C, kernel="linear").fit(X, y)
    w, v, b, val = _primal_linear(X, Z, y, C, gamma)
    np.testing.assert_allclose(clf.decision_function(X), X @ w + Z @ v + b, atol=2e-3)
    np.testing.assert_allclose(clf.dual_coef_[0] @ X, w, atol=2e-3)  # eq. (16)
    if gamma > 0:  # eq. (18): γ v = Σ α_i y_i z_i
        np.testing.assert_allclose(clf.coef_reduced_[0], v, atol=2e-3)


def test_penalised_dual_libsvm_vs_cvxpy(data):
    X, y, Z = data
    K = polynomial_kernel(X, degree=2, coef0=1, gamma=1)
    C, gamma = 1.0, 0.2
    alpha, _ = solve_penalised_dual(K, Z, y, C, gamma, tol=1e-8)
    a = cp.Variable(len(y))
    Kp = K + Z @ Z.T / gamma
    L = np.linalg.cholesky(Kp + 1e-10 * np.eye(len(y)))
    prob = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(y, a))),
                      [a >= 0, a <= C, y @ a == 0])
    prob.solve(solver="CLARABEL")
    assert dual_objective(alpha, K, Z, y, gamma) == pytest.approx(prob.value, rel=1e-5)


def test_penalised_dual_tends_to_constrained(data):
    """As γ → 0 the dual (19) tends to (13)-(15): optimal values and decision functions converge."""
    X, y, Z = data
    K = polynomial_kernel(X, degree=2, coef0=1, gamma=1)
    C = 1.0
    a0 = solve_constrained_dual(K, Z, y, C)
    d0 = dual_objective(a0, K, Z, y, 0.0)
    f0 = ProjectionPenaltySVC(PCA(2), reduced_penalty=0.0, C=C).fit(X, y).decision_function(X)
    gaps, fdiff, adiff = [], [], []
    for gamma in [1.0, 1e-1, 1e-2, 1e-3]:
        a, _ = solve_penalised_dual(K, Z, y, C, gamma, tol=1e-8)
        gaps.append(dual_objective(a, K, Z, y, gamma) - d0)
        adiff.append(np.abs(a - a0).max())
        f = ProjectionPenaltySVC(PCA(2), reduced_penalty=gamma, C=C).fit(X, y).decision_function(X)
        fdiff.append(np.abs(f - f0).max())
    # (19) relaxes (15) by a finite penalty, so its optimum lies above and decreases to (13)
    assert all(g >= -1e-6 for g in gaps)
    assert all(np.diff(gaps) <= 1e-8)
    assert gaps[-1] < 1e-2 * gaps[0]
    assert np.all(np.diff(adiff) < 0) and adiff[-1] < 1e-3  # the dual solutions converge
    assert max(fdiff) < 5e-3  # and so do the classifiers (libsvm precision limits small γ)


def test_huge_gamma_is_plain_svm(data):
    """γ → ∞ forces v = 0: the plain kernel SVM."""
    X, y, _ = data
    clf = ProjectionPenaltySVC(KernelPCA(3, kernel="poly", degree=2, coef0=1, gamma=1),
                               reduced_penalty=1e10, C=1.0).fit(X, y)
    svc = SVC(kernel="poly", degree=2, coef0=1, gamma=1, C=1.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(clf.decision_function(X), svc.decision_function(X), atol=1e-3)


def test_kpca_reducer_equivalence_gamma0_invariant_to_basis(data):
    """Only span(P) matters for γ = 0: rescaled KPCA coordinates give the same classifier."""
    X, y, _ = data
    kp = dict(kernel="poly", degree=2, coef0=1, gamma=1)
    f1 = ProjectionPenaltySVC(KernelPCA(3, **kp), reduced_penalty=0.0).fit(X, y).decision_function(X)
    Zscale = np.diag([3.0, 0.5, 2.0])
    kpca = KernelPCA(3, **kp).fit(X)
    from sklearn.preprocessing import FunctionTransformer
    scaled = FunctionTransformer(lambda A: kpca.transform(A) @ Zscale)
    f2 = ProjectionPenaltySVC(scaled, reduced_penalty=0.0, prefit=True).fit(X, y).decision_function(X)
    np.testing.assert_allclose(f1, f2, atol=1e-3)


def test_bad_input(data):
    X, y, _ = data
    with pytest.raises(ValueError):
        ProjectionPenaltySVC(PCA(1), reduced_penalty=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="gamma"):
        ProjectionPenaltySVC(PCA(1), gamma=0.0).fit(X, y)          # kernel coefficient must be > 0
    with pytest.raises(ValueError, match="prefit"):
        ProjectionPenaltySVC(None, prefit=True).fit(X, y)
    with pytest.raises(ValueError):
        ProjectionPenaltySVC(PCA(1)).fit(X, np.ones_like(y))


def test_gamma_is_the_kernel_coefficient_and_the_default_reducer_is_kernel_pca(data):
    """``gamma`` means what it means in scikit-learn's SVC; without a reducer the model uses
    kernel PCA with its own kernel (2 components)."""
    X, y, _ = data
    clf = ProjectionPenaltySVC(reduced_penalty=1e10, kernel="rbf", gamma=0.3).fit(X, y)
    svc = SVC(kernel="rbf", gamma=0.3, C=1.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(clf.decision_function(X), svc.decision_function(X), atol=1e-3)
    assert isinstance(clf.reducer_, KernelPCA) and clf.reducer_.n_components == 2
    assert clf.reducer_.gamma == 0.3 and clf.reducer_.kernel == "rbf"


@parametrize_with_checks([
    ProjectionPenaltySVC(),
    ProjectionPenaltySVC(PCA(1), reduced_penalty=1e-2),
    ProjectionPenaltySVC(PCA(1), reduced_penalty=0.0),
    GeneralizedDiscriminantAnalysis(n_components=1),
    OrthogonalLaplacianfaces(n_components=1),
])
def test_sklearn_compatible(estimator, check):
    check(estimator)

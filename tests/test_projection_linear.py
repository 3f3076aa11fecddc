"""Tests of fsbook.projection.linear (eqs. 6-7, Section 2.4) against cvxpy and closed forms."""

import cvxpy as cp
import numpy as np
import pytest
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA, LatentDirichletAllocation
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.svm import LinearSVC
from sklearn_checks import parametrize_with_checks

from fsbook.projection import ProjectionPenalty


@pytest.fixture
def regression():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 6)) * np.array([3, 2, 1, 1, 0.5, 0.2])
    y = X @ rng.normal(size=6) + 0.5 * rng.normal(size=30) + 2.0
    return X, y


@pytest.fixture
def classification():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 5))
    y = (X @ rng.normal(size=5) + 0.8 * rng.normal(size=40) > 0).astype(int)
    return X, y


def _pca_P(X, d):
    pca = PCA(d).fit(X)
    return pca, pca.components_


def _cvx_eq6(loss, X, y, P, alpha, lam):
    """Eq. (6) + Section 2.4 in the input space: w, v, b all explicit."""
    n, d = X.shape[1], P.shape[0]
    w, v, b = cp.Variable(n), cp.Variable(d), cp.Variable()
    f = X @ w + b
    pen = alpha * (cp.sum_squares(w - P.T @ v) + lam * cp.sum_squares(v))
    if loss == "squared":
        obj = cp.sum_squares(y - f) + pen
    elif loss == "logistic":  # sklearn: C Σ log-loss + ½||w||², α = 1/(2C)
        obj = cp.sum(cp.logistic(-cp.multiply(y, f))) + pen
    else:
        obj = cp.sum(cp.square(cp.pos(1 - cp.multiply(y, f)))) + pen
    cp.Problem(cp.Minimize(obj)).solve(solver="CLARABEL")
    return w.value, b.value


@pytest.mark.parametrize("lam", [0.0, 1e-3, 0.5])
def test_ridge_matches_cvxpy(regression, lam):
    X, y = regression
    alpha = 3.0
    pca, P = _pca_P(X, 2)
    m = ProjectionPenalty(Ridge(alpha=alpha), PCA(2), reduced_penalty=lam).fit(X, y)
    w, b = _cvx_eq6("squared", X, y, P, alpha, lam)
    np.testing.assert_allclose(m.coef_, w, atol=1e-5)
    np.testing.assert_allclose(m.intercept_, b, atol=1e-5)
    np.testing.assert_allclose(m.predict(X), X @ w + b, atol=1e-5)


@pytest.mark.parametrize("lam", [0.0, 0.1])
def test_logistic_matches_cvxpy(classification, lam):
    X, y = classification
    C = 0.7
    _, P = _pca_P(X, 2)
    m = ProjectionPenalty(LogisticRegression(C=C, tol=1e-10, max_iter=10000), PCA(2),
                          reduced_penalty=lam).fit(X, y)
    w, b = _cvx_eq6("logistic", X, 2.0 * y - 1, P, 1 / (2 * C), lam)
    np.testing.assert_allclose(m.coef_.ravel(), w, atol=1e-4)
    np.testing.assert_allclose(m.intercept_, b, atol=1e-4)
    p = m.predict_proba(X)[:, 1]
    np.testing.assert_allclose(p, 1 / (1 + np.exp(-(X @ w + b))), atol=1e-4)


def test_linear_svc_exact_matches_cvxpy(classification):
    X, y = classification
    C = 0.3
    _, P = _pca_P(X, 2)
    m = ProjectionPenalty(LinearSVC(C=C), PCA(2), reduced_penalty=0.0).fit(X, y)
    w, b = _cvx_eq6("sqhinge", X, 2.0 * y - 1, P, 1 / (2 * C), 0.0)
    np.testing.assert_allclose(m.coef_.ravel(), w, atol=1e-4)
    np.testing.assert_allclose(m.intercept_, b, atol=1e-4)


def test_multinomial_exact_gradient_is_zero():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(45, 4))
    y = np.repeat([0, 1, 2], 15)
    X[y == 1] += 1.0
    m = ProjectionPenalty(LogisticRegression(C=1.0), PCA(2)).fit(X, y)
    # stationarity of ½||W̃||² + C Σ softmax loss in the augmented variables (v, b free)
    Z = m.reducer_.transform(X)
    A = np.hstack([X, Z])
    W = m.estimator_.coef_
    F = A @ W.T + m.estimator_.intercept_
    Pr = np.exp(F - F.max(1, keepdims=True))
    Pr /= Pr.sum(1, keepdims=True)
    G = Pr - np.eye(3)[y]
    grad = (A.T @ G).T
    grad[:, :4] += W[:, :4]
    assert np.abs(grad).max() < 1e-5
    assert np.abs(G.sum(0)).max() < 1e-5
    np.testing.assert_allclose(m.predict_proba(X).sum(1), 1.0)


def test_huge_penalty_is_pcr(regression):
    """α → ∞ confines w to the subspace: principal component regression (eq. 5)."""
    X, y = regression
    m = ProjectionPenalty(Ridge(alpha=1e9), PCA(3)).fit(X, y)
    pca = PCA(3).fit(X)
    ols = LinearRegression().fit(pca.transform(X), y)
    np.testing.assert_allclose(m.coef_, ols.coef_ @ pca.components_, atol=1e-4)
    np.testing.assert_allclose(m.predict(X), ols.predict(pca.transform(X)), atol=1e-4)


def test_zero_penalty_is_plain_model(regression, classification):
    """α → 0 gives least squares; an empty subspace (P = 0) gives the plain ridge."""
    X, y = regression
    m = ProjectionPenalty(Ridge(alpha=1e-10), PCA(2)).fit(X, y)
    np.testing.assert_allclose(m.coef_, LinearRegression().fit(X, y).coef_, atol=1e-6)
    P0 = np.zeros((1, X.shape[1]))
    m = ProjectionPenalty(Ridge(alpha=2.0), P0).fit(X, y)
    np.testing.assert_allclose(m.coef_, Ridge(alpha=2.0).fit(X, y).coef_, atol=1e-8)
    Xc, yc = classification
    m = ProjectionPenalty(LogisticRegression(C=0.5, tol=1e-10), np.zeros((1, 5))).fit(Xc, yc)
    plain = LogisticRegression(C=0.5, tol=1e-10).fit(Xc, yc)
    np.testing.assert_allclose(m.coef_, plain.coef_, atol=1e-5)


def test_full_subspace_gives_unpenalised_fit(regression):
    """P = I (d = n, v unpenalised): the penalty vanishes, ordinary least squares."""
    X, y = regression
    m = ProjectionPenalty(Ridge(alpha=5.0), np.eye(X.shape[1])).fit(X, y)
    np.testing.assert_allclose(m.coef_, LinearRegression().fit(X, y).coef_, atol=1e-8)


def test_reducers_pls_lda_and_user_matrix(regression, classification):
    X, y = regression
    m = ProjectionPenalty(Ridge(alpha=1.0), PLSRegression(2), reduced_penalty=1e-3).fit(X, y)
    assert m.coef_.shape == (6,)
    np.testing.assert_allclose(m.predict(X), X @ m.coef_ + m.intercept_, atol=1e-8)
    Xc, yc = classification
    m = ProjectionPenalty(LogisticRegression(), LinearDiscriminantAnalysis()).fit(Xc, yc)
    np.testing.assert_allclose(m.decision_function(Xc), Xc @ m.coef_.ravel() + m.intercept_, atol=1e-6)


def test_nonlinear_reducer_section_2_5():
    rng = np.random.default_rng(3)
    X = rng.poisson(2.0, size=(40, 12)).astype(float)
    y = (X[:, :6].sum(1) > X[:, 6:].sum(1)).astype(int)
    lda = LatentDirichletAllocation(n_components=3, random_state=0, max_iter=5)
    m = ProjectionPenalty(LogisticRegression(), lda, reduced_penalty=1e-2).fit(X, y)
    assert m.linear_map_ is None
    with pytest.raises(AttributeError):
        _ = m.coef_
    assert m.predict(X).shape == (40,)
    assert m.coef_reduced_.shape == (1, 3)


def test_bad_input(regression, classification):
    X, y = regression
    with pytest.raises(ValueError):
        ProjectionPenalty(Ridge(), PCA(1), reduced_penalty=-1).fit(X, y)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError):
        ProjectionPenalty(Ridge(), PCA(1)).fit(Xn, y)
    Xc, yc = classification
    with pytest.raises(ValueError):
        ProjectionPenalty(LogisticRegression(), PCA(1)).fit(Xc, np.zeros_like(yc))
    with pytest.raises(ValueError):
        ProjectionPenalty(Ridge(), np.ones((1, 3))).fit(X, y)


@parametrize_with_checks([
    ProjectionPenalty(Ridge(), PCA(1)),
    ProjectionPenalty(Ridge(), PCA(1), reduced_penalty=1e-2),
    ProjectionPenalty(LogisticRegression(), PCA(1)),
    ProjectionPenalty(LinearSVC(), PCA(1), reduced_penalty=1e-2),
])
def test_sklearn_compatible(estimator, check):
    check(estimator)

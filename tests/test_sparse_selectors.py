"""Sparse X on the selectors and models whose mathematics allows it: the same result as
the dense X, and the estimator tags say so."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.decomposition import TruncatedSVD
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.svm import LinearSVC
from sklearn.utils import get_tags

from fsbook.baselines import FeatureWeightingSVM, ZeroNormSVM
from fsbook.hkl import HKLRanker
from fsbook.projection import ProjectionPenalty, ProjectionPenaltySVC


def _data(n=80, d=12, seed=0, classes=2, density=0.4):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    X = rng.standard_normal((n, d)) * (rng.random((n, d)) < density)
    X[:, 1] += 1.5 * (y == 1) * (rng.random(n) < 0.8)
    X[:, 4] -= 1.0 * (y == 0) * (rng.random(n) < 0.7)
    return X, y


def _both(make, X, y):
    dense = make().fit(X, y)
    sparse = make().fit(sp.csr_matrix(X), y)
    assert get_tags(sparse).input_tags.sparse
    return dense, sparse


def test_zero_norm_svm_sparse_is_dense():
    X, y = _data()
    dense, sparse = _both(lambda: ZeroNormSVM(3), X, y)
    np.testing.assert_array_equal(sparse.support_, dense.support_)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(sparse.predict(sp.csr_matrix(X)), dense.predict(X))
    assert sparse.n_iter_ == dense.n_iter_


def test_feature_weighting_svm_sparse_is_dense():
    X, y = _data(n=60, d=10)
    dense, sparse = _both(lambda: FeatureWeightingSVM(C=0.5), X, y)
    np.testing.assert_array_equal(sparse.support_, dense.support_)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, atol=1e-6)
    np.testing.assert_allclose(sparse.objective_, dense.objective_, rtol=1e-7)
    np.testing.assert_array_equal(sparse.predict(sp.csr_matrix(X)), dense.predict(X))


@pytest.mark.parametrize("boolean", [True, False])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_hkl_ranker_sparse_is_dense(boolean, fmt, monkeypatch):
    X, y = _data(n=70, d=8, classes=3)
    if boolean:
        X = (X > 0.3).astype(float)
    else:                                        # booleanised a block of 3 columns at a time
        monkeypatch.setattr("fsbook.hkl.ranker.INDICATOR_BLOCK_BYTES", 8 * X.shape[0] * 3)
    dense = HKLRanker(3, boolean=boolean).fit(X, y)
    sparse = HKLRanker(3, boolean=boolean).fit(sp.csr_matrix(X).asformat(fmt), y)
    np.testing.assert_array_equal(sparse.owner_, dense.owner_)
    np.testing.assert_array_equal(sparse.support_, dense.support_)
    np.testing.assert_allclose(sparse.scores_, dense.scores_, rtol=1e-9, atol=1e-12)
    assert dense.n_used_ > 0


@pytest.mark.parametrize("estimator, penalty", [
    (Ridge(alpha=1.0), 0.0), (Ridge(alpha=1.0, tol=1e-12), 0.5),
    (LogisticRegression(C=1.0, max_iter=10_000, tol=1e-10), 0.0),
    (LogisticRegression(C=1.0, max_iter=10_000, tol=1e-10), 0.5),
    (LinearSVC(C=1.0, max_iter=100_000, tol=1e-10), 0.0)])
def test_projection_penalty_sparse_is_dense(estimator, penalty):
    X, y = _data(n=90, d=15, classes=3 if isinstance(estimator, LogisticRegression) else 2)
    target = X @ np.linspace(-1, 1, 15) if isinstance(estimator, Ridge) else y
    P = np.random.default_rng(5).standard_normal((3, 15))

    def make():
        return ProjectionPenalty(estimator, P, reduced_penalty=penalty)

    dense, sparse = _both(make, X, target)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sparse.predict(sp.csr_matrix(X)), dense.predict(X), rtol=1e-6, atol=1e-6)


def test_projection_penalty_with_a_sparse_reducer():
    X, y = _data(n=90, d=15)
    make = lambda: ProjectionPenalty(LinearSVC(max_iter=100_000, tol=1e-10), TruncatedSVD(3, random_state=0),  # noqa: E731
                                     reduced_penalty=1.0)
    dense, sparse = _both(make, X, y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("penalty", [0.0, 0.1])
def test_projection_penalty_svc_sparse_is_dense(penalty):
    X, y = _data(n=50, d=6)
    dense, sparse = _both(lambda: ProjectionPenaltySVC(reduced_penalty=penalty, C=1.0), X, y)
    np.testing.assert_allclose(sparse.dual_coef_, dense.dual_coef_, atol=1e-6)
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(X)), dense.decision_function(X),
                               atol=1e-5)


def test_generalized_discriminant_analysis_sparse_is_dense():
    from fsbook.projection import GeneralizedDiscriminantAnalysis

    X, y = _data(n=60, d=8, classes=3)
    dense, sparse = _both(lambda: GeneralizedDiscriminantAnalysis(), X, y)
    np.testing.assert_allclose(sparse.eigenvalues_, dense.eigenvalues_, rtol=1e-8)
    Zd, Zs = dense.transform(X), sparse.transform(sp.csr_matrix(X))
    signs = np.sign((Zd * Zs).sum(axis=0))                 # an eigenvector's sign is arbitrary
    np.testing.assert_allclose(Zs * signs, Zd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name, why", [
    ("ExhaustedSafePLS", "deflates"),
    ("WekaSubsetSelector", "discretised"),
    ("WekaLibSVM", "dense table"),
    ("WekaFilters", "dense table"),
    ("MMCSupervised", "every pair"),
])
def test_refusals_say_why_and_what_to_do(name, why):
    """The estimators whose method works on a dense table refuse sparse X with the reason and the
    remedy, and their tags say so."""
    from fsbook.capabilities import public_estimators

    X, y = _data(n=30, d=5)
    est = public_estimators()[name]()
    assert not get_tags(est).input_tags.sparse
    with pytest.raises(TypeError, match="does not accept sparse X") as err:
        est.fit(sp.csr_matrix(X), y)
    assert why in str(err.value) and "X.toarray()" in str(err.value)
    if name != "WekaSubsetSelector":                  # transform/predict refuse it too
        fitted = public_estimators()[name]().fit(X, y)
        method = fitted.transform if hasattr(fitted, "transform") else fitted.predict
        with pytest.raises(TypeError, match="does not accept sparse X"):
            method(sp.csr_matrix(X))


def test_orthogonal_laplacianfaces_sparse_is_dense():
    """Sparse X: the Gram-matrix PCA and the class-sum graph give the dense components up to sign;
    with more features than samples and few per class (T's smallest eigenvalue repeated), the
    same subspace (same Z Zᵀ)."""
    from sklearn.datasets import load_digits

    from fsbook.projection import OrthogonalLaplacianfaces

    X, y = load_digits(return_X_y=True)
    X, y = X[:300], y[:300]
    dense, sparse = _both(lambda: OrthogonalLaplacianfaces(n_components=12), X, y)
    signs = np.sign(np.sum(dense.components_ * sparse.components_, axis=1))
    np.testing.assert_allclose(sparse.components_ * signs[:, None], dense.components_, atol=1e-10)
    np.testing.assert_allclose(sparse.mean_, dense.mean_, rtol=1e-13)
    np.testing.assert_allclose(sparse.transform(sp.csr_matrix(X)) * signs, dense.transform(X), atol=1e-8)
    Xw, yw = _data(n=24, d=60, classes=6, density=0.3)             # 4 per class, n > m
    dense, sparse = _both(lambda: OrthogonalLaplacianfaces(n_components=5), Xw, yw)
    Zd, Zs = dense.transform(Xw), sparse.transform(sp.csr_matrix(Xw))
    np.testing.assert_allclose(Zs @ Zs.T, Zd @ Zd.T, atol=1e-10 * np.abs(Zd @ Zd.T).max())


def test_class_graph_scatters_equal_the_graph_matrices():
    from fsbook.projection.reducers import _class_graph_scatters

    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, size=40)
    Xh = rng.normal(size=(40, 7))
    W = (codes[:, None] == codes[None, :]).astype(float)
    np.fill_diagonal(W, 0.0)
    L = np.diag(W.sum(axis=1)) - W
    S, T = _class_graph_scatters(Xh, codes)
    np.testing.assert_allclose(S, Xh.T @ np.diag(W.sum(axis=1)) @ Xh, rtol=1e-12)
    np.testing.assert_allclose(T, Xh.T @ L @ Xh, rtol=1e-12, atol=1e-12 * np.abs(T).max())

"""fsbook._rowspace.RowSpaceLinearSVC: LinearSVC's problem solved in the row space of the training
matrix gives LinearSVC's model (same optimum; same liblinear steps up to rounding)."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from fsbook._rowspace import RowSpaceLinearSVC


def _wide(seed, n=24, d=300, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 3.0, size=d)
    y = np.arange(n) % classes
    X[:, :4] += y[:, None] * 0.8
    return X, y


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_the_row_space_fit_is_linearsvcs_fit(seed, C):
    X, y = _wide(seed, classes=2 + seed % 2)
    X_test = np.random.default_rng(seed + 100).normal(size=(10, X.shape[1]))
    ref = LinearSVC(C=C, random_state=seed, max_iter=5000).fit(X, y)
    fast = RowSpaceLinearSVC(C=C, random_state=seed, max_iter=5000).fit(X, y)
    assert fast.coef_.shape == ref.coef_.shape and np.array_equal(fast.classes_, ref.classes_)
    scale = np.abs(ref.decision_function(X_test)).max()
    for rows in (X, X_test):
        assert np.allclose(fast.decision_function(rows), ref.decision_function(rows), atol=1e-7 * scale, rtol=0)
    assert np.array_equal(fast.predict(X), ref.predict(X))


def test_the_optimum_is_the_full_problems_optimum():
    """Independent of liblinear's steps: at a tight tolerance both reach the unique optimum, and
    the row-space weights are orthogonal to every direction the training rows do not span."""
    X, y = _wide(7)
    fast = RowSpaceLinearSVC(C=1.0, tol=1e-10, max_iter=100_000, random_state=0).fit(X, y)
    ref = LinearSVC(C=1.0, tol=1e-10, max_iter=100_000, random_state=1).fit(X, y)
    assert np.allclose(fast.coef_, ref.coef_, atol=1e-6) and np.allclose(fast.intercept_, ref.intercept_, atol=1e-6)
    _, _, Vt = np.linalg.svd(X, full_matrices=True)
    assert np.abs(fast.coef_ @ Vt[X.shape[0]:].T).max() < 1e-10


@pytest.mark.parametrize("case", ["tall", "sparse", "primal", "l1"])
def test_outside_the_wide_dual_case_it_is_linearsvc(case):
    X, y = _wide(3, n=60, d=20) if case == "tall" else _wide(3)
    params = {"random_state": 0, "max_iter": 5000}
    if case == "sparse":
        X = sp.csr_matrix(X)
    if case == "primal":
        params["dual"] = False
    if case == "l1":
        params.update(penalty="l1", dual=False)
    ref, fast = LinearSVC(**params).fit(X, y), RowSpaceLinearSVC(**params).fit(X, y)
    assert np.array_equal(fast.coef_, ref.coef_) and np.array_equal(fast.intercept_, ref.intercept_)

"""Tests of fsbook.l1linf: criteria gradients, the ℓ∞ prox, the two optimisers, the λ path, the selectors."""
import cvxpy as cp
import naive
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC
from sklearn_checks import parametrize_with_checks

from fsbook.l1linf import (
    HSFS,
    LDFS,
    HSICCriterion,
    LDACriterion,
    accelerated_proximal_gradient,
    active_set_proximal_gradient,
    bound_constrained_lbfgsb,
    centred_label_kernel,
    feature_scales,
    linearly_constrained_slsqp,
    linf_penalty,
    project_rows_l1_ball,
    prox_rows_linf,
    row_support,
    select_k_path,
    top_k_rows,
)


def _toy(n=40, d=6, seed=0, classes=3, sparse=False):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    X = rng.standard_normal((n, d))
    X[:, 0] += 2.0 * y
    X[:, 1] += np.where(y == 1, 1.5, 0.0)
    if sparse:
        X = np.where(rng.random((n, d)) < 0.6, 0.0, np.abs(X) + y[:, None])
        return sp.csr_matrix(X), y
    return X, y


def _fd_grad(f, W, h=1e-6):
    G = np.zeros_like(W)
    for idx in np.ndindex(W.shape):
        E = np.zeros_like(W)
        E[idx] = h
        G[idx] = (f(W + E)[0] - f(W - E)[0]) / (2 * h)
    return G


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kind", ["lda", "hsic"])
def test_criterion_gradient_matches_finite_differences(kind, sparse):
    X, y = _toy(sparse=sparse)
    crit = LDACriterion(X, y, ridge=0.7) if kind == "lda" else HSICCriterion(X, y, sigma=1.3)
    W = np.random.default_rng(1).standard_normal((X.shape[1], 3)) * 0.4
    _, G = crit(W)
    np.testing.assert_allclose(G, _fd_grad(crit, W), rtol=1e-5, atol=1e-8)


def test_hsic_value_is_the_papers_trace_and_gradient_the_per_row_sum():
    X, y = _toy(n=15, d=4)
    W = np.random.default_rng(2).standard_normal((4, 2)) * 0.5
    sigma = 0.9
    n = len(y)
    Z = X @ W
    K = np.exp(-((Z[:, None, :] - Z[None, :, :]) ** 2).sum(-1) / (2 * sigma ** 2))
    L = (y[:, None] == y[None, :]).astype(float)
    H = np.eye(n) - 1.0 / n
    value, grad = HSICCriterion(X, y, sigma)(W)
    assert value == pytest.approx(-np.trace(K @ H @ L @ H) / n ** 2, rel=1e-12)
    # per-row form of eq. (11): d tr(KHLH)/dW = Σ_ij Γ_ij dK_ij/dW, dK_ij/dW = -(K_ij/σ²) R_ij W
    Gamma = H @ L @ H
    per_row = np.zeros_like(W)
    for i in range(n):
        for j in range(n):
            r = (X[i] - X[j])[:, None]
            per_row += Gamma[i, j] * (-K[i, j] / sigma ** 2) * (r @ r.T) @ W
    np.testing.assert_allclose(grad, -per_row / n ** 2, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(centred_label_kernel(y), Gamma, atol=1e-12)


def test_lda_q1_without_ridge_is_the_rayleigh_quotient_and_eq7():
    X, y = _toy(d=5)
    crit = LDACriterion(X, y, ridge=1e-300)
    w = np.random.default_rng(3).standard_normal((5, 1))
    xbar = X.mean(0)
    SB = sum((y == c).sum() * np.outer(X[y == c].mean(0) - xbar, X[y == c].mean(0) - xbar) for c in range(3))
    SW = sum((X[y == c] - X[y == c].mean(0)).T @ (X[y == c] - X[y == c].mean(0)) for c in range(3))
    value, grad = crit(w)
    b, a = (w.T @ SB @ w).item(), (w.T @ SW @ w).item()
    assert value == pytest.approx(-b / a, rel=1e-10)
    eq7 = -2 * (SB @ w / a - (b / a) * SW @ w / a)      # eq. (7) for q = 1
    np.testing.assert_allclose(grad, eq7, rtol=1e-8)


def test_projection_and_prox_match_cvxpy():
    rng = np.random.default_rng(4)
    V = rng.standard_normal((6, 5)) * np.array([[0.1], [1], [2], [0.05], [3], [0.5]])
    t = 0.8
    P = project_rows_l1_ball(V, t)
    Wp = prox_rows_linf(V, t)
    for j in range(V.shape[0]):
        u = cp.Variable(5)
        cp.Problem(cp.Minimize(cp.sum_squares(u - V[j])), [cp.norm1(u) <= t]).solve()
        np.testing.assert_allclose(P[j], u.value, atol=1e-5)
        w = cp.Variable(5)
        cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w - V[j]) + t * cp.norm_inf(w))).solve()
        np.testing.assert_allclose(Wp[j], w.value, atol=1e-5)
    # rows with ||v||_1 <= t are zeroed exactly
    small = np.abs(V).sum(1) <= t
    assert small.any() and np.all(Wp[small] == 0.0)
    assert np.all(np.abs(P).sum(1) <= t + 1e-12)


def _penalised(crit, lam):
    def F(W):
        return crit(W)[0] + lam * linf_penalty(W)
    return F


class _LeastSquares:
    """Convex criterion ||XW − Y||²/(2n) (Y one-hot): the problem has one minimiser."""

    def __init__(self, X, y):
        self.X, self.Y = X, np.eye(y.max() + 1)[y]

    def __call__(self, W):
        R = self.X @ W - self.Y
        n = len(R)
        return 0.5 * float(np.sum(R * R)) / n, self.X.T @ R / n


def test_optimisers_and_cvxpy_agree_on_a_convex_problem():
    X, y = _toy(n=30, d=5, seed=5)
    crit = _LeastSquares(X / X.std(0), y)
    lam = 0.15
    W0 = np.random.default_rng(6).standard_normal((5, 3))
    a = accelerated_proximal_gradient(crit, W0, lam, max_iter=20000, tol=1e-10)
    b = bound_constrained_lbfgsb(crit, W0, lam, max_iter=20000, tol=1e-14)
    W = cp.Variable((5, 3))
    ref = cp.Problem(cp.Minimize(cp.sum_squares(crit.X @ W - crit.Y) / 60
                                 + lam * cp.sum(cp.max(cp.abs(W), axis=1))))
    ref.solve()
    assert a.converged
    # cvxpy's interior-point solution is accurate to about 1e-5; ours may only be lower
    assert a.objective == pytest.approx(ref.value, rel=2e-5) and a.objective <= ref.value + 1e-9
    np.testing.assert_allclose(a.W, W.value, atol=2e-3)
    c = linearly_constrained_slsqp(crit, W0, lam)
    assert c.converged and c.objective == pytest.approx(a.objective, rel=1e-9)
    np.testing.assert_allclose(c.W, a.W, atol=1e-5)
    # the W = diag(s)U reformulation is not convex in (s, U): it may stop higher, never lower
    assert b.objective >= a.objective - 1e-9
    assert 0 < (np.abs(a.W).max(1) > 0).sum() < 5          # some, not all, rows are exactly zero


@pytest.mark.parametrize("kind", ["lda", "hsic"])
def test_proximal_gradient_and_lbfgsb_reformulation_agree(kind):
    X, y = _toy(n=30, d=5, seed=5)
    Xs = X / X.std(0)
    crit = LDACriterion(Xs, y, ridge=1.0) if kind == "lda" else HSICCriterion(Xs, y, sigma=1.0)
    W0 = np.random.default_rng(6).standard_normal((5, 2)) * 0.3
    _, g = crit(W0)
    for frac in (0.02, 0.3):
        lam = frac * np.abs(g).sum(1).max()
        a = accelerated_proximal_gradient(crit, W0, lam, max_iter=20000, tol=1e-10)
        assert a.converged
        assert a.objective < crit(W0)[0] + lam * linf_penalty(W0)
        # eq. (3) with its linear constraints (SLSQP) reaches the same point from the same start
        c = linearly_constrained_slsqp(crit, W0, lam)
        assert c.objective == pytest.approx(a.objective, rel=1e-9)
        np.testing.assert_allclose(c.W, a.W, atol=1e-5)
        # the proximal-gradient solution is a fixed point of the L-BFGS-B reformulation
        b = bound_constrained_lbfgsb(crit, a.W, lam, max_iter=20000, tol=1e-14)
        assert b.objective == pytest.approx(a.objective, rel=1e-8)
        np.testing.assert_allclose(b.W, a.W, atol=1e-6)
        # and of the prox-gradient map
        step = 1e-3
        np.testing.assert_allclose(prox_rows_linf(a.W - step * crit(a.W)[1], step * lam), a.W, atol=1e-6)
        # from the same start, L-BFGS-B may stop where a row has s_j = 0 (every U_j is then
        # stationary); proximal gradient started there never does worse
        b0 = bound_constrained_lbfgsb(crit, W0, lam, max_iter=20000, tol=1e-14)
        a2 = accelerated_proximal_gradient(crit, b0.W, lam, max_iter=20000, tol=1e-10)
        assert a2.objective <= b0.objective + 1e-10
    # at the largest λ both reach the same point from the same start
    if kind == "hsic":
        assert b0.objective == pytest.approx(a.objective, rel=1e-8)
        np.testing.assert_allclose(b0.W, a.W, atol=1e-6)


def test_path_returns_exactly_k_and_records_it():
    X, y = _toy(n=40, d=8, seed=7)
    crit = HSICCriterion(X / X.std(0), y)
    W0 = np.random.default_rng(0).standard_normal((8, 3)) * 0.2
    for k in (1, 2, 4):
        res = select_k_path(crit, W0, k)
        assert res.exact and res.support.sum() == k
        assert (np.abs(res.W).max(1) > 0).sum() == k
        assert list(res.path.columns) == ["lambda", "n_selected", "criterion", "objective", "n_iter", "converged",
                                            "stage"]
        assert res.path["stage"].iloc[0] == "start" and res.path["lambda"].iloc[0] > 0
        assert res.lam in set(res.path["lambda"])
        # the strongest feature (0) is the last one dropped
        assert res.support[0]


@pytest.mark.parametrize("Est", [LDFS, HSFS])
def test_selectors_find_the_informative_features(Est):
    rng = np.random.default_rng(8)
    y = np.arange(60) % 2
    X = rng.standard_normal((60, 8))
    X[:, :2] = 0.6 * X[:, :2] + (2 * y[:, None] - 1)  # two informative features, independent noise
    s = Est(2, random_state=0).fit(X, y)
    assert s.get_support().sum() == 2 and s.exact_
    assert set(np.flatnonzero(s.get_support())) == {0, 1}
    assert s.transform(X).shape == (60, 2)
    np.testing.assert_array_equal(s.get_feature_names_out(), ["x0", "x1"])
    assert s.W_.shape == (8, s.n_components_) and s.n_iter_ > 0 and s.lambda_ > 0


def test_sparse_input_stays_sparse_and_matches_dense():
    X, y = _toy(n=40, d=6, seed=9, sparse=True)
    a = HSFS(2, random_state=0).fit(X, y)
    b = HSFS(2, random_state=0).fit(X.toarray(), y)
    np.testing.assert_array_equal(a.get_support(), b.get_support())
    np.testing.assert_allclose(a.W_, b.W_, atol=1e-8)
    assert sp.issparse(a.transform(X))


def test_pipeline_and_grid_search():
    X, y = _toy(n=60, d=8, seed=10)
    pipe = make_pipeline(HSFS(random_state=0), SVC())
    gs = GridSearchCV(pipe, {"hsfs__n_features_to_select": [1, 2], "svc__C": [1.0, 10.0]}, cv=3, n_jobs=1)
    gs.fit(X, y)
    assert gs.best_params_["hsfs__n_features_to_select"] in (1, 2)
    assert gs.best_estimator_[0].get_support().sum() == gs.best_params_["hsfs__n_features_to_select"]


def test_clear_errors():
    X, y = _toy()
    with pytest.raises(ValueError, match="two classes"):
        HSFS(2).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="exceeds"):
        LDFS(10).fit(X, y)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        HSFS(2).fit(Xn, y)
    with pytest.raises(ValueError, match="LDFS is defined for class labels only: the LDA criterion"):
        LDFS(2).fit(X, np.linspace(0, 1, len(y)))      # HSFS takes a regression target, LDFS not
    with pytest.raises(ValueError, match="n_components"):
        HSFS(2, n_components=0).fit(X, y)
    with pytest.raises(ValueError, match="inconsistent|samples"):
        HSFS(2).fit(X, y[:-1])


@parametrize_with_checks([LDFS(), HSFS()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ---- the active-set solver, the fast path and the tie rule against the references ----

def _wide(n=40, d=30, seed=11, sparse=False):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    X = rng.standard_normal((n, d))
    X[:, 3] += 2.0 * y
    X[:, 17] += np.where(y == 1, 1.5, 0.0)
    X[:, 25] += np.where(y == 2, 1.0, 0.0)
    if sparse:
        X = np.where(rng.random((n, d)) < 0.7, 0.0, np.abs(X) + y[:, None])
        return sp.csr_matrix(X), y
    return X, y


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kind", ["lda", "hsic"])
def test_restricted_criterion_is_the_criterion_with_zero_rows(kind, sparse):
    X, y = _wide(sparse=sparse)
    crit = LDACriterion(X, y, ridge=0.7) if kind == "lda" else HSICCriterion(X, y, sigma=1.3)
    rows = np.array([0, 3, 17, 29])
    W = np.zeros((X.shape[1], 2))
    W[rows] = np.random.default_rng(12).standard_normal((4, 2)) * 0.3
    f, G = crit(W)
    fs, Gs = crit.restrict(rows)(W[rows])
    assert fs == pytest.approx(f, rel=1e-12)
    np.testing.assert_allclose(Gs, G[rows], rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kind", ["lda", "hsic"])
def test_active_set_solver_reaches_the_fista_fixed_point(kind, sparse):
    X, y = _wide(sparse=sparse)
    Xs = X @ sp.diags(1.0 / feature_scales(X)) if sparse else X / X.std(0)
    crit = LDACriterion(Xs, y, ridge=1.0) if kind == "lda" else HSICCriterion(Xs, y, sigma=1.0)
    W0 = np.random.default_rng(13).standard_normal((X.shape[1], 2)) * 0.1
    _, g = crit(W0)
    n_zero = []
    for frac in ((0.5, 1.0) if kind == "lda" else (0.3, 0.6)):
        lam = frac * np.abs(g).sum(1).max()
        a = accelerated_proximal_gradient(crit, W0, lam, max_iter=20000, tol=1e-9)
        b = active_set_proximal_gradient(crit, W0, lam, max_iter=20000, tol=1e-9, round_iter=7)
        assert a.converged and b.converged
        assert b.objective == pytest.approx(a.objective, rel=1e-8)
        np.testing.assert_allclose(b.W, a.W, atol=2e-6)
        np.testing.assert_array_equal(np.abs(b.W).max(1) > 0, np.abs(a.W).max(1) > 0)
        # KKT of the zero rows: ||∇_j J||₁ ≤ λ
        zero = np.abs(b.W).max(1) == 0
        assert np.all(np.abs(crit(b.W)[1][zero]).sum(1) <= lam * (1 + 1e-6))
        n_zero.append(int(zero.sum()))
    assert max(n_zero) > 0


def test_active_set_solver_adds_rows_that_violate():
    """From W₀ = 0 except one row, the working set must grow to the rows the optimum needs."""
    X, y = _wide()
    crit = HSICCriterion(X / X.std(0), y)
    W0 = np.zeros((X.shape[1], 2))
    W0[3] = [0.3, -0.2]
    lam = 0.02 * np.abs(crit(np.random.default_rng(0).standard_normal(W0.shape) * 0.1)[1]).sum(1).max()
    a = accelerated_proximal_gradient(crit, W0, lam, max_iter=20000, tol=1e-9)
    b = active_set_proximal_gradient(crit, W0, lam, max_iter=20000, tol=1e-9)
    assert b.converged and (np.abs(b.W).max(1) > 0).sum() > 1
    np.testing.assert_allclose(b.W, a.W, atol=1e-6)


@pytest.mark.parametrize("seed, lambda_start", [(0, 0.1), (1, 0.1), (2, 0.1), (0, 1e-3)])
def test_hsfs_active_set_selects_what_the_reference_selects(seed, lambda_start):
    """Same path (λ values, counts), same W and features at a tight tolerance everywhere."""
    X, y = _wide(seed=20 + seed, sparse=seed == 2)
    tight = {"tol": 1e-8, "max_iter": 5000, "path_tol": None, "lambda_start": lambda_start}
    for k in (2, 5):
        fast = HSFS(k, random_state=seed, solver="active-set", **tight).fit(X, y)
        ref = HSFS(k, random_state=seed, solver="fista", **tight).fit(X, y)
        np.testing.assert_array_equal(fast.get_support(), ref.get_support())
        assert fast.lambda_ == pytest.approx(ref.lambda_, rel=1e-12)
        np.testing.assert_allclose(fast.W_, ref.W_, atol=1e-5)
        np.testing.assert_array_equal(fast.path_["n_selected"], ref.path_["n_selected"])


def test_ldfs_active_set_selects_what_the_reference_selects():
    X, y = _wide(seed=30)
    tight = {"tol": 1e-9, "max_iter": 5000}
    fast = LDFS(3, random_state=0, solver="active-set", **tight).fit(X, y)
    ref = LDFS(3, random_state=0, **tight).fit(X, y)
    np.testing.assert_array_equal(fast.get_support(), ref.get_support())


def test_top_k_tie_rule_keeps_the_smaller_index_within_the_tolerance():
    base = np.array([0.5, 2.0, 1.0, 2.0, 0.1, 1.0])
    # exact ties at the cut: the smaller indices win
    assert np.flatnonzero(top_k_rows(base, 1)).tolist() == [1]
    assert np.flatnonzero(top_k_rows(base, 3)).tolist() == [1, 2, 3]
    # last-bit perturbations of the tied values do not flip the choice, in either direction
    for eps in (1e-15, -1e-15, 4e-13, -4e-13):
        v = base.copy()
        v[3] += eps
        assert np.flatnonzero(top_k_rows(v, 1)).tolist() == [1]
        v = base.copy()
        v[5] += eps
        assert np.flatnonzero(top_k_rows(v, 3)).tolist() == [1, 2, 3]
    # a difference above the tolerance (1e-9 of the largest norm) is not a tie
    v = base.copy()
    v[3] += 1e-6
    assert np.flatnonzero(top_k_rows(v, 1)).tolist() == [3]
    assert top_k_rows(base, 6).all() and top_k_rows(base, 10).all()
    # zero rows: relative threshold, so a prox left-over of 1e-17 is zero
    W = np.array([[1.0, 0.0], [1e-17, 0.0], [0.0, 0.0], [0.0, 0.3]])
    assert row_support(W).tolist() == [True, False, False, True]
    assert row_support(W, 0.0).tolist() == [True, True, False, True]


def test_path_decides_on_converged_solves_and_rejects_unknown_solvers():
    X, y = _wide(seed=40)
    s = HSFS(3, random_state=0, tol=1e-8, max_iter=5000).fit(X, y)
    assert s.path_.loc[s.path_.stage == "bisect", "converged"].all()
    crit = HSICCriterion(X, y)
    with pytest.raises(ValueError, match="solver must be one of"):
        select_k_path(crit, np.ones((X.shape[1], 2)), 2, solver="newton")
    with pytest.raises(ValueError, match="solver"):
        HSFS(2, solver="newton").fit(X, y)


@pytest.mark.parametrize("sparse", [False, True])
def test_hsic_numba_kernel_matches_the_numpy_matrices(sparse):
    X, y = _wide(sparse=sparse)
    crit = HSICCriterion(X, y, sigma=1.3)
    W = np.random.default_rng(14).standard_normal((X.shape[1], 3)) * 0.2
    v, G = crit(W)
    v_ref, G_ref = crit.reference(W)
    assert v == pytest.approx(v_ref, rel=1e-12)
    assert crit.value(W) == v                      # the line search's value: same bits
    assert crit.restrict(np.arange(5)).value(W[:5]) == crit.restrict(np.arange(5))(W[:5])[0]
    np.testing.assert_allclose(G, G_ref, rtol=1e-10, atol=1e-15 * np.abs(G_ref).max())




@pytest.mark.parametrize(("n", "q", "zero_rows"), [(60, 10, 0.0), (45, 3, 0.5), (30, 1, 0.2)])
def test_hsic_pair_kernel_has_the_bits_of_the_plain_double_loop(n, q, zero_rows):
    # the kernel reorders the plain loop (j innermost, on Zᵀ) but keeps every sum's order:
    # the stored HSFS selections must recompute with the same bits
    from numba import njit

    from fsbook.l1linf._kernels_hsic import hsic_value, hsic_value_and_daz
    from fsbook.l1linf.hsic import centred_label_kernel

    rng = np.random.default_rng(n)
    Z = rng.standard_normal((n, q))
    Z[rng.random(n) < zero_rows] = 0.0
    Gamma = centred_label_kernel(rng.integers(0, 3, n))
    total, DAZ = hsic_value_and_daz(Z, Gamma, 0.4)
    ref_total, ref_DAZ = njit(naive.hsic_pair_loop)(Z, Gamma, 0.4)
    assert total == ref_total and hsic_value(Z, Gamma, 0.4) == ref_total
    assert np.array_equal(DAZ, ref_DAZ)


@pytest.mark.parametrize("q", [1, 4, 10])
def test_projection_has_the_bits_of_the_vectorised_numpy_form(q):
    # the numba projection against the NumPy form it replaced
    rng = np.random.default_rng(q)
    V = rng.standard_normal((300, q)) * rng.random((300, 1)) * 3
    V[::7] = 0.0
    for radius in (0.05, 1.0, 4.0):
        A = np.abs(V)
        outside = A.sum(axis=1) > radius
        ref = V.copy()
        U = -np.sort(-A[outside], axis=1)
        css = np.cumsum(U, axis=1) - radius
        rho = np.maximum((U - css / np.arange(1, q + 1) > 0).sum(axis=1) - 1, 0)
        theta = css[np.arange(len(rho)), rho] / (rho + 1)
        ref[outside] = np.sign(V[outside]) * np.maximum(A[outside] - theta[:, None], 0.0)
        assert np.array_equal(project_rows_l1_ball(V, radius), ref)


def test_path_without_exact_k_falls_back_to_the_k_largest_rows_of_the_last_lambda_above_k():
    # with no bisection the count jumps from 13 to 5 rows: the fallback keeps the k rows of
    # largest ||w_j||∞ at the last λ with more than k rows (13 rows), ties to the smaller index
    X, y = _wide(seed=40)
    s = HSFS(7, random_state=0, max_bisect=0).fit(X, y)
    assert not s.exact_ and s.get_support().sum() == 7
    path = s.path_
    above = path[path.n_selected > 7]
    assert s.lambda_ == above["lambda"].iloc[-1] and (path.n_selected < 7).any()
    norms = np.abs(s.W_).max(axis=1)
    assert (norms > 0).sum() == above["n_selected"].iloc[-1] == 13
    # independent reference: a stable sort of the norms, largest first
    expected = np.zeros(X.shape[1], dtype=bool)
    expected[np.argsort(-norms, kind="stable")[:7]] = True
    np.testing.assert_array_equal(s.get_support(), expected)
    # a bisection from the same path reaches k rows exactly where it can; the fallback keeps the
    # same number of features either way
    t = HSFS(7, random_state=0, max_bisect=1).fit(X, y)
    assert not t.exact_ and t.get_support().sum() == 7 and t.lambda_ > s.lambda_


def test_path_fallback_after_the_shrink_stage_keeps_the_k_largest_rows():
    # a first λ that zeroes every row: λ shrinks (from W₀) until more than k rows survive; with no
    # bisection the path returns the k largest rows of that solve, not an exact one
    X, y = _wide(seed=40)
    crit = HSICCriterion(X / X.std(0), y)
    W0 = np.random.default_rng(0).standard_normal((X.shape[1], 2)) * 0.1
    r = select_k_path(crit, W0, 4, max_bisect=0, start=2.0)
    assert not r.exact and r.path.stage.tolist() == ["start", "shrink"]
    assert r.path.n_selected.tolist() == [0, 7]
    norms = np.abs(r.W).max(axis=1)
    assert (norms > 0).sum() == 7 and r.lam == r.path["lambda"].iloc[-1]
    expected = np.zeros(X.shape[1], dtype=bool)
    expected[np.argsort(-norms, kind="stable")[:4]] = True
    np.testing.assert_array_equal(r.support, expected)


@pytest.mark.parametrize("cls", [HSFS, LDFS])
def test_row_threshold_parameter_is_the_papers_rule_swapped_into_the_path(cls):
    # the parameter against the swap it replaces: the path's counting function patched to count
    # the rows above the threshold (the check the chapter once made)
    from unittest import mock

    from fsbook.l1linf import path

    X, y = _wide(seed=40)
    got = cls(3, random_state=0, row_threshold=0.01).fit(X, y)
    original = path.row_support
    with mock.patch.object(path, "row_support", lambda W, threshold=None: original(W, 0.01)):
        ref = cls(3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(got.get_support(), ref.get_support())
    np.testing.assert_array_equal(got.W_, ref.W_)
    assert got.lambda_ == ref.lambda_ and got.exact_ == ref.exact_
    np.testing.assert_array_equal(got.path_["n_selected"], ref.path_["n_selected"])
    # the rule itself: exactly k rows above 0.01 when the path is exact, more non-zero rows
    norms = np.abs(got.W_).max(axis=1)
    if got.exact_:
        assert (norms > 0.01).sum() == 3 and np.array_equal(got.get_support(), norms > 0.01)
    if cls is HSFS:                                   # here the rule moves HSFS's path (not LDFS's)
        assert cls(3, random_state=0).fit(X, y).lambda_ != got.lambda_
    with pytest.raises(ValueError, match="row_threshold"):
        cls(3, row_threshold=0.0).fit(X, y)
    with pytest.raises(ValueError, match="row_threshold"):
        select_k_path(HSICCriterion(X, y), np.ones((X.shape[1], 2)), 2, row_threshold=-1.0)


@pytest.mark.parametrize(("n", "q", "zero_rows"), [(60, 10, 0.0), (45, 3, 0.5), (30, 1, 0.2), (2, 4, 0.0)])
def test_vectorised_pair_kernel_agrees_with_the_libm_kernel_to_rounding(n, q, zero_rows):
    from fsbook.l1linf._kernels_hsic import (
        hsic_value,
        hsic_value_and_daz,
        hsic_value_and_daz_vectorised,
        hsic_value_vectorised,
    )

    rng = np.random.default_rng(n)
    Z = rng.standard_normal((n, q)) * 2.0
    Z[rng.random(n) < zero_rows] = 0.0
    Gamma = centred_label_kernel(rng.integers(0, 3, n))
    total, DAZ = hsic_value_and_daz_vectorised(Z, Gamma, 0.4)
    ref_total, ref_DAZ = hsic_value_and_daz(Z, Gamma, 0.4)
    scale = np.abs(Gamma).sum()                     # the sum's terms are bounded by |Γ_ij|
    assert abs(total - ref_total) <= 1e-14 * scale
    assert hsic_value_vectorised(Z, Gamma, 0.4) == total       # the line search's value: same bits
    assert abs(hsic_value(Z, Gamma, 0.4) - ref_total) == 0.0
    np.testing.assert_allclose(DAZ, ref_DAZ, rtol=0, atol=1e-14 * np.abs(Gamma).max() * n * np.abs(Z).max())


def test_vectorised_exp_is_within_one_ulp_of_the_correctly_rounded_exp():
    import math
    from fractions import Fraction

    from fsbook.l1linf._kernels_hsic import exp_nonpositive

    rng = np.random.default_rng(5)
    x = -np.concatenate([rng.random(20000) * 40, rng.random(2000) * 700, rng.random(200) * 1e-8,
                         [0.0, 5e-324, 1e-300, 0.5 * math.log(2), math.log(2), 707.9, 708.0]])
    out = np.empty_like(x)
    exp_nonpositive(x, out, np.empty(x.size, dtype=np.int64))
    ref = np.exp(x)
    assert out[-7] == 1.0 and np.all(out >= 0)
    assert np.all(np.abs(out - ref) <= np.spacing(ref) * 1.0 + 1e-323)  # NumPy's exp, ≤ 1 ulp each
    # the Taylor part against exact rational arithmetic on a few points
    for v in (-0.3, -1.7, -20.25):
        o = np.empty(1)
        exp_nonpositive(np.array([v]), o, np.empty(1, dtype=np.int64))
        assert abs(o[0] - math.exp(v)) <= np.spacing(math.exp(v))
        assert Fraction(o[0]) > 0
    below = np.empty(2)
    exp_nonpositive(np.array([-708.5, -1e6]), below, np.empty(2, dtype=np.int64))
    assert below.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="pair_kernel"):
        HSICCriterion(np.ones((4, 2)), [0, 1, 0, 1], pair_kernel="fast")


@pytest.mark.parametrize("q", [1, 3, 8, 10, 17, 130])
def test_fused_prox_and_penalty_have_the_bits_of_the_numpy_forms(q):
    # the prox and the penalty are fused into single numba passes that sum as NumPy does
    from fsbook.l1linf.prox import pairwise_sum

    rng = np.random.default_rng(q)
    for d in (1, 7, 300, 2500):
        V = rng.standard_normal((d, q)) * 10.0 ** rng.uniform(-4, 2, (d, 1))
        V[rng.random(d) < 0.2] = 0.0
        for t in (1e-3, 0.1, 1.0, 30.0):
            got = prox_rows_linf(V, t)
            ref = V - project_rows_l1_ball(V, t)
            assert np.array_equal(got, ref) and np.array_equal(np.signbit(got), np.signbit(ref))
        assert linf_penalty(V) == float(np.abs(V).max(axis=1).sum())
    for n in (0, 5, 8, 127, 128, 129, 1000, 4099, 33333):
        a = rng.standard_normal(n) * 10.0 ** rng.uniform(-8, 8, n)
        assert pairwise_sum(a, 0, n) == a.sum()
        if n > 10:
            assert pairwise_sum(a, 3, n - 5) == a[3:n - 2].sum()
    W = np.ones((3, q))
    W[1, -1] = np.nan
    assert np.isnan(linf_penalty(W))


def test_hsfs_pair_kernel_parameter_reaches_the_criterion_and_the_earlier_stores_pin_libm():
    """HSFS's ``pair_kernel`` is its criterion's; the stores computed with the earlier defaults
    build HSFS with libm's kernel (the one they were run with), users and l1linf's version 5 get
    the vectorised default."""
    from fsbook.experiments._protocol_helpers import HSFS_PAIR_KERNEL, make_selector
    from fsbook.l1linf import HSFS

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 6)), np.repeat([0, 1], 20)
    X[:, 0] += 2.0 * y
    assert HSFS(2)._criterion(X, y).pair_kernel == "vectorised"
    libm = HSFS(2, pair_kernel="libm", random_state=0).fit(X, y)
    vec = HSFS(2, random_state=0).fit(X, y)
    assert libm._criterion(X, y).pair_kernel == "libm"
    np.testing.assert_array_equal(libm.get_support(), vec.get_support())
    path = {"tol": 1e-3, "max_iter": 30, "max_bisect": 4}
    assert HSFS_PAIR_KERNEL == "libm"
    assert make_selector("HSFS", 2, 0, l1linf_path=path, earlier_defaults=True).pair_kernel == "libm"
    assert make_selector("HSFS", 2, 0, l1linf_path=path).pair_kernel == "vectorised"
    with pytest.raises(ValueError, match="pair_kernel"):
        HSFS(2, pair_kernel="fast").fit(X, y)

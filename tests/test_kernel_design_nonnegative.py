"""Tests of the ``psd="nonnegative"`` LP (α ≥ 0 in place of diagonal dominance)."""
import numpy as np
import pytest

from fsbook.kernel_design import (
    KernelDesign,
    build_full_lp,
    build_nonnegative_lp,
    full_kernel_specs,
    kernel_groups,
    kernel_stack,
    solve_cutting_plane,
    solve_full_lp,
    solve_nonnegative_lp,
    triplet_differences,
    triplets_from_labels,
    weak_kernel_specs,
)


def _random_problem(seed, variant, n=25, d=4, T=40):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (X[:, 0] + 0.3 * rng.standard_normal(n) > 0).astype(int)       # labels follow feature 0
    y[:2] = [0, 1]
    t = triplets_from_labels(y, T, random_state=seed)
    specs = (weak_kernel_specs(d, mu=(0.3, 1.0, 3.0)) if variant == "weak"
             else full_kernel_specs(mu=(0.1, 1.0)))
    groups, _ = kernel_groups(specs)
    return X, t, specs, kernel_stack(specs, X), groups


def _cvxpy_optimum(K, t, groups, g1, g2):
    """The same LP written independently: group penalty as cp.max over each group."""
    cp = pytest.importorskip("cvxpy")
    m = K.shape[0]
    a = cp.Variable(m, nonneg=True)
    e = cp.Variable(t.shape[0], nonneg=True)
    Ka = sum(a[p] * K[p] for p in range(m))
    cons = [Ka[t[:, 0], t[:, 1]] - Ka[t[:, 0], t[:, 2]] + e >= 1]
    pen = sum(cp.max(a[np.flatnonzero(groups == g)]) for g in np.unique(groups))
    obj = cp.sum(e) + g1 * pen + g2 * cp.trace(Ka)
    prob = cp.Problem(cp.Minimize(obj), cons)
    prob.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    return prob.value, a.value


@pytest.mark.parametrize("variant", ["weak", "full"])
@pytest.mark.parametrize("seed, g1, g2", [(0, 1e-3, 1e-3), (3, 1e-1, 1e-2), (2, 1.0, 1e-4)])
def test_matches_cvxpy_and_is_psd(variant, seed, g1, g2):
    X, t, specs, K, groups = _random_problem(seed, variant)
    res = solve_full_lp(K, t, groups, g1, g2, psd="nonnegative")
    ref, _ = _cvxpy_optimum(K, t, groups, g1, g2)
    assert res.objective == pytest.approx(ref, rel=1e-6, abs=1e-9)
    assert np.all(res.alpha >= -1e-12)
    assert res.alpha.max() > 1e-3                      # a non-trivial mixture
    # s_g = max_{p in I_g} alpha_p at the optimum (gamma1 > 0)
    smax = np.zeros(res.s.size)
    np.maximum.at(smax, groups, res.alpha)
    np.testing.assert_allclose(res.s, smax, atol=1e-8)
    # PSD on S and on unseen points: min eigenvalue >= -1e-8 max
    Z = np.random.default_rng(seed + 100).standard_normal((30, X.shape[1]))
    for Ka in (np.tensordot(res.alpha, K, 1), np.tensordot(res.alpha, kernel_stack(specs, Z), 1)):
        ev = np.linalg.eigvalsh((Ka + Ka.T) / 2)
        assert ev.min() >= -1e-8 * max(ev.max(), 1e-300)
    # triplets with zero slack hold with margin 1; every triplet holds with its slack
    margin = triplet_differences(np.tensordot(res.alpha, K, 1)[None], t)[0]
    assert np.all(margin[res.eps <= 1e-9] >= 1 - 1e-7)
    assert np.all(margin + res.eps >= 1 - 1e-7)
    # the three entry points solve the same LP
    for other in (solve_cutting_plane(K, t, groups, g1, g2, psd="nonnegative"),
                  solve_nonnegative_lp(triplet_differences(K, t), np.einsum("pii->p", K), groups, g1, g2)):
        assert other.objective == pytest.approx(res.objective, rel=1e-9, abs=1e-12)


def test_lp_size_and_dominance_lp_differs():
    X, t, specs, K, groups = _random_problem(0, "weak")
    c, A, b, bounds, sizes = build_full_lp(K, t, groups, 1e-2, 1e-2, psd="nonnegative")
    m, T, G = K.shape[0], t.shape[0], int(groups.max()) + 1
    assert sizes == {"n_variables": m + T + G, "n_constraints": T + m, "nnz": int(A.nnz)}
    assert all(lo == 0 for lo, _ in bounds)
    _, Ad, _, _, sd = build_full_lp(K, t, groups, 1e-2, 1e-2)
    assert sd["n_variables"] > sizes["n_variables"]


def test_hand_solved_case():
    # points 0, 1, 3 on a line; one triplet (0, 1, 2); one weak Gaussian mu = 1:
    # D = e^-1 - e^-9, trace 3; alpha = 1/D while gamma1 + 3 gamma2 < D, else 0
    X = np.array([[0.0], [1.0], [3.0]])
    specs = weak_kernel_specs(1, mu=(1.0,))
    K = kernel_stack(specs, X)
    t = np.array([[0, 1, 2]])
    D = np.exp(-1) - np.exp(-9)
    for g1, g2 in [(0.1, 0.01), (0.2, 0.05)]:
        res = solve_full_lp(K, t, [0], g1, g2, psd="nonnegative")
        c = g1 + 3 * g2
        assert res.alpha[0] == pytest.approx(1 / D, rel=1e-9)
        assert res.objective == pytest.approx(c / D, rel=1e-9)
        assert res.eps[0] == pytest.approx(0, abs=1e-12)
    res = solve_full_lp(K, t, [0], 0.3, 0.05, psd="nonnegative")      # c = 0.45 > D = 0.368
    assert res.alpha[0] == pytest.approx(0, abs=1e-12)
    assert res.objective == pytest.approx(1.0, rel=1e-12)
    # same numbers through build_nonnegative_lp's direct input
    res = solve_nonnegative_lp([[0.5]], [3.0], [0], 0.1, 0.01)
    assert res.alpha[0] == pytest.approx(2.0) and res.objective == pytest.approx(0.26)


def test_estimator_nonnegative_matches_stack_solution():
    X, t, specs, K, groups = _random_problem(3, "weak")
    est = KernelDesign(variant="weak", weak_mu=(0.3, 1.0, 3.0), gamma1=1e-2, gamma2=1e-3,
                       psd="nonnegative", preprocessor=X).fit(t)
    # the estimator's S is the set of distinct points of the triplets, in sorted order
    S, inv = np.unique(X[np.unique(t)], axis=0, return_inverse=True)
    lookup = np.full(X.shape[0], -1)
    lookup[np.unique(t)] = inv
    ref = solve_full_lp(kernel_stack(specs, S), lookup[t], groups, 1e-2, 1e-3, psd="nonnegative")
    assert est.lp_.objective == pytest.approx(ref.objective, rel=1e-9)
    assert np.all(est.alpha_ >= 0) and np.isnan(est.dominance_violation_)
    ev = np.linalg.eigvalsh(est.kernel_matrix(X))
    assert ev.min() >= -1e-8 * ev.max()
    # decision_function agrees with the kernel matrix
    Kx = est.kernel_matrix(X)
    np.testing.assert_allclose(est.decision_function(t[:5]), Kx[t[:5, 0], t[:5, 1]] - Kx[t[:5, 0], t[:5, 2]],
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("bad", ["Dominance", "psd", None, 1])
def test_bad_psd_value(bad):
    X, t, specs, K, groups = _random_problem(0, "weak", n=8, T=5)
    for fn in (solve_full_lp, solve_cutting_plane, build_full_lp):
        with pytest.raises(ValueError, match="psd must be one of"):
            fn(K, t, groups, 1e-2, 1e-2, psd=bad)
    with pytest.raises(ValueError, match="psd"):
        KernelDesign(psd=bad, preprocessor=X).fit(t)


def test_nonnegative_input_errors():
    with pytest.raises(ValueError, match="one value per base kernel"):
        build_nonnegative_lp([[0.5, 0.2]], [1.0, 2.0], [0], 0.1, 0.1)
    with pytest.raises(ValueError, match="NaN"):
        build_nonnegative_lp([[np.nan]], [1.0], [0], 0.1, 0.1)
    with pytest.raises(ValueError, match="non-negative"):
        build_nonnegative_lp([[0.5]], [1.0], [0], -0.1, 0.1)


def test_scaling_and_zero_condition():
    """Kernels times c == gamma1 / c (gamma2 unchanged); alpha = 0 exactly when
    sum_{p in I_g} (sum_t D_pt - gamma2 tr K_p)_+ <= gamma1 for every group."""
    X, t, specs, K, groups = _random_problem(0, "weak")
    D, tr = triplet_differences(K, t), np.einsum("pii->p", K)
    base = solve_nonnegative_lp(D, tr, groups, 0.5, 1e-3)
    c = 7.0
    scaled = solve_nonnegative_lp(c * D, c * tr, groups, 0.5 * c, 1e-3)
    assert scaled.objective == pytest.approx(base.objective, rel=1e-9)
    np.testing.assert_allclose(c * scaled.alpha, base.alpha, atol=1e-8)
    seen = set()
    for g1 in (0.0, 0.5, 2.0, 5.0, 10.0, 20.0):
        for g2 in (1e-3, 0.1, 0.3, 1.0):
            gain = np.maximum(D.sum(axis=1) - g2 * tr, 0.0)
            per_group = np.bincount(groups, weights=gain)
            predicted_zero = bool(np.all(per_group <= g1 * (1 - 1e-9)))
            if np.any(np.abs(per_group - g1) < 1e-6):
                continue                                 # on the boundary: either answer
            res = solve_nonnegative_lp(D, tr, groups, g1, g2)
            assert (res.alpha.max() <= 1e-9) == predicted_zero
            seen.add(predicted_zero)
    assert seen == {True, False}                          # both regimes were exercised


def test_interior_point_path_reaches_the_same_optimum(monkeypatch):
    import fsbook.kernel_design.lp as lp
    X, t, specs, K, groups = _random_problem(2, "weak")
    D, tr = triplet_differences(K, t), np.einsum("pii->p", K)
    simplex = solve_nonnegative_lp(D, tr, groups, 1e-2, 1e-3)
    monkeypatch.setattr(lp, "DENSE_NNZ", 0)              # every LP counts as dense
    ipm = solve_nonnegative_lp(D, tr, groups, 1e-2, 1e-3)
    assert ipm.objective == pytest.approx(simplex.objective, rel=1e-8)
    assert np.all(ipm.alpha >= -1e-12)

"""Disjunctive HKL: active-set solver vs brute force, duality gap, sufficiency condition."""
import naive as nv
import numpy as np
import pytest
import scipy.sparse as sp

from fsbook.hkl import HKLProblem, lattice, solve_active_set, solve_brute_force


def _data(seed, m=40, n=5):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(float)
    y = np.where((X[:, 0] + X[:, 1] > 0) ^ (rng.random(m) < 0.1), 1.0, -1.0)
    return X, y


# (1.5, 1, 7) used to hang: the p < 2 kernel weights σ fell to ~1e-8 of their maximum and the
# tol=1e-7 libsvm solve on the resulting near-singular kernel never terminated.
# the last three: the estimator's parametrisation δ_∅ = 1, δ_v = μ β^{|v|−1} (μ = 0.5, β = 2)
CASES = [(2.0, 0, 5), (2.0, 4, 6), (2.0, 2, 8), (1.5, 4, 6), (1.5, 0, 5), (1.5, 1, 7),
         (2.0, 0, 6, "level"), (1.5, 3, 6, "level"), (2.0, 5, 8, "level")]


def _weights(case):
    """(ω, δ_top, δ_node) of a case: δ_v = β^{|v|−1} on the whole lattice, or per level."""
    n = case[2]
    if len(case) > 3:
        beta, mu = 2.0, 0.5
        return np.full(n, beta), 1.0, mu / beta
    beta = np.sqrt(n)
    return np.full(n, beta), 1 / beta, None


@pytest.fixture(scope="module")
def solved():
    out = {}
    for case in CASES:
        p, seed, n = case[:3]
        X, y = _data(seed, n=n)
        om, dtop, dnode = _weights(case)
        prob = HKLProblem(X, y, C=10.0, p=p, omega=om, delta_top=dtop, delta_node=dnode)
        trace = []
        r = solve_active_set(prob, tol=1e-4, max_add=3,
                             callback=lambda nodes, ev, rec, trace=trace: trace.append((nodes, ev["c"].copy(), rec)))
        bf = nv.brute_force_primal(X, y, 10.0, p, om, dtop, dnode)
        out[case] = (X, y, om, None, r, bf, trace)
    return out


@pytest.mark.parametrize("case", CASES)
def test_active_set_matches_brute_force(solved, case):
    X, y, om, beta, r, (val, nodes, w, b), _ = solved[case]
    tol = 1e-4
    assert r["converged"] and r["gap"] <= tol            # certified duality gap ≤ tol
    assert val <= r["primal"] <= val * (1 + 2 * tol)      # same objective as problem (1)
    f_bf = nv.node_values(X, nodes) @ w + b
    f_as = nv.node_values(X, r["nodes"]) @ r["w"] + r["b"]
    np.testing.assert_allclose(f_as, f_bf, atol=0.02 * np.abs(f_bf).max())


@pytest.mark.parametrize("case", CASES)
def test_sufficiency_never_stops_while_a_violating_node_exists(solved, case):
    """At every iteration, the certified gap bounds the true gap (P − P*)/P, where P* is
    the brute-force optimum over all 2^n nodes; the solver stops only when the certified
    gap is ≤ tol, so it never stops while an omitted node could lower (1) by more than tol."""
    X, y, om, beta, r, (val, *_), trace = solved[case]
    assert trace
    for _nodes, _c, rec in trace:
        true_gap = (rec["primal"] - val) / rec["primal"]
        assert rec["gap"] >= true_gap - 1e-9
        assert rec["dual"] <= val * (1 + 1e-6)             # the dual bound is a lower bound


@pytest.mark.parametrize("seed", [0, 3])
def test_certificate_dominates_exact_full_dual_norm(seed):
    """max(Ω_A*(s)² bound, max_t Q(t)) ≥ Ω*(s)² computed on the full lattice (enumeration)."""
    from fsbook.hkl.solver import RestrictedProblem, source_scores
    n = 5
    X, y = _data(seed, m=20, n=n)
    beta = 2.0
    for p in (2.0, 1.5):
        prob = HKLProblem(X, y, C=5.0, p=p, omega=np.full(n, beta), delta_top=1 / beta)
        A = lattice.hull([(0,), (1, 2)])
        red = RestrictedProblem(prob, A)
        rng = np.random.default_rng(seed)
        ev = red.evaluate(rng.dirichlet(np.ones(len(A))))
        up, lo, _ = red.dual_norm(ev["s"], ev["eta"])
        bound = max(up, float(np.exp(source_scores(prob, ev["c"], lattice.sources(A, n)).max())))
        nodes = [v for v in lattice.enumerate_lattice(n) if v]
        s = nv.node_values(X, nodes).T @ ev["c"]
        exact, _ = nv.dual_norm_exact(s, n, np.full(n, beta), 1 / beta, p)
        assert exact ** 2 <= bound * (1 + 1e-6)
        # reduced dual norm: upper and lower bounds bracket the exact value on A
        sA = nv.node_values(X, A[1:]).T @ ev["c"]
        exA = nv.dual_norm_exact_on(sA, A, np.full(n, beta), 1 / beta, p)
        assert lo * (1 - 1e-6) <= exA ** 2 <= up * (1 + 1e-6)
        assert up <= lo * (1 + 1e-4)


def test_violating_sources_by_enumeration():
    """Q(t) of every source (closed form) equals enumeration, and sources with Q(t) larger
    than the reduced dual norm are exactly those the solver flags."""
    from fsbook.hkl.solver import RestrictedProblem, source_scores
    n = 6
    X, y = _data(2, m=25, n=n)
    beta = 2.0
    prob = HKLProblem(X, y, C=5.0, omega=np.full(n, beta), delta_top=1 / beta)
    A = lattice.hull([(0, 1), (2,), (3,)])
    red = RestrictedProblem(prob, A)
    ev = red.evaluate(np.full(len(A), 1.0 / len(A)))
    srcs = lattice.sources(A, n)
    logQ = source_scores(prob, ev["c"], srcs)
    ref = np.array([nv.Q_enum(X, ev["c"], t, np.full(n, beta), 1 / beta) for t in srcs])
    np.testing.assert_allclose(np.exp(logQ), ref, rtol=1e-8)


def test_package_brute_force_matches_naive():
    X, y = _data(0, n=4)
    r = solve_brute_force(X, y, C=10.0, beta=2.0, mu=0.5, p=2.0)
    val, nodes, w, b = nv.brute_force_primal(X, y, 10.0, 2.0, np.full(4, 2.0), 1.0, 0.25)
    assert abs(r["objective"] - val) <= 1e-5 * val
    with pytest.raises(ValueError):
        solve_brute_force(np.zeros((4, 12)), [0, 1, 0, 1])


def test_capped_inner_svm_keeps_the_certificate_valid():
    """With libsvm stopped after a handful of iterations (feasible, inexact α), every reported
    dual value is still a lower bound and every primal value an upper bound on the optimum."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    X, y = _data(0, n=5)
    beta = np.sqrt(5)
    om = np.full(5, beta)
    val, *_ = nv.brute_force_primal(X, y, 10.0, 2.0, om, 1 / beta)
    prob = HKLProblem(X, y, C=10.0, p=2.0, omega=om, delta_top=1 / beta, svm_max_iter=3,
                      inner="smo")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = solve_active_set(prob, tol=1e-4, max_add=3, max_iter=8, md_max_iter=20)
    assert r["n_svm_capped"] > 0                           # the cap was actually hit
    for rec in r["history"]:
        assert rec["dual"] <= val * (1 + 1e-6)
        assert rec["primal"] >= val * (1 - 1e-6)


@pytest.mark.parametrize("C", [0.05, 1.0, 50.0])
def test_smo_matches_libsvm_and_cvxpy(C):
    """The warm-started SMO reaches the SVM dual optimum of libsvm and of cvxpy, cold and warm."""
    import cvxpy as cp
    from sklearn.svm import SVC

    from fsbook.hkl import smo_svm
    rng = np.random.default_rng(7)
    X = (rng.random((60, 12)) < 0.3).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=60) > 0.5, 1.0, -1.0)
    K = X @ X.T + 0.5 * (X[:, :3] @ X[:, :3].T)
    dual = lambda a: a.sum() - 0.5 * (a * y) @ K @ (a * y)
    a, b, _, ok = smo_svm(K, y, C, tol=1e-9)
    assert ok and np.all(a >= 0) and np.all(a <= C) and abs(a @ y) < 1e-9
    svc = SVC(C=C, kernel="precomputed", tol=1e-9).fit(K, y)
    c = np.zeros(60)
    c[svc.support_] = svc.dual_coef_.ravel()          # classes_[1] = +1
    al = cp.Variable(60)
    L = np.linalg.cholesky(K + 1e-10 * np.eye(60))
    pr = cp.Problem(cp.Maximize(cp.sum(al) - 0.5 * cp.sum_squares(L.T @ cp.multiply(al, y))),
                    [al >= 0, al <= C, y @ al == 0])
    pr.solve(solver=cp.CLARABEL)
    assert dual(a) == pytest.approx(dual(np.abs(c)), rel=1e-7)
    assert dual(a) >= pr.value * (1 - 1e-6)
    f_smo = K @ (a * y) + b
    f_svc = svc.decision_function(K)
    np.testing.assert_allclose(f_smo, f_svc, atol=1e-4 * max(1.0, np.abs(f_svc).max()))
    # warm start from a perturbed, infeasible point: same optimum
    a2, _, _, ok2 = smo_svm(K, y, C, alpha0=a + rng.random(60), tol=1e-9)
    assert ok2 and dual(a2) == pytest.approx(dual(a), rel=1e-7)


def test_inner_solvers_give_the_same_hkl_solution():
    X, y = _data(1, n=6)
    res = {}
    for inner in ("smo", "libsvm"):
        prob = HKLProblem(X, y, C=10.0, omega=np.full(6, 2.0), delta_top=1.0, delta_node=0.25,
                          inner=inner)
        res[inner] = solve_active_set(prob, tol=1e-4, max_add=3)
    assert res["smo"]["converged"] and res["libsvm"]["converged"]
    assert res["smo"]["primal"] == pytest.approx(res["libsvm"]["primal"], rel=3e-4)


def test_pruned_source_scores_bound_the_exact_ones():
    """With a threshold, sources of a pruned parent get the parent bound ((1+ω)/ω)² Q(a):
    never below the exact Q(t), and only where that bound is below the threshold."""
    from fsbook.hkl.solver import RestrictedProblem, source_scores
    n = 7
    X, y = _data(4, m=40, n=n)
    prob = HKLProblem(X, y, C=5.0, omega=np.full(n, 2.0), delta_top=1.0, delta_node=0.3)
    A = lattice.hull([(0, 1), (2,), (3,), (4,)])
    ev = RestrictedProblem(prob, A).evaluate(np.full(len(A), 1.0 / len(A)))
    srcs = lattice.sources(A, n)
    exact = source_scores(prob, ev["c"], srcs)
    for thr in (np.exp(np.median(exact)), np.exp(exact.max()) * 10):
        pruned = source_scores(prob, ev["c"], srcs, threshold=thr)
        assert np.all(pruned >= exact - 1e-9)
        changed = ~np.isclose(pruned, exact, rtol=0, atol=1e-12)
        assert np.all(pruned[changed] <= np.log(thr) + 1e-12)
        assert np.array_equal(exact > np.log(thr), pruned > np.log(thr))   # same violators
    assert changed.any()                                   # the large threshold prunes


def test_warm_started_path_reaches_the_cold_optimum():
    X, y = _data(2, n=6)
    kw = dict(omega=np.full(6, 2.0), delta_top=1.0, delta_node=0.25)
    prob = HKLProblem(X, y, C=0.5, **kw)
    r1 = solve_active_set(prob, tol=1e-4, max_add=3)
    prob.C = 10.0
    warm = solve_active_set(prob, tol=1e-4, max_add=3, nodes=r1["nodes"], eta=r1["eta"])
    cold = solve_active_set(HKLProblem(X, y, C=10.0, **kw), tol=1e-4, max_add=3)
    assert warm["converged"] and cold["converged"]
    assert warm["primal"] == pytest.approx(cold["primal"], rel=3e-4)
    with pytest.raises(ValueError, match="hull-closed"):
        solve_active_set(prob, nodes=[(), (0, 1)])


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0, 1e4])
def test_ipm_svm_matches_clarabel_and_smo(C):
    """The low-rank interior point SVM against Clarabel's sparse QP and SMO: same dual
    objective, same intercept (where the SVM has free support vectors), feasible α."""
    import scipy.sparse as sp

    from fsbook.hkl.smo import clarabel_svm, ipm_svm, smo_svm
    rng = np.random.default_rng(1)
    m, k = 120, 15
    Psi = sp.csr_matrix((rng.random((m, k)) < 0.3).astype(float))
    sigma = np.exp(rng.uniform(np.log(1e-5), 0.0, k))
    y = np.where(Psi[:, :2].sum(axis=1).A.ravel() + 0.3 * rng.normal(size=m) > 0.5, 1.0, -1.0)
    K = (Psi.multiply(sigma[None, :]) @ Psi.T).toarray()

    def dual(a):
        return a.sum() - 0.5 * (a * y) @ K @ (a * y)

    a1, b1, ok1 = ipm_svm(Psi, sigma, y, C)
    a2, b2, ok2 = clarabel_svm(Psi, sigma, y, C)
    a3, b3, _, ok3 = smo_svm(K, y, C)
    assert ok1 and ok2 and ok3
    for a in (a1, a2):
        assert a.min() >= 0 and a.max() <= C and abs(y @ a) <= 1e-9 * C * m
    assert dual(a1) == pytest.approx(dual(a3), rel=1e-7, abs=1e-9)
    assert dual(a2) == pytest.approx(dual(a3), rel=1e-7, abs=1e-9)
    free = (a3 > 1e-6 * C) & (a3 < C * (1 - 1e-6))
    if free.any():
        assert b1 == pytest.approx(b3, abs=1e-4 * max(1.0, abs(b3)))


@pytest.mark.parametrize("C", [1.0, 300.0])
def test_auto_inner_solver_matches_smo(C):
    """``inner="auto"`` (SMO within a budget, then the interior point method) reaches the
    objective of the SMO-only solver and the brute-force optimum, with a certified gap."""
    X, y = _data(3, n=5)
    beta = np.sqrt(5)
    om = np.full(5, beta)
    val, *_ = nv.brute_force_primal(X, y, C, 2.0, om, 1 / beta)
    res = {}
    for inner in ("auto", "smo"):
        prob = HKLProblem(X, y, C=C, p=2.0, omega=om, delta_top=1 / beta, inner=inner,
                          smo_budget=5)
        res[inner] = solve_active_set(prob, tol=1e-5)
        assert res[inner]["converged"]
        assert res[inner]["primal"] == pytest.approx(val, rel=2e-5)
    assert res["auto"]["n_ipm"] > 0 and res["smo"]["n_ipm"] == 0


@pytest.mark.parametrize("seed", range(6))
def test_grouped_source_scores_match_the_reference(seed):
    """The fast scores (all prefixes at once, inclusion–exclusion over S_l ∩ S_a) equal the
    one-candidate-at-a-time reference, with and without pruning, on active sets with pairs and
    triples as prefixes, sparse and dense input; the grouped and flat entry points agree."""
    import scipy.sparse as sp

    from fsbook.hkl.solver import (
        RestrictedProblem,
        source_group_scores,
        source_scores,
        source_scores_reference,
    )
    rng = np.random.default_rng(seed)
    n = 9
    X, y = _data(seed, m=60, n=n)
    X = sp.csr_matrix(X) if seed % 2 else X
    prob = HKLProblem(X, y, C=3.0, omega=rng.uniform(1.0, 4.0, n), delta_top=1.0, delta_node=0.4)
    A = lattice.hull([(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (5,), (6,), (4, 5)])
    ev = RestrictedProblem(prob, A).evaluate(np.full(len(A), 1.0 / len(A)))
    srcs = lattice.sources(A, n)
    assert max(len(t) for t in srcs) == 4                     # prefixes up to three features
    ref = source_scores_reference(prob, ev["c"], srcs)
    fast = source_scores(prob, ev["c"], srcs)
    np.testing.assert_allclose(fast, ref, rtol=0, atol=1e-10)
    grouped = source_group_scores(prob, ev["c"], lattice.source_groups(A, n))
    np.testing.assert_array_equal(grouped, fast)
    perm = rng.permutation(len(srcs))                         # any order of the sources
    np.testing.assert_array_equal(source_scores(prob, ev["c"], [srcs[k] for k in perm]), fast[perm])
    for thr in (np.exp(np.median(ref)), np.exp(ref.max()) * 10):
        r_pruned = source_scores_reference(prob, ev["c"], srcs, threshold=thr)
        f_pruned = source_scores(prob, ev["c"], srcs, threshold=thr)
        np.testing.assert_allclose(f_pruned, r_pruned, rtol=0, atol=1e-10)


def test_prefix_quadforms_equal_direct_quadratic_forms():
    """Each ``(c∘z_a∘z_l)ᵀ R (c∘z_a∘z_l)`` from the kernel equals the product written out."""
    import scipy.sparse as sp

    from fsbook.hkl._kernels import prefix_quadforms, union_matrix
    rng = np.random.default_rng(11)
    m, n = 50, 8
    X = (rng.random((m, n)) < 0.35).astype(float)
    c = rng.normal(size=m)
    c[rng.random(m) < 0.3] = 0.0
    R = union_matrix(X, np.log1p(rng.uniform(0.05, 0.3, n)))
    prefixes = [(0,), (2, 5), (1, 3, 7)]
    cands = [np.array([1, 4, 6]), np.array([0, 3]), np.array([2, 4, 5, 6])]
    psi = lattice.node_indicator(X, prefixes)
    Xc = sp.csc_matrix(X)
    Xc.sort_indices()
    base, q = prefix_quadforms(c, R, Xc, psi, cands)
    expect_q, expect_base = [], []
    for j, ls in enumerate(cands):
        ca = c * (1 - psi[:, j])
        expect_base.append(ca @ R @ ca)
        for l in ls:
            e = ca * (1 - X[:, l])
            expect_q.append(e @ R @ e)
    np.testing.assert_allclose(base, expect_base, rtol=1e-12)
    np.testing.assert_allclose(q, expect_q, rtol=1e-10, atol=1e-12)


# ---- the conic restricted solver (solver="conic") ------------------------------------------

@pytest.fixture(scope="module")
def solved_conic():
    out = {}
    for case in CASES:
        p, seed, n = case[:3]
        X, y = _data(seed, n=n)
        om, dtop, dnode = _weights(case)
        prob = HKLProblem(X, y, C=10.0, p=p, omega=om, delta_top=dtop, delta_node=dnode)
        trace = []
        r = solve_active_set(prob, tol=1e-4, max_add=3, solver="conic",
                             callback=lambda nodes, ev, rec, trace=trace: trace.append(rec))
        out[case] = (X, y, r, nv.brute_force_primal(X, y, 10.0, p, om, dtop, dnode), trace)
    return out


@pytest.mark.parametrize("case", CASES)
def test_conic_solver_matches_brute_force(solved_conic, case):
    """The conic restricted solver certifies the brute-force optimum of problem (1) over all
    2^n nodes: same objective within the gap, same decision values, every certified gap at
    every iteration at least the true gap."""
    X, y, r, (val, nodes, w, b), trace = solved_conic[case]
    tol = 1e-4
    assert r["converged"] and r["stop_reason"] == "certified" and r["gap"] <= tol
    # val is cvxpy's optimum, itself accurate to about 1e-8 relative: the conic solution may
    # lie just below it
    assert val * (1 - 1e-6) <= r["primal"] <= val * (1 + 2 * tol)
    f_bf = nv.node_values(X, nodes) @ w + b
    f_cs = nv.node_values(X, r["nodes"]) @ r["w"] + r["b"]
    np.testing.assert_allclose(f_cs, f_bf, atol=0.02 * np.abs(f_bf).max())
    for rec in trace:
        assert rec["gap"] >= (rec["primal"] - val) / rec["primal"] - 1e-9
        assert rec["dual"] <= val * (1 + 1e-6)


@pytest.mark.parametrize("case", CASES)
def test_conic_and_mirror_solvers_agree_within_the_gap(solved, solved_conic, case):
    """Where both solvers certify, their objectives agree within the gap tolerance and their
    decision values within the tolerance's square root of the scale (strong convexity of ½Ω²
    in w bounds ||Δw|| by √(2 gap P))."""
    X, _, om, _, r_md, *_ = solved[case]
    _, _, r_cs, _, _ = solved_conic[case]
    assert r_md["converged"] and r_cs["converged"]
    tol = 1e-4
    assert r_cs["primal"] == pytest.approx(r_md["primal"], rel=2 * tol)
    f_md = nv.node_values(X, r_md["nodes"]) @ r_md["w"] + r_md["b"]
    f_cs = nv.node_values(X, r_cs["nodes"]) @ r_cs["w"] + r_cs["b"]
    np.testing.assert_allclose(f_cs, f_md, atol=0.02 * np.abs(f_md).max())


def test_conic_program_is_the_restricted_primal():
    """At the conic solution, the objective Clarabel minimised (½t² + C1ᵀξ) equals the
    restricted primal (2)–(3) evaluated from w and b, and the dual point lies in τ(y, C)."""
    import clarabel

    from fsbook.hkl.primal import conic_program
    from fsbook.hkl.solver import RestrictedProblem
    X, y = _data(3, m=30, n=5)
    for p in (2.0, 1.5):
        prob = HKLProblem(X, y, C=3.0, p=p, omega=np.full(5, 2.0), delta_top=1.0,
                          delta_node=0.25)
        red = RestrictedProblem(prob, lattice.hull([(0, 1), (2,), (3, 4)]))
        P, q, A, b, cones, at = conic_program(red.Psi, y, 3.0, red.d, red.M, p)
        s = clarabel.DefaultSettings()
        s.verbose = False
        res = clarabel.DefaultSolver(P, q, A, b, cones, s).solve()
        x, z = np.asarray(res.x), np.asarray(res.z)
        k, m = len(red.nodes), len(y)
        w, b0 = x[:k], x[k]
        f = red.Psi @ w + b0
        omega = float(red.d @ (red.MT @ np.abs(w) ** p) ** (1 / p))
        primal = 0.5 * omega ** 2 + 3.0 * np.maximum(0, 1 - y * f).sum()
        assert res.obj_val == pytest.approx(primal, rel=1e-6)
        alpha = z[:m]
        assert np.all(alpha >= -1e-7) and np.all(alpha <= 3.0 + 1e-7)
        assert abs(alpha @ y) <= 1e-6 * 3.0 * m
        # the dual objective at α (with the exact restricted dual norm) closes the gap
        sA = red.PsiT @ (alpha * y)
        up, _, _ = red.dual_norm(sA)
        assert alpha.sum() - 0.5 * up == pytest.approx(primal, rel=1e-5)


@pytest.mark.parametrize("solver", ["mirror", "conic", "working_set"])
def test_a_fit_stopped_by_a_budget_says_so(solver):
    """No cap decides a result silently: a fit stopped at max_active or max_iter warns, reports
    the reason and its (uncertified) gap."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    X, y = _data(2, n=8)
    prob = HKLProblem(X, y, C=10.0, omega=np.full(8, np.sqrt(8)), delta_top=1 / np.sqrt(8))
    for kw, reason in ((dict(max_active=2, max_add=1), "max_active"),
                       (dict(max_iter=1), "max_iter")):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            r = solve_active_set(prob, tol=1e-6, solver=solver, **kw)
        assert r["stop_reason"] == reason and not r["converged"] and r["gap"] > 1e-6
        assert any(issubclass(w.category, ConvergenceWarning) and reason in str(w.message)
                   for w in rec)
    r = solve_active_set(prob, tol=1e-6, solver=solver, max_active=None)
    assert r["converged"] and r["stop_reason"] == "certified"
    with pytest.raises(ValueError, match="solver"):
        solve_active_set(prob, solver="fista")


# ---- the working-set restricted solver (solver="working_set") --------------------------------

def _kkt_residual(red, sol):
    """Largest violation of the KKT conditions of the restricted problem at ``(w, b, α)``:
    ``α ∈ τ(y, C)``, complementary slackness of the margins, and the reduced gap
    ``P(w, b) − (1ᵀα − ½ Ω_A*(s)²)`` relative to ``P`` (zero exactly at a saddle point)."""
    from fsbook.hkl.solver import _dual_lower
    prob = red.prob
    y, C, p = prob.y, prob.C, prob.p
    alpha = sol["c"] * y
    mu = y * (red.Psi @ sol["w"] + sol["b"])
    omega = float(red.d @ (red.MT @ np.abs(sol["w"]) ** p) ** (1 / p))
    P = 0.5 * omega ** 2 + C * np.maximum(0.0, 1.0 - mu).sum()
    up, _, _ = red.dual_norm(red.PsiT @ sol["c"])
    box = max(float(-alpha.min()), float(alpha.max() - C), abs(float(alpha @ y)) / C, 0.0)
    slack = max(float(np.max(np.where(alpha < 1e-6 * C, 1.0 - mu, -np.inf))),      # α = 0: μ ≥ 1
                float(np.max(np.where(alpha > C * (1 - 1e-6), mu - 1.0, -np.inf))),  # α = C: μ ≤ 1
                0.0)
    return P, box, slack, (P - _dual_lower(alpha.sum(), up)) / P


def _random_restricted(seed, p):
    from fsbook.hkl.solver import RestrictedProblem
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 7))
    X, y = _data(seed, m=int(rng.integers(30, 70)), n=n)
    prob = HKLProblem(X, y, C=float(10.0 ** rng.uniform(-1, 3)), p=p, omega=np.full(n, 2.0),
                      delta_top=1.0, delta_node=0.25)
    nodes = lattice.hull([tuple(sorted(rng.choice(n, size=int(rng.integers(1, 3)), replace=False)))
                          for _ in range(4)])
    return rng, RestrictedProblem(prob, nodes)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("p", [2.0, 1.5])
def test_working_set_solver_reaches_the_conic_optimum(seed, p):
    """On random restricted problems, from the conic optimum, from a perturbed point and from a
    point that puts almost every sample outside the working set (an unbounded shrunk program,
    so the fallback to all samples), restricted_working_set returns the optimum of
    restricted_conic: the same objective to 1e-6, a KKT point (α ∈ τ(y, C), complementary
    slackness, reduced gap ≤ 1e-6), and the same weights."""
    from fsbook.hkl.primal import restricted_conic, restricted_working_set
    rng, red = _random_restricted(seed, p)
    ref = restricted_conic(red)
    P_ref, *_ = _kkt_residual(red, ref)
    k, m = len(red.nodes), red.prob.m
    starts = [(ref["w"], ref["b"]), (ref["w"] + 0.3 * rng.normal(size=k) * np.abs(ref["w"]).max(),
                                     ref["b"] + 0.2), (np.zeros(k), -10.0), (np.zeros(k), 10.0)]
    shrunk = False
    for w0, b0 in starts:
        sol = restricted_working_set(red, w0=w0, b0=b0)
        P, box, slack, gap = _kkt_residual(red, sol)
        assert P == pytest.approx(P_ref, rel=1e-6, abs=1e-9)
        assert box <= 1e-7 and slack <= 1e-5 and gap <= 1e-6
        np.testing.assert_allclose(sol["w"], ref["w"], atol=1e-4 * max(1.0, np.abs(ref["w"]).max()))
        shrunk |= sol["working_samples"] < m
    assert shrunk                   # the warm start at the optimum leaves samples out
    # a guess that breaks, with no second round allowed: all samples, the conic optimum
    w0, b0 = starts[1]
    sol = restricted_working_set(red, w0=w0, b0=b0, band=0.0, max_rounds=1)
    assert sol["rounds"] <= 2 and (sol["rounds"] == 1 or sol["working_samples"] == m)
    assert _kkt_residual(red, sol)[0] == pytest.approx(P_ref, rel=1e-6, abs=1e-9)


@pytest.fixture(scope="module")
def solved_ws(solved_conic):
    out = {}
    for case in CASES:
        p, seed, n = case[:3]
        X, y, _, bf, _ = solved_conic[case]
        om, dtop, dnode = _weights(case)
        prob = HKLProblem(X, y, C=10.0, p=p, omega=om, delta_top=dtop, delta_node=dnode)
        trace = []
        r = solve_active_set(prob, tol=1e-4, max_add=3, solver="working_set",
                             callback=lambda nodes, ev, rec, trace=trace: trace.append(rec))
        out[case] = (X, y, r, bf, trace)
    return out


@pytest.mark.parametrize("case", CASES)
def test_working_set_solver_matches_brute_force(solved_ws, solved_conic, case):
    """The active-set method with solver="working_set" certifies the brute-force optimum of
    problem (1) over all 2^n nodes (same objective within the gap, same decision values, every
    certified gap at least the true gap) and agrees with solver="conic"."""
    X, y, r, (val, nodes, w, b), trace = solved_ws[case]
    tol = 1e-4
    assert r["converged"] and r["stop_reason"] == "certified" and r["gap"] <= tol
    assert r["solver"] == "working_set"
    assert val * (1 - 1e-6) <= r["primal"] <= val * (1 + 2 * tol)
    f_bf = nv.node_values(X, nodes) @ w + b
    f_ws = nv.node_values(X, r["nodes"]) @ r["w"] + r["b"]
    np.testing.assert_allclose(f_ws, f_bf, atol=0.02 * np.abs(f_bf).max())
    for rec in trace:
        assert rec["gap"] >= (rec["primal"] - val) / rec["primal"] - 1e-9
        assert rec["dual"] <= val * (1 + 1e-6)
        assert 0 < rec["working_samples"] <= len(y) and rec["working_set_rounds"] >= 1
    r_cs = solved_conic[case][2]
    assert r["primal"] == pytest.approx(r_cs["primal"], rel=2 * tol)


def test_working_set_path_matches_cold_conic_fits():
    """The warm-started path with solver="working_set" (weights and intercept passed from C to
    C) reaches, at every C, the optimum of an independent conic fit within the tolerance, and its
    restricted solves do leave samples out."""
    from fsbook.hkl import disjunctive_hkl_path
    X, y = _data(4, m=120, n=6)
    Cs = [0.1, 1.0, 10.0, 100.0, 1000.0]
    tol = 1e-4
    left_out = False
    for C, res in disjunctive_hkl_path(X, y, Cs, beta=2.0, tol=tol, max_add=3,
                                       solver="working_set"):
        cold = solve_active_set(HKLProblem(X, y, C=C, omega=np.full(6, 2.0), delta_top=1.0,
                                           delta_node=0.5), tol=tol, max_add=3, solver="conic")
        assert res["converged"] and cold["converged"]
        assert res["primal"] == pytest.approx(cold["primal"], rel=2 * tol)
        left_out |= any(h["working_samples"] < len(y) for h in res["history"])
    assert left_out
    with pytest.raises(ValueError, match="one entry per node"):
        solve_active_set(HKLProblem(X, y), solver="working_set", nodes=[(), (0,)], w=np.zeros(3))


@pytest.mark.parametrize("p", [2.0, 1.5])
def test_sparse_ancestor_operators_give_the_dense_values(p):
    """RestrictedProblem.use_sparse_ancestors (solver="working_set"): ζ(η) and the bounds of
    Ω_A*(s)² of dual_norm equal those of the dense ancestor matrix up to rounding."""
    from fsbook.hkl.solver import RestrictedProblem
    X, y = _data(5, m=50, n=6)
    prob = HKLProblem(X, y, C=3.0, p=p, omega=np.full(6, 2.0), delta_top=1.0, delta_node=0.25)
    nodes = lattice.hull([(0, 1), (2, 3), (1, 4, 5), (0, 2)])
    dense, sparse = RestrictedProblem(prob, nodes), RestrictedProblem(prob, nodes).use_sparse_ancestors()
    rng = np.random.default_rng(0)
    eta = rng.random(len(nodes))
    eta /= eta.sum()
    np.testing.assert_allclose(sparse.zeta(eta)[0], dense.zeta(eta)[0], rtol=1e-12)
    s = rng.normal(size=len(nodes))
    for a, b in zip(sparse.dual_norm(s)[:2], dense.dual_norm(s)[:2]):
        assert a == pytest.approx(b, rel=1e-10)
    assert sp.issparse(sparse._MT_op) and not sp.issparse(dense._MT_op)

"""The variational restricted solver (solver="variational"): alternating w-steps (SVM) and
closed-form η-steps, against the conic solver and the brute force over the whole lattice."""
import numpy as np
import pytest

from fsbook.hkl import HKLProblem, RestrictedProblem, lattice, solve_active_set, solve_brute_force
from fsbook.hkl.estimator import _make_problem
from fsbook.hkl.primal import restricted_conic
from fsbook.hkl.solver import _dual_lower
from fsbook.hkl.variational import dual_norm_bound, eta_from_weights, restricted_variational


def _data(seed, m=40, n=5):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(float)
    y = np.where((X[:, 0] + X[:, 1] > 0) ^ (rng.random(m) < 0.1), 1.0, -1.0)
    return X, y


def _restricted(seed, C):
    X, y = _data(seed, m=60, n=5)
    prob = HKLProblem(X, y, C=C, omega=np.full(5, 2.0), delta_top=1.0, delta_node=0.25)
    return RestrictedProblem(prob, lattice.hull([(0, 1), (2,), (3, 4)]))


def _objective(red, w, b):
    prob = red.prob
    omega = float(red.d @ np.sqrt(red.MT @ w ** 2))
    return 0.5 * omega ** 2 + prob.C * np.maximum(0.0, 1.0 - prob.y * (red.Psi @ w + b)).sum()


def _reduced_gap(red, sol):
    """The reduced gap at ``(w, b, α)`` with the tight bound of ``Ω_A*`` (dual_norm)."""
    P = _objective(red, sol["w"], sol["b"])
    up, _, _ = red.dual_norm(red.PsiT @ sol["c"])
    return (P - _dual_lower(np.abs(sol["c"]).sum(), up)) / P


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("C", [0.3, 3.0])
def test_alternation_reaches_the_conic_optimum(seed, C):
    """Without the fallback, the alternation alone certifies the restricted optimum of the conic
    program: its own gap below tol, the tight reduced gap too, the same objective within it."""
    red = _restricted(seed, C)
    ref = restricted_conic(red)
    sol = restricted_variational(red, tol=1e-5, max_rounds=500, min_rate=1.0, fallback=False,
                                 smo_budget=10 ** 7)
    assert sol["status"] == "Solved" and sol["gap"] <= 1e-5
    assert _reduced_gap(red, sol) <= 1e-5
    P_ref = _objective(red, ref["w"], ref["b"])
    assert _objective(red, sol["w"], sol["b"]) == pytest.approx(P_ref, rel=2e-5)


def test_warm_start_at_the_optimum_stops_at_once():
    """Started from the optimum's η and α, the first w-step is certified: one SVM, no
    fallback."""
    red = _restricted(1, 3.0)
    ref = restricted_conic(red)
    eta = eta_from_weights(red, ref["w"])
    sol = restricted_variational(red, eta0=eta, alpha0=np.abs(ref["c"]), tol=1e-5)
    assert sol["status"] == "Solved" and sol["iterations"] == 1
    cold = restricted_variational(red, tol=1e-5, min_rate=1.0, fallback=False)
    assert cold["iterations"] > 1                     # the start is what made it one step


def test_fallback_finishes_a_slow_alternation():
    """One w-step from a uniform η is not the optimum; the fallback (the working-set conic
    program) is, and says so."""
    red = _restricted(2, 30.0)
    sol = restricted_variational(red, tol=1e-7, max_rounds=1)
    assert sol["status"] == "fallback"
    assert _reduced_gap(red, sol) <= 1e-6


def test_eta_step_recovers_the_penalty_and_the_bound_is_valid():
    """At η_v ∝ δ_v ||w_{D(v)}||, Σ_u w_u²/ζ_u(η) = Ω_A(w)² (the η-step of the variational
    form); the bound of Ω_A*(s)² is never below the tight value of dual_norm."""
    red = _restricted(3, 1.0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        w = rng.normal(size=len(red.nodes)) * (rng.random(len(red.nodes)) < 0.7)
        w[0] = 1.0
        eta = eta_from_weights(red, w, floor=0.0)
        zeta, _ = red.zeta(np.maximum(eta, 1e-300))
        omega = float(red.d @ np.sqrt(red.MT @ w ** 2))
        nz = w != 0
        assert float(np.sum(w[nz] ** 2 / zeta[nz])) == pytest.approx(omega ** 2, rel=1e-10)
        s = rng.normal(size=len(red.nodes))
        up, lo, _ = red.dual_norm(s)
        assert dual_norm_bound(red, s, rng.dirichlet(np.ones(len(s)))) >= lo * (1 - 1e-12)
    assert eta_from_weights(red, np.zeros(len(red.nodes))) is None
    with pytest.raises(ValueError, match="p = 2"):
        restricted_variational(RestrictedProblem(HKLProblem(*_data(0), p=1.5), [(), (0,)]))


@pytest.mark.parametrize("seed,n", [(0, 5), (4, 6), (2, 7)])
def test_variational_solver_matches_brute_force(seed, n):
    """The active-set method with solver="variational" certifies the brute-force optimum of (1)
    over all 2^n nodes (estimator's weights δ_v = μ β^{|v|−1}) and the conic solver's."""
    X, y = _data(seed, n=n)
    beta, mu, C, tol = 2.0, 0.5, 10.0, 1e-4
    bf = solve_brute_force(X, y, C=C, beta=beta, mu=mu)
    res = {}
    for solver in ("variational", "conic"):
        prob = _make_problem(X, y, np.ones(n), beta, C, mu, 2.0)
        res[solver] = solve_active_set(prob, tol=tol, max_add=3, solver=solver)
    r = res["variational"]
    assert r["converged"] and r["stop_reason"] == "certified" and r["solver"] == "variational"
    assert bf["objective"] * (1 - 1e-6) <= r["primal"] <= bf["objective"] * (1 + 2 * tol)
    assert r["primal"] == pytest.approx(res["conic"]["primal"], rel=2 * tol)
    f = lattice.node_indicator(X, r["nodes"]) @ r["w"] + r["b"]
    np.testing.assert_allclose(f, bf["decision"], atol=0.02 * np.abs(bf["decision"]).max())
    with pytest.raises(ValueError, match="p = 2"):
        solve_active_set(HKLProblem(X, y, p=1.5), solver="variational")


def test_variational_path_matches_cold_conic_fits():
    """Along a warm-started C path the variational solver reaches, at every C, the optimum of
    an independent conic fit within the tolerance."""
    from fsbook.hkl import disjunctive_hkl_path
    X, y = _data(4, m=120, n=6)
    tol = 1e-4
    for C, res in disjunctive_hkl_path(X, y, [0.1, 1.0, 10.0, 100.0], beta=2.0, tol=tol,
                                       max_add=3, solver="variational"):
        cold = solve_active_set(_make_problem(X, y, np.ones(6), 2.0, C, 1.0, 2.0), tol=tol,
                                max_add=3, solver="conic")
        assert res["converged"] and cold["converged"]
        assert res["primal"] == pytest.approx(cold["primal"], rel=2 * tol)


def test_variational_solver_option_of_the_estimators():
    """solver="variational" is opt-in and, through DisjunctiveHKL and DisjunctiveHKLCV's
    warm-started path, gives the certified models of solver="conic": the same objective within
    the tolerance, the same cross-validated accuracies and C."""
    from fsbook.hkl import DisjunctiveHKL, DisjunctiveHKLCV
    X, y = _data(6, m=80)
    a = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-5).fit(X, y)
    b = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-5, solver="variational").fit(X, y)
    assert a.certified_ and b.certified_ and b.stop_reason_ == "certified"
    assert b.objective_ == pytest.approx(a.objective_, rel=2e-5)
    kw = dict(Cs=[0.1, 1.0, 10.0, 100.0], betas=[2.0], tol=1e-5)
    cva = DisjunctiveHKLCV(**kw).fit(X, y)
    cvb = DisjunctiveHKLCV(solver="variational", **kw).fit(X, y)
    assert cvb.estimator_.solver == "variational" and cvb.cv_results_.certified.all()
    np.testing.assert_allclose(cvb.cv_results_.mean_accuracy, cva.cv_results_.mean_accuracy)
    assert cvb.C_ == cva.C_

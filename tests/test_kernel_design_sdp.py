"""The SDP of benchmarks/kernel_design_sdp.py (paper 3's formulation (2) with the LP's objective) on
cases small enough to check by hand or by brute force."""
import numpy as np
import pytest
from script_loader import load_script

pytest.importorskip("cvxpy")
B = load_script("kernel_design_sdp", folder="benchmarks")

from fsbook.kernel_design import solve_cutting_plane, triplet_differences  # noqa: E402

# the swap of points 0 and 1: eigenvalues +1, -1, 0 (indefinite)
SWAP = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


def test_indefinite_kernel_alone_cannot_enter():
    # alpha * SWAP is PSD only at alpha = 0: every slack is 1, the optimum is T exactly
    K = SWAP[None]
    t = [[0, 1, 2], [1, 0, 2]]
    r = B.solve_sdp(K, t, [0], 0.0, 0.0)
    assert r["objective"] == pytest.approx(2.0, abs=1e-6)
    assert abs(r["alpha"][0]) < 1e-6


def test_psd_constraint_binds_at_the_closed_form():
    # I and SWAP: a I + b SWAP is PSD iff a >= |b|; the triplet (0, 1, 2) asks b + eps >= 1 and the
    # trace is 3a, so the objective 1 - b + 3 gamma2 a is least at a = b = 1: 3 gamma2 (gamma2 < 1/3)
    K = np.stack([np.eye(3), SWAP])
    for gamma2 in (0.01, 0.1, 0.3):
        r = B.solve_sdp(K, [[0, 1, 2]], [0, 1], 0.0, gamma2)
        assert r["objective"] == pytest.approx(3 * gamma2, abs=1e-6)
        assert r["alpha"] == pytest.approx([1.0, 1.0], abs=1e-5)
        assert r["min_eig"] >= -1e-7
    # above 1/3 the trace costs more than the slack saves: alpha = 0, objective 1
    r = B.solve_sdp(K, [[0, 1, 2]], [0, 1], 0.0, 0.5)
    assert r["objective"] == pytest.approx(1.0, abs=1e-6)


def _random_problem(seed, n=7, T=15):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    d2 = ((X[:, None] - X[None]) ** 2).sum(-1)
    A = rng.normal(size=(n, n))
    K = np.stack([np.exp(-0.5 * d2), X @ X.T, (A + A.T) / 4])     # PSD, PSD, indefinite
    t = np.array([rng.choice(n, 3, replace=False) for _ in range(T)])
    return K, t


@pytest.mark.parametrize("seed", [0, 1])
def test_optimum_is_feasible_and_matches_brute_force(seed):
    K, t = _random_problem(seed)
    groups, g1, g2 = np.arange(3), 0.05, 0.02
    r = B.solve_sdp(K, t, groups, g1, g2)
    a = r["alpha"]
    # feasible: PSD on S, and the solver's objective is the objective at its alpha
    assert r["min_eig"] >= -1e-7
    assert r["objective"] == pytest.approx(r["objective_at_alpha"], rel=1e-6, abs=1e-6)
    # brute force over a grid around the optimum: no PSD point does better
    best = np.inf
    axes = [np.linspace(v - 2.0, v + 2.0, 41) for v in a]
    for x in axes[0]:
        for y in axes[1]:
            for z in axes[2]:
                alpha = np.array([x, y, z])
                if np.linalg.eigvalsh(np.tensordot(alpha, K, 1)).min() >= 0:
                    best = min(best, B.sdp_objective(K, t, groups, alpha, g1, g2))
    assert r["objective"] <= best + 1e-6
    # and the optimum is no better than the PSD points near it: the grid gets close
    assert best - r["objective"] < 0.25


@pytest.mark.parametrize("seed", [0, 1])
def test_sdp_is_a_relaxation_of_the_lp(seed):
    # diagonal dominance implies PSD, so the SDP's optimum is at most the LP's
    K, t = _random_problem(seed)
    groups = np.arange(3)
    lp = solve_cutting_plane(K, t, groups, 0.05, 0.02)
    for solver in B.SOLVERS:
        r = B.solve_sdp(K, t, groups, 0.05, 0.02, solver)
        assert r["objective_at_alpha"] <= lp.objective + 1e-5
    assert B.sdp_objective(K, t, groups, lp.alpha, 0.05, 0.02) == pytest.approx(lp.objective, rel=1e-7)


def test_group_penalty_is_the_largest_weight_of_a_group():
    K = np.stack([np.eye(3), 2 * np.eye(3), np.ones((3, 3))])
    t = [[0, 1, 2]]
    assert np.allclose(triplet_differences(K, t), 0)
    # groups {0, 1} and {2}: max(|0.5|, |-0.25|) + |0.1|
    assert B.sdp_objective(K, t, [0, 0, 1], np.array([0.5, -0.25, 0.1]), 1.0, 0.0) == pytest.approx(1.6)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="symmetric"):
        B.solve_sdp(np.triu(np.ones((3, 3)))[None], [[0, 1, 2]], [0], 0.0, 0.0)
    with pytest.raises(ValueError, match="triplets"):
        B.solve_sdp(np.eye(3)[None], [[0, 1, 5]], [0], 0.0, 0.0)
    with pytest.raises(ValueError, match="solver"):
        B.solve_sdp(np.eye(3)[None], [[0, 1, 2]], [0], 0.0, 0.0, solver="mosek")

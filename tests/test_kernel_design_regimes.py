"""Tests of formulation (7) under other regimes: dominance on blocks of S, and the regimes
experiment of chapter 3 (``weak_kernel_regimes``, ``regime_claims``)."""
import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import StandardScaler

from fsbook import datasets
from fsbook.experiments import kernel_design as KD
from fsbook.kernel_design import (
    kernel_groups,
    kernel_stack,
    solve_cutting_plane,
    triplets_from_labels,
    weak_kernel_specs,
)
from fsbook.kernel_design.lp import dominance_violation, solve_block_dominance


@pytest.fixture(scope="module")
def iris_weak():
    b = datasets.load_iris()
    X = StandardScaler().fit_transform(b.data)
    idx = np.random.default_rng(0).permutation(150)[:60]
    S, inv = np.unique(X[idx], axis=0, return_inverse=True)
    t = inv.ravel()[triplets_from_labels(b.target[idx], 150, random_state=1)]
    t = t[(t[:, 0] != t[:, 1]) & (t[:, 0] != t[:, 2]) & (t[:, 1] != t[:, 2])]
    specs = weak_kernel_specs(4, (1.0, 10.0, 100.0))
    groups, _ = kernel_groups(specs)
    return kernel_stack(specs, S), t, groups


def test_one_block_is_the_cutting_plane_lp(iris_weak):
    K, t, groups = iris_weak
    for g1, g2 in [(1e-4, 1e-4), (1.0, 1e-2)]:
        whole = solve_block_dominance(K, t, groups, g1, g2, np.arange(K.shape[1])[None, :])
        ref = solve_cutting_plane(K, t, groups, g1, g2)
        assert whole.objective == pytest.approx(ref.objective, rel=1e-7, abs=1e-9)


def test_per_triple_dominance_learns_a_kernel_dominant_on_every_triple(iris_weak):
    K, t, groups = iris_weak
    whole = solve_cutting_plane(K, t, groups, 1e-4, 1e-4)
    assert np.abs(whole.alpha).max() <= 1e-9          # the zero kernel, as in the protocol
    res = solve_block_dominance(K, t, groups, 1e-4, 1e-4, t)
    assert np.abs(res.alpha).max() > 0.01
    assert res.objective < whole.objective            # a relaxation that helps
    Ka = np.tensordot(res.alpha, K, 1)
    for tri in t:
        sub = Ka[np.ix_(tri, tri)]
        assert dominance_violation(sub).max() <= 1e-7 * (1 + np.abs(np.diag(sub)).max())


def test_block_dominance_refuses_bad_blocks(iris_weak):
    K, t, groups = iris_weak
    for blocks, match in [(np.array([0, 1, 2]), "blocks must"), (np.array([[0, 0, 1]]), "same point"),
                          (np.array([[0, K.shape[1]]]), "out of range"), (np.zeros((0, 3), int), "blocks must")]:
        with pytest.raises(ValueError, match=match):
            solve_block_dominance(K, t, groups, 1e-4, 1e-4, blocks)


def test_zero_at_the_smallest_gammas_is_zero_at_larger_ones(iris_weak):
    """The argument of weak_kernel_regimes: raising a penalty keeps α = 0 optimal."""
    K, t, groups = iris_weak
    assert np.abs(solve_cutting_plane(K, t, groups, 1e-4, 1e-4).alpha).max() <= 1e-9
    for g1, g2 in [(1e-2, 1e-4), (1.0, 1e-1), (100.0, 1e-4)]:
        assert np.abs(solve_cutting_plane(K, t, groups, g1, g2).alpha).max() <= 1e-9


def test_weak_kernel_regimes_on_a_tiny_case():
    df = KD.ablations.weak_kernel_regimes(["iris"], n_splits=2, n_train=60, n_test=150,
                                regimes=["ours", "raw features", "dominance per triple"])
    assert len(df) == 6 and set(df.regime) == {"ours", "raw features", "dominance per triple"}
    ours = df[df.regime == "ours"]
    assert ours["alpha_zero"].all() and (ours["score"] == 0).all() and ours["gamma1"].isna().all()
    tri = df[df.regime == "dominance per triple"]
    assert not tri["alpha_zero"].any() and (tri["score"] > 0.5).all()
    assert tri["gamma1"].isin(KD.ablations.REGIME_GAMMA1).all() and tri["gamma2"].isin(KD.ablations.REGIME_GAMMA2).all()
    assert ((tri["n_selected"] >= 1) & (tri["n_selected"] <= 4)).all()
    assert np.isfinite(tri["min_eig_S"]).all() and ours["min_eig_S"].isna().all()
    # iris is non-negative: on raw features (x'y + 1)^2 is monotone in x'y, the same order as x'y
    raw = df[df.regime == "raw features"]
    assert not raw["negative_features"].any() and (raw["linear"] == raw["poly2"]).all()
    assert ours["negative_features"].all()
    # same splits and test triples: the single kernels agree between regimes of one scaling
    assert np.array_equal(ours["best_single"].to_numpy(), tri["best_single"].to_numpy())
    again = KD.ablations.weak_kernel_regimes(["iris"], n_splits=1, n_train=60, n_test=150,
                                   regimes=["dominance per triple"])
    pd.testing.assert_frame_equal(again.reset_index(drop=True), tri.iloc[:1].reset_index(drop=True))


def test_weak_kernel_regimes_refuses_bad_input():
    with pytest.raises(ValueError, match="unknown regimes"):
        KD.ablations.weak_kernel_regimes(["iris"], regimes=["nonsense"])
    with pytest.raises(ValueError, match="unknown data sets"):
        KD.ablations.weak_kernel_regimes(["protein"])
    with pytest.raises(ValueError, match="n_splits"):
        KD.ablations.weak_kernel_regimes(["iris"], n_splits=0)


def test_regime_claims_decide_each_hypothesis():
    rows = []
    for s in range(7):
        rows += [{"dataset": "iris", "split": s, "regime": "ours", "alpha_zero": True, "D": 4,
                  "n_selected": 0, "score": 0.0, "best_single": 0.85},
                 {"dataset": "iris", "split": s, "regime": "raw features", "alpha_zero": True, "D": 4,
                  "n_selected": 0, "score": 0.0, "best_single": 0.86},
                 {"dataset": "iris", "split": s, "regime": "dominance per triple", "alpha_zero": False,
                  "D": 4, "n_selected": 4, "score": 0.50 - 0.01 * s, "best_single": 0.85}]
    t = KD.claims.regime_claims(pd.DataFrame(rows))
    per = t[t.dataset == "iris"].set_index("claim")["verdict"]
    zero = t[t.table == "zero kernel"].set_index("claim")
    assert (zero["test"] == "sign").all() and (zero["dataset"] == "").all()       # the fits pooled
    assert zero.loc["(a) raw features: α ≠ 0 more often than ours", "verdict"] == "not separable"
    assert zero.loc["(c) dominance per triple: α ≠ 0 more often than ours", "verdict"] == "holds"
    assert zero.loc["(c) dominance per triple: α ≠ 0 more often than ours", "n"] == 7
    assert per["(c) dominance per triple: fewer than D features"] == "not separable"     # all 4 kept
    assert per["(c) dominance per triple: above the best single kernel"] == "fails"
    # no row "in the regime" for a regime that never learns a kernel
    assert "(a) raw features: above the best single kernel" not in per.index
    # one data set: no claim over the data sets (the Wilcoxon test needs six)
    assert not (t.table.str.endswith("(over data sets)")).any()

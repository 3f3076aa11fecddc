"""Column generation for the ``α ≥ 0`` weak-kernel LP against the direct solve (the reference)."""
import numpy as np
import pytest

from fsbook.kernel_design import (
    KernelDesign,
    WeakKernelSelector,
    kernel_groups,
    kernel_pair_differences,
    kernel_stack,
    solve_nonnegative_colgen,
    solve_nonnegative_lp,
    triplet_differences,
    triplets_from_labels,
    weak_kernel_specs,
)
from fsbook.kernel_design.colgen import (
    LEGACY_OPTIONS,
    face_stage,
    feature_prices,
    kernel_prices,
    lexicographic_stage,
    tie_weights,
)
from fsbook.kernel_design.lp import build_nonnegative_lp


def _problem(seed, n=30, d=12, T=60):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (X[:, 0] - X[:, 3] + 0.5 * rng.standard_normal(n) > 0).astype(int)
    y[:2] = [0, 1]
    t = triplets_from_labels(y, T, random_state=seed)
    specs = weak_kernel_specs(d, mu=(0.3, 1.0, 3.0))
    groups, _ = kernel_groups(specs)
    K = kernel_stack(specs, X)
    return X, t, specs, triplet_differences(K, t), np.einsum("pii->p", K), groups


@pytest.mark.parametrize("seed, g1, g2, n_start, n_add", [
    (0, 1e-3, 1e-3, 1, 1), (1, 1e-2, 1e-3, 3, 2), (2, 0.5, 1e-2, 5, 50), (3, 1e-4, 1e-4, 2, 4),
    (4, 2.0, 0.1, 1, 3)])
def test_same_optimum_as_direct_solve(seed, g1, g2, n_start, n_add):
    X, t, specs, D, tr, groups = _problem(seed)
    ref = solve_nonnegative_lp(D, tr, groups, g1, g2)
    cg = solve_nonnegative_colgen(D, tr, groups, g1, g2, n_start=n_start, n_add=n_add)
    assert cg.objective == pytest.approx(ref.objective, rel=1e-9, abs=1e-12)
    # the same vertex (these optima are unique: checked by the direct solve's α)
    np.testing.assert_allclose(cg.alpha, ref.alpha, atol=1e-7)
    np.testing.assert_array_equal(cg.s > 1e-6, ref.s > 1e-6)
    # the returned point is feasible for the full LP and has the reported objective
    assert np.all(cg.alpha >= 0) and np.all(cg.eps >= 0)
    assert np.all(D.T @ cg.alpha + cg.eps >= 1 - 1e-7)
    smax = np.zeros(cg.s.size)
    np.maximum.at(smax, groups, cg.alpha)
    assert np.all(cg.s >= smax - 1e-9)
    obj = cg.eps.sum() + g1 * cg.s.sum() + g2 * tr @ cg.alpha
    assert obj == pytest.approx(cg.objective, rel=1e-8, abs=1e-10)
    assert [h["iter"] for h in cg.history] == list(range(1, cg.n_iter + 1))
    assert [h for h in cg.history if "stage" not in h][-1]["features_priced_out"] == 0


def test_rounds_grow_the_working_set_and_certificate_holds():
    X, t, specs, D, tr, groups = _problem(5, d=20, T=80)
    cg = solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, n_start=1, n_add=1, drop=None,
                                  start_iter=0, margin=None, tie=None)
    assert cg.n_iter > 2
    sizes = [h["kernels"] for h in cg.history]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    objs = [h["objective"] for h in cg.history]
    assert all(b <= a + 1e-9 * abs(a) for a, b in zip(objs, objs[1:]))   # a growing restriction
    ref = solve_nonnegative_lp(D, tr, groups, 1e-3, 1e-3)
    assert cg.objective == pytest.approx(ref.objective, rel=1e-9)


@pytest.mark.parametrize("drop", [0.0, 1e-3, 1e-2, None])
def test_dropping_kernels_keeps_the_optimum(drop):
    X, t, specs, D, tr, groups = _problem(6, d=20, T=80)
    ref = solve_nonnegative_lp(D, tr, groups, 1e-3, 1e-3)
    cg = solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, n_start=10, n_add=10, drop=drop,
                                  margin=None, tie=None)
    assert cg.objective == pytest.approx(ref.objective, rel=1e-9)
    np.testing.assert_allclose(cg.alpha, ref.alpha, atol=1e-7)
    if drop == 0.0:                                 # some kernel did leave the working set
        assert any(b["kernels"] < a["kernels"] for a, b in zip(cg.history, cg.history[1:]))


def test_prices_match_the_zero_condition():
    X, t, specs, D, tr, groups = _problem(0)
    G = groups.max() + 1
    r = kernel_prices(D, np.ones(D.shape[1]), tr, 1e-3)
    np.testing.assert_allclose(r, D.sum(axis=1) - 1e-3 * tr)
    pi = feature_prices(r, groups, G, 0.5)
    by_hand = np.array([np.maximum(r[groups == g], 0).sum() - 0.5 for g in range(G)])
    np.testing.assert_allclose(pi, by_hand)
    # γ1 above every feature's gain at y = 1: no feature prices out and α = 0 is optimal
    g1 = float(np.max(pi + 0.5)) * 1.01
    cg = solve_nonnegative_colgen(D, tr, groups, g1, 1e-3, n_start=1, n_add=1)
    assert cg.alpha.max() <= 1e-9 and cg.objective == pytest.approx(D.shape[1])


def test_kernel_pair_differences_match_stack():
    X, t, specs, D, tr, groups = _problem(1)
    for chunk in (1, 7, 1000):
        np.testing.assert_allclose(kernel_pair_differences(specs, X, t, chunk=chunk), D,
                                   rtol=0, atol=1e-15)


def test_estimator_and_selector_solvers_agree():
    X, t, specs, D, tr, groups = _problem(2)
    kw = dict(variant="weak", weak_mu=(0.3, 1.0, 3.0), gamma1=1e-2, gamma2=1e-3, psd="nonnegative",
              preprocessor=X)
    auto = KernelDesign(**kw).fit(t)
    direct = KernelDesign(solver="full_lp", **kw).fit(t)
    assert auto.lp_.n_iter >= 1 and auto.lp_.history          # the column-generation path ran
    assert auto.lp_.objective == pytest.approx(direct.lp_.objective, rel=1e-9)
    np.testing.assert_allclose(auto.alpha_, direct.alpha_, atol=1e-7)
    np.testing.assert_array_equal(auto.selected_features_, direct.selected_features_)
    y = (X[:, 0] - X[:, 3] > 0).astype(int)
    a = WeakKernelSelector(n_triplets=80, random_state=0).fit(X, y)
    b = WeakKernelSelector(n_triplets=80, random_state=0, solver="full_lp").fit(X, y)
    np.testing.assert_allclose(a.scores_, b.scores_, atol=1e-7)
    np.testing.assert_array_equal(a.get_support(), b.get_support())


@pytest.mark.parametrize("psd, solver", [("nonnegative", "cutting_plane"),
                                         ("dominance", "column_generation")])
def test_solver_of_the_other_psd_option_is_refused(psd, solver):
    X, t, *_ = _problem(0, n=10, T=5)
    with pytest.raises(ValueError, match="does not solve psd"):
        KernelDesign(psd=psd, solver=solver, preprocessor=X).fit(t)


def test_bad_working_set_sizes():
    with pytest.raises(ValueError, match="at least 1"):
        solve_nonnegative_colgen([[0.5]], [1.0], [0], 0.1, 0.1, n_start=0)
    with pytest.raises(ValueError, match="NaN"):
        solve_nonnegative_colgen([[np.nan]], [1.0], [0], 0.1, 0.1)


def test_one_round_is_the_direct_solve_bit_for_bit():
    """m <= n_start: the working set is every kernel and the one LP is the direct solve's (same
    HiGHS method), so small problems (the protocol's datasets) keep their vertex exactly."""
    X, t, specs, D, tr, groups = _problem(3)
    for g1, g2 in [(1e-4, 1e-4), (1e-2, 1e-3)]:
        ref = solve_nonnegative_lp(D, tr, groups, g1, g2)
        cg = solve_nonnegative_colgen(D, tr, groups, g1, g2, tie=None)
        assert cg.n_iter == 1 and cg.objective == ref.objective
        np.testing.assert_array_equal(cg.alpha, ref.alpha)
        np.testing.assert_array_equal(cg.s, ref.s)


@pytest.mark.parametrize("start_iter, n_start", [(0, 3), (5, 3), (20, 10), (200, 1)])
def test_first_working_set_does_not_change_the_optimum(start_iter, n_start):
    X, t, specs, D, tr, groups = _problem(7, d=20, T=80)
    ref = solve_nonnegative_lp(D, tr, groups, 1e-3, 1e-3)
    cg = solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, n_start=n_start, n_add=5,
                                  start_iter=start_iter)
    assert cg.objective == pytest.approx(ref.objective, rel=1e-9)
    np.testing.assert_allclose(cg.alpha, ref.alpha, atol=1e-7)
    assert [h for h in cg.history if "stage" not in h][-1]["features_priced_out"] == 0


def test_squared_hinge_start_ranks_the_optimum_first():
    """On a problem with a sparse optimum the relaxation's largest weights hold its kernels."""
    X, t, specs, D, tr, groups = _problem(8, d=20, T=80)
    ref = solve_nonnegative_lp(D, tr, groups, 1e-3, 1e-3)
    from fsbook.kernel_design.colgen import squared_hinge_start
    a = squared_hinge_start(D, 1e-3 * tr, 50)
    k = int(np.count_nonzero(ref.alpha > 1e-9))
    top = np.argsort(-a, kind="stable")[:3 * k]
    y1 = np.argsort(-kernel_prices(D, np.ones(D.shape[1]), tr, 1e-3), kind="stable")[:3 * k]
    assert np.isin(np.flatnonzero(ref.alpha > 1e-9), top).sum() >= np.isin(
        np.flatnonzero(ref.alpha > 1e-9), y1).sum()


def test_negative_start_iter_is_refused():
    X, t, specs, D, tr, groups = _problem(0)
    with pytest.raises(ValueError, match="start_iter"):
        solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, start_iter=-1)


@pytest.mark.parametrize("seed, margin, n_start, start_iter", [
    (7, 0.0, 3, 0), (7, 0.5, 3, 20), (8, 0.3, 10, 0), (9, 2.0, 1, 5), (10, 0.5, 20, 20)])
def test_price_margin_keeps_the_optimum(seed, margin, n_start, start_iter):
    X, t, specs, D, tr, groups = _problem(seed, d=20, T=80)
    ref = solve_nonnegative_lp(D, tr, groups, 1e-3, 1e-3)
    cg = solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, n_start=n_start, n_add=5,
                                  start_iter=start_iter, margin=margin)
    assert cg.objective == pytest.approx(ref.objective, rel=1e-9)
    np.testing.assert_allclose(cg.alpha, ref.alpha, atol=1e-7)
    np.testing.assert_array_equal(cg.s > 1e-6, ref.s > 1e-6)
    assert [h for h in cg.history if "stage" not in h][-1]["features_priced_out"] == 0


def test_price_margin_brings_near_kernels_in():
    """A wide margin takes in more kernels per round than the positive-price rule."""
    X, t, specs, D, tr, groups = _problem(5, d=20, T=80)
    plain = solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, n_start=1, n_add=1000,
                                     margin=None, tie=None)
    wide = solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, n_start=1, n_add=1000,
                                    margin=5.0, tie=None)
    assert wide.objective == pytest.approx(plain.objective, rel=1e-9)
    assert plain.n_iter > 2 and wide.history[2]["kernels"] > plain.history[2]["kernels"]
    assert wide.n_iter <= plain.n_iter
    with pytest.raises(ValueError, match="margin"):
        solve_nonnegative_colgen(D, tr, groups, 1e-3, 1e-3, margin=-1.0)


@pytest.mark.parametrize("seed, g1, row_slack, margin", [
    (7, 1e-3, 0.0, None), (8, 1e-3, 0.1, 0.5), (9, 1e-2, 0.0, 0.5), (11, 1e-4, 1.0, None)])
def test_row_subset_keeps_the_optimum(seed, g1, row_slack, margin):
    X, t, specs, D, tr, groups = _problem(seed, d=20, T=80)
    ref = solve_nonnegative_lp(D, tr, groups, g1, 1e-3)
    cg = solve_nonnegative_colgen(D, tr, groups, g1, 1e-3, n_start=5, n_add=5,
                                  margin=margin, row_slack=row_slack, tie=None)
    assert cg.objective == pytest.approx(ref.objective, rel=1e-9)
    np.testing.assert_allclose(cg.alpha, ref.alpha, atol=1e-7)
    np.testing.assert_allclose(cg.eps, ref.eps, atol=1e-7)
    assert np.all(D.T @ cg.alpha + cg.eps >= 1 - 1e-7)
    assert cg.history[-1]["features_priced_out"] == 0 and cg.history[-1]["rows_violated"] == 0
    assert cg.n_iter == 1 or min(h["rows"] for h in cg.history) < D.shape[1]
    with pytest.raises(ValueError, match="row_slack"):
        solve_nonnegative_colgen(D, tr, groups, g1, 1e-3, row_slack=-1.0)


def _duplicated(seed, copies=((2, 5), (0, 7)), d=10, T=60):
    """A problem whose columns ``b`` copy columns ``a``: their kernels are the same, so a weight
    can move between the two features at no cost and the LP's optimal face has many vertices."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, d))
    for a, b in copies:
        X[:, b] = X[:, a]
    y = (X[:, 0] + X[:, 2] + 0.3 * rng.standard_normal(30) > 0).astype(int)
    t = triplets_from_labels(y, T, random_state=seed)
    specs = weak_kernel_specs(d, mu=(0.3, 1.0, 3.0))
    groups, _ = kernel_groups(specs)
    K = kernel_stack(specs, X)
    return X, y, t, triplet_differences(K, t), np.einsum("pii->p", K), groups


def _second_stage_by_hand(D, tr, groups, g1, g2, bound):
    """The second stage as one scipy ``linprog`` (HiGHS dual simplex) written out here."""
    from scipy.optimize import linprog
    c, A, b, bounds, _ = build_nonnegative_lp(D, tr, groups, g1, g2)
    G = groups.max() + 1
    c2 = np.concatenate([np.zeros(c.size - G), tie_weights(G)])
    A2 = np.vstack([A.toarray(), c])
    res = linprog(c2, A_ub=A2, b_ub=np.append(b, bound), bounds=bounds, method="highs-ds")
    assert res.status == 0
    return res.x[c.size - G:]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tie_rule_gives_one_point_whatever_the_vertex(seed):
    """Direct solve and column generation from several first working sets: with the tie rule
    the same objective, group weights and kept sets; the weight goes to the smaller index."""
    X, y, t, D, tr, groups = _duplicated(seed)
    g1, g2 = 1e-2, 1e-3
    direct = solve_nonnegative_lp(D, tr, groups, g1, g2)
    ref = lexicographic_stage(D, tr, groups, g1, g2, direct)          # every kernel, one LP
    assert ref.objective == pytest.approx(direct.objective, rel=1e-9)
    np.testing.assert_allclose(ref.s, _second_stage_by_hand(D, tr, groups, g1, g2,
                                                            direct.objective), atol=1e-8)
    assert np.all(ref.s[[5, 7]] <= 1e-12) and ref.s[[0, 2]].max() > 1e-3
    runs = [lexicographic_stage(D, tr, groups, g1, g2, direct,
                                start=np.flatnonzero(direct.alpha > 0))]
    for kw in ({}, {"n_start": 2, "n_add": 2, "start_iter": 0, "margin": None},
               {"n_start": 3, "n_add": 1, "start_iter": 5}, {**LEGACY_OPTIONS, "tie": "lexicographic"},
               {"n_start": 1, "n_add": 3, "start_iter": 0, "margin": 0.0, "drop": 0.0}):
        runs.append(solve_nonnegative_colgen(D, tr, groups, g1, g2, **kw))
    for r in runs:
        assert r.objective == pytest.approx(direct.objective, rel=1e-9)
        np.testing.assert_allclose(r.s, ref.s, atol=1e-8)
        np.testing.assert_array_equal(r.s > 1e-6, ref.s > 1e-6)
        assert np.all(D.T @ r.alpha + r.eps >= 1 - 1e-7) and np.all(r.alpha >= 0)


def test_tie_rule_moves_the_weight_of_a_copy():
    """The vertex that puts the weight on the copy (larger index) is optimal too; the tie rule
    moves it back to the original column."""
    X, y, t, D, tr, groups = _duplicated(3, copies=((2, 5),))
    g1, g2 = 1e-2, 1e-3
    keep = groups != 2                      # feature 2 left out: the copy 5 takes its place
    sub = solve_nonnegative_lp(D[keep], tr[keep], np.unique(groups[keep], return_inverse=True)[1],
                               g1, g2)
    full = solve_nonnegative_lp(D, tr, groups, g1, g2)
    assert sub.objective == pytest.approx(full.objective, rel=1e-9)       # same optimum
    alpha = np.zeros(D.shape[0])
    alpha[keep] = sub.alpha
    s = np.zeros(groups.max() + 1)
    np.maximum.at(s, groups, alpha)
    assert s[5] > 1e-3 and s[2] == 0
    from fsbook.kernel_design import LPResult
    vertex = LPResult(alpha=alpha, eps=sub.eps, s=s, objective=sub.objective, n_variables=0,
                      n_constraints=0, nnz=0)
    tied = lexicographic_stage(D, tr, groups, g1, g2, vertex, start=np.flatnonzero(alpha > 0))
    assert tied.s[2] == pytest.approx(s[5], rel=1e-7) and tied.s[5] <= 1e-12


def test_estimator_solvers_agree_on_copied_columns():
    X, y, *_ = _duplicated(4)
    a = WeakKernelSelector(n_triplets=80, random_state=0, weak_mu=(0.3, 1.0, 3.0)).fit(X, y)
    b = WeakKernelSelector(n_triplets=80, random_state=0, weak_mu=(0.3, 1.0, 3.0),
                           solver="full_lp").fit(X, y)
    np.testing.assert_allclose(a.scores_, b.scores_, atol=1e-8)
    for k in (1, 2, 3, 5):
        a.set_params(n_features_to_select=k)
        b.set_params(n_features_to_select=k)
        np.testing.assert_array_equal(a.get_support(), b.get_support())
    assert a.kernel_design_.lp_.history[-1]["stage"] == 2


def test_legacy_options_skip_the_second_stage():
    X, y, t, D, tr, groups = _duplicated(0)
    old = solve_nonnegative_colgen(D, tr, groups, 1e-2, 1e-3, **LEGACY_OPTIONS)
    assert all("stage" not in h for h in old.history)
    with pytest.raises(ValueError, match="tie"):
        solve_nonnegative_colgen(D, tr, groups, 1e-2, 1e-3, tie="smallest")
    with pytest.raises(ValueError, match="no option"):
        KernelDesign(psd="nonnegative", solver="full_lp", preprocessor=X,
                     solver_options={"n_start": 3, "bogus": 1}).fit(t)


def test_protocols_pin_the_stores_settings():
    """The stores computed before the tie rule pass the old settings explicitly, so their results
    do not change with the defaults: the selection suite (benchmark settings of version 10) and
    the benchmark's versions up to 10; the benchmark's version 11 runs the defaults."""
    from fsbook.experiments import selection_suite
    from fsbook.experiments._protocol_helpers import make_selector
    from fsbook.experiments.benchmark.selectors import make_selector as benchmark_selector
    assert make_selector("WK-LP", 5, 0, earlier_defaults=True).solver_options == LEGACY_OPTIONS
    assert benchmark_selector("WK-LP", 5, 0, version="10").solver_options == LEGACY_OPTIONS
    assert selection_suite.tasks.make_selector("WK-LP", 5, 0).solver_options == LEGACY_OPTIONS
    assert benchmark_selector("WK-LP", 5, 0, version="11").solver_options is None
    assert make_selector("WK-LP", 5, 0).solver_options is None          # a new protocol: the defaults


def test_tie_rule_at_the_zero_mixture():
    """γ1 above every feature's gain: α = 0 is the only optimum and the second stage keeps it."""
    X, t, specs, D, tr, groups = _problem(0)
    g1 = float(np.max(feature_prices(kernel_prices(D, np.ones(D.shape[1]), tr, 1e-3), groups,
                                     groups.max() + 1, 0.0))) * 1.01
    cg = solve_nonnegative_colgen(D, tr, groups, g1, 1e-3)
    assert cg.alpha.max() <= 1e-9 and cg.objective == pytest.approx(D.shape[1])
    kd = KernelDesign(psd="nonnegative", gamma1=g1 * 10, gamma2=1e-3, weak_mu=(0.3, 1.0, 3.0),
                      preprocessor=X).fit(t)
    assert kd.selected_features_.size == 0


@pytest.mark.parametrize("seed, g1, g2", [(0, 1e-2, 1e-3), (1, 1e-2, 1e-3), (2, 1e-3, 1e-3),
                                          (3, 0.1, 1e-2), (4, 1e-4, 1e-4)])
@pytest.mark.parametrize("make", ["copies", "random"])
def test_face_stage_is_the_direct_second_stage(seed, g1, g2, make):
    """The second stage on the face by complementary slackness (no objective row, row
    generation) gives the point of the second stage over every kernel at once with its
    objective row at the optimum exactly (by hand), from the direct solve's and from column
    generation's vertex, without falling back."""
    if make == "copies":
        X, y, t, D, tr, groups = _duplicated(seed)
    else:
        X, t, specs, D, tr, groups = _problem(seed, d=20, T=80)
    direct = solve_nonnegative_lp(D, tr, groups, g1, g2)
    exact = _second_stage_by_hand(D, tr, groups, g1, g2, direct.objective)
    ref = lexicographic_stage(D, tr, groups, g1, g2, direct)          # every kernel, one LP
    np.testing.assert_allclose(ref.s, exact, atol=1e-6)              # its objective row's slack
    firsts = [direct, solve_nonnegative_colgen(D, tr, groups, g1, g2, n_start=3, n_add=2,
                                               start_iter=0, margin=None, tie=None)]
    for first in firsts:
        face = face_stage(D, tr, groups, g1, g2, first)
        assert all(h["method"] == "face" for h in face.history)
        assert face.objective == pytest.approx(direct.objective, rel=1e-9)
        np.testing.assert_allclose(face.s, exact, atol=1e-8)
        np.testing.assert_array_equal(face.s > 1e-6, ref.s > 1e-6)
        assert np.all(D.T @ face.alpha + face.eps >= 1 - 1e-7) and np.all(face.alpha >= 0)
        smax = np.zeros(face.s.size)
        np.maximum.at(smax, groups, face.alpha)
        assert np.all(face.s >= smax - 1e-9)


def test_face_stage_generates_rows():
    """Started from the rows of positive dual only, the rows the point violates come in."""
    X, y, t, D, tr, groups = _duplicated(0)
    direct = solve_nonnegative_lp(D, tr, groups, 1e-2, 1e-3)
    face = face_stage(D, tr, groups, 1e-2, 1e-3, direct)
    assert face.history[0]["rows"] < D.shape[1]
    assert face.history[-1]["rows_violated"] == 0


def test_face_stage_falls_back_on_wrong_duals():
    """Duals that are not the LP's optimal ones describe another set; the check on the
    objective catches it and the objective-row stage gives the face's point."""
    X, y, t, D, tr, groups = _duplicated(1)
    direct = solve_nonnegative_lp(D, tr, groups, 1e-2, 1e-3)
    ref = lexicographic_stage(D, tr, groups, 1e-2, 1e-3, direct)
    direct.duals = np.zeros(D.shape[1])
    face = face_stage(D, tr, groups, 1e-2, 1e-3, direct)
    assert face.history[-1]["method"] == "objective row"
    np.testing.assert_allclose(face.s, ref.s, atol=1e-8)
    direct.duals = None
    with pytest.raises(ValueError, match="duals"):
        face_stage(D, tr, groups, 1e-2, 1e-3, direct)

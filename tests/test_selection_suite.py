"""selection_suite protocol: the declared design (data sets, domains, sizes, exclusions), mRMR as
a ranker, a handful of quick tasks end to end through the runner, and the statistics on a tiny
synthetic store whose answers are known."""
import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import run_protocol
from fsbook.experiments import selection_suite as S
from fsbook.experiments.selection_suite import claims as C


def test_design_has_thirty_sets_in_five_domains_multiclass_and_subsamples():
    assert len(S.paper.DATASETS) >= 30 and not set(S.paper.LEFT_OUT) & set(S.paper.DATASETS)
    assert {v[0] for v in S.paper.DATASETS.values()} == set(S.paper.DOMAINS)
    assert len(S.paper.DOMAINS) >= 5
    facts = {d: S.tasks.dataset_facts(d) for d in S.paper.DATASETS}
    assert sum(f["classes"] > 2 for f in facts.values()) >= 10
    # every class has at least 6 samples: 3 per training half, so every inner CV part sees each class
    assert all(np.bincount(np.unique(S.tasks.load(d)[1], return_inverse=True)[1]).min() >= 6 for d in S.paper.DATASETS)
    assert max(f["n"] for f in facts.values()) == S.paper.MAX_SAMPLES
    # the subsample is stratified: mnist keeps its class proportions within one sample per class
    from fsbook import datasets as D

    y_all = D.load_mnist_subset().target
    y = S.tasks.load("mnist_subset")[1]
    expected = np.bincount(np.unique(y_all, return_inverse=True)[1]) * S.paper.MAX_SAMPLES / len(y_all)
    assert np.abs(np.bincount(np.unique(y, return_inverse=True)[1]) - expected).max() <= 1
    # splice is one-hot (4 columns per position), text stays sparse until the fold
    assert S.tasks.width("splice") == 240 and S.tasks.load("pcmac")[0].format == "csr"


def test_sizes_are_fractions_of_the_width_and_the_ranking_size_is_among_them():
    for d in S.paper.DATASETS:
        ks = S.tasks.ks_of(d)
        assert ks and all(1 <= k < S.tasks.width(d) for k in ks) and ks == sorted(set(ks))
        assert S.tasks.rank_k(d) in ks
    assert S.tasks.ks_of("colon") == S.tasks.ks_of("dexter") == [round(f * S.paper.WIDTH_CAP) for f in S.paper.FRACTIONS]
    assert S.tasks.ks_of("sonar") == [1, 3, 6, 12] and S.tasks.ks_of("splice") == [5, 12, 24, 48]


def test_tasks_share_folds_quick_tasks_are_full_tasks_and_every_exclusion_is_declared():
    full, quick = S.tasks.make_tasks(True), S.tasks.make_tasks(False)
    key = lambda t: tuple(sorted((k, str(v)) for k, v in t.items()))     # noqa: E731
    assert {key(t) for t in quick} <= {key(t) for t in full}
    assert len({key(t) for t in full}) == len(full) == len(S.paper.DATASETS) * S.paper.REPEATS * S.paper.N_FOLDS * len(S.paper.METHODS)
    a, b = S.tasks.folds("sonar", 0), S.tasks.folds("sonar", 1)
    assert not np.array_equal(a[0][1], b[0][1])
    assert np.array_equal(np.sort(np.concatenate([t for _, t in a])), np.arange(len(S.tasks.load("sonar")[1])))
    excluded = {(d, m): S.tasks.cannot_run(m, d) for d in S.paper.DATASETS for m in S.paper.METHODS if S.tasks.cannot_run(m, d)}
    assert {m for _, m in excluded} <= set(S.paper.EXCLUSIONS)
    assert S.tasks.cannot_run("GeoRatio", "breast_cancer") is None and ("sonar", "GeoRatio") in excluded
    assert S.tasks.cannot_run("HKL", "colon") is None and ("orl", "HKL") in excluded
    assert S.tasks.run_task({"dataset": "orl", "repeat": 0, "fold": 0, "n_folds": 2, "method": "HKL",
                       "ks": S.tasks.ks_of("orl")}) == {"not_run": excluded[("orl", "HKL")]}


def test_mrmr_ranker_cut_equals_a_fit_at_each_k():
    X, y = S.tasks.load("sonar")[:2]
    big = S.tasks.make_selector("MRMR", 12, 0).fit(X, y)
    for k in (1, 3, 6):
        assert np.array_equal(S.tasks.support_at(big, "MRMR", k), np.flatnonzero(S.tasks.make_selector("MRMR", k, 0).fit(X, y).get_support()))


def test_quick_tasks_end_to_end(tmp_path):
    tasks = [t for t in S.tasks.make_tasks(False) if t["dataset"] in ("wine", "glioma") and t["repeat"] == 0
             and t["method"] in ("none", "MRMR", "CFS", "GeoRatio")]
    res = run_protocol(S.PROTOCOL, tasks=tasks, out=tmp_path, progress=False)
    assert res.n_computed == len(tasks) == 16
    t = res.tables
    assert set(t["not_run"]["method"]) == {"GeoRatio"}
    mrmr = [r for p, r in zip(res.params, res.results) if p["method"] == "MRMR"]
    assert all(len(r["support"][i]) == k for r in mrmr for i, k in enumerate(r["k"]))
    assert all(c > 0 for r in mrmr for c in r["fit_cpu"][:1]) and all(c == 0 for r in mrmr for c in r["fit_cpu"][1:])
    assert (t["cost"].set_index(["dataset", "method"]).loc[("wine", "none"), "fit_cpu"] == 0.0)
    acc = t["accuracy"]
    assert acc["rank_k"].sum() == 6 and acc["acc_rbf"].between(0, 100).all()
    # resumed from the store, nothing recomputed and the same tables
    again = run_protocol(S.PROTOCOL, tasks=tasks, out=tmp_path, progress=False)
    assert again.n_computed == 0
    pd.testing.assert_frame_equal(again.tables["accuracy"], acc)


#: synthetic fit costs: MRMR is as accurate as all features and dearer than MI, the best
COSTS = {"none": 0.0, "ReliefF": 0.5, "MI": 2.0, "MRMR": 10.0}


def _store(effects, datasets, domain="tabular", repeats=5, noise=0.5, seed=0):
    """Tiny synthetic store: method m has accuracy 70 + effects[m] + noise on every fold, and
    fit CPU seconds COSTS[m]."""
    rng = np.random.default_rng(seed)
    params, results = [], []
    for d in datasets:
        S.paper.DATASETS.setdefault(d, (domain, {}, "synthetic"))
        for r in range(repeats):
            for f in range(2):
                for m, e in effects.items():
                    acc = (70 + e + noise * rng.standard_normal()) / 100
                    k = 0 if m in S.paper.OWN_SIZE else 3
                    params.append({"dataset": d, "repeat": r, "fold": f, "n_folds": 2, "method": m, "ks": [k]})
                    results.append({"k": [k], "n_selected": [3], "acc_rbf": [acc],
                                    "fit_cpu": [COSTS[m]], "peak_mib": [1.0], "support": [[0, 1, 2]]})
    return params, results


@pytest.fixture
def synthetic(monkeypatch):
    monkeypatch.setattr(S.paper, "DATASETS", dict(S.paper.DATASETS))
    monkeypatch.setattr(S.tables, "rank_k", lambda d: 3)
    monkeypatch.setattr(S.tables, "width", lambda d: 20)
    effects = {"none": 0.0, "MI": 5.0, "ReliefF": -5.0, "MRMR": 0.0}
    p, r = _store(effects, [f"t{i}" for i in range(8)], "tabular")
    p2, r2 = _store(effects, [f"i{i}" for i in range(6)], "image", seed=1)
    return S.tables.reduce(p + p2, r + r2)


def test_interval_holds_the_mean_and_widens_with_spread():
    m, lo, hi = S.tables.interval([70.0, 71.0, 72.0, 73.0, 74.0])
    assert m == 72.0 and lo < 72.0 < hi
    assert hi - lo < S.tables.interval([60.0, 66.0, 72.0, 78.0, 84.0])[2] - S.tables.interval([60.0, 66.0, 72.0, 78.0, 84.0])[1]


def test_statistics_find_the_planted_effects(synthetic):
    fr = S.analysis.friedman_tests(synthetic["accuracy"])
    assert list(fr["scope"]) == ["all", "image", "tabular"]
    assert (fr["p"] < 1e-3).all() and (fr["data sets"] == [14, 6, 8]).all()
    vs = S.analysis.versus_none(synthetic["accuracy"]).query("scope == 'all' and classifier == 'RBF SVM'").set_index("method")
    assert vs.loc["MI", "side"] == "better" and vs.loc["MI", "p_holm"] < 0.05
    assert vs.loc["ReliefF", "side"] == "worse" and vs.loc["ReliefF", "p_holm"] < 0.05
    assert vs.loc["MRMR", "p_holm"] > 0.05
    c = C.claims_vs_none(synthetic["accuracy"], synthetic["folds"])
    assert set(c["test"]) == {"repeated_cv_t"} and set(c["unit"]) == {"repetitions"} and (c["n"] == 5).all()
    lin = c[c["classifier"] == "RBF SVM"]
    assert (lin[lin["method"] == "MI"]["verdict"] == "holds").all()
    assert (lin[lin["method"] == "ReliefF"]["verdict"] == "fails").all()
    assert set(lin["table"]) == {"MI vs none (RBF SVM)", "ReliefF vs none (RBF SVM)", "MRMR vs none (RBF SVM)"}


def test_pareto_per_domain(synthetic):
    p = S.analysis.pareto(synthetic["accuracy"], synthetic["cost"]).query("domain == 'tabular'").set_index("method")
    # none is free, MI the most accurate; MRMR (as accurate as none, dearer than MI) is dominated
    assert p.loc["none", "pareto"] and p.loc["MI", "pareto"] and not p.loc["MRMR", "pareto"]
    assert not p.loc["ReliefF", "pareto"] and p.loc["MRMR", "fit_cpu"] == 10.0
    assert p.loc["MI", "accuracy"] > p.loc["none", "accuracy"] > p.loc["ReliefF", "accuracy"]


def test_score_matrix_drops_methods_missing_somewhere(synthetic):
    acc = synthetic["accuracy"]
    acc = acc[~((acc["dataset"] == "t0") & (acc["method"] == "MI"))]
    s, dropped = S.analysis.score_matrix(acc)
    assert dropped == ["MI"] and "MI" not in s.columns and s.shape == (14, 3)
    with pytest.raises(ValueError, match="metric"):
        S.analysis.score_matrix(acc, "acc_linear")


def test_peak_rss_sees_an_allocation_even_after_the_same_memory_was_freed():
    from fsbook.experiments._memory import PeakRSS

    for _ in range(2):        # the second block reuses what the first freed: still seen as growth
        with PeakRSS(0.001) as m:
            a = np.ones(10 * 2**20)        # 80 MiB, written
            a += 1
            del a
        assert 60 <= m.peak_mib < 400
    with PeakRSS(0.001) as small:
        sum(range(1000))
    assert small.peak_mib < 20


def _design(accuracy):
    """A design table for the synthetic store: tabular sets n ≫ d and two classes, image sets
    n ≪ d and multiclass."""
    sets = accuracy[["dataset", "domain"]].drop_duplicates()
    tab = sets["domain"] == "tabular"
    return sets.assign(n=np.where(tab, 1000, 50), d=np.where(tab, 20, 2000), classes=np.where(tab, 2, 5))


def test_over_datasets_decides_each_scope_with_its_own_family(synthetic):
    design = _design(synthetic["accuracy"])
    assert list(C.scopes(design)) == ["all", "image", "tabular", "n ≪ d", "n ≫ d", "two classes", "multiclass"]
    over = C.over_datasets_vs_none(synthetic["accuracy"], design)
    assert set(over["test"]) == {"wilcoxon"} and set(over["unit"]) == {"data sets"}
    assert over.groupby("table")["scope"].nunique().eq(1).all()      # one Holm family per scope
    at = over.set_index(["scope", "method"])
    assert at.loc[("all", "MI"), "verdict"] == "holds" and at.loc[("all", "MI"), "n"] == 14
    assert at.loc[("all", "ReliefF"), "verdict"] == "fails"
    assert at.loc[("all", "MI"), "ci_low"] > 0 > at.loc[("all", "ReliefF"), "ci_high"]
    assert at.loc[("all", "MRMR"), "verdict"] == "not separable"
    # six image sets: 2/2^6 = 0.031 > 0.05/3, the family cannot pass at its first threshold
    assert at.loc[("image", "MI"), "verdict"] == "not separable"
    assert at.loc[("tabular", "MI"), "verdict"] == "holds"       # 8 sets: 0.0078 < 0.05/3


def test_which_selector_lists_only_decided_comparisons(synthetic):
    design = _design(synthetic["accuracy"])
    over = C.over_datasets_vs_none(synthetic["accuracy"], design)
    when = S.analysis.which_selector(over, synthetic["cost"]).set_index("scope")
    assert when.loc["all", "above all features"].startswith("MI (+5.")
    assert when.loc["all", "below all features"].startswith("ReliefF (−5.")
    assert when.loc["all", "not separated"].startswith("MRMR")
    assert when.loc["image", "above all features"] == "" and "MI" in when.loc["image", "not separated"]
    assert when.loc["all", "cheapest not below"] == "MI"        # ReliefF is below; MI is cheaper than MRMR


def test_effects_and_counts_and_stability(synthetic):
    eff = S.analysis.effects_vs_none(synthetic["accuracy"])
    assert list(eff.columns) == ["MI", "ReliefF", "MRMR"] and abs(eff["MI"].mean() - 5.0) < 0.5
    per = C.claims_vs_none(synthetic["accuracy"], synthetic["folds"])
    counts = S.analysis.decided_counts(per)
    assert counts.loc["all", "comparisons"] == 3 * 14
    assert counts.loc["all", "above"] == 14 and counts.loc["all", "below"] == 14
    assert counts.loc["tabular", "comparisons"] == 3 * 8
    stab = S.analysis.stability_summary(synthetic["stability"], synthetic["accuracy"])
    assert list(stab.columns)[0] == "all" and set(stab.index) == {"MI", "ReliefF", "MRMR"}
    assert ((stab.fillna(1.0) <= 1.0) & (stab.fillna(-1.0) >= -1.0)).all().all()


def test_facts_quote_the_tables(synthetic):
    from types import SimpleNamespace

    design = _design(synthetic["accuracy"])
    margins = S.claims.order_margins(design)                  # one test prediction: 0.1 (n = 1 000), 2 (n = 50)
    per = C.claims_vs_none(synthetic["accuracy"], synthetic["folds"], margins).assign(scope="")
    over = C.over_datasets_vs_none(synthetic["accuracy"], design, margins=margins).assign(dataset="")
    n = 14 * 5 * 2 * 4
    res = SimpleNamespace(tables=synthetic, params=[{}] * n, cpu_seconds=[1.0] * n)
    f = S.facts.facts(res, design, pd.concat([per, over], ignore_index=True))
    assert f["ws_margins"].startswith("0.10 points on t0") and f["ws_margins"].endswith("2.00 points on i0 (one of 50)")
    # over every data set: the Hodges-Lehmann estimate of eight 0.1 and six 2.0 margins
    from fsbook.claims import hodges_lehmann
    assert f["ws_margin_over"] == f"{hodges_lehmann(np.array([0.1] * 8 + [2.0] * 6))[0]:.2f}"
    assert f["ws_n_datasets"] == "14" and "MI (+5." in f["ws_all_sentence"]
    assert "ReliefF (−5." in f["ws_all_sentence"] and "1 of 3 selectors are decided above" in f["ws_overview"]
    assert "0.16 CPU-hours" in f["ws_conclusion_cost"]
    # the list facts are markdown lists, one selector or scope an item, and render as such
    assert "\n\n- MI (+5." in f["ws_all_sentence"] and "\n- ReliefF (−5." in f["ws_all_sentence"]
    assert f["ws_conclusion_papers"].startswith("On data their papers never used:\n\n- ")
    from markdown_it import MarkdownIt

    for key in S.facts.MARKDOWN_FACTS:
        tokens = [t.type for t in MarkdownIt().parse(f[key])]
        assert "bullet_list_open" in tokens or "- " not in f[key], key


def test_claims_and_advice_with_a_given_design_equal_those_that_build_it():
    """On the stored protocol: ``claims`` with the page's design equals ``claims`` that builds it,
    and ``advice`` (which computes only the decisions over data sets) equals the table built from
    every claim's rows over data sets, effects included."""
    from fsbook.experiments import read_store

    res = read_store(S.PROTOCOL)
    design = S.tasks.design()
    every = S.claims.claims(res, design)
    pd.testing.assert_frame_equal(every, S.claims.claims(res))
    over = every[every["scope"] != ""]
    expected = S.analysis.which_selector(over, res.tables["cost"]).set_index("scope")
    effects = over.pivot_table(index="method", columns="scope", values="effect", sort=False)
    scopes = ["all", "tabular", "two classes", "n ≫ d"]
    for when in (S.claims.advice(res), S.claims.advice(res, design=design)):
        pd.testing.assert_frame_equal(when, expected)
        pd.testing.assert_frame_equal(when.attrs["effects"], effects)
    pd.testing.assert_frame_equal(S.claims.advice(res, scopes, design), expected.loc[scopes])

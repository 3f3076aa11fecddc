"""Tests of the geometric-ratios protocol (fsbook.experiments.geometry) on small tasks."""
import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import geometry as E
from fsbook.experiments import run_protocol
from fsbook.experiments.geometry.claims import _binomial_row
from fsbook.report import styled_table


def test_scores_closed_form_and_undefined_precision():
    pred = np.array([1, 1, 0, 0, 1], bool)
    truth = np.array([1, 0, 0, 1, 1], bool)
    s = E.tables.scores(pred, truth)
    assert s["accuracy"] == pytest.approx(3 / 5)
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 3)
    none = E.tables.scores(np.zeros(3, bool), np.array([1, 0, 1], bool))
    assert np.isnan(none["precision"]) and none["recall"] == 0.0 and none["n_recommended"] == 0


@pytest.mark.parametrize("available,total,expected", [
    ([50, 900, 900, 900], 500, [50, 150, 150, 150]),
    ([50, 900, 900, 100], 1000, [50, 425, 425, 100]),
    ([10, 20, 30], 100, [10, 20, 30]),
    ([5, 5, 5], 7, [3, 2, 2]),
])
def test_allocate(available, total, expected):
    assert E.problems.allocate(available, total) == expected


def test_text_problem_true_dimensions_and_disjoint_rows():
    p = E.problems.text_problem("webtext", rows=100, cols=200, seed=0)
    sizes = [g.size for g in p["groups"]]
    # 47 of the 50 function words occur in these rows: the shortfall goes to the other types
    assert p["X"].shape == (100, 200) and sizes == [47, 51, 51, 51]
    assert np.bincount(p["y"]).tolist() == [20] * 5
    assert set(np.unique(p["X"].data)) == {1.0}
    q = E.problems.text_problem("webtext", rows=100, cols=200, seed=1, exclude_rows=p["rows"])
    assert np.intersect1d(p["rows"], q["rows"]).size == 0
    w = E.problems.text_problem("webtext", rows=600, cols=500, seed=0)
    assert w["X"].shape == (600, 500)             # Table 3: webtext has 500 columns
    m = E.problems.text_problem("movies", rows=40, cols=90, seed=0)
    assert [g.size for g in m["groups"]] == [30, 30, 30] and m["X"].shape[0] == 40


def test_uci_real_values_leave_ratios_unchanged():
    p = E.problems.uci_problem("wine", "real")
    assert p["X"].shape == (178, 13) and p["X"].min() == 0 and p["X"].max() == 1
    from fsbook.datasets import load_wine
    from fsbook.geometry import geometric_ratios
    raw = load_wine()
    y = (p["y"] == 0).astype(int)
    np.testing.assert_allclose(geometric_ratios(p["X"], y), geometric_ratios(raw.data, y))
    with pytest.raises(ValueError, match="nominal"):
        E.problems.uci_problem("soybean_small", "real")


def test_random_column_table_none_recommended():
    suite = pd.DataFrame({"split": ["a"] * 3, "subset": ["x", "random", "x+random"],
                          "accuracy": [0.8, 0.5, 0.7], **{f"z{i}": [0.0] * 3 for i in range(1, 7)}})
    from fsbook.geometry import GeometricModel
    never = GeometricModel(0.0, np.zeros(6), -50.0, np.zeros(6))
    t = E.tables.random_column_table(suite, never, ["x", "random"])
    assert t.loc[0, "selected"] == "none recommended" and np.isnan(t.loc[0, "gain_pp"])
    always = GeometricModel(1.0, np.zeros(6), 50.0, np.zeros(6))
    t = E.tables.random_column_table(suite, always, ["x", "random"])
    assert t.loc[0, "selected"] == "x" and t.loc[0, "gain_pp"] == pytest.approx(10.0)
    s = E.tables.random_summary(t)
    assert s["accuracy change from the random columns (pp)"] == pytest.approx(-10.0)


def test_protocol_tasks_and_reduce_on_small_problems():
    base = {"source": "movies", "rows": 40, "cols": 60, "seed": 0}
    tasks = [{"kind": "train", **base, "cv": 3},
             {"kind": "train", **base, "seed": 1, "cv": 3},
             {"kind": "random", "base": base, "fraction": 0.25, "seed": 0, "cv": 3}]
    res = run_protocol(E.PROTOCOL, tasks=tasks, progress=False)
    direct = E.tasks.run_task(tasks[0])
    assert res.results[0]["suite"]["accuracy"] == pytest.approx(direct["suite"]["accuracy"])
    assert res.results[0]["C"] == 60 and res.results[2]["C"] == 75
    t = res.tables
    assert set(t["table4"]["data set"]) == {"Movies Documents"}
    assert len(t["training_suite"]) == 2 * 7
    assert t["table4"]["metric"].tolist()[:4] == ["accuracy", "precision", "recall",
                                                  "sets recommended"]
    assert list(t["figure1"]["ratio"]) == [f"f{i}" for i in range(1, 7)]
    assert len(t["random"]) == 1 and t["random"]["accuracy_real"].notna().all()
    ours = t["table3"][t["table3"]["source"] == "ours"]
    assert ours["C"].tolist() == [60, 60]
    html = styled_table(t["table3"], "Table 3").to_html()
    assert "Table 3" in html and "—" in html and "nan" not in html.lower().replace("nan;", "")


def test_make_tasks_cover_every_table():
    for full in (False, True):
        tasks = E.tasks.make_tasks(full)
        kinds = {t["kind"] for t in tasks}
        assert kinds == {"train", "dimension", "uci", "random", "growth"}
        dims = [t["dimension"] for t in tasks if t["kind"] == "dimension"]
        assert set(dims) <= set(E.paper.PAPER["table5"].index)
    assert len([t for t in E.tasks.make_tasks(True) if t["kind"] == "dimension"]) == 7


# ----------------------------------------------------------------------------- Figure 1 and claims
def test_figure1_f1_score_is_standardised_within_data_set_and_classifier():
    # the same split label in two data sets whose F1 scores live on different scales
    suite = pd.DataFrame({"data": ["a"] * 3 + ["b"] * 3, "split": ["{0} vs rest"] * 6,
                          "f1_score": [0.1, 0.2, 0.3, 0.7, 0.8, 0.9],
                          "accuracy_z": [0.0] * 6})
    f1z = E.tables.figure1_performance(suite)[:, 3]
    one = (np.array([0.1, 0.2, 0.3]) - 0.2) / np.std([0.1, 0.2, 0.3])
    np.testing.assert_allclose(f1z, np.concatenate([one, one]), atol=1e-12)
    # pooled over the data sets (the old computation) the first data set would be all negative
    assert (f1z[:3] > 0).any()


def _fake_tables(*, tp=0, fn=6, gains=None, acc_pub=(6, 7), cpu=None):
    """The reduced tables claims() reads, with hand-checkable counts."""
    fig1 = pd.DataFrame({"ratio": [f"f{i}" for i in range(1, 7)], "slope": [-0.5] + [0.0] * 5,
                         "se": [0.1] * 6, "p": [1e-6] + [1.0] * 5, "n": [100] * 6})
    k, n = acc_pub
    conf = pd.DataFrame([
        {"table": "Table 4", "data set": "Movies Documents", "columns": 1000, "model": m,
         "tp": 0, "fp": 0, "fn": n - k, "tn": k} for m in ("published", "refitted")] + [
        {"table": "Table 6", "data set": "wine (real values)", "columns": 13, "model": m,
         "tp": tp, "fp": 0, "fn": fn, "tn": 39} for m in ("published", "refitted")],
        columns=["table", "data set", "columns", "model", "tp", "fp", "fn", "tn"])
    gains = np.full(15, -1.0) if gains is None else np.asarray(gains, float)
    rnd = pd.DataFrame({"split": [f"s{i}" for i in range(len(gains))],
                        "gain_pp (published)": gains, "gain_pp (refitted)": gains,
                        "selected (published)": ["a+random"] * len(gains),
                        "selected (refitted)": ["a"] * len(gains), "samples": 1200, "folds": 5})
    cols = np.array([80, 160, 320, 640, 1280])
    f3 = pd.DataFrame({"columns": cols, **{f"{q} ({m})": 0.5 + 0.01 * np.log2(cols)
                                           for q in ("accuracy", "precision", "recall")
                                           for m in ("published", "refitted")},
                       "ratios CPU s": cpu if cpu is not None else 1e-3 * cols})
    return {"figure1": fig1, "confusion": conf, "random": rnd, "figure3": f3, "training_suite": _fake_suite()}


def _fake_suite(groups=12, sets=10, seed=0):
    """A training suite of ``groups`` classifiers × ``sets`` feature sets: accuracy falls with z1
    (slope -0.5) with a shared shift per classifier, and does not depend on the other ratios."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(groups), sets)
    z = rng.standard_normal((groups * sets, 6))
    acc = -0.5 * z[:, 0] + rng.standard_normal(groups)[g] * 0.3 + 0.2 * rng.standard_normal(g.size)
    return pd.DataFrame({"data": "d", "split": [f"c{i}" for i in g], **{f"z{i + 1}": z[:, i] for i in range(6)},
                         "accuracy_z": acc, "f1_score": acc})


def test_claims_against_hand_computations():
    from scipy import stats
    c = E.claims.claims(_fake_tables()).set_index("claim")
    # Table 6, recall 0 of 6 optimal sets against 0.5: exact two-sided binomial p = 2 / 2**6
    row = c.loc["published model: recall below 0.5 (the method fails) — wine (real values)"]
    assert row["p"] == pytest.approx(2 * 0.5 ** 6) and row["effect"] == pytest.approx(0.5)
    assert row["p_adj"] == pytest.approx(min(1.0, 2 * 2 * 0.5 ** 6))   # Holm over 2 claims
    assert row["n"] == 6 and row["test"] == "exact binomial"
    # Figure 1: the slope of the suite's accuracy on z1, its se clustered by classifier (CR1,
    # statsmodels' cluster covariance), t with G - 1 = 11 degrees of freedom
    import statsmodels.api as sm
    suite = _fake_suite()
    fit = sm.OLS(suite["accuracy_z"], sm.add_constant(suite["z1"])).fit(
        cov_type="cluster", cov_kwds={"groups": pd.factorize(suite["split"])[0]})
    f1 = c.loc["f1: negative slope on accuracy"]
    assert f1["effect"] == pytest.approx(-fit.params["z1"]) and f1["verdict"] == "holds"
    assert f1["se"] == pytest.approx(fit.bse["z1"]) and f1["test"] == "clustered regression t"
    assert f1["p"] == pytest.approx(2 * stats.t.sf(abs(fit.params["z1"] / fit.bse["z1"]), 11))
    half = stats.t.ppf(0.975, 11) * fit.bse["z1"]
    assert (f1["ci_low"], f1["ci_high"]) == pytest.approx((f1["effect"] - half, f1["effect"] + half))
    assert c.loc["f2: negative slope on accuracy", "verdict"] == "not separable"
    # random columns: every selected set of the published model holds the random columns
    excl = c.loc["published model: the selected set excludes the random columns on most classifiers"]
    assert excl["effect"] == pytest.approx(-0.5) and excl["p"] == pytest.approx(2 * 0.5 ** 15)
    assert excl["verdict"] == "fails"
    # gains of exactly -1 pp on every classifier: the effect is -11 pp with no spread
    gain = c.loc["published model: the selected set gains at least 10 pp"]
    assert gain["effect"] == pytest.approx(-11.0) and gain["verdict"] == "fails"
    # Figure 3: a rising accuracy on log2(columns), slope 0.01 exactly
    f3 = c.loc["published model: accuracy grows with the number of columns"]
    assert f3["effect"] == pytest.approx(0.01) and f3["verdict"] == "holds"
    # the row over Table 6's one data set: a Wilcoxon test over one data set is untestable, in a
    # family of its own (never the per-data-set rows')
    over = c.loc["published model: recall below 0.5 (the method fails)"]
    assert over["test"] == "wilcoxon" and over["verdict"] == "not separable" and np.isnan(over["p"])
    assert over["table"] == E.claims.over_family("Table 6", "published") != row["table"]
    from fsbook.claims import family_check
    check = family_check(c.reset_index()).set_index("table")
    # the toy's Table 6 holds only wine's two real-valued rows: 6 sets each, a two-sided binomial
    # test of 1/2 whose smallest p, 1/32, is above Holm's first threshold 0.05/2: no row of that
    # family can ever be decided; every other family can pass
    assert not check.loc["Table 6", "can pass"] and check.loc["Table 6", "cannot pass"] == 2
    assert check.drop(index="Table 6")["can pass"].all()
    # a binomial row whose units cannot reach p < 0.05 is untestable, out of the Holm family
    one = c.loc["published model: accuracy at least the paper's lowest (0.754) — Movies Documents"]
    assert one["n"] == 7 and np.isfinite(one["p"])
    # precision of a model that recommends nothing is undefined, not zero
    prec = c.loc["published model: precision at least the paper's lowest (0.630) — Movies Documents"]
    assert prec["n"] == 0 and np.isnan(prec["effect"]) and prec["verdict"] == "not separable"


def test_rounding_cannot_decide():
    # accuracy 6/7 = 0.857143 against the paper's 0.8571 (6/7 rounded): not separable
    c = E.claims.claims(_fake_tables(acc_pub=(6, 7))).set_index("claim")
    # gains that differ from the paper's 10 pp on 3 of 225 classifiers by a hair
    gains = np.full(225, 10.0)
    gains[:3] += [1e-3, -2e-3, 1e-3]
    g = E.claims.claims(_fake_tables(gains=gains)).set_index("claim")
    row = g.loc["published model: the selected set gains at least 10 pp"]
    # no direction either way; the 90 % interval lies inside the declared margin (one test
    # prediction of 1 200, 0.083 pp): the gain is the paper's 10 pp, "no gain" beyond it
    assert row["verdict"] == "no gain" and abs(row["effect"]) < 1e-4 and row["margin"] == pytest.approx(100 / 1200)
    # gains equal to the floor up to the last bit count as ties (zero effect, no verdict)
    tie = E.claims.claims(_fake_tables(gains=np.full(15, 10.0) + 1e-13)).set_index("claim")
    assert tie.loc["published model: the selected set gains at least 10 pp", "effect"] == 0.0
    for m in ("published", "refitted"):
        acc = c.loc[f"{m} model: accuracy at least the paper's lowest (0.754) — Movies Documents"]
        assert acc["verdict"] == "not separable"


def test_growth_claim_slope_against_two():
    from scipy import stats
    n = np.array([250.0, 500.0, 1000.0, 2000.0])
    t = 1e-6 * n ** 2 * np.array([1.0, 1.02, 0.99, 1.01])
    row = E.claims.growth_claim(n, t).iloc[0]
    lr = stats.linregress(np.log(n), np.log(t))
    assert row["effect"] == pytest.approx(lr.slope - 2) and row["verdict"] == "not separable"
    assert E.claims.growth_claim(n, 1e-3 * n * np.array([1.0, 1.02, 0.99, 1.01])).iloc[0]["verdict"] == "fails"


def test_cpu_claim_on_the_stored_selector_times():
    from scipy import stats
    cols = np.array([80, 160, 320, 640, 1280])
    # times exactly linear in the columns: slope 1, no spread, so the claim of 2 fails
    row = E.claims.claims(_fake_tables()).set_index("claim").loc[E.claims.CPU_CLAIM]
    assert row["table"] == "Figure 3, CPU time" and row["n"] == 5
    assert row["effect"] == pytest.approx(-1.0) and row["verdict"] == "fails"
    # quadratic up to noise: the slope is near 2 and the claim is not separable
    cpu = 1e-6 * cols ** 2.0 * np.array([1.0, 1.05, 0.97, 1.02, 0.99])
    row = E.claims.claims(_fake_tables(cpu=cpu)).set_index("claim").loc[E.claims.CPU_CLAIM]
    lr = stats.linregress(np.log(cols), np.log(cpu))
    assert row["effect"] == pytest.approx(lr.slope - 2) and row["se"] == pytest.approx(lr.stderr)
    t = (lr.slope - 2) / lr.stderr
    assert row["p"] == pytest.approx(2 * stats.t.sf(abs(t), 3))
    assert row["verdict"] == "not separable"
    fit = E.figures.growth_fit(cols, cpu)
    assert fit["exponent"] == pytest.approx(lr.slope) and fit["se"] == pytest.approx(lr.stderr)
    # cubic: significantly above 2, the paper's direction
    cpu3 = 1e-9 * cols ** 3.0 * np.array([1.0, 1.05, 0.97, 1.02, 0.99])
    assert E.claims.claims(_fake_tables(cpu=cpu3)).set_index("claim").loc[E.claims.CPU_CLAIM, "verdict"] == "holds"
    # the claim is among the chapter's headline claims
    assert E.claims.CPU_CLAIM in set(E.claims.headline(E.claims.claims(_fake_tables()))["claim"])


def test_cpu_claim_needs_the_stored_times():
    tables = _fake_tables()
    tables["figure3"] = tables["figure3"].drop(columns="ratios CPU s")
    with pytest.raises(ValueError, match="ratios_cpu_s"):
        E.claims.claims(tables)
    with pytest.raises(ValueError, match="three or more sizes"):
        E.figures.growth_fit([100, 200], [1.0, 2.0])


def test_problem_builders_cover_every_task_kind():
    kinds = {t["kind"] for t in E.tasks.make_tasks(True)}
    assert kinds == set(E.tasks.PROBLEMS)
    with pytest.raises(ValueError, match="unknown task kind"):
        E.tasks.run_task({"kind": "nonsense"})


def test_label_rules_on_a_hand_made_suite():
    # one classifier label in two data sets; accuracies, s.e. and the full set (most features)
    suite = pd.DataFrame({
        "data": ["a"] * 4 + ["b"] * 3, "split": ["{0} vs rest"] * 7,
        "n_features": [1, 2, 3, 6, 1, 2, 3],
        "accuracy": [0.90, 0.85, 0.80, 0.70, 0.60, 0.58, 0.50],
        "accuracy_se": [0.03, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01],
        "optimal": [True, False, False, False, True, False, False]})
    rules = {name: rule(suite).tolist() for name, rule in E.tables.LABEL_RULES.items()}
    assert rules["within one s.e. of the best (ours)"] == suite["optimal"].tolist()
    # best - 2 s.e.: 0.84 in a, 0.58 in b (0.58 is exactly on the line: optimal)
    assert rules["within two s.e. of the best"] == [True, True, False, False, True, True, False]
    # means 0.8125 and 0.56: 0.80 is below its data set's mean, 0.58 above its own
    assert rules["above the classifier's mean accuracy"] == [True, True, False, False, True, True,
                                                             False]
    # full set: 0.70 in a (every set of a is at least as good), 0.50 in b
    assert rules["at least the full set's accuracy"] == [True] * 7


def test_paper_base_rates_reproduce_table4():
    t = E.paper.paper_base_rates()
    p4 = E.paper.PAPER["table4"]
    for name, row in t.iterrows():
        n, o = row["feature sets"], row["optimal (implied)"]
        r, p = p4.loc[name, "recall"], p4.loc[name, "precision"]
        tp = r * o
        fp = tp * (1 / p - 1)
        fn = o - tp
        assert (n - fp - fn) / n == pytest.approx(p4.loc[name, "accuracy"])


def test_binomial_rows_too_small_to_pass_are_untestable():
    # one recommended set against the paper's 0.63: no outcome reaches p < 0.05
    row = _binomial_row("Table 4", "x", 0, 1, 0.63, "higher", a="a", b="b")
    assert np.isnan(row["p"]) and row["note"] == "untestable: 1 set cannot reach p < 0.05"
    assert row["effect"] == pytest.approx(-0.63)
    # six optimal sets against 1/2: 0 of 6 gives p = 2/2**6, testable
    assert _binomial_row("Table 6", "y", 0, 6, 0.5, "lower", a="a", b="b")["p"] == pytest.approx(2 / 2 ** 6)

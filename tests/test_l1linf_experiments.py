"""Tests of the l1/linf protocol: task lists, one task, the reduction and the claims table."""
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from fsbook.claims import FAILS, HOLDS, NO_GAIN, NOT_SEPARABLE
from fsbook.experiments.l1linf.claims import (
    CLAIM_FOHSIC,
    CLAIM_HSFS,
    CLAIM_LDFS,
    OVER_DATASETS,
    OVER_DATASETS_FAMILY,
    better_than_each,
    claims,
    claims_for_page,
)
from fsbook.experiments.l1linf.paper import METHODS, N_FOLDS, SHARED_DATASETS, TABLE1_K
from fsbook.experiments.l1linf.tables import fold_errors, reduce
from fsbook.experiments.l1linf.tasks import load, make_tasks, run_task, table1_tasks


def test_task_lists():
    book, full = make_tasks(False), make_tasks(True)
    assert {t["fold"] for t in book} == {0, 1} and {t["fold"] for t in full} == set(range(5))
    assert {t["dataset"] for t in full} == set(TABLE1_K)
    assert all(t["n_max"] == 1000 for t in full)
    assert {t["method"] for t in book} == set(METHODS) | {"all"}
    assert {t["dataset"] for t in book} == {"wine", "glass", "glass_id"}
    assert all(t["ks"] == [TABLE1_K[t["dataset"]]] for t in table1_tasks() if t["method"] != "all")
    # the all-data selection only on wine and glass
    assert {t["dataset"] for t in full if t["selection"] == "all"} == {"wine", "glass", "glass_id"}


def test_glass_id_adds_the_id_column_and_madelon_is_subsampled():
    Xg, yg = load("glass", 1000)
    Xi, yi = load("glass_id", 1000)
    assert Xg.shape == (214, 9) and Xi.shape == (214, 10)
    np.testing.assert_array_equal(Xi[:, 0], np.arange(1, 215))
    Xm, ym = load("madelon", 300)
    assert Xm.shape == (300, 500) and abs(ym.mean() - 0.5) < 0.01


def test_run_task_is_deterministic_and_reduces():
    p = {"dataset": "wine", "method": "LS", "fold": 0, "n_max": 1000, "ks": [2], "selection": "fold"}
    r1, r2 = run_task(p), run_task(dict(p))
    assert r1 == r2 and len(r1["errors"]) == 1 and 0 <= r1["errors"][0] <= 1 and len(r1["supports"][0]) == 2
    q = dict(p, method="all", ks=[0])
    tables = reduce([p, q], [r1, run_task(q)])
    assert tables["table1"].loc["LS", "wine"] == 100 * r1["errors"][0]
    with pytest.raises(ValueError, match="unknown selection"):
        run_task(dict(p, selection="test"))


# ----------------------------------------------------------------------------- claims
#: test samples per fold of the fake results
FOLD_SIZE = 40


def fake_result(errors):
    """A protocol result from ``{dataset: {method: [error of fold 0..4 as a fraction]}}`` at
    Table 1's k (one k per data set), with :data:`FOLD_SIZE` test samples per fold: a method with
    error ``e`` on a fold is wrong on that fold's first ``round(e · FOLD_SIZE)`` samples, so two
    methods disagree on exactly the difference of their counts, all in one direction."""
    params, results = [], []
    for ds, by_method in errors.items():
        for m, per_fold in by_method.items():
            for fold, e in enumerate(per_fold):
                wrong = int(round(float(e) * FOLD_SIZE))
                params.append({"dataset": ds, "method": m, "fold": fold, "n_max": 1000,
                               "ks": [TABLE1_K[ds]], "selection": "fold"})
                results.append({"errors": [wrong / FOLD_SIZE], "C": [1.0], "supports": [[0]],
                                "outcomes": ["0" * wrong + "1" * (FOLD_SIZE - wrong)]})
    return SimpleNamespace(params=params, results=results)


def equal_methods(base):
    return {m: list(base) for m in METHODS}


#: a shift that differs from fold to fold: a constant shift has zero variance, and the sign test
#: that then decides cannot reach p < 0.05 over five folds (2 / 2**5)
JITTER = np.array([0.0, 0.01, 0.02, 0.005, 0.015])


def row(table, claim, dataset, family="Table 1", level="data set"):
    r = table[(table.claim == claim) & (table.dataset == dataset) & (table.table == family)
              & (table.level == level)]
    assert len(r) == 1, r
    return r.iloc[0]


def test_pair_against_a_hand_computation():
    base = np.array([0.10, 0.125, 0.075, 0.10, 0.10])
    errs = equal_methods(base)
    errs["LS"] = list(base + np.array([0.025, 0.05, 0.025, 0.05, 0.05]))    # LDFS lower than LS
    t = claims(fake_result({"wine": errs}))
    r = row(t, CLAIM_LDFS, "wine")
    # LS is wrong on 1, 2, 1, 2, 2 more samples of 40: 8 samples where only LDFS is right
    p = stats.binomtest(8, 8).pvalue                                          # McNemar's exact test
    assert r["p"] == pytest.approx(p) and r["effect"] == pytest.approx(100 * 8 / 200)
    assert r["n"] == 5 * FOLD_SIZE and r["unit"] == "samples" and r["test"] == "sign"
    assert r["n_direction"] == 8
    # Holm within Table 1: the other 11 comparisons have no difference at all (p = 1)
    assert r["p_adj"] == pytest.approx(min(1.0, 12 * p))
    assert r["verdict"] == (HOLDS if 12 * p < 0.05 else NOT_SEPARABLE)


def test_one_sample_cannot_decide():
    # every method equal on four folds; HSFS one test sample (of 40) lower on one fold:
    # its mean is lowest, and was "holds" under the old rule on means
    base = np.array([0.10, 0.125, 0.075, 0.10, 0.10])
    errs = equal_methods(base)
    errs["HSFS"] = list(base - np.array([1 / 40, 0, 0, 0, 0]))
    t = claims(fake_result({"wine": errs}))
    assert row(t, CLAIM_HSFS, "wine")["verdict"] == NOT_SEPARABLE
    # the same outcomes: effect exactly zero, inside the margin of one test sample: no gain
    r = row(claims(fake_result({"wine": equal_methods(base)})), CLAIM_HSFS, "wine")
    assert r["effect"] == 0.0 and r["verdict"] == NO_GAIN
    assert r["margin"] == pytest.approx(100 / (5 * FOLD_SIZE))


def test_every_comparison_has_the_margin_of_one_test_sample():
    base = np.array([0.10, 0.125, 0.075, 0.10, 0.10])
    t = claims(fake_result({"wine": equal_methods(base)}))
    pairs = t[t["level"] == "pair"] if "level" in t else t
    assert len(pairs) and (pairs["margin"] == pytest.approx(100 / (5 * FOLD_SIZE))).all()


def test_lowest_of_seven_fails_when_one_method_is_significantly_lower():
    base = np.array([0.30, 0.32, 0.28, 0.31, 0.29])
    errs = equal_methods(base)
    errs["ReliefF"] = list(base - 0.10 - JITTER)       # lower than HSFS on every fold by 10 to 12 points
    for m in ("FOHSIC", "l1-SVM", "SVM-RFE", "LDFS", "LS"):
        errs[m] = list(base + 0.10 + JITTER)
    t = claims(fake_result({"madelon": errs}))
    r = row(t, CLAIM_HSFS, "madelon")
    assert r["verdict"] == FAILS and r["b"] == "ReliefF" and "fails against 1 of 6" in r["note"]
    # FOHSIC is beaten by ReliefF too
    assert row(t, CLAIM_FOHSIC, "madelon")["verdict"] == FAILS


def test_over_data_sets_rows_use_the_shared_data_sets_and_are_untestable_with_five():
    base = np.array([0.30, 0.32, 0.28, 0.31, 0.29])
    good = equal_methods(base)
    good["LS"] = list(base + 0.2 + JITTER)              # LDFS lower than LS by about 20 points everywhere
    bad = equal_methods(base)
    bad["LDFS"] = list(base + 0.2 + JITTER)             # LDFS higher than LS
    data = {ds: good for ds in SHARED_DATASETS} | {"yale": bad, "glass_id": bad}
    t = claims(fake_result(data))
    over = t[(t.level == OVER_DATASETS) & (t.claim == CLAIM_LDFS)].iloc[0]
    # every shared data set holds, yet a two-sided Wilcoxon over five cannot reach p < 0.05: no vote decides
    assert (t[(t.level == "data set") & (t.claim == CLAIM_LDFS) & t.dataset.isin(SHARED_DATASETS)
              & (t.table == "Table 1")].verdict == HOLDS).all()
    assert over["verdict"] == NOT_SEPARABLE and over["n"] == len(SHARED_DATASETS)
    assert over["n_direction"] == len(SHARED_DATASETS) and over["test"] == "wilcoxon"
    assert np.isnan(over["p"]) and "untestable" in over["note"]
    assert over["table"] == OVER_DATASETS_FAMILY                 # never in Table 1's family
    assert row(t, CLAIM_LDFS, "yale")["verdict"] == FAILS
    page = claims_for_page(t, level=OVER_DATASETS)
    assert page["claim"].str.contains("over wine, glass, ARCENE, DEXTER, MADELON").all()


def test_better_than_each_holds_only_against_every_method():
    base = np.array([0.30, 0.32, 0.28, 0.31, 0.29])
    errs = {m: list(base + 0.1 + JITTER) for m in METHODS}
    errs["HSFS"] = list(base)
    t = claims(fake_result({"wine": errs}))
    r = row(t, CLAIM_HSFS, "wine")
    assert r["verdict"] == HOLDS and "holds against 6" in r["note"]
    pairs = t[(t.level == "pair") & (t.claim == CLAIM_HSFS) & (t.table == "Table 1")]
    assert len(pairs) == len(METHODS) - 1
    with pytest.raises(ValueError, match="one method"):
        better_than_each(t[t.level == "pair"], "mixed")


def test_bad_input_is_refused():
    with pytest.raises(TypeError, match="read_store"):
        claims({"wine": 1})
    errs = equal_methods([0.1] * N_FOLDS)
    errs["LS"] = errs["LS"][:4]                          # one fold missing
    with pytest.raises(ValueError, match="same folds"):
        claims(fake_result({"wine": errs}))


def test_fold_errors_are_percent():
    errs = equal_methods([0.1, 0.2, 0.1, 0.2, 0.1])
    df = fold_errors(fake_result({"wine": errs}))
    assert set(df.columns) == {"dataset", "method", "k", "fold", "error"}
    assert df["error"].max() == pytest.approx(20.0)


# ----------------------------------------------------------------------------- explanations of the gaps
def test_variant_errors_with_the_protocols_settings_are_the_stored_errors():
    from fsbook.experiments import read_store
    from fsbook.experiments.l1linf import PROTOCOL
    from fsbook.experiments.l1linf.tasks import variant_errors

    stored = fold_errors(read_store(PROTOCOL))
    ours = stored[(stored.dataset == "glass") & (stored.method == "LDFS") & (stored.k == 2)]
    np.testing.assert_allclose(variant_errors("glass", "LDFS"), ours.sort_values("fold")["error"], rtol=1e-9)
    with pytest.raises(ValueError, match="HSFS or LDFS"):
        variant_errors("glass", "FOHSIC")
    with pytest.raises(ValueError, match="unknown data set"):
        variant_errors("iris", "HSFS")


def test_explanation_claims_point_toward_the_paper():
    from fsbook.experiments.l1linf.claims import explanation_claims
    from fsbook.experiments.l1linf.paper import paper_value

    base = np.array([0.18, 0.20, 0.16, 0.19, 0.17])           # ours on wine, far above the paper's 4.58 %
    errors = fold_errors(fake_result({"wine": equal_methods(base)}))
    assert paper_value("HSFS", "wine") < 100 * base.mean()
    lower = 100 * (base - 0.10 - JITTER)                      # 10 to 12 points lower on every fold: toward the paper
    higher = 100 * (base + 0.10 + JITTER)
    t = explanation_claims({("wine", "HSFS", "down"): lower, ("wine", "LDFS", "up"): higher}, errors)
    assert list(t.verdict) == [HOLDS, FAILS]
    paper = paper_value("HSFS", "wine")
    closer = np.mean(np.abs(100 * base - paper) - np.abs(lower - paper))
    farther = np.mean(np.abs(higher - paper_value("LDFS", "wine")) - np.abs(100 * base - paper_value("LDFS", "wine")))
    assert t.effect.tolist() == pytest.approx([closer, -farther])
    assert (t.test == "paired_t").all()
    # a move past the paper's value, farther from it than ours: not closer, however large the move
    past = 100 * (base - 0.20 - JITTER)                       # about -2 to 0 %: 5 to 7 points below 4.58 %, ours 13
    assert explanation_claims({("wine", "HSFS", "past"): past}, errors).verdict.iloc[0] == HOLDS
    far_past = 100 * (base - 0.30 - JITTER) - 100             # far below the paper's: farther than ours
    assert explanation_claims({("wine", "HSFS", "far"): far_past}, errors).verdict.iloc[0] == FAILS
    with pytest.raises(ValueError, match="variant folds"):
        explanation_claims({("wine", "HSFS", "short"): lower[:4]}, errors)


def test_explanation_claims_pair_a_subset_of_folds_with_the_same_stored_folds():
    import pandas as pd

    from fsbook.experiments.l1linf.claims import explanation_claims

    base = np.array([0.175, 0.20, 0.15, 0.20, 0.175])    # multiples of 1 / FOLD_SIZE
    errors = fold_errors(fake_result({"wine": equal_methods(base)}))
    three = pd.Series(100 * (base[[0, 2, 4]] - 0.10), index=[0, 2, 4])
    t = explanation_claims({("wine", "HSFS", "three folds"): three}, errors)
    assert t.n.tolist() == [3] and t.effect.tolist() == pytest.approx([10.0])
    with pytest.raises(ValueError, match="not stored"):
        explanation_claims({("wine", "HSFS", "bad"): pd.Series([1.0], index=[7])}, errors)


def test_variant_errors_pass_the_row_threshold_to_the_selector(monkeypatch):
    from fsbook.experiments import l1linf as L1

    seen = []
    original = L1.tasks.make_selector

    def spy(method, k, seed):
        sel = original(method, k, seed)
        real_fit = sel.fit

        def fit(X, y):
            seen.append(sel.get_params()["row_threshold"])
            return real_fit(X, y)

        sel.fit = fit
        return sel

    monkeypatch.setattr(L1.tasks, "make_selector", spy)       # variant_errors reads it there
    L1.tasks.variant_errors("wine", "LDFS", row_threshold=0.01, folds_used=[0])
    L1.tasks.variant_errors("wine", "LDFS", folds_used=[0])
    assert seen == [0.01, None]


def test_variant_errors_rejects_bad_folds_and_thresholds():
    from fsbook.experiments.l1linf.tasks import variant_errors

    with pytest.raises(ValueError, match="folds_used"):
        variant_errors("wine", "LDFS", folds_used=[5])
    with pytest.raises(ValueError, match="row_threshold"):
        variant_errors("wine", "LDFS", row_threshold=-1.0)


def test_recorded_variants_and_the_runs_of_a_data_set():
    from fsbook.experiments.l1linf.tasks import explanation_runs, recorded_variants

    assert set(explanation_runs("glass")) == {("HSFS", "unstandardised, width 1"), ("LDFS", "unstandardised, width 1"),
                                              ("HSFS", "row threshold 0.01"), ("LDFS", "row threshold 0.01"),
                                              ("LDFS", "q = min(d, 10)")}     # d = 9: no HSFS q = d
    assert ("HSFS", "q = d") in explanation_runs("wine")
    bad = {"values": {"runs": [{"dataset": "arcene", "method": "HSFS", "variant": "v", "folds": [0, 1],
                                "errors": [20.0], "cpu_seconds": 1.0}]}}
    with pytest.raises(ValueError, match="differ in length"):
        recorded_variants(bad)


def test_table1_agreement_uses_the_declared_margin_and_the_papers_column():
    from fsbook.experiments.l1linf.claims import table1_agreement
    from fsbook.experiments.l1linf.paper import AGREEMENT_MARGIN, paper_value

    base = np.array([0.18, 0.20, 0.16, 0.19, 0.17])
    errors = fold_errors(fake_result({"wine": equal_methods(base), "glass_id": equal_methods(base)}))
    t = table1_agreement(errors).set_index(["dataset", "method"])
    assert set(t.index.get_level_values(0)) == {"wine", "glass_id"}
    # 18 % against the paper's 4.58 %: far outside the margin
    assert t.loc[("wine", "HSFS"), "agreement"] == "differs"
    assert t.loc[("glass_id", "HSFS"), "paper"] == paper_value("HSFS", "glass")     # the paper's glass column
    near = fold_errors(fake_result({"wine": equal_methods(paper_value("HSFS", "wine") / 100
                                                          + np.array([0.0, 0.002, -0.002, 0.001, -0.001]))}))
    assert table1_agreement(near).set_index("method").loc["HSFS", "agreement"] == "agrees"
    assert AGREEMENT_MARGIN == 2.5


# ------------------------------------------------------------------- repeated CV (versions 6 and 7)
def test_table1_and_figures_run_on_repeated_partitions_and_the_first_is_the_stored_one():
    from fsbook.experiments.l1linf.paper import FIGURE_KS, TABLE1_REPEATS
    from fsbook.experiments.l1linf.tasks import folds

    full = make_tasks(True)
    repeated = [t for t in full if "repeat" in t]
    table1 = [t for t in repeated if t["ks"] == ([0] if t["method"] == "all" else [TABLE1_K[t["dataset"]]])]
    figures = [t for t in repeated if t not in table1]
    assert len(table1) == (TABLE1_REPEATS - 1) * len(TABLE1_K) * (len(METHODS) + 1) * N_FOLDS
    assert len(figures) == (TABLE1_REPEATS - 1) * len(TABLE1_K) * len(METHODS) * N_FOLDS
    assert len(full) == 385 + len(table1) + len(figures)
    assert {t["repeat"] for t in repeated} == set(range(1, TABLE1_REPEATS))
    # each partition holds every figure's k once: Table 1's in its Table 1 task, the others here
    assert all(sorted(t["ks"] + [TABLE1_K[t["dataset"]]]) == sorted(FIGURE_KS[t["dataset"]]) for t in figures)
    assert all(t["selection"] == "fold" for t in repeated)
    assert not any("repeat" in t for t in make_tasks(False))
    y = load("wine", 1000)[1]
    first, again, other = folds("wine", 1000, y), folds("wine", 1000, y, 0), folds("wine", 1000, y, 1)
    assert all((a[1] == b[1]).all() for a, b in zip(first, again))           # repetition 0: the stored partition
    assert any(set(a[1]) != set(b[1]) for a, b in zip(first, other))
    assert sorted(np.concatenate([te for _, te in other])) == list(range(len(y)))   # a partition


def _repeated_result(errors_by_repeat):
    """``fake_result`` of several partitions: ``{repeat: {dataset: {method: fold errors}}}``."""
    params, results = [], []
    for r, errors in errors_by_repeat.items():
        one = fake_result(errors)
        params += [dict(p, **({"repeat": r} if r else {})) for p in one.params]
        results += one.results
    return SimpleNamespace(params=params, results=results)


def test_claims_use_the_repetition_means_where_several_partitions_are_stored():
    base = np.array([0.10, 0.125, 0.075, 0.10, 0.10])
    by_repeat = {}
    for r in range(5):
        errs = equal_methods(base + 0.005 * r)
        errs["LS"] = list(base + 0.005 * r + 0.05 + 0.01 * (r % 2))             # LS 5-6 points above LDFS
        by_repeat[r] = {"wine": errs}
    t = claims(_repeated_result(by_repeat))
    r = row(t, CLAIM_LDFS, "wine")
    assert r["test"] == "repeated_cv_t" and r["unit"] == "repetitions" and r["n"] == 5
    assert r["effect"] == pytest.approx(100 * np.mean([0.05 + 0.01 * (r_ % 2) for r_ in range(5)]), abs=0.3)
    assert r["verdict"] == HOLDS and r["margin"] == pytest.approx(100 / (5 * FOLD_SIZE))
    figure = t[(t.claim == CLAIM_HSFS) & (t.table != "Table 1") & (t.level == "pair")]
    assert set(figure["test"]) == {"repeated_cv_t"}                           # the figures' rows too
    single = claims(fake_result(by_repeat[0]))                                 # one partition: the sign test
    assert row(single, CLAIM_LDFS, "wine")["test"] == "sign"

"""The numbers and verdicts chapter 3 quotes (fsbook.experiments.kernel_design.facts, .phrases,
.coverage and .records): on the committed store and benchmark records, and on small cases whose
answer is known."""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from fsbook.experiments.kernel_design.coverage import held
from fsbook.experiments.kernel_design.facts import _full_zero_sentence
from fsbook.experiments.kernel_design.facts import facts as kd_facts  # the function
from fsbook.experiments.kernel_design.phrases import CHAPTER_CLAIMS, ClaimPhrases
from fsbook.experiments.kernel_design.records import (
    accuracy_gap,
    arcene_facts,
    regime_claim_rows,
    regime_facts,
    sdp_facts,
)

VERDICTS = ("holds", "fails", "not separable", "no gain")


@pytest.fixture(scope="module")
def store():
    from fsbook.experiments import read_store
    from fsbook.experiments.kernel_design import PROTOCOL

    return read_store(PROTOCOL)


@pytest.fixture(scope="module")
def store_facts(store):
    return kd_facts(store)


def test_the_package_names_resolve_to_the_method_package_and_the_protocol_modules():
    import fsbook.experiments.kernel_design as protocol
    import fsbook.kernel_design as method
    from fsbook.experiments.kernel_design import ablations, tasks

    assert tasks.KernelDesign is method.KernelDesign and ablations.kernel_stack is method.kernel_stack
    assert protocol.PROTOCOL.name == "kernel_design" and protocol.PROTOCOL.version == protocol.paper.VERSION
    assert callable(protocol.claims.claims) and callable(protocol.facts.facts)   # the functions, not the modules
    assert not hasattr(method, "PROTOCOL")


def test_facts_on_the_store_are_text_and_agree_with_the_store(store, store_facts):
    f = store_facts
    assert all(isinstance(v, str) and v for v in f.values())
    assert f["store_state"].startswith("complete") and f["store_tasks"] == f["store_total"] == str(store.n_total)
    assert f["kd_splits"] == str(len({p["split"] for p in store.params if p["method"] == "full"}))
    weak = [r for p, r in zip(store.params, store.results) if p["method"] == "weak"]
    n_zero = sum(not np.any(r["alpha"]) for r in weak)
    assert f["kd_weak_zero"] == f"{n_zero} of the {len(weak)} fits of the store's datasets"
    for key in ("kd_weak_verdict", "kd_nn_verdict", "kd_full_verdict", "kd_fig3_nn_verdict"):
        assert f[key].split(" over ")[0] in VERDICTS or f[key].startswith("untestable"), key


def test_the_summary_counts_every_claim_over_the_data_sets(store, store_facts):
    from fsbook.experiments.kernel_design.claims import claims

    over = claims(store)
    over = over[over["dataset"] == ""]
    counts = over["verdict"].value_counts()
    summary = store_facts["kd_summary"]
    assert f"of its {len(over)} claims" in summary
    assert f"{counts.get('not separable', 0)} are not separable" in summary


def test_the_chapter_claims_are_claims_of_the_table(store):
    from fsbook.experiments.kernel_design.claims import claims

    decided = set(claims(store)["claim"])
    assert {c for group in CHAPTER_CLAIMS.values() for c in group} <= decided


def test_claim_phrases_on_a_small_table():
    table = pd.DataFrame({
        "claim": ["c", "c", "c", "d"], "dataset": ["iris", "wine", "", ""],
        "verdict": ["holds", "fails", "not separable", "not separable"], "counted": [True, False, False, False],
        "n": [5, 5, 2, 0], "p": [0.01, 0.02, float("nan"), float("nan")], "note": ["", "", "1 holds; 1 fails", "x"]})
    p = ClaimPhrases(table)
    assert p.where("c", "holds") == "Iris" and p.where("c", "fails", counted=True) == "none"
    assert p.n_verdict("c", "fails") == 1 and p.n_verdict("c", "fails", counted=True) == 0
    assert p.over("c") == "untestable over the 2 data sets counted (a Wilcoxon test needs six); per data set it 1 fails"
    assert p.over("d") == "untestable: no data set counted"
    assert p.directed("2 in the paper's direction", "linear ≈ polynomial of degree 2") == (
        "2 with the linear kernel ahead")


def test_full_zero_sentence_names_the_one_zero_split():
    full = pd.DataFrame({"dataset": ["wdbc"] * 3 + ["iris"], "split": [0, 1, 2, 0], "n_kernels": [3, 0, 2, 1],
                         "score": [0.9, 0.0, 0.8, 0.7], "gamma1": [1e-4, 0.1, 1e-4, 1e-4],
                         "gamma2": [1e-4, 10.0, 1e-4, 1e-4]})
    text = _full_zero_sentence(full)
    assert "one split (number 1 of 0–2)" in text and "(0.1, 10)" in text and "average 0.85" in text
    assert _full_zero_sentence(full.assign(n_kernels=1)).startswith("No split's full mixture has α = 0")


def test_held_refuses_a_store_without_a_whole_data_set():
    empty = SimpleNamespace(params=[], results=[], n_cached=0, n_total=10, complete=False)
    with pytest.raises(RuntimeError, match="0 of 10 tasks"):
        held(empty)


def test_sdp_facts_on_the_record():
    from fsbook.benchmark_records import read_benchmark
    from fsbook.report import format_value

    record = read_benchmark("kernel_design_sdp", "datasets")
    f = sdp_facts(record, read_benchmark("kernel_design_sdp", "scaling")["values"])
    rows = record["values"]["rows"]
    assert f["kd_sdp_verdict"] in VERDICTS
    assert f["kd_sdp_acc_full"] == format_value(accuracy_gap(rows, "full"), 3)
    assert f["kd_sdp_min_p"].startswith(f"{sum(r['variant'] == 'full' for r in rows)} data sets")


def test_regime_facts_on_the_record():
    from fsbook.benchmark_records import read_benchmark
    from fsbook.experiments.kernel_design.claims import regime_claims

    record = read_benchmark("kernel_design", "regimes")
    reg = pd.DataFrame(record["values"]["rows"])
    f = regime_facts(record, regime_claims(reg))
    ours = reg[reg.regime == "ours"]
    assert f["kd_reg_fits"] == str(len(ours))
    nonzero = int((~reg[reg.regime.isin(["ours", "raw features", "narrow widths", "wide widths"])]["alpha_zero"]).sum())
    assert f"learns a non-zero kernel in {nonzero} of its" in f["kd_reg_zero"]


def test_regime_claim_rows_prefix_the_data_set():
    rows = pd.DataFrame({"dataset": ["wine", ""], "claim": ["a", "b"]})
    out = regime_claim_rows(rows, ["iris", "iris", "wine"])
    assert out["claim"].tolist() == ["Wine: a", "Iris and Wine, fits pooled: b"]
    assert rows["claim"].tolist() == ["a", "b"]          # the input is not changed


def test_arcene_facts_on_a_small_record():
    run = {"samples": 100, "features": 10_000, "cpu_ratio": 2.0, "objective_rel_diff": 3e-9,
           "same_features": True, "colgen": {"selected": 7, "nonzero_kernels": 9, "lp_solves": 4,
                                             "cpu_seconds": 1.0, "peak_rss_gb": 0.5},
           "direct": {"selected": 7, "cpu_seconds": 2.0, "peak_rss_gb": 3.0}}
    big = {**run, "features": 100_000}
    del big["direct"]
    f = arcene_facts({"10000": run, "100000": big})
    assert f["kd_small_speed"] == "2.0 times faster" and f["kd_small_support"] == "the same 7 selected features"
    assert f["kd_small_features"] == "10 000" and f["kd_large_features"] == "100 000"
    assert f["kd_large_direct"] == "the direct solve at this size is not in the record"
    assert f["kd_large_speed"] == "Its speed against the direct solve at this size is not in the record."
    both = arcene_facts({"10000": run})
    assert both["kd_large_speed"] == ("It reaches the direct solve's optimum 2.0 times faster in CPU time "
                                      "(relative difference 3e-9, the same 7 selected features).")
    slow = {**run, "cpu_ratio": 0.5, "colgen": {**run["colgen"], "cpu_seconds": 4.0}}
    assert arcene_facts({"1": slow})["kd_small_speed"] == "2.0 times slower"


# ---- the selection check on repeated 5-fold CV ---------------------------------------------------

def test_each_repetition_s_outcomes_pool_a_partition_and_give_the_stored_accuracies(store):
    """Every sample of each data set is one row of each repetition's pooled outcomes (the five test
    folds make a partition), each fold's outcomes give back its stored accuracies, and the
    repetitions' partitions differ."""
    from fsbook.experiments.kernel_design.paper import SELECTION_DATASETS, SELECTION_REPEATS
    from fsbook.experiments.kernel_design.tables import selection_outcomes
    from fsbook.experiments.kernel_design.tasks import load

    frame = pd.DataFrame([{**p, **r} for p, r in zip(store.params, store.results)])
    for d in SELECTION_DATASETS:
        units = []
        for r in range(SELECTION_REPEATS):
            s = selection_outcomes(frame, d, r)
            assert len(s) == load(d)[1].size and s["unit"].is_unique
            sel = frame[(frame.method == "selection") & (frame.dataset == d) & (frame.repeat == r)]
            for fold, acc_all, acc_kept in zip(sel["split"], sel["acc_all"], sel["acc_kept"]):
                g = s[s.fold == fold]
                assert g["all"].mean() == pytest.approx(acc_all, abs=1e-15)
                assert g["kept"].mean() == pytest.approx(acc_kept, abs=1e-15)
            units.append(tuple(s["all"]))
        assert len(set(units)) > 1, d


def test_the_selection_claims_are_decided_over_the_repetition_means(store):
    """Both claims of the selection check pair the data set's 10 repetitions: the p of the accuracy
    claim is the one-sample t on the differences of the repetitions' mean fold accuracies, its
    effect their mean (a fraction), and the count of kept features the same over ``D − kept``."""
    from scipy import stats

    from fsbook.experiments.kernel_design.claims import claims
    from fsbook.experiments.kernel_design.facts import repeated_accuracy
    from fsbook.experiments.kernel_design.paper import SELECTION_DATASETS, SELECTION_REPEATS
    from fsbook.experiments.kernel_design.phrases import SEL_A, SEL_K
    from fsbook.experiments.kernel_design.tasks import load

    table = claims(store)
    frame = pd.DataFrame([{**p, **r} for p, r in zip(store.params, store.results)])
    for d in SELECTION_DATASETS:
        sel = frame[(frame.method == "selection") & (frame.dataset == d)]
        means = sel.groupby("repeat")[["acc_kept", "acc_all", "n_kept"]].mean()
        diff = (means["acc_kept"] - means["acc_all"]).to_numpy()
        row = table[(table.claim == SEL_A) & (table.dataset == d)].iloc[0]
        assert (row["unit"], row["test"], int(row["n"])) == ("repetitions", "repeated_cv_t", SELECTION_REPEATS)
        assert row["effect"] == pytest.approx(diff.mean(), abs=1e-12)
        assert row["p"] == pytest.approx(stats.ttest_1samp(diff, 0).pvalue, rel=1e-9)
        a = repeated_accuracy(frame, d)
        assert a["kept"] - a["all"] == pytest.approx(diff.mean(), abs=1e-12)
        assert (a["repetitions"], a["ahead"] + a["level"] + a["behind"]) == (SELECTION_REPEATS,) * 2
        assert a["ahead"] == int(row["n_direction"])
        count = table[(table.claim == SEL_K) & (table.dataset == d)].iloc[0]
        assert (count["unit"], count["test"], int(count["n"])) == ("repetitions", "repeated_cv_t", SELECTION_REPEATS)
        fewer = load(d)[0].shape[1] - means["n_kept"].to_numpy()
        assert count["effect"] == pytest.approx(fewer.mean(), abs=1e-12)


def test_the_selection_claims_on_a_small_case():
    """Repetitions whose answer is known: kept features within ±0.002 of all features on every
    repetition are equivalent within the margin; 0.05 ahead on every repetition (± 0.01) is a
    significant difference, which refutes "about the same"; one repetition gives the paired t
    over its folds."""
    from fsbook.experiments.kernel_design.claims import claims
    from fsbook.experiments.kernel_design.phrases import SEL_A

    t = claims(_small_selection_store({"wdbc": lambda r, f: (0.9, 0.9 + 0.002 * (-1) ** (r + f))}))
    row = t[(t.claim == SEL_A) & (t.dataset == "wdbc")].iloc[0]
    assert (int(row["n"]), row["unit"], row["verdict"], row["difference"]) == (10, "repetitions", "holds", "no gain")
    t = claims(_small_selection_store({"wdbc": lambda r, f: (0.9, 0.95 + 0.01 * (-1) ** r)}))
    row = t[(t.claim == SEL_A) & (t.dataset == "wdbc")].iloc[0]
    assert row["verdict"] == "fails" and row["effect"] == pytest.approx(0.05)
    tasks, results = _small_selection_store({"wdbc": lambda r, f: (0.9, 0.9 + 0.001 * f)})
    one = [(p, x) for p, x in zip(tasks, results) if p.get("repeat", 0) == 0]
    t = claims(([p for p, _ in one], [x for _, x in one]))
    row = t[(t.claim == SEL_A) & (t.dataset == "wdbc")].iloc[0]
    assert (int(row["n"]), row["unit"], row["test"]) == (5, "folds", "paired_t")


def _small_selection_store(accuracy):
    """A store of the full protocol's tasks on the data sets of ``accuracy`` (data set → a function
    of the repetition and the fold giving the accuracies on all and on the kept features), the
    other results of run_task's shapes."""
    from fsbook.experiments import kernel_design as KD

    tasks = [t for t in KD.tasks.make_tasks(True) if t["dataset"] in accuracy]
    out = []
    for t in tasks:
        m = t["method"]
        if m == "singles":
            out.append({"n_features": 3, **{k: 0.5 + 0.01 * t["split"] for k in KD.paper.SINGLES}})
        elif m == "selection":
            acc_all, acc_kept = accuracy[t["dataset"]](t["repeat"], t["split"])
            out.append({"n_features": 30, "n_kept": 2, "kept": [0, 1], "acc_all": acc_all, "acc_kept": acc_kept})
        elif m == "weak_cv10":
            out.append({"n_features": 3, "n_selected": 0, "gamma1": 1e-4, "gamma2": 1e-4})
        elif m in ("mmc", "nca"):
            out.append({"n_features": 3, "score": 0.5})
        else:
            out.append({"n_features": 3, "score": 0.5, "gamma1": 1e-4, "gamma2": 1e-4, "n_selected": 2,
                        "n_kernels": 1, "alpha": [0.5]})
    return tasks, out

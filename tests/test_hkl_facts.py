"""The numbers chapter 6 quotes (fsbook.experiments.hkl.facts): on the stored results, and on a
small diagnosis whose answer is known."""
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from read_back import tally_counts

from fsbook.experiments import hkl, read_store
from fsbook.experiments.hkl import ablations as hkl_ablations
from fsbook.experiments.hkl import facts
from fsbook.experiments.hkl.paper import TABLE1_METHODS

CHAPTER = Path(__file__).resolve().parents[1] / "book" / "06_hkl_experiments.ipynb"


@pytest.fixture(scope="module")
def result():
    return read_store(hkl.PROTOCOL)


@pytest.fixture(scope="module")
def claims(result):
    return hkl.claims.claims(result)


@pytest.fixture(scope="module")
def stored(result, claims):
    return facts.facts(result, claims, ablations=read_store(hkl_ablations.PROTOCOL))


def _toy_diagnosis():
    """Two folds of one data set: HKL 0.70 and 0.80 (majority 0.75), the path to its cap and
    the strong classifiers higher, the old tie rule choosing another C on fold 1."""
    folds = pd.DataFrame({
        "n_train": [30, 31], "majority": [0.75, 0.75], "C": [1.0, 3.0], "C_last": [10.0, 30.0],
        "n_disjunctions": [0, 4], "one_class": [True, False], "cv_accuracy": [0.80, 0.82],
        "accuracy": [0.70, 0.80], "accuracy_full": [0.90, 0.92], "C_simplest": [1.0, 1.0],
        "accuracy_simplest": [0.70, 0.75]}, index=pd.Index([0, 1], name="fold"))
    strong = {c: [0.85, 0.86] for c in (
        "RBF SVM (raw)", "RBF SVM (booleanised)", "linear SVM (raw)", "linear SVM (booleanised)",
        "logistic regression (raw)", "random forest (raw)")}
    clf = pd.DataFrame({"majority": [0.75, 0.75], **strong})
    return {"toy": {"path": (folds, None), "fine": pd.DataFrame({"accuracy": [0.70, 0.80]}),
                    "classifiers": clf, "paper": 91.0}, "cpu_seconds": 1.0}


def test_diagnosis_facts_on_a_known_case():
    f = facts.diagnosis_facts(_toy_diagnosis())
    assert f["diag_hkl_toy"] == pytest.approx(75.0) and f["diag_full_toy"] == pytest.approx(91.0)
    assert f["diag_bound_toy"] == pytest.approx(85.5) and f["diag_majority_toy"] == pytest.approx(75.0)
    assert f["diag_optimism_toy"] == pytest.approx(10.0)          # 0.80 − 0.70 on fold 0
    assert (f["diag_dis_min_toy"], f["diag_dis_max_toy"], f["diag_one_class_toy"]) == (0, 4, 1)
    assert (f["diag_n_train_toy"], f["diag_c_last_toy"], f["diag_n_folds"]) == (30, 30.0, 2)
    assert f["diag_gap_toy"] == pytest.approx(16.0)
    assert f["diag_tie_changed"] == "1 of the 2"
    assert f["diag_tie_changed_where"] == "toy, fold 1: 75.00 % → 80.00 %"
    assert f["diag_v_empty"] == "supported"                       # fold 0 selects nothing
    assert f["diag_v_path_toy"].startswith("supported (HKL to the cap − HKL: +16.00 points")
    assert f["diag_paper_gap_toy"] == pytest.approx(91.0 - 85.5)
    assert "(a) the C path stops before any node enters" in f["diag_supported_toy"]
    assert f["diag_hkl_version"] == hkl.PROTOCOL.version
    assert "cpu_seconds" not in " ".join(f)


def test_every_key_the_chapter_quotes_is_a_fact(stored):
    nb = json.loads(CHAPTER.read_text())
    prose = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    quoted = set(re.findall(r"\{glue(?::\w+)?\}`([A-Za-z0-9_]+)", prose))
    diagnosis = set(facts.diagnosis_facts(_toy_diagnosis()))
    diag_keys = {k.replace("_toy", "_hepatitis") for k in diagnosis} | {
        k.replace("_toy", "_transfusion") for k in diagnosis}
    missing = quoted - set(stored) - diag_keys - {"diag_cpu_seconds"}
    assert len(quoted) > 150 and not missing


def test_store_facts_read_the_store(result, stored):
    assert stored["hkl_tasks_stored"] == result.n_cached == stored["hkl_tasks_total"]
    assert stored["hkl_tol"] == "0.0001" and stored["weka_words"] == hkl.paper.WORDS_FOR_WEKA
    assert stored["hkl_hours"] == round(sum(result.cpu_seconds) / 3600, 1)     # CPU time (version 8 on)
    ng = [(p["method"], c) for p, c in zip(result.params, result.cpu_seconds)
          if p.get("table") == 1 and p.get("dataset") == "20newsgroups" and not p.get("repeat")]
    assert len(ng) == len(TABLE1_METHODS) * hkl.paper.N_FOLDS                         # the first partition
    assert stored["ng_partition_hours"] == round(sum(c for _, c in ng) / 3600, 2)
    assert 0 < stored["ng_hkl_hours"] == round(sum(c for m, c in ng if m == "hkl") / 3600, 2) \
        < stored["ng_partition_hours"]


def test_table_values_are_the_tables(result, stored):
    t1 = result.tables["table1"]
    assert stored["hkl_hepatitis"] == round(float(t1.loc[("hkl", "HKL"), "hepatitis"]), 2)
    assert stored["paper_hkl_hepatitis"] == hkl.paper.PAPER_TABLE1.loc[("hkl", "HKL"), "hepatitis"]
    assert stored["best_wrapper_monks1"] == round(float(t1.loc[hkl.paper.CONFIGS, "monks1"].max()), 2)
    assert stored["n_sets"] == len(hkl.paper.TABLE1_DATASETS) == 10
    t3 = result.tables["table3"]["accuracy (%)"]
    assert stored["t3_l1_gap"] == round(t3["L1-SVM (tuned C)"] - hkl.paper.PAPER_TABLE3["L1-SVM"], 2)
    assert stored["monks2_at"] + stored["monks2_below"] + stored["monks2_above"] == stored["monks2_rows"]
    assert stored["t2_loss_min"] <= stored["t2_loss_max"] <= stored["n_sets"]


def test_claim_facts_count_the_claims(claims, stored):
    asserted = claims[claims["table"] == hkl.claims.TABLE2_ASSERTED]
    assert stored["t2_m"] == len(asserted) == 27
    assert stored["t2_holds"] == int((asserted["verdict"] == "holds").sum())
    assert stored["t2_verdict"] == facts.one_word(asserted["verdict"])
    per_set = claims[claims["table"] == "Table 1"]
    assert stored["t1_n_holds"] == int((per_set["verdict"] == "holds").sum())
    for key in ("v_t3_l1_20newsgroups", "v_t4_hkl_colon", "v_t5_sparse_ionosphere"):
        assert stored[key]
    embedded = claims[claims["table"].isin(["Table 4", "Table 5"]) & (claims["a"] == "HKL")
                      & claims["claim"].str.contains("more accurate")]
    assert len(embedded) == 4 and stored["t45_acc_tally"] == facts.tally(embedded["verdict"])
    equal = embedded.loc[embedded["verdict"] == "no gain", "dataset"]
    assert (stored["t45_equal_where"] == "no data set") == equal.empty
    assert all(facts._EMBEDDED_NAMES[d] in stored["t45_equal_where"] for d in equal)


def test_agreement_and_gap_facts(result, stored):
    assert stored["agree_agrees"] + stored["agree_differs"] + stored["agree_inconclusive"] \
        == stored["agree_n"] == len(hkl.claims.agreement_table(result))
    assert stored["agree_margin"] == hkl.claims.AGREEMENT_MARGIN
    assert stored["gap_gap"] == round(stored["gap_paper"] - stored["gap_stored"], 2)
    assert stored["gap_paper"] == hkl.paper.PAPER_TABLE3["L1-SVM"]
    assert stored["gap_l2_reading"] == ("is consistent with" if stored["gap_l2_verdict"] == "explains"
                                        else "does not support")


def test_the_display_helpers():
    assert facts.paper_level(hkl.paper.CONFIGS[0], "L2") == "0.05"          # the paper's Table 2
    assert facts.paper_level(hkl.paper.CONFIGS[5], "L2") == "—"             # not significant
    assert facts.paper_level("all", "L1") == "0.005"
    assert facts.our_level(0.0049) == "0.005" and facts.our_level(0.05) == "—"
    assert facts.paper_row("colon", "zero_norm", 1 / 64) == (0.015625, 85.83)
    assert facts.one_word([]) == ""
    v = pd.DataFrame({"data set": ["a", "b"], "experiment": ["same path", "same path"],
                      "verdict": ["x", "y"]})
    assert facts.verdict_row(v, "b", "same")["verdict"] == "y"


# ---- each part of facts() against the stored tasks, the claims or a known case -----------------


#: a value rounded to two decimals is within this of the unrounded one (a half rounds to even)
ROUNDED = 0.005 + 1e-9


def _tasks(result, **match):
    """The results of the first partition's stored tasks whose parameters include ``match``."""
    return [r for p, r in zip(result.params, result.results)
            if "repeat" not in p and all(p.get(k) == v for k, v in match.items())]


def _mean_accuracy(result, key, **match):
    """Mean over the stored folds of the result ``key`` (a fraction), in %."""
    values = [r[key] for r in _tasks(result, **match)]
    assert values
    return 100 * float(np.mean(values))


@pytest.fixture(scope="module")
def summary(result):
    return facts.table1_summary(result)


def test_table1_summary_rows_are_the_stored_folds_means(result, summary):
    t1 = result.tables["table1"]
    methods = {key: set(summary[key].index.get_level_values("method")) for key in ("wrappers", "raw_cfs")}
    assert methods["wrappers"] == set(hkl.paper.CONFIGS) and len(summary["wrappers"]) == 2 * len(hkl.paper.CONFIGS)
    assert methods["raw_cfs"] == set(hkl.paper.RAW_CONFIGS) and len(summary["raw_cfs"]) == 2 * len(hkl.paper.RAW_CONFIGS)
    assert all(m.startswith("cfs/") and m.endswith("(raw)") for m in methods["raw_cfs"])
    assert summary["t1"].shape == summary["paper"].shape == t1.shape
    for d in t1.columns:
        assert summary["hkl"][d] == pytest.approx(_mean_accuracy(result, "HKL", table=1, dataset=d, method="hkl"))
        assert summary["wrappers"].loc[(hkl.paper.CONFIGS[7], "L1"), d] == pytest.approx(
            _mean_accuracy(result, "L1", table=1, dataset=d, method=hkl.paper.CONFIGS[7]))
        assert summary["raw_cfs"].loc[(hkl.paper.RAW_CONFIGS[2], "L2"), d] == pytest.approx(
            _mean_accuracy(result, "L2", table=1, dataset=d, method=hkl.paper.RAW_CONFIGS[2]))
    # the paper's HKL row is the one the agreement table compares ours with
    agree = hkl.claims.agreement_table(result)
    paper_hkl = agree[(agree["table"] == "Table 1") & (agree["row"] == "HKL")].set_index("dataset")
    assert (summary["paper_hkl"] == paper_hkl["paper"].reindex(t1.columns)).all()
    assert summary["hkl"].to_numpy() == pytest.approx(paper_hkl["ours"].reindex(t1.columns).to_numpy())


def test_table1_summary_majority_is_the_training_majority_on_monks_test_sets(summary):
    from fsbook import datasets as D

    for k in (1, 2, 3):
        y_train, y_test = D.load_monks(k, "train").target, D.load_monks(k, "test").target
        majority = np.bincount(y_train).argmax()
        assert summary["majority"][f"monks{k}"] == pytest.approx(100 * np.mean(y_test == majority))
    assert summary["majority"].between(0, 100).all() and (summary["majority"] >= 100 / 20).all()


def test_baseline_facts_against_the_agreement_table_and_the_folds(result):
    from sklearn.model_selection import StratifiedKFold

    from fsbook.experiments.hkl.data import load_table1

    out = facts.baseline_facts(result)
    agree = hkl.claims.agreement_table(result)
    libsvm = agree[(agree["table"] == "Table 1") & (agree["row"] == "LibSVM (Weka's defaults)")].set_index("dataset")
    assert len(libsvm) == 10
    for d in ("monks1", "tic_tac_toe", "20newsgroups"):
        assert out[f"base_default_{d}"] == pytest.approx(libsvm.loc[d, "ours"], abs=ROUNDED)
        assert out[f"base_paper_{d}"] == libsvm.loc[d, "paper"]
        assert out[f"base_tuned_{d}"] == pytest.approx(
            _mean_accuracy(result, "L2", table=1, dataset=d, method="all tuned (raw)"), abs=ROUNDED)
    assert out["n_default_below_paper"] == int((libsvm["ours"] < libsvm["paper"]).sum()) == 8
    # 20 Newsgroups: Weka's default LibSVM is right exactly on the test posts of the training
    # folds' majority class, fold by fold (the outer folds: stratified 4-fold CV, seed 0)
    _, y, _, _ = load_table1("20newsgroups")
    default = {r_p["fold"]: r for r_p, r in zip(result.params, result.results)
               if "repeat" not in r_p and r_p.get("table") == 1 and r_p.get("dataset") == "20newsgroups"
               and r_p.get("method") == hkl.paper.RAW_ALL}
    folds = list(StratifiedKFold(4, shuffle=True, random_state=0).split(np.zeros(y.size), y))
    majority_folds = sum(
        default[f]["outcomes_L2"] == "".join("1" if c == np.bincount(y[train]).argmax() else "0" for c in y[test])
        for f, (train, test) in enumerate(folds))
    assert out["ng_n_folds"] == len(folds) == len(default)
    assert out["ng_default_majority_folds"] == majority_folds


@pytest.fixture(scope="module")
def claim_out(result, claims):
    return facts.claim_facts(result, claims)


def test_claim_facts_counts_recomputed_from_table1_and_table2(result, summary, claim_out):
    t1, hkl_row = result.tables["table1"], summary["hkl"]
    datasets = list(t1.columns)
    best = {d: max(t1.loc[r, d] for r in t1.index if r[0] in hkl.paper.CONFIGS) for d in datasets}
    assert claim_out["hkl_ge_best_wrapper"] == sum(hkl_row[d] >= best[d] - 1e-9 for d in datasets)
    weka, tuned = t1.loc[(hkl.paper.RAW_ALL, "L2")], t1.loc[("all tuned (raw)", "L2")]
    assert claim_out["hkl_gt_weka_libsvm"] == sum(hkl_row[d] - weka[d] > 1e-9 for d in datasets)
    assert claim_out["hkl_gt_tuned_libsvm"] == sum(hkl_row[d] - tuned[d] > 1e-9 for d in datasets)
    assert claim_out["hkl_lt_tuned_libsvm"] == sum(tuned[d] - hkl_row[d] > 1e-9 for d in datasets)
    paper = summary["paper_hkl"]
    assert claim_out["hkl_within_1_paper"] == sum(abs(hkl_row[d] - paper[d]) <= 1 for d in datasets)
    assert claim_out["n_sets"] == len(datasets) and claim_out["n_table2"] == len(result.tables["table2"]) == 46
    # the levels of Table 2 as our_level words them: 0.005 and 0.01 are below 0.01, all three below 0.05
    levels = [facts.our_level(p) for p in result.tables["table2"]["p (HKL better)"]]
    assert claim_out["sig_005"] == sum(lv != "—" for lv in levels)
    assert claim_out["sig_001"] == sum(lv in ("0.005", "0.01") for lv in levels)
    # MONK-3: every method but a few scores HKL's 97.22 %; Table 2's ties count them among others
    others = [r for r in t1.index if r != ("hkl", "HKL")]
    ties = sum(np.isclose(t1.loc[r, "monks3"], hkl_row["monks3"], rtol=0, atol=1e-9) for r in others)
    assert claim_out["t2_monks3_ties"] == ties <= int((result.tables["table2"]["ties"] >= 1).sum())


def test_claim_facts_losses_to_the_wrappers_are_table2s_losses(result, claim_out):
    t2 = result.tables["table2"]
    wrappers = t2[t2["method"].isin(list(hkl.paper.CONFIGS) + list(hkl.paper.RAW_CONFIGS))]
    assert claim_out["t2_wrapper_rows"] == len(wrappers) == 2 * (len(hkl.paper.CONFIGS) + len(hkl.paper.RAW_CONFIGS))
    assert (claim_out["t2_loss_min"], claim_out["t2_loss_max"]) == (wrappers["losses"].min(), wrappers["losses"].max())
    # "breast cancer (33), transfusion (31), ...": one count per data set, summing to the losses
    named = dict(re.findall(r"([\w -]+?) \((\d+)\)(?:, | and |$)", claim_out["t2_loss_where"]))
    assert set(named) <= set(facts.SHORT.values())
    assert sum(int(n) for n in named.values()) == int(wrappers["losses"].sum())


def test_claim_facts_verdicts_are_the_claims_tables(claims, claim_out):
    per_set = claims[claims["table"] == "Table 1"]
    assert claim_out["t1_m"] == len(per_set) == 30
    assert tally_counts(claim_out["t1_tally"]) == per_set["verdict"].value_counts().reindex(
        ["holds", "fails", "no gain", "not separable"], fill_value=0).to_dict()
    for key, claim in zip(("t1_libsvm", "t1_wrapper", "t1_tuned"), facts.SHORT_CLAIMS):
        rows = per_set[per_set["claim"] == claim]
        over = claims[(claims["table"] == hkl.claims.TABLE1_OVER) & (claims["claim"] == claim)].iloc[0]
        assert claim_out[f"v_{key}"].startswith(f"{over['verdict']} ({over['effect']:+.2f} points")
        for verdict, suffix in (("holds", "where"), ("fails", "fails_where"), ("no gain", "no_gain_where")):
            text, chosen = claim_out[f"v_{key}_{suffix}"], rows[rows["verdict"] == verdict]
            assert (text == "no data set") == chosen.empty
            assert text.count(" points)") == len(chosen)
            for d, e in zip(chosen["dataset"], chosen["effect"]):
                assert f"{facts.SHORT[d]} ({e:+.2f} points)" in text
    t3 = claims[claims["table"] == "Table 3"]
    l1 = t3.loc[t3["b"].str.startswith("L1"), "verdict"].item()
    l2 = t3.loc[t3["b"].str.startswith("L2"), "verdict"].item()
    assert claim_out["t3_verdict"] == f"{l1} against the tuned L1-SVM, {l2} against the tuned L2-SVM"
    # the interval quoted alone is the one the colon sentence describes
    low, high = claim_out["t4_colon_ci_low"], claim_out["t4_colon_ci_high"]
    assert low < high and f"95 % CI [{low:+.2f}, {high:+.2f}]" in claim_out["v_t4_hkl_colon"]
    for _, row in claims[claims["table"].isin(["Table 3", "Table 4", "Table 5"])].iterrows():
        text = claim_out[f"v_{facts._CLAIM_KEYS[row['claim']]}_{row['dataset']}"]
        assert text.startswith(f"{row['verdict']} ({row['effect']:+.2f} points")


def test_value_facts_against_the_stored_tasks(result, summary):
    from fsbook import datasets as D

    out = facts.value_facts(result)
    for d in ("colon", "lymphoma"):
        hkl_acc = _mean_accuracy(result, "accuracy", table=4, dataset=d, method="hkl")
        assert out[f"t4_{d}_hkl_acc"] == pytest.approx(hkl_acc, abs=ROUNDED)
        zn = {fr: _mean_accuracy(result, "accuracy", table=4, dataset=d, method="zero_norm", fraction=fr)
              for fr in hkl.paper.FRACTIONS}
        assert out[f"t4_{d}_zn_all"] == pytest.approx(zn[1.0], abs=ROUNDED)
        assert out[f"t4_{d}_zn_best"] == pytest.approx(max(zn.values()), abs=ROUNDED)
        assert out[f"t4_{d}_zn_smallest"] == pytest.approx(zn[min(zn)], abs=ROUNDED)
        frac = np.mean([r["fraction_used"] for r in _tasks(result, table=4, dataset=d, method="hkl")])
        assert out[f"t4_{d}_hkl_frac"] == pytest.approx(100 * frac, abs=ROUNDED)
        assert out[f"t4_{d}_frac_ratio"] == pytest.approx(frac / hkl.paper.PAPER_TABLE4[d]["hkl"][0], abs=ROUNDED)
    for d in ("ionosphere", "breast_cancer_wisconsin"):
        for m in ("hkl", "weighted_svm"):
            assert out[f"t5_{d}_{m}_acc"] == pytest.approx(
                _mean_accuracy(result, "accuracy", table=5, dataset=d, method=m), abs=ROUNDED)
    # every HKL fit of Tables 4 and 5 (first partition): four folds of four data sets
    fits = [r for tab in (4, 5) for r in _tasks(result, table=tab, method="hkl")]
    assert out["t45_hkl_fits"] == len(fits) == 16
    assert out["t45_hkl_uncertified"] == sum(not r["certified"] for r in fits)
    # MONK-2's wrappers against the majority class of its own test set
    y_train, y_test = D.load_monks(2, "train").target, D.load_monks(2, "test").target
    majority = 100 * np.mean(y_test == np.bincount(y_train).argmax())
    m2 = summary["wrappers"]["monks2"]
    assert out["majority_monks2"] == pytest.approx(majority, abs=ROUNDED)
    assert (out["monks2_at"], out["monks2_below"], out["monks2_above"]) == (
        sum(abs(v - majority) < 1e-9 for v in m2), sum(v < majority - 1e-9 for v in m2),
        sum(v > majority + 1e-9 for v in m2))
    hkl_row, paper_hkl = summary["hkl"], summary["paper_hkl"]
    assert out["hkl_monks"] == (f"{hkl_row['monks1']:.2f} %, {hkl_row['monks2']:.2f} % and "
                                f"{hkl_row['monks3']:.2f} %")
    assert out["paper_hkl_monks"] == (f"{paper_hkl['monks1']:.2f} %, {paper_hkl['monks2']:.2f} % and "
                                      f"{paper_hkl['monks3']:.2f} %")
    # the disjunctions: found, with more than one word, and the paper's among them
    tables = result.tables
    found = [frozenset(w.strip() for w in d.split("∨")) for d in tables["disjunctions"]["disjunction"]]
    paper = [frozenset(w.strip() for w in d.split("∨")) for d in tables["paper_disjunctions"]["disjunction"]]
    assert out["dis_n_found"] == len(found)
    assert out["dis_n_multi"] == sum(len(f) > 1 for f in found)
    assert out["dis_n_paper_found"] == sum(p in set(found) for p in paper) <= len(paper) == 16
    # the paper's LibSVM row: nearer the tuned LibSVM than Weka's defaults on how many data sets
    t1 = tables["table1"]
    p_l2, tuned, default = (summary["paper"].loc[("all", "L2")], t1.loc[("all tuned (raw)", "L2")],
                            t1.loc[(hkl.paper.RAW_ALL, "L2")])
    assert out["paper_l2_closer_tuned"] == sum(abs(p_l2[d] - tuned[d]) < abs(p_l2[d] - default[d]) for d in t1.columns)


def test_agreement_facts_on_a_known_table_and_on_the_store(result):
    toy = pd.DataFrame({"agreement": ["agrees", "differs", "agrees", "agrees"]})
    out = facts.agreement_facts(result, toy)
    assert (out["agree_agrees"], out["agree_differs"], out["agree_inconclusive"], out["agree_n"]) == (3, 1, 0, 4)
    assert out["agree_margin"] == hkl.claims.AGREEMENT_MARGIN
    stored = facts.agreement_facts(result)
    agree = hkl.claims.agreement_table(result)
    assert stored["agree_inconclusive"] == int((agree["agreement"] == "inconclusive").sum())
    assert stored["agree_differs"] == int((agree["agreement"] == "differs").sum())


def test_benchmark_facts_quote_the_record_file():
    record = json.loads((Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "hkl.json").read_text())
    fit, task, pairs = (record[s]["values"] for s in ("conic_fit", "task", "pair_sources"))
    out = facts.benchmark_facts()
    assert float(out["conic_cpu"]) == pytest.approx(fit["conic"]["cpu_seconds"], abs=0.05)
    assert float(out["mirror_cpu"]) == pytest.approx(fit["mirror"]["cpu_seconds"], abs=0.5)
    assert "." not in out["mirror_cpu"] and len(out["conic_cpu"].split(".")[1]) == 1
    assert float(out["conic_obj_diff"]) == pytest.approx(fit["objective_rel_diff"], rel=0.5)
    assert float(out["task_cpu_min"]) == pytest.approx(task["cpu_seconds"] / 60, abs=0.05)
    assert (out["pairs_ratio"], out["pairs_active_nodes"], out["pairs_max_sources"]) == (
        pairs["ratio"], pairs["active_nodes"], pairs["max_sources"])


@pytest.fixture(scope="module")
def why(result):
    return facts.gap_explanations(result, read_store(hkl_ablations.PROTOCOL))


def test_gap_explanations_pair_the_ablation_folds_with_the_stored_l1_svm(result, why):
    folds = read_store(hkl_ablations.PROTOCOL).tables["folds"]
    stored = _mean_accuracy(result, "L1", table=3, method="svm_tuned")
    assert why.attrs["stored"] == pytest.approx(stored)
    assert why.attrs["paper"] == hkl.paper.PAPER_TABLE3["L1-SVM"]
    assert why.attrs["gap"] == pytest.approx(hkl.paper.PAPER_TABLE3["L1-SVM"] - stored)
    means = folds[folds["variant"] != "stored"].groupby("variant")["accuracy"].mean()
    assert len(why) == len(means) and why["explanation"].is_unique
    assert sorted(why["accuracy"].round(9)) == sorted(means.round(9))
    # the paired mean change of four folds is the change of the means
    assert (why["change"] - (why["accuracy"] - stored)).abs().max() < 1e-9
    assert (why["ci_low"] <= why["change"]).all() and (why["change"] <= why["ci_high"]).all()


def test_gap_facts_on_a_known_table():
    why = pd.DataFrame({
        "explanation": ["the penalty", "the grid", "the loss", "the scaling"],
        "setting": ["ℓ1 → ℓ2", "C ≤ 100 → C ≤ 10 000", "squared hinge → hinge", "0/1 → counts"],
        "accuracy": [92.574, 89.6, 86.5, 90.1], "change": [5.534, 2.6, -0.5, 3.1],
        "verdict": ["does not explain", "explains part", "does not explain", "inconclusive"]})
    why.attrs.update(stored=87.036, paper=93.14, gap=93.14 - 87.036)
    out = facts.gap_facts(why)
    assert (out["gap_gap"], out["gap_stored"], out["gap_paper"]) == (6.1, 87.04, 93.14)
    assert out["gap_explains"] == "none" and out["gap_explains_part"] == "the grid"
    assert out["gap_does_not_explain"] == "the penalty and the loss"
    assert out["gap_inconclusive"] == "the scaling"
    assert (out["gap_best"], out["gap_best_setting"], out["gap_best_acc"], out["gap_best_change"]) == (
        "the penalty", "ℓ1 → ℓ2", 92.57, 5.53)
    assert (out["gap_l2_acc"], out["gap_l2_verdict"], out["gap_l2_reading"]) == (
        92.57, "does not explain", "does not support")
    out = facts.gap_facts(why.assign(verdict=["explains", "explains", "does not explain", "inconclusive"]))
    assert out["gap_explains"] == "the penalty and the grid" and out["gap_l2_reading"] == "is consistent with"


def test_gap_facts_on_the_store_name_every_explanation_once(why):
    out = facts.gap_facts(why)
    named = " | ".join(out[f"gap_{v.replace(' ', '_')}"] for v in why["verdict"].unique())
    assert all(named.count(e) == 1 for e in why["explanation"])
    best = why.sort_values("change").iloc[-1]
    assert out["gap_best"] == best["explanation"] and out["gap_best_change"] == round(best["change"], 2)

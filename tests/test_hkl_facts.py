"""The numbers chapter 6 quotes (fsbook.experiments.hkl.facts): on the stored results, and on a
small diagnosis whose answer is known."""
import json
import re
from pathlib import Path

import pandas as pd
import pytest

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
    return hkl.claims(result)


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
    assert stored["hkl_tol"] == "0.0001" and stored["weka_words"] == hkl.WORDS_FOR_WEKA
    assert stored["hkl_hours"] == round(sum(result.cpu_seconds) / 3600, 1)     # CPU time (version 8 on)
    ng = [(p["method"], c) for p, c in zip(result.params, result.cpu_seconds)
          if p.get("table") == 1 and p.get("dataset") == "20newsgroups"]
    assert len(ng) == len(TABLE1_METHODS) * hkl.N_FOLDS                         # one partition
    assert stored["ng_partition_hours"] == round(sum(c for _, c in ng) / 3600, 2)
    assert 0 < stored["ng_hkl_hours"] == round(sum(c for m, c in ng if m == "hkl") / 3600, 2) \
        < stored["ng_partition_hours"]


def test_table_values_are_the_tables(result, stored):
    t1 = result.tables["table1"]
    assert stored["hkl_hepatitis"] == round(float(t1.loc[("hkl", "HKL"), "hepatitis"]), 2)
    assert stored["paper_hkl_hepatitis"] == hkl.PAPER_TABLE1.loc[("hkl", "HKL"), "hepatitis"]
    assert stored["best_wrapper_monks1"] == round(float(t1.loc[hkl.CONFIGS, "monks1"].max()), 2)
    assert stored["n_sets"] == len(hkl.TABLE1_DATASETS) == 10
    t3 = result.tables["table3"]["accuracy (%)"]
    assert stored["t3_l1_gap"] == round(t3["L1-SVM (tuned C)"] - hkl.PAPER_TABLE3["L1-SVM"], 2)
    assert stored["monks2_at"] + stored["monks2_below"] + stored["monks2_above"] == stored["monks2_rows"]
    assert stored["t2_loss_min"] <= stored["t2_loss_max"] <= stored["n_sets"]


def test_claim_facts_count_the_claims(claims, stored):
    asserted = claims[claims["table"] == hkl.TABLE2_ASSERTED]
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
        == stored["agree_n"] == len(hkl.agreement_table(result))
    assert stored["agree_margin"] == hkl.AGREEMENT_MARGIN
    assert stored["gap_gap"] == round(stored["gap_paper"] - stored["gap_stored"], 2)
    assert stored["gap_paper"] == hkl.PAPER_TABLE3["L1-SVM"]
    assert stored["gap_l2_reading"] == ("is consistent with" if stored["gap_l2_verdict"] == "explains"
                                        else "does not support")


def test_the_display_helpers():
    assert facts.paper_level(hkl.CONFIGS[0], "L2") == "0.05"          # the paper's Table 2
    assert facts.paper_level(hkl.CONFIGS[5], "L2") == "—"             # not significant
    assert facts.paper_level("all", "L1") == "0.005"
    assert facts.our_level(0.0049) == "0.005" and facts.our_level(0.05) == "—"
    assert facts.paper_row("colon", "zero_norm", 1 / 64) == (0.015625, 85.83)
    assert facts.one_word([]) == ""
    v = pd.DataFrame({"data set": ["a", "b"], "experiment": ["same path", "same path"],
                      "verdict": ["x", "y"]})
    assert facts.verdict_row(v, "b", "same")["verdict"] == "y"

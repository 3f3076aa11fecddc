"""The Section 3 protocol of chapter 6 (fsbook.experiments.hkl): tasks, one run per table kind,
the reduction and the Wilcoxon table."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from fsbook.experiments import hkl as proto


def test_tasks_cover_the_tables():
    full = proto.make_tasks(True)
    sub = proto.make_tasks(False)
    assert {t["table"] for t in full} == {1, 3, 4, 5, "disjunctions"}
    t1 = [t for t in full if t["table"] == 1]
    # 15 configurations + all features + HKL, 4 folds (1 split for each MONK's problem)
    assert len(t1) == 17 * (7 * 4 + 3)
    assert {t["dataset"] for t in sub if t["table"] == 1} == set(proto.SMALL_DATASETS)
    assert len({tuple(sorted(t.items())) for t in full}) == len(full)
    # the subsample's Table 4: both microarray sets, three fractions and HKL, each a full-protocol task
    t4 = [t for t in sub if t["table"] == 4]
    assert {t["dataset"] for t in t4} == {"colon", "lymphoma"} and len(t4) == 2 * 4 * (3 + 1)
    assert all(t in full for t in t4)
    assert proto.PAPER_TABLE1.shape == (33, 10)
    assert proto.PAPER_TABLE1.loc[("hkl", "HKL"), "20ng"] == 94.55


def test_monk_uses_the_uci_split_and_a_wrapper_task_runs():
    X, y, names, split = proto.load_table1("monk-1")
    assert split[0].size == 124 and split[1].size == 432 and X.shape[1] == 17
    r = proto.run_task({"table": 1, "dataset": "monk-1", "fold": 0, "method": "cfs/best_first"})
    assert set(r) == {"n_selected", "L2", "L1"} and 0 <= r["L2"] <= 1 and r["n_selected"] >= 1
    r_all = proto.run_task({"table": 1, "dataset": "monk-1", "fold": 0, "method": "all"})
    assert set(r_all) == {"L2", "L1"}
    assert r == proto.run_task({"table": 1, "dataset": "monk-1", "fold": 0, "method": "cfs/best_first"})


def test_table4_zero_norm_task_keeps_the_fraction():
    r = proto.run_task({"table": 4, "dataset": "colon", "fold": 0, "method": "zero_norm",
                        "fraction": 0.125})
    assert r["fraction_used"] == pytest.approx(0.125) and 0.5 <= r["accuracy"] <= 1


def test_reduce_builds_tables_and_wilcoxon():
    rng = np.random.default_rng(0)
    params, results = [], []
    datasets = ["breast-cancer", "vote", "monk-1", "monk-2", "monk-3", "wisconsin"]
    for d in datasets:
        for m in proto.CONFIGS + ["all", "hkl"]:
            params.append({"table": 1, "dataset": d, "fold": 0, "method": m})
            a = float(rng.uniform(0.6, 0.8))
            results.append({"HKL": 0.9, "C": 1.0, "n_disjunctions": 3, "n_features_used": 4}
                           if m == "hkl" else {"L2": a, "L1": a - 0.01})
    params.append({"table": 4, "dataset": "colon", "fold": 0, "method": "zero_norm", "fraction": 0.5})
    results.append({"accuracy": 0.8, "fraction_used": 0.5})
    tables = proto.reduce(params, results)
    t1 = tables["table1"]
    assert t1.shape == (33, 6) and t1.loc[("hkl", "HKL")].eq(90.0).all()
    t2 = tables["table2"]
    assert len(t2) == 32 and (t2["wins"] == 6).all()
    expected = wilcoxon(t1.loc[("hkl", "HKL")], t1.loc[("cfs/best_first", "L2")], alternative="greater").pvalue
    assert t2.iloc[0]["p (HKL better)"] == pytest.approx(expected)
    assert tables["table1_details"].loc["vote", "n_disjunctions"] == 3
    assert tables["table4"].iloc[0]["accuracy"] == pytest.approx(80.0)


def test_reduce_of_the_full_protocol_gives_only_dataframes():
    """The runner stores every table with DataFrame.to_dict(orient="split"): Table 3 and the
    disjunction summary must be DataFrames too (a Series stopped the first full run)."""
    params, results = [], []
    for d in ["vote", "20ng"]:
        for m in proto.CONFIGS + ["all", "hkl"]:
            params.append({"table": 1, "dataset": d, "fold": 0, "method": m})
            results.append({"HKL": 0.9, "C": 1.0, "n_disjunctions": 3, "n_features_used": 4}
                           if m == "hkl" else {"L2": 0.8, "L1": 0.7})
    params.append({"table": 3, "fold": 0, "method": "svm_tuned"})
    results.append({"L2": 0.92, "L1": 0.87})
    params.append({"table": "disjunctions"})
    results.append({"accuracy": 0.85, "C": 1.0, "found": [{"disjunction": "god", "coverage": 0.3}],
                    "paper": [{"disjunction": "god | beliefs", "coverage": 0.2}]})
    tables = proto.reduce(params, results)
    assert {"table3", "disjunctions", "disjunctions_accuracy"} <= set(tables)
    assert all(isinstance(t, pd.DataFrame) for t in tables.values())
    assert tables["table3"].loc["L2-SVM (tuned C)"].iloc[0] == pytest.approx(92.0)
    assert tables["disjunctions_accuracy"].loc["accuracy", "value"] == pytest.approx(0.85)

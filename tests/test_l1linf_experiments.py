"""Tests of the l1/linf protocol: task lists, one task, the reduction and the ranking claims."""
import numpy as np
import pandas as pd

from fsbook.experiments.l1linf import (
    METHODS,
    PAPER_TABLE1,
    TABLE1_K,
    load,
    make_tasks,
    ranking_claims,
    reduce,
    run_task,
    table1_tasks,
)


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


def test_ranking_claims_hand_table():
    t = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], "b": [2.0, 1.0, 3.0, 4.0, 5.0, 7.0, 6.0],
                      "c": [1.0, 1.0, 3.0, 4.0, 5.0, 6.0, 6.0]}, index=METHODS)
    c = ranking_claims(t).set_index("dataset")
    assert tuple(c.loc["a", ["HSFS best", "FOHSIC second (after HSFS)", "LDFS below LS"]]) == ("holds", "holds", "holds")
    assert tuple(c.loc["b", ["HSFS best", "FOHSIC second (after HSFS)", "LDFS below LS"]]) == ("fails", "fails", "fails")
    assert tuple(c.loc["c", ["HSFS best", "LDFS below LS"]]) == ("tie", "tie")
    # the paper's own table satisfies its claims
    paper = ranking_claims(PAPER_TABLE1)
    assert (paper["HSFS best"] == "holds").all() and (paper["LDFS below LS"] == "holds").all()

"""Tests of the geometric-ratios protocol (fsbook.experiments.geometry) on small tasks."""
import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import geometry as E
from fsbook.experiments import run_protocol


def test_scores_closed_form_and_undefined_precision():
    pred = np.array([1, 1, 0, 0, 1], bool)
    truth = np.array([1, 0, 0, 1, 1], bool)
    s = E.scores(pred, truth)
    assert s["accuracy"] == pytest.approx(3 / 5)
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 3)
    none = E.scores(np.zeros(3, bool), np.array([1, 0, 1], bool))
    assert np.isnan(none["precision"]) and none["recall"] == 0.0 and none["n_recommended"] == 0


@pytest.mark.parametrize("available,total,expected", [
    ([50, 900, 900, 900], 500, [50, 150, 150, 150]),
    ([50, 900, 900, 100], 1000, [50, 425, 425, 100]),
    ([10, 20, 30], 100, [10, 20, 30]),
    ([5, 5, 5], 7, [3, 2, 2]),
])
def test_allocate(available, total, expected):
    assert E.allocate(available, total) == expected


def test_text_problem_true_dimensions_and_disjoint_rows():
    p = E.text_problem("webtext", rows=100, cols=200, seed=0)
    sizes = [g.size for g in p["groups"]]
    # 47 of the 50 function words occur in these rows: the shortfall goes to the other types
    assert p["X"].shape == (100, 200) and sizes == [47, 51, 51, 51]
    assert np.bincount(p["y"]).tolist() == [20] * 5
    assert set(np.unique(p["X"].data)) == {1.0}
    q = E.text_problem("webtext", rows=100, cols=200, seed=1, exclude_rows=p["rows"])
    assert np.intersect1d(p["rows"], q["rows"]).size == 0
    w = E.text_problem("webtext", rows=600, cols=500, seed=0)
    assert w["X"].shape == (600, 500)             # Table 3: webtext has 500 columns
    m = E.text_problem("movies", rows=40, cols=90, seed=0)
    assert [g.size for g in m["groups"]] == [30, 30, 30] and m["X"].shape[0] == 40


def test_uci_real_values_leave_ratios_unchanged():
    p = E.uci_problem("wine", "real")
    assert p["X"].shape == (178, 13) and p["X"].min() == 0 and p["X"].max() == 1
    from fsbook.datasets import load_wine
    from fsbook.geometry import geometric_ratios
    raw = load_wine()
    y = (p["y"] == 0).astype(int)
    np.testing.assert_allclose(geometric_ratios(p["X"], y), geometric_ratios(raw.data, y))
    with pytest.raises(ValueError, match="nominal"):
        E.uci_problem("soybean_small", "real")


def test_random_column_table_none_recommended():
    suite = pd.DataFrame({"split": ["a"] * 3, "subset": ["x", "random", "x+random"],
                          "accuracy": [0.8, 0.5, 0.7], **{f"z{i}": [0.0] * 3 for i in range(1, 7)}})
    from fsbook.geometry import GeometricModel
    never = GeometricModel(0.0, np.zeros(6), -50.0, np.zeros(6))
    t = E.random_column_table(suite, never, ["x", "random"])
    assert t.loc[0, "selected"] == "none recommended" and np.isnan(t.loc[0, "gain_pp"])
    always = GeometricModel(1.0, np.zeros(6), 50.0, np.zeros(6))
    t = E.random_column_table(suite, always, ["x", "random"])
    assert t.loc[0, "selected"] == "x" and t.loc[0, "gain_pp"] == pytest.approx(10.0)
    s = E.random_summary(t)
    assert s["accuracy change from the random columns (pp)"] == pytest.approx(-10.0)


def test_protocol_tasks_and_reduce_on_small_problems():
    base = {"source": "movies", "rows": 40, "cols": 60, "seed": 0}
    tasks = [{"kind": "train", **base, "cv": 3},
             {"kind": "train", **base, "seed": 1, "cv": 3},
             {"kind": "random", "base": base, "fraction": 0.25, "seed": 0, "cv": 3}]
    res = run_protocol(E.PROTOCOL, tasks=tasks, progress=False)
    direct = E.run_task(tasks[0])
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
    html = E.render(t["table3"], "Table 3").to_html()
    assert "Table 3" in html and "—" in html and "nan" not in html.lower().replace("nan;", "")


def test_make_tasks_cover_every_table():
    for full in (False, True):
        tasks = E.make_tasks(full)
        kinds = {t["kind"] for t in tasks}
        assert kinds == {"train", "dimension", "uci", "random", "growth"}
        dims = [t["dimension"] for t in tasks if t["kind"] == "dimension"]
        assert set(dims) <= set(E.PAPER["table5"].index)
    assert len([t for t in E.make_tasks(True) if t["kind"] == "dimension"]) == 7

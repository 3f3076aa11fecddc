"""Tests of the geometric-ratios protocol helpers (fsbook.experiments.geometry)."""
import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import geometry as E
from fsbook.geometry import paper_model


def test_scores_closed_form():
    pred = np.array([1, 1, 0, 0, 1], bool)
    truth = np.array([1, 0, 0, 1, 1], bool)
    s = E.scores(pred, truth)
    assert s["accuracy"] == pytest.approx(3 / 5)
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 3)
    assert E.scores(np.zeros(3, bool), np.ones(3, bool))["precision"] == 0.0


def test_text_problem_shapes_and_disjoint_rows():
    p = E.text_problem("webtext", rows=100, cols=200, seed=0)
    assert p["X"].shape == (100, sum(g.size for g in p["groups"]))
    assert len(p["groups"]) == 4 and np.bincount(p["y"]).tolist() == [20] * 5
    assert set(np.unique(p["X"].data)) == {1.0}
    q = E.text_problem("webtext", rows=100, cols=200, seed=1, exclude_rows=p["rows"])
    assert np.intersect1d(p["rows"], q["rows"]).size == 0
    m = E.text_problem("movies", rows=40, cols=90, seed=0)
    assert [g.size for g in m["groups"]] == [30, 30, 30] and m["X"].shape[0] == 40


def test_random_columns_and_growth_exponent():
    p = E.text_problem("movies", rows=40, cols=90, seed=0)
    r = E.add_random_columns(p, 0.25, seed=0)
    assert r["X"].shape[1] == 90 + 22 and r["group_names"][-1] == "random"
    assert E.growth_exponent([10, 100, 1000], [1.0, 100.0, 10000.0]) == pytest.approx(2.0)


def test_small_suite_and_random_experiment():
    p = E.text_problem("movies", rows=40, cols=60, seed=0)
    r = E.add_random_columns(p, 0.25, seed=0)
    table, suite = E.random_column_experiment(r, paper_model(), cv=3)
    assert len(suite) == 15 and len(table) == 1
    assert set(E.zcols()) <= set(suite.columns)
    st = E.figure1_stats(suite)
    assert list(st.index) == [f"f{i}" for i in range(1, 7)]
    assert isinstance(E.selector_scores(suite, paper_model()), dict)

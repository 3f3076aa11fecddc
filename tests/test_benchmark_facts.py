"""The benchmark chapter's facts: on the real store, every glue key the chapter's prose quotes
is computed (but the live rerun's two), and the numbers agree with the tables they come from;
the prose helpers on small cases whose answer is known."""
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from fsbook.experiments import benchmark as B
from fsbook.experiments import read_store
from fsbook.experiments.benchmark import facts as F
from fsbook.experiments.benchmark import tables as T
from fsbook.experiments.benchmark import words as W

CHAPTER = Path(__file__).resolve().parents[1] / "book" / "07_benchmark.ipynb"
#: the glue keys the chapter computes on the page itself (the rerun of one stored task)
LIVE = {"hkl_live_seconds", "hkl_live_verdict"}


@pytest.fixture(scope="module")
def page():
    return F.page(read_store(B.PROTOCOL))


@pytest.fixture(scope="module")
def facts(page):
    return F.facts(page)


def test_every_key_the_prose_quotes_is_a_fact(facts):
    cells = json.loads(CHAPTER.read_text())["cells"]
    quoted = {k for c in cells if c["cell_type"] == "markdown"
              for k in re.findall(r"\{glue:text\}`([^`]+)`", "".join(c["source"]))}
    assert quoted - LIVE <= set(facts)
    assert all(isinstance(v, str) and v for v in facts.values())


def test_counts_and_ranks_agree_with_the_tables(page, facts):
    per = page.claims[page.claims.dataset != ""]
    assert int(facts["overview_n"]) == len(per)
    assert sum(int(facts[f"overview_{v}"]) for v in ("holds", "fails", "no_gain", "ns")) == len(per)
    assert facts["overview_verdicts"].startswith(f"{facts['overview_holds']} hold")
    # every claim carries its declared margin; the no-gain rows are named
    assert per["margin"].notna().all()
    named = facts["margin_no_gain"]
    assert all(f"on {d}" in named for d in per.loc[per.verdict == "no gain", "dataset"])
    assert facts["n_datasets"] == str(len(B.paper.FULL_DATASETS)) and facts["cv"] == "5 × 2 CV"
    ranks = page.ranks["linear SVM"]
    assert facts["best_rank_linear"] == f"{ranks.min():.3f}"
    assert facts["n_methods"] == str(len(ranks))
    hf = page.tables["hkl_fits"]
    assert facts["hkl_n"] == str(int(hf["tasks"].sum())) == str(5 * 2 * len(B.paper.FULL_DATASETS))
    assert facts["hkl_uncertified"] == str(int(hf["tasks"].sum() - hf["certified"].sum()))


def test_page_tables_have_one_row_per_data_set(page):
    assert list(T.datasets_table().index) == list(B.paper.FULL_DATASETS)
    assert list(T.coverage_table(page.stored, page.datasets)["tasks"]) == [120] * 8
    assert T.sources_table(page.params)["tasks"].iloc[-1] == 1
    assert list(T.hkl_cost(page.params, page.results, page.datasets).index) == list(B.paper.FULL_DATASETS)
    assert set(T.settings_table()["setting"]) >= {"C grid, linear SVM", "selectors"}
    freq = T.wine_frequencies(page.tables["supports"])
    # at k = 5 each selector keeps 5 of wine's 13 features in every fold
    assert (freq.drop(index="CFS").sum(axis=1).round(9) == B.paper.RANK_K).all()


def test_prose_helpers_on_known_cases():
    rows = pd.DataFrame({"dataset": ["a", "b", "c"], "a": ["MI", "MI", "MI"],
                         "verdict": ["holds", "fails", "not separable"], "effect": [1.25, -2.0, 0.1],
                         "p_adj": [0.01, 0.02, 0.5]})
    assert W.tally(rows) == "holds on 1, fails on 1 and is not separable on 1 of 3 data sets"
    assert W.cases(rows, "holds") == "a (+1.2 points, p = 0.01)"
    assert W.cases(rows, "fails", with_method=True) == "b (MI, -2.0 points, p = 0.02)"
    assert W.cases(rows.iloc[:0], "holds") == "no data set"
    assert W.key("l1-SVM") == "l1_SVM" and W.same(0.1 + 0.2, 0.3)
    assert W.names(["none"]) == W.ALL_FEATURES


def test_settings_table_names_every_version_s_hkl_solver():
    from fsbook.experiments.benchmark.paper import HKL_SETTINGS

    assert {v["solver"] for v in HKL_SETTINGS.values()} <= set(T.HKL_SOLVER_WORDS)
    row = T.settings_table().set_index("setting").filter(like="HKL", axis=0)
    assert row.iloc[0, 0].startswith(T.HKL_SOLVER_WORDS[HKL_SETTINGS[T.VERSION]["solver"]])


def test_fit_clock_and_its_words_follow_the_version():
    import time

    from fsbook.experiments.benchmark.paper import VERSION, WALL_FIT_TIME, fit_clock, fit_time_unit

    assert VERSION not in WALL_FIT_TIME
    assert fit_clock() is time.process_time and fit_time_unit() == "CPU seconds"
    assert all(fit_clock(v) is time.perf_counter for v in WALL_FIT_TIME)


def test_by_datasets_splits_the_columns_in_the_given_order():
    table = pd.DataFrame({"d1": [12.345, 1.0], "d2": [2.0, float("nan")], "d3": [3.0, 3.0], "d4": [4.0, 4.25],
                          "d5": [5.0, 5.0], "d6": [6.0, 6.0]}, index=pd.Index(["MI", "none"], name="method"))
    # "x" is not a column: skipped; six data sets in parts of at most four: 4 + 2
    parts = F.by_datasets(table, ["d5", "d1", "x", "d2", "d3", "d4", "d6"], "Accuracy", decimals=1)
    assert [p.caption for p in parts] == ["Accuracy (part 1 of 2)", "Accuracy (part 2 of 2)"]
    assert [list(p.data.columns) for p in parts] == [["method", "d5", "d1", "d2", "d3"], ["method", "d4", "d6"]]
    # one decimal, "—" for a missing value, the methods as a column and no index shown
    assert parts[0].to_string().splitlines() == ["method d5 d1 d2 d3", "MI 5.0 12.3 2.0 3.0",
                                                 "none 5.0 1.0 — 3.0"]
    assert parts[1].to_string().splitlines()[2] == "none 4.2 6.0"          # 4.25: a half to even
    (one,) = F.by_datasets(table, ["d2", "d1"], "Accuracy", decimals=2, per=4)
    assert one.caption == "Accuracy" and one.to_string().splitlines()[1] == "MI 2.00 12.35"
    assert len(F.by_datasets(table, list(table.columns), "A", decimals=1, per=1)) == 6


def test_by_datasets_on_the_stored_stability_shows_every_value_once(page):
    st5 = page.st5
    parts = F.by_datasets(st5, page.datasets, "Stability", decimals=2)
    shown = [d for p in parts for d in p.data.columns if d != "method"]
    assert shown == [d for d in page.datasets if d in st5.columns] and len(parts) == -(-len(shown) // 4)
    for p in parts:
        assert list(p.data["method"]) == list(st5.index)
        cols = [c for c in p.data.columns if c != "method"]
        assert p.data[cols].equals(st5[cols].reset_index(drop=True).rename_axis(columns=None))

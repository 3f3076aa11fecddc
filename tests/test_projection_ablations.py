"""The ablations of chapter 1's levels: the decision rule on small synthetic stores, and the
book's setting recomputing the stored protocols' values (so the added parameters left the
protocols unchanged)."""

from types import SimpleNamespace

import numpy as np
import pytest

from fsbook.experiments import projection as ex
from fsbook.experiments import read_store
from fsbook.experiments._store import canonical_json
from fsbook.experiments.projection import ablations as ab
from fsbook.experiments.projection import text as tx


def _store(tasks):
    return SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])


def _boston(setting, run, ridge):
    d = {str(k): 0.5 for k in range(1, 14)}
    return ({"part": "boston", "setting": setting, "run": run},
            {"Ridge": {"fine": ridge, "paper": ridge - 0.01}, "PCR": d, "PLS": d})


def test_a_setting_that_brings_the_level_to_the_paper_explains_it():
    paper = ex.paper.PAPER["table1"]["mean"]["Ridge"] / 100           # 49.53 %
    tasks = [_boston("book", r, 0.60 + 0.002 * r) for r in range(6)]
    tasks += [_boston("no standardisation", r, paper + 0.001 * (r - 2.5)) for r in range(6)]
    t = ab.ablation_table(_store(tasks)).set_index("explanation")
    row = t.loc["no standardisation"]
    assert row["verdict"] == ab.EXPLAINS
    assert row["change"] > 10                               # R² points toward the paper (downwards)
    assert abs(row["gap after"]) < ex.paper.AGREEMENT_MARGIN
    # the paper's grid (read from the book's tasks) moves ridge by one point: part of the gap
    assert t.loc["the paper's α grid", "verdict"] == ab.PART
    assert t.loc["the paper's α grid", "change"] == pytest.approx(1.0)
    # explanations whose tasks are absent are left out
    assert "R² against the training mean" not in t.index


def test_a_change_away_from_the_paper_or_none_does_not_explain():
    book = np.array([8.0, 8.5, 7.9, 8.2, 8.1])                 # the paper is 12.68 %: ours below
    assert ab.decide(book, book - 1.0, 12.68)["verdict"] == ab.NOT          # away: lower still
    assert ab.decide(book, book + 0.0, 12.68)["verdict"] == ab.NOT          # no change at all
    noise = np.array([0.3, -0.2, 0.1, -0.3, 0.1])
    assert ab.decide(book, book + noise, 12.68)["verdict"] == ab.NOT        # not separable
    over = ab.decide(book, book + 15.0 + noise, 12.68)                      # past the paper's, further off
    assert over["verdict"] == ab.NOT and over["change"] > 0
    part = ab.decide(book, book + 2.0 + noise, 12.68)
    assert part["verdict"] == ab.PART and part["gap after"] == pytest.approx(book.mean() + 2.0 - 12.68)


def test_the_face_and_text_rows_pair_the_same_runs_and_pairs():
    rec = lambda e: {m: {"error": e, "C": 1.0} for m in ab.YALE_MODELS}  # noqa: E731
    tasks = [({"part": "yale", "setting": "book", "run": r, "pair": [0, p]}, rec(0.04 + 0.01 * p))
             for r in range(3) for p in (1, 2)]
    # the ablation holds one more run, and one pair less in run 2: the block is runs 0-1 x both pairs
    tasks += [({"part": "yale", "setting": "no kernel offset", "run": r, "pair": [0, p]}, rec(0.10 + 0.01 * r))
              for r in range(4) for p in (1, 2) if (r, p) != (2, 2)]
    t = ab.ablation_table(_store(tasks))
    assert set(t["explanation"]) == {"no kernel offset"} and t["runs"].tolist() == [2, 2]
    assert t["book"].iloc[0] == pytest.approx(5.5) and t["with it"].iloc[0] == pytest.approx(10.5)


def test_the_subsample_is_part_of_the_full_protocol_and_tasks_are_checked():
    full = {canonical_json(p) for p in ab.make_tasks(True)}
    assert all(canonical_json(p) in full for p in ab.make_tasks(False))
    with pytest.raises(ValueError, match="not a task"):
        ab.run_task({"part": "yale", "setting": "no such setting", "run": 0, "pair": [0, 1]})
    assert {a.setting for a in ab.ABLATIONS} <= {s for part in ab.SETTINGS.values() for s in part}


def _stored(protocol, match):
    res = read_store(protocol, allow_partial=True)
    return next(r for p, r in zip(res.params, res.results) if match(p))


def test_the_book_setting_recomputes_the_stored_protocols():
    boston = ab.run_task({"part": "boston", "setting": "book", "run": 7})
    stored = _stored(ex.PROTOCOL, lambda p: p["part"] == "boston" and p["run"] == 7)
    assert boston["Ridge"] == stored["Ridge"]
    assert all(boston["PCR"][d] == stored["PCR"][str(d)] for d in range(1, 14))
    pair = list(ab.PAIRS[True]["yale"][4])
    face = ab.run_task({"part": "yale", "setting": "book", "run": 3, "pair": pair})
    stored = _stored(ex.PROTOCOL, lambda p: p["part"] == "yale" and p["table"] == ab.YALE_TABLE
                     and p["run"] == 3 and p["pair"] == pair)
    assert all(face[m]["error"] == stored[m]["error"] and face[m]["C"] == stored[m]["C"] for m in ab.YALE_MODELS)
    pair = list(ab.PAIRS[True]["news"][3])
    text = ab.run_task({"part": "news", "setting": "book", "run": 2, "pair": pair})
    stored = _stored(tx.PROTOCOL, lambda p: p["table"] == ab.NEWS_TABLE and p["topics"] == tx.NEWS_D
                     and p["run"] == 2 and p["pair"] == pair)
    assert text["L2-LGR"]["error"] == stored["L2-LGR"]["error"] and text["L2-LGR"]["C"] == stored["L2-LGR"]["C"]


def test_the_paper_size_vocabulary_is_the_nearest_to_the_papers():
    X = ab.news_corpus(vocabulary="paper size")[0]
    assert abs(X.shape[1] - tx.PAPER_VOCABULARY) < 5
    assert ab.news_corpus()[0].shape[1] == ex.newsgroups.newsgroups_corpus()[0].shape[1]


def test_the_posts_without_headers_need_the_raw_archive(tmp_path, monkeypatch):
    from fsbook.experiments._runner import RawDataUnavailable
    monkeypatch.setenv("FSBOOK_SOURCE_DIR", str(tmp_path))
    ab._news_without_headers.cache_clear()
    ab.news_corpus.cache_clear()
    with pytest.raises(RawDataUnavailable, match="FSBOOK_SOURCE_DIR"):
        ab.run_task({"part": "news", "setting": "headers removed", "run": 0, "pair": [0, 1]})

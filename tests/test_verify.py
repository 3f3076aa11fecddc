"""``python -m fsbook.experiments verify`` covers every stored task: the turns
partition the stored tasks, a cycle of consecutive turns recomputes each task once (the ones
costing more than the budget included, alone on their turn), and a protocol with no task
recomputed is "not checked", never "OK"."""

import dataclasses
import math
import re

import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import Protocol
from fsbook.experiments import _verify as V
from fsbook.experiments._comparison import compare_results
from fsbook.experiments._store import Store, make_record, record_checksum, task_key
from fsbook.experiments._turns import Item, commit_counter, plan_turns


# ----------------------------------------------------------------------------- the plan
@pytest.mark.parametrize("seed", range(5))
def test_the_turns_partition_the_tasks_within_the_budget(seed):
    rng = np.random.default_rng(seed)
    costs = np.concatenate([rng.exponential(2.0, 300), rng.uniform(10, 40, 5)])
    items = [Item("ab"[i % 2], f"{i:04d}", float(c)) for i, c in enumerate(costs)]
    budget = 10.0
    turns = plan_turns(items, budget)
    flat = [it for turn in turns for it in turn]
    assert sorted(flat, key=lambda it: it.key) == sorted(items, key=lambda it: it.key)      # each once
    for turn in turns:
        cost = sum(it.cost for it in turn)
        assert cost <= budget or len(turn) == 1                    # a dearer task is alone on its turn
    long = [turn for turn in turns if sum(it.cost for it in turn) > budget]
    assert len(long) == int((costs > budget).sum())
    fit_total = costs[costs <= budget].sum()
    assert len(turns) - len(long) <= math.ceil(fit_total / budget) * 1.05 + 1       # nearly full turns
    # a function of the items and the budget only: the order of the items does not matter
    again = plan_turns(items[::-1], budget)
    assert [[it.key for it in t] for t in again] == [[it.key for it in t] for t in turns]
    # long turns are spread out, not bunched at one end
    where = [i for i, turn in enumerate(turns) if turn in long]
    assert where[0] > 0 and where[-1] < len(turns) - 1


def test_the_plan_refuses_a_non_positive_budget():
    with pytest.raises(ValueError, match="budget"):
        plan_turns([Item("a", "k", 1.0)], 0.0)
    assert plan_turns([], 5.0) == []


# ----------------------------------------------------------------------------- fake stores
def _protocol(name, n, calls):
    """A protocol of ``n`` tasks whose run_task records the tasks it recomputes in ``calls``."""
    def run_task(params):
        calls.append((name, params["i"]))
        return {"value": params["i"] * 0.5, "label": f"t{params['i']}"}

    return Protocol(name=name, make_tasks=lambda full: [{"i": i} for i in range(n)], run_task=run_task,
                    reduce=lambda p, r: {"t": pd.DataFrame(r)}, version="1")


def _store(root, protocol, costs):
    """A store of ``protocol`` whose records claim the given costs (seconds)."""
    records = {}
    for params, cost in zip(protocol.make_tasks(True), costs):
        key = task_key(protocol, params)
        records[key] = make_record(key, params, protocol.run_task(params), cost, {"cpu": "test", "cores": 1})
    Store(root / protocol.name, protocol).pack(records)
    return records


def _n_turns(text):
    return int(re.search(r"stored tasks in (\d+) turns", text).group(1))


def _verify(protocols, root, **kw):
    lines = []
    code = V.verify(protocols, root=root, echo=lines.append, **kw)
    return code, "\n".join(lines)


@pytest.fixture
def two_stores(tmp_path):
    """Protocol ``a``: 30 tasks of 0.1 to 3 s; ``b``: 5 tasks, one of 50 s (beyond a 10 s budget)."""
    calls = []
    a, b = _protocol("a", 30, calls), _protocol("b", 5, calls)
    _store(tmp_path, a, [0.1 * (i % 30 + 1) for i in range(30)])
    _store(tmp_path, b, [1.0, 2.0, 50.0, 0.5, 4.0])
    calls.clear()
    return a, b, calls, tmp_path


def test_a_cycle_of_consecutive_turns_recomputes_every_stored_task_once(two_stores):
    a, b, calls, root = two_stores
    code, text = _verify([a, b], root, budget_seconds=10.0, turn=0)
    n_turns = _n_turns(text)
    assert code == 0 and f"in {n_turns} turns" in text and "1 of one task costing more (up to 50 s)" in text
    seen = []
    for start in (0, 7):                                           # any n_turns consecutive turns
        calls.clear()
        for k in range(start, start + n_turns):
            code, text = _verify([a, b], root, budget_seconds=10.0, turn=k)
            assert code == 0, text
            assert f"turn {k % n_turns} of {n_turns} (--turn mod {n_turns})" in text
            assert "stored tasks recomputed this run" in text and f"cycle: {n_turns} turns" in text
        assert sorted(calls) == sorted([("a", i) for i in range(30)] + [("b", i) for i in range(5)])
        seen.append(len(calls))
    assert seen == [35, 35]


def test_a_protocol_with_no_task_recomputed_is_not_checked_never_ok(two_stores):
    a, b, calls, root = two_stores
    turns = None
    for k in range(40):
        calls.clear()
        code, text = _verify([a, b], root, budget_seconds=10.0, turn=k)
        if calls == [("b", 2)]:                                    # the 50 s task's turn: b alone
            turns = k
            break
    assert turns is not None, "the dear task's turn was not found"
    assert code == 0
    assert "a: 0 of 30 recomputed in 0.0 s, not checked" in text
    assert "b: 1 of 5 recomputed" in text and text.count(", OK") == 1
    assert "coverage: 1 of 35 stored tasks recomputed this run (2.9 %)" in text


def test_an_edited_result_of_a_task_dearer_than_the_budget_is_caught_on_its_turn(two_stores):
    """The issue's case: a stored result of a task costing far more than the budget, edited with
    its checksum recomputed, is recomputed on its turn (and by --all) and reported."""
    a, b, calls, root = two_stores
    store = Store(root / "b", b)
    records = store.load(strict=True)
    key = task_key(b, {"i": 2})
    records[key]["result"]["value"] += 0.25
    records[key]["sha256"] = record_checksum(records[key])
    store.pack(records)
    n_turns = _n_turns(_verify([a, b], root, budget_seconds=10.0, turn=0)[1])
    caught = []
    for k in range(n_turns):
        code, text = _verify([a, b], root, budget_seconds=10.0, turn=k)
        if code:
            caught.append(k)
            assert f"task {key}" in text and "MISMATCH b task" in text
            assert "value: stored 1.25, recomputed 1.0" in text
            assert "b: 1 of 5 recomputed" in text and "1 MISMATCHES" in text
    assert len(caught) == 1                                        # on its turn, once per cycle
    code, text = _verify([a, b], root, budget_seconds=10.0, all_turns=True)
    assert code == 1 and f"task {key}" in text and "coverage: 35 of 35 stored tasks recomputed" in text


def test_the_default_turn_follows_the_commit_counter(two_stores, monkeypatch):
    a, b, calls, root = two_stores
    monkeypatch.setattr(V, "commit_counter", lambda: (1234, "commit count 1234 of HEAD"))
    code, text = _verify([a, b], root, budget_seconds=10.0)
    n_turns = _n_turns(text)
    assert f"turn {1234 % n_turns} of {n_turns} (commit count 1234 of HEAD mod {n_turns})" in text
    assert f"rerun it with --turn {1234 % n_turns}" in text


def test_the_real_commit_counter_counts_commits_or_days():
    counter, source = commit_counter()
    assert counter > 0 and ("commit count" in source or "day" in source)


def test_a_failing_recomputation_is_a_reported_mismatch_not_a_crash(two_stores):
    a, b, calls, root = two_stores

    def broken(params):
        raise ArithmeticError("no longer runs")

    code, text = _verify([dataclasses.replace(a, run_task=broken), b], root, budget_seconds=1e6, turn=0)
    assert code == 1 and "recomputation failed: ArithmeticError: no longer runs" in text
    assert "a: 30 of 30 recomputed" in text and "30 MISMATCHES" in text


def test_a_task_whose_raw_data_is_missing_is_skipped_not_a_mismatch(two_stores):
    from fsbook.experiments._runner import RawDataUnavailable
    a, b, calls, root = two_stores

    def needs_raw(params):
        if params["i"] % 2:
            raise RawDataUnavailable("no archive here")
        return a.run_task(params)

    code, text = _verify([dataclasses.replace(a, run_task=needs_raw), b], root, budget_seconds=1e6, turn=0)
    assert code == 0 and "MISMATCH" not in text
    assert "a: 15 of 30 recomputed" in text and "(15 skipped: their raw data is not on this machine), OK" in text


# ----------------------------------------------------------------------------- timings
def test_a_field_named_for_a_matrix_s_is_compared_not_taken_for_a_timing():
    stored = {"lp_full": {"size_S": 12, "min_eig_S": -0.25, "fit_time": 1.0}, "cpu_seconds": 3.0}
    fresh = {"lp_full": {"size_S": 13, "min_eig_S": 0.5, "fit_time": 7.0}, "cpu_seconds": 9.0}
    lines = compare_results(stored, fresh)
    assert [line.split(":")[0] for line in lines] == ["lp_full.min_eig_S", "lp_full.size_S"]


@pytest.mark.parametrize("name", ["fit_time", "times", "seconds", "cpu_seconds", "ratios_cpu_s", "elapsed",
                                  "wall_duration", "runtime"])
def test_the_stores_timing_fields_are_still_skipped(name):
    assert compare_results({name: 1.0}, {name: 2.0}) == []

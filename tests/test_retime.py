"""Re-timing a store (fsbook.experiments._retime): CPU times added, results kept bit for bit, a
disagreeing recomputation reported and left as stored, a CPU budget that stops and resumes."""
import pytest

from fsbook.experiments import __main__ as cli
from fsbook.experiments import run_protocol
from fsbook.experiments._example import PROTOCOL as EXAMPLE
from fsbook.experiments._retime import retime
from fsbook.experiments._store import Store, make_record


def _wall_only_store(tmp_path, tamper=None):
    """The template's subsample stored as records of the old kind (wall time only); ``tamper``
    changes one stored result."""
    folder = tmp_path / EXAMPLE.name
    run_protocol(EXAMPLE, full=False, out=folder, progress=False)
    store = Store(folder, EXAMPLE)
    old = {}
    for i, (k, rec) in enumerate(sorted(store.load().items())):
        result = dict(rec["result"])
        if tamper is not None and i == tamper:
            result["OLS"] += 0.5
        old[k] = make_record(k, rec["params"], result, rec["seconds"], rec["machine"])
    store.pack(old)
    return store, old


def test_retime_adds_cpu_time_and_keeps_every_result(tmp_path):
    store, old = _wall_only_store(tmp_path)
    r = retime(EXAMPLE, tmp_path, progress=False, echo=lambda *_: None)
    new = store.load(strict=True, audit=True)
    assert r["retimed"] == len(old) and r["left"] == 0 and not r["mismatched"]
    assert all(new[k]["result"] == old[k]["result"] and new[k]["cpu_seconds"] >= 0 for k in old)
    assert retime(EXAMPLE, tmp_path, progress=False)["retimed"] == 0      # nothing left to re-time


def test_a_disagreeing_task_is_reported_and_kept_as_stored(tmp_path):
    store, old = _wall_only_store(tmp_path, tamper=2)
    messages = []
    r = retime(EXAMPLE, tmp_path, progress=False, echo=messages.append)
    bad = sorted(old)[2]
    assert r["mismatched"] == [bad] and r["left"] == 1 and "OLS" in messages[0]
    assert store.load()[bad] == old[bad]


def test_a_cpu_budget_stops_early_and_the_next_run_resumes(tmp_path):
    _wall_only_store(tmp_path)
    first = retime(EXAMPLE, tmp_path, cpu_budget_seconds=0.0, progress=False)
    assert first["retimed"] == 0 and first["left"] == 6
    assert cli.main(["retime", EXAMPLE.name, "--root", str(tmp_path), "--quiet"]) == 0
    assert retime(EXAMPLE, tmp_path, progress=False)["left"] == 0


def test_retime_exits_1_when_a_task_disagrees(tmp_path, capsys):
    _wall_only_store(tmp_path, tamper=0)
    assert cli.main(["retime", EXAMPLE.name, "--root", str(tmp_path), "--quiet"]) == 1
    assert "1 disagree (kept as stored)" in capsys.readouterr().out


def test_unknown_protocol_is_refused():
    with pytest.raises((ValueError, ModuleNotFoundError, LookupError)):
        retime("nosuch", progress=False)


def test_a_store_whose_results_hold_timings_is_refused(tmp_path):
    from dataclasses import replace

    timed = replace(EXAMPLE, run_task=lambda p: {**EXAMPLE.run_task(p), "fit_seconds": 0.5})
    run_protocol(timed, full=False, out=tmp_path / EXAMPLE.name, progress=False)
    with pytest.raises(ValueError, match="results hold timings"):
        retime(timed, tmp_path, progress=False)

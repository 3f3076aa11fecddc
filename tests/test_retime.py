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


def _timed_store(tmp_path):
    """The template's subsample as the runner stores it: every record with a CPU time (a marker
    value, so that a re-timed record can be told apart)."""
    folder = tmp_path / EXAMPLE.name
    run_protocol(EXAMPLE, full=False, out=folder, progress=False)
    store = Store(folder, EXAMPLE)
    old = {k: make_record(k, rec["params"], rec["result"], 99.0, rec["machine"], cpu_seconds=99.0)
           for k, rec in store.load().items()}
    store.pack(old)
    return store, old


def test_again_retimes_records_that_hold_a_cpu_time_and_only_selects_by_parameter(tmp_path):
    store, old = _timed_store(tmp_path)
    assert retime(EXAMPLE, tmp_path, progress=False)["retimed"] == 0              # all hold a CPU time
    r = retime(EXAMPLE, tmp_path, progress=False, again=True, only={"noise": [2.0]})
    new = store.load(strict=True, audit=True)
    noisy = {k for k, rec in old.items() if rec["params"]["noise"] == 2.0}
    assert r["retimed"] == len(noisy) == 3 and r["left"] == 0 and not store.journal_path.exists()
    assert all((new[k]["cpu_seconds"] != 99.0) == (k in noisy) for k in old)
    assert all(new[k]["result"] == old[k]["result"] for k in old)
    with pytest.raises(ValueError, match="no stored task has"):
        retime(EXAMPLE, tmp_path, progress=False, again=True, only={"noise": [7.0]})


def test_an_interrupted_again_run_keeps_its_journal_and_the_next_one_finishes(tmp_path):
    store, old = _timed_store(tmp_path)
    first = retime(EXAMPLE, tmp_path, cpu_budget_seconds=1e-9, progress=False, again=True)
    assert first["retimed"] == 1 and first["left"] == 5 and store.journal_path.exists()
    assert len(store.load()) == len(old)                                          # pack + journal
    assert cli.main(["retime", EXAMPLE.name, "--root", str(tmp_path), "--quiet", "--again"]) == 0
    new = store.load(strict=True, audit=True)
    assert not store.journal_path.exists() and all(new[k]["cpu_seconds"] != 99.0 for k in old)


def test_again_takes_the_fresh_measurements_a_result_holds_and_the_stored_rest(tmp_path):
    from dataclasses import replace

    calls = []

    def run_task(p):
        calls.append(1)
        return {**EXAMPLE.run_task(p), "fit_time": [0.5 * len(calls)], "peak_mib": 10.0 * len(calls)}

    timed = replace(EXAMPLE, run_task=run_task, tolerances={"peak_mib": None})
    store = Store(tmp_path / EXAMPLE.name, timed)
    run_protocol(timed, full=False, out=store.folder, progress=False)
    old = store.load()
    r = retime(timed, tmp_path, progress=False, again=True)
    new = store.load(strict=True, audit=True)
    assert r["retimed"] == len(old) and not r["mismatched"]
    for k, rec in old.items():
        fresh, kept = new[k]["result"], rec["result"]
        assert fresh["fit_time"] != kept["fit_time"] and fresh["peak_mib"] != kept["peak_mib"]
        assert {f: v for f, v in fresh.items() if f not in ("fit_time", "peak_mib")} == \
            {f: v for f, v in kept.items() if f not in ("fit_time", "peak_mib")}

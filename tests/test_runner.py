"""The shared experiment runner: hashing, resume, corruption, determinism across backends, CLI."""

import dataclasses
import hashlib
import json
import sys
import types

import numpy as np
import pandas as pd
import pytest

import fsbook
from fsbook.experiments import Protocol, read_results, run_protocol, task_seed
from fsbook.experiments import __main__ as cli
from fsbook.experiments._example import PROTOCOL as EXAMPLE
from fsbook.experiments._runner import canonical_json, read_task_file, task_key, to_jsonable


# ----------------------------------------------------------------------------- hashing
def test_task_seed_is_a_fixed_function_of_the_canonical_params():
    p = {"b": 2, "a": [1.5, 2.5], "name": "x"}
    # SHA-256 of the canonical JSON (sorted keys, no spaces): the same on every machine
    digest = hashlib.sha256(b'{"a":[1.5,2.5],"b":2,"name":"x"}\x00').digest()
    assert task_seed(p) == int.from_bytes(digest[:4], "big") & 0x7FFFFFFF == 1226221828
    assert task_seed({"name": "x", "a": (1.5, 2.5), "b": 2}) == task_seed(p)      # key order, tuple
    assert task_seed({"b": np.int64(2), "a": np.array([1.5, 2.5]), "name": "x"}) == task_seed(p)
    assert 0 <= task_seed(p) < 2 ** 31


@pytest.mark.parametrize("change", [{"b": 3}, {"a": [1, 2.0]}, {"name": "y"}, {"extra": None}])
def test_task_seed_changes_with_any_param(change):
    p = {"b": 2, "a": [1.5, 2.5], "name": "x"}
    assert task_seed({**p, **change}) != task_seed(p)
    assert task_seed(p, salt="cv") != task_seed(p)


def test_task_key_depends_on_params_protocol_version_and_package_version(monkeypatch):
    p = {"noise": 0.5, "rep": 0}
    k = task_key(EXAMPLE, p)
    assert k == task_key(EXAMPLE, {"rep": 0, "noise": 0.5})
    assert k != task_key(EXAMPLE, {"noise": 0.5, "rep": 1})
    assert k != task_key(dataclasses.replace(EXAMPLE, version="2"), p)
    assert k != task_key(dataclasses.replace(EXAMPLE, name="other"), p)
    monkeypatch.setattr(fsbook, "__version__", "999")
    assert k != task_key(EXAMPLE, p)


def test_canonical_json_rejects_objects_and_maps_nan_to_null():
    assert canonical_json({"x": float("nan"), 1: np.float32(0.5)}) == '{"1":0.5,"x":null}'
    assert to_jsonable((np.bool_(True), np.inf)) == [True, None]
    with pytest.raises(TypeError, match="not JSON-serialisable"):
        canonical_json({"f": object()})


# ----------------------------------------------------------------------------- resume
def _task_files(out):
    return sorted((out / "tasks").glob("*.json"))


def test_resume_after_a_deleted_task_file(tmp_path):
    first = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    files = _task_files(tmp_path)
    assert first.n_computed == len(files) == len(EXAMPLE.make_tasks(False)) and first.n_cached == 0
    again = run_protocol(EXAMPLE, out=tmp_path, progress=False)        # finished: only re-reduces
    assert (again.n_computed, again.n_cached) == (0, len(files))
    files[2].unlink()                                                   # interrupted before task 2
    resumed = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert (resumed.n_computed, resumed.n_cached) == (1, len(files) - 1)
    assert files[2].exists()
    pd.testing.assert_frame_equal(resumed.tables["r2"], first.tables["r2"], check_exact=True)
    assert resumed.results == first.results


@pytest.mark.parametrize("damage", ["truncate", "tamper", "other-params", "garbage"])
def test_a_damaged_task_file_is_detected_and_recomputed(tmp_path, damage):
    first = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    victim = _task_files(tmp_path)[1]
    text = victim.read_text()
    if damage == "truncate":
        victim.write_text(text[: len(text) // 2])
    elif damage == "garbage":
        victim.write_bytes(b"\x00\xff" * 10)
    else:
        record = json.loads(text)
        if damage == "tamper":                  # a plausible but altered result
            record["result"]["Ridge"] = 0.123
        else:                                   # a consistent record of another task
            record["params"]["rep"] = 99
            from fsbook.experiments._runner import _task_checksum
            record["sha256"] = _task_checksum(record["params"], record["result"])
        victim.write_text(json.dumps(record))
    with pytest.warns(RuntimeWarning, match="recomputing"):
        resumed = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert resumed.n_computed == 1
    assert resumed.results == first.results
    params = resumed.params[[task_key(EXAMPLE, p) for p in resumed.params].index(victim.stem)]
    assert read_task_file(victim, params) == json.loads(text)["result"]   # repaired on disk


def test_no_resume_recomputes_everything(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path, progress=False)
    res = run_protocol(EXAMPLE, out=tmp_path, resume=False, progress=False)
    assert (res.n_computed, res.n_cached) == (len(res.params), 0)


def _fail_on_rep_2(params):
    if params["rep"] == 2:
        raise ValueError("boom")
    return EXAMPLE.run_task(params)


def test_a_failing_task_names_its_params_and_keeps_the_finished_ones(tmp_path):
    broken = dataclasses.replace(EXAMPLE, run_task=_fail_on_rep_2)
    with pytest.raises(RuntimeError, match=r'boom') as info:
        run_protocol(broken, out=tmp_path, progress=False)
    assert '"rep":2' in str(info.value)
    assert len(_task_files(tmp_path)) == 2          # tasks 0 and 1 finished before the failure
    res = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert (res.n_cached, res.n_computed) == (2, len(res.params) - 2)


def test_combined_results_file_round_trips(tmp_path):
    res = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    rec = read_results(res.path)
    assert rec["protocol"] == "_example" and rec["params"] == res.params and rec["results"] == res.results
    pd.testing.assert_frame_equal(rec["tables"]["r2"], res.tables["r2"], check_names=False,
                                  check_index_type=False)


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(ValueError, match="same task parameters twice"):
        run_protocol(EXAMPLE, tasks=[{"n": 30, "p": 10, "noise": 1.0, "rep": 0}] * 2, progress=False)
    with pytest.raises(ValueError, match="backend"):
        run_protocol(EXAMPLE, backend="threads", progress=False)
    with pytest.raises(ValueError, match="n_jobs"):
        run_protocol(EXAMPLE, n_jobs=0, progress=False)
    with pytest.raises(ValueError, match="scheduler"):
        run_protocol(EXAMPLE, scheduler="tcp://127.0.0.1:1", progress=False)


# ----------------------------------------------------------------------------- determinism
def test_identical_tables_in_process_on_loky_and_on_a_local_dask_cluster():
    serial = run_protocol(EXAMPLE, n_jobs=1, progress=False)
    loky = run_protocol(EXAMPLE, n_jobs=2, backend="loky", progress=False)
    dask = run_protocol(EXAMPLE, n_jobs=2, backend="dask", progress=False)   # 2-worker LocalCluster
    for other in (loky, dask):
        assert other.results == serial.results
        pd.testing.assert_frame_equal(other.tables["r2"], serial.tables["r2"], check_exact=True)


def test_task_order_does_not_change_the_results():
    tasks = EXAMPLE.make_tasks(False)
    fwd = run_protocol(EXAMPLE, tasks=tasks, progress=False)
    rev = run_protocol(EXAMPLE, tasks=tasks[::-1], progress=False)
    assert fwd.results == rev.results[::-1]


# ----------------------------------------------------------------------------- CLI
def test_cli_runs_a_protocol_resumes_and_filters(tmp_path, capsys):
    out = tmp_path / "ex"
    assert cli.run(EXAMPLE, ["--out", str(out), "--only", "noise=0.5", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "== r2" in text and "3 tasks computed, 0 read back" in text
    assert cli.run(EXAMPLE, ["--out", str(out), "--quiet"]) == 0
    assert "3 tasks computed, 3 read back" in capsys.readouterr().out
    assert cli.run(EXAMPLE, ["--out", str(out), "--quiet", "--no-resume"]) == 0
    assert "6 tasks computed, 0 read back" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.run(EXAMPLE, ["--only", "nosuchparam=1"])


def test_cli_lists_and_dispatches_protocols(monkeypatch, capsys):
    assert cli.main(["--help"]) == 0
    assert "projection" in capsys.readouterr().out
    assert cli.main(["_example"]) == 2                       # private modules are not protocols
    assert cli.main(["nope"]) == 2
    # a module with PROTOCOL runs through the runner; one with only main(argv) gets its argv
    calls = []
    legacy = types.ModuleType("fsbook.experiments.legacy")
    legacy.main = lambda argv: calls.append(argv) or 0
    ported = types.ModuleType("fsbook.experiments.ported")
    ported.PROTOCOL = EXAMPLE
    monkeypatch.setitem(sys.modules, "fsbook.experiments.legacy", legacy)
    monkeypatch.setitem(sys.modules, "fsbook.experiments.ported", ported)
    monkeypatch.setattr(cli, "available_protocols", lambda: ["legacy", "ported"])
    assert cli.main(["legacy", "--full", "--x"]) == 0 and calls == [["--full", "--x"]]
    with pytest.raises(SystemExit) as info:
        cli.main(["ported", "--help"])
    assert info.value.code == 0 and "--scheduler" in capsys.readouterr().out


def test_cli_is_reachable_from_the_top_level_command(capsys):
    from fsbook.__main__ import main as fsbook_main
    assert fsbook_main(["experiments", "--help"]) == 0
    assert "protocols:" in capsys.readouterr().out

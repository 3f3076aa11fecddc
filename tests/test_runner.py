"""The shared experiment runner: hashing, resume, corruption, determinism across backends, CLI."""

import dataclasses
import gzip
import hashlib
import json
import sys
import types

import numpy as np
import pandas as pd
import pytest

import fsbook
from fsbook.experiments import StoreError, read_results, run_protocol, stored_flags, task_seed
from fsbook.experiments import __main__ as cli
from fsbook.experiments._example import PROTOCOL as EXAMPLE
from fsbook.experiments._store import (
    Store,
    canonical_json,
    key_of_canonical,
    make_record,
    record_checksum,
    task_key,
    to_jsonable,
)


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


def test_task_key_depends_on_params_protocol_and_version_not_on_the_package_version(monkeypatch):
    p = {"noise": 0.5, "rep": 0}
    k = task_key(EXAMPLE, p)
    assert k == task_key(EXAMPLE, {"rep": 0, "noise": 0.5})
    assert k != task_key(EXAMPLE, {"noise": 0.5, "rep": 1})
    assert k != task_key(dataclasses.replace(EXAMPLE, version="3"), p)
    assert k != task_key(dataclasses.replace(EXAMPLE, name="other"), p)
    # SHA-256 of the canonical {"params", "protocol", "version"}, first 32 hex digits
    text = f'{{"params":{{"noise":0.5,"rep":0}},"protocol":"_example","version":"{EXAMPLE.version}"}}'
    assert k == hashlib.sha256(text.encode()).hexdigest()[:32]
    assert key_of_canonical(EXAMPLE, [canonical_json(p), canonical_json({"rep": 1})]) == \
        [k, task_key(EXAMPLE, {"rep": 1})]
    monkeypatch.setattr(fsbook, "__version__", "999")
    assert k == task_key(EXAMPLE, p)


@pytest.mark.parametrize("obj", [
    {"b": 2, "a": [1.5, (2, "x")], "c": None, "d": True},          # plain: the fast path
    {1: "int key", 2.5: "float key", "s": -0.0},
    {"x": np.float64(0.1), "y": 1e300, "z": "true", "w": {"null": 1}},
    {True: 1, False: 2}, {None: 3}, {"a": {True: [1]}},              # keys spelt "True" by to_jsonable
    {"n": np.int64(3), "v": np.arange(3), "b": np.bool_(False)},    # NumPy: the reference path
    {"nan": float("nan"), "inf": [np.inf]}, {1: "a", "b": 2},       # non-finite, mixed key types
])
def test_canonical_json_fast_path_equals_the_reference(obj):
    reference = json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)
    assert canonical_json(obj) == reference


def test_canonical_json_rejects_objects_and_maps_nan_to_null():
    assert canonical_json({"x": float("nan"), 1: np.float32(0.5)}) == '{"1":0.5,"x":null}'
    assert to_jsonable((np.bool_(True), np.inf)) == [True, None]
    with pytest.raises(TypeError, match="not JSON-serialisable"):
        canonical_json({"f": object()})


# ----------------------------------------------------------------------------- resume
def _store(out, protocol=EXAMPLE):
    return Store(out, protocol)


def _stored(out, protocol=EXAMPLE):
    return _store(out, protocol).load(strict=True)


def _edit_pack(out, edit, protocol=EXAMPLE):
    """Apply ``edit(record)`` to the first record of the pack in place, as a hand edit or a
    damaged disk would: the header (and its hash of the body) is left as it was."""
    pack = _store(out, protocol).pack_path
    lines = gzip.decompress(pack.read_bytes()).decode().splitlines()
    key = json.loads(lines[0])["keys"][0]
    record = {"key": key, **json.loads(lines[1])}
    edit(record)
    lines[1] = json.dumps({f: v for f, v in record.items() if f != "key"})
    pack.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    return key


def test_resume_after_a_lost_task(tmp_path):
    first = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    records = _stored(tmp_path)
    assert first.n_computed == len(records) == len(EXAMPLE.make_tasks(False)) and first.n_cached == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        [".lock", "results.json", f"tasks-v{EXAMPLE.version}.jsonl.gz"]
    again = run_protocol(EXAMPLE, out=tmp_path, progress=False)        # finished: only re-reduces
    assert (again.n_computed, again.n_cached) == (0, len(records))
    lost = sorted(records)[2]
    del records[lost]
    _store(tmp_path).pack(records)                                     # interrupted before that task
    resumed = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert (resumed.n_computed, resumed.n_cached) == (1, len(records))
    assert lost in _stored(tmp_path)
    pd.testing.assert_frame_equal(resumed.tables["r2"], first.tables["r2"], check_exact=True)
    assert resumed.results == first.results


def test_records_carry_cost_machine_and_checksum(tmp_path):
    res = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    stored = _stored(tmp_path)
    for i, params in enumerate(res.params):
        rec = stored[task_key(EXAMPLE, params)]
        assert rec["params"] == params and rec["result"] == res.results[i]
        assert rec["seconds"] == res.seconds[i] >= 0 and rec["machine"] == res.machines[i]
        assert rec["machine"]["cores"] >= 1 and rec["package"] == fsbook.__version__
        assert rec["sha256"] == record_checksum(rec)
    again = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert again.seconds == res.seconds and again.machines == res.machines


def _timed_task(params):
    """Sleep (wall time, hardly any CPU) or burn the CPU (CPU time ≈ wall time) for ``s`` seconds."""
    import time

    if params["kind"] == "sleep":
        time.sleep(params["s"])
    else:
        end = time.process_time() + params["s"]
        while time.process_time() < end:
            pass
    return {"kind": params["kind"]}


TIMED = dataclasses.replace(EXAMPLE, name="_timed", run_task=_timed_task,
                            reduce=lambda params, results: {})


@pytest.mark.parametrize("n_jobs, backend", [(1, "loky"), (2, "loky"), (2, "dask")])
def test_records_carry_the_tasks_cpu_time_beside_their_wall_time(tmp_path, n_jobs, backend):
    """Measured on the worker that ran the task (in this process, a loky process, a Dask worker):
    a sleeping task records wall time and almost no CPU time; a task burning 0.3 s of CPU records
    at least that, and no more than its wall time (one thread)."""
    tasks = [{"kind": "sleep", "s": 0.3}, {"kind": "burn", "s": 0.3}]
    res = run_protocol(TIMED, tasks=tasks, out=tmp_path, n_jobs=n_jobs, backend=backend, progress=False)
    stored = _stored(tmp_path, TIMED)
    for i, params in enumerate(res.params):
        rec = stored[task_key(TIMED, params)]
        assert rec["cpu_seconds"] == res.cpu_seconds[i] and rec["seconds"] == res.seconds[i]
        assert rec["sha256"] == record_checksum(rec)            # the checksum covers cpu_seconds
    (sleep_wall, burn_wall), (sleep_cpu, burn_cpu) = res.seconds, res.cpu_seconds
    assert sleep_wall >= 0.3 and sleep_cpu < 0.1
    assert 0.3 <= burn_cpu <= burn_wall + 0.01
    assert sleep_cpu / sleep_wall < burn_cpu / burn_wall
    again = run_protocol(TIMED, tasks=tasks, out=tmp_path, progress=False)     # read back from the store
    assert again.n_computed == 0 and again.cpu_seconds == res.cpu_seconds


def test_no_cpu_time_is_recorded_where_the_process_runs_tasks_side_by_side(monkeypatch):
    """On a Dask worker of several threads the process time would count the other tasks."""
    from fsbook.experiments._workers import call_task

    worker = types.SimpleNamespace(state=types.SimpleNamespace(nthreads=2))
    monkeypatch.setitem(sys.modules, "distributed", types.SimpleNamespace(get_worker=lambda: worker))
    assert call_task(_timed_task, 0, {"kind": "burn", "s": 0.01})[3] is None
    worker.state.nthreads = 1
    assert call_task(_timed_task, 0, {"kind": "burn", "s": 0.01})[3] >= 0.01


def test_the_pack_is_deterministic_and_sorted(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path / "a", progress=False)
    pack = tmp_path / "a" / f"tasks-v{EXAMPLE.version}.jsonl.gz"
    records = _stored(tmp_path / "a")
    _store(tmp_path / "b").pack(dict(reversed(list(records.items()))))
    assert (tmp_path / "b" / pack.name).read_bytes() == pack.read_bytes()
    lines = gzip.decompress(pack.read_bytes()).decode().splitlines()
    header, keys = json.loads(lines[0]), sorted(records)
    body = "".join(line + "\n" for line in lines[1:]).encode()
    digest = hashlib.sha256((json.dumps(keys, separators=(",", ":")) + "\n").encode() + body).hexdigest()
    assert header == {"format": "fsbook-store/1", "protocol": "_example", "version": EXAMPLE.version,
                      "n_tasks": len(records), "keys": keys, "sha256": digest}
    assert [{"key": k, **json.loads(line)} for k, line in zip(keys, lines[1:])] == [records[k] for k in keys]


def test_an_interrupted_run_keeps_its_journal_and_the_next_run_packs_it(tmp_path):
    """Records are journaled as tasks finish; a crash (no packing) loses at most the task in
    flight, including a half-written journal line."""
    params = [{"n": 30, "p": 10, "noise": 0.5, "rep": r} for r in range(3)]
    store = _store(tmp_path)
    for p in params[:2]:
        store.append(make_record(task_key(EXAMPLE, p), p, EXAMPLE.run_task(p), 0.01, {"cpu": "x", "cores": 1}))
    with open(store.journal_path, "ab") as f:
        f.write(b'{"key":"half a line')                                  # killed mid-write
    with pytest.warns(RuntimeWarning, match="recomputing"):
        res = run_protocol(EXAMPLE, tasks=params, out=tmp_path, progress=False)
    assert (res.n_cached, res.n_computed) == (2, 1)
    assert not store.journal_path.exists() and len(_stored(tmp_path)) == 3
    # appending after a torn line starts a new line: the record after it is read back
    store.append(make_record("0" * 32, {}, {}, 0.0, {}))
    store.journal_path.write_bytes(b'{"torn' + store.journal_path.read_bytes())
    with open(store.journal_path, "ab") as f:
        f.write(b'{"torn again')
    store.append(make_record(task_key(EXAMPLE, params[0]), params[0], {"x": 1}, 0.0, {}))
    with pytest.warns(RuntimeWarning):
        assert store.load()[task_key(EXAMPLE, params[0])]["result"] == {"x": 1}     # the journal wins


@pytest.mark.parametrize("damage", ["tamper", "other-params"])
def test_a_damaged_record_is_detected_and_recomputed(tmp_path, damage):
    first = run_protocol(EXAMPLE, out=tmp_path, progress=False)

    def edit(rec):
        if damage == "tamper":                  # a plausible but altered result, old checksum
            rec["result"]["Ridge"] = 0.123
        else:                                   # a consistent record of another task
            rec["params"]["rep"] = 99
            rec["sha256"] = record_checksum(rec)

    victim = _edit_pack(tmp_path, edit)
    with pytest.raises(ValueError):
        _stored(tmp_path)
    with pytest.warns(RuntimeWarning, match="recomputing"):
        resumed = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert resumed.n_computed == 1
    assert resumed.results == first.results
    assert _stored(tmp_path)[victim]["result"] == first.results[[task_key(EXAMPLE, p) for p in first.params].index(victim)]


def test_a_damaged_pack_is_refused(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path, progress=False)
    pack = tmp_path / f"tasks-v{EXAMPLE.version}.jsonl.gz"
    pack.write_bytes(pack.read_bytes()[:-20])
    with pytest.raises(ValueError, match="unreadable pack"):
        run_protocol(EXAMPLE, out=tmp_path, progress=False)


def test_two_runs_cannot_write_one_store_at_once(tmp_path):
    with _store(tmp_path).writing():
        with pytest.raises(StoreError, match="another run is writing the store"):
            run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert run_protocol(EXAMPLE, out=tmp_path, progress=False).n_computed == 6     # released


def test_a_store_of_the_first_runner_is_refused(tmp_path):
    (tmp_path / "tasks").mkdir()
    with pytest.raises(StoreError, match="old per-file layout"):
        run_protocol(EXAMPLE, out=tmp_path, progress=False)


def test_a_new_version_supersedes_the_old_pack(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path, progress=False)
    v9 = dataclasses.replace(EXAMPLE, version="9")
    with pytest.warns(RuntimeWarning, match="superseded"):
        res = run_protocol(v9, out=tmp_path, progress=False)
    assert res.n_computed == len(res.params)
    assert sorted(p.name for p in tmp_path.glob("tasks-v*")) == ["tasks-v9.jsonl.gz"]


def test_packing_an_older_version_keeps_a_newer_pending_store(tmp_path):
    """A store of a newer version (being built while the code still reads the older one) is
    never deleted when the older version packs."""
    v9 = dataclasses.replace(EXAMPLE, version="9")
    v10 = dataclasses.replace(EXAMPLE, version="10")
    run_protocol(v10, out=tmp_path, progress=False)
    (tmp_path / "journal-v10.jsonl").write_text("")
    run_protocol(v9, out=tmp_path, progress=False)
    assert sorted(p.name for p in tmp_path.glob("*-v*")) == [
        "journal-v10.jsonl", "tasks-v10.jsonl.gz", "tasks-v9.jsonl.gz"]


def test_no_resume_recomputes_everything_and_keeps_other_tasks(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path, full=True, progress=False)
    res = run_protocol(EXAMPLE, out=tmp_path, resume=False, progress=False)
    assert (res.n_computed, res.n_cached) == (len(res.params), 0)
    assert len(_stored(tmp_path)) == len(EXAMPLE.make_tasks(True))


def _fail_on_rep_2(params):
    if params["rep"] == 2:
        raise ValueError("boom")
    return EXAMPLE.run_task(params)


def test_a_failing_task_names_its_params_and_keeps_the_finished_ones(tmp_path):
    broken = dataclasses.replace(EXAMPLE, run_task=_fail_on_rep_2)
    with pytest.raises(RuntimeError, match=r'boom') as info:
        run_protocol(broken, out=tmp_path, progress=False)
    assert '"rep":2' in str(info.value)
    assert len(_stored(tmp_path)) == 2              # tasks 0 and 1 finished before the failure, packed
    res = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    assert (res.n_cached, res.n_computed) == (2, len(res.params) - 2)


def test_combined_results_file_round_trips(tmp_path):
    res = run_protocol(EXAMPLE, out=tmp_path, progress=False)
    rec = read_results(res.path)
    assert rec["protocol"] == "_example" and rec["n_tasks"] == len(res.params)
    assert set(rec) == {"format", "protocol", "version", "package", "full", "n_tasks", "tables"}   # no task copies
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


def test_stored_flags_compares_normalised_parameters_in_the_protocols_order():
    tasks = EXAMPLE.make_tasks(False)
    # key order, NumPy scalars and a task of another protocol do not matter
    present = [{"rep": np.int64(t["rep"]), "noise": t["noise"], "p": t["p"], "n": t["n"]}
               for t in tasks[2:]] + [{"rep": 99}]
    listed, stored = stored_flags(EXAMPLE, present, full=False)
    assert listed == [json.loads(canonical_json(t)) for t in tasks]
    assert stored == [False, False] + [True] * (len(tasks) - 2)
    assert stored_flags("_example", [], full=False)[1] == [False] * len(tasks)
    assert sum(stored_flags(EXAMPLE, present, full=True)[1]) == len(tasks) - 2   # the subsample's tasks are full ones


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
    assert cli.run(EXAMPLE, ["--out", str(out), "--quiet", "--full"]) == 0
    assert "34 tasks computed, 6 read back" in capsys.readouterr().out
    assert cli.run(EXAMPLE, ["--out", str(out), "--quiet", "--full"]) == 0
    assert "0 tasks computed, 40 read back" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.run(EXAMPLE, ["--only", "nosuchparam=1"])


def test_cli_lists_and_dispatches_protocols(monkeypatch, capsys):
    assert cli.main(["--help"]) == 0
    assert "projection" in capsys.readouterr().out
    assert cli.main(["_example"]) == 2                       # private modules are not protocols
    assert cli.main(["nope"]) == 2
    # a module with PROTOCOL runs through the runner; one without is refused (no main fallback)
    calls = []
    legacy = types.ModuleType("fsbook.experiments.legacy")
    legacy.main = lambda argv: calls.append(argv) or 0
    ported = types.ModuleType("fsbook.experiments.ported")
    ported.PROTOCOL = EXAMPLE
    monkeypatch.setitem(sys.modules, "fsbook.experiments.legacy", legacy)
    monkeypatch.setitem(sys.modules, "fsbook.experiments.ported", ported)
    monkeypatch.setattr(cli, "available_protocols", lambda: ["legacy", "ported"])
    monkeypatch.setattr(cli, "protocol_module", lambda name: f"fsbook.experiments.{name}")
    assert cli.main(["legacy", "--full", "--x"]) == 2 and calls == []
    assert "defines no PROTOCOL" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        cli.main(["ported", "--help"])
    assert info.value.code == 0 and "--scheduler" in capsys.readouterr().out


def test_cli_is_reachable_from_the_top_level_command(capsys):
    from fsbook.__main__ import main as fsbook_main
    assert fsbook_main(["experiments", "--help"]) == 0
    assert "protocols:" in capsys.readouterr().out


def test_prior_seconds_read_the_same_tasks_of_the_newest_older_version(tmp_path):
    """The progress estimate's priors: each task's recorded cost in the newest older store,
    matched by parameters (keys differ between versions); none without an older store (packing
    v2 removed v1, so v2 is the newest older version)."""
    from fsbook.experiments._progress import prior_seconds
    from fsbook.experiments._runner import task_list
    v1, v2, v3 = (dataclasses.replace(EXAMPLE, version=v) for v in ("1", "2", "3"))
    run_protocol(v1, out=tmp_path, progress=False)
    run_protocol(v2, out=tmp_path, progress=False)
    params, _ = task_list(v3, False, None)
    recorded = {canonical_json(r["params"]): r["cpu_seconds"] if r.get("cpu_seconds") is not None else r["seconds"]
                for r in Store(tmp_path, v2).load().values()}
    prior = prior_seconds(Store(tmp_path, v3), params)
    assert prior == [recorded[canonical_json(p)] for p in params]
    assert prior_seconds(Store(tmp_path / "empty", v3), params) == [None] * len(params)


def _cost_note(stored, run, run_prior, left_prior, n_jobs):
    from fsbook.experiments._progress import RunningCost

    cost = RunningCost(stored, list(left_prior) + list(run_prior), n_jobs)
    for secs, prior in zip(run, run_prior):
        cost.finish(secs, prior)
    return cost.note()


def test_running_cost_scales_the_priors_by_this_runs_costs():
    # two tasks done at twice their priors: a task left with a 20 min prior costs 40 min
    note = _cost_note([], [2.0, 4.0], [1.0, 2.0], [1200.0], 1)
    assert note == "CPU time: recorded 0 min, left ≈ 40 min (≈ 40 min wall on 1 worker)"
    # a dear task last: the mean of the cheap first tasks would say 0 min
    assert _cost_note([], [1.0], [None], [7200.0], 1).endswith("2.0 h (≈ 2.0 h wall on 1 worker)")


def _naive_cost_note(stored, run, run_prior, left_prior, workers):
    """The progress note recomputed from the whole lists (the definition, O(n) per call)."""
    from fsbook.experiments._progress import _hours

    done = sum(stored) + sum(run)
    basis = run or stored
    mean = sum(basis) / len(basis) if basis else 0.0
    head = f"CPU time: recorded {_hours(done)}"
    on = f"{workers} worker" + ("s" if workers > 1 else "")
    if any(v is not None for v in left_prior):
        pairs = [(s, v) for s, v in zip(run, run_prior) if v is not None and v > 0]
        scale = sum(s for s, _ in pairs) / sum(v for _, v in pairs) if pairs else 1.0
        left = sum(mean if v is None else v * scale for v in left_prior)
        return f"{head}, left ≈ {_hours(left)} (≈ {_hours(left / workers)} wall on {on})"
    if not basis:
        return f"{head}, left: no cost recorded yet"
    left = len(left_prior) * mean
    return f"{head}, left ≈ {_hours(left)} (≈ {_hours(left / workers)} wall on {on})"


@pytest.mark.parametrize("seed", range(5))
def test_running_cost_equals_the_note_recomputed_from_the_lists(seed):
    """The runner's O(1)-per-task totals give the note of the whole lists after every task."""
    from fsbook.experiments._progress import RunningCost

    rng = np.random.default_rng(seed)
    n = 40
    priors = [None if rng.random() < 0.3 else float(rng.choice([0.0, rng.exponential(300)])) for _ in range(n)]
    secs = rng.exponential(200, n).tolist()
    stored = rng.exponential(100, int(rng.integers(0, 5))).tolist()
    cost = RunningCost(stored, priors, n_jobs=2)
    assert cost.note() == _naive_cost_note(stored, [], [], priors, 2)
    for t in range(n):
        cost.finish(secs[t], priors[t])
        assert cost.note() == _naive_cost_note(stored, secs[:t + 1], priors[:t + 1], priors[t + 1:], 2)

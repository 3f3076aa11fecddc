"""The committed results store: reading it without computing (read_store) and verifying it by
recomputation (python -m fsbook.experiments verify)."""

import dataclasses
import hashlib
import json

import pandas as pd
import pytest
from test_runner import _edit_pack

import fsbook
from fsbook.experiments import StoreError, read_store, run_protocol
from fsbook.experiments import __main__ as cli
from fsbook.experiments._comparison import compare_results
from fsbook.experiments._example import PROTOCOL as EXAMPLE
from fsbook.experiments._reading import store_root
from fsbook.experiments._runner import load_protocol
from fsbook.experiments._store import (
    Store,
    canonical_json,
    check_record,
    make_record,
    record_checksum,
    task_key,
)
from fsbook.experiments._verify import verify

N_FULL = len(EXAMPLE.make_tasks(True))


def _never(params):
    raise AssertionError("read_store must not compute")


# ----------------------------------------------------------------------------- read_store
def test_read_store_reduces_the_stored_tasks_without_computing(tmp_path):
    ran = run_protocol(EXAMPLE, full=True, out=tmp_path, progress=False)
    res = read_store(dataclasses.replace(EXAMPLE, run_task=_never), folder=tmp_path)
    assert (res.n_computed, res.n_cached, res.n_total, res.complete) == (0, N_FULL, N_FULL, True)
    assert res.results == ran.results and res.seconds == ran.seconds and res.machines == ran.machines
    pd.testing.assert_frame_equal(res.tables["r2"], ran.tables["r2"], check_exact=True)
    sub = read_store(EXAMPLE, full=False, folder=tmp_path)          # the subsample is in the store
    assert sub.n_cached == len(EXAMPLE.make_tasks(False))


def _no_tasks(full):
    raise AssertionError("a missing store is reported before the task list is made")


def test_a_missing_store_names_the_command_that_builds_it(tmp_path):
    with pytest.raises(StoreError, match=r"no store of protocol '_example' version 2; build it with "
                                         r"`python -m fsbook\.experiments _example --full --out "):
        read_store(dataclasses.replace(EXAMPLE, make_tasks=_no_tasks), folder=tmp_path / "nothing")
    with pytest.raises(StoreError, match="--out results/_example`"):     # the repository's results/
        read_store(EXAMPLE)


def test_a_store_of_another_version_is_outdated(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path, progress=False)
    with pytest.raises(StoreError, match=r"holds version 2 of protocol '_example', the code is version 3; "
                                         r"build it with `python -m fsbook.experiments _example --full"):
        read_store(dataclasses.replace(EXAMPLE, version="3"), folder=tmp_path)


def test_a_partial_store_is_read_only_when_allowed(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path, progress=False)            # the subsample: 6 of 40 tasks
    with pytest.raises(StoreError, match=r"holds 6 of the 40 tasks .* \(--full\); build the missing ones "
                                         r"with `python -m fsbook.experiments _example --full .*allow_partial"):
        read_store(EXAMPLE, folder=tmp_path)
    part = read_store(EXAMPLE, folder=tmp_path, allow_partial=True)
    assert (part.n_cached, part.n_total, part.complete) == (6, N_FULL, False)
    sub = run_protocol(EXAMPLE, progress=False)
    pd.testing.assert_frame_equal(part.tables["r2"], sub.tables["r2"], check_exact=True)


def test_a_tampered_store_is_refused_by_the_reader_and_by_pack(tmp_path):
    run_protocol(EXAMPLE, full=True, out=tmp_path, progress=False)

    def tamper(record):
        record["result"]["OLS"] = 0.5                                   # checksum no longer matches

    key = _edit_pack(tmp_path, tamper)
    with pytest.raises(ValueError, match=f"task {key} fails its checksum"):
        read_store(EXAMPLE, folder=tmp_path)
    store = Store(tmp_path, EXAMPLE)
    with pytest.warns(RuntimeWarning, match="recomputing"):
        records = store.load()
    assert key not in records
    records[key] = {**records[next(iter(records))], "key": key}
    with pytest.raises(ValueError, match="refusing to pack"):
        store.pack(records)


# ----------------------------------------------------------------------------- comparison rule
def test_compare_rule_discrete_exact_floats_within_tolerance_timings_ignored():
    stored = {"C": 10, "ok": True, "name": "svm", "features": [3, 1, 4], "acc": 0.8, "fit_time": 1.0,
              "curve": {"k": [1, 2], "err": [0.1, 0.2]}, "nan": None, "elapsed_s": 2.0}
    same = {**stored, "acc": 0.8 * (1 + 5e-7), "fit_time": 9.0, "elapsed_s": 0.1,
            "curve": {"k": [1, 2], "err": [0.1, 0.2 + 1e-12]}}
    assert compare_results(stored, same) == []
    for field, value in [("C", 11), ("ok", False), ("name", "lr"), ("features", [3, 1, 5]),
                         ("features", [3, 1]), ("acc", 0.8 * (1 + 2e-6)), ("nan", 0.0), ("C", 10.0)]:
        diff = compare_results(stored, {**stored, field: value})
        assert len(diff) == 1 and diff[0].startswith(field), (field, diff)
    assert compare_results(stored, {**stored, "curve": {"k": [1, 2], "err": [0.1, 0.3]}}) == \
        ["curve.err[1]: stored 0.2, recomputed 0.3 (compared within rtol 1e-06, atol 1e-09)"]
    assert compare_results(stored, {**stored, "extra": 1})[0].startswith("result: stored fields")


def test_a_protocol_declares_its_own_tolerances_and_comparison():
    loose = dataclasses.replace(EXAMPLE, tolerances={"OLS": (1e-2, 0.0), "curve.*": "exact", "alpha": None})
    stored = {"OLS": 0.5, "Ridge": 0.5, "alpha": 1.0, "curve": {"err": 0.25}}
    assert compare_results(stored, {**stored, "OLS": 0.504, "alpha": 7.0}, loose) == []
    assert compare_results(stored, {**stored, "OLS": 0.51}, loose)[0].startswith("OLS")
    assert compare_results(stored, {**stored, "curve": {"err": 0.25 + 1e-15}}, loose)[0].startswith("curve.err")
    custom = dataclasses.replace(EXAMPLE, compare=lambda a, b: ["always"])
    assert compare_results(stored, stored, custom) == ["always"]


# ----------------------------------------------------------------------------- verify
def _verify(tmp_path, protocol=EXAMPLE, budget=60.0):
    lines = []
    code = verify([protocol], root=tmp_path, budget_seconds=budget, turn=123, echo=lines.append)
    return code, "\n".join(lines)


def _alter(tmp_path, field, value):
    """Alter one stored result and recompute its checksum, so only recomputation can tell."""
    store = Store(tmp_path / EXAMPLE.name, EXAMPLE)
    records = store.load(strict=True)
    key = sorted(records)[3]
    records[key]["result"][field] = value(records[key]["result"][field])
    records[key]["sha256"] = record_checksum(records[key])
    store.pack(records)
    return key


def test_verify_passes_on_a_faithful_store(tmp_path):
    run_protocol(EXAMPLE, full=True, out=tmp_path / EXAMPLE.name, progress=False)
    code, text = _verify(tmp_path)
    assert code == 0, text
    assert "turn 0 of 1 (--turn mod 1)" in text and f"recomputing {N_FULL}" in text
    assert f"_example: {N_FULL} of {N_FULL} recomputed" in text and ", OK" in text


@pytest.mark.parametrize("field, value, shown", [
    ("Ridge", lambda v: v + 1e-4, "Ridge: stored"),                       # a float beyond tolerance
    ("alpha_index", lambda v: v + 1, "alpha_index: stored"),              # a discrete result
])
def test_verify_catches_an_altered_result_with_a_valid_checksum(tmp_path, field, value, shown):
    run_protocol(EXAMPLE, full=True, out=tmp_path / EXAMPLE.name, progress=False)
    key = _alter(tmp_path, field, value)
    assert read_store(EXAMPLE, folder=tmp_path / EXAMPLE.name).n_cached == N_FULL   # looks valid
    code, text = _verify(tmp_path)
    assert code == 1
    mismatches = [line for line in text.splitlines() if line.startswith("MISMATCH")]
    assert len(mismatches) == 1 and f"task {key}" in mismatches[0] and shown in text


def test_verify_tolerates_float_noise_within_tolerance(tmp_path):
    run_protocol(EXAMPLE, full=True, out=tmp_path / EXAMPLE.name, progress=False)
    _alter(tmp_path, "Ridge", lambda v: v * (1 + 1e-9))
    assert _verify(tmp_path)[0] == 0


def test_verify_reports_an_outdated_store_with_its_build_command(tmp_path):
    run_protocol(EXAMPLE, out=tmp_path / EXAMPLE.name, progress=False)
    code, text = _verify(tmp_path, dataclasses.replace(EXAMPLE, version="3"))
    assert code == 1 and "only version 2, the code is version 3" in text
    assert "python -m fsbook.experiments _example --full --out" in text


def test_verify_recomputes_one_turn_of_a_small_budget(tmp_path):
    run_protocol(EXAMPLE, full=True, out=tmp_path / EXAMPLE.name, progress=False)
    code, text = _verify(tmp_path, budget=0.05)
    assert code == 0 and f"recomputing {N_FULL}" not in text
    code, text = _verify(tmp_path, budget=1e-6)               # every task dearer than the budget: alone
    assert code == 0 and f"{N_FULL} stored tasks in {N_FULL} turns, 0 of at most" in text
    assert "recomputing 1 " in text and f"coverage: 1 of {N_FULL} stored tasks" in text


def test_verify_and_pack_subcommands(tmp_path, capsys):
    assert cli.main(["verify", "--root", str(tmp_path), "--turn", "5"]) == 0
    assert "no store under" in capsys.readouterr().out
    run_protocol(EXAMPLE, out=tmp_path / EXAMPLE.name, progress=False)
    argv = ["verify", "--root", str(tmp_path), "--protocol", "_example", "--turn", "5"]
    assert cli.main(argv) == 0
    assert "_example: 6 of 6 recomputed" in capsys.readouterr().out
    _alter(tmp_path, "alpha_index", lambda v: v + 1)
    assert cli.main(argv) == 1
    assert "MISMATCH _example task" in capsys.readouterr().out
    store = Store(tmp_path / EXAMPLE.name, EXAMPLE)
    store.pack_path.unlink()                              # as if a run had been killed before packing
    store.journal_path.write_text("".join(canonical_json(r) + "\n" for r in _records(tmp_path / "x")))
    assert cli.main(["pack", "_example", "--root", str(tmp_path)]) == 0
    assert "_example: 6 tasks in" in capsys.readouterr().out
    assert store.pack_path.exists() and not store.journal_path.exists()
    with pytest.raises(SystemExit):
        cli.main(["verify", "--budget-seconds", "0"])


def _records(folder):
    run_protocol(EXAMPLE, out=folder, progress=False)
    return Store(folder, EXAMPLE).load(strict=True).values()


# ----------------------------------------------------------------------------- records before CPU time
def test_records_without_cpu_time_read_and_verify_beside_new_ones(tmp_path):
    """A store mixing records written before ``cpu_seconds`` existed (no such field, checksum of
    the other fields) with new ones is read, audited and verified."""
    folder = tmp_path / EXAMPLE.name
    run_protocol(EXAMPLE, full=True, out=folder, progress=False)
    store = Store(folder, EXAMPLE)
    records = store.load(strict=True)
    assert all(r["cpu_seconds"] >= 0 for r in records.values())
    old = sorted(records)[::2]
    for k in old:
        r = records[k]
        records[k] = make_record(k, r["params"], r["result"], r["seconds"], r["machine"])
        assert "cpu_seconds" not in records[k]
    store.pack(records)
    assert store.load(strict=True, audit=True) == records
    res = read_store(EXAMPLE, folder=folder)
    assert res.cpu_seconds == [records[task_key(EXAMPLE, p)].get("cpu_seconds") for p in res.params]
    assert sum(c is None for c in res.cpu_seconds) == len(old)
    code, text = _verify(tmp_path)
    assert code == 0 and f"_example: {N_FULL} of {N_FULL} recomputed" in text and ", OK" in text


def test_a_record_with_an_unknown_or_a_missing_field_is_refused():
    rec = make_record("k", {}, {}, 1.0, {}, cpu_seconds=0.5)
    for bad in ({**rec, "cpu": 0.5}, {k: v for k, v in rec.items() if k != "seconds"}):
        bad["sha256"] = record_checksum(bad)
        with pytest.raises(ValueError, match="not a task record"):
            check_record(bad)


def test_a_record_of_the_old_format_keeps_its_checksum():
    """A record written before ``cpu_seconds`` existed: its checksum is the SHA-256 of the
    canonical JSON of its six other fields, as it was, and it still checks."""
    text = ('{"key":"0123","machine":{"cores":2,"cpu":"x"},"package":"0.1","params":{"a":1},'
            '"result":{"x":0.5},"seconds":1.25}')
    old = {**json.loads(text), "sha256": hashlib.sha256(text.encode()).hexdigest()}
    assert record_checksum(old) == old["sha256"] and check_record(old) is old
    assert make_record("0123", {"a": 1}, {"x": 0.5}, 1.25, {"cpu": "x", "cores": 2})["sha256"] == \
        record_checksum({**old, "package": fsbook.__version__})


def test_a_committed_store_audits_and_repacks_to_the_same_bytes(tmp_path):
    """The committed records keep their checksums and their pack's digest: audited one by one
    and packed again, the geometry store is byte-identical."""
    committed = Store(store_root() / "geometry", load_protocol("geometry"))
    records = committed.load(strict=True, audit=True)
    assert records
    again = Store(tmp_path / "geometry", committed.protocol)
    assert again.pack(records).read_bytes() == committed.pack_path.read_bytes()

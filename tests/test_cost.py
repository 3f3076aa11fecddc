"""``python -m fsbook.experiments cost``: tasks stored and the CPU and wall-clock time recorded per store."""
import pytest

from fsbook.experiments import geometry as G
from fsbook.experiments import read_store
from fsbook.experiments.__main__ import main
from fsbook.experiments._cost import COLUMNS, cost_table
from fsbook.experiments._example import PROTOCOL as EXAMPLE
from fsbook.experiments._store import Store, make_record, task_key


def test_cost_table_sums_the_recorded_seconds_of_the_store():
    t = cost_table(names=["geometry", "l1linf"])
    assert list(t.columns) == list(COLUMNS)
    res = read_store(G.PROTOCOL)
    assert t.loc["geometry", "tasks stored"] == res.n_cached == t.loc["geometry", "tasks (full protocol)"]
    assert t.loc["geometry", "wall hours recorded"] == pytest.approx(sum(res.seconds) / 3600, rel=1e-9)
    assert t.loc["all", "wall hours recorded"] == pytest.approx(
        t.loc["geometry", "wall hours recorded"] + t.loc["l1linf", "wall hours recorded"])
    # CPU time only from the records that hold it, never from the wall time of the others
    cpu = [c for c in res.cpu_seconds if c is not None]
    assert t.loc["geometry", "tasks with CPU time"] == len(cpu)
    assert t.loc["geometry", "CPU hours recorded"] == pytest.approx(sum(cpu) / 3600, rel=1e-9)
    assert t.loc["geometry", "tasks with wall time only"] == len(res.seconds) - len(cpu)


def test_cost_counts_and_sums_a_store_of_old_and_new_records(tmp_path):
    """Old records (wall time only) and new ones (CPU time too): each kind counted, CPU hours
    summed over the new records only, wall hours over all of them."""
    tasks = EXAMPLE.make_tasks(True)[:6]
    records = {}
    for i, params in enumerate(tasks):
        key = task_key(EXAMPLE, params)
        cpu = 360.0 * (i + 1) if i < 2 else None                 # two new records: 360 s and 720 s of CPU
        wall = 3600.0 if params["rep"] != 5 else None              # one record with no time at all
        records[key] = make_record(key, params, {}, wall, {"cpu": "x", "cores": 2}, cpu_seconds=cpu)
    Store(tmp_path / EXAMPLE.name, EXAMPLE).pack(records)
    t = cost_table(tmp_path, [EXAMPLE.name])
    row = t.loc[EXAMPLE.name]
    assert (row["tasks stored"], row["tasks (full protocol)"]) == (6, len(EXAMPLE.make_tasks(True)))
    assert (row["tasks with CPU time"], row["tasks with wall time only"]) == (2, 3)
    assert row["CPU hours recorded"] == pytest.approx(0.3)
    assert row["wall hours recorded"] == pytest.approx(5.0)
    assert row["wall seconds per task"] == pytest.approx(3000.0)
    total = t.loc["all"]
    assert [total[c] for c in COLUMNS[1:]] == pytest.approx([row[c] for c in COLUMNS[1:]])


def test_cost_command_prints_the_table_and_refuses_unknown_names(capsys):
    assert main(["cost", "geometry"]) == 0
    out = capsys.readouterr().out
    assert "geometry" in out and "wall hours recorded" in out and "tasks with CPU time" in out
    assert "not CPU time" in out
    with pytest.raises(SystemExit) as e:
        main(["cost", "nosuch"])
    assert e.value.code == 2
    assert "unknown protocol 'nosuch'" in capsys.readouterr().err


def test_cost_of_a_missing_store_names_the_command(tmp_path):
    (tmp_path / "geometry").mkdir()
    with pytest.raises(FileNotFoundError, match="python -m fsbook.experiments geometry --full"):
        cost_table(tmp_path, ["geometry"])

"""scripts/record_execution.py runs a notebook and records its status and times; the execution-status
page reads the record and marks a notebook without one as not measured."""
import json
from pathlib import Path

import nbformat
import pytest
from script_loader import load_script

from fsbook.benchmark_records import book_notebooks, execution_table, record_benchmark

ROOT = Path(__file__).resolve().parents[1]


def _script():
    return load_script("record_execution")


def _values(status="ok", error=None, wall=10.0, cpu=8.0):
    return {"status": status, "error": error, "wall_seconds": wall, "cpu_seconds": cpu,
            "finished": "2026-11-29 16:00 UTC", "load_average_at_start": 2.0}


def test_a_notebook_without_a_record_is_not_measured(tmp_path):
    record_benchmark("execution", "book/a.ipynb", _values(), directory=tmp_path)
    record_benchmark("execution", "book/b.ipynb", _values("error", "ZeroDivisionError: division by zero"),
                     directory=tmp_path)
    t = execution_table(["book/a.ipynb", "book/b.ipynb", "book/c.ipynb"], directory=tmp_path)
    assert t["status"].tolist() == ["ok", "error", "not measured"]
    assert t.loc["book/a.ipynb", "wall (s)"] == "10.0" and t.loc["book/a.ipynb", "CPU (s)"] == "8.0"
    assert (t.loc["book/c.ipynb"] .drop("status") == "—").all()
    assert t.attrs["errors"] == {"book/b.ipynb": "ZeroDivisionError: division by zero"}
    assert len(t.attrs["machines"]) == 1 and "logical CPUs" in t.attrs["machines"][0]


def test_the_book_notebooks_are_those_make_execute_runs():
    found = book_notebooks()
    assert "book/using_fsbook.ipynb" in found and "book/execution_status.ipynb" in found
    assert any(p.startswith("book/gallery/") for p in found) and any(p.startswith("book/api/") for p in found)
    assert found == sorted(found)


def test_the_committed_record_names_only_book_notebooks_with_plain_values():
    path = ROOT / "benchmarks" / "results" / "execution.json"
    records = json.loads(path.read_text())
    assert set(records) <= set(book_notebooks())
    for rec in records.values():
        v = rec["values"]
        assert v["status"] in ("ok", "error")
        assert v["wall_seconds"] > 0 and v["cpu_seconds"] > 0
        assert (v["error"] is None) == (v["status"] == "ok")


@pytest.mark.parametrize("source, status", [("x = 1 + 1", "ok"), ("1 / 0", "error")])
def test_the_script_records_what_the_execution_did(tmp_path, monkeypatch, source, status):
    script = _script()
    monkeypatch.setattr(script, "RESULTS_DIR", tmp_path)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    assert script.main([str(path)]) == (0 if status == "ok" else 1)
    rec = json.loads((tmp_path / "execution.json").read_text())[path.as_posix()]
    assert rec["values"]["status"] == status
    assert rec["values"]["wall_seconds"] > 0 and rec["values"]["cpu_seconds"] > 0
    if status == "error":
        assert "ZeroDivisionError" in rec["values"]["error"]

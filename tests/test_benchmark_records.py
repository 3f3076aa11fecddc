"""Benchmark records: what ``benchmarks/*.py`` measured, read back by the chapters."""
import json

import pytest

from fsbook.benchmark_records import read_benchmark, record_benchmark


def test_record_and_read_back(tmp_path):
    record_benchmark("hkl", "a", {"ratio": 11.6, "same": True}, directory=tmp_path)
    record_benchmark("hkl", "b", {"ratio": 2.0}, directory=tmp_path)
    record_benchmark("hkl", "a", {"ratio": 12.0}, directory=tmp_path)        # replaces a
    rec = read_benchmark("hkl", "a", directory=tmp_path)
    assert rec["values"] == {"ratio": 12.0}
    assert set(rec) == {"values", "machine", "date", "commit"}
    assert set(rec["machine"]) == {"cpu", "cores"}
    assert set(json.loads((tmp_path / "hkl.json").read_text())) == {"a", "b"}


def test_missing_record_names_the_command(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"python benchmarks/hkl.py --only pair_sources"):
        read_benchmark("hkl", "pair_sources", directory=tmp_path)
    record_benchmark("hkl", "other", {}, directory=tmp_path)
    with pytest.raises(FileNotFoundError, match="section 'pair_sources'"):
        read_benchmark("hkl", "pair_sources", directory=tmp_path)


def test_non_finite_values_are_refused(tmp_path):
    with pytest.raises(ValueError):
        record_benchmark("hkl", "a", {"ratio": float("nan")}, directory=tmp_path)

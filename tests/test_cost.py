"""``python -m fsbook.experiments cost``: tasks stored and recorded CPU time per store."""
import pytest

from fsbook.experiments import geometry as G
from fsbook.experiments import read_store
from fsbook.experiments.__main__ import main
from fsbook.experiments._cost import cost_table


def test_cost_table_sums_the_recorded_seconds_of_the_store():
    t = cost_table(names=["geometry", "l1linf"])
    res = read_store(G.PROTOCOL)
    assert t.loc["geometry", "tasks stored"] == res.n_cached == t.loc["geometry", "tasks (full protocol)"]
    assert t.loc["geometry", "CPU hours recorded"] == pytest.approx(sum(res.seconds) / 3600, rel=1e-9)
    assert t.loc["all", "CPU hours recorded"] == pytest.approx(
        t.loc["geometry", "CPU hours recorded"] + t.loc["l1linf", "CPU hours recorded"])


def test_cost_command_prints_the_table_and_refuses_unknown_names(capsys):
    assert main(["cost", "geometry"]) == 0
    out = capsys.readouterr().out
    assert "geometry" in out and "CPU hours recorded" in out
    with pytest.raises(SystemExit) as e:
        main(["cost", "nosuch"])
    assert e.value.code == 2
    assert "unknown protocol 'nosuch'" in capsys.readouterr().err


def test_cost_of_a_missing_store_names_the_command(tmp_path):
    (tmp_path / "geometry").mkdir()
    with pytest.raises(FileNotFoundError, match="python -m fsbook.experiments geometry --full"):
        cost_table(tmp_path, ["geometry"])

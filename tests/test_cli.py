"""The command-line dispatchers."""

import pytest

from fsbook.__main__ import main as fsbook_main
from fsbook.experiments.__main__ import main as experiments_main


def test_experiments_help_lists_protocols(capsys):
    assert experiments_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "protocols:" in out and "projection" in out
    assert "experiments verify [--budget-seconds S]" in out and "experiments pack" in out


def test_verify_help_documents_budget_and_seed(capsys):
    with pytest.raises(SystemExit) as info:
        experiments_main(["verify", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "--budget-seconds" in out and "--seed" in out


def test_unknown_protocol_is_a_usage_error(capsys):
    assert experiments_main(["no-such-protocol"]) == 2
    assert "unknown protocol" in capsys.readouterr().err


@pytest.mark.parametrize("argv, code", [([], 0), (["--help"], 0), (["bogus"], 2)])
def test_top_level_usage(argv, code, capsys):
    assert fsbook_main(argv) == code
    assert "python -m fsbook" in capsys.readouterr().out

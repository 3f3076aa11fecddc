"""The command-line dispatchers."""

import pytest

from fsbook.__main__ import main as fsbook_main
from fsbook.experiments.__main__ import main as experiments_main


def test_experiments_help_lists_protocols(capsys):
    assert experiments_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "protocols:" in out and "projection" in out
    assert "experiments verify [--budget-seconds S]" in out and "experiments pack" in out


def test_verify_help_documents_budget_turn_and_all(capsys):
    with pytest.raises(SystemExit) as info:
        experiments_main(["verify", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "--budget-seconds" in out and "--turn" in out and "--all" in out


def test_unknown_protocol_is_a_usage_error(capsys):
    assert experiments_main(["no-such-protocol"]) == 2
    assert "unknown protocol" in capsys.readouterr().err


@pytest.mark.parametrize("argv, code", [([], 0), (["--help"], 0), (["bogus"], 2)])
def test_top_level_usage(argv, code, capsys):
    assert fsbook_main(argv) == code
    assert "python -m fsbook" in capsys.readouterr().out


# ------------------------------------------------- exit codes and messages of the command line
def _code(argv):
    """Exit code of ``python -m fsbook.experiments ARGV`` run in this process."""
    try:
        return experiments_main(argv)
    except SystemExit as e:
        return e.code


def test_the_top_level_help_lists_every_option_of_every_form(capsys):
    from fsbook.experiments.__main__ import _parser
    from fsbook.experiments._verify import pack_parser, verify_parser

    assert experiments_main(["--help"]) == 0
    out = capsys.readouterr().out
    import argparse

    options = {s for p in (_parser("x"), verify_parser(), pack_parser()) for a in p._actions
               if a.help != argparse.SUPPRESS for s in a.option_strings if s.startswith("--") and s != "--help"}
    assert {"--only", "--quiet", "--n-jobs", "--turn", "--all", "--no-resume"} <= options
    assert [s for s in sorted(options) if s not in out] == []


@pytest.mark.parametrize("argv, message", [
    (["l1linf", "--n-jobs", "0"], "argument --n-jobs: must be a positive integer or -1"),
    (["l1linf", "--n-jobs", "-2"], "argument --n-jobs: must be a positive integer or -1"),
    (["l1linf", "--n-jobs", "two"], "argument --n-jobs: expected an integer"),
    (["l1linf", "--only", "nosuch=1"], "no task has a parameter 'nosuch'"),
    (["l1linf", "--only", "dataset"], "--only expects KEY=V1,V2"),
    (["l1linf", "--only", "dataset=nosuch"], "selects no task"),
    (["l1linf", "--backend", "loky", "--scheduler", "tcp://h:1"], "--scheduler needs --backend dask"),
    (["l1linf", "--bogus"], "unrecognized arguments: --bogus"),
    (["verify", "--protocol", "nosuch"], "unknown protocol 'nosuch'; choose one of"),
    (["verify", "--n-jobs", "0"], "argument --n-jobs: must be a positive integer or -1"),
    (["verify", "--budget-seconds", "0"], "--budget-seconds must be positive"),
    (["verify", "--turn", "-1"], "argument --turn: must be 0 or more"),
    (["verify", "--turn", "1", "--all"], "not allowed with argument --turn"),
    (["verify", "--root", "/no/such/folder"], "no such folder"),
    (["verify", "--seed", "5"], "--seed is gone"),
    (["pack", "nosuch"], "unknown protocol 'nosuch'"),
    (["nosuch"], "unknown protocol or command 'nosuch'"),
])
def test_mistakes_give_a_one_line_error_and_exit_code_2(argv, message, capsys):
    assert _code(argv) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("python -m fsbook.experiments")
             and "error:" in line]
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err


def test_a_mistake_exits_with_2_and_no_traceback_in_a_real_process(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "fsbook.experiments", "verify", "--protocol", "nosuch"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("python -m fsbook.experiments verify: error: unknown")


SLOW_PROTOCOL = '''
import os
import time
import pandas as pd
from fsbook.experiments import Protocol

def make_tasks(full):
    return [{"i": i} for i in range(10)]

def run_task(params):
    # in the interrupted run (SLOW set), tasks 3.. outlast the test: the interrupt finds them in flight
    time.sleep(0.05 if params["i"] < 3 or not os.environ.get("SLOW") else 120)
    return {"sq": params["i"] ** 2}

def reduce(params, results):
    return {"t": pd.DataFrame([{**p, **r} for p, r in zip(params, results)])}

PROTOCOL = Protocol(name="slow", make_tasks=make_tasks, run_task=run_task, reduce=reduce, version="1")
'''


@pytest.mark.parametrize("n_jobs", ["1", "2"])
def test_ctrl_c_says_what_is_saved_and_how_to_resume_without_a_traceback(tmp_path, n_jobs, capsys):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) in a run in this process
    or on loky workers: exit 130, the count of saved tasks and the command that resumes; that
    command computes only the rest."""
    import os
    import shlex
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "slowproto.py").write_text(SLOW_PROTOCOL)
    # the default SIGINT handler, also when this test runs with SIGINT ignored (a background job)
    driver = "import signal, sys, slowproto\nfrom fsbook.experiments.__main__ import run\n" \
             "signal.signal(signal.SIGINT, signal.default_int_handler)\n" \
             "sys.exit(run(slowproto.PROTOCOL, sys.argv[1:]))\n"
    env = dict(os.environ, SLOW="1",
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    journal = tmp_path / "out" / "journal-v1.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", driver, "--out", "out", "--quiet", "--n-jobs", n_jobs],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "cancelled" not in err, err
    assert "interrupted: 3 of the 10 tasks of this run are saved in out" in err
    saved = 3
    lines = err.splitlines()                       # loky's resource tracker may warn after it
    command = lines[next(i for i, line in enumerate(lines) if line.endswith("resume with")) + 1].strip()
    assert command.startswith("python -m fsbook.experiments slow ") and f"--out {tmp_path / 'out'}" in command

    # the printed command resumes: only the tasks not saved are computed
    import importlib.util

    spec = importlib.util.spec_from_file_location("slowproto", tmp_path / "slowproto.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from fsbook.experiments.__main__ import run

    assert run(module.PROTOCOL, shlex.split(command)[4:]) == 0
    assert f"{10 - saved} tasks computed, {saved} read back" in capsys.readouterr().out


def test_ctrl_c_in_verify_or_pack_ends_with_a_line_not_a_traceback(monkeypatch, capsys):
    from fsbook.experiments import _verify

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(_verify, "main", interrupted)
    assert experiments_main(["verify"]) == 130
    err = capsys.readouterr().err
    assert "interrupted: `python -m fsbook.experiments verify` stopped" in err and "Traceback" not in err

"""Execute notebooks of the book in place and record how long each took and whether it ran.

For every notebook given, run ``jupyter nbconvert --to notebook --execute --inplace`` (the command
of ``make execute``) and record in ``benchmarks/results/execution.json`` (section: the notebook's
path) its status (``ok``, or ``error`` with the last line nbconvert printed), the wall time and
the CPU time of nbconvert and the kernel it ran (``resource.getrusage(RUSAGE_CHILDREN)``: both
processes have ended and been waited for when nbconvert returns), the time it finished (UTC) and
the machine's load average when it started (the machine may be shared); the record also keeps the
machine, the date and the commit (:func:`fsbook.benchmark_records.record_benchmark`).  The page
``book/execution_status.ipynb`` reads the record; a notebook never executed this way is shown as
not measured.

``make execute`` runs it on every notebook, two at a time; the record is updated under a lock, so
parallel runs do not lose each other's entries.  Exit status: 1 if any notebook failed.

Usage: ``python scripts/record_execution.py book/using_fsbook.ipynb [more notebooks]``
"""
from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fsbook.benchmark_records import RESULTS_DIR, record_benchmark  # noqa: E402

#: the record's name: ``benchmarks/results/execution.json``
RECORD = "execution"
#: nbconvert's settings, as ``make execute`` has them
NBCONVERT = ["--to", "notebook", "--execute", "--inplace", "--ExecutePreprocessor.timeout=1800",
             "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.record_timing=False"]


def children_cpu_seconds() -> float:
    """User plus system CPU seconds of this process's ended and waited-for children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def execute(notebook: Path) -> dict:
    """Run nbconvert on ``notebook`` in place; its status, wall and CPU seconds, end and load."""
    jupyter = Path(sys.executable).with_name("jupyter")
    load = os.getloadavg()[0]
    cpu0, wall0 = children_cpu_seconds(), time.perf_counter()
    done = subprocess.run([str(jupyter), "nbconvert", *NBCONVERT, str(notebook)],
                          capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall0, children_cpu_seconds() - cpu0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return {"status": "ok" if done.returncode == 0 else "error",
            "error": None if done.returncode == 0 else (lines[-1] if lines else f"exit {done.returncode}"),
            "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
            "finished": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "load_average_at_start": round(load, 2)}


@contextlib.contextmanager
def locked(directory: Path):
    """An exclusive lock on ``directory`` while the record is read and rewritten."""
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def section(notebook: Path) -> str:
    """The record's key of a notebook: its path from the repository's root (as given when it is
    outside the repository)."""
    path = notebook.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else notebook.as_posix()


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-1])
        return 2
    failed = 0
    for name in argv:
        notebook = Path(name)
        values = execute(notebook)
        with locked(RESULTS_DIR):
            record_benchmark(RECORD, section(notebook), values, directory=RESULTS_DIR)
        print(f"{section(notebook)}: {values['status']}, {values['wall_seconds']} s wall, "
              f"{values['cpu_seconds']} s CPU" + (f" ({values['error']})" if values["error"] else ""))
        failed += values["status"] != "ok"
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Measured benchmark results, recorded by ``benchmarks/*.py`` and read by the chapters.

A benchmark (``python benchmarks/<name>.py``) measures a speed-up side by side in one run, with
its quality check beside it.  A section that a chapter quotes records what it measured with
:func:`record_benchmark` in ``benchmarks/results/<name>.json`` (committed), and the chapter reads
it back with :func:`read_benchmark`, so the page quotes the numbers the code measured, never
numbers typed into the text.  Each record keeps the machine, the date and the git commit it was
measured at; timings are as measured there, never compared across machines.

File format: one JSON object per benchmark, ``{section: {"values": {...}, "machine": {"cpu",
"cores"}, "date": "YYYY-MM-DD", "commit": <short hash, "-dirty" when ``fsbook/`` or ``benchmarks/`` had
uncommitted changes, or "">}}``, keys sorted.
"""
from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path

from fsbook.experiments._store import machine_facts, machine_words

__all__ = ["RESULTS_DIR", "record_benchmark", "read_benchmark", "book_notebooks", "execution_table"]

#: where the records live: ``benchmarks/results`` of the repository holding this package
RESULTS_DIR = Path(__file__).resolve().parents[1] / "benchmarks" / "results"


def _commit(root: Path) -> str:
    """Short hash of HEAD, with ``-dirty`` when the package or the benchmarks (the code that
    measured) differ from it; ``""`` outside a git checkout."""
    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=True).stdout.strip()
    try:
        head = git("rev-parse", "--short=7", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", ":(top)fsbook",
                    ":(top)benchmarks")
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("-dirty" if dirty else "")


def record_benchmark(name: str, section: str, values: dict, directory: Path | None = None) -> Path:
    """Store the ``values`` measured by section ``section`` of ``benchmarks/<name>.py``.

    Parameters
    ----------
    name : str
        The benchmark (file ``benchmarks/<name>.py``).
    section : str
        Its section; an earlier record of the same section is replaced.
    values : dict
        Plain JSON data (numbers, strings, booleans, lists, dicts).
    directory : Path, optional
        Default :data:`RESULTS_DIR`.

    Returns
    -------
    Path of the JSON file written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = record_benchmark("demo", "speed", {"ratio": 12.5}, directory=d)
    >>> read_benchmark("demo", "speed", directory=d)["values"]
    {'ratio': 12.5}
    """
    directory = Path(directory) if directory is not None else RESULTS_DIR
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    records = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    records[section] = {"values": values, "machine": machine_facts(),
                        "date": datetime.date.today().isoformat(),
                        "commit": _commit(directory)}
    path.write_text(json.dumps(records, indent=1, sort_keys=True, allow_nan=False) + "\n",
                    encoding="utf-8")
    return path


def read_benchmark(name: str, section: str, directory: Path | None = None) -> dict:
    """The record of section ``section`` of ``benchmarks/<name>.py`` (see the module docstring).

    Raises
    ------
    FileNotFoundError
        When the benchmark or the section has not been recorded; the message names the
        command that records it.
    """
    directory = Path(directory) if directory is not None else RESULTS_DIR
    path = directory / f"{name}.json"
    records = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if section not in records:
        raise FileNotFoundError(
            f"no record of section {section!r} of benchmarks/{name}.py in {path}; measure it with "
            f"`python benchmarks/{name}.py --only {section}` from the repository's root")
    return records[section]


def book_notebooks(root: Path | None = None) -> list[str]:
    """The book's notebooks, as ``make execute`` lists them (``book/*.ipynb``,
    ``book/gallery/*.ipynb``, ``book/api/*.ipynb``, sorted), as paths from the repository's root.

    Examples
    --------
    >>> "book/using_fsbook.ipynb" in book_notebooks()
    True
    """
    root = Path(root) if root is not None else RESULTS_DIR.parents[1]
    found = [p for pattern in ("book/*.ipynb", "book/gallery/*.ipynb", "book/api/*.ipynb")
             for p in root.glob(pattern)]
    return sorted(p.relative_to(root).as_posix() for p in found)


def execution_table(notebooks=None, directory: Path | None = None):
    """Each notebook's last recorded execution (``scripts/record_execution.py``, run by
    ``make execute``): status, wall and CPU time, when and at which commit.

    Parameters
    ----------
    notebooks : list of str, optional
        Paths from the repository's root; default :func:`book_notebooks`.
    directory : Path, optional
        Where ``execution.json`` is; default :data:`RESULTS_DIR`.

    Returns
    -------
    pandas.DataFrame
        Indexed by notebook, with the columns ``status`` (``ok``, ``error`` or ``not measured``
        for a notebook without a record), ``wall (s)``, ``CPU (s)``, ``finished`` (UTC),
        ``load`` (the machine's load average when it started) and ``commit``; ``—`` where not
        measured.  ``table.attrs["machines"]`` lists the distinct machines of the records
        (``"<cpu>, <cores> logical CPUs"``) and ``table.attrs["errors"]`` maps a failed
        notebook to its last error line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = record_benchmark("execution", "book/a.ipynb", {"status": "ok", "error": None,
    ...     "wall_seconds": 12.5, "cpu_seconds": 11.0, "finished": "2026-11-29 16:00 UTC",
    ...     "load_average_at_start": 1.5}, directory=d)
    >>> t = execution_table(["book/a.ipynb", "book/b.ipynb"], directory=d)
    >>> t[["status", "wall (s)", "CPU (s)"]]
                       status wall (s) CPU (s)
    notebook
    book/a.ipynb           ok     12.5    11.0
    book/b.ipynb  not measured       —       —
    """
    import pandas as pd

    directory = Path(directory) if directory is not None else RESULTS_DIR
    path = directory / "execution.json"
    records = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    notebooks = book_notebooks() if notebooks is None else list(notebooks)
    rows, machines, errors = [], [], {}
    for nb in notebooks:
        rec = records.get(nb)
        if rec is None:
            rows.append({"notebook": nb, "status": "not measured", "wall (s)": "—", "CPU (s)": "—",
                         "finished": "—", "load": "—", "commit": "—"})
            continue
        v = rec["values"]
        rows.append({"notebook": nb, "status": v["status"], "wall (s)": f"{v['wall_seconds']:.1f}",
                     "CPU (s)": f"{v['cpu_seconds']:.1f}", "finished": v["finished"],
                     "load": f"{v['load_average_at_start']:.1f}", "commit": rec["commit"] or "—"})
        machine = machine_words(rec["machine"])
        if machine not in machines:
            machines.append(machine)
        if v.get("error"):
            errors[nb] = v["error"]
    table = pd.DataFrame(rows).set_index("notebook")
    table.attrs["machines"] = machines
    table.attrs["errors"] = errors
    return table

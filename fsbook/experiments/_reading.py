"""Reading the stores: where they are, the command that builds one, and their reduction.

:func:`read_store` reduces a stored protocol without computing anything (for the book's pages)
and raises :class:`~fsbook.experiments._store.StoreError`, naming the command that builds the
store, when it is missing, of another version or incomplete.  :func:`store_root` is the folder
of the stores, :func:`build_command` the command that builds (or completes) one,
:func:`read_results` reads the reduced tables of a run (``out/results.json``, written by
:func:`fsbook.experiments._runner.run_protocol`) and :func:`store_machines` names the machines
that ran the stored tasks, as the chapters' captions and prose give them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from fsbook.datasets._location import locate, remedy
from fsbook.experiments._runner import (
    RESULTS_FORMAT,
    Protocol,
    ProtocolResult,
    load_protocol,
    task_texts,
)
from fsbook.experiments._store import Store, StoreError, machine_words

__all__ = ["build_command", "default_out", "machines", "read_results", "read_store", "store_machines",
           "store_root"]


def store_root() -> Path:
    """The folder of the stores: ``$FSBOOK_RESULTS_DIR`` if set, else the copy installed with the
    package (``fsbook/_data/results`` of a wheel), else the clone's ``results/`` (see
    :func:`fsbook.datasets._location.locate`)."""
    return locate("results")[0]


def default_out(protocol) -> Path:
    """Where ``python -m fsbook.experiments NAME`` writes by default: ``store_root() / NAME`` in a
    clone or under ``$FSBOOK_RESULTS_DIR``; ``results/NAME`` of the current folder for an
    installed package (whose bundled stores are read, never written)."""
    root, how = locate("results")
    return root / protocol.name if how in ("env", "checkout") else Path("results") / protocol.name


def build_command(protocol, full: bool = True, folder=None) -> str:
    """The command that builds (or completes) a protocol's store."""
    if folder is None:
        root, how = locate("results")
        out = {"checkout": f"results/{protocol.name}", "env": str(root / protocol.name)}.get(how, "DIR")
    else:
        out = str(folder)
    return f"python -m fsbook.experiments {protocol.name}{' --full' if full else ''} --out {out}"


def _store_remedy(protocol, full, folder, default, missing="it") -> str:
    """What the reader does about a missing or incomplete store, where it runs: build
    ``missing`` ("it", "the missing ones") with the command; for the stores installed with the
    package, reinstall or point ``FSBOOK_RESULTS_DIR`` at a clone's ``results/``."""
    command = build_command(protocol, full, None if default else folder)
    build = f"build {missing} with `{command}` (it resumes)"
    how = locate("results")[1] if default else "folder"
    if how in ("checkout", "folder"):
        return build
    if how == "env":
        return f"{build}, or point FSBOOK_RESULTS_DIR at a clone's results/ folder"
    return f"{remedy('results', protocol.name)}; or {build} and pass folder=DIR to read_store"


def read_store(protocol: Protocol | str, full: bool = True, *, folder=None,
               allow_partial: bool = False) -> ProtocolResult:
    """Reduce a protocol's stored tasks into its tables, computing nothing.

    Parameters
    ----------
    protocol : Protocol or str
    full : bool
        Read the tasks of ``make_tasks(full)``: the paper's protocol by default.
    folder : path, optional
        The store's folder; default ``<store_root()>/<name>``: ``$FSBOOK_RESULTS_DIR``, the
        stores installed with the package, or the clone's ``results/`` (:func:`store_root`).
    allow_partial : bool
        Reduce the stored tasks only when some are missing (``n_cached`` of ``n_total``);
        ``reduce`` then sees a subset of the task list, in its order.

    Returns
    -------
    ProtocolResult
        With ``n_computed == 0``; ``complete`` says whether every task was stored.

    Raises
    ------
    StoreError
        When the store is missing, holds another version of the protocol only, holds no task
        of the list, or (without ``allow_partial``) lacks some; the message names the command
        that builds it.  These checks read only the store and the task list.
    """
    if isinstance(protocol, str):
        protocol = load_protocol(protocol)
    default = folder is None
    folder = store_root() / protocol.name if default else Path(folder)
    command = build_command(protocol, full, None if default else folder)
    store = Store(folder, protocol)
    store.check_layout()
    if not store.exists():
        others = store.other_versions()
        what = (f"holds version {', '.join(others)} of protocol {protocol.name!r}, "
                f"the code is version {protocol.version}") if others else \
            f"holds no store of protocol {protocol.name!r} version {protocol.version}"
        raise StoreError(f"{folder} {what}; {_store_remedy(protocol, full, folder, default)}")
    texts, keys = task_texts(protocol, full, None)          # parsed only when the store is usable
    stored = store.keys()
    have = [i for i, k in enumerate(keys) if k in stored]
    if not have or (len(have) < len(keys) and not allow_partial):
        hint = "" if not have else ", or pass allow_partial=True to reduce the stored ones only"
        raise StoreError(f"{folder} holds {len(have)} of the {len(keys)} tasks of protocol "
                         f"{protocol.name!r} version {protocol.version}"
                         f"{' (--full)' if full else ''}; "
                         f"{_store_remedy(protocol, full, folder, default, 'the missing ones')}{hint}")
    records = store.load(strict=True)
    have = [i for i in have if keys[i] in records]
    recs = [records[keys[i]] for i in have]
    params = [json.loads(texts[i]) for i in have]
    wrong = [r["key"] for r, p in zip(recs, params) if r["params"] != p]
    if wrong:
        raise ValueError(f"{store.pack_path}: stored task {wrong[0]} holds other parameters than its key's; "
                         f"rebuild the store with `{command}`")
    results = [r["result"] for r in recs]
    tables = protocol.reduce(params, results)
    return ProtocolResult(params=params, results=results, tables=tables, n_computed=0,
                          n_cached=len(have), path=None, protocol=protocol.name,
                          seconds=[r["seconds"] for r in recs], machines=[r["machine"] for r in recs],
                          n_total=len(keys), cpu_seconds=[r.get("cpu_seconds") for r in recs])


def read_results(path) -> dict:
    """Read a combined ``results.json``; its ``tables`` come back as DataFrames."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    if record.get("format") != RESULTS_FORMAT:
        raise ValueError(f"{path} is not a {RESULTS_FORMAT} file")
    record["tables"] = {name: pd.DataFrame(**split) for name, split in record["tables"].items()}
    return record


def store_machines(*stores) -> list[str]:
    """``"<cpu>, <cores> logical CPUs"`` (:func:`~fsbook.experiments._store.machine_words`) of
    every machine that ran a task of the stored results ``stores`` (each a
    :class:`~fsbook.experiments._runner.ProtocolResult`), each once, sorted.

    >>> xeon = {"cpu": "Xeon", "cores": 2}
    >>> r = ProtocolResult([], [], {}, machines=[xeon, None, xeon])
    >>> store_machines(r, ProtocolResult([], [], {}, machines=[{"cpu": "EPYC", "cores": 4}]))
    ['EPYC, 4 logical CPUs', 'Xeon, 2 logical CPUs']
    """
    return sorted({machine_words(m) for r in stores for m in r.machines if m})


def machines(*stores) -> str:
    """:func:`store_machines` in one phrase, joined by ``"; "``.

    >>> machines(ProtocolResult([], [], {}, machines=[{"cpu": "Xeon", "cores": 2}]))
    'Xeon, 2 logical CPUs'
    """
    return "; ".join(store_machines(*stores))

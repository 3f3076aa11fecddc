"""The shared experiment runner: a protocol is a list of independent tasks plus a reduction.

A :class:`Protocol` names a list of tasks (JSON-serialisable parameter dicts), a pure function
``run_task(params) -> dict`` and a reduction ``reduce(params_list, results_list) -> {name:
DataFrame}`` into the chapter's tables.  :func:`run_protocol` runs the tasks

* in this process (``n_jobs=1``), on local processes (joblib's ``loky`` backend) or on a Dask
  cluster (joblib's ``dask`` backend with :mod:`dask.distributed`: a scheduler address, or a
  :class:`~distributed.LocalCluster` of ``n_jobs`` single-threaded worker processes);
* resumably: with ``out`` set, every finished task is appended at once, with its measured cost
  (wall-clock and CPU time) and the machine it ran on, to the journal of the protocol's store
  (:mod:`._store`), and the store is packed into one compressed file
  ``out/tasks-v<version>.jsonl.gz`` at the end of the run.  A task's key hashes the canonical parameters and the protocol's name and version (not
  the package version).  A later run reads the records whose checksum and key verify and
  computes only the others; a damaged record is reported and recomputed, never used;
* deterministically: every seed is derived from the task's parameters (:func:`task_seed`) and
  results are reduced in the order of the task list, so the tables do not depend on the backend,
  the number of workers or the order of completion.

:func:`~fsbook.experiments._reading.read_store` reduces a stored protocol without computing
anything (for the book's pages).  A task runs through
:func:`~fsbook.experiments._workers.call_task`, which measures its cost; the progress bar's cost
note is :class:`~fsbook.experiments._progress.RunningCost`.

Parameters and results are normalised through JSON before use (tuples become lists, dict keys
strings, NumPy scalars and arrays Python numbers and lists, non-finite floats ``None``), so a
stored result is identical to a freshly computed one.  ``out/results.json`` holds the reduced
tables of the last run (plain JSON: the tables are small, so no Parquet dependency is needed).

Written by hand because no library does this combination: joblib.Memory caches by function
arguments but has no checksum, no crash-safe journal for a cluster, no compact committed form
and no reduction step.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import fsbook
from fsbook.experiments._progress import RunningCost, prior_seconds, recorded_cost
from fsbook.experiments._store import (
    Store,
    atomic_write,
    canonical_json,
    key_of_canonical,
    make_record,
    to_jsonable,
)
from fsbook.experiments._workers import call_task, parallel_results

__all__ = ["Protocol", "ProtocolResult", "RawDataUnavailable", "load_protocol", "run_protocol",
           "stored_flags", "task_list", "task_seed", "task_texts", "whole_datasets"]

#: identifies the layout of the combined results file (the reduced tables of a run)
RESULTS_FORMAT = "fsbook-results/2"


class RawDataUnavailable(RuntimeError):
    """A task needs raw source files this machine does not have (beyond the committed ``data/``):
    ``verify`` reports it as skipped, not as a mismatch."""


@dataclass(frozen=True)
class Protocol:
    """An experiment protocol: independent tasks and a reduction into tables.

    Parameters
    ----------
    name : str
        CLI name, ``python -m fsbook.experiments <name>``; also the default output folder
        ``results/<name>/``.
    make_tasks : callable
        ``make_tasks(full) -> list[dict]`` of JSON-serialisable parameter dicts; ``full=False``
        gives the book's documented subsample, ``full=True`` the paper's protocol.
    run_task : callable
        ``run_task(params) -> dict``: a top-level (picklable) pure function of ``params``; every
        random seed must come from ``params`` (see :func:`task_seed`).
    reduce : callable
        ``reduce(params_list, results_list) -> dict[str, pandas.DataFrame]``, the chapter's tables.
    version : str
        Bump whenever ``run_task``'s results change: it is part of every task's store key, and
        a store of another version is not read.
    description : str
        One line shown by the CLI.
    tolerances : mapping, optional
        How ``python -m fsbook.experiments verify`` compares a recomputed result with the
        stored one, per field: ``{pattern: rule}``, where ``pattern`` is matched (``fnmatch``)
        against a result field's dotted path (``"Ridge.paper"``) or its name, and ``rule`` is
        ``(rtol, atol)`` for floats, ``"exact"`` or ``None`` (not compared).  Unlisted fields
        follow :mod:`._comparison`'s default rule.
    compare : callable, optional
        ``compare(stored, recomputed) -> list[str]`` of mismatch descriptions, replacing the
        field-by-field rule altogether.
    shared_setup : callable, optional
        ``shared_setup(params) -> hashable``: tasks with the same value share a setup (a fitted
        model, cached per process) that a run pays once and ``verify`` pays once per turn in which
        it recomputes such tasks; ``verify`` keeps them together in chunks (:func:`._turns.plan_turns`).
    setup_seconds : float
        The measured cost of one such setup, which the task records do not hold.
    claims : callable, optional
        ``claims(results) -> pandas.DataFrame``: the paper's claims decided on the complete store
        (:func:`fsbook.claims.claims_table`), the rows :mod:`fsbook.scoreboard` gathers.
    agreement : callable, optional
        ``agreement(results) -> pandas.DataFrame``: every printed number of the paper set against
        ours (:func:`fsbook.claims.agreement`), for the scoreboard's agreement board.
    """

    name: str
    make_tasks: Callable[[bool], list]
    run_task: Callable[[dict], dict]
    reduce: Callable[[list, list], dict]
    version: str = "1"
    description: str = ""
    tolerances: Mapping = field(default_factory=dict, hash=False, compare=False)
    compare: Callable | None = field(default=None, hash=False, compare=False)
    shared_setup: Callable | None = field(default=None, hash=False, compare=False)
    setup_seconds: float = field(default=0.0, hash=False, compare=False)
    claims: Callable | None = field(default=None, hash=False, compare=False)
    agreement: Callable | None = field(default=None, hash=False, compare=False)


@dataclass
class ProtocolResult:
    """What :func:`run_protocol` returns.

    Attributes
    ----------
    params, results : list of dict
        The tasks' normalised parameters and results, in the order of the task list.
    tables : dict of str to pandas.DataFrame
        ``protocol.reduce(params, results)``.
    n_computed, n_cached : int
        Tasks computed in this call and tasks read back from the store.
    path : pathlib.Path or None
        The combined results file, when ``out`` was given.
    seconds : list of float
        Each task's measured wall-clock time (``None`` where unknown), on ``machines[i]``.
    cpu_seconds : list of float
        Each task's measured CPU time (``None`` where unknown: records written before it was
        measured, tasks run on a Dask worker of several threads).
    machines : list of dict
        ``{"cpu", "cores"}`` of the machine that ran each task.
    n_total : int
        Tasks of the protocol; more than ``len(params)`` for a partial store read with
        ``read_store(..., allow_partial=True)``.
    """

    params: list
    results: list
    tables: dict
    n_computed: int = 0
    n_cached: int = 0
    path: Path | None = None
    protocol: str = field(default="")
    seconds: list = field(default_factory=list)
    machines: list = field(default_factory=list)
    n_total: int = 0
    cpu_seconds: list = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether every task of the protocol is in ``results``."""
        return len(self.params) >= self.n_total


# ----------------------------------------------------------------------------- seeds
def task_seed(params: dict, salt: str = "") -> int:
    """A seed in ``[0, 2**31)`` from a hash of the canonical ``params`` (and ``salt``).

    Equal parameters give equal seeds on every machine and Python version (SHA-256 of the
    canonical JSON, not Python's ``hash``); any change of a parameter changes the seed.
    """
    digest = hashlib.sha256((canonical_json(params) + "\x00" + salt).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


# ----------------------------------------------------------------------------- execution
def load_protocol(name: str) -> Protocol:
    """The ``PROTOCOL`` of the protocol ``name``
    (:func:`fsbook.experiments._registry.protocol_module`); an unknown name raises
    ``ValueError`` listing the protocols."""
    from fsbook.experiments._registry import available_protocols, protocol_module

    if not isinstance(name, str):
        raise ValueError(f"unknown protocol {name!r}; choose one of {available_protocols()}")
    path = protocol_module(name)
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as e:
        if e.name != path:
            raise
        raise ValueError(f"unknown protocol {name!r}; choose one of {available_protocols()}") from None
    protocol = getattr(module, "PROTOCOL", None)
    if not isinstance(protocol, Protocol):
        raise ValueError(f"{path} defines no PROTOCOL")
    if protocol.name != name:
        raise ValueError(f"{path} declares the protocol {protocol.name!r}, not {name!r}")
    return protocol


def task_texts(protocol, full, tasks):
    """Canonical JSON texts of the tasks and their keys; refuses non-dicts and duplicates."""
    raw = protocol.make_tasks(full) if tasks is None else tasks
    if not all(isinstance(p, dict) for p in raw):
        raise TypeError("every task must be a dict of parameters")
    texts = [canonical_json(p) for p in raw]
    keys = key_of_canonical(protocol, texts)
    if len(set(keys)) != len(keys):
        raise ValueError(f"protocol {protocol.name!r} lists the same task parameters twice")
    return texts, keys


def stored_flags(protocol: Protocol | str, params, full: bool = True):
    """The tasks of ``make_tasks(full)`` and, for each, whether it is among ``params``.

    The comparison :func:`read_store` makes (canonical JSON of the parameters), for pages that
    show how much of a partial store is there: coverage per part, the data sets held whole.

    Parameters
    ----------
    protocol : Protocol or str
    params : list of dict
        The parameters of the tasks present, e.g. ``read_store(protocol,
        allow_partial=True).params``.
    full : bool, default=True
        Compare with the paper's protocol, or with the book's subsample.

    Returns
    -------
    tasks : list of dict
        The protocol's normalised task parameters, in its order.
    stored : list of bool
        ``stored[i]`` says whether ``tasks[i]`` is among ``params``.

    Examples
    --------
    >>> from fsbook.experiments._runner import load_protocol, stored_flags
    >>> P = load_protocol("geometry")
    >>> tasks, stored = stored_flags(P, P.make_tasks(False)[1:], full=False)
    >>> stored[:2], sum(stored) == len(tasks) - 1
    ([False, True], True)
    """
    if isinstance(protocol, str):
        protocol = load_protocol(protocol)
    texts, _ = task_texts(protocol, full, None)
    present = {canonical_json(p) for p in params}
    return [json.loads(t) for t in texts], [t in present for t in texts]


def whole_datasets(protocol: Protocol | str, params, order, full: bool = True) -> list:
    """The data sets of ``order`` all of whose tasks of ``make_tasks(full)`` are among ``params``
    (:func:`stored_flags`; a task's data set is its ``"dataset"``), in that order: the data sets
    a partial store holds whole.

    >>> from fsbook.experiments._runner import load_protocol, whole_datasets
    >>> tasks = load_protocol("benchmark").make_tasks(False)
    >>> stored = [t for t in tasks if t["dataset"] != "wine"]
    >>> whole_datasets("benchmark", stored, ["wine", "wdbc"], full=False)
    ['wdbc']
    """
    tasks, stored = stored_flags(protocol, params, full)
    missing = {p["dataset"] for p, s in zip(tasks, stored) if not s}
    return [d for d in order if d not in missing]


def task_list(protocol, full, tasks):
    """Normalised parameters and their keys; refuses non-dicts and duplicates."""
    texts, keys = task_texts(protocol, full, tasks)
    return [json.loads(t) for t in texts], keys


def _run_tasks(protocol, params, keys, store, resume, n_jobs, backend, scheduler, progress):
    """Read the stored tasks, compute the others (journaling each into ``store``), pack the
    store; returns ``(results, seconds, cpu_seconds, machines, n_cached, n_computed)``."""
    records = {} if store is None else store.load()
    results: list = [None] * len(params)
    seconds: list = [None] * len(params)
    cpu_seconds: list = [None] * len(params)
    machines: list = [None] * len(params)
    if resume:
        for i, k in enumerate(keys):
            rec = records.get(k)
            if rec is not None and rec["params"] != params[i]:
                warnings.warn(f"stored task {k} holds other parameters; recomputing this task",
                              RuntimeWarning, stacklevel=2)
            elif rec is not None:
                results[i], seconds[i], machines[i] = rec["result"], rec["seconds"], rec["machine"]
                cpu_seconds[i] = rec.get("cpu_seconds")
    n_cached = sum(r is not None for r in results)
    todo = [(i, p) for i, p in enumerate(params) if results[i] is None]

    from tqdm import tqdm  # the text bar: tqdm.auto warns in notebooks without ipywidgets

    bar = tqdm(total=len(params), initial=n_cached, desc=protocol.name, disable=not progress)
    prior = prior_seconds(store, params) if todo and progress else [None] * len(params)
    stored_cost = [recorded_cost(w, c) for w, c in zip(seconds, cpu_seconds) if recorded_cost(w, c) is not None]
    n_wall_only = sum(w is not None and c is None for w, c in zip(seconds, cpu_seconds))
    cost = RunningCost([float(c) for c in stored_cost], [prior[i] for i, _ in todo], n_jobs, n_wall_only)
    bar.set_postfix_str(cost.note(), refresh=False)
    stream = None
    try:
        if todo:
            stream = (call_task(protocol.run_task, i, p) for i, p in todo) \
                if (backend == "loky" and n_jobs == 1) else \
                parallel_results(protocol, todo, n_jobs, backend, scheduler)
            for i, result, secs, cpu, machine in stream:
                results[i], seconds[i], cpu_seconds[i], machines[i] = result, secs, cpu, machine
                if store is not None:
                    rec = make_record(keys[i], params[i], result, secs, machine, cpu_seconds=cpu)
                    store.append(rec)
                    records[keys[i]] = rec
                cost.finish(recorded_cost(secs, cpu), prior[i])
                bar.set_postfix_str(cost.note(), refresh=False)
                bar.update()
    finally:
        bar.close()
        if stream is not None:
            # stop the workers now (after an interrupt or a failure), quietly: joblib's notice
            # that it cancelled the tasks in flight would otherwise print after the caller's message
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                stream.close()
        if store is not None and (todo or store.journal_path.exists() or not store.pack_path.exists()):
            # pack what is on disk (the pack and every journaled record), not the in-memory copy:
            # an interrupt between a record's journal line and its entry in `records` keeps it
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)      # damaged lines: reported above
                on_disk = store.load()
            store.pack({**records, **on_disk})

    return results, seconds, cpu_seconds, machines, n_cached, len(todo)


def run_protocol(protocol: Protocol | str, *, full: bool = False, tasks=None, n_jobs: int = 1,
                 backend: str = "loky", scheduler: str | None = None, out=None, resume: bool = True,
                 progress: bool = True) -> ProtocolResult:
    """Run a protocol's tasks and reduce them into its tables.

    Parameters
    ----------
    protocol : Protocol or str
        The protocol, or its name (:func:`fsbook.experiments._registry.protocol_module`).
    full : bool
        Passed to ``make_tasks``: the paper's protocol (``True``) or the book's subsample.
    tasks : list of dict, optional
        Run these parameter dicts instead of ``make_tasks(full)``.
    n_jobs : int
        Worker processes (loky), or LocalCluster workers (dask without ``scheduler``); with
        ``scheduler`` the cluster's own workers are used.  ``1`` with loky runs in this process.
    backend : {"loky", "dask"}
    scheduler : str, optional
        Address of a running Dask scheduler, e.g. ``"tcp://host:8786"`` (``backend="dask"``).
    out : str or path, optional
        Folder of the protocol's store and of ``results.json``; ``None`` keeps everything in
        memory.  Tasks already in the store (of any earlier run, full or not) are not recomputed.
    resume : bool
        Reuse verified stored tasks (otherwise recompute the tasks of this call and replace
        their records; the store's other tasks are kept).
    progress : bool
        Show a tqdm bar over the tasks.

    Returns
    -------
    ProtocolResult
    """
    if isinstance(protocol, str):
        protocol = load_protocol(protocol)
    if backend not in {"loky", "dask"}:
        raise ValueError(f"backend must be 'loky' or 'dask', got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler is only used with backend='dask'")
    if not isinstance(n_jobs, int) or isinstance(n_jobs, bool) or n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive integer or -1, got {n_jobs!r}")
    params, keys = task_list(protocol, full, tasks)

    out = None if out is None else Path(out)
    if out is None:
        results, seconds, cpu_seconds, machines, n_cached, n_todo = _run_tasks(
            protocol, params, keys, None, resume, n_jobs, backend, scheduler, progress)
    else:
        store = Store(out, protocol)
        store.check_layout()
        with store.writing():
            results, seconds, cpu_seconds, machines, n_cached, n_todo = _run_tasks(
                protocol, params, keys, store, resume, n_jobs, backend, scheduler, progress)

    tables = protocol.reduce(params, results)
    path = None
    if out is not None:
        path = out / "results.json"
        record = {"format": RESULTS_FORMAT, "protocol": protocol.name, "version": str(protocol.version),
                  "package": fsbook.__version__, "full": bool(full), "n_tasks": len(params),
                  "tables": {name: df.to_dict(orient="split") for name, df in tables.items()}}
        atomic_write(path, json.dumps(to_jsonable(record), indent=1, allow_nan=False))
    return ProtocolResult(params=params, results=results, tables=tables, n_computed=n_todo,
                          n_cached=n_cached, path=path, protocol=protocol.name, seconds=seconds,
                          machines=machines, n_total=len(params), cpu_seconds=cpu_seconds)



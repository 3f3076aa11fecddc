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

:func:`read_store` reduces a stored protocol without computing anything (for the book's pages)
and raises :class:`StoreError`, naming the command that builds the store, when it is missing,
of another version or incomplete.

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
import os
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

import fsbook
from fsbook._cost import cost_limits
from fsbook._optional import require
from fsbook.datasets._location import locate, remedy
from fsbook.experiments._store import (
    Store,
    StoreError,
    atomic_write,
    canonical_json,
    key_of_canonical,
    machine_facts,
    make_record,
    normalise,
    task_key,
    to_jsonable,
)

__all__ = ["Protocol", "ProtocolResult", "StoreError", "canonical_json", "load_protocol",
           "read_results", "read_store", "run_protocol", "store_root", "task_key", "task_seed",
           "to_jsonable"]

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
        follow :mod:`._verify`'s default rule.
    compare : callable, optional
        ``compare(stored, recomputed) -> list[str]`` of mismatch descriptions, replacing the
        field-by-field rule altogether.
    shared_setup : callable, optional
        ``shared_setup(params) -> hashable``: tasks with the same value share a setup (a fitted
        model, cached per process) that a run pays once and ``verify`` pays once per turn in which
        it recomputes such tasks; ``verify`` keeps them together in chunks (:func:`._verify.plan_turns`).
    setup_seconds : float
        The measured cost of one such setup, which the task records do not hold.
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
    """``fsbook.experiments.<name>.PROTOCOL``; an unknown name raises ``ValueError`` listing the
    protocols."""
    from fsbook.experiments._registry import available_protocols

    if not isinstance(name, str) or name not in available_protocols() and not name.startswith("_"):
        raise ValueError(f"unknown protocol {name!r}; choose one of {available_protocols()}")
    try:
        module = importlib.import_module(f"fsbook.experiments.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"fsbook.experiments.{name}":
            raise
        raise ValueError(f"unknown protocol {name!r}; choose one of {available_protocols()}") from None
    protocol = getattr(module, "PROTOCOL", None)
    if not isinstance(protocol, Protocol):
        raise ValueError(f"fsbook.experiments.{name} defines no PROTOCOL")
    return protocol


def process_cpu_seconds() -> float:
    """CPU seconds used so far by this process (user and system, all its threads) and by its
    children that have ended and been waited for.

    The difference of two readings is the CPU time spent in between, which :func:`_call` records
    for a task: unlike the wall-clock time, it does not grow when other processes share the
    cores, and it counts every thread of a multithreaded BLAS or solver.

    Examples
    --------
    >>> from fsbook.experiments._runner import process_cpu_seconds
    >>> start = process_cpu_seconds()
    >>> _ = sum(i * i for i in range(200_000))
    >>> process_cpu_seconds() - start > 0
    True
    """
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _tasks_at_once() -> int:
    """How many tasks this process may run at the same time: the threads of the Dask worker it
    is (``distributed.get_worker()``), else 1 (this process, or a loky worker)."""
    import sys

    if "distributed" not in sys.modules:
        return 1
    try:
        worker = sys.modules["distributed"].get_worker()
    except (AttributeError, ValueError):
        return 1
    state = getattr(worker, "state", worker)
    return int(getattr(state, "nthreads", 1) or 1)


def _call(run_task, index, params):
    """Run one task on a worker; returns ``(index, normalised result, seconds, cpu_seconds,
    machine)``.

    ``seconds`` is the task's wall-clock time, ``cpu_seconds`` the CPU time of the worker
    process over the task (:func:`process_cpu_seconds`), both rounded to 0.1 ms as stored.
    ``cpu_seconds`` is ``None`` on a Dask worker of several threads, whose process time would
    include the tasks running beside this one.  The children's CPU time counts the children that
    ended during the task: in this process (``n_jobs=1``) that includes a loky worker of an
    earlier parallel run that happens to shut down then.

    The task runs without the cost limits of :func:`fsbook.cost_limits` (a protocol pins its
    settings and records what its fits cost), restored when it returns.
    """
    cpu_start = process_cpu_seconds()
    start = time.perf_counter()
    try:
        with cost_limits(seconds=None, bytes=None):    # the task's settings are the protocol's
            result = run_task(params)
    except Exception as e:
        raise RuntimeError(f"task {index} failed with params {canonical_json(params)}: "
                           f"{type(e).__name__}: {e}") from e
    seconds = round(time.perf_counter() - start, 4)          # 0.1 ms, as stored
    cpu_seconds = round(process_cpu_seconds() - cpu_start, 4) if _tasks_at_once() == 1 else None
    if not isinstance(result, dict):
        raise TypeError(f"run_task must return a dict, got {type(result).__name__} for task {index}")
    return index, normalise(result), seconds, cpu_seconds, machine_facts()


def ignore_sigint():
    """Initializer of the loky workers: they ignore SIGINT, so Ctrl-C (sent by a terminal to
    every process of the group) interrupts the parent only, which stops the workers; no worker
    prints a ``KeyboardInterrupt`` traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _parallel_results(protocol, todo, n_jobs, backend, scheduler):
    """Yield ``(index, result, seconds, cpu_seconds, machine)`` as tasks finish."""
    from joblib import Parallel, delayed, parallel_config

    calls = (delayed(_call)(protocol.run_task, i, p) for i, p in todo)
    if backend == "loky":
        yield from Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered",
                            initializer=ignore_sigint)(calls)
        return
    distributed = require("distributed", extra="cluster")
    Client, LocalCluster = distributed.Client, distributed.LocalCluster

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _task_texts(protocol, full, tasks):
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
    texts, _ = _task_texts(protocol, full, None)
    present = {canonical_json(p) for p in params}
    return [json.loads(t) for t in texts], [t in present for t in texts]


def _task_list(protocol, full, tasks):
    """Normalised parameters and their keys; refuses non-dicts and duplicates."""
    texts, keys = _task_texts(protocol, full, tasks)
    return [json.loads(t) for t in texts], keys


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


class RunningCost:
    """Running totals behind the progress bar's cost note: O(1) work per finished task.

    The note gives the CPU time recorded so far (the sum of the stored tasks' and this run's task
    CPU times; a record that holds only its wall-clock time, written before CPU time was
    measured, counts its wall time and the note says how many did) and an estimate of the CPU
    time left, with the wall-clock time that makes over ``n_jobs`` workers on idle cores.  Without
    priors the tasks left are costed at the mean recorded cost of this run's tasks (of the stored
    ones before the first finishes).  With priors (each task's recorded cost in an older version
    of the store, :func:`prior_seconds`; ``None`` where it has none) a task left costs its prior
    times the ratio of this run's costs to their priors so far (1 before the first such task
    finishes), so a protocol whose dear tasks come last is not estimated from its cheap first
    ones; tasks without a prior cost the mean.

    Parameters
    ----------
    stored_secs : list of float
        Recorded cost of each stored task: its CPU seconds, or its wall-clock seconds where no
        CPU time was recorded.
    left_priors : list of float or None
        The prior of each task to compute (``None``: no prior).
    n_jobs : int
        Workers (``-1`` or ``0``: every core).
    n_wall_only : int
        How many of ``stored_secs`` are wall-clock times.

    Examples
    --------
    >>> RunningCost([60.0] * 30, [None] * 90, n_jobs=2).note()
    'CPU time: recorded 30 min, left ≈ 1.5 h (≈ 45 min wall on 2 workers)'
    >>> RunningCost([], [None] * 10, n_jobs=1).note()
    'CPU time: recorded 0 min, left: no cost recorded yet'
    >>> cost = RunningCost([], [5.0, 5.0, 600.0, None], n_jobs=1)
    >>> cost.finish(10.0, 5.0); cost.finish(10.0, 5.0)
    >>> cost.note()
    'CPU time: recorded 0 min, left ≈ 20 min (≈ 20 min wall on 1 worker)'
    >>> RunningCost([60.0] * 30, [None] * 30, n_jobs=1, n_wall_only=30).note()
    'CPU time: recorded 30 min (30 tasks: wall time only), left ≈ 30 min (≈ 30 min wall on 1 worker)'
    """

    def __init__(self, stored_secs, left_priors, n_jobs: int, n_wall_only: int = 0):
        self.workers = max(1, n_jobs if n_jobs > 0 else (os.cpu_count() or 1))
        self.stored, self.n_stored = float(sum(stored_secs)), len(stored_secs)
        self.n_wall_only = int(n_wall_only)
        self.run, self.n_run = 0.0, 0
        self.paired_secs = self.paired_prior = 0.0          # this run's tasks with a prior > 0
        priors = [float(v) for v in left_priors if v is not None]
        self.left_prior, self.n_left_prior = sum(priors), len(priors)
        self.n_left_plain = len(left_priors) - len(priors)

    def finish(self, secs: float, prior=None) -> None:
        """Count a finished task: its recorded cost ``secs`` and its ``prior`` (``None``: none)."""
        self.run += float(secs)
        self.n_run += 1
        if prior is None:
            self.n_left_plain -= 1
            return
        self.n_left_prior -= 1
        self.left_prior = self.left_prior - float(prior) if self.n_left_prior else 0.0
        if prior > 0:
            self.paired_secs += float(secs)
            self.paired_prior += float(prior)

    def note(self) -> str:
        """``"CPU time: recorded …, left ≈ … (≈ … wall on n workers)"``, the progress bar's postfix."""
        done = self.stored + self.run
        recorded = f"CPU time: recorded {_hours(done)}" + (
            f" ({self.n_wall_only} tasks: wall time only)" if self.n_wall_only else "")
        basis, n_basis = (self.run, self.n_run) if self.n_run else (self.stored, self.n_stored)
        if not (n_basis or self.n_left_prior):
            return f"{recorded}, left: no cost recorded yet"
        mean = basis / n_basis if n_basis else 0.0
        scale = self.paired_secs / self.paired_prior if self.paired_prior else 1.0
        left = mean * self.n_left_plain + self.left_prior * scale       # left_prior: 0 without priors
        workers = f"{self.workers} worker" + ("s" if self.workers > 1 else "")
        return f"{recorded}, left ≈ {_hours(left)} (≈ {_hours(left / self.workers)} wall on {workers})"


def _cost_of(record_secs, record_cpu):
    """A task's recorded cost: its CPU seconds, else its wall-clock seconds (``None``: neither)."""
    return record_cpu if record_cpu is not None else record_secs


def prior_seconds(store, params) -> list:
    """Each task's recorded cost (CPU seconds, else wall-clock seconds) in the newest older version of
    ``store`` (same parameters), or ``None``: the priors of :class:`RunningCost`.  Unreadable older stores give no priors."""
    from dataclasses import replace

    newest = store.newest_older_version() if store is not None else None
    if newest is None:
        return [None] * len(params)
    try:
        records = Store(store.folder, replace(store.protocol, version=newest)).load()
    except (OSError, ValueError, StoreError):
        return [None] * len(params)
    by_params = {canonical_json(r["params"]): float(_cost_of(r["seconds"], r.get("cpu_seconds")))
                 for r in records.values()}
    return [by_params.get(canonical_json(p)) for p in params]


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
    stored_cost = [_cost_of(w, c) for w, c in zip(seconds, cpu_seconds) if _cost_of(w, c) is not None]
    n_wall_only = sum(w is not None and c is None for w, c in zip(seconds, cpu_seconds))
    cost = RunningCost([float(c) for c in stored_cost], [prior[i] for i, _ in todo], n_jobs, n_wall_only)
    bar.set_postfix_str(cost.note(), refresh=False)
    stream = None
    try:
        if todo:
            stream = (_call(protocol.run_task, i, p) for i, p in todo) \
                if (backend == "loky" and n_jobs == 1) else \
                _parallel_results(protocol, todo, n_jobs, backend, scheduler)
            for i, result, secs, cpu, machine in stream:
                results[i], seconds[i], cpu_seconds[i], machines[i] = result, secs, cpu, machine
                if store is not None:
                    rec = make_record(keys[i], params[i], result, secs, machine, cpu_seconds=cpu)
                    store.append(rec)
                    records[keys[i]] = rec
                cost.finish(_cost_of(secs, cpu), prior[i])
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
        The protocol, or the name of a module ``fsbook.experiments.<name>`` defining ``PROTOCOL``.
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
    params, keys = _task_list(protocol, full, tasks)

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
    texts, keys = _task_texts(protocol, full, None)          # parsed only when the store is usable
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

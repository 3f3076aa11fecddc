"""The shared experiment runner: a protocol is a list of independent tasks plus a reduction.

A :class:`Protocol` names a list of tasks (JSON-serialisable parameter dicts), a pure function
``run_task(params) -> dict`` and a reduction ``reduce(params_list, results_list) -> {name:
DataFrame}`` into the chapter's tables.  :func:`run_protocol` runs the tasks

* in this process (``n_jobs=1``), on local processes (joblib's ``loky`` backend) or on a Dask
  cluster (joblib's ``dask`` backend with :mod:`dask.distributed`: a scheduler address, or a
  :class:`~distributed.LocalCluster` of ``n_jobs`` single-threaded worker processes);
* resumably: with ``out`` set, every finished task is written at once to
  ``out/tasks/<key>.json``, where ``key`` hashes the canonical parameters, the protocol's
  version and the package version.  A later run loads the files whose checksum and parameters
  verify and computes only the others; a corrupted or truncated file is reported and recomputed,
  never used;
* deterministically: every seed is derived from the task's parameters (:func:`task_seed`) and
  results are reduced in the order of the task list, so the tables do not depend on the backend,
  the number of workers or the order of completion.

Parameters and results are normalised through JSON before use (tuples become lists, dict keys
strings, NumPy scalars and arrays Python numbers and lists, non-finite floats ``None``), so a
result read back from a task file is identical to a freshly computed one.  The combined file
``out/results.json`` holds every task's parameters and result and the reduced tables (plain JSON:
the tables are small, so no Parquet dependency is needed).

Written by hand because no library does this combination: joblib.Memory caches by function
arguments but has no checksum, no atomic per-task files for a cluster and no reduction step.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

import fsbook
from fsbook._optional import require

#: identifies the layout of a task file
TASK_FORMAT = "fsbook-task/1"
#: identifies the layout of the combined results file
RESULTS_FORMAT = "fsbook-results/1"


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
        Bump whenever ``run_task``'s results change: it is part of every task's cache key.
    description : str
        One line shown by the CLI.
    """

    name: str
    make_tasks: Callable[[bool], list]
    run_task: Callable[[dict], dict]
    reduce: Callable[[list, list], dict]
    version: str = "1"
    description: str = ""


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
        Tasks computed in this call and tasks read back from ``out``.
    path : pathlib.Path or None
        The combined results file, when ``out`` was given.
    """

    params: list
    results: list
    tables: dict
    n_computed: int = 0
    n_cached: int = 0
    path: Path | None = None
    protocol: str = field(default="")


# ----------------------------------------------------------------------------- canonical JSON
def to_jsonable(obj):
    """Plain-JSON copy of ``obj``: dict keys become strings, tuples and arrays lists, NumPy
    scalars Python numbers, non-finite floats ``None``.  Raises ``TypeError`` on anything else."""
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return v if math.isfinite(v) else None
    raise TypeError(f"not JSON-serialisable: {type(obj).__name__} {obj!r}")


def canonical_json(obj) -> str:
    """Canonical JSON text of ``obj`` (sorted keys, no spaces); equal for equal content."""
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)


def _normalise(obj):
    return json.loads(canonical_json(obj))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def task_seed(params: dict, salt: str = "") -> int:
    """A seed in ``[0, 2**31)`` from a hash of the canonical ``params`` (and ``salt``).

    Equal parameters give equal seeds on every machine and Python version (SHA-256 of the
    canonical JSON, not Python's ``hash``); any change of a parameter changes the seed.
    """
    digest = hashlib.sha256((canonical_json(params) + "\x00" + salt).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def task_key(protocol: Protocol, params: dict) -> str:
    """Cache key of one task: hash of its canonical parameters, the protocol's name and version
    and the package version."""
    return _sha256(canonical_json({"protocol": protocol.name, "version": str(protocol.version),
                                   "package": fsbook.__version__, "params": params}))[:32]


# ----------------------------------------------------------------------------- task files
def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename, so
    a reader sees either the old file or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _task_checksum(params, result) -> str:
    return _sha256(canonical_json({"params": params, "result": result}))


def write_task_file(path: Path, protocol: Protocol, params: dict, result: dict) -> None:
    """Store one finished task (parameters, result and their SHA-256) atomically."""
    record = {"format": TASK_FORMAT, "protocol": protocol.name, "version": str(protocol.version),
              "package": fsbook.__version__, "params": params, "result": result,
              "sha256": _task_checksum(params, result)}
    _atomic_write(path, json.dumps(record, sort_keys=True, allow_nan=False))


def read_task_file(path: Path, params: dict):
    """The stored result of the task ``params``, or ``None`` when the file is missing.

    Raises ``ValueError`` when the file exists but is unreadable, truncated, fails its checksum
    or belongs to other parameters.
    """
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"unreadable task file {path}: {e}") from None
    if not isinstance(record, dict) or record.get("format") != TASK_FORMAT \
            or not {"params", "result", "sha256"} <= set(record):
        raise ValueError(f"task file {path} is not a {TASK_FORMAT} record")
    if record["sha256"] != _task_checksum(record["params"], record["result"]):
        raise ValueError(f"task file {path} fails its checksum")
    if canonical_json(record["params"]) != canonical_json(params):
        raise ValueError(f"task file {path} holds other parameters")
    return record["result"]


# ----------------------------------------------------------------------------- execution
def load_protocol(name: str) -> Protocol:
    """``fsbook.experiments.<name>.PROTOCOL``."""
    module = importlib.import_module(f"fsbook.experiments.{name}")
    protocol = getattr(module, "PROTOCOL", None)
    if not isinstance(protocol, Protocol):
        raise ValueError(f"fsbook.experiments.{name} defines no PROTOCOL")
    return protocol


def _call(run_task, index, params):
    """Run one task on a worker; returns ``(index, normalised result)``."""
    try:
        result = run_task(params)
    except Exception as e:
        raise RuntimeError(f"task {index} failed with params {canonical_json(params)}: "
                           f"{type(e).__name__}: {e}") from e
    if not isinstance(result, dict):
        raise TypeError(f"run_task must return a dict, got {type(result).__name__} for task {index}")
    return index, _normalise(result)


def _parallel_results(protocol, todo, n_jobs, backend, scheduler):
    """Yield ``(index, result)`` as tasks finish."""
    from joblib import Parallel, delayed, parallel_config

    calls = (delayed(_call)(protocol.run_task, i, p) for i, p in todo)
    if backend == "loky":
        yield from Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered")(calls)
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
        Folder of the task files and of ``results.json``; ``None`` keeps everything in memory.
    resume : bool
        Reuse verified task files under ``out`` (otherwise recompute and overwrite them).
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
    raw = protocol.make_tasks(full) if tasks is None else tasks
    params = [_normalise(p) for p in raw]
    if not all(isinstance(p, dict) for p in params):
        raise TypeError("every task must be a dict of parameters")
    keys = [task_key(protocol, p) for p in params]
    if len(set(keys)) != len(keys):
        raise ValueError(f"protocol {protocol.name!r} lists the same task parameters twice")

    out = None if out is None else Path(out)
    results: list = [None] * len(params)
    n_cached = 0
    if out is not None and resume:
        for i, k in enumerate(keys):
            try:
                results[i] = read_task_file(out / "tasks" / f"{k}.json", params[i])
            except ValueError as e:
                warnings.warn(f"{e}; recomputing this task", RuntimeWarning, stacklevel=2)
            n_cached += results[i] is not None
    todo = [(i, p) for i, p in enumerate(params) if results[i] is None]

    from tqdm import tqdm  # the text bar: tqdm.auto warns in notebooks without ipywidgets

    bar = tqdm(total=len(params), initial=n_cached, desc=protocol.name, disable=not progress)
    try:
        if todo:
            stream = ((i, _call(protocol.run_task, i, p)[1]) for i, p in todo) \
                if (backend == "loky" and n_jobs == 1) else \
                _parallel_results(protocol, todo, n_jobs, backend, scheduler)
            for i, result in stream:
                results[i] = result
                if out is not None:
                    write_task_file(out / "tasks" / f"{keys[i]}.json", protocol, params[i], result)
                bar.update()
    finally:
        bar.close()

    tables = protocol.reduce(params, results)
    path = None
    if out is not None:
        path = out / "results.json"
        record = {"format": RESULTS_FORMAT, "protocol": protocol.name, "version": str(protocol.version),
                  "package": fsbook.__version__, "full": bool(full), "params": params, "results": results,
                  "tables": {name: df.to_dict(orient="split") for name, df in tables.items()}}
        _atomic_write(path, json.dumps(to_jsonable(record), indent=1, allow_nan=False))
    return ProtocolResult(params=params, results=results, tables=tables, n_computed=len(todo),
                          n_cached=n_cached, path=path, protocol=protocol.name)


def read_results(path) -> dict:
    """Read a combined ``results.json``; its ``tables`` come back as DataFrames."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    if record.get("format") != RESULTS_FORMAT:
        raise ValueError(f"{path} is not a {RESULTS_FORMAT} file")
    record["tables"] = {name: pd.DataFrame(**split) for name, split in record["tables"].items()}
    return record

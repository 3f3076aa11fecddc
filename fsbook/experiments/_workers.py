"""Running tasks on workers: one task timed and measured, and the loky and Dask backends.

:func:`call_task` runs one task of a protocol where it is called (this process, a loky worker or
a Dask worker) and returns its normalised result with its measured wall-clock and CPU time
(:func:`process_cpu_seconds`) and the machine it ran on; :func:`parallel_results` streams such
calls from loky processes or a Dask cluster as they finish.  The runner
(:func:`fsbook.experiments._runner.run_protocol`), ``verify`` and ``retime`` all run tasks
through :func:`call_task`, so a task is timed and normalised the same way by each.
"""

from __future__ import annotations

import time

from fsbook._cost import cost_limits
from fsbook._optional import require
from fsbook.experiments._store import canonical_json, machine_facts, normalise

__all__ = ["call_task", "ignore_sigint", "parallel_results", "process_cpu_seconds"]


def process_cpu_seconds() -> float:
    """CPU seconds used so far by this process (user and system, all its threads) and by its
    children that have ended and been waited for.

    The difference of two readings is the CPU time spent in between, which :func:`call_task` records
    for a task: unlike the wall-clock time, it does not grow when other processes share the
    cores, and it counts every thread of a multithreaded BLAS or solver.

    Examples
    --------
    >>> from fsbook.experiments._workers import process_cpu_seconds
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


def call_task(run_task, index, params):
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


def parallel_results(protocol, todo, n_jobs, backend, scheduler):
    """Yield ``(index, result, seconds, cpu_seconds, machine)`` as tasks finish."""
    from joblib import Parallel, delayed, parallel_config

    calls = (delayed(call_task)(protocol.run_task, i, p) for i, p in todo)
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



"""The cost note of the runner's progress bar: CPU time recorded so far and an estimate of what is left.

:class:`RunningCost` keeps the running totals (O(1) work per finished task);
:func:`prior_seconds` reads each task's recorded cost in an older version of the store, which
the estimate scales by this run's costs so far; :func:`recorded_cost` is a record's cost (its CPU
time, else its wall-clock time).
"""

from __future__ import annotations

import os

from fsbook.experiments._store import Store, StoreError, canonical_json

__all__ = ["RunningCost", "prior_seconds", "recorded_cost"]


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


def recorded_cost(record_secs, record_cpu):
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
    by_params = {canonical_json(r["params"]): float(recorded_cost(r["seconds"], r.get("cpu_seconds")))
                 for r in records.values()}
    return [by_params.get(canonical_json(p)) for p in params]



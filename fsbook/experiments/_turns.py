"""The schedule of ``verify``: every stored task in one *turn* of at most a budget of recorded cost.

:func:`plan_turns` packs the stored tasks (:class:`Item`) into turns, :func:`setup_chunks` keeps
the tasks that share a setup together in chunks, and :func:`commit_counter` is the counter whose
value modulo the number of turns is the turn a run of ``verify`` recomputes (see
:mod:`fsbook.experiments._verify`).
"""

from __future__ import annotations

import datetime
import heapq
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MIN_COST", "Item", "commit_counter", "plan_turns", "setup_chunks"]

#: the smallest cost assumed for a task (seconds), so weights stay finite
MIN_COST = 1e-3


@dataclass(frozen=True)
class Item:
    """One unit of the schedule: a stored task (its protocol, key and recorded cost in seconds),
    or a chunk of tasks sharing a setup (``keys``, the cost including the setup's)."""

    protocol: str
    key: str
    cost: float
    keys: tuple = ()

    @property
    def task_keys(self) -> tuple:
        """The stored tasks this unit recomputes."""
        return self.keys or (self.key,)


def setup_chunks(protocol: str, costs: dict, setup_of: dict, setup_seconds: float, budget_seconds: float) -> list:
    """Items for the tasks of one protocol whose records share setups: the tasks of each setup,
    in key order, cut into chunks whose setup plus recorded costs stay within half the budget
    (at least one task each), so a turn pays a setup once per chunk it holds instead of once per
    task it happens to draw.

    Parameters
    ----------
    costs : dict of str to float
        Recorded cost of each stored task, by key.
    setup_of : dict of str to hashable
        The setup each task shares (:attr:`Protocol.shared_setup` of its parameters).

    Examples
    --------
    >>> from fsbook.experiments._turns import setup_chunks
    >>> costs = {k: 1.0 for k in "abcdef"}
    >>> setup = {"a": 10, "b": 10, "c": 10, "d": 20, "e": 20, "f": 20}
    >>> [(it.keys, it.cost) for it in setup_chunks("p", costs, setup, 3.0, 10.0)]
    [(('a', 'b'), 5.0), (('c',), 4.0), (('d', 'e'), 5.0), (('f',), 4.0)]
    """
    groups = {}
    for key in sorted(costs):
        groups.setdefault(setup_of[key], []).append(key)
    out = []
    for keys in groups.values():
        chunk, load = [], setup_seconds
        for key in keys:
            if chunk and load + costs[key] > budget_seconds / 2:
                out.append(Item(protocol, chunk[0], load, tuple(chunk)))
                chunk, load = [], setup_seconds
            chunk.append(key)
            load += costs[key]
        out.append(Item(protocol, chunk[0], load, tuple(chunk)))
    return out


def plan_turns(items, budget_seconds: float) -> list:
    """Partition ``items`` into *turns*, each recomputed by one run of ``verify``.

    Tasks whose recorded cost is at most ``budget_seconds`` are packed into as few turns of at
    most ``budget_seconds`` (recorded cost) as the longest-processing-time rule finds: the
    tasks, dearest first, each go to the least loaded turn, and the number of turns grows until
    every task fits, so every turn mixes the protocols' tasks.  A task dearer than the budget is
    a turn of its own.  Those turns are spread evenly among the others.  The plan is a function
    of the items and the budget only (ties broken by protocol and key), so every machine and
    every run derives the same turns from the same stores.

    Returns
    -------
    list of list of Item
        The turns; together they hold every item exactly once.

    Examples
    --------
    >>> from fsbook.experiments._turns import Item, plan_turns
    >>> items = [Item("a", str(i), 1.0) for i in range(5)] + [Item("b", "x", 7.0)]
    >>> [[it.key for it in turn] for turn in plan_turns(items, 2.0)]
    [['0', '3'], ['1', '4'], ['x'], ['2']]
    """
    if not budget_seconds > 0:
        raise ValueError(f"budget_seconds must be positive, got {budget_seconds!r}")
    items = sorted(items, key=lambda it: (-it.cost, it.protocol, it.key))
    long = [[it] for it in items if it.cost > budget_seconds]
    fit = [it for it in items if it.cost <= budget_seconds]
    turns = []
    if fit:
        n = max(1, math.ceil(sum(it.cost for it in fit) / budget_seconds))
        while True:
            heap = [(0.0, i) for i in range(n)]
            turns = [[] for _ in range(n)]
            for it in fit:
                load, i = heapq.heappop(heap)
                if load + it.cost > budget_seconds:
                    break
                turns[i].append(it)
                heapq.heappush(heap, (load + it.cost, i))
            else:
                break
            n += max(1, n // 100)
    # spread the long turns among the others: turn i of F at i / F, long turn j of L at (j + 1/2) / L
    slots = [(i / len(turns), 0, i) for i in range(len(turns))] + \
        [((j + 0.5) / len(long), 1, j) for j in range(len(long))]
    return [sorted((turns if kind == 0 else long)[i], key=lambda it: (it.protocol, it.key))
            for _, kind, i in sorted(slots)]


def commit_counter():
    """``(counter, source)``: the number of commits of the checkout's ``HEAD`` (consecutive
    commits give consecutive turns), else the days since 1970-01-01 (UTC; one turn a day)."""
    try:
        count = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=Path(__file__).parent,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        return int(count), f"commit count {int(count)} of HEAD"
    except (OSError, subprocess.SubprocessError, ValueError):
        days = (datetime.datetime.now(datetime.UTC).date() - datetime.date(1970, 1, 1)).days
        return days, f"day {days} since 1970-01-01 (no git checkout)"

"""What the stores cost: ``python -m fsbook.experiments cost``.

For every store under the results folder: its protocol version, the tasks it holds against the
full protocol's task count, and the time the runner recorded for them (see
``results/README.md``), of two kinds kept apart:

* CPU time (each record's ``cpu_seconds``: the CPU time of the worker process over the task),
  recorded for the tasks computed since it is measured; the table counts those tasks;
* wall-clock time (each record's ``seconds``), recorded for every task.  It is *not* CPU time:
  when runs share the cores it grows with the load, so it overstates what the tasks cost on a
  quiet machine.

The sums over the stores are what recomputing the whole book took on such machines; tasks not
stored yet are counted, not guessed.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd

from fsbook.experiments._reading import store_root
from fsbook.experiments._runner import load_protocol
from fsbook.experiments._store import Store
from fsbook.experiments._verify import _check_names, _check_root, stored_protocols, stores_parser

__all__ = ["cost_table", "main"]

#: the columns of :func:`cost_table`
COLUMNS = ("version", "tasks stored", "tasks (full protocol)", "tasks with CPU time",
           "tasks with wall time only", "CPU hours recorded", "wall hours recorded", "wall seconds per task")
#: printed under the table by ``python -m fsbook.experiments cost``
LEGEND = ("CPU hours recorded: the CPU time of the tasks with CPU time (only those). "
          "Wall hours recorded: every task's wall-clock time, which is not CPU time: it exceeds it when "
          "runs share the cores. Tasks stored before CPU time was measured have wall time only ('-': no "
          "CPU time recorded).")


def _store_row(records) -> dict:
    """The time columns of one store's records (see :func:`cost_table`)."""
    recs = list(records)
    cpu = [float(r["cpu_seconds"]) for r in recs if r.get("cpu_seconds") is not None]
    wall = sum(float(r["seconds"] or 0.0) for r in recs)
    wall_only = sum(r.get("cpu_seconds") is None and r["seconds"] is not None for r in recs)
    return {"tasks stored": len(recs), "tasks with CPU time": len(cpu),
            "tasks with wall time only": wall_only,
            "CPU hours recorded": sum(cpu) / 3600, "wall hours recorded": wall / 3600,
            "wall seconds per task": wall / max(len(recs), 1)}


def cost_table(root=None, names=None) -> pd.DataFrame:
    """One row per store, with the time recorded for its tasks; a last row ``all`` sums them.

    Parameters
    ----------
    root : path, optional
        The stores folder (default: the one ``verify`` reads, :func:`store_root`).
    names : list of str, optional
        Protocols to include (default: every store under ``root``).

    Returns
    -------
    pandas.DataFrame
        Indexed by protocol, with the columns :data:`COLUMNS`: the protocol version, the tasks
        stored and those of the full protocol, the tasks whose record holds their CPU time
        (``cpu_seconds``) and those holding their wall-clock time only (older records), the CPU
        hours recorded (summed over the tasks with CPU time only), the wall-clock hours recorded
        (every task's ``seconds``) and the mean wall-clock seconds per stored task.

    Examples
    --------
    >>> from fsbook.experiments._cost import cost_table
    >>> t = cost_table(names=["geometry"])
    >>> list(t.index), int(t.loc["geometry", "tasks stored"])
    (['geometry', 'all'], 28)
    >>> n = t.loc["geometry", ["tasks with CPU time", "tasks with wall time only"]].astype(int)
    >>> int(n.sum())
    28
    """
    root = store_root() if root is None else Path(root)
    rows = {}
    for name in names or stored_protocols(root):
        protocol = load_protocol(name)
        store = Store(root / name, protocol)
        if not store.exists():
            raise FileNotFoundError(f"{root / name}: no store of {name} version {protocol.version}; build it "
                                    f"with `python -m fsbook.experiments {name} --full`")
        rows[name] = {"version": str(protocol.version),
                      "tasks (full protocol)": len(protocol.make_tasks(True)),
                      **_store_row(store.load(strict=True).values())}
    table = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=list(COLUMNS))
    counts = ["tasks stored", "tasks (full protocol)", "tasks with CPU time", "tasks with wall time only"]
    total = {"version": "", **{c: int(table[c].sum()) for c in counts},
             "CPU hours recorded": float(table["CPU hours recorded"].sum()),
             "wall hours recorded": float(table["wall hours recorded"].sum())}
    total["wall seconds per task"] = total["wall hours recorded"] * 3600 / max(total["tasks stored"], 1)
    table.loc["all"] = total
    table.index.name = "protocol"
    return table


def cost_parser():
    """The argument parser of ``python -m fsbook.experiments cost``."""
    return stores_parser("cost", "Tasks stored and the CPU and wall-clock time recorded for them, per store.")


def main(argv=None) -> int:
    """``python -m fsbook.experiments cost [NAME ...] [--root DIR]``."""
    p = cost_parser()
    args = p.parse_args(argv)
    _check_names(p, args.names)
    _check_root(p, args.root)
    t = cost_table(args.root, args.names)
    shown = t.assign(**{c: t[c].map(lambda v: f"{v:.2f}")
                        for c in ("CPU hours recorded", "wall hours recorded", "wall seconds per task")})
    shown.loc[t["tasks with CPU time"] == 0, "CPU hours recorded"] = "-"       # none recorded, not zero
    print(shown.to_string())
    print(textwrap.fill(LEGEND, width=100))
    missing = int(t.loc["all", "tasks (full protocol)"] - t.loc["all", "tasks stored"])
    if missing:
        print(f"{missing} tasks of the full protocols are not stored; their cost is not included")
    return 0

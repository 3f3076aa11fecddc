"""What the stores cost: ``python -m fsbook.experiments cost``.

For every store under the results folder: its protocol version, the tasks it holds against the
full protocol's task count, and the CPU time the runner recorded for them (each record's
``seconds``, measured on the machine that ran the task, see ``results/README.md``).  The sum
over the stores is what recomputing the whole book costs on such machines; tasks not stored yet
are counted, not guessed.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from fsbook.experiments._runner import load_protocol, store_root
from fsbook.experiments._store import Store

__all__ = ["cost_table", "main"]


def cost_table(root=None, names=None) -> pd.DataFrame:
    """One row per store: protocol, version, tasks stored, tasks of the full protocol, recorded
    CPU hours, and the mean recorded seconds per stored task; a last row ``all`` sums them.

    Parameters
    ----------
    root : path, optional
        The stores folder (default: the one ``verify`` reads, :func:`store_root`).
    names : list of str, optional
        Protocols to include (default: every store under ``root``).

    Examples
    --------
    >>> from fsbook.experiments._cost import cost_table
    >>> t = cost_table(names=["geometry"])
    >>> list(t.index), int(t.loc["geometry", "tasks stored"])
    (['geometry', 'all'], 28)
    """
    from fsbook.experiments._verify import stored_protocols

    root = store_root() if root is None else Path(root)
    rows = {}
    for name in names or stored_protocols(root):
        protocol = load_protocol(name)
        store = Store(root / name, protocol)
        if not store.exists():
            raise FileNotFoundError(f"{root / name}: no store of {name} version {protocol.version}; build it "
                                    f"with `python -m fsbook.experiments {name} --full`")
        records = store.load(strict=True)
        seconds = sum(float(r["seconds"] or 0.0) for r in records.values())
        rows[name] = {"version": str(protocol.version), "tasks stored": len(records),
                      "tasks (full protocol)": len(protocol.make_tasks(True)),
                      "CPU hours recorded": seconds / 3600,
                      "seconds per task": seconds / max(len(records), 1)}
    table = pd.DataFrame.from_dict(rows, orient="index")
    total = {"version": "", "tasks stored": int(table["tasks stored"].sum()),
             "tasks (full protocol)": int(table["tasks (full protocol)"].sum()),
             "CPU hours recorded": float(table["CPU hours recorded"].sum()),
             "seconds per task": float(table["CPU hours recorded"].sum() * 3600 / max(table["tasks stored"].sum(), 1))}
    table.loc["all"] = total
    table.index.name = "protocol"
    return table


def cost_parser():
    """The argument parser of ``python -m fsbook.experiments cost``."""
    p = argparse.ArgumentParser(prog="python -m fsbook.experiments cost", allow_abbrev=False,
                                description="Tasks stored and the CPU time recorded for them, per store.")
    p.add_argument("names", nargs="*", metavar="NAME", help="protocols (default: every store under --root)")
    p.add_argument("--root", default=None, metavar="DIR", help="stores folder (default: as verify's)")
    return p


def main(argv=None) -> int:
    """``python -m fsbook.experiments cost [NAME ...] [--root DIR]``."""
    from fsbook.experiments._verify import _check_names, _check_root

    p = cost_parser()
    args = p.parse_args(argv)
    _check_names(p, args.names)
    _check_root(p, args.root)
    t = cost_table(args.root, args.names)
    shown = t.assign(**{"CPU hours recorded": t["CPU hours recorded"].map(lambda v: f"{v:.2f}"),
                        "seconds per task": t["seconds per task"].map(lambda v: f"{v:.2f}")})
    print(shown.to_string())
    missing = int(t.loc["all", "tasks (full protocol)"] - t.loc["all", "tasks stored"])
    if missing:
        print(f"{missing} tasks of the full protocols are not stored; their cost is not included")
    return 0

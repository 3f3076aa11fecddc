"""Re-time a store: ``python -m fsbook.experiments retime <name> ...``.

The stores written before the runner measured CPU time record each task's wall-clock time only,
which overstates its cost whenever runs shared the cores.  Re-timing recomputes each such task
alone in this process, checks the fresh result against the stored one by the rule of ``verify``
(:func:`fsbook.experiments._comparison.compare_results`), and, when they agree, rewrites the record
with the **stored** result and the fresh wall and CPU times.  No result changes: a task whose
recomputation disagrees keeps its record and is reported, and the run exits with 1.  A store
whose results hold timings of their own (fields named like ``fit_time``) is refused, except
with ``--again`` (below): its records name the machine those timings come from.

The run is resumable: every re-timed record goes to the store's journal at once, and a later run
skips the records that hold a CPU time.  ``--cpu-budget-seconds`` stops after that much CPU time
(the task in flight finishes), so a long store can be re-timed in sittings.

``--again`` re-times records that hold a CPU time too: after a change that makes the code faster
without changing a result, the store then records what the current code costs.  Such a record
takes the fresh values of the measurements its result holds (the fields the comparison leaves
out: a selector's fit time, a memory peak) and the stored values of everything else, so a store
whose results hold timings can be re-timed this way.  An ``--again`` run leaves its records in
the journal until every selected record is re-timed (a later ``--again``
run skips those already in the journal) and packs the store then.  ``--only KEY=V1,V2`` selects
the records whose parameter ``KEY`` is one of the values, as for a protocol run.
"""
from __future__ import annotations

import argparse
import time

from fsbook.experiments._comparison import TIMING_FIELD, _rule_for, compare_results
from fsbook.experiments._reading import store_root
from fsbook.experiments._runner import load_protocol
from fsbook.experiments._store import Store, make_record
from fsbook.experiments._workers import call_task

__all__ = ["retime", "main", "timing_fields", "with_fresh_measurements"]

#: a result field holding a timing: verify's pattern (case-sensitive: ``size_S``, ``min_eig_S``
#: name a matrix S, not seconds)
TIMING_NAME = TIMING_FIELD


def timing_fields(result, path="") -> list:
    """The dotted paths of the fields of ``result`` whose names mark a timing (:data:`TIMING_NAME`).

    Examples
    --------
    >>> from fsbook.experiments._retime import timing_fields
    >>> timing_fields({"error": 0.1, "fit": {"cpu_seconds": 2.0}, "times": [1.0]})
    ['fit.cpu_seconds', 'times']
    """
    out = []
    if isinstance(result, dict):
        for k, v in result.items():
            name = f"{path}.{k}" if path else str(k)
            out += [name] if TIMING_NAME.search(str(k)) else timing_fields(v, name)
    elif isinstance(result, list):
        for i, v in enumerate(result):
            out += timing_fields(v, f"{path}[{i}]")
    return out


def with_fresh_measurements(stored, fresh, protocol=None, path=""):
    """``stored`` with the fresh values of the fields the comparison does not compare (timings
    such as ``fit_time``, and what the protocol's ``tolerances`` mark ``None``: a CPU time or a
    memory peak measured with the result), the stored values of every other field.

    A record re-timed with ``--again`` then names this machine for every measurement it holds.

    Examples
    --------
    >>> from fsbook.experiments._retime import with_fresh_measurements
    >>> with_fresh_measurements({"error": 0.1, "fit_time": [2.0]}, {"error": 0.1000000001, "fit_time": [0.5]})
    {'error': 0.1, 'fit_time': [0.5]}
    """
    if isinstance(stored, dict) and isinstance(fresh, dict):
        out = {}
        for k, v in stored.items():
            name = f"{path}.{k}" if path else str(k)
            if k in fresh and _rule_for(protocol, name, str(k), "compared") is None:
                out[k] = fresh[k]
            else:
                out[k] = with_fresh_measurements(v, fresh.get(k), protocol, name)
        return out
    if isinstance(stored, list) and isinstance(fresh, list) and len(stored) == len(fresh):
        return [with_fresh_measurements(a, b, protocol, f"{path}[{i}]") for i, (a, b) in enumerate(zip(stored, fresh))]
    return stored


def retime(protocol, root=None, cpu_budget_seconds=None, progress=True, echo=print, again=False,
           only=None) -> dict:
    """Re-time the records of ``protocol``'s store that lack a CPU time (``again``: every record).

    Parameters
    ----------
    protocol : Protocol or str
    root : path, optional
        The stores' folder (default :func:`~fsbook.experiments._reading.store_root`).
    cpu_budget_seconds : float, optional
        Stop once the re-timed tasks have used this much CPU time (default: no limit).
    progress : bool
        Show a progress bar.
    again : bool
        Re-time the records that hold a CPU time too, except those already in the journal (a run
        of ``again`` that stopped early); pack the store when none is left.
    only : dict, optional
        ``{parameter: values}``: re-time only the records whose parameter is one of the values
        (compared as text, as ``--only``).

    Returns
    -------
    dict
        ``retimed`` (records rewritten), ``mismatched`` (task keys whose recomputation disagrees,
        left as stored), ``left`` (records still without a CPU time), ``cpu_seconds`` (of this
        run's tasks) and ``recorded_seconds`` (their stored wall times).
    """
    from tqdm.auto import tqdm

    protocol = load_protocol(protocol) if isinstance(protocol, str) else protocol
    folder = (store_root() if root is None else root) / protocol.name
    store = Store(folder, protocol)
    out = {"retimed": 0, "mismatched": [], "left": 0, "cpu_seconds": 0.0, "recorded_seconds": 0.0}
    with store.writing():
        records = store.load(strict=True, audit=True)
        timed = sorted({f for rec in records.values() for f in timing_fields(rec["result"])})
        if timed and not again:
            raise ValueError(f"{protocol.name}: its results hold timings ({', '.join(timed[:3])}"
                             f"{', ...' if len(timed) > 3 else ''}) measured where they were computed; "
                             "a re-timed record would name this machine for them, so the store is re-timed only "
                             "with --again, which measures them afresh too")
        selected = {k for k, rec in records.items()
                    if all(key in rec["params"] and str(rec["params"][key]) in set(map(str, values))
                           for key, values in (only or {}).items())}
        if only and not selected:
            raise ValueError(f"{protocol.name}: no stored task has {only}")
        done = set(store._journal(lambda message: None)) if again and store.journal_path.exists() else set()
        todo = sorted(k for k in selected if (k not in done) if again or records[k].get("cpu_seconds") is None)
        bar = tqdm(todo, desc=f"retime {protocol.name}", disable=not progress, unit="task")
        try:
            for i, key in enumerate(bar):
                if cpu_budget_seconds is not None and out["cpu_seconds"] >= cpu_budget_seconds:
                    break
                rec = records[key]
                _, fresh, seconds, cpu, machine = call_task(protocol.run_task, i, rec["params"])
                diffs = compare_results(rec["result"], fresh, protocol)
                if diffs:
                    out["mismatched"].append(key)
                    echo(f"{protocol.name} task {key}: the recomputation disagrees, record kept:\n    "
                         + "\n    ".join(diffs))
                    continue
                result = with_fresh_measurements(rec["result"], fresh, protocol) if again else rec["result"]
                new = make_record(key, rec["params"], result, seconds, machine, cpu_seconds=cpu)
                store.append(new)
                records[key] = new
                out["retimed"] += 1
                out["cpu_seconds"] += cpu or 0.0
                out["recorded_seconds"] += float(rec["seconds"] or 0.0)
        finally:
            finished = out["retimed"] + len(out["mismatched"]) == len(todo)
            if not again or finished:
                store.pack(records)
    out["left"] = (len(todo) - out["retimed"] - len(out["mismatched"]) if again else
                   sum(rec.get("cpu_seconds") is None for rec in records.values()))
    return out


def retime_parser():
    p = argparse.ArgumentParser(prog="python -m fsbook.experiments retime",
                                description="Recompute the stored tasks that lack a CPU time, check each against "
                                            "its stored result, and record its wall and CPU time (results unchanged).",
                                allow_abbrev=False)
    p.add_argument("protocol", nargs="+", metavar="NAME", help="the protocols whose stores to re-time")
    p.add_argument("--root", default=None, metavar="DIR", help="stores folder (default: the clone's results/)")
    p.add_argument("--cpu-budget-seconds", type=float, default=None, metavar="S",
                   help="stop after this much CPU time (resume later with the same command)")
    p.add_argument("--again", action="store_true",
                   help="re-time records that hold a CPU time too (after a speed-up that changes no result)")
    p.add_argument("--only", action="append", default=[], metavar="KEY=V1,V2",
                   help="re-time only the records whose parameter KEY is one of the values (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def parse_only(parser, specs) -> dict:
    """``{KEY: [V1, V2, ...]}`` of the ``--only KEY=V1,V2`` options ``specs`` (the run's and
    ``retime``'s); a malformed one stops ``parser`` with its message.

    Examples
    --------
    >>> parse_only(argparse.ArgumentParser(), ["part=yale", "fold=0,1"])
    {'part': ['yale'], 'fold': ['0', '1']}
    """
    only = {}
    for spec in specs:
        key, sep, values = spec.partition("=")
        if not sep or not key:
            parser.error(f"--only expects KEY=V1,V2, got {spec!r}")
        only[key] = values.split(",")
    return only


def main(argv=None) -> int:
    """``python -m fsbook.experiments retime NAME [NAME ...] [--root DIR] [--cpu-budget-seconds S] [--again]
    [--only KEY=V1,V2]``."""
    from pathlib import Path

    parser = retime_parser()
    args = parser.parse_args(argv)
    root = None if args.root is None else Path(args.root)
    only = parse_only(parser, args.only)
    code = 0
    for name in args.protocol:
        start = time.perf_counter()
        r = retime(name, root, args.cpu_budget_seconds, progress=not args.quiet, again=args.again, only=only or None)
        print(f"{name}: {r['retimed']} tasks re-timed in {time.perf_counter() - start:.0f} s wall, "
              f"{r['cpu_seconds'] / 3600:.3f} CPU-h (their stored wall time {r['recorded_seconds'] / 3600:.3f} h); "
              f"{len(r['mismatched'])} disagree (kept as stored); {r['left']} "
              + ("selected records left to re-time" if args.again else "still without a CPU time"))
        code = code or (1 if r["mismatched"] else 0)
    return code

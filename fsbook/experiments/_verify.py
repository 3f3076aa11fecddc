"""Verify the committed stores by recomputation: ``python -m fsbook.experiments verify``.

A checksum only shows that a record is the one written; recomputing shows that it is what the
code computes.  For every protocol with a store under ``results/``, :func:`verify` recomputes a
sample of its stored tasks with the protocol's ``run_task`` within a time budget and compares
each result with the stored one field by field
(:func:`~fsbook.experiments._comparison.compare_results`, which states the rule and how a
protocol overrides it).

Which tasks (:func:`~fsbook.experiments._turns.plan_turns`, :func:`verify`): every stored task
of every protocol is placed in one *turn*, packed by the tasks' recorded costs so that a turn
costs at most the budget (``--budget-seconds``, 300 s in CI); a task costing more than the
budget is a turn of its own.
A run recomputes one turn: by default turn ``c mod N``, where ``c`` is the number of commits of
``HEAD`` and ``N`` the number of turns, so ``N`` consecutive commits recompute every stored task
once, the costliest included (a turn holding one task dearer than the budget takes as long as
that task); ``--turn K`` repeats a turn and ``--all`` recomputes everything.  The plan depends
only on the stores and the budget; it changes when a store does.  The run prints the plan, the
turn, and the coverage (tasks recomputed / stored, cycle length); a protocol with no task in
the turn is reported as "not checked", never "OK".  Tasks that share a setup their records do
not cost (``Protocol(shared_setup=..., setup_seconds=...)``: the text tasks' topic model, fitted
once per topic count and process) are scheduled in chunks of one setup each
(:func:`~fsbook.experiments._turns.setup_chunks`), so a turn pays a setup once per chunk, as
its plan counts it.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from fsbook.experiments._comparison import compare_results
from fsbook.experiments._reading import build_command, store_root
from fsbook.experiments._registry import available_protocols, protocol_modules
from fsbook.experiments._runner import RawDataUnavailable, load_protocol
from fsbook.experiments._store import Store, canonical_json, normalise, task_key
from fsbook.experiments._turns import MIN_COST, Item, commit_counter, plan_turns, setup_chunks
from fsbook.experiments._workers import call_task, ignore_sigint


# ----------------------------------------------------------------------------- verification
def stored_protocols(root) -> list:
    """Names of the protocol modules (with a ``PROTOCOL``) that have a folder under ``root``."""
    return [n for n, module in protocol_modules().items() if (Path(root) / n).is_dir()
            and hasattr(importlib.import_module(module), "PROTOCOL")]


@dataclass
class Report:
    """Outcome of verifying one protocol's store."""

    protocol: str
    n_stored: int = 0
    n_checked: int = 0
    n_skipped: int = 0
    seconds: float = 0.0
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No mismatch and no damaged or outdated store (also when nothing was recomputed)."""
        return not self.problems

    @property
    def status(self) -> str:
        """``"N MISMATCHES"``, ``"OK"`` (recomputed tasks all agree) or ``"not checked"``
        (nothing recomputed: no verdict)."""
        if self.problems:
            return f"{len(self.problems)} MISMATCHES"
        return "OK" if self.n_checked else "not checked"


def load_records(protocol, folder, report: Report):
    """The store's records (every checksum audited), or ``None`` with the problem in ``report``."""
    store = Store(folder, protocol)
    command = build_command(protocol, True, folder)
    if store.legacy_layout() or not store.exists():
        why = "old per-file layout" if store.legacy_layout() else \
            f"only version {', '.join(store.other_versions()) or '(none)'}, the code is version {protocol.version}"
        report.problems.append(f"{folder}: {why}; rebuild it with `{command}`")
        return None
    try:
        records = store.load(strict=True, audit=True)
    except ValueError as e:
        report.problems.append(f"{folder}: {e}")
        return None
    report.n_stored = len(records)
    return records


def _checked_call(run_task, index, params):
    """:func:`~fsbook.experiments._workers.call_task` that returns a failure as ``(index, None,
    message, None, None)`` instead of raising (a task that no longer runs is a reported mismatch, not the end of the run), and a task that
    needs raw data this machine does not have
    (:class:`~fsbook.experiments._runner.RawDataUnavailable`) as ``(index, None, message,
    "skipped", None)``."""
    try:
        return call_task(run_task, index, params)
    except Exception as e:
        cause = e.__cause__ or e
        if isinstance(cause, RawDataUnavailable):
            return index, None, f"skipped: {cause}", "skipped", None
        return index, None, f"recomputation failed: {type(cause).__name__}: {cause}", None, None


def recompute(protocol, records, n_jobs: int = 1):
    """Yield ``(record, mismatches)`` for each of ``records``, recomputed with the protocol's
    ``run_task`` (in this process, or on ``n_jobs`` loky processes) and compared with
    :func:`compare_results`; ``mismatches`` is ``None`` for a task skipped for want of its raw
    data (:func:`_checked_call`)."""
    from joblib import Parallel, delayed

    records = list(records)
    if n_jobs == 1:
        stream = (_checked_call(protocol.run_task, i, r["params"]) for i, r in enumerate(records))
    else:
        stream = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered",
                          initializer=ignore_sigint)(
            delayed(_checked_call)(protocol.run_task, i, r["params"]) for i, r in enumerate(records))
    for i, fresh, secs, skipped, _ in stream:
        if fresh is None:
            yield records[i], None if skipped == "skipped" else [secs]
            continue
        try:
            diffs = compare_results(records[i]["result"], fresh, protocol)
        except Exception as e:             # a comparison that fails is reported, not raised
            diffs = [f"comparison failed: {type(e).__name__}: {e}"]
        yield records[i], diffs


def _seconds(x: float) -> str:
    return f"{x:,.0f} s".replace(",", " ") if x >= 10 else f"{x:.1f} s"


def verify(protocols=None, root=None, budget_seconds: float = 300.0, turn=None, all_turns: bool = False,
           n_jobs: int = 1, echo=print) -> int:
    """Verify the stores under ``root`` (default :func:`store_root`) by recomputing one turn of
    their tasks (or all of them); returns the exit code: 0 when every recomputed task agrees
    and every store is readable and current, 1 otherwise.

    Parameters
    ----------
    protocols : list of Protocol or str, optional
        The protocols to consider (default every protocol module with a folder under ``root``).
    budget_seconds : float
        The recorded cost of one turn (:func:`plan_turns`).
    turn : int, optional
        The turn to recompute, taken modulo the number of turns; default: the commit counter
        (:func:`commit_counter`), so consecutive commits recompute consecutive turns and every
        stored task is recomputed once in as many consecutive commits as there are turns.
    all_turns : bool
        Recompute every stored task (every turn).
    n_jobs : int
        Processes recomputing the tasks (1: this process).

    A protocol none of whose tasks was recomputed is reported as "not checked", never "OK".
    """
    root = store_root() if root is None else Path(root)
    if protocols is None:
        protocols = stored_protocols(root)
    protocols = [load_protocol(p) if isinstance(p, str) else p for p in protocols]
    protocols = [p for p in protocols if (root / p.name).is_dir()]
    if not protocols:
        echo(f"verify: no store under {root}")
        return 0
    reports = {p.name: Report(p.name) for p in protocols}
    records = {}
    for p in protocols:
        recs = load_records(p, root / p.name, reports[p.name])
        if recs is not None:
            records[p.name] = recs
    items = []
    for p in protocols:
        recs = records.get(p.name)
        if recs is None:
            continue
        costs = {key: max(float(rec["seconds"] or 0.0), MIN_COST) for key, rec in recs.items()}
        if p.shared_setup is None:
            items += [Item(p.name, key, cost) for key, cost in costs.items()]
        else:
            setup_of = {key: p.shared_setup(rec["params"]) for key, rec in recs.items()}
            items += setup_chunks(p.name, costs, setup_of, p.setup_seconds, budget_seconds)
    total = sum(len(it.task_keys) for it in items)
    turns = plan_turns(items, budget_seconds) if items else []
    n_turns, long = len(turns), [t for t in turns if t[0].cost > budget_seconds]
    if all_turns:
        chosen = list(range(n_turns))
        echo(f"verify --all: every stored task, {n_turns} turns (recorded cost "
             f"{_seconds(sum(it.cost for it in items))})")
    else:
        if turn is None:
            counter, source = commit_counter()
        else:
            counter, source = turn, "--turn"
        chosen = [counter % n_turns] if n_turns else []
        if n_turns:
            echo(f"verify: turn {chosen[0]} of {n_turns} ({source} mod {n_turns}); rerun it with "
                 f"--turn {chosen[0]}")
    if n_turns:
        dearest = max(it.cost for it in items)
        echo(f"  plan: {total} stored tasks in {n_turns} turns, {n_turns - len(long)} of at most "
             f"{_seconds(budget_seconds)} of recorded cost and {len(long)} of one task costing more"
             + (f" (up to {_seconds(dearest)})" if long else "")
             + f"; every stored task is recomputed once in {n_turns} consecutive turns while the "
               "stores are unchanged")
    todo = [it for i in chosen for it in turns[i]]
    for p in protocols:
        mine = [it for it in todo if it.protocol == p.name]
        mine_keys = [key for it in mine for key in it.task_keys]
        report = reports[p.name]
        if p.name not in records:
            continue
        full_keys = {task_key(p, normalise(q)) for q in p.make_tasks(True)}
        echo(f"{p.name} v{p.version}: {report.n_stored} tasks stored "
             f"({len(full_keys & set(records[p.name]))} of the {len(full_keys)} --full tasks); "
             f"recomputing {len(mine_keys)} (recorded cost {_seconds(sum(it.cost for it in mine))}"
             + (f", {len(mine)} shared setups of about {_seconds(p.setup_seconds)} included" if p.shared_setup
                and mine else "") + ")")
        start = time.perf_counter()
        for rec, diffs in recompute(p, [records[p.name][key] for key in mine_keys], n_jobs):
            if diffs is None:                       # its raw data is not on this machine
                report.n_skipped += 1
                continue
            report.n_checked += 1
            if diffs:
                report.problems.append(f"task {rec['key']} params {canonical_json(rec['params'])}:\n    "
                                       + "\n    ".join(diffs))
        report.seconds = time.perf_counter() - start
    for r in reports.values():
        skipped = f" ({r.n_skipped} skipped: their raw data is not on this machine)" if r.n_skipped else ""
        echo(f"{r.protocol}: {r.n_checked} of {r.n_stored} recomputed in {r.seconds:.1f} s{skipped}, {r.status}")
    checked = sum(r.n_checked for r in reports.values())
    if n_turns:
        echo(f"coverage: {checked} of {total} stored tasks recomputed this run "
             f"({100 * checked / total:.1f} %); cycle: {n_turns} turns"
             + ("" if all_turns else f", `--all` recomputes every task ({_seconds(sum(it.cost for it in items))} "
                                      "of recorded cost)"))
    bad = [r for r in reports.values() if not r.ok]
    for r in bad:
        for problem in r.problems:
            echo(f"MISMATCH {r.protocol} {problem}")
    return 1 if bad else 0


def _integer(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def _n_jobs(text):
    n = _integer(text)
    if n == 0 or n < -1:
        raise argparse.ArgumentTypeError(f"must be a positive integer or -1 (every core), got {n}")
    return n


def _turn(text):
    n = _integer(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {n}")
    return n


def verify_parser():
    """The argument parser of ``python -m fsbook.experiments verify``."""
    p = argparse.ArgumentParser(
        prog="python -m fsbook.experiments verify", allow_abbrev=False,
        description="Recompute one turn of the stored tasks of every protocol (or all of them) and compare "
                    "them field by field; every stored task is recomputed once in a cycle of turns.")
    p.add_argument("--budget-seconds", type=float, default=300.0, metavar="S",
                   help="recorded cost of one turn (default 300); tasks costing more are a turn each")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--turn", type=_turn, default=None, metavar="K",
                       help="the turn to recompute, modulo the number of turns (default: the commit count of "
                            "HEAD, else the day)")
    which.add_argument("--all", action="store_true", help="recompute every stored task (every turn)")
    p.add_argument("--n-jobs", type=_n_jobs, default=1, metavar="N", help="processes recomputing the tasks (default 1)")
    p.add_argument("--root", default=None, metavar="DIR", help="stores folder (default: FSBOOK_RESULTS_DIR, the stores "
                                                "installed with fsbook, or the clone's results/)")
    p.add_argument("--protocol", action="append", default=None, metavar="NAME",
                   help="verify only this protocol (repeatable)")
    p.add_argument("--seed", default=None, help=argparse.SUPPRESS)       # replaced by --turn
    return p


def _check_names(parser, names):
    known = protocol_modules(private=True)          # the template's protocols may be verified too
    for name in names or []:
        if name not in known:
            parser.error(f"unknown protocol {name!r}; choose one of {', '.join(available_protocols())}")


def _check_root(parser, root):
    if root is not None and not Path(root).is_dir():
        parser.error(f"--root {root}: no such folder")


def main(argv=None) -> int:
    """``python -m fsbook.experiments verify [--budget-seconds S] [--turn K | --all] [--n-jobs N]
    [--root DIR] [--protocol NAME ...]``."""
    p = verify_parser()
    args = p.parse_args(argv)
    if not math.isfinite(args.budget_seconds) or args.budget_seconds <= 0:
        p.error("--budget-seconds must be positive")
    if args.seed is not None:
        p.error("--seed is gone: verify recomputes turns that cover every stored task; "
                "--turn K repeats one, --all runs them all")
    _check_names(p, args.protocol)
    _check_root(p, args.root)
    code = verify(args.protocol, args.root, args.budget_seconds, turn=args.turn, all_turns=args.all,
                  n_jobs=args.n_jobs)
    sys.stdout.flush()
    return code


def stores_parser(command, description):
    """The argument parser of ``python -m fsbook.experiments COMMAND [NAME ...] [--root DIR]``
    (``pack``, ``cost``)."""
    p = argparse.ArgumentParser(prog=f"python -m fsbook.experiments {command}", allow_abbrev=False,
                                description=description)
    p.add_argument("names", nargs="*", metavar="NAME", help="protocols (default: every store under --root)")
    p.add_argument("--root", default=None, metavar="DIR", help="stores folder (default: as verify's)")
    return p


def pack_parser():
    """The argument parser of ``python -m fsbook.experiments pack``."""
    return stores_parser("pack", "Merge each store's journal (left by an interrupted run) into its pack.")


def pack_main(argv=None) -> int:
    """``python -m fsbook.experiments pack [NAME ...] [--root DIR]``: merge journals left by
    interrupted runs into the packs."""
    p = pack_parser()
    args = p.parse_args(argv)
    _check_names(p, args.names)
    _check_root(p, args.root)
    root = store_root() if args.root is None else Path(args.root)
    for name in args.names or stored_protocols(root):
        store = Store(root / name, load_protocol(name))
        store.check_layout()
        with store.writing():
            records = store.load()
            print(f"{name}: {len(records)} tasks in {store.pack(records)}")
    return 0

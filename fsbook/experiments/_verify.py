"""Verify the committed stores by recomputation: ``python -m fsbook.experiments verify``.

A checksum only shows that a record is the one written; recomputing shows that it is what the
code computes.  For every protocol with a store under ``results/``, :func:`verify` recomputes a
sample of its stored tasks with the protocol's ``run_task`` within a time budget and compares
each result with the stored one field by field (:func:`compare_results`):

* integers, booleans, strings, ``None`` (a non-finite float) and the structure (dict keys, list
  lengths, types) exactly: chosen parameters, selected features and counts are discrete;
* floats within ``|a - b| <= atol + rtol * max(|a|, |b|)``, by default ``rtol = 1e-6`` and
  ``atol = 1e-9`` (:data:`DEFAULT_RTOL`, :data:`DEFAULT_ATOL`): the solvers' stopping
  tolerances are 1e-6 or tighter, and a task recomputed on the machine that ran it gives the
  same bits;
* fields whose name marks a timing (``seconds``, ``time``, ``fit_time``, ``elapsed``,
  ``*_s``, ...: :data:`TIMING_FIELD`) not at all.

A protocol overrides the rule per field with ``Protocol(tolerances={pattern: rule})`` (``rule``
is ``(rtol, atol)``, ``"exact"`` or ``None``; ``pattern`` is matched against the dotted path,
e.g. ``"curves.*"``, or the field's name), or replaces it with ``Protocol(compare=...)``.

The sample rotates with a printed seed (by default from the git commit, else the date) and is
drawn with weights ``1 / cost`` (the recorded ``seconds``), so cheap tasks are checked most
often, until the protocol's share of the budget is used.
"""

from __future__ import annotations

import argparse
import datetime
import math
import re
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np

from fsbook.experiments._runner import _call, build_command, load_protocol, store_root, task_key
from fsbook.experiments._store import Store, canonical_json, normalise

#: default relative tolerance for floats
DEFAULT_RTOL = 1e-6
#: default absolute tolerance for floats
DEFAULT_ATOL = 1e-9
#: a field whose name matches is a timing and is not compared
TIMING_FIELD = re.compile(r"(^|_)(time|times|seconds|secs|elapsed|duration|timing|runtime)$|_s$",
                          re.IGNORECASE)
#: the smallest cost assumed for a task (seconds), so weights stay finite
MIN_COST = 1e-3


# ----------------------------------------------------------------------------- comparison
def _rule_for(protocol, path: str, name: str, inherited):
    for pattern, rule in (getattr(protocol, "tolerances", None) or {}).items():
        if fnmatchcase(path, pattern) or fnmatchcase(name, pattern):
            return rule
    if TIMING_FIELD.search(name):
        return None
    return inherited


def _close(a: float, b: float, rule) -> bool:
    if rule == "exact":
        return a == b
    rtol, atol = rule
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def _describe(rule) -> str:
    return "exactly" if rule == "exact" else f"within rtol {rule[0]:g}, atol {rule[1]:g}"


def compare_results(stored, fresh, protocol=None, path: str = "", rule=(DEFAULT_RTOL, DEFAULT_ATOL)):
    """Mismatches between a stored and a recomputed result, as readable lines.

    Parameters
    ----------
    stored, fresh : JSON values
        A stored result and the normalised recomputed one.
    protocol : Protocol, optional
        Its ``tolerances`` override the default rule per field; its ``compare``, if set,
        replaces this function.

    Returns
    -------
    list of str
        One line per differing field: its dotted path, both values and the rule; empty when
        the results agree.

    Examples
    --------
    >>> compare_results({"C": 1, "acc": 0.5, "fit_time": 3.0}, {"C": 1, "acc": 0.5000001, "fit_time": 9.0})
    []
    >>> compare_results({"C": 1, "acc": 0.5}, {"C": 10, "acc": 0.6})
    ['C: stored 1, recomputed 10 (compared exactly)', 'acc: stored 0.5, recomputed 0.6 (compared within rtol 1e-06, atol 1e-09)']
    """
    if protocol is not None and getattr(protocol, "compare", None) is not None and path == "":
        return list(protocol.compare(stored, fresh))
    where = path or "result"
    if rule is None:
        return []
    if isinstance(stored, dict) and isinstance(fresh, dict):
        out = []
        if set(stored) != set(fresh):
            out.append(f"{where}: stored fields {sorted(stored)}, recomputed fields {sorted(fresh)}")
        for k in sorted(set(stored) & set(fresh)):
            sub = f"{path}.{k}" if path else k
            out += compare_results(stored[k], fresh[k], protocol, sub, _rule_for(protocol, sub, k, rule))
        return out
    if isinstance(stored, list) and isinstance(fresh, list):
        if len(stored) != len(fresh):
            return [f"{where}: stored {len(stored)} items, recomputed {len(fresh)}"]
        out = []
        for i, (a, b) in enumerate(zip(stored, fresh)):
            out += compare_results(a, b, protocol, f"{path}[{i}]", rule)
        return out
    if type(stored) is float and type(fresh) is float:
        ok = _close(stored, fresh, rule)
        return [] if ok else [f"{where}: stored {stored!r}, recomputed {fresh!r} (compared {_describe(rule)})"]
    if type(stored) is not type(fresh) or stored != fresh:
        return [f"{where}: stored {stored!r}, recomputed {fresh!r} (compared exactly)"]
    return []


# ----------------------------------------------------------------------------- sampling
def choose_sample(records, budget_seconds: float, rng) -> list:
    """A weighted sample of ``records`` whose recorded costs fit ``budget_seconds``.

    Weighted sampling without replacement (Efraimidis & Spirakis: key ``u ** cost`` for
    weight ``1 / cost``, largest keys first), keeping each drawn task that still fits the
    remaining budget.  Records without a recorded cost are never chosen.  ``records`` are
    taken in key order, so the sample is a function of the records and the generator.
    """
    recs = sorted((r for r in records if r.get("seconds") is not None), key=lambda r: r["key"])
    if not recs:
        return []
    cost = np.array([max(float(r["seconds"]), MIN_COST) for r in recs])
    order = np.argsort(-(rng.random(len(recs)) ** cost), kind="stable")
    chosen, left = [], float(budget_seconds)
    for i in order:
        if cost[i] <= left:
            chosen.append(recs[i])
            left -= cost[i]
    return chosen


def default_seed():
    """``(seed, source)``: the first 8 hex digits of the git commit, else the UTC date."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        return int(head[:8], 16), f"git commit {head[:12]}"
    except (OSError, subprocess.SubprocessError, ValueError):
        today = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d")
        return int(today), f"date {today}"


# ----------------------------------------------------------------------------- verification
def stored_protocols(root) -> list:
    """Names of the protocol modules (with a ``PROTOCOL``) that have a folder under ``root``."""
    import importlib

    from fsbook.experiments.__main__ import available_protocols

    return [n for n in available_protocols() if (Path(root) / n).is_dir()
            and hasattr(importlib.import_module(f"fsbook.experiments.{n}"), "PROTOCOL")]


@dataclass
class Report:
    """Outcome of verifying one protocol's store."""

    protocol: str
    n_stored: int = 0
    n_checked: int = 0
    seconds: float = 0.0
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_store(protocol, folder, budget_seconds: float, seed: int, echo=print) -> Report:
    """Check one store: its layout and version, every record's checksum, and a recomputed
    sample (see :func:`choose_sample`, :func:`compare_results`)."""
    report = Report(protocol.name)
    store = Store(folder, protocol)
    command = build_command(protocol, True, folder)
    if store.legacy_layout() or not store.exists():
        why = "old per-file layout" if store.legacy_layout() else \
            f"only version {', '.join(store.other_versions()) or '(none)'}, the code is version {protocol.version}"
        report.problems.append(f"{folder}: {why}; rebuild it with `{command}`")
        return report
    try:
        records = store.load(strict=True, audit=True)
    except ValueError as e:
        report.problems.append(f"{folder}: {e}")
        return report
    report.n_stored = len(records)
    full_keys = {task_key(protocol, normalise(p)) for p in protocol.make_tasks(True)}
    n_full = len(full_keys & set(records))
    rng = np.random.default_rng([seed, zlib.crc32(protocol.name.encode())])
    sample = choose_sample(records.values(), budget_seconds, rng)
    echo(f"{protocol.name} v{protocol.version}: {len(records)} tasks stored ({n_full} of the "
         f"{len(full_keys)} --full tasks); recomputing {len(sample)} (recorded cost "
         f"{sum(r['seconds'] for r in sample):.1f} s of a {budget_seconds:.1f} s share)")
    if records and not sample:
        costs = [r["seconds"] for r in records.values() if r["seconds"] is not None]
        echo(f"  no stored task fits the share (cheapest: {min(costs):.1f} s); raise --budget-seconds"
             if costs else "  no stored task has a recorded cost")
    start = time.perf_counter()
    for rec in sample:
        if time.perf_counter() - start > budget_seconds:
            echo(f"  budget used: stopped after {report.n_checked} tasks")
            break
        try:
            _, fresh, _, _ = _call(protocol.run_task, 0, rec["params"])
            diffs = compare_results(rec["result"], fresh, protocol)
        except Exception as e:             # a task that no longer runs is a failure, reported
            diffs = [f"recomputation failed: {type(e).__name__}: {e}"]
        report.n_checked += 1
        if diffs:
            report.problems.append(f"task {rec['key']} params {canonical_json(rec['params'])}:\n    "
                                   + "\n    ".join(diffs))
    report.seconds = time.perf_counter() - start
    return report


def verify(protocols=None, root=None, budget_seconds: float = 300.0, seed=None, echo=print) -> int:
    """Verify every store under ``root`` (default the repository's ``results/``); returns the
    exit code: 0 when every recomputed task agrees, 1 otherwise.

    ``protocols`` (``Protocol`` objects or names; default every protocol module) lists the
    protocols to consider; those without a folder under ``root`` are skipped.  The budget is
    shared: each protocol in turn gets the budget still unused divided by the number of
    protocols left, so time a protocol does not use passes to the next ones.
    """
    root = store_root() if root is None else Path(root)
    if seed is None:
        seed, source = default_seed()
    else:
        source = "--seed"
    echo(f"verify: seed {seed} ({source}); rerun this sample with --seed {seed}")
    if protocols is None:
        protocols = stored_protocols(root)
    protocols = [load_protocol(p) if isinstance(p, str) else p for p in protocols]
    protocols = [p for p in protocols if (root / p.name).is_dir()]
    if not protocols:
        echo(f"verify: no store under {root}")
        return 0
    left, reports = float(budget_seconds), []
    for n, protocol in enumerate(protocols):
        share = max(left, 0.0) / (len(protocols) - n)
        start = time.perf_counter()
        reports.append(verify_store(protocol, root / protocol.name, share, seed, echo))
        left -= time.perf_counter() - start
    bad = [r for r in reports if not r.ok]
    for r in reports:
        echo(f"{r.protocol}: {r.n_checked} recomputed in {r.seconds:.1f} s, "
             f"{'OK' if r.ok else f'{len(r.problems)} MISMATCHES'}")
    for r in bad:
        for problem in r.problems:
            echo(f"MISMATCH {r.protocol} {problem}")
    return 1 if bad else 0


def main(argv=None) -> int:
    """``python -m fsbook.experiments verify [--budget-seconds S] [--seed N] [--root DIR]
    [--protocol NAME ...]``."""
    p = argparse.ArgumentParser(prog="python -m fsbook.experiments verify",
                                description="Recompute a rotating, cost-weighted sample of the stored "
                                            "tasks of every protocol and compare them field by field.")
    p.add_argument("--budget-seconds", type=float, default=300.0, help="total time budget (default 300)")
    p.add_argument("--seed", type=int, default=None, help="sample seed (default: from the git commit)")
    p.add_argument("--root", default=None, help="stores folder (default: the repository's results/)")
    p.add_argument("--protocol", action="append", default=None, help="verify only this protocol (repeatable)")
    args = p.parse_args(argv)
    if not math.isfinite(args.budget_seconds) or args.budget_seconds <= 0:
        p.error("--budget-seconds must be positive")
    code = verify(args.protocol, args.root, args.budget_seconds, args.seed)
    sys.stdout.flush()
    return code


def pack_main(argv=None) -> int:
    """``python -m fsbook.experiments pack [NAME ...] [--root DIR]``: merge journals left by
    interrupted runs into the packs."""
    p = argparse.ArgumentParser(prog="python -m fsbook.experiments pack",
                                description="Merge each store's journal into its pack.")
    p.add_argument("names", nargs="*", help="protocols (default: every store under --root)")
    p.add_argument("--root", default=None, help="stores folder (default: the repository's results/)")
    args = p.parse_args(argv)
    root = store_root() if args.root is None else Path(args.root)
    for name in args.names or stored_protocols(root):
        store = Store(root / name, load_protocol(name))
        store.check_layout()
        with store.writing():
            records = store.load()
            print(f"{name}: {len(records)} tasks in {store.pack(records)}")
    return 0

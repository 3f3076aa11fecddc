"""Command line: ``python -m fsbook.experiments <name> [--full] [--n-jobs N]
[--backend loky|dask] [--scheduler ADDRESS] [--out DIR] [--resume | --no-resume]
[--only KEY=V1,V2 ...]``.

``<name>`` is a module ``fsbook.experiments.<name>``; its ``PROTOCOL`` is run by
:func:`fsbook.experiments.run_protocol` into its store (default ``results/<name>``).
``python -m fsbook.experiments verify [--budget-seconds S] [--seed N]`` recomputes a sample of
every store's tasks (:mod:`fsbook.experiments._verify`); ``python -m fsbook.experiments pack``
merges journals left by interrupted runs into the packs.  Every protocol module defines
``PROTOCOL``; a public module without one is refused.
"""

import argparse
import importlib
import pkgutil
import re
import sys
from pathlib import Path

import fsbook.experiments as _pkg

#: subcommands that are not protocols, and their entry points in :mod:`._verify`
SUBCOMMANDS = {"verify": "main", "pack": "pack_main"}


def available_protocols():
    """Names of the protocol modules (every public module of ``fsbook.experiments``)."""
    return sorted(m.name for m in pkgutil.iter_modules(_pkg.__path__)
                  if not m.name.startswith("_"))


def _parser(protocol):
    p = argparse.ArgumentParser(prog=f"python -m fsbook.experiments {protocol.name}",
                                description=protocol.description or None)
    p.add_argument("--full", action="store_true", help="the paper's full protocol (default: the book's subsample)")
    p.add_argument("--n-jobs", type=int, default=1,
                   help="worker processes (loky) or LocalCluster workers (dask without --scheduler)")
    p.add_argument("--backend", choices=["loky", "dask"], default="loky")
    p.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786 (implies --backend dask)")
    p.add_argument("--out", default=None, help=f"results folder (default: results/{protocol.name})")
    p.add_argument("--resume", action=argparse.BooleanOptionalAction, default=True,
                   help="reuse the verified stored tasks under --out (default); --no-resume recomputes "
                        "the selected tasks")
    p.add_argument("--only", action="append", default=[], metavar="KEY=V1,V2",
                   help="run only the tasks whose parameter KEY is one of the values (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _select(tasks, only):
    for spec in only:
        key, sep, values = spec.partition("=")
        if not sep or not key:
            raise SystemExit(f"--only expects KEY=V1,V2, got {spec!r}")
        wanted = set(values.split(","))
        if not any(key in t for t in tasks):
            raise SystemExit(f"--only: no task has a parameter {key!r}")
        tasks = [t for t in tasks if key in t and str(t[key]) in wanted]
    return tasks


def run(protocol, argv):
    """Parse ``argv`` for ``protocol``, run it, print its tables; returns the exit code."""
    import pandas as pd

    from fsbook.experiments import run_protocol

    args = _parser(protocol).parse_args(argv)
    backend = "dask" if args.scheduler else args.backend
    tasks = _select(protocol.make_tasks(args.full), args.only) if args.only else None
    if tasks is not None and not tasks:
        raise SystemExit("--only selects no task")
    out = args.out or f"results/{protocol.name}"
    res = run_protocol(protocol, full=args.full, tasks=tasks, n_jobs=args.n_jobs, backend=backend,
                       scheduler=args.scheduler, out=out, resume=args.resume, progress=not args.quiet)
    with pd.option_context("display.width", 160, "display.max_columns", 50):
        for name, table in res.tables.items():
            print(f"\n== {name}\n{table.to_string()}")
    print(f"\n{res.n_computed} tasks computed, {res.n_cached} read back; store {Path(out)}, "
          f"tables {res.path}")
    return 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"}:
        print("usage: python -m fsbook.experiments <protocol> [--full] [--n-jobs N] "
              "[--backend loky|dask] [--scheduler ADDRESS] [--out DIR] [--resume|--no-resume]\n"
              "       python -m fsbook.experiments verify [--budget-seconds S] [--seed N] [--protocol NAME]\n"
              "       python -m fsbook.experiments pack [NAME ...]\n"
              f"protocols: {', '.join(available_protocols())}\n"
              "`python -m fsbook.experiments <protocol> --help` lists its options.")
        return 0
    name, rest = argv[0], argv[1:]
    if name in SUBCOMMANDS:
        from fsbook.experiments import _verify
        return getattr(_verify, SUBCOMMANDS[name])(rest)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name not in available_protocols():
        print(f"unknown protocol {name!r}; choose one of {available_protocols()}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"fsbook.experiments.{name}")
    if not hasattr(module, "PROTOCOL"):
        print(f"fsbook.experiments.{name} defines no PROTOCOL", file=sys.stderr)
        return 2
    return run(module.PROTOCOL, rest)


if __name__ == "__main__":
    sys.exit(main())

"""Command line: ``python -m fsbook.experiments <name> [--full] [--n-jobs N]
[--backend loky|dask] [--scheduler ADDRESS] [--out DIR] [--resume | --no-resume]
[--only KEY=V1,V2 ...] [--quiet]``.

``<name>`` is a module ``fsbook.experiments.<name>``; its ``PROTOCOL`` is run by
:func:`fsbook.experiments.run_protocol` into its store (default ``results/<name>`` of the clone).
``python -m fsbook.experiments verify [--budget-seconds S] [--turn K | --all]`` recomputes one
turn of every store's tasks (:mod:`fsbook.experiments._verify`); ``python -m fsbook.experiments
pack`` merges journals left by interrupted runs into the packs; ``python -m fsbook.experiments
cost`` prints each store's tasks and their recorded CPU and wall-clock time; ``python -m
fsbook.experiments retime <name>`` records the CPU time of stored tasks that lack it
(:mod:`fsbook.experiments._retime`, results unchanged).  Every protocol
module defines ``PROTOCOL``; a public module without one is refused.  Mistakes end in a one-line message and
exit code 2; an interrupted run (Ctrl-C) says how many tasks are saved and the command that
resumes, and exits with 130.
"""

import argparse
import importlib
import re
import shlex
import sys
from pathlib import Path

from fsbook.experiments._registry import available_protocols, protocol_module

#: subcommands that are not protocols: their module and entry point
SUBCOMMANDS = {"verify": ("_verify", "main"), "pack": ("_verify", "pack_main"), "cost": ("_cost", "main"),
               "retime": ("_retime", "main")}
#: the exit code of a run stopped by Ctrl-C (128 + SIGINT)
INTERRUPTED = 130


def _n_jobs(text):
    from fsbook.experiments._verify import _n_jobs as check

    return check(text)


def _parser(name, description=None):
    p = argparse.ArgumentParser(prog=f"python -m fsbook.experiments {name}", description=description,
                                allow_abbrev=False)
    p.add_argument("--full", action="store_true", help="the paper's full protocol (default: the book's subsample)")
    p.add_argument("--n-jobs", type=_n_jobs, default=1, metavar="N",
                   help="worker processes (loky) or LocalCluster workers (dask without --scheduler); "
                        "-1: every core (default 1: this process)")
    p.add_argument("--backend", choices=["loky", "dask"], default="loky", help="loky (default) or dask")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://host:8786 (implies --backend dask)")
    p.add_argument("--out", default=None, metavar="DIR", help=f"results folder (default: the clone's results/{name})")
    p.add_argument("--resume", action=argparse.BooleanOptionalAction, default=True,
                   help="reuse the verified stored tasks under --out (default); --no-resume recomputes "
                        "the selected tasks")
    p.add_argument("--only", action="append", default=[], metavar="KEY=V1,V2",
                   help="run only the tasks whose parameter KEY is one of the values (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _select(parser, tasks, only):
    from fsbook.experiments._retime import parse_only

    for key, values in parse_only(parser, only).items():
        wanted = set(values)
        if not any(key in t for t in tasks):
            names = sorted({k for t in tasks for k in t})
            parser.error(f"--only: no task has a parameter {key!r}; the parameters are {', '.join(names)}")
        tasks = [t for t in tasks if key in t and str(t[key]) in wanted]
    if not tasks:
        parser.error(f"--only {' --only '.join(only)} selects no task")
    return tasks


def _resume_command(name, argv, out):
    """The command line that resumes: ``argv`` with ``--out`` made absolute (added if absent)."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--out":
            skip = True
        elif not arg.startswith("--out="):
            kept.append(arg)
    return shlex.join(["python", "-m", "fsbook.experiments", name, *kept, "--out", str(Path(out).resolve())])


def _saved(protocol, full, tasks, out):
    """``(saved, total)``: tasks of this run's list present in the store at ``out``."""
    from fsbook.experiments._runner import task_list
    from fsbook.experiments._store import Store

    _, keys = task_list(protocol, full, tasks)
    try:
        stored = Store(out, protocol).keys()
    except (OSError, ValueError):
        stored = set()
    return sum(k in stored for k in keys), len(keys)


def run(protocol, argv):
    """Parse ``argv`` for ``protocol``, run it, print its tables; returns the exit code."""
    import pandas as pd

    from fsbook.experiments import StoreError, run_protocol
    from fsbook.experiments._reading import default_out

    parser = _parser(protocol.name, protocol.description or None)
    args = parser.parse_args(argv)
    if args.scheduler and args.backend == "loky" and any(a == "--backend" or a.startswith("--backend=")
                                                          for a in argv):
        parser.error("--scheduler needs --backend dask")
    backend = "dask" if args.scheduler else args.backend
    tasks = _select(parser, protocol.make_tasks(args.full), args.only) if args.only else None
    out = Path(args.out) if args.out else default_out(protocol)
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out}: not a folder")
    try:
        res = run_protocol(protocol, full=args.full, tasks=tasks, n_jobs=args.n_jobs, backend=backend,
                           scheduler=args.scheduler, out=out, resume=args.resume, progress=not args.quiet)
    except KeyboardInterrupt:
        saved, total = _saved(protocol, args.full, tasks, out)
        print(f"\ninterrupted: {saved} of the {total} tasks of this run are saved in {out} (finished "
              f"tasks are kept); resume with\n  {_resume_command(protocol.name, argv, out)}", file=sys.stderr)
        return INTERRUPTED
    except StoreError as e:
        print(f"python -m fsbook.experiments {protocol.name}: error: {e}", file=sys.stderr)
        return 2
    with pd.option_context("display.width", 160, "display.max_columns", 50):
        for name, table in res.tables.items():
            print(f"\n== {name}\n{table.to_string()}")
    print(f"\n{res.n_computed} tasks computed, {res.n_cached} read back; store {out}, "
          f"tables {res.path}")
    return 0


def _options(parser) -> str:
    """The argument sections of ``parser``'s help (without its usage line and description)."""
    lines = parser.format_help().splitlines()
    first = next(i for i, line in enumerate(lines) if line in ("positional arguments:", "options:"))
    return "\n".join(lines[first:])


def usage() -> str:
    """The top-level help: the three forms of the command and every option of each."""
    from fsbook.experiments._cost import cost_parser
    from fsbook.experiments._retime import retime_parser
    from fsbook.experiments._verify import pack_parser, verify_parser

    return (
        "usage: python -m fsbook.experiments <protocol> [--full] [--n-jobs N] [--backend loky|dask]\n"
        "           [--scheduler ADDRESS] [--out DIR] [--resume|--no-resume] [--only KEY=V1,V2 ...] [--quiet]\n"
        "       python -m fsbook.experiments verify [--budget-seconds S] [--turn K | --all] [--n-jobs N]\n"
        "           [--root DIR] [--protocol NAME ...]\n"
        "       python -m fsbook.experiments pack [NAME ...] [--root DIR]\n"
        "       python -m fsbook.experiments cost [NAME ...] [--root DIR]\n"
        "       python -m fsbook.experiments retime NAME [NAME ...] [--root DIR] [--cpu-budget-seconds S] [--again] [--only KEY=V1,V2]\n"
        f"protocols: {', '.join(available_protocols())}\n\n"
        "Run a protocol into its store (resumable: rerun the same command after an interruption).\n"
        f"{_options(_parser('<protocol>'))}\n\n"
        "verify: recompute one turn of the stored tasks and compare (every task once per cycle of turns).\n"
        f"{_options(verify_parser())}\n\n"
        "pack: merge the journals of interrupted runs into the packs.\n"
        f"{_options(pack_parser())}\n\n"
        "cost: tasks stored and the CPU and wall-clock time recorded for them, per store.\n"
        f"{_options(cost_parser())}\n\n"
        "retime: record the CPU time of stored tasks that lack it (each recomputed and checked; results unchanged).\n"
        f"{_options(retime_parser())}\n"
    )


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"}:
        print(usage(), end="")
        return 0
    name, rest = argv[0], argv[1:]
    try:
        if name in SUBCOMMANDS:
            module, entry = SUBCOMMANDS[name]
            return getattr(importlib.import_module(f"fsbook.experiments.{module}"), entry)(rest)
        if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name not in available_protocols():
            print(f"python -m fsbook.experiments: error: unknown protocol or command {name!r}; choose one of "
                  f"{', '.join(available_protocols())}, verify, pack, cost, retime (--help lists the options)",
                  file=sys.stderr)
            return 2
        module = importlib.import_module(protocol_module(name))
        if not hasattr(module, "PROTOCOL"):
            print(f"python -m fsbook.experiments: error: {protocol_module(name)} defines no PROTOCOL",
                  file=sys.stderr)
            return 2
        return run(module.PROTOCOL, rest)
    except KeyboardInterrupt:
        print(f"\ninterrupted: `python -m fsbook.experiments {name}` stopped (verify and reading write "
              "nothing; a protocol run keeps its finished tasks: rerun the same command to resume)",
              file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())

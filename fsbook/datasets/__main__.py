"""``python -m fsbook.datasets build [--source DIR] [--dest DIR] [names ...]``"""

from __future__ import annotations

import argparse
import sys
import time

from fsbook.datasets._location import in_checkout, repo_root


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fsbook.datasets",
                                     description="Build the compact, checksummed data/ folder.")
    sub = parser.add_subparsers(dest="command")
    b = sub.add_parser("build", help="parse shared/data and write data/<name>.npz + data/SHA256SUMS")
    b.add_argument("--source", default=None,
                   help="raw data directory (default: ../shared/data relative to the repository root)")
    b.add_argument("--dest", default=None, help="output directory (default: <repo root>/data)")
    b.add_argument("-j", "--jobs", type=int, default=2, help="parallel processes (default 2)")
    b.add_argument("names", nargs="*", help="datasets to build (default: all)")
    sub.add_parser("list", help="list the datasets")
    args = parser.parse_args(argv)
    if args.command == "build":
        from fsbook.datasets._build import SourceError, build

        root = repo_root()
        if not in_checkout() and (args.source is None or args.dest is None):
            parser.error("outside a clone of the repository, build needs --source (the raw data) and "
                         "--dest (the output folder; point FSBOOK_DATA_DIR at it)")
        source = args.source or str(root / ".." / "shared" / "data")
        dest = args.dest or str(root / "data")
        t0 = time.perf_counter()
        try:
            written = build(source, dest, names=args.names or None, n_jobs=args.jobs)
        except (SourceError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"wrote {len(written)} files to {dest} in {time.perf_counter() - t0:.1f} s")
        return 0
    if args.command == "list":
        import pandas as pd

        from fsbook.datasets import list_datasets

        with pd.option_context("display.width", 200, "display.max_colwidth", 40):
            print(list_datasets()[["name", "loader", "shape", "n_classes", "available"]].to_string())
        return 0
    parser.print_help()
    return 0 if argv in ([], None) else 2


if __name__ == "__main__":
    sys.exit(main())

"""Calibration of the book's verdict rule (run on demand: ``python benchmarks/claims.py``).

For every design of :data:`fsbook.calibration.DESIGNS` (chapter 1's Boston, Yale and 20 Newsgroups
runs, read from their stores; one 5- and one 10-fold CV partition and 5 × 2 CV, simulated over
independent partitions of WDBC, with the test samples as units for chapters 2 and 6) it measures the type-I error and the power at the chapters'
effect sizes of the rule's test, beside Nadeau and Bengio's corrected t (which the book no longer
uses), with 2 000 replicate experiments per effect (Monte Carlo half-width about 0.01 at a rate
of 0.05), and for the pooled-sample designs how much the pooled difference varies across
partitions against what McNemar's test assumes (:func:`fsbook.calibration.dispersion_table`).
The record goes to section ``calibration`` of ``benchmarks/results/claims.json``
(:mod:`fsbook.benchmark_records`), which the page *How the book decides* shows.
"""
from __future__ import annotations

import argparse
import json
import time

from fsbook.benchmark_records import record_benchmark
from fsbook.calibration import calibration_table, dispersion_table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-rep", type=int, default=2000)
    ap.add_argument("--n-partitions", type=int, default=400)
    args = ap.parse_args(argv)
    cpu, wall = time.process_time(), time.perf_counter()
    table = calibration_table(n_rep=args.n_rep, n_partitions=args.n_partitions,
                              progress=lambda design, test: print(f"{design}: {test}", flush=True))
    dispersion = dispersion_table(n_partitions=args.n_partitions)
    record = {"n_rep": args.n_rep, "n_partitions": args.n_partitions,
              "dispersion": json.loads(dispersion.to_json(orient="records")),
              "cpu_seconds": round(time.process_time() - cpu, 1), "wall_seconds": round(time.perf_counter() - wall, 1),
              "rows": json.loads(table.to_json(orient="records"))}
    path = record_benchmark("claims", "calibration", record)
    print(table.round(3).to_string())
    print(f"written {path} ({record['cpu_seconds']} CPU-s)")


if __name__ == "__main__":
    main()

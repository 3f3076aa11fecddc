"""The CPU cost of the ``selection_suite`` protocol, measured on a sample of its tasks and projected.

``python benchmarks/selection_suite.py measure [--datasets A,B] [--methods M,N] [--log FILE]`` runs,
one at a time in this process, the task ``(repeat 0, fold 0)`` of each chosen data set × method
and appends its CPU seconds (the runner's measure, :func:`~fsbook.experiments._workers.process_cpu_seconds`
around ``run_task``) to ``FILE`` (JSON lines; tasks already in it are skipped).
``python benchmarks/selection_suite.py project [--log FILE]`` multiplies each measured cell by its
number of tasks in the full protocol (``REPEATS × N_FOLDS``), fills the cells not measured with the
cost of the same method on the measured data set nearest in shape, scaled by n·d (the table
says which), and records the projection with
``record_benchmark("selection_suite", "cost_projection", ...)``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


def measure(datasets, methods, log):
    from fsbook.experiments import selection_suite as S
    from fsbook.experiments._workers import process_cpu_seconds

    log = Path(log)
    done = set()
    if log.exists():
        done = {(r["dataset"], r["method"]) for r in map(json.loads, log.read_text().splitlines())}
    for d in datasets:
        for t in S.tasks.make_tasks(True):
            if t["dataset"] != d or t["repeat"] or t["fold"] or t["method"] not in methods or (d, t["method"]) in done:
                continue
            start = process_cpu_seconds()
            r = S.tasks.run_task(t)
            cpu = process_cpu_seconds() - start
            row = {"dataset": d, "method": t["method"], "ks": t["ks"], "cpu": round(cpu, 3),
                   "fit_cpu": r.get("fit_cpu"), "peak_mib": r.get("peak_mib"), "not_run": "not_run" in r}
            with log.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(d, t["method"], round(cpu, 2), file=sys.stderr, flush=True)


def projection(rows):
    """Projected CPU seconds of the full store per data set × method from measured tasks
    (``rows``: the log's records).  A measured cell costs ``cpu × REPEATS × N_FOLDS``.  An
    unmeasured cell that runs takes the cost of the same method on the measured data set
    nearest in shape (log n, log d, log classes, after subsampling), scaled by the ratio of
    ``n · d``; excluded cells cost nothing."""
    from fsbook.experiments import selection_suite as S

    measured = {(r["dataset"], r["method"]): r["cpu"] for r in rows}
    per = S.paper.REPEATS * S.paper.N_FOLDS
    f = {d: S.tasks.dataset_facts(d) for d in S.paper.DATASETS}
    shape = {d: np.log([f[d]["n"], f[d]["d"], f[d]["classes"]]) for d in S.paper.DATASETS}
    out = []
    for d, (domain, _, _) in S.paper.DATASETS.items():
        for m in S.paper.METHODS:
            row = {"dataset": d, "method": m, "domain": domain}
            if S.tasks.cannot_run(m, d):
                out.append({**row, "how": "excluded", "cpu_task": 0.0})
            elif (d, m) in measured:
                out.append({**row, "how": "measured", "cpu_task": measured[(d, m)]})
            else:
                cands = [e for e in S.paper.DATASETS if (e, m) in measured and not S.tasks.cannot_run(m, e)]
                e = min(cands, key=lambda e: float(np.sum((shape[e] - shape[d]) ** 2)))
                scale = f[d]["n"] * f[d]["d"] / (f[e]["n"] * f[e]["d"])
                out.append({**row, "how": f"from {e}", "cpu_task": measured[(e, m)] * scale})
    for r in out:
        r["cpu_store"] = r["cpu_task"] * per
    return out


#: the measurement behind the protocol's one classifier (``selection_suite.CLASSIFIERS``): the
#: tuned C search (inner 3-fold CV, benchmark's grids, ``StandardScaler →`` SVM) on all 1 024
#: features of COIL-20's repeat 0, fold 0 (500 training images, 20 classes), CPU seconds in one
#: process, 2026-11-29; then single fits of the linear SVM, liblinear's dual and primal solvers
LINEAR_VS_RBF = {"dataset": "coil20", "task": "repeat 0, fold 0, all features",
                 "rbf_svm_cpu_s": 1.3, "rbf_svm_test_accuracy": 0.988,
                 "linear_svm_cpu_s": 190.5, "linear_svm_test_accuracy": 0.926,
                 "linear_single_fit_cpu_s": {"C=0.01 dual": 3.36, "C=0.01 primal": 2.53, "C=1 dual": 32.54,
                                             "C=1 primal": 76.11, "C=10 dual": 35.64},
                 "note": "the dual stops at max_iter = 5000 for C >= 1"}
CLASSIFIER_CHOICE = {"chosen": "RBF SVM only", "measured": LINEAR_VS_RBF}
NOTES = ("cells measured before the switch to the RBF SVM alone (every data set measured before coil20) "
         "include the tuned linear SVM's cost too, so their projection is an upper bound; unmeasured cells "
         "take the nearest measured shape's cost scaled by n*d (column 'how')")


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=["measure", "project"])
    p.add_argument("--datasets", default=None)
    p.add_argument("--methods", default=None)
    p.add_argument("--log", default="/tmp/suiteproto_cost.jsonl")
    p.add_argument("--no-record", action="store_true")
    a = p.parse_args(argv)
    from fsbook.experiments import selection_suite as S

    if a.what == "measure":
        measure(a.datasets.split(",") if a.datasets else S.tasks.sources(),
                a.methods.split(",") if a.methods else S.paper.METHODS, a.log)
        return
    import pandas as pd

    rows = [json.loads(line) for line in Path(a.log).read_text().splitlines()]
    t = pd.DataFrame(projection(rows))
    by_method = t.groupby("method")["cpu_store"].sum().div(3600).round(3)
    by_domain = t.groupby("domain")["cpu_store"].sum().div(3600).round(3)
    total = float(t["cpu_store"].sum() / 3600)
    print(t.pivot(index="dataset", columns="method", values="cpu_task").round(1).to_string())
    print(by_method.to_string(), by_domain.to_string(), f"total {total:.2f} CPU-h", sep="\n")
    if not a.no_record:
        from fsbook.benchmark_records import record_benchmark

        record_benchmark("selection_suite", "cost_projection", {
            "total_cpu_hours": round(total, 3), "tasks": len(S.tasks.make_tasks(True)),
            "measured_cells": int((t["how"] == "measured").sum()), "scaled_cells": int(t["how"].str.startswith("from").sum()),
            "excluded_cells": int((t["how"] == "excluded").sum()),
            "design": {"repeats": S.paper.REPEATS, "n_folds": S.paper.N_FOLDS, "fractions": list(S.paper.FRACTIONS),
                       "max_samples": S.paper.MAX_SAMPLES, "classifiers": list(S.paper.CLASSIFIERS), "version": S.paper.VERSION},
            "cpu_hours_by_method": by_method.to_dict(), "cpu_hours_by_domain": by_domain.to_dict(),
            "classifier_choice": CLASSIFIER_CHOICE, "notes": NOTES,
            "cells": [{k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()} for r in t.to_dict("records")]})


if __name__ == "__main__":
    main()

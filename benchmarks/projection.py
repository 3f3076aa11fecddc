"""Benchmark of chapter 1's text tasks (run on demand: ``python benchmarks/projection.py``).

Each 20 Newsgroups task of Tables 2-4 runs three cross-validated logistic-regression grids
(L2-LGR on the words, LGR-Topic on the topics, Proj-Topic on both).  Measured side by side in
one run, on tasks of :mod:`fsbook.experiments.projection.text` at d = 30 (``--tasks`` per table,
spread over runs and pairs by a seeded draw):

* the reference, :func:`fsbook.experiments.projection.newsgroups._lgr_cv_search`: scikit-learn's
  ``GridSearchCV`` over C with Newton-CG at ``tol=1e-8``, ``folds × 10`` fits and a refit;
* the fast path, :func:`fsbook.experiments.projection.newsgroups.lgr_fast_fit`: all folds and all C in one
  warm-started, batched Newton solve in each fold's reduced coordinates (at most ``n``
  columns for ``n`` documents; :mod:`fsbook.projection.logistic`), the same tie rule, and an
  exact refit.

The CPU time of each (``time.process_time``: the machine is shared) and their ratio, and beside
them the equality check: the fast path's three test errors against the reference's field by
field under the store's tolerances (:func:`fsbook.experiments._comparison.compare_results`) and the
chosen C of every grid against the reference's (both with the reference's tie rule, the first
tie).  Where the chosen C differs the record names the α of each.  The topic model
(LDA, d = 30) is fitted once before the timing, as in a protocol process; its CPU time is
recorded beside.  The estimate of the full grid (34 200 tasks from version 2, 5 topic counts)
multiplies the mean fast time per task of each table by its tasks (11 400: 190 pairs × (20 runs
at d = 30 + 10 at each other d)) and adds one LDA fit per topic count (at d = 30's time: a lower
bound for d = 50, 100).

A run over all three tables records its measurement in ``benchmarks/results/projection.json``
(:mod:`fsbook.benchmark_records`, section ``text_tasks``).
"""
import argparse
import time

import numpy as np

from fsbook.benchmark_records import record_benchmark
from fsbook.experiments import projection as P
from fsbook.experiments._comparison import compare_results
from fsbook.experiments.projection import text as T
from fsbook.experiments.projection.newsgroups import _lgr_cv_search, _news_topics


def task_data(params):
    """The designs of a text task, as :func:`fsbook.experiments.projection.text.run_task` builds
    them (:func:`fsbook.experiments.projection.newsgroups.newsgroups_designs`): ``{method: (A_tr, A_te)}``,
    ``y_tr``, ``y_te``, seed."""
    a = P.newsgroups.newsgroups_pair(params)
    data, ys = P.newsgroups.newsgroups_designs(a["X_tr"], a["Z_tr"], a["y_tr"], a["X_te"], a["Z_te"],
                                               a["frac"], a["seed"])
    return data, ys, a["y_te"], a["seed"]


def reference(data, y, yte, seed):
    """``({method: error}, {method: C})`` by the reference grid search."""
    err, C = {}, {}
    for name, (A, Ate) in data.items():
        search = _lgr_cv_search(A, y, P.paper.GRID, seed)
        err[name] = float(np.mean(search.predict(Ate) != yte))
        C[name] = float(search.best_params_["C"])
    return err, C


def fast(data, y, yte, seed):
    """``({method: error}, {method: C})`` by the batched exact path."""
    err, C = {}, {}
    for name, (A, Ate) in data.items():
        c, e = P.newsgroups.lgr_fast_fit(A, y, Ate, yte, P.paper.GRID, seed)
        err[name], C[name] = e, float(c)
    return err, C


def _cpu(fn, *args):
    t = time.process_time()
    out = fn(*args)
    return time.process_time() - t, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=7, help="tasks per table (default 7)")
    ap.add_argument("--tables", nargs="+", default=list(P.paper.NEWS_FRACS), choices=list(P.paper.NEWS_FRACS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()

    news = [p for p in T.make_tasks(True) if p["topics"] == T.NEWS_D]
    rng = np.random.default_rng(args.seed)
    chosen = []
    for t in args.tables:
        rows = [p for p in news if p["table"] == t]
        chosen += [rows[i] for i in np.sort(rng.choice(len(rows), args.tasks, replace=False))]
    lda_seconds, _ = _cpu(lambda: (P.newsgroups.newsgroups_corpus(), _news_topics(T.NEWS_D)))
    print(f"corpus and LDA (d = {T.NEWS_D}): {lda_seconds:.1f} s CPU")

    rows = []
    for params in chosen:
        data, y, yte, seed = task_data(params)
        t_ref, (e_ref, c_ref) = _cpu(reference, data, y, yte, seed)
        t_fast, (e_fast, c_fast) = _cpu(fast, data, y, yte, seed)
        diff = compare_results(e_ref, e_fast, P.PROTOCOL)
        row = {"params": params, "reference_seconds": round(t_ref, 4), "fast_seconds": round(t_fast, 4),
               "fast_equals_reference": not diff, "same_C": {m: c_ref[m] == c_fast[m] for m in c_ref}}
        if diff:
            row["differences"] = diff
        if not all(row["same_C"].values()):
            row["alpha"] = {m: {"reference": 1 / (2 * c_ref[m]), "fast": 1 / (2 * c_fast[m])}
                            for m in c_ref if c_ref[m] != c_fast[m]}
        rows.append(row)
        print(f"{params['table']} run {params['run']} pair {params['pair']}: reference {t_ref:.3f} s, fast "
              f"{t_fast:.3f} s ({t_ref / t_fast:.1f}x); fast = reference: {row['fast_equals_reference']}, "
              f"same C: {row['same_C']}", flush=True)

    ref_s = np.array([r["reference_seconds"] for r in rows])
    fast_s = np.array([r["fast_seconds"] for r in rows])
    per_table = {t: float(np.mean([r["fast_seconds"] for r in rows if r["params"]["table"] == t]))
                 for t in args.tables}
    per_table_ref = {t: float(np.mean([r["reference_seconds"] for r in rows if r["params"]["table"] == t]))
                     for t in args.tables}
    n_per_table = len(T.make_tasks(True)) // len(P.paper.NEWS_FRACS)     # every topic count's runs × pairs
    summary = {
        "tasks": len(rows),
        "reference_seconds_per_task": round(float(ref_s.mean()), 4),
        "fast_seconds_per_task": round(float(fast_s.mean()), 4),
        "ratio": round(float(ref_s.sum() / fast_s.sum()), 2),
        "per_table_seconds": {t: {"reference": round(per_table_ref[t], 4), "fast": round(per_table[t], 4)}
                              for t in args.tables},
        "tasks_fast_equal_to_reference": sum(r["fast_equals_reference"] for r in rows),
        "grids_same_C": sum(sum(r["same_C"].values()) for r in rows),
        "grids": 3 * len(rows),
        "lda_seconds": round(lda_seconds, 1),
    }
    if set(args.tables) == set(P.paper.NEWS_FRACS):
        grid_hours = lambda s: (sum(s[t] for t in P.paper.NEWS_FRACS) * n_per_table  # noqa: E731
                                + len(T.TOPICS[True]) * lda_seconds) / 3600
        summary["full_grid_cpu_hours"] = {"reference": round(grid_hours(per_table_ref), 2),
                                          "fast": round(grid_hours(per_table), 2)}
    print(summary)
    if not args.no_record and set(args.tables) == set(P.paper.NEWS_FRACS):
        print("recorded in", record_benchmark("projection", "text_tasks", {**summary, "rows": rows}))


if __name__ == "__main__":
    main()

"""The paper's tables from the stored tasks: :func:`reduce`, one builder per part, the per-run
values the claims pair, and the accounting of a partial store (:func:`store_coverage`,
:func:`subsample`).
"""

import numpy as np
import pandas as pd

from fsbook.decisions import RTOL, SCORE_ATOL, argbest
from fsbook.experiments._runner import ProtocolResult, stored_flags
from fsbook.experiments._store import canonical_json
from fsbook.experiments.projection.paper import (
    TABLE_LABEL,
    TABLE_NAMES,
    YALE_K,
    YALE_METHODS,
    YALE_RHOS,
)
from fsbook.experiments.projection.tasks import make_tasks

#: the protocol's name (its store is ``results/projection``)
NAME = "projection"


def mean_se(values):
    """Mean and standard error (ddof=1) along axis 0.

    Parameters
    ----------
    values : array-like of shape (n_runs, ...)

    Returns
    -------
    mean, se : array
        The mean over runs and its standard error, ``std(ddof=1) / sqrt(n_runs)``.

    Examples
    --------
    >>> mean_se([[1.0, 10.0], [3.0, 10.0]])
    (array([ 2., 10.]), array([1., 0.]))
    """
    v = np.asarray(values, dtype=float)
    return v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(v.shape[0])


def _r2_by_d(runs, name, grid):
    """``(ds, R)``: the sorted ``d`` values and the runs × d matrix of test R² (%) of ``name``."""
    per = [{int(d): v for d, v in (o[name] if name in ("PCR", "PLS") else o[name][grid]).items()} for o in runs]
    ds = sorted(per[0])
    return ds, np.array([[r[d] for d in ds] for r in per]) * 100


def boston_by_d(runs, grid="fine"):
    """Mean test R² (%) over runs for every ``d`` (rows) and model (columns) of Table 1."""
    cols = {}
    for name in ("PCR", "PLS", "Proj-PCR", "Proj-PLS"):
        ds, R = _r2_by_d(runs, name, grid)
        cols[name] = pd.Series(R.mean(axis=0), index=ds)
    return pd.DataFrame(cols).rename_axis("d")


def boston_table(runs, grid="fine"):
    """Aggregate :func:`boston_run` outputs for one α grid: mean ± s.e. of the test R² (%) at
    each model's best ``d`` (highest mean R², the paper's rule; ties go to the smallest d)."""
    rows = {}
    m, s = mean_se(np.array([o["Ridge"][grid] for o in runs]) * 100)
    rows["Ridge"] = (m, s, None)
    for name in ("PCR", "PLS", "Proj-PCR", "Proj-PLS"):
        ds, R = _r2_by_d(runs, name, grid)
        m, s = mean_se(R)
        k = argbest(m, rtol=RTOL)
        rows[name] = (m[k], s[k], ds[k])
    return pd.DataFrame(rows, index=["mean", "se", "d"]).T


def _frame(params_list, results_list, part):
    return [(p, r) for p, r in zip(params_list, results_list) if p["part"] == part]


def balanced_block(rows):
    """The runs and pairs of the largest block of ``runs × pairs`` whose tasks are all present.

    ``rows`` is a list of ``(run, pair)``.  A complete store (every pair of every run) is one
    block.  A partial one is not: its last run may hold only some pairs, and a part may hold a few
    runs on a subset of the pairs beside one run on all of them.  The candidates are the blocks
    formed by one run's pairs and every run that has all of them; the largest (most tasks; ties:
    more runs, then the earliest run) is returned, so that a table's mean over runs and its
    standard error over runs average every run over the same pairs.

    Parameters
    ----------
    rows : list of (int, tuple)

    Returns
    -------
    (list of int, list of tuple)
        The block's runs and pairs, sorted.

    Examples
    --------
    >>> rows = [(0, p) for p in range(6)] + [(1, 0), (1, 3), (2, 0)]
    >>> balanced_block(rows)                     # run 0 on six pairs beats 2 runs × 2 pairs
    ([0], [0, 1, 2, 3, 4, 5])
    >>> balanced_block(rows + [(1, 1), (2, 1), (2, 3)])     # 3 runs × 3 pairs: 9 tasks
    ([0, 1, 2], [0, 1, 3])
    """
    pairs_of = {}
    for run, pair in rows:
        pairs_of.setdefault(run, set()).add(pair)
    best = None
    for run in sorted(pairs_of):
        pairs = pairs_of[run]
        runs = [r for r in sorted(pairs_of) if pairs <= pairs_of[r]]
        score = (len(runs) * len(pairs), len(runs))
        if best is None or score > best[0]:
            best = (score, runs, sorted(pairs))
    return best[1], best[2]


def run_means(rows, methods, scale):
    """``(per_run, runs, pairs)``: the runs × methods frame of each run's average over the pairs
    of the largest complete block of runs × pairs (:func:`balanced_block`), times ``scale``;
    ``rows`` is ``[(run, pair, {m: v})]``.

    Parameters
    ----------
    rows : list of (int, sequence, dict)
        ``(run, pair, {method: value})`` per task.
    methods : list of str
        The methods (columns).
    scale : float
        A factor (100 for percentages).

    Returns
    -------
    per_run : pandas.DataFrame
        Runs × methods.
    runs, pairs : list
        The block (:func:`balanced_block`).

    Examples
    --------
    >>> rows = [(0, (0, 1), {"A": 0.1}), (0, (0, 2), {"A": 0.3}), (1, (0, 1), {"A": 0.2})]
    >>> per_run, runs, pairs = run_means(rows, ["A"], 100)    # 2 runs × 1 pair beat 1 run × 2 pairs
    >>> per_run["A"].round(6).tolist(), runs, pairs
    ([10.0, 20.0], [0, 1], [(0, 1)])
    """
    runs, pairs = balanced_block([(run, tuple(pair)) for run, pair, _ in rows])
    keep = set(runs), set(pairs)
    df = pd.DataFrame([{"run": run, **{m: v[m] for m in methods}} for run, pair, v in rows
                       if run in keep[0] and tuple(pair) in keep[1]])
    return df.groupby("run")[methods].mean() * scale, runs, pairs


def runs_table(rows, methods, scale):
    """Mean ± s.e. over runs of the per-run average over tasks; ``rows`` is ``[(run, pair, {m:
    v})]``.  Only the tasks of the largest complete block of runs × pairs are averaged
    (:func:`balanced_block`; all of them in a complete store); ``runs`` and ``tasks per run``
    describe that block, ``tasks stored`` counts every task of ``rows``.  With one run the
    standard error is undefined (NaN).

    Parameters
    ----------
    rows : list of (int, sequence, dict)
        ``(run, pair, {method: value})`` per task.
    methods : list of str
        The methods (rows of the table).
    scale : float
        A factor (100 for percentages).

    Returns
    -------
    pandas.DataFrame
        Per method: ``mean``, ``se``, ``runs``, ``tasks per run`` and ``tasks stored``.

    Examples
    --------
    >>> rows = [(0, (0, 1), {"A": 0.1}), (1, (0, 1), {"A": 0.3})]
    >>> runs_table(rows, ["A"], 100).round(6).to_dict("index")
    {'A': {'mean': 20.0, 'se': 10.0, 'runs': 2, 'tasks per run': 1, 'tasks stored': 2}}
    """
    per_run, runs, pairs = run_means(rows, methods, scale)
    m, s = mean_se(per_run.to_numpy()) if len(per_run) > 1 else (per_run.to_numpy()[0], np.full(len(methods), np.nan))
    return pd.DataFrame({"mean": m, "se": s, "runs": len(runs), "tasks per run": len(pairs),
                         "tasks stored": len(rows)},
                        index=pd.Index(methods, name="method"))


def _yale_rows(yale, table):
    """``[(run, pair, {method: error})]`` of the face tasks of one table."""
    return [(p["run"], p["pair"], {m: r[m]["error"] for m in YALE_METHODS}) for p, r in yale if p["table"] == table]


def _boston_tables(boston):
    """Table 1 on both α grids and the per-d table, from ``[(params, result)]``."""
    runs = [r for _, r in sorted(boston, key=lambda pr: pr[0]["run"])]
    return {"table1": boston_table(runs, "fine"), "table1_paper_grid": boston_table(runs, "paper"),
            "table1_by_d": boston_by_d(runs, "fine")}


def _yale_tables(yale):
    """``table{5,6,7}`` for every table present."""
    return {t: runs_table(rows, YALE_METHODS, 100) for t in YALE_K if (rows := _yale_rows(yale, t))}


def _rho_tables(sweep):
    """``rho_sweep`` (error % of Proj-R for every ρ) and ``rho_reference`` (the plain models and
    Proj-R with ρ chosen by CV) of the ρ sweep's tasks."""
    rhos = list(YALE_RHOS)
    names = ["KPCA", "GDA", "OLap"]
    err = lambda key: 100 * float(np.mean([r[key]["error"] for _, r in sweep]))  # noqa: E731
    out = {"rho_sweep": pd.DataFrame({f"Proj-{n}": [err(f"Proj-{n}@{g:.0e}") for g in rhos] for n in names},
                                     index=pd.Index(rhos, name="ρ"))}
    ref = {m: err(m) for m in ["SVM-Kernel"] + [f"SVM-{n}" for n in names]}
    for n in names:   # ρ chosen per task jointly with C by the same CV (ties: smallest ρ)
        keys = [f"Proj-{n}@{g:.0e}" for g in rhos]
        cv = [r[keys[argbest([r[k]["cv_accuracy"] for k in keys], atol=SCORE_ATOL)]]["error"] for _, r in sweep]
        ref[f"Proj-{n} (ρ by CV)"] = 100 * float(np.mean(cv))
    out["rho_reference"] = pd.Series(ref, name="error (%)").to_frame()
    return out


#: the builder of each part's tables
BUILDERS = {"boston": _boston_tables, "yale": _yale_tables, "rho": _rho_tables}


def reduce(params_list, results_list):
    """The paper's tables from the tasks present: ``table1`` (best d, every α on the fine grid),
    ``table1_paper_grid`` (α on the paper's grid), ``table1_by_d`` (fine grid),
    ``table{5,6,7}`` (mean ± s.e. over runs, in %; from a partial store,
    over the largest complete block of runs × pairs, :func:`balanced_block`), and for the ρ sweep
    ``rho_sweep`` (error % of Proj-R for every ρ) and ``rho_reference``.  A table none of whose
    tasks is present is left out.  Each part's tables come from its builder (:data:`BUILDERS`)."""
    tables = {}
    for part, build in BUILDERS.items():
        rows = _frame(params_list, results_list, part)
        if rows:
            tables.update(build(rows))
    return tables


def _boston_per_run(rows, grid):
    """Runs × models of Table 1: test R² (%) at each model's best d (the table's), per run."""
    runs = [r for _, r in sorted(rows, key=lambda pr: pr[0]["run"])]
    best_d = boston_table(runs, grid)["d"]
    out = {"Ridge": np.array([o["Ridge"][grid] for o in runs]) * 100}
    for name in ("PCR", "PLS", "Proj-PCR", "Proj-PLS"):
        ds, R = _r2_by_d(runs, name, grid)
        out[name] = R[:, ds.index(int(best_d[name]))]
    return pd.DataFrame(out, index=pd.Index([p["run"] for p, _ in sorted(rows, key=lambda pr: pr[0]["run"])],
                                            name="run"))


def per_run(results, table):
    """The per-run values a table's claims are paired over (runs × methods).

    Table 1 (``"table1"``, ``"table1_paper_grid"``): each run's test R² (%) of each model at its
    best d.  Tables 5-7: each run's test error (%) averaged over the pairs of the largest complete
    block of runs × pairs (:func:`balanced_block`; all 105 pairs in a complete run), the
    average the tables print the mean of.

    Parameters
    ----------
    results : ProtocolResult
        What ``read_store(PROTOCOL, allow_partial=True)`` returns (``params`` and ``results``).
    table : str
        A key of :data:`TABLE_NAMES`.

    Returns
    -------
    pandas.DataFrame or None
        ``None`` when none of the table's tasks is present.
    """
    if table not in TABLE_NAMES:
        raise ValueError(f"unknown table {table!r}; the tables are {list(TABLE_NAMES)}")
    params, res = results.params, results.results
    if table.startswith("table1"):
        rows = _frame(params, res, "boston")
        return _boston_per_run(rows, "paper" if table == "table1_paper_grid" else "fine") if rows else None
    rows = _yale_rows(_frame(params, res, "yale"), table)
    return run_means(rows, YALE_METHODS, 100)[0] if rows else None


def subsample(results):
    """The stored tasks of the chapter's earlier subsample (``make_tasks(False)``), as a
    :class:`~fsbook.experiments.ProtocolResult` with its tables."""
    keys = {canonical_json(p) for p in make_tasks(False)}
    keep = [i for i, p in enumerate(results.params) if canonical_json(p) in keys]
    params, res = [results.params[i] for i in keep], [results.results[i] for i in keep]
    return ProtocolResult(params=params, results=res, tables=reduce(params, res), n_cached=len(keep),
                          protocol=NAME, n_total=len(keys))


def store_coverage(params, full=True):
    """Tasks stored against the tasks of the protocol, per part of :data:`PROTOCOL`.

    One row per part (``boston``: Table 1; ``yale``: Tables 5-7; ``rho``: the ρ sweep), preceded
    for ``yale`` by one row per table, and a last row for the whole protocol
    (:func:`coverage_table`).

    Parameters
    ----------
    params : list of dict
        The parameters of the tasks present, e.g. the ``params`` of
        ``read_store(PROTOCOL, allow_partial=True)``.
    full : bool, default=True
        Count against ``make_tasks(full)``: the paper's protocol, or the chapter's subsample.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``(part, tasks)``; columns ``stored``, ``in the protocol`` and ``runs with
        every pair`` (the runs all of whose tasks are stored; a Boston run is one task; missing
        on the summary rows).

    Examples
    --------
    >>> cov = store_coverage(make_tasks(False))            # the subsample, as if it were stored
    >>> cov.loc[("boston", "runs")].tolist()
    [100, 500, 100]
    >>> cov.loc[("yale", "Table 5 (3 per subject)")].tolist()
    [70, 5250, 0]
    >>> cov.loc[("all", "all")].tolist()[:2]
    [322, 16262]
    """
    def group(p):
        if p["part"] == "yale":
            return p["part"], TABLE_LABEL[p["table"]]
        return p["part"], "runs" if p["part"] == "boston" else "pairs"

    return coverage_table(NAME, params, full, group)


def coverage_table(protocol, params, full, group):
    """:func:`store_coverage`'s table for any protocol whose tasks have a ``run``: ``group(p)`` is
    a task's ``(part, detail)`` row; the parts with several rows get a summary row ``(part,
    "all")``, and the last row ``("all", "all")`` sums the protocol."""
    groups = {}                                              # (part, detail) -> {run: [stored?]}
    for p, s in zip(*stored_flags(protocol, params, full)):
        groups.setdefault(group(p), {}).setdefault(p["run"], []).append(s)
    rows = {}

    def add(key, runs_list, complete):
        flags = [f for runs in runs_list for fl in runs.values() for f in fl]
        rows[key] = {"stored": sum(flags), "in the protocol": len(flags), "runs with every pair": complete}

    for part in dict.fromkeys(k[0] for k in groups):
        keys = [k for k in groups if k[0] == part]
        for k in keys:
            add(k, [groups[k]], sum(all(fl) for fl in groups[k].values()))
        if len(keys) > 1:
            add((part, "all"), [groups[k] for k in keys], None)
    add(("all", "all"), list(groups.values()), None)
    out = pd.DataFrame.from_dict(rows, orient="index")
    out["runs with every pair"] = out["runs with every pair"].astype("Int64")
    out.index = pd.MultiIndex.from_tuples(out.index, names=["part", "tasks"])
    return out

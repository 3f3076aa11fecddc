"""The tables of the ``selection_suite`` protocol: :func:`reduce`."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments import benchmark as B
from fsbook.experiments.selection_suite import paper
from fsbook.experiments.selection_suite.tasks import rank_k, width

__all__ = ["reduce", "interval"]


def _long(params_list, results_list):
    rows = []
    for p, r in zip(params_list, results_list):
        if "not_run" in r:
            continue
        domain = paper.DATASETS[p["dataset"]][0]
        for i, k in enumerate(r["k"]):
            rows.append({"dataset": p["dataset"], "domain": domain, "method": p["method"], "repeat": p["repeat"],
                         "fold": p["fold"], "k": k, "n_selected": r["n_selected"][i],
                         **{c: 100 * r[c][i] for c in paper.CLASSIFIERS}, "fit_cpu": r["fit_cpu"][i],
                         "peak_mib": r["peak_mib"][i], "support": tuple(r["support"][i])})
    columns = ["dataset", "domain", "method", "repeat", "fold", "k", "n_selected", *paper.CLASSIFIERS, "fit_cpu",
               "peak_mib", "support"]
    return pd.DataFrame(rows, columns=columns)


def interval(values, level=0.95):
    """``(mean, low, high)`` of the mean of independent values (Student's t interval; the
    repetition means of one data set).

    Examples
    --------
    >>> [round(v, 3) for v in interval([1.0, 2.0, 3.0])]
    [2.0, -0.484, 4.484]
    """
    from scipy import stats

    v = np.asarray(values, dtype=float)
    m = float(v.mean())
    if v.size < 2:
        return m, float("nan"), float("nan")
    h = stats.t.ppf(0.5 + level / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size)
    return m, float(m - h), float(m + h)


def _accuracy(df):
    rows = []
    for (d, dom, m, k), g in df.groupby(["dataset", "domain", "method", "k"], sort=False):
        row = {"dataset": d, "domain": dom, "method": m, "k": k, "n_selected": g["n_selected"].mean(),
               "rank_k": bool(m in paper.OWN_SIZE or k == rank_k(d)), "repeats": g["repeat"].nunique()}
        for c in paper.CLASSIFIERS:
            row[c], row[f"{c}_low"], row[f"{c}_high"] = interval(g.groupby("repeat")[c].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def reduce(params_list, results_list):
    """Tables:

    * ``accuracy``: per data set, method and ``k`` (0: own size or all features), the
      classifier's mean test accuracy (%) with the 95 % t interval over the repetition means
      (:func:`interval`), ``rank_k`` marking the point the statistics rank (:func:`rank_k`);
    * ``folds``: every test fold's accuracies (the paired units of the claims);
    * ``cost``: per data set and method, the mean fit CPU seconds of a task (its fits summed
      over ``k``) and the largest peak memory growth (MiB, :class:`~fsbook.experiments._memory.PeakRSS`);
    * ``stability``: Kuncheva's index of the two folds' kept sets, mean over repetitions, per
      data set, method and ``k`` (NaN where sizes differ);
    * ``not_run``: the excluded cells and their reasons; ``hkl_fits``: HKL's certificates.
    """
    df = _long(params_list, results_list)
    runs = pd.DataFrame([{"dataset": p["dataset"], "method": p["method"], "fit_cpu": sum(r["fit_cpu"]),
                          "peak_mib": max(r["peak_mib"])} for p, r in zip(params_list, results_list)
                         if "not_run" not in r], columns=["dataset", "method", "fit_cpu", "peak_mib"])
    cost = runs.groupby(["dataset", "method"], sort=False).agg(fit_cpu=("fit_cpu", "mean"),
                                                               peak_mib=("peak_mib", "max")).reset_index()
    cost.insert(1, "domain", cost["dataset"].map(lambda d: paper.DATASETS[d][0]))
    stab = pd.DataFrame([{"dataset": d, "method": m, "k": k, "kuncheva": B.tables.kuncheva_by_repeat(g, width(d))}
                         for (d, m, k), g in df[df.method != "none"].groupby(["dataset", "method", "k"], sort=False)],
                        columns=["dataset", "method", "k", "kuncheva"])
    return {"accuracy": _accuracy(df), "folds": df.drop(columns=["support"]), "cost": cost, "stability": stab,
            "not_run": B.tables.not_run_table(params_list, results_list),
            "hkl_fits": B.tables.hkl_fits_by_dataset(params_list, results_list)}

"""The ``hkl`` protocol's tables: :func:`reduce` and one builder per table of chapter 6."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import wins_ties_losses
from fsbook.experiments.hkl.paper import _DEGREE_LABEL, RBF_C1_LABEL, TABLE1_DATASETS, TABLE1_METHODS

# ---- reduction -------------------------------------------------------------------------------------

def task_frame(params_list, results_list, *, repetitions=False):
    """One row per stored task: its parameters and scalar results, with ``repeat`` (0 for the
    first partition's tasks, which carry no such key).  Only the first partition's tasks, the
    ones every table shows, unless ``repetitions``.

    Examples
    --------
    >>> df = task_frame([{"table": 1, "fold": 0}, {"table": 1, "fold": 0, "repeat": 2}],
    ...                 [{"L2": 0.5, "found": []}, {"L2": 0.75}], repetitions=True)
    >>> df[["table", "fold", "repeat", "L2"]].to_dict("records")
    [{'table': 1, 'fold': 0, 'repeat': 0, 'L2': 0.5}, {'table': 1, 'fold': 0, 'repeat': 2, 'L2': 0.75}]
    >>> len(task_frame([{"table": 1, "fold": 0}, {"table": 1, "fold": 0, "repeat": 2}],
    ...                [{"L2": 0.5}, {"L2": 0.75}]))
    1
    """
    df = pd.DataFrame([{**p, **{k: v for k, v in r.items() if not isinstance(v, list)}}
                       for p, r in zip(params_list, results_list)])
    df["repeat"] = df["repeat"].fillna(0).astype(int) if "repeat" in df else 0
    return df if repetitions else df[df.repeat == 0].reset_index(drop=True)


def _table1(df):
    t = df[df.table == 1]
    if t.empty:
        return pd.DataFrame()
    rows = {}
    for (m, d), g in t.groupby(["method", "dataset"], sort=False):
        if m == "hkl":
            rows.setdefault((m, "HKL"), {})[d] = 100 * g["HKL"].mean()
        else:
            for c in ("L2", "L1"):
                rows.setdefault((m, c), {})[d] = 100 * g[c].mean()
    order = [(m, k) for m in TABLE1_METHODS for k in (("HKL",) if m == "hkl" else ("L2", "L1"))]
    out = pd.DataFrame.from_dict(rows, orient="index")
    out = out.reindex([o for o in order if o in rows])
    out.index = pd.MultiIndex.from_tuples(out.index, names=["method", "classifier"])
    return out[[d for d in TABLE1_DATASETS if d in out.columns]]


def _table2(t1):
    """Wins, ties, losses and the one-sided Wilcoxon signed-rank test of HKL against each
    configuration, across the datasets (:func:`fsbook.claims.wins_ties_losses`)."""
    if t1.empty or ("hkl", "HKL") not in t1.index:
        return pd.DataFrame()
    hkl = t1.loc[("hkl", "HKL")]
    rows = []
    for (m, c), vals in t1.iterrows():
        if m == "hkl":
            continue
        r = wins_ties_losses(hkl, vals)
        rows.append({"method": m, "classifier": c, "wins": r["wins"], "ties": r["ties"], "losses": r["losses"],
                     "p (HKL better)": r["p"]})
    return pd.DataFrame(rows)


def _interaction_table(ti):
    """Per fold and mean: the linear SVM, then the words-and-products SVM of each degree."""
    cols = {}
    for d, g in ti.groupby("degree", sort=True):
        g = g.set_index(g["fold"].astype(int)).sort_index()
        if not cols:
            cols["linear SVM: accuracy (%)"] = 100 * g["linear"]
            cols["linear SVM: C"] = g["C_linear"]
        label = _DEGREE_LABEL.get(int(d), f"words + products of ≤ {int(d)}")
        cols[f"{label}: accuracy (%)"] = 100 * g["interactions"]
        cols[f"{label}: γ"] = g["gamma"]
        cols[f"{label}: C"] = g["C_interactions"]
    folds = pd.DataFrame(cols)
    folds.index.name = "fold"
    acc = [c for c in folds.columns if c.endswith("accuracy (%)")]
    mean = folds[acc].mean().reindex(folds.columns).rename("mean")
    return pd.concat([folds, mean.to_frame().T])


def _certificate_mark(certified, gaps):
    """``"certified"`` if every fit reached its duality-gap tolerance, else ``"k of n fits
    uncertified (max gap g)"`` with the largest relative gap of the uncertified ones."""
    certified = certified.astype(bool).to_numpy()
    if certified.all():
        return "certified"
    return (f"{int((~certified).sum())} of {certified.size} fits uncertified "
            f"(max gap {gaps.to_numpy()[~certified].max():.2g})")


def reduce(params_list, results_list):
    """Tables (all DataFrames, as the runner stores them): ``table1``, ``table2``,
    ``table1_details`` (HKL's C and disjunctions), ``table3``, ``interactions`` (per fold and
    mean), ``disjunctions``,
    ``paper_disjunctions``, ``disjunctions_accuracy``, ``table4``, ``table5``.  Every HKL fit
    that did not reach its duality-gap tolerance is marked where its accuracy is shown
    (``"HKL fit"``: how many fits, and the largest relative gap among them)."""
    df = task_frame(params_list, results_list)
    tables = {}
    t1 = _table1(df)
    tables["table1"] = t1
    tables["table2"] = _table2(t1)
    h = df[(df.table == 1) & (df.method == "hkl")]
    if not h.empty and "n_disjunctions" in h.columns:
        tables["table1_details"] = h.groupby("dataset", sort=False)[["C", "n_disjunctions", "n_features_used"]].mean()
        if "certified" in h.columns:          # folds whose refit did not reach the gap tolerance
            g = h.groupby("dataset", sort=False)
            tables["table1_details"]["uncertified folds"] = g["certified"].apply(lambda c: int((~c.astype(bool)).sum()))
            tables["table1_details"]["max gap"] = g["duality_gap"].max()
            tables["table1_details"]["HKL fit"] = g.apply(
                lambda r: _certificate_mark(r["certified"], r["duality_gap"]), include_groups=False)
    t3 = df[(df.table == 3) & (df.method == "svm_tuned")]
    ti = df[(df.table == 3) & (df.method == "interactions")]
    if not ti.empty:
        tables["interactions"] = _interaction_table(ti)
    if not t3.empty and "20newsgroups" in t1.columns:
        acc = {"L1-SVM (tuned C)": 100 * t3["L1"].mean(), "L2-SVM (tuned C)": 100 * t3["L2"].mean(),
               "L1-SVM (C = 1)": t1.loc[("all", "L1"), "20newsgroups"],
               RBF_C1_LABEL: t1.loc[("all", "L2"), "20newsgroups"],
               "HKL": t1.loc[("hkl", "HKL"), "20newsgroups"]}
        for label in _DEGREE_LABEL.values():
            col = f"{label}: accuracy (%)"
            if "interactions" in tables and col in tables["interactions"]:
                acc[f"SVM, {label} (tuned γ, C)"] = tables["interactions"].loc["mean", col]
        table3 = pd.Series(acc, name="accuracy (%)", dtype=float).to_frame()
        if "certified" in h.columns:
            h20 = h[h.dataset == "20newsgroups"]
            table3["HKL fit"] = pd.Series({row: _certificate_mark(h20["certified"], h20["duality_gap"])
                                           if row == "HKL" else "—" for row in table3.index}, dtype=object)
        tables["table3"] = table3
    for p, r in zip(params_list, results_list):
        if p["table"] == "disjunctions":
            tables["disjunctions"] = pd.DataFrame(r["found"])
            tables["paper_disjunctions"] = pd.DataFrame(r["paper"])
            acc = {"accuracy": r["accuracy"], "C": r["C"]}
            if "certified" in r:
                acc["HKL fit"] = _certificate_mark(pd.Series([r["certified"]]), pd.Series([r["duality_gap"]]))
            tables["disjunctions_accuracy"] = pd.Series(acc, name="value").to_frame()
    for tab in (4, 5):
        t = df[df.table == tab]
        if t.empty:
            continue
        if "fraction" not in t.columns:
            t = t.assign(fraction=np.nan)
        t = t.assign(fraction=t["fraction"].fillna(-1.0))     # HKL rows have no target fraction
        agg = dict(fraction_used=("fraction_used", "mean"), accuracy=("accuracy", "mean"))
        if "certified" in t.columns:          # HKL rows: folds not certified, largest gap
            t = t.assign(uncertified=t["certified"].map({True: 0, False: 1}))
            agg.update(uncertified_folds=("uncertified", "sum"), max_gap=("duality_gap", "max"))
        g = t.groupby(["dataset", "method", "fraction"], sort=False)
        out = g.agg(**agg)
        out["accuracy"] *= 100
        if "certified" in t.columns:
            out["HKL fit"] = g.apply(lambda r: _certificate_mark(r["certified"], r["duality_gap"])
                                     if r["certified"].notna().all() else "—", include_groups=False)
        out = out.reset_index()
        out["fraction"] = out["fraction"].where(out["fraction"] >= 0)
        tables[f"table{tab}"] = out
    return tables

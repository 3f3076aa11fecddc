"""Statistics of the ``selection_suite`` protocol, on its reduced tables.

Every function reads the tables of :func:`fsbook.experiments.selection_suite.tables.reduce` (``accuracy``,
``folds``, ``cost``) and decides over data sets, overall and per domain:

* :func:`score_matrix` -- data sets × methods at each data set's ranking size (own-size methods
  and ``none`` at their one point);
* :func:`friedman_tests` -- the Friedman test and the Nemenyi critical difference per scope;
* :func:`versus_none` -- every selector against the all-features control ``none`` by Holm's
  step-down over average ranks (:func:`fsbook.stats.holm_vs_control`);
* :func:`effects_vs_none` -- per data set, each selector's accuracy minus that of all features;
* :func:`which_selector` -- per scope, the selectors decided above and below all features
  (:func:`~fsbook.experiments.selection_suite.claims.over_datasets_vs_none`'s claims);
* :func:`pareto` -- accuracy against fit cost per domain, and which methods no other dominates.

The claims against all features (per data set and over each scope) are
:mod:`fsbook.experiments.selection_suite.claims.claims`'.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments.selection_suite.paper import CLASSIFIERS, DOMAINS, METHODS
from fsbook.stats import critical_difference, friedman, holm_vs_control

__all__ = ["effects_vs_none", "friedman_tests", "pareto", "pareto_front", "score_matrix", "stability_summary",
           "decided_counts", "versus_none", "which_selector"]


def _check(metric):
    if metric not in CLASSIFIERS:
        raise ValueError(f"metric must be one of {list(CLASSIFIERS)}, got {metric!r}")


def score_matrix(accuracy, metric="acc_rbf", domain=None):
    """Data sets × methods mean accuracy at the ranking size (``accuracy["rank_k"]``).

    Methods without a value on every data set of the scope are dropped (the Friedman design
    needs a complete block): an excluded method enters the scopes where it ran everywhere.

    Parameters
    ----------
    accuracy : DataFrame
        The ``accuracy`` table of ``reduce``.
    metric : str
        A key of :data:`~fsbook.experiments.selection_suite.paper.CLASSIFIERS` (``"acc_rbf"``).
    domain : str, optional
        One of :data:`~fsbook.experiments.selection_suite.paper.DOMAINS`; default every data set.

    Returns
    -------
    scores : DataFrame
    dropped : list of str
        The methods dropped for missing cells.

    Examples
    --------
    >>> import pandas as pd
    >>> acc = pd.DataFrame({"dataset": ["a", "a", "b"], "domain": ["text"] * 3,
    ...                     "method": ["none", "MI", "none"], "rank_k": [True] * 3,
    ...                     "acc_rbf": [80.0, 85.0, 70.0]})
    >>> s, dropped = score_matrix(acc)
    >>> s.columns.tolist(), dropped
    (['none'], ['MI'])
    """
    _check(metric)
    t = accuracy[accuracy["rank_k"]]
    if domain is not None:
        t = t[t["domain"] == domain]
    m = t.pivot_table(index="dataset", columns="method", values=metric, aggfunc="first", sort=False)
    m = m[[c for c in METHODS if c in m.columns]]
    dropped = [c for c in m.columns if m[c].isna().any()]
    return m.drop(columns=dropped), dropped


def _scopes(accuracy):
    present = set(accuracy["domain"])
    return [None] + [d for d in DOMAINS if d in present]


def friedman_tests(accuracy):
    """Per scope (all data sets, then each domain) and classifier: the data sets and methods
    compared, the Friedman χ² and p (:func:`fsbook.stats.friedman`) and Nemenyi's critical
    difference at α = 0.05; scopes of fewer than 2 data sets or 3 methods have NaN."""
    rows = []
    for scope in _scopes(accuracy):
        for metric, label in CLASSIFIERS.items():
            s, dropped = score_matrix(accuracy, metric, scope)
            ok = s.shape[0] >= 2 and s.shape[1] >= 3
            chi2, p = friedman(s) if ok else (np.nan, np.nan)
            rows.append({"scope": scope or "all", "classifier": label, "data sets": s.shape[0],
                         "methods": s.shape[1], "Friedman chi2": chi2, "p": p,
                         "CD": critical_difference(s.shape[1], s.shape[0]) if ok else np.nan,
                         "dropped": ", ".join(dropped)})
    return pd.DataFrame(rows)


def versus_none(accuracy):
    """Per scope and classifier, every method against ``none`` (Holm over the methods of the
    scope, :func:`fsbook.stats.holm_vs_control`): average rank, ``z`` (negative: ranks better
    than all features), p, Holm's p and the side."""
    rows = []
    for scope in _scopes(accuracy):
        for metric, label in CLASSIFIERS.items():
            s, _ = score_matrix(accuracy, metric, scope)
            if s.shape[0] < 2 or s.shape[1] < 3 or "none" not in s.columns:
                continue
            for m, r in holm_vs_control(s, "none").iterrows():
                side = "better" if r["z"] < 0 else "worse" if r["z"] > 0 else "tie"
                rows.append({"scope": scope or "all", "classifier": label, "method": m, "rank": r["rank"],
                             "z": r["z"], "p": r["p"], "p_holm": r["p_holm"], "side": side})
    return pd.DataFrame(rows, columns=["scope", "classifier", "method", "rank", "z", "p", "p_holm", "side"])


def pareto_front(acc, cost):
    """Whether each point is on the Pareto front of higher accuracy and lower cost: no other
    point is at least as accurate and at most as costly, and better in one.

    Examples
    --------
    >>> pareto_front([80, 85, 84, 85], [1.0, 5.0, 6.0, 5.0]).tolist()
    [True, True, False, True]
    """
    a, c = np.asarray(acc, dtype=float), np.asarray(cost, dtype=float)
    dominated = [(((a >= a[i]) & (c <= c[i])) & ((a > a[i]) | (c < c[i]))).any() for i in range(a.size)]
    return ~np.asarray(dominated, dtype=bool)


def pareto(accuracy, cost, metric="acc_rbf"):
    """Per domain and method: mean accuracy at the ranking size over the domain's data sets
    where every compared method ran (:func:`score_matrix`), the median fit CPU seconds of a task
    on them, the largest peak memory, and whether the method is on the domain's Pareto front."""
    rows = []
    for scope in _scopes(accuracy)[1:]:
        s, _ = score_matrix(accuracy, metric, scope)
        c = cost[cost["dataset"].isin(s.index)]
        t = pd.DataFrame({"accuracy": s.mean(),
                          "fit_cpu": c.groupby("method")["fit_cpu"].median().reindex(s.columns).fillna(0.0),
                          "peak_mib": c.groupby("method")["peak_mib"].max().reindex(s.columns).fillna(0.0)})
        t["pareto"] = pareto_front(t["accuracy"], t["fit_cpu"])
        rows.append(t.rename_axis("method").reset_index().assign(domain=scope, data_sets=s.shape[0]))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


def effects_vs_none(accuracy, metric="acc_rbf"):
    """Per data set and selector: its mean accuracy at the ranking size minus that of all
    features (``none``), on the same folds, in accuracy points.

    Returns
    -------
    DataFrame
        Data sets × methods (``none`` excluded); NaN where a method did not run.
    """
    _check(metric)
    t = accuracy[accuracy["rank_k"]]
    m = t.pivot_table(index="dataset", columns="method", values=metric, aggfunc="first", sort=False)
    if "none" not in m.columns:
        raise ValueError("the accuracy table has no row of the all-features control 'none'")
    return m[[c for c in METHODS if c in m.columns and c != "none"]].sub(m["none"], axis=0)


def which_selector(decided, cost=None):
    """The answer to "which selector, when": per scope, the selectors decided above all features,
    those decided below, and those the test does not separate from it (or cannot test), each
    with its Hodges–Lehmann effect in accuracy points.

    Parameters
    ----------
    decided : DataFrame
        :func:`~fsbook.experiments.selection_suite.claims.over_datasets_vs_none`'s table.
    cost : DataFrame, optional
        ``reduce``'s ``cost`` table: with it, the column ``cheapest not below`` names the selector
        of least median fit CPU time among those not decided below all features.

    Returns
    -------
    DataFrame
        One row per scope: ``scope``, ``data sets`` (the most any selector was tested on),
        ``above all features``, ``below all features``, ``not separated``, ``untestable``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"scope": ["all"] * 3, "method": ["MI", "HKL", "CFS"],
    ...                   "n": [30, 30, 4], "effect": [1.2, -3.0, 0.5],
    ...                   "verdict": ["holds", "fails", "not separable"],
    ...                   "note": ["", "", "untestable: 4 data sets cannot reach p < 0.05"]})
    >>> which_selector(t).iloc[0].to_dict()
    {'scope': 'all', 'data sets': 30, 'above all features': 'MI (+1.2)', 'below all features': 'HKL (−3.0)', 'not separated': '', 'untestable': 'CFS'}
    """
    def fmt(g):
        g = g.sort_values("effect", ascending=False)
        return ", ".join(f"{m} ({_pts(e)})" for m, e in zip(g["method"], g["effect"]))

    rows = []
    for scope, g in decided.groupby("scope", sort=False):
        untestable = g["note"].astype(str).str.startswith("untestable")
        tested = g[~untestable]
        row = {"scope": scope, "data sets": int(g["n"].max()),
               "above all features": fmt(tested[tested["verdict"] == "holds"]),
               "below all features": fmt(tested[tested["verdict"] == "fails"]),
               "not separated": fmt(tested[~tested["verdict"].isin(["holds", "fails"])]),
               "untestable": ", ".join(g.loc[untestable, "method"])}
        if cost is not None:
            ok = tested.loc[tested["verdict"] != "fails", "method"]
            med = cost[cost["method"].isin(ok)].groupby("method")["fit_cpu"].median()
            row["cheapest not below"] = str(med.idxmin()) if len(med) else ""
        rows.append(row)
    return pd.DataFrame(rows)


def stability_summary(stability, accuracy):
    """Per domain and selector: the median Kuncheva index of the kept sets at the ranking size
    over the domain's data sets (the index of the two folds' sets, mean over repetitions, as
    ``reduce`` stores it); NaN where sizes differed on every data set."""
    at = accuracy[accuracy["rank_k"] & (accuracy["method"] != "none")][["dataset", "domain", "method", "k"]]
    s = stability.merge(at, on=["dataset", "method", "k"])
    t = s.pivot_table(index="method", columns="domain", values="kuncheva", aggfunc="median")
    t["all"] = s.groupby("method")["kuncheva"].median()
    return t.reindex([m for m in METHODS if m in t.index])[["all"] + [d for d in DOMAINS if d in t.columns]]


def decided_counts(per_dataset):
    """Per method: how many per-data-set comparisons with all features are decided above, below,
    not separated, and in all (:func:`~fsbook.experiments.selection_suite.claims.claims_vs_none`'s table), overall and per domain.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"method": ["MI", "MI", "HKL"], "domain": ["text", "image", "text"],
    ...                   "verdict": ["holds", "not separable", "fails"]})
    >>> decided_counts(t).loc["all"].to_dict()
    {'above': 1, 'below': 1, 'not separated': 1, 'comparisons': 3}
    """
    def count(g):
        v = g["verdict"]
        return pd.Series({"above": int((v == "holds").sum()), "below": int((v == "fails").sum()),
                          "not separated": int((~v.isin(["holds", "fails"])).sum()), "comparisons": int(len(v))})

    rows = {"all": count(per_dataset)}
    for dom in DOMAINS:
        g = per_dataset[per_dataset["domain"] == dom]
        if len(g):
            rows[dom] = count(g)
    return pd.DataFrame(rows).T


def _pts(x):
    return f"{x:+.1f}".replace("-", "−")

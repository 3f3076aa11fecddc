"""Statistics of the ``selection_suite`` protocol, on its reduced tables.

Every function reads the tables of :func:`fsbook.experiments.selection_suite.reduce` (``accuracy``,
``folds``, ``cost``) and decides over data sets, overall and per domain:

* :func:`score_matrix` -- data sets × methods at each data set's ranking size (own-size methods
  and ``none`` at their one point);
* :func:`friedman_tests` -- the Friedman test and the Nemenyi critical difference per scope;
* :func:`versus_none` -- every selector against the all-features control ``none`` by Holm's
  step-down over average ranks (:func:`fsbook.stats.holm_vs_control`);
* :func:`claims_vs_none` -- per data set, each selector above ``none`` by the book's rule for
  repeated CV (:class:`fsbook.claims.Claim` with ``test="repeated_cv_t"``, unit
  ``"repetitions"``), Holm within each method's family of data sets;
* :func:`pareto` -- accuracy against fit cost per domain, and which methods no other dominates.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments.selection_suite import CLASSIFIERS, DOMAINS, METHODS

__all__ = ["claims_vs_none", "friedman_tests", "pareto", "pareto_front", "score_matrix", "versus_none"]


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
        A key of :data:`~fsbook.experiments.selection_suite.CLASSIFIERS` (``"acc_rbf"``).
    domain : str, optional
        One of :data:`~fsbook.experiments.selection_suite.DOMAINS`; default every data set.

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
    from fsbook.stats import critical_difference, friedman

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
    from fsbook.stats import holm_vs_control

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


def _fold_matrix(g, metric):
    """Accuracies of one method's folds as (repeats, folds)."""
    m = g.pivot_table(index="repeat", columns="fold", values=metric, aggfunc="first")
    if m.isna().any().any():
        raise ValueError("incomplete folds: every repetition needs every fold")
    return m.to_numpy(dtype=float)


def claims_vs_none(accuracy, folds):
    """Per data set, classifier and selector: "``method`` above all features", decided on the
    paired test folds at the ranking size by the book's rule for repeated CV (the paired t-test
    over the repetition means, :func:`fsbook.claims.evaluate`), Holm within the family
    ``"<method> vs none (<classifier>)"`` (the data sets of one method and classifier).

    Returns a claims table (:data:`fsbook.claims.COLUMNS`) with ``dataset``, ``domain``,
    ``method`` and ``classifier`` columns.
    """
    from fsbook.claims import Claim, claims_table, evaluate

    at = accuracy[accuracy["rank_k"]][["dataset", "method", "k"]]
    f = folds.merge(at, on=["dataset", "method", "k"])
    rows = []
    for metric, label in CLASSIFIERS.items():
        for d, g in f.groupby("dataset", sort=False):
            base = g[g["method"] == "none"]
            if base.empty:
                continue
            b = _fold_matrix(base, metric)
            for m in [c for c in METHODS if c != "none" and c in set(g["method"])]:
                claim = Claim(f"{m} above all features ({label}): {d}", a=m, b="none", better="higher",
                              unit="repetitions", test="repeated_cv_t", table=f"{m} vs none ({label})", dataset=d)
                row = evaluate(claim, _fold_matrix(g[g["method"] == m], metric), b)
                rows.append({**row, "dataset": d, "domain": g["domain"].iloc[0], "method": m, "classifier": label})
    return claims_table(rows)


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

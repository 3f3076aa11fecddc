"""Statistics of the ``selection_suite`` protocol, on its reduced tables.

Every function reads the tables of :func:`fsbook.experiments.selection_suite.reduce` (``accuracy``,
``folds``, ``cost``) and decides over data sets, overall and per domain:

* :func:`score_matrix` -- data sets × methods at each data set's ranking size (own-size methods
  and ``none`` at their one point);
* :func:`friedman_tests` -- the Friedman test and the Nemenyi critical difference per scope;
* :func:`versus_none` -- every selector against the all-features control ``none`` by Holm's
  step-down over average ranks (:func:`fsbook.stats.holm_vs_control`);
* :func:`effects_vs_none` -- per data set, each selector's accuracy minus that of all features;
* :func:`which_selector` -- per scope, the selectors decided above and below all features
  (:func:`~fsbook.experiments.selection_suite.comparisons.over_datasets_vs_none`'s claims);
* :func:`pareto` -- accuracy against fit cost per domain, and which methods no other dominates.

The claims against all features (per data set and over each scope) are
:mod:`fsbook.experiments.selection_suite.comparisons`'.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments.selection_suite import settings as S
from fsbook.experiments.selection_suite.settings import CLASSIFIERS, DOMAINS, METHODS
from fsbook.report import join_words
from fsbook.stats import critical_difference, friedman, holm_vs_control

__all__ = ["MARKDOWN_FACTS", "effects_vs_none", "friedman_tests", "pareto", "pareto_front", "score_matrix", "stability_summary",
           "decided_counts", "versus_none", "which_selector", "facts", "PAPER_METHODS"]


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
        A key of :data:`~fsbook.experiments.selection_suite.settings.CLASSIFIERS` (``"acc_rbf"``).
    domain : str, optional
        One of :data:`~fsbook.experiments.selection_suite.settings.DOMAINS`; default every data set.

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
        :func:`~fsbook.experiments.selection_suite.comparisons.over_datasets_vs_none`'s table.
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
    not separated, and in all (:func:`~fsbook.experiments.selection_suite.comparisons.claims_vs_none`'s table), overall and per domain.

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


#: the papers' selectors on the page, with the chapter that derives each
PAPER_METHODS = {"LDFS": "02_l1linf_feature_selection", "HSFS": "02_l1linf_feature_selection",
                 "WK-LP": "03_lp_kernel_design", "GeoRatio": "04_geometric_ratios", "HKL": "05_disjunctive_hkl"}


def _pts(x):
    return f"{x:+.1f}".replace("-", "−")


def _row_words(r):
    """"MI (+1.2 points, 95 % interval [+0.4, +2.0], 30 data sets)"; "MI (+1.2 points on 4 data
    sets, too few to test)" where the interval is undefined."""
    if not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])):
        n = int(r["n"])
        return f"{r['method']} ({_pts(r['effect'])} points on {n} data set{'s' if n != 1 else ''}, too few to test)"
    return (f"{r['method']} ({_pts(r['effect'])} points, 95 % interval [{_pts(r['ci_low'])}, "
            f"{_pts(r['ci_high'])}], {int(r['n'])} data sets)")


def _bullets(rows):
    """A markdown list of :func:`_row_words`, one selector an item."""
    return "\n".join(f"- {_row_words(r)}" for _, r in rows.iterrows())


def _margin_facts(claims_table):
    """The declared margins of the page's claims (:func:`fsbook.experiments.selection_suite.
    order_margins`) and the verdicts they give, in words.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"scope": ["", "", "all"], "dataset": ["a", "b", ""], "margin": [0.1, 2.0, 0.6],
    ...                   "verdict": ["no gain", "holds", "fails"], "size": ["", "below margin", ""]})
    >>> f = _margin_facts(t)
    >>> f["ws_margins"], f["ws_margin_over"]
    ('0.10 points on a (one of 1 000 test samples) to 2.00 points on b (one of 50)', '0.60')
    >>> f["ws_margin_verdicts"]
    'On one data set, 1 comparison shows no gain within its margin and 1 holds by less than its margin.'
    """
    per = claims_table[claims_table["scope"] == ""]
    margin = per.drop_duplicates("dataset").set_index("dataset")["margin"].astype(float)
    over = claims_table.loc[claims_table["scope"] == "all", "margin"].astype(float)
    lo, hi = margin.idxmin(), margin.idxmax()
    no_gain = int((per["verdict"] == "no gain").sum())
    below = int((per["size"] == "below margin").sum())
    over_words = (f"{over.iloc[0]:.2f}" if np.allclose(over, over.iloc[0]) else
                  f"{over.min():.2f} to {over.max():.2f}")
    return {
        "ws_margins": (f"{margin[lo]:.2f} points on {lo} (one of {100 / margin[lo]:,.0f} test samples) to "
                       f"{margin[hi]:.2f} points on {hi} (one of {100 / margin[hi]:,.0f})").replace(",", " "),
        "ws_margin_over": over_words,
        "ws_margin_verdicts": (f"On one data set, {_count(no_gain, 'comparison shows', 'comparisons show')} "
                               f"no gain within {'its' if no_gain == 1 else 'their'} margin and "
                               f"{_count(below, 'holds', 'hold')} by less than {'its' if below == 1 else 'their'} "
                               "margin."),
    }


def _count(n, one, many):
    """'1 comparison shows', '0 comparisons show'."""
    return f"{n} {one if n == 1 else many}"


#: the facts of :func:`facts` that are markdown blocks (lists), to be glued as ``Markdown`` and shown
#: with the ``{glue:md}`` directive; every other fact is inline text
MARKDOWN_FACTS = ("ws_all_sentence", "ws_when_sentence", "ws_conclusion_papers")


def facts(results, design, claims_table):
    """Every number and verdict the page's prose quotes, as glue keys to text.

    Parameters
    ----------
    results : ProtocolResult
        The stored protocol.
    design : DataFrame
        :func:`fsbook.experiments.selection_suite.settings`.
    claims_table : DataFrame
        :func:`fsbook.experiments.selection_suite.claims` of ``results``.

    Returns
    -------
    dict of str to str
    """
    over = claims_table[claims_table["scope"] != ""]
    everywhere = over[over["scope"] == "all"].sort_values("effect", ascending=False)
    above, below = everywhere[everywhere["verdict"] == "holds"], everywhere[everywhere["verdict"] == "fails"]
    between = everywhere[~everywhere["verdict"].isin(["holds", "fails"])]
    domains = [d for d in S.DOMAINS if (design["domain"] == d).any()]
    out = {
        "ws_n_datasets": str(len(design)), "ws_n_domains": str(len(domains)),
        "ws_domains": join_words([f"{d} ({int((design['domain'] == d).sum())})" for d in domains]),
        "ws_n_selectors": str(len([m for m in S.METHODS if m != "none"])),
        "ws_cv": f"{S.REPEATS} repetitions of {S.N_FOLDS}-fold cross-validation",
        "ws_n_repeats": str(S.REPEATS), "ws_max_samples": f"{S.MAX_SAMPLES:,}".replace(",", " "),
        "ws_rank_fraction": f"{S.RANK_FRACTION:.0%}", "ws_width_cap": str(S.WIDTH_CAP),
        "ws_fractions": join_words([f"{f:.0%}" for f in S.FRACTIONS]),
    }
    out.update(_margin_facts(claims_table))
    out["ws_all_sentence"] = "\n\n".join(b for b in [
        f"Over every data set, decided above all features:\n\n{_bullets(above)}" if len(above) else
        "Over every data set, no selector is decided above all features.",
        f"Decided below all features:\n\n{_bullets(below)}" if len(below) else "None is decided below.",
        f"Not separated from all features: {join_words(between['method'].tolist())}." if len(between) else ""]
        if b)
    when = which_selector(over)
    parts = []
    for _, r in when.iterrows():
        if r["scope"] == "all" or not (r["above all features"] or r["below all features"]):
            continue
        bits = [f"above all features {r['above all features']}" if r["above all features"] else "",
                f"below {r['below all features']}" if r["below all features"] else ""]
        parts.append(f"- on {r['scope']} ({r['data sets']} data sets): " + "; ".join(b for b in bits if b))
    undecided = [r["scope"] for _, r in when.iterrows()
                 if r["scope"] != "all" and not (r["above all features"] or r["below all features"])]
    out["ws_when_sentence"] = (
        ("Decided per domain and shape (effects in points):\n\n" + "\n".join(parts) + "\n\n" if parts else
         "No domain or shape decides any selector against all features. ")
        + (f"No selector is decided either way on {join_words(undecided)}." if undecided else ""))
    out["ws_overview"] = (
        f"Over all {len(design)} data sets, {len(above)} of {len(everywhere)} selectors are decided above "
        f"the SVM on all features and {len(below)} below it; the rest are not separated. "
        f"The table in the section *Which selector, when* gives the answer per domain and per shape.")
    paper_rows = []
    for m in PAPER_METHODS:
        r = everywhere[everywhere["method"] == m]
        ran = int(r["n"].iloc[0]) if len(r) else 0
        skipped = len(design) - ran
        verdict = ("above all features" if len(r) and r["verdict"].iloc[0] == "holds" else
                   "below all features" if len(r) and r["verdict"].iloc[0] == "fails" else
                   "not separated from all features")
        where = f"; it did not run on {skipped} (see *What does not run*)" if skipped else ""
        paper_rows.append(f"- {_row_words(r.iloc[0])} is {verdict} over the data sets where it ran{where}"
                          if len(r) else f"- {m} ran on none of the data sets (see *What does not run*)")
    out["ws_conclusion_papers"] = "On data their papers never used:\n\n" + "\n".join(paper_rows)
    cpu = pd.Series([c for c in results.cpu_seconds if c is not None], dtype=float)
    med = results.tables["cost"].groupby("method")["fit_cpu"].median().drop("none", errors="ignore")
    out["ws_conclusion_cost"] = (
        f"The store holds {len(results.params):,} tasks".replace(",", " ")
        + f" and cost {cpu.sum() / 3600:.2f} CPU-hours of recorded task time"
        + (f" ({len(cpu)} tasks timed)" if len(cpu) < len(results.params) else "")
        + f". The cheapest selector by median fit time per task is {med.idxmin()} "
          f"({med.min():.2g} CPU s), the dearest {med.idxmax()} ({med.max():.2g} CPU s).")
    return out

"""The geometric-ratios chapter's claims, decided on the store by the book's rule.

Regression t-tests for Figures 1 and 3, exact binomial tests of the selector's counts against
the paper's values for Tables 4-6, a paired t-test over the binary classifiers for the random
columns; Holm within each table; over data sets the Wilcoxon signed-rank test of the
per-data-set effects, in families of their own (:func:`over_family`).  The one order claim, the
random columns' gain, carries the declared margin :func:`~fsbook.experiments.geometry.paper.
gain_margin`; the others carry none (:data:`~fsbook.experiments.geometry.paper.UNMARGINED`).
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.claims import (
    NOT_SEPARABLE,
    Claim,
    binomial_test,
    claims_table,
    evaluate,
    evaluate_over_datasets,
    slope_t_test,
)
from fsbook.experiments.geometry.paper import PAPER, gain_margin
from fsbook.experiments.geometry.tables import _table5_row, figure1_clustered

__all__ = ["METRIC_COUNTS", "CPU_CLAIM", "claims", "over_family", "headline", "growth_claim", "table4_claim",
           "table5_claim"]


def _claim_row(table, claim, *, a, b, unit, n, effect, se, ci, test, p, note="", **extra):
    """One claims-table row (the columns of :data:`fsbook.claims.COLUMNS`, then ``extra``) for a
    claim whose p-value comes from a test the engine does not run (regression, binomial)."""
    return {"table": table, "claim": claim, "a": a, "b": b, "unit": unit, "n": int(n),
            "effect": float(effect), "se": float(se), "ci_low": float(ci[0]),
            "ci_high": float(ci[1]), "test": test, "p": float(p), "p_adj": float(p),
            "verdict": NOT_SEPARABLE, "note": note, **extra}


def _binomial_row(table, claim, k, n, p0, better, *, a, b, unit="sets", note="", **extra):
    """A selector's proportion ``k / n`` against the paper's value ``p0``: the row of
    :func:`fsbook.claims.binomial_test` (exact two-sided binomial test, effect signed so that
    positive is the paper's direction ``better``, 95 % Clopper-Pearson interval; no unit leaves the
    claim undefined, too few to reach ``p < 0.05`` untestable, out of the Holm family)."""
    r = binomial_test(k, n, p0, better, unit=unit)
    return _claim_row(table, claim, a=a, b=b, unit=unit, n=r["n"], effect=r["effect"], se=r["se"],
                      ci=(r["ci_low"], r["ci_high"]), test="exact binomial", p=r["p"],
                      note=note or r["note"], p0=float(p0), **extra)


def _regression_row(table, claim, x, y, better, *, a, b, unit, null=0.0, note="", **extra):
    """The least-squares slope of ``y`` on ``x`` against ``null``: the row of
    :func:`fsbook.claims.slope_t_test` (t-test with ``n − 2`` degrees of freedom, effect signed so
    that positive is the paper's direction ``better``; points with an undefined ``y`` left out)."""
    r = slope_t_test(x, y, better, null=null)
    return _claim_row(table, claim, a=a, b=b, unit=unit, n=r["n"], effect=r["effect"], se=r["se"],
                      ci=(r["ci_low"], r["ci_high"]), test="regression t", p=r["p"],
                      note=note or r["note"], **extra)


def _tables(results):
    if isinstance(results, Mapping):
        return results
    if hasattr(results, "tables"):
        return results.tables
    raise TypeError(f"claims() needs read_store's result or its tables, got {type(results)}")


def _regression_row_from_stats(table, r):
    """Figure 1's row of one ratio from its clustered regression (:func:`figure1_clustered`:
    slope, clustered se and p over ``n`` pairs in ``clusters`` classifiers, ``clusters − 1``
    degrees of freedom)."""
    effect, se, n = -float(r["slope"]), float(r["se"]), int(r["n"])
    half = float(stats.t.ppf(0.975, int(r["clusters"]) - 1) * se)
    perf = "F1 score" if r["ratio"] == "f4" else "accuracy"
    return _claim_row(table, f"{r['ratio']}: negative slope on {perf}", a=r["ratio"],
                      b="no relation", unit="sets", n=n, effect=effect, se=se,
                      ci=(effect - half, effect + half), test="clustered regression t", p=r["p"],
                      note=f"se clustered by {int(r['clusters'])} classifiers",
                      **{"data set": "training suite", "model": "", "general claim": ""})


def _figure1_claims(T):
    """Figure 1's claims: the slope of each ratio, its standard error clustered by classifier
    (the sets of one classifier share its samples; :func:`figure1_clustered`)."""
    fig1 = figure1_clustered(T["training_suite"])
    return [_regression_row_from_stats("Figure 1", r) for _, r in fig1.iterrows()]


#: the three metrics of Tables 4 and 5: (successes, trials) from the confusion counts
METRIC_COUNTS = {"accuracy": lambda c: (c["tp"] + c["tn"], c["tp"] + c["fp"] + c["fn"] + c["tn"]),
                 "precision": lambda c: (c["tp"], c["tp"] + c["fp"]),
                 "recall": lambda c: (c["tp"], c["tp"] + c["fn"])}


def _metric_rows(table, counts, reference, claim_text):
    """Per (model, data set, metric) binomial rows of a selector table."""
    rows = []
    for _, c in counts.iterrows():
        for metric, count in METRIC_COUNTS.items():
            p0 = reference(c, metric)
            k, n = count(c)
            general = claim_text(c["model"], metric, p0)
            note = "" if n else ("undefined: no set recommended" if metric == "precision"
                                 else "undefined: no optimal set")
            rows.append(_binomial_row(table, general, k, n, p0, "higher", a=f"{c['model']} model",
                                      b="the paper", note=note, **{"data set": c["data set"],
                                      "model": c["model"], "general claim": general}))
    return rows


def table4_claim(model, metric):
    """The claim Table 4 makes for each data set: ``model``'s ``metric`` at least the paper's
    lowest Table 4 value.

    Examples
    --------
    >>> from fsbook.experiments.geometry.claims import table4_claim
    >>> table4_claim("published", "recall")
    "published model: recall at least the paper's lowest (0.625)"
    """
    return f"{model} model: {metric} at least the paper's lowest ({float(PAPER['table4'].min()[metric]):.3f})"


def table5_claim(model, metric):
    """The claim Table 5 makes for each test set: ``model``'s ``metric`` at least the paper's
    value at the same dimension."""
    return f"{model} model: {metric} at least the paper's"


def _table4_claims(T):
    lowest = PAPER["table4"].min()
    counts = T["confusion"][T["confusion"]["table"] == "Table 4"]
    return _metric_rows("Table 4", counts, lambda c, metric: float(lowest[metric]),
                        lambda m, metric, p0: table4_claim(m, metric))


def _table5_claims(T):
    counts = T["confusion"][T["confusion"]["table"] == "Table 5"]
    return _metric_rows("Table 5", counts,
                        lambda c, metric: float(PAPER["table5"].loc[_table5_row(c["columns"]),
                                                                    metric]),
                        lambda m, metric, p0: table5_claim(m, metric))


def _table6_claims(T):
    rows = []
    for _, c in T["confusion"][T["confusion"]["table"] == "Table 6"].iterrows():
        general = f"{c['model']} model: recall below 0.5 (the method fails)"
        rows.append(_binomial_row("Table 6", general, c["tp"], c["tp"] + c["fn"], 0.5, "lower",
                                  a=f"{c['model']} model", b="half of the optimal sets",
                                  **{"data set": c["data set"], "model": c["model"],
                                     "general claim": general}))
    return rows


def _random_claims(T):
    if "random" not in T:
        return []
    rnd, rows = T["random"], []
    floor = PAPER["random_columns"]["min"]
    if not {"samples", "folds"} <= set(rnd.columns):
        raise ValueError("the random-column table has no 'samples' and 'folds' columns: reduce() puts them "
                         "there, from the random task's rows and CV folds, for the claim's margin")
    margin = gain_margin(int(rnd["samples"].iloc[0]), int(rnd["folds"].iloc[0]))
    for m in ("published", "refitted"):
        gain = rnd[f"gain_pp ({m})"].to_numpy(dtype=float)
        gain = gain[np.isfinite(gain)]
        claim = Claim(f"{m} model: the selected set gains at least {floor:g} pp", a="selected set",
                      b=f"full set + {floor:g} pp", better="higher", unit="splits",
                      test="paired_t", table="Random columns", margin=margin)
        rows.append({**evaluate(claim, gain, np.full(gain.shape, floor)),
                     "data set": "webtext + random", "model": m, "general claim": ""})
        selected = rnd[f"selected ({m})"]
        has = selected != "none recommended"
        excludes = int((~selected[has].str.split("+").map(lambda s: "random" in s)).sum())
        rows.append(_binomial_row("Random columns", f"{m} model: the selected set excludes the "
                                  "random columns on most classifiers", excludes, int(has.sum()),
                                  0.5, "higher", a="selected set", b="random columns", unit="splits",
                                  **{"data set": "webtext + random", "model": m,
                                     "general claim": ""}))
    return rows


def _figure3_claims(T):
    f3, rows = T["figure3"], []
    for m in ("published", "refitted"):
        for metric in METRIC_COUNTS:
            rows.append(_regression_row("Figure 3", f"{m} model: {metric} grows with the number "
                                        "of columns", np.log2(f3["columns"].to_numpy(float)),
                                        f3[f"{metric} ({m})"], "higher", a="more columns",
                                        b="fewer columns", unit="dimensions",
                                        **{"data set": "five-site set", "model": m,
                                           "general claim": ""}))
    return rows


#: the paper's CPU-time claim of Figure 3, decided on the whole selector's stored times
CPU_CLAIM = "whole selector: CPU time grows quadratically with the number of columns"


def _cpu_claims(T):
    """Figure 3's CPU-time claim on the stored CPU seconds of the whole selector's ratios (all
    225 pairs of each Figure 3 set, ``ratios CPU s``): the slope of log t on log n against 2."""
    f3 = T["figure3"]
    if "ratios CPU s" not in f3.columns:
        raise ValueError("the Figure 3 table has no 'ratios CPU s' column: the store's growth tasks "
                         "must record the selector's CPU time (ratios_cpu_s)")
    return [_growth_row(f3["columns"], f3["ratios CPU s"], CPU_CLAIM, a="whole selector",
                        **{"data set": "five-site set", "model": "", "general claim": ""})]


def claims(results):
    """The chapter's claims, decided on the stored per-task results by the book's rule.

    Parameters
    ----------
    results : ProtocolResult or dict of DataFrame
        What :func:`fsbook.experiments.read_store` returns for :data:`PROTOCOL` (or its
        ``tables``).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`fsbook.claims.COLUMNS`, then ``data set``, ``model`` and
        ``general claim``.  Holm's correction runs within each ``table``:

        * ``Figure 1`` -- per ratio, a negative slope of performance on the ratio over the
          training suite's (classifier, set) pairs, t with the standard error clustered by
          classifier (:func:`figure1_clustered`; f4 against the F1 score);
        * ``Table 4`` -- per model, data set and metric, the selector's accuracy, precision and
          recall at least the paper's lowest Table 4 value (exact binomial test on the counts);
          one row per model and metric over the data sets (``data set == "all"``: Wilcoxon
          signed-rank test over the per-data-set effects, in the family :func:`over_family`;
          untestable with Table 4's three data sets);
        * ``Table 5`` -- the same against the paper's row of each dimension, Wilcoxon over the
          seven test sets;
        * ``Table 6`` -- recall below 0.5 (the paper's "the method fails"), Wilcoxon over the
          four data sets (untestable);
        * ``Random columns`` -- the selected set gains at least 10 pp over the full set (paired
          t over the binary classifiers, with the declared margin
          :func:`~fsbook.experiments.geometry.paper.gain_margin`, one test prediction of a
          classifier's CV accuracy) and excludes the random columns on most of them;
        * ``Figure 3`` -- accuracy, precision and recall grow with log2 of the number of
          columns (regression t over the thirteen dimensions of one set);
        * ``Figure 3, CPU time`` -- the whole selector's CPU time grows quadratically with the
          number of columns: the slope of log t on log n of the stored CPU seconds (all pairs of
          each Figure 3 set) against 2 (:func:`growth_claim`; effect = slope − 2).

        Only the gain of Section 5.1 is an order claim and carries a margin; the other rows
        carry none, for the reasons :data:`~fsbook.experiments.geometry.paper.UNMARGINED`
        gives by test.
    """
    T = _tables(results)
    per_unit = claims_table(_figure1_claims(T) + _table4_claims(T) + _table5_claims(T)
                            + _table6_claims(T) + _random_claims(T) + _figure3_claims(T)
                            + _cpu_claims(T))
    general = per_unit[per_unit["general claim"] != ""]
    over = []
    for (table, text), rows in general.groupby(["table", "general claim"], sort=False):
        model = rows["model"].iloc[0]
        over.append({**evaluate_over_datasets(rows, text, table=over_family(table, model)),
                     "data set": "all", "model": model, "general claim": text})
    per_unit = per_unit.assign(claim=[c if g == "" else f"{c} — {d}" for c, g, d in
                                      zip(per_unit["claim"], per_unit["general claim"],
                                          per_unit["data set"])])
    out = pd.concat([per_unit, claims_table(over)], ignore_index=True)
    order = {t: i for i, t in enumerate(dict.fromkeys(per_unit["table"]))}
    return out.sort_values("table", key=lambda t: t.map(order), kind="stable").reset_index(drop=True)


def over_family(table, model):
    """The Holm family of the over-data-set rows of ``table`` for one model (``"published"``:
    the paper's coefficients, the paper's claims; ``"refitted"``: ours): never shared with the
    per-data-set rows, and three claims each (accuracy, precision, recall), so that a Wilcoxon
    test over Table 5's seven test sets can pass (2/2^7 < 0.05/3)."""
    return f"{table} (over data sets, {model} model)"


def headline(claims_df):
    """The rows of :func:`claims` that are the chapter's claims: the over-data-set rows of the
    claims made for several data sets (``data set == "all"``) and the claims made once
    (Figure 1, random columns, Figure 3), without the per-data-set rows."""
    return claims_df[(claims_df["general claim"] == "") | (claims_df["data set"] == "all")]


def _growth_row(dims, seconds, claim, *, a, exponent=2.0, table="Figure 3, CPU time", **extra):
    d, t = np.asarray(dims, float), np.asarray(seconds, float)
    ok = np.isfinite(t) & (t > 0)
    return _regression_row(table, claim, np.log(d[ok]), np.log(t[ok]), "higher", a=a,
                           b=f"n^{exponent:g}", unit="dimensions", null=exponent,
                           note=f"slope of log t on log n against {exponent:g}", **extra)


def growth_claim(dims, seconds, *, label="paper's method", exponent=2.0,
                 table="Figure 3, CPU time"):
    """The claim "CPU time grows as ``dims**exponent``" (the paper: quadratically) on a timing.

    The least-squares slope ``b`` of log t on log n is tested against ``exponent`` by its
    regression t (``n − 2`` degrees of freedom); effect = ``b − exponent``, positive in the
    paper's direction (growth at least as fast as claimed): the claim *holds* when ``b`` is
    significantly above ``exponent``, *fails* when significantly below, and is *not separable*
    otherwise.  The times at the sizes are treated as independent measurements.

    Parameters
    ----------
    dims, seconds : array-like
        Sizes and CPU times; missing or non-positive times are left out.
    label : str
        What was timed (the claim reads "<label>: CPU time grows quadratically ...").
    exponent : float
        The claimed exponent.
    table : str
        The claims table's family.

    Returns
    -------
    pandas.DataFrame
        One claims-table row (:data:`fsbook.claims.COLUMNS`).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.geometry.claims import growth_claim
    >>> n = np.array([250, 500, 1000, 2000])
    >>> growth_claim(n, 1e-3 * n * (1 + 0.01 * np.arange(4)))["verdict"].item()
    'fails'
    """
    words = "quadratically" if exponent == 2 else f"as n^{exponent:g}"
    row = _growth_row(dims, seconds, f"{label}: CPU time grows {words} with the number of columns",
                      a=label, exponent=exponent, table=table)
    return claims_table([row])

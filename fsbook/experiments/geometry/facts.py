"""Every number and verdict the geometric-ratios chapter's prose quotes, computed from the store.

:func:`facts` maps each glue key of the chapter to its text: the claims' verdicts and effects
(:func:`~fsbook.experiments.geometry.claims.claims`), the values of the reduced tables and the
growth exponents of the CPU time.  Where a sentence of the chapter depends on a fact (the
strongest ratio is "by far" the strongest, one label rule lies near the paper's shares, ...),
the fact is checked here and a ``ValueError`` says which sentence no longer holds.  The small
formatting helpers (:func:`three`, :func:`span`, :func:`p3`, :func:`b_se`, :func:`by_verdict`,
:func:`counted`) print numbers as the chapter prints them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import FAILS, HOLDS, NO_GAIN, NOT_SEPARABLE, VERDICTS, holm, verdict_counts
from fsbook.experiments._reading import machines
from fsbook.experiments.geometry.claims import CPU_CLAIM, claims, headline, table4_claim, table5_claim
from fsbook.experiments.geometry.figures import growth_fit
from fsbook.experiments.geometry.paper import PAPER, paper_base_rates
from fsbook.experiments.geometry.tables import LABEL_RULES, figure1_clustered
from fsbook.report import describe_claim, join_words, spaced

__all__ = ["facts", "claim_row", "three", "span", "by_verdict", "counted", "p3", "b_se"]

MODELS = ("published", "refitted")
METRICS = ("accuracy", "precision", "recall")


# ----------------------------------------------------------------------------- formatting
def claim_row(C, claim):
    """The one row of the claims table ``C`` whose ``claim`` is ``claim`` (KeyError otherwise)."""
    hit = C[C["claim"] == claim]
    if len(hit) != 1:
        raise KeyError(f"{len(hit)} rows for claim {claim!r}")
    return hit.iloc[0]


def three(v):
    """A table value as printed: three decimals, ``"undefined"`` for a missing value.

    Examples
    --------
    >>> from fsbook.experiments.geometry.facts import three
    >>> three(0.5), three(float("nan")), three(None)
    ('0.500', 'undefined', 'undefined')
    """
    return "undefined" if pd.isna(v) else f"{float(v):.3f}"


def span(values):
    """The range of ``values`` as printed (``'0.618–0.702'``), or one value when both ends print
    the same.

    Examples
    --------
    >>> from fsbook.experiments.geometry.facts import span
    >>> span([0.7021, 0.618, 0.65]), span([0.5, 0.5001])
    ('0.618–0.702', '0.500')
    """
    lo, hi = three(min(values)), three(max(values))
    return lo if lo == hi else f"{lo}–{hi}"


_VERDICT_WORDS = {HOLDS: "holds for", FAILS: "fails for", NO_GAIN: "shows no gain for",
                  NOT_SEPARABLE: "is not separable for"}


def by_verdict(labels, verdicts):
    """``'holds for a, fails for b and is not separable for c'``: the labels grouped by their
    verdict, in the order of :data:`fsbook.claims.VERDICTS`, only the verdicts that occur.

    Examples
    --------
    >>> from fsbook.experiments.geometry.facts import by_verdict
    >>> by_verdict(["f1", "f2", "f3"], ["not separable", "holds", "not separable"])
    'holds for f2 and is not separable for f1 and f3'
    """
    groups = {v: [lab for lab, w in zip(labels, verdicts) if w == v] for v in VERDICTS}
    return join_words(f"{_VERDICT_WORDS[v]} {join_words(ls)}" for v, ls in groups.items() if ls)


def counted(C, general):
    """The verdict over the data sets of a claim made for several data sets (the row with
    ``data set == "all"``: Wilcoxon), with its per-data-set verdict counts (the row's note); an
    untestable claim prints its verdict and the note that says why."""
    r = C[(C["general claim"] == general) & (C["data set"] == "all")].iloc[0]
    if np.isnan(r["p"]):
        return f"{r['verdict']} ({r['note']})"
    return f"{describe_claim(r, decimals=3).removesuffix(')')}; per data set: {r['note']})"


def p3(p):
    """A p-value with three significant digits (0.0498 must not print as 0.050).

    Examples
    --------
    >>> from fsbook.experiments.geometry.facts import p3
    >>> p3(0.04981), p3(0.0004)
    ('0.0498', '< 0.001')
    """
    return f"{p:.3g}" if p >= 0.001 else "< 0.001"


def b_se(fit):
    """A growth exponent with its standard error, as printed (:func:`growth_fit`'s dict).

    Examples
    --------
    >>> from fsbook.experiments.geometry.facts import b_se
    >>> b_se({"exponent": 1.9713, "se": 0.0412})
    '1.97 ± 0.04'
    """
    return f"{fit['exponent']:.2f} ± {fit['se']:.2f}"


def _check(condition, sentence):
    """Raise when the data no longer support a sentence of the chapter."""
    if not condition:
        raise ValueError(f"the chapter's text no longer holds: {sentence}")


# ----------------------------------------------------------------------------- the chapter's facts
def _overview(C):
    top = headline(C)
    n_by = verdict_counts(top["verdict"])
    out = {"geo_n_claims": str(len(top))}
    for key, v, verbs in (("holds", HOLDS, ("holds", "hold")), ("fails", FAILS, ("fails", "fail")),
                          ("ns", NOT_SEPARABLE, ("is", "are"))):
        out[f"geo_n_{key}"] = str(n_by[v])
        out[f"geo_n_{key}_verb"] = verbs[0] if n_by[v] == 1 else verbs[1]
    return out


def _store(res):
    return {"geo_store_tasks": str(res.n_cached), "geo_store_total": str(res.n_total),
            "geo_store_machines": machines(res)}


def _table3(T):
    t3 = T["table3"]
    paper, ours = (t3[t3["source"] == s].set_index("data set") for s in ("paper", "ours"))
    shared = [d for d in ours.index if d in paper.index]
    same = all((ours.loc[d, ["R", "C"]] == paper.loc[d, ["R", "C"]]).all() for d in shared)
    web = "Webtext Sentences"
    return {"geo_t3_shapes": join_words(f"{d} {ours.loc[d, 'R']} × {ours.loc[d, 'C']} (paper "
                                        f"{paper.loc[d, 'R']} × {paper.loc[d, 'C']})" for d in shared),
            "geo_t3_same": "the paper's" if same else "not all the paper's",
            "geo_t3_websets": f"{ours.loc[web, 'feature sets']} webtext feature sets where the paper "
                              f"lists {paper.loc[web, 'feature sets']}"}


def _figure1_independent(fig1, c1):
    """The sentence on the paper's test (pairs independent) against the clustered one, for the
    slopes against the paper's direction."""
    indep_holm = pd.Series(holm(fig1["p"].to_numpy(dtype=float)), index=fig1.index)
    against = [r for r in fig1.index if fig1.loc[r, "slope"] > 0 and indep_holm[r] < 0.05]
    return " ".join(
        f"By the paper's test, the regression t that treats the {int(fig1.loc[r, 'n'])} pairs as "
        f"independent, the positive slope of {r} is significant against the paper's direction "
        f"(Holm-adjusted p = {p3(indep_holm[r])}). With its standard error clustered by classifier "
        f"its Holm-adjusted p is {p3(c1.loc[r, 'p_adj'])}: {c1.loc[r, 'verdict']}."
        for r in against) or ("The paper's test, which treats the pairs as independent, finds no "
                              "slope significantly against the paper's direction either.")


def _figure1(T, C):
    fig1 = T["figure1"].set_index("ratio")
    c1 = C[C["table"] == "Figure 1"].set_index("a")
    clustered = figure1_clustered(T["training_suite"])
    strength = fig1["r"].abs().sort_values(ascending=False)
    _check(strength.iloc[0] > 2 * strength.iloc[1], "the strongest ratio is 'by far' the strongest")
    best = strength.index[0]
    against = c1[c1["verdict"] == FAILS]
    return {
        "geo_fig1_n": str(int(clustered["n"].iloc[0])),
        "geo_fig1_clusters": str(int(clustered["clusters"].iloc[0])),
        "geo_fig1_verdicts": by_verdict(c1.index, c1["verdict"]),
        "geo_fig1_neg": join_words(fig1.index[fig1["slope"] < 0]),
        "geo_fig1_pos": join_words(fig1.index[fig1["slope"] > 0]),
        "geo_fig1_best": f"{best} (class overlap)" if best == "f6" else best,
        "geo_fig1_best_r": f"{fig1.loc[best, 'r']:.2f}",
        "geo_fig1_best_claim": describe_claim(c1.loc[best], decimals=3),
        "geo_fig1_against": "none" if against.empty else join_words(
            f"{r} (slope {fig1.loc[r, 'slope']:+.3f} ± {c1.loc[r, 'se']:.3f}, Holm-adjusted "
            f"p = {p3(c1.loc[r, 'p_adj'])})" for r in against.index),
        # the standard error clustered by classifier
        "geo_fig1_f4_slope": f"{fig1.loc['f4', 'slope']:+.3f} ± {c1.loc['f4', 'se']:.3f}",
        "geo_fig1_f4_p": p3(c1.loc["f4", "p"]),
        "geo_fig1_f4_verdict": c1.loc["f4", "verdict"],
        "geo_fig1_indep": _figure1_independent(fig1, c1),
    }


def _table2(T):
    t2 = T["table2"][T["table2"]["predictor"] != "β0"]
    out, differs = {}, False
    for model in ("logistic", "linear"):
        d = t2[t2["model"] == model].set_index("predictor")
        both = d[(d["paper"] != 0) & (d["ours"] != 0)]
        same = both.index[np.sign(both["paper"]) == np.sign(both["ours"])]
        opposite = both.index[np.sign(both["paper"]) != np.sign(both["ours"])]
        new = d.index[(d["paper"] == 0) & (d["ours"] != 0)]
        dropped = d.index[(d["paper"] != 0) & (d["ours"] == 0)]
        differs |= len(opposite) + len(new) + len(dropped) > 0
        out[f"geo_t2_{model}"] = (f"keeps {join_words(d.index[d['ours'] != 0])}; the paper's sign: "
                                  f"{join_words(same)}; the opposite sign: {join_words(opposite)}; not "
                                  f"in the paper's model: {join_words(new)}; in the paper's model but "
                                  f"not kept: {join_words(dropped)}")
    f3r = T["f3_reading"].iloc[0]
    out["geo_t2_verdict"] = "differ from" if differs else "agree in their signs with"
    out["geo_t2_f3"] = f"{f3r['decisions that differ']} of {f3r['pairs']}"
    return out


def _table4(T, C):
    lowest = PAPER["table4"].min()
    out = {f"geo_t4_{metric}_min": f"{lowest[metric]:.3f}" for metric in METRICS}
    t4 = T["table4"].set_index(["data set", "metric"])
    sets4 = list(dict.fromkeys(T["table4"]["data set"]))
    shared = [d for d in sets4 if d in PAPER["table4"].index]
    for m in MODELS:
        out[f"geo_t4_{m}_verdicts"] = join_words(f"{metric} {counted(C, table4_claim(m, metric))}"
                                                 for metric in METRICS)
        out[f"geo_t4_{m}_rec"] = join_words(int(t4.loc[(d, "sets recommended"), m]) for d in sets4)
        out[f"geo_t4_{m}_maxrec"] = three(max(t4.loc[(d, "recall"), m] for d in sets4))
        out[f"geo_t4_{m}_vs"] = "; ".join(f"{d}: " + ", ".join(
            f"{metric} {three(t4.loc[(d, metric), m])} (paper {three(t4.loc[(d, metric), 'paper'])})"
            for metric in METRICS) for d in shared)
    out["geo_t4_sets"] = join_words(sets4)
    web_rec = claim_row(C, table4_claim("published", "recall") + " — Webtext Sentences")
    out["geo_t4_web_recall"] = describe_claim(web_rec, decimals=3)
    out["geo_t4_web_recall_value"] = three(t4.loc[("Webtext Sentences", "recall"), "published"])
    return out


def _label_rules(T):
    """Table 4 under other rules for the "optimal" label."""
    lr = T["label_rules"]
    implied = paper_base_rates()["share optimal"]
    ours = next(iter(LABEL_RULES))
    shares = lr.groupby("rule", sort=False)["share optimal"]
    lo, hi = shares.min(), shares.max()
    close = [r for r in LABEL_RULES if lo[r] >= implied.min() - 0.05 and hi[r] <= implied.max() + 0.05]
    _check(len(close) == 1, f"exactly one rule lies near the paper's shares (got {close})")
    rows = lr[lr["rule"] == close[0]]
    paper_recall = PAPER["table4"]["recall"]
    _check(lr["recall (published)"].max() < paper_recall.min(),
           "no rule brings the published model's recall to the paper's range")
    return {"geo_lr_paper_shares": f"{implied.min():.2f}–{implied.max():.2f}",
            "geo_lr_ours_shares": f"{lo[ours]:.2f}–{hi[ours]:.2f}",
            "geo_lr_close": f'the rule "{close[0]}"',
            "geo_lr_close_shares": join_words(f"{d} {s:.2f}" for d, s in
                                              zip(rows["data set"], rows["share optimal"])),
            **{f"geo_lr_close_{key}_recall": join_words(
                f"{three(v)} on {d}" for d, v in zip(rows["data set"], rows[f"recall ({m})"]))
               for key, m in (("pub", "published"), ("ref", "refitted"))},
            "geo_lr_paper_recall": f"{paper_recall.min():.3f}–{paper_recall.max():.3f}",
            "geo_lr_pub_max_recall": three(lr["recall (published)"].max())}


def _table5_ranges(t5, dims, m):
    parts = []
    for metric in METRICS:
        ours = [v for v in (t5.loc[(d, metric), m] for d in dims) if not pd.isna(v)]
        paper = [t5.loc[(d, metric), "paper"] for d in dims]
        undefined = [d for d in dims if pd.isna(t5.loc[(d, metric), m])]
        parts.append(f"{metric} {span(ours) if ours else 'undefined everywhere'}"
                     + (f" (undefined at {join_words(undefined)} columns)" if undefined else "")
                     + f" against the paper's {span(paper)}")
    return "; ".join(parts)


def _table5(T, C):
    t5 = T["table5"].set_index(["columns", "metric"])
    dims = list(dict.fromkeys(T["table5"]["columns"]))
    out = {"geo_t5_dims": join_words(dims)}
    for m in MODELS:
        out[f"geo_t5_{m}_rec"] = join_words(int(t5.loc[(d, "sets recommended"), m]) for d in dims)
        out[f"geo_t5_{m}_verdicts"] = join_words(
            f"{metric} {counted(C, table5_claim(m, metric))}"
            for metric in METRICS)
        out[f"geo_t5_{m}_ranges"] = _table5_ranges(t5, dims, m)
    return out


def _table6_wine(t6, r6):
    """Facts of the wine rows of Table 6 (real values and booleanised)."""
    wine_real = "wine (real values)"
    _check((r6.loc[("wine", "real")] == "1.000 – 1.000").all(), "every wine ratio equals 1")
    _check(all(t6.loc[(wine_real, "sets recommended"), m] == 0 for m in MODELS),
           "no wine set is recommended")
    n_opt, n_sets = map(int, t6.loc[(wine_real, "accuracy"), "optimal"].split(" of "))
    _check(np.isclose(t6.loc[(wine_real, "accuracy"), "published"], (n_sets - n_opt) / n_sets),
           "the accuracy on wine is the share of non-optimal sets")
    return {"geo_t6_wine_acc": three(t6.loc[(wine_real, "accuracy"), "published"]),
            "geo_t6_wine_nonopt": f"{n_sets - n_opt} non-optimal sets of {n_sets}",
            "geo_t6_wine_f6": r6.loc[("wine", "boolean"), "f6"].replace(" – ", " to "),
            "geo_t6_wine_bool_rec": " / ".join(three(t6.loc[("wine (booleanised)", "recall"), m])
                                               for m in MODELS)}


def _table6(T, C):
    t6 = T["table6"].set_index(["data set", "metric"])
    sets6 = list(dict.fromkeys(T["table6"]["data set"]))
    out = {f"geo_t6_{m}_verdict": counted(C, f"{m} model: recall below 0.5 (the method fails)")
           for m in MODELS}
    recalls = pd.Series({(d, m): t6.loc[(d, "recall"), m] for d in sets6 for m in MODELS})
    out["geo_t6_maxrec"] = (f"{three(recalls.max())} ({recalls.idxmax()[1]} model, "
                            f"{recalls.idxmax()[0]})")
    c6 = C[C["table"] == "Table 6"]          # the per-data-set rows
    out["geo_t6_ns_sets"] = join_words(dict.fromkeys(c6.loc[c6["verdict"] == NOT_SEPARABLE,
                                                            "data set"]))
    untestable = c6.loc[c6["p"].isna(), "data set"]
    out["geo_t6_untestable"] = (f"On {join_words(dict.fromkeys(untestable))} there are too few for "
                                "any outcome to separate it, even without the correction."
                                if len(untestable) else "")
    out.update(_table6_wine(t6, T["table6_ratios"].set_index(["data set", "values"])))
    categorical = [d for d in sets6 if not d.startswith("wine")]
    for m in MODELS:
        out[f"geo_t6_{m}_cat"] = "; ".join(
            f"{d}: {int(t6.loc[(d, 'sets recommended'), m])} recommended, precision "
            f"{three(t6.loc[(d, 'precision'), m])}, recall {three(t6.loc[(d, 'recall'), m])}"
            for d in categorical)
    return out


def _random(T, C):
    rs = T["random_summary"].set_index("quantity")
    floor = PAPER["random_columns"]["min"]
    out = {}
    for m in MODELS:
        gain = claim_row(C, f"{m} model: the selected set gains at least {floor:g} pp")
        excl = claim_row(C, f"{m} model: the selected set excludes the random columns on most "
                            "classifiers")
        out[f"geo_rc_{m}_gain"] = describe_claim(gain, decimals=1, units="pp")
        out[f"geo_rc_{m}_excl"] = excl["verdict"]
        out[f"geo_rc_{m}_gain_verdict"] = gain["verdict"]
        out[f"geo_rc_{m}"] = (f"{rs.loc['with a recommended set', m]} of "
                              f"{rs.loc['binary classifiers', m]} classifiers get a recommended set "
                              f"and {rs.loc['selected set contains the random columns', m]} of these "
                              "sets contain the random columns")
        out[f"geo_rc_{m}_gains"] = (f"{rs.loc['min gain of the selected set (pp)', m]:+.1f} and "
                                    f"{rs.loc['max gain (pp)', m]:+.1f}")
    change = rs.loc["accuracy change from the random columns (pp)", "published"]
    _check(abs(change) < floor, "there is little to gain from dropping the random columns")
    out.update({"geo_rc_change": f"{abs(change):.1f}",
                "geo_rc_direction": "loses" if change < 0 else "gains",
                "geo_rc_real": f"{rs.loc['SVM accuracy, real columns (mean, %)', 'published']:.1f}",
                "geo_rc_with": f"{rs.loc['SVM accuracy, with random columns (mean, %)', 'published']:.1f}",
                "geo_rc_margin": f"{float(gain['margin']):.3f}",
                "geo_rc_rows": spaced(int(T["random"]["samples"].iloc[0]))})
    return out


def _no_optimal_tail(f3t, m):
    """From which number of columns on the model recommends no optimal set (recall 0 there and
    at every larger dimension)."""
    zero = f3t.loc[f3t[f"recall ({m})"] == 0, "columns"]
    tail = [c for c in zero if (f3t.loc[f3t["columns"] >= c, f"recall ({m})"] == 0).all()]
    return (f"from {min(tail)} columns on it recommends no optimal set" if tail
            else "it recommends some optimal set at every dimension")


def _figure3(T, C):
    f3t = T["figure3"]
    low, high = f3t["columns"] < 500, f3t["columns"] > 500
    out = {}
    for m in MODELS:
        out[f"geo_f3_{m}_verdicts"] = join_words(
            f"{metric} {claim_row(C, f'{m} model: {metric} grows with the number of columns')['verdict']}"
            for metric in METRICS)
        out[f"geo_f3_{m}_means"] = ", ".join(f"{q} {f3t.loc[low, f'{q} ({m})'].mean():.3f} → "
                                             f"{f3t.loc[high, f'{q} ({m})'].mean():.3f}"
                                             for q in ("accuracy", "recall"))
        out[f"geo_f3_{m}_none"] = _no_optimal_tail(f3t, m)
    c3 = C[C["table"] == "Figure 3"]
    rises = c3[c3["verdict"] == HOLDS]
    out["geo_f3_agree"] = ("agrees with the paper's figure for "
                           + join_words(rises["claim"].str.replace(" grows with the number of columns", ""))
                           if len(rises) else
                           "does not agree with the paper's figure for any metric of either model")
    out["geo_f3_range"] = f"{f3t['columns'].min()} to {f3t['columns'].max()}"
    return out


def _cpu(res, C):
    """Figure 3's CPU-time claim on the store: the selector's exponent and the pairs it times."""
    f3 = res.tables["figure3"]
    shapes = {(len(p["sites"]), r["FT"]) for p, r in zip(res.params, res.results)
              if p["kind"] == "growth"}
    _check(len(shapes) == 1, "every Figure 3 set has the same pairs")
    (sites, types), = shapes
    cpu_row = claim_row(C, CPU_CLAIM)
    return {"geo_cpu_pairs": spaced((2 ** (sites - 1) - 1) * (2 ** types - 1)),
            "geo_cpu_verdict": cpu_row["verdict"],
            "geo_cpu_claim": describe_claim(cpu_row, decimals=2),
            "geo_cpu_b": b_se(growth_fit(f3["columns"], f3["ratios CPU s"])),
            "geo_cpu_range": f"{f3['columns'].min()} to {f3['columns'].max()}"}


def _kernel_growth(growth):
    """The growth exponents of one pair's ratios, ours and the paper's SVD method, from the
    benchmark record ``growth`` (``benchmarks/geometry.py --only growth``)."""
    g = growth["values"]
    ours, naive = g["fits"]["ours"], g["fits"]["naive"]
    lo, hi = naive["ci_low"], naive["ci_high"]
    return {"geo_e_ours": b_se(ours), "geo_e_naive": b_se(naive),
            "geo_e_naive_vs_1": "consistent with 1" if lo <= 1 <= hi else
                                ("below 1: fixed costs weigh at small n" if hi < 1 else "above 1"),
            "geo_e_ours_growth": "does not grow with n" if ours["ci_low"] < 0.5 else "grows with n",
            "geo_e_same": "the same ratios at every size" if g["same_ratios"]
                          else "different ratios at some size"}


def facts(results, claims_table=None, growth=None) -> dict[str, str]:
    """Every number and verdict the chapter quotes: glue key → text.

    Parameters
    ----------
    results : ProtocolResult
        :func:`fsbook.experiments.read_store`'s result for the geometry protocol.
    claims_table : pandas.DataFrame, optional
        :func:`~fsbook.experiments.geometry.claims.claims` of ``results`` (computed when omitted).
    growth : dict, optional
        The benchmark record of the kernels' timing (``read_benchmark("geometry", "growth")``);
        without it the ``geo_e_*`` facts are left out.

    Returns
    -------
    dict of str to str

    Raises
    ------
    ValueError
        When the store no longer supports a sentence of the chapter that these facts fill in.
    """
    C = claims(results) if claims_table is None else claims_table
    T = results.tables
    out = {**_overview(C), **_store(results), **_table3(T), **_figure1(T, C), **_table2(T),
           **_table4(T, C), **_label_rules(T), **_table5(T, C), **_table6(T, C), **_random(T, C),
           **_figure3(T, C), **_cpu(results, C)}
    if growth is not None:
        out.update(_kernel_growth(growth))
    return out

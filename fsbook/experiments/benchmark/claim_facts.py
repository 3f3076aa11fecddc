"""The claims of the benchmark chapter in words: the per-data-set tallies and the claims over data
sets of each table, what one test sample weighs, Proj-SVM, GeoRatio and the declared margins
(parts of :func:`fsbook.experiments.benchmark.facts.facts`).

Each part takes what the chapter reads from the store (``pg``, the namespace of
:func:`~fsbook.experiments.benchmark.facts.page`) and returns glue key → value (str or int;
:func:`~fsbook.experiments.benchmark.facts.facts` makes every value text), as do those of
:mod:`~fsbook.experiments.benchmark.rank_facts`.
"""
from __future__ import annotations

import numpy as np

from fsbook.claims import verdict_counts
from fsbook.experiments.benchmark.claims import OVER
from fsbook.experiments.benchmark.data import width
from fsbook.experiments.benchmark.paper import C_LINEAR, PROJ_PENALTIES
from fsbook.experiments.benchmark.words import TAGS, cases, claim_words, names, tally, verdict_words
from fsbook.report import format_value, join_words


def _per_dataset(cl, table, clf=None):
    g = cl[(cl.table == table) & (cl.dataset != "")]
    return g if clf is None else g[g.classifier == clf]


def _wilcoxon(cl, table, clf, a=None):
    """The claim over the data sets of ``table`` for classifier ``clf`` (its own Holm family), in words."""
    g = cl[(cl.table == table + OVER) & (cl.classifier == clf)]
    return claim_words((g if a is None else g[g.a == a]).iloc[0])


def _claim_facts(pg):
    """Per table and classifier, how its claims fare on the data sets and over them."""
    cl = pg.claims
    per_all = cl[cl.dataset != ""]
    c_all = verdict_counts(per_all["verdict"])
    out = {"overview_n": len(per_all), "overview_holds": c_all["holds"], "overview_fails": c_all["fails"],
           "overview_no_gain": c_all["no gain"], "overview_ns": c_all["not separable"],
           "overview_verdicts": verdict_words(per_all)}
    for label, tag in TAGS:
        for table in ("best_k", "best_any", "hsfs"):
            rows = _per_dataset(cl, table, label)
            out.update({f"{table}_tally_{tag}": tally(rows),
                        f"{table}_holds_{tag}": cases(rows, "holds", with_method=table != "hsfs"),
                        f"{table}_fails_{tag}": cases(rows, "fails", with_method=table != "hsfs"),
                        f"{table}_wilcoxon_{tag}": _wilcoxon(cl, table, label)})
        cfs = _per_dataset(cl, "own_size", label)
        cfs = cfs[cfs.a == "CFS"]
        out.update({f"cfs_tally_{tag}": tally(cfs), f"cfs_holds_{tag}": cases(cfs, "holds"),
                    f"cfs_fails_{tag}": cases(cfs, "fails"),
                    f"cfs_wilcoxon_{tag}": _wilcoxon(cl, "own_size", label, "CFS")})
    hs = _per_dataset(cl, "hsfs")
    out["hsfs_range"] = f"{hs.effect.min():+.1f} to {hs.effect.max():+.1f}"
    out["n_cases"] = len(_per_dataset(cl, "best_k"))
    return out


def _data_facts(pg):
    """The smallest effect that holds, the majority rate and what one test sample weighs."""
    data, out = pg.data, {"n_test": pg.repeats * pg.n_folds}
    per_all = pg.claims[pg.claims.dataset != ""]
    held = per_all[per_all.verdict == "holds"]
    small = held.loc[held.effect.idxmin()] if len(held) else None
    out["smallest_holds"] = "No per-data-set claim holds." if small is None else (
        f"The smallest per-data-set effect that holds is {small.effect:+.2f} points ({small.a} against "
        f"{names([small.b])} on {small.dataset}, {small.classifier}): its {pg.repeats} repetition means agree "
        f"so closely ({int(small.n_direction)} of {pg.repeats} in its direction, 95 % CI "
        f"[{small.ci_low:+.2f}, {small.ci_high:+.2f}]) that the t-test separates it, although it amounts to "
        f"{format_value(small.effect * data.loc[small.dataset, 'samples'] / 100, 1)} more test samples "
        f"classified correctly per repetition, out of {data.loc[small.dataset, 'samples']}.")
    below = [f"{d} ({label})" for label, s in pg.scores.items() for d in pg.datasets
             if s.loc[d, "none"] < data.loc[d, "majority class (%)"]]
    out["below_majority"] = join_words(below, empty="no data set")
    n_test = {d: data.loc[d, "samples"] / pg.n_folds for d in pg.datasets}
    out.update({"one_sample_small": format_value(100 / max(n_test.values()), 2),
                "one_sample_small_ds": max(n_test, key=n_test.get),
                "one_sample_large": format_value(100 / min(n_test.values()), 1),
                "one_sample_large_ds": min(n_test, key=n_test.get),
                "wine_test_n": format_value(data.loc["wine", "samples"] / pg.n_folds, 0)})
    return out


def _proj_facts(pg):
    """Proj-SVM against the linear SVM on all features, and the λ the inner CV chose."""
    proj = _per_dataset(pg.claims, "proj")
    lams = [r["reduced_penalty"] for p, r in zip(pg.params, pg.results) if p["method"] == "Proj-SVM"]
    ordered = proj.sort_values("effect", ascending=False, kind="stable")
    return {"proj_tally": tally(proj), "proj_wilcoxon": _wilcoxon(pg.claims, "proj", "linear SVM"),
            "proj_diffs": ", ".join(f"{r.dataset} {round(r.effect, 1) + 0.0:+.1f}" for r in ordered.itertuples()),
            "proj_pmin": format_value(proj.p_adj.min(), 2), "lam_range": f"{min(lams):g} to {max(lams):g}",
            "proj_grid": len(C_LINEAR) * len(PROJ_PENALTIES), "linear_grid": len(C_LINEAR)}


def _geo_facts(pg):
    """GeoRatio at its own size against all features, where it runs."""
    own = pg.own
    geo = own[own.method == "GeoRatio"].set_index("data set")
    rows = _per_dataset(pg.claims, "own_size")
    rows = rows[rows.a == "GeoRatio"]
    text = []
    for ds, r in geo.iterrows():
        words = []
        for col, allcol, clf in (("linear SVM", "all features, linear", "linear SVM"),
                                 ("RBF SVM", "all features, RBF", "RBF SVM")):
            claim = rows[(rows.dataset == ds) & (rows.classifier == clf)].iloc[0]
            words.append(f"its {clf} scores {format_value(r[col], 1)} % against {format_value(r[allcol], 1)} % "
                         f"on all features: {claim_words(claim)}")
        text.append(f"On {ds} it keeps {format_value(r['features kept'], 1)} of {width(ds)} features on "
                    "average; " + "; ".join(words) + ".")
    not_run = pg.tables["not_run"]
    return {"geo_sentence": " ".join(text) or "It runs on none of the data sets read here.",
            "geo_not_run": int((not_run.method == "GeoRatio").sum())}


def _margin_facts(pg):
    """The declared margins of the claims and what they decide.

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> cl = pd.DataFrame({"dataset": ["wine", "wdbc", ""], "margin": [1.12, 0.35, 0.7],
    ...                    "verdict": ["holds", "no gain", "holds"], "size": ["below margin", "", ""],
    ...                    "a": ["MI", "HSFS", "MI"], "b": ["none"] * 3, "classifier": ["linear SVM"] * 3,
    ...                    "ci_low": [0.2, -0.1, 0.1], "ci_high": [2.0, 0.2, 1.0]})
    >>> f = _margin_facts(SimpleNamespace(claims=cl))
    >>> f["margin_range"], f["margin_over"], f["margin_below"]
    ('0.35 points on wdbc to 1.12 points on wine', '0.70', 'One claim holds by less than its margin.')
    >>> f["margin_no_gain"]
    'HSFS against none (all features) on wdbc (linear SVM, 95 % CI [-0.10, +0.20] points, margin 0.35)'
    """
    cl = pg.claims
    per = cl[cl.dataset != ""].drop_duplicates("dataset").set_index("dataset")["margin"].astype(float)
    over = cl.loc[cl.dataset == "", "margin"].astype(float)
    no_gain = cl[cl.verdict == "no gain"]
    below = cl[cl["size"] == "below margin"]
    return {
        "margin_range": (f"{format_value(per.min(), 2)} points on {per.idxmin()} to "
                         f"{format_value(per.max(), 2)} points on {per.idxmax()}"),
        "margin_over": (format_value(over.iloc[0], 2) if np.allclose(over, over.iloc[0]) else
                        f"{format_value(over.min(), 2)} to {format_value(over.max(), 2)}"),
        "margin_no_gain": join_words([f"{r.a} against {names([r.b])} on {r.dataset} ({r.classifier}, "
                                      f"95 % CI [{r.ci_low:+.2f}, {r.ci_high:+.2f}] points, margin "
                                      f"{format_value(r.margin, 2)})" for r in no_gain.itertuples()],
                                     empty="no claim"),
        "margin_below": ("No claim holds by less than its margin." if len(below) == 0 else
                         "One claim holds by less than its margin." if len(below) == 1 else
                         f"{len(below)} claims hold by less than their margin.")}

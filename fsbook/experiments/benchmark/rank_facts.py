"""The rank statistics of the benchmark chapter in words: average ranks, the Friedman and
Nemenyi tests, each selector against the classifier on all features, the stability of the kept
sets and the best baseline and book method (parts of
:func:`fsbook.experiments.benchmark.facts.facts`; each takes and returns what those of
:mod:`~fsbook.experiments.benchmark.claim_facts` do)."""
from __future__ import annotations

from fsbook.experiments.benchmark.paper import BASELINES, BOOK_METHODS
from fsbook.experiments.benchmark.words import TAGS, firsts, key, names, same
from fsbook.report import format_p, format_value, join_words


def _rank_facts(pg):
    """Average ranks and the Friedman and Nemenyi tests at ``k`` =
    :data:`~fsbook.experiments.benchmark.paper.RANK_K`, per classifier.
    """
    out = {"datasets_text": join_words(pg.datasets),
           "n_methods": str(pg.scores["linear SVM"].shape[1])}
    cd = float(pg.stat["CD (alpha=0.05)"].iloc[0])
    out["cd"] = format_value(cd, 2)
    for (label, tag), (_, row) in zip(TAGS, pg.stat.iterrows()):
        assert row["classifier"] == label
        r, pvals = pg.ranks[label], pg.nemenyi[label]
        top, bottom = firsts(r), firsts(r, lowest=False)
        leading = [m for m in r.index if all(m == b or pvals.loc[m, b] >= 0.05 for b in top)]
        out.update({
            f"friedman_p_{tag}": format_value(row["p-value"], 4),
            f"rejected_{tag}": "rejected" if row["p-value"] < 0.05 else "not rejected",
            f"best_{tag}": names(top), f"best_rank_{tag}": format_value(r[top[0]], 3),
            f"worst_{tag}": names(bottom), f"worst_rank_{tag}": format_value(r[bottom[0]], 3),
            f"gap_vs_cd_{tag}": "above" if r[bottom[0]] - r[top[0]] > cd else "not above",
            f"pairs_{tag}": _separated_pairs(pvals), f"leading_{tag}": names(leading),
            f"none_sep_{tag}": names([o for o in pvals.columns if o != "none" and pvals.loc["none", o] < 0.05],
                                     "no selector")})
        for m in r.index:
            out[f"rank_{tag}_{key(m)}"] = format_value(r[m], 3)
            out[f"ahead_{tag}_{key(m)}"] = sum(r[o] < r[m] and not same(r[o], r[m]) for o in r.index)
            out[f"sep_{tag}_{key(m)}"] = names([o for o in pvals.columns if o != m and pvals.loc[m, o] < 0.05])
            out[f"in_leading_{tag}_{key(m)}"] = "is among" if m in leading else "is not among"
    return out


def _separated_pairs(pvals):
    """The pairs of methods Nemenyi's p-values ``pvals`` separate at 0.05, in words."""
    sep = [(a, b) for i, a in enumerate(pvals.index) for b in pvals.columns[i + 1:] if pvals.loc[a, b] < 0.05]
    return join_words([f"{names([a])} against {names([b])}" for a, b in sep], empty="no pair")


def _side_words(rows, side):
    return (join_words([f"{m} (adjusted {format_p(p)})" for m, p in zip(rows.method, rows["p (Holm)"])])
            + (" rank" if len(rows) > 1 else " ranks") + f" {side} it")


def _control_facts(pg):
    """Each selector against the classifier on all features (comparison with a control, Holm)."""
    vs, out, words = pg.vs, {}, {}
    for label, tag in TAGS:
        v = vs[(vs.classifier == label) & (vs["p (Holm)"] < 0.05)]
        parts = [_side_words(rows, side) for rows, side in ((v[v.z > 0], "below"), (v[v.z < 0], "above"))
                 if len(rows)]
        words[label] = "; ".join(parts) if parts else "no selector is separated from it"
        out[f"ctl_{tag}"] = words[label]
        for m, r in vs[vs.classifier == label].set_index("method").iterrows():
            out[f"ctl_{tag}_{key(m)}"] = (("separates it from" if r["p (Holm)"] < 0.05 else
                                           "does not separate it from")
                                          + f" the classifier on all features (z = {r['z']:+.2f}, adjusted "
                                            f"{format_p(r['p (Holm)'])})")
    out["ctl_sides"] = ("every selector it separates ranks below all features, with both classifiers"
                        if (vs[vs["p (Holm)"] < 0.05].z > 0).all() else
                        "the selectors it separates rank on both sides of all features (the first two items "
                        "say which)")
    tops = {lab: firsts(pg.ranks[lab]) for lab, _ in TAGS}
    out["overview_ranks"] = (
        "At k = 5 the best average rank is that of "
        + (f"{names(tops['linear SVM'])} with both classifiers" if tops["linear SVM"] == tops["RBF SVM"] else
           " and ".join(f"{names(tops[lab])} with the {lab}" for lab, _ in TAGS))
        + ". Of all pairs of methods, Nemenyi separates "
        + " and ".join(f"{_separated_pairs(pg.nemenyi[lab])} with the {lab}" for lab, _ in TAGS)
        + ". Against the classifier on all features, the comparison with a control finds: with the linear SVM, "
        + words["linear SVM"] + "; with the RBF SVM, " + words["RBF SVM"] + ".")
    return out


def _stability_facts(pg):
    """Stability at k = RANK_K: median over the data sets (stored values).

    Examples
    --------
    >>> import pandas as pd
    >>> from types import SimpleNamespace
    >>> st5 = pd.DataFrame({"wine": [0.5, 0.9], "wdbc": [0.7, 0.9]}, index=["MI", "l1-SVM"])
    >>> f = _stability_facts(SimpleNamespace(st5=st5))
    >>> f["stab_MI"], int(f["stab_higher_MI"]), f["stab_l1_SVM"], int(f["stab_higher_l1_SVM"])
    ('0.60', 1, '0.90', 0)
    """
    st5 = pg.st5
    med = st5.median(axis=1, skipna=True)
    out = {"n_other_k": len(st5.index) - 1}
    for m in st5.index:
        out[f"stab_{key(m)}"] = format_value(med[m], 2)
        out[f"stab_higher_{key(m)}"] = sum(med[o] > med[m] and not same(med[o], med[m]) for o in st5.index)
    return out


def _baseline_facts(pg):
    """The best-ranked baseline and book method per classifier, and CFS's numbers of kept features."""
    selectors = [m for m in pg.ranked if m != "none"]
    out = {}
    for label, tag in TAGS:
        r = pg.ranks[label]
        for group, members in (("baseline", [m for m in BASELINES if m in selectors]),
                               ("book", [m for m in BOOK_METHODS if m in selectors])):
            top = firsts(r[members])
            out[f"best_{group}_{tag}"] = f"{names(top)} ({format_value(r[top[0]], 3)})"
    cfs = pg.own[pg.own.method == "CFS"]
    out["cfs_range"] = (f"{format_value(cfs['features kept'].min(), 1)} to "
                        f"{format_value(cfs['features kept'].max(), 1)}")
    return out

"""Every number and verdict the benchmark chapter's prose quotes, as a function of the store.

:func:`facts` returns them (glue key → text); the small helpers the chapter's tables use
(:func:`significant2`, :func:`p_text`, :func:`by_rank`, :func:`claims_table`,
:func:`by_datasets`) live here too, so the page defines none of its own.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from fsbook.claims import verdict_counts
from fsbook.experiments.benchmark.claims import OVER, claims, claims_view
from fsbook.experiments.benchmark.paper import (
    BASELINES,
    BOOK_METHODS,
    C_LINEAR,
    CLASSIFIERS,
    OWN_SIZE,
    PROJ_PENALTIES,
    RANK_K,
    VERSION,
    VOCABULARY,
    methods,
)
from fsbook.experiments.benchmark.ranks import score_matrix, statistics, versus_control
from fsbook.experiments.benchmark.tables import (
    datasets_table,
    hkl_cost,
    hkl_fits_table,
    own_size_table,
    protocol_shape,
    reduce,
    stability_at_k,
    stored_datasets,
    wine_frequencies,
)
from fsbook.report import describe_claim, format_p, format_value, join_words, spaced

#: the two classifiers and the tag of their glue keys
TAGS = (("linear SVM", "linear"), ("RBF SVM", "rbf"))
#: the method ``none`` in prose
ALL_FEATURES = "none (all features)"


def significant2(v):
    """A measured value (seconds, relative gap) to 2 significant digits (whole units from 100
    on); "—" if none.

    Examples
    --------
    >>> from fsbook.experiments.benchmark.facts import significant2
    >>> significant2(0.012345), significant2(3.14159), significant2(1234.5), significant2(float("nan"))
    ('0.012', '3.1', '1234', '—')
    """
    if pd.isna(v):
        return "—"
    decimals = max(0, 1 - int(np.floor(np.log10(v)))) if v > 0 else 0
    return f"{v:.{decimals}f}"


def p_text(p):
    """A p-value as the tables print it, without the leading "p = ".

    Examples
    --------
    >>> from fsbook.experiments.benchmark.facts import p_text
    >>> p_text(0.0123), p_text(1e-5)
    ('0.0123', '< 0.001')
    """
    return format_p(p).removeprefix("p ").removeprefix("= ")


def by_rank(ranks, order):
    """``ranks`` (a Series of average ranks) best first, ties in ``order`` (the protocol's).

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.facts import by_rank
    >>> by_rank(pd.Series({"a": 2.0, "b": 1.0, "c": 2.0}), ["c", "b", "a"]).index.tolist()
    ['b', 'c', 'a']
    """
    return ranks.reindex(sorted(ranks.index, key=lambda m: (ranks[m], order.index(m))))


def claims_table(claims_df, table, caption, repeats):
    """One table of the claims (:func:`~fsbook.experiments.benchmark.claims.claims_view`) for
    display, captioned with its comparison and its two Holm families."""
    from fsbook.report import claims_display

    t = claims_view(claims_df, table)
    n_per = int((t["p"].notna() & (t["dataset"] != "")).sum())
    n_over = int((t["p"].notna() & (t["dataset"] == "")).sum())
    over = (f"; over the data sets, the Hodges-Lehmann estimate of the per-data-set effects and its exact "
            f"interval (Wilcoxon signed-rank test, Holm over its {n_over} tests; the per-data-set verdicts "
            "counted in brackets decide nothing)" if n_over else "")
    return claims_display(t, f"{caption}. Effect per data set: mean paired difference of test accuracy "
                             f"(points), positive in the claim's direction, with its 95 % interval over the "
                             f"{repeats} repetition means (p adjusted by Holm over the {n_per} per-data-set "
                             f"tests){over}. Margin: one test prediction per repetition (below margin: holds "
                             "by less; no gain: the 90 % interval inside ± the margin)", decimals=1)


def by_datasets(table, datasets, caption, decimals, per=4):
    """A methods × data sets table for display in parts of at most ``per`` data sets (the width
    of the text column): a list of captioned tables."""
    from fsbook.report import captioned

    cols = [d for d in datasets if d in table.columns]
    chunks = [cols[i:i + per] for i in range(0, len(cols), per)]
    return [captioned(table[chunk].rename_axis(index="method", columns=None).reset_index(),
                      caption + (f" (part {j} of {len(chunks)})" if len(chunks) > 1 else ""),
                      decimals=decimals).hide(axis="index")
            for j, chunk in enumerate(chunks, 1)]


def names(items, empty="no method"):
    """Methods in prose (``none`` as all features).

    Examples
    --------
    >>> from fsbook.experiments.benchmark.facts import names
    >>> names(["MI", "none"]), names([])
    ('MI and none (all features)', 'no method')
    """
    return join_words([ALL_FEATURES if i == "none" else i for i in items], empty=empty)


def key(method):
    """A method's name in a glue key (``-`` → ``_``)."""
    return method.replace("-", "_")


def same(a, b):
    """Equal to rounding error."""
    return bool(np.isclose(a, b, rtol=1e-12, atol=1e-12))


def firsts(s, lowest=True):
    """The entries of ``s`` tied (to rounding error) at its lowest or highest value, in order.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.facts import firsts
    >>> firsts(pd.Series({"a": 1.0, "b": 2.0, "c": 1.0})), firsts(pd.Series({"a": 1.0, "b": 2.0}), lowest=False)
    (['a', 'c'], ['b'])
    """
    target = s.min() if lowest else s.max()
    return [m for m in s.index if same(s[m], target)]


def tally(rows):
    """How a claim fares over its per-data-set rows, in words: the verdicts "no gain" and "below
    margin" (holds by less than the declared margin) are named where they occur.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.facts import tally
    >>> tally(pd.DataFrame({"verdict": ["holds", "not separable"], "size": ["", ""]}))
    'holds on 1, fails on 0 and is not separable on 1 of 2 data sets'
    >>> tally(pd.DataFrame({"verdict": ["holds", "no gain", "not separable"], "size": ["below margin", "", ""]}))
    'holds on 1 (by less than its margin on 1), fails on 0, shows no gain on 1 and is not separable on 1 of 3 data sets'
    """
    c = verdict_counts(rows["verdict"])
    below = int((rows["size"] == "below margin").sum()) if "size" in rows else 0
    held = f"holds on {c['holds']}" + (f" (by less than its margin on {below})" if below else "")
    no_gain = f", shows no gain on {c['no gain']}" if c["no gain"] else ""
    return (f"{held}, fails on {c['fails']}{no_gain} and is not separable on "
            f"{c['not separable']} of {len(rows)} data sets")


def cases(rows, verdict, with_method=False):
    """The data sets whose claim has ``verdict``, with effect and adjusted p, in words."""
    sel = rows[rows.verdict == verdict]
    return join_words([f"{r.dataset} ({r.a + ', ' if with_method else ''}{r.effect:+.1f} points, "
                       f"{format_p(r.p_adj)})" for r in sel.itertuples()], empty="no data set")


def verdict_words(rows):
    """The verdicts of claims ``rows`` counted in words, "below margin" and "no gain" named.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.facts import verdict_words
    >>> verdict_words(pd.DataFrame({"verdict": ["holds", "holds", "no gain", "fails"],
    ...                             "size": ["below margin", "", "", ""]}))
    '2 hold (1 by less than its margin), 1 fails, 1 shows no gain within its margin and 0 are not separable'
    """
    c = verdict_counts(rows["verdict"])
    below = int((rows["size"] == "below margin").sum()) if "size" in rows else 0

    def n(v, one, many):
        return f"{c[v]} {one if c[v] == 1 else many}"

    held = n("holds", "holds", "hold") + (f" ({below} by less than its margin)" if below else "")
    return (f"{held}, {n('fails', 'fails', 'fail')}, {n('no gain', 'shows', 'show')} no gain within "
            f"{'its' if c['no gain'] == 1 else 'their'} margin and {n('not separable', 'is', 'are')} not separable")


def _margin_facts(pg):
    """The declared margins of the claims and what they decide."""
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


def claim_words(row):
    """A claims row in prose; this page's claims are the book's own, so their direction is the claim's."""
    return describe_claim(row, decimals=1, units="points").replace("the paper's direction", "the claim's direction")


def page(stored, datasets=None, claims_df=None):
    """What the chapter reads from the store, once: the data sets read, their tasks, the tables,
    the claims, the rank statistics and the per-data-set tables the prose quotes.

    Parameters
    ----------
    stored : ProtocolResult
        ``read_store(PROTOCOL, ...)``.
    datasets : list of str, optional
        The data sets read (default: those whose tasks are all stored).
    claims_df : DataFrame, optional
        :func:`~fsbook.experiments.benchmark.claims.claims` on them, if already computed.
    """
    datasets = stored_datasets(stored.params) if datasets is None else list(datasets)
    use = [i for i, p in enumerate(stored.params) if p["dataset"] in datasets]
    params, results = [stored.params[i] for i in use], [stored.results[i] for i in use]
    tables = stored.tables if stored.complete else reduce(params, results)
    cl = claims(stored, datasets) if claims_df is None else claims_df
    acc = tables["accuracy_at_k"]
    ranked = [m for m in methods() if m in set(acc.method)]
    scores = {label: score_matrix(acc, metric).loc[datasets] for metric, label in CLASSIFIERS.items()}
    from fsbook.stats import average_ranks, nemenyi

    repeats, n_folds = protocol_shape()
    return SimpleNamespace(
        stored=stored, datasets=datasets, use=use, params=params, results=results, tables=tables, claims=cl,
        repeats=repeats, n_folds=n_folds, ranked=ranked, scores=scores,
        ranks={lab: by_rank(average_ranks(s), ranked) for lab, s in scores.items()},
        nemenyi={lab: nemenyi(s) for lab, s in scores.items()},
        stat=statistics(acc), vs=versus_control(acc, "none"), data=datasets_table(),
        own=own_size_table(tables["curves"], datasets), st5=stability_at_k(tables["stability"]),
        freq=wine_frequencies(tables["supports"]),
        hkl=hkl_fits_table(tables["hkl_fits"], params, results, datasets),
        cost=hkl_cost(params, results, datasets))


def facts(stored, datasets=None, claims_df=None):
    """Every number and verdict the chapter's prose quotes (glue key → text).

    Parameters
    ----------
    stored, datasets, claims_df
        As :func:`page` (or ``stored`` may be :func:`page`'s result itself).

    Returns
    -------
    dict of str to str
    """
    pg = stored if isinstance(stored, SimpleNamespace) else page(stored, datasets, claims_df)
    out = {}
    for part in (_store_facts, _rank_facts, _control_facts, _claim_facts, _data_facts, _stability_facts,
                 _wine_facts, _hkl_facts, _proj_facts, _geo_facts, _baseline_facts, _margin_facts):
        out.update(part(pg))
    return {k: v if isinstance(v, str) else str(v) for k, v in out.items()}


def _store_facts(pg):
    from fsbook.claims import min_achievable_p

    s, n = pg.stored, len(pg.datasets)
    state = ("complete: every table holds all of its data sets" if s.complete else
             f"partial: only the {n} data sets whose tasks are all stored ({', '.join(pg.datasets)}) enter "
             "the tables, so every number and verdict on this page can change when the store is complete")
    cv = f"{pg.repeats} × {pg.n_folds} CV"
    live = next(i for i, p in enumerate(pg.params) if p["dataset"] == "wine" and p["method"] == "HKL"
                and p["repeat"] == 0 and p["fold"] == 0)
    return {"cv_words": f"{pg.repeats} repeats of {pg.n_folds} folds ({cv})",
            "vocabulary": f"{VOCABULARY:,}".replace(",", " "),
            "store_tasks": spaced(s.n_cached), "store_total": spaced(s.n_total),
            "store_version": VERSION,
            "store_state": state, "store_machines": machines(s), "n_read": spaced(len(pg.params)),
            "n_datasets": str(n), "cv": cv, "n_repeats": str(pg.repeats), "n_folds_text": str(pg.n_folds),
            "t_df": str(pg.repeats - 1),
            "wilcoxon_min_p": f"2/2^{n} = {format_value(min_achievable_p('wilcoxon', n), 4)}",
            "hkl_stored_seconds": format_value(s.seconds[pg.use[live]], 0)}


def machines(stored):
    """The machines that ran the stored tasks, in words."""
    return "; ".join(sorted({f"{m['cpu']}, {m['cores']} logical CPUs" for m in stored.machines if m}))


def _rank_facts(pg):
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


def _per_dataset(cl, table, clf=None):
    g = cl[(cl.table == table) & (cl.dataset != "")]
    return g if clf is None else g[g.classifier == clf]


def _wilcoxon(cl, table, clf, a=None):
    """The claim over the data sets of ``table`` for classifier ``clf`` (its own Holm family), in words."""
    g = cl[(cl.table == table + OVER) & (cl.classifier == clf)]
    return claim_words((g if a is None else g[g.a == a]).iloc[0])


def _claim_facts(pg):
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


def _stability_facts(pg):
    """Stability at k = RANK_K: median over the data sets (stored values)."""
    st5 = pg.st5
    med = st5.median(axis=1, skipna=True)
    out = {"n_other_k": len(st5.index) - 1}
    for m in st5.index:
        out[f"stab_{key(m)}"] = format_value(med[m], 2)
        out[f"stab_higher_{key(m)}"] = sum(med[o] > med[m] and not same(med[o], med[m]) for o in st5.index)
    return out


def _wine_facts(pg):
    """LDFS on wine; the folds of Figure 6."""
    freq = pg.freq
    others = freq.drop(index=["LDFS", "CFS"], errors="ignore")
    dropped = (others.mean(axis=0) - freq.loc["LDFS"]).idxmax()
    wine5 = pg.scores["linear SVM"].loc["wine"]
    rest = wine5.drop(["LDFS", "none"])
    lw = pg.claims[pg.claims.table == "ldfs_wine"]
    sup = pg.tables["supports"]
    sup = sup[(sup.dataset == "wine") & ((sup.k == RANK_K) | sup.method.isin(OWN_SIZE - {"none"}))]
    return {"ldfs_wine_dropped": dropped,
            "ldfs_wine_dropped_by_ldfs": format_value(freq.loc["LDFS", dropped], 2),
            "ldfs_wine_dropped_by_others": format_value(others[dropped].mean(), 2),
            "ldfs_wine_lin": format_value(wine5["LDFS"], 1),
            "others_wine_lin": f"{format_value(rest.min(), 1)} to {format_value(rest.max(), 1)}",
            "ldfs_wine_verdict": "the lowest mean of the selectors" if wine5["LDFS"] < rest.min() else
                                 "not the lowest mean of the selectors",
            "ldfs_wine_sep": int((lw.verdict == "holds").sum()), "ldfs_wine_n": len(lw),
            "ldfs_wine_pmin": format_p(lw.p_adj.min()),
            "wine_folds": str(int(sup.groupby("method").size().iloc[0]))}


def _fit_times(pg):
    return pg.tables["fit_time"].pivot(index="dataset", columns="method", values="fit_time").loc[pg.datasets]


def _hkl_facts(pg):
    hf, ftm = pg.hkl, _fit_times(pg)
    tasks, certified = int(hf["tasks"].sum()), int(hf["certified"].sum())
    largest = significant2(hf["largest gap"].max())
    uncertified = tasks - certified
    return {
        "hkl_n": str(tasks), "hkl_certified": certified, "hkl_uncertified": str(uncertified),
        "hkl_cert_sentence": (f"All {tasks} of its stored tasks reached the duality-gap certificate "
                              f"(largest relative gap {largest})" if certified == tasks else
                              f"These ranks include {uncertified} uncertified tasks: {certified} of its "
                              f"{tasks} stored tasks reached the duality-gap certificate (largest relative "
                              f"gap {largest})"),
        "hkl_rank_note": (f"Every one of HKL's {tasks} tasks reached its duality-gap certificate, so its ranks "
                          "rest on solved models" if uncertified == 0 else
                          f"HKL enters the ranks with {uncertified} of its {tasks} tasks uncertified: those "
                          "fits did not reach their duality-gap certificate, and their models are ranked as "
                          "they are"),
        "hkl_max_gap": largest, "hkl_fewer": int(hf[f"kept fewer than {RANK_K} at k = {RANK_K}"].sum()),
        "hkl_slowest": int((ftm.idxmax(axis=1) == "HKL").sum()),
        "hkl_costlier": str(int((pg.cost["HKL"] > pg.cost["others"]).sum())),
        "hsfs_slower": int((ftm["HSFS"] > ftm["l1-SVM"]).sum())}


def _proj_facts(pg):
    proj = _per_dataset(pg.claims, "proj")
    lams = [r["reduced_penalty"] for p, r in zip(pg.params, pg.results) if p["method"] == "Proj-SVM"]
    ordered = proj.sort_values("effect", ascending=False, kind="stable")
    return {"proj_tally": tally(proj), "proj_wilcoxon": _wilcoxon(pg.claims, "proj", "linear SVM"),
            "proj_diffs": ", ".join(f"{r.dataset} {round(r.effect, 1) + 0.0:+.1f}" for r in ordered.itertuples()),
            "proj_pmin": format_value(proj.p_adj.min(), 2), "lam_range": f"{min(lams):g} to {max(lams):g}",
            "proj_grid": len(C_LINEAR) * len(PROJ_PENALTIES), "linear_grid": len(C_LINEAR)}


def _geo_facts(pg):
    from fsbook.experiments.benchmark.data import width

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


def _baseline_facts(pg):
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

"""Every number and verdict the benchmark chapter's prose quotes, as a function of the store.

:func:`facts` returns them (glue key → text); the small helpers the chapter's tables use
(:func:`significant2`, :func:`p_text`, :func:`by_rank`, :func:`claims_table`,
:func:`by_datasets`) live here too, so the page defines none of its own.  The parts of
:func:`facts` on the rank statistics are :mod:`~fsbook.experiments.benchmark.rank_facts`', those
on the claims :mod:`~fsbook.experiments.benchmark.claim_facts`', and the phrases they share
:mod:`~fsbook.experiments.benchmark.words`'.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from fsbook.claims import min_achievable_p
from fsbook.experiments._reading import machines
from fsbook.experiments.benchmark.claim_facts import (
    _claim_facts,
    _data_facts,
    _geo_facts,
    _margin_facts,
    _proj_facts,
)
from fsbook.experiments.benchmark.claims import claims, claims_view
from fsbook.experiments.benchmark.paper import (
    CLASSIFIERS,
    OWN_SIZE,
    RANK_K,
    VERSION,
    VOCABULARY,
    fit_time_unit,
    methods,
)
from fsbook.experiments.benchmark.rank_facts import (
    _baseline_facts,
    _control_facts,
    _rank_facts,
    _stability_facts,
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
from fsbook.report import captioned, claims_display, format_p, format_value, spaced
from fsbook.stats import average_ranks, nemenyi


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
    cols = [d for d in datasets if d in table.columns]
    chunks = [cols[i:i + per] for i in range(0, len(cols), per)]
    return [captioned(table[chunk].rename_axis(index="method", columns=None).reset_index(),
                      caption + (f" (part {j} of {len(chunks)})" if len(chunks) > 1 else ""),
                      decimals=decimals).hide(axis="index")
            for j, chunk in enumerate(chunks, 1)]


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
            "store_version": VERSION, "fit_time_unit": fit_time_unit(),
            "store_state": state, "store_machines": machines(s), "n_read": spaced(len(pg.params)),
            "n_datasets": str(n), "cv": cv, "n_repeats": str(pg.repeats), "n_folds_text": str(pg.n_folds),
            "t_df": str(pg.repeats - 1),
            "wilcoxon_min_p": f"2/2^{n} = {format_value(min_achievable_p('wilcoxon', n), 4)}",
            "hkl_stored_seconds": format_value(_task_seconds(s, pg.use[live]), 0)}


def _task_seconds(stored, i):
    """Stored task ``i``'s CPU seconds (a store written before the runner measured CPU time has
    none: rerun it at the current version)."""
    cpu = stored.cpu_seconds[i]
    if cpu is None:
        raise ValueError(f"stored task {i} recorded no CPU time; the store predates version {VERSION}")
    return cpu


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

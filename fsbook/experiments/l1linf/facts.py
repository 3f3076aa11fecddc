"""Every number and verdict the l1/linf chapter's prose quotes, computed from the store.

:func:`facts` returns ``{glue key: text}``; the chapter glues each value as it comes.  Each part
of the page has its own function of the store (and, for the sections that read them, of the
benchmark records and the live runs of the chapter), so that a sentence can be traced to the
code that writes it.  Some parts check what the prose says in fixed words (for example that our
HSFS stays above the paper's even with the leak) and raise ``ValueError`` when the store no
longer supports it.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from fsbook import datasets as D
from fsbook.claims import min_achievable_p, verdict_counts
from fsbook.decisions import RTOL
from fsbook.experiments.l1linf.claims import (
    CLAIM_ARCENE_4,
    CLAIM_ARCENE_LATER,
    CLAIM_FOHSIC,
    CLAIM_HSFS,
    CLAIM_LDFS,
    OVER_DATASETS,
    OVER_DATASETS_FAMILY,
    claims,
    explanation_claims,
    table1_agreement,
)
from fsbook.experiments.l1linf.paper import (
    AGREEMENT_MARGIN,
    METHODS,
    NAMES,
    PAPER_COLUMN,
    PAPER_TABLE1,
    SHARED_DATASETS,
    TABLE1_K,
    VERSION,
    paper_value,
)
from fsbook.experiments.l1linf.tables import fold_errors
from fsbook.experiments.l1linf.tasks import explanation_runs, load
from fsbook.experiments.l1linf.words import (
    agree_words,
    lowest,
    lowest_means,
    outcome,
    pct,
    stored_mean,
    versus,
    where,
)
from fsbook.report import VERDICT_VERB, describe_claim, format_p, format_value, join_words, spaced, tally

#: the glue keys of the three claims of Table 1
TABLE1_CLAIM_KEYS = {"hsfs": CLAIM_HSFS, "fohsic": CLAIM_FOHSIC, "ldfs": CLAIM_LDFS}
#: the values of each data set's entry of the selection benchmark record the prose quotes
SPEED_KEYS = ("hsfs_seconds", "fohsic_seconds", "reference_seconds", "reference_over_hsfs",
              "common_features", "acc_hsfs", "acc_fohsic", "acc_reference", "fast_seconds",
              "fast_over_fohsic", "acc_fast", "libm_kernel_over_hsfs")
#: the one-sided 95 % normal quantile: a 90 % interval's half-width in standard errors
Z_90 = 1.6448536269514722


def _require(condition, message):
    if not condition:
        raise ValueError(f"the chapter's prose no longer holds: {message}")


def page(results):
    """The frames the chapter's facts are read from: Table 1's means and standard errors, the
    claims, the curves, the all-data selection beside the in-fold one, and the agreement."""
    tables = results.tables
    ours, verdicts, errors = tables["table1"], claims(results), fold_errors(results)
    t1 = verdicts[verdicts.table.isin(["Table 1", OVER_DATASETS_FAMILY])]
    points = verdicts[(verdicts.level == "data set") & (verdicts.table != "Table 1")]
    leak = tables["all_data_selection"]
    leak = leak[[ds for ds in ours.columns if ds in leak.columns]]
    return SimpleNamespace(
        ours=ours, se=tables["table1_se"], curves=tables["curves"], errors=errors, t1=t1,
        per_ds=t1[t1.level == "data set"], pairs_t1=t1[t1.level == "pair"],
        curve_points=points[points.claim == CLAIM_HSFS], remark=points[points.claim != CLAIM_HSFS],
        leak=leak, inside=ours.loc[leak.index, leak.columns], datasets=list(ours.columns),
        means=ours.loc[METHODS], agreement=table1_agreement(errors))


def store_facts(results):
    """How many tasks the store holds, of how many, its version, and how many partitions of
    5-fold CV Table 1's claims rest on."""
    repeats = {p.get("repeat", 0) for p in results.params}
    return {"l1_store_tasks": str(results.n_cached), "l1_store_total": str(results.n_total),
            "l1_store_version": VERSION, "l1_repeats": str(len(repeats))}


def data_facts():
    """Sample sizes, fold sizes and classes, from the data loaders the protocol uses."""
    labels = {ds: load(ds, 1000)[1] for ds in TABLE1_K}
    out = {f"l1_n_{ds}": str(len(labels[ds])) for ds in ("arcene", "dexter", "madelon")}
    out["l1_n_madelon_all"] = spaced(len(D.load_madelon().target))
    for ds in ("arcene", "dexter"):
        out[f"l1_fold_{ds}"] = str(len(labels[ds]) // 5)
        out[f"l1_step_{ds}"] = format_value(100 / (len(labels[ds]) // 5), 1)
    n_classes = {ds: len(np.unique(y)) for ds, y in labels.items() if ds != "glass_id"}
    out["l1_two_class"] = join_words([NAMES[d] for d, c in n_classes.items() if c == 2])
    out["l1_multi_class"] = join_words([f"{NAMES[d]} ({c} classes)" for d, c in n_classes.items() if c > 2])
    return out


def speed_facts(record):
    """The recorded CPU seconds, ratios and accuracies of HSFS, FOHSIC and the old HSFS on
    ARCENE and DEXTER (``benchmarks/l1linf.py --only selection``), as recorded."""
    out = {}
    for ds in ("arcene", "dexter"):
        r = record["values"][ds]
        out.update({f"l1_{ds}_{key}": str(r[key]) for key in SPEED_KEYS})
        out[f"l1_{ds}_versus"] = versus(r)
    return out


def _gap_below_hsfs(row, verdict):
    """'MADELON LS's mean error is 20.80 points below HSFS's' with the claim's numbers."""
    return (f"on {NAMES[row['dataset']]} {row['b']}'s mean error is {pct(-row['effect'])} points below HSFS's",
            describe_claim(row, units="points")[len(f"{verdict} ("):-1])


def table1_claim_facts(p):
    """Table 1's three claims: over the shared data sets (untestable), per data set, and where
    five folds decide "HSFS lowest" or leave its largest gap undecided."""
    n_shared = len(SHARED_DATASETS)
    over = p.t1[p.t1.level == OVER_DATASETS].set_index("claim")
    out = {"l1_n_shared": {5: "five"}.get(n_shared, str(n_shared)),
           "l1_wilcoxon_min_p": format_value(min_achievable_p("wilcoxon", n_shared), 4)}
    for key, claim in TABLE1_CLAIM_KEYS.items():
        c = over.loc[claim]
        _require(c["verdict"] == "not separable" and np.isnan(c["p"]) and c["n"] == n_shared,
                 f"{claim!r} over the shared data sets is untestable")
        out[f"l1_dir_{key}"] = f"{int(c['n_direction'])} of {int(c['n'])}"
        out[f"l1_over_{key}"] = (f"untestable over the {n_shared} shared data sets; our effect is in the paper's "
                                 f"direction on {int(c['n_direction'])} of them")
        out[f"l1_claim_{key}"] = where(p.per_ds[p.per_ds.claim == claim])
    out.update({"l1_n_dataset_claims": str(len(p.per_ds)), "l1_tally_table1": tally(p.per_ds.verdict),
                "l1_n_table1_pairs": str(len(p.pairs_t1))})
    hsfs_rows = p.per_ds[p.per_ds.claim == CLAIM_HSFS]
    decided = hsfs_rows[hsfs_rows.verdict != "not separable"]
    _require(set(decided.verdict) <= {"fails"}, "\"HSFS lowest\" fails where decided, never holds")
    out["l1_hsfs_decided"] = "; ".join(
        "{} and \"HSFS lowest\" fails there ({}; {} before Holm's correction)".format(
            *_gap_below_hsfs(r, "fails"), format_p(r["p"])) for _, r in decided.iterrows()) or \
        "\"HSFS lowest\" is decided on no data set"
    undecided = hsfs_rows[hsfs_rows.verdict == "not separable"]
    big = undecided.loc[undecided["effect"].idxmin()]
    _require(big["effect"] < 0, "the largest undecided gap is below HSFS's")
    out["l1_hsfs_undecided"] = "{}, yet \"HSFS lowest\" is not separable there ({})".format(
        *_gap_below_hsfs(big, "not separable"))
    ldfs = p.per_ds[(p.per_ds.claim == CLAIM_LDFS) & (p.per_ds.verdict != "not separable")]
    out["l1_ldfs_decided"] = "; ".join(f"{NAMES[r['dataset']]}: {describe_claim(r, units='points')}"
                                       for _, r in ldfs.iterrows()) or "none"
    out["l1_ldfs_ls"] = "; ".join(f"{NAMES[ds]} {pct(p.ours.loc['LDFS', ds])} % against "
                                  f"{pct(p.ours.loc['LS', ds])} %" for ds in p.datasets)
    return out


def paper_table1_facts():
    """What the paper's own Table 1 says (its printed means; it gives no spread).

    Examples
    --------
    >>> paper_table1_facts()["l1_paper_hsfs_n"]
    'all 6'
    """
    P = PAPER_TABLE1
    n = len(P.columns)
    hsfs_first = [c for c in P.columns if P[c].idxmin() == "HSFS"]
    fohsic_next = [c for c in P.columns if P[c].drop("HSFS").idxmin() == "FOHSIC"]
    ldfs_below = [c for c in P.columns if P.loc["LDFS", c] < P.loc["LS", c]]
    exceptions = [f"on {c.upper() if c not in ('wine', 'glass') else c} {P[c].drop(['HSFS', 'FOHSIC']).idxmin()}'s "
                  f"{pct(P[c].drop(['HSFS', 'FOHSIC']).min())} % is below FOHSIC's {pct(P.loc['FOHSIC', c])} %"
                  for c in P.columns if c not in fohsic_next]
    return {
        "l1_paper_hsfs_n": f"all {n}" if len(hsfs_first) == n else f"{len(hsfs_first)} of its {n}",
        "l1_paper_ldfs_n": f"all {n}" if len(ldfs_below) == n else f"{len(ldfs_below)} of {n}",
        "l1_paper_fohsic": f"FOHSIC is next in {len(fohsic_next)} of its {n} columns"
                           + (f" ({join_words(exceptions)})" if exceptions else ""),
        "l1_paper_glass_range": f"{pct(P['glass'].min())}–{pct(P['glass'].max())}"}


#: the data sets on which the prose says our mean is above and below the paper's
PROSE_ABOVE_BELOW = {"HSFS": (["wine", "glass", "arcene", "madelon"], ["dexter"]),
                     "FOHSIC": (["wine", "glass", "arcene"], ["dexter", "madelon"])}


def means_vs_paper_facts(p):
    """Our HSFS and FOHSIC means against the paper's printed ones (comparisons of means, not
    verdicts), and their agreement within :data:`AGREEMENT_MARGIN`."""
    shared = list(SHARED_DATASETS)
    out = {f"l1_{ds}_{m}": pct(p.ours.loc[m, ds]) for ds in shared for m in ("HSFS", "FOHSIC")}
    agree = p.agreement[p.agreement.dataset.isin(shared)]
    for m, key in [("HSFS", "hsfs"), ("FOHSIC", "fohsic")]:
        diff = p.ours.loc[m, shared] - pd.Series({ds: PAPER_TABLE1.loc[m, PAPER_COLUMN[ds]] for ds in shared})
        above, below = list(diff.index[diff > 0]), list(diff.index[diff < 0])
        _require((above, below) == PROSE_ABOVE_BELOW[m], f"{m}'s means above and below the paper's")
        out[f"l1_{key}_above_paper"] = join_words([NAMES[d] for d in above])
        out[f"l1_{key}_below_paper"] = join_words([NAMES[d] for d in below])
        out[f"l1_{key}_within_2se"] = join_words([NAMES[ds] for ds in shared
                                                  if abs(diff[ds]) <= 2 * p.se.loc[m, ds]])
        out[f"l1_{key}_agreement"] = agree_words(agree[agree.method == m])
    counts = agree.agreement.value_counts()

    def count(v, one, many):
        n = counts.get(v, 0)
        return f"{'none' if n == 0 else n} {one if n == 1 else many}"

    reachable = int((Z_90 * agree["se"] < AGREEMENT_MARGIN).sum())      # 90 % half-width < margin
    out.update({
        "l1_agree_margin": format_value(AGREEMENT_MARGIN, 1), "l1_agree_n": str(len(agree)),
        "l1_agree_tally": join_words([count("agrees", "agrees", "agree"), count("differs", "differs", "differ"),
                                      count("inconclusive", "is inconclusive", "are inconclusive")]),
        "l1_agree_reachable": "none" if reachable == 0 else str(reachable)})
    return out


def lowest_mean_facts(p):
    """The lowest means at Table 1's k (exact, ties within the decisions' tolerance), Yale's,
    and HSFS against FOHSIC by their means and by the paired claims."""
    ds_all, ours = p.datasets, p.ours
    hsfs_lowest = [NAMES[ds] for ds in ds_all if "HSFS" in lowest(p.means, ds)]
    fohsic_lower = [NAMES[ds] for ds in ds_all if ours.loc["FOHSIC", ds] < ours.loc["HSFS", ds]]
    hf = p.pairs_t1[(p.pairs_t1.a == "HSFS") & (p.pairs_t1.b == "FOHSIC")]
    hf_counts = verdict_counts(hf.verdict)
    return {
        "l1_lowest_by_set": "; ".join(f"{NAMES[ds]}: {' = '.join(lowest(p.means, ds))}" for ds in ds_all),
        "l1_lowest_mean_sentence": "The lowest mean error at Table 1's k goes to another method on every "
                                   "data set" if not hsfs_lowest else
                                   f"HSFS has the lowest mean error on {join_words(hsfs_lowest)}",
        "l1_yale_HSFS": pct(ours.loc["HSFS", "yale"]),
        "l1_yale_lowest": " = ".join(lowest(p.means, "yale")) + f" ({pct(p.means['yale'].min())} %)",
        "l1_fohsic_first": join_words([NAMES[ds] for ds in ds_all if lowest(p.means, ds) == ["FOHSIC"]]),
        "l1_fohsic_lower": join_words(fohsic_lower), "l1_n_fohsic_lower": str(len(fohsic_lower)),
        "l1_hsfs_lower": join_words([NAMES[ds] for ds in ds_all if ours.loc["HSFS", ds] < ours.loc["FOHSIC", ds]]),
        "l1_n_sets": str(len(ds_all)), "l1_hsfs_fohsic": where(hf),
        "l1_relaxation": "so the relaxation is neither shown to beat the greedy search it relaxes nor to lose "
                         "to it" if hf_counts["holds"] == hf_counts["fails"] == 0 else
                         f"so the greedy search is significantly better on {hf_counts['fails']} and the "
                         f"relaxation on {hf_counts['holds']}"}


def starts_facts(starts, fohsic_pair):
    """HSFS's random starts on wine against FOHSIC's pair: ``starts`` has a column ``features``
    (one row per start), ``fohsic_pair`` names FOHSIC's features the same way."""
    counts = starts["features"].value_counts()
    if len(counts) == 1 and counts.index[0] != fohsic_pair:
        text = (f"On all of wine, the {len(starts)} random starts of HSFS give one pair of features "
                f"({counts.index[0]}) and FOHSIC another ({fohsic_pair}), so the start is not what separates "
                "them there; the path is")
    else:
        text = (f"On all of wine, the {len(starts)} random starts of HSFS give {len(counts)} different pairs "
                f"of features (FOHSIC's: {fohsic_pair})")
    return {"l1_starts": text}


def curve_facts(p):
    """The curves of the figures: where "HSFS lowest" is decided, which methods have the lowest
    means, and the text's remark on Figures 3 and 4 on ARCENE."""
    points = p.curve_points
    decided = points[points.verdict != "not separable"]
    best_k = {ds: lowest_means(p.curves, ds) for ds in p.datasets}
    k4 = p.remark[p.remark.claim == CLAIM_ARCENE_4].iloc[0]
    later = p.remark[p.remark.claim == CLAIM_ARCENE_LATER].iloc[0]
    arc = p.curves[p.curves.dataset == "arcene"].pivot(index="k", columns="method", values="mean")
    out = {"l1_curve_points": str(len(points)), "l1_curve_tally": tally(points.verdict),
           "l1_curve_decided": "; ".join(
               f"{'the claim' if i == 0 else 'it'} {VERDICT_VERB[verdict]} "
               + ", ".join(f"on {NAMES[r['dataset']]} at k = {int(r['k'])} against {r['b']} "
                           f"({r['effect']:+.2f} points)" for _, r in rows.iterrows())
               for i, (verdict, rows) in enumerate(decided.groupby("verdict", sort=False))) or "nowhere"}
    for m in ("HSFS", "FOHSIC"):
        out[f"l1_curve_{m.lower()}_lowest"] = str(sum(m in w for b in best_k.values() for w in b.values()))
    out.update({"l1_arcene_k4": describe_claim(k4, units="points"),
                "l1_arcene_later": describe_claim(later, units="points"),
                "l1_arcene_k4_values": f"FOHSIC {pct(arc.loc[4, 'FOHSIC'])} %, HSFS {pct(arc.loc[4, 'HSFS'])} %"})
    return out


def glass_id_facts(p):
    """The range of the seven means on glass with and without the UCI id column."""
    with_id, glass = p.means["glass_id"], p.means["glass"]
    _require(PAPER_TABLE1["glass"].min() > 2 * with_id.max(), "the paper's glass errors are far above ours "
                                                              "with the id")
    return {"l1_glassid_min": pct(with_id.min()), "l1_glassid_max": pct(with_id.max()),
            "l1_glass_min": pct(glass.min()), "l1_glass_max": pct(glass.max())}


def leak_facts(p):
    """Selection on all the data against selection in the training folds (means; ties within
    the decisions' tolerance)."""
    leak, inside = p.leak, p.inside
    change = (leak - inside).stack()
    same = np.isclose(leak.stack(), inside.stack(), rtol=RTOL, atol=0)
    m_big, ds_big = change.abs().idxmax()
    _require(all(leak.loc["HSFS", ds] > PAPER_TABLE1.loc["HSFS", ds] + 2 * p.se.loc["HSFS", ds]
                 for ds in ("wine", "glass")), "even with the leak our HSFS stays above the paper's")
    return {
        "l1_leak_n": str(len(change)), "l1_leak_down": str(int(((change < 0) & ~same).sum())),
        "l1_leak_up": str(int(((change > 0) & ~same).sum())), "l1_leak_same": str(int(same.sum())),
        "l1_leak_largest": f"{m_big} on {NAMES[ds_big]}, {pct(inside.loc[m_big, ds_big])} % → "
                           f"{pct(leak.loc[m_big, ds_big])} %",
        "l1_leak_hsfs": "; ".join(f"{NAMES[ds]} {pct(inside.loc['HSFS', ds])} % → {pct(leak.loc['HSFS', ds])} % "
                                  f"(paper {pct(PAPER_TABLE1.loc['HSFS', PAPER_COLUMN[ds]])} %)"
                                  for ds in ("wine", "glass"))}


def all_features_facts(p):
    """The SVM on every feature: its error, and how many selectors beat it, per data set."""
    beaten = {ds: int((p.means[ds] < p.ours.loc["all", ds]).sum()) for ds in p.datasets}
    return {
        "l1_all_beaten": "; ".join(f"{NAMES[ds]} {pct(p.ours.loc['all', ds])} % ({beaten[ds]} of {len(METHODS)})"
                                   for ds in p.datasets),
        "l1_all_beaten_by_every": join_words([NAMES[ds] for ds in p.datasets if beaten[ds] == len(METHODS)]),
        "l1_all_beaten_by_few": join_words([NAMES[ds] for ds in p.datasets if beaten[ds] <= 2])}


def explanation_facts(p, variants, cpu_seconds):
    """The explanations of the gaps: how many variants, the largest change, the verdicts per
    hypothesis and per method, and what the ablation store holds.

    Parameters
    ----------
    p : the page's tables (:func:`page`)
    variants : dict
        ``{(dataset, method, variant): per-fold errors}`` of the ``l1linf_ablations`` store
        (:func:`fsbook.experiments.l1linf.ablations.variants`).
    cpu_seconds : float
        The CPU time that store records.
    """
    tested = {key: v for key, v in variants.items() if key[0] in SHARED_DATASETS}
    explained = explanation_claims(tested, p.errors)
    wanted = {(ds, m, name) for ds in SHARED_DATASETS for (m, name) in explanation_runs(ds)}
    missing = sorted(wanted - set(tested))
    held = explained[explained.verdict == "holds"]
    n_held, n = len(held), len(explained)
    far = max(tested, key=lambda key: abs(tested[key].mean() - stored_mean(p.errors, key[0], key[1],
                                                                           tested[key].index)))
    ours_far = stored_mean(p.errors, far[0], far[1], tested[far].index)
    thr = {key: v for key, v in tested.items() if key[2] == "row threshold 0.01"}
    same = [key for key, v in thr.items() if np.allclose(v.to_numpy(), [stored_mean(
        p.errors, key[0], key[1], [f]) for f in v.index])]
    hypotheses = list(dict.fromkeys(name for _, _, name in tested))
    hsfs_rows = explained[explained.a.str.startswith("HSFS")]
    hsfs_moved = hsfs_rows[hsfs_rows.verdict == "holds"]
    return {
        "l1_expl_n": str(n), "l1_expl_cpu": format_value(cpu_seconds / 60, 1),
        "l1_expl_coverage": "It holds every variant on every fold" if not missing else
        "It lacks " + join_words([f"{name} ({m} on {NAMES[ds]})" for ds, m, name in missing])
        + " (`python -m fsbook.experiments l1linf_ablations --full` resumes the store where it stopped)",
        "l1_expl_summary": (f"None of the {n} variants brings an error significantly closer to the paper's "
                            if n_held == 0 else f"{n_held} of the {n} variants "
                            f"{'brings' if n_held == 1 else 'bring'} an error significantly closer to the paper's ")
        + f"({tally(explained.verdict)}). The largest change: {far[2]} takes {far[1]} on {NAMES[far[0]]} from "
          f"{pct(ours_far)} % to {pct(tested[far].mean())} % over the same folds "
          f"(paper {pct(paper_value(far[1], far[0]))} %)",
        "l1_expl_by_hypothesis": "; ".join(f"*{name}* {outcome(explained[explained.a.str.endswith(', ' + name)])}"
                                           for name in hypotheses),
        "l1_expl_threshold_same": join_words([f"{m} on {NAMES[ds]}" for ds, m, _ in same]) or "none",
        "l1_expl_threshold_n": str(len(thr)),
        "l1_expl_verdict": "None of them: no variant brings an error significantly closer to the paper's on any "
                           "data set we share with it, so the gap stays unexplained" if held.empty else
                           "; ".join(f"{r['a']} on {NAMES[r['dataset']]} ({describe_claim(r, units='points')})"
                                     for _, r in held.iterrows()),
        "l1_expl_hsfs": "none of the paper's settings tested above (" + join_words(
            list(dict.fromkeys(a.split(", ", 1)[1] for a in hsfs_rows.a))) + ") brings HSFS's error "
            "significantly closer to the paper's on any data set we share with it" if hsfs_moved.empty else
            "; ".join(f"{r['a']} brings HSFS's error significantly closer to the paper's on {NAMES[r['dataset']]}"
                      for _, r in hsfs_moved.iterrows())}


def facts(results, *, selection_record, variants, variants_cpu_seconds, starts, fohsic_pair):
    """Every number and verdict the chapter's prose quotes: ``{glue key: text}``.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)``, complete.
    selection_record : dict
        The record of ``benchmarks/l1linf.py --only selection``
        (:func:`fsbook.benchmark_records.read_benchmark`).
    variants : dict
        ``{(dataset, method, variant): per-fold errors}``: the paper's settings one at a time, from
        the ``l1linf_ablations`` store (:func:`fsbook.experiments.l1linf.ablations.variants`).
    variants_cpu_seconds : float
        The CPU time that store records.
    starts : DataFrame
        HSFS on wine from several random starts, a column ``features`` naming each start's pair.
    fohsic_pair : str
        FOHSIC's pair of features on wine, named as in ``starts``.

    Returns
    -------
    dict
        Glue key → formatted text.
    """
    p = page(results)
    return {**store_facts(results), **data_facts(), **speed_facts(selection_record),
            **table1_claim_facts(p), **paper_table1_facts(), **means_vs_paper_facts(p),
            **lowest_mean_facts(p), **starts_facts(starts, fohsic_pair), **curve_facts(p),
            **glass_id_facts(p), **leak_facts(p), **all_features_facts(p),
            **explanation_facts(p, variants, variants_cpu_seconds)}

"""Every number and verdict chapter 6 quotes, computed from the ``hkl`` store (and, for the
diagnosis and the tuned L1-SVM's gap, from :func:`~fsbook.experiments.hkl.diagnosis.run_diagnosis`
and the ``hkl_ablations`` store), with the small display helpers of the chapter's tables.

:func:`facts` returns ``{glue key: value}``; the chapter glues every pair.  The values keep the
type the prose formats (an accuracy a float rounded to two decimals, a count an int, a verdict
a string), so that a role such as ``{glue:text}`hkl_hepatitis:.2f``` formats it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.benchmark_records import read_benchmark
from fsbook.claims import verdict_counts
from fsbook.experiments.hkl import ablations as hkl_ablations
from fsbook.experiments.hkl import diagnosis as hkl_diagnosis
from fsbook.experiments.hkl.claims import (
    AGREEMENT_MARGIN,
    TABLE1_OVER,
    TABLE2_ASSERTED,
    TABLE2_OTHER,
    agreement_table,
    claims,
    table1_fold_accuracy,
    table3_fold_accuracy,
)
from fsbook.experiments.hkl.folds import majority_accuracy
from fsbook.experiments.hkl.paper import (
    CONFIGS,
    HKL_MAX_ADD,
    HKL_TOL,
    PAPER_TABLE1,
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    RAW_ALL,
    RAW_CONFIGS,
    VERSION,
    WORDS_FOR_WEKA,
)
from fsbook.report import describe_claim, format_significant, format_value, join_words, tally

__all__ = ["facts", "SHORT", "SHORT_CLAIMS", "TIE", "store_facts", "baseline_facts", "claim_facts",
           "value_facts", "diagnosis_facts", "gap_explanations", "gap_facts", "agreement_facts",
           "benchmark_facts", "task_agreement_words", "verdict_row", "paper_level", "our_level", "paper_row", "one_word",
           "table1_summary"]

#: two accuracies closer than this are tied (the mean of a few folds' test accuracies)
TIE = 1e-9
#: the data sets' names in the chapter's tables and sentences
SHORT = {"breast_cancer": "breast cancer", "breast_cancer_wisconsin": "Wisconsin",
         "hepatitis": "hepatitis", "transfusion": "transfusion", "vote": "vote",
         "monks1": "MONK-1", "monks2": "MONK-2", "monks3": "MONK-3",
         "tic_tac_toe": "tic-tac-toe", "20newsgroups": "20 Newsgroups"}
#: Table 1's three claims over the data sets, as the chapter's tables label them
SHORT_CLAIMS = {
    "HKL beats Weka's default LibSVM (raw attributes)": "vs Weka LibSVM",
    "HKL beats the best of the fifteen wrappers": "vs best wrapper",
    "HKL beats a CV-tuned LibSVM (raw attributes)": "vs tuned LibSVM"}
#: Tables 4 and 5's data sets, as the prose names them
_EMBEDDED_NAMES = {"colon": "colon", "lymphoma": "lymphoma", "ionosphere": "ionosphere",
                   "breast_cancer_wisconsin": "Wisconsin"}
#: the keys of the per-claim verdicts of Tables 3-5 (``v_<key>_<data set>``)
_CLAIM_KEYS = {"HKL beats the L1 SVM with C tuned": "t3_l1",
               "HKL beats the L2 SVM with C tuned": "t3_l2",
               "HKL is more accurate than the zero-norm SVM with all genes": "t4_hkl",
               "the zero-norm SVM gains accuracy with fewer genes": "t4_fewer",
               "HKL is more accurate than the feature-weighting SVM": "t5_acc",
               "HKL uses fewer of the original attributes": "t5_sparse"}


def facts(results, claims_table=None, diagnosis=None, ablations=None, benchmarks=True):
    """Every value chapter 6's prose quotes, by glue key.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)`` of the ``hkl`` protocol.
    claims_table : DataFrame, optional
        :func:`~fsbook.experiments.hkl.claims.claims` of ``results`` (computed when omitted).
    diagnosis : dict, optional
        :func:`~fsbook.experiments.hkl.diagnosis.run_diagnosis`'s output (its keys left out
        when omitted; its CPU time is never a fact: it changes from run to run).
    ablations : ProtocolResult, optional
        ``read_store`` of :mod:`fsbook.experiments.hkl.ablations` (its keys left out when
        omitted).
    benchmarks : bool, default=True
        Include the timings recorded by ``benchmarks/hkl.py``.

    Returns
    -------
    dict
        ``{glue key: int, float or str}``.
    """
    c = claims(results) if claims_table is None else claims_table
    out = {**store_facts(results), **baseline_facts(results), **claim_facts(results, c),
           **value_facts(results), **agreement_facts(results)}
    if benchmarks:
        out.update(benchmark_facts())
    if diagnosis is not None:
        out.update(diagnosis_facts(diagnosis))
    if ablations is not None:
        out.update(gap_facts(gap_explanations(results, ablations)))
    return out


# ---- display helpers -------------------------------------------------------------------------


def verdict_row(verdicts, dataset, start):
    """The row of :func:`~fsbook.experiments.hkl.diagnosis.diagnosis_table` for ``dataset``
    whose experiment starts with ``start`` (the first such row).

    Examples
    --------
    >>> v = pd.DataFrame({"data set": ["a", "a"], "experiment": ["x one", "y two"],
    ...                   "verdict": ["supported", "not supported"]})
    >>> verdict_row(v, "a", "y")["verdict"]
    'not supported'
    """
    row = verdicts[(verdicts["data set"] == dataset) & verdicts["experiment"].str.startswith(start)]
    return row.iloc[0]


def paper_level(method, classifier):
    """The level the paper's Table 2 prints for HKL against Table 1's row ``(method,
    classifier)`` as text, ``"—"`` where it prints none.

    Examples
    --------
    >>> paper_level("cfs/best_first", "L1"), paper_level("all", "L2")
    ('0.01', '0.05')
    """
    key = f"all ({classifier})" if method == "all" else method
    v = PAPER_TABLE2.loc[key, classifier]
    return "—" if v is None or pd.isna(v) else str(v)


def our_level(p):
    """The smallest of the levels 0.005, 0.01, 0.05 above ``p``, as text (``"—"``: none).

    Examples
    --------
    >>> our_level(0.004), our_level(0.02), our_level(0.2)
    ('0.005', '0.05', '—')
    """
    return next((str(a) for a in (0.005, 0.01, 0.05) if p < a), "—")


def paper_row(dataset, method, fraction):
    """``(fraction, accuracy %)`` of the paper's Table 4 row nearest ours: HKL's row, or the
    zero-norm SVM's row whose fraction of genes is nearest ``fraction`` on a log scale.

    Examples
    --------
    >>> paper_row("lymphoma", "zero_norm", 0.125)
    (0.124, 93.24)
    >>> paper_row("colon", "hkl", None)
    (0.007, 88.71)
    """
    p = PAPER_TABLE4[dataset]
    if method == "hkl":
        return p["hkl"]
    return min(p["zero_norm"], key=lambda pf: abs(np.log(pf[0] / fraction)))


def one_word(verdicts):
    """A family's verdict when all its rows agree, else the count of each verdict.

    Examples
    --------
    >>> one_word(["holds", "holds"]), one_word(["holds", "fails", "holds"])
    ('holds', 'holds on 2, fails on 1')
    """
    v = verdict_counts(verdicts)
    seen = [k for k, n in v.items() if n]
    return seen[0] if len(seen) == 1 else ", ".join(f"{k} on {n}" for k, n in v.items() if n)


def table1_summary(results):
    """The pieces of Table 1 the chapter compares: ``t1`` (ours), ``paper`` (the paper's rows of
    ``t1``), ``hkl`` and ``paper_hkl`` (HKL's rows), ``wrappers`` (the fifteen booleanised
    wrapper rows), ``raw_cfs`` (CFS on the raw attributes), ``majority`` (the majority class's
    accuracy per data set, %)."""
    t1 = results.tables["table1"]
    paper = PAPER_TABLE1.loc[t1.index, t1.columns]
    return {"t1": t1, "paper": paper, "hkl": t1.loc[("hkl", "HKL")],
            "paper_hkl": paper.loc[("hkl", "HKL")], "wrappers": t1.loc[list(CONFIGS)],
            "raw_cfs": t1.loc[list(RAW_CONFIGS)],
            "majority": pd.Series({d: majority_accuracy(d) for d in t1.columns})}


# ---- the store and the baselines ----------------------------------------------------------------


def store_facts(results):
    """The stored tasks, their CPU hours on the machine that ran them (version 8 on; ``nan`` when
    some task has no CPU time), what one partition of Table 1's 20 Newsgroups tasks costs (the
    first, ``ng_partition_hours``) and its HKL fits' share (``ng_hkl_hours``), and two settings."""
    cpu = list(getattr(results, "cpu_seconds", []) or [])
    timed = len(cpu) == len(results.params) and all(c is not None for c in cpu)
    hours = float(np.sum(cpu)) / 3600 if timed else float("nan")

    def ng_hours(method=None):
        picked = [c for p, c in zip(results.params, cpu) if p.get("table") == 1 and not p.get("repeat")
                  and p.get("dataset") == "20newsgroups" and method in (None, p.get("method"))]
        return round(float(np.sum(picked)) / 3600, 2) if timed and picked else float("nan")

    return {"hkl_tasks_stored": results.n_cached, "hkl_tasks_total": results.n_total,
            "hkl_hours": round(hours, 1), "ng_partition_hours": ng_hours(), "ng_hkl_hours": ng_hours("hkl"),
            "weka_words": WORDS_FOR_WEKA, "hkl_tol": format_significant(HKL_TOL, 1)}


def baseline_facts(results):
    """Weka's default LibSVM against the paper's LibSVM row and a tuned LibSVM."""
    t1 = results.tables["table1"]
    paper = PAPER_TABLE1.loc[t1.index, t1.columns]
    default_l2, paper_l2 = t1.loc[(RAW_ALL, "L2")], paper.loc[("all", "L2")]
    out = {}
    for d in ("monks1", "tic_tac_toe", "20newsgroups"):
        out[f"base_default_{d}"] = round(float(default_l2[d]), 2)
        out[f"base_paper_{d}"] = round(float(paper_l2[d]), 2)
        out[f"base_tuned_{d}"] = round(float(t1.loc[("all tuned (raw)", "L2"), d]), 2)
    ng_default = table1_fold_accuracy(results, "20newsgroups", RAW_ALL, "L2")
    ng_majority = majority_accuracy("20newsgroups", per_fold=True)
    out["ng_default_majority_folds"] = int(np.isclose(ng_default, ng_majority).sum())
    out["ng_n_folds"] = len(ng_majority)
    out["n_default_below_paper"] = int((default_l2 < paper_l2).sum())
    return out


# ---- claims and verdicts ------------------------------------------------------------------------


def claim_facts(results, claims_table):
    """Counts and verdicts of the claims of Tables 1-5 and the Table 2 rows HKL loses."""
    tables, c = results.tables, claims_table
    s = table1_summary(results)
    t1, hkl_row, paper_hkl, wrappers = s["t1"], s["hkl"], s["paper_hkl"], s["wrappers"]
    tuned_l2 = t1.loc[("all tuned (raw)", "L2")]
    per_set = c[c["table"] == "Table 1"]
    over_sets = c[c["dataset"] == "all"]
    asserted = c[c["table"] == TABLE2_ASSERTED]
    other = c[c["table"] == TABLE2_OTHER]
    p_t2 = tables["table2"]["p (HKL better)"]
    out = {
        "t1_m": int(per_set["p"].notna().sum()),
        "t2_monks3_ties": int((t1.drop(index=[("hkl", "HKL")])["monks3"]
                               .sub(hkl_row["monks3"]).abs() <= TIE).sum()),
        "hkl_ge_best_wrapper": int((hkl_row >= wrappers.max() - TIE).sum()),
        "hkl_gt_weka_libsvm": int((hkl_row > t1.loc[(RAW_ALL, "L2")] + TIE).sum()),
        "hkl_gt_tuned_libsvm": int((hkl_row > tuned_l2 + TIE).sum()),
        "hkl_lt_tuned_libsvm": int((hkl_row < tuned_l2 - TIE).sum()),
        "hkl_within_1_paper": int(((hkl_row - paper_hkl).abs() <= 1).sum()),
        "sig_005": int((p_t2 < 0.05).sum()), "sig_001": int((p_t2 < 0.01).sum()),
        "n_sets": t1.shape[1], "n_table2": len(tables["table2"]),
        "t2_m": len(asserted), "t2_holds": verdict_counts(asserted["verdict"])["holds"],
        "t2_other_m": len(other), "t2_other_holds": verdict_counts(other["verdict"])["holds"],
        "t1_n_holds": int((per_set["verdict"] == "holds").sum()),
        "t1_tally": tally(per_set["verdict"]),
        "t1_over_verdict": one_word(over_sets[over_sets["table"] == TABLE1_OVER]["verdict"]),
        "t2_verdict": one_word(asserted["verdict"]),
    }
    for text, key in zip(SHORT_CLAIMS, ("t1_libsvm", "t1_wrapper", "t1_tuned")):
        out[f"v_{key}"] = describe_claim(over_sets[over_sets["claim"] == text].iloc[0], units="points")
        for verdict, suffix in (("holds", "where"), ("fails", "fails_where"), ("no gain", "no_gain_where")):
            rows = per_set[(per_set["claim"] == text) & (per_set["verdict"] == verdict)]
            where = [f"{SHORT[d]} ({e:+.2f} points)" for d, e in zip(rows["dataset"], rows["effect"])]
            out[f"v_{key}_{suffix}"] = join_words(where) if where else "no data set"
    for _, row in c[c["table"].isin(["Table 3", "Table 4", "Table 5"])].iterrows():
        out[f"v_{_CLAIM_KEYS[row['claim']]}_{row['dataset']}"] = describe_claim(row, units="points")
    t3_rows = c[c["table"] == "Table 3"].set_index("b")["verdict"]
    out["t3_verdict"] = (f"{t3_rows['L1-SVM (tuned C)']} against the tuned L1-SVM, "
                         f"{t3_rows['L2-SVM (tuned C)']} against the tuned L2-SVM")
    colon = c[(c["table"] == "Table 4") & (c["dataset"] == "colon")
              & (c["b"] == "zero-norm SVM, all genes") & (c["a"] == "HKL")].iloc[0]
    out["t4_colon_ci_low"] = round(float(colon["ci_low"]), 2)
    out["t4_colon_ci_high"] = round(float(colon["ci_high"]), 2)
    # Tables 4 and 5: HKL's accuracy against the embedded baselines, as a tally and where the
    # two are shown equal within the margin (no gain)
    embedded = c[c["table"].isin(["Table 4", "Table 5"]) & (c["a"] == "HKL")
                 & c["claim"].str.contains("more accurate")]
    out["t45_acc_tally"] = tally(embedded["verdict"])
    equal = [_EMBEDDED_NAMES[d] for d in embedded.loc[embedded["verdict"] == "no gain", "dataset"]]
    out["t45_equal_where"] = join_words(equal) if equal else "no data set"
    # Table 2: the data sets on which HKL loses to each wrapper row
    rows = [r for r in t1.index if r[0] in CONFIGS or r[0] in RAW_CONFIGS]
    lost = {r: [d for d in t1.columns if hkl_row[d] < t1.loc[r, d] - TIE] for r in rows}
    n_lost = [len(v) for v in lost.values()]
    where = pd.Series([d for v in lost.values() for d in v]).value_counts()
    out.update({"t2_loss_min": min(n_lost), "t2_loss_max": max(n_lost), "t2_wrapper_rows": len(rows),
                "t2_loss_where": join_words([f"{SHORT[d]} ({n})" for d, n in where.items()])})
    return out


# ---- accuracies the prose cites -----------------------------------------------------------------


def _table1_values(s):
    """Table 1's accuracies the prose cites (%, rounded later)."""
    t1, w, raw, maj, hkl_row = s["t1"], s["wrappers"], s["raw_cfs"], s["majority"], s["hkl"]
    return {
        "best_wrapper_monks1": w["monks1"].max(), "best_wrapper_monks2": w["monks2"].max(),
        "best_raw_monks1": raw["monks1"].max(), "best_raw_monks2": raw["monks2"].max(),
        "max_hepatitis": t1["hepatitis"].max(), "max_transfusion": t1["transfusion"].max(),
        "majority_transfusion": maj["transfusion"], "majority_hepatitis": maj["hepatitis"],
        "majority_monks2": maj["monks2"], "hkl_breast": hkl_row["breast_cancer"],
        "best_breast": w["breast_cancer"].max(), "hkl_hepatitis": hkl_row["hepatitis"],
        "hkl_transfusion": hkl_row["transfusion"],
        "paper_hkl_hepatitis": s["paper_hkl"]["hepatitis"],
        "paper_hkl_transfusion": s["paper_hkl"]["transfusion"],
        "tuned_20ng": t1.loc[("all tuned (raw)", "L2"), "20newsgroups"],
    }


def _tables345_values(tables):
    """Tables 3-5 and the disjunctions' accuracies and fractions the prose cites."""
    t3n = tables["table3"]["accuracy (%)"]
    dis_acc = tables["disjunctions_accuracy"]["value"]
    cite = {"t3_l1_tuned": t3n["L1-SVM (tuned C)"], "t3_l2_tuned": t3n["L2-SVM (tuned C)"],
            "t3_hkl": t3n["HKL"], "dis_acc": 100 * float(dis_acc["accuracy"]),
            "dis_C": float(dis_acc["C"]),
            "ng_max_gap": tables["table1_details"].loc["20newsgroups", "max gap"],
            "t3_l1_gap": t3n["L1-SVM (tuned C)"] - PAPER_TABLE3["L1-SVM"],
            "t3_l2_gap": t3n["L2-SVM (tuned C)"] - PAPER_TABLE3["L2-SVM"],
            "t3_l1_c1": t3n["L1-SVM (C = 1)"]}
    t4, t5 = tables["table4"], tables["table5"]
    for d, g in t4.groupby("dataset"):
        zn, hk = g[g.method == "zero_norm"], g[g.method == "hkl"].iloc[0]
        cite[f"t4_{d}_hkl_acc"] = hk.accuracy
        cite[f"t4_{d}_hkl_frac"] = 100 * hk.fraction_used
        cite[f"t4_{d}_frac_ratio"] = hk.fraction_used / PAPER_TABLE4[d]["hkl"][0]
        cite[f"t4_{d}_zn_all"] = zn.loc[zn.fraction == 1.0, "accuracy"].iloc[0]
        cite[f"t4_{d}_zn_best"] = zn.accuracy.max()
        cite[f"t4_{d}_zn_smallest"] = zn.loc[zn.fraction == zn.fraction.min(), "accuracy"].iloc[0]
    for r in t5.itertuples():
        cite[f"t5_{r.dataset}_{r.method}_acc"] = r.accuracy
        cite[f"t5_{r.dataset}_{r.method}_frac"] = 100 * r.fraction_used
    return cite


def _disjunction_counts(tables):
    """The learnt disjunctions, and the paper's sixteen among them."""
    found = tables["disjunctions"]
    found_sets = {frozenset(w.strip() for w in d.split("∨")) for d in found["disjunction"]}
    paper_sets = [frozenset(w.strip() for w in d.split("∨"))
                  for d in tables["paper_disjunctions"]["disjunction"]]
    details, dis_acc = tables["table1_details"], tables["disjunctions_accuracy"]["value"]
    return {"dis_n_found": len(found), "dis_n_multi": int((found["size"] > 1).sum()),
            "dis_n_paper_found": sum(p in found_sets for p in paper_sets),
            "ng_uncertified": int(details.loc["20newsgroups", "uncertified folds"]),
            "dis_certified": str(dis_acc["HKL fit"])}


def value_facts(results):
    """The accuracies, fractions and counts the prose cites from the tables."""
    tables = results.tables
    s = table1_summary(results)
    t1, hkl_row, paper_hkl, maj = s["t1"], s["hkl"], s["paper_hkl"], s["majority"]
    cite = {**_table1_values(s), **_tables345_values(tables)}
    out = {k: round(float(v), 2) for k, v in cite.items()}
    out.update(_disjunction_counts(tables))
    monks = ["monks1", "monks2", "monks3"]
    out["hkl_monks"] = join_words([f"{hkl_row[d]:.2f} %" for d in monks])
    out["paper_hkl_monks"] = join_words([f"{paper_hkl[d]:.2f} %" for d in monks])
    m2, maj2 = s["wrappers"]["monks2"], maj["monks2"]
    out.update({"monks2_at": int((m2 - maj2).abs().le(TIE).sum()),
                "monks2_below": int((m2 < maj2 - TIE).sum()),
                "monks2_above": int((m2 > maj2 + TIE).sum()), "monks2_rows": len(m2)})
    # is the paper's LibSVM row closer to the tuned LibSVM or to Weka's defaults?
    paper_l2, tuned_l2 = s["paper"].loc[("all", "L2")], t1.loc[("all tuned (raw)", "L2")]
    default_l2 = t1.loc[(RAW_ALL, "L2")]
    out["paper_l2_closer_tuned"] = int(((paper_l2 - tuned_l2).abs()
                                        < (paper_l2 - default_l2).abs()).sum())
    t4, t5 = tables["table4"], tables["table5"]
    hkl45 = pd.concat([t4[t4.method == "hkl"], t5[t5.method == "hkl"]])
    out["t45_hkl_uncertified"] = int(hkl45["uncertified_folds"].sum())
    out["t45_hkl_fits"] = 4 * len(hkl45)
    return out


def agreement_facts(results, agreement=None):
    """How many of the paper's numbers ours agree with, differ from, or cannot decide."""
    agree = agreement_table(results) if agreement is None else agreement
    out = {f"agree_{k}": int(v) for k, v in agree["agreement"].value_counts().reindex(
        ["agrees", "differs", "inconclusive"], fill_value=0).items()}
    out.update(agree_n=len(agree), agree_margin=AGREEMENT_MARGIN)
    return out


def benchmark_facts():
    """The conic solver's and the pair sources' timings recorded by ``benchmarks/hkl.py``, and one
    20 Newsgroups task at version 9's and version 10's settings (``task_settings``)."""
    fit = read_benchmark("hkl", "conic_fit")["values"]
    task = read_benchmark("hkl", "task")["values"]
    v = read_benchmark("hkl", "pair_sources")["values"]
    ts = read_benchmark("hkl", "task_settings")["values"]
    return {"conic_cpu": format_value(fit["conic"]["cpu_seconds"], 1),
            "mirror_cpu": format_value(fit["mirror"]["cpu_seconds"], 0),
            "conic_obj_diff": format_significant(fit["objective_rel_diff"], 1),
            "task_cpu_min": format_value(task["cpu_seconds"] / 60, 1),
            **{f"pairs_{key}": v[key] for key in ("ratio", "active_nodes", "max_sources")},
            "hkl_max_add": HKL_MAX_ADD,
            "task_v9_cpu_min": format_value(ts["v9_cpu_seconds"] / 60, 1),
            "task_v10_cpu_min": format_value(ts["v10_cpu_seconds"] / 60, 1),
            "task_same": task_agreement_words(ts)}


def task_agreement_words(record):
    """What the side-by-side run of one task at two settings found, in words.

    Examples
    --------
    >>> task_agreement_words({"same_C": True, "same_cv_accuracies": True,
    ...                       "same_test_predictions": True, "all_certified": True})
    'the same C, cross-validated accuracies and test predictions, every fit certified'
    >>> task_agreement_words({"same_C": True, "same_cv_accuracies": False,
    ...                       "same_test_predictions": True, "all_certified": False})
    'the same C and test predictions; other cross-validated accuracies; not every fit certified'
    """
    names = {"same_C": "C", "same_cv_accuracies": "cross-validated accuracies",
             "same_test_predictions": "test predictions"}
    same = [n for k, n in names.items() if record[k]]
    other = [n for k, n in names.items() if not record[k]]
    parts = [f"the same {join_words(same)}"] if same else []
    parts += [f"other {join_words(other)}"] if other else []
    certified = "every fit certified" if record["all_certified"] else "not every fit certified"
    return "; ".join(parts) + (", " if record["all_certified"] and not other else "; ") + certified


# ---- the diagnosis of hepatitis and transfusion -------------------------------------------------


def _diagnosis_dataset_facts(d, r, verdicts):
    f, clf = r["path"][0], r["classifiers"]
    best = clf[list(hkl_diagnosis.STRONG)].max(axis=1)
    out = {f"diag_{key}_{d}": 100 * float(val) for key, val in {
        "hkl": f["accuracy"].mean(), "majority": f["majority"].mean(),
        "full": f["accuracy_full"].mean(), "bound": best.mean(),
        "optimism": (f["cv_accuracy"] - f["accuracy"]).max()}.items()}
    out.update({f"diag_paper_{d}": r["paper"], f"diag_dis_min_{d}": int(f["n_disjunctions"].min()),
                f"diag_dis_max_{d}": int(f["n_disjunctions"].max()),
                f"diag_one_class_{d}": int(f["one_class"].sum()),
                f"diag_n_train_{d}": int(f["n_train"].min()),
                f"diag_c_last_{d}": float(f["C_last"].max())})
    for key, start in (("path", "the same path"), ("majority", "the protocol's HKL vs the majority"),
                       ("linear", "a tuned linear SVM")):
        row = verdict_row(verdicts, d, start)
        out[f"diag_v_{key}_{d}"] = f"{row['verdict']} ({row['result']})"
    rows = verdicts[verdicts["data set"] == d]
    hyp = rows[rows["hypothesis"].str.startswith(("(a) the C path", "(b) ", "(c) ", "(d) "))]
    won = hyp[hyp["verdict"] == "supported"]["hypothesis"].unique()
    out[f"diag_supported_{d}"] = "; ".join(won) if len(won) else "none"
    split = verdict_row(verdicts, d, "the paper's HKL")
    out[f"diag_paper_gap_{d}"] = float(split["diff"])
    out[f"diag_paper_gap_se_{d}"] = float(split["se"])
    out[f"diag_gap_{d}"] = float(r["paper"] - 100 * f["accuracy"].mean())
    return out


def diagnosis_facts(diagnosis):
    """The diagnosis's numbers and verdicts (``diagnosis``: :func:`~fsbook.experiments.hkl.
    diagnosis.run_diagnosis`'s output on :data:`~fsbook.experiments.hkl.diagnosis.DATASETS`)."""
    verdicts = hkl_diagnosis.diagnosis_table(diagnosis)
    sets = [d for d in diagnosis if d != "cpu_seconds"]
    folds = pd.concat({d: diagnosis[d]["path"][0] for d in sets}, names=["data set"])
    changed = folds[folds["C_simplest"] != folds["C"]]
    where = [f"{d}, fold {f}: {100 * a:.2f} % → {100 * b:.2f} %"
             for (d, f), a, b in zip(changed.index, changed["accuracy_simplest"], changed["accuracy"])]
    out = {"diag_hkl_version": VERSION, "diag_tie_changed": f"{len(changed)} of the {len(folds)}",
           "diag_tie_changed_where": join_words(where) or "none",
           "diag_max_Cs": hkl_diagnosis.MAX_CS, "diag_patience": hkl_diagnosis.PATIENCE,
           "diag_n_folds": len(diagnosis[sets[0]]["path"][0])}
    for d in sets:
        out.update(_diagnosis_dataset_facts(d, diagnosis[d], verdicts))
    empty = verdicts["experiment"].str.startswith("disjunctions selected")
    out["diag_v_empty"] = ("supported" if (verdicts[empty]["verdict"] == "supported").any()
                           else "not supported")
    return out


# ---- the tuned L1-SVM's gap to the paper ---------------------------------------------------------


def gap_explanations(results, ablations):
    """:func:`fsbook.experiments.hkl.ablations.explanation_table` against the ``hkl`` store's
    own L1-SVM folds (``results``; ``ablations``: the ``hkl_ablations`` store)."""
    return hkl_ablations.explanation_table(ablations, reference=table3_fold_accuracy(results, "L1"))


def gap_facts(why):
    """The gap, each explanation's verdict, the largest change and the ℓ2 penalty's reading
    (``why``: :func:`gap_explanations`)."""
    out = {f"gap_{key}": round(why.attrs[key], 2) for key in ("gap", "stored", "paper")}
    for verdict in (hkl_ablations.EXPLAINS, hkl_ablations.EXPLAINS_PART,
                    hkl_ablations.DOES_NOT_EXPLAIN, hkl_ablations.INCONCLUSIVE):
        names = why.loc[why["verdict"] == verdict, "explanation"]
        out[f"gap_{verdict.replace(' ', '_')}"] = join_words(names)
    best = why.loc[why["change"].idxmax()]
    out.update(gap_best=best["explanation"], gap_best_setting=best["setting"],
               gap_best_acc=round(float(best["accuracy"]), 2),
               gap_best_change=round(float(best["change"]), 2))
    l2 = why.set_index("setting").loc["ℓ1 → ℓ2"]
    out.update(gap_l2_acc=round(float(l2["accuracy"]), 2), gap_l2_verdict=l2["verdict"],
               gap_l2_reading="is consistent with" if l2["verdict"] == "explains" else "does not support")
    return out

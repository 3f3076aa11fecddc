"""The chapter's claims, decided on the stored per-split results (:func:`claims`), the cost of
the LP against the SDP on a benchmark record (:func:`sdp_cost_claims`), and the hypotheses about
the weak mixture's zero kernel on the regimes' record (:func:`regime_claims`).

Per data set the plain paired t-test over the splits or folds, except the selection check's claims,
decided by the paired t over the means of its repetitions of 5-fold CV (:func:`fsbook.claims.fold_test`);
Holm within each figure; over the data sets the Wilcoxon signed-rank test, in
families of their own; "about the same" claims by the engine's equivalence verdict, *no gain*
within :data:`EQUIVALENCE_MARGIN`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import (
    NOT_SEPARABLE,
    Claim,
    claims_table,
    equivalence_verdicts,
    evaluate,
    evaluate_over_datasets,
    fold_test,
)
from fsbook.decisions import SCORE_ATOL, argbest
from fsbook.experiments.kernel_design.paper import (
    DATASETS,
    MIXTURES,
    PAPER_INDEX,
    PAPER_NAMES,
    SELECTION_DATASETS,
    SINGLES,
)
from fsbook.experiments.kernel_design.tables import LABELS, selection_runs
from fsbook.experiments.kernel_design.tasks import load

#: the paper's exceptions, by claim: data sets on which the paper itself says the claim does not
#: hold (Section 3.2); they are decided and shown, but left out of the test over the data sets
PAPER_EXCEPTIONS = {
    "full mixture above the best single kernel": ("boston", "iris", "wdbc", "pima"),
    "weak mixture keeps fewer than D features": ("balance_scale",),
    "weak mixture (α ≥ 0, ours) keeps fewer than D features": ("balance_scale",),
    "weak mixture above MMC": ("balance_scale",),
    "weak mixture (α ≥ 0, ours) above MMC": ("balance_scale",),
}
#: the margin of the "about the same" claims (fraction of test triples, or accuracy), declared before
#: looking: two points of a fraction, about one test triple in fifty (or one test sample in fifty),
#: well below the differences between kernels the paper's figures show.  It is the ``margin`` of
#: their :class:`~fsbook.claims.Claim`: the engine's verdict :data:`~fsbook.claims.NO_GAIN` (the 90 %
#: interval inside ±margin, the two one-sided tests) is what confirms such a claim
EQUIVALENCE_MARGIN = 0.02
#: the test of every per-data-set claim but the selection check's: the plain paired t over the splits
#: (or the folds of one partition: Figure 2's count of kept features); see :mod:`fsbook.claims`.
#: The selection check runs :data:`~fsbook.experiments.kernel_design.paper.SELECTION_REPEATS`
#: independent repetitions of 5-fold CV, and its claims (features kept, accuracy) are decided by the
#: paired t over the repetition means (:func:`fsbook.claims.fold_test`: ``"repeated_cv_t"``, unit
#: ``"repetitions"``), which are independent given the data set; the effect is the mean over the
#: repetitions of the 5-fold CV difference, in features or in accuracy (a fraction, like
#: :data:`EQUIVALENCE_MARGIN`).  The calibration record measures this design ("10 × 5-fold CV").
TEST = "paired_t"
#: the suffix of the Holm families of the rows over the data sets
OVER_SUFFIX = " (over data sets)"
#: the fewest data sets over which a two-sided Wilcoxon signed-rank test can reach p < 0.05 (2 / 2**6)
MIN_WILCOXON_DATASETS = 6
#: the claims decided as equivalences ("about the same"), not as differences
EQUIVALENCE_CLAIMS = ("linear ≈ polynomial of degree 2",
                      "SVM accuracy on kept features ≈ on all features")
BEST_SINGLE = "best single kernel"


def _frame(results):
    params, res = (results.params, results.results) if hasattr(results, "params") else results
    return pd.DataFrame([{**p, **r} for p, r in zip(params, res)])


def _per_split(df, dataset, method, column="score"):
    """One value per split (index: split) of a method on a data set; ``NaN`` where undefined."""
    g = df[(df.dataset == dataset) & (df.method == method)]
    return pd.Series(pd.to_numeric(g[column], errors="coerce").to_numpy(dtype=float),
                     index=g["split"].to_numpy()).sort_index()


def best_single_kernel(df, dataset):
    """The single kernel with the highest mean score over the splits (the first of tied ones, in
    the order of :data:`SINGLES`): the one the claims of Figure 1 compare with."""
    means = [float(_per_split(df, dataset, "singles", k).mean()) for k in SINGLES]
    return list(SINGLES)[argbest(means, atol=SCORE_ATOL)]


def _paired_row(claim, a, b, *, note=""):
    """:func:`fsbook.claims.evaluate` on the units where both values are defined."""
    a, b = a.align(b, join="inner")
    ok = a.notna() & b.notna()
    if not ok.all():
        dropped = int((~ok).sum())
        note = (note + "; " if note else "") + (
            f"undefined on all {dropped} units" if not ok.any() else f"undefined on {dropped} units, dropped")
    row = evaluate(claim, a[ok].to_numpy(), b[ok].to_numpy(), note=note)
    row["dataset"] = claim.dataset
    return row


def _claim_rows(df):
    rows = []

    def claim(text, a, b, table, dataset, unit="splits", better="higher", test=TEST):
        return Claim(text, a=a, b=b, better=better, unit=unit, test=test, table=table, dataset=dataset,
                     margin=EQUIVALENCE_MARGIN if text in EQUIVALENCE_CLAIMS else None)

    for d in DATASETS:
        if df[(df.dataset == d) & (df.method == "singles")].empty:
            continue
        best = best_single_kernel(df, d)
        single = _per_split(df, d, "singles", best)
        lab = {m: LABELS[m] for m in LABELS}
        for m, text in (("weak", "weak mixture above the best single kernel"),
                        ("weak_nonneg", "weak mixture (α ≥ 0, ours) above the best single kernel"),
                        ("full", "full mixture above the best single kernel")):
            r = _paired_row(claim(text, lab[m], BEST_SINGLE, "Figure 1", d),
                            _per_split(df, d, m), single)
            rows.append({**r, "best_single": best})
        rows.append(_paired_row(claim(EQUIVALENCE_CLAIMS[0], "Linear", "Poly degree 2", "Figure 1", d),
                                _per_split(df, d, "singles", "Linear"),
                                _per_split(df, d, "singles", "Poly degree 2")))
        D = float(load(d)[0].shape[1])
        cv10 = _per_split(df, d, "weak_cv10", "n_selected")
        text = "weak mixture keeps fewer than D features"
        c = claim(text, "features kept", "D", "Figure 2", d, unit="folds", better="lower")
        zero = df[(df.dataset == d) & (df.method == "weak")]["alpha"].map(lambda a: not np.any(a))
        if len(cv10) and (cv10 == 0).all() and zero.all():
            # α = 0: the learnt kernel is zero and selects nothing; "fewer than D" would be vacuous
            r = evaluate(c, [], [], note="untestable: α = 0 in every fit, no kernel is learnt")
            rows.append({**r, "dataset": d})
        else:
            rows.append(_paired_row(c, cv10, pd.Series(D, index=cv10.index)))
        nn = _per_split(df, d, "weak_nonneg", "n_selected")
        rows.append(_paired_row(claim("weak mixture (α ≥ 0, ours) keeps fewer than D features", "features kept",
                                      "D", "Figure 2", d, better="lower"),
                                nn, pd.Series(D, index=nn.index)))
        mmc = _per_split(df, d, "mmc")
        for m, text in (("weak", "weak mixture above MMC"),
                        ("weak_nonneg", "weak mixture (α ≥ 0, ours) above MMC"),
                        ("full", "full mixture above MMC (ours)")):
            rows.append(_paired_row(claim(text, lab[m], lab["mmc"], "Figure 3", d),
                                    _per_split(df, d, m), mmc))
        nn_score = _per_split(df, d, "weak_nonneg")
        for m, text in (("full", "weak mixture (α ≥ 0) above the full mixture"),
                        ("nca", "weak mixture (α ≥ 0) above NCA")):
            rows.append(_paired_row(claim(text, lab["weak_nonneg"], lab[m], "our additions", d),
                                    nn_score, _per_split(df, d, m)))
    for d in SELECTION_DATASETS:
        if df[(df.dataset == d) & (df.method == "selection")].empty:
            continue
        rows += _selection_rows(claim, df, d)
    return rows


def _selection_rows(claim, df, dataset):
    """The selection check's two claims on ``dataset``, on its (repetitions × folds) results
    (:func:`~fsbook.experiments.kernel_design.tables.selection_runs`), by the test
    :func:`fsbook.claims.fold_test` picks: the paired t over the repetition means.  A repetition
    with an undefined fold (no feature kept) is dropped from the accuracy claim, with a note."""
    kept = selection_runs(df, dataset, "n_kept")
    D = np.full(kept.shape, float(load(dataset)[0].shape[1]))
    count = claim("the selector keeps fewer than D features", "features kept", "D", "selection check",
                  dataset, better="lower", **fold_test(kept.to_numpy()))
    rows = [{**evaluate(count, kept.to_numpy(), D), "dataset": dataset}]
    acc_kept, acc_all = (selection_runs(df, dataset, c) for c in ("acc_kept", "acc_all"))
    whole = acc_kept.notna().all(axis=1) & acc_all.notna().all(axis=1)
    note = "" if whole.all() else f"{int((~whole).sum())} repetitions with a fold that kept no feature, dropped"
    a, b = acc_kept[whole].to_numpy(), acc_all[whole].to_numpy()
    accuracy = claim(EQUIVALENCE_CLAIMS[1], "kept features", "all features", "selection check", dataset,
                     **fold_test(a))
    rows.append({**evaluate(accuracy, a, b, note=note), "dataset": dataset})
    return rows


def claims(results) -> pd.DataFrame:
    """The chapter's claims, decided per data set on the stored per-split results, and over the data
    sets by the Wilcoxon signed-rank test (:func:`fsbook.claims.evaluate_over_datasets`).

    Every claim pairs two methods (or a method and the number of features ``D``) over the units
    the store holds: the 10 random splits or the folds of Figure 2's 10-fold CV, by the plain paired
    t-test (:data:`TEST`; the paper's quantity is the mean over its resampling of this data set);
    the selection check's claims pair the means of its repetitions of 5-fold CV, by the paired t
    over them (:func:`fsbook.claims.fold_test`).  Holm's correction runs within each table (``Figure 1``,
    ``Figure 2``, ``Figure 3``, ``our additions``, ``selection check``); the rows over the data sets
    form the families ``<table> (over data sets)`` (:data:`OVER_SUFFIX`).  The paper's own exceptions
    (:data:`PAPER_EXCEPTIONS`) are decided and shown but left out of the test over the data sets.
    The claims of :data:`EQUIVALENCE_CLAIMS` ("about the same") carry the margin
    :data:`EQUIVALENCE_MARGIN`: the engine's *no gain* (90 % interval inside the margin) is such a
    claim *holding*, a significant difference either way its *failing* (:func:`fsbook.claims.equivalence_verdicts`;
    the engine's verdict on the difference stays in the column ``difference``).

    Parameters
    ----------
    results : ProtocolResult or (params, results)
        What ``read_store(PROTOCOL)`` returns (its ``params`` and per-task ``results``).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`fsbook.claims.COLUMNS`, plus ``dataset`` (empty on the rows over the
        data sets), ``counted`` (whether a data set's row enters the test over the data sets),
        ``best_single`` (Figure 1) and ``difference`` (the equivalence claims' verdict on the
        difference, see above).

    Examples
    --------
    >>> from fsbook.experiments import read_store
    >>> from fsbook.experiments.kernel_design import PROTOCOL
    >>> from fsbook.experiments.kernel_design.claims import claims
    >>> table = claims(read_store(PROTOCOL))
    >>> row = table[(table.claim == "full mixture above MMC (ours)") & (table.dataset == "")]
    >>> row["test"].item(), int(row["n"].item()), row["table"].item()
    ('wilcoxon', 8, 'Figure 3 (over data sets)')
    """
    df = _frame(results)
    if df.empty:
        raise ValueError("no stored task to decide the claims on")
    mixt = df[df.method.isin(list(MIXTURES))]
    if mixt.empty:
        raise ValueError("the claims need the mixtures' tasks; none is stored")
    per = equivalence_verdicts(claims_table(_claim_rows(df)), EQUIVALENCE_CLAIMS)
    per["counted"] = [r["dataset"] not in PAPER_EXCEPTIONS.get(r["claim"], ()) for _, r in per.iterrows()]
    per["note"] = [n if c else "; ".join(x for x in (n, "the paper's exception, not counted") if x)
                   for n, c in zip(per["note"], per["counted"])]
    overall = []
    for (table, text), g in per.groupby(["table", "claim"], sort=False):
        counted = g[g["counted"]]
        if counted.empty:          # a partial store that holds only the paper's exceptions
            row = evaluate_over_datasets(g, text, table=table + OVER_SUFFIX)
            row.update(n=0, n_direction=0, p=float("nan"), verdict=NOT_SEPARABLE,
                       note="only the paper's exceptions are stored")
        else:
            row = evaluate_over_datasets(counted, text, table=table + OVER_SUFFIX)
        overall.append({**row, "dataset": "", "counted": False})
    return pd.concat([per, equivalence_verdicts(claims_table(overall), EQUIVALENCE_CLAIMS)], ignore_index=True)


#: how :func:`claim_rows` labels the row over the data sets
OVER_LABEL = "all data sets (Wilcoxon)"


def claim_rows(table, claim):
    """The rows of one claim, labelled for :func:`fsbook.report.claims_display`: the data set's
    paper index and name in ``claim`` (and the best single kernel where it is compared), the
    row over the data sets last, labelled "all data sets (Wilcoxon)"."""
    rows = table[table["claim"] == claim].copy()
    if rows.empty:
        raise ValueError(f"no claim {claim!r} in the table")

    def label(r):
        if not r["dataset"]:
            return OVER_LABEL
        name = f"{PAPER_INDEX[r['dataset']]}. {PAPER_NAMES[r['dataset']]}"
        best = r.get("best_single")
        return f"{name} (vs {best})" if isinstance(best, str) and best else name

    rows["claim"] = [label(r) for _, r in rows.iterrows()]
    return rows


#: the solvers of benchmarks/kernel_design_sdp.py compared by :func:`sdp_cost_claims`: record key, label
SDP_COST_SOLVERS = {"lp_cutting_plane": "LP, cutting planes", "lp_full": "LP, direct HiGHS",
                    "sdp_clarabel": "SDP, Clarabel"}


def sdp_cost_claims(rows):
    """Claim (i) "the LP is cheaper than the SDP", decided over data sets on a benchmark record.

    For each kernel family (``"full"``, ``"weak"``) and each LP solver (cutting planes, direct
    HiGHS), the claim that the LP takes less CPU time than the SDP (Clarabel) is decided by the
    Wilcoxon signed-rank test over the data sets, on the log10 CPU times (so the paired
    difference is the log10 of the SDP/LP time ratio); the four claims form one Holm family.  With
    nine data sets the smallest two-sided p is ``2 / 2**9``, below ``0.05 / 4``: every claim of the
    family can pass.

    Parameters
    ----------
    rows : list of dict
        The rows of section ``"datasets"`` of ``benchmarks/results/kernel_design_sdp.json``
        (:func:`fsbook.benchmark_records.read_benchmark`): one per data set and ``variant``,
        each with ``cpu_seconds`` under the keys of :data:`SDP_COST_SOLVERS`.

    Returns
    -------
    pandas.DataFrame
        A claims table (:func:`fsbook.claims.claims_table`) with a column ``variant``; the effect
        is the Hodges–Lehmann estimate of the log10 of the SDP/LP time ratio over the data sets.

    Examples
    --------
    >>> rows = [{"dataset": f"d{i}", "variant": v, "lp_cutting_plane": {"cpu_seconds": 0.01},
    ...          "lp_full": {"cpu_seconds": 0.1}, "sdp_clarabel": {"cpu_seconds": 1.0 + i}}
    ...         for i in range(9) for v in ("full", "weak")]
    >>> table = sdp_cost_claims(rows)
    >>> table["verdict"].tolist()
    ['holds', 'holds', 'holds', 'holds']
    >>> round(float(table["effect"].iloc[0]), 2)      # Hodges–Lehmann estimate of log10(SDP / LP)
    2.65
    """
    out = []
    for variant in ("full", "weak"):
        rs = [r for r in rows if r["variant"] == variant]
        if len({r["dataset"] for r in rs}) != len(rs) or not rs:
            raise ValueError(f"the {variant!r} rows must hold each data set once, got {len(rs)} rows")
        sdp = np.log10([r["sdp_clarabel"]["cpu_seconds"] for r in rs])
        for key in ("lp_cutting_plane", "lp_full"):
            label = SDP_COST_SOLVERS[key]
            claim = Claim(f"{label} faster than the SDP, {variant} kernels", a=label,
                          b=SDP_COST_SOLVERS["sdp_clarabel"], better="lower", unit="data sets",
                          test="wilcoxon", table="LP cheaper than SDP")
            lp = np.log10([r[key]["cpu_seconds"] for r in rs])
            out.append({**evaluate(claim, lp, sdp), "variant": variant})
    return claims_table(out)



#: the hypotheses of :func:`regime_claims`: each regime against the protocol's own ("ours")
REGIME_HYPOTHESES = {"raw features": "(a) raw features", "narrow widths": "(b) narrower widths",
                     "wide widths": "(b) wider widths", "dominance per triple": "(c) dominance per triple",
                     "raw, dominance per triple": "(a + c) raw features, dominance per triple",
                     "α ≥ 0 (ours)": "(d) α ≥ 0 instead of dominance"}


def regime_claims(df):
    """The hypotheses about the zero kernel, decided on :func:`weak_kernel_regimes`'s rows.

    Table ``"zero kernel"``: per hypothesis of :data:`REGIME_HYPOTHESES`, "α ≠ 0 more often than
    with ours": the indicator ``1 − alpha_zero`` paired fit by fit (data set and split) with ours,
    over all the fits of the rows (``dataset == ""``), by the exact sign test (McNemar's test on the
    paired indicators).  A per-data-set test could not decide it: five splits that all go one way
    give the sign test its smallest p, ``2 / 2**5 > 0.05``.  Table ``"in the regime"``: per data
    set, where a regime learns a non-zero kernel, "above the best single kernel" (``score``
    against ``best_single`` of the same scaling and test triples) and "fewer than D features"
    (``n_selected`` against ``D``), by the plain paired t-test over the splits (:data:`TEST`).
    Holm within each table; then the Wilcoxon signed-rank test over the data sets (rows with
    ``dataset == ""``, families ``<table> (over data sets)``) where the rows hold at least
    :data:`MIN_WILCOXON_DATASETS` data sets; with fewer (the record's three) no claim over the data
    sets is testable and none is made.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.kernel_design.claims import regime_claims
    >>> rows = [{"dataset": "iris", "split": s, "regime": r, "alpha_zero": r == "ours", "D": 4,
    ...          "n_selected": 0 if r == "ours" else 2 + s % 2, "score": 0.0 if r == "ours" else 0.9 + 0.01 * s,
    ...          "best_single": 0.85} for s in range(6) for r in ("ours", "dominance per triple")]
    >>> t = regime_claims(pd.DataFrame(rows))
    >>> t[t.dataset == "iris"]["verdict"].tolist()          # fewer than D, above the best single kernel
    ['holds', 'holds']
    >>> t[t.dataset == ""][["test", "n", "verdict"]].values.tolist()   # α ≠ 0: the six fits, pooled
    [['sign', 6, 'holds']]
    """
    ours = df[df.regime == "ours"]
    rows = []

    def one(text, table, d, a, b, va, vb, better="higher"):
        c = Claim(text, a=a, b=b, better=better, unit="splits", test=TEST, table=table, dataset=d)
        return _paired_row(c, va, vb)

    key = ["dataset", "split"]
    for regime, label in REGIME_HYPOTHESES.items():
        pair = df[df.regime == regime][key + ["alpha_zero"]].merge(ours[key + ["alpha_zero"]], on=key,
                                                                   suffixes=("", "_ours"))
        if pair.empty:
            continue
        names = ", ".join(dict.fromkeys(pair["dataset"]))
        c = Claim(f"{label}: α ≠ 0 more often than ours", a=regime, b="ours", better="higher", unit="runs",
                  test="sign", table="zero kernel")
        rows.append({**evaluate(c, 1.0 - pair["alpha_zero"].astype(float), 1.0 - pair["alpha_zero_ours"].astype(float),
                                note=f"the fits of {names}, pooled"), "dataset": ""})
    for regime, label in REGIME_HYPOTHESES.items():
        sub = df[df.regime == regime]
        for d in dict.fromkeys(sub["dataset"]):
            g = sub[sub.dataset == d].set_index("split").sort_index()
            if g["alpha_zero"].all():
                continue
            rows.append(one(f"{label}: fewer than D features", "in the regime", d, "features kept", "D",
                            g["n_selected"].astype(float), g["D"].astype(float), better="lower"))
            rows.append(one(f"{label}: above the best single kernel", "in the regime", d, regime,
                            BEST_SINGLE, g["score"].astype(float), g["best_single"].astype(float)))
    per = claims_table(rows)
    if per.empty:
        return per
    overall = [{**evaluate_over_datasets(g, text, table=table + OVER_SUFFIX), "dataset": ""}
               for (table, text), g in per[per.dataset != ""].groupby(["table", "claim"], sort=False)
               if g["dataset"].nunique() >= MIN_WILCOXON_DATASETS]
    return pd.concat([per, claims_table(overall)], ignore_index=True) if overall else per

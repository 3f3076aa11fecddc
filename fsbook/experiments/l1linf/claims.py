"""The claims of the l1/linf chapter: Table 1's, the figures', the text's remark on Figures 3
and 4, the agreement of our means with the printed ones, and the explanations of the gaps.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import (
    COLUMNS,
    FAILS,
    HOLDS,
    NO_GAIN,
    NOT_SEPARABLE,
    Claim,
    agreement,
    claims_table,
    evaluate,
    evaluate_over_datasets,
    fold_test,
    repetition_folds,
    sample_margin_row,
)
from fsbook.experiments.l1linf.paper import (
    AGREEMENT_MARGIN,
    FIGURES,
    MARGIN_SAMPLES,
    METHODS,
    N_FOLDS,
    NAMES,
    SHARED_DATASETS,
    TABLE1_K,
    paper_value,
)
from fsbook.experiments.l1linf.tables import fold_errors, partition_errors, sample_outcomes

#: the test of a comparison where only one 5-fold partition is stored (a partial store): the
#: exact sign test (McNemar's exact test) on its test samples, pooled over its folds: each sample
#: is tested once, so its paired outcomes are the units (the paper's estimand is the CV error of
#: *this* data set; see :mod:`fsbook.claims`).  The effect is the difference of the pooled errors
#: in points.  With the full store's partitions
#: (:data:`~fsbook.experiments.l1linf.paper.TABLE1_REPEATS`) every comparison is decided by
#: :data:`REPEATED_TEST` instead.
TEST = "sign"
#: the test of the comparisons (Table 1's and the figures') on repeated 5-fold CV: the paired t
#: over the repetition means (:func:`fsbook.claims.fold_test`), whose units are independent given
#: the data set; the effect is the mean over the repetitions of the 5-fold CV difference, in points
REPEATED_TEST = "repeated_cv_t"
#: the test of the explanations, which store fold errors only: the plain paired t over the folds
FOLD_TEST = "paired_t"
#: the level of the rows of Table 1's claims over :data:`SHARED_DATASETS` (the Wilcoxon test over
#: the data sets, in a Holm family of their own: :data:`OVER_DATASETS_FAMILY`)
OVER_DATASETS = "over data sets"
OVER_DATASETS_FAMILY = "Table 1 (over data sets)"
#: the claims of Table 1 (the paper: "HSFS is consistently the best in all cases. It is followed
#: by FOHSIC"; "LDFS performs consistently much better than ... the Laplacian score")
CLAIM_HSFS = "HSFS lowest of the seven"
CLAIM_FOHSIC = "FOHSIC lower than the five others"
CLAIM_LDFS = "LDFS lower than LS"
#: the claims of the text on Figures 3 and 4 (ARCENE here; GISETTE is missing)
CLAIM_ARCENE_4 = "FOHSIC lower than HSFS at k = 4"
CLAIM_ARCENE_LATER = "HSFS lower than FOHSIC at k = 6, 8 and 10"
#: the columns a claims table of this chapter adds to :data:`fsbook.claims.COLUMNS`
EXTRA_COLUMNS = ["dataset", "k", "level", "margin"]


def _paired(errors, dataset, k, a, b):
    """Errors of ``a`` and ``b`` on the same test samples of ``dataset`` at ``k``."""
    sub = errors[(errors.dataset == dataset) & (errors.k == k)]
    wide = sub.pivot(index="unit", columns="method", values="error")
    missing = [m for m in (a, b) if m not in wide.columns]
    if missing:
        raise ValueError(f"no stored errors of {missing} on {dataset} at k = {k}")
    pair = wide[[a, b]]
    if pair.isna().any().any():
        raise ValueError(f"{a} and {b} are not stored on the same folds of {dataset} at k = {k}")
    return pair[a].to_numpy(), pair[b].to_numpy()


def _pair(errors, claim, dataset, k, a, b, table):
    va, vb = _paired(errors, dataset, k, a, b)
    return {**sample_margin_row(claim, va, vb, n_samples=va.size, margin_samples=MARGIN_SAMPLES, a=a, b=b,
                                better="lower", unit="samples", test=TEST, table=table, dataset=dataset),
            "k": k, "level": "pair"}


def better_than_each(pairs, claim):
    """One row: ``a`` better than each ``b`` of ``pairs`` (rows of one claims table, already
    Holm-adjusted), by the chapter's rule for "lowest of several".

    The claim *holds* when it holds against every other method, *fails* when some method is
    significantly better than ``a``, is *no gain* when it neither fails nor holds and ``a`` is
    equivalent to some method (within the margin), and is *not separable* otherwise.  The row
    carries the decisive comparison: the failing one with the smallest adjusted p-value, the
    holding one with the largest (the intersection-union test), the equivalent one, or else the
    strongest rival (the smallest effect).

    Examples
    --------
    >>> import pandas as pd
    >>> pairs = pd.DataFrame({"table": "T", "a": "A", "b": ["B", "C"], "unit": "folds", "n": 5,
    ...                       "effect": [2.0, 0.5], "se": [0.5, 0.4], "ci_low": [0.6, -0.6],
    ...                       "ci_high": [3.4, 1.6], "test": "paired_t", "p": [0.01, 0.3],
    ...                       "p_adj": [0.02, 0.3], "verdict": ["holds", "not separable"],
    ...                       "dataset": "wine", "k": 2})
    >>> row = better_than_each(pairs, "A lowest")
    >>> row["verdict"], row["b"], row["note"]
    ('not separable', 'C', 'strongest rival: C; holds against 1, fails against 0 of 2')
    """
    if pairs.empty:
        raise ValueError(f"no pairwise rows for {claim!r}")
    if pairs["a"].nunique() != 1 or pairs["dataset"].nunique() != 1 or pairs["k"].nunique() != 1:
        raise ValueError("better_than_each needs the rows of one method on one data set at one k")
    v = pairs["verdict"]
    if (v == FAILS).any():
        verdict, decisive = FAILS, pairs[v == FAILS]["p_adj"].idxmin()
        word = "beaten by"
    elif (v == HOLDS).all():
        verdict, decisive = HOLDS, pairs["p_adj"].idxmax()
        word = "weakest"
    elif (v == NO_GAIN).any():
        verdict, decisive = NO_GAIN, pairs[v == NO_GAIN]["effect"].abs().idxmin()
        word = "no gain over"
    else:
        verdict, decisive = NOT_SEPARABLE, pairs["effect"].idxmin()
        word = "strongest rival"
    row = pairs.loc[decisive].to_dict()
    row.update(claim=claim, verdict=verdict, level="data set",
               note=f"{word}: {row['b']}; holds against {int((v == HOLDS).sum())}, "
                    f"fails against {int((v == FAILS).sum())} of {len(pairs)}")
    return row


def _repeated(partitions, dataset, method, k):
    """``method``'s fold errors on ``dataset`` at ``k``, shape (repetitions, folds)."""
    sub = partitions[(partitions.dataset == dataset) & (partitions.method == method) & (partitions.k == k)]
    return repetition_folds(sub, "error", f"{method} on {dataset} at k = {k}")


def _repeated_pair(partitions, n_samples, claim, dataset, k, a, b, table):
    """The comparison of ``a`` and ``b`` on ``dataset`` at ``k`` over its repetitions of 5-fold
    CV (:data:`REPEATED_TEST`); the margin is one test sample of one repetition."""
    va, vb = _repeated(partitions, dataset, a, k), _repeated(partitions, dataset, b, k)
    if va.shape != vb.shape:
        raise ValueError(f"{a} and {b} are not stored on the same repetitions of {dataset} at k = {k}")
    return {**sample_margin_row(claim, va, vb, n_samples=n_samples, margin_samples=MARGIN_SAMPLES, a=a, b=b,
                                better="lower", table=table, dataset=dataset, **fold_test(va)),
            "k": k, "level": "pair"}


def _decide_pair(errors, partitions, claim, dataset, k, a, b, table):
    """A comparison at one k: over the repetitions of 5-fold CV where both methods are stored on
    more than one partition at that k (:func:`_repeated_pair`), else on the pooled samples of the
    one partition (:func:`_pair`)."""
    at = partitions[(partitions.dataset == dataset) & (partitions.k == k) & partitions.method.isin([a, b])]
    if at.groupby("method")["repeat"].nunique().reindex([a, b]).min() > 1:
        n_samples = len(errors[(errors.dataset == dataset) & (errors.k == k) & (errors.method == a)])
        return _repeated_pair(partitions, n_samples, claim, dataset, k, a, b, table)
    return _pair(errors, claim, dataset, k, a, b, table)


def _table1_pairs(errors, partitions, datasets):
    """Table 1's comparisons at Table 1's k (:func:`_decide_pair`)."""
    rows = []
    for ds in datasets:
        k = TABLE1_K[ds]
        rows += [_decide_pair(errors, partitions, CLAIM_HSFS, ds, k, "HSFS", m, "Table 1")
                 for m in METHODS if m != "HSFS"]
        rows += [_decide_pair(errors, partitions, CLAIM_FOHSIC, ds, k, "FOHSIC", m, "Table 1")
                 for m in METHODS if m not in ("HSFS", "FOHSIC")]
        rows.append(_decide_pair(errors, partitions, CLAIM_LDFS, ds, k, "LDFS", "LS", "Table 1"))
    return rows


def _curve_pairs(errors, partitions, datasets):
    """The figures' comparisons at each of their k (:func:`_decide_pair`), and the text's remark
    on Figures 3 and 4."""
    rows = []
    for ds in datasets:
        family = f"{FIGURES.get(ds, 'curve (ours only)')}, {NAMES[ds]}"
        for k in sorted(errors.loc[(errors.dataset == ds) & (errors.method == "HSFS"), "k"].unique()):
            rows += [_decide_pair(errors, partitions, CLAIM_HSFS, ds, int(k), "HSFS", m, family)
                     for m in METHODS if m != "HSFS"]
    arcene_ks = set(errors.loc[errors.dataset == "arcene", "k"])
    if {4, 6, 8, 10} <= arcene_ks:
        family = "Figures 3 and 4, text"
        rows.append(_decide_pair(errors, partitions, CLAIM_ARCENE_4, "arcene", 4, "FOHSIC", "HSFS", family))
        rows += [_decide_pair(errors, partitions, CLAIM_ARCENE_LATER, "arcene", k, "HSFS", "FOHSIC", family)
                 for k in (6, 8, 10)]
    return rows


def _per_dataset(pairs):
    """Rows of level "data set": a composite for each "lowest of" claim, the pair itself otherwise."""
    rows = []
    for (_, claim, _, _), g in pairs.groupby(["table", "claim", "dataset", "k"], sort=False):
        if claim in (CLAIM_HSFS, CLAIM_FOHSIC):
            rows.append(better_than_each(g, claim))
        elif claim == CLAIM_ARCENE_LATER:
            continue
        else:
            rows.append({**g.iloc[0].to_dict(), "level": "data set"})
    later = pairs[pairs.claim == CLAIM_ARCENE_LATER]
    if len(later):
        v = later["verdict"]
        verdict = FAILS if (v == FAILS).any() else HOLDS if (v == HOLDS).all() else NOT_SEPARABLE
        row = later.loc[later["effect"].idxmin()].to_dict()
        row.update(verdict=verdict, level="data set",
                   note=f"weakest at k = {row['k']}; holds at {int((v == HOLDS).sum())} of {len(later)} k")
        rows.append(row)
    return rows


def claims(results):
    """The chapter's claims table, decided on the store's repetitions of 5-fold CV.

    Every comparison (Table 1's, at its k, and the figures', at each of theirs) pairs two
    methods' 5-fold CV errors on the same partitions of a data set and is decided by the paired t
    over the repetition means (:data:`REPEATED_TEST`): the paper's quantity is the 5-fold CV
    error of this data set.  Where the store holds one partition only (a partial store), the
    comparison pairs the two methods over the same test samples of its five folds, pooled, and is
    decided by the exact sign test on the samples where one is right and the other wrong
    (:data:`TEST`, McNemar's exact test).  Holm's correction runs within a family: Table 1 (all its comparisons), each
    figure's curve, and the text's remark on Figures 3 and 4.  "HSFS lowest of the seven" and
    "FOHSIC lower than the five others" are decided by :func:`better_than_each` on the adjusted
    comparisons with each other method.  The general claims of Table 1 are tested over
    :data:`SHARED_DATASETS` by the Wilcoxon signed-rank test on the per-data-set effects, in their
    own family (:data:`OVER_DATASETS_FAMILY`); over five data sets a two-sided Wilcoxon test
    cannot reach ``p < 0.05`` (its smallest p is ``2 / 2**5``), so those rows are untestable
    and *not separable*, whatever the effects.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)``; the data sets and k it holds are the ones decided.

    Returns
    -------
    DataFrame
        The columns of :data:`fsbook.claims.COLUMNS` and :data:`EXTRA_COLUMNS`; ``level`` is
        ``"pair"`` (one comparison), ``"data set"`` (a claim on one data set at one k) or
        ``"over data sets"`` (:data:`OVER_DATASETS`: Table 1's claims over the shared data sets).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> params, res = [], []
    >>> for i, m in enumerate(METHODS):
    ...     for fold in range(N_FOLDS):
    ...         params.append({"dataset": "wine", "method": m, "fold": fold, "ks": [2],
    ...                        "selection": "fold"})
    ...         res.append({"errors": [0.0], "C": [1.0], "supports": [[0, 1]],
    ...                     "outcomes": ["1" * (30 - 3 * i) + "0" * (3 * i)]})
    >>> table = claims(SimpleNamespace(params=params, results=res))
    >>> rows = table[(table.level == "data set") & (table.table == "Table 1")]
    >>> rows.set_index("claim")["verdict"].to_dict()
    {'HSFS lowest of the seven': 'holds', 'FOHSIC lower than the five others': 'holds', 'LDFS lower than LS': 'holds'}
    """
    errors = sample_outcomes(results)
    datasets = [d for d in TABLE1_K if d in set(errors.dataset)]
    partitions = partition_errors(results)
    pairs = claims_table(_table1_pairs(errors, partitions, datasets) + _curve_pairs(errors, partitions, datasets))
    per_ds = pd.DataFrame(_per_dataset(pairs))
    shared = per_ds[(per_ds.table == "Table 1") & per_ds.dataset.isin(SHARED_DATASETS)]
    over = [{**evaluate_over_datasets(shared, c, table=OVER_DATASETS_FAMILY), "dataset": "", "k": np.nan,
             "level": OVER_DATASETS} for c in (CLAIM_HSFS, CLAIM_FOHSIC, CLAIM_LDFS) if (shared.claim == c).any()]
    if over:
        over = claims_table(over).to_dict("records")      # Holm within the over-data-set family only
    out = pd.concat([pairs, per_ds, pd.DataFrame(over)], ignore_index=True)
    return out[COLUMNS + EXTRA_COLUMNS]


def claims_for_page(table, *, level="data set", families=None):
    """Rows of a claims table ready for :func:`fsbook.report.claims_display`: the data set and
    k written into the claim ("HSFS lowest of the seven, wine (k = 2)"), the rows over data sets
    named by their data sets."""
    rows = table[table.level == level]
    if families is not None:
        rows = rows[rows.table.isin(families)]
    rows = rows.copy()

    def name(r):
        if r["level"] == OVER_DATASETS:
            return f"{r['claim']}, over {', '.join(NAMES[d] for d in SHARED_DATASETS)}"
        if "k =" in r["claim"]:
            return f"{r['claim']}, {NAMES[r['dataset']]}"
        return f"{r['claim']}, {NAMES[r['dataset']]} (k = {int(r['k'])})"

    rows["claim"] = [name(r) for _, r in rows.iterrows()]
    return rows.reset_index(drop=True)


def table1_agreement(errors):
    """Does our Table 1 error agree with the number the paper prints?  For every method and every
    data set with a column in the paper's Table 1 (Yale has none; glass_id faces the paper's glass
    column), :func:`fsbook.claims.agreement` on our five fold errors at Table 1's k against the
    paper's value, with margin :data:`AGREEMENT_MARGIN`.  The paper prints no spread: its mean is
    given the standard error our folds would give it over its own five folds (``paper_n``).

    Parameters
    ----------
    errors : DataFrame
        :func:`fold_errors` of the store.

    Returns
    -------
    DataFrame
        One row per data set and method: ``dataset``, ``method``, ``ours``, ``paper``, ``diff``
        (ours − paper), ``se``, ``ci_low``, ``ci_high`` (95 %) and ``agreement`` (agrees, differs
        or inconclusive).

    Examples
    --------
    >>> import pandas as pd
    >>> e = pd.DataFrame({"dataset": "wine", "method": "HSFS", "k": 2, "fold": range(5),
    ...                   "error": [4.0, 5.0, 4.5, 5.5, 4.0]})
    >>> table1_agreement(e)[["dataset", "method", "agreement"]].values.tolist()   # paper: 4.58 %
    [['wine', 'HSFS', 'agrees']]
    """
    rows = []
    for ds in TABLE1_K:
        if ds == "yale":
            continue
        for method in METHODS:
            sub = errors[(errors.dataset == ds) & (errors.method == method) & (errors.k == TABLE1_K[ds])]
            if sub.empty:
                continue
            r = agreement(sub.sort_values("fold")["error"].to_numpy(dtype=float), paper_value(method, ds),
                          margin=AGREEMENT_MARGIN, paper_n=N_FOLDS)
            rows.append({"dataset": ds, "method": method, **r})
    return pd.DataFrame(rows)


def agreement_table(results):
    """:func:`table1_agreement` on a store, on the data sets shared with the paper
    (:data:`SHARED_DATASETS`, so each printed number is counted once): the scoreboard's entry
    point, as in every protocol that compares with printed numbers."""
    t = table1_agreement(fold_errors(results))
    return t[t["dataset"].isin(SHARED_DATASETS)].reset_index(drop=True)


def explanation_claims(variants, errors):
    """Claims "the variant brings the error closer to the paper's", one per (data set, method,
    variant), paired over the variant's folds with the stored errors, Holm within the table
    ``"explanations"``.

    The paired quantity is each fold's distance to the paper's Table 1 value, ``|error − paper|``:
    the variant's against ours, lower is better.  A variant that moves the error past the paper's
    value by more than ours was off does not bring it closer, however significant the move.

    Parameters
    ----------
    variants : dict
        ``{(dataset, method, name): per-fold errors (%)}`` from :func:`variant_errors` (a Series
        indexed by fold, paired with the stored errors of those folds; an array holds the five
        folds in order).
    errors : DataFrame
        :func:`fold_errors` of the store.

    Returns
    -------
    DataFrame
        A claims table (:func:`fsbook.claims.claims_table`) with :data:`EXTRA_COLUMNS`; ``a`` is
        the variant, ``b`` ours; the effect is how many points closer to the paper's Table 1 value
        the variant's errors are, on average over the folds.
    """
    rows = []
    for (ds, method, name), values in variants.items():
        stored = errors[(errors.dataset == ds) & (errors.method == method) & (errors.k == TABLE1_K[ds])]
        stored = stored.set_index("fold")["error"].sort_index()
        if not isinstance(values, pd.Series):
            values = np.asarray(values, dtype=float)
            if len(values) != len(stored):
                raise ValueError(f"{method} on {ds}: {len(values)} variant folds against {len(stored)} stored")
            values = pd.Series(values, index=stored.index)
        missing = sorted(set(values.index) - set(stored.index))
        if missing:
            raise ValueError(f"{method} on {ds}: variant folds {missing} are not stored")
        ours = stored.loc[values.index].to_numpy()
        paper = paper_value(method, ds)
        values = values.to_numpy(dtype=float)
        c = Claim(f"{name} brings {method} closer to the paper", a=f"{method}, {name}", b=f"{method}, ours",
                  better="lower", unit="folds", test=FOLD_TEST, table="explanations", dataset=ds)
        rows.append({**evaluate(c, np.abs(values - paper), np.abs(ours - paper)), "dataset": ds,
                     "k": TABLE1_K[ds], "level": "data set"})
    return claims_table(rows)[COLUMNS + EXTRA_COLUMNS]


"""The claims of the disjunctive-HKL paper's Section 3, decided on the ``hkl`` store, and the
agreement of our numbers with the paper's (:mod:`fsbook.claims`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import (
    Claim,
    agreement,
    claims_table,
    evaluate,
    evaluate_over_datasets,
    fold_test,
    repetition_folds,
    sample_margin_row,
)
from fsbook.experiments.hkl.paper import (
    CONFIGS,
    PAPER_TABLE1,
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    PAPER_TABLE5,
    RAW_ALL,
    RAW_CONFIGS,
    RAW_TUNED,
    TABLE1_DATASETS,
)
from fsbook.experiments.hkl.tables import task_frame

# ---- claims ----------------------------------------------------------------------------------------

#: Holm families of the claims over the data sets (never shared with per-data-set rows): Table 1's
#: three claims; Table 2's claims as the book reads the paper (:func:`paper_table2_asserts`: 27
#: rows, one-sided, smallest p 1/1024 < 0.05/27 with ten data sets), and its other rows
TABLE1_OVER = "Table 1 (over data sets)"
TABLE2_ASSERTED = "Table 2"
TABLE2_OTHER = "Table 2 (other rows)"

def table1_fold_accuracy(results, dataset, method, classifier):
    """Accuracy (%) of Table 1's row ``(method, classifier)`` on each outer fold of ``dataset``,
    read from the stored results (``read_store(PROTOCOL)``)."""
    df = task_frame(results.params, results.results)
    return 100 * _per_fold(df, 1, dataset, method, classifier)


def table3_fold_accuracy(results, classifier):
    """Accuracy (%) of Table 3's tuned ``classifier`` (``"L1"`` or ``"L2"``) on each outer fold
    of the 20 Newsgroups pair, read from the stored results (``read_store(PROTOCOL)``)."""
    df = task_frame(results.params, results.results)
    return 100 * _per_fold(df, 3, None, "svm_tuned", classifier)


def _per_fold(df, table, dataset, method, column):
    """One accuracy (or other column) per outer fold, ordered by fold."""
    keep = (df.table == table) & (df.method == method)
    if dataset is not None:               # Table 3's tasks carry no data set key
        keep &= df.dataset == dataset
    return df[keep].sort_values("fold")[column].to_numpy(dtype=float)


#: the order claims' margin, declared from the design before looking: one test sample.  With the
#: test samples of one partition pooled, a claim's effect is a difference of two accuracies over the
#: data set's ``n`` test samples, whose resolution is one sample, ``100 / n`` points (0.7 points on
#: Wisconsin's 699 patients, 0.23 on MONK's 432 test samples, 2.1 points on colon's 62 tissues).
MARGIN_SAMPLES = 1


def pooled_outcomes(df, table, dataset, method, column, fraction=None):
    """The test samples' outcomes of one row (100 correct, 0 wrong), pooled over the outer folds
    in fold order: the units of the tests on pooled samples (version 8 on).

    Parameters
    ----------
    df : DataFrame
        One row per stored task (parameters and scalar results, with ``outcomes_<column>``).
    table, dataset, method : the task's keys (``dataset=None`` for Table 3's tasks).
    column : str
        The accuracy column whose outcomes to pool (``"HKL"``, ``"L2"``, ``"accuracy"``, …).
    fraction : float, optional
        Table 4's fraction of genes.

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> df = pd.DataFrame({"table": [1, 1], "dataset": ["d", "d"], "method": ["hkl", "hkl"],
    ...                    "fold": [1, 0], "outcomes_HKL": ["10", "011"]})
    >>> pooled_outcomes(df, 1, "d", "hkl", "HKL").tolist()
    [0.0, 100.0, 100.0, 100.0, 0.0]
    """
    keep = (df.table == table) & (df.method == method)
    if dataset is not None:
        keep &= df.dataset == dataset
    if fraction is not None:
        keep &= np.isclose(df["fraction"].astype(float), fraction)
    col = f"outcomes_{column}"
    if col not in df or df.loc[keep, col].isna().any():
        raise ValueError(f"the store holds no per-sample outcomes {col!r}: rerun the protocol (version 8 on)")
    text = "".join(df[keep].sort_values("fold")[col])
    return 100.0 * (np.frombuffer(text.encode(), dtype=np.uint8) == ord("1"))


def _sample_claim(df, *, table, claim, a, b, dataset):
    """An accuracy claim decided on the pooled test samples of one data set's partition (McNemar's
    exact test on the samples where the two disagree): the paper's estimand is the accuracy over
    that partition, and the samples, unlike its four folds, are many (:mod:`fsbook.claims`)."""
    va, vb = pooled_outcomes(df, *a[1]), pooled_outcomes(df, *b[1])
    if va.size != vb.size:
        raise ValueError(f"{a[0]} and {b[0]} on {dataset}: {va.size} and {vb.size} test samples, not paired")
    return sample_margin_row(claim, va, vb, n_samples=va.size, margin_samples=MARGIN_SAMPLES, a=a[0], b=b[0],
                             better="higher", unit="samples", test="sign", table=table, dataset=dataset)


def repeated_values(dfr, table, dataset, method, column, fraction=None):
    """One row's results (``100 · column``) on every stored partition of ``dataset``'s 4-fold CV,
    shape (repetitions, folds), from :func:`~fsbook.experiments.hkl.tables.task_frame`'s rows
    with ``repetitions=True``.

    Examples
    --------
    >>> dfr = pd.DataFrame({"table": [1] * 4, "dataset": ["d"] * 4, "method": ["hkl"] * 4,
    ...                     "repeat": [0, 0, 1, 1], "fold": [1, 0, 0, 1], "HKL": [0.5, 1.0, 0.75, 0.25]})
    >>> repeated_values(dfr, 1, "d", "hkl", "HKL").tolist()
    [[100.0, 50.0], [75.0, 25.0]]
    """
    keep = (dfr.table == table) & (dfr.method == method)
    if dataset is not None:               # Table 3's tasks carry no data set key
        keep &= dfr.dataset == dataset
    if fraction is not None:
        keep &= np.isclose(dfr["fraction"].astype(float), fraction)
    return 100.0 * repetition_folds(dfr[keep], column, f"{method} ({column}) on {dataset}")


def _partitions(dfr, dataset):
    """How many partitions of ``dataset``'s outer folds the store holds."""
    return int(dfr.loc[dfr.dataset == dataset, "repeat"].nunique()) if "dataset" in dfr else 0


def _accuracy_claim(df, dfr, *, table, claim, a, b, dataset):
    """An accuracy claim on one data set: over the repetitions of its 4-fold CV where the store
    holds several partitions (the paired t over the repetition means, :func:`fsbook.claims.fold_test`;
    the margin is one test sample of one partition), else on the pooled test samples of its one
    partition or split (:func:`_sample_claim`)."""
    if _partitions(dfr, dataset) < 2:
        return _sample_claim(df, table=table, claim=claim, a=a, b=b, dataset=dataset)
    va, vb = repeated_values(dfr, *a[1]), repeated_values(dfr, *b[1])
    if va.shape != vb.shape:
        raise ValueError(f"{a[0]} and {b[0]} on {dataset}: not stored on the same partitions and folds")
    return sample_margin_row(claim, va, vb, n_samples=pooled_outcomes(df, *a[1]).size, margin_samples=MARGIN_SAMPLES,
                             a=a[0], b=b[0], better="higher", table=table, dataset=dataset, **fold_test(va))


def _fold_claim(df, dfr, *, table, claim, a, b, dataset, better="higher", unit="folds", note=""):
    """A claim decided over the outer folds of one data set: the paired t over the repetition
    means where the store holds several partitions of its 4-fold CV (:func:`repeated_values`),
    else the plain paired t over the folds of its one partition (the paper's estimand is the
    mean over that partition; the test is conservative for it, :mod:`fsbook.claims`); a single
    train/test split is one unit and cannot be tested."""
    if _partitions(dfr, dataset) >= 2:
        va, vb = repeated_values(dfr, *a[1]), repeated_values(dfr, *b[1])
        c = Claim(claim, a=a[0], b=b[0], better=better, table=table, dataset=dataset, **fold_test(va))
        return {**evaluate(c, va, vb, note=note), "dataset": dataset}
    c = Claim(claim, a=a[0], b=b[0], better=better, unit=unit, test="paired_t", table=table, dataset=dataset)
    va, vb = 100 * _per_fold(df, *a[1]), 100 * _per_fold(df, *b[1])
    if va.size == 1 and not note:
        note = "one train/test split: untestable"
    row = evaluate(c, va, vb, note=note)
    row["dataset"] = dataset
    return row


def claims(results):
    """The paper's claims of Section 3 decided on the stored per-fold results (:mod:`fsbook.claims`).

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)``.

    Returns
    -------
    DataFrame
        One row per claim and data set (``dataset``), plus the rows over the data sets
        (``dataset == "all"``); columns :data:`fsbook.claims.COLUMNS`.  Families (``table``; Holm's
        correction runs within each): ``"Table 1"``, :data:`TABLE1_OVER`, :data:`TABLE2_ASSERTED`,
        :data:`TABLE2_OTHER`, ``"Table 3"``, ``"Table 4"``, ``"Table 5"``.  An accuracy claim on
        a data set with several stored partitions of its 4-fold CV
        (:data:`~fsbook.experiments.hkl.paper.REPEATS`) is decided by the paired t over the
        repetition means (the 20 Newsgroups pair's too, from version 10 on: Table 3's tuned SVMs
        run on the same partitions); on MONK's problems, each with one train/test split, it pairs
        the two methods' outcomes on the 432 test samples (McNemar's exact test,
        :func:`pooled_outcomes`).  The margin is one test sample of one partition (:data:`MARGIN_SAMPLES`).
        Table 1's claims are also decided over the ten data sets, by the Wilcoxon test on the
        per-data-set effects; Table 2 pairs HKL with each row of Table 1 (the first partition's
        means) over the data sets (Wilcoxon, one-sided in the paper's direction, as the paper
        tests); Table 5's sparsity claim over the repetitions too (a fraction of attributes has
        no per-sample outcome).
    """
    dfr = task_frame(results.params, results.results, repetitions=True)
    df = dfr[dfr.repeat == 0].reset_index(drop=True)          # the first partition, as the tables show
    t1 = results.tables["table1"]
    rows = []
    hkl = ("HKL", (1, None, "hkl", "HKL"))
    wrappers = [(m, c) for m in CONFIGS for c in ("L2", "L1")]
    t1_claims = {
        "HKL beats Weka's default LibSVM (raw attributes)": lambda d: ("Weka LibSVM", (1, d, RAW_ALL, "L2")),
        "HKL beats the best of the fifteen wrappers": lambda d: (
            "best wrapper", (1, d, *max(wrappers, key=lambda mc: (t1.loc[mc, d], -wrappers.index(mc))))),
        "HKL beats a CV-tuned LibSVM (raw attributes)": lambda d: ("tuned LibSVM", (1, d, RAW_TUNED, "L2")),
    }
    per = []
    for text, baseline in t1_claims.items():
        for d in t1.columns:
            b = baseline(d)
            a = (hkl[0], (1, d, "hkl", "HKL"))
            per.append(_accuracy_claim(df, dfr, table="Table 1", claim=text, a=a, b=(b[0], (b[1][0], d, b[1][2], b[1][3])),
                                     dataset=d))
    per = claims_table(per)
    rows += per.to_dict("records")
    over = [evaluate_over_datasets(per, text, table=TABLE1_OVER) for text in t1_claims]
    rows += [{**r, "dataset": "all"} for r in claims_table(over).to_dict("records")]
    # Table 2: HKL against each row over the data sets, one-sided as the paper tests; the paper's
    # claims (the rows it marks significant, read as the book reads its rows) form one family,
    # the other rows another
    hk = t1.loc[("hkl", "HKL")]
    t2 = []
    for (m, c), vals in t1.iterrows():
        if m == "hkl":
            continue
        claim = Claim(f"HKL beats {m} · {c} over the data sets", a="HKL", b=f"{m} · {c}", better="higher",
                      unit="data sets", test="wilcoxon", one_sided=True,
                      table=TABLE2_ASSERTED if paper_table2_asserts(m, c) else TABLE2_OTHER)
        t2.append({**evaluate(claim, hk.to_numpy(), vals.to_numpy()), "dataset": "all"})
    rows += claims_table(t2).to_dict("records")
    # Table 3: the 20 Newsgroups pair
    ng = "20newsgroups"
    t3 = [_accuracy_claim(df, dfr, table="Table 3", claim=f"HKL beats the {lab} SVM with C tuned",
                          a=(hkl[0], (1, ng, "hkl", "HKL")),
                          b=(f"{lab}-SVM (tuned C)", (3, None, "svm_tuned", lab)), dataset=ng)
          for lab in ("L1", "L2")]
    rows += claims_table(t3).to_dict("records")
    # Table 4: HKL against the zero-norm SVM; the zero-norm SVM with fewer genes
    t4 = []
    for d in ("colon", "lymphoma"):
        zn = df[(df.table == 4) & (df.dataset == d) & (df.method == "zero_norm")]
        smallest = float(zn["fraction"].min())
        for text, a, b in (
                ("HKL is more accurate than the zero-norm SVM with all genes", ("HKL", "hkl", None),
                 ("zero-norm SVM, all genes", "zero_norm", 1.0)),
                ("the zero-norm SVM gains accuracy with fewer genes", ("zero-norm SVM, fewest genes", "zero_norm", smallest),
                 ("zero-norm SVM, all genes", "zero_norm", 1.0))):
            t4.append(_accuracy_claim(df, dfr, table="Table 4", claim=text, dataset=d,
                                    a=(a[0], (4, d, a[1], "accuracy", a[2])),
                                    b=(b[0], (4, d, b[1], "accuracy", b[2]))))
    rows += claims_table(t4).to_dict("records")
    # Table 5: accuracy and sparsity against the feature-weighting SVM
    t5 = []
    for d in ("ionosphere", "breast_cancer_wisconsin"):
        t5.append(_accuracy_claim(df, dfr, table="Table 5", claim="HKL is more accurate than the feature-weighting SVM",
                                a=("HKL", (5, d, "hkl", "accuracy")),
                                b=("feature-weighting SVM", (5, d, "weighted_svm", "accuracy")), dataset=d))
        t5.append(_fold_claim(df, dfr, table="Table 5", claim="HKL uses fewer of the original attributes",
                              a=("HKL", (5, d, "hkl", "fraction_used")),
                              b=("feature-weighting SVM", (5, d, "weighted_svm", "fraction_used")), dataset=d,
                              better="lower"))
    rows += claims_table(t5).to_dict("records")
    return pd.DataFrame(rows)


def paper_table2_level(method, classifier):
    """The significance level the paper prints for HKL against Table 1's row ``(method,
    classifier)`` in its Table 2 (our raw rows take the level of the configuration they re-run),
    or ``None`` where it prints none (not significant, or a row it did not run)."""
    key = f"all ({classifier})" if method == "all" else method
    if key not in PAPER_TABLE2.index:
        return None
    v = PAPER_TABLE2.loc[key, classifier]
    return None if v is None or pd.isna(v) else float(v)


def paper_table2_asserts(method, classifier):
    """Whether Table 1's row ``(method, classifier)`` is one of the paper's Table 2 claims as the
    book reads the paper: the paper prints a significance level for it, and the row is the one
    the book reads as the paper's (the raw rows for CFS and the all-feature SVMs, the booleanised
    rows for the consistency and filtered evaluators, which have no raw row)."""
    if paper_table2_level(method, classifier) is None:
        return False
    return not (method == "all" or f"{method} (raw)" in RAW_CONFIGS)


#: agreement of our level with a number the paper prints (:func:`fsbook.claims.agreement`): they
#: agree when the 90 % interval of ``ours − paper`` lies within ± this many accuracy points.
#: Declared before computing: two points is one or two test samples per fold on the small data
#: sets (a hepatitis fold has 39 patients: 2.6 points each; a breast-cancer fold 72: 1.4), the
#: smallest difference a reader of Table 1 could take for a difference between methods.
AGREEMENT_MARGIN = 2.0


def agreement_table(results, margin=AGREEMENT_MARGIN):
    """Our per-fold accuracies against the paper's printed numbers, one row per number checked.

    The rows: Table 1's HKL and all-feature LibSVM / L1-SVM rows (Weka's defaults on the raw
    attributes) on each data set; Table 3's tuned L1- and L2-SVM and HKL; Table 4's HKL and
    zero-norm SVM with all genes; Table 5's HKL and feature-weighting SVM.  The paper's own
    spread is taken as ours at its number of folds (``paper_n`` = the units we have): it prints
    no standard errors.  A single train/test split (MONK) has no spread: inconclusive.

    Returns
    -------
    DataFrame
        ``table``, ``dataset``, ``row``, ``paper``, ``ours``, ``diff``, ``ci_low``, ``ci_high``
        (95 %), ``agreement`` (:data:`fsbook.claims.AGREES` / ``DIFFERS`` / ``INCONCLUSIVE``).
    """
    df = task_frame(results.params, results.results)
    checks = []
    for d in TABLE1_DATASETS:
        for row, (m, c), paper in (("HKL", ("hkl", "HKL"), ("hkl", "HKL")),
                                   ("LibSVM (Weka's defaults)", (RAW_ALL, "L2"), ("all", "L2")),
                                   ("L1-SVM (C = 1)", (RAW_ALL, "L1"), ("all", "L1"))):
            checks.append(("Table 1", d, row, 100 * _per_fold(df, 1, d, m, c), PAPER_TABLE1.loc[paper, d]))
    ng = "20newsgroups"
    for lab in ("L1", "L2"):
        checks.append(("Table 3", ng, f"{lab}-SVM (tuned C)", 100 * _per_fold(df, 3, None, "svm_tuned", lab),
                       PAPER_TABLE3[f"{lab}-SVM"]))
    checks.append(("Table 3", ng, "HKL", 100 * _per_fold(df, 1, ng, "hkl", "HKL"), PAPER_TABLE3["HKL"]))
    for d, paper in PAPER_TABLE4.items():
        checks.append(("Table 4", d, "HKL", 100 * _table4_folds(df, d, "hkl", None), paper["hkl"][1]))
        checks.append(("Table 4", d, "zero-norm SVM, all genes", 100 * _table4_folds(df, d, "zero_norm", 1.0),
                       dict(paper["zero_norm"])[1.0]))
    for d, paper in PAPER_TABLE5.items():
        for method, row in (("hkl", "HKL"), ("weighted_svm", "feature-weighting SVM")):
            checks.append(("Table 5", d, row, 100 * _per_fold(df, 5, d, method, "accuracy"), paper[method][1]))
    rows = []
    for table, d, row, ours, paper in checks:
        a = agreement(ours, float(paper), margin=margin, paper_n=len(ours))
        rows.append({"table": table, "dataset": d, "row": row, "paper": float(paper), "ours": a["ours"],
                     "diff": a["diff"], "ci_low": a["ci_low"], "ci_high": a["ci_high"],
                     "agreement": a["agreement"]})
    return pd.DataFrame(rows)


def _table4_folds(df, dataset, method, fraction):
    g = df[(df.table == 4) & (df.dataset == dataset) & (df.method == method)]
    if fraction is not None:
        g = g[np.isclose(g["fraction"].astype(float), fraction)]
    return g.sort_values("fold")["accuracy"].to_numpy(dtype=float)

"""The reduction of the l1/linf store into the chapter's tables.

:func:`reduce` (the protocol's third callable) builds Table 1's means and standard errors, the
all-data selection, the curves of the figures and the supports; :func:`fold_errors` gives the
per-fold errors every claim is decided on.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments.l1linf.paper import METHODS, PAPER_COLUMN, PAPER_TABLE1, TABLE1_K
from fsbook.experiments.l1linf.words import met
from fsbook.report import format_value, paper_vs_ours


def _long(params_list, results_list, repeats=False):
    """One row per task and k; the first partition's tasks only unless ``repeats`` (Table 1's
    other repetitions, column ``repeat``)."""
    rows = []
    for p, r in zip(params_list, results_list):
        if p.get("repeat", 0) and not repeats:
            continue
        for k, e, C in zip(p["ks"], r["errors"], r["C"]):
            rows.append({"dataset": p["dataset"], "method": p["method"], "selection": p["selection"],
                         "fold": p["fold"], "repeat": p.get("repeat", 0), "k": k, "error": 100.0 * e, "C": C})
    return pd.DataFrame(rows)


def _at_table1_k(fold):
    return fold[(fold.method == "all") | (fold.k == fold.dataset.map(TABLE1_K))]


def _order(df):
    datasets = [d for d in TABLE1_K if d in set(df.dataset)]
    methods = [m for m in METHODS + ["all"] if m in set(df.method)]
    return datasets, methods


def table1(df):
    """Mean 5-fold error (%) at Table 1's k, method × data set, selection in the training folds."""
    datasets, methods = _order(df)
    g = _at_table1_k(df[df.selection == "fold"]).groupby(["method", "dataset"])["error"]
    return g.mean().unstack()[datasets].reindex(methods)


def table1_se(df):
    """Standard error over the folds of :func:`table1`'s means."""
    datasets, methods = _order(df)
    g = _at_table1_k(df[df.selection == "fold"]).groupby(["method", "dataset"])["error"]
    return (g.std(ddof=1) / np.sqrt(g.count())).unstack()[datasets].reindex(methods)


def all_data_selection(df):
    """Mean error (%) with the features selected on all the data (wine and glass)."""
    leak = df[df.selection == "all"]
    if not len(leak):
        return pd.DataFrame()
    return leak.groupby(["method", "dataset"])["error"].mean().unstack().reindex(
        [m for m in METHODS if m in set(leak.method)])


def curves(df):
    """Mean and standard deviation over the folds of the error per data set, method and k."""
    fold = df[(df.selection == "fold") & (df.method != "all")]
    return fold.groupby(["dataset", "method", "k"])["error"].agg(["mean", "std"]).reset_index()


def supports(params_list, results_list):
    """The selected features of every task of the first partition with selection in the training folds."""
    return pd.DataFrame([{"dataset": p["dataset"], "method": p["method"], "fold": p["fold"],
                          "k": k, "support": s}
                         for p, r in zip(params_list, results_list)
                         if p["selection"] == "fold" and not p.get("repeat", 0)
                         for k, s in zip(p["ks"], r["supports"])])


def reduce(params_list, results_list):
    """Tables: ``table1`` (mean 5-fold error in % at Table 1's k, per method × data set,
    selection in the training folds; ``all`` = no selection), ``table1_se`` (standard errors
    over folds), ``all_data_selection`` (wine and glass, selection on all the data),
    ``curves`` (mean error per data set, method and k), ``supports``: all on the first
    partition, the one the paper's protocol runs (the other repetitions decide the claims,
    :func:`partition_errors`)."""
    df = _long(params_list, results_list)
    return {"table1": table1(df), "table1_se": table1_se(df), "all_data_selection": all_data_selection(df),
            "curves": curves(df), "supports": supports(params_list, results_list)}



def _check_result(results):
    if not (hasattr(results, "params") and hasattr(results, "results")):
        raise TypeError("results must be a protocol result with .params and .results "
                        f"(read_store(PROTOCOL)); got {type(results).__name__}")


def fold_errors(results):
    """The per-fold test errors (%) with selection in the training folds, from a protocol result.

    Parameters
    ----------
    results : ProtocolResult
        What :func:`fsbook.experiments.read_store` returns for :data:`PROTOCOL` (its ``params``
        and ``results``, one per task).

    Returns
    -------
    DataFrame with columns ``dataset``, ``method``, ``k``, ``fold``, ``error`` (the ``all``
    rows at ``k = 0``).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> p = {"dataset": "wine", "method": "LS", "fold": 0, "ks": [2], "selection": "fold"}
    >>> r = {"errors": [0.25], "C": [1.0], "supports": [[0, 1]]}
    >>> fold_errors(SimpleNamespace(params=[p], results=[r]))[["method", "k", "error"]].values.tolist()
    [['LS', 2, 25.0]]
    """
    _check_result(results)
    df = _long(results.params, results.results)
    if df.empty:
        raise ValueError("the protocol result holds no task")
    return df.loc[df.selection == "fold", ["dataset", "method", "k", "fold", "error"]].reset_index(drop=True)


def partition_errors(results):
    """The fold errors (%) at every stored k on every stored partition: selection in the training
    folds (``all``: no selection, at ``k = 0``), one row per repetition, fold and k; the units of
    the claims decided over the repetitions.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)``.

    Returns
    -------
    DataFrame with columns ``dataset``, ``method``, ``k``, ``repeat``, ``fold``, ``error``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> ps = [{"dataset": "wine", "method": "LS", "fold": 0, "ks": [1, 2], "selection": "fold"},
    ...       {"dataset": "wine", "method": "LS", "fold": 0, "ks": [1], "selection": "fold", "repeat": 1}]
    >>> rs = [{"errors": [0.5, 0.25], "C": [1.0, 1.0]}, {"errors": [0.75], "C": [1.0]}]
    >>> partition_errors(SimpleNamespace(params=ps, results=rs))[["repeat", "k"]].values.tolist()
    [[0, 1], [0, 2], [1, 1]]
    """
    df = _long(results.params, results.results, repeats=True)
    if df.empty:
        raise ValueError("the protocol result holds no task")
    fold = df[df.selection == "fold"]
    return fold[["dataset", "method", "k", "repeat", "fold", "error"]].reset_index(drop=True)


# ----------------------------------------------------------------------------- the chapter's tables
def table1_block(ours, se, agreement, datasets):
    """The paper's Table 1 beside ours for some data sets: the paper's column facing each
    (:data:`~fsbook.experiments.l1linf.paper.PAPER_COLUMN`), the agreement of our mean with it,
    and our mean ± standard error (Yale: ours only).

    Parameters
    ----------
    ours, se : DataFrame
        :func:`table1` and :func:`table1_se` of the store.
    agreement : DataFrame
        :func:`~fsbook.experiments.l1linf.claims.table1_agreement` of the store.
    datasets : list of str
        Columns of ``ours`` to show, in order.

    Returns
    -------
    DataFrame
        Columns ``(data set (k = ...), paper | agreement | ours)``, one row per method.
    """
    agree = agreement.set_index(["dataset", "method"])["agreement"]
    paper = pd.DataFrame({ds: PAPER_TABLE1[PAPER_COLUMN[ds]] for ds in datasets if ds != "yale"})
    block = paper_vs_ours(paper, ours[datasets], se[datasets], decimals=2, index_name="method")
    block = block.drop(columns="difference", level=1)
    for ds in datasets:
        if ds != "yale":
            block[(ds, "agreement")] = [agree.get((ds, m), "–") for m in block.index]
    block = block[[(ds, c) for ds in datasets for c in ("paper", "agreement", block[ds].columns[1])
                   if (ds, c) in block.columns]]
    if "yale" in datasets:
        block = block.drop(columns=("yale", "paper"))
    return block.rename(columns={ds: f"{ds} (k = {TABLE1_K[ds]})" for ds in datasets}, level=0)


def speed_table(record):
    """HSFS, FOHSIC and the old HSFS on ARCENE and DEXTER from the record of
    ``benchmarks/l1linf.py --only selection``: CPU seconds, their ratios, the features in common,
    the linear-SVM accuracies, the fast path and the floors the benchmark checks."""
    def column(r):
        return {
            "HSFS (s)": str(r["hsfs_seconds"]), "FOHSIC (s)": str(r["fohsic_seconds"]),
            "old HSFS (s)": str(r["reference_seconds"]),
            "HSFS / FOHSIC": format_value(r["hsfs_over_fohsic"], 1),
            "old HSFS / HSFS": format_value(r["reference_over_hsfs"], 1),
            "features in common, HSFS and old HSFS": f"{r['common_features']} of {r['k']}",
            "linear-SVM accuracy, HSFS": format_value(r["acc_hsfs"], 3),
            "linear-SVM accuracy, FOHSIC": format_value(r["acc_fohsic"], 3),
            "linear-SVM accuracy, old HSFS": format_value(r["acc_reference"], 3),
            "HSFS with libm's exp per pair (s)": str(r["libm_kernel_seconds"]),
            "paper's claim: HSFS cheaper than forward HSIC selection (FOHSIC)": (
                "holds" if r["hsfs_at_or_below_fohsic"] else "fails"),
            "fast path (s)": str(r["fast_seconds"]),
            "fast path / FOHSIC": format_value(r["fast_over_fohsic"], 1),
            "linear-SVM accuracy, fast path": format_value(r["acc_fast"], 3),
            "floor: HSFS 20 × faster than the old HSFS": met(r["at_least_20x_faster_than_reference"]),
            "floor: DEXTER accuracy of HSFS ≥ 0.88": (met(r["accuracy_floor_met"])
                                                      if "accuracy_floor_met" in r else "—")}

    rec = {ds: record["values"][ds] for ds in ("arcene", "dexter")}
    return pd.DataFrame({f"{ds.upper()} (k = {r['k']})": column(r) for ds, r in rec.items()})


def sample_outcomes(results):
    """The test samples' errors (0 or 100 %) with selection in the training folds, on the first
    partition: one row per task, ``k`` and test sample, for the comparisons on pooled samples.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)``; every task must hold its ``outcomes`` (version 5 on).

    Returns
    -------
    DataFrame with columns ``dataset``, ``method``, ``k``, ``fold``, ``unit`` (``"fold:i"``, the
    ``i``-th test sample of the fold) and ``error`` (100 for a wrong prediction, else 0).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> p = {"dataset": "wine", "method": "LS", "fold": 0, "ks": [2], "selection": "fold"}
    >>> r = {"errors": [0.25], "C": [1.0], "supports": [[0, 1]], "outcomes": ["1011"]}
    >>> sample_outcomes(SimpleNamespace(params=[p], results=[r]))[["unit", "error"]].values.tolist()
    [['0:0', 0.0], ['0:1', 100.0], ['0:2', 0.0], ['0:3', 0.0]]
    """
    _check_result(results)
    rows = []
    for p, r in zip(results.params, results.results):
        if p["selection"] != "fold" or p.get("repeat", 0):          # the first partition's samples
            continue
        if "outcomes" not in r:
            raise ValueError("the store holds no per-sample outcomes: rerun the protocol (version 5 on)")
        for k, outcome in zip(p["ks"], r["outcomes"]):
            rows += [{"dataset": p["dataset"], "method": p["method"], "k": k, "fold": p["fold"],
                      "unit": f"{p['fold']}:{i}", "error": 0.0 if c == "1" else 100.0}
                     for i, c in enumerate(outcome)]
    return pd.DataFrame(rows, columns=["dataset", "method", "k", "fold", "unit", "error"])


"""The tasks of the l1/linf protocol: data, folds, the selectors, the SVM and its search of C.

A task is ``(dataset, method, fold, ks, selection, n_max)``: on fold ``fold`` of a seeded
stratified 5-fold split of the data set, ``method`` selects each ``k`` of ``ks`` on the
training fold (``selection="fold"``) or on all the data (``"all"``), and the RBF SVM of
:func:`svm_error` trained on the selected features is scored on the test fold.
:func:`variant_errors` reruns HSFS or LDFS on the same folds and seeds with one of the paper's
settings (the explanations of the gaps; nothing of it is stored in the protocol's store), and
:func:`explanation_runs` declares the variants tried on each data set.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from fsbook.experiments._protocol_helpers import make_selector as registry_selector
from fsbook.experiments._protocol_helpers import outcome_string
from fsbook.experiments._runner import task_seed
from fsbook.experiments.l1linf.paper import (
    BOOK_DATASETS,
    C_GRID,
    FIGURE_KS,
    L1LINF_PATH,
    METHODS,
    N_FOLDS,
    PAPER_ROW_THRESHOLD,
    SVM_TIE,
    TABLE1_K,
    TABLE1_REPEATS,
)
from fsbook.model_selection import tuned_svm


@functools.lru_cache(maxsize=8)
def load(dataset, n_max):
    """``(X, y)`` of a data set, stratified-subsampled (seeded by name) to ``n_max`` samples."""
    from fsbook import datasets as D

    if dataset == "glass_id":
        b = D.load_glass()
        X = np.column_stack([b.glass_id.astype(float), b.data])
    elif dataset == "dexter":
        b = D.load_dexter()
        X = b.data.astype(np.float64).tocsr()
    else:
        b = getattr(D, f"load_{dataset}")()
        X = b.data
    y = np.asarray(b.target)
    if len(y) > n_max:
        from sklearn.model_selection import train_test_split

        idx, _ = train_test_split(np.arange(len(y)), train_size=n_max, stratify=y,
                                  random_state=task_seed({"dataset": dataset, "n_max": n_max}))
        idx = np.sort(idx)
        X, y = X[idx], y[idx]
    return X, y



def make_selector(method, k, seed):
    """The selector of ``method`` keeping ``k`` features (fixed settings, seeded;
    :func:`fsbook.experiments._protocol_helpers.make_selector`)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    return registry_selector(method, k, seed, l1linf_path=L1LINF_PATH)


def svm_search(seed, *, standardise=True):
    """The RBF SVM's search of :func:`svm_fit_predict`, unfitted: σ = 1 (on standardised
    features unless ``standardise=False``), C in :data:`C_GRID` by inner 3-fold CV, ties broken
    by :data:`SVM_TIE` (a two-class model before one at the majority rate, since version 7)."""
    return tuned_svm(SVC(kernel="rbf", gamma=0.5), {"C": C_GRID}, seed, scale=standardise, tie=SVM_TIE)


def svm_fit_predict(X_train, y_train, X_test, seed, *, standardise=True):
    """Test predictions of the RBF SVM of :func:`svm_search` and its ``C``;
    ``standardise=False`` keeps the raw features (the width is then 1 in their units)."""
    if sp.issparse(X_train):
        X_train, X_test = X_train.toarray(), X_test.toarray()
    model = svm_search(seed, standardise=standardise)
    model.fit(X_train, y_train)
    return model.predict(X_test), float(model.best_params_["svc__C" if standardise else "C"])


def svm_error(X_train, y_train, X_test, y_test, seed, *, standardise=True):
    """Test error and ``C`` of the RBF SVM of :func:`svm_fit_predict`."""
    predicted, C = svm_fit_predict(X_train, y_train, X_test, seed, standardise=standardise)
    return float(np.mean(predicted != y_test)), C


def _rows_all(train, n):
    return np.arange(n)


def _rows_fold(train, n):
    return train


#: where the features are selected: the task's ``selection`` → the rows the selector sees
SELECTION_ROWS = {"fold": _rows_fold, "all": _rows_all}


def _support_all(params, X, y, rows, k, seed):
    return np.arange(X.shape[1]), []


def _support_selected(params, X, y, rows, k, seed):
    sel = make_selector(params["method"], min(k, X.shape[1]), seed).fit(X[rows], y[rows])
    support = np.flatnonzero(sel.get_support())
    return support, support.tolist()


#: the methods that select no feature (the SVM on every column); every other method selects
SUPPORT_WITHOUT_SELECTION = {"all": _support_all}


def _support(params, X, y, rows, k, seed):
    """``(columns the SVM sees, support to store)``: every column for the method ``all``."""
    run = SUPPORT_WITHOUT_SELECTION.get(params["method"], _support_selected)
    return run(params, X, y, rows, k, seed)


def folds(dataset, n_max, y, repeat=0):
    """The protocol's seeded stratified 5-fold splits of a data set (the same for every method):
    repetition 0, the partition of every task, or another of Table 1's repetitions, seeded by
    the data set and the repetition."""
    key = {"dataset": dataset, "n_max": n_max} if repeat == 0 else {"dataset": dataset, "n_max": n_max,
                                                                      "repeat": repeat}
    split_seed = task_seed(key, "folds")
    return list(StratifiedKFold(N_FOLDS, shuffle=True, random_state=split_seed).split(np.zeros(len(y)), y))


def run_task(params):
    """Errors of one method on one fold for every k (see module docstring), with the test
    samples' outcomes (:func:`outcome_string`) for the tests on pooled samples."""
    X, y = load(params["dataset"], params["n_max"])
    train, test = folds(params["dataset"], params["n_max"], y, params.get("repeat", 0))[params["fold"]]
    seed = task_seed(params) % (2 ** 31)
    if params["selection"] not in SELECTION_ROWS:
        raise ValueError(f"unknown selection {params['selection']!r}; expected one of {sorted(SELECTION_ROWS)}")
    rows = SELECTION_ROWS[params["selection"]](train, len(y))
    out = {"errors": [], "C": [], "supports": [], "outcomes": []}
    for k in params["ks"]:
        support, stored = _support(params, X, y, rows, k, seed)
        predicted, C = svm_fit_predict(X[train][:, support], y[train], X[test][:, support], seed)
        out["errors"].append(float(np.mean(predicted != y[test])))
        out["C"].append(C)
        out["supports"].append(stored)
        out["outcomes"].append(outcome_string(predicted, y[test]))
    return out


def make_tasks(full):
    """Full: every data set, method and fold at the figures' k and Table 1's k, n ≤ 1 000, and
    the all-data selection on wine and glass (385 tasks), then Table 1's tasks (Table 1's k,
    selection in the training folds) on the other :data:`TABLE1_REPEATS` − 1 partitions (key
    ``repeat``; 1 120 tasks) and the figures' other k there (one task per method, fold and
    partition; 980 tasks).  Quick subsample (``full=False``, for checks; the book reads the
    full store): wine, glass and glass with its id column only (the high-dimensional sets take
    minutes per HSFS fit), folds 0 and 1 of the same 5-fold splits, Table 1's k, and the
    all-data selection."""
    tasks = []
    for dataset, k1 in TABLE1_K.items():
        if not full and dataset not in BOOK_DATASETS:
            continue
        ks = sorted(set(FIGURE_KS[dataset]) | {k1}) if full else [k1]
        for method in METHODS + ["all"]:
            for fold in range(N_FOLDS if full else 2):
                base = {"dataset": dataset, "method": method, "fold": fold, "n_max": 1000}
                tasks.append({**base, "ks": [0] if method == "all" else ks, "selection": "fold"})
                if dataset in BOOK_DATASETS and method != "all":
                    tasks.append({**base, "ks": [k1], "selection": "all"})
    repeats = range(1, TABLE1_REPEATS) if full else ()
    tasks += [{"dataset": dataset, "method": method, "fold": fold, "n_max": 1000,
               "ks": [0] if method == "all" else [k1], "selection": "fold", "repeat": r}
              for r in repeats for dataset, k1 in TABLE1_K.items() for method in METHODS + ["all"]
              for fold in range(N_FOLDS)]
    tasks += [{"dataset": dataset, "method": method, "fold": fold, "n_max": 1000,
               "ks": [k for k in FIGURE_KS[dataset] if k != k1], "selection": "fold", "repeat": r}
              for r in repeats for dataset, k1 in TABLE1_K.items() for method in METHODS
              for fold in range(N_FOLDS)]
    return tasks


def table1_tasks():
    """Table 1 alone with the full protocol, on the first partition: 5 folds, n ≤ 1 000, Table 1's k only."""
    return [dict(t, ks=[0] if t["method"] == "all" else [TABLE1_K[t["dataset"]]])
            for t in make_tasks(True) if "repeat" not in t]


def variant_errors(dataset, method, *, standardise=True, n_components=None, row_threshold=None,
                   folds_used=None):
    """Per-fold test errors (%) of HSFS or LDFS at Table 1's k on the protocol's folds, with the
    protocol's settings changed as asked (a check of the explanations of the gaps to the paper;
    nothing is stored in the protocol's store).

    Each fold uses the seed of the stored task of that fold, so with the defaults the errors are
    the store's.

    Parameters
    ----------
    dataset : str
        A key of :data:`TABLE1_K`.
    method : {"HSFS", "LDFS"}
    standardise : bool, default True
        ``False``: raw features for the selector and the SVM, both with the Gaussian width 1 of
        the paper in the features' own units.
    n_components : int or None
        Columns q of W; ``None`` keeps the protocol's (``min(d, 10)`` for HSFS, ``C - 1`` for
        LDFS).
    row_threshold : float or None
        The paper's rule: λ rises until exactly ``k`` rows have ``||w_j||∞`` above this value
        (the selectors' ``row_threshold``; the paper's 0.01: :data:`PAPER_ROW_THRESHOLD`); ``None``
        counts the non-zero rows (ours).
    folds_used : sequence of int or None
        The folds to run (default all five).

    Returns
    -------
    pandas.Series
        Errors (%) indexed by fold.

    Examples
    --------
    >>> variant_errors("glass", "LDFS", n_components=9).shape
    (5,)
    >>> variant_errors("wine", "LDFS", row_threshold=0.01, folds_used=[0]).index.tolist()
    [0]
    """
    if method not in ("HSFS", "LDFS"):
        raise ValueError(f"variant_errors runs HSFS or LDFS, got {method!r}")
    if dataset not in TABLE1_K:
        raise ValueError(f"unknown data set {dataset!r}; expected one of {list(TABLE1_K)}")
    folds_used = list(range(N_FOLDS)) if folds_used is None else [int(f) for f in folds_used]
    if not folds_used or any(not 0 <= f < N_FOLDS for f in folds_used):
        raise ValueError(f"folds_used must name folds in [0, {N_FOLDS}), got {folds_used!r}")
    tasks = {t["fold"]: t for t in make_tasks(True)
             if t["dataset"] == dataset and t["method"] == method and t["selection"] == "fold"
             and "repeat" not in t}          # the first partition's tasks
    X, y = load(dataset, 1000)
    k = TABLE1_K[dataset]
    splits = folds(dataset, 1000, y)
    if row_threshold is not None and not row_threshold > 0:
        raise ValueError(f"row_threshold must be positive or None, got {row_threshold!r}")
    out = {}
    for fold in folds_used:
        train, test = splits[fold]
        seed = task_seed(tasks[fold]) % (2 ** 31)
        sel = make_selector(method, min(k, X.shape[1]), seed).set_params(scale=standardise,
                                                                          row_threshold=row_threshold)
        if n_components is not None:
            sel.set_params(n_components=n_components)
        support = np.flatnonzero(sel.fit(X[train], y[train]).get_support())
        err, _ = svm_error(X[train][:, support], y[train], X[test][:, support], y[test], seed,
                           standardise=standardise)
        out[fold] = 100.0 * err
    return pd.Series(out, name="error").rename_axis("fold")



#: the data sets of the recorded explanations (``benchmarks/l1linf.py --only explanations``): the
#: data sets shared with the paper but wine and glass, which the chapter runs live on all five folds
RECORDED_EXPLANATION_DATASETS = ("arcene", "dexter", "madelon")
#: the folds of the recorded explanations: the first three of the five (a CPU bound, not a choice)
RECORDED_EXPLANATION_FOLDS = (0, 1, 2)


def explanation_runs(dataset):
    """The variants of the paper's settings tested on ``dataset``: ``{(method, name): keyword
    arguments of} :func:`variant_errors`.

    Unstandardised features with the paper's width 1 (HSFS and LDFS); the paper's 0.01 threshold
    on the rows of W (HSFS and LDFS); LDFS with q = min(d, 10) columns instead of C − 1; HSFS with
    the paper's q = d where 10 < d ≤ 100 (for d ≤ 10 our q = min(d, 10) is d already; for larger d
    a d × d matrix W is beyond a bounded run).

    Examples
    --------
    >>> sorted(name for _, name in explanation_runs("wine"))
    ['q = d', 'q = min(d, 10)', 'row threshold 0.01', 'row threshold 0.01', 'unstandardised, width 1', 'unstandardised, width 1']
    """
    d = load(dataset, 1000)[0].shape[1]
    runs = {("HSFS", "unstandardised, width 1"): {"standardise": False},
            ("LDFS", "unstandardised, width 1"): {"standardise": False},
            ("HSFS", "row threshold 0.01"): {"row_threshold": PAPER_ROW_THRESHOLD},
            ("LDFS", "row threshold 0.01"): {"row_threshold": PAPER_ROW_THRESHOLD},
            ("LDFS", "q = min(d, 10)"): {"n_components": min(d, 10)}}
    if 10 < d <= 100:
        runs["HSFS", "q = d"] = {"n_components": d}
    return runs


def recorded_variants(record):
    """The per-fold errors of a record of ``benchmarks/l1linf.py --only explanations`` as
    :func:`explanation_claims` takes them: ``{(dataset, method, name): Series by fold}``.

    Examples
    --------
    >>> rec = {"values": {"runs": [{"dataset": "arcene", "method": "HSFS", "variant": "v",
    ...                              "folds": [0, 1], "errors": [20.0, 25.0], "cpu_seconds": 3.0}]}}
    >>> recorded_variants(rec)["arcene", "HSFS", "v"].to_dict()
    {0: 20.0, 1: 25.0}
    """
    out = {}
    for run in record["values"]["runs"]:
        if len(run["folds"]) != len(run["errors"]):
            raise ValueError(f"record of {run['method']} on {run['dataset']}: folds and errors differ in length")
        out[run["dataset"], run["method"], run["variant"]] = pd.Series(
            run["errors"], index=pd.Index(run["folds"], name="fold"), name="error", dtype=float)
    return out

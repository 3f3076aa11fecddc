"""Protocol of the l1/linf chapter: Table 1 and Figures 1-5 of Masaeli, Fung & Dy (2010).

A task is ``(dataset, method, fold, ks, selection, n_max)``: on fold ``fold`` of a seeded
stratified 5-fold split of the dataset (subsampled, stratified and seeded, to ``n_max``
samples when larger, as the paper does for more than 1 000 samples), ``method`` selects each
number of features ``k`` in ``ks`` on the training fold (``selection="fold"``; ``"all"``
selects on the whole data set, the leaky protocol shown for comparison), and an RBF SVM
(LIBSVM through scikit-learn, Gaussian width σ = 1 on standardised features, i.e.
``gamma = 1/2``; C in {0.1, 1, 10, 100} by inner stratified 3-fold CV) trained on the
training fold's selected features is scored on the test fold.

Datasets: wine, glass (9 features; ``glass_id`` adds the UCI id column as a 10th, the
paper's count), ARCENE, DEXTER (sparse), MADELON (1 000 of 2 000), and Yale faces in place of
GISETTE (missing): the only image data set in ``data/`` (1 024 pixel features).
Methods: HSFS, FOHSIC, l1-SVM, SVM-RFE, ReliefF (the paper's "Relief"; 10 neighbours), LDFS, LS (Laplacian score, class graph) and
``all`` (no selection: the SVM on every feature).

What the paper ran: the seven methods on wine, glass, ARCENE, GISETTE, DEXTER and MADELON
(more than 1 000 samples subsampled to 1 000), 5-fold CV error of an RBF SVM of width 1 (C by
cross-validation) at one number of features per data set (Table 1) and along a range of
numbers of features (Figures 1-5: glass, wine, ARCENE, GISETTE, MADELON); it does not say
whether the features were selected inside the folds.

What ``--full`` runs (``make_tasks(True)``, 385 tasks): the seven data sets above x the seven
methods and ``all`` x the 5 folds, selection in the training folds at the figures' k and Table
1's k (:data:`FIGURE_KS`, :data:`TABLE1_K`), n <= 1 000; plus selection on all the data at
Table 1's k on wine, glass and glass_id.  The book reads these tasks from the committed store
``results/l1linf/`` (``fsbook.experiments.read_store``); ``make_tasks(False)`` is a quick
subsample (wine, glass, glass_id; folds 0 and 1; Table 1's k) for checks, not shown in the book.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from fsbook.experiments._protocol_helpers import make_selector as registry_selector
from fsbook.experiments._protocol_helpers import tuned_svm
from fsbook.experiments._runner import Protocol, task_seed

METHODS = ["HSFS", "FOHSIC", "l1-SVM", "SVM-RFE", "ReliefF", "LDFS", "LS"]
#: Table 1 of the paper: number of selected features and 5-fold CV error (%) per method
TABLE1_K = {"wine": 2, "glass": 2, "glass_id": 2, "arcene": 10, "yale": 6, "dexter": 20, "madelon": 10}
PAPER_TABLE1 = pd.DataFrame(
    {"wine": [4.58, 4.96, 6.89, 8.94, 8.98, 8.96, 9.24],
     "glass": [24.8, 25.11, 41.3, 45.32, 48.93, 47.93, 52.26],
     "arcene": [11.99, 13.56, 23.52, 23.76, 21.94, 22.11, 28.49],
     "gisette": [14.97, 21.11, 21.15, 18.73, 19.92, 37.22, 46.86],
     "dexter": [26.54, 29.93, 35.23, 35.08, 42.9, 43.85, 45.55],
     "madelon": [24.72, 26.55, 35.22, 39.92, 33.42, 34.74, 37.22]}, index=METHODS)
#: our data set standing for each column of the paper's Table 1
PAPER_COLUMN = {"wine": "wine", "glass": "glass", "glass_id": "glass", "arcene": "arcene",
                "yale": "gisette", "dexter": "dexter", "madelon": "madelon"}
#: numbers of features for the figures (full protocol)
FIGURE_KS = {"wine": [1, 2, 3, 4, 5, 6], "glass": [1, 2, 3, 4, 5, 6], "glass_id": [1, 2, 3, 4, 5, 6],
             "arcene": [2, 4, 6, 8, 10], "yale": [2, 4, 6, 8, 10], "dexter": [5, 10, 15, 20],
             "madelon": [2, 4, 6, 8, 10]}
C_GRID = [0.1, 1.0, 10.0, 100.0]
#: data sets of the quick subsample (``make_tasks(False)``) and of the all-data selection
BOOK_DATASETS = ("wine", "glass", "glass_id")
N_FOLDS = 5


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


#: the ℓ1/ℓ∞ path settings of this chapter's HSFS and LDFS
L1LINF_PATH = {"tol": 1e-4, "max_iter": 150, "max_bisect": 8}


def make_selector(method, k, seed):
    """The selector of ``method`` keeping ``k`` features (fixed settings, seeded;
    :func:`fsbook.experiments._protocol_helpers.make_selector`)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    return registry_selector(method, k, seed, l1linf_path=L1LINF_PATH)


def svm_error(X_train, y_train, X_test, y_test, seed):
    """Test error of the RBF SVM (σ = 1 on standardised features, C by inner 3-fold CV)."""
    if sp.issparse(X_train):
        X_train, X_test = X_train.toarray(), X_test.toarray()
    model = tuned_svm(SVC(kernel="rbf", gamma=0.5), {"C": C_GRID}, seed, scale=True)
    model.fit(X_train, y_train)
    return float(np.mean(model.predict(X_test) != y_test)), float(model.best_params_["svc__C"])


def run_task(params):
    """Errors of one method on one fold for every k (see module docstring)."""
    X, y = load(params["dataset"], params["n_max"])
    split_seed = task_seed({"dataset": params["dataset"], "n_max": params["n_max"]}, "folds")
    folds = list(StratifiedKFold(N_FOLDS, shuffle=True, random_state=split_seed).split(np.zeros(len(y)), y))
    train, test = folds[params["fold"]]
    seed = task_seed(params) % (2 ** 31)
    out = {"errors": [], "C": [], "supports": []}
    for k in params["ks"]:
        if params["method"] == "all":
            support = np.arange(X.shape[1])
        else:
            rows = train if params["selection"] == "fold" else np.arange(len(y))
            sel = make_selector(params["method"], min(k, X.shape[1]), seed).fit(X[rows], y[rows])
            support = np.flatnonzero(sel.get_support())
        err, C = svm_error(X[train][:, support], y[train], X[test][:, support], y[test], seed)
        out["errors"].append(err)
        out["C"].append(C)
        out["supports"].append(support.tolist() if params["method"] != "all" else [])
    return out


def make_tasks(full):
    """Full: every data set, method and fold at the figures' k and Table 1's k, n ≤ 1 000, and
    the all-data selection on wine and glass (385 tasks).  Quick subsample (``full=False``, for
    checks; the book reads the full store): wine, glass and glass with its id column only (the
    high-dimensional sets take minutes per HSFS fit), folds 0 and 1 of the same 5-fold splits,
    Table 1's k, and the all-data selection."""
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
    return tasks


def table1_tasks():
    """Table 1 alone with the full protocol: 5 folds, n ≤ 1 000, Table 1's k only."""
    return [dict(t, ks=[0] if t["method"] == "all" else [TABLE1_K[t["dataset"]]])
            for t in make_tasks(True)]


def _long(params_list, results_list):
    rows = []
    for p, r in zip(params_list, results_list):
        for k, e, C in zip(p["ks"], r["errors"], r["C"]):
            rows.append({"dataset": p["dataset"], "method": p["method"], "selection": p["selection"],
                         "fold": p["fold"], "k": k, "error": 100.0 * e, "C": C})
    return pd.DataFrame(rows)


def reduce(params_list, results_list):
    """Tables: ``table1`` (mean 5-fold error in % at Table 1's k, per method × data set,
    selection in the training folds; ``all`` = no selection), ``table1_se`` (standard errors
    over folds), ``all_data_selection`` (wine and glass, selection on all the data),
    ``curves`` (mean error per data set, method and k)."""
    df = _long(params_list, results_list)
    fold = df[df.selection == "fold"]
    at_k = fold[(fold.method == "all") | (fold.k == fold.dataset.map(TABLE1_K))]
    g = at_k.groupby(["method", "dataset"])["error"]
    order = [d for d in TABLE1_K if d in set(df.dataset)]
    methods = [m for m in METHODS + ["all"] if m in set(df.method)]
    table1 = g.mean().unstack()[order].reindex(methods)
    se = (g.std(ddof=1) / np.sqrt(g.count())).unstack()[order].reindex(methods)
    leak = df[df.selection == "all"]
    leak_table = leak.groupby(["method", "dataset"])["error"].mean().unstack().reindex(
        [m for m in METHODS if m in set(leak.method)]) if len(leak) else pd.DataFrame()
    curves = fold[fold.method != "all"].groupby(["dataset", "method", "k"])["error"].agg(["mean", "std"]).reset_index()
    supports = pd.DataFrame([{"dataset": p["dataset"], "method": p["method"], "fold": p["fold"],
                              "k": k, "support": s}
                             for p, r in zip(params_list, results_list) if p["selection"] == "fold"
                             for k, s in zip(p["ks"], r["supports"])])
    return {"table1": table1, "table1_se": se, "all_data_selection": leak_table, "curves": curves,
            "supports": supports}


PROTOCOL = Protocol(name="l1linf", make_tasks=make_tasks, run_task=run_task, reduce=reduce, version="4",
                    description="l1/linf feature selection: Table 1 and Figures 1-5 of Masaeli et al. 2010")


def ranking_claims(table1, decimals=2):
    """Per data set, whether the paper's ranking holds in ``table1`` (errors in %, rounded to
    ``decimals``): HSFS has the lowest error of the seven methods, FOHSIC the second lowest,
    LDFS a lower error than the Laplacian score.  Ties (equal after rounding) are reported as
    ties, not as wins."""
    from fsbook.report import rank_order

    rows = []
    for dataset in table1.columns:
        e = table1.loc[METHODS, dataset].round(decimals)
        others = e.drop("HSFS")
        best = "holds" if e["HSFS"] < others.min() else ("tie" if e["HSFS"] == others.min() else "fails")
        rest = e.drop(["HSFS", "FOHSIC"])
        second = ("holds" if e["FOHSIC"] < rest.min() and e["FOHSIC"] >= e["HSFS"] else
                  "tie" if e["FOHSIC"] == rest.min() else "fails")
        lda = "holds" if e["LDFS"] < e["LS"] else ("tie" if e["LDFS"] == e["LS"] else "fails")
        rows.append({"dataset": dataset, "HSFS best": best, "FOHSIC second (after HSFS)": second,
                     "LDFS below LS": lda, "our order (lowest error first)": rank_order(e, higher_is_better=False,
                                                                                      decimals=decimals)})
    return pd.DataFrame(rows)

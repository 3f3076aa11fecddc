"""The chance audit's reader of the ``l1linf`` store: every RBF SVM whose stored test accuracy
is at most its fold's majority rate, its C search (:func:`~fsbook.experiments.l1linf.tasks.svm_search`)
recomputed on the stored kept features (:mod:`fsbook.experiments._chance_stores`).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from fsbook.experiments import l1linf as L
from fsbook.experiments._chance_stores import majority_rate, svm_row
from fsbook.experiments._reading import read_store
from fsbook.experiments._runner import task_seed

__all__ = ["rows"]


def rows(recompute):
    res, found = read_store(L.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        X, y = L.tasks.load(p["dataset"], p["n_max"])
        train, test = L.tasks.folds(p["dataset"], p["n_max"], y, p.get("repeat", 0))[p["fold"]]
        majority = majority_rate(y[test])
        seed = task_seed(p) % (2 ** 31)
        for k, err, C, support in zip(p["ks"], r["errors"], r["C"], r["supports"]):
            task = (f"{p['dataset']} {p['method']} {p['selection']}"
                    + (f" repeat {p['repeat']}" if p.get("repeat") else "") + f" fold {p['fold']} k={k}")
            if 1.0 - err > majority + 1e-12:
                continue
            cols = np.arange(X.shape[1]) if p["method"] == "all" else np.asarray(support, dtype=int)
            Xtr = X[train][:, cols]
            Xtr = Xtr.toarray() if sp.issparse(Xtr) else Xtr
            found.append(svm_row("l1linf", task, "RBF SVM C", C, L.tasks.svm_search(seed), Xtr, y[train],
                                 {"svc__C": C}, recompute))
    return found

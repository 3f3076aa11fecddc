"""The chance audit's reader of the ``benchmark`` store: the linear and RBF SVMs on the kept
features (:func:`~fsbook.experiments.benchmark.models.classifier_searches`) and Proj-SVM
(:func:`~fsbook.experiments.benchmark.models.projection_search`) at the chance level, recomputed
(:mod:`fsbook.experiments._chance_stores`).
"""
from __future__ import annotations

import numpy as np

from fsbook.experiments import benchmark as B
from fsbook.experiments._chance_stores import choice_row, majority_rate, svm_row
from fsbook.experiments._reading import read_store
from fsbook.experiments._runner import task_seed

__all__ = ["rows"]


_PROJECTION_KEYS = ("projectionpenalty__estimator__C", "projectionpenalty__reduced_penalty")


def rows(recompute):
    res, found = read_store(B.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        if "not_run" in r:
            continue
        _, y, _, _ = B.data.load(p["dataset"])
        train, test = B.data.folds(p["dataset"], p["repeat"], p["n_folds"], y)[p["fold"]]
        majority = majority_rate(y[test])
        seed = task_seed(p)
        base = f"{p['dataset']} {p['method']} repeat {p['repeat']} fold {p['fold']}"
        if p["method"] in B.paper.CLASSIFIER_SIDE:
            if r["acc_linear"] <= majority + 1e-12:
                Xtr, _, _ = B.data.fold_data(p["dataset"], train, test)
                stored = [r["C"], r["reduced_penalty"]]
                found.append(svm_row("benchmark", base, "Proj-SVM (C, λ)", stored,
                                     B.models.projection_search(Xtr, y[train], seed), Xtr, y[train],
                                     dict(zip(_PROJECTION_KEYS, stored)), recompute))
            continue
        data = None
        for i, k in enumerate(r["k"]):
            for key, search in B.models.classifier_searches(seed).items():
                if r[key][i] > majority + 1e-12:
                    continue
                task, choice = f"{base} k={k}", f"{key[4:]} SVM C"
                if r["n_selected"][i] == 0:
                    found.append(choice_row("benchmark", task, choice, None, True, True, False,
                                     "no feature kept: the majority class, no choice"))
                    continue
                if data is None:
                    data = B.data.fold_data(p["dataset"], train, test)
                Xtr, Xte, columns = data
                cols = np.searchsorted(columns, r["support"][i])
                found.append(svm_row("benchmark", task, choice, None, search, Xtr[:, cols], y[train],
                                     None, recompute, test=(Xte[:, cols], y[test], r[key][i])))
    return found

"""The chance audit's reader of the ``hkl`` store: chapter 6's HKL, tuned-SVM and feature-weighting
SVM choices at the chance level (:mod:`fsbook.experiments._chance_stores`).
"""
from __future__ import annotations

import numpy as np

from fsbook.experiments import hkl as H
from fsbook.experiments._chance import tie_check
from fsbook.experiments._chance_stores import choice_row, majority_rate, repeat_label, svm_row
from fsbook.experiments._reading import read_store

__all__ = ["rows"]


def _hkl_cv_row(task, model, X_train, y_train, stored_C, recompute):
    """The row of one HKL choice at the chance level: :class:`~fsbook.hkl.DisjunctiveHKLCV`'s
    CV path recomputed (its ``one_class`` column), checked with its own tie tolerance, half a
    sample (``1/(2m)``)."""
    if not recompute:
        return choice_row("hkl", task, "HKL C", stored_C, True, note="not recomputed")
    model.fit(X_train, y_train)
    cv = model.cv_results_
    chosen = int(np.flatnonzero((cv.C.to_numpy() == model.C_) & (cv.beta.to_numpy() == model.beta_))[0])
    out = tie_check(cv.mean_accuracy.to_numpy(), cv.one_class.to_numpy(dtype=bool), chosen,
                    atol=0.5 / len(y_train))
    note = "" if model.C_ == stored_C else f"recomputed choice C = {model.C_} differs from the stored {stored_C}"
    return choice_row("hkl", task, "HKL C", stored_C, True, out["degenerate"], out["tied_alternative"], note)


def rows(recompute):
    """Chapter 6's model choices: HKL's C (Tables 1, 4 and 5 and the disjunctions), the tuned
    raw-attribute SVMs of Table 1, the tuned SVMs of Table 3 and the feature-weighting SVM of
    Table 5 (their stored parameters); Table 3's kernel check stores its C but is not
    recomputed here (none of its choices is at the chance level: a screened one fails the
    test)."""
    res, found = read_store(H.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        t = p["table"]
        if t == 1 and p["method"] in ("hkl", H.paper.RAW_TUNED):
            raw = p["method"] == H.paper.RAW_TUNED
            if raw:
                X, y, nominal, n_levels, split = H.data.load_raw(p["dataset"])
            else:
                X, y, _, split = H.data.load_table1(p["dataset"])
            train, test = H.folds.task_split(p, y, split)
            majority, seed = majority_rate(y[test]), H.folds.inner_seed(1, p["fold"], p.get("repeat", 0))
            task = f"table 1 {p['dataset']}{repeat_label(p)} fold {p['fold']}"
            if not raw:
                if r["HKL"] <= majority + 1e-12:
                    found.append(_hkl_cv_row(task, H.models.tuned_hkl(H.paper.HKL_C_GRID, seed), X[train],
                                             y[train], r["C"], recompute))
                continue
            for name, search in H.models.raw_tuned_svms(nominal, n_levels, seed).items():
                if r[name] <= majority + 1e-12:
                    stored = {k: r[f"{name}_{k.split('__')[-1]}"] for k in search.param_grid}
                    found.append(svm_row("hkl", f"{task} {name} (raw, tuned)", f"{name} SVM parameters", stored,
                                         search, X[train], y[train], stored, recompute))
        elif t == 3:
            X, y, _, _ = H.data.load_table1("20newsgroups")
            train, test = H.folds.task_split(p, y)
            majority = majority_rate(y[test])
            if p["method"] == "svm_tuned":
                seed = H.folds.inner_seed(3, p["fold"], p.get("repeat", 0))
                for name, search in H.models.tuned_svms(seed).items():
                    if r[name] <= majority + 1e-12:
                        found.append(svm_row("hkl", f"table 3{repeat_label(p)} fold {p['fold']} {name}", f"{name} SVM C",
                                             r[f"C_{name}"], search, X[train], y[train], {"C": r[f"C_{name}"]},
                                             recompute))
            else:
                for key in ("linear", "interactions"):
                    if r[key] <= majority + 1e-12:
                        found.append(choice_row("hkl", f"table 3 fold {p['fold']} degree {p['degree']} {key}", "SVM C",
                                         r[f"C_{key}"], True, note="not recomputed"))
        elif t == "disjunctions":
            X, y, _, _ = H.data.load_table1("20newsgroups")
            train, test = H.folds.disjunction_split()
            if r["accuracy"] > majority_rate(y[test]) + 1e-12:
                continue
            found.append(_hkl_cv_row("disjunctions", H.models.tuned_hkl(H.paper.HKL_C_GRID, 5), X[train],
                                     y[train], r["C"], recompute))
        elif t in (4, 5) and p["method"] in ("hkl", "weighted_svm"):
            X, y = H.data.load_numeric(p["dataset"])
            train, test = H.folds.task_split(p, y)
            if r["accuracy"] > majority_rate(y[test]) + 1e-12:
                continue
            task = f"table {t} {p['dataset']}{repeat_label(p)} fold {p['fold']} {p['method']}"
            seed = H.folds.inner_seed(t, p["fold"], p.get("repeat", 0))
            if p["method"] == "weighted_svm":
                stored = {"featureweightingsvm__C": r["C"]}
                found.append(svm_row("hkl", task, "SVM C", r["C"], H.models.tuned_weighted_svm(seed), X[train], y[train],
                                     stored, recompute))
                continue
            Xb = H.data.table4_boolean(p["dataset"])[2] if t == 4 else H.data.load_table1(p["dataset"])[0]
            found.append(_hkl_cv_row(task, H.models.tuned_hkl(H.paper.HKL_C_GRID, seed), Xb[train], y[train],
                                     r["C"], recompute))
    return found

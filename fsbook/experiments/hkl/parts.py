"""The parts of the ``hkl`` protocol: the function that runs each table's tasks (:data:`PARTS`,
keyed by ``params["table"]``), and Table 3's tuned SVMs on one outer fold
(:func:`svm_tuned_fold`), which the ablations of :mod:`fsbook.experiments.hkl.ablations` rerun
with one setting changed.
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.baselines import WekaSubsetSelector, ZeroNormSVM
from fsbook.baselines.weka_svm import SharedDistanceSearch
from fsbook.datasets import most_frequent_words
from fsbook.experiments.hkl.data import load_numeric, load_raw, load_table1, table4_boolean
from fsbook.experiments.hkl.folds import disjunction_split, inner_seed, task_split
from fsbook.experiments.hkl.models import (
    _certificate,
    _chosen_c,
    _features_used,
    _fitted_hkl,
    _majority,
    _raw_svms,
    _scored,
    _svms,
    raw_tuned_svms,
    tuned_hkl,
    tuned_svms,
    tuned_weighted_svm,
)
from fsbook.experiments.hkl.newsgroups import interaction_svm_fold
from fsbook.experiments.hkl.paper import (
    HKL_C_GRID,
    PAPER_DISJUNCTIONS,
    RAW_ALL,
    RAW_CONFIGS,
    RAW_TUNED,
    WORDS_FOR_WEKA,
)


def _run_table1_raw(p):
    """Table 1's rows on the attributes as Weka reads them (``"... (raw)"`` methods)."""
    X, y, nominal, n_levels, split = load_raw(p["dataset"])
    train, test = task_split(p, y, split)
    cols, out = np.arange(X.shape[1]), {}
    if p["method"] in RAW_CONFIGS:
        search = p["method"].removesuffix(" (raw)").split("/")[1]
        if p["dataset"] == "20newsgroups":   # the Weka searches see the most frequent words only
            cols = most_frequent_words(X[train], WORDS_FOR_WEKA)
        sel = WekaSubsetSelector(evaluator="cfs", search=search, discrete_features=nominal[cols])
        sel.fit(X[train][:, cols], y[train])
        cols = cols[sel.selected_]
        out["n_selected"] = int(cols.size)
    if cols.size == 0:
        return {**out, **_majority(y[train], y[test])}
    if p["method"] == RAW_TUNED:
        models = raw_tuned_svms(nominal[cols], n_levels[cols], inner_seed(1, p["fold"], p.get("repeat", 0)))
        models["L2"] = SharedDistanceSearch(models["L2"])    # the same search, its distances once
    else:
        models = _raw_svms(nominal[cols], n_levels[cols])
    for name, clf in models.items():
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)      # no unconverged fit is used
            clf.fit(X[train][:, cols], y[train])
        out.update(_scored(name, clf, X[test][:, cols], y[test]))
        if p["method"] == RAW_TUNED:
            out.update({f"{name}_{k.split('__')[-1]}": float(v) for k, v in clf.best_params_.items()})
    return out


def _run_table1(p):
    if p["method"] in RAW_CONFIGS or p["method"] in (RAW_ALL, RAW_TUNED):
        return _run_table1_raw(p)
    X, y, names, split = load_table1(p["dataset"])
    train, test = task_split(p, y, split)
    seed = inner_seed(1, p["fold"], p.get("repeat", 0))
    if p["method"] == "hkl":
        model = tuned_hkl(HKL_C_GRID, seed).fit(X[train], y[train])
        est = _fitted_hkl(model)
        used = _features_used(est)
        return {**_scored("HKL", model, X[test], y[test]), "C": _chosen_c(model),
                "n_disjunctions": len(est.disjunctions_), "n_features_used": len(used),
                **_certificate(model)}
    out = {}
    cols = np.arange(X.shape[1])
    Xd = X
    if p["method"] != "all":
        ev, search = p["method"].split("/")
        if p["dataset"] == "20newsgroups":       # the Weka searches see the most frequent words only
            cols = most_frequent_words(X[train], WORDS_FOR_WEKA)
            Xd = X[:, cols].toarray()
        sel = WekaSubsetSelector(evaluator=ev, search=search, discrete_features=True)
        sel.fit(Xd[train], y[train])
        cols = cols[sel.selected_]
        out["n_selected"] = int(cols.size)
    if cols.size == 0:
        return {**out, **_majority(y[train], y[test])}
    for name, clf in _svms().items():
        clf.fit(X[train][:, cols], y[train])
        out.update(_scored(name, clf, X[test][:, cols], y[test]))
    return out


def _run_table3(p):
    if p["method"] == "interactions":
        r = interaction_svm_fold(p["fold"], seed=0, inner_seed=inner_seed(3, p["fold"]),
                                 degree=p["degree"], outcomes=True)
        lin, inter = r["linear"], r["interactions"]
        return {"linear": lin["accuracy"], "C_linear": lin["C"], "inner_linear": lin["inner"],
                "outcomes_linear": lin["outcomes"], "outcomes_interactions": inter["outcomes"],
                "interactions": inter["accuracy"], "gamma": inter["gamma"],
                "C_interactions": inter["C"], "inner_interactions": inter["inner"]}
    return svm_tuned_fold(p["fold"], outcomes=True, repeat=p.get("repeat", 0))


def svm_tuned_fold(fold, *, X=None, l1=None, models=("L2", "L1"), outcomes=False, repeat=0):
    """Table 3's tuned SVMs on outer ``fold`` of the 20 Newsgroups pair: test accuracy and the
    chosen ``C`` of each of ``models``.

    Parameters
    ----------
    fold : int
        Outer fold (:func:`~fsbook.experiments.hkl.folds.table_folds`); the inner CV's seed is
        ``inner_seed(3, fold, repeat)``.
    X : sparse matrix or None
        Another input for the same 1 427 posts (None: the stored 0/1 words,
        :func:`~fsbook.experiments.hkl.data.load_table1`).
    l1 : callable or None
        ``l1(seed)`` builds another tuned L1-SVM (None: the stored one).
    models : tuple of str
        Which of ``"L2"``, ``"L1"`` to fit.
    outcomes : bool, default False
        Also return each model's test outcomes, ``"outcomes_<name>"``
        (:func:`~fsbook.experiments._protocol_helpers.outcome_string`).
    repeat : int, default 0
        The partition of the outer folds, the one Table 1's tasks on the pair use
        (:func:`~fsbook.experiments.hkl.folds.task_split`).

    Returns
    -------
    dict
        ``{name: accuracy (fraction), "C_<name>": chosen C}`` for each model.
    """
    X0, y, _, _ = load_table1("20newsgroups")
    X = X0 if X is None else X
    train, test = task_split({"table": 3, "fold": fold, "repeat": repeat}, y)
    out = {}
    for name, clf in tuned_svms(inner_seed(3, fold, repeat), l1=l1).items():
        if name not in models:
            continue
        clf.fit(X[train], y[train])
        scored = _scored(name, clf, X[test], y[test])
        out.update(scored if outcomes else {name: scored[name]})
        out[f"C_{name}"] = float(next(v for k, v in clf.best_params_.items() if k.endswith("C")))
    return out


def _coverage(X, cols):
    return float(np.mean(np.asarray(X[:, cols].sum(axis=1)).ravel() > 0)) if cols else float("nan")


def _run_disjunctions(p):
    X, y, words, _ = load_table1("20newsgroups")
    train, test = disjunction_split()
    model = tuned_hkl(HKL_C_GRID, 5).fit(X[train], y[train])
    est = _fitted_hkl(model)
    index = {w: i for i, w in enumerate(words)}
    found = [{"disjunction": " ∨ ".join(words[i] for i in d), "size": len(d),
              "weight": float(w), "coverage": _coverage(X[test], list(d))}
             for d, w in zip(est.disjunctions_, est.coef_)]
    paper = [{"disjunction": " ∨ ".join(d),
              "missing": [w for w in d if w not in index],
              "coverage": _coverage(X[test], [index[w] for w in d if w in index])}
             for d in PAPER_DISJUNCTIONS]
    return {**_scored("accuracy", model, X[test], y[test]), "C": _chosen_c(model), "found": found,
            "paper": paper, **_certificate(model)}


def _run_table4(p):
    seed = inner_seed(4, p["fold"], p.get("repeat", 0))
    if p["method"] == "zero_norm":
        X, y = load_numeric(p["dataset"])
        train, test = task_split(p, y)
        model = make_pipeline(StandardScaler(), ZeroNormSVM(n_features_to_select=p["fraction"]))
        model.fit(X[train], y[train])
        k = int(model[-1].support_.sum())
        return {**_scored("accuracy", model, X[test], y[test]), "fraction_used": k / X.shape[1]}
    X, y, Xb, names = table4_boolean(p["dataset"])
    train, test = task_split(p, y)
    model = tuned_hkl(HKL_C_GRID, seed).fit(Xb[train], y[train])
    used = _features_used(_fitted_hkl(model))
    return {**_scored("accuracy", model, Xb[test], y[test]), "C": _chosen_c(model),
            "fraction_used": len(_originals(names, used)) / X.shape[1],
            "fraction_boolean": len(used) / Xb.shape[1], **_certificate(model)}


def _originals(names, used):
    """Original columns behind boolean features named ``col>t`` or ``col=level``."""
    return {names[u].split(">")[0].split("=")[0] for u in used}


def _run_table5(p):
    seed = inner_seed(5, p["fold"], p.get("repeat", 0))
    X, y = load_numeric(p["dataset"])
    train, test = task_split(p, y)
    if p["method"] == "weighted_svm":
        model = tuned_weighted_svm(seed).fit(X[train], y[train])
        k = int(model.best_estimator_[-1].support_.sum())
        return {**_scored("accuracy", model, X[test], y[test]), "fraction_used": k / X.shape[1],
                "C": float(model.best_params_["featureweightingsvm__C"])}
    Xb, _, names, _ = load_table1(p["dataset"])
    model = tuned_hkl(HKL_C_GRID, seed).fit(Xb[train], y[train])
    used = _features_used(_fitted_hkl(model))
    return {**_scored("accuracy", model, Xb[test], y[test]),
            "fraction_used": len(_originals(names, used)) / X.shape[1],
            "fraction_boolean": len(used) / Xb.shape[1], "C": _chosen_c(model),
            **_certificate(model)}


#: the function that runs each part of the protocol (``params["table"]``)
PARTS = {1: _run_table1, 3: _run_table3, "disjunctions": _run_disjunctions, 4: _run_table4, 5: _run_table5}

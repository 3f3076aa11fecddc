"""The benchmark's tasks: ``make_tasks`` and ``run_task``, which runs one method on one fold
(the protocol is described in :mod:`fsbook.experiments.benchmark`).

The data and folds are :mod:`~fsbook.experiments.benchmark.data`'s, the selectors
:mod:`~fsbook.experiments.benchmark.selectors`' and the classifiers' model searches
:mod:`~fsbook.experiments.benchmark.models`'.
"""
from __future__ import annotations

import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.experiments._runner import task_seed
from fsbook.experiments.benchmark.data import attribute_groups, fold_data, folds, load, width
from fsbook.experiments.benchmark.models import projection_accuracy, test_accuracies
from fsbook.experiments.benchmark.paper import (
    BOOK_DATASETS,
    BOOK_KS,
    CLASSIFIER_SIDE,
    FULL_DATASETS,
    FULL_KS,
    FULL_ONLY,
    METHOD_TABLE,
    OWN_SIZE,
    RANKERS,
    UNSCALED,
    all_methods,
    fit_clock,
)
from fsbook.experiments.benchmark.selectors import cannot_run, hkl_certificate, make_selector, support_at


def _check_params(params):
    for key in ("dataset", "repeat", "fold", "n_folds", "method", "ks"):
        if key not in params:
            raise ValueError(f"task parameters lack {key!r}: {params}")
    if not 0 <= params["fold"] < params["n_folds"]:
        raise ValueError(f"fold {params['fold']} is not in [0, {params['n_folds']})")
    known = list(METHOD_TABLE)
    if params["method"] not in known:
        raise ValueError(f"unknown method {params['method']!r}; expected one of {known}")


def _run_classifier_side(params, X_train, y_train, X_test, y_test, columns, seed):
    """A classifier-side task (``Proj-SVM``): one accuracy on all features, its time and (C, λ)."""
    acc, seconds, C, penalty = projection_accuracy(X_train, y_train, X_test, y_test, seed)
    return {"acc_linear": acc, "fit_time": seconds, "C": C, "reduced_penalty": penalty}


def _fit_selector(params, X_train, y_train, k, seed):
    """Fit one selector of a task at ``k`` (a ranker at the task's largest ``k``): ``(fitted, seconds)``."""
    method, dataset = params["method"], params["dataset"]
    boolean = load(dataset)[3]
    fit_k = max(params["ks"]) if method in RANKERS else k
    groups = attribute_groups(load(dataset)[2]) if method == "GeoRatio" else None
    scaler = [] if method in UNSCALED else [StandardScaler()]
    selector = make_pipeline(*scaler, make_selector(method, fit_k, seed, boolean, groups))
    clock = fit_clock()
    start = clock()
    selector.fit(X_train, y_train)
    return selector[-1], clock() - start


def _run_selection(params, X_train, y_train, X_test, y_test, columns, seed):
    """A selector task (or ``none``): at every ``k``, the kept set and both classifiers' accuracies."""
    method = params["method"]
    d = X_train.shape[1]
    out = {"k": [], "n_selected": [], "acc_linear": [], "acc_rbf": [], "fit_time": [], "support": []}
    ranked = None          # a ranking method's one fit, reused at every k
    for k in params["ks"]:
        if method == "none":
            support, seconds = np.arange(d), 0.0
        elif ranked is not None:
            support = support_at(ranked, method, k)
        else:
            fitted, seconds = _fit_selector(params, X_train, y_train, k, seed)
            if method in RANKERS:
                ranked = fitted
                support = support_at(ranked, method, k)
            else:
                support = np.flatnonzero(fitted.get_support())
        lin, rbf = test_accuracies(X_train[:, support], y_train, X_test[:, support], y_test, seed)
        out["k"].append(int(k))
        out["n_selected"].append(int(support.size))
        out["acc_linear"].append(lin)
        out["acc_rbf"].append(rbf)
        out["fit_time"].append(seconds)
        out["support"].append(columns[support].tolist())
    if method == "HKL":
        out.update(hkl_certificate(ranked))
    return out


#: the function that runs a task of each method (selectors and ``none``: :func:`_run_selection`)
RUNNERS = {m: _run_classifier_side if row.family == "classifier side" else _run_selection
           for m, row in METHOD_TABLE.items()}


def run_task(params):
    """Accuracies, fit times and kept sets of one method on one fold (module docstring).

    The method's runner (:data:`RUNNERS`) sees the fold's training and test matrices; a method
    that cannot run on the data set (:func:`cannot_run`) returns the reason instead.

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`.

    Returns
    -------
    dict
        A selector's task: lists over ``ks`` of ``k``, ``n_selected``, ``acc_linear``,
        ``acc_rbf``, ``fit_time`` and ``support`` (and HKL's :func:`hkl_certificate`); a
        classifier-side task: ``acc_linear``, ``fit_time``, ``C`` and ``reduced_penalty``; a task
        that cannot run: ``not_run``.

    Examples
    --------
    >>> r = run_task({"dataset": "wine", "repeat": 0, "fold": 0, "n_folds": 3, "method": "none", "ks": [0]})
    >>> r["n_selected"], [round(a, 3) for a in r["acc_linear"]]
    ([13], [0.983])
    >>> run_task({"dataset": "wine", "repeat": 0, "fold": 0, "n_folds": 3, "method": "GeoRatio", "ks": [0]})
    {'not_run': 'not run: numeric attributes, no feature groups'}
    """
    _check_params(params)
    _, y, _, _ = load(params["dataset"])
    train, test = folds(params["dataset"], params["repeat"], params["n_folds"], y)[params["fold"]]
    seed = task_seed(params)
    method = params["method"]
    d = width(params["dataset"])
    for k in params["ks"]:
        if method not in ("none", *CLASSIFIER_SIDE) and not (1 <= k < d or (k == 0 and method in OWN_SIZE)):
            raise ValueError(f"k={k} must be in [1, {d}) for {params['dataset']}")
    reason = cannot_run(method, params["dataset"])
    if reason is not None:
        return {"not_run": reason}
    X_train, X_test, columns = fold_data(params["dataset"], train, test)
    return RUNNERS[method](params, X_train, y[train], X_test, y[test], columns, seed)


def make_tasks(full):
    """Book subsample: :data:`BOOK_DATASETS`, ``ks`` = :data:`BOOK_KS`, 1 repeat of 3 folds, every
    method but :data:`FULL_ONLY`.  Full: :data:`FULL_DATASETS`, :data:`FULL_KS`, 5 repeats of 2
    folds (5 × 2 CV), every method.  On each data set only the ``k`` below its number of features
    (:func:`width`) are run.  A method that cannot run on a data set (:func:`cannot_run`) still
    has its tasks: they return the reason, which :func:`reduce` puts in its ``not_run`` table.

    Parameters
    ----------
    full : bool
        The paper-sized protocol rather than the book's subsample.

    Returns
    -------
    list of dict
        ``{"dataset", "repeat", "fold", "n_folds", "method", "ks"}`` per task (``ks = [0]``: the
        method's own number of features, or all of them).

    Examples
    --------
    >>> tasks = make_tasks(False)
    >>> tasks[0]
    {'dataset': 'wine', 'repeat': 0, 'fold': 0, 'n_folds': 3, 'method': 'none', 'ks': [0]}
    >>> sorted({t["dataset"] for t in tasks}) == sorted(BOOK_DATASETS)
    True
    """
    datasets, ks, repeats, n_folds = ((FULL_DATASETS, FULL_KS, 5, 2) if full else (BOOK_DATASETS, BOOK_KS, 1, 3))
    tasks = []
    for dataset in datasets:
        d = width(dataset)
        valid_ks = [k for k in ks if k < d]      # wine has 13 features: no k = 20 or 50 there
        for repeat in range(repeats):
            for fold in range(n_folds):
                for method in all_methods():
                    if method in FULL_ONLY and not full:
                        continue
                    # k = 0 stands for "the method's own number of features" (or all of them)
                    mk = [0] if method in OWN_SIZE or method in CLASSIFIER_SIDE else valid_ks
                    tasks.append({"dataset": dataset, "repeat": repeat, "fold": fold, "n_folds": n_folds,
                                  "method": method, "ks": mk})
    return tasks

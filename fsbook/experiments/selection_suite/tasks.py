"""The data, the folds and the tasks of the ``selection_suite`` protocol: :func:`make_tasks`, and
:func:`run_task`, which fits one selector on one training fold and scores it at every ``k``."""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.experiments import benchmark as B
from fsbook.experiments._memory import PeakRSS
from fsbook.experiments._runner import task_seed
from fsbook.experiments._workers import process_cpu_seconds
from fsbook.experiments.benchmark.data import attribute_groups
from fsbook.experiments.selection_suite import paper

__all__ = ["make_tasks", "run_task", "design", "dataset_facts", "load", "width", "folds", "fold_data", "make_selector",
           "support_at", "ks_of", "rank_k", "cannot_run", "exclusions", "accuracies", "sources"]


def sources():
    """The data sets of the protocol, in order: :data:`DATASETS`' keys."""
    return list(paper.DATASETS)


@functools.lru_cache(maxsize=4)
def _raw(dataset):
    """``(X, y, feature_names, boolean)`` of a data set as its loader gives it (X float64, dense,
    or sparse CSR for word counts)."""
    from fsbook import datasets as D

    if dataset not in paper.DATASETS:
        raise ValueError(f"unknown dataset {dataset!r}; expected one of {sources()}")
    if dataset in B.paper.FULL_DATASETS:
        return B.data.load(dataset)
    b = getattr(D, f"load_{dataset}")(**paper.DATASETS[dataset][1])
    X = b.data.astype(np.float64) if sp.issparse(b.data) else np.asarray(b.data, dtype=np.float64)
    names = getattr(b, "feature_names", None)
    names = tuple(str(n) for n in names) if names is not None and len(names) == X.shape[1] else \
        tuple(f"x{j}" for j in range(X.shape[1]))
    boolean = bool(np.isin(X.data if sp.issparse(X) else X, (0.0, 1.0)).all())
    return X, np.asarray(b.target), names, boolean


@functools.lru_cache(maxsize=4)
def load(dataset):
    """``(X, y, feature_names, boolean)`` of a data set after its subsample: the rows of a
    stratified sample of :data:`MAX_SAMPLES` (seeded by the data set's name, in their original
    order) when it has more, else every row."""
    X, y, names, boolean = _raw(dataset)
    if len(y) > paper.MAX_SAMPLES:
        keep, _ = train_test_split(np.arange(len(y)), train_size=paper.MAX_SAMPLES, stratify=y,
                                   random_state=task_seed({"dataset": dataset}, "subsample"))
        keep = np.sort(keep)
        X, y = X[keep], y[keep]
    return X, y, names, boolean


def width(dataset):
    """Features every method of a fold sees (``benchmark.VOCABULARY`` on the 20 Newsgroups pair)."""
    return B.paper.VOCABULARY if dataset in B.paper.TEXT_DATASETS else load(dataset)[0].shape[1]


def dataset_facts(dataset):
    """``{"n", "d", "classes", "groups"}`` of a data set after subsampling (``groups``: its
    number of nominal attributes, ``None`` for numeric or word columns), what exclusions read."""
    X, y, names, _ = load(dataset)
    groups = attribute_groups(names)
    return {"n": int(len(y)), "d": int(width(dataset)), "classes": int(np.unique(y).size),
            "groups": None if groups is None else len(groups)}


def ks_of(dataset, fractions=paper.FRACTIONS):
    """The sizes k of a data set: ``round(f · min(d, WIDTH_CAP))`` for ``f`` in ``fractions``,
    at least 1 and below ``d``, without duplicates.

    Examples
    --------
    >>> from fsbook.experiments import selection_suite as S
    >>> S.tasks.ks_of("wine"), S.tasks.ks_of("colon")
    ([1, 3], [10, 25, 50, 100])
    """
    d = width(dataset)
    return sorted({k for k in (max(1, int(round(f * min(d, paper.WIDTH_CAP)))) for f in fractions) if k < d})


def cannot_run(method, dataset):
    """Why ``method`` does not run on ``dataset`` (from :data:`EXCLUSIONS`), or ``None``."""
    if method not in paper.EXCLUSIONS:
        return None
    rule, reason = paper.EXCLUSIONS[method]
    return f"not run: {reason}" if rule(dataset_facts(dataset)) else None


def design():
    """The data sets as the protocol uses them: domain, preprocessing, samples after (and
    before) subsampling, width, classes, the sizes k and the methods excluded there."""
    rows = []
    for d, (domain, _, prep) in paper.DATASETS.items():
        f = dataset_facts(d)
        rows.append({"dataset": d, "domain": domain, "n": f["n"], "n (before subsampling)": len(_raw(d)[1]),
                     "d": f["d"], "classes": f["classes"], "preprocessing": prep, "ks": ks_of(d),
                     "excluded": ", ".join(m for m in paper.METHODS if cannot_run(m, d))})
    return pd.DataFrame(rows)


def exclusions():
    """The declared exclusions: each excluded method, its reason and the data sets it skips,
    then the methods of chapter 7 this protocol leaves out (:data:`NOT_INCLUDED`) and the suite's
    data sets it leaves out (:data:`LEFT_OUT`)."""
    rows = [{"method": m, "reason": reason.replace("GEO_MAX_GROUPS", str(B.paper.GEO_MAX_GROUPS)),
             "data sets": ", ".join(d for d in paper.DATASETS if cannot_run(m, d))}
            for m, (_, reason) in paper.EXCLUSIONS.items()]
    rows += [{"method": m, "reason": reason, "data sets": "all"} for m, reason in paper.NOT_INCLUDED.items()]
    rows += [{"method": "all", "reason": reason, "data sets": d} for d, reason in paper.LEFT_OUT.items()]
    return pd.DataFrame(rows)


def folds(dataset, repeat, n_folds=paper.N_FOLDS):
    """The stratified folds of ``(dataset, repeat)``, the same for every method."""
    y = load(dataset)[1]
    seed = task_seed({"dataset": dataset, "repeat": repeat, "n_folds": n_folds}, "folds")
    return list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


def fold_data(dataset, train, test):
    """``(X_train, X_test, columns)``: dense matrices of one fold and their columns in the data
    set (a fold vocabulary on the 20 Newsgroups pair, as in ``benchmark``)."""
    X = load(dataset)[0]
    if dataset in B.paper.TEXT_DATASETS:
        columns = B.data.vocabulary(X[train])
        return X[train][:, columns].toarray(), X[test][:, columns].toarray(), columns
    dense = (lambda A: A.toarray()) if sp.issparse(X) else (lambda A: A)
    return dense(X[train]), dense(X[test]), np.arange(X.shape[1])


def make_selector(method, k, seed, boolean=False, groups=None):
    """``benchmark``'s selector of ``method`` (its settings), or :class:`~fsbook.baselines.MRMR`
    (Peng's MID criterion, mean ± std discretisation; the distinct values on 0/1 data)."""
    if method == "MRMR":
        from fsbook.baselines import MRMR

        return MRMR(k, discretise="none" if boolean else "mean_std")
    return B.selectors.make_selector(method, k, seed, boolean, groups, version=paper.BENCHMARK_VERSION)


def support_at(selector, method, k):
    """The ``k`` features a fitted ranker keeps (mRMR: the first ``k`` it chose, the set a fit at
    ``k`` keeps, greedy forward selection being prefix-consistent)."""
    if method == "MRMR":
        return np.sort(selector.ranking_[:k])
    return B.selectors.support_at(selector, method, k)


def _fit(method, k, seed, dataset, X_train, y_train):
    """Fit one selector; ``(fitted, cpu seconds, peak MiB)`` (:class:`~fsbook.experiments._memory.PeakRSS`)."""
    boolean, names = load(dataset)[3], load(dataset)[2]
    groups = attribute_groups(names) if method == "GeoRatio" else None
    scaler = [] if method in B.paper.UNSCALED else [StandardScaler()]
    pipe = make_pipeline(*scaler, make_selector(method, k, seed, boolean, groups))
    with PeakRSS() as memory:
        start = process_cpu_seconds()
        pipe.fit(X_train, y_train)
        cpu = process_cpu_seconds() - start
    return pipe[-1], cpu, memory.peak_mib


def accuracies(X_train, y_train, X_test, y_test, seed, classifiers=tuple(paper.CLASSIFIERS)):
    """Test accuracy of each classifier (``benchmark``'s tuned SVMs; with no column kept, the
    training fold's majority class)."""
    from sklearn.svm import SVC, LinearSVC

    from fsbook.model_selection import tuned_svm

    if X_train.shape[1] == 0:
        labels, counts = np.unique(y_train, return_counts=True)
        return {c: float(np.mean(y_test == labels[np.argmax(counts)])) for c in classifiers}
    models = {"acc_linear": (LinearSVC(random_state=seed, max_iter=5000), B.paper.C_LINEAR),
              "acc_rbf": (SVC(kernel="rbf", gamma="scale"), B.paper.C_RBF)}
    out = {}
    for c in classifiers:
        clf, grid = models[c]
        model = tuned_svm(clf, {"C": grid}, seed, scale=True,
                          tie=B.paper.SVM_TIES[paper.BENCHMARK_VERSION]).fit(X_train, y_train)
        out[c] = float(np.mean(model.predict(X_test) == y_test))
    return out


def run_task(params):
    """Kept sets, accuracies per ``k`` and each fit's CPU time and peak memory (module docstring)."""
    dataset, method = params["dataset"], params["method"]
    if method not in paper.METHODS or dataset not in paper.DATASETS:
        raise ValueError(f"unknown method or data set in {params}")
    reason = cannot_run(method, dataset)
    if reason is not None:
        return {"not_run": reason}
    y = load(dataset)[1]
    train, test = folds(dataset, params["repeat"], params["n_folds"])[params["fold"]]
    X_train, X_test, columns = fold_data(dataset, train, test)
    seed = task_seed(params)
    with warnings.catch_warnings():       # classes of 3 samples in a training half, 3 inner folds
        warnings.filterwarnings("ignore", "The least populated class", UserWarning)
        return _run_selection(params, dataset, method, X_train, X_test, columns, y[train], y[test], seed)


def _run_selection(params, dataset, method, X_train, X_test, columns, y_train, y_test, seed):
    out = {key: [] for key in ("k", "n_selected", *paper.CLASSIFIERS, "fit_cpu", "peak_mib", "support")}
    ranked = None
    for k in params["ks"]:
        cpu = peak = 0.0
        if method == "none":
            support = np.arange(X_train.shape[1])
        elif ranked is not None:
            support = support_at(ranked, method, k)
        else:
            fitted, cpu, peak = _fit(method, max(params["ks"]) if method in paper.RANKERS else k, seed, dataset,
                                     X_train, y_train)
            ranked = fitted if method in paper.RANKERS else None
            support = (support_at(fitted, method, k) if method in paper.RANKERS
                       else np.flatnonzero(fitted.get_support()))
        acc = accuracies(X_train[:, support], y_train, X_test[:, support], y_test, seed)
        for key, value in (("k", int(k)), ("n_selected", int(support.size)), ("fit_cpu", cpu), ("peak_mib", peak),
                           ("support", np.asarray(columns)[support].tolist()), *acc.items()):
            out[key].append(value)
    if method == "HKL":
        out.update(B.selectors.hkl_certificate(ranked))
    return out


def make_tasks(full):
    """Full: every data set, :data:`REPEATS` × :data:`N_FOLDS` CV, every method.  Quick:
    :data:`QUICK_DATASETS`, the first :data:`QUICK_REPEATS` repetitions, every method but
    :data:`FULL_ONLY` (tasks of the full protocol).  An excluded cell keeps its tasks (they
    return the reason)."""
    datasets, repeats = (sources(), paper.REPEATS) if full else (paper.QUICK_DATASETS, paper.QUICK_REPEATS)
    return [{"dataset": d, "repeat": r, "fold": f, "n_folds": paper.N_FOLDS, "method": m,
             "ks": [0] if m in paper.OWN_SIZE else ks_of(d)}
            for d in datasets for r in range(repeats) for f in range(paper.N_FOLDS)
            for m in paper.METHODS if full or m not in paper.FULL_ONLY]


def rank_k(dataset):
    """The ``k`` at which methods are ranked on a data set: :data:`RANK_FRACTION` of its width
    up to :data:`WIDTH_CAP` (at least 1; one of :func:`ks_of`)."""
    return max(1, int(round(paper.RANK_FRACTION * min(width(dataset), paper.WIDTH_CAP))))

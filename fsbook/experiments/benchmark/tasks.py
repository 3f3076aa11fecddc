"""The benchmark's tasks: data, folds, the selectors and classifiers of one fold, ``run_task``
and ``make_tasks`` (the protocol is described in :mod:`fsbook.experiments.benchmark`).

The geometric-ratio selector (chapter 4) chooses among the feature groups
:func:`attribute_groups` gives, where the data define them; HKL's selector is
:class:`fsbook.hkl.HKLRanker`.
"""
from __future__ import annotations

import functools
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from fsbook.datasets import load_atheism_religion, most_frequent_words
from fsbook.experiments._protocol_helpers import make_selector as registry_selector
from fsbook.experiments._runner import task_seed
from fsbook.experiments.benchmark.paper import (
    BOOK_DATASETS,
    BOOK_KS,
    C_LINEAR,
    C_RBF,
    CLASSIFIER_SIDE,
    FULL_DATASETS,
    FULL_KS,
    FULL_ONLY,
    GEO_MAX_GROUPS,
    HKL_N_BINS,
    HKL_SETTINGS,
    L1LINF_FAST,
    METHOD_TABLE,
    OWN_SIZE,
    PROJ_PENALTIES,
    RANK_K,
    RANKERS,
    SVM_TIES,
    TEXT_DATASETS,
    UNSCALED,
    VERSION,
    VOCABULARY,
    all_methods,
    methods,
)
from fsbook.hkl import HKLRanker
from fsbook.model_selection import tuned_svm


def attribute_groups(names):
    """The indicator columns of each nominal attribute, from one-hot names ``"attr=level"``.

    The geometric-ratio selector chooses among unions of feature groups; a booleanised nominal
    table (:func:`fsbook.booleanize.one_hot`) defines them: the indicators of one attribute.
    Returns ``None`` when some name is not of that form (numeric attributes, words): the data
    then define no groups.

    Parameters
    ----------
    names : sequence of str

    Returns
    -------
    list of ndarray of int, or None
        Groups in order of the attributes' first column.

    Examples
    --------
    >>> [g.tolist() for g in attribute_groups(["a=x", "a=y", "b=u", "b=v", "b=w"])]
    [[0, 1], [2, 3, 4]]
    >>> attribute_groups(["alcohol", "a=x"]) is None
    True
    """
    if not names or not all("=" in str(n) for n in names):
        return None
    attrs = [str(n).split("=", 1)[0] for n in names]
    order = list(dict.fromkeys(attrs))
    return [np.flatnonzero(np.asarray(attrs) == a) for a in order]


@functools.lru_cache(maxsize=8)
def load(dataset):
    """``(X, y, feature_names, boolean)`` of a data set of this benchmark (float64 X).

    Parameters
    ----------
    dataset : str
        One of :data:`FULL_DATASETS`.

    Returns
    -------
    X : array or scipy.sparse matrix of float64
        The data (sparse 0/1 word presence for ``20newsgroups``; booleanised for
        ``breast_cancer``).
    y : array
        The labels.
    feature_names : tuple of str
    boolean : bool
        Whether every value is 0 or 1.

    Examples
    --------
    >>> X, y, names, boolean = load("wine")
    >>> X.shape, names[0], boolean
    ((178, 13), 'Alcohol', False)
    """
    from fsbook import datasets as D

    if dataset == "20newsgroups":
        X, y, words = load_atheism_religion(min_df=2)     # sparse 0/1, 1 427 × 12 511
        return X, y, tuple(str(w) for w in words), True
    if dataset == "breast_cancer":
        from fsbook.booleanize import booleanize

        b = D.load_breast_cancer()
        X, names = booleanize(b)
        return X.astype(np.float64), np.asarray(b.target), tuple(names), True
    if dataset not in FULL_DATASETS:
        raise ValueError(f"unknown dataset {dataset!r}; expected one of {FULL_DATASETS}")
    b = getattr(D, f"load_{dataset}")()
    X = np.asarray(b.data, dtype=np.float64)
    if np.isnan(X).any():
        raise ValueError(f"{dataset} has missing values; this benchmark takes complete data only")
    names = tuple(str(n) for n in b.feature_names) if "feature_names" in b else tuple(
        f"x{j}" for j in range(X.shape[1]))
    return X, np.asarray(b.target), names, bool(np.isin(X, (0.0, 1.0)).all())


def vocabulary(X_train, size=VOCABULARY):
    """Columns of the ``size`` words in the most training posts (sorted; the pair module's
    :func:`~fsbook.datasets.most_frequent_words`, the rule of chapter 6's Weka runs).

    Parameters
    ----------
    X_train : scipy.sparse matrix of shape (n_posts, n_words)
        The training posts' word presence.
    size : int, default :data:`VOCABULARY`
        How many words to keep.

    Returns
    -------
    array of int
        The kept columns, sorted.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> vocabulary(sp.csr_matrix([[1, 0, 1], [1, 0, 0], [0, 1, 1]]), size=2).tolist()
    [0, 2]
    """
    return most_frequent_words(X_train, size)


def width(dataset):
    """Number of features every method of a fold sees (:data:`VOCABULARY` on a text set).

    Parameters
    ----------
    dataset : str
        One of :data:`FULL_DATASETS`.

    Returns
    -------
    int

    Examples
    --------
    >>> width("wine"), width("20newsgroups") == VOCABULARY
    (13, True)
    """
    return VOCABULARY if dataset in TEXT_DATASETS else load(dataset)[0].shape[1]


def fold_data(dataset, train, test):
    """``(X_train, X_test, columns)``: dense training and test matrices of one fold and the data
    set's column of each of their features (a text set's fold vocabulary, else every column).

    Parameters
    ----------
    dataset : str
        One of :data:`FULL_DATASETS`.
    train, test : array of int
        The fold's training and test rows (:func:`folds`).

    Returns
    -------
    X_train, X_test : array
        Dense matrices of the fold's features.
    columns : array of int
        The data set's column of each feature (:func:`vocabulary` on a text set).

    Examples
    --------
    >>> import numpy as np
    >>> X_train, X_test, columns = fold_data("wine", np.arange(100), np.arange(100, 178))
    >>> X_train.shape, X_test.shape, columns.size
    ((100, 13), (78, 13), 13)
    """
    X = load(dataset)[0]
    if dataset in TEXT_DATASETS:
        columns = vocabulary(X[train])
        return (X[train][:, columns].toarray(), X[test][:, columns].toarray(), columns)
    return X[train], X[test], np.arange(X.shape[1])


def folds(dataset, repeat, n_folds, y):
    """The stratified folds of ``(dataset, repeat)``: the same for every method.

    Parameters
    ----------
    dataset : str
        The data set (with ``repeat`` and ``n_folds``, it seeds the shuffle).
    repeat : int
        The repeat of the cross-validation.
    n_folds : int
        How many folds.
    y : array
        The labels (the folds are stratified on them).

    Returns
    -------
    list of (array of int, array of int)
        ``(train, test)`` rows of each fold.

    Examples
    --------
    >>> y = load("wine")[1]
    >>> [(len(tr), len(te)) for tr, te in folds("wine", 0, 2, y)]
    [(89, 89), (89, 89)]
    """
    seed = task_seed({"dataset": dataset, "repeat": repeat, "n_folds": n_folds}, "folds")
    return list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


def _hkl_selector(k, seed, boolean, groups):
    return HKLRanker(k, boolean=boolean, n_bins=HKL_N_BINS, random_state=seed,
                     **HKL_SETTINGS[VERSION])


def _georatio_selector(k, seed, boolean, groups):
    from fsbook.geometry import GeometricFeatureSetSelector

    if groups is None:
        raise ValueError("GeoRatio needs the feature groups (attribute_groups)")
    return GeometricFeatureSetSelector(list(groups), binarize=0.0)


#: the book's methods built here rather than by the shared registry (method -> factory)
_OWN_FACTORIES = {"HKL": _hkl_selector, "GeoRatio": _georatio_selector}


def make_selector(method, k, seed, boolean=False, groups=None):
    """The selector of ``method`` keeping ``k`` features (``k`` ignored by ``CFS`` and
    ``GeoRatio``), seeded (:func:`fsbook.experiments._protocol_helpers.make_selector`, LDFS and
    HSFS with :data:`L1LINF_FAST`; ``HKL``: :class:`~fsbook.hkl.HKLRanker`
    with :data:`HKL_SETTINGS` and :data:`HKL_N_BINS`; ``GeoRatio``:
    :class:`~fsbook.geometry.GeometricFeatureSetSelector` over the feature ``groups``).

    Parameters
    ----------
    method : str
        A method of :func:`methods` but ``none``.
    k : int
        How many features to keep.
    seed : int
        The task's seed.
    boolean : bool, default False
        Whether the data are 0/1 (HKL then reads them as they are).
    groups : list of array of int, optional
        The feature groups (:func:`attribute_groups`), for ``GeoRatio``.

    Returns
    -------
    estimator
        An unfitted selector.

    Examples
    --------
    >>> type(make_selector("HKL", 5, seed=0)).__name__
    'HKLRanker'
    >>> make_selector("none", 5, seed=0)
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'none'; expected one of [...]
    """
    if method not in methods() or method == "none":
        raise ValueError(f"unknown method {method!r}; expected one of {methods()[1:]}")
    if method in _OWN_FACTORIES:
        return _OWN_FACTORIES[method](k, seed, boolean, groups)
    # SVM-RFE and LDFS as the store computed them (the defaults of both changed later)
    return registry_selector(method, k, seed, l1linf_path=L1LINF_FAST, boolean=boolean, earlier_defaults=True)


def cannot_run(method, dataset):
    """Why ``method`` does not run on ``dataset`` (a sentence for the tables), or ``None``.

    Only GeoRatio has such cells: it chooses among unions of feature groups, so it runs where
    the data define groups (:func:`attribute_groups`: the
    one-hot indicators of each nominal attribute) and there are at most :data:`GEO_MAX_GROUPS`.

    Parameters
    ----------
    method : str
        A method of :func:`methods`.
    dataset : str
        One of :data:`FULL_DATASETS`.

    Returns
    -------
    str or None
        The sentence the ``not_run`` table prints, or ``None`` when the method runs there.

    Examples
    --------
    >>> cannot_run("GeoRatio", "wine")
    'not run: numeric attributes, no feature groups'
    >>> cannot_run("GeoRatio", "breast_cancer") is None, cannot_run("MI", "wine") is None
    (True, True)
    """
    if method != "GeoRatio":
        return None
    groups = attribute_groups(load(dataset)[2])
    if groups is None:
        # GeoRatio chooses among unions of feature groups (types)
        return "not run: words only, one feature type" if dataset in TEXT_DATASETS else \
            "not run: numeric attributes, no feature groups"
    if len(groups) > GEO_MAX_GROUPS:
        return (f"not run: {len(groups)} feature groups give 2^{len(groups)} - 1 candidate unions "
                f"(more than GEO_MAX_GROUPS = {GEO_MAX_GROUPS} groups)")
    return None


def support_at(selector, method, k):
    """The ``k`` features a fitted ranking selector keeps, without refitting it.

    The scores of the :data:`RANKERS` do not depend on ``k``, so the top ``k`` of one fit is the
    set a fit at ``k`` keeps; ties are broken by each selector's own rule (``SelectKBest`` and
    ``WeakKernelSelector`` read ``k`` when asked for their support, ReliefF's fit applies
    :func:`~fsbook.decisions.top_k_mask` to its weights).
    ``tests/test_benchmark.py`` checks the equality.

    Parameters
    ----------
    selector : estimator
        A fitted selector of one of the :data:`RANKERS`.
    method : str
        Its method.
    k : int
        How many features to keep.

    Returns
    -------
    array of int
        The kept features, sorted.

    Examples
    --------
    >>> from sklearn.feature_selection import SelectKBest
    >>> X, y = load("wine")[:2]
    >>> support_at(SelectKBest(k=13).fit(X, y), "MI", 2).tolist()     # the two largest F scores
    [6, 12]
    """
    from fsbook.decisions import top_k_mask

    if method == "MI":
        return np.flatnonzero(selector.set_params(k=k).get_support())
    if method == "WK-LP":
        return np.flatnonzero(selector.set_params(n_features_to_select=k).get_support())
    if method == "HKL":
        return np.flatnonzero(selector.support_at(k))
    if method == "ReliefF":
        return np.flatnonzero(top_k_mask(selector.feature_importances_, k))
    raise ValueError(f"{method!r} is not a ranking method; expected one of {sorted(RANKERS)}")


def projection_search(X_train, y_train, seed):
    """The unfitted model search of ``Proj-SVM``: its pipeline, grid, inner folds and tie rule.

    ``StandardScaler → ProjectionPenalty(LinearSVC, PCA)`` with as many components as
    :data:`RANK_K` allows on the training fold (at most one fewer than the features and than
    the inner training folds' size), C over :data:`C_LINEAR` and λ over :data:`PROJ_PENALTIES`
    by inner 3-fold CV, ties by :data:`SVM_TIES` of the protocol's version.

    Parameters
    ----------
    X_train : array of shape (n_samples, n_features)
        The training fold (its shape sets the number of components).
    y_train : array of shape (n_samples,)
        Its labels.
    seed : int
        The task's seed (the SVM's, the PCA's and the inner folds').

    Returns
    -------
    sklearn.model_selection.GridSearchCV
        Unfitted; :func:`projection_accuracy` fits it, the chance-level audit refits it.

    Examples
    --------
    >>> import numpy as np
    >>> search = projection_search(np.zeros((30, 4)), np.arange(30) % 2, seed=0)
    >>> search.estimator[-1].reducer.n_components, sorted(search.param_grid)
    (3, ['projectionpenalty__estimator__C', 'projectionpenalty__reduced_penalty'])
    """
    from sklearn.decomposition import PCA

    from fsbook.projection import ProjectionPenalty

    n_components = min(RANK_K, X_train.shape[1] - 1, len(y_train) // 3 * 2 - 1)
    model = make_pipeline(StandardScaler(), ProjectionPenalty(LinearSVC(random_state=seed, max_iter=5000),
                                                              PCA(n_components, random_state=seed)))
    grid = {"projectionpenalty__estimator__C": list(C_LINEAR),
            "projectionpenalty__reduced_penalty": list(PROJ_PENALTIES)}
    return tuned_svm(model, grid, seed, tie=SVM_TIES[VERSION])


def classifier_searches(seed):
    """The unfitted model searches of the two classifiers that score a kept set.

    Parameters
    ----------
    seed : int
        The task's seed (the linear SVM's and the inner folds').

    Returns
    -------
    dict of str to sklearn.model_selection.GridSearchCV
        ``{"acc_linear": ..., "acc_rbf": ...}`` (the result fields they fill): a
        ``StandardScaler → LinearSVC`` with C over :data:`C_LINEAR` and a
        ``StandardScaler → SVC(rbf, gamma="scale")`` with C over :data:`C_RBF`, each by inner
        3-fold CV, ties by :data:`SVM_TIES` of the protocol's version.  :func:`test_accuracies`
        fits them; the chance-level audit refits them.

    Examples
    --------
    >>> searches = classifier_searches(0)
    >>> list(searches), searches["acc_rbf"].param_grid == {"svc__C": list(C_RBF)}
    (['acc_linear', 'acc_rbf'], True)
    """
    return {"acc_linear": tuned_svm(LinearSVC(random_state=seed, max_iter=5000), {"C": C_LINEAR}, seed,
                                    scale=True, tie=SVM_TIES[VERSION]),
            "acc_rbf": tuned_svm(SVC(kernel="rbf", gamma="scale"), {"C": C_RBF}, seed, scale=True,
                                 tie=SVM_TIES[VERSION])}


def projection_accuracy(X_train, y_train, X_test, y_test, seed):
    """Test accuracy, fit time (s) and chosen ``(C, λ)`` of the projection-penalised linear SVM.

    ``StandardScaler → ProjectionPenalty(LinearSVC, PCA(RANK_K))`` on all features (eq. 7 of the
    projection-penalties chapter with a PCA reducer of :data:`RANK_K` components), with C in
    :data:`C_LINEAR` and λ in :data:`PROJ_PENALTIES` chosen by the inner 3-fold CV of
    :func:`test_accuracies` (the same inner folds as the linear SVM of ``none``).

    Parameters
    ----------
    X_train, y_train : array
        The training fold (every feature).
    X_test, y_test : array
        The test fold.
    seed : int
        The task's seed.

    Returns
    -------
    accuracy : float
        The test accuracy.
    seconds : float
        The search's wall-clock time (volatile).
    C, reduced_penalty : float
        The chosen C and λ.

    Examples
    --------
    >>> X, y = load("wine")[:2]
    >>> acc, seconds, C, penalty = projection_accuracy(X[::2], y[::2], X[1::2], y[1::2], seed=0)
    >>> acc > 0.9, C in C_LINEAR, penalty in PROJ_PENALTIES
    (True, True, True)
    """
    start = time.perf_counter()
    search = projection_search(X_train, y_train, seed).fit(X_train, y_train)
    seconds = time.perf_counter() - start
    best = search.best_params_
    return (float(np.mean(search.predict(X_test) == y_test)), seconds,
            float(best["projectionpenalty__estimator__C"]), float(best["projectionpenalty__reduced_penalty"]))


def test_accuracies(X_train, y_train, X_test, y_test, seed):
    """Test accuracies ``(linear, rbf)`` of the two SVMs, each with C by inner 3-fold CV.

    With no kept feature (an HKL model that selected no disjunction) both are the accuracy of
    the training fold's majority class (smallest label on a tie), as in chapter 6.

    Parameters
    ----------
    X_train, y_train : array
        The training fold's kept features and labels.
    X_test, y_test : array
        The test fold's.
    seed : int
        The task's seed (:func:`classifier_searches`).

    Returns
    -------
    tuple of float
        The linear and the RBF SVM's test accuracies.

    Examples
    --------
    >>> import numpy as np
    >>> test_accuracies(np.zeros((4, 0)), np.array([0, 1, 1, 2]), np.zeros((3, 0)), np.array([1, 1, 0]), 0)
    (0.6666666666666666, 0.6666666666666666)
    >>> X, y = load("wine")[:2]
    >>> [round(a, 2) for a in test_accuracies(X[::2, :3], y[::2], X[1::2, :3], y[1::2], 0)]
    [0.81, 0.79]
    """
    if X_train.shape[1] == 0:
        labels, counts = np.unique(y_train, return_counts=True)
        majority = float(np.mean(y_test == labels[np.argmax(counts)]))
        return majority, majority
    out = []
    for model in classifier_searches(seed).values():
        model.fit(X_train, y_train)
        out.append(float(np.mean(model.predict(X_test) == y_test)))
    return tuple(out)


test_accuracies.__test__ = False   # a protocol step, not a test: pytest --doctest-modules must not collect it


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
    start = time.perf_counter()
    selector.fit(X_train, y_train)
    return selector[-1], time.perf_counter() - start


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


def hkl_certificate(ranker):
    """``{"hkl_certified", "hkl_gap", "hkl_n_used"}`` of a fitted HKL ranker: whether every model
    (one per class on more than two classes) reached its duality-gap tolerance, the largest
    relative gap, and the number of features of positive score.

    Parameters
    ----------
    ranker : fsbook.hkl.HKLRanker
        A fitted ranker.

    Returns
    -------
    dict
        ``hkl_certified`` (bool), ``hkl_gap`` (float) and ``hkl_n_used`` (int).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> fit = NS(models_=[NS(certified_=True, duality_gap_=1e-4), NS(certified_=False, duality_gap_=0.3)],
    ...          n_used_=4)
    >>> hkl_certificate(fit)
    {'hkl_certified': False, 'hkl_gap': 0.3, 'hkl_n_used': 4}
    """
    return {"hkl_certified": bool(all(m.certified_ for m in ranker.models_)),
            "hkl_gap": float(max(m.duality_gap_ for m in ranker.models_)), "hkl_n_used": int(ranker.n_used_)}


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


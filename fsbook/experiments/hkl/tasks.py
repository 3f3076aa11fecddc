"""The ``hkl`` protocol's tasks: data, outer folds, the models of each table and their searches,
the function that runs each part (:data:`PARTS`), :func:`make_tasks` and :func:`run_task`.

The chance audit (:mod:`fsbook.experiments._chance`) and the diagnosis
(:mod:`fsbook.experiments.hkl.diagnosis`) reuse these models rather than rebuilding them.
"""
from __future__ import annotations

import functools
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.impute import SimpleImputer
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from fsbook.baselines import FeatureWeightingSVM, WekaSubsetSelector, ZeroNormSVM
from fsbook.baselines.weka_svm import WekaFilters, WekaLibSVM
from fsbook.booleanize import booleanize
from fsbook.datasets import load_atheism_religion, most_frequent_words
from fsbook.experiments._protocol_helpers import outcome_string
from fsbook.experiments.hkl.newsgroups import interaction_svm_fold
from fsbook.experiments.hkl.paper import (
    FRACTIONS,
    HKL_C_GRID,
    HKL_TIE,
    HKL_TOL,
    INNER_SEED_OFFSET,
    INTERACTION_DEGREES,
    N_FOLDS,
    PAPER_DISJUNCTIONS,
    RAW_ALL,
    RAW_CONFIGS,
    RAW_TUNED,
    RBF_C_GRID,
    RBF_GAMMA_GRID,
    SMALL_DATASETS,
    SVM_C_GRID,
    TABLE1_DATASETS,
    TABLE1_METHODS,
    WORDS_FOR_WEKA,
)
from fsbook.model_selection import tuned_svm

# ---- data ----------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def load_table1(name):
    """``(X, y, names, split)``: booleanised data; ``split`` = (train, test) for MONK's, else None.

    ``name`` is a key of fsbook.datasets (:data:`TABLE1_DATASETS`, ``"ionosphere"``).  ``X`` is
    dense float 0/1 except for ``"20newsgroups"`` (CSR).
    """
    from fsbook import datasets as ds
    if name.startswith("monks"):
        k = int(name[-1])
        tr, te = ds.load_monks(k, "train"), ds.load_monks(k, "test")
        both = {"data": np.vstack([tr.data, te.data]), "categories": tr.categories,
                "feature_names": tr.feature_names}
        X, names = booleanize(both)
        y = np.r_[tr.target, te.target]
        n_tr = tr.data.shape[0]
        return X.astype(np.float64), y, names, (np.arange(n_tr), np.arange(n_tr, y.size))
    if name == "20newsgroups":
        X, y, words = load_atheism_religion(min_df=2)     # words in ≥ 2 posts (the paper gives no rule)
        return X, np.asarray(y), list(words), None
    b = _bunch(name)
    X, names = booleanize(b)
    return X.astype(np.float64), np.asarray(b.target), names, None


def _bunch(name):
    """The data set by its fsbook.datasets key (tabular sets of Tables 1 and 5)."""
    from fsbook import datasets as ds
    if name not in _TABULAR:
        raise ValueError(f"unknown data set {name!r}; expected one of {sorted(_TABULAR)}")
    return getattr(ds, f"load_{name}")()


_TABULAR = ("breast_cancer", "breast_cancer_wisconsin", "hepatitis", "transfusion", "vote",
            "tic_tac_toe", "ionosphere")


@functools.lru_cache(maxsize=16)
def load_raw(name):
    """``(X, y, nominal, n_levels, split)``: the attributes as Weka reads them from the ARFF file.

    Nominal columns hold codes ``0..n_levels[j]-1``, numeric columns their values, NaN where the
    file has ``?``; ``split`` as in :func:`load_table1`.  The 20 Newsgroups pair's attributes are
    its word indicators (two-valued nominal), the same matrix as :func:`load_table1` (dense here).
    """
    from fsbook import datasets as ds
    if name == "20newsgroups":
        X, y, _, split = load_table1(name)
        n = X.shape[1]
        return X.toarray(), y, np.ones(n, dtype=bool), np.full(n, 2), split
    if name.startswith("monks"):
        k = int(name[-1])
        tr, te = ds.load_monks(k, "train"), ds.load_monks(k, "test")
        X = np.vstack([tr.data, te.data]).astype(np.float64)
        y = np.r_[tr.target, te.target]
        cats, n_tr = tr.categories, tr.data.shape[0]
        split = (np.arange(n_tr), np.arange(n_tr, y.size))
    else:
        b = _bunch(name)
        X, y, cats, split = np.asarray(b.data, dtype=np.float64), np.asarray(b.target), b.categories, None
    nominal = np.array([c is not None for c in cats])
    n_levels = np.array([len(c) if c is not None else 0 for c in cats])
    return X, y, nominal, n_levels, split


@functools.lru_cache(maxsize=4)
def load_numeric(name):
    """Raw numeric features and binary target of the Table 4/5 data sets (missing values stay NaN:
    the models impute inside the training fold)."""
    from fsbook import datasets as ds
    b = {"colon": ds.load_colon, "lymphoma": ds.load_lymphoma, "ionosphere": ds.load_ionosphere,
         "breast_cancer_wisconsin": ds.load_breast_cancer_wisconsin}[name]()
    X = np.asarray(b.data, dtype=np.float64)
    y = np.asarray(b.target)
    if name == "lymphoma":
        y = (y != 0).astype(int)          # "code 1" (46 samples) against the other 50
    return X, y                           # Wisconsin keeps its 16 missing values (NaN)


def table_folds(y, split):
    """The outer folds of a Table 1 data set: its UCI train/test ``split`` when it has one (MONK's
    problems), else :data:`N_FOLDS`-fold stratified CV with seed 0, shared by every method.

    Parameters
    ----------
    y : array
        The labels.
    split : tuple of two arrays of int, or None
        The data set's own ``(train, test)`` split (:func:`load_table1`).

    Returns
    -------
    list of (array of int, array of int)
        ``(train, test)`` rows of each outer fold.

    Examples
    --------
    >>> _, y, _, split = load_table1("vote")
    >>> [len(test) for _, test in table_folds(y, split)]
    [109, 109, 109, 108]
    >>> _, y, _, split = load_table1("monks1")
    >>> [(len(train), len(test)) for train, test in table_folds(y, split)]
    [(124, 432)]
    """
    if split is not None:
        return [split]
    return list(StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(np.zeros(y.size), y))


# ---- models ----------------------------------------------------------------------------------------

def _svms():
    """The two classifiers of Table 1 with Weka's defaults: ``LibSVM`` (C-SVC, RBF kernel,
    ``γ = 1/number of attributes``, ``C = 1``) and an L1-regularised ``LibLINEAR`` (``C = 1``).

    The paper's all-feature L2 baseline reaches 100 % on MONK-1, whose concept
    ``a1 = a2 or a5 = 1`` no linear classifier of the one-hot attributes separates: its L2-SVM is
    Weka's default RBF LibSVM, not a linear one.
    """
    return {"L2": SVC(kernel="rbf", C=1.0, gamma="auto"),
            "L1": LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1.0, max_iter=10000,
                            random_state=0)}


def _l1_svm(C=1.0):
    """liblinear's L1-regularised L2-loss SVM; 100 000 iterations (10 000 left some C = 100 fits
    of the tuned rows unconverged; the raw rows treat non-convergence as an error)."""
    return LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=C, max_iter=100_000,
                     random_state=0)


def _raw_svms(nominal, n_levels):
    """Table 1's classifiers on raw attributes with Weka's defaults: :class:`WekaLibSVM` (the
    paper's L2 row) and the L1-SVM after the same two Weka filters."""
    return {"L2": WekaLibSVM(nominal=nominal, n_levels=n_levels),
            "L1": make_pipeline(WekaFilters(nominal, n_levels), _l1_svm())}


def raw_tuned_svms(nominal, n_levels, seed):
    """Table 1's two classifiers on raw attributes with their parameters chosen by inner 3-fold
    CV (ties to the first grid point: the smallest C, then the smallest γ): LibSVM over
    :data:`RBF_C_GRID` × :data:`RBF_GAMMA_GRID`, the L1-SVM over :data:`SVM_C_GRID`.

    Parameters
    ----------
    nominal : array of bool of shape (n_attributes,)
        Which raw attributes are nominal (:func:`load_raw`).
    n_levels : array of int of shape (n_attributes,)
        Each nominal attribute's number of levels.
    seed : int
        Seed of the inner folds (:func:`inner_seed`).

    Returns
    -------
    dict of str to sklearn.model_selection.GridSearchCV
        ``{"L2": ..., "L1": ...}``, unfitted (the protocol fits them; the chance-level audit
        refits them).

    Examples
    --------
    >>> import numpy as np
    >>> searches = raw_tuned_svms(np.array([True, False]), np.array([3, 0]), seed=7)
    >>> sorted(searches), sorted(searches["L2"].param_grid)
    (['L1', 'L2'], ['C', 'gamma'])
    """
    return {"L2": tuned_svm(WekaLibSVM(nominal=nominal, n_levels=n_levels),
                            {"C": RBF_C_GRID, "gamma": RBF_GAMMA_GRID}, seed, error_score="raise"),
            "L1": tuned_svm(make_pipeline(WekaFilters(nominal, n_levels), _l1_svm()),
                            {"linearsvc__C": SVM_C_GRID}, seed, error_score="raise")}


def tuned_l1_svm():
    """The L1-SVM of Table 3 before tuning: liblinear's L1-regularised L2-loss SVM (primal),
    10 000 iterations, liblinear's other defaults (tolerance 1e-4, intercept scaling 1).

    Returns
    -------
    sklearn.svm.LinearSVC
        Unfitted.

    Examples
    --------
    >>> svm = tuned_l1_svm()
    >>> svm.penalty, svm.dual, svm.max_iter
    ('l1', False, 10000)
    """
    return LinearSVC(penalty="l1", dual=False, max_iter=10000, random_state=0)


def tuned_svms(seed, l1=None):
    """Table 3's tuned L2- and L1-SVMs (``C`` over :data:`SVM_C_GRID` by inner 3-fold CV).

    Parameters
    ----------
    seed : int
        Seed of the inner folds (:func:`inner_seed`).
    l1 : callable, optional
        ``l1(seed)`` replaces the L1-SVM (the ablations of
        :mod:`fsbook.experiments.hkl_ablations`).

    Returns
    -------
    dict of str to estimator
        ``{"L2": ..., "L1": ...}``, unfitted.

    Examples
    --------
    >>> searches = tuned_svms(3)
    >>> sorted(searches), searches["L1"].param_grid == {"C": list(SVM_C_GRID)}
    (['L1', 'L2'], True)
    """
    grid = {"C": SVM_C_GRID}
    return {"L2": tuned_svm(LinearSVC(C=1.0, max_iter=10000, random_state=0), grid, seed),
            "L1": tuned_svm(tuned_l1_svm(), grid, seed) if l1 is None else l1(seed)}


def inner_seed(table, fold):
    """Seed of the inner CV of ``table``'s tuned models on outer ``fold``: ``1000 * fold + offset``
    (:data:`INNER_SEED_OFFSET`).

    Parameters
    ----------
    table : int
        The paper's table (1, 3, 4 or 5).
    fold : int
        The outer fold.

    Returns
    -------
    int

    Examples
    --------
    >>> inner_seed(1, 2), inner_seed(5, 0)
    (2007, 17)
    """
    return 1000 * fold + INNER_SEED_OFFSET[table]


def disjunction_split():
    """Training and test posts of the disjunctions task: the bydate split of the 20 Newsgroups pair
    (indices into :func:`load_table1` ``("20newsgroups")``).

    Returns
    -------
    train, test : array of int
        The training and test posts.

    Examples
    --------
    >>> train, test = disjunction_split()
    >>> len(train), len(test)
    (857, 570)
    """
    from fsbook.datasets import load_20newsgroups
    subset = load_20newsgroups("all", categories=["alt.atheism", "talk.religion.misc"]).subset
    return np.flatnonzero(subset == "train"), np.flatnonzero(subset == "test")


def table4_boolean(dataset):
    """Table 4's data: the expression values ``X``, the labels ``y``, and HKL's input, the
    booleanised values ``Xb`` (float) with their ``names``.

    Parameters
    ----------
    dataset : {"colon", "lymphoma"}
        Table 4's data set.

    Returns
    -------
    X : array of shape (n_samples, n_genes)
    y : array of int
    Xb : array of float, 0/1
        One indicator per threshold of each gene (:func:`fsbook.booleanize.booleanize`).
    names : list of str
        The indicators' names, ``gene>threshold``.

    Examples
    --------
    >>> X, y, Xb, names = table4_boolean("colon")
    >>> X.shape, Xb.shape, names[:2]
    ((62, 2000), (62, 3967), ['x0>-2', 'x0>0'])
    """
    X, y = load_numeric(dataset)
    Xb, names = booleanize({"data": X})
    return X, y, Xb.astype(np.float64), names


def tuned_hkl(c_grid, seed):
    """The protocol's HKL: ``DisjunctiveHKLCV`` with ``C`` by inner 3-fold CV.

    The conic restricted solver, no node budget and no iteration cap, tolerance
    :data:`HKL_TOL`, CV ties broken by :data:`HKL_TIE`.

    Parameters
    ----------
    c_grid : sequence of float or None
        The C values; ``None``: the estimator's data-driven path (:data:`HKL_C_GRID`).
    seed : int
        Seed of the inner folds (:func:`inner_seed`).

    Returns
    -------
    fsbook.hkl.DisjunctiveHKLCV
        Unfitted (the protocol fits it; the chance-level audit and the diagnosis refit it).

    Examples
    --------
    >>> model = tuned_hkl(None, seed=7)
    >>> model.cv, model.Cs, model.solver, model.random_state
    (3, None, 'conic', 7)
    """
    from fsbook import hkl
    return hkl.DisjunctiveHKLCV(Cs=None if c_grid is None else list(c_grid), cv=3,
                                random_state=seed, tol=HKL_TOL, solver="conic",
                                max_active=None, max_iter=None, tie=HKL_TIE)


def _certificate(model):
    """The refitted model's certified relative duality gap and whether it reached ``tol``."""
    est = _fitted_hkl(model)
    return {"duality_gap": float(est.duality_gap_), "certified": bool(est.certified_)}


def _fitted_hkl(model):
    return model.best_estimator_ if hasattr(model, "best_estimator_") else model


def _chosen_c(model):
    if hasattr(model, "best_params_"):
        return float(model.best_params_["C"])
    return float(getattr(model, "C_", np.nan))


def _features_used(hkl_model, n):
    used = sorted({int(i) for d in hkl_model.disjunctions_ for i in d})
    return used


def _scored(name, model, X, y):
    """``{name: test accuracy, "outcomes_<name>": outcome string}`` of a fitted ``model``: the
    accuracy and the test samples' outcomes (:func:`outcome_string`) for the tests on pooled samples."""
    predicted = model.predict(X)
    return {name: float(np.mean(predicted == y)), f"outcomes_{name}": outcome_string(predicted, y)}


def _majority(train_y, test_y, names=("L2", "L1")):
    """Every classifier of ``names`` replaced by the training majority class (no feature selected)."""
    predicted = np.full(test_y.shape, np.bincount(train_y).argmax())
    out = {}
    for name in names:
        out.update({name: float(np.mean(predicted == test_y)), f"outcomes_{name}": outcome_string(predicted, test_y)})
    return out


# ---- tasks -----------------------------------------------------------------------------------------

def make_tasks(full):
    """Full: every table.  Subsample (the chapter, a few minutes on one core): Table 1 on five
    small sets (breast_cancer, vote, monks1–3) with every row (:data:`TABLE1_METHODS`) and HKL (its
    data-driven ``C`` path, as in the full protocol); the words-and-products check of Table 3 on the 20 Newsgroups pair;
    Table 4 on colon and B-cell lymphoma (zero-norm SVM at fractions 1, 1/8 and 1/64, and HKL);
    Table 5 on Wisconsin (``breast_cancer_wisconsin``).

    Parameters
    ----------
    full : bool
        Every table rather than the chapter's subsample.

    Returns
    -------
    list of dict
        One task per table part, data set, outer fold and method: ``table`` (:data:`PARTS`'
        key) and the part's parameters.

    Examples
    --------
    >>> tasks = make_tasks(False)
    >>> len(tasks), tasks[0]
    (312, {'table': 1, 'dataset': 'breast_cancer', 'fold': 0, 'method': 'cfs/best_first', 'full': False})
    """
    tasks = []
    datasets = TABLE1_DATASETS if full else SMALL_DATASETS
    for d in datasets:
        n_folds = 1 if d.startswith("monks") else N_FOLDS
        for f in range(n_folds):
            for m in TABLE1_METHODS:
                tasks.append({"table": 1, "dataset": d, "fold": f, "method": m, "full": bool(full)})
    if full:
        tasks += [{"table": 3, "fold": f, "method": "svm_tuned"} for f in range(N_FOLDS)]
        tasks.append({"table": "disjunctions"})
    tasks += [{"table": 3, "fold": f, "method": "interactions", "degree": d}
              for d in INTERACTION_DEGREES for f in range(N_FOLDS)]
    for d in ("colon", "lymphoma"):
        for f in range(N_FOLDS):
            for fr in (FRACTIONS if full else [1.0, 0.125, 0.015625]):
                tasks.append({"table": 4, "dataset": d, "fold": f, "method": "zero_norm", "fraction": fr})
            tasks.append({"table": 4, "dataset": d, "fold": f, "method": "hkl"})
    for d in (["ionosphere", "breast_cancer_wisconsin"] if full else ["breast_cancer_wisconsin"]):
        for f in range(N_FOLDS):
            tasks.append({"table": 5, "dataset": d, "fold": f, "method": "weighted_svm",
                          "full": bool(full), "impute": "train-median"})
            tasks.append({"table": 5, "dataset": d, "fold": f, "method": "hkl", "full": bool(full)})
    return tasks


def _run_table1_raw(p):
    """Table 1's rows on the attributes as Weka reads them (``"... (raw)"`` methods)."""
    X, y, nominal, n_levels, split = load_raw(p["dataset"])
    train, test = table_folds(y, split)[p["fold"]]
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
        models = raw_tuned_svms(nominal[cols], n_levels[cols], inner_seed(1, p["fold"]))
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
    train, test = table_folds(y, split)[p["fold"]]
    seed = inner_seed(1, p["fold"])
    if p["method"] == "hkl":
        model = tuned_hkl(HKL_C_GRID, seed).fit(X[train], y[train])
        est = _fitted_hkl(model)
        used = _features_used(est, X.shape[1])
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
    return svm_tuned_fold(p["fold"], outcomes=True)


def svm_tuned_fold(fold, *, X=None, l1=None, models=("L2", "L1"), outcomes=False):
    """Table 3's tuned SVMs on outer ``fold`` of the 20 Newsgroups pair: test accuracy and the
    chosen ``C`` of each of ``models``.

    Parameters
    ----------
    fold : int
        Outer fold (:func:`table_folds`); the inner CV's seed is ``inner_seed(3, fold)``.
    X : sparse matrix or None
        Another input for the same 1 427 posts (None: the stored 0/1 words, :func:`load_table1`).
    l1 : callable or None
        ``l1(seed)`` builds another tuned L1-SVM (None: the stored one).
    models : tuple of str
        Which of ``"L2"``, ``"L1"`` to fit.
    outcomes : bool, default False
        Also return each model's test outcomes, ``"outcomes_<name>"`` (:func:`outcome_string`).

    Returns
    -------
    dict
        ``{name: accuracy (fraction), "C_<name>": chosen C}`` for each model.
    """
    X0, y, _, _ = load_table1("20newsgroups")
    X = X0 if X is None else X
    train, test = table_folds(y, None)[fold]
    out = {}
    for name, clf in tuned_svms(inner_seed(3, fold), l1=l1).items():
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
    seed = inner_seed(4, p["fold"])
    if p["method"] == "zero_norm":
        X, y = load_numeric(p["dataset"])
        train, test = table_folds(y, None)[p["fold"]]
        model = make_pipeline(StandardScaler(), ZeroNormSVM(n_features_to_select=p["fraction"]))
        model.fit(X[train], y[train])
        k = int(model[-1].support_.sum())
        return {**_scored("accuracy", model, X[test], y[test]), "fraction_used": k / X.shape[1]}
    X, y, Xb, names = table4_boolean(p["dataset"])
    train, test = table_folds(y, None)[p["fold"]]
    model = tuned_hkl(HKL_C_GRID, seed).fit(Xb[train], y[train])
    used = _features_used(_fitted_hkl(model), Xb.shape[1])
    return {**_scored("accuracy", model, Xb[test], y[test]), "C": _chosen_c(model),
            "fraction_used": len(_originals(names, used)) / X.shape[1],
            "fraction_boolean": len(used) / Xb.shape[1], **_certificate(model)}


def _originals(names, used):
    """Original columns behind boolean features named ``col>t`` or ``col=level``."""
    return {names[u].split(">")[0].split("=")[0] for u in used}


def tuned_weighted_svm(seed):
    """Table 5's feature-weighting SVM, C by inner 3-fold CV; Wisconsin's 16 missing values are
    replaced by the median of the training posts of each (inner) fold.

    Parameters
    ----------
    seed : int
        Seed of the inner folds (:func:`inner_seed`).

    Returns
    -------
    sklearn.model_selection.GridSearchCV
        ``SimpleImputer → StandardScaler → FeatureWeightingSVM``, C over 0.01, 0.1, 1 and 10;
        unfitted.

    Examples
    --------
    >>> tuned_weighted_svm(17).param_grid
    {'featureweightingsvm__C': [0.01, 0.1, 1.0, 10.0]}
    """
    grid = {"featureweightingsvm__C": [0.01, 0.1, 1.0, 10.0]}
    return tuned_svm(make_pipeline(SimpleImputer(strategy="median"), StandardScaler(),
                                   FeatureWeightingSVM()), grid, seed)


def _run_table5(p):
    seed = inner_seed(5, p["fold"])
    X, y = load_numeric(p["dataset"])
    train, test = table_folds(y, None)[p["fold"]]
    if p["method"] == "weighted_svm":
        model = tuned_weighted_svm(seed).fit(X[train], y[train])
        k = int(model.best_estimator_[-1].support_.sum())
        return {**_scored("accuracy", model, X[test], y[test]), "fraction_used": k / X.shape[1],
                "C": float(model.best_params_["featureweightingsvm__C"])}
    Xb, _, names, _ = load_table1(p["dataset"])
    model = tuned_hkl(HKL_C_GRID, seed).fit(Xb[train], y[train])
    used = _features_used(_fitted_hkl(model), Xb.shape[1])
    return {**_scored("accuracy", model, Xb[test], y[test]),
            "fraction_used": len(_originals(names, used)) / X.shape[1],
            "fraction_boolean": len(used) / Xb.shape[1], "C": _chosen_c(model),
            **_certificate(model)}


#: the function that runs each part of the protocol (``params["table"]``)
PARTS = {1: _run_table1, 3: _run_table3, "disjunctions": _run_disjunctions, 4: _run_table4, 5: _run_table5}


def run_task(params):
    """Run one task (see the module docstring); accuracies are fractions in [0, 1].

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`; its ``table`` picks the part (:data:`PARTS`).

    Returns
    -------
    dict
        The part's result: test accuracies per classifier, and what the part records besides
        (chosen parameters, selected features, HKL's certificate).

    Examples
    --------
    >>> r = run_task({"table": 1, "dataset": "monks1", "fold": 0, "method": "all", "full": False})
    >>> {k: round(v, 3) for k, v in r.items() if not k.startswith("outcomes_")}
    {'L2': 0.785, 'L1': 0.718}
    >>> len(r["outcomes_L2"])                     # MONK's test split: 432 outcomes, "1" correct
    432
    """
    table = params["table"]
    if table not in PARTS:
        raise ValueError(f"unknown table {table!r}; the parts are {list(PARTS)}")
    return PARTS[table](params)


def majority_accuracy(name, *, per_fold=False):
    """Accuracy (%) of always predicting the training part's majority class, mean over the outer
    folds of Table 1's data set ``name`` (the floor a classifier should clear); one value per
    outer fold with ``per_fold=True``.

    Parameters
    ----------
    name : str
        A data set of :data:`TABLE1_DATASETS`.
    per_fold : bool, default False
        One value per outer fold rather than their mean.

    Returns
    -------
    float or array of float

    Examples
    --------
    >>> round(majority_accuracy("vote"), 2)
    61.38
    """
    _, y, _, split = load_table1(name)
    acc = 100 * np.array([np.mean(y[te] == np.bincount(y[tr]).argmax()) for tr, te in table_folds(y, split)])
    return acc if per_fold else float(acc.mean())


"""Protocol of the benchmark chapter: the book's selectors and the usual baselines on shared data.

A task is ``(dataset, repeat, fold, n_folds, method, ks)``.  The folds are a stratified
``n_folds``-fold split shuffled with a seed derived from ``(dataset, repeat, n_folds)`` only, so
every method sees the same folds.  On the training fold, a pipeline
``StandardScaler → selector`` keeps ``k`` features for every ``k`` in ``ks`` (selection sees only
the training fold); then two classifiers are trained on the kept features of the training fold,
each with its C chosen by an inner stratified 3-fold CV on the training fold, and scored on the
test fold (ties in the CV accuracy broken by :data:`SVM_TIES` of the protocol's version):

* a linear SVM (liblinear ``LinearSVC``, squared hinge, C in :data:`C_LINEAR`);
* an RBF SVM (LIBSVM ``SVC``, ``gamma="scale"``, C in :data:`C_RBF`).

Both are ``StandardScaler → SVM`` pipelines (standardisation learnt on the training fold).  The
result holds, per ``k``: the test accuracies, the selector's fit time (wall clock, volatile), the
number of kept features and the kept set (for Kuncheva's stability index across folds).  The
ranking methods (:data:`RANKERS`: MI, ReliefF, WK-LP) score the features independently of ``k``:
they are fitted once per task and cut at every ``k`` (:func:`support_at`, the same sets as a fit
at each ``k``), and their fit time is that one fit's at every ``k``.

Methods (:func:`make_selector`): ``none`` (all features, one point), ``MI`` (``SelectKBest`` with
``mutual_info_classif``, seeded), ``SVM-RFE`` (linear SVM, 10 % of the features per step),
``l1-SVM`` (ℓ1-penalised linear SVM with C bisected to k features), ``ReliefF`` (10 neighbours),
``CFS`` (Weka's CfsSubsetEval + BestFirst: it picks its own number of features, one point), and
the book's ``LDFS`` and ``HSFS`` (ℓ1/ℓ∞ path, fast settings :data:`L1LINF_FAST`) and
the weak-kernel LP (``WK-LP``: its
defaults, 1 000 triplets drawn from the labels with the task's seed, α ≥ 0, the k features of
largest group weight).

Two more methods of the book's papers (version 8 on):

* ``HKL``: disjunctive hierarchical kernel learning (chapter 5) as a ranking of the features
  (:class:`~fsbook.hkl.HKLRanker`): one ``DisjunctiveHKLCV`` (``C``
  by its data-driven path and inner 3-fold CV, with the settings :data:`HKL_SETTINGS` of the
  protocol's :data:`VERSION`; one
  model per class, one-vs-rest, on wine) is fitted on the training fold, and a feature's score
  is the ℓ2 norm of the weights of the selected disjunctions that involve it
  (:func:`~fsbook.hkl.hkl_feature_scores`); the ``k`` largest are
  kept (:func:`fsbook.decisions.top_k`, ties to the smaller index), fitted once per task and cut
  at every ``k`` like the other rankers.  When the model involves fewer than ``k`` features only
  those are kept (``n_selected`` < ``k``; none kept: both classifiers predict the training
  fold's majority class), never zero-score fillers.  HKL learns on 0/1 features.  The boolean
  sets (breast cancer, 20 Newsgroups) are used as they are; a continuous set is booleanised on
  the training fold only, one indicator ``x > t`` per quartile ``t`` of each column
  (:data:`HKL_N_BINS`; :func:`fsbook.booleanize.quantile_thresholds`), and the indicators'
  scores are summed back to their column.  The paper says only that continuous attributes are
  booleanised before HKL reads them, not how; the quartile thresholds are the book's choice, the
  one chapter 6 makes for the paper's continuous sets (colon, ionosphere, the original Wisconsin
  breast-cancer data; WDBC is not among the paper's sets).  It puts HKL in the rank statistics on
  every data set rather than leaving most cells empty; the classifiers then see the kept
  *columns* with their real values, as for every other selector.  HKL is the slowest method (tens of
  seconds to minutes per fit, :data:`FULL_ONLY`): it runs in the full protocol only.  Each task
  records whether every HKL fit reached its duality-gap certificate (``hkl_certified``) and the
  largest relative gap (``hkl_gap``); a fit that cannot certify is stored uncertified with its gap
  and its model is ranked as it is (the chapter counts such fits).
* ``GeoRatio``: the geometric-ratio selector of chapter 4
  (:class:`~fsbook.geometry.GeometricFeatureSetSelector`, the paper's Table 2 model) chooses a
  union of feature *groups* (feature types) and keeps its columns: it picks its own number of
  features (one point, like ``CFS``).  It runs where the data define groups: the booleanised
  breast cancer set, whose groups are the indicators of each of its 9 nominal attributes
  (:func:`~fsbook.experiments._benchmark_methods.attribute_groups`, 511 candidate unions).  On
  the numeric sets and the word-presence text set it does not run (:func:`cannot_run` gives the
  sentence the ``not_run`` table prints): single columns as groups are not feature types (the
  hull-dimension ratios of one column are degenerate) and give ``2^d − 1`` unions, and blocks of
  consecutive attributes (chapter 4's Table 6) are arbitrary; a ranking of ``k`` single features
  is not something the method defines.  Its selector is fitted on the unscaled 0/1 fold.

Projection penalties (``Proj-SVM``) play the classifier's role, not the selector's: they keep
every feature and bias the linear SVM's weights towards a reducer's subspace.  Its task trains
``StandardScaler → ProjectionPenalty(LinearSVC, PCA(RANK_K))`` on all features, with C in
:data:`C_LINEAR` and the reduced-space penalty λ in :data:`PROJ_PENALTIES` chosen together by the
same inner 3-fold CV, and is compared with the tuned linear SVM on all features (``none``) in the
``classifier_side`` table; it has no RBF accuracy and no kept set, so it is not ranked with the
selectors.

Data: the book's subsample (:data:`BOOK_DATASETS`) is wine, ionosphere, Wisconsin diagnostic
(WDBC) and breast cancer (Ljubljana, booleanised: one indicator per nominal level, missing = all
zeros, as in the datasets chapter), ``ks`` = :data:`BOOK_KS`, one repeat of 3 folds.  The full
protocol adds ARCENE, MADELON, colon and the 20 Newsgroups pair alt.atheism / talk.religion.misc
(``20newsgroups``: all 1 427 posts, word presence ``x > 0``), more ``k`` (:data:`FULL_KS`) and 5 repeats
of 2 folds (5 × 2 CV).  The text set's vocabulary is chosen inside each training fold
(:func:`vocabulary`): the :data:`VOCABULARY` words with the largest document frequency among the
training posts, so no method (and no classifier) sees the test posts' words, and every method of
a fold sees the same columns.  The kept sets of ``20newsgroups`` are stored as indices into the pair's
12 511-word list (words in at least two posts), so sets from different folds are comparable.
"""
from __future__ import annotations

import functools
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from fsbook.datasets import load_atheism_religion, most_frequent_words
from fsbook.experiments._benchmark_methods import attribute_groups
from fsbook.experiments._protocol_helpers import make_selector as registry_selector
from fsbook.experiments._protocol_helpers import tuned_svm
from fsbook.experiments._runner import Protocol, task_seed
from fsbook.hkl import HKLRanker

BASELINES = ["none", "MI", "SVM-RFE", "l1-SVM", "ReliefF", "CFS"]
BOOK_METHODS = ["LDFS", "HSFS", "WK-LP", "HKL", "GeoRatio"]
#: classifier-side methods: keep every feature (compared with ``none``, not ranked with selectors)
CLASSIFIER_SIDE = ["Proj-SVM"]
#: methods that choose their own number of features (one point instead of a curve)
OWN_SIZE = {"none", "CFS", "GeoRatio"}
#: methods whose scores do not depend on k: fitted once per task, cut at every k (:func:`support_at`)
RANKERS = {"MI", "ReliefF", "WK-LP", "HKL"}
#: selectors fitted on the unscaled training fold (they booleanise it themselves)
UNSCALED = {"HKL", "GeoRatio"}
#: selectors of the full protocol only (too slow for the book's subsample, see the docstring)
FULL_ONLY = {"HKL"}
#: HKL's settings by protocol version.  Version 8 ran the mirror-descent restricted solver with
#: a 200-node budget, which left a third of the fits uncertified.  Version 9 runs the conic
#: solver with no node budget to the relative gap 1e-4, as the hkl protocol, adding up to 100
#: nodes per active-set iteration: on madelon the active sets grow to about 1 100 nodes, and
#: 20 at a time (the estimator's default) took 20 iterations per C where 100 take 5 (one
#: ranker fit of madelon fold 0: 564 → 161 CPU s, the same certified optima and the same C).
#: Every version's CV gives ties to the smallest C (``tie="simplest"``), even where its model
#: predicts one class on every validation point; :class:`~fsbook.hkl.DisjunctiveHKLCV`'s default
#: since issue 38 prefers a tied two-class fit first.  The stored selections were made with the
#: older rule, which these settings pin: HKL's C is a selector's parameter here, judged by the
#: SVMs on the kept features, whose own choices :mod:`fsbook.experiments._chance` checks.
HKL_SETTINGS = {"8": {"solver": "mirror", "max_active": 200, "tol": 1e-3, "tie": "simplest"},
                "9": {"solver": "conic", "max_active": None, "tol": 1e-4, "max_add": 100, "tie": "simplest"},
                "10": {"solver": "conic", "max_active": None, "tol": 1e-4, "max_add": 100, "tie": "simplest"}}
#: the SVMs' tie rule by protocol version (:func:`~fsbook.experiments._protocol_helpers.tuned_svm`).
#: Up to version 9 a CV tie went to the first C of the grid, which chose 8 RBF SVMs at C = 0.1
#: that predict one class while a tied larger C predicts both (issue 38,
#: :mod:`fsbook.experiments._chance`).  Version 10 breaks ties lexicographically: a model that
#: predicts both classes first, then the smaller validation hinge loss, then the grid order.
SVM_TIES = {"8": "first", "9": "first", "10": "lexicographic"}
#: the protocol version whose store the chapter reads (a key of :data:`HKL_SETTINGS` and :data:`SVM_TIES`)
VERSION = "10"
#: quantile bins of HKL's booleanisation of a non-boolean data set (quartiles, as chapters 5-6)
HKL_N_BINS = 4
#: largest number of feature groups GeoRatio is run with (2^g - 1 candidate unions per split)
GEO_MAX_GROUPS = 12
BOOK_DATASETS = ("wine", "ionosphere", "wdbc", "breast_cancer")
FULL_DATASETS = BOOK_DATASETS + ("colon", "madelon", "arcene", "20newsgroups")
#: text data sets: a vocabulary is chosen in each training fold (:func:`vocabulary`)
TEXT_DATASETS = {"20newsgroups"}
#: words kept per training fold on a text set (largest document frequency)
VOCABULARY = 2000
BOOK_KS = (2, 5, 10)
FULL_KS = (2, 5, 10, 20, 50)
#: the ℓ1/ℓ∞ path settings used here (looser than the ℓ1/ℓ∞ chapter's, to fit the time budget)
L1LINF_FAST = {"tol": 1e-2, "max_iter": 30, "max_bisect": 4}
C_LINEAR = (0.01, 0.1, 1.0, 10.0)
C_RBF = (0.1, 1.0, 10.0, 100.0)
#: reduced-space penalties λ of ``Proj-SVM`` (all > 0: the augmented-feature form of eq. 7, one
#: LinearSVC fit; λ = 0 needs the exact solver, ≈ 3 min per grid on the 20 Newsgroups pair)
PROJ_PENALTIES = (0.01, 0.1, 1.0, 10.0)
#: the number of features at which methods are ranked
RANK_K = 5


def methods():
    """The selectors of this run: the baselines, LDFS, HSFS, WK-LP, HKL and GeoRatio."""
    return BASELINES + BOOK_METHODS


def all_methods():
    """Every method with a task: :func:`methods` and the classifier-side :data:`CLASSIFIER_SIDE`."""
    return methods() + CLASSIFIER_SIDE


@functools.lru_cache(maxsize=8)
def load(dataset):
    """``(X, y, feature_names, boolean)`` of a data set of this benchmark (float64 X)."""
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
    :func:`~fsbook.datasets.most_frequent_words`, the rule of chapter 6's Weka runs)."""
    return most_frequent_words(X_train, size)


def width(dataset):
    """Number of features every method of a fold sees (:data:`VOCABULARY` on a text set)."""
    return VOCABULARY if dataset in TEXT_DATASETS else load(dataset)[0].shape[1]


def fold_data(dataset, train, test):
    """``(X_train, X_test, columns)``: dense training and test matrices of one fold and the data
    set's column of each of their features (a text set's fold vocabulary, else every column)."""
    X = load(dataset)[0]
    if dataset in TEXT_DATASETS:
        columns = vocabulary(X[train])
        return (X[train][:, columns].toarray(), X[test][:, columns].toarray(), columns)
    return X[train], X[test], np.arange(X.shape[1])


def folds(dataset, repeat, n_folds, y):
    """The stratified folds of ``(dataset, repeat)``: the same for every method."""
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
    :class:`~fsbook.geometry.GeometricFeatureSetSelector` over the feature ``groups``)."""
    if method not in BASELINES + BOOK_METHODS or method == "none":
        raise ValueError(f"unknown method {method!r}; expected one of {BASELINES[1:] + BOOK_METHODS}")
    if method in _OWN_FACTORIES:
        return _OWN_FACTORIES[method](k, seed, boolean, groups)
    return registry_selector(method, k, seed, l1linf_path=L1LINF_FAST, boolean=boolean)


def cannot_run(method, dataset):
    """Why ``method`` does not run on ``dataset`` (a sentence for the tables), or ``None``.

    Only GeoRatio has such cells: it chooses among unions of feature groups, so it runs where
    the data define groups (:func:`~fsbook.experiments._benchmark_methods.attribute_groups`: the
    one-hot indicators of each nominal attribute) and there are at most :data:`GEO_MAX_GROUPS`.
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


def projection_accuracy(X_train, y_train, X_test, y_test, seed):
    """Test accuracy, fit time (s) and chosen ``(C, λ)`` of the projection-penalised linear SVM.

    ``StandardScaler → ProjectionPenalty(LinearSVC, PCA(RANK_K))`` on all features (eq. 7 of the
    projection-penalties chapter with a PCA reducer of :data:`RANK_K` components), with C in
    :data:`C_LINEAR` and λ in :data:`PROJ_PENALTIES` chosen by the inner 3-fold CV of
    :func:`test_accuracies` (the same inner folds as the linear SVM of ``none``).
    """
    from sklearn.decomposition import PCA

    from fsbook.projection import ProjectionPenalty

    n_components = min(RANK_K, X_train.shape[1] - 1, len(y_train) // 3 * 2 - 1)
    model = make_pipeline(StandardScaler(), ProjectionPenalty(LinearSVC(random_state=seed, max_iter=5000),
                                                              PCA(n_components, random_state=seed)))
    grid = {"projectionpenalty__estimator__C": list(C_LINEAR),
            "projectionpenalty__reduced_penalty": list(PROJ_PENALTIES)}
    start = time.perf_counter()
    search = tuned_svm(model, grid, seed, tie=SVM_TIES[VERSION]).fit(X_train, y_train)
    seconds = time.perf_counter() - start
    best = search.best_params_
    return (float(np.mean(search.predict(X_test) == y_test)), seconds,
            float(best["projectionpenalty__estimator__C"]), float(best["projectionpenalty__reduced_penalty"]))


def test_accuracies(X_train, y_train, X_test, y_test, seed):
    """Test accuracies ``(linear, rbf)`` of the two SVMs, each with C by inner 3-fold CV.

    With no kept feature (an HKL model that selected no disjunction) both are the accuracy of
    the training fold's majority class (smallest label on a tie), as in chapter 6."""
    if X_train.shape[1] == 0:
        labels, counts = np.unique(y_train, return_counts=True)
        majority = float(np.mean(y_test == labels[np.argmax(counts)]))
        return majority, majority
    out = []
    for clf, grid in ((LinearSVC(random_state=seed, max_iter=5000), C_LINEAR), (SVC(kernel="rbf", gamma="scale"), C_RBF)):
        model = tuned_svm(clf, {"C": grid}, seed, scale=True, tie=SVM_TIES[VERSION])
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
    known = BASELINES + BOOK_METHODS + CLASSIFIER_SIDE
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
RUNNERS = {**{m: _run_classifier_side for m in CLASSIFIER_SIDE},
           **{m: _run_selection for m in BASELINES + BOOK_METHODS}}


def run_task(params):
    """Accuracies, fit times and kept sets of one method on one fold (module docstring).

    The method's runner (:data:`RUNNERS`) sees the fold's training and test matrices; a method
    that cannot run on the data set (:func:`cannot_run`) returns the reason instead."""
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
    relative gap, and the number of features of positive score."""
    return {"hkl_certified": bool(all(m.certified_ for m in ranker.models_)),
            "hkl_gap": float(max(m.duality_gap_ for m in ranker.models_)), "hkl_n_used": int(ranker.n_used_)}


def make_tasks(full):
    """Book subsample: :data:`BOOK_DATASETS`, ``ks`` = :data:`BOOK_KS`, 1 repeat of 3 folds, every
    method but :data:`FULL_ONLY`.  Full: :data:`FULL_DATASETS`, :data:`FULL_KS`, 5 repeats of 2
    folds (5 × 2 CV), every method.  On each data set only the ``k`` below its number of features
    (:func:`width`) are run.  A method that cannot run on a data set (:func:`cannot_run`) still
    has its tasks: they return the reason, which :func:`reduce` puts in its ``not_run`` table."""
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


def stored_datasets(params_list, full=True):
    """The data sets all of whose tasks of ``make_tasks(full)`` are in ``params_list``, in the
    protocol's order: the data sets a partial store (``read_store(PROTOCOL,
    allow_partial=True).params``) holds whole, so that its tables compare every method on them.

    Examples
    --------
    >>> from fsbook.experiments import benchmark as B
    >>> tasks = B.make_tasks(False)
    >>> B.stored_datasets([t for t in tasks if not (t["dataset"] == "wdbc" and t["fold"] == 2)], full=False)
    ['wine', 'ionosphere', 'breast_cancer']
    """
    from fsbook.experiments._runner import stored_flags

    tasks, stored = stored_flags(PROTOCOL, params_list, full)
    missing = {p["dataset"] for p, s in zip(tasks, stored) if not s}
    return [d for d in (FULL_DATASETS if full else BOOK_DATASETS) if d not in missing]


def _long(params_list, results_list):
    rows = []
    for p, r in zip(params_list, results_list):
        for i in range(len(r["k"])):
            rows.append({"dataset": p["dataset"], "repeat": p["repeat"], "fold": p["fold"], "method": p["method"],
                         "k": r["k"][i], "n_selected": r["n_selected"][i], "acc_linear": 100 * r["acc_linear"][i],
                         "acc_rbf": 100 * r["acc_rbf"][i], "fit_time": r["fit_time"][i],
                         "support": tuple(r["support"][i])})
    return pd.DataFrame(rows)


def _stability(group, n_features):
    """Mean over repeats of Kuncheva's index of the folds' kept sets, ``n_features`` to draw from.

    The sets are relabelled to ``0 … |union| − 1`` first: the index depends only on the overlaps,
    and a text set's kept words are indices into the pair's word list while each fold drew them
    from its own :data:`VOCABULARY` words."""
    from fsbook.stats import kuncheva_stability

    per_repeat = []
    for _, g in group.groupby("repeat"):
        sets = list(g["support"])
        if len({len(s) for s in sets}) != 1 or not 0 < len(sets[0]) < n_features or len(sets) < 2:
            return np.nan  # undefined: sizes differ between folds (CFS) or every feature kept
        union = np.unique(np.concatenate([np.asarray(s, dtype=int) for s in sets]))
        sets = [np.searchsorted(union, s).tolist() for s in sets]
        per_repeat.append(kuncheva_stability(sets, n_features))
    return float(np.mean(per_repeat))


def _classifier_side(params_list, results_list, none_linear):
    rows = [{"dataset": p["dataset"], "repeat": p["repeat"], "fold": p["fold"], "acc": 100 * r["acc_linear"],
             "C": r["C"], "reduced_penalty": r["reduced_penalty"], "fit_time": r["fit_time"]}
            for p, r in zip(params_list, results_list)]
    if not rows:
        return pd.DataFrame(columns=["dataset", "linear SVM", "Proj-SVM", "difference", "median lambda",
                                     "fit_time"])
    df = pd.DataFrame(rows)
    g = df.groupby("dataset")
    out = pd.DataFrame({"linear SVM": none_linear, "Proj-SVM": g["acc"].mean(),
                        "median lambda": g["reduced_penalty"].median(), "fit_time": g["fit_time"].mean()})
    out = out.dropna(subset=["Proj-SVM"])
    out.insert(2, "difference", out["Proj-SVM"] - out["linear SVM"])
    return out.rename_axis("dataset").reset_index()


def _hkl_fits(params_list, results_list):
    rows = [{"dataset": p["dataset"], "certified": r["hkl_certified"], "gap": r["hkl_gap"], "n_used": r["hkl_n_used"]}
            for p, r in zip(params_list, results_list) if "hkl_gap" in r]
    columns = ["dataset", "tasks", "certified", "median gap", "largest gap", "mean features used"]
    if not rows:
        return pd.DataFrame(columns=columns)
    g = pd.DataFrame(rows).groupby("dataset", sort=False)
    out = pd.DataFrame({"tasks": g.size(), "certified": g["certified"].sum().astype(int),
                        "median gap": g["gap"].median(), "largest gap": g["gap"].max(),
                        "mean features used": g["n_used"].mean()})
    return out.rename_axis("dataset").reset_index()[columns]


def reduce(params_list, results_list):
    """Tables:

    * ``curves``: mean test accuracy (%) of each classifier per data set, method and ``k``
      (``k`` = the mean number of kept features for ``none`` and ``CFS``);
    * ``accuracy_at_k``: per data set × method at :data:`RANK_K` features (``none`` on all
      features), mean accuracy (%) of each classifier: the input of the statistics;
    * ``stability``: Kuncheva's index of the kept sets across folds, per data set, method and
      ``k`` (undefined, NaN, when the sizes differ), with :func:`width` features to draw from;
    * ``fit_time``: mean selector fit time (s) per data set and method, over folds and ``k``
      (volatile: wall clock);
    * ``supports``: every kept set (data set, repeat, fold, method, k);
    * ``classifier_side``: per data set, mean accuracy (%) of the linear SVM on all features
      (``none``) and of ``Proj-SVM``, their difference, the median λ the inner CV chose and
      ``Proj-SVM``'s mean tuning time (s, volatile);
    * ``not_run``: per data set and method that did not run there, the reason
      (:func:`cannot_run`); those cells are absent from the other tables;
    * ``hkl_fits``: per data set, HKL's number of tasks, how many reached the duality-gap
      certificate, the median and largest relative gap, and the mean number of features of
      non-zero weight (:func:`hkl_certificate`; empty without HKL tasks).
    """
    not_run = _not_run_table(params_list, results_list)
    hkl_fits = _hkl_fits(params_list, results_list)
    ran = [(p, r) for p, r in zip(params_list, results_list) if "not_run" not in r]
    side = [(p, r) for p, r in ran if p["method"] in CLASSIFIER_SIDE]
    sel = [(p, r) for p, r in ran if p["method"] not in CLASSIFIER_SIDE]
    df = _long([p for p, _ in sel], [r for _, r in sel])
    df["k_point"] = np.where(df.method.isin(list(OWN_SIZE)), df.n_selected, df.k)
    none_linear = df[df.method == "none"].groupby("dataset")["acc_linear"].mean()
    return {"curves": _curves(df), "accuracy_at_k": _accuracy_at_k(df), "stability": _stability_table(df),
            "fit_time": _fit_time(df), "supports": _supports(df),
            "classifier_side": _classifier_side([p for p, _ in side], [r for _, r in side], none_linear),
            "not_run": not_run, "hkl_fits": hkl_fits}


def _not_run_table(params_list, results_list):
    return (pd.DataFrame([{"dataset": p["dataset"], "method": p["method"], "reason": r["not_run"]}
                          for p, r in zip(params_list, results_list) if "not_run" in r],
                         columns=["dataset", "method", "reason"])
            .drop_duplicates().reset_index(drop=True))


def _curves(df):
    return (df.groupby(["dataset", "method", "k"])
            .agg(k_mean=("k_point", "mean"), acc_linear=("acc_linear", "mean"), acc_rbf=("acc_rbf", "mean"))
            .reset_index())


def _accuracy_at_k(df):
    at_k = df[(df.k == RANK_K) | (df.method == "none")]
    order = [m for m in methods() if m in set(at_k.method)]
    out = at_k.groupby(["dataset", "method"])[["acc_linear", "acc_rbf"]].mean().reset_index()
    out["method"] = pd.Categorical(out["method"], order)
    out = out.sort_values(["dataset", "method"]).reset_index(drop=True)
    out["method"] = out["method"].astype(str)
    return out


def _stability_table(df):
    n_features = {d: width(d) for d in df.dataset.unique()}
    return pd.DataFrame([{"dataset": d, "method": m, "k": k, "kuncheva": _stability(g, n_features[d])}
                         for (d, m, k), g in df[df.method != "none"].groupby(["dataset", "method", "k"])])


def _fit_time(df):
    return df[df.method != "none"].groupby(["dataset", "method"])["fit_time"].mean().reset_index()


def _supports(df):
    supports = df[["dataset", "repeat", "fold", "method", "k", "support"]].copy()
    supports["support"] = supports["support"].map(list)
    return supports


#: the two classifiers of every task: the stored metric and its name on the page
CLASSIFIERS = {"acc_linear": "linear SVM", "acc_rbf": "RBF SVM"}


def fold_accuracies(params_list, results_list, dataset, method, metric="acc_linear", k=RANK_K):
    """Test accuracy (%) of ``method`` on every test fold of ``dataset``, as stored.

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks (``read_store(PROTOCOL).params`` and ``.results``).
    dataset, method : str
    metric : {"acc_linear", "acc_rbf"}
        The classifier (``Proj-SVM`` has ``"acc_linear"`` only).
    k : int
        Kept features; ignored by ``none``, :data:`OWN_SIZE` and :data:`CLASSIFIER_SIDE` methods,
        which have one point.

    Returns
    -------
    ndarray of shape (repeats, n_folds)
        Row ``r``, column ``f``: repeat ``r``, test fold ``f``; the folds are the same for every
        method, so two methods' arrays are paired cell by cell.

    Examples
    --------
    >>> from fsbook.experiments import benchmark as B
    >>> ps = [{"dataset": "wine", "method": "none", "repeat": 0, "fold": f, "n_folds": 2} for f in (0, 1)]
    >>> rs = [{"k": [0], "acc_linear": [a], "acc_rbf": [a]} for a in (0.9, 0.95)]
    >>> B.fold_accuracies(ps, rs, "wine", "none").tolist()
    [[90.0, 95.0]]
    """
    if metric not in CLASSIFIERS:
        raise ValueError(f"metric must be one of {list(CLASSIFIERS)}, got {metric!r}")
    cells = {}
    for p, r in zip(params_list, results_list):
        if p["dataset"] != dataset or p["method"] != method:
            continue
        if "not_run" in r:
            raise ValueError(f"{method} does not run on {dataset}: {r['not_run']}")
        if method in CLASSIFIER_SIDE:
            if metric != "acc_linear":
                raise ValueError(f"{method} has a linear SVM accuracy only")
            value = r["acc_linear"]
        else:
            at = 0 if (method == "none" or method in OWN_SIZE) else (r["k"].index(k) if k in r["k"] else None)
            if at is None:
                raise ValueError(f"{method} on {dataset} has no stored k = {k} (stored: {r['k']})")
            value = r[metric][at]
        cells[(p["repeat"], p["fold"])] = 100.0 * value
    if not cells:
        raise ValueError(f"no stored task of {method} on {dataset}")
    repeats = 1 + max(r for r, _ in cells)
    n_folds = next(p["n_folds"] for p in params_list if p["dataset"] == dataset and p["method"] == method)
    if len(cells) != repeats * n_folds:
        raise ValueError(f"{method} on {dataset}: {len(cells)} of {repeats * n_folds} folds stored")
    out = np.empty((repeats, n_folds))
    for (r, f), v in cells.items():
        out[r, f] = v
    return out


def _fold_test(values):
    """The claims test and unit that fit ``values`` of shape (repeats, folds): with several
    repetitions of k-fold CV (the full protocol's 5 × 2 CV) the paired t-test over the repetition
    means (``"repeated_cv_t"``, unit ``"repetitions"``: the repetitions are independent given the
    data set, the folds of one repetition are not); with one partition (the book subsample's
    3 folds) the plain paired t-test over its folds.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments import benchmark as B
    >>> B._fold_test(np.zeros((5, 2))), B._fold_test(np.zeros((1, 3)))
    ({'test': 'repeated_cv_t', 'unit': 'repetitions'}, {'test': 'paired_t', 'unit': 'folds'})
    """
    if values.ndim == 2 and values.shape[0] >= 2:
        return {"test": "repeated_cv_t", "unit": "repetitions"}
    return {"test": "paired_t", "unit": "folds"}


def _best(candidates, values):
    """The first candidate (in the given order) whose mean is within the tie tolerance of the
    largest mean (:func:`fsbook.decisions.argbest`), and all those tied with it."""
    from fsbook.decisions import RTOL, argbest

    means = np.array([v.mean() for v in values])
    i = argbest(means, maximize=True)
    tied = [c for c, m in zip(candidates, means) if abs(m - means[i]) <= RTOL * abs(means[i])]
    return i, tied


#: suffix of the family of a table's over-data-set rows (:func:`fsbook.claims.over_datasets_table`)
OVER = " (over data sets)"


class _Family:
    """The rows of one claims table: the per-data-set rows form the Holm family ``table``, the
    over-data-set rows (Wilcoxon over the per-data-set effects) the family ``table + OVER``."""

    def __init__(self, table):
        self.table, self.rows, self.over = table, [], []

    def per_dataset(self, text, dataset, classifier, a, b, va, vb, note=""):
        from fsbook.claims import Claim, evaluate
        from fsbook.decisions import RTOL

        claim = Claim(f"{text}: {dataset}", a=a, b=b, better="higher", table=self.table, dataset=dataset,
                      **_fold_test(va))
        row = evaluate(claim, va, vb, note=note)
        # folds whose differences cancel leave a rounding residue (1e-15) as the mean effect: within the
        # tie tolerance of the accuracies it is exactly zero, so that neither its printed sign nor the
        # Wilcoxon test over the data sets (which drops zero effects) depends on the last bit
        if abs(row["effect"]) <= RTOL * max(np.abs(va).max(), np.abs(vb).max()):
            row["effect"] = 0.0
        self.rows.append({**row, "general": text, "dataset": dataset, "classifier": classifier})

    def over_datasets(self, text, classifier, a, b):
        """Decide ``text`` over the data sets of its per-data-set rows (:meth:`table_rows`)."""
        self.over.append((text, classifier, a, b))

    def table_rows(self):
        from fsbook.claims import claims_table, evaluate_over_datasets

        t = claims_table(self.rows)
        over = []
        for text, classifier, a, b in self.over:
            per = t[(t["general"] == text) & (t["dataset"] != "")].assign(claim=text)
            row = evaluate_over_datasets(per, text, table=self.table + OVER)
            over.append({**row, "a": a, "b": b, "general": text, "dataset": "", "classifier": classifier})
        return pd.concat([t, claims_table(over)], ignore_index=True) if over else t


def _ordered(t):
    """Each claim's per-data-set rows, then its row over the data sets."""
    scope = np.where(t["dataset"] != "", 0, 1)
    first = {g: i for i, g in enumerate(dict.fromkeys(t["general"]))}
    key = pd.DataFrame({"g": t["general"].map(first), "s": scope, "i": np.arange(len(t))})
    return t.iloc[key.sort_values(["g", "s", "i"]).index].reset_index(drop=True)


#: claims tables of :func:`claims` and the comparison each one makes: the per-data-set rows of a
#: table are one Holm family, its over-data-set rows another (``table + OVER``)
CLAIM_TABLES = {
    "proj": "Proj-SVM against the linear SVM on all features",
    "hsfs": f"HSFS against l1-SVM at k = {RANK_K}",
    "best_k": f"the best selector at k = {RANK_K} against all features",
    "best_any": "the best selector at any k against all features",
    "own_size": "CFS and GeoRatio at their own size against all features",
    "ldfs_wine": f"every other selector against LDFS on wine (linear SVM, k = {RANK_K})",
}


def claims(results, datasets=None):
    """Every comparison the benchmark chapter decides, evaluated on the stored fold accuracies.

    Each claim says that ``a`` has a higher test accuracy than ``b``.  Per data set it is tested
    on the paired test folds (both methods see the same folds), by :func:`_fold_test`: on the full
    protocol's 5 × 2 CV the paired t-test over the 5 repetition means (unit ``"repetitions"``),
    on one partition the paired t-test over its folds.  Over the data sets, the Wilcoxon
    signed-rank test on the per-data-set effects, with the Hodges–Lehmann estimate and interval
    (:func:`fsbook.claims.evaluate_over_datasets`, unit ``"data sets"``; its note counts the
    per-data-set verdicts, which decide nothing).  Holm's correction runs within each family: the
    per-data-set rows of a table (:data:`CLAIM_TABLES`) form the family ``table``, its rows over
    the data sets the family ``table + OVER``, so the two kinds never share a correction:

    ``proj``
        ``Proj-SVM`` above the linear SVM on all features (the projection-penalties paper's
        direction).
    ``hsfs``
        HSFS above ℓ1-SVM at :data:`RANK_K` features, for each classifier.
    ``best_k``, ``best_any``
        The selector (``best_any``: the selector and ``k``, own-size methods at their size) of
        the largest mean accuracy on a data set above the classifier on all features.  The best
        is picked on the same test folds, which favours it: a verdict of *holds* is optimistic,
        *not separable* is not.
    ``own_size``
        CFS, and GeoRatio where it runs, above the classifier on all features.
    ``ldfs_wine``
        Every other selector keeping ``k`` features above LDFS on wine (linear SVM, ``k`` =
        :data:`RANK_K`).

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL, ...)`` (its ``params`` and ``results``).
    datasets : list of str, optional
        The data sets to use (default: every data set of the stored tasks, protocol order).

    Returns
    -------
    DataFrame
        A claims table (:data:`fsbook.claims.COLUMNS`) with the columns ``general`` (the claim
        without its data set), ``dataset`` (empty over data sets) and ``classifier``.
    """
    params_list, results_list = list(results.params), list(results.results)
    if datasets is None:
        present = {p["dataset"] for p in params_list}
        datasets = [d for d in FULL_DATASETS if d in present]
    if not datasets:
        raise ValueError("claims need at least one data set")

    def acc(dataset, method, metric, k=RANK_K):
        return fold_accuracies(params_list, results_list, dataset, method, metric, k)

    ran = {(p["dataset"], p["method"]) for p, r in zip(params_list, results_list) if "not_run" not in r}
    k_selectors = [m for m in methods() if m not in OWN_SIZE]
    tables = []

    fam = _Family("proj")
    text = "Proj-SVM above the linear SVM on all features"
    for d in datasets:
        fam.per_dataset(text, d, "linear SVM", "Proj-SVM", "none", acc(d, "Proj-SVM", "acc_linear"),
                        acc(d, "none", "acc_linear"))
    fam.over_datasets(text, "linear SVM", "Proj-SVM", "none")
    tables.append(fam.table_rows())

    fam = _Family("hsfs")
    for metric, clf in CLASSIFIERS.items():
        text = f"HSFS above l1-SVM at k = {RANK_K} ({clf})"
        for d in datasets:
            fam.per_dataset(text, d, clf, "HSFS", "l1-SVM", acc(d, "HSFS", metric), acc(d, "l1-SVM", metric))
        fam.over_datasets(text, clf, "HSFS", "l1-SVM")
    tables.append(fam.table_rows())

    for table, at_any in (("best_k", False), ("best_any", True)):
        fam = _Family(table)
        for metric, clf in CLASSIFIERS.items():
            text = (f"the best selector {'at any k' if at_any else f'at k = {RANK_K}'} above all features ({clf})")
            for d in datasets:
                cands = [(m, k) for m in methods() if m != "none" and (d, m) in ran
                         for k in (_stored_ks(params_list, d, m) if at_any else
                                   ([RANK_K] if m in k_selectors else []))]
                vals = [acc(d, m, metric, k) for m, k in cands]
                i, tied = _best(cands, vals)
                label = [m if m in OWN_SIZE else f"{m} (k = {k})" if at_any else m for m, k in tied]
                note = "best: " + ", ".join(label)
                fam.per_dataset(text, d, clf, cands[i][0], "none", vals[i], acc(d, "none", metric), note=note)
            fam.over_datasets(text, clf, "best selector", "none")
        tables.append(fam.table_rows())

    fam = _Family("own_size")
    for method in sorted(OWN_SIZE - {"none"}):
        for metric, clf in CLASSIFIERS.items():
            text = f"{method} above all features ({clf})"
            sets = [d for d in datasets if (d, method) in ran]
            for d in sets:
                fam.per_dataset(text, d, clf, method, "none", acc(d, method, metric), acc(d, "none", metric))
            if len(sets) > 1:
                fam.over_datasets(text, clf, method, "none")
    tables.append(fam.table_rows())

    if "wine" in datasets:
        fam = _Family("ldfs_wine")
        base = acc("wine", "LDFS", "acc_linear")
        for m in k_selectors:
            if m not in ("none", "LDFS") and ("wine", m) in ran:
                fam.per_dataset(f"{m} above LDFS on wine (linear SVM, k = {RANK_K})", "wine", "linear SVM", m,
                                "LDFS", acc("wine", m, "acc_linear"), base)
        tables.append(fam.table_rows())
    return pd.concat([_ordered(t) for t in tables], ignore_index=True)


def claims_view(claims_df, table):
    """The rows of one table of :func:`claims` (its per-data-set family and its over-data-set family
    ``table + OVER``), each claim named by what distinguishes it within the table (its classifier
    and data set, or "over data sets"), for :func:`fsbook.report.claims_display`.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments import benchmark as B
    >>> t = pd.DataFrame({"table": ["hsfs", "hsfs (over data sets)"], "claim": ["x: wine", "x"],
    ...                   "general": ["x", "x"], "dataset": ["wine", ""], "classifier": ["RBF SVM", "linear SVM"]})
    >>> B.claims_view(t, "hsfs")["claim"].tolist()
    ['RBF SVM, wine', 'linear SVM, over data sets']
    """
    if table not in set(claims_df["table"]):
        raise ValueError(f"no claims of table {table!r}; tables: {sorted(set(claims_df['table']))}")
    t = claims_df[claims_df["table"].isin([table, table + OVER])].copy()
    several = t["classifier"].nunique() > 1 or t["general"].nunique() > 1
    where = np.where(t["dataset"] != "", t["dataset"], "over data sets")
    if table == "ldfs_wine":
        t["claim"] = t["a"].to_numpy()
    elif table == "own_size":
        t["claim"] = [f"{a}, {c}, {w}" for a, c, w in zip(t["a"], t["classifier"], where)]
    else:
        t["claim"] = [f"{c}, {w}" if several else w for c, w in zip(t["classifier"], where)]
    return t.reset_index(drop=True)


def _stored_ks(params_list, dataset, method):
    ks = next(p["ks"] for p in params_list if p["dataset"] == dataset and p["method"] == method)
    return list(ks)


def score_matrix(accuracy_at_k, metric):
    """Data sets × methods matrix of ``metric`` (``"acc_linear"`` or ``"acc_rbf"``) from the
    ``accuracy_at_k`` table, methods in the protocol's order."""
    if metric not in ("acc_linear", "acc_rbf"):
        raise ValueError(f"metric must be 'acc_linear' or 'acc_rbf', got {metric!r}")
    m = accuracy_at_k.pivot(index="dataset", columns="method", values=metric)
    return m[[c for c in methods() if c in m.columns]]


def versus_control(accuracy_at_k, control="none"):
    """Per classifier, every ranked method against ``control`` (default: the classifier on all
    features) by Demšar's comparison with a control (:func:`fsbook.stats.holm_vs_control`): average
    ranks over the data sets at :data:`RANK_K`, ``z``, two-sided p and Holm-adjusted p over the
    methods compared with the control, and which side of the control a method lies on."""
    from fsbook.stats import average_ranks, holm_vs_control

    rows = []
    for metric, label in CLASSIFIERS.items():
        s = score_matrix(accuracy_at_k, metric)
        control_rank = float(average_ranks(s)[control])
        for m, r in holm_vs_control(s, control).iterrows():
            side = "ranks below" if r["z"] > 0 else "ranks above" if r["z"] < 0 else "ties with"
            rows.append({"classifier": label, "method": m, "average rank": r["rank"],
                         "rank of the control": control_rank, "z": r["z"], "p": r["p"], "p (Holm)": r["p_holm"],
                         "side": side})
    return pd.DataFrame(rows)


def statistics(accuracy_at_k):
    """Per metric: number of data sets and methods, Friedman χ² and p-value, the Nemenyi
    critical difference at α = 0.05 and the pairs Nemenyi separates (p < 0.05), on the stored
    scores (near-equal scores are ties with the tolerance of :mod:`fsbook.decisions`; the printed
    rounding decides nothing)."""
    from fsbook.stats import critical_difference, friedman, nemenyi

    rows = []
    for metric, label in (("acc_linear", "linear SVM"), ("acc_rbf", "RBF SVM")):
        s = score_matrix(accuracy_at_k, metric)
        chi2, p = friedman(s)
        pv = nemenyi(s)
        pairs = [f"{a} vs {b}" for i, a in enumerate(pv.index) for b in pv.columns[i + 1:] if pv.loc[a, b] < 0.05]
        rows.append({"classifier": label, "data sets": s.shape[0], "methods": s.shape[1], "Friedman chi2": chi2,
                     "p-value": p, "CD (alpha=0.05)": critical_difference(s.shape[1], s.shape[0]),
                     "pairs Nemenyi separates": ", ".join(pairs) if pairs else "none"})
    return pd.DataFrame(rows)


PROTOCOL = Protocol(name="benchmark", make_tasks=make_tasks, run_task=run_task, reduce=reduce, version=VERSION,
                    description="Benchmark chapter: the book's selectors and the usual baselines on shared data "
                                "(same folds, linear and RBF SVM accuracy vs k, fit time, Kuncheva stability)",
                    # HKL's relative duality gap at the final iterate: compared to 1e-3 of itself
                    # and a tenth of the tolerance (hkl_certified, exactly)
                    tolerances={"hkl_gap": (1e-3, HKL_SETTINGS[VERSION]["tol"] / 10)})

"""Helpers shared by the protocols: the tuned SVM and the one selector registry.

:func:`tuned_svm` is the classifier every protocol tunes by inner cross-validation (its kernel,
its grid and whether it standardises the features are the caller's: the chapters differ there on
purpose); :func:`make_selector` builds every feature selector a protocol compares, under the one
set of labels :data:`SELECTOR_LABELS` the book prints.
"""
from __future__ import annotations

import functools

import numpy as np
from sklearn.metrics import hinge_loss
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.decisions import RTOL, SCORE_ATOL, argbest_lexicographic, tie_refit

__all__ = ["SELECTOR_LABELS", "SVM_TIE_RULES", "inner_folds", "lexicographic_svm_refit", "make_selector",
           "outcome_string", "tuned_svm"]

#: tie rules of :func:`tuned_svm`: ``"first"`` (every stored protocol) and ``"lexicographic"``
#: (never a one-class model when a tied model predicts both classes)
SVM_TIE_RULES = ("first", "lexicographic")

#: the selectors' labels, one per method, in the book's order (the papers' wording: ``SVM-RFE``
#: for Guyon et al.'s recursive elimination, ``ReliefF`` for Relief with k = 10 neighbours)
SELECTOR_LABELS = ("MI", "SVM-RFE", "l1-SVM", "ReliefF", "CFS", "FOHSIC", "LS", "LDFS", "HSFS",
                   "WK-LP")


#: HSFS's pair kernel in the stores computed with the earlier defaults (``earlier_defaults=True``
#: of :func:`make_selector`: the benchmark and the selection suite): libm's ``exp``, the kernel
#: they were run with.  HSFS's default is the vectorised kernel (one ulp from libm, faster); on
#: an ARCENE fold of the l1linf store that ulp moved the path to other features at k = 6, 8, 10,
#: so adopting it is a new version of a protocol (l1linf's version 5 adopted it).
HSFS_PAIR_KERNEL = "libm"


def inner_folds(seed, n_splits=3):
    """The inner stratified folds of a tuning search: shuffled with ``seed``, or in the data's
    order when ``seed`` is ``None``.

    Examples
    --------
    >>> inner_folds(0)
    StratifiedKFold(n_splits=3, random_state=0, shuffle=True)
    >>> inner_folds(None, 5)
    StratifiedKFold(n_splits=5, random_state=None, shuffle=False)
    """
    if seed is None:
        return StratifiedKFold(n_splits)
    return StratifiedKFold(n_splits, shuffle=True, random_state=seed)


def outcome_string(predicted, y_test):
    """The test samples' outcomes in test-fold order, ``"1"`` correct and ``"0"`` wrong (the
    per-sample units of the exact sign test on a single partition; the l1/linf protocol and the
    kernel-design selection check store them).

    Examples
    --------
    >>> outcome_string(np.array([0, 1, 1]), np.array([0, 0, 1]))
    '101'
    """
    return "".join("1" if ok else "0" for ok in np.asarray(predicted) == np.asarray(y_test))


def _n_predicted_classes(estimator, X, y):
    """Scorer: the number of classes ``estimator`` predicts on ``X``."""
    return float(np.unique(estimator.predict(X)).size)


def _negative_hinge(estimator, X, y):
    """Scorer: minus the mean hinge loss of ``estimator``'s decision function on ``X``."""
    return -float(hinge_loss(y, estimator.decision_function(X), labels=estimator.classes_))


#: the scorers of ``tie="lexicographic"``: the accuracy decides, the others break its ties
LEXICOGRAPHIC_SCORING = {"accuracy": "accuracy", "classes": _n_predicted_classes, "hinge": _negative_hinge}


def lexicographic_svm_refit(cv_results):
    """``refit`` of ``tuned_svm(..., tie="lexicographic")``: the best mean validation accuracy
    (ties within :data:`~fsbook.decisions.SCORE_ATOL`); among its ties the models that predict
    more than one class on some validation fold over those that predict one class on every fold
    (the majority-rate models, at chance); then the smallest mean validation hinge loss
    (:data:`~fsbook.decisions.RTOL`); then the first in grid order
    (:func:`fsbook.decisions.argbest_lexicographic`).

    Examples
    --------
    >>> lexicographic_svm_refit({"mean_test_accuracy": [0.7, 0.7, 0.6],
    ...                          "mean_test_classes": [1.0, 2.0, 2.0],
    ...                          "mean_test_hinge": [-0.9, -0.8, -0.5]})
    1
    """
    both = (np.asarray(cv_results["mean_test_classes"], dtype=float) > 1).astype(float)
    return argbest_lexicographic(cv_results["mean_test_accuracy"], both, cv_results["mean_test_hinge"],
                                 maximize=(True, True, True), atol=(SCORE_ATOL, 0.0, 0.0),
                                 rtol=(0.0, 0.0, RTOL))


def tuned_svm(svm, grid, seed, *, scale=False, n_splits=3, error_score=float("nan"), tie="first"):
    """``svm`` with its parameters in ``grid`` chosen by inner stratified cross-validation.

    A :class:`~sklearn.model_selection.GridSearchCV` on :func:`inner_folds` ``(seed, n_splits)``,
    one process, refitted at the best grid point with ties (scores within
    :data:`fsbook.decisions.SCORE_ATOL`) going to the first point of the grid
    (:func:`fsbook.decisions.tie_refit`), or broken by :func:`lexicographic_svm_refit`.

    Parameters
    ----------
    svm : estimator
        The classifier (its kernel and fixed settings are the caller's).
    grid : dict
        Parameter name of ``svm`` → candidate values, in the order ties are broken.
    seed : int or None
        Seed of the inner folds (``None``: unshuffled folds).
    scale : bool, default False
        Standardise the features first (``StandardScaler → svm``, learnt on each training part);
        the grid's names are then prefixed with the SVM's step name.
    n_splits : int, default 3
        Number of inner folds.
    error_score : float or "raise", default NaN
        Passed to ``GridSearchCV``.
    tie : {"first", "lexicographic"}, default "first"
        ``"first"``: ties go to the first grid point (the rule of every stored protocol).
        ``"lexicographic"``: :func:`lexicographic_svm_refit` (it changes choices, so a
        protocol that switches to it bumps its version); the search then scores
        :data:`LEXICOGRAPHIC_SCORING`, and its ``score`` is not defined (use ``predict``).

    Returns
    -------
    sklearn.model_selection.GridSearchCV
        Unfitted.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.svm import LinearSVC
    >>> X, y = load_iris(return_X_y=True)
    >>> model = tuned_svm(LinearSVC(random_state=0), {"C": [0.01, 1.0]}, seed=0, scale=True)
    >>> sorted(model.fit(X, y).best_params_)
    ['linearsvc__C']
    """
    if scale:
        svm = make_pipeline(StandardScaler(), svm)
        step = svm.steps[-1][0]
        grid = {f"{step}__{name}": values for name, values in grid.items()}
    if tie not in SVM_TIE_RULES:
        raise ValueError(f"unknown tie rule {tie!r}; choose one of {SVM_TIE_RULES}")
    lexicographic = tie == "lexicographic"
    return GridSearchCV(svm, {name: list(values) for name, values in grid.items()},
                        scoring=LEXICOGRAPHIC_SCORING if lexicographic else None,
                        cv=inner_folds(seed, n_splits), n_jobs=1,
                        refit=lexicographic_svm_refit if lexicographic else tie_refit(),
                        error_score=error_score)


def make_selector(method, k, seed, *, l1linf_path=None, boolean=False, earlier_defaults=False):
    """The selector labelled ``method`` keeping ``k`` features, seeded with ``seed``.

    Parameters
    ----------
    method : str
        One of :data:`SELECTOR_LABELS`.
    k : int
        Number of features to keep (ignored by ``CFS``, which picks its own).
    seed : int
        ``random_state`` of the seeded selectors (MI, SVM-RFE, l1-SVM, LDFS, HSFS, WK-LP).
    l1linf_path : dict or None
        Path settings (``tol``, ``max_iter``, ``max_bisect``) of LDFS and HSFS; required by them.
    boolean : bool, default False
        Whether the features are 0/1 (CFS then discretises nothing).
    earlier_defaults : bool, default False
        The settings of stores computed before four defaults changed: SVM-RFE with liblinear's
        dual solve (``solver="dual"``), LDFS without the shrinkage of its within-class scatter
        (``shrinkage=None``), HSFS with libm's ``exp`` (:data:`HSFS_PAIR_KERNEL`) and WK-LP's
        column generation without the tie rule and the faster start
        (:data:`fsbook.kernel_design.colgen.LEGACY_OPTIONS`).

    Examples
    --------
    >>> make_selector("ReliefF", 3, seed=0)
    Relief(n_features_to_select=3)
    >>> make_selector("RFE", 3, seed=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown selector 'RFE'; expected one of ('MI', 'SVM-RFE', ...
    """
    from sklearn.feature_selection import SelectKBest, mutual_info_classif

    from fsbook.baselines import FOHSIC, SVMRFE, L1SVMSelector, LaplacianScore, Relief
    from fsbook.baselines.weka_selector import WekaSubsetSelector
    from fsbook.kernel_design import WeakKernelSelector
    from fsbook.kernel_design.colgen import LEGACY_OPTIONS
    from fsbook.l1linf import HSFS, LDFS

    if method not in SELECTOR_LABELS:
        raise ValueError(f"unknown selector {method!r}; expected one of {SELECTOR_LABELS}")
    if method in ("LDFS", "HSFS") and l1linf_path is None:
        raise ValueError(f"{method} needs l1linf_path (tol, max_iter, max_bisect)")
    makers = {"MI": lambda: SelectKBest(functools.partial(mutual_info_classif, random_state=seed), k=k),
              "SVM-RFE": lambda: SVMRFE(k, solver="dual" if earlier_defaults else "converged", random_state=seed),
              "l1-SVM": lambda: L1SVMSelector(k, tol=1e-6, random_state=seed),
              "ReliefF": lambda: Relief(k),
              "CFS": lambda: WekaSubsetSelector("cfs", "best_first", discrete_features=boolean),
              "FOHSIC": lambda: FOHSIC(k),
              "LS": lambda: LaplacianScore(k),
              "LDFS": lambda: LDFS(k, random_state=seed, **l1linf_path,
                                   **({"shrinkage": None} if earlier_defaults else {})),
              "HSFS": lambda: HSFS(k, random_state=seed, **l1linf_path,
                                   **({"pair_kernel": HSFS_PAIR_KERNEL} if earlier_defaults else {})),
              "WK-LP": lambda: WeakKernelSelector(n_features_to_select=k, random_state=seed,
                                                  **({"solver_options": LEGACY_OPTIONS} if earlier_defaults
                                                     else {}))}
    return makers[method]()

"""Model selection shared by the protocols: inner folds, the tuned SVM and its tie rules.

Every protocol that tunes a classifier by inner cross-validation builds it with :func:`tuned_svm`
(its kernel, its grid and whether it standardises the features are the caller's: the chapters
differ there on purpose).  Ties between grid points are broken by one of :data:`SVM_TIE_RULES`,
built on the tie tolerances of :mod:`fsbook.decisions`: the first grid point, the first grid
point that predicts both classes (:func:`two_class_svm_refit`), or :func:`lexicographic_svm_refit`
(the same, then the smaller hinge loss); the last two never choose a one-class model when a tied
model predicts both classes.
"""
from __future__ import annotations

import numpy as np
from sklearn.metrics import hinge_loss, make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.decisions import RTOL, SCORE_ATOL, argbest_lexicographic, tie_refit

__all__ = ["LEXICOGRAPHIC_SCORING", "SVM_TIE_RULES", "TWO_CLASS_SCORING", "inner_folds",
           "lexicographic_svm_refit", "tuned_svm", "two_class_svm_refit"]

#: tie rules of :func:`tuned_svm`: ``"first"``, ``"two_class"`` and ``"lexicographic"`` (the last
#: two never choose a one-class model when a tied model predicts both classes)
SVM_TIE_RULES = ("first", "two_class", "lexicographic")


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


def _n_classes(y_true, y_pred):
    """The number of classes in ``y_pred``."""
    return float(np.unique(y_pred).size)


#: scorer: the number of classes an estimator predicts on the validation points.  A scorer of
#: :func:`~sklearn.metrics.make_scorer`'s, so that a search scoring it beside the accuracy
#: predicts each validation fold once (scikit-learn caches the predictions its scorers share)
_n_predicted_classes = make_scorer(_n_classes)


def _negative_hinge(estimator, X, y):
    """Scorer: minus the mean hinge loss of ``estimator``'s decision function on ``X``."""
    return -float(hinge_loss(y, estimator.decision_function(X), labels=estimator.classes_))


#: the scorers of ``tie="lexicographic"``: the accuracy decides, the others break its ties
LEXICOGRAPHIC_SCORING = {"accuracy": "accuracy", "classes": _n_predicted_classes, "hinge": _negative_hinge}
#: the scorers of ``tie="two_class"``: the accuracy decides, the number of classes breaks its ties
TWO_CLASS_SCORING = {"accuracy": "accuracy", "classes": _n_predicted_classes}


def two_class_svm_refit(cv_results):
    """``refit`` of ``tuned_svm(..., tie="two_class")``: the best mean validation accuracy (ties
    within :data:`~fsbook.decisions.SCORE_ATOL`); among its ties the models that predict more
    than one class on some validation fold over those that predict one class on every fold (the
    majority-rate models, at chance); then the first in grid order.  It chooses what
    ``tie="first"`` chooses unless that is a one-class model tied with a two-class one.

    Examples
    --------
    >>> two_class_svm_refit({"mean_test_accuracy": [0.7, 0.7, 0.7],
    ...                      "mean_test_classes": [1.0, 2.0, 2.0]})
    1
    >>> two_class_svm_refit({"mean_test_accuracy": [0.7, 0.7], "mean_test_classes": [2.0, 1.0]})
    0
    """
    both = (np.asarray(cv_results["mean_test_classes"], dtype=float) > 1).astype(float)
    return argbest_lexicographic(cv_results["mean_test_accuracy"], both, maximize=(True, True),
                                 atol=(SCORE_ATOL, 0.0), rtol=(0.0, 0.0))


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
    tie : {"first", "two_class", "lexicographic"}, default "first"
        ``"first"``: ties go to the first grid point.  ``"two_class"``:
        :func:`two_class_svm_refit`; ``"lexicographic"``: :func:`lexicographic_svm_refit` (each
        can change choices, so a protocol that switches to one bumps its version); the search
        then scores :data:`TWO_CLASS_SCORING` or :data:`LEXICOGRAPHIC_SCORING`, and its
        ``score`` is not defined (use ``predict``).

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
    scoring, refit = {"first": (None, tie_refit()),
                      "two_class": (TWO_CLASS_SCORING, two_class_svm_refit),
                      "lexicographic": (LEXICOGRAPHIC_SCORING, lexicographic_svm_refit)}[tie]
    return GridSearchCV(svm, {name: list(values) for name, values in grid.items()}, scoring=scoring,
                        cv=inner_folds(seed, n_splits), n_jobs=1, refit=refit, error_score=error_score)

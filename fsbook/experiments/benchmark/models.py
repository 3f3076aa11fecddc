"""The benchmark's model searches: the two classifiers that score a kept set (linear and RBF
SVM, C by inner 3-fold CV) and the projection-penalised linear SVM (``Proj-SVM``), each an
unfitted search that the task fits and the chance-level audit refits, and the test accuracies
they give (the protocol is described in :mod:`fsbook.experiments.benchmark`).
"""
from __future__ import annotations

import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from fsbook._rowspace import RowSpaceLinearSVC
from fsbook.experiments.benchmark.paper import (
    C_LINEAR,
    C_RBF,
    PROJ_PENALTIES,
    RANK_K,
    ROW_SPACE,
    SVM_TIES,
    VERSION,
    fit_clock,
)
from fsbook.model_selection import tuned_svm


def projection_search(X_train, y_train, seed):
    """The unfitted model search of ``Proj-SVM``: its pipeline, grid, inner folds and tie rule.

    ``StandardScaler → ProjectionPenalty(LinearSVC, PCA)`` with as many components as
    :data:`RANK_K` allows on the training fold (at most one fewer than the features and than
    the inner training folds' size), C over :data:`C_LINEAR` and λ over :data:`PROJ_PENALTIES`
    by inner 3-fold CV, ties by :data:`SVM_TIES` of the protocol's version; from version 12 the
    SVM is solved in the row space of its training fold (:data:`ROW_SPACE`).

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
    svm = (RowSpaceLinearSVC if VERSION in ROW_SPACE else LinearSVC)(random_state=seed, max_iter=5000)
    model = make_pipeline(StandardScaler(), ProjectionPenalty(svm, PCA(n_components, random_state=seed)))
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
        The search's time (volatile): CPU seconds from version 11, wall-clock before
        (:func:`~fsbook.experiments.benchmark.paper.fit_clock`).
    C, reduced_penalty : float
        The chosen C and λ.

    Examples
    --------
    >>> from fsbook.experiments.benchmark.data import load
    >>> X, y = load("wine")[:2]
    >>> acc, seconds, C, penalty = projection_accuracy(X[::2], y[::2], X[1::2], y[1::2], seed=0)
    >>> acc > 0.9, C in C_LINEAR, penalty in PROJ_PENALTIES
    (True, True, True)
    """
    clock = fit_clock()
    start = clock()
    search = projection_search(X_train, y_train, seed).fit(X_train, y_train)
    seconds = clock() - start
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
    >>> from fsbook.experiments.benchmark.data import load
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

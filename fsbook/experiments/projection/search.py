"""Each part's model search: Table 1's ridge path cross-validation and the face SVMs' C search.

:func:`ridge_path_cv` gives ridge's validation error for a whole α grid from one SVD per fold
(Table 1's Ridge and, on the augmented features, Proj-PCR and Proj-PLS);
:func:`svc_cv_fits` runs the face SVMs' C search of Tables 5-7 (its reference
:func:`_svc_cv_fit` is one ``GridSearchCV`` per Gram matrix, :func:`face_svm_search`, which the
chance audit refits).
"""

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold
from sklearn.svm import SVC

from fsbook._svc import PrecomputedSVC
from fsbook.decisions import SCORE_ATOL, argbest
from fsbook.model_selection import (
    SVM_TIE_RULES,
    inner_folds,
    lexicographic_svm_refit,
    tuned_svm,
)
from fsbook.projection import augment_features


def _ridge_path_fold(A_tr, y_tr, A_va, y_va, alphas):
    """Validation MSE of ridge (unpenalised intercept) for every ``alpha``, from one SVD."""
    mu, ym = A_tr.mean(0), y_tr.mean()
    U, s, Vt = np.linalg.svd(A_tr - mu, full_matrices=False)
    uty = U.T @ (y_tr - ym)
    Av = (A_va - mu) @ Vt.T
    return np.array([np.mean((y_va - (Av @ (s / (s ** 2 + a) * uty) + ym)) ** 2) for a in alphas])


def ridge_path_cv(A, y, alphas, n_splits=5, seed=0):
    """Mean validation MSE of ridge (with unpenalised intercept) for every ``alpha``.

    One SVD per fold gives the whole path; equals :class:`sklearn.linear_model.Ridge`.
    """
    errs = np.zeros(len(alphas))
    for tr, va in KFold(n_splits, shuffle=True, random_state=seed).split(A):
        errs += _ridge_path_fold(A[tr], y[tr], A[va], y[va], alphas) / n_splits
    return errs


def _proj_ridge_path_cv(X, y, reducer, alphas, lam, seed):
    """CV errors of the projection-penalised ridge: the reducer is refitted inside each fold."""
    errs = np.zeros(len(alphas))
    for tr, va in KFold(5, shuffle=True, random_state=seed).split(X):
        red = clone(reducer).fit(X[tr], y[tr])
        A_tr = augment_features(X[tr], red.transform(X[tr]), 1 / np.sqrt(lam))
        A_va = augment_features(X[va], red.transform(X[va]), 1 / np.sqrt(lam))
        errs += _ridge_path_fold(A_tr, y[tr], A_va, y[va], alphas) / 5
    return errs


def n_inner_folds(y_train):
    """Inner stratified folds of a face SVM's C search: at most 5, at most the smaller class's count.

    Parameters
    ----------
    y_train : array of int of shape (n_samples,)
        The pair's training labels (0 and 1).

    Returns
    -------
    int

    Examples
    --------
    >>> import numpy as np
    >>> n_inner_folds(np.array([0] * 8 + [1] * 8)), n_inner_folds(np.array([0] * 3 + [1] * 8))
    (5, 3)
    """
    return int(min(5, np.bincount(y_train).min()))


def face_svm_search(y_train, grid, seed, tie="first"):
    """The unfitted C search of a face SVM on a precomputed Gram matrix (Tables 5-7).

    ``SVC(kernel="precomputed")`` with C over ``grid`` by stratified CV on
    :func:`n_inner_folds` folds (:func:`~fsbook.model_selection.tuned_svm`; CV
    accuracies within :data:`fsbook.decisions.SCORE_ATOL` are ties, broken by the rule ``tie``).
    :func:`_svc_cv_fit` fits it; the chance-level audit refits it.

    Parameters
    ----------
    y_train : array of int of shape (n_samples,)
        The pair's training labels (they set the number of folds).
    grid : sequence of float
        The C values (the protocol's :data:`~fsbook.experiments.projection.paper.GRID`).
    seed : int
        Seed of the inner folds (:func:`~fsbook.experiments.projection.yale.yale_seed`).
    tie : {"first", "lexicographic"}, default "first"
        The tie rule (:data:`~fsbook.experiments.projection.paper.YALE_TIES` of the protocol's version).

    Returns
    -------
    sklearn.model_selection.GridSearchCV

    Examples
    --------
    >>> import numpy as np
    >>> search = face_svm_search(np.array([0] * 3 + [1] * 8), [0.1, 1.0], seed=0)
    >>> search.cv.n_splits, search.param_grid
    (3, {'C': [0.1, 1.0]})
    """
    return tuned_svm(SVC(kernel="precomputed"), {"C": grid}, seed, n_splits=n_inner_folds(y_train), tie=tie)


def _svc_cv_fit(G, y, tr, te, grid, seed, tie="first"):
    """SVM on a precomputed Gram matrix ``G`` (all points), C by stratified CV (≤ 5 folds,
    :func:`~fsbook.model_selection.tuned_svm`; CV accuracies within
    :data:`fsbook.decisions.SCORE_ATOL` are ties, broken by the rule ``tie``: ``"first"``, the
    smallest C, or ``"lexicographic"``).

    Returns ``(mean cv accuracy of the chosen C, test error, chosen C)``.  The reference of
    :func:`svc_cv_fits`, which the protocol runs.
    """
    ytr = y[tr]
    search = face_svm_search(ytr, grid, seed, tie).fit(G[np.ix_(tr, tr)], ytr)
    score = search.cv_results_["mean_test_accuracy" if tie == "lexicographic" else "mean_test_score"]
    return (float(score[search.best_index_]), float(np.mean(search.predict(G[np.ix_(te, tr)]) != y[te])),
            float(search.best_params_["C"]))


def svc_cv_fits(grams, y, tr, te, grid, seed, tie="first"):
    """:func:`_svc_cv_fit` for every Gram matrix of ``grams`` (``{key: G}``, all on the same
    points, labels and split): ``{key: (mean cv accuracy of the chosen C, test error, chosen C)}``.

    The same fits as the reference's :class:`~sklearn.model_selection.GridSearchCV` (the folds
    of :func:`~fsbook.model_selection.inner_folds`, an ``SVC(kernel="precomputed",
    C=C)`` per fold and ``C``, accuracies averaged over the folds with ``np.average``, the tie
    rule of :func:`~fsbook.decisions.tie_refit` or, with ``tie="lexicographic"``, of
    :func:`~fsbook.model_selection.lexicographic_svm_refit` on the folds' numbers
    of predicted classes and hinge losses, the refit on all training points), without its
    per-fit bookkeeping (cloning, parameter validation, scorers, result arrays), with the folds
    drawn once for all the Gram matrices, and each SVM fitted by
    :class:`~fsbook._svc.PrecomputedSVC` (the libsvm calls of ``SVC``, without its input checks:
    the Gram matrices are finite and square by construction): on the faces' 6 to 14 training
    images that bookkeeping was most of a task's time.  ``tests/test_projection_experiments.py``
    checks that both give the same numbers.

    Parameters
    ----------
    grams : dict
        ``{key: G}``, each ``G`` an ``(n, n)`` Gram matrix of the same ``n`` points.
    y : ndarray of shape (n,)
        Binary labels.
    tr, te : ndarray of int
        Training and test points (indices into ``y``).
    grid : list of float
        The C values, in the order ties are broken (the first wins).
    seed : int
        Seed of the inner stratified folds (at most 5, at most the smaller class's count).
    tie : {"first", "lexicographic"}, default "first"
        The tie rule (:data:`YALE_TIES` gives the protocol's).

    Returns
    -------
    dict
        ``{key: (mean CV accuracy of the chosen C, test error, chosen C)}``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.projection.search import _svc_cv_fit, svc_cv_fits
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(20, 3)), np.repeat([0, 1], 10)
    >>> X[y == 1] += 1.0
    >>> G = X @ X.T
    >>> tr, te = np.arange(0, 20, 2), np.arange(1, 20, 2)
    >>> svc_cv_fits({"linear": G}, y, tr, te, [0.01, 1.0], seed=0)["linear"] == _svc_cv_fit(G, y, tr, te, [0.01, 1.0], 0)
    True
    >>> fast = svc_cv_fits({"linear": G}, y, tr, te, [0.01, 1.0], seed=0, tie="lexicographic")
    >>> fast["linear"] == _svc_cv_fit(G, y, tr, te, [0.01, 1.0], 0, tie="lexicographic")
    True
    """
    ytr, yte = y[tr], y[te]
    folds = list(inner_folds(seed, n_inner_folds(ytr)).split(np.zeros((tr.size, 1)), ytr))
    if tie not in SVM_TIE_RULES:
        raise ValueError(f"unknown tie rule {tie!r}; choose one of {SVM_TIE_RULES}")
    out = {}
    for key, G in grams.items():
        Gtr = G[np.ix_(tr, tr)]
        mean = _svc_cv_table(Gtr, ytr, folds, grid)
        best = _svc_tie_choice(mean, tie)
        svm = PrecomputedSVC(grid[best]).fit(Gtr, ytr)
        out[key] = (float(mean[best, 0]), float(np.mean(svm.predict(G[np.ix_(te, tr)]) != yte)),
                    float(grid[best]))
    return out


def _svc_cv_table(G_train, y_train, folds, grid):
    """Per C of ``grid`` (rows): the mean over ``folds`` of the validation accuracy, the number
    of predicted classes and minus the hinge loss (columns; :func:`_fold_scores`)."""
    blocks = [(G_train[np.ix_(a, a)], y_train[a], G_train[np.ix_(b, a)], y_train[b]) for a, b in folds]
    table = np.array([[_fold_scores(PrecomputedSVC(C).fit(Ga, ya), Gb, yb)
                       for Ga, ya, Gb, yb in blocks] for C in grid], dtype=np.float64)
    return np.average(table, axis=1)


def _svc_tie_choice(mean, tie):
    """Index of the chosen C in a table of :func:`_svc_cv_table` under the tie rule ``tie``."""
    if tie == "first":
        return argbest(mean[:, 0], maximize=True, atol=SCORE_ATOL, rtol=0.0)     # tie_refit's rule
    return lexicographic_svm_refit({"mean_test_accuracy": mean[:, 0], "mean_test_classes": mean[:, 1],
                                    "mean_test_hinge": mean[:, 2]})


def _fold_scores(svm, G_val, y_val):
    """A fitted fold's accuracy, number of predicted classes and minus its hinge loss on the
    validation points (0/1 labels): the three scorers of ``tie="lexicographic"``
    (:data:`~fsbook.model_selection.LEXICOGRAPHIC_SCORING`), the hinge loss with
    the operations of :func:`sklearn.metrics.hinge_loss` (labels ±1 times the decision values,
    clipped at 0, averaged) without its input checks, which took most of a task's time, and the
    predictions from the same decision values.

    Examples
    --------
    >>> from sklearn.metrics import hinge_loss
    >>> G = np.array([[2.0, 0.5, 1.0], [0.5, 2.0, 0.2], [1.0, 0.2, 2.0]]); y = np.array([0, 1, 0])
    >>> svm = SVC(kernel="precomputed", C=1.0).fit(G, y)
    >>> _fold_scores(svm, G, y)[2] == -hinge_loss(y, svm.decision_function(G), labels=svm.classes_)
    True
    >>> _fold_scores(svm, G, y)[0] == float(np.mean(svm.predict(G) == y))
    True
    """
    decision = svm.decision_function(G_val)
    # libsvm's own rule (svm_predict_values): classes_[0] where its decision value is positive,
    # i.e. where scikit-learn's (its negation) is negative; predict() would recompute the values
    pred = svm.classes_[(decision >= 0).astype(int)]
    margin = np.where(y_val == svm.classes_[1], 1, -1) * decision
    losses = 1 - margin
    np.clip(losses, 0, None, out=losses)
    return float(np.mean(pred == y_val)), float(np.unique(pred).size), -float(np.average(losses))

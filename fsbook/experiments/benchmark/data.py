"""The benchmark's data and folds: the data sets as the protocol loads them, the columns a
method of a fold sees (a text set's fold vocabulary) and the stratified folds every method
shares (the protocol is described in :mod:`fsbook.experiments.benchmark`).

The feature groups of a booleanised nominal set (:func:`attribute_groups`) are read from its
column names here too: they are a property of the data, which the geometric-ratio selector
chooses among.
"""
from __future__ import annotations

import functools

import numpy as np
from sklearn.model_selection import StratifiedKFold

from fsbook.datasets import load_atheism_religion, most_frequent_words
from fsbook.experiments._runner import task_seed
from fsbook.experiments.benchmark.paper import FULL_DATASETS, TEXT_DATASETS, VOCABULARY


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

"""The ``hkl`` protocol's folds: the outer folds of every table (:func:`table_folds`), the seed of
each tuned model's inner folds (:func:`inner_seed`), the bydate split of the disjunctions task
(:func:`disjunction_split`) and the majority-class floor on the outer folds
(:func:`majority_accuracy`).
"""
from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedKFold

from fsbook.experiments.hkl.data import load_table1
from fsbook.experiments.hkl.paper import INNER_SEED_OFFSET, N_FOLDS


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

"""The ``hkl`` protocol's folds: the outer folds of every table (:func:`table_folds`, one task's
:func:`task_split`, each repetition's :func:`partition_seed`), the seed of
each tuned model's inner folds (:func:`inner_seed`), the bydate split of the disjunctions task
(:func:`disjunction_split`) and the majority-class floor on the outer folds
(:func:`majority_accuracy`).
"""
from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedKFold

from fsbook.experiments._runner import task_seed
from fsbook.experiments.hkl.data import load_table1
from fsbook.experiments.hkl.paper import INNER_SEED_OFFSET, N_FOLDS


def partition_seed(dataset, repeat=0):
    """Seed of the stratified partition ``repeat`` of a data set's outer folds: 0 for the first
    partition (every table's), and for Tables 1, 4 and 5's other repetitions
    (:data:`~fsbook.experiments.hkl.paper.REPEATS`) a seed derived from the data set and the
    repetition.

    Examples
    --------
    >>> partition_seed("vote"), partition_seed("vote", 1) == partition_seed("vote", 1)
    (0, True)
    >>> partition_seed("vote", 1) != partition_seed("hepatitis", 1)
    True
    """
    if repeat == 0:
        return 0
    return task_seed({"dataset": dataset, "repeat": int(repeat)}, "folds")


def table_folds(y, split, seed=0):
    """The outer folds of a Table 1 data set: its UCI train/test ``split`` when it has one (MONK's
    problems), else :data:`N_FOLDS`-fold stratified CV with ``seed`` (0, the first partition,
    shared by every method; :func:`partition_seed` for the other repetitions).

    Parameters
    ----------
    y : array
        The labels.
    split : tuple of two arrays of int, or None
        The data set's own ``(train, test)`` split (:func:`load_table1`).
    seed : int, default 0
        The partition's seed (:func:`partition_seed`).

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
    return list(StratifiedKFold(N_FOLDS, shuffle=True, random_state=seed).split(np.zeros(y.size), y))


def task_split(params, y, split=None):
    """The ``(train, test)`` rows of one task's outer fold: fold ``params["fold"]`` of the
    partition ``params.get("repeat", 0)`` of ``params["dataset"]`` (:func:`table_folds`); Table 3's
    tasks carry no data set key and split the 20 Newsgroups pair as Table 1's tasks on it do.

    Examples
    --------
    >>> _, y, _, split = load_table1("vote")
    >>> train, test = task_split({"dataset": "vote", "fold": 0}, y, split)
    >>> bool(np.array_equal(test, table_folds(y, split)[0][1]))
    True
    >>> other = task_split({"dataset": "vote", "fold": 0, "repeat": 1}, y, split)[1]
    >>> len(other), bool(np.array_equal(other, test))
    (109, False)
    """
    dataset = "20newsgroups" if params.get("table") == 3 else params.get("dataset")
    seed = partition_seed(dataset, params.get("repeat", 0))
    return table_folds(y, split, seed)[params["fold"]]


def inner_seed(table, fold, repeat=0):
    """Seed of the inner CV of ``table``'s tuned models on outer ``fold`` of partition
    ``repeat``: ``1000 * fold + offset + 100 000 * repeat`` (:data:`INNER_SEED_OFFSET`).

    Parameters
    ----------
    table : int
        The paper's table (1, 3, 4 or 5).
    fold : int
        The outer fold.
    repeat : int, default 0
        The partition (:func:`partition_seed`).

    Returns
    -------
    int

    Examples
    --------
    >>> inner_seed(1, 2), inner_seed(5, 0), inner_seed(1, 2, repeat=3)
    (2007, 17, 302007)
    """
    return 1000 * fold + INNER_SEED_OFFSET[table] + 100_000 * int(repeat)


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

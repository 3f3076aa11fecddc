"""The candidates of the geometric-ratio method (Sections 3 and 4 of the paper).

The ``2^(ℓ−1) − 1`` binary classifiers of ℓ classes and the ``2^k − 1``
unions of ``k`` feature groups, shared by the all-subsets wrapper that labels
feature sets (:mod:`fsbook.geometry.wrapper`) and the selector that predicts
those labels (:mod:`fsbook.geometry.selector`).
"""
from __future__ import annotations

import itertools

import numpy as np

__all__ = ["binary_splits", "feature_subsets", "group_columns", "subset_label", "split_label"]


def binary_splits(classes):
    """The ``2^(ℓ−1) − 1`` binary classifiers of ℓ classes (Section 3).

    Every split is returned once: the positive group is a proper non-empty
    subset containing the first class (the symmetric split is the same
    classifier with labels swapped).

    Parameters
    ----------
    classes : sequence
        The ℓ ≥ 2 class labels.

    Returns
    -------
    list of tuple
        Positive classes of each split.
    """
    classes = list(classes)
    if len(classes) < 2:
        raise ValueError("need at least two classes")
    first, rest = classes[0], classes[1:]
    out = []
    for r in range(0, len(rest)):
        for comb in itertools.combinations(rest, r):
            out.append((first,) + comb)
    return out


def feature_subsets(k):
    """The ``2^k − 1`` non-empty unions of ``k`` feature groups (Fig. 2, line 2).

    Parameters
    ----------
    k : int
        Number of feature groups (feature types).

    Returns
    -------
    list of tuple of int
        Group indices of every union, by size then lexicographically.
    """
    return [c for r in range(1, k + 1) for c in itertools.combinations(range(k), r)]


def subset_label(subset, names=None):
    """``"uni+bi"``-style label of a union of groups.

    Parameters
    ----------
    subset : tuple of int
        Group indices.
    names : sequence of str, optional
        Group names (default: the indices).

    Returns
    -------
    str
    """
    return "+".join(str(names[g]) if names is not None else str(g) for g in subset)


def split_label(positive, names=None):
    """``"{a,b} vs rest"``-style label of a binary classifier.

    Parameters
    ----------
    positive : tuple
        Positive classes.
    names : mapping or sequence, optional
        Class names (default: the labels).

    Returns
    -------
    str
    """
    inner = ",".join(str(names[c]) if names is not None else str(c) for c in positive)
    return "{" + inner + "} vs rest"


def group_columns(feature_groups, n_features):
    """Validated column indices of each feature group.

    Parameters
    ----------
    feature_groups : list of array-like of int or None
        Column indices of each feature type; ``None`` is one group of all
        ``n_features`` columns.
    n_features : int

    Returns
    -------
    list of ndarray of int64

    Raises
    ------
    ValueError
        An empty group or an index outside ``[0, n_features)``.
    """
    if feature_groups is None:
        return [np.arange(n_features)]
    groups = [np.asarray(g, dtype=np.int64).ravel() for g in feature_groups]
    for g in groups:
        if g.size == 0 or g.min() < 0 or g.max() >= n_features:
            raise ValueError("feature_groups must be non-empty lists of column indices "
                             f"in [0, {n_features})")
    return groups

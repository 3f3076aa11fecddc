"""The candidates of the geometric-ratio method (Sections 3 and 4 of the paper).

The ``2^(ℓ−1) − 1`` binary classifiers of ℓ classes and the ``2^k − 1``
unions of ``k`` feature groups, shared by the all-subsets wrapper that labels
feature sets (:mod:`fsbook.geometry.wrapper`) and the selector that predicts
those labels (:mod:`fsbook.geometry.selector`).
"""
from __future__ import annotations

import itertools

import numpy as np

__all__ = ["binary_splits", "feature_subsets", "group_columns", "subset_label", "split_label",
           "n_candidates", "check_candidate_count", "MAX_CANDIDATES"]

#: default bound on the (binary classifier, feature set) pairs of one fit,
#: ``(2^(ℓ−1) − 1)(2^k − 1)``: 4 096 covers every protocol of the book (at most 6 classes × 4
#: groups = 465 pairs, or 2 classes × 12 groups = 4 095) and 10 classes of one group (511 pairs,
#: about 12 s at m ≈ 200; 238 s per fold on the 10-class digits, m ≈ 1 600)
MAX_CANDIDATES = 4096


def n_candidates(n_classes, n_groups):
    """``(2^(ℓ−1) − 1)(2^k − 1)``: the (binary classifier, feature set) pairs of ℓ classes
    and ``k`` groups (an exact Python int, however large).

    Examples
    --------
    >>> n_candidates(2, 3), n_candidates(10, 1), n_candidates(4, 4)
    (7, 511, 105)
    """
    return (2 ** (int(n_classes) - 1) - 1) * (2 ** int(n_groups) - 1)


def check_candidate_count(n_classes, n_groups, n_samples, max_candidates, who="the geometric-ratio method"):
    """Refuse a fit whose candidate pairs exceed ``max_candidates`` (None: no bound).

    The number of pairs grows exponentially with the number of classes ℓ and of groups ``k``,
    and every pair costs eigen-decompositions of ``m × m`` Gram matrices, so a target with many
    classes (or a regression target read as classes) would run for days or exhaust memory.

    Raises
    ------
    ValueError
        With the counts, why, and what to do instead.

    Examples
    --------
    >>> check_candidate_count(3, 2, 100, 4096)
    >>> check_candidate_count(214, 1, 442, 4096)
    Traceback (most recent call last):
    ...
    ValueError: the geometric-ratio method would evaluate (2^(214-1) - 1) x (2^1 - 1) = 1.3e+64 (binary classifier, feature set) pairs, more than max_candidates=4096: the pairs grow as 2^classes x 2^groups and each costs O(m^3) with m = 442 samples. y has 214 distinct values for 442 samples: if it is a continuous (regression) target, this method does not apply (it needs class labels). Otherwise merge classes or select per one-vs-rest task (fewer classes), pass fewer feature_groups, or raise max_candidates (None: no bound) if the time is acceptable.
    """
    if max_candidates is None:
        return
    total = n_candidates(n_classes, n_groups)
    if total <= max_candidates:
        return
    hint = ""
    if n_classes > max(10, n_samples // 4):
        hint = (f" y has {n_classes} distinct values for {n_samples} samples: if it is a continuous "
                "(regression) target, this method does not apply (it needs class labels).")
    raise ValueError(
        f"{who} would evaluate (2^({n_classes}-1) - 1) x (2^{n_groups} - 1) = {float(total):.2g} "
        f"(binary classifier, feature set) pairs, more than max_candidates={max_candidates}: the pairs "
        f"grow as 2^classes x 2^groups and each costs O(m^3) with m = {n_samples} samples.{hint} "
        "Otherwise merge classes or select per one-vs-rest task (fewer classes), pass fewer "
        "feature_groups, or raise max_candidates (None: no bound) if the time is acceptable.")


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

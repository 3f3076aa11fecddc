"""numba kernels of :func:`fsbook.baselines.mutual_info.mutual_info_classif`: the neighbour counts
of Ross's estimator for one continuous feature at a time, by sorting.

scikit-learn computes the same counts with a nearest-neighbour search per class and a KD-tree
radius query per feature.  In one dimension both reduce to windows of the sorted values; the
kernels below reproduce every floating-point operation those searches decide on, so the counts
are the same integers:

* the distance to the ``k``-th same-class neighbour is ``sqrt(fl((x - y)²))`` (the KD-tree's
  reduced distance), or, for a class so small that scikit-learn searches it by brute force
  (``k >= count // 2``), ``sqrt(max(0, fl(fl(x² - 2·fl(xy)) + y²)))`` (its Gram-matrix
  expansion);
* the radius count replays scikit-learn's KD-tree (leaf size 40, nodes split at the middle
  position of the sorted values) with its three tests: a node whose nearest bound is beyond the
  radius is pruned, a node whose farthest bound is within it counts whole, and a leaf compares
  each reduced distance with the squared radius.  The bounds go through ``pow`` as the tree's
  do, so a point at the edge of the radius falls on the same side.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

#: scikit-learn's ``KDTree`` default leaf size, which ``_compute_mi_cd`` uses for its radius query
LEAF_SIZE = 40


@njit(cache=True)
def _kth_tree_distance(sv, t, k):
    """The distance from ``sv[t]`` to its ``k``-th nearest other value of the sorted ``sv``."""
    n = sv.shape[0]
    lo, hi = t - 1, t + 1
    rd = 0.0
    for _ in range(k):                    # merge the two monotone sides, k steps
        dl = sv[t] - sv[lo] if lo >= 0 else np.inf
        dr = sv[t] - sv[hi] if hi < n else np.inf
        rl = dl * dl if lo >= 0 else np.inf
        rr = dr * dr if hi < n else np.inf
        if rl <= rr:
            rd = rl
            lo -= 1
        else:
            rd = rr
            hi += 1
    return math.sqrt(rd)


@njit(cache=True)
def _kth_brute_distance(v, i, k):
    """The ``k``-th nearest-neighbour distance of ``v[i]`` by the Gram expansion of a brute search."""
    m = v.shape[0]
    d = np.empty(m)
    xn = v[i] * v[i]
    for j in range(m):
        s = (xn + -2.0 * (v[i] * v[j])) + v[j] * v[j]
        d[j] = s if s > 0.0 else 0.0
    d.sort()
    return math.sqrt(d[k])                # d[0] is the point itself (0): the (k+1)-th smallest


@njit(cache=True)
def _radius_count(x, r, sv, starts, ends, n_nodes, p):
    """How many of the sorted values ``sv`` scikit-learn's KD-tree counts within ``r`` of ``x``."""
    count = 0
    stack = np.empty(64, dtype=np.int64)
    stack[0] = 0
    top = 1
    rr = r * r
    while top > 0:
        top -= 1
        node = stack[top]
        a, b = starts[node], ends[node]
        d_lo = sv[a] - x
        d_hi = x - sv[b - 1]
        lb = 0.5 * ((d_lo + abs(d_lo)) + (d_hi + abs(d_hi)))
        ub = max(abs(d_lo), abs(d_hi))
        # the tree's bounds pow(pow(t, 2), 0.5) are t to a few ulps: decide by t where a margin
        # of 1e-9 (relative) makes the outcome certain, and by the tree's own pow otherwise
        if lb > r * (1.0 + 1e-9) or (lb > r * (1.0 - 1e-9)
                                     and math.pow(0.0 + math.pow(lb, p[0]), p[1]) > r):
            continue
        if ub < r * (1.0 - 1e-9) or (ub <= r * (1.0 + 1e-9)
                                     and math.pow(0.0 + math.pow(ub, p[0]), p[1]) <= r):
            count += b - a
        elif 2 * node + 1 >= n_nodes:
            for j in range(a, b):
                dj = x - sv[j]
                if dj * dj <= rr:
                    count += 1
        else:
            stack[top] = 2 * node + 2
            stack[top + 1] = 2 * node + 1
            top += 2
    return count


@njit(cache=True)
def tree_nodes(n, leaf_size):
    """The position ranges ``[start, end)`` of the nodes of scikit-learn's KD-tree on ``n`` values.

    Examples
    --------
    >>> tree_nodes(100, 40)                 # root and two leaves of 50
    (array([ 0,  0, 50]), array([100,  50, 100]), 3)
    """
    n_levels = int(np.log2(max(1.0, (n - 1) / leaf_size)) + 1)
    n_nodes = 2 ** n_levels - 1
    starts = np.zeros(n_nodes, dtype=np.int64)
    ends = np.zeros(n_nodes, dtype=np.int64)
    ends[0] = n
    for node in range((n_nodes - 1) // 2):
        a, b = starts[node], ends[node]
        mid = a + (b - a) // 2
        starts[2 * node + 1], ends[2 * node + 1] = a, mid
        starts[2 * node + 2], ends[2 * node + 2] = mid, b
    return starts, ends, n_nodes


@njit(cache=True)
def neighbour_counts(X, class_idx, class_start, class_k, class_brute, kept, p):
    """The radius counts ``m_i`` of every kept sample for every column of ``X``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The scaled and jittered features (Fortran order is fastest).
    class_idx, class_start : ndarray of int
        The sample indices of the classes with at least two samples, one after the other: class
        ``c``'s are ``class_idx[class_start[c]:class_start[c + 1]]``.
    class_k : ndarray of int
        Each such class's number of neighbours ``min(n_neighbors, count - 1)``.
    class_brute : ndarray of bool
        Whether scikit-learn searches the class by brute force (``k >= count // 2``).
    kept : ndarray of int
        The samples of those classes, in sample order.
    p : ndarray of float
        ``[2.0, 0.5]``: the tree's exponents, read at run time so that ``pow`` stays the C
        library's, as in the tree.

    Returns
    -------
    ndarray of shape (len(kept), n_features)
        ``m_i``, in the order of ``kept``, Fortran order.
    """
    n, n_features = X.shape
    n_kept = kept.shape[0]
    position = np.full(n, -1, dtype=np.int64)
    for i in range(n_kept):
        position[kept[i]] = i
    starts, ends, n_nodes = tree_nodes(n_kept, LEAF_SIZE)
    counts = np.empty((n_features, n_kept))
    radius = np.empty(n_kept)
    for f in range(n_features):
        for c in range(class_k.shape[0]):
            idx = class_idx[class_start[c]:class_start[c + 1]]
            v = X[idx, f]
            k = class_k[c]
            if class_brute[c]:
                for i in range(idx.shape[0]):
                    radius[position[idx[i]]] = np.nextafter(_kth_brute_distance(v, i, k), 0.0)
            else:
                order = np.argsort(v, kind="mergesort")
                sv = v[order]
                for t in range(sv.shape[0]):
                    radius[position[idx[order[t]]]] = np.nextafter(_kth_tree_distance(sv, t, k), 0.0)
        xs = X[kept, f]
        sv = np.sort(xs)
        for i in range(n_kept):
            counts[f, i] = _radius_count(xs[i], radius[i], sv, starts, ends, n_nodes, p)
    return counts.T

"""The disjunction lattice (subset lattice) used by disjunctive HKL.

A node ``v`` is a set of basic boolean features, stored as a sorted tuple of
feature indices; it stands for the disjunction ``OR_{i in v} x_i``.  The top
node is the empty disjunction ``()`` (identically false), its children are the
single features, and the bottom node is the disjunction of all ``n`` features.
Descendants of ``v`` (``D(v)``, including ``v``) are its supersets, ancestors
(``A(v)``, including ``v``) its subsets.  A set of nodes is *hull-closed* when
it contains all ancestors of its members (a down-set); the *sources* of its
complement are the minimal nodes outside it (paper, Section 2.1).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

__all__ = [
    "parents", "ancestors", "descendants", "enumerate_lattice", "hull",
    "is_hull_closed", "sources", "source_groups", "ancestor_matrix", "node_indicator",
]


def _node(v):
    return tuple(sorted(int(i) for i in v))


def parents(v):
    """Parents of ``v``: the nodes with one feature removed."""
    v = _node(v)
    return [v[:k] + v[k + 1:] for k in range(len(v))]


def ancestors(v):
    """``A(v)``: all subsets of ``v`` (including ``v`` and the top node)."""
    v = _node(v)
    return [c for r in range(len(v) + 1) for c in combinations(v, r)]


def descendants(v, n_features):
    """``D(v)``: all supersets of ``v`` within ``n_features`` features."""
    v = _node(v)
    rest = [i for i in range(n_features) if i not in set(v)]
    return [_node(v + c) for r in range(len(rest) + 1) for c in combinations(rest, r)]


def enumerate_lattice(n_features):
    """All ``2**n`` nodes, ordered by size then lexicographically."""
    return [c for r in range(n_features + 1) for c in combinations(range(n_features), r)]


def hull(nodes):
    """Smallest hull-closed set containing ``nodes`` (adds all ancestors)."""
    out = set()
    for v in nodes:
        out.update(ancestors(v))
    return sorted(out, key=lambda v: (len(v), v))


def is_hull_closed(nodes):
    """Whether ``nodes`` contains every parent of each of its members (a down-set).

    Parameters
    ----------
    nodes : iterable of tuple

    Returns
    -------
    bool
    """
    s = set(_node(v) for v in nodes)
    return all(p in s for v in s for p in parents(v))


def source_groups(active, n_features):
    """Sources of the complement of a hull-closed set ``active``, grouped by prefix.

    Every source ``t`` (sorted tuple) is written ``t = a + (l,)`` with ``a = t[:-1]`` its
    *prefix*, a parent of ``t`` and hence active.  Returns the list of ``(a, cand)`` with
    ``cand`` the sorted int64 array of the last features ``l``; groups are sorted by
    ``(len(a), a)``, so the sources read group by group are in the order of :func:`sources`.
    The single-feature sources form the group of the top node ``()``; a pair ``(j, l)`` of
    active single features is a source unless it is active itself (both its parents are
    active), which is found with array operations; only the larger active nodes are
    examined one by one.

    Parameters
    ----------
    active : iterable of tuple
        Hull-closed set of nodes, containing the top node ``()``.
    n_features : int

    Returns
    -------
    list of (tuple, ndarray)

    Examples
    --------
    >>> from fsbook.hkl.lattice import source_groups
    >>> [(a, cand.tolist()) for a, cand in source_groups([(), (0,), (2,), (0, 2)], 4)]
    [((), [1, 3])]
    >>> [(a, cand.tolist()) for a, cand in source_groups([(), (0,), (2,), (3,)], 4)]
    [((), [1]), ((0,), [2, 3]), ((2,), [3])]
    """
    act = set(_node(v) for v in active)
    if () not in act:
        raise ValueError("active set must contain the top node ()")
    singles = np.array(sorted(v[0] for v in act if len(v) == 1), dtype=np.int64)
    groups = {(): np.setdiff1d(np.arange(n_features, dtype=np.int64), singles)}
    active_pairs = {}
    for v in act:
        if len(v) == 2:
            active_pairs.setdefault((v[0],), []).append(v[1])
    for j in singles:
        cand = singles[singles > j]
        taken = active_pairs.get((int(j),))
        groups[(int(j),)] = np.setdiff1d(cand, taken) if taken else cand
    larger = {}
    for a in act:
        if len(a) < 2:
            continue
        for l in singles:
            if int(l) in a:
                continue
            u = _node(a + (int(l),))
            if u not in act and all(p in act for p in parents(u)):
                larger.setdefault(u[:-1], set()).add(u[-1])
    for prefix, last in larger.items():
        groups[prefix] = np.array(sorted(last), dtype=np.int64)
    return [(a, groups[a]) for a in sorted(groups, key=lambda v: (len(v), v)) if groups[a].size]


def sources(active, n_features):
    """Sources of the complement of a hull-closed set ``active``.

    ``sources(A^c) = {w in A^c : A(w) ∩ A^c = {w}}``: the nodes outside
    ``active`` all of whose parents are in ``active``.  For the subset lattice
    such a node is ``a ∪ {l}`` for some ``a`` in ``active``; all single
    features not in ``active`` are sources.  Sorted by size, then lexicographically
    (:func:`source_groups` read group by group).
    """
    return [a + (int(l),) for a, cand in source_groups(active, n_features) for l in cand]


def ancestor_matrix(nodes):
    """Boolean matrix ``M[u, v] = (nodes[v] ⊆ nodes[u])`` (v is an ancestor of u)."""
    from itertools import combinations
    index = {frozenset(v): j for j, v in enumerate(nodes)}
    k = len(nodes)
    M = np.zeros((k, k), dtype=bool)
    for a, v in enumerate(nodes):
        v = sorted(set(v))
        if 2 ** len(v) <= k:            # enumerate the subsets of v (few: short disjunctions)
            for r in range(len(v) + 1):
                for sub in combinations(v, r):
                    b = index.get(frozenset(sub))
                    if b is not None:
                        M[a, b] = True
        else:
            su = frozenset(v)
            M[a] = [sv <= su for sv in index]
    return M


def node_indicator(X, nodes, sparse=False):
    """Values ``ψ_v(x) = 1 − ∏_{i∈v}(1 − x_i)`` of the disjunctions ``nodes`` on boolean ``X``.

    Parameters
    ----------
    X : array-like or scipy.sparse (samples × features), 0/1 entries.
    nodes : list of tuples of feature indices (the top node ``()`` gives 0).
    sparse : bool
        Return a ``scipy.sparse.csc_matrix`` instead of a dense array.

    Returns
    -------
    ndarray or csc_matrix of shape (samples, len(nodes)), float 0/1.
    """
    import scipy.sparse as sp
    m = X.shape[0]
    if sp.issparse(X):
        Xc = sp.csc_matrix(X)
        Xc.eliminate_zeros()
        indptr, indices = Xc.indptr, Xc.indices
        cols_rows, cols_ptr = [], [0]
        for v in nodes:
            if len(v):
                r = np.unique(np.concatenate([indices[indptr[i]:indptr[i + 1]] for i in v]))
            else:
                r = np.zeros(0, dtype=indices.dtype)
            cols_rows.append(r)
            cols_ptr.append(cols_ptr[-1] + r.size)
        rows = np.concatenate(cols_rows) if cols_rows else np.zeros(0, dtype=np.int64)
        out = sp.csc_matrix((np.ones(rows.size), rows, np.asarray(cols_ptr)),
                            shape=(m, len(nodes)))
        return out if sparse else out.toarray()
    X = np.asarray(X)
    out = np.zeros((m, len(nodes)))
    for k, v in enumerate(nodes):
        if len(v):
            out[:, k] = (X[:, list(v)] != 0).any(axis=1)
    return sp.csc_matrix(out) if sparse else out

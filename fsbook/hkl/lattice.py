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
    "is_hull_closed", "sources", "ancestor_matrix", "node_indicator",
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


def sources(active, n_features):
    """Sources of the complement of a hull-closed set ``active``.

    ``sources(A^c) = {w in A^c : A(w) ∩ A^c = {w}}``: the nodes outside
    ``active`` all of whose parents are in ``active``.  For the subset lattice
    such a node is ``a ∪ {l}`` for some ``a`` in ``active``; all single
    features not in ``active`` are sources.
    """
    act = set(_node(v) for v in active)
    if () not in act:
        raise ValueError("active set must contain the top node ()")
    out = set()
    singles = sorted(v[0] for v in act if len(v) == 1)
    for i in range(n_features):
        if (i,) not in act:
            out.add((i,))
    for a in act:
        if len(a) == 0:
            continue
        for l in singles:
            if l in a:
                continue
            u = _node(a + (l,))
            if u in act or u in out:
                continue
            if all(p in act for p in parents(u)):
                out.add(u)
    return sorted(out, key=lambda v: (len(v), v))


def ancestor_matrix(nodes):
    """Boolean matrix ``M[u, v] = (nodes[v] ⊆ nodes[u])`` (v is an ancestor of u)."""
    sets = [frozenset(v) for v in nodes]
    k = len(nodes)
    M = np.zeros((k, k), dtype=bool)
    for a, su in enumerate(sets):
        for b, sv in enumerate(sets):
            M[a, b] = sv <= su
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

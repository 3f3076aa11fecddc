"""Brute-force reference: problem (1) on the whole lattice with a generic convex solver.

Only for a handful of features (``2^n − 1`` non-empty nodes, ``2^n`` groups):
it is what the active-set solver must reproduce.  cvxpy is imported lazily.
"""
from __future__ import annotations

import numpy as np

from fsbook.hkl import lattice

__all__ = ["solve_brute_force", "node_weights"]


def node_weights(nodes, beta=2.0, mu=1.0, feature_weights=None):
    """Node weights of eq. (hkl-delta): ``δ_∅ = 1``, ``δ_v = μ β^{|v|−1} ∏_{i∈v} ω_i``.

    Parameters
    ----------
    nodes : list of tuple
    beta, mu : float
    feature_weights : array-like of shape (n,) or None
        ``ω`` (default 1).

    Returns
    -------
    ndarray of shape (len(nodes),)
    """
    out = []
    for v in nodes:
        if not v:
            out.append(1.0)
            continue
        om = np.ones(len(v)) if feature_weights is None else np.asarray(feature_weights)[list(v)]
        out.append(mu * beta ** (len(v) - 1) * float(np.prod(om)))
    return np.array(out)


def solve_brute_force(X, y, C=1.0, beta=2.0, mu=1.0, p=2.0, feature_weights=None,
                      max_features=10, sample_weight=None):
    """Solve (1) over all ``2^n − 1`` disjunctions with cvxpy (Clarabel).

    Parameters
    ----------
    X : array (m, n), 0/1, ``n ≤ max_features``.
    y : array (m,), two classes; the larger label is the positive class.
    C, beta, mu, p, feature_weights : as in :class:`DisjunctiveHKL`.
    max_features : int
        Refuse larger ``n``.
    sample_weight : array-like of shape (m,) or None
        Non-negative weights ``s_i`` of the hinge loss, ``C Σ_i s_i ξ_i`` (``None``: 1).

    Returns
    -------
    dict with ``objective`` (value of (1)), ``nodes`` (all non-empty nodes),
    ``w``, ``b``, ``decision`` (``Σ_v w_v ψ_v(x_i) + b`` on ``X``) and
    ``selected`` (nodes with ``|w_v| > 1e-6 max |w|``).
    """
    import cvxpy as cp

    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError("y must have exactly two classes")
    ys = np.where(y == classes[1], 1.0, -1.0)
    n = X.shape[1]
    if n > max_features:
        raise ValueError(f"brute force over 2^{n} nodes refused (max_features={max_features})")
    allnodes = lattice.enumerate_lattice(n)
    nodes = allnodes[1:]                       # ψ_top ≡ 0: w_top is 0 at the optimum
    idx = {v: k for k, v in enumerate(nodes)}
    d = node_weights(allnodes, beta, mu, feature_weights)
    Psi = lattice.node_indicator(X, nodes)
    w = cp.Variable(len(nodes))
    b = cp.Variable()
    terms = []
    for dv, v in zip(d, allnodes):
        mem = [idx[u] for u in lattice.descendants(v, n) if u]
        terms.append(dv * cp.pnorm(w[mem], p))
    hinge = cp.pos(1 - cp.multiply(ys, Psi @ w + b))
    if sample_weight is not None:
        hinge = cp.multiply(np.asarray(sample_weight, dtype=float), hinge)
    obj = 0.5 * cp.square(cp.sum(cp.hstack(terms))) + C * cp.sum(hinge)
    prob = cp.Problem(cp.Minimize(obj))
    prob.solve(solver=cp.CLARABEL)
    wv = np.asarray(w.value).ravel()
    sel = [v for v, x in zip(nodes, wv) if abs(x) > 1e-6 * max(np.abs(wv).max(), 1e-300)]
    return dict(objective=float(prob.value), nodes=nodes, w=wv, b=float(b.value),
                decision=Psi @ wv + float(b.value), selected=sel, classes=classes)

"""Naive reference implementations, one per fast kernel of :mod:`fsbook`, for the tests.

Each function computes what a fast kernel computes in the plainest way: explicit loops or
enumeration, no reordering.  A test calls both and compares (``ref = naive.x(...)``,
``comp = fsbook...(...)``), as stumpy's ``tests/naive.py`` does.

* disjunctive HKL: explicit lattice enumeration (:mod:`fsbook.hkl`);
* Weka's spread of the missing counts, cell by cell (:func:`fsbook.baselines.subset_evaluators.distribute_missing`);
* the HSIC pair kernel as the plain double loop over ``i < j`` (:mod:`fsbook.l1linf._kernels_hsic`);
* greedy mRMR recomputed from scratch at every step (:func:`fsbook.baselines.mrmr.mrmr_order`).
"""
import cvxpy as cp
import numpy as np
from sklearn.metrics import mutual_info_score

from fsbook.hkl import lattice


# ---- disjunctive HKL: explicit lattice enumeration --------------------------------------------
def node_values(X, nodes):
    X = np.asarray(X, dtype=float)
    return np.array([[1.0 - np.prod(1.0 - x[list(v)]) if v else 0.0 for v in nodes] for x in X])


def descendant_sum_enum(X1, X2, t, h):
    """Σ_{u⊇t} ∏_{i∈u∖t} h_i ψ_u(x)ψ_u(x') by enumeration."""
    n = X1.shape[1]
    D = lattice.descendants(t, n)
    P1, P2 = node_values(X1, D), node_values(X2, D)
    wts = np.array([np.prod([h[i] for i in u if i not in t]) for u in D])
    return (P1 * wts) @ P2.T


def delta_enum(v, omega, delta_top, delta_node=None):
    """δ_∅ = delta_top, δ_v = delta_node ∏_{i∈v} ω_i (delta_node defaults to delta_top)."""
    if not v:
        return delta_top
    return (delta_top if delta_node is None else delta_node) * np.prod([omega[i] for i in v])


def Q_enum(X, c, t, omega, delta_top, delta_node=None):
    """Q(t) = Σ_{u⊇t} (Σ_i c_i ψ_u(x_i))² / d(t,u)², d(t,u) = Σ_{t⊆v⊆u} δ_v."""
    n = X.shape[1]
    D = lattice.descendants(t, n)
    s = node_values(X, D).T @ c
    tot = 0.0
    for su, u in zip(s, D):
        d = sum(delta_enum(v, omega, delta_top, delta_node) for v in lattice.ancestors(u) if set(t) <= set(v))
        tot += su ** 2 / d ** 2
    return tot


def norm_matrices(n, omega, delta_top, delta_node=None):
    nodes = lattice.enumerate_lattice(n)
    nodes = [v for v in nodes if v]          # ψ_top ≡ 0: its weight is 0 at the optimum
    idx = {v: k for k, v in enumerate(nodes)}
    groups = []
    for v in [()] + nodes:
        members = [idx[u] for u in lattice.descendants(v, n) if u]
        groups.append((delta_enum(v, omega, delta_top, delta_node), members))
    return nodes, groups


def brute_force_primal(X, y, C, p, omega, delta_top, delta_node=None):
    """Solve problem (1) on all 2^n − 1 non-empty nodes with cvxpy."""
    n = X.shape[1]
    nodes, groups = norm_matrices(n, omega, delta_top, delta_node)
    Psi = node_values(X, nodes)
    w = cp.Variable(len(nodes))
    b = cp.Variable()
    Om = sum(d * cp.pnorm(w[mem], p) for d, mem in groups)
    obj = 0.5 * cp.square(Om) + C * cp.sum(cp.pos(1 - cp.multiply(y, Psi @ w + b)))
    pr = cp.Problem(cp.Minimize(obj))
    pr.solve(solver=cp.CLARABEL)
    return pr.value, nodes, w.value, b.value


def dual_norm_exact(s, n, omega, delta_top, p, delta_node=None):
    """Ω*(s) over the full lattice by cvxpy: max sᵀw s.t. Ω(w) ≤ 1."""
    nodes, groups = norm_matrices(n, omega, delta_top, delta_node)
    w = cp.Variable(len(nodes))
    Om = sum(d * cp.pnorm(w[mem], p) for d, mem in groups)
    pr = cp.Problem(cp.Maximize(s @ w), [Om <= 1])
    pr.solve(solver=cp.CLARABEL)
    return pr.value, nodes


def dual_norm_exact_on(s, nodes, omega, delta_top, p, delta_node=None):
    """Ω_A*(s) restricted to the hull-closed set ``nodes`` (``nodes[0] = ()``; s over nodes[1:])."""
    nodes = list(nodes)
    rest = nodes[1:]
    w = cp.Variable(len(rest))
    terms = []
    for v in nodes:
        mem = [k for k, u in enumerate(rest) if set(v) <= set(u)]
        terms.append(delta_enum(v, omega, delta_top, delta_node) * cp.pnorm(w[mem], p))
    pr = cp.Problem(cp.Maximize(s @ w), [sum(terms) <= 1])
    pr.solve(solver=cp.CLARABEL)
    return pr.value


# ---- CFS: Weka's spread of the missing counts --------------------------------------------------

def weka_missing_spread(t):
    """Weka's missing-count spread (CfsSubsetEval, missingSeparate = false), cell by cell."""
    t = np.array(t, dtype=float)
    a, b = t.shape
    m = t.sum()
    ri, cj = t.sum(axis=1), t.sum(axis=0)
    if not (ri[-1] < m and cj[-1] < m):
        return t
    out = t.copy()
    miss = ri[-1] + cj[-1] - t[-1, -1]
    for j in range(b - 1):
        for i in range(a - 1):
            out[i, j] += ri[i] / (m - ri[-1]) * t[-1, j]
        out[-1, j] = 0.0
    for i in range(a - 1):
        for j in range(b - 1):
            out[i, j] += cj[j] / (m - cj[-1]) * t[i, -1]
        out[i, -1] = 0.0
    if t[-1, -1] > 0 and miss != m:
        for i in range(a - 1):
            for j in range(b - 1):
                out[i, j] += t[i, j] / (m - miss) * t[-1, -1]
        out[-1, -1] = 0.0
    return out


# ---- HSFS: the HSIC pair kernel ----------------------------------------------------------------

def hsic_pair_loop(Z, Gamma, inv2s2):
    """The HSIC pair kernel's first form (plain double loop over i < j), run by numba."""
    n, q = Z.shape
    rowsum, AZ, total = np.zeros(n), np.zeros((n, q)), 0.0
    for i in range(n):
        a = Gamma[i, i]
        total += a
        rowsum[i] += a
        for m in range(q):
            AZ[i, m] += a * Z[i, m]
        for j in range(i + 1, n):
            d2 = 0.0
            for m in range(q):
                t = Z[i, m] - Z[j, m]
                d2 += t * t
            a = np.exp(-d2 * inv2s2) * Gamma[i, j]
            total += 2.0 * a
            rowsum[i] += a
            rowsum[j] += a
            for m in range(q):
                AZ[i, m] += a * Z[j, m]
                AZ[j, m] += a * Z[i, m]
    return total, rowsum[:, None] * Z - AZ


# ---- mRMR --------------------------------------------------------------------------------------

def mrmr_greedy(states, y, k, criterion):
    """Greedy mRMR recomputed from scratch at every step, every mutual information by
    sklearn.metrics.mutual_info_score (natural log); returns the order and, per step, the
    criterion of every candidate."""
    d = states.shape[1]
    rel = np.array([mutual_info_score(y, states[:, j]) for j in range(d)])
    order, table = [int(np.argmax(rel))], [rel.copy()]
    while len(order) < k:
        scores = np.full(d, -np.inf)
        for j in set(range(d)) - set(order):
            red = np.mean([mutual_info_score(states[:, j], states[:, s]) for s in order])
            if criterion == "MID":
                scores[j] = rel[j] - red
            else:
                scores[j] = np.inf if (red == 0 and rel[j] > 0) else (rel[j] / red if red > 0 else 0.0)
        table.append(scores)
        order.append(int(np.argmax(scores)))
    return order, rel, table

"""Naive reference implementations for disjunctive HKL (explicit lattice enumeration)."""
import cvxpy as cp
import numpy as np

from fsbook.hkl import lattice


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

"""Exact proximal operator of the row-wise ℓ1/ℓ∞ penalty ``λ Σ_j ||w_j||_∞`` (eq. 1).

By Moreau's decomposition ``prox_{t||·||∞}(v) = v − Π_{||·||₁ ≤ t}(v)``: the
prox of the ℓ∞ norm is the residual of the Euclidean projection onto the ℓ1
ball of radius ``t`` (the unit ball of the dual norm).  The projection is the
sort-based algorithm of Duchi et al. (2008), ``O(q log q)`` per row, vectorised
over the ``d`` rows.  A row whose ℓ1 norm is at most ``t`` lies inside the
ball and its prox is exactly zero: this is how a feature is dropped.
No maintained library offers a vectorised row-wise version (SciPy has none;
cvxpy solves it generically and is used to test this one).
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["project_rows_l1_ball", "prox_rows_linf", "linf_penalty"]


def project_rows_l1_ball(V, radius):
    """Project every row of ``V`` onto the ℓ1 ball ``{u : ||u||₁ ≤ radius}``.

    Parameters
    ----------
    V : ndarray of shape (d, q)
    radius : float, > 0

    Returns
    -------
    ndarray of shape (d, q): ``argmin_u ||u − v_j||₂`` s.t. ``||u||₁ ≤ radius``, row by row.
    """
    V = np.asarray(V, dtype=float)
    if radius <= 0:
        return np.zeros_like(V)
    A = np.abs(V)
    outside = A.sum(axis=1) > radius
    out = V.copy()
    if not outside.any():
        return out
    _project_rows(V, A, np.flatnonzero(outside), float(radius), out)
    return out


@njit(cache=True)
def _project_rows(V, A, rows, radius, out):
    """Duchi et al.'s projection of the ``rows`` of ``V`` (``A = |V|``) into ``out``, in place.

    Per row: sort ``|v|`` descending, running sums ``css_k = Σ_{l≤k} u_l − radius``, ``ρ`` the
    last ``k`` with ``u_k > css_k / (k + 1)`` (a prefix; ``ρ ≥ 0`` despite rounding) and
    ``θ = css_ρ / (ρ + 1)``; the projection is ``sign(v) max(|v| − θ, 0)``.  The arithmetic
    is that of the vectorised NumPy form it replaced (same bits, without the ``(rows, q)``
    temporaries).  Insertion sort: ``O(q²)`` per row, cheaper than a library sort for the small
    ``q`` of HSFS and LDFS.
    """
    q = V.shape[1]
    U = np.empty(q)
    css = np.empty(q)
    for r in range(rows.shape[0]):
        i = rows[r]
        theta = _row_theta(A[i], radius, U, css)
        for k in range(q):
            out[i, k] = np.sign(V[i, k]) * max(A[i, k] - theta, 0.0)


@njit(cache=True, inline="always")
def _row_theta(a, radius, U, css):
    """The threshold ``θ`` of the projection of a row with absolute values ``a`` (see above)."""
    q = a.shape[0]
    for k in range(q):                     # insertion sort, descending, in place (q is small):
        u = a[k]                           # the same values as ``-np.sort(-A[i])`` without its
        m = k                              # two temporaries per row
        while m > 0 and U[m - 1] < u:
            U[m] = U[m - 1]
            m -= 1
        U[m] = u
    c = 0.0
    count = 0
    for k in range(q):
        c += U[k]
        css[k] = c - radius
        if U[k] - css[k] / (k + 1) > 0:
            count += 1
    rho = max(count - 1, 0)
    return css[rho] / (rho + 1)


@njit(cache=True, inline="always")
def _pairwise_leaf(a, start, n):
    """NumPy's pairwise summation of at most 128 numbers: sequential below 8, else eight
    accumulators combined as ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the rest."""
    if n < 8:
        res = 0.0
        for i in range(start, start + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    i = 8
    stop = n - (n % 8)
    while i < stop:
        j = start + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[start + i]
        i += 1
    return res


@njit(cache=True)
def pairwise_sum(a, start, n):
    """``Σ a[start:start + n]`` summed as NumPy sums a contiguous float64 array: blocks of at most
    128 (:func:`_pairwise_leaf`), longer runs split at half (rounded down to a multiple of 8) and
    the halves added, so the bits equal ``a[start:start + n].sum()`` (tested).  The fused kernels
    below keep the bits of the NumPy forms they replace.  The split tree is walked with an
    explicit stack (numba's cache does not keep recursive functions)."""
    if n <= 128:
        return _pairwise_leaf(a, start, n)
    s_start = np.empty(130, dtype=np.int64)
    s_n = np.empty(130, dtype=np.int64)
    s_state = np.empty(130, dtype=np.int64)
    vals = np.empty(130)
    top, nv = 0, 0
    s_start[0], s_n[0], s_state[0] = start, n, 0
    while top >= 0:
        st, nn = s_start[top], s_n[top]
        if nn <= 128:
            vals[nv] = _pairwise_leaf(a, st, nn)
            nv += 1
            top -= 1
            continue
        n2 = nn // 2
        n2 -= n2 % 8
        if s_state[top] == 0:
            s_state[top] = 1
            top += 1
            s_start[top], s_n[top], s_state[top] = st, n2, 0
        elif s_state[top] == 1:
            s_state[top] = 2
            top += 1
            s_start[top], s_n[top], s_state[top] = st + n2, nn - n2, 0
        else:
            vals[nv - 2] = vals[nv - 2] + vals[nv - 1]
            nv -= 1
            top -= 1
    return vals[0]


@njit(cache=True)
def _prox_rows(V, t, out):
    """``out = V − Π(V)``, the prox of :func:`prox_rows_linf` for ``t > 0`` in one pass: a row
    whose ``|v|`` sums (NumPy's order) to at most ``t`` gives ``v − v``, the others ``v`` minus
    the projection of :func:`_project_rows` (the bits of ``V − project_rows_l1_ball(V, t)``)."""
    d, q = V.shape
    U = np.empty(q)
    css = np.empty(q)
    a = np.empty(q)
    for i in range(d):
        for k in range(q):
            a[k] = abs(V[i, k])
        if pairwise_sum(a, 0, q) > t:
            theta = _row_theta(a, t, U, css)
            for k in range(q):
                out[i, k] = V[i, k] - np.sign(V[i, k]) * max(a[k] - theta, 0.0)
        else:
            for k in range(q):
                out[i, k] = V[i, k] - V[i, k]


@njit(cache=True)
def _row_max_abs_sum(W):
    """``np.abs(W).max(axis=1).sum()`` in one pass (NaN propagates as in NumPy; same bits)."""
    d, q = W.shape
    m = np.empty(d)
    for i in range(d):
        mi = abs(W[i, 0])
        for k in range(1, q):
            x = abs(W[i, k])
            if x > mi or x != x:
                mi = x if mi == mi else mi
        m[i] = mi
    return pairwise_sum(m, 0, d)


def prox_rows_linf(V, t):
    """``argmin_W ½||W − V||²_F + t Σ_j ||w_j||_∞`` (row-wise prox, Moreau decomposition)."""
    V = np.asarray(V, dtype=float)
    if t <= 0 or V.ndim != 2 or V.shape[1] == 0:
        return V - project_rows_l1_ball(V, t)
    out = np.empty(V.shape)
    _prox_rows(np.ascontiguousarray(V), float(t), out)    # the same bits as the NumPy form, in one pass
    return out


def linf_penalty(W):
    """``Σ_j ||w_j||_∞``, the ℓ1/ℓ∞ penalty of eq. (1) without λ."""
    W = np.asarray(W, dtype=float)
    if not W.size:
        return 0.0
    return float(_row_max_abs_sum(np.ascontiguousarray(W)))   # np.abs(W).max(axis=1).sum(), one pass

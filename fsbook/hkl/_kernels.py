"""Closed-form sums of disjunction kernels over sub-lattices (numba / NumPy).

Notation (chapter 5): ``x`` is a 0/1 vector of ``n`` basic features, a node
``u`` a set of features, ``ψ_u(x) = 1 − z_u(x)`` with ``z_u(x) = ∏_{i∈u}(1 − x_i)``
and ``K_u(x, x') = ψ_u(x) ψ_u(x')``.  For per-feature factors ``h_i`` and a node
``t``,

    S_t^h(x, x') = Σ_{u ⊇ t} ∏_{i∈u∖t} h_i · K_u(x, x')
                 = P_t [1 − z_t(x) ρ_t(x) − z_t(x') ρ_t(x') + z_t(x) z_t(x') ρ_t(x ∪ x')],

with ``P_t = ∏_{i∉t}(1 + h_i)`` and ``ρ_t(s) = ∏_{i∈s∖t}(1 + h_i)^{-1}`` (proof in the
chapter: expand the product of the two ``ψ`` and sum each of the four terms over
the subsets ``r`` of the features outside ``t``; ``Σ_r ∏_{i∈r} h_i f_i =
∏_i (1 + h_i f_i)``).  ``P_t`` overflows for thousands of features, so it is
returned as a logarithm.  Where ``z_t(x) = z_t(x') = 1`` the samples contain no
feature of ``t`` and ``ρ_t(x ∪ x') = exp(−(L(x) + L(x') − L(x ∩ x')))`` with
``L(s) = Σ_{i∈s} log(1 + h_i)``: for sparse bag-of-words input a single sparse
product ``X diag(log(1+h)) Xᵀ`` gives all pairwise intersections.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit, prange

__all__ = [
    "descendant_kernel", "union_matrix", "source_quadforms", "source_quadforms_numpy",
    "prefix_quadforms",
]


def _as_csr(X):
    return sp.csr_matrix(X, dtype=np.float64)


def descendant_kernel(X1, X2, t, h):
    """Closed form of ``S_t^h(x, x')`` for all pairs of rows of ``X1``, ``X2``.

    Parameters
    ----------
    X1, X2 : array-like or sparse, shape (m1, n), (m2, n), 0/1 entries.
    t : tuple of int
        The node whose descendants are summed over.
    h : array of shape (n,)
        Per-feature factors ``h_i > 0`` (``h_i = β ω_i`` gives the weighted sum
        ``Σ_{u⊇t} δ_u/δ_t K_u``; ``h_i = (1 + β ω_i)^{-2}`` the descendant-normalised
        kernel of the sufficiency condition).

    Returns
    -------
    log_scale : float
        ``log P_t``.
    B : ndarray (m1, m2)
        The bracket, so that ``S_t^h = exp(log_scale) * B``.
    """
    X1 = _as_csr(X1)
    X2 = _as_csr(X2)
    h = np.asarray(h, dtype=np.float64)
    lh = np.log1p(h)
    t = list(t)
    outside = np.ones(h.shape[0], dtype=bool)
    outside[t] = False
    log_scale = float(lh[outside].sum())
    lh_out = np.where(outside, lh, 0.0)
    z1 = np.asarray(X1[:, t].sum(axis=1)).ravel() == 0 if t else np.ones(X1.shape[0], bool)
    z2 = np.asarray(X2[:, t].sum(axis=1)).ravel() == 0 if t else np.ones(X2.shape[0], bool)
    L1 = X1 @ lh_out
    L2 = X2 @ lh_out
    S = (X1.multiply(lh_out[None, :]) @ X2.T).toarray()
    r1 = np.exp(-L1) * z1
    r2 = np.exp(-L2) * z2
    ru = np.exp(-(L1[:, None] + L2[None, :] - S)) * (z1[:, None] & z2[None, :])
    B = 1.0 - r1[:, None] - r2[None, :] + ru
    return log_scale, B


def union_matrix(X, lh):
    """``R_ij = ∏_{k ∈ x_i ∪ x_j} (1 + h_k)^{-1}`` from one sparse product.

    ``lh = log(1 + h)``.  Entries are in (0, 1]; no overflow.
    """
    X = _as_csr(X)
    L = X @ lh
    S = (X.multiply(lh[None, :]) @ X.T).toarray()
    return np.exp(-(L[:, None] + L[None, :] - S))


@njit(cache=True)
def _quadforms(cp, v, base, R, indptr, indices, cand):
    """For each candidate feature ``l``: ``(c'∘(1−x_l))ᵀ R (c'∘(1−x_l))``.

    ``v = R c'``, ``base = c'ᵀ R c'``; ``indptr``/``indices`` is the CSC
    structure of ``X`` (rows = samples).  Cost O(df_l²) per candidate.
    """
    out = np.empty(cand.shape[0])
    for k in range(cand.shape[0]):
        l = cand[k]
        s2 = 0.0
        s3 = 0.0
        a = indptr[l]
        b = indptr[l + 1]
        for p in range(a, b):
            i = indices[p]
            ci = cp[i]
            if ci == 0.0:
                continue
            s2 += ci * v[i]
            acc = 0.0
            for q in range(a, b):
                j = indices[q]
                acc += cp[j] * R[i, j]
            s3 += ci * acc
        out[k] = base - 2.0 * s2 + s3
    return out


def source_quadforms(cp, R, Xcsc, cand):
    """Quadratic forms ``(c'∘z_l)ᵀ R (c'∘z_l)`` for candidate features (numba).

    Parameters
    ----------
    cp : ndarray (m,)  masked dual coefficients ``c ∘ z_a`` of a parent node ``a``.
    R : ndarray (m, m) from :func:`union_matrix`.
    Xcsc : scipy.sparse.csc_matrix (m, n), 0/1.
    cand : int array of candidate features ``l`` (the sources ``a ∪ {l}``).
    """
    cp = np.ascontiguousarray(cp, dtype=np.float64)
    v = R @ cp
    base = float(cp @ v)
    return _quadforms(cp, v, base, np.ascontiguousarray(R), Xcsc.indptr.astype(np.int64),
                      Xcsc.indices.astype(np.int64), np.asarray(cand, dtype=np.int64))


def source_quadforms_numpy(cp, R, Xcsc, cand):
    """Straightforward NumPy version of :func:`source_quadforms` (reference, benchmark)."""
    out = np.empty(len(cand))
    for k, l in enumerate(cand):
        z = cp * (1.0 - Xcsc[:, l].toarray().ravel())
        out[k] = z @ R @ z
    return out


@njit(cache=True, parallel=True)
def _prefix_quadforms(c, V, base, inside, U, T, ucol, N, indptr, indices, gptr, cand, out):
    """Kernel of :func:`prefix_quadforms`: group ``g`` (one prefix ``a``) in parallel.

    For candidate ``l`` of group ``g``: ``S_l`` = rows with ``x_l = 1`` and ``I = S_l ∩ S_a``.
    The scan of ``S_l`` splits it into ``I`` and the rest; the rest gives the cross term
    ``Σ_{i∈S_l∖S_a} c_i v_i``, ``I`` the corrections ``Σ_{i∈I} U_il`` and ``Σ_{i,j∈I} N_ij``.
    Cost O(|S_l| + |I|²) per candidate.
    """
    for g in prange(gptr.shape[0] - 1):
        buf = np.empty(c.shape[0], dtype=np.int64)
        for k in range(gptr[g], gptr[g + 1]):
            l = cand[k]
            col = ucol[k]
            s2 = 0.0
            nb = 0
            for p in range(indptr[l], indptr[l + 1]):
                i = indices[p]
                if inside[i, g]:
                    buf[nb] = i
                    nb += 1
                else:
                    s2 += c[i] * V[i, g]
            cross = 0.0
            inner = 0.0
            for x in range(nb):
                i = buf[x]
                cross += U[i, col]
                acc = 0.0
                for y in range(nb):
                    acc += N[i, buf[y]]
                inner += acc
            out[k] = base[g] - 2.0 * s2 + T[col] - 2.0 * cross + inner


def prefix_quadforms(c, R, Xcsc, psi, groups, V=None):
    """``(c∘z_a∘z_l)ᵀ R (c∘z_a∘z_l)`` for every prefix ``a`` and candidate feature ``l``.

    The quadratic forms of the pair (and larger) sources ``t = a ∪ {l}`` of the sufficiency
    check, all prefixes at once.  With ``N = diag(c) R diag(c)``, ``S_l = {i : x_il = 1}`` and
    ``I = S_l ∩ S_a`` (``S_a = {i : ψ_a(x_i) = 1}``),

        (c∘z_a∘z_l)ᵀ R (c∘z_a∘z_l) = c_aᵀ R c_a − 2 Σ_{i∈S_l∖S_a} c_i (R c_a)_i
                                      + T_l − 2 Σ_{i∈I} (N x_l)_i + Σ_{i,j∈I} N_ij,

    ``c_a = c∘z_a``, ``T_l = x_lᵀ N x_l``: the terms of ``Σ_{i,j∈S_l∖S_a} N_ij`` by
    inclusion–exclusion over ``I``.  The dense products (``R c_a`` for all prefixes, ``N x_l``
    for all candidates) are two matrix products (BLAS); what is left per candidate is a scan of
    ``S_l`` and a double sum over the usually small ``I``, instead of the double sum over
    ``S_l`` of :func:`source_quadforms` (written by hand in numba because no library computes
    these masked quadratic forms).

    Parameters
    ----------
    c : ndarray (m,)
    R : ndarray (m, m) from :func:`union_matrix`.
    Xcsc : scipy.sparse.csc_matrix (m, n), 0/1, sorted indices.
    psi : ndarray (m, A)
        ``ψ_a`` of each prefix on the rows (0/1).
    groups : list of int arrays
        The candidate features ``l`` of each prefix (same order as the columns of ``psi``).
    V : ndarray (m, A), optional
        ``R c_a`` for every prefix, if the caller has it already (the sufficiency check's
        pruning needs the same product); computed here otherwise.

    Returns
    -------
    base : ndarray (A,)
        ``c_aᵀ R c_a`` per prefix (the parent's own quadratic form).
    q : ndarray (Σ len(groups),)
        The quadratic forms, group after group.
    """
    c = np.ascontiguousarray(c, dtype=np.float64)
    CZ = c[:, None] * (1.0 - psi)
    V = np.asfortranarray(R @ CZ if V is None else V)
    base = np.einsum("ij,ij->j", CZ, V)
    sizes = np.array([len(g) for g in groups], dtype=np.int64)
    gptr = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(sizes)])
    cand = np.concatenate(groups).astype(np.int64) if len(groups) else np.zeros(0, np.int64)
    out = np.empty(cand.shape[0])
    if cand.size == 0:
        return base, out
    feats, ucol = np.unique(cand, return_inverse=True)
    N = c[:, None] * R * c[None, :]
    XL = Xcsc[:, feats].toarray()
    U = np.asfortranarray(N @ XL)
    T = np.einsum("ij,ij->j", XL, U)
    inside = np.asfortranarray(psi != 0)
    _prefix_quadforms(c, V, base, inside, U, T, ucol.astype(np.int64), np.ascontiguousarray(N),
                      Xcsc.indptr.astype(np.int64), Xcsc.indices.astype(np.int64), gptr, cand, out)
    return base, out

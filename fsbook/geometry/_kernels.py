"""numba kernels behind the geometric ratios f1-f6 (chapter "Geometric ratios").

Everything here works on the **Gram matrix** ``G = P Pᵀ`` of the samples (the
rows of ``P``, as given or binarised), never on the ``m × n`` data matrix
itself, so that sparse input is never densified: ``G`` is ``m × m`` and, for
integer data, holds exact integers.

Affine dimension (Section 3 of the paper).
    For a cloud ``P = {x_0, …, x_k}`` the paper writes
    ``dim aff(P) = rank(x_1 − x_0, …, x_k − x_0)``.  With ``D`` the matrix of
    those differences as rows, ``rank D = rank(D Dᵀ)`` and
    ``(D Dᵀ)_{ab} = G_ab − G_a0 − G_0b + G_00`` (exact integers for integer data).
    The rank is the number of eigenvalues of ``D Dᵀ`` above
    ``rtol · λ_max`` (documented tolerance, default ``rtol = 1e-10``: the
    eigenvalues of a symmetric matrix carry an absolute error of about
    ``k · eps · λ_max`` ≈ 3e-13 λ_max for k = 1500, so 1e-10 leaves a margin of
    several hundred; in singular-value terms it keeps ``σ > 1e-5 σ_max``).

Affine membership (behind f6).
    With ``D Dᵀ = V Λ Vᵀ`` and ``r`` eigenvalues kept, ``Q = Dᵀ V_r Λ_r^{-1/2}``
    is an orthonormal basis of the direction space of ``aff(P)``.  A point
    ``x`` lies in ``aff(P)`` iff ``x − x_0 ∈ span(Q)``, i.e. iff the residual
    ``‖x − x_0‖² − ‖Qᵀ(x − x_0)‖²`` vanishes, and
    ``Qᵀ(x − x_0) = Λ_r^{-1/2} V_rᵀ D (x − x_0)`` needs only the Gram entries
    ``(x_a − x_0)·(x − x_0)``.  We declare membership when the residual is at
    most ``mtol · ‖x − x_0‖²`` (relative, so independent of the scale of
    real-valued data; for integer data ``‖x − x_0‖² ≥ 1`` whenever ``x ≠ x_0``;
    default ``mtol = 1e-8``).  Before this
    numerical test an exact filter is applied: a point with a non-zero
    coordinate in a column where every point of ``P`` is zero cannot lie in
    ``aff(P)`` (every affine combination is zero there).
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["based_gram", "affine_rank", "hull_basis", "count_in_hull", "nonzero_columns_csr",
           "outside_support_csr"]


@njit(cache=True, nogil=True)
def based_gram(G, idx):
    """``K_ab = (x_a − x_0)·(x_b − x_0)`` for the points ``idx[1:]`` based at ``idx[0]``.

    Parameters
    ----------
    G : ndarray (m, m) float64, Gram matrix of all samples.
    idx : ndarray (k+1,) int64, the rows of the cloud.

    Returns
    -------
    ndarray (k, k)
    """
    k = idx.shape[0] - 1
    K = np.empty((max(k, 0), max(k, 0)))
    i0 = idx[0]
    g00 = G[i0, i0]
    for a in range(k):
        ia = idx[a + 1]
        for b in range(a, k):
            ib = idx[b + 1]
            v = G[ia, ib] - G[ia, i0] - G[i0, ib] + g00
            K[a, b] = v
            K[b, a] = v
    return K


@njit(cache=True, nogil=True)
def hull_basis(G, idx, rtol):
    """Eigen-decomposition of the based Gram matrix of a cloud, kept part only.

    Returns
    -------
    rank : int
        ``dim aff(P)`` (eigenvalues above ``rtol · λ_max``).
    V : ndarray (k, rank)
        Kept eigenvectors of ``D Dᵀ``.
    lam : ndarray (rank,)
        Kept eigenvalues.
    """
    K = based_gram(G, idx)
    k = K.shape[0]
    if k == 0:
        return 0, np.zeros((0, 0)), np.zeros(0)
    w, V = np.linalg.eigh(K)
    lmax = w[-1]
    if lmax <= 0.0:
        return 0, np.zeros((k, 0)), np.zeros(0)
    thr = rtol * lmax
    r = 0
    for i in range(k):
        if w[i] > thr:
            r += 1
    return r, np.ascontiguousarray(V[:, k - r:]), w[k - r:].copy()


@njit(cache=True, nogil=True)
def affine_rank(G, idx, rtol):
    """``dim aff`` of the cloud ``idx`` (``-1`` for an empty cloud, the usual convention)."""
    if idx.shape[0] == 0:
        return -1
    r, V, lam = hull_basis(G, idx, rtol)
    return r


@njit(cache=True, nogil=True)
def count_in_hull(G, idx, samples, outside, rtol, mtol):
    """Number of ``samples`` lying in ``aff`` of the cloud ``idx``.

    One eigen-decomposition of the cloud (the orthonormal basis) and one
    projection per sample replace the paper's one SVD per sample.

    Parameters
    ----------
    G : ndarray (m, m)
    idx : ndarray int64, rows of the cloud (non-empty).
    samples : ndarray int64, rows to test.
    outside : ndarray (m,) float64
        For each sample, the number of its non-zero columns where the whole
        cloud is zero (exact pre-filter: ``> 0`` means "not in the hull").
    rtol, mtol : float
        Rank and membership tolerances (see the module docstring).

    Returns
    -------
    count : int
    member : ndarray (len(samples),) bool
    """
    r, V, lam = hull_basis(G, idx, rtol)
    k = idx.shape[0] - 1
    i0 = idx[0]
    g00 = G[i0, i0]
    ns = samples.shape[0]
    member = np.zeros(ns, dtype=np.bool_)
    # candidates: samples passing the exact support filter
    cand = np.empty(ns, dtype=np.int64)
    nc = 0
    for s in range(ns):
        if outside[samples[s]] <= 0:
            cand[nc] = s
            nc += 1
    if nc == 0:
        return 0, member
    # cross Gram C[a, c] = (x_a - x_0)·(x_c - x_0) and squared norms, then one BLAS product
    C = np.empty((k, nc))
    nrm = np.empty(nc)
    for c in range(nc):
        j = samples[cand[c]]
        nrm[c] = G[j, j] - 2.0 * G[j, i0] + g00
        for a in range(k):
            ia = idx[a + 1]
            C[a, c] = G[ia, j] - G[ia, i0] - G[i0, j] + g00
    count = 0
    W = np.zeros((0, nc))
    if r > 0:
        W = np.dot(np.ascontiguousarray(V.T), C)          # (r, nc)
    for c in range(nc):
        proj = 0.0
        for q in range(r):
            proj += W[q, c] * W[q, c] / lam[q]
        resid = nrm[c] - proj
        if nrm[c] <= 0.0 or resid <= mtol * nrm[c]:
            member[cand[c]] = True
            count += 1
    return count, member


@njit(cache=True, nogil=True)
def nonzero_columns_csr(indptr, indices, rows, n_cols):
    """Boolean mask of the columns that are non-zero in at least one of ``rows`` (CSR)."""
    mask = np.zeros(n_cols, dtype=np.bool_)
    for i in rows:
        for p in range(indptr[i], indptr[i + 1]):
            mask[indices[p]] = True
    return mask


@njit(cache=True, nogil=True)
def outside_support_csr(indptr, indices, support):
    """For every row, the number of its stored columns where ``support`` is False."""
    m = indptr.shape[0] - 1
    out = np.zeros(m)
    for i in range(m):
        c = 0
        for p in range(indptr[i], indptr[i + 1]):
            if not support[indices[p]]:
                c += 1
        out[i] = c
    return out

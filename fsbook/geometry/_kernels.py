"""numba kernels behind the geometric ratios f1-f6 (chapter "Geometric ratios").

The Gram path works on the **Gram matrix** ``G = P Pᵀ`` of the samples (the
rows of ``P``, as given or binarised), never on the ``m × n`` data matrix
itself, so that sparse input is never densified: ``G`` is ``m × m`` and, for
integer data, holds exact integers.  The sparse path (``peel_csr``,
``peeled_residuals``, used through :mod:`fsbook.geometry.hull`) avoids even
``G`` for sparse data with many private columns.

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
           "outside_support_csr", "peel_csr", "peeled_residuals"]


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


# ----------------------------------------------------------------------------- sparse path
# The kernels below never form the m × m Gram matrix.  They peel the cloud: a row with a
# non-zero in a column where every other remaining row is zero (a "singleton column", its
# pivot) is independent of the others, so rank([P | c·1]) = 1 + rank of the remaining rows.
# Repeating this until no singleton column is left leaves a (usually small, often empty)
# core whose rank is computed densely; see :mod:`fsbook.geometry.hull`.


@njit(cache=True, nogil=True)
def peel_csr(indptr, indices, data, rows, n_cols):
    """Exact elimination of the rows of a CSR cloud that own a singleton column.

    Columns with one remaining non-zero are taken first-in first-out, starting
    from the singleton columns in increasing index order (deterministic).

    Parameters
    ----------
    indptr, indices, data : CSR arrays of the points (sorted, no duplicates or
        explicit zeros).
    rows : ndarray int64, the rows of the cloud.
    n_cols : int

    Returns
    -------
    prow, pcol : ndarray int64 (t,)
        Peeled rows in elimination order and their pivot columns: ``pcol[k]`` is
        zero in every row peeled after step ``k`` and in every core row.
    pval : ndarray (t,)
        Pivot values ``P[prow[k], pcol[k]]``.
    core : ndarray int64
        The rows left (sorted as in ``rows``).
    """
    k = rows.shape[0]
    cnt = np.zeros(n_cols, dtype=np.int64)
    for a in range(k):
        i = rows[a]
        for p in range(indptr[i], indptr[i + 1]):
            cnt[indices[p]] += 1
    cptr = np.zeros(n_cols + 1, dtype=np.int64)
    for c in range(n_cols):
        cptr[c + 1] = cptr[c] + cnt[c]
    fill = cptr[:-1].copy()
    crow = np.empty(cptr[n_cols], dtype=np.int64)      # local row ids per column
    for a in range(k):
        i = rows[a]
        for p in range(indptr[i], indptr[i + 1]):
            c = indices[p]
            crow[fill[c]] = a
            fill[c] += 1
    alive = np.ones(k, dtype=np.bool_)
    queue = np.empty(n_cols, dtype=np.int64)
    tail = 0
    for c in range(n_cols):
        if cnt[c] == 1:
            queue[tail] = c
            tail += 1
    prow = np.empty(k, dtype=np.int64)
    pcol = np.empty(k, dtype=np.int64)
    pval = np.empty(k)
    t = 0
    head = 0
    while head < tail:
        j = queue[head]
        head += 1
        if cnt[j] != 1:
            continue
        a = -1
        for q in range(cptr[j], cptr[j + 1]):
            if alive[crow[q]]:
                a = crow[q]
                break
        alive[a] = False
        i = rows[a]
        prow[t] = i
        pcol[t] = j
        for p in range(indptr[i], indptr[i + 1]):
            c = indices[p]
            if c == j:
                pval[t] = data[p]
            cnt[c] -= 1
            if cnt[c] == 1:
                queue[tail] = c
                tail += 1
        t += 1
    nc = 0
    core = np.empty(k - t, dtype=np.int64)
    for a in range(k):
        if alive[a]:
            core[nc] = rows[a]
            nc += 1
    return prow[:t].copy(), pcol[:t].copy(), pval[:t].copy(), core


@njit(cache=True, nogil=True)
def peeled_residuals(indptr, indices, data, n_cols, prow, pcol, pval, core, ones, samples):
    """Residuals of ``samples`` after elimination of the peeled rows (membership, part 1).

    ``x ∈ aff(P)`` iff ``[x, c] ∈ rowspace([P | c·1])`` (affine combinations are
    the linear ones whose coefficients sum to one; ``c = ones`` is any non-zero
    scale).  The coefficients of the peeled rows follow by forward
    substitution on their pivot columns (exact integers for 0/1 data: every
    pivot is 1).  What is left, ``z = [r, c·(1 − Σ coef)]``, must lie in the
    row space of the core ``[P_R | c·1]``; this kernel returns ``‖z‖²`` and
    the products ``[P_R | c·1] z`` for the projection (part 2, in
    :func:`fsbook.geometry.hull.count_in_sparse_hull`).

    Parameters
    ----------
    indptr, indices, data : CSR arrays of all points; n_cols : int
    prow, pcol, pval, core : output of :func:`peel_csr` for the cloud.
    ones : float
        The scale ``c`` of the ones column.
    samples : ndarray int64, rows to test.

    Returns
    -------
    res : ndarray (len(samples),)
        ``‖z‖²``.
    scale : ndarray (len(samples),)
        ``‖x‖² + c²`` (the membership tolerance is relative to it).
    B : ndarray (len(core), len(samples))
        ``[P_R | c·1] z`` per sample.
    """
    t = prow.shape[0]
    nr = core.shape[0]
    r = np.zeros(n_cols)
    mark = np.zeros(n_cols, dtype=np.bool_)
    touched = np.empty(n_cols, dtype=np.int64)
    ns = samples.shape[0]
    res = np.empty(ns)
    scale = np.empty(ns)
    B = np.empty((nr, ns))
    for s in range(ns):
        x = samples[s]
        nt = 0
        sc = ones * ones
        for p in range(indptr[x], indptr[x + 1]):
            c = indices[p]
            r[c] = data[p]
            mark[c] = True
            touched[nt] = c
            nt += 1
            sc += data[p] * data[p]
        csum = 0.0
        for k in range(t):
            v = r[pcol[k]]
            if v == 0.0:
                continue
            coef = v / pval[k]
            csum += coef
            i = prow[k]
            for p in range(indptr[i], indptr[i + 1]):
                c = indices[p]
                if not mark[c]:
                    mark[c] = True
                    touched[nt] = c
                    nt += 1
                r[c] -= coef * data[p]
            r[pcol[k]] = 0.0
        tail = ones * (1.0 - csum)
        acc = tail * tail
        for q in range(nt):
            acc += r[touched[q]] * r[touched[q]]
        res[s] = acc
        scale[s] = sc
        for a in range(nr):
            i = core[a]
            acc = ones * tail
            for p in range(indptr[i], indptr[i + 1]):
                acc += data[p] * r[indices[p]]
            B[a, s] = acc
        for q in range(nt):
            r[touched[q]] = 0.0
            mark[touched[q]] = False
    return res, scale, B

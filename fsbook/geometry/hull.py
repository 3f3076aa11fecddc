"""Affine hulls of sparse point clouds without the ``m × m`` Gram matrix.

The Gram path (:mod:`fsbook.geometry._kernels`, ``hull_basis``) forms the
Gram matrix of all ``m`` samples and eigen-decomposes ``k × k`` based Gram
matrices: ``O(m²)`` memory and ``O(m³)`` time, whatever the sparsity.  Sparse
text-like data (few non-zeros per row, many rare columns) has a structure
that gives the rank exactly and almost for free:

* ``dim aff(P) = rank([P | c·1]) − 1`` for any scale ``c ≠ 0`` (Section 3 of
  the paper writes ``rank(x_1 − x_0, …, x_k − x_0)``; appending the
  coordinate ``c`` to every point turns affine into linear dependence).
* A row with a non-zero in a column where every other row is zero is not in
  the span of the others: ``rank = 1 + rank(the others)``.  Removing such
  rows one by one (*peeling*, :func:`fsbook.geometry._kernels.peel_csr`)
  costs ``O(nnz)``.  The remaining *core* (rows without a private column) is
  handled as in the Gram path, on the Gram matrix of the core only; a core of
  full rank (the usual case) is certified and factorised by Cholesky instead
  of an eigen-decomposition (:func:`_full_rank`).

Everything is exact except the rank and membership tests on the core, which
use the documented tolerances ``rtol`` and ``mtol`` (relative to the largest
eigenvalue of the core's augmented Gram matrix and to ``‖x‖² + c²``).  The
scale ``c`` is the largest absolute value of the data (1 for 0/1 data, so
every quantity of the peeled part is an exact integer), which keeps the
ones column commensurate with the data and the ratios invariant to scaling.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from fsbook.geometry import _kernels as K

__all__ = ["SparseHull", "sparse_hull", "count_in_sparse_hull", "ones_scale"]


@dataclass(frozen=True)
class SparseHull:
    """A peeled cloud: peeled rows with their pivots, and the core's kept eigenpairs.

    Attributes
    ----------
    prow, pcol, pval : ndarray
        Peeled rows, pivot columns and pivot values (elimination order).
    core : ndarray of int64
        Rows without a private column.
    V, lam : ndarray or None
        Kept eigenvectors (``None`` with ``basis=False``) and eigenvalues of
        ``A = P_R P_Rᵀ + c²`` (``R`` = core); both ``None`` when the core was
        certified of full rank by Cholesky (then ``L`` is set).
    L : ndarray or None
        Lower Cholesky factor of ``A`` when the core has full rank (``None``
        with ``basis=False`` or when the eigen-decomposition was used).
    ones : float
        The scale ``c`` of the ones column.
    dim : int
        ``dim aff`` of the cloud (``-1`` for an empty cloud).
    """

    prow: np.ndarray
    pcol: np.ndarray
    pval: np.ndarray
    core: np.ndarray
    V: np.ndarray | None
    lam: np.ndarray | None
    L: np.ndarray | None
    ones: float
    dim: int
    basis: bool


def ones_scale(P):
    """The scale ``c`` of the ones column: ``max |P_ij|`` (1 for 0/1 or empty data)."""
    return float(np.abs(P.data).max()) if P.nnz else 1.0


def sparse_hull(P, rows, rtol, *, ones=None, basis=True):
    """Peel the cloud ``rows`` of ``P`` and decompose its core.

    Parameters
    ----------
    P : scipy.sparse.csr_matrix of shape (m, n)
        Points from :func:`fsbook.geometry.point_matrix` (canonical CSR).
    rows : ndarray of int64
        The rows of the cloud.
    rtol : float
        Rank tolerance: eigenvalues of the core's augmented Gram matrix above
        ``rtol · λ_max`` count.
    ones : float, optional
        Scale of the ones column (default :func:`ones_scale` of ``P``).
    basis : bool, default=True
        Keep the eigenvectors (needed by :func:`count_in_sparse_hull`);
        ``False`` computes the rank only, block by block over the connected
        components of the core (:func:`_core_rank`).

    Returns
    -------
    SparseHull

    Examples
    --------
    Four corners of a unit square in the plane ``x_3 = 1`` of R^3 (every
    column has two or more non-zeros, so nothing peels) and a fifth point
    with a private column:

    >>> import numpy as np, scipy.sparse as sp
    >>> P = sp.csr_matrix(np.array([[0, 0, 1, 0], [1, 0, 1, 0], [0, 1, 1, 0],
    ...                             [1, 1, 1, 0], [0, 0, 1, 1.0]]))
    >>> h = sparse_hull(P, np.arange(5), 1e-10)
    >>> h.dim, h.prow.tolist(), h.core.tolist()
    (3, [4], [0, 1, 2, 3])
    """
    c = ones_scale(P) if ones is None else float(ones)
    rows = np.asarray(rows, dtype=np.int64)
    prow, pcol, pval, core = K.peel_csr(P.indptr.astype(np.int64), P.indices.astype(np.int64),
                                        P.data, rows, P.shape[1])
    V, lam, L, rank_core = (np.zeros((0, 0)) if basis else None), np.zeros(0), None, 0
    if core.size and not basis:
        rank_core, lam = _core_rank(P[core], c, rtol), None
    elif core.size:
        R = P[core]
        A = (R @ R.T).toarray() + c * c
        if _full_rank(A, rtol):
            rank_core, V, lam = core.size, None, None
            if basis:
                L = la.cholesky(A, lower=True, overwrite_a=True, check_finite=False)
        else:
            if basis:
                w, U = np.linalg.eigh(A)
            else:
                w, U = np.linalg.eigvalsh(A), None
            keep = w > rtol * w[-1]
            lam = w[keep]
            rank_core = lam.size
            if basis:
                V = np.ascontiguousarray(U[:, keep])
    rank = prow.size + rank_core
    return SparseHull(prow, pcol, pval, core, V, lam, L, c, rank - 1, basis)


def _rank(A, rtol):
    """Eigenvalues of the PSD matrix ``A`` above ``rtol · λ_max`` (Cholesky certificate first)."""
    if _full_rank(A, rtol):
        return A.shape[0]
    w = np.linalg.eigvalsh(A)
    return int((w > rtol * w[-1]).sum()) if w[-1] > 0 else 0


def _core_rank(R, c, rtol):
    """``rank([R | c·1])`` from the connected components of the rows of ``R``.

    Rows sharing no column (transitively) form components ``R_i`` with
    disjoint supports.  With ``B_i = R_i R_iᵀ`` and ``A_i = B_i + c²``,
    ``rank([R | c·1]) = Σ_i rank B_i + max_i (rank A_i − rank B_i)``: the
    ones column adds one dimension unless it lies in the column space of
    every block (``rank([R_i | c·1]) = rank R_i``).  Each rank is counted as
    in the single-block case (eigenvalues above ``rtol · λ_max`` of that
    matrix), so the cost is ``Σ_i |R_i|³`` instead of ``|R|³``.
    """
    G = (R @ R.T).tocsr()
    absR = abs(R)
    n_comp, label = connected_components(absR @ absR.T, directed=False)
    if n_comp == 1:
        return _rank(G.toarray() + c * c, rtol)
    order = np.argsort(label, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(label, minlength=n_comp))]
    total, extra = 0, 0
    for i in range(n_comp):
        idx = order[bounds[i]:bounds[i + 1]]
        B = G[idx][:, idx].toarray()
        rb = _rank(B, rtol) if B.any() else 0
        total += rb
        extra = max(extra, _rank(B + c * c, rtol) - rb)
    return total + extra


def _full_rank(A, rtol):
    """Certificate that every eigenvalue of the PSD matrix ``A`` exceeds ``rtol · λ_max``.

    With ``τ = rtol · max_i Σ_j |A_ij|`` (Gershgorin: ``≥ rtol · λ_max``), a
    successful Cholesky factorisation of ``A − τ I`` proves ``λ_min > τ``, so
    the eigenvalue threshold keeps all ``len(A)`` eigenvalues.  ``O(k³/3)``
    (level-3 BLAS), several times cheaper than the eigenvalues; when it fails
    the caller computes them.
    """
    tau = rtol * np.abs(A).sum(axis=1).max()
    S = A.copy()
    S[np.diag_indices_from(S)] -= tau
    try:
        la.cholesky(S, lower=True, overwrite_a=True, check_finite=False)
    except la.LinAlgError:
        return False
    return True


def count_in_sparse_hull(P, hull, samples, outside, mtol, *, chunk=1024):
    """Number of ``samples`` (rows of ``P``) in the affine hull of a peeled cloud.

    Sparse twin of :func:`fsbook.geometry._kernels.count_in_hull`: after the
    exact pre-filter, the peeled rows are eliminated by forward substitution
    (:func:`fsbook.geometry._kernels.peeled_residuals`) and the residual
    ``z`` is projected on the row space of the core, whose orthonormal basis
    is ``[P_R | c·1]ᵀ V Λ^{-1/2}`` (``[P_R | c·1]ᵀ L⁻ᵀ`` for a full-rank core);
    a sample is a member when
    ``‖z‖² − ‖Λ^{-1/2} Vᵀ [P_R | c·1] z‖² ≤ mtol · (‖x‖² + c²)``.

    Parameters
    ----------
    P : scipy.sparse.csr_matrix
    hull : SparseHull
        From :func:`sparse_hull` with ``basis=True``.
    samples : ndarray of int64
    outside : ndarray of shape (m,)
        Per sample, its non-zero columns outside the cloud's support (exact
        pre-filter: ``> 0`` means "not in the hull").
    mtol : float
        Membership tolerance (relative to ``‖x‖² + c²``).
    chunk : int, default=1024
        Samples per batch (bounds the ``len(core) × chunk`` work matrix).

    Returns
    -------
    count : int
    member : ndarray of bool
    """
    if not hull.basis:
        raise ValueError("the hull was computed with basis=False")
    if not sp.isspmatrix_csr(P):
        raise ValueError("P must be a CSR matrix")
    samples = np.asarray(samples, dtype=np.int64)
    member = np.zeros(samples.size, dtype=bool)
    cand = np.flatnonzero(outside[samples] <= 0)
    indptr, indices = P.indptr.astype(np.int64), P.indices.astype(np.int64)
    for lo in range(0, cand.size, chunk):
        c = cand[lo:lo + chunk]
        res, scale, B = K.peeled_residuals(indptr, indices, P.data, P.shape[1], hull.prow,
                                           hull.pcol, hull.pval, hull.core, hull.ones,
                                           samples[c])
        if hull.L is not None:                    # ‖A^{-1/2} b‖² = ‖L^{-1} b‖²
            W = la.solve_triangular(hull.L, B, lower=True, check_finite=False)
            res = res - (W * W).sum(axis=0)
        elif hull.lam.size:
            W = hull.V.T @ B
            res = res - (W * W / hull.lam[:, None]).sum(axis=0)
        member[c] = res <= mtol * scale
    return int(member.sum()), member

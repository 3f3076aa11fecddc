"""numba kernels of FOHSIC, a block of rows at a time (no ``n × n`` matrix).

:func:`multiply_gaussian_factor` multiplies a block of rows of the kernel on the selected
features by the Gaussian factor of one more feature; :func:`hsic_gains_block` adds a block's
share of the HSIC gain of every candidate feature.  Both work on the non-zeros of a CSC matrix.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True)
def multiply_gaussian_factor(Kb, b0, rows, vals, n, inv2s2):
    """``Kb[i − b0, l] *= exp(−(v_i − v_l)² / 2σ²)`` for the rows ``b0 ≤ i < b0 + len(Kb)``.

    ``v`` is the column with non-zeros ``vals`` at ``rows``; a pair of zeros has the factor 1
    and is skipped (multiplying by 1 is exact), so a block costs
    ``O(|rows ∩ block| · n + len(Kb) · |rows|)``.
    """
    v = np.zeros(n)
    nz = np.zeros(n, dtype=np.bool_)
    for q in range(rows.shape[0]):
        v[rows[q]] = vals[q]
        nz[rows[q]] = True
    for ii in range(Kb.shape[0]):
        i = b0 + ii
        if nz[i]:
            vi = v[i]
            for l in range(n):
                t = vi - v[l]
                Kb[ii, l] *= np.exp(-(t * t) * inv2s2)
        else:
            for q in range(rows.shape[0]):
                t = vals[q]
                Kb[ii, rows[q]] *= np.exp(-(t * t) * inv2s2)


@njit(parallel=True, cache=True)
def hsic_gains_block(indptr, indices, data, Ab, rowsum, b0, inv2s2, pos, out):
    """Add the rows ``b0 ≤ i < b0 + len(Ab)`` of ``G_j / 2`` to ``out[j]`` for every column ``j``.

    ``G_j = Σ_{i≠l} A_il (exp(−(x_ij − x_lj)² / 2σ²) − 1)`` with ``A = K_S ∘ HLH`` symmetric;
    only pairs with at least one non-zero entry change the kernel, so with ``R_j`` the rows
    where column ``j`` is non-zero,

        G_j = 2 Σ_{i∈R_j} [ (e(x_ij) − 1)(rowsum_i − Σ_{l∈R_j} A_il)
                            + Σ_{l∈R_j, l>i} A_il (e(x_ij − x_lj) − 1) ],   e(t) = exp(−t²/2σ²),

    in which row ``i`` needs only row ``i`` of ``A`` (``Ab[i − b0]``, ``rowsum[i − b0]``).
    ``pos[j]`` is the first entry of column ``j`` not yet visited (the row indices of every
    column are sorted and the blocks come in increasing order); it is advanced.  The terms are
    added to ``out[j]`` in the order of the entries whatever the blocks, so the result does
    not depend on the block size.  The caller doubles ``out`` after the last block.
    """
    d = indptr.shape[0] - 1
    b1 = b0 + Ab.shape[0]
    for j in prange(d):
        a, b = indptr[j], indptr[j + 1]
        p = pos[j]
        s = out[j]
        while p < b and indices[p] < b1:
            ii = indices[p] - b0
            vi = data[p]
            inside = 0.0
            for r in range(a, b):
                inside += Ab[ii, indices[r]]
            s += (np.exp(-vi * vi * inv2s2) - 1.0) * (rowsum[ii] - inside)
            for r in range(p + 1, b):
                t = vi - data[r]
                s += Ab[ii, indices[r]] * (np.exp(-t * t * inv2s2) - 1.0)
            p += 1
        pos[j] = p
        out[j] = s

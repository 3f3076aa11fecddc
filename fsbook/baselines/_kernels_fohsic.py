"""numba kernel of FOHSIC: the HSIC gain of adding each candidate feature (sparse-aware)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=True)
def hsic_gains_csc(indptr, indices, data, A, rowsum, inv2s2):
    """``G_j = Σ_{i≠l} A_il (exp(−(x_ij − x_lj)² / 2σ²) − 1)`` for every column ``j`` of a CSC matrix.

    Only pairs with at least one non-zero entry change the kernel, so with
    ``R_j`` the rows where column ``j`` is non-zero,

        G_j = 2 Σ_{i∈R_j} (e(x_ij) − 1)(rowsum_i − Σ_{l∈R_j} A_il)
            + 2 Σ_{i<l ∈ R_j} A_il (e(x_ij − x_lj) − 1),   e(t) = exp(−t²/2σ²),

    which costs ``O(|R_j|²)`` per feature (``O(n²)`` for a dense column).
    """
    d = indptr.shape[0] - 1
    out = np.zeros(d)
    for j in prange(d):
        a, b = indptr[j], indptr[j + 1]
        s = 0.0
        for p in range(a, b):
            i = indices[p]
            vi = data[p]
            inside = 0.0
            for r in range(a, b):
                inside += A[i, indices[r]]
            s += (np.exp(-vi * vi * inv2s2) - 1.0) * (rowsum[i] - inside)
            for r in range(p + 1, b):
                t = vi - data[r]
                s += A[i, indices[r]] * (np.exp(-t * t * inv2s2) - 1.0)
        out[j] = 2.0 * s
    return out

"""numba kernel of the HSFS criterion: ``Σ_ij A_ij`` and ``(D − A)Z`` in one pass over the pairs.

NumPy needs the ``n × n`` matrices ``ZZᵀ``, ``K`` and ``A = K ∘ Γ`` (several temporaries
and ``n²`` exponentials); this kernel visits each pair ``i < j`` once (``n²/2``
exponentials, no ``n × n`` temporary), which is what bounds an HSFS fit once the
active-set solver has made ``XW`` cheap (see ``benchmarks/l1linf.py --profile``).
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def hsic_value_and_daz(Z, Gamma, inv2s2):
    """``(Σ_ij A_ij, (D − A) Z)`` with ``A_ij = exp(−||z_i − z_j||² inv2s2) Γ_ij``, ``D = diag(A1)``.

    ``||z_i − z_j||²`` is summed from the differences (no cancellation of ``||z_i||² +
    ||z_j||² − 2 z_iᵀz_j``).
    """
    n, q = Z.shape
    rowsum = np.zeros(n)
    AZ = np.zeros((n, q))
    total = 0.0
    for i in range(n):
        a = Gamma[i, i]                       # K_ii = 1
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
    DAZ = np.empty((n, q))
    for i in range(n):
        for m in range(q):
            DAZ[i, m] = rowsum[i] * Z[i, m] - AZ[i, m]
    return total, DAZ


@njit(cache=True)
def hsic_value(Z, Gamma, inv2s2):
    """``Σ_ij A_ij`` alone, summed in the order of :func:`hsic_value_and_daz` (same bits)."""
    n, q = Z.shape
    total = 0.0
    for i in range(n):
        total += Gamma[i, i]
        for j in range(i + 1, n):
            d2 = 0.0
            for m in range(q):
                t = Z[i, m] - Z[j, m]
                d2 += t * t
            total += 2.0 * (np.exp(-d2 * inv2s2) * Gamma[i, j])
    return total

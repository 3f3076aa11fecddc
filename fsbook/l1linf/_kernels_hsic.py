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
def _pair_weights(ZT, Gamma, inv2s2, i, a):
    """``a[j] = exp(−||z_i − z_j||² inv2s2) Γ_ij`` for ``j > i`` (``ZT = Zᵀ``, contiguous).

    The squared distances are summed over the components in the same order as in
    :func:`hsic_value`, but with ``j`` innermost, so the loop vectorises over ``j``.
    """
    q, n = ZT.shape
    for j in range(i + 1, n):
        a[j] = 0.0
    for m in range(q):
        zi = ZT[m, i]
        for j in range(i + 1, n):
            t = zi - ZT[m, j]
            a[j] += t * t
    for j in range(i + 1, n):
        a[j] = np.exp(-a[j] * inv2s2) * Gamma[i, j]


@njit(cache=True)
def hsic_value_and_daz(Z, Gamma, inv2s2):
    """``(Σ_ij A_ij, (D − A) Z)`` with ``A_ij = exp(−||z_i − z_j||² inv2s2) Γ_ij``, ``D = diag(A1)``.

    ``||z_i − z_j||²`` is summed from the differences (no cancellation of ``||z_i||² +
    ||z_j||² − 2 z_iᵀz_j``).  Each pair ``i < j`` is visited once; row ``i``'s weights are
    computed as one vector (:func:`_pair_weights`) and the sums over ``j`` run on the
    transposed ``Zᵀ`` (contiguous in ``j``).  Every sum is accumulated in the order of the
    plain double loop over ``i < j`` (1.3× faster than that loop, the same bits; the ``n²/2``
    exponentials bound the rest).
    """
    n, q = Z.shape
    ZT = np.ascontiguousarray(Z.T)
    rowsum = np.zeros(n)
    AZT = np.zeros((q, n))
    a = np.empty(n)
    total = 0.0
    for i in range(n):
        aii = Gamma[i, i]                     # K_ii = 1
        total += aii
        rowsum[i] += aii
        for m in range(q):
            AZT[m, i] += aii * ZT[m, i]
        _pair_weights(ZT, Gamma, inv2s2, i, a)
        ri = rowsum[i]
        for j in range(i + 1, n):
            total += 2.0 * a[j]
            ri += a[j]
            rowsum[j] += a[j]
        rowsum[i] = ri
        for m in range(q):
            zi = ZT[m, i]
            s = AZT[m, i]
            for j in range(i + 1, n):
                s += a[j] * ZT[m, j]
                AZT[m, j] += a[j] * zi
            AZT[m, i] = s
    DAZ = np.empty((n, q))
    for i in range(n):
        for m in range(q):
            DAZ[i, m] = rowsum[i] * Z[i, m] - AZT[m, i]
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


# ----------------------------------------------------------------------------- vectorised kernels
# The kernels above call libm's ``exp`` once per pair, which the compiler cannot vectorise: the
# ``n²/2`` scalar calls bound an HSFS fit.  The kernels below evaluate the same quantities with
# an ``exp`` written in arithmetic the compiler vectorises (:func:`exp_nonpositive`) and sums in
# vectorised orders: the results agree with the kernels above to rounding (the exponentials to
# one unit in the last place, the sums to their rounding), not bit for bit.

_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01      # fdlibm's split of log 2: k · _LN2_HI is exact
_LN2_LO = 1.90821492927058770002e-10
#: below this argument the result is 0 (``exp(−708) ≈ 3.3e-308``; the subnormals are not formed)
_EXP_FLOOR = -708.0
_C2, _C3, _C4, _C5, _C6 = 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720
_C7, _C8, _C9, _C10 = 1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800
_C11, _C12, _C13 = 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800


@njit(cache=True, inline="always")
def exp_nonpositive(x, out, scratch):
    """``out[j] = exp(x[j])`` for ``x[j] ≤ 0`` (0 below −708), in vectorisable arithmetic.

    Cody–Waite reduction ``x = k log 2 + r`` with ``|r| ≤ log(2)/2`` (``log 2`` split in two so
    that ``k · log 2`` loses no bits), the Taylor polynomial of degree 13 for ``exp(r)`` (its
    truncation error ``|r|¹⁴/14! < 5e-18``), and ``2^k`` built from its exponent bits in the
    ``int64`` array ``scratch`` (the length of ``x``).  No libm call, so the loops vectorise;
    within one unit in the last place of the correctly rounded value (tested).
    """
    n = x.shape[0]
    for j in range(n):
        xj = max(x[j], _EXP_FLOOR)
        k = np.floor(xj * _LOG2E + 0.5)
        r = (xj - k * _LN2_HI) - k * _LN2_LO
        p = _C13 * r + _C12
        p = p * r + _C11
        p = p * r + _C10
        p = p * r + _C9
        p = p * r + _C8
        p = p * r + _C7
        p = p * r + _C6
        p = p * r + _C5
        p = p * r + _C4
        p = p * r + _C3
        p = p * r + _C2
        p = p * r + 1.0
        p = p * r + 1.0
        out[j] = p
        scratch[j] = (np.int64(k) + 1023) << 52
    scale = scratch.view(np.float64)
    for j in range(n):
        out[j] = out[j] * scale[j] if x[j] >= _EXP_FLOOR else 0.0


@njit(cache=True, inline="always")
def _row_weights_vectorised(ZT, Gamma, inv2s2, i, d2, e, scratch):
    """``e[t] = exp(−||z_i − z_{i+1+t}||² inv2s2) Γ_{i,i+1+t}`` for ``t < n − i − 1``."""
    q, n = ZT.shape
    m0 = n - i - 1
    for t in range(m0):
        d2[t] = 0.0
    for m in range(q):
        zi = ZT[m, i]
        for t in range(m0):
            u = zi - ZT[m, i + 1 + t]
            d2[t] += u * u
    for t in range(m0):
        d2[t] = -d2[t] * inv2s2
    exp_nonpositive(d2[:m0], e[:m0], scratch[:m0])
    for t in range(m0):
        e[t] *= Gamma[i, i + 1 + t]
    return m0


@njit(cache=True)
def hsic_value_vectorised(Z, Gamma, inv2s2):
    """``Σ_ij A_ij`` alone, with the bits of :func:`hsic_value_and_daz_vectorised`'s value.

    That kernel sums the column sums of ``A``, each over ``i`` in order; here column ``j``
    receives ``A_ij`` for ``i < j`` from row ``i``'s weights (vectorised over ``j``), then
    ``Γ_jj`` and its own row's weights ``A_jl``, ``l > j``, in order."""
    n, q = Z.shape
    ZT = np.ascontiguousarray(Z.T)
    d2, e, colsum = np.empty(n), np.empty(n), np.zeros(n)
    scratch = np.empty(n, dtype=np.int64)
    for i in range(n):
        m0 = _row_weights_vectorised(ZT, Gamma, inv2s2, i, d2, e, scratch)
        s = colsum[i] + Gamma[i, i]
        for t in range(m0):
            s += e[t]
            colsum[i + 1 + t] += e[t]
        colsum[i] = s
    total = 0.0
    for j in range(n):
        total += colsum[j]
    return total


@njit(cache=True)
def hsic_value_and_daz_vectorised(Z, Gamma, inv2s2):
    """``(Σ_ij A_ij, (D − A) Z)`` as :func:`hsic_value_and_daz`, vectorised (agrees to rounding).

    Builds the symmetric ``n × n`` matrix ``A`` row by row, then its column sums and ``AZ``
    as sums of rows (``AZᵀ[m] += A[i] z_im``, vectorised over the columns)."""
    n, q = Z.shape
    ZT = np.ascontiguousarray(Z.T)
    d2, e = np.empty(n), np.empty(n)
    scratch = np.empty(n, dtype=np.int64)
    A = np.empty((n, n))
    for i in range(n):
        A[i, i] = Gamma[i, i]
        m0 = _row_weights_vectorised(ZT, Gamma, inv2s2, i, d2, e, scratch)
        for t in range(m0):
            A[i, i + 1 + t] = e[t]
            A[i + 1 + t, i] = e[t]
    rowsum = np.zeros(n)
    AZT = np.zeros((q, n))
    for i in range(n):
        for j in range(n):
            rowsum[j] += A[i, j]
        for m in range(q):
            zi = ZT[m, i]
            for j in range(n):
                AZT[m, j] += A[i, j] * zi
    total = 0.0
    for j in range(n):
        total += rowsum[j]
    DAZ = np.empty((n, q))
    for i in range(n):
        for m in range(q):
            DAZ[i, m] = rowsum[i] * Z[i, m] - AZT[m, i]
    return total, DAZ

"""The linear programs of formulations (4) and (7) and their two solvers.

Variables ``x = [α (m), ε (T), s (G), r (P)]``: mixing weights, triplet slacks, group bounds
and, for the full LP only, one auxiliary :math:`r_{ij}` per unordered pair ``i < j`` of ``S``
(``K^α`` is symmetric, so ``r_ij = r_ji`` loses nothing).  With base kernels on ``S`` given as
``K[p, i, j]``, triplets ``(i, j, k)`` as local indices into ``S`` and a group per kernel
(its own index in formulation 4, its feature in formulation 7):

.. math::

   \\min\\; \\sum_t ε_t + γ_1 \\sum_g s_g + γ_2 \\sum_{i∈S} K^α_{ii}
   \\quad\\text{s.t.}\\quad
   K^α_{ij} - K^α_{ik} + ε_t ≥ 1,\\;
   -r_{ij} ≤ K^α_{ij} ≤ r_{ij},\\;
   K^α_{ii} - \\sum_{j≠i} r_{ij} ≥ 0,\\;
   -s_g ≤ α_p ≤ s_g\\;(p∈I_g),\\; ε ≥ 0.

:func:`solve_full_lp` passes exactly this LP, as sparse matrices, to HiGHS.
:func:`solve_cutting_plane` drops ``r`` and the ``2P + |S|`` dominance rows; it enforces the
row condition :math:`K^α_{ii} ≥ \\sum_{j≠i}|K^α_{ij}|` — the projection of the full LP's
dominance block onto ``α`` — by constraint generation: the condition is the intersection of the
half-spaces :math:`K^α_{ii} - \\sum_{j≠i} σ_j K^α_{ij} ≥ 0` over sign vectors ``σ``, and for a
row violated at the current ``α`` the most violated one is ``σ_j = sign(K^α_{ij})``.  The
relaxed LP is re-solved with the violated rows' cuts until none is violated; its optimum is then
feasible for the full LP and, being a relaxation's optimum, optimal for it.

``psd="nonnegative"`` (our departure from the paper) replaces the dominance block by
``α ≥ 0``: every base kernel is positive semidefinite (Gaussian, linear, polynomial with
non-negative offset) and a non-negative combination of PSD matrices is PSD, so ``K^α`` is PSD
on every point set, not only on ``S``.  The LP keeps ``α (m), ε (T), s (G)``; the group rows
become ``α_p - s_g ≤ 0`` (so :math:`s_g = \\max_{p∈I_g} α_p`) and no ``r`` or dominance row is
needed (:func:`build_nonnegative_lp`, :func:`solve_nonnegative_lp`).  Scaling: with
:math:`D_{pt} = K_p(x_i,x_j) - K_p(x_i,x_k)` a triplet ``t`` asks
:math:`\\sum_p α_p D_{pt} + ε_t ≥ 1`.  Multiplying every base kernel by ``c`` multiplies ``D``
and the traces by ``c``; with :math:`β = cα` the LP is the original one with ``γ1`` replaced by
``γ1 / c`` and ``γ2`` unchanged: the trace term scales with the kernels, the group penalty
does not.  The zero mixture is optimal exactly when, for every group ``g``,
:math:`\\sum_{p∈I_g}\\big(\\sum_t D_{pt} - γ_2 \\operatorname{tr}_S K_p\\big)_+ ≤ γ_1` (the
directional derivative at ``α = 0``, where every ``ε_t = 1``); for Gaussians
:math:`\\operatorname{tr}_S K_p = |S|`, so ``γ2`` competes with the mean gain per point of ``S``
and ``γ1`` with the total gain, which grows with the number of triplets ``T``.

:func:`solve_block_dominance` asks dominance of given principal submatrices of ``K^α`` only (each
triple's own ``3 × 3`` block, say) by the same cutting planes: a relaxation, whose ``K^α`` need
not be PSD on ``S`` (chapter 3 uses it to test where the zero kernel comes from).

Written by hand because no library builds these LPs; the solving is HiGHS's
(:func:`scipy.optimize.linprog` with ``method="highs"``).
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.optimize import OptimizeWarning, linprog

__all__ = ["LPResult", "lp_sizes", "build_full_lp", "solve_full_lp", "solve_cutting_plane", "dominance_violation",
           "objective_value", "PSD_OPTIONS", "triplet_differences", "build_nonnegative_lp",
           "solve_nonnegative_lp", "solve_block_dominance"]

#: ways of keeping ``K^α`` positive semidefinite: the paper's diagonal dominance on ``S``, or
#: ``α ≥ 0`` (our departure from the paper, PSD by construction)
PSD_OPTIONS = ("dominance", "nonnegative")

#: HiGHS options shared by both solvers (tight tolerances so both reach the same optimum)
HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-9, "dual_feasibility_tolerance": 1e-9}


@dataclass
class LPResult:
    """Solution of formulation (4) or (7).

    Attributes
    ----------
    alpha, eps, s : ndarray
        Mixing weights, triplet slacks, group bounds at the optimum.
    objective : float
        :math:`\\sum ε + γ_1 \\sum s + γ_2 \\sum_i K^α_{ii}`.
    n_variables, n_constraints, nnz : int
        Size of the (last) LP passed to HiGHS (bounds not counted as constraints).
    n_iter : int
        LP solves (1 for the full LP).
    n_cuts : int
        Dominance cuts in the final LP (cutting plane only).
    solve_time : float
        Wall-clock seconds, building included.
    duals : ndarray or None
        Duals ``y ≥ 0`` of the triplet rows at the optimum (``α ≥ 0`` LP only), ``None`` when
        the solver does not report them.
    """

    alpha: np.ndarray
    eps: np.ndarray
    s: np.ndarray
    objective: float
    n_variables: int
    n_constraints: int
    nnz: int
    n_iter: int = 1
    n_cuts: int = 0
    solve_time: float = 0.0
    history: list = field(default_factory=list)
    duals: np.ndarray | None = None


def _check_inputs(K, triplets, groups, gamma1, gamma2):
    K = np.asarray(K, dtype=np.float64)
    if K.ndim != 3 or K.shape[1] != K.shape[2]:
        raise ValueError(f"K must have shape (m, n, n), got {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError("base kernel matrices contain NaN or infinity")
    t = np.asarray(triplets, dtype=np.int64)
    if t.ndim != 2 or t.shape[1] != 3 or t.shape[0] == 0:
        raise ValueError(f"triplets must be a non-empty (T, 3) array, got {t.shape}")
    if t.min() < 0 or t.max() >= K.shape[1]:
        raise ValueError("triplet indices out of range of S")
    return K, t, _check_groups_gammas(groups, K.shape[0], gamma1, gamma2)


def _check_groups_gammas(groups, m, gamma1, gamma2):
    g = np.asarray(groups, dtype=np.int64)
    if g.shape != (m,):
        raise ValueError("groups must give one group per base kernel")
    if gamma1 < 0 or gamma2 < 0:
        raise ValueError("gamma1 and gamma2 must be non-negative")
    return g


def check_psd(psd):
    """Validate the ``psd`` option (one of :data:`PSD_OPTIONS`)."""
    if not isinstance(psd, str) or psd not in PSD_OPTIONS:
        raise ValueError(f"psd must be one of {PSD_OPTIONS}, got {psd!r}")
    return psd


def triplet_differences(K, triplets):
    """:math:`D_{pt} = K_p(x_i, x_j) - K_p(x_i, x_k)` for each triplet ``t = (i, j, k)``:
    array ``(m, T)``; the triplet constraint of (4)/(7) reads ``D[:, t] @ α + ε_t ≥ 1``."""
    t = np.asarray(triplets)
    return K[:, t[:, 0], t[:, 1]] - K[:, t[:, 0], t[:, 2]]


def _lp_blocks(D, trace, g, gamma1, gamma2, nonnegative):
    """Objective, triplet rows and group rows (columns α, ε, s) from the triplet differences
    ``D (m, T)`` and the traces ``trace[p] = Σ_{i∈S} K_p(x_i, x_i)``."""
    m, T = D.shape
    G = int(g.max()) + 1
    c = np.concatenate([gamma2 * trace, np.ones(T), np.full(G, gamma1)])
    # triplet rows: -(K_ij - K_ik) α - ε_t <= -1
    trip = sp.hstack([sp.csr_matrix(-D.T), -sp.identity(T, format="csr"),
                      sp.csr_matrix((T, G))], format="csr")
    # group rows: ±α_p - s_g <= 0  (only +α_p - s_g <= 0 when α >= 0)
    signs = (1.0,) if nonnegative else (1.0, -1.0)
    k = len(signs)
    rows = np.arange(k * m)
    cols_a = np.tile(np.arange(m), k)
    vals_a = np.repeat(signs, m)
    cols_s = m + T + np.tile(g, k)
    grp = sp.csr_matrix((np.concatenate([vals_a, -np.ones(k * m)]),
                         (np.concatenate([rows, rows]), np.concatenate([cols_a, cols_s]))),
                        shape=(k * m, m + T + G))
    b = np.concatenate([-np.ones(T), np.zeros(k * m)])
    bounds = [(0 if nonnegative else None, None)] * m + [(0, None)] * (T + G)
    return c, sp.vstack([trip, grp], format="csr"), b, bounds


def _common_blocks(K, t, g, gamma1, gamma2):
    """Objective, triplet rows and group rows, shared by both dominance solvers."""
    diag = np.einsum("pii->pi", K)
    c, A, b, bounds = _lp_blocks(triplet_differences(K, t), diag.sum(axis=1), g, gamma1, gamma2,
                                 nonnegative=False)
    return c, A, b, bounds, diag


def _check_nonnegative_inputs(D, trace, groups, gamma1, gamma2):
    D = np.asarray(D, dtype=np.float64)
    trace = np.asarray(trace, dtype=np.float64)
    if D.ndim != 2 or D.shape[1] == 0:
        raise ValueError(f"D must be a (m, T) array with T >= 1 triplets, got {D.shape}")
    if trace.shape != (D.shape[0],):
        raise ValueError("trace must give one value per base kernel")
    if not (np.all(np.isfinite(D)) and np.all(np.isfinite(trace))):
        raise ValueError("base kernel values contain NaN or infinity")
    return D, trace, _check_groups_gammas(groups, D.shape[0], gamma1, gamma2)


def build_nonnegative_lp(D, trace, groups, gamma1, gamma2):
    """The LP of formulation (4)/(7) with ``α ≥ 0`` in place of diagonal dominance
    (``psd="nonnegative"``, see module docstring):

    .. math::

       \\min \\sum_t ε_t + γ_1 \\sum_g s_g + γ_2 \\sum_p α_p \\operatorname{tr}_S K_p
       \\;\\text{s.t.}\\; D_{:,t}^\\top α + ε_t ≥ 1,\\; α_p ≤ s_g\\,(p∈I_g),\\; α, ε, s ≥ 0.

    ``D`` is :func:`triplet_differences` ``(m, T)``, ``trace[p]`` the trace of ``K_p`` on ``S``.
    Returns ``(c, A_ub, b_ub, bounds, sizes)`` with ``m + T + G`` variables and ``T + m`` rows."""
    D, trace, g = _check_nonnegative_inputs(D, trace, groups, gamma1, gamma2)
    c, A, b, bounds = _lp_blocks(D, trace, g, gamma1, gamma2, nonnegative=True)
    sizes = {"n_variables": A.shape[1], "n_constraints": A.shape[0], "nnz": int(A.nnz)}
    return c, A, b, bounds, sizes


def solve_nonnegative_lp(D, trace, groups, gamma1, gamma2):
    """Solve :func:`build_nonnegative_lp` with HiGHS (one LP, no cutting plane needed): its
    default choice, or its interior-point method (with crossover) when the LP has more than
    :data:`DENSE_NNZ` non-zeros.  The LP has ``m (T + 1)`` non-zeros: its cost grows with
    features × widths × triplets."""
    start = time.perf_counter()
    c, A, b, bounds, sizes = build_nonnegative_lp(D, trace, groups, gamma1, gamma2)
    res = _linprog(c, A, b, bounds, nonnegative_methods(A.nnz))
    m, T = np.shape(D)
    x = res.x
    return LPResult(alpha=x[:m], eps=x[m:m + T], s=x[m + T:], objective=float(res.fun),
                    solve_time=time.perf_counter() - start, duals=-res.ineqlin.marginals[:T], **sizes)


def _nonnegative_from_stack(K, triplets, groups, gamma1, gamma2):
    K, t, g = _check_inputs(K, triplets, groups, gamma1, gamma2)
    return solve_nonnegative_lp(triplet_differences(K, t), np.einsum("pii->p", K), g, gamma1, gamma2)


def build_full_lp(K, triplets, groups, gamma1, gamma2, psd="dominance"):
    """The full LP (4)/(7) with the dominance block and auxiliary ``r_ij`` (sparse); with
    ``psd="nonnegative"`` the LP of :func:`build_nonnegative_lp` instead.

    Returns ``(c, A_ub, b_ub, bounds, sizes)``; ``A_ub x <= b_ub``."""
    K, t, g = _check_inputs(K, triplets, groups, gamma1, gamma2)
    if check_psd(psd) == "nonnegative":
        return build_nonnegative_lp(triplet_differences(K, t), np.einsum("pii->p", K), g,
                                    gamma1, gamma2)
    m, n, _ = K.shape
    T, G = t.shape[0], int(g.max()) + 1
    c0, A0, b0, bounds0, diag = _common_blocks(K, t, g, gamma1, gamma2)
    iu, ju = np.triu_indices(n, k=1)
    P = iu.size
    nvar = m + T + G + P
    r0 = m + T + G
    # pair rows: ±K^α_ij - r_ij <= 0   (2P rows, m + 1 non-zeros each)
    Kp = K[:, iu, ju].T                                            # (P, m)
    pr = np.arange(P)
    rows_alpha = np.repeat(np.arange(2 * P), m)
    cols_alpha = np.tile(np.arange(m), 2 * P)
    vals_alpha = np.concatenate([Kp.ravel(), -Kp.ravel()])
    rows_r = np.arange(2 * P)
    cols_r = r0 + np.concatenate([pr, pr])
    pair = sp.csr_matrix((np.concatenate([vals_alpha, -np.ones(2 * P)]),
                          (np.concatenate([rows_alpha, rows_r]), np.concatenate([cols_alpha, cols_r]))),
                         shape=(2 * P, nvar))
    del Kp, vals_alpha, rows_alpha, cols_alpha
    # row rows: -K^α_ii + sum_{j != i} r_ij <= 0   (n rows)
    rr = np.concatenate([np.repeat(np.arange(n), m), iu, ju])
    cc = np.concatenate([np.tile(np.arange(m), n), r0 + pr, r0 + pr])
    vv = np.concatenate([-diag.T.ravel(), np.ones(2 * P)])
    rowb = sp.csr_matrix((vv, (rr, cc)), shape=(n, nvar))
    A0 = sp.hstack([A0, sp.csr_matrix((A0.shape[0], P))], format="csr")
    A = sp.vstack([A0, pair, rowb], format="csr")
    c = np.concatenate([c0, np.zeros(P)])
    b = np.concatenate([b0, np.zeros(2 * P + n)])
    bounds = bounds0 + [(0, None)] * P
    sizes = {"n_variables": nvar, "n_constraints": A.shape[0], "nnz": int(A.nnz)}
    return c, A, b, bounds, sizes


def lp_sizes(n_points, n_kernels, n_triplets, n_groups):
    """Sizes of the full LP (4)/(7) without building it: ``P = n(n-1)/2`` pairs; variables
    ``m + T + G + P``; constraints ``T + 2m + 2P + n``; non-zeros
    ``T(m+1) + 4m + 2P(m+1) + nm + 2P``.  Also the sizes of the cutting-plane LP before any cut
    beyond ``K_ii >= 0`` (``nnz`` counts the dense α-rows)."""
    n, m, T, G = int(n_points), int(n_kernels), int(n_triplets), int(n_groups)
    P = n * (n - 1) // 2
    return {"pairs": P,
            "full_variables": m + T + G + P,
            "full_constraints": T + 2 * m + 2 * P + n,
            "full_nnz": T * (m + 1) + 4 * m + 2 * P * (m + 1) + n * m + 2 * P,
            "cut_variables": m + T + G,
            "cut_constraints_initial": T + 2 * m + n}


#: above this many non-zeros the α ≥ 0 LP goes to HiGHS's interior-point method first: its
#: triplet rows are dense (one entry per base kernel), and on such LPs (300 features × 3 widths,
#: 1 000 triplets, 9·10^5 non-zeros) the interior-point method with crossover took 3.5 s
#: against 51 s for dual simplex and 79 s for HiGHS's default choice, same optimum
DENSE_NNZ = 250_000


def nonnegative_methods(nnz):
    """HiGHS methods tried in turn on an ``α ≥ 0`` LP with ``nnz`` non-zeros: interior point
    first above :data:`DENSE_NNZ`, HiGHS's default choice first below."""
    return ("highs-ipm", "highs", "highs-ds") if nnz > DENSE_NNZ else ("highs", "highs-ipm", "highs-ds")


#: HiGHS options of the retry: the same tolerances, without HiGHS's scaling of the LP
UNSCALED_OPTIONS = {**HIGHS_OPTIONS, "simplex_scale_strategy": 0}


class LPScalingWarning(RuntimeWarning):
    """HiGHS solved an LP only without scaling it (:data:`UNSCALED_OPTIONS`)."""


def _linprog(c, A, b, bounds, methods=("highs", "highs-ipm", "highs-ds"), A_eq=None, b_eq=None):
    """Solve with HiGHS, trying ``methods`` in turn at the tolerances of :data:`HIGHS_OPTIONS`.

    HiGHS's default choice first; if it stops without a status (seen on LPs with all-ones kernel
    blocks from constant features), its interior-point method, then dual simplex.  When every
    method stops without a status, the same methods at the same tolerances without HiGHS's scaling
    (:data:`UNSCALED_OPTIONS`), with an :class:`LPScalingWarning`.  "Without a status" (HiGHS's
    model status "Not Set") is HiGHS's report that the solution of the scaled LP is not feasible
    for the LP itself; seen on weak-kernel LPs of soybean (kernel_design protocol, soybean_small,
    splits 1 and 2), whose coefficients span 1e-264 (narrow one-feature Gaussians of distant
    points) to 18, where all three methods fail scaled and solve unscaled, to the same objective."""
    for options in (HIGHS_OPTIONS, UNSCALED_OPTIONS):
        for method in methods:
            with warnings.catch_warnings():     # SciPy passes HiGHS's own option names on, with a warning
                warnings.filterwarnings("ignore", "Unrecognized options detected", OptimizeWarning)
                res = linprog(c, A_ub=A, b_ub=b, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method=method,
                              options=options)
            if res.status == 0:
                if options is UNSCALED_OPTIONS:
                    warnings.warn(f"HiGHS solved this LP ({A.shape[0]} rows, {A.shape[1]} columns) only without "
                                  "scaling it", LPScalingWarning, stacklevel=3)
                return res
    raise RuntimeError(f"HiGHS failed: {res.message}")


def objective_value(K, alpha, eps, s, gamma1, gamma2):
    """:math:`\\sum ε + γ_1 \\sum s + γ_2 \\operatorname{tr} K^α` on ``S``."""
    diag = np.einsum("pii->pi", np.asarray(K))
    return float(np.sum(eps) + gamma1 * np.sum(s) + gamma2 * diag.sum(axis=1) @ alpha)


def solve_full_lp(K, triplets, groups, gamma1, gamma2, psd="dominance"):
    """Solve formulation (4) (full kernels, ``groups = arange(m)``) or (7) (weak kernels,
    ``groups`` = feature of each kernel) as one LP with the dominance block (see module);
    ``psd="nonnegative"`` solves the ``α ≥ 0`` LP instead (:func:`solve_nonnegative_lp`).

    The returned point is HiGHS's, not cleaned.  Where the optimum is the zero mixture (weak
    kernels on real data, chapter 3, Section 4), HiGHS may stop at a point with ``|α|`` of order
    ``1e-12`` and ``s = 0``: the zero mixture up to its primal feasibility tolerance
    (:data:`HIGHS_OPTIONS`), at the same objective ``T`` within rounding, whose "kernel" orders
    test triples by rounding noise.  :func:`solve_cutting_plane` returns ``α = 0`` exactly there,
    and it is what :class:`~fsbook.kernel_design.KernelDesign` (``solver="auto"``) and the
    chapter's protocol use; compare this solver's ``α`` with a tolerance, not with ``== 0``."""
    if check_psd(psd) == "nonnegative":
        return _nonnegative_from_stack(K, triplets, groups, gamma1, gamma2)
    start = time.perf_counter()
    c, A, b, bounds, sizes = build_full_lp(K, triplets, groups, gamma1, gamma2)
    res = _linprog(c, A, b, bounds)
    m, T = np.asarray(K).shape[0], np.asarray(triplets).shape[0]
    G = int(np.max(groups)) + 1
    x = res.x
    return LPResult(alpha=x[:m], eps=x[m:m + T], s=x[m + T:m + T + G], objective=float(res.fun),
                    solve_time=time.perf_counter() - start, **sizes)


def dominance_violation(Kalpha):
    """Per row ``i``: :math:`\\sum_{j≠i} |K_{ij}| - K_{ii}` (≤ 0 means the row is dominant)."""
    Kalpha = np.asarray(Kalpha)
    absrow = np.abs(Kalpha).sum(axis=1) - np.abs(np.diag(Kalpha))
    return absrow - np.diag(Kalpha)


def solve_cutting_plane(K, triplets, groups, gamma1, gamma2, tol=1e-9, max_iter=500,
                        max_cuts_per_iter=None, psd="dominance"):
    """Solve the same LP as :func:`solve_full_lp` by constraint generation on the row form of
    diagonal dominance (see module docstring).

    The first LP carries the cuts ``K^α_ii ≥ 0`` (σ = 0), which keep it bounded.  After each
    solve, every row with :math:`\\sum_{j≠i}|K^α_{ij}| - K^α_{ii} > \\text{tol}\\,(1 + |K^α_{ii}|)`
    gets the cut with ``σ_j = sign(K^α_ij)`` (the most violated one; the ``max_cuts_per_iter``
    most violated rows when given).  Stops when no row is violated.  ``psd="nonnegative"`` has
    no dominance rows to generate: the ``α ≥ 0`` LP is solved at once
    (:func:`solve_nonnegative_lp`).
    """
    if check_psd(psd) == "nonnegative":
        return _nonnegative_from_stack(K, triplets, groups, gamma1, gamma2)
    start = time.perf_counter()
    K, t, g = _check_inputs(K, triplets, groups, gamma1, gamma2)
    m, n, _ = K.shape
    T, G = t.shape[0], int(g.max()) + 1
    c, A0, b0, bounds, diag = _common_blocks(K, t, g, gamma1, gamma2)
    nvar = m + T + G
    cuts = [-diag.T]                                 # -K^α_ii <= 0, one row per point
    history = []
    for it in range(1, max_iter + 1):
        C = np.vstack(cuts)
        A = sp.vstack([A0, sp.hstack([sp.csr_matrix(C), sp.csr_matrix((C.shape[0], nvar - m))])],
                      format="csr")
        b = np.concatenate([b0, np.zeros(C.shape[0])])
        res = _linprog(c, A, b, bounds)
        alpha = res.x[:m]
        Ka = np.tensordot(alpha, K, axes=1)
        viol = dominance_violation(Ka)
        bad = np.flatnonzero(viol > tol * (1.0 + np.abs(np.diag(Ka))))
        history.append({"iter": it, "objective": float(res.fun), "n_violated": int(bad.size),
                        "max_violation": float(max(viol.max(), 0.0))})
        if bad.size == 0:
            break
        if max_cuts_per_iter is not None and bad.size > max_cuts_per_iter:
            bad = bad[np.argsort(-viol[bad])[:max_cuts_per_iter]]
        sign = np.sign(Ka[bad])
        sign[np.arange(bad.size), bad] = 0.0
        # cut: -(K_ii - sum_j sign_ij K_ij) . α <= 0
        coef = np.einsum("pbj,bj->bp", K[:, bad, :], sign) - diag[:, bad].T
        cuts.append(coef)
    else:
        raise RuntimeError(f"cutting plane did not converge in {max_iter} LPs")
    x = res.x
    return LPResult(alpha=alpha, eps=x[m:m + T], s=x[m + T:m + T + G], objective=float(res.fun),
                    n_variables=nvar, n_constraints=A.shape[0], nnz=int(A.nnz), n_iter=it,
                    n_cuts=int(C.shape[0]), solve_time=time.perf_counter() - start,
                    history=history)


def solve_block_dominance(K, triplets, groups, gamma1, gamma2, blocks, tol=1e-9, max_iter=500):
    """Formulation (4)/(7) with diagonal dominance asked of principal submatrices of ``K^α`` only.

    ``blocks`` is an integer array ``(B, b)``: each row lists ``b ≥ 2`` distinct points of ``S``
    whose ``b × b`` submatrix of ``K^α`` must be diagonally dominant,
    :math:`K^α_{ii} ≥ \\sum_{j∈β, j≠i}|K^α_{ij}|` for every block ``β`` and ``i ∈ β``.  One block
    holding every point of ``S`` is the LP of :func:`solve_cutting_plane` (same optimum);
    ``blocks = triplets`` asks each triple's own ``3 × 3`` submatrix to be dominant (the
    smallest set ``S`` the paper's text allows, "a set of training points").  The objective and
    the triplet and group rows are those of :func:`solve_cutting_plane` (trace over all of
    ``S``), and the dominance rows are generated the same way: start from
    :math:`K^α_{ii} ≥ 0`, add for every violated block row the cut with
    ``σ_j = sign(K^α_ij)``, re-solve until no block row is violated.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.kernel_design import kernel_groups, kernel_stack, weak_kernel_specs
    >>> from fsbook.kernel_design.lp import solve_block_dominance, solve_cutting_plane
    >>> X = np.random.default_rng(0).normal(size=(12, 2))
    >>> specs = weak_kernel_specs(2, (1.0, 10.0))
    >>> K, (groups, _) = kernel_stack(specs, X), kernel_groups(specs)
    >>> t = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [0, 4, 8]])
    >>> whole = solve_block_dominance(K, t, groups, 1e-3, 1e-3, np.arange(12)[None, :])
    >>> bool(abs(whole.objective - solve_cutting_plane(K, t, groups, 1e-3, 1e-3).objective) < 1e-7)
    True
    >>> per_triple = solve_block_dominance(K, t, groups, 1e-3, 1e-3, t)
    >>> bool(per_triple.objective <= whole.objective + 1e-9)      # fewer rows: a relaxation
    True
    """
    start = time.perf_counter()
    K, t, g = _check_inputs(K, triplets, groups, gamma1, gamma2)
    m, n, _ = K.shape
    blk = np.asarray(blocks, dtype=np.int64)
    if blk.ndim != 2 or blk.shape[0] == 0 or blk.shape[1] < 2:
        raise ValueError(f"blocks must be a (B, b) integer array with B >= 1 and b >= 2, got {blk.shape}")
    if blk.min() < 0 or blk.max() >= n:
        raise ValueError("block indices out of range of S")
    if np.any(np.diff(np.sort(blk, axis=1), axis=1) == 0):
        raise ValueError("a block lists the same point twice")
    T, G = t.shape[0], int(g.max()) + 1
    c, A0, b0, bounds, diag = _common_blocks(K, t, g, gamma1, gamma2)
    nvar = m + T + G
    Kb = K[:, blk[:, :, None], blk[:, None, :]]                      # (m, B, b, b)
    eye = np.eye(blk.shape[1], dtype=bool)
    cuts = [-diag.T[np.unique(blk)]]                                  # -K^α_ii <= 0
    history = []
    for it in range(1, max_iter + 1):
        C = np.vstack(cuts)
        A = sp.vstack([A0, sp.hstack([sp.csr_matrix(C), sp.csr_matrix((C.shape[0], nvar - m))])],
                      format="csr")
        res = _linprog(c, A, np.concatenate([b0, np.zeros(C.shape[0])]), bounds)
        alpha = res.x[:m]
        Ka = np.tensordot(alpha, Kb, axes=1)                          # (B, b, b)
        d = np.diagonal(Ka, axis1=1, axis2=2)
        viol = np.where(eye, 0.0, np.abs(Ka)).sum(axis=2) - d
        bb, ii = np.nonzero(viol > tol * (1.0 + np.abs(d)))
        history.append({"iter": it, "objective": float(res.fun), "n_violated": int(bb.size),
                        "max_violation": float(max(viol.max(), 0.0))})
        if bb.size == 0:
            break
        sign = np.sign(Ka[bb, ii])                                    # (v, b)
        sign[np.arange(bb.size), ii] = 0.0
        coef = np.einsum("pvj,vj->vp", Kb[:, bb, ii, :], sign) - Kb[:, bb, ii, ii].T
        cuts.append(np.unique(coef, axis=0))
    else:
        raise RuntimeError(f"cutting plane did not converge in {max_iter} LPs")
    x = res.x
    return LPResult(alpha=alpha, eps=x[m:m + T], s=x[m + T:m + T + G], objective=float(res.fun),
                    n_variables=nvar, n_constraints=A.shape[0], nnz=int(A.nnz), n_iter=it,
                    n_cuts=int(C.shape[0]), solve_time=time.perf_counter() - start,
                    history=history)

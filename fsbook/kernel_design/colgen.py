"""Column generation for the ``α ≥ 0`` weak-kernel LP (``psd="nonnegative"``).

The LP of :func:`~fsbook.kernel_design.lp.build_nonnegative_lp`,

.. math::

   \\min \\sum_t ε_t + γ_1 \\sum_g s_g + γ_2 \\sum_p α_p \\operatorname{tr}_S K_p
   \\;\\text{s.t.}\\; D_{:,t}^\\top α + ε_t ≥ 1,\\; α_p ≤ s_g\\,(p∈I_g),\\; α, ε, s ≥ 0,

has one dense column per base kernel (``T`` non-zeros), and on wide data few of them end with a
non-zero weight.  Its dual is

.. math::

   \\max \\sum_t y_t \\;\\text{s.t.}\\; 0 ≤ y ≤ 1,\\;
   D_p^\\top y - γ_2 \\operatorname{tr}_S K_p ≤ z_p,\\;
   \\sum_{p∈I_g} z_p ≤ γ_1,\\; z ≥ 0,

so, given the duals ``y`` of the triplet rows, the smallest ``z`` is
:math:`z_p = (D_p^\\top y - γ_2 \\operatorname{tr}_S K_p)_+` and ``y`` is dual feasible for the
*full* LP exactly when every feature prices out:

.. math::

   π_g(y) = \\sum_{p∈I_g} \\big(D_p^\\top y - γ_2 \\operatorname{tr}_S K_p\\big)_+ - γ_1 ≤ 0.

At ``y = 1`` (``α = 0``, every ``ε_t = 1``) this is the zero condition of the module
:mod:`~fsbook.kernel_design.lp` (a feature's total gain against γ1).  :func:`solve_nonnegative_colgen`
solves the LP over a working set of kernels (all triplet rows, the group rows of the kernels
in the set), prices every kernel with the triplet duals, adds the kernels with a positive
:math:`(D_p^\\top y - γ_2\\operatorname{tr}_S K_p)_+` of the features with :math:`π_g > 0`, and
re-solves until no feature prices out.  The restricted optimum is then primal feasible for the
full LP (the missing ``α_p`` are zero) and its duals are dual feasible with the same objective:
it is the full LP's optimum.  A feature with :math:`π_g > 0` has at least one such kernel
outside the set (the kernels in the set satisfy their dual rows), so every round adds a column
and, as a kernel is dropped from the set at most once (``drop``), the method ends.

Each restricted LP is solved from scratch by HiGHS as the direct solve does
(:func:`~fsbook.kernel_design.lp.solve_nonnegative_lp`: its interior-point method with
crossover above :data:`~fsbook.kernel_design.lp.DENSE_NNZ` non-zeros, its default choice
below; :func:`scipy.optimize.linprog` returns the row duals), so when the first working set
holds every kernel (``m ≤ n_start``) the one LP solved is the direct solve's, vertex included.
We tried warm-started simplex (``highspy``, columns and rows added to the previous basis): it
was far slower on these LPs (dense, degenerate triplet rows: tens of thousands of pivots per
round on ARCENE 100 × 3 000; 29 644 pivots and 209 s for one round after an interior-point
start). Two other routes did not pay either: stopping the interior-point method early (no
crossover, tolerance 1e-4) did not cut its iterations (20–23 per round, as many as at the
default tolerance), and generating the triplet rows as well as the columns grew both sets
(1 576 kernels × 823 triplets at the end, 45 s of CPU, where 471 triplet rows are binding at the
optimum). Written by hand because no library does column generation for an LP given as a dense
matrix.

Measured (``benchmarks/kernel_design.py --arcene``, 100 ARCENE samples, 1 000 triplets, three
widths): at 3 000 features column generation took 26 s of CPU against 70 s for the direct
solve (2.7×; 9 restricted LPs, same optimum to 8e-15, α to 1e-11, same 397 features); at
10 000 features 49 s of CPU and 0.8 GB peak for the whole process (the direct solve: about
530 s and 3.1 GB).  The gain is bounded because a restricted LP costs HiGHS about as much per
non-zero as the full one, the optimum itself has about 480 non-zero weights on 1 000 dense
triplet rows, and 5–9 rounds are needed (the gain at ``y = 1`` ranks the optimum's features
poorly, so the first working set misses most of them).
"""
from __future__ import annotations

import time

import numpy as np

from fsbook.kernel_design.lp import (
    LPResult,
    _check_nonnegative_inputs,
    _linprog,
    build_nonnegative_lp,
    nonnegative_methods,
)

__all__ = ["kernel_prices", "feature_prices", "solve_nonnegative_colgen"]


def kernel_prices(D, y, trace, gamma2):
    """:math:`D_p^\\top y - γ_2 \\operatorname{tr}_S K_p` for every kernel ``p`` (the amount by
    which ``α_p`` would lower the objective per unit at the triplet duals ``y``, before the
    group penalty)."""
    return D @ y - gamma2 * trace


def feature_prices(r, groups, n_groups, gamma1):
    """:math:`π_g = \\sum_{p∈I_g} (r_p)_+ - γ_1` from the kernel prices ``r``; the full LP's dual
    is feasible at ``y`` exactly when every :math:`π_g ≤ 0`."""
    return np.bincount(groups, np.maximum(r, 0.0), minlength=n_groups) - gamma1


def _solve_restricted(D, trace, groups, P, gamma1, gamma2):
    """The LP over the kernels ``P`` (groups renumbered); returns ``(res, features)``."""
    features, local = np.unique(groups[P], return_inverse=True)
    c, A, b, bounds, sizes = build_nonnegative_lp(D[P], trace[P], local, gamma1, gamma2)
    return _linprog(c, A, b, bounds, nonnegative_methods(A.nnz)), features, sizes


def solve_nonnegative_colgen(D, trace, groups, gamma1, gamma2, n_start=600, n_add=600,
                             drop=1e-2, tol=1e-9, max_iter=500):
    """Solve the ``α ≥ 0`` LP (:func:`~fsbook.kernel_design.lp.solve_nonnegative_lp`) by
    column generation over its kernels (see module docstring).

    Parameters
    ----------
    D, trace, groups, gamma1, gamma2
        As for :func:`~fsbook.kernel_design.lp.build_nonnegative_lp`.
    n_start : int, default=600
        The first working set: the ``n_start`` kernels of largest price at ``y = 1``
        (largest :math:`\\sum_t D_{pt} - γ_2\\operatorname{tr}_S K_p`; ties to the smaller index).
    n_add : int, default=600
        At most this many kernels enter per round: those of largest price among the
        candidates (ties to the smaller index).
    drop : float or None, default=1e-2
        After a round that adds kernels, a kernel of the working set with ``α_p = 0`` and
        reduced cost above ``drop`` leaves it (keeps the restricted LPs small); each kernel
        leaves at most once, so the method still ends.  ``None``: the set only grows.
    tol : float, default=1e-9
        A feature prices out when :math:`π_g > \\text{tol}\\cdot\\max(1, γ_1)`.
    max_iter : int, default=500
        Restricted LPs at most (``RuntimeError`` beyond).

    Returns
    -------
    LPResult
        ``alpha`` of length ``m``, ``eps``, ``s`` over all groups (zero outside the working
        set); sizes of the last restricted LP; ``n_iter`` restricted LPs; ``history`` one dict
        per round (working set, objective, features priced out).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.kernel_design import solve_nonnegative_lp
    >>> rng = np.random.default_rng(0)
    >>> D, trace, groups = rng.uniform(-1, 1, (12, 30)), np.full(12, 10.0), np.arange(12) // 3
    >>> cg = solve_nonnegative_colgen(D, trace, groups, 0.1, 0.01, n_start=2, n_add=2)
    >>> ref = solve_nonnegative_lp(D, trace, groups, 0.1, 0.01)
    >>> bool(abs(cg.objective - ref.objective) <= 1e-9 * abs(ref.objective)), cg.n_iter > 1
    (True, True)
    """
    start = time.perf_counter()
    D, trace, g = _check_nonnegative_inputs(D, trace, groups, gamma1, gamma2)
    if n_start < 1 or n_add < 1:
        raise ValueError("n_start and n_add must be at least 1")
    m, T = D.shape
    G = int(g.max()) + 1
    inset = np.zeros(m, dtype=bool)
    left = np.zeros(m, dtype=bool)                         # kernels dropped once
    r = kernel_prices(D, np.ones(T), trace, gamma2)
    inset[np.argsort(-r, kind="stable")[:n_start]] = True
    history = []
    for it in range(1, max_iter + 1):
        P = np.flatnonzero(inset)
        res, features, sizes = _solve_restricted(D, trace, g, P, gamma1, gamma2)
        y = -res.ineqlin.marginals[:T]                    # duals of the triplet rows, ≥ 0
        r = kernel_prices(D, y, trace, gamma2)
        out = feature_prices(r, g, G, gamma1) > tol * max(1.0, gamma1)
        cand = np.flatnonzero(out[g] & (r > 0) & ~inset)
        history.append({"iter": it, "kernels": int(P.size), "features": int(features.size),
                        "objective": float(res.fun), "features_priced_out": int(out.sum())})
        if cand.size == 0:
            break
        inset[cand[np.argsort(-r[cand], kind="stable")[:n_add]]] = True
        if drop is not None:
            out_now = P[(res.x[:P.size] == 0) & (res.lower.marginals[:P.size] > drop) & ~left[P]]
            inset[out_now] = False
            left[out_now] = True
    else:
        raise RuntimeError(f"column generation did not converge in {max_iter} LPs")
    alpha = np.zeros(m)
    alpha[P] = res.x[:P.size]
    s = np.zeros(G)
    s[features] = res.x[P.size + T:]
    return LPResult(alpha=alpha, eps=res.x[P.size:P.size + T], s=s, objective=float(res.fun),
                    n_iter=it, solve_time=time.perf_counter() - start, history=history, **sizes)

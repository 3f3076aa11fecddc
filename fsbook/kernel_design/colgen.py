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

With ``start_iter > 0`` the first working set is the ``n_start`` kernels of largest weight after a few L-BFGS-B
iterations (:func:`squared_hinge_start`, :func:`scipy.optimize.minimize`) on a smooth relaxation
of the LP (the squared hinge in place of ``ε``, no group term).  The gain at ``y = 1`` (the
zero condition) ranks the optimum's kernels poorly: on ARCENE 100 × 3 000 its first 600 kernels
gave a restricted optimum of 578 (the LP's is 0.92) and 9 rounds; 20 L-BFGS-B iterations
(0.2 s of CPU) put 437 of the optimum's 474 non-zero kernels in their first 1 500, the first
restricted optimum is 0.9287 and 4 rounds follow (18 s of CPU against 28 s, same optimum to
1e-14, α to 2e-11, same support).  The optimum does not depend on this choice: whatever the
first set, the method ends only when every feature prices out.  Which optimal *vertex* it ends
at can: a degenerate LP (two features with the same kernel columns, as on colon) has a face of
optima, and another first set or the direct solve can return another vertex of it, with the
same objective and other group weights.  The tie rule (``tie="lexicographic"``, the default,
:func:`lexicographic_stage`) therefore solves a second LP over the optimal face: the smallest
:math:`\\sum_g w_g s_g` with weights increasing with the feature index, so a weight that can move
between features at no cost goes to the smaller index, as :func:`fsbook.decisions.top_k_mask`
breaks ties.  Its optimum depends on the LP's optimal value only, not on the vertex the first
stage returned, so the scores and the kept sets do not either.  With it the faster start is the
default (``start_iter=20, n_start=1000, margin=0.5, n_add=2000``, below);
:data:`LEGACY_OPTIONS` (``start_iter=0, n_start=600, n_add=600, margin=None, tie=None``) are the
settings of the stores' fits, which the book's protocols pass explicitly.  With the price margin
``margin=θ`` the set after a round is the restricted optimum's support and the kernels whose price at its
duals is within ``θ`` of their trace cost of entering (zero-weight kernels below it leave, at
most once), so the later rounds are smaller and fewer.  Adopting that start without the tie rule
changed results: with it as ``KernelDesign``'s setting, the benchmark's stored WK-LP tasks on colon
(2 000 features) recomputed with the same accuracies but other kept sets on 2 of the first 10
(repeat 3 fold 0, repeat 2 fold 1); on repeat 2 fold 1 the weight of one feature moves between
features 259, 261 and 262 (the vertices differ by 0.36 in group weight), and with the tie rule
the direct solve and four starts return the same kept sets and top-k cuts (k = 2 to 50), group
weights equal to 2e-9.

Each restricted LP is solved from scratch by HiGHS as the direct solve does
(:func:`~fsbook.kernel_design.lp.solve_nonnegative_lp`: its interior-point method with
crossover above :data:`~fsbook.kernel_design.lp.DENSE_NNZ` non-zeros, its default choice
below; :func:`scipy.optimize.linprog` returns the row duals), so when the first working set
holds every kernel (``m ≤ n_start``) the one LP solved is the direct solve's, vertex included.

What was tried (CPU seconds on ARCENE 100 × 3 000, 1 000 triplets, three widths; the direct
solve about 70–80 s; the measured profile of the old start: 96 % of the time inside HiGHS, 2 %
building the restricted LPs, pricing negligible, about 1 s for the kernels before the LP):

* warm-started simplex (``highspy``, columns and rows added to the previous basis): far slower
  when switched on early (29 644 pivots and 209 s for one round after an interior-point start;
  7 646 pivots and 27 s with 34 features still priced out), cheap only in the last rounds
  (441 and 239 pivots, 2.6 s and 1.2 s with 5 and 1 features priced out); 49 s in all with
  three interior-point rounds first;
* an early-stopped interior point (no crossover, tolerance 1e-4): as many iterations (20–23
  per round) as at the default tolerance;
* generating the triplet rows as well as the columns: both sets grew (1 576 kernels × 823
  triplets at the end, 45 s, where 471 triplet rows are binding at the optimum);
* warm-up rounds on evenly spread triplet subsamples (300, or 250 then 500 triplets) to choose
  the first working set: 31 s and 36 s, the full LP still needed 6–7 rounds;
* HiGHS's newer interior-point method (``solver="hipo"`` in ``highspy`` 1.15) and its
  first-order PDLP on a random LP of this shape (600 kernels × 300 triplets): 0.94 s and
  0.55 s against 0.06–0.53 s for the default interior-point method (PDLP 14 320 iterations, to
  1e-7 only), not pursued at full size.

* a smoothed-hinge start (Huber hinge of width δ = 1, 0.1, 0.01, 0.001, 20–80 L-BFGS-B
  iterations each; its gradient gives dual estimates :math:`y_δ = \\operatorname{clip}((1 -
  D^\\top α)/δ, 0, 1)`, the minimiser of the dual regularised by :math:`δ\\|y\\|^2/2`): ranking by
  ``α`` puts 95 % of the optimum's 474 kernels in the first 1 500 at δ = 0.1 (0.6 s), barely
  better than the squared hinge (92 %); ranking by the prices at :math:`y_δ` is far worse (47 %),
  because L-BFGS-B does not get near the LP's optimum (objective 1.75 against 0.92 after 2 s
  of CPU) and :math:`y_δ` stays far from the LP's duals (largest difference 1.0); not pursued;
* the price margin (``margin``, opt-in, below): the duals of the first restricted LP are
  already within 0.004 of the optimum's, so the next set is chosen from them: the restricted
  support and every kernel whose price is within ``θ`` of its trace cost of entering
  (θ = 0.5: 900 kernels holding 469 of the optimum's 474 after a first set of 1 500);
* triplet rows left out after the first round (``row_slack``, opt-in, rows of positive dual or
  slack ≤ σ): the rows left out come back over several rounds (5–6 rounds, with σ = 0, 0.3),
  each about as costly as a round on all rows: 5.5–5.8× against 7.8× without; failed;
* HiGHS's simplex from scratch on the restricted LPs (all rows): 2.1 s on the optimum's 474
  kernels (1 520 pivots) but 22.8 s on those and 400 others (14 801 pivots) against 3.2 s for
  the interior-point method; failed.

Side by side in one run (CPU seconds on the dumped LP of ``benchmarks/kernel_design.py``'s
ARCENE 100 × 3 000, kernels excluded; machine partly loaded): the direct solve 77.4 s; the old
default start 28–32 s (2.6× in the record); ``start_iter=20, n_start=1500`` 16.8 s (4.6×, 4
rounds); with ``margin=0.5`` 12.1 s (6.4×, 3 rounds); ``start_iter=20, n_start=1000,
margin=0.5, n_add=2000`` 10.0 s (7.8×, 3 rounds of 1 000, 960 and 849 kernels; repeated
10.05 s), the fastest found; ``n_start`` 700 / 1 200 and θ = 0.3 / 1.0 gave 5.3–6.7×.  Every
run: objectives equal to ≤ 3.1e-14 relative, α to ≤ 6.1e-11, the same 397 features.

With the tie rule solved through an objective row (:func:`lexicographic_stage`;
``benchmarks/kernel_design.py --arcene 3000``, side by side, objective row at the optimum
exactly, a record since replaced): the direct solve 74.2 s of CPU, the default 28.9 s (2.6×), of
which the second stage 16.4 s on a working set of about 900 kernels (the direct solve's second
stage, from its support, 14.6 s); the old start without it 30.8 s.  Every start (default, old
start with and without the tie rule, 300 kernels after 5 iterations) gave objectives equal to
≤ 2.4e-14 relative, the same 397 features and the same top-k cuts (k = 2 to 50), group weights
equal to ≤ 2e-9.

The second stage on the face described by complementary slackness (:func:`face_stage`, the
default since) needs no objective row and no column generation: on the same problem and the same
first-stage vertex (the default start, ``tie=None``), one LP on the 474 free kernels and 471
triplet rows (the 468 of positive dual tight, no row violated after) took 0.53 s of CPU against
13.7 s for the objective-row stage from the 478 kernels of zero price.  Its point has the first
stage's objective to 7.5e-15 relative (the objective-row stage's 1.1e-12 above, its
:data:`TIE_SLACK`), the same 397 features and top-k cuts (k = 2 to 50), group weights within
1.8e-7 of the objective-row stage's (the room that slack leaves).  The duals classify cleanly
there: no kernel price of absolute value between 1e-10 and 1e-6, no dual in (0, 1e-6].

Side by side with the face stage (``benchmarks/kernel_design.py --arcene 3000``, a record since
replaced): the direct solve 69.5 s of CPU (its second stage
0.56 s more), the default 12.6 s (5.5×, 4 LPs, the second stage 0.47 s), the old start without
the tie rule 25.3 s (2.8×), with it 24.5 s, 300 kernels after 5 iterations with it 19.5 s.  Every
run with the tie rule: the direct solve's objective to ≤ 4.8e-15 relative, its 397 features and
top-k cuts (k = 2 to 50), scores equal to ≤ 1.5e-12.  The second stage is no longer the cost:
the first stage's restricted LPs are.

Why 10× is not reached at 3 000 features: a restricted LP on all 1 000 triplet rows costs
HiGHS 2.5 s at the optimum's own 474 kernels, 3.6–4.4 s at 850–960 and 6 s at 1 500, so three
rounds cost about 10 s; on the optimum's 474 kernels and its 468 rows of positive dual the
LP costs 1.8 s (interior point) or 0.85 s (simplex, 967 pivots), so the remaining room is in
the rows, but generating them (above) needed more rounds than it saved.  Written by hand
because no library does column generation for an LP given as a dense matrix.

On all of ARCENE's 10 000 features (``benchmarks/kernel_design.py --only arcene``, both sizes side
by side in one run, record in ``benchmarks/results/kernel_design.json``): the direct solve
410.6 s of CPU and 3.12 GB at its peak, the default 27.1 s and 0.79 GB (15.2×), the old start
without the tie rule 48.5 s (8.5×); objectives equal to 3.4e-15 relative, the same kept set and
top-k cuts, scores equal to ≤ 4.4e-13.  In the same run at 3 000 features: 68.2 s against 11.0 s
(6.2×).  The ratio grows with the width because the direct LP grows with every kernel while
column generation's restricted LPs stay near the optimum's few hundred.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize

from fsbook.kernel_design.lp import (
    LPResult,
    _check_nonnegative_inputs,
    _linprog,
    build_nonnegative_lp,
    nonnegative_methods,
)

__all__ = ["kernel_prices", "feature_prices", "squared_hinge_start", "solve_nonnegative_colgen",
           "lexicographic_stage", "face_stage", "tie_weights", "LEGACY_OPTIONS", "TIES"]

#: the tie rules: ``None`` (the vertex HiGHS returns) or ``"lexicographic"``
#: (:func:`lexicographic_stage`)
TIES = (None, "lexicographic")

#: the settings of the stores' fits: the price-at-``y = 1`` start of 600 kernels, 600 added
#: per round, no price margin, the vertex HiGHS returns (no second stage)
LEGACY_OPTIONS = {"start_iter": 0, "n_start": 600, "n_add": 600, "margin": None, "tie": None}


def kernel_prices(D, y, trace, gamma2):
    """:math:`D_p^\\top y - γ_2 \\operatorname{tr}_S K_p` for every kernel ``p`` (the amount by
    which ``α_p`` would lower the objective per unit at the triplet duals ``y``, before the
    group penalty)."""
    return D @ y - gamma2 * trace


def feature_prices(r, groups, n_groups, gamma1):
    """:math:`π_g = \\sum_{p∈I_g} (r_p)_+ - γ_1` from the kernel prices ``r``; the full LP's dual
    is feasible at ``y`` exactly when every :math:`π_g ≤ 0`."""
    return np.bincount(groups, np.maximum(r, 0.0), minlength=n_groups) - gamma1


def squared_hinge_start(D, cost, n_iter):
    """Kernel weights after ``n_iter`` L-BFGS-B iterations (from ``α = 0``) on the smooth relaxation
    :math:`\\min_{α≥0} \\tfrac12\\sum_t (1 - D_{:,t}^\\top α)_+^2 + \\text{cost}^\\top α` of the LP
    (squared hinge in place of ``ε``, no group term); their ranking chooses the first working set.

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[1.0, 1.0], [-1.0, 0.5], [0.0, 0.0]])
    >>> a = squared_hinge_start(D, np.full(3, 0.01), 20)
    >>> bool(a[0] > a[1] >= 0), float(a[2])
    (True, 0.0)
    """
    def fun(a):
        u = np.maximum(1.0 - D.T @ a, 0.0)
        return 0.5 * (u @ u) + cost @ a, cost - D @ u
    res = minimize(fun, np.zeros(D.shape[0]), jac=True, method="L-BFGS-B",
                   bounds=[(0.0, None)] * D.shape[0], options={"maxiter": int(n_iter)})
    return res.x


def _solve_restricted(D, trace, groups, P, gamma1, gamma2, rows=None, tie=None):
    """The LP over the kernels ``P`` (groups renumbered) and the triplet rows ``rows`` (all
    when ``None``); returns ``(res, features, sizes)``.  ``tie=(bound, weights)``: the second
    stage of :func:`lexicographic_stage` instead (objective ``Σ weights_g s_g``, one more row
    ``c·x ≤ bound``)."""
    features, local = np.unique(groups[P], return_inverse=True)
    DP = D[P] if rows is None else D[np.ix_(P, rows)]
    c, A, b, bounds, sizes = build_nonnegative_lp(DP, trace[P], local, gamma1, gamma2)
    if tie is not None:
        c, A, b = _tie_lp(c, A, b, features, *tie)
        sizes = {**sizes, "n_constraints": A.shape[0], "nnz": int(A.nnz)}
    return _linprog(c, A, b, bounds, nonnegative_methods(A.nnz)), features, sizes


def _tie_lp(c, A, b, features, bound, weights):
    """The second-stage LP from the first stage's ``(c, A, b)`` (kernels first, groups
    ``features`` last): objective ``Σ_g w_g s_g``, the row ``c·x ≤ bound`` appended."""
    G = features.size
    c2 = np.zeros_like(c)
    c2[c.size - G:] = weights[features]
    A2 = sp.vstack([A, sp.csr_matrix(c[None, :])], format="csr")
    return c2, A2, np.append(b, bound)


def tie_weights(n_groups):
    """Weights :math:`w_g = 1 + g / G` of the second stage's objective :math:`\\sum_g w_g s_g`
    (:func:`lexicographic_stage`): among optimal points, the one of smallest weighted group
    sum, so a weight that can move between features at no cost goes to the smaller index
    (the tie rule of :func:`fsbook.decisions.top_k_mask`).

    Examples
    --------
    >>> tie_weights(4)
    array([1.  , 1.25, 1.5 , 1.75])
    """
    return 1.0 + np.arange(n_groups) / n_groups


#: relative tolerance of :func:`face_stage`'s check: its point's objective must equal the first
#: stage's optimum to this, or the stage falls back to :func:`lexicographic_stage`
FACE_RTOL = 1e-9

#: relative slack of the second stage's objective row: with the row at the optimum exactly
#: HiGHS failed on the second LP of colon (benchmark repeat 0 fold 0: status unknown with every
#: method); 1e-9 let the point move by 1e-6 (α, in the unit tests) at 2e-8 relative in the
#: objective on colon; 1e-12 solves it at 2e-12
TIE_SLACK = 1e-12


def _tie_bound(objective):
    """Right-hand side of the second stage's objective row: the first stage's optimum plus
    :data:`TIE_SLACK` relative."""
    return float(objective) + TIE_SLACK * max(1.0, abs(float(objective)))


def lexicographic_stage(D, trace, groups, gamma1, gamma2, first, start=None, tol=1e-9,
                        n_add=2000, max_iter=500):
    """The optimal point of the ``α ≥ 0`` LP chosen by a second, lexicographic objective.

    When the LP is degenerate its optimal set is a face with more than one vertex, and which
    vertex a solve returns depends on the solver's path (another first working set of
    :func:`solve_nonnegative_colgen`, or the direct solve).  This stage solves

    .. math::

       \\min \\sum_g w_g s_g \\;\\text{s.t. the LP's rows and}\\;
       \\sum_t ε_t + γ_1 \\sum_g s_g + γ_2 \\sum_p α_p \\operatorname{tr}_S K_p ≤ f^*,

    with :math:`f^*` the first stage's optimum (plus :data:`TIE_SLACK` relative, so the LP
    has an interior) and :func:`tie_weights` ``w``: the LP's optimal face, where a group weight that can move between features at no cost goes to the
    smaller feature index.  Its optimum does not depend on the vertex ``first`` is (it
    depends on :math:`f^*` only, which every optimal vertex shares), so the scores
    :math:`s_g` and the kept sets built from them do not either.  It is solved by column
    generation like the first stage: its dual prices a kernel by
    :math:`D_p^\\top y - λ γ_2 \\operatorname{tr}_S K_p` (``λ`` the dual of the objective
    row) and a feature against :math:`w_g + λ γ_1`; ``start=None`` solves it over every
    kernel at once (the direct solve's second stage).

    Parameters
    ----------
    D, trace, groups, gamma1, gamma2
        As for :func:`~fsbook.kernel_design.lp.build_nonnegative_lp`.
    first : LPResult
        An optimum of the LP (any vertex).
    start : array of int or None, default=None
        The kernels of the first working set (the support of ``first.alpha`` is added);
        ``None``: every kernel, one LP.  An empty set (``first`` is ``α = 0`` and the start
        holds no kernel) returns ``first``: the caller passes the kernels of non-negative
        price, and without any every optimum has ``α = 0``.  Whatever the start, the rounds end only when every
        feature prices out, so the optimum is the full second-stage LP's.
    tol, n_add, max_iter
        As for :func:`solve_nonnegative_colgen`; a feature prices out when its price exceeds
        ``tol`` times its cost :math:`\\max(1, w_g + λγ_1)` times the largest kernel price
        :math:`\\max(1, \\max_p |D_p^\\top y - λγ_2\\operatorname{tr}_S K_p|)` (the prices
        scale with ``λ``, and so do their rounding errors).

    Returns
    -------
    LPResult
        The point of the face, with its objective :math:`f` of the LP (equal to
        :math:`f^*` within HiGHS's feasibility tolerance) and ``history`` of the rounds
        (CPU seconds of each in ``cpu_seconds``).

    Examples
    --------
    Two features with the same kernel columns: every split of the weight between them is
    optimal, and the second stage puts it on the smaller index.

    >>> import numpy as np
    >>> from fsbook.kernel_design import solve_nonnegative_lp
    >>> rng = np.random.default_rng(0)
    >>> D = np.repeat(rng.uniform(-0.2, 1, (1, 20)), 2, axis=0)
    >>> trace, groups = np.full(2, 5.0), np.array([0, 1])
    >>> first = solve_nonnegative_lp(D, trace, groups, 0.1, 0.01)
    >>> tied = lexicographic_stage(D, trace, groups, 0.1, 0.01, first)
    >>> bool(abs(tied.objective - first.objective) <= 1e-9 * first.objective)
    True
    >>> bool(tied.s[0] > 0), float(tied.s[1])
    (True, 0.0)
    """
    start_time = time.perf_counter()
    D, trace, g = _check_nonnegative_inputs(D, trace, groups, gamma1, gamma2)
    m, T = D.shape
    G = int(g.max()) + 1
    w = tie_weights(G)
    tie = (_tie_bound(first.objective), w)
    inset = np.ones(m, dtype=bool) if start is None else np.zeros(m, dtype=bool)
    if start is not None:
        inset[np.asarray(start, dtype=np.int64)] = True
        inset[np.asarray(first.alpha) > 0] = True
    if not inset.any():
        # α = 0 and every kernel of negative price at the first stage's duals: each has a
        # positive reduced cost, so α = 0 in every optimum and the face is this one point
        return dataclasses.replace(first, n_iter=0, history=[])
    history = []
    for it in range(1, max_iter + 1):
        cpu = time.process_time()
        P = np.flatnonzero(inset)
        res, features, sizes = _solve_restricted(D, trace, g, P, gamma1, gamma2, tie=tie)
        y = -res.ineqlin.marginals[:T]
        lam = -res.ineqlin.marginals[-1]
        r = kernel_prices(D, y, trace, lam * gamma2)
        cost = w + lam * gamma1
        # the prices scale with λ, and so do their rounding errors
        out = feature_prices(r, g, G, cost) > tol * max(1.0, np.abs(r).max()) * np.maximum(1.0, cost)
        cand = np.flatnonzero(out[g] & (r > 0) & ~inset)
        history.append({"iter": it, "kernels": int(P.size), "objective": float(res.fun),
                        "features_priced_out": int(out.sum()),
                        "cpu_seconds": time.process_time() - cpu})
        if cand.size == 0:
            break
        inset[cand[np.argsort(-r[cand], kind="stable")[:n_add]]] = True
    else:
        raise RuntimeError(f"the second stage did not converge in {max_iter} LPs")
    x = np.maximum(res.x, 0.0)            # HiGHS may return -1e-12 for a variable at its bound 0
    alpha = np.zeros(m)
    alpha[P] = x[:P.size]
    s = np.zeros(G)
    s[features] = x[P.size + T:]
    eps = x[P.size:P.size + T]
    objective = float(eps.sum() + gamma1 * s.sum() + gamma2 * trace @ alpha)
    return LPResult(alpha=alpha, eps=eps, s=s, objective=objective, n_iter=it,
                    solve_time=time.perf_counter() - start_time, history=history, **sizes)


def _face_sets(D, trace, g, gamma1, gamma2, first, tol):
    """The sets that describe the optimal face by complementary slackness with the optimal
    dual ``(y, (r)_+)`` of ``first`` (see :func:`face_stage`): the kernels free on the face,
    the triplet rows held tight, the rows whose slack ``ε_t`` may be positive, the kernels held
    at their group's bound.  Each is widened to keep ``first``'s point in the face (a
    classification that rounding errors flip)."""
    y = np.asarray(first.duals, dtype=np.float64)
    G = int(g.max()) + 1
    r = kernel_prices(D, y, trace, gamma2)
    kernel_tol = tol * np.maximum(1.0, gamma2 * trace)
    group_free = feature_prices(r, g, G, gamma1) >= -tol * max(1.0, gamma1)
    alpha, eps = np.asarray(first.alpha), np.asarray(first.eps)
    free = np.flatnonzero(((r >= -kernel_tol) & group_free[g]) | (alpha > 0))
    slack = D.T @ alpha + eps - 1.0
    tight = (y > tol) & (slack <= tol)
    with_eps = (y >= 1.0 - tol) | (eps > 0)
    s_first = np.asarray(first.s)
    at_bound = (r[free] > kernel_tol[free]) & (s_first[g[free]] - alpha[free] <= tol)
    return free, tight, with_eps, at_bound


def _face_lp(D, g, free, rows, tight, with_eps, at_bound, weights):
    """The second stage's LP over the face on the kernels ``free`` and the triplet ``rows``
    (equalities where ``tight``): variables ``α_free``, the ``ε_t`` of ``with_eps`` among the
    rows, the free kernels' group bounds; returns ``(c, A_ub, b_ub, A_eq, b_eq, features,
    eps_rows)``."""
    features, local = np.unique(g[free], return_inverse=True)
    n, F = free.size, features.size
    eps_rows = rows[with_eps[rows]]
    E = eps_rows.size
    # triplet rows: D_t·α + ε_t ≥ 1 (or = 1)
    Dt = sp.csr_matrix(D[np.ix_(free, rows)].T)
    Et = sp.csr_matrix((np.ones(E), (np.searchsorted(rows, eps_rows), np.arange(E))),
                       shape=(rows.size, E))
    trip = sp.hstack([Dt, Et, sp.csr_matrix((rows.size, F))], format="csr")
    # group rows: α_p - s_g ≤ 0 (or = 0)
    grp = sp.hstack([sp.identity(n, format="csr"), sp.csr_matrix((n, E)),
                     sp.csr_matrix((-np.ones(n), (np.arange(n), local)), shape=(n, F))],
                    format="csr")
    is_tight = tight[rows]
    A_ub = sp.vstack([-trip[~is_tight], grp[~at_bound]], format="csr")
    b_ub = np.concatenate([-np.ones(int((~is_tight).sum())), np.zeros(int((~at_bound).sum()))])
    A_eq = sp.vstack([trip[is_tight], grp[at_bound]], format="csr")
    b_eq = np.concatenate([np.ones(int(is_tight.sum())), np.zeros(int(at_bound.sum()))])
    c = np.concatenate([np.zeros(n + E), weights[features]])
    return c, A_ub, b_ub, A_eq, b_eq, features, eps_rows


def face_stage(D, trace, groups, gamma1, gamma2, first, tol=1e-9, n_add=2000, max_iter=500):
    """The point of :func:`lexicographic_stage`, computed on the optimal face described by
    complementary slackness instead of through an objective row.

    ``first`` must carry the triplet rows' duals ``y`` (``first.duals``) of an optimum, dual
    feasible for the whole LP (every feature prices out: the end of
    :func:`solve_nonnegative_colgen`, or the direct solve).  With the kernel prices
    :math:`r = D y - γ_2 \\operatorname{tr}_S K` and :math:`ζ = (r)_+` (the duals of the rows
    :math:`α_p ≤ s_g`), ``(y, ζ)`` is dual feasible (:math:`\\sum_{p∈I_g} ζ_p ≤ γ_1`) with dual
    objective :math:`\\sum_t y_t = f^*`, so optimal, and for every feasible point

    .. math::

       f(x) - f^* = \\sum_p (r_p)_- α_p - \\sum_g π_g s_g + \\sum_t (1 - y_t) ε_t
       + \\sum_t y_t (D_{:,t}^\\top α + ε_t - 1) + \\sum_p ζ_p (s_{g(p)} - α_p),

    every term non-negative.  A feasible point is optimal exactly when each term is zero: the
    optimal face is the feasible set with :math:`α_p = 0` where :math:`r_p < 0` or
    :math:`π_{g(p)} < 0`, :math:`ε_t = 0` where :math:`y_t < 1`, the row of triplet ``t`` an
    equality where :math:`y_t > 0`, and :math:`α_p = s_{g(p)}` where :math:`r_p > 0`.  The
    second stage's LP, :math:`\\min \\sum_g w_g s_g` over that set, is therefore the face's LP
    of :func:`lexicographic_stage` without its dense objective row (whose slack,
    :data:`TIE_SLACK`, that stage needs to stay solvable), on the free kernels only: no
    kernel outside them can enter, so no column generation.  Its rows with :math:`y_t = 0`
    (inequalities, mostly slack) are generated: the LP on a subset of them is a relaxation,
    and when its optimum satisfies the others (with :math:`ε_t = 0`) it is the optimum on all
    of them.  "Zero" is read with the tolerance ``tol`` (scaled as in
    :func:`solve_nonnegative_colgen`), widened so that ``first`` stays in the set; the point
    found is checked against the LP: its objective must equal :math:`f^*` to
    :data:`FACE_RTOL` relative, and otherwise :func:`lexicographic_stage` is solved instead
    (``history`` says which).

    Parameters
    ----------
    D, trace, groups, gamma1, gamma2
        As for :func:`~fsbook.kernel_design.lp.build_nonnegative_lp`.
    first : LPResult
        An optimum of the LP with its triplet duals (``duals``).
    tol, n_add, max_iter
        ``tol``: the tolerance of "zero"; at most ``n_add`` violated rows enter per round, at
        most ``max_iter`` LPs.

    Returns
    -------
    LPResult
        As :func:`lexicographic_stage`.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.kernel_design import solve_nonnegative_lp
    >>> rng = np.random.default_rng(0)
    >>> D = np.repeat(rng.uniform(-0.2, 1, (1, 20)), 2, axis=0)
    >>> trace, groups = np.full(2, 5.0), np.array([0, 1])
    >>> first = solve_nonnegative_lp(D, trace, groups, 0.1, 0.01)
    >>> tied = face_stage(D, trace, groups, 0.1, 0.01, first)
    >>> bool(abs(tied.objective - first.objective) <= 1e-9 * first.objective)
    True
    >>> bool(tied.s[0] > 0), float(tied.s[1])
    (True, 0.0)
    """
    start_time = time.perf_counter()
    D, trace, g = _check_nonnegative_inputs(D, trace, groups, gamma1, gamma2)
    if first.duals is None:
        raise ValueError("face_stage needs the first stage's duals (first.duals)")
    m, T = D.shape
    G = int(g.max()) + 1
    w = tie_weights(G)
    free, tight, with_eps, at_bound = _face_sets(D, trace, g, gamma1, gamma2, first, tol)
    if free.size == 0:
        return dataclasses.replace(first, n_iter=0, history=[])   # α = 0 on the whole face
    rows = np.flatnonzero(tight | (D[free].T @ first.alpha[free] + first.eps - 1.0 <= tol))
    history = []
    for it in range(1, max_iter + 1):
        cpu = time.process_time()
        c, A_ub, b_ub, A_eq, b_eq, features, eps_rows = _face_lp(D, g, free, rows, tight,
                                                                 with_eps, at_bound, w)
        res = _linprog(c, A_ub, b_ub, None, nonnegative_methods(A_ub.nnz + A_eq.nnz),
                       A_eq=A_eq, b_eq=b_eq)
        x = np.maximum(res.x, 0.0)
        alpha = np.zeros(m)
        alpha[free] = x[:free.size]
        out = np.setdiff1d(np.arange(T), rows)
        margin = alpha[free] @ D[np.ix_(free, out)]
        violated = out[margin < 1.0 - tol]
        history.append({"iter": it, "kernels": int(free.size), "rows": int(rows.size),
                        "rows_violated": int(violated.size), "objective": float(res.fun),
                        "method": "face", "cpu_seconds": time.process_time() - cpu})
        if violated.size == 0:
            break
        worst = np.argsort(margin[np.searchsorted(out, violated)], kind="stable")[:n_add]
        rows = np.union1d(rows, violated[worst])
    else:
        raise RuntimeError(f"the second stage did not converge in {max_iter} LPs")
    eps = np.zeros(T)
    eps[eps_rows] = x[free.size:free.size + eps_rows.size]
    s = np.zeros(G)
    s[features] = x[free.size + eps_rows.size:]
    objective = float(eps.sum() + gamma1 * s.sum() + gamma2 * trace @ alpha)
    nnz = int(A_ub.nnz + A_eq.nnz)
    result = LPResult(alpha=alpha, eps=eps, s=s, objective=objective, n_iter=it,
                      solve_time=time.perf_counter() - start_time, history=history,
                      n_variables=c.size, n_constraints=A_ub.shape[0] + A_eq.shape[0], nnz=nnz,
                      duals=first.duals)
    if abs(objective - first.objective) <= FACE_RTOL * max(1.0, abs(first.objective)):
        return result
    near = np.flatnonzero(kernel_prices(D, first.duals, trace, gamma2)
                          >= -tol * np.maximum(1.0, gamma2 * trace))
    fallback = lexicographic_stage(D, trace, g, gamma1, gamma2, first, start=near, tol=tol,
                                   n_add=n_add, max_iter=max_iter)
    fallback.history = history + [{**h, "method": "objective row"} for h in fallback.history]
    fallback.n_iter += it
    return fallback


def solve_nonnegative_colgen(D, trace, groups, gamma1, gamma2, n_start=1000, n_add=2000,
                             drop=1e-2, tol=1e-9, max_iter=500,
                             start_iter=20, margin=0.5, row_slack=None, tie="lexicographic"):
    """Solve the ``α ≥ 0`` LP (:func:`~fsbook.kernel_design.lp.solve_nonnegative_lp`) by
    column generation over its kernels (see module docstring).

    Parameters
    ----------
    D, trace, groups, gamma1, gamma2
        As for :func:`~fsbook.kernel_design.lp.build_nonnegative_lp`.
    n_start : int, default=1000
        The first working set: the ``n_start`` kernels of largest weight in
        :func:`squared_hinge_start` (``start_iter`` iterations), or with ``start_iter=0`` of
        largest price at ``y = 1`` (:math:`\\sum_t D_{pt} - γ_2\\operatorname{tr}_S K_p`); ties
        to the smaller index.
    n_add : int, default=2000
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
    start_iter : int, default=20
        L-BFGS-B iterations of :func:`squared_hinge_start` that rank the kernels for the first
        working set; ``0``: rank by the price at ``y = 1`` instead (the old start of
        :data:`LEGACY_OPTIONS`).  With ``m ≤ n_start`` every kernel is in the first set and no
        ranking is computed.
    margin : float or None, default=0.5
        ``None``: after a round, the kernels of positive price of the features that price out
        enter (at most ``n_add``) and ``drop`` decides which leave.  A number ``θ ≥ 0``: every
        kernel outside the set of price :math:`r_p > -θ\\,γ_2\\operatorname{tr}_S K_p` enters
        (largest price first, at most ``n_add``; the kernels of positive price come first, so a
        round that does not end still adds one), and a kernel of the set with ``α_p = 0`` and
        :math:`r_p ≤ -θ\\,γ_2\\operatorname{tr}_S K_p` leaves (at most once): the next set is the
        restricted optimum's support and the kernels whose price is within a fraction ``θ`` of
        their trace cost of entering (``drop`` is not used).
    row_slack : float or None, default=None
        ``None``: every restricted LP has all ``T`` triplet rows.  A number ``σ ≥ 0``: after the
        first round only the triplet rows of positive dual or of slack
        :math:`D_{:,t}^\\top α - 1 ≤ σ` stay (rows leave once); a later round whose ``α``
        violates a row left out (:math:`D_{:,t}^\\top α < 1 - \\text{tol}`) takes it back and
        does not end.  A round ends the method only when no row left out is violated (``ε_t = 0``
        is then feasible for it, with dual 0) and no feature prices out.
    tie : {"lexicographic", None}, default="lexicographic"
        ``"lexicographic"``: the optimal point of :func:`lexicographic_stage`, started from the
        kernels of the last restricted LP's support and of non-negative price (its rounds in
        ``history`` with ``"stage": 2``); the same point whatever vertex the rounds end at.
        ``None``: the vertex HiGHS returns for the last restricted LP.

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
    if start_iter < 0:
        raise ValueError(f"start_iter must be at least 0, got {start_iter}")
    if row_slack is not None and not row_slack >= 0:
        raise ValueError(f"row_slack must be None or at least 0, got {row_slack}")
    if margin is not None and not margin >= 0:
        raise ValueError(f"margin must be None or at least 0, got {margin}")
    if tie not in TIES:
        raise ValueError(f"tie must be one of {TIES}, got {tie!r}")
    m, T = D.shape
    G = int(g.max()) + 1
    inset = np.zeros(m, dtype=bool)
    left = np.zeros(m, dtype=bool)                         # kernels dropped once
    if start_iter and m > n_start:
        score = squared_hinge_start(D, gamma2 * trace, start_iter)
    else:
        score = kernel_prices(D, np.ones(T), trace, gamma2)
    inset[np.argsort(-score, kind="stable")[:n_start]] = True
    history = []
    rows = np.arange(T)
    for it in range(1, max_iter + 1):
        cpu = time.process_time()
        P = np.flatnonzero(inset)
        res, features, sizes = _solve_restricted(D, trace, g, P, gamma1, gamma2,
                                                 None if rows.size == T else rows)
        R = rows.size
        y = np.zeros(T)
        y[rows] = -res.ineqlin.marginals[:R]              # duals of the triplet rows, ≥ 0
        r = kernel_prices(D, y, trace, gamma2)
        out = feature_prices(r, g, G, gamma1) > tol * max(1.0, gamma1)
        cand = np.flatnonzero(out[g] & (r > 0) & ~inset)
        missing = np.zeros(0, dtype=np.int64)
        if R < T:                                         # rows left out, must hold with ε_t = 0
            left_out = np.setdiff1d(np.arange(T), rows)
            margin_out = res.x[:P.size] @ D[np.ix_(P, left_out)]
            missing = left_out[margin_out < 1.0 - tol]
        history.append({"iter": it, "kernels": int(P.size), "features": int(features.size),
                        "rows": int(R), "objective": float(res.fun),
                        "features_priced_out": int(out.sum()), "rows_violated": int(missing.size),
                        "cpu_seconds": time.process_time() - cpu})
        if cand.size == 0 and missing.size == 0:
            break
        if missing.size:
            rows = np.union1d(rows, missing)
        elif it == 1 and row_slack is not None:
            slack = res.x[:P.size] @ D[P] - 1.0
            rows = np.flatnonzero((y > 0) | (slack <= row_slack))
        if cand.size == 0:
            continue
        if margin is not None:
            near = r > -margin * gamma2 * trace
            cand = np.flatnonzero(near & ~inset)
            inset[cand[np.argsort(-r[cand], kind="stable")[:n_add]]] = True
            out_now = P[(res.x[:P.size] == 0) & ~near[P] & ~left[P]]
            inset[out_now] = False
            left[out_now] = True
            continue
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
    s[features] = res.x[P.size + R:]
    eps = np.zeros(T)
    eps[rows] = res.x[P.size:P.size + R]
    first = LPResult(alpha=alpha, eps=eps, s=s, objective=float(res.fun), n_iter=it,
                     solve_time=time.perf_counter() - start, history=history, duals=y, **sizes)
    if tie is None:
        return first
    second = face_stage(D, trace, g, gamma1, gamma2, first, tol=tol, n_add=n_add,
                        max_iter=max_iter)
    second.n_iter += it
    second.history = history + [{"stage": 2, **h, "iter": it + h["iter"]} for h in second.history]
    second.solve_time = time.perf_counter() - start
    return second

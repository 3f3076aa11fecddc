"""The restricted problem (2)–(3) solved in the primal as one conic program (Clarabel).

On an active set ``A`` (hull-closed, top node first) the restricted problem is

    min_{w, b, ξ} ½ (Σ_{v∈A} δ_v ||w_{D_A(v)}||_p)² + C 1ᵀξ
    s.t. y_i (Σ_{u∈A} w_u ψ_u(x_i) + b) ≥ 1 − ξ_i,  ξ ≥ 0,

a hierarchically group-penalised linear model on the explicit node features ``Ψ`` (every node
kernel has rank one, ``K_u = ψ_u ψ_uᵀ``, so the kernel expansion ``w_u = σ_u s_u`` of the
mirror-descent solver is a weight per column of ``Ψ``).  With epigraph variables
``r_v ≥ ||w_{D_A(v)}||_p`` and ``t ≥ Σ_v δ_v r_v`` it is the conic program

    min ½ t² + C 1ᵀξ   s.t.   y∘(Ψw + b1) + ξ ≥ 1,  ξ ≥ 0,  t ≥ δᵀr,
                              (r_v, w_{D_A(v)}) ∈ second-order cone           (p = 2),
                              |w_u| ≤ s_{vu}^{1/p} r_v^{1−1/p}, Σ_{u∈D_A(v)} s_{vu} = r_v (p < 2,
                              power cones: Σ_u |w_u|^p / r_v^{p−1} ≤ r_v, i.e. r_v ≥ ||w||_p),

which one interior-point solve (Clarabel: sparse LDLᵀ of the KKT system, ``Ψ`` kept sparse)
solves to high accuracy, in place of the mirror descent on ``η`` with one SVM per step of
:func:`fsbook.hkl.solver.solve_active_set`'s reference path.  The multipliers of the margin
constraints are a dual point ``α ∈ τ(y, C)`` (stationarity in ``ξ``: ``α + μ = C``; in ``b``:
``yᵀα = 0``), which is all the duality-gap certificate and the sufficiency condition need:
they are evaluated from ``(w, b, α)`` exactly as for the reference solver, so a loose conic
solve can only loosen the certified gap, never fake it.

With sample weights ``s_i`` (:class:`fsbook.hkl.HKLProblem`'s ``sample_weight``) the loss is
``Σ_i C s_i ξ_i``: the cost vector ``q`` of the ``ξ`` carries ``C s_i`` and the multipliers lie in
the box ``0 ≤ α_i ≤ C s_i``; nothing else changes.

The ``η`` of the result is the maximiser of ``F_s`` (:meth:`RestrictedProblem.dual_norm`) at
``s = Ψᵀ(α∘y)``; at the optimum it is the ``η`` of the reduced dual (8) (for ``p = 2``,
``η_v ∝ δ_v ||w_{D(v)}||``).
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from fsbook.hkl.smo import _feasible_start

__all__ = ["restricted_conic", "restricted_working_set", "conic_program"]


def conic_program(Psi, y, C, d, M, p):
    """The conic form ``(P, q, A, b, cones)`` of the restricted problem (Clarabel's standard form
    ``min ½xᵀPx + qᵀx`` s.t. ``Ax + s = b``, ``s ∈ K``).

    Variables, in order: ``w`` (k), ``b`` (1), ``ξ`` (m), ``r`` (k), ``t`` (1) and, for
    ``p < 2``, ``s_{vu}`` (one per pair ``u ∈ D_A(v)``).

    Parameters
    ----------
    Psi : scipy.sparse matrix (m, k)
        Node features ``ψ_u(x_i)``.
    y : ndarray (m,), ±1
    C : float or ndarray (m,)
        The cost of ``ξ``: one, or one per sample (``C s_i`` with sample weights ``s``).
    d : ndarray (k,)
        Node weights ``δ_v``.
    M : ndarray (k, k), bool
        ``M[u, v] = (v ⊆ u)`` (:func:`fsbook.hkl.lattice.ancestor_matrix`): ``D_A(v)`` is column
        ``v``'s support.
    p : float in (1, 2]

    Returns
    -------
    P, q, A, b : the data; cones : list of Clarabel cones; layout : dict of variable offsets.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from fsbook.hkl import lattice
    >>> from fsbook.hkl.primal import conic_program
    >>> nodes = [(), (0,), (1,)]                     # top node and two single features
    >>> Psi = sp.csr_matrix([[0., 1, 0], [0, 0, 1], [0, 1, 1], [0, 0, 0]])
    >>> P, q, A, b, cones, at = conic_program(Psi, np.array([1., -1, 1, -1]), 1.0,
    ...                                       np.array([1., 1, 1]), lattice.ancestor_matrix(nodes), 2.0)
    >>> A.shape, len(cones), at          # 2m + 1 nonnegative rows, then one cone per node
    ((17, 12), 4, {'w': 0, 'b': 3, 'xi': 4, 'r': 8, 't': 11})
    """
    import clarabel
    m, k = Psi.shape
    iw, ib, ixi, ir, it = 0, k, k + 1, k + 1 + m, k + 1 + m + k
    uu, vv = np.nonzero(np.asarray(M, dtype=bool))        # pairs u ∈ D_A(v)
    order = np.lexsort((uu, vv))                           # grouped by v
    uu, vv = uu[order], vv[order]
    npair = uu.size
    ns = it + 1
    nvar = ns + (npair if p < 2 else 0)
    y = np.asarray(y, dtype=np.float64)
    eye_m = sp.identity(m, format="csr")
    Psi = sp.csr_matrix(Psi)
    # nonnegative block: margins (m), ξ ≥ 0 (m), t − δᵀr ≥ 0 (1)
    margin = sp.hstack([-sp.diags(y) @ Psi, -y[:, None], -eye_m, sp.csr_matrix((m, k + 1))])
    xi_pos = sp.hstack([sp.csr_matrix((m, k + 1)), -eye_m, sp.csr_matrix((m, k + 1))])
    budget = sp.csr_matrix((np.r_[d, -1.0], (np.zeros(k + 1, dtype=np.int64),
                                             np.r_[ir + np.arange(k), it])), shape=(1, ns))
    blocks = [margin, xi_pos, budget]
    rhs = [-np.ones(m), np.zeros(m), np.zeros(1)]
    cones = [clarabel.NonnegativeConeT(2 * m + 1)]
    if p == 2.0:
        # one second-order cone per node v: (r_v, w_{D(v)})
        size = np.bincount(vv, minlength=k) + 1            # cone of v: r_v, then w_{D(v)}
        head = np.concatenate([[0], np.cumsum(size)[:-1]])  # row of r_v
        pos = np.arange(npair) - np.searchsorted(vv, vv)    # rank of u within D(v)
        rows = np.r_[head, head[vv] + 1 + pos]
        cols = np.r_[ir + np.arange(k), iw + uu]
        nrow = int(size.sum())
        blocks.append(sp.csr_matrix((-np.ones(rows.size), (rows, cols)), shape=(nrow, ns)))
        rhs.append(np.zeros(nrow))
        cones.extend(clarabel.SecondOrderConeT(int(c)) for c in size)
    else:
        blocks = [sp.hstack([b_, sp.csr_matrix((b_.shape[0], npair))]) for b_ in blocks]
        # Σ_{u∈D(v)} s_vu − r_v = 0
        zr = np.r_[vv, np.arange(k)]
        zc = np.r_[ns + np.arange(npair), ir + np.arange(k)]
        zv = np.r_[np.ones(npair), -np.ones(k)]
        blocks.append(sp.csr_matrix((zv, (zr, zc)), shape=(k, nvar)))
        rhs.append(np.zeros(k))
        cones.append(clarabel.ZeroConeT(k))
        # (s_vu, r_v, w_u) ∈ power cone with exponent 1/p: s^{1/p} r^{1−1/p} ≥ |w_u|
        j = np.arange(npair)
        pr = np.r_[3 * j, 3 * j + 1, 3 * j + 2]
        pc = np.r_[ns + j, ir + vv, iw + uu]
        blocks.append(sp.csr_matrix((-np.ones(3 * npair), (pr, pc)), shape=(3 * npair, nvar)))
        rhs.append(np.zeros(3 * npair))
        cones.extend(clarabel.PowerConeT(1.0 / p) for _ in range(npair))
    A = sp.vstack(blocks, format="csc")
    P = sp.csc_matrix(([1.0], ([it], [it])), shape=(nvar, nvar))
    q = np.zeros(nvar)
    q[ixi:ixi + m] = C
    return P, q, A, np.concatenate(rhs), cones, dict(w=iw, b=ib, xi=ixi, r=ir, t=it)


def restricted_conic(red, tol=1e-8, max_iter=200):
    """Solve the restricted problem of ``red`` (:class:`fsbook.hkl.RestrictedProblem`) in the
    primal by Clarabel and return the quantities of the certificate.

    Parameters
    ----------
    red : RestrictedProblem
    tol : float
        Clarabel's gap and feasibility tolerances.
    max_iter : int
        Clarabel's iteration cap (a capped solve is still evaluated: the certificate stays
        valid, only looser).

    Returns
    -------
    dict
        ``w``, ``b`` (the primal point), ``c = α∘y`` (the dual point, in ``τ(y, C)``),
        ``s = Ψᵀc``, ``eta`` (the maximiser of ``F_s``), ``zeta``, ``sigma`` (``= ζ(η)``),
        ``status`` (Clarabel's), ``iterations``, ``seconds``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import HKLProblem, RestrictedProblem, lattice
    >>> from fsbook.hkl.primal import restricted_conic
    >>> X = np.array([[1, 0], [0, 1], [1, 1], [0, 0]]); y = np.array([1., -1., 1., -1.])
    >>> red = RestrictedProblem(HKLProblem(X, y), lattice.hull([(0,), (1,)]))
    >>> sol = restricted_conic(red)
    >>> sol["status"], np.abs(np.round(sol["w"], 4)).tolist(), round(sol["b"], 4)
    ('Solved', [0.0, 0.2222, 0.0], -0.1111)
    >>> sol["c"].tolist()                 # α∘y: every sample at the bound C = 1
    [1.0, -1.0, 1.0, -1.0]
    """
    import clarabel
    prob = red.prob
    m, k = red.Psi.shape
    t0 = time.perf_counter()
    C = prob.costs()                 # C, or C s_i with sample weights
    P, q, A, b, cones, at = conic_program(red.Psi, prob.y, C, red.d, red.M, prob.p)
    s = clarabel.DefaultSettings()
    s.verbose = False
    s.tol_gap_abs = s.tol_gap_rel = s.tol_feas = float(tol)
    s.max_iter = int(max_iter)
    # faer's supernodal LDLᵀ: 4.6x faster than the default QDLDL on the 20 Newsgroups
    # problem at 659 nodes (4.6 s → 1.0 s CPU); one thread, so that the result does not depend
    # on the machine's thread count
    s.direct_solve_method = "faer"
    s.max_threads = 1
    res = clarabel.DefaultSolver(P, q, A, b, cones, s).solve()
    x, z = np.asarray(res.x), np.asarray(res.z)
    w = x[at["w"]:at["w"] + k].copy()
    intercept = float(x[at["b"]])
    alpha = _snap_to_box(z[:m], prob.y, C)
    c = alpha * prob.y
    return dict(w=w, b=intercept, c=c, s=red.PsiT @ c, status=str(res.status),
                iterations=int(res.iterations), seconds=time.perf_counter() - t0)


def _snap_to_box(z, y, C):
    """The dual point ``α ∈ τ(y, C)`` from the multipliers ``z`` of the margin constraints.

    The interior point ends strictly inside the box: the multipliers that are at a bound up to
    its accuracy are snapped to it (the certificate holds for any feasible α; exact zeros keep
    the sufficiency check on the support vectors), then ``yᵀα = 0`` is restored.  ``C``: one
    bound, or one per sample.
    """
    alpha = np.clip(z, 0.0, C)
    alpha[alpha <= 1e-9 * C] = 0.0
    top = alpha >= C * (1.0 - 1e-9)
    alpha[top] = C if np.ndim(C) == 0 else C[top]
    return _feasible_start(alpha, y, C)


#: variables of the program from which :func:`restricted_working_set` factors with faer's
#: supernodal LDLᵀ, below which with QDLDL.  Measured (CPU seconds of one solve): tic-tac-toe,
#: 718 samples and 149 nodes (1 018 variables), faer 0.33 s, QDLDL 0.19 s; 113 samples, QDLDL half
#: faer's time too; 20 Newsgroups, 1 070 posts and 658 nodes (2 388 variables), faer 0.78 s,
#: QDLDL 3.06 s; 410 posts (1 728 variables), faer 0.19 s, QDLDL 0.23 s.
FAER_MIN_VARIABLES = 1500


def _clarabel(P, q, A, b, cones, tol, max_iter):
    import clarabel
    s = clarabel.DefaultSettings()
    s.verbose = False
    s.tol_gap_abs = s.tol_gap_rel = s.tol_feas = float(tol)
    s.max_iter = int(max_iter)
    s.direct_solve_method = "faer" if A.shape[1] >= FAER_MIN_VARIABLES else "qdldl"
    s.max_threads = 1
    return clarabel.DefaultSolver(P, q, A, b, cones, s).solve()


def restricted_working_set(red, w0=None, b0=None, band=0.2, tol=1e-8, max_iter=200,
                           max_rounds=20, kkt_tol=1e-6):
    """The restricted problem of :func:`restricted_conic`, solved on a working set of samples
    chosen from a warm start (shrinking), with the samples left out checked afterwards.

    At the optimum ``(w, b)`` of the restricted problem the samples split by their margin
    ``μ_i = y_i (ψ_iᵀw + b)`` into ``Z = {μ_i > 1}`` (``α_i = 0``, no loss),
    ``U = {μ_i < 1}`` (``α_i = C``, loss ``C (1 − μ_i)``, linear in ``(w, b)``; ``C s_i`` for
    each sample with sample weights ``s``) and the samples on
    the margin.  Given a guess of ``Z`` and ``U`` (from the margins of a warm start ``(w₀, b₀)``,
    outside the band ``|μ_i − 1| ≤ band``), the problem

        min_{w, b, ξ_S} ½ Ω_A(w)² + C 1ᵀξ_S − C Σ_{i∈U} y_i (ψ_iᵀw + b)
        s.t. y_i (ψ_iᵀw + b) ≥ 1 − ξ_i,  ξ_i ≥ 0   (i ∈ S, the working set: the other samples)

    is the restricted problem with the hinge of ``Z`` dropped and that of ``U`` replaced by its
    linear piece.  Its solution is the restricted optimum as soon as the guess is consistent
    (every sample of ``Z`` has ``μ_i ≥ 1`` and every sample of ``U`` has ``μ_i ≤ 1``, up to
    ``kkt_tol``): ``α_S`` (the multipliers), ``α_U = C``, ``α_Z = 0`` then satisfy the KKT
    conditions of the whole restricted problem, ``yᵀα = 0`` included (stationarity in ``b``).
    Samples that break the guess join ``S`` and the program is solved again; after
    ``max_rounds`` rounds, or when the shrunk program is unbounded (the linear term in ``b``
    can outweigh a small ``S``), every sample joins ``S`` (:func:`restricted_conic`'s program).

    Why: an interior-point solve (Clarabel) cannot start from a previous solution, but its cost
    grows with the samples in the program; along the regularisation path and between the
    iterations of the active-set method the previous solution predicts ``Z`` and ``U`` (at
    ``C = 1000`` on a tic-tac-toe training fold 77 of 718 samples are on the margin or at the
    bound: one solve of the final restricted problem costs 0.05 instead of 0.33 CPU s).  The
    certificate of :func:`fsbook.hkl.solve_active_set` is evaluated on all samples, as for the
    other solvers, so a wrong guess can only loosen it.  The loop is written here because no
    solver of this problem takes a warm start that pays: Clarabel has none, and SCS (ADMM on
    the same conic program, with warm starts) took 1 150–1 300 iterations and 0.5 CPU s on that
    tic-tac-toe problem cold, and 1 200 iterations warm-started from the ``C = 100`` solution.
    Not tried: a proximal-gradient method on the primal, which has no smooth part (the hinge
    loss) and no closed-form proximal operator of ``Ω_A²`` (the groups ``D_A(v)`` of a lattice
    overlap without nesting); leaving out the nodes with zero weight as well (checked by the
    reduced gap on all of ``A``) failed its check at about half the active-set iterations of
    two tic-tac-toe folds' paths (the nodes left out were needed again) and saved nothing.

    Parameters
    ----------
    red : RestrictedProblem
    w0 : ndarray (k,) or None
        Warm start of the weights on ``red.nodes`` (``None``: every sample in the working set,
        which is :func:`restricted_conic`'s program).
    b0 : float
        Warm start of the intercept.
    band : float
        Samples with ``|μ_i − 1| ≤ band`` at the warm start form the initial working set.
    tol, max_iter : float, int
        Clarabel's tolerances and iteration cap per solve (its LDLᵀ: QDLDL for programs of fewer
        than :data:`FAER_MIN_VARIABLES` variables, faer's supernodal one above).
    max_rounds : int
        Solves on growing working sets before falling back to all samples.
    kkt_tol : float
        Margin violation by which a sample left out breaks the guess.

    Returns
    -------
    dict
        As :func:`restricted_conic`, with ``working_samples`` (size of the last working set),
        ``rounds`` (solves) and ``iterations`` summed over the rounds.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import HKLProblem, RestrictedProblem, lattice
    >>> from fsbook.hkl.primal import restricted_conic, restricted_working_set
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((60, 4)) < 0.4).astype(float)
    >>> y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    >>> red = RestrictedProblem(HKLProblem(X, y, C=10.0), lattice.hull([(0, 1), (2,), (3,)]))
    >>> ref = restricted_conic(red)
    >>> ws = restricted_working_set(red, w0=ref["w"], b0=ref["b"])
    >>> ws["working_samples"], ws["rounds"]        # 6 of the 60 samples left out, one solve
    (54, 1)
    >>> np.abs(np.round(ws["w"], 3)).tolist(), np.abs(np.round(ref["w"], 3)).tolist()
    ([0.0, 1.57, 1.57, 0.0, 0.0, 0.43], [0.0, 1.57, 1.57, 0.0, 0.0, 0.43])
    """
    prob = red.prob
    y, C, p = prob.y, prob.C, prob.p
    sw = prob.sample_weight          # None, or the costs of the samples are C s_i
    m, k = red.Psi.shape
    t0 = time.perf_counter()
    state = np.zeros(m, dtype=np.int8)           # 0: working set S, 1: Z (α = 0), −1: U (α = C)
    if w0 is not None:
        mu = y * (red.Psi @ np.asarray(w0, dtype=np.float64) + float(b0))
        state[mu > 1.0 + band] = 1
        state[mu < 1.0 - band] = -1
    rounds = iterations = 0
    while True:
        rounds += 1
        S, U = np.flatnonzero(state == 0), np.flatnonzero(state == -1)
        if S.size == 0:
            state[:] = 0
            continue
        P, q, A, b, cones, at = conic_program(red.Psi[S], y[S], C if sw is None else C * sw[S],
                                              red.d, red.M, p)
        if U.size and sw is None:
            q[at["w"]:at["w"] + k] -= C * (red.PsiT[:, U] @ y[U])
            q[at["b"]] -= C * float(y[U].sum())
        elif U.size:                  # the linear pieces C s_i (1 − y_i(ψ_iᵀw + b)) of U
            cy = C * sw[U] * y[U]
            q[at["w"]:at["w"] + k] -= red.PsiT[:, U] @ cy
            q[at["b"]] -= float(cy.sum())
        res = _clarabel(P, q, A, b, cones, tol, max_iter)
        iterations += int(res.iterations)
        status = str(res.status)
        x, z = np.asarray(res.x), np.asarray(res.z)
        shrunk = bool(np.any(state))
        if shrunk and (not status.startswith(("Solved", "AlmostSolved", "MaxIterations"))
                       or not np.all(np.isfinite(x))):
            state[:] = 0                          # unbounded shrunk program: all samples
            continue
        w = x[at["w"]:at["w"] + k].copy()
        intercept = float(x[at["b"]])
        if not shrunk:
            break
        mu = y * (red.Psi @ w + intercept)
        bad = ((state == 1) & (mu < 1.0 - kkt_tol)) | ((state == -1) & (mu > 1.0 + kkt_tol))
        if not bad.any():
            break
        state[bad] = 0
        if rounds >= max_rounds:
            state[:] = 0
    if sw is None:
        alpha = np.zeros(m)
        alpha[S] = np.clip(z[:S.size], 0.0, C)
        alpha[U] = C
        alpha[alpha <= 1e-9 * C] = 0.0
        alpha[alpha >= C * (1.0 - 1e-9)] = C
        alpha = _feasible_start(alpha, y, C)
    else:
        zz = np.zeros(m)
        zz[S] = z[:S.size]
        zz[U] = C * sw[U]
        alpha = _snap_to_box(zz, y, prob.costs())
    c = alpha * y
    return dict(w=w, b=intercept, c=c, s=red.PsiT @ c, status=status, iterations=iterations,
                seconds=time.perf_counter() - t0, working_samples=int(S.size), rounds=rounds)

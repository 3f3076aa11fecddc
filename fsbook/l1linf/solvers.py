"""Two optimisers of ``min_W J(W) + λ Σ_j ||w_j||_∞`` (eqs. 1, 6, 9).

- :func:`accelerated_proximal_gradient` -- FISTA (Beck & Teboulle 2009) with
  backtracking on the smooth part, the exact row-wise prox of
  :mod:`fsbook.l1linf.prox`, and a restart whenever the objective would rise
  (the criteria are non-convex, so plain FISTA is not monotone).  Discarded
  features come out as exact zero rows.
- :func:`active_set_proximal_gradient` -- the same FISTA restricted to a working set of
  rows that can be non-zero, checked against the optimality condition of the zero rows
  on the full gradient (HSFS's default: most of the ``d`` rows are zero along
  the path, and a restricted iteration never touches them).
- :func:`bound_constrained_lbfgsb` -- the paper's route (Section 3): a smooth
  problem with bound constraints solved by quasi-Newton.  Eq. (3) has the
  linear constraints ``−s_j ≤ w_jk ≤ s_j``; we write ``W = diag(s) U`` with
  ``s ≥ 0`` and ``U ∈ [−1, 1]^{d×q}``, which turns them into simple bounds
  for SciPy's L-BFGS-B.  Every ``W`` is reached (``s_j = ||w_j||∞``) and the
  penalty is then exactly ``Σ s_j``.  Rows are only approximately zero.

All return an :class:`OptimResult`; they are tested against each other.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from fsbook.l1linf.prox import linf_penalty, prox_rows_linf

__all__ = ["OptimResult", "SolverDivergedError", "MAX_BACKTRACK", "accelerated_proximal_gradient", "active_set_proximal_gradient", "bound_constrained_lbfgsb",
           "linearly_constrained_slsqp"]


#: doublings of the Lipschitz estimate ``L`` allowed in one backtracking line search: ``2**200``
#: times the previous estimate is far beyond any curvature in double precision, so a line search
#: that needs more has met a criterion that is unbounded below or not finite, and stops with an error
MAX_BACKTRACK = 200


class SolverDivergedError(ValueError):
    """The objective of a proximal-gradient solve left the finite numbers or the line search
    found no step: the criterion is unbounded below (or not finite) along the iterates."""


def _diverged(what, lam, L):
    return SolverDivergedError(
        f"proximal gradient diverged ({what}; lambda={lam:.3g}, Lipschitz estimate L={L:.3g}): the "
        "criterion is unbounded below or not finite along the iterates. For LDFS this happens when "
        "a direction without within-class scatter separates the classes (S_W W = 0 but S_B W != 0, "
        "e.g. one sample per class): give more samples per class, a larger ridge, or use HSFS.")


@dataclass
class OptimResult:
    W: np.ndarray
    objective: float        # J(W) + λ Σ||w_j||∞
    criterion: float        # J(W)
    n_iter: int
    converged: bool
    step: float = None      # last step size 1/L (proximal gradient only)


def accelerated_proximal_gradient(criterion, W0, lam, *, max_iter=500, tol=1e-6, step0=None):
    """FISTA with backtracking and objective restart.

    Parameters
    ----------
    criterion : callable ``W -> (J(W), ∇J(W))``, optionally with a method ``value(W)``
        returning ``J(W)`` alone (used at the line search's trial points)
    W0 : ndarray (d, q), start
    lam : float ≥ 0
    max_iter : int
        Bound on the iterations; each iteration's backtracking is bounded by :data:`MAX_BACKTRACK`.
    tol : float
        Stop when the decrease of the objective relative to ``|F|`` and the
        norm of the step relative to ``||W||_F`` are both below ``tol``.
    step0 : float, optional
        Initial step ``1/L`` (default from the gradient norm at ``W0``).

    Returns
    -------
    OptimResult

    Raises
    ------
    SolverDivergedError
        The start or an accepted iterate has a non-finite objective, or a line search needs
        more than :data:`MAX_BACKTRACK` doublings of ``L`` (which happens when the criterion is
        unbounded below, instead of looping for ever).
    """
    W = prox_rows_linf(np.array(W0, dtype=float), 0.0)
    f, g = criterion(W)
    # trial points need J only; a criterion with a cheaper ``value`` method is asked for that,
    # and for the gradient at the accepted point only if a restart needs it
    value = getattr(criterion, "value", None)
    F = f + lam * linf_penalty(W)
    if not np.isfinite(F) or not np.all(np.isfinite(g)):
        raise _diverged("the objective or its gradient at the start is not finite", lam, np.nan)
    if step0 is None:
        gn = np.linalg.norm(g)
        step0 = 1.0 if gn == 0 else max(1e-3, np.linalg.norm(W)) / gn
    L = 1.0 / step0
    Y, fy, gy, t = W, f, g, 1.0
    converged = False
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (the count is read after the loop)
        for _ in range(MAX_BACKTRACK + 1):
            Wn = prox_rows_linf(Y - gy / L, lam / L)
            fn, gn_ = (value(Wn), None) if value is not None else criterion(Wn)
            diff = Wn - Y
            if fn <= fy + float(np.sum(gy * diff)) + 0.5 * L * float(np.sum(diff * diff)) + 1e-12 * abs(fy):
                break
            L *= 2.0
            if not np.isfinite(L):
                break
        else:
            raise _diverged(f"no step satisfied the line search in {MAX_BACKTRACK} halvings", lam, L)
        if not np.isfinite(L):
            raise _diverged("the line search's step size went to zero", lam, L)
        Fn = fn + lam * linf_penalty(Wn)
        if not np.isfinite(Fn):
            raise _diverged(f"the objective reached {Fn}", lam, L)
        if Fn > F and Y is not W:          # momentum overshot: restart from W
            if g is None:
                f, g = criterion(W)
            Y, fy, gy, t = W, f, g, 1.0
            continue
        step = np.linalg.norm(Wn - W)
        small = abs(F - Fn) <= tol * abs(Fn) + 1e-300 and step <= tol * np.linalg.norm(Wn) + 1e-300
        tn = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        Yn = Wn + ((t - 1.0) / tn) * (Wn - W)
        W, f, g, F, t = Wn, fn, gn_, Fn, tn
        if small:
            converged = True
            break
        Y = Yn
        fy, gy = criterion(Y)
        L *= 0.8                           # let the step grow again
    return OptimResult(W, float(F), float(f), it, converged, 1.0 / L)


def active_set_proximal_gradient(criterion, W0, lam, *, max_iter=500, tol=1e-6, round_iter=50):
    """:func:`accelerated_proximal_gradient` over the rows that can be non-zero (working set).

    A zero row ``j`` is optimal for ``J(W) + λ Σ_j ||w_j||∞`` iff ``||∇_j J(W)||₁ ≤ λ``
    (``0 ∈ ∇_j J + λ ∂||·||∞(0)``, the ℓ1 ball of radius λ; eq. 1).  Starting from the
    working set ``S`` = the non-zero rows of ``W0`` and the rows violating that condition
    at ``W0``, FISTA runs on ``W_S`` alone (``criterion.restrict(S)``: the rows outside
    ``S`` stay exactly zero, so one iteration costs ``O(n²q + nnz(X_S) q)`` instead of
    ``O(n²q + nnz(X) q)``, and the prox and updates touch ``|S| q`` numbers instead of
    ``dq``) for at most ``round_iter`` iterations.  Then one full gradient checks every
    zero row; the next working set is the non-zero rows and the zero rows violating the
    condition, and FISTA resumes (with the last step size, momentum reset) from there.  It
    stops when a round converges and no row outside its working set violates (the result
    is then a fixed point of the full proximal-gradient map up to the inner tolerance),
    or after ``max_iter`` iterations in all.  Rows dropped as the working set shrinks are
    what makes a start with every row non-zero cheap after the first round.

    Parameters
    ----------
    criterion : callable ``W -> (J(W), ∇J(W))`` with a method ``restrict(rows)``
        (e.g. :meth:`fsbook.l1linf.hsic.HSICCriterion.restrict`)
    W0 : ndarray (d, q), start
    lam : float ≥ 0
    max_iter : int, FISTA iterations over all the rounds
    round_iter : int, FISTA iterations of one round at most
    tol : float, stopping tolerance of every round (see :func:`accelerated_proximal_gradient`)

    Returns
    -------
    OptimResult; ``n_iter`` counts the FISTA iterations of all rounds, ``converged`` is
    True iff the last round converged and no row outside the working set violates.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.l1linf import HSICCriterion
    >>> rng = np.random.default_rng(0)
    >>> y = np.arange(40) % 2
    >>> X = rng.standard_normal((40, 30)); X[:, 0] += 2 * y
    >>> crit = HSICCriterion(X, y)
    >>> W0 = rng.standard_normal((30, 2)) * 0.1
    >>> a = accelerated_proximal_gradient(crit, W0, 0.02, max_iter=5000, tol=1e-10)
    >>> b = active_set_proximal_gradient(crit, W0, 0.02, max_iter=5000, tol=1e-10)
    >>> bool(np.allclose(a.W, b.W, atol=1e-6)), int((np.abs(b.W).max(1) > 0).sum()) < 30
    (True, True)
    """
    W = np.array(W0, dtype=float)
    _, g = criterion(W)
    active = (np.abs(W).max(axis=1) > 0) | (np.abs(g).sum(axis=1) > lam)
    total, converged, step = 0, False, None
    while True:
        rows = np.flatnonzero(active)
        r = accelerated_proximal_gradient(criterion.restrict(rows), W[rows], lam, tol=tol, step0=step,
                                          max_iter=max(1, min(max_iter - total, round_iter)))
        total, step = total + r.n_iter, r.step
        W = np.zeros_like(W)
        W[rows] = r.W
        f, g = criterion(W)
        nonzero = np.abs(W).max(axis=1) > 0
        violators = ~nonzero & (np.abs(g).sum(axis=1) > lam)
        if r.converged and not (violators & ~active).any():
            converged = True
            break
        if total >= max_iter:
            break
        active = nonzero | violators
    return OptimResult(W, float(f + lam * linf_penalty(W)), float(f), total, converged, step)


def bound_constrained_lbfgsb(criterion, W0, lam, *, max_iter=2000, tol=1e-10):
    """The bound-constrained reformulation ``W = diag(s) U`` under L-BFGS-B.

    Objective ``J(diag(s) U) + λ Σ s_j`` with ``s ≥ 0``, ``−1 ≤ U ≤ 1``;
    gradients ``∂/∂U = diag(s) ∇J``, ``∂/∂s_j = Σ_k U_jk (∇J)_jk + λ``.

    Parameters
    ----------
    criterion : callable ``W -> (J(W), ∇J(W))``
    W0 : ndarray (d, q)
    lam : float ≥ 0
    max_iter : int
    tol : float, passed as ``ftol`` and ``gtol`` to L-BFGS-B

    Returns
    -------
    OptimResult with ``W = diag(s) U``.
    """
    W0 = np.asarray(W0, dtype=float)
    d, q = W0.shape
    s0 = np.abs(W0).max(axis=1)
    U0 = np.divide(W0, s0[:, None], out=np.zeros_like(W0), where=s0[:, None] > 0)

    def fun(x):
        U, s = x[:d * q].reshape(d, q), x[d * q:]
        f, G = criterion(s[:, None] * U)
        gU = s[:, None] * G
        gs = np.einsum("jk,jk->j", U, G) + lam
        return f + lam * s.sum(), np.concatenate([gU.ravel(), gs])

    bounds = [(-1.0, 1.0)] * (d * q) + [(0.0, None)] * d
    res = minimize(fun, np.concatenate([U0.ravel(), s0]), jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": max_iter, "ftol": tol, "gtol": tol, "maxcor": 20})
    U, s = res.x[:d * q].reshape(d, q), res.x[d * q:]
    W = s[:, None] * U
    f, _ = criterion(W)
    return OptimResult(W, float(f + lam * linf_penalty(W)), float(f), int(res.nit), bool(res.success))


def linearly_constrained_slsqp(criterion, W0, lam, *, max_iter=2000, tol=1e-12):
    """Eq. (3) as printed: ``min J(W) + λ Σ s_j`` s.t. ``−s_j ≤ w_jk ≤ s_j``, by SciPy's SLSQP.

    A direct transcription of the paper's constrained problem with ``2dq``
    linear inequality constraints (no reparametrisation, so no spurious
    stationary points); dense, for small problems and tests only.

    Returns
    -------
    OptimResult
    """
    from scipy.optimize import LinearConstraint

    W0 = np.asarray(W0, dtype=float)
    d, q = W0.shape
    s0 = np.abs(W0).max(axis=1)

    def fun(x):
        W = x[:d * q].reshape(d, q)
        f, G = criterion(W)
        return f + lam * x[d * q:].sum(), np.concatenate([G.ravel(), np.full(d, lam)])

    # s_j - w_jk >= 0 and s_j + w_jk >= 0
    E = np.kron(np.eye(d), np.ones((q, 1)))                     # (dq, d): picks s_j for entry (j, k)
    A = np.block([[-np.eye(d * q), E], [np.eye(d * q), E]])
    res = minimize(fun, np.concatenate([W0.ravel(), s0]), jac=True, method="SLSQP",
                   constraints=[LinearConstraint(A, 0.0, np.inf)],
                   options={"maxiter": max_iter, "ftol": tol})
    W = res.x[:d * q].reshape(d, q)
    f, _ = criterion(W)
    return OptimResult(W, float(f + lam * linf_penalty(W)), float(f), int(res.nit), bool(res.success))

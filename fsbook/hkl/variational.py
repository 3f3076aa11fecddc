"""The restricted problem (2)–(3) for ``p = 2`` by alternating minimisation of its variational
form (4)–(7), warm-started: ``solve_active_set(..., solver="variational")``.

For ``p = 2`` the sets ``λ_v`` of (4) are trivial and the paper's variational form (4)–(5),
restricted to an active set ``A``, is

    min_{η∈Δ} min_{w,b,ξ} ½ Σ_{u∈A} w_u² / ζ_u(η) + C 1ᵀξ
    s.t. y_i (Σ_u w_u ψ_u(x_i) + b) ≥ 1 − ξ_i,  ξ ≥ 0,                          (4)–(5)

with ``1/ζ_u(η) = σ_u^{-1}(η) = Σ_{v∈A(u)} δ_v² / η_v`` (the ``ζ`` of (9) at ``p = 2``).  The
objective is jointly convex in ``(w, η)`` (``w²/ζ`` is convex and decreasing in ``ζ > 0``,
and ``ζ(η)`` is concave), and each block has a closed or a warm-startable minimiser:

- **w-step** (``η`` fixed): an SVM on the node features with the kernel
  ``Σ_u ζ_u K_u = Ψ diag(ζ) Ψᵀ``, i.e. the inner maximisation of (6)–(7):
  ``max_{α∈τ(y,C)} 1ᵀα − ½ αᵀ(Σ_u ζ_u K_u)α``, with ``w = ζ ∘ s``, ``s = Ψᵀ(α∘y)``
  (stationarity in ``w``).  Solved by the warm-started SMO of :func:`fsbook.hkl.smo.smo_svm`,
  started from the previous step's ``α`` (or the previous ``C``'s, on a path).
- **η-step** (``w`` fixed): exchanging the sums,
  ``Σ_u w_u² Σ_{v∈A(u)} δ_v²/η_v = Σ_v δ_v² ||w_{D_A(v)}||² / η_v``, whose minimum over the
  simplex (Cauchy–Schwarz) is at ``η_v ∝ δ_v ||w_{D_A(v)}||`` with value
  ``(Σ_v δ_v ||w_{D_A(v)}||)² = Ω_A(w)²``: the penalty of (2) is recovered exactly.

With sample weights (:class:`fsbook.hkl.HKLProblem`'s ``sample_weight``) the w-step is the SVM
with per-sample costs ``C s_i`` (the box ``0 ≤ α_i ≤ C s_i``) and ``P`` carries the weighted loss;
the η-step does not involve the samples.

``η`` is kept above a floor (relative to its largest entry) so that a node whose weights are
zero at one step can come back at the next (``ζ_u > 0``).  The iteration stops on the reduced
duality gap of (2)–(3) at ``(w, b, α)``: the primal ``P`` of (2) at ``(w, b)`` minus the dual
lower bound ``max_κ κ 1ᵀα − ½ κ² Ω_A*(s)²`` (with ``Ω_A*(s)² ≤ max_v B_v(η)²`` at any ``η``,
:meth:`fsbook.hkl.RestrictedProblem.dual_norm`'s bound, evaluated at the ``η`` of the next
step and a few of its fixed-point steps).  The active-set method then evaluates its own
certificate on ``(w, b, α)`` as for every other restricted solver, so an inexact solve can
only loosen the certified gap.  When the alternation has not reached the tolerance after
``max_rounds`` steps (a slow tail: alternating minimisation converges linearly at best, slowly
when the optimum has many zero blocks), the restricted problem is finished by
:func:`fsbook.hkl.primal.restricted_working_set` from the current ``(w, b)``, and the result
says so (``status="fallback"``).

What it gains (``benchmarks/hkl.py``, section 9, recorded as ``warm_path``): nothing on the
tic-tac-toe C path.  The alternation converges linearly at a rate of about 0.5–0.6 per w-step
(22 w-steps to a reduced gap of 10⁻⁵ on the example below), and at ``C ≥ 100`` warm-started SMO
needs more than ``20 m`` steps on the nearly separable kernels, so most restricted solves of the
path (49 of 60) end in the fallback, and the path costs about what the working-set program
alone costs.  It pays only where a warm start is already near the optimum (small ``C``, an
active set that did not change): one SVM and one η-step certify it.
"""
from __future__ import annotations

import time

import numpy as np

from fsbook.hkl.primal import restricted_working_set
from fsbook.hkl.smo import smo_svm

__all__ = ["restricted_variational", "eta_from_weights", "dual_norm_bound"]


def eta_from_weights(red, w, floor=1e-6):
    """The η-step: ``η_v ∝ δ_v ||w_{D_A(v)}||``, floored at ``floor`` times the largest entry.

    Parameters
    ----------
    red : RestrictedProblem
    w : ndarray (k,)
        Weights on ``red.nodes``.
    floor : float

    Returns
    -------
    ndarray (k,) on the simplex, or ``None`` when ``w = 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import HKLProblem, RestrictedProblem, lattice
    >>> from fsbook.hkl.variational import eta_from_weights
    >>> X = np.array([[1, 0], [0, 1], [1, 1], [0, 0]]); y = np.array([1., -1., 1., -1.])
    >>> red = RestrictedProblem(HKLProblem(X, y), [(), (0,), (1,)])
    >>> red.d.tolist()                              # δ of (), (0,), (1,)
    [1.0, 2.0, 2.0]
    >>> eta_from_weights(red, np.array([0.0, 3.0, 4.0])).round(3).tolist()   # 1·5 : 2·3 : 2·4
    [0.263, 0.316, 0.421]
    """
    e = red.d * np.sqrt(red.MT @ (np.asarray(w, dtype=np.float64) ** 2))
    top = e.max()
    if not top > 0:
        return None
    e = np.maximum(e, floor * top)
    return e / e.sum()


def dual_norm_bound(red, s, eta, steps=5):
    """An upper bound of ``Ω_A*(s)²`` (``p = 2``): ``min`` over a few fixed-point steps from
    ``η`` of ``max_v B_v(η)²``, ``B_v² = δ_v² η_v^{-2} Σ_{u∈D_A(v)} ζ_u(η)² s_u²``
    (the bound of :meth:`fsbook.hkl.RestrictedProblem.dual_norm`, valid at every ``η``)."""
    a = np.asarray(s, dtype=np.float64) ** 2
    if not np.any(a > 0):
        return 0.0
    up = np.inf
    for _ in range(steps):
        eta = np.maximum(eta, 1e-100)
        zeta, _ = red.zeta(eta)
        F = float(zeta @ a)
        Bq = red.dp * eta ** -2.0 * (red._MT_op @ (zeta ** 2 * a))
        up = min(up, float(Bq.max()))
        if up <= F * (1.0 + 1e-7):
            break
        eta = eta * np.sqrt(Bq / F)
        eta /= eta.sum()
    return up


def _dual_lower(alpha_sum, M2):
    if M2 <= 0:
        return alpha_sum
    k = min(1.0, alpha_sum / M2)
    return k * alpha_sum - 0.5 * k * k * M2


def restricted_variational(red, eta0=None, alpha0=None, w0=None, b0=None, tol=1e-5, max_rounds=30,
                           svm_tol=1e-6, floor=1e-6, fallback=True, min_rate=0.25,
                           smo_budget=None):
    """Solve the restricted problem of ``red`` (``p = 2``) by alternating the w-step (a
    warm-started SVM) and the closed-form η-step of the variational form (4)–(7).

    Parameters
    ----------
    red : RestrictedProblem
        With ``red.prob.p == 2``.
    eta0 : ndarray (k,) or None
        Starting ``η`` (the previous iteration's or ``C``'s, padded for new nodes);
        ``None``: uniform.
    alpha0 : ndarray (m,) or None
        Warm start of the SVM's ``α`` (made feasible by :func:`fsbook.hkl.smo.smo_svm`).
    w0, b0 : ndarray (k,), float or None
        The previous solution (padded with zeros for new nodes): the warm start of the fallback
        when the alternation is skipped.  The alternation is skipped (straight to the
        fallback) when it already gave up at this ``C`` (``red.prob.alternation_failed_at``):
        on a path, the later active-set iterations at a ``C`` whose SVMs are slow are slow too.
    tol : float
        Relative reduced duality gap at which the alternation stops.
    max_rounds : int
        w-steps before the fallback.
    svm_tol : float
        SMO's KKT tolerance.
    floor : float
        Floor of ``η`` relative to its largest entry.
    smo_budget : int or None
        SMO steps per w-step (``None``: ``20 m``); an SVM that needs more (large ``C`` on the
        nearly separable low-rank kernel of a small active set can take millions of steps)
        ends the alternation (fallback).
    min_rate : float
        Give up the alternation (fallback) as soon as a w-step shrinks the gap by less than
        this factor (``gap_new > min_rate · gap_old``): a slow linear rate, which would take
        dozens of SVMs.
    fallback : bool
        Finish with :func:`fsbook.hkl.primal.restricted_working_set` after ``max_rounds``
        (``False``: return the last iterate, whatever its gap).

    Returns
    -------
    dict
        As :func:`fsbook.hkl.primal.restricted_conic` (``w``, ``b``, ``c = α∘y``, ``s``,
        ``status``: ``"Solved"``, ``"fallback"`` or ``"MaxIterations"``, ``iterations``:
        the w-steps, ``seconds``), with ``eta`` (the last η-step), ``alpha`` and
        ``gap`` (the relative reduced gap of the returned point, by this module's bound).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import HKLProblem, RestrictedProblem, lattice
    >>> from fsbook.hkl.primal import restricted_conic
    >>> from fsbook.hkl.variational import restricted_variational
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((60, 4)) < 0.4).astype(float)
    >>> y = np.where(X[:, 0] + X[:, 1] > 0, 1.0, -1.0)
    >>> red = RestrictedProblem(HKLProblem(X, y, C=10.0), lattice.hull([(0, 1), (2,), (3,)]))
    >>> ref = restricted_conic(red)
    >>> fo = restricted_variational(red, max_rounds=200, min_rate=1.0, fallback=False)
    >>> fo["status"], fo["iterations"], bool(fo["gap"] <= 1e-5)   # a linear rate, about 0.6
    ('Solved', 22, True)
    >>> np.abs(np.round(fo["w"], 3)).tolist(), np.abs(np.round(ref["w"], 3)).tolist()
    ([0.0, 1.57, 1.57, 0.0, 0.0, 0.43], [0.0, 1.57, 1.57, 0.0, 0.0, 0.43])
    >>> restricted_variational(red)["status"]     # by default: the rate test gives up early
    'fallback'
    """
    prob = red.prob
    if prob.p != 2.0:
        raise ValueError("the variational restricted solver needs p = 2")
    y, C = prob.y, prob.C
    costs = prob.costs()             # C, or the per-sample C s_i with sample weights
    k = len(red.nodes)
    t0 = time.perf_counter()
    D = red.Psi.toarray()
    eta = np.full(k, 1.0 / k) if eta0 is None or len(eta0) != k else \
        np.asarray(eta0, dtype=np.float64) / np.sum(eta0)
    eta = np.maximum(eta, floor * eta.max())
    eta /= eta.sum()
    alpha = alpha0
    budget = 20 * prob.m if smo_budget is None else int(smo_budget)
    status, rounds, rel, prev = "MaxIterations", 0, np.inf, np.inf
    if fallback and w0 is not None and getattr(prob, "alternation_failed_at", None) == C:
        sol = restricted_working_set(red, w0=w0, b0=b0)
        return dict(sol, status="fallback", iterations=0, alpha=np.abs(sol["c"]), gap=np.nan,
                    eta=eta_from_weights(red, sol["w"], floor) if np.any(sol["w"]) else eta,
                    seconds=time.perf_counter() - t0)
    for rounds in range(1, max_rounds + 1):  # noqa: B007 (the count is read after the loop)
        zeta, _ = red.zeta(eta)
        K = (D * zeta) @ D.T
        alpha, b, _, ok = smo_svm(K, y, costs, alpha0=alpha, tol=svm_tol, max_iter=budget)
        c = alpha * y
        s = red.PsiT @ c
        w = zeta * s
        omega = float(red.d @ np.sqrt(red.MT @ w ** 2))
        P = 0.5 * omega ** 2 + float(prob.loss(D @ w + b))
        nxt = eta_from_weights(red, w, floor)
        if nxt is None:
            nxt = eta
        up = dual_norm_bound(red, s, nxt)
        rel = (P - _dual_lower(alpha.sum(), up)) / max(P, 1e-12)
        eta = nxt
        if rel <= tol:
            status = "Solved"
            break
        if not ok or rel > min_rate * prev:
            break
        prev = rel
    out = dict(w=w, b=float(b), c=c, s=s, status=status, iterations=rounds, eta=eta,
               alpha=alpha, gap=float(rel))
    if status != "Solved" and fallback:
        prob.alternation_failed_at = C
        sol = restricted_working_set(red, w0=w, b0=b)
        out.update(w=sol["w"], b=sol["b"], c=sol["c"], s=sol["s"], status="fallback",
                   alpha=np.abs(sol["c"]), eta=eta_from_weights(red, sol["w"], floor)
                   if np.any(sol["w"]) else eta, gap=np.nan)
    out["seconds"] = time.perf_counter() - t0
    return out

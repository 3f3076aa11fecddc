"""Warm-started λ path with bisection to exactly ``k`` selected features.

The paper raises λ until all but ``k`` rows of ``W`` have ``max_l |w_jl| <
0.01``.  Here the proximal solver returns exact zero rows, so a feature is
selected iff its row is non-zero (``||w_j||∞ > ZERO_RTOL · max_l ||w_l||∞``, so
that a prox left-over of the order of the last bit is zero).  Starting from
``W₀`` at ``λ = start · max_j ||∇_j J(W₀)||₁``, λ is multiplied by ``factor``,
each solve warm-started at the previous solution, until at most ``k`` rows
survive (or divided, from ``W₀``, while fewer survive); if the count jumped past
``k``, λ is bisected (geometrically) between the last λ with more than ``k``
rows and the first with fewer, warm-started from the former.  The solves before
the bisection only provide warm starts and may use a looser tolerance
``path_tol``; the bisection's solves, which decide the selection, use the
solver's ``tol``.  If no λ gives exactly ``k`` within ``max_bisect`` steps (the
count may jump by two at a tie, or to zero: ``W = 0`` is a local minimiser for
every λ > 0), the ``k`` rows of largest ``||w_j||∞`` at the last λ with more
than ``k`` rows are returned (:func:`top_k_rows`: norms within ``TIE_RTOL`` of
the k-th largest are ties, broken by the smaller feature index) and ``exact``
is False.  Every solve is recorded, with whether it converged.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from fsbook.l1linf.solvers import accelerated_proximal_gradient, active_set_proximal_gradient

__all__ = ["PathResult", "select_k_path", "row_support", "top_k_rows", "ZERO_RTOL", "TIE_RTOL"]

#: a row with ``||w_j||∞ ≤ ZERO_RTOL · max_l ||w_l||∞`` counts as zero (a prox whose input
#: row has ℓ1 norm λ/L up to the last bit leaves a row of size ~1e-17 instead of 0)
ZERO_RTOL = 1e-9
#: row norms within ``TIE_RTOL · max_l ||w_l||∞`` of the k-th largest are tied
TIE_RTOL = 1e-9


def row_support(W, threshold=None):
    """Rows of ``W`` with ``||w_j||∞ > threshold``; default ``ZERO_RTOL · max_l ||w_l||∞``."""
    norms = np.abs(W).max(axis=1) if W.size else np.zeros(W.shape[0])
    if threshold is None:
        threshold = ZERO_RTOL * float(norms.max(initial=0.0))
    return norms > threshold


def top_k_rows(norms, k, rtol=TIE_RTOL):
    """Mask of the ``k`` largest ``norms``, ties broken by the smaller feature index.

    Let ``t`` be the k-th largest norm and ``τ = rtol · max norms``.  Every feature with
    a norm ``> t + τ`` is kept; the features with ``|norm − t| ≤ τ`` are tied and the
    smallest indices among them fill the remaining places.  A rounding difference far
    below ``τ`` therefore cannot change the mask unless a norm sits ``τ`` away from ``t``.

    This is not the rule of :func:`fsbook.decisions.top_k` (the selectors' top-k, through
    :mod:`fsbook._selection`), which cuts the sorted scores into runs, each within a relative
    tolerance of its own largest score, and keeps whole runs first: the two differ when several
    norms lie within ``τ`` of one another around ``t``, or when ``τ`` (relative to the largest
    norm) exceeds the relative tolerance at ``t``.  The inexact ends of :func:`select_k_path`
    (``exact=False``) use this rule, so replacing it would change stored LDFS/HSFS selections.

    Examples
    --------
    >>> top_k_rows(np.array([1.0, 3.0, 2.0, 3.0 - 1e-14]), 1).nonzero()[0].tolist()
    [1]
    >>> top_k_rows(np.array([1.0, 3.0 - 1e-14, 2.0, 3.0]), 1).nonzero()[0].tolist()
    [1]

    Where the rules differ (three norms within ``τ`` of the second largest):

    >>> from fsbook.decisions import top_k
    >>> norms = np.array([1 - 1.6e-9, 1 - 0.8e-9, 1.0])
    >>> top_k_rows(norms, 2).nonzero()[0].tolist(), sorted(top_k(norms, 2).tolist())
    ([0, 1], [1, 2])
    """
    norms = np.asarray(norms, dtype=float)
    d = norms.shape[0]
    mask = np.ones(d, dtype=bool)
    if k >= d:
        return mask
    tau = rtol * float(norms.max(initial=0.0))
    t = float(np.partition(norms, d - k)[d - k])
    mask = norms > t + tau
    tied = np.flatnonzero(np.abs(norms - t) <= tau)
    mask[tied[:k - int(mask.sum())]] = True
    return mask


@dataclass
class PathResult:
    W: np.ndarray                 # solution at ``lam``
    lam: float
    support: np.ndarray           # boolean (d,), exactly k True
    exact: bool                   # True iff W itself has exactly k non-zero rows
    n_iter: int                   # solver iterations over the whole path
    path: pd.DataFrame = field(repr=False)   # lambda, n_selected, criterion, objective, n_iter, converged, stage


SOLVERS = {"fista": accelerated_proximal_gradient, "active-set": active_set_proximal_gradient}


def select_k_path(criterion, W0, k, *, factor=2.0, max_steps=60, max_bisect=12, solver="fista",
                  start=1e-3, path_tol=None, solver_options=None, row_threshold=None):
    """Find λ with exactly ``k`` non-zero rows (see module docstring).

    Parameters
    ----------
    criterion : callable ``W -> (J, ∇J)``
    W0 : ndarray (d, q), start of the first solve
    k : int, 1 ≤ k ≤ d
    factor : float > 1, growth of λ along the path
    max_steps, max_bisect : int
    solver : {"fista", "active-set"}
        :func:`accelerated_proximal_gradient` on all rows (the reference) or
        :func:`active_set_proximal_gradient` (needs ``criterion.restrict``).
    solver_options : dict, passed to the solver
    row_threshold : float > 0 or None
        A row counts as selected when ``||w_j||∞ > row_threshold`` (the paper's rule, with its
        0.01); None counts the non-zero rows (``||w_j||∞ > ZERO_RTOL · max_l ||w_l||∞``,
        :func:`row_support`).

    Returns
    -------
    PathResult
    """
    opts = dict(solver_options or {})
    if row_threshold is not None and not row_threshold > 0:
        raise ValueError(f"row_threshold must be positive or None, got {row_threshold!r}")
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {sorted(SOLVERS)}; got {solver!r}")
    optimise = SOLVERS[solver]
    d = W0.shape[0]
    rows, total = [], 0

    def solve(W_start, lam, stage):
        nonlocal total
        stage_opts = opts if path_tol is None or stage == "bisect" else {**opts, "tol": path_tol}
        r = optimise(criterion, W_start, lam, **stage_opts)
        total += r.n_iter
        count = int(row_support(r.W, row_threshold).sum())
        rows.append({"lambda": lam, "n_selected": count, "criterion": r.criterion, "objective": r.objective,
                     "n_iter": r.n_iter, "converged": r.converged, "stage": stage})
        return r.W, count

    if k >= d:
        W, count = solve(W0, 0.0, "start")
        return _finish(W, 0.0, k, count, total, rows, row_threshold)
    # first λ: a thousandth of the largest row norm ||∇_j J(W₀)||₁ (the prox zeroes row j at a
    # stationary point iff λ ≥ ||∇_j J||₁); λ = 0 itself is not solved (for LDA it has no minimiser)
    _, g = criterion(W0)
    lam = start * float(np.abs(g).sum(axis=1).max()) or 1e-6
    W, count = solve(W0, lam, "start")
    if count == k:
        return _finish(W, lam, k, count, total, rows, row_threshold)
    lo = hi = None
    if count > k:
        lo = (lam, W, count)
        for _ in range(max_steps):
            lam *= factor
            W_new, c_new = solve(lo[1], lam, "grow")
            if c_new == k:
                return _finish(W_new, lam, k, c_new, total, rows, row_threshold)
            if c_new > k:
                lo = (lam, W_new, c_new)
            else:
                hi = (lam, W_new, c_new)
                break
    else:
        hi = (lam, W, count)
        for _ in range(max_steps):
            lam /= factor
            W_new, c_new = solve(W0, lam, "shrink")
            if c_new == k:
                return _finish(W_new, lam, k, c_new, total, rows, row_threshold)
            if c_new < k:
                hi = (lam, W_new, c_new)
            else:
                lo = (lam, W_new, c_new)
                break
    if hi is None:
        return _finish(lo[1], lo[0], k, lo[2], total, rows, row_threshold)
    if lo is None:
        return _finish(hi[1], hi[0], k, hi[2], total, rows, row_threshold)
    for _ in range(max_bisect):
        if hi[0] / lo[0] - 1.0 < 1e-6:     # the count jumps over k at this λ
            break
        lam = float(np.sqrt(lo[0] * hi[0]))
        W_new, c_new = solve(lo[1], lam, "bisect")
        if c_new == k:
            return _finish(W_new, lam, k, c_new, total, rows, row_threshold)
        if c_new > k:
            lo = (lam, W_new, c_new)
        else:
            hi = (lam, W_new, c_new)
    return _finish(lo[1], lo[0], k, lo[2], total, rows, row_threshold)


def _finish(W, lam, k, count, total, rows, row_threshold=None):
    support = row_support(W, row_threshold) if count == k else top_k_rows(np.abs(W).max(axis=1), k)
    return PathResult(W, float(lam), support, count == k, total, pd.DataFrame(rows))

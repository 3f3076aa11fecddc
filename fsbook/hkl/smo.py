"""Warm-started SMO for the inner SVM of disjunctive HKL (numba).

Each evaluation of ``g(η)`` (eq. (9)) is the SVM dual

    max_{α∈τ(y,C)} 1ᵀα − ½ αᵀ(yyᵀ ∘ K)α,   τ(y,C) = {0 ≤ α ≤ C, yᵀα = 0},

with the precomputed kernel ``K = Σ_u σ_u K_u``.  Mirror descent calls it dozens of times with
kernels that change little, and the regularisation path calls it again at neighbouring ``C``.
scikit-learn's libsvm has no warm start, so every call restarts from ``α = 0``, which is what
makes large ``C`` slow.  This module is libsvm's solver (sequential minimal optimisation with the
second-order working-set selection of Fan, Chen and Lin, 2005, and libsvm's intercept rule)
written in numba with a warm start: the previous ``α``, clipped to ``[0, C]`` and repaired to
``yᵀα = 0``, is feasible, and only the gradient is recomputed.

Why not a linear solver on the explicit node features (liblinear's dual coordinate descent)?  It
has no exact unregularised intercept: liblinear penalises an appended constant column, which
changes problem (1), and the duality certificate of chapter 5 needs a dual point in ``τ(y,C)``,
equality constraint included.  The samples are few (``m`` ≈ 10³ posts), so the dense ``m × m``
Gram matrix is cheap to form from the sparse node indicators; the cost is in the iterations, and
those are what the warm start saves.
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["smo_svm"]

_TAU = 1e-12


@njit(cache=True)
def _smo(Q, y, C, alpha, eps, max_iter):
    m = y.shape[0]
    G = Q @ alpha - 1.0
    it = 0
    status = 1
    while it < max_iter:
        # working set: i maximal violator in I_up, j by second-order gain in I_low
        gmax = -np.inf
        i = -1
        for t in range(m):
            if y[t] > 0:
                if alpha[t] < C and -G[t] >= gmax:
                    gmax = -G[t]
                    i = t
            else:
                if alpha[t] > 0 and G[t] >= gmax:
                    gmax = G[t]
                    i = t
        gmax2 = -np.inf
        j = -1
        best = np.inf
        for t in range(m):
            if y[t] > 0:
                if alpha[t] > 0:
                    if G[t] >= gmax2:
                        gmax2 = G[t]
                    if i >= 0:
                        gd = gmax + G[t]
                        if gd > 0:
                            qc = Q[i, i] + Q[t, t] - 2.0 * y[i] * Q[i, t]
                            if qc <= 0:
                                qc = _TAU
                            od = -(gd * gd) / qc
                            if od <= best:
                                best = od
                                j = t
            else:
                if alpha[t] < C:
                    if -G[t] >= gmax2:
                        gmax2 = -G[t]
                    if i >= 0:
                        gd = gmax - G[t]
                        if gd > 0:
                            qc = Q[i, i] + Q[t, t] + 2.0 * y[i] * Q[i, t]
                            if qc <= 0:
                                qc = _TAU
                            od = -(gd * gd) / qc
                            if od <= best:
                                best = od
                                j = t
        if i < 0 or j < 0 or gmax + gmax2 < eps:
            status = 0
            break
        it += 1
        ai, aj = alpha[i], alpha[j]
        if y[i] != y[j]:
            qc = Q[i, i] + Q[j, j] + 2.0 * Q[i, j]
            if qc <= 0:
                qc = _TAU
            delta = (-G[i] - G[j]) / qc
            diff = ai - aj
            alpha[i] = ai + delta
            alpha[j] = aj + delta
            if diff > 0:
                if alpha[j] < 0:
                    alpha[j] = 0.0
                    alpha[i] = diff
            else:
                if alpha[i] < 0:
                    alpha[i] = 0.0
                    alpha[j] = -diff
            if diff > 0:
                if alpha[i] > C:
                    alpha[i] = C
                    alpha[j] = C - diff
            else:
                if alpha[j] > C:
                    alpha[j] = C
                    alpha[i] = C + diff
        else:
            qc = Q[i, i] + Q[j, j] - 2.0 * Q[i, j]
            if qc <= 0:
                qc = _TAU
            delta = (G[i] - G[j]) / qc
            s = ai + aj
            alpha[i] = ai - delta
            alpha[j] = aj + delta
            if s > C:
                if alpha[i] > C:
                    alpha[i] = C
                    alpha[j] = s - C
            else:
                if alpha[j] < 0:
                    alpha[j] = 0.0
                    alpha[i] = s
            if s > C:
                if alpha[j] > C:
                    alpha[j] = C
                    alpha[i] = s - C
            else:
                if alpha[i] < 0:
                    alpha[i] = 0.0
                    alpha[j] = s
        di = alpha[i] - ai
        dj = alpha[j] - aj
        for k in range(m):
            G[k] += Q[i, k] * di + Q[j, k] * dj
    # intercept (libsvm's rho): mean of y_i G_i over free α, else the middle of the bounds
    ub = np.inf
    lb = -np.inf
    sfree = 0.0
    nfree = 0
    for t in range(m):
        yg = y[t] * G[t]
        if alpha[t] >= C:
            if y[t] < 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        elif alpha[t] <= 0:
            if y[t] > 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        else:
            nfree += 1
            sfree += yg
    rho = sfree / nfree if nfree > 0 else 0.5 * (ub + lb)
    return alpha, -rho, it, status


def _feasible_start(alpha0, y, C):
    """Clip ``alpha0`` to ``[0, C]`` and restore ``yᵀα = 0`` by lowering the larger side."""
    a = np.clip(np.asarray(alpha0, dtype=np.float64), 0.0, C)
    pos, neg = y > 0, y < 0
    sp_, sn = a[pos].sum(), a[neg].sum()
    if sp_ > sn:
        a[pos] *= sn / sp_ if sp_ > 0 else 0.0
    elif sn > sp_:
        a[neg] *= sp_ / sn if sn > 0 else 0.0
    return a


def smo_svm(K, y, C, alpha0=None, tol=1e-7, max_iter=10_000_000):
    """Solve the SVM dual with a precomputed kernel by warm-started SMO.

    Parameters
    ----------
    K : ndarray of shape (m, m)
        Positive semi-definite kernel matrix.
    y : ndarray of shape (m,)
        Labels ``±1``.
    C : float
        Box constraint of ``τ(y, C)``.
    alpha0 : ndarray of shape (m,) or None
        Warm start (any vector; it is made feasible); ``None`` starts from ``α = 0``.
    tol : float
        Stopping tolerance on the maximal KKT violation (libsvm's ``eps``).
    max_iter : int
        Cap on SMO steps; a capped run returns a feasible, inexact ``α``.

    Returns
    -------
    alpha : ndarray of shape (m,), in ``τ(y, C)``
    b : float
        Intercept: the decision function is ``Σ_i α_i y_i K(x_i, x) + b``.
    n_iter : int
    converged : bool
    """
    y = np.asarray(y, dtype=np.float64)
    K = np.asarray(K, dtype=np.float64)
    Q = K * y[:, None] * y[None, :]
    a = np.zeros(y.shape[0]) if alpha0 is None else _feasible_start(alpha0, y, float(C))
    alpha, b, it, status = _smo(Q, y, float(C), a, float(tol), int(max_iter))
    return alpha, float(b), int(it), status == 0

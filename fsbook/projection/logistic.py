"""Exact ℓ2-penalised logistic regression along a path of ``C``, many problems at once.

The text experiments of Zhang & Schneider (2010) fit a logistic regression with an unpenalised
intercept to each of thousands of small problems (5 folds × 10 values of the penalty × 3 designs
per task), many of them on more words than documents and at penalties so small that the problem
is nearly the hard-margin one.  An iterative solver stopped by a gradient test then returns
wherever it stopped; this module solves every problem to machine precision instead, and cheaply:

- :func:`reduced_coordinates` -- an ℓ2-penalised linear model has its weights in the row space
  of its training matrix, so it is fitted in at most ``n`` coordinates for ``n`` rows;
- :func:`logistic_path` -- damped Newton steps on a batch of problems padded to one shape,
  solved jointly, warm-started along increasing ``C``;
- :func:`lgr_cv_path` -- every fold and every ``C`` of a stratified cross-validation in one
  batched solve: validation accuracy, log-loss and share of predicted positives;
- :func:`lgr_refit_decision` -- the model at one ``C`` refitted on all the training rows, its
  decision values on new rows.

The penalty is written as in the paper, ``α ||w||²`` with ``C = 1/(2α)`` (scikit-learn's
:class:`~sklearn.linear_model.LogisticRegression` objective up to the factor ``C``).

References
----------
.. [1] T. Zhang and J. Schneider, "Projection penalties: dimension reduction without loss",
   Proceedings of the 27th International Conference on Machine Learning (ICML), 2010.
.. [2] S. Boyd and L. Vandenberghe, *Convex Optimization*, Cambridge University Press, 2004,
   Section 9.5 (Newton's method, the Newton decrement and backtracking line search).
"""
import numpy as np
import scipy.sparse as sp
from scipy.special import expit
from sklearn.model_selection import StratifiedKFold

__all__ = ["reduced_coordinates", "logistic_path", "lgr_cv_path", "lgr_refit_decision"]


def reduced_coordinates(A_fit, A_other):
    """The rows of ``A_fit`` and ``A_other`` in an orthonormal basis of the row space of ``A_fit``.

    An ℓ2-penalised linear model fitted on ``A_fit`` has its weights in that row space (the
    part orthogonal to it changes no training prediction and only adds penalty), so fitting
    it on ``Φ`` (at most ``n`` columns for ``n`` rows) is the same problem: same penalty, same
    training and ``A_other`` decision values.  With the thin SVD ``A_fit = U S Vᵀ``,
    ``Φ = U S`` and ``Φ_other = A_other V``.  Directions with singular values below
    ``s_max · max(shape) · eps`` (rounding) are dropped.

    Parameters
    ----------
    A_fit : {ndarray, sparse matrix} of shape (n, d)
        The training rows.
    A_other : {ndarray, sparse matrix} of shape (m, d)
        Other rows to express in the same coordinates (e.g. validation or test rows).

    Returns
    -------
    Phi : ndarray of shape (n, r)
        ``A_fit`` in the ``r`` coordinates (``r ≤ min(n, d)``, the numerical rank).
    Phi_other : ndarray of shape (m, r)
        ``A_other`` in the same coordinates.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.projection.logistic import reduced_coordinates
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(4, 10))
    >>> Phi, Phi_other = reduced_coordinates(A, A)
    >>> Phi.shape, bool(np.allclose(Phi @ Phi.T, A @ A.T)), bool(np.allclose(Phi_other, Phi))
    ((4, 4), True, True)
    """
    A = A_fit.toarray() if sp.issparse(A_fit) else np.asarray(A_fit, dtype=float)
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    r = int(np.sum(s > s[0] * max(A.shape) * np.finfo(float).eps)) if s.size and s[0] > 0 else 0
    return U[:, :r] * s[:r], np.asarray(A_other @ Vt[:r].T)


def _newton_logistic(X, sgn, m, reg, theta, max_iter):
    """Damped Newton steps from ``theta`` (B, r+1) for the problems of :func:`logistic_path`
    (``X`` (B, n, r+1) with the intercept's column last, ``sgn`` and ``m`` (B, n), ``reg``
    (B, r+1)); returns the solutions.  A problem stops when its Newton decrement is below
    ``1e-13`` of its objective or its step moves no decision value by more than
    ``1e-10 (1 + max |z|)``, and is then left alone; only the active problems are solved."""
    theta = theta.copy()
    Xt = np.swapaxes(X, -1, -2)

    def objective(idx, th):
        z = (X[idx] @ th[..., None])[..., 0]
        return np.sum(m[idx] * np.logaddexp(0.0, -sgn[idx] * z), -1) + 0.5 * np.sum(reg[idx] * th * th, -1), z

    active = np.arange(len(theta))
    F, z = objective(active, theta)
    diag = np.arange(theta.shape[1])
    for _ in range(max_iter):
        Xa, Xta, sa, ma, ra, th = X[active], Xt[active], sgn[active], m[active], reg[active], theta[active]
        q = expit(-sa * z)               # P(wrong label), not 1 - P(right): no cancellation at large margins
        g = (Xta @ (ma * -sa * q)[..., None])[..., 0] + ra * th
        H = Xta @ (Xa * (ma * q * expit(sa * z))[..., None])
        H[..., diag, diag] += ra
        step = -np.linalg.solve(H, g[..., None])[..., 0]
        dz = (Xa @ step[..., None])[..., 0]
        decrement = -np.sum(g * step, -1)
        done = ((np.max(np.abs(dz) * ma, -1) <= 1e-10 * (1 + np.max(np.abs(z) * ma, -1)))
                | (decrement <= 1e-13 * np.abs(F)))
        theta[active[done]] = th[done] + step[done]
        keep = ~done
        active, F, th, step, decrement = active[keep], F[keep], th[keep], step[keep], decrement[keep]
        if not active.size:
            return theta
        t = np.ones(active.size)
        for _ in range(60):                                                    # Armijo backtracking
            F_new, z = objective(active, th + t[:, None] * step)
            bad = F_new > F - 1e-4 * t * decrement + 1e-13 * np.abs(F)
            if not bad.any():
                break
            t = np.where(bad, t / 2, t)
        theta[active] = th + t[:, None] * step
        F = F_new
    raise RuntimeError(f"logistic_path: {active.size} of {len(theta)} problems not converged after "
                       f"{max_iter} Newton steps")


def logistic_path(Phi, y, mask, Cs, *, max_iter=100):
    """Exact ℓ2-penalised logistic regression with an unpenalised intercept for a batch of
    problems along a path of ``C``, by damped Newton steps solved jointly.

    Problem ``(b, j)`` minimises ``Σ_i mask[b, i] · log(1 + exp(-s_i (Φ[b, i] u + c))) +
    ||u||² / (2 Cs[j])`` with ``s_i = 2 y[b, i] - 1`` (scikit-learn's ``LogisticRegression``
    objective up to the factor ``C``; the intercept ``c`` is not penalised).  The ``C`` values
    are taken in increasing order, each from the previous solution (zero for the first): a
    warm-started regularisation path.  A step is halved until Armijo's condition holds; a
    problem stops at machine precision: when its Newton decrement is below ``1e-13`` of its
    objective or its step moves no decision value by more than ``1e-10 (1 + max |z|)``.

    Parameters
    ----------
    Phi : ndarray of shape (B, n, r)
        Features of ``B`` problems (pad shorter problems with rows of ``mask`` 0 and columns of
        zeros: a zero column keeps a zero weight).
    y : ndarray of shape (B, n)
        Labels, 0 or 1.
    mask : ndarray of shape (B, n)
        Row weights, 1 for a row of the problem, 0 for padding.
    Cs : array-like of shape (k,)
        Inverse penalties, positive.
    max_iter : int, default=100
        Newton steps allowed per ``C``.

    Returns
    -------
    coef : ndarray of shape (B, k, r)
        The weights of problem ``b`` at ``Cs[j]`` in ``coef[b, j]``.
    intercept : ndarray of shape (B, k)
        The intercepts.

    Raises
    ------
    RuntimeError
        If some problem has not converged after ``max_iter`` steps.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.projection.logistic import logistic_path
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(30, 3)); y = (X[:, 0] + rng.normal(size=30) > 0).astype(int)
    >>> coef, b = logistic_path(X[None], y[None], np.ones((1, 30)), [0.1, 10.0])
    >>> ref = LogisticRegression(C=10.0, tol=1e-10).fit(X, y)
    >>> bool(np.allclose(coef[0, 1], ref.coef_[0], atol=1e-6)), bool(np.isclose(b[0, 1], ref.intercept_[0], atol=1e-6))
    (True, True)
    """
    Phi, y, mask = (np.asarray(a, dtype=float) for a in (Phi, y, mask))
    Cs = np.asarray(Cs, dtype=float)
    if Phi.ndim != 3 or y.shape != Phi.shape[:2] or mask.shape != y.shape:
        raise ValueError(f"Phi must be (B, n, r) and y, mask (B, n); got {Phi.shape}, {y.shape}, {mask.shape}")
    if Cs.ndim != 1 or not np.all(Cs > 0):
        raise ValueError("Cs must be a 1-d array of positive numbers")
    B, n, r = Phi.shape
    X = np.concatenate([Phi, np.ones((B, n, 1))], axis=2)
    sgn = 2.0 * y - 1.0
    theta = np.zeros((B, r + 1))
    out = np.zeros((B, len(Cs), r + 1))
    for j in np.argsort(Cs, kind="stable"):
        reg = np.zeros((B, r + 1))
        reg[:, :r] = 1.0 / Cs[j]
        theta = _newton_logistic(X, sgn, mask, reg, theta, max_iter)
        out[:, j] = theta
    return out[..., :r], out[..., r]


def lgr_cv_path(A_tr, y_tr, grid, seed):
    """Validation accuracy and log-loss of ℓ2 logistic regression for every α of ``grid``.

    The folds are stratified, ``min(5, smallest class)`` of them, shuffled with ``seed``
    (:class:`~sklearn.model_selection.StratifiedKFold`); all folds and all α are solved in one
    batched Newton solve (:func:`logistic_path`), each fold in its reduced coordinates
    (:func:`reduced_coordinates`).

    Parameters
    ----------
    A_tr : {ndarray, sparse matrix} of shape (n, d)
        Training rows.
    y_tr : ndarray of shape (n,)
        Labels, 0 or 1.
    grid : array-like of shape (k,)
        Penalties α of ``α ||w||²``, positive; ``C = 1/(2α)``.
    seed : int
        Seed of the folds' shuffle.

    Returns
    -------
    dict
        ``"C"``: the C values (``1/(2α)``, smallest first);
        ``"accuracy"``, ``"log_loss"``, ``"positive"``: arrays of shape (folds, len(grid)), each
        fold's validation accuracy, mean log-loss (natural log) and share of validation
        rows predicted in class 1, per C; ``"n_validation"``: each fold's validation rows.

    See Also
    --------
    lgr_refit_decision : the model at one C refitted on all the training rows.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.projection.logistic import lgr_cv_path
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(20, 50)); y = np.repeat([0, 1], 10); A[y == 1, 0] += 3
    >>> out = lgr_cv_path(A, y, [1e-2, 1e2], seed=0)
    >>> out["accuracy"].shape, out["C"].tolist()
    ((5, 2), [0.005, 50.0])
    """
    n_folds = int(min(5, np.bincount(y_tr).min()))
    Cs = np.sort(1.0 / (2 * np.asarray(grid, dtype=float)))
    folds = list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(np.zeros(len(y_tr)), y_tr))
    coords = [reduced_coordinates(A_tr[tr], A_tr[va]) for tr, va in folds]
    n = max(len(tr) for tr, _ in folds)
    r = max(1, max(c[0].shape[1] for c in coords))
    Phi, Y, M = np.zeros((n_folds, n, r)), np.zeros((n_folds, n)), np.zeros((n_folds, n))
    for f, ((tr, _), (Pt, _)) in enumerate(zip(folds, coords)):
        Phi[f, :len(tr), :Pt.shape[1]], Y[f, :len(tr)], M[f, :len(tr)] = Pt, y_tr[tr], 1.0
    coef, intercept = logistic_path(Phi, Y, M, Cs)
    acc, nll, pos = (np.zeros((n_folds, len(Cs))) for _ in range(3))
    for f, ((_, va), (Pt, Pv)) in enumerate(zip(folds, coords)):
        z = Pv @ coef[f, :, :Pt.shape[1]].T + intercept[f]                    # (n_va, k)
        yv = y_tr[va][:, None]
        acc[f] = np.mean((z > 0) == (yv == 1), axis=0)
        nll[f] = np.mean(np.logaddexp(0.0, -(2.0 * yv - 1.0) * z), axis=0)
        pos[f] = np.mean(z > 0, axis=0)
    return {"C": Cs, "accuracy": acc, "log_loss": nll, "positive": pos,
            "n_validation": np.array([len(va) for _, va in folds])}


def lgr_refit_decision(A_tr, y_tr, A_te, Cs):
    """Decision values on ``A_te`` of the exact ℓ2 logistic regression (unpenalised intercept)
    fitted on all of ``A_tr`` at the largest C of ``Cs``, warm-started along ``Cs``.

    :func:`logistic_path` in the reduced coordinates of ``A_tr`` (:func:`reduced_coordinates`).

    Parameters
    ----------
    A_tr : {ndarray, sparse matrix} of shape (n, d)
        Training rows.
    y_tr : ndarray of shape (n,)
        Labels, 0 or 1.
    A_te : {ndarray, sparse matrix} of shape (m, d)
        Rows to score.
    Cs : array-like of shape (k,)
        Inverse penalties, positive: the path up to the C of the model.

    Returns
    -------
    ndarray of shape (m,)
        The decision values (positive: class 1).

    See Also
    --------
    lgr_cv_path : the cross-validation that chooses C.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.projection.logistic import lgr_refit_decision
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(20, 40)); y = np.repeat([0, 1], 10); A[y == 1, 0] += 3
    >>> z = lgr_refit_decision(A, y, A, [0.01, 1.0])
    >>> z.shape, bool(np.mean((z > 0) == (y == 1)) == 1.0)
    ((20,), True)
    """
    Cs = np.asarray(Cs, dtype=float)
    Phi, Pte = reduced_coordinates(A_tr, A_te)
    coef, b = logistic_path(Phi[None], np.asarray(y_tr)[None], np.ones((1, len(y_tr))), Cs)
    return Pte @ coef[0, int(np.argmax(Cs))] + b[0, int(np.argmax(Cs))]

"""The HSIC criterion of HSFS (eqs. 8-11) and its gradient in matrix form.

``J(W) = −(1/n²) tr(K H L H)`` with ``K_ij = exp(−||Wᵀ(x_i − x_j)||² / 2σ²)``
(Gaussian kernel on ``XW``), ``L = Y Yᵀ`` the delta kernel of the one-hot
labels (for a regression target, the linear kernel ``L = t tᵀ`` of the standardised
target ``t``) and ``H = I − 11ᵀ/n``.  Writing ``Γ = HLH``, ``A = K ∘ Γ`` and
``D = diag(A1)``, the per-row form of eq. (11) sums to one product,

    ∇J(W) = (2 / (n²σ²)) Xᵀ (D − A) X W,

because ``Σ_ij A_ij (x_i − x_j)(x_i − x_j)ᵀ = 2 Xᵀ(D − A)X`` for symmetric
``A``.  One evaluation costs ``O(n²q + ndq)``: ``XW`` (sparse-times-dense if
``X`` is sparse), the ``n × n`` kernel, ``(D − A)XW`` and ``Xᵀ(·)``; the
``d × d`` or ``n × n × d`` tensors of the per-row form are never built.

**Sample weights** (:func:`weighted_centred_kernel`).  Repeating sample ``i`` ``c_i`` times
(``N = Σ c_i`` rows, ``E`` the ``N × n`` indicator of the original rows) gives ``K̃ = EKEᵀ``,
``L̃ = ELEᵀ`` and ``H̃E = E − 1_N cᵀ/N = E H_p`` with ``p = c/N`` and ``H_p = I − 1pᵀ``, so

    (1/N²) tr(K̃H̃L̃H̃) = Σ_ij p_i p_j K_ij (H_p L H_pᵀ)_ij = tr(K D_p H_p L H_pᵀ D_p),

``D_p = diag(p)``.  For weights ``w`` we put ``p = w / Σw``: the criterion keeps the matrix form
above with ``Γ = n² D_p H_p L H_pᵀ D_p`` in place of ``HLH`` (the ``1/n²`` stays; ``p = 1/n`` gives
``HLH``), integer weights give the criterion of the repeated samples, a zero weight that of the
samples without it, and ``w`` and ``c w`` (``c > 0``) the same criterion.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from fsbook._targets import refuse_constant_target, standardised
from fsbook.l1linf._kernels_hsic import (
    hsic_value,
    hsic_value_and_daz,
    hsic_value_and_daz_vectorised,
    hsic_value_vectorised,
)

#: the pair kernels of :class:`HSICCriterion`: ``(value and (D − A)Z, value alone)``
PAIR_KERNELS = {"vectorised": (hsic_value_and_daz_vectorised, hsic_value_vectorised),
                "libm": (hsic_value_and_daz, hsic_value)}

__all__ = ["HSICCriterion", "centred_label_kernel", "centred_target_kernel", "gaussian_kernel_from_scores",
           "weighted_centred_kernel", "weighted_centred_factors"]


def centred_label_kernel(y):
    """``Γ = H L H`` for the delta kernel ``L_ij = [y_i = y_j]`` (n × n)."""
    _, codes = np.unique(np.asarray(y), return_inverse=True)
    Y = np.eye(codes.max() + 1)[codes]
    Yc = Y - Y.mean(axis=0)
    return Yc @ Yc.T


def centred_target_kernel(y):
    """``Γ = H L H = t tᵀ`` for the linear kernel of the standardised regression target ``t``."""
    t = standardised(y)
    return np.outer(t, t)


def weighted_centred_kernel(y, sample_weight, regression=False):
    """``Γ = n² D_p H_p L H_pᵀ D_p`` with ``p = w / Σw``, the ``HLH`` of weighted samples (module docstring).

    ``H_p L H_pᵀ = Y_p Y_pᵀ`` with ``Y_p = Y − 1πᵀ`` the one-hot labels centred by the weighted class
    priors ``π = Yᵀp`` (delta kernel), or ``t tᵀ`` with ``t`` the target standardised by its weighted
    mean and standard deviation (linear kernel, already centred: ``H_p t = t``).  With ``s = n p``
    (the weights relative to their mean), ``Γ_ij = s_i s_j (Y_p Y_pᵀ)_ij``.

    Parameters
    ----------
    y : array-like (n,)
        Class labels, or the target values when ``regression``.
    sample_weight : array-like (n,)
        Non-negative weights with a positive sum.
    regression : bool, default False

    Returns
    -------
    ndarray (n, n)

    Examples
    --------
    Integer weights give the criterion of the repeated samples (and a zero weight drops one):

    >>> import numpy as np
    >>> X, y, w = np.sqrt(np.arange(8.0)).reshape(4, 2), np.array([0, 1, 1, 2]), np.array([2, 1, 0, 3])
    >>> rows = np.repeat(np.arange(4), w)
    >>> W = np.ones((2, 1))
    >>> weighted = HSICCriterion(X, y, sample_weight=w).value(W)
    >>> bool(np.isclose(weighted, HSICCriterion(X[rows], y[rows]).value(W), rtol=1e-12))
    True
    """
    Ys = weighted_centred_factors(y, sample_weight, regression)
    return Ys @ Ys.T


def weighted_centred_factors(y, sample_weight, regression=False):
    """The factor ``F = S Y_p`` of :func:`weighted_centred_kernel`'s ``Γ = F Fᵀ``: ``S = diag(n p)``
    and ``Y_p`` the one-hot labels centred by the weighted class priors (one column per class),
    or the target standardised by its weighted mean and standard deviation (one column).
    :class:`~fsbook.baselines.FOHSIC` forms ``Γ`` a block of rows at a time from it."""
    w = np.asarray(sample_weight, dtype=float)
    s = w * (len(w) / w.sum())                          # n p: exactly 1 for equal weights
    p = w / w.sum()
    if regression:
        y = np.asarray(y, dtype=float)
        refuse_constant_target(y[w > 0])                # the samples that count
        mean = p @ y
        t = (y - mean) / np.sqrt(p @ (y - mean) ** 2)
        Yp = t[:, None]
    else:
        _, codes = np.unique(np.asarray(y), return_inverse=True)
        Y = np.eye(codes.max() + 1)[codes]
        Yp = Y - p @ Y
    return s[:, None] * Yp


def gaussian_kernel_from_scores(Z, sigma):
    """``K_ij = exp(−||z_i − z_j||² / 2σ²)`` for the rows of ``Z`` (n × q)."""
    sq = np.einsum("ij,ij->i", Z, Z)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (Z @ Z.T), 0.0)
    return np.exp(-D2 / (2.0 * sigma ** 2))


class HSICCriterion:
    """``J(W) = −HSIC(XW, y)`` and its gradient (matrix form above).

    Parameters
    ----------
    X : ndarray or sparse matrix (n, d)
    y : ndarray (n,)
        Class labels, or the target values when ``regression``.
    sigma : float, width of the Gaussian kernel on ``XW``
    pair_kernel : {"vectorised", "libm"}, default "vectorised"
        The numba kernel of the pair sums: ``"libm"`` calls libm's ``exp`` once per pair (the
        bits of fsbook's earlier, scalar kernel), ``"vectorised"`` evaluates the
        exponentials in vectorised arithmetic (:func:`fsbook.l1linf._kernels_hsic.exp_nonpositive`,
        within one unit in the last place) and sums in vectorised orders: the same values to
        rounding, about 3× cheaper at ``n = 300, q = 10``.
    regression : bool, default False
        ``y`` is a regression target: ``Γ = t tᵀ`` for the standardised target ``t`` (the
        linear kernel, already centred) instead of the centred delta kernel of the classes.
    sample_weight : ndarray (n,) or None, default None
        Non-negative weights of the samples: ``Γ`` is then :func:`weighted_centred_kernel`'s
        ``n² D_p H_p L H_pᵀ D_p`` with ``p = w / Σw`` (module docstring), so that integer weights
        give the criterion of the repeated samples; None is the unweighted ``HLH``.
    """

    def __init__(self, X, y, sigma=1.0, pair_kernel="vectorised", regression=False, sample_weight=None):
        if pair_kernel not in PAIR_KERNELS:
            raise ValueError(f"pair_kernel must be one of {sorted(PAIR_KERNELS)}; got {pair_kernel!r}")
        self.X = X.tocsr() if sp.issparse(X) else np.asarray(X, dtype=float)
        if sample_weight is None:
            self.Gamma = centred_target_kernel(y) if regression else centred_label_kernel(y)
        else:
            self.Gamma = weighted_centred_kernel(y, sample_weight, regression=regression)
        self.n = self.Gamma.shape[0]
        self.sigma = float(sigma)
        self.pair_kernel = pair_kernel
        self._columns = None

    def restrict(self, rows):
        """The criterion of ``W_S ↦ J(W)`` with the rows outside ``S = rows`` of ``W`` fixed at zero.

        ``XW = X_S W_S`` when the other rows are zero, so this is the criterion on the
        columns ``X_S`` (same ``Γ`` and σ): its value is ``J(W)`` and its gradient the rows
        ``S`` of ``∇J(W)``, at the cost ``O(n²q + nnz(X_S) q)`` instead of ``O(n²q + nnz(X) q)``.
        """
        rows = np.asarray(rows, dtype=np.intp)
        if self._columns is None:                      # column slicing is cheap on CSC
            self._columns = self.X.tocsc() if sp.issparse(self.X) else self.X
        sub = object.__new__(HSICCriterion)
        Xs = self._columns[:, rows]
        sub.X = Xs.tocsr() if sp.issparse(Xs) else np.ascontiguousarray(Xs)
        sub.Gamma, sub.n, sub.sigma, sub._columns = self.Gamma, self.n, self.sigma, None
        sub.pair_kernel = self.pair_kernel
        return sub

    def __call__(self, W):
        """Return ``(J(W), ∇J(W))`` (the pair sums by :func:`fsbook.l1linf._kernels_hsic.hsic_value_and_daz`)."""
        Z = np.ascontiguousarray(self.X @ W, dtype=float)
        total, DAZ = PAIR_KERNELS[self.pair_kernel][0](Z, self.Gamma, 1.0 / (2.0 * self.sigma ** 2))
        n2 = float(self.n) ** 2
        grad = np.asarray(self.X.T @ DAZ) * (2.0 / (n2 * self.sigma ** 2))
        return -total / n2, grad

    def value(self, W):
        """``J(W)`` alone (no ``Xᵀ`` product, no ``(D − A)Z``): the proximal-gradient
        line search needs only values at its trial points.  Bitwise equal to ``self(W)[0]`` with
        ``pair_kernel="libm"``, equal to rounding with ``"vectorised"``."""
        Z = np.ascontiguousarray(self.X @ W, dtype=float)
        return -PAIR_KERNELS[self.pair_kernel][1](Z, self.Gamma, 1.0 / (2.0 * self.sigma ** 2)) / float(self.n) ** 2

    def reference(self, W):
        """``(J(W), ∇J(W))`` with the ``n × n`` matrices in NumPy (checks the numba kernel)."""
        Z = np.asarray(self.X @ W)
        A = gaussian_kernel_from_scores(Z, self.sigma) * self.Gamma
        n2 = float(self.n) ** 2
        DAZ = A.sum(axis=1)[:, None] * Z - A @ Z
        return -float(A.sum()) / n2, np.asarray(self.X.T @ DAZ) * (2.0 / (n2 * self.sigma ** 2))

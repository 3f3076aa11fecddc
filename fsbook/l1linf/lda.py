"""The LDA criterion of LDFS (eqs. 2, 5-7) in a scalar form, with its gradient.

The paper writes ``LDA(XW) = WᵀS_B W / WᵀS_W W``, a ratio of q × q matrices.
We use the scalar

    J(W) = − tr[(WᵀS_W W + δ I_q)⁻¹ WᵀS_B W],

the trace form of multi-class Fisher LDA with a ridge ``δ > 0`` in the
projected space.  For ``q = 1`` and ``δ = 0`` it is the paper's Rayleigh
quotient and its gradient is eq. (7).  The ridge is needed: with ``δ = 0`` the
criterion is invariant to ``W → cW``, so ``J(cW) + λ c Σ||w_j||∞`` decreases
as ``c → 0`` and the penalised problem (6) has no minimiser; ``δ`` fixes the
scale (``J → 0`` as ``W → 0``, ``J →`` the Fisher trace as ``W`` grows).

``S_W`` and ``S_B`` (scaled by ``1/n``) are never formed: ``S_W W = X_wᵀ(X_w W)``
with ``X_w W = XW − Z(MW)`` (``Z`` the class indicator, ``M`` the class means)
and ``S_B W = X_bᵀ(X_b W)`` with ``X_b`` the ``C × d`` weighted centred means, so
one evaluation costs ``O(ndq + Cdq + q³)`` and sparse ``X`` stays sparse.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["LDACriterion"]


class LDACriterion:
    """``J(W)`` and ``∇J(W)`` of the scalar LDA form above.

    Parameters
    ----------
    X : ndarray or sparse matrix (n, d)
    y : ndarray (n,) of class codes 0..C-1
    ridge : float, δ > 0
    """

    def __init__(self, X, y, ridge=1.0):
        self.X = X.tocsr() if sp.issparse(X) else np.asarray(X, dtype=float)
        y = np.asarray(y)
        n = y.shape[0]
        classes, codes = np.unique(y, return_inverse=True)
        self.Z = sp.csr_matrix((np.ones(n), (np.arange(n), codes)), shape=(n, len(classes)))
        counts = np.asarray(self.Z.sum(axis=0)).ravel()
        sums = self.Z.T @ self.X
        M = (sums.toarray() if sp.issparse(sums) else np.asarray(sums)) / counts[:, None]  # class means, C x d
        xbar = np.asarray(self.X.mean(axis=0)).ravel()
        self.M = M
        self.Xb = np.sqrt(counts / n)[:, None] * (M - xbar)         # S_B = Xbᵀ Xb
        self.n = n
        self.ridge = float(ridge)

    def scatter_traces(self):
        """``(tr S_W, tr S_B)`` (scaled by ``1/n``), without forming either matrix.

        ``tr S_B = ||X_b||²_F`` and ``tr S_W = ||X||²_F/n − Σ_c (n_c/n) ||m_c||²`` (the total
        second moment minus that of the class means).

        Examples
        --------
        >>> import numpy as np
        >>> crit = LDACriterion(np.array([[0.0], [2.0], [4.0], [6.0]]), [0, 0, 1, 1])
        >>> tuple(round(v, 12) for v in crit.scatter_traces())
        (1.0, 4.0)
        """
        sq = self.X.multiply(self.X).sum() if sp.issparse(self.X) else np.einsum("ij,ij->", self.X, self.X)
        counts = np.asarray(self.Z.sum(axis=0)).ravel()
        within = float(sq) / self.n - float(np.sum(counts / self.n * np.einsum("cj,cj->c", self.M, self.M)))
        return max(within, 0.0), float(np.einsum("cj,cj->", self.Xb, self.Xb))

    def restrict(self, rows):
        """The criterion of ``W_S ↦ J(W)`` with the rows outside ``S = rows`` fixed at zero:
        the same criterion on the columns ``X_S`` (``M`` and ``X_b`` restricted alike)."""
        rows = np.asarray(rows, dtype=np.intp)
        sub = object.__new__(LDACriterion)
        sub.__dict__.update(self.__dict__)
        Xs = (self.X.tocsc() if sp.issparse(self.X) else self.X)[:, rows]
        sub.X = Xs.tocsr() if sp.issparse(Xs) else np.ascontiguousarray(Xs)
        sub.M, sub.Xb = self.M[:, rows], self.Xb[:, rows]
        return sub

    def within_scores(self, W):
        """``X_w W / √n`` (n × q), the centred-within-class projections."""
        return (self.X @ W - self.Z @ (self.M @ W)) / np.sqrt(self.n)

    def within_transpose(self, V):
        """``X_wᵀ V / √n`` (d × q)."""
        return (np.asarray(self.X.T @ V) - self.M.T @ (self.Z.T @ V)) / np.sqrt(self.n)

    def __call__(self, W):
        """Return ``(J(W), ∇J(W))``: ``∇J = −2 [S_B W P⁻¹ − S_W W P⁻¹ B P⁻¹]``,
        ``P = WᵀS_W W + δI``, ``B = WᵀS_B W``."""
        Vw = self.within_scores(W)
        Vb = self.Xb @ W
        P = Vw.T @ Vw + self.ridge * np.eye(W.shape[1])
        B = Vb.T @ Vb
        Pinv = np.linalg.inv(P)
        PinvB = Pinv @ B
        value = -float(np.trace(PinvB))
        SBWP = self.Xb.T @ (Vb @ Pinv)
        SWWPBP = self.within_transpose(Vw @ (PinvB @ Pinv))
        return value, -2.0 * (SBWP - SWWPBP)

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

**The within-class scatter is shrunk.**  When ``S_W`` is singular (more features than
samples minus classes: ARCENE, DEXTER and Yale in chapter 2) the ridge δ does not bound ``J``:
for ``W`` in the null space of ``S_W`` with ``WᵀS_B W ≠ 0``, ``J(cW) = −c² tr(WᵀS_B W)/δ``
falls faster than the penalty ``λ c Σ||w_j||∞`` grows, so problem (6) has no minimiser and a
solver stops wherever its iteration budget ends (on Yale the first solve of the path lowers
``J`` from −7.5·10³ after 150 iterations to −1.4·10⁶ after 2 000).  We therefore use the
shrunk scatter

    S = (1 − γ) S_W + γ m I,   m = tr(S_W)/d,

(regularised discriminant analysis, Friedman 1989), with γ ∈ [0, 1] by default the Ledoit–Wolf
estimate (:func:`ledoit_wolf_within`).  For γ > 0, ``S ⪰ γ m I`` and ``J ≥ −tr(S_B)/(γ m)``:
``J`` is bounded and (6) has a minimiser for every λ > 0.  γ = 0 is the criterion above.

``S_W`` and ``S_B`` (scaled by ``1/n``) are never formed: ``S_W W = X_wᵀ(X_w W)``
with ``X_w W = XW − Z(MW)`` (``Z`` the class indicator, ``M`` the class means)
and ``S_B W = X_bᵀ(X_b W)`` with ``X_b`` the ``C × d`` weighted centred means, so
one evaluation costs ``O(ndq + Cdq + q³)`` and sparse ``X`` stays sparse.

**Sample weights.**  With weights ``w`` and ``p = w / Σw``, every ``1/n`` above becomes ``p_i``:
the class masses ``π_c = Σ_{i∈c} p_i``, the weighted class means ``m_c = Σ_{i∈c} p_i x_i / π_c``
and overall mean ``x̄ = Σ_i p_i x_i``, and

    S_W = Σ_i p_i (x_i − m_{c(i)})(x_i − m_{c(i)})ᵀ,    S_B = Σ_c π_c (m_c − x̄)(m_c − x̄)ᵀ,

which are the (``1/N``-scaled) scatter matrices of the data with sample ``i`` repeated ``c_i``
times when ``w = c`` is an integer vector (``N = Σ c_i``), and do not change when ``w`` is
multiplied by a constant.  So ``X_w W`` gets the row factors ``√(n p_i)`` and ``X_b`` the weighted
masses and means; δ and γ m act on these normalised scatters, so their meaning does not depend
on ``n`` or on the scale of ``w``.  The Ledoit–Wolf γ (:func:`ledoit_wolf_within`) is the one
exception: it estimates the variance of ``S_W`` from ``N = Σw`` samples (its ``β`` has a factor
``1/N``), which keeps integer weights equal to repeated samples but makes γ change when the
weights are scaled (``w`` and ``2w`` are the data once and twice over).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["LDACriterion", "ledoit_wolf_within"]


def _within_gram(X, Z, M):
    """``X_w X_wᵀ`` (n × n) of the within-class centred ``X_w = X − Z M``, without forming ``X_w``."""
    XX = X @ X.T
    XX = XX.toarray() if sp.issparse(XX) else np.asarray(XX)
    Zd = Z.toarray()                               # n × C class indicator
    A = np.asarray(X @ M.T) @ Zd.T                 # X Mᵀ Zᵀ
    return XX - A - A.T + Zd @ (M @ M.T) @ Zd.T


def ledoit_wolf_within(X, y, sample_weight=None):
    """Ledoit–Wolf shrinkage γ of the within-class scatter ``S_W`` toward ``(tr S_W / d) I``.

    The estimate of :func:`sklearn.covariance.ledoit_wolf_shrinkage` on the within-class centred
    data (``assume_centered=True``), computed from the ``n × n`` Gram matrix ``G = X_w X_wᵀ``
    so that it costs ``O(n²d)`` and a sparse ``X`` stays sparse: with ``t = tr G / n``,
    ``μ = t/d``, ``β = (Σ_i G_ii² / n − ||G||²_F / n²) / (d n)`` and
    ``δ = (||G||²_F / n² − 2 μ t + d μ²) / d``, γ = ``min(β, δ) / δ`` (0 when β = 0).

    With ``sample_weight``, ``p = w / Σw`` replaces ``1/n`` in every mean (``t = Σ_i p_i G_ii``,
    ``||G||²_F / n² → Σ_il p_i p_l G_il²``, ``Σ_i G_ii² / n → Σ_i p_i G_ii²``; ``G`` of the
    data centred by the weighted class means) and ``N = Σw`` replaces the ``n`` of
    ``β = (…) / (d N)``: integer weights give the γ of the repeated samples.

    Parameters
    ----------
    X : ndarray or sparse matrix (n, d)
    y : array-like (n,) of class labels
    sample_weight : ndarray (n,) or None, default None
        Non-negative weights (see above).

    Returns
    -------
    float in [0, 1]

    References
    ----------
    .. [1] Ledoit, O. and Wolf, M. (2004). A well-conditioned estimator for large-dimensional
       covariance matrices. Journal of Multivariate Analysis, 88(2), 365-411.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(20, 50)), np.repeat([0, 1], 10)
    >>> gamma = ledoit_wolf_within(X, y)
    >>> 0 < gamma <= 1
    True
    """
    return LDACriterion(X, y, sample_weight=sample_weight).ledoit_wolf()


class LDACriterion:
    """``J(W)`` and ``∇J(W)`` of the scalar LDA form above.

    Parameters
    ----------
    X : ndarray or sparse matrix (n, d)
    y : ndarray (n,) of class codes 0..C-1
    ridge : float, δ > 0
    shrinkage : float, γ in [0, 1], default 0
        Weight of ``m I`` in the shrunk scatter ``S = (1 − γ) S_W + γ m I`` (module docstring).
    sample_weight : ndarray (n,) or None, default None
        Non-negative weights with a positive sum: the weighted scatter matrices of the module
        docstring (integer weights give those of the repeated samples); None is unweighted.
    """

    def __init__(self, X, y, ridge=1.0, shrinkage=0.0, sample_weight=None):
        self.X = X.tocsr() if sp.issparse(X) else np.asarray(X, dtype=float)
        y = np.asarray(y)
        n = y.shape[0]
        classes, codes = np.unique(y, return_inverse=True)
        self.Z = sp.csr_matrix((np.ones(n), (np.arange(n), codes)), shape=(n, len(classes)))
        if sample_weight is None:
            counts = np.asarray(self.Z.sum(axis=0)).ravel()
            sums = self.Z.T @ self.X
            M = (sums.toarray() if sp.issparse(sums) else np.asarray(sums)) / counts[:, None]  # class means, C x d
            xbar = np.asarray(self.X.mean(axis=0)).ravel()
            self.weights = self.root_weights = None
            self.sample_size = float(n)
        else:
            w = np.asarray(sample_weight, dtype=float)
            weights = w * (n / w.sum())                    # n p_i: relative to their mean, Σ = n
            counts = np.asarray(self.Z.T @ weights).ravel()      # n π_c, the class masses
            sums = self.Z.T @ (sp.diags(weights) @ self.X if sp.issparse(self.X) else weights[:, None] * self.X)
            sums = sums.toarray() if sp.issparse(sums) else np.asarray(sums)
            # weighted class means; a class without weight has none (its rows have weight 0)
            M = sums / np.where(counts > 0, counts, 1.0)[:, None]
            xbar = np.asarray(self.X.T @ weights).ravel() / n
            self.weights, self.root_weights = weights, np.sqrt(weights)
            self.sample_size = float(w.sum())              # the N of the Ledoit-Wolf estimate
        self.M = M
        self.Xb = np.sqrt(counts / n)[:, None] * (M - xbar)         # S_B = Xbᵀ Xb
        self.n = n
        self.ridge = float(ridge)
        self._set_shrinkage(shrinkage)

    def _set_shrinkage(self, shrinkage):
        if not 0.0 <= shrinkage <= 1.0:
            raise ValueError(f"shrinkage must be in [0, 1], got {shrinkage!r}")
        self.shrinkage = float(shrinkage)
        # γ m of S = (1 − γ) S_W + γ m I, fixed on the full data (a restriction keeps it)
        self.shrink_level = self.shrinkage * self.scatter_traces()[0] / self.X.shape[1] if shrinkage else 0.0

    def shrunk(self, shrinkage):
        """The same criterion with the shrinkage γ = ``shrinkage`` (the data are shared, not
        copied)."""
        out = object.__new__(LDACriterion)
        out.__dict__.update(self.__dict__)
        out._set_shrinkage(shrinkage)
        return out

    def ledoit_wolf(self):
        """The Ledoit–Wolf γ of this criterion's within-class scatter
        (:func:`ledoit_wolf_within`)."""
        n, d = self.X.shape
        G = _within_gram(self.X, self.Z, self.M)
        if self.weights is None:
            t = float(np.trace(G)) / n
            mu = t / d
            frob = float(np.einsum("ij,ij->", G, G)) / n ** 2
            beta = (float(np.sum(np.diag(G) ** 2)) / n - frob) / (d * n)
        else:                                              # p_i for 1/n, N = Σw for the sample size
            p = self.weights / n
            diag = np.diag(G)
            t = float(p @ diag)
            mu = t / d
            frob = float(p @ (G * G) @ p)
            beta = (float(p @ diag ** 2) - frob) / (d * self.sample_size)
        delta = (frob - 2.0 * mu * t + d * mu ** 2) / d
        beta = min(beta, delta)
        return 0.0 if beta <= 0 or delta <= 0 else float(beta / delta)

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
        if self.weights is None:
            sq = self.X.multiply(self.X).sum() if sp.issparse(self.X) else np.einsum("ij,ij->", self.X, self.X)
            counts = np.asarray(self.Z.sum(axis=0)).ravel()
        else:                                              # Σ_i n p_i ||x_i||² and n π_c
            sq = np.sum(self.X.multiply(self.X).T @ self.weights) if sp.issparse(self.X) \
                else self.weights @ np.einsum("ij,ij->i", self.X, self.X)
            counts = np.asarray(self.Z.T @ self.weights).ravel()
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
        """``X_w W / √n`` (n × q), the centred-within-class projections (with weights, row ``i``
        times ``√(n p_i)``: ``S_W = Vᵀ V`` for ``V`` the scores of ``W = I``)."""
        if self.root_weights is None:
            return (self.X @ W - self.Z @ (self.M @ W)) / np.sqrt(self.n)
        return self.root_weights[:, None] * (self.X @ W - self.Z @ (self.M @ W)) / np.sqrt(self.n)

    def within_transpose(self, V):
        """``X_wᵀ V / √n`` (d × q) (with weights, ``X_wᵀ diag(√(n p)) V / √n``)."""
        if self.root_weights is not None:
            V = self.root_weights[:, None] * V
        return (np.asarray(self.X.T @ V) - self.M.T @ (self.Z.T @ V)) / np.sqrt(self.n)

    def __call__(self, W):
        """Return ``(J(W), ∇J(W))``: ``∇J = −2 [S_B W P⁻¹ − S W P⁻¹ B P⁻¹]``,
        ``P = WᵀS W + δI``, ``B = WᵀS_B W``, ``S = (1 − γ) S_W + γ m I``."""
        Vw = self.within_scores(W)
        Vb = self.Xb @ W
        keep = 1.0 - self.shrinkage
        P = keep * (Vw.T @ Vw) + self.shrink_level * (W.T @ W) + self.ridge * np.eye(W.shape[1])
        B = Vb.T @ Vb
        Pinv = np.linalg.inv(P)
        PinvB = Pinv @ B
        value = -float(np.trace(PinvB))
        SBWP = self.Xb.T @ (Vb @ Pinv)
        A = PinvB @ Pinv
        SWPBP = keep * self.within_transpose(Vw @ A) + self.shrink_level * (W @ A)
        return value, -2.0 * (SBWP - SWPBP)

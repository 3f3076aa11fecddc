"""Base kernels of the mixture :math:`K^\\alpha = \\sum_p \\alpha_p K_p` (eq. 1).

Two families, as in Section 2 of Fung, Rosales & Rao (2007):

* **full kernels** (formulation 4), each depending on every feature: Gaussian
  :math:`\\exp(-\\mu\\|x-y\\|^2)` at several widths, polynomial :math:`(x^\\top y + 1)^d`, linear
  :math:`x^\\top y`;
* **weak kernels** (formulation 7, eq. 5), each depending on one feature only:
  :math:`K_{(f)}(x, y) = \\exp(-\\mu (x^f - y^f)^2)` at several :math:`\\mu` per feature.

A kernel set is described by a :class:`KernelSpec` list; :func:`kernel_stack` evaluates all of
them at once into an array of shape ``(m, n_X, n_Y)``; ``groups`` gives the group of every base
kernel (its own index for full kernels, its feature for weak kernels), used by the penalty
:math:`s`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial.distance import cdist

__all__ = ["KernelSpec", "full_kernel_specs", "weak_kernel_specs", "kernel_stack", "kernel_groups",
           "kernel_diagonal", "kernel_pairs", "kernel_pair_differences"]


@dataclass(frozen=True)
class KernelSpec:
    """One base kernel.

    Attributes
    ----------
    kind : {"gaussian", "polynomial", "linear"}
    param : float
        ``μ`` for a Gaussian, the degree for a polynomial, unused (0) for linear.
    feature : int or None
        ``None`` for a full kernel, the feature index ``f`` for a weak kernel (eq. 5).
    """

    kind: str
    param: float = 0.0
    feature: int | None = None

    @property
    def name(self) -> str:
        on = "" if self.feature is None else f"[f={self.feature}]"
        if self.kind == "gaussian":
            return f"Gauss mu={self.param:g}{on}"
        if self.kind == "polynomial":
            return f"Poly degree {int(self.param)}{on}"
        return f"Linear{on}"


def full_kernel_specs(mu=(0.1, 1.0, 10.0), degree=2, linear=True):
    """Full kernels of formulation (4): Gaussians at the widths ``mu``, a polynomial of
    ``degree`` (skipped when ``None``) and the linear kernel."""
    specs = [KernelSpec("gaussian", float(m)) for m in mu]
    if degree is not None:
        specs.append(KernelSpec("polynomial", float(degree)))
    if linear:
        specs.append(KernelSpec("linear"))
    return specs


def weak_kernel_specs(n_features, mu=(0.1, 1.0, 10.0)):
    """Weak kernels of formulation (7), eq. (5): one Gaussian per feature ``f`` and width ``μ``
    (the set :math:`I_f` holds the ``len(mu)`` kernels of feature ``f``)."""
    return [KernelSpec("gaussian", float(m), f) for f in range(n_features) for m in mu]


def kernel_groups(specs):
    """Group index of every base kernel: the feature for weak kernels (the sets :math:`I_f` of
    eq. 6), the kernel's own position for full kernels (formulation 4 penalises each
    :math:`|\\alpha_j|`).  Returns ``(groups, group_features)``; ``group_features[g]`` is the
    feature of group ``g`` or -1."""
    if all(s.feature is not None for s in specs):
        features = sorted({s.feature for s in specs})
        index = {f: g for g, f in enumerate(features)}
        return np.array([index[s.feature] for s in specs]), np.array(features)
    if any(s.feature is not None for s in specs):
        raise ValueError("a kernel set mixes full and weak kernels; use one family")
    return np.arange(len(specs)), np.full(len(specs), -1)


def _one(spec, X, Y, cache):
    if spec.feature is not None:
        x, y = X[:, spec.feature], Y[:, spec.feature]
        key = ("sq", spec.feature)
        if key not in cache:
            cache[key] = (x[:, None] - y[None, :]) ** 2
        return np.exp(-spec.param * cache[key])
    if spec.kind == "gaussian":
        if "sq" not in cache:
            cache["sq"] = cdist(X, Y, "sqeuclidean")
        return np.exp(-spec.param * cache["sq"])
    if "dot" not in cache:
        cache["dot"] = X @ Y.T
    if spec.kind == "polynomial":
        return (cache["dot"] + 1.0) ** spec.param
    if spec.kind == "linear":
        return cache["dot"].copy()
    raise ValueError(f"unknown kernel kind {spec.kind!r}")


def kernel_stack(specs, X, Y=None):
    """Evaluate every base kernel: array ``(m, n_X, n_Y)`` with ``[p, i, j] = K_p(x_i, y_j)``."""
    X = np.asarray(X, dtype=np.float64)
    Y = X if Y is None else np.asarray(Y, dtype=np.float64)
    out = np.empty((len(specs), X.shape[0], Y.shape[0]))
    cache = {}
    for p, spec in enumerate(specs):
        out[p] = _one(spec, X, Y, cache)
    return out


def kernel_diagonal(specs, X):
    """``[p, i] = K_p(x_i, x_i)`` without forming the matrices."""
    X = np.asarray(X, dtype=np.float64)
    sq = np.einsum("ij,ij->i", X, X)
    out = np.empty((len(specs), X.shape[0]))
    for p, s in enumerate(specs):
        if s.kind == "gaussian":
            out[p] = 1.0
        elif s.kind == "polynomial":
            out[p] = (sq + 1.0) ** s.param
        else:
            out[p] = sq
    return out


def kernel_pairs(specs, A, B, index=None):
    """``[p, t] = K_p(a_t, b_t)`` on paired rows of ``A`` and ``B`` (no ``n x n`` matrices);
    ``index`` restricts to the kernels ``specs[p]`` for ``p`` in ``index``."""
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    idx = range(len(specs)) if index is None else index
    out = np.empty((len(idx), A.shape[0]))
    cache = {}
    for row, p in enumerate(idx):
        s = specs[p]
        if s.feature is not None:
            key = ("sq", s.feature)
            if key not in cache:
                cache[key] = (A[:, s.feature] - B[:, s.feature]) ** 2
            out[row] = np.exp(-s.param * cache[key])
        elif s.kind == "gaussian":
            if "sq" not in cache:
                cache["sq"] = np.sum((A - B) ** 2, axis=1)
            out[row] = np.exp(-s.param * cache["sq"])
        else:
            if "dot" not in cache:
                cache["dot"] = np.sum(A * B, axis=1)
            out[row] = (cache["dot"] + 1.0) ** s.param if s.kind == "polynomial" else cache["dot"]
    return out


def kernel_pair_differences(specs, S, triplets, chunk=128):
    """``[p, t] = K_p(s_i, s_j) - K_p(s_i, s_k)`` for each index triplet ``t = (i, j, k)`` into
    the rows of ``S``: the triplet differences ``D`` of the LP, evaluated ``chunk`` triplets at
    a time, so the only large array is the ``(m, T)`` result.

    Examples
    --------
    >>> import numpy as np
    >>> specs = weak_kernel_specs(1, mu=(1.0,))
    >>> kernel_pair_differences(specs, [[0.0], [1.0], [3.0]], [[0, 1, 2]]).round(4)
    array([[0.3678]])
    """
    S = np.asarray(S, dtype=np.float64)
    t = np.asarray(triplets)
    out = np.empty((len(specs), t.shape[0]))
    for lo in range(0, t.shape[0], chunk):
        i, j, k = S[t[lo:lo + chunk, 0]], S[t[lo:lo + chunk, 1]], S[t[lo:lo + chunk, 2]]
        out[:, lo:lo + chunk] = kernel_pairs(specs, i, j) - kernel_pairs(specs, i, k)
    return out

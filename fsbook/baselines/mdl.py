"""Supervised discretisation by Fayyad and Irani's MDL criterion, as Weka does it.

Weka's ``weka.filters.supervised.attribute.Discretize`` with the settings its attribute-subset
evaluators use (``CfsSubsetEval`` and ``ConsistencySubsetEval`` set ``useBetterEncoding``):

* the examples of a (sub)range are sorted by the attribute; candidate cut points sit midway
  between consecutive *distinct* values;
* the candidate with the smallest class entropy conditioned on the two sides wins (the first one
  on ties);
* it is accepted when ``gain > (log2(N_cut) + Δ) / N`` with
  ``Δ = log2(3^k − 2) − (k·H(S) − k_1·H(S_1) − k_2·H(S_2))`` (``k``: classes present, ``N_cut``:
  number of candidate cut points of the range — the "better encoding"), and the two sides are
  split recursively.

No library implements this criterion (scikit-learn's ``KBinsDiscretizer`` is unsupervised), so it
is written here: one sort per attribute, the class counts left of every candidate by a cumulative
sum, all candidates' conditional entropies at once.
"""
from __future__ import annotations

import numpy as np

__all__ = ["entropy_bits", "mdl_cut_points", "discretize"]

_LN2 = np.log(2.0)


def _xlogx(c):
    c = np.asarray(c, dtype=np.float64)
    out = np.zeros_like(c)
    pos = c > 0
    out[pos] = c[pos] * np.log(c[pos])
    return out


def entropy_bits(counts, axis=-1):
    """Entropy in bits of the count vector(s) along ``axis`` (0 for an empty vector)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=axis)
    val = _xlogx(total) - _xlogx(counts).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, val / (np.where(total > 0, total, 1.0) * _LN2), 0.0)


def _cut_points(x_sorted, y_sorted, n_classes):
    """Recursive MDL cut points of one sorted range (lists of floats, increasing)."""
    m = x_sorted.shape[0]
    if m < 2:
        return []
    onehot = np.zeros((m, n_classes))
    onehot[np.arange(m), y_sorted] = 1.0
    prior = onehot.sum(axis=0)
    left = np.cumsum(onehot, axis=0)[:-1]             # counts left of a cut after position i
    right = prior - left
    boundary = x_sorted[:-1] < x_sorted[1:]
    n_cut = int(boundary.sum())
    if n_cut == 0:
        return []
    n_left = left.sum(axis=1)
    cond = (n_left * entropy_bits(left) + (m - n_left) * entropy_bits(right)) / m
    cond = np.where(boundary, cond, np.inf)
    prior_entropy = float(entropy_bits(prior))
    best = int(np.argmin(cond))                       # first minimum, like Weka's strict '<'
    best_entropy = float(cond[best])
    if not best_entropy < prior_entropy:              # Weka keeps bestEntropy = prior otherwise
        return []
    gain = prior_entropy - best_entropy
    if gain <= 0:
        return []
    bl, br = left[best], right[best]
    k = int((prior > 0).sum())
    k1, k2 = int((bl > 0).sum()), int((br > 0).sum())
    delta = np.log2(3.0 ** k - 2.0) - (k * prior_entropy - k2 * float(entropy_bits(br))
                                        - k1 * float(entropy_bits(bl)))
    if not gain > (np.log2(n_cut) + delta) / m:
        return []
    cut = (x_sorted[best] + x_sorted[best + 1]) / 2.0
    return (_cut_points(x_sorted[:best + 1], y_sorted[:best + 1], n_classes) + [cut]
            + _cut_points(x_sorted[best + 1:], y_sorted[best + 1:], n_classes))


def mdl_cut_points(x, y, n_classes=None):
    """Fayyad–Irani MDL cut points of one numeric attribute (Weka's encoding).

    Parameters
    ----------
    x : array (m,) of floats (no NaN)
    y : array (m,) of class codes ``0..K-1``
    n_classes : int, optional (default ``y.max() + 1``)

    Returns
    -------
    cuts : float ndarray, increasing (empty: the attribute becomes one interval)
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if n_classes is None:
        n_classes = int(y.max()) + 1 if y.size else 1
    order = np.argsort(x, kind="stable")
    return np.asarray(_cut_points(x[order], y[order], n_classes), dtype=np.float64)


def discretize(X, y, discrete):
    """Integer codes of every column: MDL intervals of numeric columns, ranks of nominal ones.

    Missing values (NaN) stay missing, coded ``-1``: as Weka's supervised ``Discretize`` does, the
    cut points of a numeric column are found on the rows where it is observed, and a nominal
    column's levels are its observed values.

    Parameters
    ----------
    X : array (m, n) of floats (NaN = missing)
    y : array (m,) of class codes
    discrete : bool array (n,) -- True for nominal columns (kept, values relabelled 0..L-1)

    Returns
    -------
    codes : int64 array (m, n), ``-1`` where ``X`` is NaN; levels : int64 array (n,) number of
    observed values of each column (a numeric column without an accepted cut has one level, like
    Weka's ``'All'`` interval; a column with no observed value has one level too), cuts : list of
    n arrays (None for nominal columns)

    Examples
    --------
    >>> codes, levels, _ = discretize(np.array([[1.0], [np.nan], [3.0]]), np.array([0, 1, 0]),
    ...                               np.array([True]))
    >>> codes.ravel().tolist(), levels.tolist()
    ([0, -1, 1], [2])
    """
    m, n = X.shape
    codes = np.full((m, n), -1, dtype=np.int64)
    levels = np.empty(n, dtype=np.int64)
    cuts = []
    n_classes = int(y.max()) + 1
    for j in range(n):
        seen = ~np.isnan(X[:, j])
        x = X[seen, j]
        if discrete[j]:
            vals, inv = np.unique(x, return_inverse=True)
            codes[seen, j] = inv.ravel()
            levels[j] = max(vals.size, 1)
            cuts.append(None)
        else:
            c = mdl_cut_points(x, y[seen], n_classes)
            codes[seen, j] = np.searchsorted(c, x, side="left") if c.size else 0
            levels[j] = c.size + 1
            cuts.append(c)
    return codes, levels, cuts

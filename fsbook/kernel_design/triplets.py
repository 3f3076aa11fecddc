"""Relative-similarity triplets ``(i, j, k)``: "x_i is more similar to x_j than to x_k".

:func:`triplets_from_labels` builds them from class labels as Section 3.1 of the paper does;
:func:`check_triplets` validates index triplets; :func:`paper_test_triples` draws the test triples
of the paper's evaluation.
"""
from __future__ import annotations

import numpy as np

__all__ = ["triplets_from_labels", "check_triplets", "paper_test_triples", "TripletError"]


class TripletError(ValueError):
    """Raised for malformed triplets (empty, out of range, repeated point, wrong shape)."""


def check_triplets(triplets, n_points=None):
    """Validate index triplets; return them as an ``(n, 3)`` int64 array.

    Raises :class:`TripletError` when the set is empty, not of shape ``(n, 3)``, not integer,
    negative or ``>= n_points``, or when a triplet repeats an index.
    """
    t = np.asarray(triplets)
    if t.size == 0:
        raise TripletError("the set of triplets is empty")
    if t.ndim != 2 or t.shape[1] != 3:
        raise TripletError(f"index triplets must have shape (n, 3), got {t.shape}")
    if not np.issubdtype(t.dtype, np.integer):
        if not np.issubdtype(t.dtype, np.floating) or not np.all(np.isfinite(t)) \
                or np.any(t != np.round(t)):
            raise TripletError("index triplets must hold integers")
    t = t.astype(np.int64)
    if t.min() < 0 or (n_points is not None and t.max() >= n_points):
        raise TripletError(f"triplet indices out of range [0, {n_points}): "
                           f"min {t.min()}, max {t.max()}")
    bad = (t[:, 0] == t[:, 1]) | (t[:, 0] == t[:, 2]) | (t[:, 1] == t[:, 2])
    if bad.any():
        raise TripletError(f"{int(bad.sum())} triplet(s) repeat a point, e.g. {t[bad][0].tolist()}")
    return t


def _draw(y, n, rng, max_draws):
    """Draw ``n`` random point triples with exactly two labels equal; return ``(a, b, c)``
    rows with ``y[a] == y[b] != y[c]``."""
    y = np.asarray(y)
    if np.unique(y).size < 2:
        raise ValueError("triplets from labels need at least two classes")
    out = []
    drawn = 0
    while len(out) < n:
        if drawn > max_draws:
            raise ValueError(f"could not draw {n} valid triples in {max_draws} draws")
        batch = rng.choice(y.size, size=(max(4 * n, 64), 3), replace=True)
        drawn += batch.shape[0]
        batch = batch[(batch[:, 0] != batch[:, 1]) & (batch[:, 0] != batch[:, 2])
                      & (batch[:, 1] != batch[:, 2])]
        ya, yb, yc = y[batch[:, 0]], y[batch[:, 1]], y[batch[:, 2]]
        for first, second, odd in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
            keep = (y[batch[:, first]] == y[batch[:, second]]) & (y[batch[:, first]] != y[batch[:, odd]])
            out.extend(batch[keep][:, [first, second, odd]].tolist())
        del ya, yb, yc
    rows = np.array(out[:n], dtype=np.int64)
    return rows


def triplets_from_labels(y, n_triplets, random_state=None, max_draws=10_000_000):
    """Triplets from class labels (Section 3.1): draw three points at random; when two share a
    class and the third does not, keep ``(i, j, k)`` with ``i, j`` the same-class points and
    ``k`` the other one (which of the two same-class points is ``i`` is random).

    Returns an ``(n_triplets, 3)`` int64 array of indices into ``y``.
    """
    rng = np.random.default_rng(random_state)
    rows = _draw(y, int(n_triplets), rng, max_draws)
    swap = rng.random(rows.shape[0]) < 0.5
    rows[swap, 0], rows[swap, 1] = rows[swap, 1].copy(), rows[swap, 0].copy()
    return rows


def paper_test_triples(y, n_triples, random_state=None, max_draws=10_000_000):
    """Test triples of Section 3.1: three random points with two in one class; returns rows
    ``(a, b, c)`` with ``y[a] == y[b] != y[c]``.  A similarity respects the triple when
    ``K(a, b) > K(a, c)`` and ``K(a, b) > K(b, c)`` (both same-class points are more similar to
    each other than to the third one)."""
    rng = np.random.default_rng(random_state)
    return _draw(y, int(n_triples), rng, max_draws)

"""Discrete decisions made from floating-point numbers, made robust to last-bit rounding.

A table changes when a discrete choice flips: the grid value a cross-validation picks, the
features a top-k cut keeps, the row a summary calls best.  Mathematically equal scores computed
on two machines (another BLAS kernel, another NumPy SIMD level, numba compiled for another CPU)
can differ in their last bits, and ``np.argmax`` or ``np.argsort`` then pick differently.  Every
such decision in fsbook goes through this module:

* :func:`log_grid` builds parameter grids from exact decimal literals, so a grid value is the
  same double on every CPU (``10.0 ** np.arange(-5, 4)`` is not: NumPy's AVX-512 ``power`` gives
  ``9.999999999999999e-06`` for ``1e-05``).
* :func:`argbest` picks the first candidate (in the caller's documented order, simplest first)
  whose score is within a tolerance of the best, so near-equal scores are ties.
* :func:`argbest_lexicographic` breaks the ties of one score on a second score (for example
  equal cross-validated accuracies on the cross-validated log-loss), then by order.
* :func:`tie_refit` is that rule as a ``refit`` callable for scikit-learn's ``GridSearchCV``.
* :func:`top_k` keeps the ``k`` largest scores; scores within a tolerance of each other are ties,
  broken by the smaller index.

Tolerances
----------
:data:`SCORE_ATOL` (``1e-9``, absolute) serves cross-validated accuracies: an accuracy is a
multiple of ``1/n`` for a test set of ``n`` points, so two different accuracies differ by at least
``1/n >= 1e-6`` for ``n <= 10**6``, while the same accuracy averaged in another order differs by
about ``1e-16``.  :data:`RTOL` (``1e-9``, relative) serves continuous scores (errors, feature
scores): far above the ``~1e-13`` relative spread of one quantity computed along different
numerical paths, far below any difference a method means.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np

__all__ = ["SCORE_ATOL", "RTOL", "log_grid", "argbest", "argbest_lexicographic", "tie_refit", "top_k",
           "top_k_mask"]

#: absolute tolerance under which two cross-validated accuracies are a tie (see module docstring)
SCORE_ATOL = 1e-9
#: relative tolerance under which two continuous scores are a tie (see module docstring)
RTOL = 1e-9

#: mantissas of 1, 2, 3 and 4 points per decade, rounded to three significant digits
_MANTISSAS = {1: ("1",), 2: ("1", "3.16"), 3: ("1", "2.15", "4.64"), 4: ("1", "1.78", "3.16", "5.62")}


def log_grid(low: int, high: int, per_decade: int = 1) -> np.ndarray:
    """Logarithmic grid ``10**low, ..., 10**high`` built from exact decimal literals.

    Each value is parsed from its decimal string (``"1e-05"``, ``"3.16e-05"``), so it is the
    double nearest to that decimal on every machine, whatever ``pow`` the CPU runs.

    Parameters
    ----------
    low, high : int
        Exponents of the first and last decade; ``high`` is included.
    per_decade : {1, 2, 3, 4}, default=1
        Points per decade: mantissas ``1``; ``1, 3.16``; ``1, 2.15, 4.64``; ``1, 1.78, 3.16, 5.62``
        (the powers ``10**(i/per_decade)`` rounded to three significant digits).

    Returns
    -------
    ndarray of float64, increasing.

    Examples
    --------
    >>> from fsbook.decisions import log_grid
    >>> log_grid(-5, -3).tolist()
    [1e-05, 0.0001, 0.001]
    >>> log_grid(0, 1, per_decade=2).tolist()
    [1.0, 3.16, 10.0]
    """
    if per_decade not in _MANTISSAS:
        raise ValueError(f"per_decade must be one of {sorted(_MANTISSAS)}, got {per_decade!r}")
    if int(low) != low or int(high) != high or high < low:
        raise ValueError(f"low and high must be integers with low <= high, got {low!r}, {high!r}")
    values = [float(Decimal(m).scaleb(e)) for e in range(int(low), int(high))
              for m in _MANTISSAS[per_decade]]
    return np.array(values + [float(Decimal(1).scaleb(int(high)))])


def _tolerance(best: float, atol: float, rtol: float) -> float:
    return atol + rtol * abs(best)


def argbest(scores, *, maximize: bool = True, atol: float = 0.0, rtol: float = RTOL) -> int:
    """Index of the first score within tolerance of the best one.

    Candidates are assumed to be listed in the caller's preference order (for a grid, the
    simplest model first): of all scores within ``atol + rtol·|best|`` of the best, the first
    wins.  Rounding noise therefore cannot move the choice between near-equal candidates.

    Parameters
    ----------
    scores : array-like of float, shape (n,)
        NaN scores are never chosen; all-NaN raises.
    maximize : bool, default=True
    atol, rtol : float
        Absolute and relative tolerance (see :data:`SCORE_ATOL`, :data:`RTOL`).

    Returns
    -------
    int

    Examples
    --------
    >>> from fsbook.decisions import argbest
    >>> argbest([0.8, 0.9, 0.9 + 1e-16])        # a last-bit difference is a tie: first wins
    1
    >>> argbest([3.0, 1.0, 1.0 - 1e-15], maximize=False)
    1
    """
    s = np.asarray(scores, dtype=float)
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"scores must be a non-empty 1-d array, got shape {s.shape}")
    finite = ~np.isnan(s)
    if not finite.any():
        raise ValueError("every score is NaN: no candidate can be chosen")
    best = np.nanmax(s) if maximize else np.nanmin(s)
    tol = _tolerance(best, atol, rtol)
    ok = finite & ((s >= best - tol) if maximize else (s <= best + tol))
    return int(np.flatnonzero(ok)[0])


def _per_score(value, k, name):
    """``value`` as a tuple of ``k`` (one per score); a single value serves all."""
    out = tuple(value) if isinstance(value, (tuple, list)) else (value,) * k
    if len(out) != k:
        raise ValueError(f"{name} must be one value or one per score ({k}), got {value!r}")
    return out


def argbest_lexicographic(primary, *tie_breakers, maximize=None, atol=0.0, rtol=RTOL) -> int:
    """Index of the best candidate by ``primary``, its ties broken by each of ``tie_breakers`` in
    turn, then by order.

    The candidates within tolerance of the best ``primary`` score (:func:`argbest`'s rule) are
    tied; of those, the ones within tolerance of the best first tie-breaker among them are tied
    again, and so on; the first remaining candidate wins.  With a continuous tie-breaker (a
    cross-validated log-loss beside a cross-validated accuracy, which takes few values on a few
    validation points) the order decides only what every score calls equal.

    Parameters
    ----------
    primary, *tie_breakers : array-like of float, shape (n,)
        NaN scores are never chosen; all NaN among the candidates still tied raises.
    maximize : bool or tuple of bool, optional
        Per score; default: maximise ``primary`` (e.g. an accuracy) and minimise every
        tie-breaker (e.g. a loss).
    atol, rtol : float or tuple of float
        Absolute and relative tolerance, one value for all scores or one per score (see
        :data:`SCORE_ATOL`, :data:`RTOL`).

    Returns
    -------
    int

    Examples
    --------
    >>> from fsbook.decisions import SCORE_ATOL, argbest_lexicographic
    >>> acc = [0.7, 0.7, 0.7 + 1e-16, 0.6]       # three tied accuracies
    >>> loss = [0.69, 0.41, 0.41 + 1e-15, 0.2]   # the log-loss breaks the tie; rounding does not
    >>> argbest_lexicographic(acc, loss, atol=(SCORE_ATOL, 0.0))
    1
    >>> argbest_lexicographic([0.9, 0.8], [0.5, 0.1], atol=(SCORE_ATOL, 0.0))   # no tie: primary
    0
    >>> both = [0, 1, 1, 1]                       # predicts both classes? (maximised), then the loss
    >>> argbest_lexicographic(acc, both, loss, maximize=(True, True, False), atol=(SCORE_ATOL, 0, 0))
    1
    """
    scores = [np.asarray(x, dtype=float) for x in (primary, *tie_breakers)]
    k = len(scores)
    if scores[0].ndim != 1 or scores[0].size == 0 or any(x.shape != scores[0].shape for x in scores):
        raise ValueError(f"the scores must be non-empty 1-d arrays of one length, got shapes "
                         f"{[x.shape for x in scores]}")
    maximize = (True,) + (False,) * (k - 1) if maximize is None else _per_score(maximize, k, "maximize")
    atol, rtol = _per_score(atol, k, "atol"), _per_score(rtol, k, "rtol")
    cand = np.arange(scores[0].size)
    for x, mx, a, r in zip(scores, maximize, atol, rtol):
        sub = x[cand]
        if np.isnan(sub).all():
            raise ValueError("every score of the candidates still tied is NaN: the tie cannot be broken")
        best = sub[argbest(sub, maximize=mx, atol=a, rtol=r)]
        tol = _tolerance(best, a, r)
        cand = cand[~np.isnan(sub) & ((sub >= best - tol) if mx else (sub <= best + tol))]
    return int(cand[0])


def tie_refit(atol: float = SCORE_ATOL, rtol: float = 0.0):
    """``refit`` callable for :class:`sklearn.model_selection.GridSearchCV` with tie tolerance.

    Returns the index of the first candidate (in ``ParameterGrid`` order: for one parameter,
    the order of its list) whose ``mean_test_score`` is within ``atol + rtol·|best|`` of the
    best; ``GridSearchCV`` then refits it.  List the grid simplest model first.

    Examples
    --------
    >>> from fsbook.decisions import tie_refit
    >>> refit = tie_refit()
    >>> refit({"mean_test_score": [0.90, 0.95, 0.95 + 1e-16]})   # C grid [0.1, 1, 10]: C = 1
    1

    Passed as ``GridSearchCV(model, {"C": [0.1, 1.0, 10.0]}, refit=tie_refit())``; the search
    then has ``best_index_`` and ``best_params_`` but no ``best_score_`` (scikit-learn's rule
    for a callable ``refit``): read ``cv_results_["mean_test_score"][best_index_]``.
    """
    def refit(cv_results):
        return argbest(cv_results["mean_test_score"], maximize=True, atol=atol, rtol=rtol)
    return refit


def _tie_keys(scores: np.ndarray, atol: float, rtol: float) -> np.ndarray:
    """Rank keys: scores sorted decreasingly are cut into runs in which each score is within
    tolerance of the run's first (largest) score; every member of a run gets the run's key."""
    order = np.argsort(-scores, kind="stable")
    keys = np.empty(len(scores))
    leader = None
    for i in order:
        if leader is None or scores[i] < leader - _tolerance(leader, atol, rtol):
            leader = scores[i]
        keys[i] = leader
    return keys


def top_k(scores, k: int, *, atol: float = 0.0, rtol: float = RTOL) -> np.ndarray:
    """Indices of the ``k`` largest ``scores``, ties broken by the smaller index.

    Scores within tolerance of each other (measured from the largest of a run of near-equal
    scores) are ties, so mathematically equal scores that differ in their last bits keep the
    same order on every machine.

    Parameters
    ----------
    scores : array-like of float, shape (d,)
    k : int, 0 <= k <= d
    atol, rtol : float
        Tolerance of a tie (default: relative :data:`RTOL`).

    Returns
    -------
    ndarray of int, shape (k,): in decreasing score, ties by index.

    Examples
    --------
    >>> from fsbook.decisions import top_k
    >>> top_k([0.3, 0.5 + 1e-16, 0.5, 0.1], 2).tolist()
    [1, 2]
    >>> top_k([0.3, 0.5, 0.5 + 1e-16, 0.1], 2).tolist()
    [1, 2]
    """
    s = np.asarray(scores, dtype=float)
    if s.ndim != 1:
        raise ValueError(f"scores must be 1-d, got shape {s.shape}")
    if np.isnan(s).any():
        raise ValueError("scores contain NaN: a top-k cut is undefined")
    if not 0 <= k <= len(s):
        raise ValueError(f"k must be in [0, {len(s)}], got {k}")
    keys = _tie_keys(s, atol, rtol)
    return np.lexsort((np.arange(len(s)), -keys))[:k]


def top_k_mask(scores, k: int, *, atol: float = 0.0, rtol: float = RTOL) -> np.ndarray:
    """Boolean mask of :func:`top_k`.

    Examples
    --------
    >>> from fsbook.decisions import top_k_mask
    >>> top_k_mask([0.3, 0.5, 0.5, 0.1], 2).tolist()
    [False, True, True, False]
    """
    mask = np.zeros(len(np.asarray(scores)), dtype=bool)
    mask[top_k(scores, k, atol=atol, rtol=rtol)] = True
    return mask

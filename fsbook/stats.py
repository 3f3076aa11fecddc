"""Statistics for comparing methods over data sets (Demšar 2006) and the stability of selections.

* :func:`average_ranks` -- rank of every method on every data set (1 = best, ties share the mean
  rank), averaged over data sets;
* :func:`friedman` -- the Friedman test of "all methods have equal ranks", through
  :func:`scipy.stats.friedmanchisquare` (which applies the tie correction);
* :func:`nemenyi` -- the Nemenyi post-hoc p-values of every pair, through
  :func:`scikit_posthocs.posthoc_nemenyi_friedman`, and :func:`critical_difference`, the smallest
  difference of average ranks it declares significant, ``CD = q_α √(k(k+1)/(6N))``;
* :func:`cd_diagram` -- the critical-difference diagram (scikit-posthocs' drawing);
* :func:`kuncheva_index` and :func:`kuncheva_stability` -- Kuncheva's (2007) consistency index of
  two selected sets of the same size ``k`` out of ``n`` features,
  ``I_C(A, B) = (r n − k²) / (k (n − k))`` with ``r = |A ∩ B|``, and its mean over all pairs of a
  list of selections.  Written here because no maintained package has it; it is a one-line
  closed form.

Score matrices are :class:`pandas.DataFrame` with one row per block (data set) and one column per
method; higher scores are better unless ``higher_is_better=False``.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.decisions import RTOL


def _check_scores(scores, min_methods=2, min_blocks=1):
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be a pandas DataFrame (data sets x methods), got {type(scores).__name__}")
    if scores.shape[1] < min_methods:
        raise ValueError(f"need at least {min_methods} methods (columns), got {scores.shape[1]}")
    if scores.shape[0] < min_blocks:
        raise ValueError(f"need at least {min_blocks} data sets (rows), got {scores.shape[0]}")
    values = scores.to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        bad = scores.columns[~np.isfinite(values).all(axis=0)].tolist()
        raise ValueError(f"scores contain NaN or infinite values (methods {bad}): drop or fill them first")
    return values


def _tied_values(scores, atol, rtol):
    """Scores with every run of near-equal values in a row replaced by the run's largest value.

    Ties are found on the stored values with the tolerance of :mod:`fsbook.decisions` (a score
    within ``atol + rtol·|leader|`` of the largest score of its run is a tie), never on printed,
    rounded digits: rounding decides nothing.
    """
    from fsbook.decisions import _tie_keys

    values = _check_scores(scores, min_methods=1)
    return np.vstack([_tie_keys(row, atol, rtol) for row in values]) if len(values) else values


def rank_matrix(scores, *, higher_is_better=True, atol=0.0, rtol=RTOL):
    """Rank of every method within every row (1 = best), ties sharing their mean rank.

    Parameters
    ----------
    scores : DataFrame (data sets x methods)
    higher_is_better : bool, default True
    atol, rtol : float
        Scores of one row within ``atol + rtol·|score|`` of each other are ties (the tolerance of
        :func:`fsbook.decisions.top_k`); the printed precision of a table plays no part.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.stats import rank_matrix
    >>> s = pd.DataFrame({"a": [60.5499999], "b": [60.51], "c": [60.5499999 + 1e-14]})
    >>> rank_matrix(s).to_numpy().tolist()          # a and c tie; 60.51 is lower, not a tie
    [[1.5, 3.0, 1.5]]
    """
    values = _tied_values(scores, atol, rtol) if higher_is_better else -_tied_values(-scores, atol, rtol)
    signed = -values if higher_is_better else values
    return pd.DataFrame(stats.rankdata(signed, axis=1), index=scores.index, columns=scores.columns)


def average_ranks(scores, *, higher_is_better=True, atol=0.0, rtol=RTOL):
    """Mean over data sets of :func:`rank_matrix` (Demšar 2006, Section 3.2.2), best first."""
    return rank_matrix(scores, higher_is_better=higher_is_better, atol=atol, rtol=rtol).mean().sort_values()


def friedman(scores, *, atol=0.0, rtol=RTOL):
    """Friedman test over the rows of ``scores``: ``(statistic, p_value)``.

    Uses :func:`scipy.stats.friedmanchisquare` (χ² approximation with the tie correction); needs
    at least three methods and two data sets.  Near-equal scores of a row (within ``atol +
    rtol·|score|``) are ties, as in :func:`rank_matrix`.
    """
    _check_scores(scores, min_methods=3, min_blocks=2)
    values = _tied_values(scores, atol, rtol)
    res = stats.friedmanchisquare(*values.T)
    return float(res.statistic), float(res.pvalue)


def nemenyi(scores, *, atol=0.0, rtol=RTOL):
    """Nemenyi post-hoc p-values of every pair of methods (methods x methods DataFrame).

    Through :func:`scikit_posthocs.posthoc_nemenyi_friedman` on the block design ``scores``
    (direction does not matter: it uses absolute differences of mean ranks); near-equal scores
    are ties as in :func:`rank_matrix`.
    """
    import scikit_posthocs as sp

    _check_scores(scores, min_methods=3, min_blocks=2)
    values = _tied_values(scores, atol, rtol)
    p = sp.posthoc_nemenyi_friedman(pd.DataFrame(values, columns=list(scores.columns)))
    p.index = p.columns = list(scores.columns)
    return p


def critical_difference(n_methods, n_datasets, alpha=0.05):
    """Nemenyi critical difference ``q_α √(k(k+1)/(6N))`` (Demšar 2006, eq. for CD).

    ``q_α`` is the studentized range quantile with infinite degrees of freedom over √2.
    """
    if n_methods < 2 or n_datasets < 1:
        raise ValueError(f"need n_methods >= 2 and n_datasets >= 1, got {n_methods}, {n_datasets}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    q = stats.studentized_range.ppf(1 - alpha, n_methods, np.inf) / np.sqrt(2)
    return float(q * np.sqrt(n_methods * (n_methods + 1) / (6.0 * n_datasets)))


def cd_diagram(scores, *, ax=None, alpha=0.05, higher_is_better=True, atol=0.0, rtol=RTOL):
    """Draw the critical-difference diagram of ``scores`` on ``ax`` (scikit-posthocs' drawing:
    methods on the average-rank axis, bars joining the pairs Nemenyi does not separate)."""
    import scikit_posthocs as sp

    ranks = average_ranks(scores, higher_is_better=higher_is_better, atol=atol, rtol=rtol)
    return sp.critical_difference_diagram(ranks, nemenyi(scores, atol=atol, rtol=rtol), alpha=alpha, ax=ax)


def kuncheva_index(a, b, n_features):
    """Kuncheva's consistency index of two selected sets of equal size ``k``, ``0 < k < n``.

    ``(r n − k²) / (k (n − k))`` with ``r = |a ∩ b|``: 1 for identical sets, about 0 for sets
    drawn independently at random, down to ``−1`` (Kuncheva 2007, Definition 2).
    """
    a, b = set(int(i) for i in a), set(int(i) for i in b)
    k = len(a)
    if len(b) != k:
        raise ValueError(f"the index compares sets of equal size; got {len(a)} and {len(b)}")
    if not 0 < k < n_features:
        raise ValueError(f"the index is undefined unless 0 < k < n_features; got k={k}, n_features={n_features}")
    if any(i < 0 or i >= n_features for i in a | b):
        raise ValueError(f"feature indices must lie in [0, {n_features})")
    r = len(a & b)
    return (r * n_features - k * k) / (k * (n_features - k))


def kuncheva_stability(selections, n_features):
    """Mean of :func:`kuncheva_index` over all pairs of ``selections`` (at least two sets)."""
    selections = list(selections)
    if len(selections) < 2:
        raise ValueError(f"stability needs at least two selected sets, got {len(selections)}")
    return float(np.mean([kuncheva_index(a, b, n_features) for a, b in itertools.combinations(selections, 2)]))

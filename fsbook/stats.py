"""Statistics for comparing methods over data sets (Demšar 2006) and the stability of selections.

* :func:`average_ranks` -- rank of every method on every data set (1 = best, ties share the mean
  rank), averaged over data sets;
* :func:`friedman` -- the Friedman test of "all methods have equal ranks", through
  :func:`scipy.stats.friedmanchisquare` (which applies the tie correction);
* :func:`nemenyi` -- the Nemenyi post-hoc p-values of every pair, through
  :func:`scikit_posthocs.posthoc_nemenyi_friedman`, and :func:`critical_difference`, the smallest
  difference of average ranks it declares significant, ``CD = q_α √(k(k+1)/(6N))``;
* :func:`holm_vs_control` -- every method against one control method by their average ranks,
  ``z = (R_i − R_c)/√(k(k+1)/(6N))``, with Holm's step-down over the ``k − 1`` comparisons: the
  post-hoc test Demšar (2006, Section 3.2.2) recommends when the question is each method against
  a control rather than every pair;
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


def holm_vs_control(scores, control, *, higher_is_better=True, atol=0.0, rtol=RTOL):
    """Every method against ``control`` by its Friedman average rank, with Holm's step-down.

    With ``k`` methods (columns) and ``N`` data sets (rows), method ``i`` is compared with the
    control by ``z_i = (R_i − R_c) / √(k(k+1)/(6N))``, ``R`` the average ranks of
    :func:`average_ranks` (1 = best, near-equal scores tied as in :func:`rank_matrix`); ``z_i`` is
    standard normal under the hypothesis that the two methods rank alike.  The two-sided p-values
    ``2(1 − Φ(|z_i|))`` of the ``k − 1`` comparisons are adjusted by Holm's step-down procedure
    (:func:`fsbook.claims.holm`).  This is the comparison with a control of Demšar (2006, Section
    3.2.2): it makes ``k − 1`` comparisons where Nemenyi's test makes ``k(k − 1)/2``, so it
    separates smaller rank differences.

    Parameters
    ----------
    scores : DataFrame (data sets x methods)
    control : str
        The column of the control method.
    higher_is_better : bool, default True
    atol, rtol : float
        The tie tolerance of :func:`rank_matrix`.

    Returns
    -------
    DataFrame
        One row per method other than the control, in the order of the columns of ``scores``:
        ``rank`` (its average rank), ``z`` (negative: it ranks better than the control), ``p``
        (two-sided) and ``p_holm`` (Holm-adjusted over the ``k − 1`` comparisons).

    Examples
    --------
    Three data sets, four methods; ``c`` ranks first on every data set, ``a`` last:

    >>> import pandas as pd
    >>> from fsbook.stats import holm_vs_control
    >>> s = pd.DataFrame({"a": [1.0, 1.0, 1.0], "b": [3.0, 2.0, 3.0], "c": [4.0, 4.0, 4.0],
    ...                   "d": [2.0, 3.0, 2.0]})
    >>> holm_vs_control(s, "a").round(4)          # se = √(4·5/18); z_c = (1 − 4)/se
         rank       z       p  p_holm
    b  2.3333 -1.5811  0.1138  0.2277
    c  1.0000 -2.8460  0.0044  0.0133
    d  2.6667 -1.2649  0.2059  0.2277
    """
    from fsbook.claims import holm

    _check_scores(scores, min_methods=3, min_blocks=2)
    if control not in scores.columns:
        raise ValueError(f"control {control!r} is not a column of scores; columns: {list(scores.columns)}")
    k, n = scores.shape[1], scores.shape[0]
    ranks = rank_matrix(scores, higher_is_better=higher_is_better, atol=atol, rtol=rtol).mean()
    others = [m for m in scores.columns if m != control]
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    z = (ranks[others] - ranks[control]) / se
    p = 2.0 * stats.norm.sf(np.abs(z.to_numpy(dtype=float)))
    return pd.DataFrame({"rank": ranks[others].to_numpy(dtype=float), "z": z.to_numpy(dtype=float), "p": p,
                         "p_holm": holm(p)}, index=others)


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

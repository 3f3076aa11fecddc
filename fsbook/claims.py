"""The claims engine: a paper's claim decided on paired statistics, by one rule for the whole book.

A *claim* is a sentence of a paper that compares two things on a metric ("Proj-OLap has a lower
test error than SVM-OLap"): :class:`Claim` declares it once, next to the protocol's tables, with
the direction the paper asserts and the *unit* its results are paired over (runs, pairs, splits,
folds or data sets).  :func:`evaluate` decides it on the per-unit results a store holds, never on
printed means, and returns one row of a claims table.

**The estimand is the paper's.**  A paper reports the mean, over its protocol's resampling (random
splits, CV partitions), of a metric on *one* data set.  A reproduction reruns that resampling on
the same data set, so the claim is decided on that conditional mean.  Given the data set, the runs
of a protocol that draws its splits independently are independent and identically distributed,
whatever data they share, so the plain paired t-test over them is exact up to the normal
approximation; its level and power on the book's own designs are measured, not assumed
(:mod:`fsbook.calibration`, the page *How the book decides*).  The verdicts say nothing about new
data sets of the same size (Nadeau and Bengio's corrected t answers that other question; it is kept
as ``"corrected_t"`` for comparison and decides no verdict of the book).

Columns of a row (:data:`COLUMNS`):

``effect``
    the paired effect, signed so that a positive effect is the paper's direction, in the metric's
    units: the mean difference for the t-tests and the sign test, the Hodges–Lehmann estimate for
    the Wilcoxon test;
``ci_low``, ``ci_high``, ``se``
    its 95 % confidence interval (t interval; the exact Hodges–Lehmann interval for the Wilcoxon
    test) and standard error;
``n``, ``n_direction``
    the number of paired units and how many of them lie in the paper's direction;
``test``, ``p``, ``p_adj``
    the test, its two-sided p-value, and the p-value after Holm's step-down correction within the
    claim's *family* (its ``table``);
``verdict``
    :data:`HOLDS` (significant after Holm in the paper's direction), :data:`FAILS` (significant in
    the other direction), :data:`NO_GAIN` (not significant, and the 90 % interval lies inside the
    claim's declared ``margin``: the two one-sided tests declare equivalence) or
    :data:`NOT_SEPARABLE` (none of these, or untestable);
``size``
    ``"below margin"`` for a claim that holds by less than its declared ``margin``, else ``""``.

The tests (:data:`TESTS`), by how the protocol resamples:

* ``"paired_t"`` -- the paired t-test over independent units: runs over random splits (with a
  fixed or a resampled test set), class pairs, data sets of a simulation.  A zero variance leaves
  the t statistic undefined: the exact sign test decides then (``p = 2^{1-n}`` when all ``n``
  differences share a sign).
* ``"repeated_cv_t"`` -- for ``r`` repetitions of ``k``-fold CV (``5 × 2`` CV included): the paired
  t-test over the ``r`` repetition means, which are independent given the data set.
* ``"sign"`` -- the exact sign test (McNemar's exact test when the units are test samples and the
  differences their correctness), effect the mean difference.
* ``"wilcoxon"`` -- the Wilcoxon signed-rank test over data sets (Demšar 2006); the effect is the
  Hodges–Lehmann estimate and its exact interval, so the direction comes from the ranks, not from
  the mean.  It can reach ``p < 0.05`` only from six data sets on; with fewer the row is
  untestable.
* ``"corrected_t"`` (not for verdicts) and ``"5x2cv_f"`` (no direction: :class:`Claim` refuses it)
  are computed by :func:`paired_test` for comparison only.

Differences within ``atol + rtol·max(|a_i|, |b_i|)`` of zero, unit by unit (:data:`fsbook.decisions.RTOL`),
are set to exactly zero before testing, so that last-bit rounding differences between machines
cannot move a verdict and one large unit cannot zero the others.

A claim made for several data sets is decided *over data sets* by :func:`evaluate_over_datasets`
(Wilcoxon over the per-data-set effects), in a family of its own: per-data-set rows and
over-data-set rows never share a Holm family (:func:`over_datasets_table`).  :func:`family_check`
tells whether every row of a family could pass at all; :func:`agreement` decides whether our
level agrees with a number the paper prints.

Examples
--------
>>> import numpy as np
>>> from fsbook.claims import Claim, evaluate
>>> claim = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="paired_t")
>>> err_a = np.array([10.0, 11.0, 9.5, 10.5, 10.0, 9.0, 10.5, 10.0])
>>> err_b = err_a + np.array([1.0, 1.5, 0.5, 1.0, 1.2, 0.8, 1.1, 0.9])
>>> row = evaluate(claim, err_a, err_b)
>>> row["verdict"], row["n"], row["n_direction"], round(row["effect"], 3)
('holds', 8, 8, 1.0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.decisions import RTOL

__all__ = ["ALPHA", "HOLDS", "FAILS", "NO_GAIN", "NOT_SEPARABLE", "VERDICTS", "TESTS", "VERDICT_TESTS", "UNITS",
           "Claim", "paired_test", "evaluate", "sample_margin_row", "claims_table", "holm", "count_rule", "evaluate_over_datasets",
           "over_datasets_table", "verdict_counts", "family_check", "min_achievable_p", "agreement",
           "AGREES", "DIFFERS", "INCONCLUSIVE", "hodges_lehmann", "COLUMNS", "binomial_min_p", "binomial_test",
           "slope_t_test", "clustered_slope_test", "wins_ties_losses", "fold_test", "repetition_folds", "ClaimFamily", "equivalence_verdicts"]

#: significance level of every verdict in the book
ALPHA = 0.05
HOLDS, FAILS, NO_GAIN, NOT_SEPARABLE = "holds", "fails", "no gain", "not separable"
VERDICTS = (HOLDS, FAILS, NO_GAIN, NOT_SEPARABLE)
#: every test :func:`paired_test` computes
TESTS = ("paired_t", "repeated_cv_t", "sign", "wilcoxon", "corrected_t", "5x2cv_f")
#: the tests a verdict may rest on (directional, and calibrated for the book's designs)
VERDICT_TESTS = ("paired_t", "repeated_cv_t", "sign", "wilcoxon", "corrected_t")
UNITS = ("runs", "pairs", "splits", "folds", "repetitions", "samples", "data sets", "tasks")
#: the columns of a claims table, in order
COLUMNS = ["table", "claim", "a", "b", "unit", "n", "n_direction", "effect", "se", "ci_low", "ci_high", "test",
           "p", "p_adj", "verdict", "size", "note"]


@dataclass(frozen=True)
class Claim:
    """A paper's claim that ``a`` is better than ``b`` on a metric, paired over ``unit``.

    Parameters
    ----------
    claim : str
        The claim in words, as the page states it ("HSFS has the lowest error on wine").
    a, b : str
        The compared methods or settings; the paper asserts ``a`` is better than ``b``.
    better : {"lower", "higher"}
        Which direction of the metric is better (``"lower"`` for errors).
    unit : str
        What the results are paired over: one of :data:`UNITS`.
    test : str
        One of :data:`VERDICT_TESTS` (see the module docstring for which fits which resampling).
    table : str, default ""
        The family of Holm's correction: the claims the paper asserts in one table.
    test_train_ratio : float or None
        ``n_test / n_train`` of one split, needed by ``"corrected_t"`` only.
    dataset : str, default ""
        The data set, for claims evaluated per data set.
    margin : float or None
        The smallest effect that matters, in the metric's units, declared before looking: a claim
        that holds by less is labelled ``"below margin"``; one whose 90 % interval lies inside
        ``(-margin, margin)`` is :data:`NO_GAIN`.  ``None``: no margin, no equivalence verdict.
    one_sided : bool, default False
        Test one-sided, in the paper's direction only (as a paper that reports one-sided tests
        does): the claim can then hold or not, never fail.
    """

    claim: str
    a: str
    b: str
    better: str
    unit: str
    test: str
    table: str = ""
    test_train_ratio: float | None = None
    dataset: str = ""
    margin: float | None = None
    one_sided: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if self.better not in ("lower", "higher"):
            raise ValueError(f"better must be 'lower' or 'higher', got {self.better!r}")
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {self.unit!r}")
        if self.test == "5x2cv_f":
            raise ValueError("the 5 x 2 CV F test has no direction, so it cannot decide a directional claim: "
                             "use 'repeated_cv_t' (the paired t over the five repetition means)")
        if self.test not in VERDICT_TESTS:
            raise ValueError(f"test must be one of {VERDICT_TESTS}, got {self.test!r}")
        if self.test == "corrected_t" and not (self.test_train_ratio is not None and self.test_train_ratio > 0):
            raise ValueError("the corrected resampled t-test needs test_train_ratio = n_test / n_train > 0")
        if self.margin is not None and not (np.isfinite(self.margin) and self.margin > 0):
            raise ValueError(f"margin must be a positive number or None, got {self.margin!r}")


def _zeroed(d, scale, atol, rtol):
    """``d`` with every difference within ``atol + rtol·scale`` of zero set to 0 (``scale`` per unit)."""
    d = np.asarray(d, dtype=float).copy()
    d[np.abs(d) <= atol + rtol * np.asarray(scale, dtype=float)] = 0.0
    return d


def _sign_p(d):
    """Two-sided exact sign test on the nonzero differences of ``d`` (1 when all are zero)."""
    nz = d[d != 0]
    if nz.size == 0:
        return 1.0
    return float(stats.binomtest(int((nz > 0).sum()), int(nz.size)).pvalue)


def _t_result(d, var_mean, df):
    """Mean, se, 95 % interval and p of a t-test; a zero variance falls back to the sign test."""
    mean = float(d.mean())
    if abs(mean) <= 1e-12 * np.abs(d).max():  # differences that cancel: a rounding residue is no effect
        mean = 0.0
    if np.ptp(d) <= 1e-12 * np.abs(d).max():  # every difference equal: t undefined, the sign test decides
        return mean, 0.0, mean, mean, _sign_p(d)
    se = float(np.sqrt(var_mean))
    p = float(2 * stats.t.sf(abs(mean / se), df))
    half = float(stats.t.ppf(0.975, df) * se)
    return mean, se, mean - half, mean + half, p


@cache
def _signed_rank_cdf(n):
    """Exact null distribution of the Wilcoxon statistic ``T+`` for ``n`` untied nonzero ranks:
    ``cdf[t] = P(T+ <= t)`` (counts by dynamic programming over the ranks 1..n)."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    return np.cumsum(counts) / 2.0 ** n


def hodges_lehmann(d, alpha=ALPHA):
    """Hodges–Lehmann estimate of the centre of ``d`` and its exact ``1 − alpha`` interval.

    The estimate is the median of the Walsh averages ``(d_i + d_j)/2, i <= j``; the interval is
    ``[W_(c), W_(N+1-c)]`` with ``N = n(n+1)/2`` and ``c`` the largest integer with
    ``P(T+ <= c - 1) <= alpha/2`` under the signed-rank null (Hollander and Wolfe, 1999, §3.3),
    which is the set of shifts the two-sided signed-rank test does not reject.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import hodges_lehmann
    >>> est, lo, hi = hodges_lehmann(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]))
    >>> float(est), float(lo), float(hi)
    (4.5, 2.0, 7.0)
    """
    d = np.asarray(d, dtype=float).ravel()
    n = d.size
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    i, j = np.triu_indices(n)
    walsh = np.sort((d[i] + d[j]) / 2.0)
    est = float(np.median(walsh))
    cdf = _signed_rank_cdf(n)
    c = int(np.searchsorted(cdf, alpha / 2.0, side="right"))   # P(T+ <= c-1) <= alpha/2 < P(T+ <= c)
    if c == 0:                               # too few units for any interval at this level
        return est, float("-inf"), float("inf")
    return est, float(walsh[c - 1]), float(walsh[walsh.size - c])


def paired_test(d, test, *, test_train_ratio=None, one_sided=False):
    """Test that the paired differences ``d`` are centred on zero.

    Parameters
    ----------
    d : array-like
        Paired differences, one per unit; shape ``(r, k)`` (repetition × fold) for
        ``"repeated_cv_t"`` and ``(5, 2)`` for ``"5x2cv_f"``.
    test : str
        One of :data:`TESTS`.
    test_train_ratio : float, optional
        ``n_test / n_train`` for ``"corrected_t"``.
    one_sided : bool, default False
        ``p`` of the one-sided alternative "the differences are centred above zero".

    Returns
    -------
    dict with ``effect``, ``se``, ``ci_low``, ``ci_high``, ``p`` (two-sided unless ``one_sided``), ``n`` (the units
    tested: repetitions for ``"repeated_cv_t"``), ``n_direction`` (units with a positive
    difference) and ``n_nonzero`` (units with a non-zero difference, the units a rank or sign
    test keeps).  ``p`` is ``NaN`` when the test is undefined (fewer than two units).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import paired_test
    >>> d = np.array([0.5, 0.7, 0.2, 0.6, 0.4])
    >>> r = paired_test(d, "paired_t")
    >>> round(r["p"], 4) == round(float(__import__("scipy").stats.ttest_1samp(d, 0).pvalue), 4)
    True
    >>> paired_test(np.full(6, 0.3), "paired_t")["p"]      # zero variance: the sign test, 2 / 2**6
    0.03125
    """
    r = _two_sided(np.asarray(d, dtype=float), test, test_train_ratio, one_sided)
    r["n_nonzero"] = _n_nonzero(np.asarray(d, dtype=float), test)
    if one_sided and np.isfinite(r["p"]):       # every test here is symmetric: halve toward the effect's side
        r["p"] = r["p"] / 2 if r["effect"] > 0 else 1 - r["p"] / 2
    return r


def _n_nonzero(d, test):
    """The units a rank or sign test keeps: those with a non-zero difference (repetition means for
    ``"repeated_cv_t"``)."""
    if test == "repeated_cv_t" and d.ndim == 2:
        d = d.mean(axis=1)
    return int(np.count_nonzero(d))


def _two_sided(d, test, test_train_ratio, one_sided):
    if np.isnan(d).any():
        raise ValueError("paired differences contain NaN: drop the units where a result is undefined first")
    nan = float("nan")
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}")
    if test == "5x2cv_f":
        if d.shape != (5, 2):
            raise ValueError(f"the 5 x 2 CV F test needs differences of shape (5, 2), got {d.shape}")
        s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
        num, den = float((d ** 2).sum()), float(2 * s2.sum())
        p = (1.0 if num == 0 else nan) if den == 0 else float(stats.f.sf(num / den, 10, 5))
        return {"effect": float(d.mean()), "se": nan, "ci_low": nan, "ci_high": nan, "p": p, "n": 10,
                "n_direction": int((d > 0).sum())}
    if test == "repeated_cv_t":
        if d.ndim != 2:
            raise ValueError(f"repeated_cv_t needs differences of shape (repetitions, folds), got {d.shape}")
        d = d.mean(axis=1)                   # one unit per repetition: independent given the data set
    d = d.ravel()
    n = d.size
    positive = int((d > 0).sum())
    if n < 2:
        return {"effect": float(d.mean()) if n else nan, "se": nan, "ci_low": nan, "ci_high": nan, "p": nan,
                "n": n, "n_direction": positive}
    if test == "wilcoxon":
        nz = d[d != 0]
        est, lo, hi = hodges_lehmann(nz) if nz.size else (0.0, 0.0, 0.0)
        if nz.size == 0:
            p = 1.0
        elif (1.0 if one_sided else 2.0) / 2 ** nz.size >= ALPHA:   # cannot reach significance: untestable
            p = nan
        else:
            p = float(stats.wilcoxon(nz, zero_method="wilcox").pvalue)
        return {"effect": est, "se": float(d.std(ddof=1) / np.sqrt(n)), "ci_low": lo, "ci_high": hi, "p": p,
                "n": n, "n_direction": positive}
    var = float(d.var(ddof=1))
    if test == "sign":
        mean, se, lo, hi, _ = _t_result(d, var / n, n - 1)
        return {"effect": mean, "se": se, "ci_low": lo, "ci_high": hi, "p": _sign_p(d), "n": n,
                "n_direction": positive}
    if test == "corrected_t":
        if test_train_ratio is None or test_train_ratio <= 0:
            raise ValueError("the corrected resampled t-test needs test_train_ratio = n_test / n_train > 0")
        var_mean = (1.0 / n + test_train_ratio) * var
    else:                                    # paired_t, repeated_cv_t
        var_mean = var / n
    mean, se, lo, hi, p = _t_result(d, var_mean, n - 1)
    return {"effect": mean, "se": se, "ci_low": lo, "ci_high": hi, "p": p, "n": n, "n_direction": positive}


def _equivalent(effect, se, n, margin, test):
    """Whether the 90 % interval of the effect lies inside ``(-margin, margin)`` (two one-sided tests)."""
    if margin is None or not np.isfinite(effect) or not np.isfinite(se) or n < 2 or test == "wilcoxon":
        return False
    half = float(stats.t.ppf(0.95, n - 1) * se)
    return -margin < effect - half and effect + half < margin


def _verdict(effect, p, *, se=float("nan"), n=0, margin=None, test="", alpha=ALPHA):
    if np.isfinite(p) and p < alpha and effect != 0:
        return HOLDS if effect > 0 else FAILS
    if _equivalent(effect, se, n, margin, test):
        return NO_GAIN
    return NOT_SEPARABLE


def _size(verdict, effect, margin):
    return "below margin" if verdict == HOLDS and margin is not None and effect < margin else ""


def evaluate(claim: Claim, a_values, b_values, *, atol=0.0, rtol=RTOL, note=""):
    """Decide ``claim`` on the per-unit results of ``a`` and ``b`` (paired by position).

    The differences are signed so that a positive effect is the paper's direction (``b − a``
    for a ``"lower"`` metric), set to zero unit by unit where within tolerance, and tested by
    ``claim.test``.  The row's ``verdict`` uses the unadjusted ``p``; :func:`claims_table` replaces
    it by the verdict on Holm's adjusted p-value of the claim's family.

    Parameters
    ----------
    claim : Claim
    a_values, b_values : array-like
        Results of ``a`` and ``b`` on the same units (shape ``(r, k)`` for ``"repeated_cv_t"``).
    atol, rtol : float
        The tie tolerance: ``|d_i| <= atol + rtol·max(|a_i|, |b_i|)`` counts as zero.
    note : str
        A note for the row.

    Returns
    -------
    dict
        The keys of :data:`COLUMNS` (and ``margin``).
    """
    a = np.asarray(a_values, dtype=float)
    b = np.asarray(b_values, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"a and b must be paired unit by unit; got shapes {a.shape} and {b.shape}")
    d = (b - a) if claim.better == "lower" else (a - b)
    scale = np.maximum(np.abs(a), np.abs(b))
    r = paired_test(_zeroed(d, scale, atol, rtol), claim.test, test_train_ratio=claim.test_train_ratio,
                    one_sided=claim.one_sided)
    if not np.isfinite(r["p"]) and not note:
        note = (f"untestable: {r['n']} data sets cannot reach p < {ALPHA:g}" if claim.test == "wilcoxon"
                and r["n"] >= 2 else f"untestable: {r['n']} paired unit(s)")
    row = {"table": claim.table, "claim": claim.claim, "a": claim.a, "b": claim.b, "unit": claim.unit,
           "test": claim.test, **r, "p_adj": r["p"], "note": note, "margin": claim.margin,
           "one_sided": claim.one_sided}
    row["verdict"] = _verdict(row["effect"], row["p"], se=row["se"], n=row["n"], margin=claim.margin,
                              test=claim.test)
    row["size"] = _size(row["verdict"], row["effect"], claim.margin)
    return row


def sample_margin_row(text, a_values, b_values, *, n_samples, margin_samples=1, **fields):
    """:func:`evaluate` of ``Claim(text, **fields)`` on results in percent of ``n_samples`` test
    samples, whose margin is ``margin_samples`` of those samples (``100 · margin_samples /
    n_samples`` points); the row carries the claim's ``dataset``.

    Examples
    --------
    >>> from fsbook.claims import sample_margin_row
    >>> row = sample_margin_row("a above b", [90.0, 80.0], [85.0, 70.0], n_samples=20, a="a", b="b",
    ...                         better="higher", unit="folds", test="paired_t", dataset="wine")
    >>> row["margin"], row["dataset"], row["effect"]
    (5.0, 'wine', 7.5)
    """
    claim = Claim(text, margin=100.0 * margin_samples / n_samples, **fields)
    return {**evaluate(claim, a_values, b_values), "dataset": claim.dataset}


def holm(p):
    """Holm's (1979) step-down adjusted p-values; ``NaN`` p-values stay ``NaN`` and do not count.

    Examples
    --------
    >>> from fsbook.claims import holm
    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out


def claims_table(rows) -> pd.DataFrame:
    """A claims table from :func:`evaluate` rows: Holm-adjusted p-values within each ``table``
    (the family), verdicts decided on the adjusted p-values, columns :data:`COLUMNS`.

    Rows of the old count rule (test ``"count rule"``, no p-value) keep their verdict and do not
    count in the correction.
    """
    df = pd.DataFrame(list(rows))
    if df.empty:
        return pd.DataFrame(columns=COLUMNS)
    for col in COLUMNS + ["margin"]:
        if col not in df.columns:
            df[col] = "" if col in ("note", "table", "size") else np.nan
    df["margin"] = df["margin"].astype(object).where(df["margin"].notna(), None)
    for _, idx in df.groupby("table", sort=False).groups.items():
        df.loc[idx, "p_adj"] = holm(df.loc[idx, "p"].to_numpy(dtype=float))
    tested = df["test"] != "count rule"
    for i in df.index[tested]:
        m = df.at[i, "margin"]
        m = None if m is None or (isinstance(m, float) and math.isnan(m)) else float(m)
        v = _verdict(float(df.at[i, "effect"]), float(df.at[i, "p_adj"]), se=float(df.at[i, "se"]),
                     n=int(df.at[i, "n"]), margin=m, test=df.at[i, "test"])
        df.at[i, "verdict"] = v
        df.at[i, "size"] = _size(v, float(df.at[i, "effect"]), m)
    return df[COLUMNS + [c for c in df.columns if c not in COLUMNS]].reset_index(drop=True)


def count_rule(verdicts) -> str:
    """A vote count over per-data-set verdicts: *fails* when any fails, *holds* when more than
    half of the *testable* ones hold and none fails, else *not separable*.

    Kept for pages that show the vote beside the test; no verdict of the book rests on it
    (:func:`evaluate_over_datasets` tests over the data sets instead).  Data sets whose row was
    untestable are passed as ``None`` and do not count.

    Examples
    --------
    >>> from fsbook.claims import count_rule
    >>> count_rule(["holds", "holds", "not separable"])
    'holds'
    >>> count_rule(["holds", "holds", "fails"])
    'fails'
    >>> count_rule(["holds", None, None])          # one testable data set, and it holds
    'holds'
    """
    verdicts = [v for v in verdicts if v is not None]
    bad = set(verdicts) - set(VERDICTS)
    if bad:
        raise ValueError(f"unknown verdicts {sorted(bad)}; expected {VERDICTS}")
    if not verdicts:
        return NOT_SEPARABLE
    if FAILS in verdicts:
        return FAILS
    if verdicts.count(HOLDS) > len(verdicts) / 2:
        return HOLDS
    return NOT_SEPARABLE


def evaluate_over_datasets(per_dataset: pd.DataFrame, claim: str, *, table: str = "", margin=None) -> dict:
    """One row for ``claim`` over the data sets of ``per_dataset``: the Wilcoxon signed-rank test
    over the per-data-set effects (each already signed in the paper's direction), effect and
    interval by Hodges–Lehmann.

    Parameters
    ----------
    per_dataset : DataFrame
        A claims table whose rows for ``claim`` are one per data set (columns ``claim``, ``a``,
        ``b``, ``effect``, ``verdict``); rows with an undefined effect are dropped.
    claim : str
    table : str
        The family of the row; default ``"<first row's table> (over data sets)"`` so that it never
        shares a Holm family with the per-data-set rows.
    margin : float, optional

    Returns
    -------
    dict
        A row of :data:`COLUMNS`; ``note`` gives the per-data-set verdict counts.
    """
    rows = per_dataset[per_dataset["claim"] == claim]
    if rows.empty:
        raise ValueError(f"no per-data-set rows for claim {claim!r}")
    effects = rows["effect"].to_numpy(dtype=float)
    effects = effects[np.isfinite(effects)]
    table = table or f"{rows['table'].iloc[0] if 'table' in rows else ''} (over data sets)".strip()
    c = Claim(claim, a=rows["a"].iloc[0], b=rows["b"].iloc[0], better="higher", unit="data sets", test="wilcoxon",
              table=table, margin=margin)
    counts = verdict_counts(rows["verdict"])
    row = evaluate(c, effects, np.zeros_like(effects), rtol=0.0)
    votes = ", ".join(f"{k} on {v}" for k, v in counts.items() if v)
    row["note"] = "; ".join(x for x in (row["note"], votes) if x)
    return row


def over_datasets_table(per_dataset: pd.DataFrame, claims=None, *, table_suffix=" (over data sets)",
                        margin=None) -> pd.DataFrame:
    """Per-data-set rows followed by one over-data-set row per claim, each kind in its own Holm
    family (the over-data-set rows of a table form the family ``table + table_suffix``)."""
    claims = list(dict.fromkeys(per_dataset["claim"])) if claims is None else list(claims)
    over = [evaluate_over_datasets(per_dataset, c,
                                   table=f"{per_dataset.loc[per_dataset['claim'] == c, 'table'].iloc[0]}"
                                         f"{table_suffix}", margin=margin) for c in claims]
    return pd.concat([per_dataset, claims_table(over)], ignore_index=True)


def verdict_counts(verdicts) -> dict:
    """``{"holds": …, "fails": …, "no gain": …, "not separable": …}`` for a sequence of verdicts."""
    verdicts = list(verdicts)
    return {v: verdicts.count(v) for v in VERDICTS}


def min_achievable_p(test, n, one_sided=False):
    """The smallest p-value ``test`` can give with ``n`` units: 0 for the t-tests (``n >= 2``),
    ``2 / 2**n`` for the sign and Wilcoxon tests (``1 / 2**n`` one-sided), 1 when untestable.

    Examples
    --------
    >>> from fsbook.claims import min_achievable_p
    >>> min_achievable_p("wilcoxon", 10), min_achievable_p("paired_t", 3)
    (0.001953125, 0.0)
    >>> min_achievable_p("sign", 1427)                # the test samples of one pooled partition
    0.0
    """
    n = int(n)
    if n < 2:
        return 1.0
    if test in ("sign", "wilcoxon", "exact binomial"):
        return min(1.0, math.ldexp(1.0 if one_sided else 2.0, -n))   # no overflow at many samples
    if test == "count rule":
        return 1.0
    return 0.0


def family_check(table: pd.DataFrame, alpha=ALPHA) -> pd.DataFrame:
    """For every family (``table``) of a claims table: its size ``m`` (testable rows), and the rows
    that could never pass even as the family's smallest p-value (``min_achievable_p >= alpha/m``).

    A family *can pass* when its smallest achievable p-value is below Holm's first threshold
    ``alpha/m``: otherwise no row of it can ever be decided.  ``cannot pass`` counts the rows
    that could not pass even as the family's smallest p-value: a check of the design (test and
    number of units ``n``).  Where the rows
    carry ``n_nonzero`` (every row :func:`evaluate` makes does), ``cannot pass with ties`` checks
    the data too: the sign and signed-rank tests drop the zero differences, so a row with ``n``
    units of which only ``n_nonzero`` differ has the smallest p of ``n_nonzero`` units, and a
    t-test row whose differences are all zero cannot pass at all.  (Tied non-zero magnitudes
    change the signed-rank test's smallest p only through its normal approximation; the check
    keeps the exact floor.)  An exact binomial row that carries its reference proportion ``p0``
    gets that test's own floor (:func:`binomial_min_p`), not the sign test's ``2 / 2**n``.

    Returns
    -------
    DataFrame
        One row per family: ``table``, ``m``, ``threshold`` (``alpha/m``), ``cannot pass`` (how
        many testable rows could not pass Holm's first threshold by design), ``can pass`` (whether
        the family's smallest achievable p is below it) and, where the rows carry ``n_nonzero``,
        ``cannot pass with ties``.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.claims import family_check
    >>> t = pd.DataFrame({"table": ["T2"] * 46, "test": "wilcoxon", "n": 10, "p": 0.5})
    >>> family_check(t)[["m", "cannot pass", "can pass"]].values.tolist()   # 2/1024 > 0.05/46
    [[46, 46, False]]
    >>> t["n_nonzero"] = [10] * 40 + [6] * 6                 # six rows with four tied units each
    >>> t["one_sided"] = True                                 # 1/1024 < 0.05/46, 1/64 > 0.05/46
    >>> family_check(t)[["cannot pass", "cannot pass with ties"]].values.tolist()
    [[0, 6]]
    """
    with_ties = "n_nonzero" in table.columns
    columns = ["table", "m", "threshold", "cannot pass", "can pass"] + (["cannot pass with ties"] * with_ties)
    out = []
    for fam, g in table.groupby("table", sort=False):
        testable = g[np.isfinite(g["p"].to_numpy(dtype=float))]
        m = len(testable)
        thr = alpha / m if m else float("nan")
        sided = ([o is True or (isinstance(o, (bool, np.bool_)) and bool(o)) for o in testable["one_sided"]]
                 if "one_sided" in testable else [False] * m)      # NaN (not stated) is two-sided
        p0s = testable["p0"] if "p0" in testable else [float("nan")] * m
        floors = [_floor(t, n, o, p0) for t, n, o, p0 in zip(testable["test"], testable["n"], sided, p0s)]
        bad = int(sum(f >= thr for f in floors)) if m else 0
        row = {"table": fam, "m": m, "threshold": thr, "cannot pass": bad,
               "can pass": bool(m == 0 or min(floors) < thr)}
        if with_ties:
            row["cannot pass with ties"] = int(sum(
                (f if _has_p0(p0) else _min_p_with_ties(t, n, k, bool(o))) >= thr
                for f, t, n, k, o, p0 in zip(floors, testable["test"], testable["n"], testable["n_nonzero"],
                                             sided, p0s)))
        out.append(row)
    return pd.DataFrame(out, columns=columns)


def _has_p0(p0):
    return p0 is not None and not (isinstance(p0, float) and math.isnan(p0))


def _floor(test, n, one_sided, p0):
    """The smallest p a row's test can give by design: the binomial test's own floor when the row
    carries its reference proportion ``p0``, else :func:`min_achievable_p`."""
    if test == "exact binomial" and _has_p0(p0) and int(n) >= 1:
        return binomial_min_p(int(n), float(p0))
    return min_achievable_p(test, n, one_sided)


def _min_p_with_ties(test, n, n_nonzero, one_sided):
    """The smallest p a row can reach given its data's zero differences (``n_nonzero`` of ``n``)."""
    if n_nonzero is None or (isinstance(n_nonzero, float) and math.isnan(n_nonzero)):
        return min_achievable_p(test, n, one_sided)
    if int(n_nonzero) == 0:
        return 1.0
    rank_or_sign = test in ("sign", "wilcoxon", "exact binomial")
    return min_achievable_p(test, n_nonzero if rank_or_sign else n, one_sided)


AGREES, DIFFERS, INCONCLUSIVE = "agrees", "differs", "inconclusive"


def agreement(ours, paper, *, margin, paper_se=None, paper_n=None, alpha=ALPHA):
    """Does our level agree with a number the paper prints?

    The difference ``ours − paper`` (ours the mean of the per-unit values) has the standard error
    ``sqrt(se_ours² + se_paper²)``; ``se_paper`` is the paper's own where it prints one, else our
    standard deviation over ``sqrt(paper_n)`` (our spread at the paper's number of runs), else 0.
    Verdict: :data:`AGREES` when the 90 % interval lies inside ``(-margin, margin)`` (equivalence by
    two one-sided tests), :data:`DIFFERS` when the 95 % interval excludes 0, else
    :data:`INCONCLUSIVE`.

    Parameters
    ----------
    ours : array-like
        Our per-unit values (runs, folds, ...) of the quantity the paper prints.
    paper : float
        The paper's printed value, in the same units.
    margin : float
        The largest difference that counts as agreement, declared before looking.
    paper_se, paper_n : float, int, optional

    Returns
    -------
    dict with ``ours``, ``paper``, ``diff``, ``se``, ``ci_low``, ``ci_high`` (95 %), ``z`` and
    ``agreement``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import agreement
    >>> runs = np.array([10.2, 9.8, 10.1, 9.9, 10.0, 10.3, 9.7, 10.0])
    >>> agreement(runs, 10.1, margin=0.5)["agreement"], agreement(runs, 12.0, margin=0.5)["agreement"]
    ('agrees', 'differs')
    """
    x = np.asarray(ours, dtype=float).ravel()
    x = x[np.isfinite(x)]
    nan = float("nan")
    if x.size == 0 or paper is None or not np.isfinite(paper):
        return {"ours": nan, "paper": nan if paper is None else float(paper), "diff": nan, "se": nan,
                "ci_low": nan, "ci_high": nan, "z": nan, "agreement": INCONCLUSIVE}
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if x.size > 1 else nan
    se_ours = sd / math.sqrt(x.size) if x.size > 1 else nan
    if paper_se is not None:
        se_paper = float(paper_se)
    elif paper_n is not None and x.size > 1:
        se_paper = sd / math.sqrt(paper_n)
    else:
        se_paper = 0.0
    se = math.sqrt(se_ours ** 2 + se_paper ** 2) if np.isfinite(se_ours) else nan
    diff = mean - float(paper)
    z95 = stats.norm.ppf(1 - alpha / 2)
    z90 = stats.norm.ppf(1 - alpha)
    if not np.isfinite(se):
        verdict = INCONCLUSIVE
    elif -margin < diff - z90 * se and diff + z90 * se < margin:
        verdict = AGREES
    elif abs(diff) > z95 * se:
        verdict = DIFFERS
    else:
        verdict = INCONCLUSIVE
    return {"ours": mean, "paper": float(paper), "diff": diff, "se": se, "ci_low": diff - z95 * se,
            "ci_high": diff + z95 * se, "z": diff / se if se and np.isfinite(se) else nan, "agreement": verdict}


# ----------------------------------------------------------------------------- tests of single rows
#: the two-sided 97.5 % quantile of the standard normal (an interval's half-width over the se)
_Z975 = float(stats.norm.ppf(0.975))


def binomial_min_p(n, p0):
    """The smallest two-sided p-value the exact binomial test of ``p0`` can give with ``n`` units.

    Parameters
    ----------
    n : int
        Number of units (trials).
    p0 : float
        The proportion of the null hypothesis, in (0, 1).

    Returns
    -------
    float
        The minimum over the ``n + 1`` outcomes of the test's p-value.

    Examples
    --------
    >>> from fsbook.claims import binomial_min_p
    >>> binomial_min_p(1, 0.63) >= 0.05, binomial_min_p(10, 0.5) < 0.05
    (True, True)
    """
    return min(float(stats.binomtest(k, n, p0).pvalue) for k in range(n + 1))


def binomial_test(k, n, p0, better="higher", *, unit="units", alpha=ALPHA):
    """A proportion ``k / n`` against a reference ``p0``: the exact two-sided binomial test.

    The effect is the difference ``k / n − p0``, signed so that positive is the claim's direction
    (``better``); the interval is the 95 % Clopper–Pearson interval of the proportion, shifted and
    signed the same way; ``se`` is its half-width / 1.96.  No unit leaves the test undefined, and
    so few units that no outcome reaches ``p < alpha`` leave it untestable: ``p`` is NaN then and
    ``note`` says why (as :func:`paired_test` does for the Wilcoxon test).

    Parameters
    ----------
    k : int
        Units in the counted class (successes).
    n : int
        Units.
    p0 : float
        The reference proportion, in (0, 1).
    better : {"higher", "lower"}, default "higher"
        The claim's direction: a proportion above ``p0`` (``"higher"``) or below it.
    unit : str, default "units"
        The units' name (plural), for the note.
    alpha : float, default :data:`ALPHA`
        The level below which a test can decide.

    Returns
    -------
    dict
        ``n``, ``effect``, ``se``, ``ci_low``, ``ci_high``, ``p`` and ``note`` (``""`` when the
        test can decide).

    Raises
    ------
    ValueError
        If ``p0`` is not in (0, 1).

    See Also
    --------
    binomial_min_p : the smallest p-value ``n`` units can give.

    Examples
    --------
    >>> from fsbook.claims import binomial_test
    >>> r = binomial_test(0, 6, 0.5, "lower", unit="sets")
    >>> r["effect"], r["p"] == 2 / 2 ** 6
    (0.5, True)
    >>> binomial_test(0, 1, 0.63, unit="sets")["note"]
    'untestable: 1 set cannot reach p < 0.05'
    """
    if not 0.0 < p0 < 1.0:
        raise ValueError(f"the binomial test needs a reference proportion in (0, 1), got {p0}")
    nan = float("nan")
    if n == 0:
        return {"n": 0, "effect": nan, "se": nan, "ci_low": nan, "ci_high": nan, "p": nan,
                "note": "undefined: no unit"}
    test = stats.binomtest(int(k), int(n), p0)
    ci = test.proportion_ci(0.95, method="exact")
    sign = 1.0 if better == "higher" else -1.0
    lo, hi = sorted((sign * (ci.low - p0), sign * (ci.high - p0)))
    out = {"n": n, "effect": sign * (k / n - p0), "se": (ci.high - ci.low) / (2 * _Z975), "ci_low": lo,
           "ci_high": hi, "p": float(test.pvalue), "note": ""}
    if binomial_min_p(int(n), p0) >= alpha:     # no outcome of n units can reach p < alpha
        out["p"] = nan
        out["note"] = f"untestable: {int(n)} {unit.removesuffix('s') if n == 1 else unit} cannot reach p < {alpha:g}"
    return out


def slope_t_test(x, y, better="higher", *, null=0.0):
    """The least-squares slope of ``y`` on ``x`` against ``null``: the t-test with ``n − 2``
    degrees of freedom.

    The effect is ``slope − null``, signed so that positive is the claim's direction
    (``better="higher"``: a larger slope), with its 95 % t interval.  Points with an undefined
    ``x`` or ``y`` are left out.  Fewer than three points, or a constant ``x``, leave the test
    undefined (``note`` says so); a constant ``y`` has slope exactly 0 and ``se`` 0 (``p`` 1
    against a zero null, 0 against another).

    Parameters
    ----------
    x, y : array-like of shape (n,)
        The points.
    better : {"higher", "lower"}, default "higher"
        The claim's direction.
    null : float, default 0.0
        The slope of the null hypothesis.

    Returns
    -------
    dict
        ``n``, ``effect``, ``se``, ``ci_low``, ``ci_high``, ``p`` and ``note``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import slope_t_test
    >>> r = slope_t_test([0, 1, 2, 3], [0.1, 0.9, 2.1, 2.9], better="higher", null=1.0)
    >>> r["n"], round(r["effect"], 2), r["p"] > 0.05
    (4, -0.04, True)
    >>> slope_t_test([1, 2], [3, 4])["note"]
    'untestable: 2 point(s)'
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y, n = x[ok], y[ok], int(ok.sum())
    sign = 1.0 if better == "higher" else -1.0
    nan = float("nan")
    if n < 3 or np.ptp(x) == 0:
        return {"n": n, "effect": nan, "se": nan, "ci_low": nan, "ci_high": nan, "p": nan,
                "note": f"untestable: {n} point(s)"}
    if np.ptp(y) == 0:                       # a constant y: slope exactly 0, no evidence
        slope, se, p = 0.0, 0.0, 1.0 if null == 0 else 0.0
    else:
        lr = stats.linregress(x, y)
        slope, se = float(lr.slope), float(lr.stderr)
        t = (slope - null) / se if se > 0 else np.inf * np.sign(slope - null)
        p = float(2 * stats.t.sf(abs(t), n - 2)) if np.isfinite(t) else 0.0
    effect = sign * (slope - null)
    half = float(stats.t.ppf(0.975, n - 2) * se)
    return {"n": n, "effect": effect, "se": se, "ci_low": effect - half, "ci_high": effect + half, "p": p,
            "note": ""}


def clustered_slope_test(x, y, clusters):
    """The least-squares slope of ``y`` on ``x`` with its cluster-robust standard error.

    The slope keeps its least-squares value; its standard error is the CR1 sandwich with the
    ``clusters`` as units (the score sums per cluster, scaled by ``G / (G − 1) · (n − 1) /
    (n − 2)`` for ``G`` clusters), tested against 0 by t with ``G − 1`` degrees of freedom.  With
    one point per cluster it is White's HC1 standard error.  A constant ``x`` leaves it undefined.

    Parameters
    ----------
    x, y : array-like of shape (n,)
        The points.
    clusters : array-like of shape (n,)
        The cluster of each point (points of one cluster are not independent).

    Returns
    -------
    dict
        ``slope``, ``se``, ``p`` (two-sided) and ``clusters`` (G).

    References
    ----------
    Cameron, A. C., & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    *Journal of Human Resources*, 50(2), 317–372.

    Examples
    --------
    >>> r = clustered_slope_test([0, 1, 2, 3, 4, 5], [0.1, 1.2, 1.9, 3.2, 3.9, 5.1], [0, 0, 1, 1, 2, 2])
    >>> round(r["slope"], 3), r["clusters"], r["p"] < 0.05
    (0.983, 3, True)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    groups = pd.factorize(np.asarray(clusters))[0]
    n_groups, n = int(groups.max()) + 1, len(x)
    if np.ptp(x) == 0 or n_groups < 2 or n < 3:
        return {"slope": float("nan"), "se": float("nan"), "p": float("nan"), "clusters": n_groups}
    X = np.column_stack([np.ones(n), x])
    bread = np.linalg.inv(X.T @ X)
    beta = bread @ X.T @ y
    score = np.zeros((n_groups, 2))
    np.add.at(score, groups, X * (y - X @ beta)[:, None])
    meat = score.T @ score * (n_groups / (n_groups - 1)) * ((n - 1) / (n - 2))
    se = float(np.sqrt((bread @ meat @ bread)[1, 1]))
    p = float(2 * stats.t.sf(abs(beta[1] / se), n_groups - 1)) if se > 0 else float("nan")
    return {"slope": float(beta[1]), "se": se, "p": p, "clusters": n_groups}


def wins_ties_losses(a, b, *, decimals=10):
    """Wins, ties and losses of ``a`` against ``b`` over paired units, and the one-sided Wilcoxon
    signed-rank test that ``a`` is greater.

    The counts compare the differences rounded to ``decimals`` (a last-bit difference is a tie);
    the test runs on the unrounded pairs (:func:`scipy.stats.wilcoxon`, ``alternative="greater"``)
    and is undefined (NaN) when every rounded difference is zero.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Paired values (e.g. one accuracy per data set).
    decimals : int, default 10
        Rounding of the differences for the counts.

    Returns
    -------
    dict
        ``wins``, ``ties``, ``losses`` and ``p``.

    Examples
    --------
    >>> from fsbook.claims import wins_ties_losses
    >>> r = wins_ties_losses([3.0, 2.0, 5.0, 4.0], [1.0, 2.0, 4.0, 4.5])
    >>> r["wins"], r["ties"], r["losses"], 0 < r["p"] < 1
    (2, 1, 1, True)
    """
    a, b = np.asarray(a), np.asarray(b)
    diff = np.round(a - b, decimals)
    n_nonzero = int((diff != 0).sum())
    p = float(stats.wilcoxon(a, b, alternative="greater").pvalue) if n_nonzero else float("nan")
    return {"wins": int((diff > 0).sum()), "ties": int((diff == 0).sum()), "losses": int((diff < 0).sum()),
            "p": p}


# ----------------------------------------------------------------------------- families and equivalences
def fold_test(values) -> dict:
    """The test and unit that fit paired fold results of shape (repetitions, folds).

    With several repetitions of k-fold CV (e.g. 5 × 2 CV) the paired t-test over the repetition
    means (``"repeated_cv_t"``, unit ``"repetitions"``: the repetitions are independent given the
    data set, the folds of one repetition are not); with one partition the plain paired t-test
    over its folds.

    Parameters
    ----------
    values : ndarray
        One method's results, shape (repetitions, folds) or (folds,).

    Returns
    -------
    dict
        ``{"test": ..., "unit": ...}``, keywords of :class:`Claim`.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import fold_test
    >>> fold_test(np.zeros((5, 2))), fold_test(np.zeros((1, 3)))
    ({'test': 'repeated_cv_t', 'unit': 'repetitions'}, {'test': 'paired_t', 'unit': 'folds'})
    """
    if values.ndim == 2 and values.shape[0] >= 2:
        return {"test": "repeated_cv_t", "unit": "repetitions"}
    return {"test": "paired_t", "unit": "folds"}


def repetition_folds(rows, column, what) -> np.ndarray:
    """Paired fold results of repeated k-fold CV as a (repetitions, folds) array.

    Parameters
    ----------
    rows : pandas.DataFrame
        One method's rows on one data set, with the columns ``repeat``, ``fold`` and ``column``.
    column : str
        The result to arrange.
    what : str
        The method's name in the error raised when a fold of a repetition is missing.

    Returns
    -------
    ndarray, shape (repetitions, folds)
        Rows sorted by repetition, columns by fold: the input of :func:`fold_test` and
        :func:`evaluate`.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.claims import repetition_folds
    >>> rows = pd.DataFrame({"repeat": [0, 0, 1, 1], "fold": [1, 0, 0, 1], "acc": [0.5, 1.0, 0.75, 0.25]})
    >>> repetition_folds(rows, "acc", "hkl").tolist()
    [[1.0, 0.5], [0.75, 0.25]]
    """
    wide = rows.pivot(index="repeat", columns="fold", values=column)
    if wide.empty or wide.isna().any().any():
        raise ValueError(f"{what} is not stored on every fold of every repetition")
    return wide.sort_index().sort_index(axis=1).to_numpy(dtype=float)


class ClaimFamily:
    """The rows of one claims table: its per-data-set rows form the Holm family ``table``, its
    rows over the data sets (Wilcoxon over the per-data-set effects,
    :func:`evaluate_over_datasets`) the family ``table + over_suffix``.

    Each per-data-set claim says that ``a`` has a higher value than ``b`` on paired fold results
    (:func:`fold_test` picks the test).  A mean effect within the tie tolerance
    (:data:`fsbook.decisions.RTOL`) of the values is set to exactly zero, so that neither its
    printed sign nor the test over the data sets (which drops zero effects) depends on the last
    bit of folds whose differences cancel.

    Parameters
    ----------
    table : str
        The family of the per-data-set rows.
    over_suffix : str, default " (over data sets)"
        Appended to ``table`` for the family of the rows over the data sets.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import ClaimFamily
    >>> fam = ClaimFamily("demo")
    >>> rng = np.random.default_rng(0)
    >>> for d in "abcdefg":
    ...     base = rng.normal(80, 2, size=(1, 5))
    ...     fam.per_dataset("A above B", d, "A", "B", base + 1, base, classifier="SVM")
    >>> fam.over_datasets("A above B", "A", "B", classifier="SVM")
    >>> t = fam.table_rows()
    >>> t["table"].tolist()[-1], t["verdict"].tolist()[-1], len(t)
    ('demo (over data sets)', 'holds', 8)
    """

    def __init__(self, table, over_suffix=" (over data sets)"):
        self.table, self.over_suffix, self.rows, self.over = table, over_suffix, [], []

    def per_dataset(self, text, dataset, a, b, va, vb, note="", **extra):
        """Decide ``text`` (``a`` above ``b``) on one data set's paired fold results ``va``,
        ``vb``; ``extra`` columns are added to the row (and ``general``, ``dataset``)."""
        claim = Claim(f"{text}: {dataset}", a=a, b=b, better="higher", table=self.table, dataset=dataset,
                      **fold_test(va))
        row = evaluate(claim, va, vb, note=note)
        if abs(row["effect"]) <= RTOL * max(np.abs(va).max(), np.abs(vb).max()):
            row["effect"] = 0.0
        self.rows.append({**row, "general": text, "dataset": dataset, **extra})

    def over_datasets(self, text, a, b, **extra):
        """Decide ``text`` over the data sets of its per-data-set rows (:meth:`table_rows`)."""
        self.over.append((text, a, b, extra))

    def table_rows(self) -> pd.DataFrame:
        """The per-data-set rows, then the rows over the data sets, as one claims table."""
        t = claims_table(self.rows)
        over = []
        for text, a, b, extra in self.over:
            per = t[(t["general"] == text) & (t["dataset"] != "")].assign(claim=text)
            row = evaluate_over_datasets(per, text, table=self.table + self.over_suffix)
            over.append({**row, "a": a, "b": b, "general": text, "dataset": "", **extra})
        return pd.concat([t, claims_table(over)], ignore_index=True) if over else t


def equivalence_verdicts(table: pd.DataFrame, claims) -> pd.DataFrame:
    """The verdicts of "about the same" claims in the claim's own words.

    For the rows whose ``claim`` is in ``claims``, the engine's :data:`NO_GAIN` (the 90 % interval
    inside the claim's margin: the two one-sided tests declare equivalence) is the claim
    *holding*; a significant difference either way (:data:`HOLDS` or :data:`FAILS`) is the claim
    *failing*; :data:`NOT_SEPARABLE` stays.  The engine's verdict on the difference is kept in the
    column ``difference`` (added, empty for the other rows); ``size`` is emptied.  Every statistic
    is the engine's.

    Parameters
    ----------
    table : DataFrame
        A claims table (:data:`COLUMNS`).
    claims : sequence of str
        The claims that assert equivalence.

    Returns
    -------
    DataFrame
        A copy of ``table`` with the verdicts of those claims restated.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.claims import equivalence_verdicts
    >>> t = pd.DataFrame({"claim": ["x ≈ y", "x ≈ y", "x > y"], "verdict": ["no gain", "holds", "holds"],
    ...                   "size": ["", "", ""]})
    >>> equivalence_verdicts(t, ["x ≈ y"])[["verdict", "difference"]].values.tolist()
    [['holds', 'no gain'], ['fails', 'holds'], ['holds', '']]
    """
    table = table.copy()
    if "difference" not in table:
        table["difference"] = ""
    eq = table["claim"].isin(list(claims))
    table.loc[eq, "difference"] = table.loc[eq, "verdict"]
    table.loc[eq, "verdict"] = table.loc[eq, "difference"].map(
        {NO_GAIN: HOLDS, HOLDS: FAILS, FAILS: FAILS}).fillna(NOT_SEPARABLE)
    table.loc[eq, "size"] = ""
    return table

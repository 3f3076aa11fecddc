"""The claims engine: a paper's claim decided on paired statistics, by one rule for the whole book.

A *claim* is a sentence of a paper that compares two things on a metric ("Proj-OLap has a lower
test error than SVM-OLap"): :class:`Claim` declares it once, next to the protocol's tables, with
the direction the paper asserts and the *unit* its results are paired over (runs, pairs, splits,
folds or data sets).  :func:`evaluate` decides it on the per-unit results a store holds, never on
printed means, and returns one row of a claims table:

``effect``
    the mean paired difference, signed so that a positive effect is the paper's direction, in the
    metric's units (percentage points of error, accuracy, ...);
``se``, ``ci_low``, ``ci_high``
    its standard error and 95 % confidence interval under the chosen test (``NaN`` where the test
    has none, e.g. the 5 × 2 CV F test);
``test``, ``p``, ``n``
    the test, its two-sided p-value and the number of paired units;
``p_adj``
    the p-value after Holm's step-down correction over the claims of one table (the *family*):
    a table that makes many comparisons pays for them;
``verdict``
    :data:`HOLDS` (the effect is in the paper's direction and ``p_adj < ALPHA``), :data:`FAILS`
    (significant in the other direction) or :data:`NOT_SEPARABLE` (neither, or untestable).

The tests fit how each protocol resamples (:data:`TESTS`):

* ``"corrected_t"`` -- Nadeau and Bengio's (2003) corrected resampled t-test for runs over random
  train/test splits, which share training data: the variance of the mean difference is
  ``(1/J + n_test/n_train) s²`` instead of the naive ``s²/J``.  Also used for the folds of
  (repeated) k-fold CV, where ``n_test/n_train = 1/(k − 1)`` (Bouckaert and Frank 2004).
* ``"5x2cv_f"`` -- Alpaydın's (1999) combined 5 × 2 CV F test (the robust form of Dietterich's
  1998 5 × 2 CV t-test) for five replications of two-fold CV; the direction is the sign of the
  mean of the ten differences.
* ``"paired_t"`` -- the plain paired t-test, for units that share no data (disjoint test sets
  with disjoint training sets, or independent problems such as class pairs of separate corpora).
* ``"wilcoxon"`` -- the Wilcoxon signed-rank test over data sets (Demšar 2006), exact for small
  samples; differences within tolerance are zeros and are dropped (``zero_method="wilcox"``).

A claim made for several data sets is decided per data set and then by the book's one
**count rule** (:func:`count_rule`): a general claim *fails* when it fails on at least one data
set (a significant counterexample refutes it), *holds* when it holds on more than half of the
data sets and fails on none, and is *not separable* otherwise.

Differences within ``atol + rtol·|scale|`` of zero (:data:`fsbook.decisions.RTOL`) are set to
exactly zero before testing, so that last-bit rounding differences between machines cannot move a
verdict, and the printed precision of a table decides nothing.

Examples
--------
>>> import numpy as np
>>> from fsbook.claims import Claim, evaluate
>>> claim = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="corrected_t",
...               test_train_ratio=0.25)
>>> err_a = np.array([10.0, 11.0, 9.5, 10.5, 10.0, 9.0, 10.5, 10.0])
>>> err_b = err_a + np.array([1.0, 1.5, 0.5, 1.0, 1.2, 0.8, 1.1, 0.9])
>>> row = evaluate(claim, err_a, err_b)
>>> row["verdict"], row["n"], round(row["effect"], 3)
('holds', 8, 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.decisions import RTOL

__all__ = ["ALPHA", "HOLDS", "FAILS", "NOT_SEPARABLE", "VERDICTS", "TESTS", "UNITS", "Claim", "paired_test",
           "evaluate", "claims_table", "holm", "count_rule", "evaluate_over_datasets", "verdict_counts",
           "COLUMNS"]

#: significance level of every verdict in the book
ALPHA = 0.05
HOLDS, FAILS, NOT_SEPARABLE = "holds", "fails", "not separable"
VERDICTS = (HOLDS, FAILS, NOT_SEPARABLE)
TESTS = ("corrected_t", "5x2cv_f", "paired_t", "wilcoxon")
UNITS = ("runs", "pairs", "splits", "folds", "data sets", "tasks")
#: the columns of a claims table, in order
COLUMNS = ["table", "claim", "a", "b", "unit", "n", "effect", "se", "ci_low", "ci_high", "test", "p", "p_adj",
           "verdict", "note"]


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
        One of :data:`TESTS` (see the module docstring for which fits which resampling).
    table : str, default ""
        The table the claim belongs to: the family of Holm's correction.
    test_train_ratio : float or None
        ``n_test / n_train`` of one split, needed by ``"corrected_t"``.
    dataset : str, default ""
        The data set, for claims evaluated per data set.
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
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if self.better not in ("lower", "higher"):
            raise ValueError(f"better must be 'lower' or 'higher', got {self.better!r}")
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {self.unit!r}")
        if self.test not in TESTS:
            raise ValueError(f"test must be one of {TESTS}, got {self.test!r}")
        if self.test == "corrected_t" and not (self.test_train_ratio is not None and self.test_train_ratio > 0):
            raise ValueError("the corrected resampled t-test needs test_train_ratio = n_test / n_train > 0")


def _zeroed(d, scale, atol, rtol):
    d = np.asarray(d, dtype=float).copy()
    d[np.abs(d) <= atol + rtol * scale] = 0.0
    return d


def _t_result(d, var_mean, df):
    mean = float(d.mean())
    if var_mean <= 0:
        p = 1.0 if mean == 0 else 0.0
        return mean, 0.0, mean, mean, p
    se = float(np.sqrt(var_mean))
    t = mean / se
    p = float(2 * stats.t.sf(abs(t), df))
    half = float(stats.t.ppf(0.975, df) * se)
    return mean, se, mean - half, mean + half, p


def paired_test(d, test, *, test_train_ratio=None):
    """Test that the mean of the paired differences ``d`` is zero.

    Parameters
    ----------
    d : array-like
        Paired differences, one per unit (shape ``(5, 2)`` for ``"5x2cv_f"``: replication × fold).
    test : str
        One of :data:`TESTS`.
    test_train_ratio : float, optional
        ``n_test / n_train`` for ``"corrected_t"``.

    Returns
    -------
    dict with ``effect`` (mean difference), ``se``, ``ci_low``, ``ci_high``, ``p`` (two-sided)
    and ``n``.  ``p`` is ``NaN`` when the test is undefined (fewer than two units).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import paired_test
    >>> d = np.array([0.5, 0.7, 0.2, 0.6, 0.4])
    >>> r = paired_test(d, "paired_t")
    >>> round(r["p"], 4) == round(float(__import__("scipy").stats.ttest_1samp(d, 0).pvalue), 4)
    True
    >>> r_corr = paired_test(d, "corrected_t", test_train_ratio=0.25)
    >>> r_corr["p"] > r["p"]                          # the correction widens the interval
    True
    """
    d = np.asarray(d, dtype=float)
    if np.isnan(d).any():
        raise ValueError("paired differences contain NaN: drop the units where a result is undefined first")
    nan = float("nan")
    if test == "5x2cv_f":
        if d.shape != (5, 2):
            raise ValueError(f"the 5 x 2 CV F test needs differences of shape (5, 2), got {d.shape}")
        mean_i = d.mean(axis=1, keepdims=True)
        s2 = ((d - mean_i) ** 2).sum(axis=1)
        num, den = float((d ** 2).sum()), float(2 * s2.sum())
        if den == 0:
            p = 1.0 if num == 0 else 0.0
        else:
            p = float(stats.f.sf(num / den, 10, 5))
        return {"effect": float(d.mean()), "se": nan, "ci_low": nan, "ci_high": nan, "p": p, "n": 10}
    d = d.ravel()
    n = d.size
    if n < 2:
        return {"effect": float(d.mean()) if n else nan, "se": nan, "ci_low": nan, "ci_high": nan, "p": nan, "n": n}
    if test == "wilcoxon":
        nz = d[d != 0]
        se = float(d.std(ddof=1) / np.sqrt(n))
        p = 1.0 if nz.size == 0 else float(stats.wilcoxon(nz, zero_method="wilcox").pvalue)
        return {"effect": float(d.mean()), "se": se, "ci_low": nan, "ci_high": nan, "p": p, "n": n}
    var = float(d.var(ddof=1))
    if test == "paired_t":
        var_mean = var / n
    elif test == "corrected_t":
        if test_train_ratio is None or test_train_ratio <= 0:
            raise ValueError("the corrected resampled t-test needs test_train_ratio = n_test / n_train > 0")
        var_mean = (1.0 / n + test_train_ratio) * var
    else:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}")
    mean, se, lo, hi, p = _t_result(d, var_mean, n - 1)
    return {"effect": mean, "se": se, "ci_low": lo, "ci_high": hi, "p": p, "n": n}


def _verdict(effect, p, alpha=ALPHA):
    if not np.isfinite(p) or p >= alpha or effect == 0:
        return NOT_SEPARABLE
    return HOLDS if effect > 0 else FAILS


def evaluate(claim: Claim, a_values, b_values, *, atol=0.0, rtol=RTOL, note=""):
    """Decide ``claim`` on the per-unit results of ``a`` and ``b`` (paired by position).

    The differences are signed so that a positive effect is the paper's direction (``b − a``
    for a ``"lower"`` metric), set to zero where within tolerance, and tested by ``claim.test``.
    The row's ``verdict`` uses the unadjusted ``p``; :func:`claims_table` replaces it by the
    verdict on Holm's adjusted p-value of the claim's table.

    Returns
    -------
    dict with the keys of :data:`COLUMNS`.
    """
    a = np.asarray(a_values, dtype=float)
    b = np.asarray(b_values, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"a and b must be paired unit by unit; got shapes {a.shape} and {b.shape}")
    d = (b - a) if claim.better == "lower" else (a - b)
    scale = max(float(np.abs(a).max(initial=0.0)), float(np.abs(b).max(initial=0.0)))
    r = paired_test(_zeroed(d, scale, atol, rtol), claim.test, test_train_ratio=claim.test_train_ratio)
    if not np.isfinite(r["p"]) and not note:
        note = f"untestable: {r['n']} paired unit(s)"
    row = {"table": claim.table, "claim": claim.claim, "a": claim.a, "b": claim.b, "unit": claim.unit,
           "test": claim.test, **r, "p_adj": r["p"], "note": note}
    row["verdict"] = _verdict(row["effect"], row["p"])
    return row


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
    """A claims table from :func:`evaluate` rows: Holm-adjusted p-values within each ``table``,
    verdicts decided on the adjusted p-values, columns :data:`COLUMNS`.  Rows of
    :func:`evaluate_over_datasets` (test ``"count rule"``, no p-value) keep their verdict and do not
    count in the correction."""
    df = pd.DataFrame(list(rows))
    if df.empty:
        return pd.DataFrame(columns=COLUMNS)
    for col in COLUMNS:
        if col not in df.columns:
            df[col] = "" if col in ("note", "table") else np.nan
    for _, idx in df.groupby("table", sort=False).groups.items():
        df.loc[idx, "p_adj"] = holm(df.loc[idx, "p"].to_numpy(dtype=float))
    counted = df["test"] == "count rule"          # rows of count_rule keep their verdict
    df.loc[~counted, "verdict"] = [_verdict(e, p) for e, p in zip(df.loc[~counted, "effect"],
                                                                  df.loc[~counted, "p_adj"])]
    return df[COLUMNS + [c for c in df.columns if c not in COLUMNS]].reset_index(drop=True)


def count_rule(verdicts) -> str:
    """The book's rule for a claim made for several data sets, from its per-data-set verdicts.

    *fails* when it fails on at least one data set (a significant counterexample refutes a general
    claim); *holds* when it holds on more than half of them and fails on none; *not separable*
    otherwise.

    Examples
    --------
    >>> from fsbook.claims import count_rule
    >>> count_rule(["holds", "holds", "not separable"])
    'holds'
    >>> count_rule(["holds", "holds", "fails"])
    'fails'
    >>> count_rule(["holds", "not separable", "not separable"])
    'not separable'
    """
    verdicts = list(verdicts)
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


def evaluate_over_datasets(per_dataset: pd.DataFrame, claim: str, *, table: str = "") -> dict:
    """One row for ``claim`` over the data sets of ``per_dataset`` (a claims table whose rows for
    that claim are one per data set), decided by :func:`count_rule`; ``n`` is the number of data
    sets and ``note`` the per-verdict counts."""
    rows = per_dataset[per_dataset["claim"] == claim]
    if rows.empty:
        raise ValueError(f"no per-data-set rows for claim {claim!r}")
    counts = verdict_counts(rows["verdict"])
    nan = float("nan")
    return {"table": table, "claim": claim, "a": rows["a"].iloc[0], "b": rows["b"].iloc[0], "unit": "data sets",
            "n": len(rows), "effect": nan, "se": nan, "ci_low": nan, "ci_high": nan, "test": "count rule",
            "p": nan, "p_adj": nan, "verdict": count_rule(rows["verdict"]),
            "note": ", ".join(f"{k} on {v}" for k, v in counts.items() if v)}


def verdict_counts(verdicts) -> dict:
    """``{"holds": …, "fails": …, "not separable": …}`` for a sequence of verdicts."""
    verdicts = list(verdicts)
    return {v: verdicts.count(v) for v in VERDICTS}

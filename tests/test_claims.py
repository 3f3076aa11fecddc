"""The claims engine (fsbook.claims) against closed forms, SciPy and statsmodels."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fsbook.claims import (
    FAILS,
    HOLDS,
    NOT_SEPARABLE,
    Claim,
    claims_table,
    count_rule,
    evaluate,
    evaluate_over_datasets,
    holm,
    paired_test,
)
from fsbook.report import claims_display, describe_claim


def test_corrected_t_closed_form():
    rng = np.random.default_rng(0)
    d = rng.normal(0.3, 1.0, size=30)
    ratio = 0.5
    r = paired_test(d, "corrected_t", test_train_ratio=ratio)
    var = d.var(ddof=1)
    t = d.mean() / np.sqrt((1 / 30 + ratio) * var)
    assert r["p"] == pytest.approx(2 * stats.t.sf(abs(t), 29), rel=1e-12)
    assert r["se"] == pytest.approx(np.sqrt((1 / 30 + ratio) * var), rel=1e-12)
    half = stats.t.ppf(0.975, 29) * r["se"]
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-12)


def test_paired_t_equals_scipy():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=12), rng.normal(size=12) + 0.4
    r = paired_test(b - a, "paired_t")
    assert r["p"] == pytest.approx(stats.ttest_rel(b, a).pvalue, rel=1e-10)


def test_wilcoxon_equals_scipy_and_drops_zeros():
    d = np.array([0.5, 1.2, -0.3, 2.0, 0.0, 0.8, 1.1])
    r = paired_test(d, "wilcoxon")
    assert r["p"] == pytest.approx(stats.wilcoxon(d[d != 0]).pvalue, rel=1e-12)
    assert r["n"] == 7


def test_5x2cv_f_closed_form():
    rng = np.random.default_rng(2)
    d = rng.normal(0.5, 1.0, size=(5, 2))
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    f = (d ** 2).sum() / (2 * s2.sum())
    r = paired_test(d, "5x2cv_f")
    assert r["p"] == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-12)
    assert r["effect"] == pytest.approx(d.mean())
    with pytest.raises(ValueError, match="shape"):
        paired_test(d.ravel(), "5x2cv_f")


def test_holm_equals_statsmodels():
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    p = np.array([0.001, 0.04, 0.03, 0.2, 0.012, np.nan])
    ours = holm(p)
    ref = multipletests(p[:5], method="holm")[1]
    np.testing.assert_allclose(ours[:5], ref, rtol=1e-12)
    assert np.isnan(ours[5])


def test_verdicts_follow_direction_and_significance():
    base = np.linspace(10, 12, 20)
    noise = np.random.default_rng(3).normal(0, 0.05, size=20)
    lower = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="paired_t")
    assert evaluate(lower, base, base + 1 + noise)["verdict"] == HOLDS
    assert evaluate(lower, base + 1 + noise, base)["verdict"] == FAILS
    higher = Claim("A above B", a="A", b="B", better="higher", unit="runs", test="paired_t")
    assert evaluate(higher, base + 1 + noise, base)["verdict"] == HOLDS
    # a difference far inside the noise is not separable, whatever its sign
    assert evaluate(lower, base, base + noise)["verdict"] == NOT_SEPARABLE


def test_last_bit_differences_are_zero():
    claim = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="paired_t")
    a = np.full(50, 6.1845)
    row = evaluate(claim, a, a * (1 + 1e-15))
    assert row["effect"] == 0 and row["p"] == 1.0 and row["verdict"] == NOT_SEPARABLE


def test_untestable_is_not_separable_not_zero():
    claim = Claim("A below B", a="A", b="B", better="lower", unit="data sets", test="wilcoxon")
    row = evaluate(claim, [1.0], [2.0])
    assert np.isnan(row["p"]) and row["verdict"] == NOT_SEPARABLE and "untestable" in row["note"]


def test_claims_table_adjusts_within_each_table():
    rng = np.random.default_rng(4)
    rows = []
    for table in ("T1", "T2"):
        for i in range(3):
            c = Claim(f"c{i}", a="A", b="B", better="lower", unit="runs", test="paired_t", table=table)
            a = rng.normal(size=15)
            rows.append(evaluate(c, a, a + 0.45 + rng.normal(0, 1, 15)))
    t = claims_table(rows)
    for _table, g in t.groupby("table"):
        np.testing.assert_allclose(g["p_adj"], holm(g["p"].to_numpy()))
    assert (t["p_adj"] >= t["p"]).all()
    assert set(t["verdict"]) <= {HOLDS, FAILS, NOT_SEPARABLE}
    assert "Claims" in claims_display(t, "Claims").to_html()


def test_count_rule_and_over_datasets():
    assert count_rule([HOLDS, HOLDS, NOT_SEPARABLE]) == HOLDS
    assert count_rule([HOLDS, NOT_SEPARABLE]) == NOT_SEPARABLE      # not more than half
    assert count_rule([HOLDS] * 5 + [FAILS]) == FAILS
    assert count_rule([]) == NOT_SEPARABLE
    with pytest.raises(ValueError, match="unknown verdicts"):
        count_rule(["tie"])
    per = pd.DataFrame({"claim": ["x"] * 3, "a": "A", "b": "B", "verdict": [HOLDS, HOLDS, NOT_SEPARABLE]})
    row = evaluate_over_datasets(per, "x", table="T")
    assert row["verdict"] == HOLDS and row["n"] == 3 and row["note"] == "holds on 2, not separable on 1"


def test_bad_claims_are_refused():
    with pytest.raises(ValueError, match="better"):
        Claim("x", a="A", b="B", better="smaller", unit="runs", test="paired_t")
    with pytest.raises(ValueError, match="unit"):
        Claim("x", a="A", b="B", better="lower", unit="seeds", test="paired_t")
    with pytest.raises(ValueError, match="test_train_ratio"):
        Claim("x", a="A", b="B", better="lower", unit="runs", test="corrected_t")
    claim = Claim("x", a="A", b="B", better="lower", unit="runs", test="paired_t")
    with pytest.raises(ValueError, match="paired"):
        evaluate(claim, [1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="NaN"):
        evaluate(claim, [1.0, np.nan], [1.0, 2.0])


def test_describe_claim_prose():
    row = {"verdict": HOLDS, "effect": 0.676, "se": 0.074, "test": "corrected_t", "p_adj": 2e-4, "n": 500,
           "unit": "runs"}
    assert describe_claim(row, units="points") == (
        "holds (+0.68 ± 0.07 points, corrected resampled t over 500 runs, p < 0.001)")


def test_claims_display_prints_small_p_values_with_their_sign():
    rows = [{"table": "T", "claim": "c", "a": "A", "b": "B", "unit": "runs", "n": 5, "effect": 1.0, "se": 0.1,
             "ci_low": 0.8, "ci_high": 1.2, "test": "paired_t", "p": p, "p_adj": p, "verdict": HOLDS, "note": ""}
            for p in (0.0002, 0.0123)]
    html = claims_display(pd.DataFrame(rows), "Claims").to_html()
    assert ("&lt; 0.001" in html or "< 0.001" in html) and "0.012" in html


def test_count_rule_rows_keep_their_verdict_in_a_claims_table():
    per = pd.DataFrame({"claim": ["x"] * 3, "a": "A", "b": "B", "verdict": [HOLDS, HOLDS, NOT_SEPARABLE]})
    row = evaluate_over_datasets(per, "x", table="T")
    c = Claim("y", a="A", b="B", better="lower", unit="runs", test="paired_t", table="T")
    other = evaluate(c, [1.0, 2.0, 3.0], [1.5, 2.4, 3.6])
    t = claims_table([row, other])
    assert t.loc[0, "verdict"] == HOLDS and np.isnan(t.loc[0, "p_adj"])
    assert t.loc[1, "p_adj"] == pytest.approx(other["p"])        # a family of one testable claim

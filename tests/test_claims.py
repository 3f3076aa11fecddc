"""The claims engine (fsbook.claims) against closed forms, SciPy and statsmodels."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fsbook.claims import (
    AGREES,
    DIFFERS,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NO_GAIN,
    NOT_SEPARABLE,
    Claim,
    agreement,
    claims_table,
    count_rule,
    evaluate,
    evaluate_over_datasets,
    family_check,
    hodges_lehmann,
    holm,
    min_achievable_p,
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


def test_count_rule_ignores_untestable_data_sets():
    assert count_rule([HOLDS, HOLDS, NOT_SEPARABLE]) == HOLDS
    assert count_rule([HOLDS, NOT_SEPARABLE]) == NOT_SEPARABLE      # not more than half
    assert count_rule([HOLDS] * 5 + [FAILS]) == FAILS
    assert count_rule([]) == NOT_SEPARABLE
    # untestable data sets (None) do not count in "more than half"
    assert count_rule([HOLDS, None, None]) == HOLDS
    with pytest.raises(ValueError, match="unknown verdicts"):
        count_rule(["tie"])


def test_over_datasets_is_a_wilcoxon_test_of_the_effects():
    effects = np.array([1.0, 2.0, 0.5, 1.5, 3.0, 0.8, 1.2])
    per = pd.DataFrame({"table": "T", "claim": "x", "a": "A", "b": "B", "effect": effects,
                        "verdict": [HOLDS] * 3 + [NOT_SEPARABLE] * 4})
    row = evaluate_over_datasets(per, "x")
    assert row["test"] == "wilcoxon" and row["n"] == 7 and row["table"] == "T (over data sets)"
    assert row["p"] == pytest.approx(stats.wilcoxon(effects).pvalue)
    assert row["verdict"] == HOLDS and row["n_direction"] == 7
    # five data sets cannot reach p < 0.05 (2 / 2**5 > 0.05): untestable, not "no effect"
    few = evaluate_over_datasets(per.iloc[:5], "x")
    assert np.isnan(few["p"]) and few["verdict"] == NOT_SEPARABLE and "cannot reach" in few["note"]


def test_bad_claims_are_refused():
    with pytest.raises(ValueError, match="better"):
        Claim("x", a="A", b="B", better="smaller", unit="runs", test="paired_t")
    with pytest.raises(ValueError, match="unit"):
        Claim("x", a="A", b="B", better="lower", unit="seeds", test="paired_t")
    with pytest.raises(ValueError, match="test_train_ratio"):
        Claim("x", a="A", b="B", better="lower", unit="runs", test="corrected_t")
    with pytest.raises(ValueError, match="no direction"):
        Claim("x", a="A", b="B", better="lower", unit="folds", test="5x2cv_f")
    with pytest.raises(ValueError, match="margin"):
        Claim("x", a="A", b="B", better="lower", unit="runs", test="paired_t", margin=0.0)
    claim = Claim("x", a="A", b="B", better="lower", unit="runs", test="paired_t")
    with pytest.raises(ValueError, match="paired"):
        evaluate(claim, [1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="NaN"):
        evaluate(claim, [1.0, np.nan], [1.0, 2.0])


def test_describe_claim_prose():
    row = {"verdict": HOLDS, "effect": 0.676, "ci_low": 0.53, "ci_high": 0.82, "test": "paired_t", "p_adj": 2e-4,
           "n": 500, "n_direction": 400, "unit": "runs", "size": "below margin"}
    assert describe_claim(row, units="points") == (
        "holds, below margin (+0.68 points, 95 % CI [+0.53, +0.82], paired t, 400 of 500 runs in the paper's "
        "direction, p < 0.001)")


def test_claims_display_prints_small_p_values_with_their_sign():
    rows = [{"table": "T", "claim": "c", "a": "A", "b": "B", "unit": "runs", "n": 5, "effect": 1.0, "se": 0.1,
             "ci_low": 0.8, "ci_high": 1.2, "test": "paired_t", "p": p, "p_adj": p, "verdict": HOLDS, "note": ""}
            for p in (0.0002, 0.0123)]
    html = claims_display(pd.DataFrame(rows), "Claims").to_html()
    assert ("&lt; 0.001" in html or "< 0.001" in html) and "0.012" in html


def test_count_rule_rows_keep_their_verdict_in_a_claims_table():
    row = {"table": "T", "claim": "x", "a": "A", "b": "B", "unit": "data sets", "n": 3, "effect": np.nan,
           "test": "count rule", "p": np.nan, "verdict": HOLDS, "note": "holds on 2"}
    c = Claim("y", a="A", b="B", better="lower", unit="runs", test="paired_t", table="T")
    other = evaluate(c, [1.0, 2.0, 3.0], [1.5, 2.4, 3.6])
    t = claims_table([row, other])
    assert t.loc[0, "verdict"] == HOLDS and np.isnan(t.loc[0, "p_adj"])
    assert t.loc[1, "p_adj"] == pytest.approx(other["p"])        # a family of one testable claim


# The defects of the first engine, each with a case that it decided wrongly.

def test_wilcoxon_takes_its_direction_from_the_ranks_not_the_mean():
    d = np.array([-1.0, -1.2, -0.8, -1.1, -0.9, -1.3, -0.7, -1.0, -1.05, -0.95, -1.15, -0.85, -1.25, 30.0])
    assert d.mean() > 0                                              # one outlier drags the mean up
    c = Claim("A above B", a="A", b="B", better="higher", unit="data sets", test="wilcoxon")
    row = evaluate(c, d, np.zeros_like(d))
    assert row["effect"] < 0 and row["ci_high"] < 0                  # Hodges-Lehmann: the ranks' direction
    assert row["verdict"] == FAILS and row["n_direction"] == 1       # the first engine said "holds"


def test_hodges_lehmann_interval_inverts_the_signed_rank_test():
    rng = np.random.default_rng(7)
    for n in (6, 8, 11, 15):
        d = rng.normal(0.4, 1.0, size=n)
        _, lo, hi = hodges_lehmann(d)
        for shift in np.linspace(lo - 1, hi + 1, 41):
            x = d - shift
            if np.any(np.isclose(x, 0)) or len(set(np.round(np.abs(x), 12))) < n:
                continue
            p = stats.wilcoxon(x, method="exact").pvalue
            inside = lo < shift < hi
            outside = shift < lo or shift > hi
            assert not (inside and p < 0.05) and not (outside and p > 0.05 + 1e-12)


def test_repeated_cv_has_a_direction_and_5x2_f_is_refused():
    d = np.array([[3.0, -3.0], [-3.0, 3.1], [3.0, -2.9], [-3.0, 3.0], [3.05, -3.0]])
    assert 0 < d.mean() < 0.1
    c = Claim("A above B", a="A", b="B", better="higher", unit="repetitions", test="repeated_cv_t")
    row = evaluate(c, d, np.zeros_like(d))
    assert row["n"] == 5 and row["verdict"] == NOT_SEPARABLE      # the first engine's F test said "holds"
    assert paired_test(d, "repeated_cv_t")["p"] == pytest.approx(stats.ttest_1samp(d.mean(axis=1), 0).pvalue)


def test_zero_variance_is_decided_by_the_sign_test_not_p_zero():
    for n in (2, 3, 5, 8):
        r = paired_test(np.full(n, 0.7), "paired_t")
        assert r["p"] == pytest.approx(2.0 / 2 ** n)                  # the first engine gave p = 0
    c = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="paired_t")
    assert evaluate(c, [1.0, 1.0], [2.0, 2.0])["verdict"] == NOT_SEPARABLE


def test_tie_tolerance_is_per_unit_so_one_large_unit_zeroes_nothing():
    a = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 1e9])
    b = a + np.array([1e-6, 2e-6, 1e-6, 3e-6, 2e-6, 0.0])
    c = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="paired_t")
    row = evaluate(c, a, b)
    assert row["n_direction"] == 5 and row["effect"] > 0               # the first engine zeroed them all


def test_margin_gives_no_gain_and_below_margin():
    rng = np.random.default_rng(9)
    a = rng.normal(50, 1, size=200)
    c = Claim("A above B", a="A", b="B", better="higher", unit="runs", test="paired_t", margin=1.0)
    same = evaluate(c, a, a - rng.normal(0, 0.3, size=200))
    assert same["verdict"] == NO_GAIN
    small = evaluate(c, a, a - 0.3 - rng.normal(0, 0.3, size=200))
    assert small["verdict"] == HOLDS and small["size"] == "below margin"
    big = evaluate(c, a, a - 3 - rng.normal(0, 0.3, size=200))
    assert big["verdict"] == HOLDS and big["size"] == ""
    t = claims_table([same, small, big])
    assert t["verdict"].tolist() == [NO_GAIN, HOLDS, HOLDS] and t["size"].tolist() == ["", "below margin", ""]


def test_family_check_finds_families_that_can_never_pass():
    rows = [{"table": "T2", "test": "wilcoxon", "n": 10, "p": 0.01}] * 46
    rows += [{"table": "T1", "test": "paired_t", "n": 4, "p": 0.2}] * 30
    rows += [{"table": "T3", "test": "wilcoxon", "n": 10, "p": 0.2}] * 20
    check = family_check(pd.DataFrame(rows)).set_index("table")
    assert not check.loc["T2", "can pass"] and check.loc["T2", "cannot pass"] == 46
    assert check.loc["T1", "can pass"] and check.loc["T3", "can pass"]    # 2/1024 < 0.05/20
    assert min_achievable_p("sign", 5) == pytest.approx(1 / 16)


def test_family_check_sees_the_zero_differences_a_rank_test_drops():
    """Ten data sets of which four tie: the signed-rank test keeps six, 1/64 > 0.05/46; a t row
    whose differences all vanish cannot pass either.  The design check alone sees neither."""
    w = np.array([1.0, 2.0, 0.5, 1.5, 3.0, 0.8, 0.0, 0.0, 0.0, 0.0])
    rows = [evaluate(Claim(f"c{i}", a="A", b="B", better="higher", unit="data sets", test="wilcoxon",
                           table="T2", one_sided=True), w, np.zeros_like(w)) for i in range(46)]
    assert rows[0]["n"] == 10 and rows[0]["n_nonzero"] == 6
    flat = evaluate(Claim("flat", a="A", b="B", better="higher", unit="runs", test="paired_t", table="T1"),
                    np.ones(8), np.ones(8))
    check = family_check(claims_table(rows + [flat])).set_index("table")
    assert check.loc["T2", "cannot pass"] == 0 and check.loc["T2", "cannot pass with ties"] == 46
    assert check.loc["T1", "cannot pass"] == 0 and check.loc["T1", "cannot pass with ties"] == 1


def test_agreement_decides_equivalence_difference_and_inconclusive():
    rng = np.random.default_rng(11)
    runs = rng.normal(20.0, 2.0, size=500)
    assert agreement(runs, runs.mean() + 0.1, margin=0.5)["agreement"] == AGREES
    assert agreement(runs, runs.mean() + 2.0, margin=0.5)["agreement"] == DIFFERS
    few = rng.normal(20.0, 2.0, size=5)
    assert agreement(few, few.mean() + 0.3, margin=0.5)["agreement"] == INCONCLUSIVE
    # the paper's own uncertainty widens the interval: scaled to its 50 runs
    r = agreement(runs, runs.mean() + 0.45, margin=0.5, paper_n=50)
    assert r["se"] == pytest.approx(np.hypot(runs.std(ddof=1) / np.sqrt(500), runs.std(ddof=1) / np.sqrt(50)))
    assert r["agreement"] == INCONCLUSIVE
    assert agreement([], 3.0, margin=1.0)["agreement"] == INCONCLUSIVE


def test_one_sided_claims_halve_p_toward_the_paper_and_never_fail():
    rng = np.random.default_rng(12)
    d = rng.normal(0.5, 1.0, size=12)
    two = paired_test(d, "paired_t")["p"]
    assert paired_test(d, "paired_t", one_sided=True)["p"] == pytest.approx(stats.ttest_1samp(d, 0, alternative="greater").pvalue)
    assert paired_test(d, "paired_t", one_sided=True)["p"] == pytest.approx(two / 2)
    w = np.array([1.0, 2.0, 0.5, 1.5, 3.0, 0.8, 1.2, 0.3, 2.2, 1.7])
    assert paired_test(w, "wilcoxon", one_sided=True)["p"] == pytest.approx(stats.wilcoxon(w, alternative="greater").pvalue)
    c = Claim("A above B", a="A", b="B", better="higher", unit="data sets", test="wilcoxon", one_sided=True)
    assert evaluate(c, -w, np.zeros_like(w))["verdict"] == NOT_SEPARABLE      # the other direction: not "fails"
    rows = [evaluate(Claim(f"c{i}", a="A", b="B", better="higher", unit="data sets", test="wilcoxon",
                           table="T2", one_sided=True), w, np.zeros_like(w)) for i in range(46)]
    assert family_check(claims_table(rows))["can pass"].all()            # 1/1024 < 0.05/46
    assert (claims_table(rows)["verdict"] == HOLDS).all()


def test_a_rounding_residue_of_cancelling_differences_is_no_effect():
    d = np.array([0.1, 0.2, -0.3, 0.7, -0.7])               # sums to a residue of about 1e-17
    r = paired_test(d, "paired_t")
    assert r["effect"] == 0.0 and r["p"] == 1.0


def test_family_check_knows_the_exact_binomial_floor():
    assert min_achievable_p("exact binomial", 3) == pytest.approx(0.25)
    rows = [{"table": "T", "test": "exact binomial", "n": 4, "p": 0.5}] * 2
    assert not family_check(pd.DataFrame(rows))["can pass"].iloc[0]        # 2/16 > 0.05/2


# ----------------------------------------------------------------------------- single-row tests
def test_binomial_test_is_scipys_with_the_clopper_pearson_interval():
    from fsbook.claims import binomial_min_p, binomial_test

    for k, n, p0, better in ((7, 20, 0.63, "higher"), (3, 12, 0.5, "lower"), (18, 20, 0.4, "higher")):
        r = binomial_test(k, n, p0, better)
        ref = stats.binomtest(k, n, p0)
        ci = ref.proportion_ci(0.95, method="exact")
        sign = 1 if better == "higher" else -1
        assert r["p"] == ref.pvalue and r["effect"] == pytest.approx(sign * (k / n - p0))
        assert sorted((r["ci_low"], r["ci_high"])) == pytest.approx(sorted((sign * (ci.low - p0), sign * (ci.high - p0))))
        assert r["se"] == pytest.approx((ci.high - ci.low) / (2 * stats.norm.ppf(0.975)))
    assert binomial_min_p(4, 0.5) == 2 / 2 ** 4                  # all or none of four fair coins
    untestable = binomial_test(0, 4, 0.5, unit="sets")            # 2 / 16 > 0.05 whatever the outcome
    assert np.isnan(untestable["p"]) and untestable["note"] == "untestable: 4 sets cannot reach p < 0.05"
    assert np.isnan(binomial_test(0, 0, 0.5)["effect"]) and binomial_test(0, 0, 0.5)["note"] == "undefined: no unit"
    with pytest.raises(ValueError, match="in \\(0, 1\\)"):
        binomial_test(1, 2, 1.0)


def test_slope_t_test_is_linregress_against_any_null():
    from fsbook.claims import slope_t_test

    rng = np.random.default_rng(2)
    x = rng.normal(size=30)
    y = 0.5 * x + rng.normal(size=30)
    y[3] = np.nan                                                 # left out
    r = slope_t_test(x, y)
    ok = np.isfinite(y)
    lr = stats.linregress(x[ok], y[ok])
    assert r["n"] == 29 and r["effect"] == pytest.approx(lr.slope) and r["p"] == pytest.approx(lr.pvalue)
    low = slope_t_test(x, y, "lower", null=1.0)                   # the slope below 1
    t = (lr.slope - 1.0) / lr.stderr
    assert low["effect"] == pytest.approx(1.0 - lr.slope) and low["p"] == pytest.approx(2 * stats.t.sf(abs(t), 27))
    assert low["ci_low"] < low["effect"] < low["ci_high"]
    flat = slope_t_test([1, 2, 3, 4], [2, 2, 2, 2])
    assert (flat["effect"], flat["se"], flat["p"]) == (0.0, 0.0, 1.0)
    assert slope_t_test([1, 1, 1], [1, 2, 3])["note"] == "untestable: 3 point(s)"


def test_wins_ties_losses_count_rounded_differences_and_test_one_sided():
    from fsbook.claims import wins_ties_losses

    a = np.array([0.9, 0.8, 0.7 + 1e-13, 0.95, 0.85, 0.9, 0.75])
    b = np.array([0.8, 0.7, 0.7, 0.9, 0.9, 0.8, 0.7])
    r = wins_ties_losses(a, b)
    assert (r["wins"], r["ties"], r["losses"]) == (5, 1, 1)
    assert r["p"] == stats.wilcoxon(a, b, alternative="greater").pvalue
    assert np.isnan(wins_ties_losses(b, b)["p"])


def test_claim_family_puts_the_rows_over_data_sets_in_a_family_of_their_own():
    from fsbook.claims import ClaimFamily, fold_test

    assert fold_test(np.zeros((5, 2)))["test"] == "repeated_cv_t" and fold_test(np.zeros(3))["unit"] == "folds"
    rng = np.random.default_rng(1)
    fam = ClaimFamily("t")
    for i in range(6):
        b = rng.normal(70, 3, size=(5, 2))
        fam.per_dataset("A above B", f"d{i}", "A", "B", b + 2 + rng.normal(0, 0.1, (5, 2)), b, clf="x")
    cancel = np.array([[70.1, 70.2], [70.3, 70.1], [70.2, 70.2], [70.0, 70.3], [70.2, 70.1]])
    fam.per_dataset("A above B", "d6", "A", "B", cancel[::-1], cancel, clf="x")    # same means: effect 0
    fam.over_datasets("A above B", "A", "B", clf="x")
    t = fam.table_rows()
    assert t["table"].tolist() == ["t"] * 7 + ["t (over data sets)"] and set(t["clf"]) == {"x"}
    assert t.loc[6, "effect"] == 0.0 and t.loc[0, "test"] == "repeated_cv_t" and t.loc[0, "unit"] == "repetitions"
    over = t.iloc[-1]
    assert over["test"] == "wilcoxon" and over["n"] == 7 and over["verdict"] == HOLDS and over["dataset"] == ""
    alone = fam.table_rows().iloc[:7]
    assert (alone["p_adj"] >= alone["p"]).all()                  # Holm within the per-data-set family


def test_equivalence_verdicts_restate_only_the_named_claims():
    from fsbook.claims import equivalence_verdicts

    t = pd.DataFrame({"claim": ["x ≈ y"] * 4 + ["x > y"], "verdict": [NO_GAIN, HOLDS, FAILS, NOT_SEPARABLE, NO_GAIN],
                      "size": ["", "below margin", "", "", ""]})
    out = equivalence_verdicts(t, ["x ≈ y"])
    assert out["verdict"].tolist() == [HOLDS, FAILS, FAILS, NOT_SEPARABLE, NO_GAIN]
    assert out["difference"].tolist() == [NO_GAIN, HOLDS, FAILS, NOT_SEPARABLE, ""]
    assert out["size"].tolist() == [""] * 5 and t["verdict"].tolist()[0] == NO_GAIN    # a copy


def test_family_check_uses_the_binomial_tests_own_floor():
    """An exact binomial test of p0 = 0.754 over 7 sets can give p = 0.245**7 (every set below),
    far below 0.05/13; the sign test's floor 2/2**7 = 0.0156 would call the row hopeless."""
    import pandas as pd

    from fsbook.claims import binomial_min_p, family_check
    rows = pd.DataFrame({"table": "T", "test": "exact binomial", "n": [7] * 13, "p": 0.5, "p0": 0.754})
    assert binomial_min_p(7, 0.754) < 0.05 / 13 < 2 / 2 ** 7
    assert family_check(rows)["can pass"].iloc[0]
    assert not family_check(rows.drop(columns="p0"))["can pass"].iloc[0]


def test_clustered_slope_test_is_hc1_with_one_point_per_cluster_and_undefined_on_a_constant_x():
    from fsbook.claims import clustered_slope_test

    rng = np.random.default_rng(4)
    x = rng.normal(size=30)
    y = 0.5 * x + rng.standard_t(3, size=30)
    r = clustered_slope_test(x, y, np.arange(30))
    # White's HC1, written out: (X'X)^-1 X' diag(e^2) X (X'X)^-1 · n / (n - 2)
    X = np.column_stack([np.ones(30), x])
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    e = y - X @ beta
    inv = np.linalg.inv(X.T @ X)
    hc1 = inv @ (X.T * e ** 2) @ X @ inv * 30 / 28
    assert r["slope"] == pytest.approx(np.polyfit(x, y, 1)[0], rel=1e-12)
    assert r["se"] == pytest.approx(np.sqrt(hc1[1, 1]), rel=1e-12)
    assert r["clusters"] == 30
    assert r["p"] == pytest.approx(2 * stats.t.sf(abs(r["slope"] / r["se"]), 29), rel=1e-12)
    # clustering the same points in pairs changes the error, not the slope
    pairs = clustered_slope_test(x, y, np.repeat(np.arange(15), 2))
    assert pairs["slope"] == pytest.approx(r["slope"], rel=1e-12) and pairs["clusters"] == 15
    assert pairs["se"] != pytest.approx(r["se"], rel=1e-6)
    assert np.isnan(clustered_slope_test(np.ones(5), np.arange(5.0), np.arange(5))["p"])

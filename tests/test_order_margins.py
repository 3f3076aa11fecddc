"""Every order claim of chapters 4 and 7 carries the margin its design declares, and the
families of their claims tables can still pass (:func:`fsbook.claims.family_check`).

The margins are one test prediction of a paired unit
(:func:`fsbook.experiments.benchmark.paper.order_margin`,
:func:`fsbook.experiments.geometry.paper.gain_margin`): these tests check them against the folds the protocols really draw, and the verdicts against the stores.
"""
import numpy as np
import pandas as pd
import pytest

from fsbook.claims import Claim, claims_table, evaluate, family_check
from fsbook.experiments import benchmark, geometry, read_store
from fsbook.experiments import selection_suite as S

ORDER_TESTS = ("paired_t", "repeated_cv_t", "sign")


@pytest.fixture(scope="module")
def geometry_claims():
    return geometry.claims.claims(read_store(geometry.PROTOCOL))


@pytest.fixture(scope="module")
def benchmark_claims():
    res = read_store(benchmark.PROTOCOL)
    return benchmark.claims.claims(res, benchmark.tables.stored_datasets(res.params))


@pytest.fixture(scope="module")
def suite():
    res = read_store(S.PROTOCOL)
    design = S.tasks.design()
    return design, S.claims.claims(res, design)


def _has_margin(rows):
    m = pd.to_numeric(rows["margin"], errors="coerce")
    return np.isfinite(m) & (m > 0)


def test_geometry_declares_a_margin_for_every_order_claim(geometry_claims):
    c = geometry_claims
    order = c["test"].isin(ORDER_TESTS)
    assert order.sum() == 2                                       # the random columns' gain, per model
    assert _has_margin(c[order]).all()
    assert (c.loc[order, "margin"].astype(float) == 100 / 1200).all()   # one prediction of 1 200 rows
    # the rows without a margin are of the tests the package says why
    assert set(c.loc[~_has_margin(c), "test"]) <= set(geometry.paper.UNMARGINED)
    # every family can pass (the binomial rows checked against their own test's floor, not the
    # sign test's 2/2^n); in Table 6 the two rows of wine's real values (6 sets, a two-sided
    # binomial test of 1/2 whose smallest p is 1/32) cannot pass Holm's first threshold 0.05/6
    check = family_check(c).set_index("table")
    assert check["can pass"].all()
    assert check.loc["Table 6", "cannot pass"] == 2 and check.loc["Table 6", "m"] == 6


def test_benchmark_declares_a_margin_for_every_claim(benchmark_claims):
    c = benchmark_claims
    assert _has_margin(c).all()
    per = c[c["dataset"] != ""]
    samples = {d: benchmark.data.load(d)[0].shape[0] for d in set(per["dataset"])}
    expected = [100 / (2 * -(-samples[d] // 2)) for d in per["dataset"]]    # 5 x 2 CV: repetition means
    np.testing.assert_allclose(per["margin"].astype(float), expected)
    over = c[c["dataset"] == ""]
    assert (over["test"] == "wilcoxon").all() and not (over["verdict"] == "no gain").any()
    assert family_check(c)["can pass"].all()


def test_suite_declares_a_margin_for_every_claim(suite):
    design, c = suite
    assert _has_margin(c).all()
    per = c[c["scope"] == ""]
    margins = S.claims.order_margins(design)
    np.testing.assert_allclose(per["margin"].astype(float), per["dataset"].map(margins).astype(float))
    assert family_check(per)["can pass"].all()
    # over data sets, as the page checks: every scope's family has a row that can pass (a
    # selector run on too few of a scope's data sets cannot)
    check = family_check(c[c["scope"] != ""])
    assert ((check["m"] == 0) | (check["cannot pass"] < check["m"])).all()


@pytest.mark.parametrize("dataset", ["wine", "ionosphere", "wdbc", "20newsgroups"])
def test_benchmark_margin_is_the_smallest_step_of_a_repetition_mean(dataset):
    """One changed prediction of test fold j moves its repetition's mean accuracy by
    100 / (2 · |fold j|) points: least in the largest fold the protocol draws, which is what
    order_margin declares."""
    y = benchmark.data.load(dataset)[1]
    steps = [np.mean([100 / len(te) if i == j else 0.0 for i, (_, te) in enumerate(benchmark.data.folds(dataset, r, 2, y))])
             for r in range(5) for j in range(2)]
    assert benchmark.paper.order_margin(len(y)) == pytest.approx(min(steps))


def test_suite_margin_is_the_smallest_step_of_a_repetition_mean():
    for d in ("wine", "glioma", "sonar", "cnae9"):
        y = S.tasks.load(d)[1]
        steps = [100 / len(te) / S.paper.N_FOLDS for r in range(S.paper.REPEATS) for _, te in S.tasks.folds(d, r)]
        assert S.claims.order_margins(pd.DataFrame({"dataset": [d], "n": [len(y)]}))[d] == pytest.approx(min(steps))


def test_a_margin_moves_verdicts_only_as_declared():
    """Below the margin a holding claim is labelled; inside it a tight interval is no gain; a
    claim over data sets (Wilcoxon) is never no gain."""
    rng = np.random.default_rng(0)
    base = rng.normal(80, 1, size=(5, 2))
    tight = Claim("A above B", a="A", b="B", better="higher", unit="repetitions", test="repeated_cv_t",
                  margin=0.5)
    small = claims_table([evaluate(tight, base + 0.2 + rng.normal(0, 0.01, (5, 1)), base)]).iloc[0]
    assert (small["verdict"], small["size"]) == ("holds", "below margin")
    none = claims_table([evaluate(tight, base + rng.normal(0, 0.02, (5, 1)), base)]).iloc[0]
    assert none["verdict"] == "no gain"
    over = Claim("A above B", a="A", b="B", better="higher", unit="data sets", test="wilcoxon", margin=10.0)
    d = np.array([0.01, -0.01, 0.02, -0.02, 0.01, 0.0, 0.01])
    assert claims_table([evaluate(over, d, np.zeros_like(d), rtol=0.0)]).iloc[0]["verdict"] == "not separable"

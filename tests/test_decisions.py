"""Tie rules and exact grids of fsbook.decisions: each rule at work on rounding noise."""
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import LinearSVC

from fsbook.decisions import (
    SCORE_ATOL,
    argbest,
    argbest_lexicographic,
    log_grid,
    tie_refit,
    top_k,
    top_k_mask,
)


def test_log_grid_values_are_the_decimal_literals():
    assert log_grid(-5, 3).tolist() == [1e-05, 1e-04, 1e-03, 1e-02, 1e-01, 1.0, 10.0, 100.0, 1000.0]
    fine = log_grid(-8, 10, per_decade=4)
    assert len(fine) == 73 and fine[1] == 1.78e-08 and fine[-2] == 5.62e09 and fine[-1] == 1e10
    assert log_grid(0, 1, per_decade=3).tolist() == [1.0, 2.15, 4.64, 10.0]
    # every value is the double nearest to its decimal string, whatever pow the CPU runs
    assert fine.tolist() == [float(f"{m}e{e}") for e in range(-8, 10)
                             for m in ("1", "1.78", "3.16", "5.62")] + [1e10]
    assert np.all(np.isin(log_grid(-8, 10)[::2], fine))


@pytest.mark.parametrize("bad", [dict(low=0, high=1, per_decade=5), dict(low=2, high=1),
                                 dict(low=0.5, high=2)])
def test_log_grid_rejects_bad_arguments(bad):
    with pytest.raises(ValueError):
        log_grid(**bad)


def test_argbest_treats_last_bit_differences_as_ties():
    base = np.array([0.7, 0.85, 0.85, 0.8])
    for noise in (0.0, 1e-16, -1e-16):
        s = base.copy()
        s[2] += noise
        assert argbest(s, atol=SCORE_ATOL) == 1          # the first of the tied pair, either way
    assert argbest([0.7, 0.85, 0.85 + 1e-6], atol=SCORE_ATOL) == 2   # a real difference wins
    assert argbest([5.0, 2.0 + 2e-15, 2.0], maximize=False) == 1     # relative tolerance
    assert argbest([np.nan, 0.5, 0.4]) == 1
    with pytest.raises(ValueError, match="NaN"):
        argbest([np.nan, np.nan])
    with pytest.raises(ValueError, match="non-empty"):
        argbest([])


def test_argbest_lexicographic_breaks_primary_ties_on_the_secondary_score():
    acc = np.array([0.7, 0.7, 0.7, 0.6, 0.7])
    loss = np.array([0.69, 0.45, 0.30, 0.10, 0.30])
    lex = lambda a, b: argbest_lexicographic(a, b, atol=(SCORE_ATOL, 0.0))  # noqa: E731
    assert argbest(acc, atol=SCORE_ATOL) == 0             # the plain rule: the first tie
    assert lex(acc, loss) == 2                            # the best loss among the ties (0.10 is not tied)
    for noise in (1e-16, -1e-16):                         # rounding moves neither decision
        a, b = acc.copy(), loss.copy()
        a[4] += noise
        b[4] += noise
        assert lex(a, b) == 2
    assert lex(acc + np.array([0, 0, -1e-6, 0, 0]), loss) == 4   # a real accuracy difference
    assert lex([0.9, 0.8], [0.5, 0.1]) == 0              # no tie: the secondary score is not read
    assert argbest_lexicographic([1.0, 1.0], [2.0, 3.0], maximize=(True, True)) == 1
    assert argbest_lexicographic([0.5, 0.5, 0.4], [np.nan, 0.2, 0.1], atol=(SCORE_ATOL, 0.0)) == 1
    # three scores: tied accuracies, then "predicts both classes" (1) over one-class models (0),
    # then the loss: the one-class model with the smallest loss (index 0) is passed over
    both = np.array([0.0, 1.0, 1.0, 1.0, 1.0])
    loss3 = np.array([0.10, 0.45, 0.30, 0.05, 0.30])
    assert lex(acc, loss3) == 0
    assert argbest_lexicographic(acc, both, loss3, maximize=(True, True, False),
                                 atol=(SCORE_ATOL, 0.0, 0.0)) == 2
    assert argbest_lexicographic(acc, np.zeros(5), loss3, maximize=(True, True, False),
                                 atol=(SCORE_ATOL, 0.0, 0.0)) == 0    # no tied alternative: the loss decides
    assert argbest_lexicographic([0.1, 0.2]) == 1                      # one score: argbest
    with pytest.raises(ValueError, match="NaN"):
        argbest_lexicographic([0.5, 0.5], [np.nan, np.nan])
    with pytest.raises(ValueError, match="one length"):
        argbest_lexicographic([0.5, 0.5], [0.1])
    with pytest.raises(ValueError, match="one per score"):
        argbest_lexicographic([0.5], [0.1], atol=(0.0, 0.0, 0.0))


def test_top_k_breaks_near_ties_by_index():
    s = np.array([0.2, 0.5, 0.9, 0.5, 0.1])
    expected = [2, 1, 3]
    for noise in (1e-16, -1e-16, 3e-17):
        t = s.copy()
        t[3] += noise
        assert top_k(t, 3).tolist() == expected
        assert top_k(t, 2).tolist() == [2, 1]
    assert top_k_mask(s, 2).tolist() == [False, True, True, False, False]
    assert top_k([0.5, 0.5 + 1e-6], 1).tolist() == [1]               # a real difference wins
    with pytest.raises(ValueError, match="NaN"):
        top_k([0.1, np.nan], 1)
    with pytest.raises(ValueError, match="k must be"):
        top_k([0.1, 0.2], 3)


def test_tie_refit_picks_the_first_of_tied_grid_values():
    # Large C values all separate these data: equal CV accuracies; the first (smallest) C wins.
    X, y = make_classification(60, 4, n_informative=4, n_redundant=0, class_sep=3.0, random_state=0)
    grid = [1.0, 10.0, 100.0]
    gs = GridSearchCV(LinearSVC(max_iter=100_000), {"C": grid}, refit=tie_refit(),
                      cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(X, y)
    scores = gs.cv_results_["mean_test_score"]
    assert np.ptp(scores) == 0.0
    assert gs.best_index_ == 0 and gs.best_params_ == {"C": 1.0}
    # and a perturbation of the tied scores below the tolerance does not move the choice
    refit = tie_refit()
    assert refit({"mean_test_score": scores + np.array([0.0, 1e-15, 2e-15])}) == 0
    assert refit({"mean_test_score": scores + np.array([0.0, 1e-6, 0.0])}) == 1


def test_triple_respected_only_by_a_margin():
    from fsbook.experiments.kernel_design.tasks import respected
    t = np.array([[0, 1, 2]])
    sim = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.2], [0.5, 0.2, 1.0]])
    for noise in (0.0, 1e-16, -1e-16):            # K(a, b) = K(a, c): a tie, never respected
        s = sim.copy()
        s[0, 1] += noise
        assert respected(s, t) == 0.0
    s = sim.copy()
    s[0, 1] += 1e-6                               # a real difference is respected
    assert respected(s, t) == 1.0
    d = 1.0 - sim                                 # the same rule for distances
    assert respected(d, t, distance=True) == 0.0
    tiny = np.array([[1.0, 1e-20, 1e-22], [1e-20, 1.0, 1e-23], [1e-22, 1e-23, 1.0]])
    assert respected(tiny, t) == 1.0              # small but distinct similarities keep their order


def test_mmc_refuses_an_unbounded_problem():
    """Features constant within every similar pair but not across dissimilar ones: no optimum,
    so a solver's stopping point (different on every BLAS kernel) would decide the metric."""
    from fsbook.baselines import MMC, UnboundedMetricError
    rng = np.random.default_rng(0)
    a = rng.normal(size=(30, 3))
    b = a + 0.1 * rng.normal(size=(30, 3))
    b[:, 2] = a[:, 2]                                   # similar pairs never differ in feature 2
    c = rng.normal(size=(30, 3))
    pairs = np.concatenate([np.stack([a, b], 1), np.stack([a, c], 1)])
    lab = np.r_[np.ones(30), -np.ones(30)]
    with pytest.raises(UnboundedMetricError, match="unbounded"):
        MMC().fit(pairs, lab)
    b[:, 2] += 0.1 * rng.normal(size=30)                # now bounded: fits
    MMC().fit(np.concatenate([np.stack([a, b], 1), np.stack([a, c], 1)]), lab)


def test_unbounded_mmc_is_undefined_in_the_kernel_design_protocol():
    from fsbook.experiments import kernel_design as K
    out = K.tasks.run_task({"dataset": "soybean_small", "split": 0, "method": "mmc", "n_train": 300,
                      "n_test": 1000})
    assert out["score"] is None and "unbounded" in out["undefined"]
    from fsbook.experiments.kernel_design.tables import _pm
    assert _pm([0.5, np.nan]) == "undefined"


def test_dominance_violation_prints_what_the_lp_determines():
    from fsbook.experiments.kernel_design.tables import format_violation
    assert format_violation(4.32e-11) == format_violation(1.07e-10) == format_violation(0.0) == "< 1e-06"
    assert format_violation(959.838732664) == "960"

"""The verdict rule's level and power (fsbook.calibration), measured on the book's designs."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fsbook.benchmark_records import read_benchmark
from fsbook.calibration import DESIGNS, calibration_table, rejection_rates


def test_rejection_rates_of_a_normal_pool_match_the_t_test_theory():
    pool = np.random.default_rng(0).normal(size=20000)
    r = rejection_rates(pool, n_units=30, test="paired_t", deltas=[0.0, 0.6], n_rep=1500, seed=3)
    assert abs(r.loc[0.0, "type I"] - 0.05) < 0.02
    # the power of a one-sample t at effect 0.6 sd with n = 30, from the noncentral t distribution
    theory = stats.nct.sf(stats.t.ppf(0.975, 29), 29, 0.6 * np.sqrt(30))
    assert abs(r.loc[0.6, "power"] - theory) < 0.03 and r.loc[0.6, "wrong sign"] == 0


def test_a_pool_of_partitions_draws_whole_partitions():
    pool = np.arange(12.0).reshape(4, 3)            # 4 partitions of 3 folds
    r = rejection_rates(pool, n_units=99, test="paired_t", deltas=[0.0], n_rep=50, seed=0)
    assert r.shape[0] == 1
    with pytest.raises(ValueError, match="repetitions, folds"):     # repeated CV needs (partitions, 1, folds)
        rejection_rates(pool.ravel(), n_units=3, test="repeated_cv_t", n_rep=5)


def test_the_stored_record_holds_the_level_and_has_power():
    rec = pd.DataFrame(read_benchmark("claims", "calibration")["values"]["rows"])
    assert set(rec["design"]) == set(DESIGNS)
    rule = rec[rec["test"].isin(["paired_t", "repeated_cv_t"])]
    null = rule[rule["delta"] == 0]
    # the rule never exceeds the level by more than Monte Carlo error; designs with independent units hold it
    assert (null["type I"] <= 0.07).all()
    runs = null[~null["design"].str.contains("partition")]
    assert (runs["type I"] >= 0.03).all()
    # power at the chapters' effects: 1 R2 point on Boston (500 runs), 1 point on Yale, 0.25 on 20 Newsgroups
    power = rule.set_index(["design", "delta"])["power"]
    assert power[("Boston, 500 runs (ch. 1, Table 1)", 1.0)] > 0.7
    assert power[("Yale, 50 runs (ch. 1, Table 5)", 1.0)] > 0.95
    assert power[("20 Newsgroups 2 %, 20 runs (ch. 1, Table 2)", 0.25)] > 0.95
    # the corrected t the book replaced could see none of them
    corrected = rec[(rec["test"] == "corrected_t") & ~rec["design"].str.contains("partition")]
    assert (corrected["power"] < 0.01).all()


def test_every_design_a_verdict_uses_holds_its_level_inside_the_window():
    """On the stored record: the type-I error of every test on every design
    that a verdict of the book uses is inside 0.03-0.07 at α = 0.05; the one-partition designs
    (conservative, down to 0) are in the record for comparison only, and every tested claim of the
    scoreboard is decided by a test whose design is calibrated (or by a test over data sets, or on
    MONK's one train/test split, the paper's own)."""
    from fsbook.calibration import ONE_PARTITION_DESIGNS, used_by_verdicts
    from fsbook.scoreboard import scoreboard

    rec = pd.DataFrame(read_benchmark("claims", "calibration")["values"]["rows"])
    null = rec[rec["delta"] == 0]
    used = null[[used_by_verdicts(d, t) for d, t in zip(null["design"], null["test"])]]
    assert len(used) >= 9 and used["type I"].between(0.03, 0.07).all()
    assert set(ONE_PARTITION_DESIGNS) <= set(rec["design"])
    board = scoreboard()
    tested = board[board["n"].fillna(0) > 0]
    folds = tested[(tested["unit"] == "folds") | ((tested["test"] == "sign") & ~tested["dataset"].str.startswith("monks"))]
    assert folds.empty, folds[["chapter", "claim", "dataset", "test", "unit"]]


def test_the_record_recomputes_on_boston():
    """CI's spot check: Boston's row recomputed from the store with fewer replicates."""
    fresh = calibration_table(["Boston, 500 runs (ch. 1, Table 1)"], n_rep=400, seed=1)
    rec = pd.DataFrame(read_benchmark("claims", "calibration")["values"]["rows"])
    rec = rec[rec["design"] == "Boston, 500 runs (ch. 1, Table 1)"].set_index(["test", "delta"])
    for _, row in fresh.iterrows():
        stored = rec.loc[(row["test"], row["delta"]), "power"]
        assert abs(row["power"] - stored) < 0.08                      # 400 against 2 000 replicates


@pytest.mark.parametrize("design", ["5-fold CV, pooled samples", "4-fold CV, pooled samples (ch. 6)"])
def test_the_pooled_sample_design_holds_its_level_and_sees_five_points(design):
    """The sign test on the pooled test samples of one k-fold partition (chapters 2 and 6): the
    samples that share a fold's model are not independent, so the level is measured, not assumed."""
    rec = pd.DataFrame(read_benchmark("claims", "calibration")["values"]["rows"])
    rows = rec[rec["design"] == design].set_index("delta")
    assert rows.loc[0.0, "type I"] <= 0.07
    assert rows.loc[5.0, "power"] > 0.9 and rows.loc[5.0, "wrong sign"] == 0


def test_thinning_plants_the_effect_without_a_shift():
    rng = np.random.default_rng(0)
    pool = rng.choice([-100.0, 0.0, 100.0], size=(300, 400), p=[0.03, 0.9, 0.07])
    r = rejection_rates(pool, n_units=0, test="sign", deltas=[0.0, 6.0], n_rep=300, seed=1, plant="thin")
    assert r.loc[0.0, "type I"] <= 0.07 and r.loc[6.0, "power"] > 0.8
    with pytest.raises(ValueError, match="plant"):
        rejection_rates(pool, n_units=0, test="sign", plant="add")


def test_the_pooled_sample_designs_are_conservative_for_a_measured_reason():
    """McNemar's test takes the pooled difference to vary like as many coin tosses as there are
    disagreements; across WDBC's partitions it varies less (the same few samples disagree), which
    is why the level is below alpha."""
    disp = pd.DataFrame(read_benchmark("claims", "calibration")["values"]["dispersion"]).set_index("design")
    assert set(disp.index) == {d for d in DESIGNS if "pooled samples" in d}
    assert (disp["ratio"] < 1).all() and (disp["samples_disagreeing"] > 0).all()


def test_dispersion_of_independent_coin_tosses_is_one():
    rng = np.random.default_rng(0)
    pool = rng.choice([-100.0, 0.0, 100.0], size=(4000, 300), p=[0.05, 0.9, 0.05])
    from fsbook.calibration import disagreement_dispersion
    assert abs(disagreement_dispersion(pool)["ratio"] - 1) < 0.06


def test_the_repeated_five_fold_pool_holds_whole_partitions_of_wdbc():
    """Chapter 3's design: each unit is the mean over one partition's 5 folds, so the pool keeps
    whole partitions (partitions × 1 × 5) of the one-partition design's population, and the rule
    draws 10 of them per experiment."""
    from fsbook import calibration

    source, pair, n_units, tests, deltas = DESIGNS["10 × 5-fold CV (ch. 3)"]
    assert (pair, n_units, tests, deltas) == (None, 10, ("repeated_cv_t",), (0.0, 1.0, 2.0, 5.0))
    pool = calibration._cv_pool(source, 3, 0)
    assert pool.shape == (3, 1, 5)
    np.testing.assert_array_equal(pool[:, 0, :], calibration._cv_pool("cv5", 3, 0))
    assert calibration._draw(pool, 10, np.random.default_rng(0)).shape == (10, 5)


def test_the_repeated_five_fold_design_holds_its_level():
    """Chapter 3's selection check (the paired t over 10 repetition means of 5-fold CV), in the
    stored record: inside 0.03-0.07 at α = 0.05, and power at 5 points."""
    rec = pd.DataFrame(read_benchmark("claims", "calibration")["values"]["rows"])
    rows = rec[rec["design"] == "10 × 5-fold CV (ch. 3)"].set_index("delta")
    assert list(rows["test"].unique()) == ["repeated_cv_t"] and (rows["units"] == 10).all()
    assert 0.03 <= rows.loc[0.0, "type I"] <= 0.07
    assert rows.loc[5.0, "power"] > 0.9 and rows.loc[5.0, "wrong sign"] == 0

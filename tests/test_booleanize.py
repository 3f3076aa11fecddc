"""Tests of fsbook.booleanize on hand-built inputs."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils import Bunch

from fsbook.booleanize import booleanize, one_hot, quantile_thresholds, threshold

nan = np.nan


def test_one_hot_codes_and_missing():
    X = np.array([[0, 1], [2, nan], [1, 0]])
    cats = [["a", "b", "c"], ["n", "y"]]
    Xb, names = one_hot(X, cats, feature_names=["f", "g"])
    assert names == ["f=a", "f=b", "f=c", "g=n", "g=y"]
    expected = np.array([[1, 0, 0, 0, 1],
                         [0, 0, 1, 0, 0],   # missing g -> all-zero block
                         [0, 1, 0, 1, 0]], dtype=bool)
    assert Xb.dtype == bool
    np.testing.assert_array_equal(Xb, expected)
    Xb2, names2 = one_hot(X, cats, drop_missing=False, feature_names=["f", "g"])
    assert names2 == names + ["g=?"]
    np.testing.assert_array_equal(Xb2[:, -1], [False, True, False])


@pytest.mark.parametrize("X, cats, msg", [
    (np.array([[0.5]]), [["a", "b"]], "integer codes"),
    (np.array([[2.0]]), [["a", "b"]], "integer codes"),
    (np.array([[-1.0]]), [["a", "b"]], "integer codes"),
    (np.array([[0.0]]), [None], "not nominal"),
    (np.array([[0.0, 1.0]]), [["a", "b"]], "levels of each"),
    (np.array([0.0, 1.0]), [["a", "b"]], "2-d"),
    (np.array([["a"]]), [["a"]], "numeric"),
])
def test_one_hot_bad_input(X, cats, msg):
    with pytest.raises(ValueError, match=msg):
        one_hot(X, cats)


def test_quantile_thresholds_hand_computed():
    # "lower" quantiles: sorted value at index floor(q * (m - 1)), here m = 8
    X = np.column_stack([np.arange(1.0, 9.0),                  # indices 1, 3, 5 -> 2, 4, 6
                         [0, 0, 0, 0, 0, 0, 0, 1.0],           # quantiles all 0 -> x > 0
                         [0, 0, 0, 0, 5, 5, 5, 5.0],           # 0, 0, 5 -> {0} (5 = max dropped)
                         np.full(8, 3.0),                      # constant -> no threshold
                         [1, 1, 1, 1, 1, 1, 1, 9.0]])
    ts = quantile_thresholds(X, n_bins=4)
    np.testing.assert_allclose(ts[0], [2.0, 4.0, 6.0])
    np.testing.assert_allclose(ts[1], [0.0])
    np.testing.assert_allclose(ts[2], [0.0])
    assert ts[3].size == 0
    np.testing.assert_allclose(ts[4], [1.0])


def test_quantile_thresholds_all_equal_to_max_fall_back_to_min():
    X = np.array([[0.0], [1.0], [1.0], [1.0], [1.0], [1.0]])  # every quartile = max = 1
    np.testing.assert_allclose(quantile_thresholds(X, 4)[0], [0.0])


def test_threshold_indicators_and_missing():
    X = np.array([[1.0, 10.0], [2.0, nan], [3.0, 30.0], [4.0, 20.0]])
    Xb, names = threshold(X, thresholds=[[1.5, 3.0], [15.0]], feature_names=["u", "v"])
    assert names == ["u>1.5", "u>3", "v>15"]
    np.testing.assert_array_equal(Xb, np.array([[0, 0, 0],
                                                [1, 0, 0],   # missing v -> False
                                                [1, 0, 1],
                                                [1, 1, 1]], dtype=bool))


def test_threshold_train_thresholds_applied_to_test():
    rng = np.random.default_rng(0)
    Xtr, Xte = rng.normal(size=(40, 3)), rng.normal(size=(10, 3))
    ts = quantile_thresholds(Xtr, n_bins=3)
    Xb, names = threshold(Xte, ts)
    assert Xb.shape == (10, sum(t.size for t in ts)) and len(names) == Xb.shape[1]
    np.testing.assert_array_equal(Xb[:, 0], Xte[:, 0] > ts[0][0])
    # default thresholds = quantiles of X itself: the median split is balanced
    Xb2, _ = threshold(Xtr, n_bins=2)
    np.testing.assert_array_equal(Xb2.sum(axis=0), [20, 20, 20])


@pytest.mark.parametrize("kwargs", [{"n_bins": 1}, {"n_bins": 2.5}, {"n_bins": True}])
def test_threshold_bad_n_bins(kwargs):
    with pytest.raises(ValueError, match="n_bins"):
        threshold(np.ones((3, 1)), **kwargs)


def test_threshold_bad_input():
    with pytest.raises(ValueError, match="one entry per column"):
        threshold(np.ones((3, 2)), thresholds=[[0.5]])
    with pytest.raises(ValueError, match="infinite"):
        threshold(np.array([[np.inf]]))
    with pytest.raises(ValueError, match="sparse"):
        threshold(sp.csr_matrix(np.ones((2, 2))))
    with pytest.raises(ValueError, match="feature_names"):
        threshold(np.ones((3, 2)), feature_names=["a"])


def test_booleanize_mixed_bunch():
    bunch = Bunch(data=np.array([[0, 1.0], [1, 2.0], [nan, 3.0], [0, 4.0]]),
                  categories=[["no", "yes"], None], feature_names=["smoker", "age"])
    Xb, names = booleanize(bunch, n_bins=2)
    assert names == ["smoker=no", "smoker=yes", "age>2"]
    np.testing.assert_array_equal(Xb, np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool))
    # thresholds from a training set; None entries for nominal columns
    Xb2, names2 = booleanize(bunch, thresholds=[None, np.array([1.5, 3.5])])
    assert names2 == ["smoker=no", "smoker=yes", "age>1.5", "age>3.5"]
    np.testing.assert_array_equal(Xb2[:, 2:], [[0, 0], [1, 0], [1, 0], [1, 1]])


def test_threshold_indicators_are_distinct_columns():
    rng = np.random.default_rng(1)
    X = np.column_stack([rng.integers(0, 3, 50), rng.normal(size=50), np.r_[np.zeros(45), np.ones(5)]])
    Xb, _ = threshold(X, n_bins=8)
    assert len({c.tobytes() for c in Xb.T}) == Xb.shape[1]
    assert not np.any(Xb.all(axis=0)) and not np.any((~Xb).all(axis=0))


def test_booleanize_without_categories_is_all_numeric():
    Xb, names = booleanize({"data": np.array([[0.0], [1.0]])})
    assert names == ["x0>0"] and Xb[:, 0].tolist() == [False, True]


def test_booleanize_bad_input():
    with pytest.raises(ValueError, match="data"):
        booleanize({"X": np.ones((2, 2))})
    with pytest.raises(ValueError, match="categories"):
        booleanize(Bunch(data=np.ones((2, 2)), categories=[None]))


def test_booleanize_real_loader():
    from fsbook.datasets import load_vote

    b = load_vote()
    Xb, names = booleanize(b)
    assert Xb.shape == (435, 32) and names[0] == "handicapped-infants=n"
    # each vote is n, y or missing: at most one indicator per attribute, none when missing
    per_attr = Xb.reshape(435, 16, 2).sum(axis=2)
    np.testing.assert_array_equal(per_attr, (~np.isnan(b.data)).astype(int))

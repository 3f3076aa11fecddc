"""Tests of fsbook.wrapper: the all-subsets wrapper that labels feature sets."""
import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import LinearSVC

from fsbook.wrapper import all_subsets_wrapper, binary_splits


@pytest.fixture
def problem():
    rng = np.random.default_rng(0)
    m = 120
    y = rng.integers(0, 3, m)
    informative = (rng.random((m, 6)) < np.where(y[:, None] == 0, 0.8, 0.1)).astype(float)
    noise = (rng.random((m, 6)) < 0.4).astype(float)
    X = np.hstack([informative, noise])
    return X, y, [np.arange(6), np.arange(6, 12)]


def test_rows_and_one_se_rule(problem):
    X, y, groups = problem
    df = all_subsets_wrapper(X, y, groups, group_names=["inf", "noise"], cv=4)
    assert len(df) == len(binary_splits([0, 1, 2])) * 3
    for _, d in df.groupby("split"):
        best = d.loc[d["accuracy"].idxmax()]
        np.testing.assert_array_equal(d["optimal"],
                                      d["accuracy"] >= best["accuracy"] - best["accuracy_se"])
        assert d["accuracy_z"].mean() == pytest.approx(0, abs=1e-12)
    # class 0 vs rest is driven by the informative group: noise alone is not optimal
    d = df[df["split"] == "{0} vs rest"].set_index("subset")
    assert d.loc["inf", "optimal"] and not d.loc["noise", "optimal"]


def test_matches_sklearn_cross_val(problem):
    X, y, groups = problem
    df = all_subsets_wrapper(X, y, groups, splits=[(0,)], cv=4, random_state=3, n_jobs=2)
    t = (y == 0).astype(int)
    cv = StratifiedKFold(4, shuffle=True, random_state=3)
    acc = cross_val_score(LinearSVC(C=1.0, max_iter=5000), X[:, groups[0]], t, cv=cv)
    assert df.iloc[0]["accuracy"] == pytest.approx(acc.mean())
    assert df.iloc[0]["accuracy_se"] == pytest.approx(acc.std(ddof=1) / 2)


def test_one_class_error():
    with pytest.raises(ValueError, match="two classes"):
        all_subsets_wrapper(np.eye(4), np.zeros(4), [np.arange(4)])

"""Tests of fsbook.geometry.wrapper: the all-subsets wrapper that labels feature sets."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import LinearSVC
from sklearn_checks import parametrize_with_checks

from fsbook.geometry import FeatureGroupSelector, all_subsets_wrapper, binary_splits


def test_rows_and_one_se_rule(grouped_binary):
    X, y, groups = grouped_binary
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
    assert d["n_features"].tolist() == [6, 6, 12]


def test_matches_sklearn_cross_val(grouped_binary):
    X, y, groups = grouped_binary
    df = all_subsets_wrapper(X, y, groups, splits=[(0,)], cv=4, random_state=3, n_jobs=1)
    t = (y == 0).astype(int)
    cv = StratifiedKFold(4, shuffle=True, random_state=3)
    for row, cols in ((0, groups[0]), (2, np.r_[groups[0], groups[1]])):
        acc = cross_val_score(LinearSVC(C=1.0, max_iter=5000, random_state=3), X[:, cols], t,
                              cv=cv)
        assert df.iloc[row]["accuracy"] == pytest.approx(acc.mean())
        assert df.iloc[row]["accuracy_se"] == pytest.approx(acc.std(ddof=1) / 2)


def test_binarize_option(grouped_binary):
    X, y, groups = grouped_binary
    counts = X * np.arange(1, 13)          # same support, other values
    a = all_subsets_wrapper(X, y, groups, cv=3)
    b = all_subsets_wrapper(sp.csr_matrix(counts), y, groups, cv=3)           # binarised
    c = all_subsets_wrapper(counts, y, groups, cv=3, binarize=None)
    np.testing.assert_array_equal(a["accuracy"], b["accuracy"])
    assert not np.array_equal(a["accuracy"], c["accuracy"])


def test_errors():
    with pytest.raises(ValueError, match="two classes"):
        all_subsets_wrapper(np.eye(4), np.zeros(4), [np.arange(4)])
    with pytest.raises(ValueError, match="column indices"):
        all_subsets_wrapper(np.eye(4), [0, 1, 0, 1], [np.arange(5)])
    with pytest.raises(ValueError, match="cv"):
        all_subsets_wrapper(np.eye(4), [0, 1, 0, 1], [np.arange(4)], cv=1)


def test_feature_group_selector():
    X = np.arange(12.0).reshape(2, 6)
    sel = FeatureGroupSelector([[0, 1], [2, 3], [4, 5]], subset=(0, 2)).fit(X)
    np.testing.assert_array_equal(sel.transform(X), X[:, [0, 1, 4, 5]])
    assert sel.get_feature_names_out().tolist() == ["x0", "x1", "x4", "x5"]
    with pytest.raises(ValueError, match="group 3"):
        FeatureGroupSelector([[0, 1]], subset=(3,)).fit(X)


@parametrize_with_checks([FeatureGroupSelector()])
def test_sklearn_compatible(estimator, check):
    check(estimator)

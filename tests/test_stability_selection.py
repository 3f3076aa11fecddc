"""fsbook.baselines.StabilitySelection: frequencies over stratified half subsamples."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC

from fsbook.baselines import L1SVMSelector, Relief, StabilitySelection
from fsbook.baselines.stability import stratified_halves
from fsbook.stats import kuncheva_stability


def _data(seed=0, n=80, d=10, shift=2.0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, d))
    X[:, :2] += shift * y[:, None]
    return X, y


def test_frequencies_equal_a_hand_loop_over_the_same_subsamples():
    X, y = _data(shift=0.5)                     # weak signal: frequencies strictly between 0 and 1
    inner = L1SVMSelector(n_features_to_select=3)
    sel = StabilitySelection(inner, n_features_to_select=4, n_resamples=30, random_state=7).fit(X, y)
    halves = stratified_halves(y, 30, random_state=7)
    counts = np.zeros(X.shape[1])
    for idx in halves:
        counts += clone(inner).fit(X[idx], y[idx]).get_support()
    np.testing.assert_array_equal(sel.frequencies_, counts / 30)
    np.testing.assert_array_equal(sel.scores_, sel.frequencies_)
    assert all(np.array_equal(a, b) for a, b in zip(sel.subsamples_, halves))
    assert ((sel.frequencies_ > 0) & (sel.frequencies_ < 1)).any()
    assert sel.kuncheva_ == pytest.approx(kuncheva_stability(sel.selections_, X.shape[1]))


def test_subsamples_are_stratified_halves_without_replacement():
    y = np.array([0] * 10 + [1] * 6 + [2] * 4)
    halves = stratified_halves(y, 20, random_state=1)
    for h in halves:
        assert len(h) == 10 and len(np.unique(h)) == 10
        assert np.bincount(y[h]).tolist() == [5, 3, 2]
    assert len({tuple(h) for h in halves}) > 1
    assert all(np.array_equal(a, b) for a, b in zip(halves, stratified_halves(y, 20, random_state=1)))


def test_an_informative_feature_is_selected_on_every_subsample():
    X, y = _data(shift=3.0)
    sel = StabilitySelection(n_resamples=20).fit(X, y)      # default estimator: L1SVMSelector()
    assert sel.frequencies_[0] == 1.0 and sel.frequencies_[1] == 1.0
    assert set(sel.get_support(indices=True)) >= {0, 1}
    assert len(sel.get_support(indices=True)) == 5          # n_features_to_select=None keeps half


def test_threshold_versus_top_k():
    X, y = _data(shift=2.0)
    inner = L1SVMSelector(n_features_to_select=2)
    by_threshold = StabilitySelection(inner, threshold=0.9, n_resamples=20).fit(X, y)
    assert by_threshold.get_support(indices=True).tolist() == [0, 1]
    np.testing.assert_array_equal(by_threshold.support_, by_threshold.frequencies_ >= 0.9)
    by_k = StabilitySelection(inner, n_features_to_select=3, n_resamples=20).fit(X, y)
    np.testing.assert_array_equal(by_k.frequencies_, by_threshold.frequencies_)
    order = np.lexsort((np.arange(10), -by_k.frequencies_))       # decreasing, ties by index
    assert by_k.get_support(indices=True).tolist() == sorted(order[:3].tolist())
    # the threshold is inclusive: a frequency equal to it is kept
    f = sorted(set(by_k.frequencies_.tolist()))[-2]
    at = StabilitySelection(inner, threshold=f, n_resamples=20).fit(X, y)
    np.testing.assert_array_equal(at.support_, by_k.frequencies_ >= f)
    assert (at.frequencies_[at.support_] == f).any()


def test_a_threshold_no_feature_reaches_warns_and_keeps_none():
    X, y = _data(shift=0.0, seed=3)
    with pytest.warns(UserWarning, match="no feature reaches threshold"):
        sel = StabilitySelection(SelectKBest(f_classif, k=1), threshold=1.0, n_resamples=10).fit(X, y)
    assert not sel.support_.any()


def test_kuncheva_is_nan_with_a_note_for_sets_of_different_sizes():
    X, y = _data()
    sel = StabilitySelection(Relief(n_features_to_select=3), n_resamples=5).fit(X, y)
    assert np.isfinite(sel.kuncheva_) and sel.kuncheva_note_ is None

    class VarSize(SelectKBest):     # the best feature, plus feature 2 where it scores above the median
        def _get_support_mask(self):
            mask = super()._get_support_mask().copy()
            if self.n_features_in_ and self.scores_[2] > np.median(self.scores_):
                mask[2] = True
            return mask
    sel = StabilitySelection(VarSize(f_classif, k=1), n_resamples=30).fit(*_data(shift=0.3))
    sizes = {len(s) for s in sel.selections_}
    assert len(sizes) == 2
    assert np.isnan(sel.kuncheva_) and "differ in size" in sel.kuncheva_note_
    every = StabilitySelection(SelectKBest(f_classif, k="all"), n_resamples=3).fit(X, y)
    assert np.isnan(every.kuncheva_) and "0 < k < n_features" in every.kuncheva_note_


@pytest.mark.parametrize("params, match", [
    ({"threshold": 0.0}, "threshold"),
    ({"threshold": 1.5}, "threshold"),
    ({"n_resamples": 1}, "n_resamples"),
    ({"n_features_to_select": 0}, "n_features_to_select"),
    ({"estimator": LinearSVC()}, "estimator"),
    ({"threshold": 0.6, "n_features_to_select": 2}, "either threshold"),
    ({"n_features_to_select": 11}, "exceeds the number of features"),
])
def test_bad_parameters_are_refused(params, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        StabilitySelection(n_resamples=params.pop("n_resamples", 3), **params).fit(X, y)


def test_a_class_of_one_sample_is_refused():
    X, y = _data()
    y = y.copy()
    y[0] = 2
    with pytest.raises(ValueError, match="at least two samples"):
        StabilitySelection(n_resamples=3).fit(X, y)


def test_a_failing_inner_fit_names_the_subsample():
    X, y = _data()
    with pytest.raises(ValueError, match="L1SVMSelector failed on subsample 0 of 3 .40 samples.: "
                                         "n_features_to_select=20 exceeds"):
        StabilitySelection(L1SVMSelector(n_features_to_select=20), n_resamples=3).fit(X, y)


def test_sparse_input_follows_the_inner_selector():
    X, y = _data(shift=3.0)
    dense = StabilitySelection(n_resamples=10).fit(X, y)
    sparse = StabilitySelection(n_resamples=10).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(dense.frequencies_, sparse.frequencies_)


def test_in_a_pipeline_and_grid_search():
    X, y = _data(shift=1.5, n=100)
    pipe = make_pipeline(StabilitySelection(L1SVMSelector(n_features_to_select=2), n_resamples=10),
                         LinearSVC())
    grid = GridSearchCV(pipe, {"stabilityselection__threshold": [0.5, 0.9],
                               "stabilityselection__estimator__n_features_to_select": [2, 4]}, cv=3)
    grid.fit(X, y)
    assert grid.best_score_ > 0.8
    chosen = grid.best_estimator_[0].get_support(indices=True)
    assert {0, 1} <= set(chosen.tolist())

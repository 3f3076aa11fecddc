"""Tests of :class:`WeakKernelSelector` (the weak-kernel LP of Fung et al. 2007 as a selector)."""
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn_checks import parametrize_with_checks

from fsbook.kernel_design import KernelDesign, WeakKernelSelector


@parametrize_with_checks([WeakKernelSelector()])
def test_sklearn_conventions(estimator, check):
    check(estimator)


def _informative(n=120, d=6, seed=0):
    """Class given by feature 2; the other features are noise."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (X[:, 2] > 0).astype(int)
    X[:, 2] += 1.5 * (2 * y - 1)          # separated classes along feature 2
    return X, y


def test_informative_feature_ranks_first_and_scores_are_group_maxima():
    X, y = _informative()
    sel = WeakKernelSelector(n_triplets=300, random_state=0).fit(X, y)
    assert np.argmax(sel.scores_) == 2
    assert sel.get_support()[2]
    assert isinstance(sel.kernel_design_, KernelDesign)
    k = len(sel.weak_mu)
    np.testing.assert_allclose(sel.scores_, np.abs(sel.alpha_).reshape(-1, k).max(axis=1))
    assert np.all(sel.alpha_ >= 0)                      # psd="nonnegative" by default
    np.testing.assert_array_equal(sel.get_support(), sel.scores_ > sel.tol)
    # deterministic for a fixed seed
    again = WeakKernelSelector(n_triplets=300, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.alpha_, sel.alpha_)


def test_n_features_to_select_keeps_largest_and_breaks_ties_by_index():
    X, y = _informative()
    X[:, [0, 4]] = 0.0                                   # constant features score 0
    sel = WeakKernelSelector(n_features_to_select=1, n_triplets=300, random_state=0).fit(X, y)
    np.testing.assert_array_equal(sel.get_support(indices=True), [2])
    # all six kept: the count, not the threshold, decides
    sel6 = WeakKernelSelector(n_features_to_select=6, n_triplets=300, random_state=0).fit(X, y)
    assert sel6.get_support().all()
    # ties among zero scores go to the smaller index
    zero = np.flatnonzero(sel.scores_ == 0)
    k = int(np.sum(sel.scores_ > 0)) + 1
    selk = WeakKernelSelector(n_features_to_select=k, n_triplets=300, random_state=0).fit(X, y)
    kept = selk.get_support(indices=True)
    assert zero[0] in kept and not np.isin(zero[1:], kept).any()


def test_feature_names_out():
    X, y = _informative()
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    sel = WeakKernelSelector(n_features_to_select=2, n_triplets=300, random_state=0).fit(df, y)
    names = sel.get_feature_names_out()
    assert list(names) == [f"f{i}" for i in sel.get_support(indices=True)]
    assert "f2" in names


def test_dominance_variant_is_available():
    X, y = _informative(n=60)
    sel = WeakKernelSelector(psd="dominance", n_triplets=100, random_state=0).fit(X, y)
    assert sel.kernel_design_.psd == "dominance"
    assert sel.kernel_design_.dominance_violation_ <= 1e-7 * max(1.0, np.abs(sel.alpha_).sum())


def test_pipeline_and_grid_search():
    X, y = _informative(n=90, d=8)
    pipe = make_pipeline(StandardScaler(), WeakKernelSelector(n_features_to_select=5, n_triplets=200,
                                                              random_state=0), LinearSVC())
    pipe.fit(X, y)
    assert pipe.score(X, y) > 0.9
    assert pipe[:-1].get_feature_names_out().size == 5
    gs = GridSearchCV(pipe, {"weakkernelselector__n_features_to_select": [1, 3]}, cv=3, n_jobs=1)
    gs.fit(X, y)
    assert gs.best_params_["weakkernelselector__n_features_to_select"] in (1, 3)


@pytest.mark.parametrize("X_change, y, params, match", [
    (None, np.zeros(20, dtype=int), {}, "two classes"),
    ("nan", None, {}, "NaN"),
    (None, None, {"n_features_to_select": 7}, "exceeds the number of features"),
    (None, np.arange(20), {}, "no class holds two samples"),
    (None, None, {"psd": "psd"}, "psd"),
    (None, np.linspace(0, 1, 20), {}, "Unknown label type"),
])
def test_clear_errors(X_change, y, params, match):
    X = np.random.default_rng(0).standard_normal((20, 6))
    if X_change == "nan":
        X[3, 1] = np.nan
    y = np.arange(20) % 2 if y is None else y
    with pytest.raises(ValueError, match=match):
        WeakKernelSelector(n_triplets=30, random_state=0, **params).fit(X, y)


def test_all_triplets_on_duplicated_points_raise():
    X = np.array([[0.0, 1.0], [1.0, 0.0]] * 5)
    y = np.array([0, 1] * 5)                             # every class a single point
    with pytest.raises(ValueError, match="repeats a point"):
        WeakKernelSelector(n_triplets=20, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="every column of X is constant"):
        WeakKernelSelector(n_triplets=20, random_state=0).fit(np.zeros((10, 2)), y)


def test_protocol_selection_task_and_table():
    from fsbook.experiments.kernel_design.tables import reduce
    from fsbook.experiments.kernel_design.tasks import run_task, selection_fold
    p = {"dataset": "wine", "split": 0, "method": "selection"}
    r = run_task(p)
    assert r == run_task(dict(p))                        # deterministic
    assert r == run_task({**p, "repeat": 0})             # repetition 0: the one partition of versions 2-5
    assert 0 < r["n_kept"] <= r["n_features"] == 13 and len(r["kept"]) == r["n_kept"]
    assert 0.5 < r["acc_all"] <= 1 and 0.5 < r["acc_kept"] <= 1
    # the test samples' outcomes, in the test fold's order: their mean is the stored accuracy
    _, test = selection_fold("wine", 0)
    for key in ("all", "kept"):
        outcomes = r[f"outcomes_{key}"]
        assert len(outcomes) == test.size and set(outcomes) <= {"0", "1"}
        assert outcomes.count("1") / test.size == pytest.approx(r[f"acc_{key}"], abs=1e-15)
    table = reduce([p], [r])["selection"]
    assert table.loc[0, "folds"] == 1 and table.loc[0, "repetitions"] == 1 and table.loc[0, "D"] == 13


@pytest.mark.parametrize("params", [{}, {"n_features_to_select": 0.1}, {"psd": "dominance", "gamma1": 1e-6}])
def test_sparse_input_gives_the_result_of_the_dense_input(params):
    """A sparse X is accepted; only the rows the triplets use are densified."""
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    y = np.arange(40) % 2
    X = (rng.random((40, 30)) < 0.2) * rng.integers(1, 4, (40, 30)).astype(float)
    X[:, :2] += y[:, None] * (rng.random((40, 2)) < 0.8)
    dense = WeakKernelSelector(n_triplets=60, **params).fit(X, y)
    sparse = WeakKernelSelector(n_triplets=60, **params).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(sparse.scores_, dense.scores_)
    np.testing.assert_array_equal(sparse.triplets_, dense.triplets_)
    np.testing.assert_array_equal(sparse.get_support(), dense.get_support())
    out = sparse.transform(sp.csr_matrix(X))
    assert out.shape == (40, int(dense.get_support().sum()))
    assert sp.issparse(out) or out.shape[1] == 0        # scikit-learn returns a dense empty array

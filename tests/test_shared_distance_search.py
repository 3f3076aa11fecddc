"""SharedDistanceSearch: the grid search over WekaLibSVM's (C, γ) with the squared distances
computed once gives the plain search's scores, choice and predictions, bit for bit, and runs the
plain search where sharing would not be exact."""
import numpy as np
import pytest
import scipy.sparse as sp

from fsbook.baselines import WekaLibSVM
from fsbook.baselines.weka_svm import SharedDistanceSearch, _squared_distances
from fsbook.model_selection import tuned_svm

GRID = {"C": [0.1, 1.0, 10.0, 100.0], "gamma": [0.01, 0.1, 1.0]}


def _table(seed, n=90):
    rng = np.random.default_rng(seed)
    words = (rng.random((n, 40)) < 0.15).astype(float)
    codes = rng.integers(0, 4, size=(n, 2)).astype(float)        # two nominal columns, 4 levels
    X = np.hstack([codes, words])
    y = ((words[:, :4].sum(axis=1) + (codes[:, 0] == 2)) > 0.5).astype(int)
    nominal = np.array([True, True] + [False] * 40)
    n_levels = np.array([4, 4] + [0] * 40)
    return X, y, nominal, n_levels


def _searches(nominal, n_levels, tie):
    make = lambda: tuned_svm(WekaLibSVM(nominal=nominal, n_levels=n_levels), GRID, seed=3,
                             error_score="raise", tie=tie)
    return SharedDistanceSearch(make()), make()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("tie", ["first", "two_class"])
def test_shared_distances_give_the_plain_search(seed, tie):
    X, y, nominal, n_levels = _table(seed)
    fast, plain = _searches(nominal, n_levels, tie)
    fast.fit(X[:60], y[:60])
    plain.fit(X[:60], y[:60])
    assert fast.shared_
    assert fast.best_params_ == plain.best_params_
    for key, values in plain.cv_results_.items():
        if key.startswith(("split", "mean_test", "std_test", "rank")):
            assert np.array_equal(values, fast.cv_results_[key]), key
    assert np.array_equal(fast.predict(X[60:]), plain.predict(X[60:]))
    dense = lambda a: a.toarray() if sp.issparse(a) else a
    assert np.array_equal(dense(fast.best_estimator_.svc_.dual_coef_),
                          dense(plain.best_estimator_.svc_.dual_coef_))


def test_squared_distances_are_the_exact_integers():
    X, _, _, _ = _table(0, n=30)
    Z = X[:, 2:]
    direct = ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2)
    assert np.array_equal(_squared_distances(Z), direct)


@pytest.mark.parametrize("case", ["missing", "real", "undeclared levels", "default gamma"])
def test_the_plain_search_runs_where_sharing_is_not_exact(case):
    X, y, nominal, n_levels = _table(5)
    grid = dict(GRID)
    if case == "missing":
        X[3, 10] = np.nan
    elif case == "real":
        X[:, 10] += 0.25
    elif case == "undeclared levels":
        n_levels = None
    else:
        grid = {"C": GRID["C"]}
    make = lambda: tuned_svm(WekaLibSVM(nominal=nominal, n_levels=n_levels), grid, seed=3)
    fast = SharedDistanceSearch(make()).fit(X[:60], y[:60])
    plain = make().fit(X[:60], y[:60])
    assert not fast.shared_
    assert fast.best_params_ == plain.best_params_
    assert np.array_equal(fast.predict(X[60:]), plain.predict(X[60:]))


def test_sparse_input_is_refused():
    X, y, nominal, n_levels = _table(0)
    fast, _ = _searches(nominal, n_levels, "first")
    with pytest.raises(TypeError, match="sparse"):
        fast.fit(sp.csr_matrix(X), y)

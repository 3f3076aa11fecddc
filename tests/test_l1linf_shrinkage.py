"""LDFS's shrunk within-class scatter and SVM-RFE's converged solves: the independent checks.

The Ledoit–Wolf γ is checked against scikit-learn's :func:`~sklearn.covariance.ledoit_wolf_shrinkage`
on the within-class centred data, the shrunk criterion's gradient by finite differences, its
bound on data with more features than samples, and both selectors' selections against a one-ulp
change of the data.
"""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.covariance import ledoit_wolf_shrinkage

from fsbook.baselines import SVMRFE
from fsbook.baselines.svm_selectors import elimination_order
from fsbook.l1linf import LDFS
from fsbook.l1linf.lda import LDACriterion, ledoit_wolf_within


def _data(n, d, seed=0, classes=3):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, d), rng.integers(0, classes, n)


@pytest.mark.parametrize("n, d", [(30, 5), (20, 60), (50, 200)])
def test_ledoit_wolf_within_equals_sklearn(n, d):
    X, y = _data(n, d)
    crit = LDACriterion(X, y)
    Xw = crit.X - crit.Z @ crit.M
    expected = ledoit_wolf_shrinkage(Xw, assume_centered=True)
    assert ledoit_wolf_within(X, y) == pytest.approx(expected, rel=1e-9)
    assert ledoit_wolf_within(sp.csr_matrix(X), y) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("gamma", [0.0, 0.3, 1.0])
def test_shrunk_gradient_matches_finite_differences(gamma):
    X, y = _data(40, 12, seed=1)
    crit = LDACriterion(X, y, ridge=0.7, shrinkage=gamma)
    rng = np.random.default_rng(2)
    W, E = rng.normal(size=(12, 2)), rng.normal(size=(12, 2))
    h = 1e-6
    fd = (crit(W + h * E)[0] - crit(W - h * E)[0]) / (2 * h)
    assert np.sum(crit(W)[1] * E) == pytest.approx(fd, rel=1e-6)


def test_restriction_keeps_the_shrinkage_target():
    X, y = _data(40, 12, seed=3)
    crit = LDACriterion(X, y, shrinkage=0.4)
    rows = np.array([1, 4, 7])
    W = np.random.default_rng(4).normal(size=(12, 2))
    W[np.setdiff1d(np.arange(12), rows)] = 0.0
    assert crit.restrict(rows)(W[rows])[0] == pytest.approx(crit(W)[0], rel=1e-12)


def test_shrinkage_bounds_the_criterion_when_within_scatter_is_singular():
    X, y = _data(15, 60, seed=5)                 # d > n - C: S_W is singular
    plain, shrunk = LDACriterion(X, y), LDACriterion(X, y, shrinkage=0.2)
    Xw = plain.X - plain.Z @ plain.M
    null = np.linalg.svd(Xw)[2][-1]              # a direction with S_W v = 0
    w = null[:, None]
    if np.allclose(plain.Xb @ w, 0):
        pytest.skip("the null direction carries no between-class scatter")
    bound = -plain.scatter_traces()[1] / shrunk.shrink_level
    assert plain(1e3 * w)[0] < 1e3 * plain(w)[0] < 0   # J(cW) ~ -c²: unbounded without shrinkage
    assert shrunk(1e3 * w)[0] >= bound


def test_ldfs_default_uses_ledoit_wolf_and_none_is_plain():
    X, y = _data(60, 8, seed=6)
    fitted = LDFS(3).fit(X, y)
    assert fitted.shrinkage_ == pytest.approx(ledoit_wolf_within(X / fitted.scale_, y))
    assert LDFS(3, shrinkage=None).fit(X, y).shrinkage_ == 0.0
    with pytest.raises(ValueError):
        LDFS(3, shrinkage=1.5).fit(X, y)


def _ulp(X, seed):
    rng = np.random.default_rng(seed)
    return X * (1 + rng.choice([-1.0, 1.0], X.shape) * 2.0 ** -52)


@pytest.mark.parametrize("dataset, k", [("madelon", 6), ("arcene", 10)])
def test_svm_rfe_converged_selection_survives_one_ulp(dataset, k):
    """On MADELON's training folds the earlier dual solve's selection changes when the data are
    scaled by one ulp (liblinear stops at its iteration budget); the converged solves' must not,
    in the primal (MADELON, more samples than features) and in the dual (ARCENE, fewer)."""
    from fsbook.experiments.l1linf.tasks import folds, load

    X, y = load(dataset, 1000)
    train = folds(dataset, 1000, y)[1][0]
    X, y = X[train], y[train]
    ref = SVMRFE(k).fit(X, y).get_support(indices=True)
    assert SVMRFE(k).fit(X * (1 + 2.0 ** -52), y).get_support(indices=True).tolist() == ref.tolist()


def test_elimination_order_breaks_ties_by_index():
    class Fitted:
        coef_ = np.array([[1.0, -0.5, 0.5, 1.0 + 1e-15]])
    assert elimination_order(Fitted()).tolist() == [4.0, 2.0, 1.0, 3.0]
    Fitted.coef_ = np.array([[1.0, 0.2], [0.0, 1.0]])          # multi-class: Σ_c w_cj²
    assert elimination_order(Fitted()).tolist() == [1.0, 2.0]

"""Regression targets: RReliefF, HSIC with the linear kernel of the target, stability selection on
plain halves, ProjectionPenalty(Ridge), and a clear refusal from every estimator defined for class
labels only."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.decomposition import PCA
from sklearn.feature_selection import SelectFromModel
from sklearn.linear_model import Lasso, Ridge

from fsbook._targets import REFUSALS, is_regression_target, standardised
from fsbook.baselines import FOHSIC, Relief, StabilitySelection
from fsbook.baselines.fohsic import fohsic_path
from fsbook.baselines.relief import rrelieff_weights
from fsbook.baselines.stability import random_halves
from fsbook.capabilities import probe_instance, public_estimators
from fsbook.l1linf import HSFS
from fsbook.l1linf.hsic import HSICCriterion
from fsbook.projection import ProjectionPenalty


def regression_problem(n=40, d=6, seed=0):
    """Columns 0 and 1 carry the target, the others are noise."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, d))
    y = 2.0 * X[:, 0] + X[:, 1] ** 2 + 0.05 * rng.normal(size=n)
    return X, y


def rrelieff_by_the_pseudocode(X, y, k):
    """Robnik-Šikonja & Kononenko (2003), Fig. 3, every instance an R_i (m = n), the constant
    influence d(i, j) = 1/k, ties among neighbours to the smaller index; one loop per line."""
    X = np.asarray(X, dtype=float)
    n, a = X.shape
    span = np.ptp(X, axis=0)
    span[span == 0] = 1.0
    y_span = np.ptp(y)
    n_dc, n_da, n_dcda = 0.0, np.zeros(a), np.zeros(a)
    for i in range(n):
        dist = [np.inf if j == i else np.sum(np.abs(X[i] - X[j]) / span) for j in range(n)]
        nearest = sorted(range(n), key=lambda j: (dist[j], j))[:k]
        for j in nearest:
            d_c = abs(y[i] - y[j]) / y_span
            n_dc += d_c / k
            for attr in range(a):
                d_a = abs(X[i, attr] - X[j, attr]) / span[attr]
                n_da[attr] += d_a / k
                n_dcda[attr] += d_c * d_a / k
    return n_dcda / n_dc - (n_da - n_dcda) / (n - n_dc)


@pytest.mark.parametrize("k", [1, 3, 10])
def test_rrelieff_equals_the_papers_pseudocode(k):
    X, y = regression_problem(n=25, d=5)
    np.testing.assert_allclose(rrelieff_weights(X, y, k), rrelieff_by_the_pseudocode(X, y, k),
                               rtol=1e-12, atol=1e-14)


def test_rrelieff_blocks_and_sparse_input_give_the_same_weights():
    X, y = regression_problem(n=30, d=5)
    X[X < 0.3] = 0.0
    full = rrelieff_weights(X, y, 4)
    np.testing.assert_allclose(rrelieff_weights(X, y, 4, block_bytes=8 * 30 * 3), full, rtol=1e-12)
    np.testing.assert_allclose(rrelieff_weights(sp.csr_matrix(X), y, 4), full, rtol=1e-12)


def test_relief_on_a_regression_target_ranks_the_informative_columns_first():
    X, y = regression_problem(n=80)
    sel = Relief(n_features_to_select=2).fit(X, y)
    assert sel.get_support(indices=True).tolist() == [0, 1]
    assert not hasattr(sel, "classes_")
    np.testing.assert_array_equal(sel.feature_importances_, rrelieff_weights(X, y, 10))


def test_relief_and_skrebate_agree_on_the_informative_columns():
    """skrebate's ReliefF on a continuous target is not RReliefF (a neighbour within one standard
    deviation of the target is a hit), so the weights differ; both rank the two columns that carry
    the target first."""
    skrebate = pytest.importorskip("skrebate")
    X, y = regression_problem(n=80)
    ours = Relief(n_features_to_select=2).fit(X, y).feature_importances_
    theirs = skrebate.ReliefF(n_neighbors=10, n_features_to_select=2).fit(X, y).feature_importances_
    assert set(np.argsort(-ours)[:2]) == set(np.argsort(-theirs)[:2]) == {0, 1}


def test_fohsic_regression_path_equals_the_n_by_n_computation():
    X, y = regression_problem(n=30, d=5)
    ranking, path = fohsic_path(X, y, 3, regression=True)
    Xs = X / X.std(axis=0)
    t = standardised(y)
    gamma = np.outer(t, t)
    chosen, expected = [], []
    for _ in range(3):
        def hsic(cols):
            sq = sum((Xs[:, c][:, None] - Xs[:, c][None, :]) ** 2 for c in cols)
            return float((np.exp(-sq / 2.0) * gamma).sum()) / 30 ** 2
        gains = [-np.inf if j in chosen else hsic(chosen + [j]) for j in range(5)]
        chosen.append(int(np.argmax(gains)))
        expected.append(max(gains))
    assert ranking.tolist() == chosen
    np.testing.assert_allclose(path, expected, rtol=1e-10)
    blocked = fohsic_path(X, y, 3, regression=True, block_bytes=8 * 30 * 4)
    assert blocked[0].tolist() == chosen
    np.testing.assert_allclose(blocked[1], path, rtol=1e-12)


def test_fohsic_and_hsfs_select_the_informative_columns_of_a_regression_target():
    X, y = regression_problem(n=80)
    assert sorted(FOHSIC(n_features_to_select=2).fit(X, y).ranking_.tolist()) == [0, 1]
    assert HSFS(n_features_to_select=2, random_state=0).fit(X, y).get_support(indices=True).tolist() == [0, 1]


def test_hsic_criterion_with_the_target_kernel_matches_its_reference():
    X, y = regression_problem(n=20, d=4)
    crit = HSICCriterion(X, y, regression=True)
    np.testing.assert_allclose(crit.Gamma, np.outer(standardised(y), standardised(y)))
    np.testing.assert_allclose(crit.Gamma.sum(axis=0), 0.0, atol=1e-12)        # centred
    W = np.random.default_rng(1).normal(size=(4, 2))
    value, grad = crit(W)
    ref_value, ref_grad = crit.reference(W)
    np.testing.assert_allclose(value, ref_value, rtol=1e-10)
    np.testing.assert_allclose(grad, ref_grad, rtol=1e-8, atol=1e-12)


def test_stability_selection_with_a_lasso_on_plain_halves():
    X, y = regression_problem(n=80)
    sel = StabilitySelection(SelectFromModel(Lasso(alpha=0.05)), n_features_to_select=2,
                             n_resamples=20, random_state=0).fit(X, y)
    assert sel.get_support(indices=True).tolist() == [0, 1]
    assert [len(h) for h in sel.subsamples_] == [40] * 20
    assert all(np.array_equal(a, b) for a, b in zip(sel.subsamples_, random_halves(80, 20, 0)))


def test_projection_penalty_with_ridge_is_a_regression_model():
    X, y = regression_problem(n=60)
    model = ProjectionPenalty(Ridge(), PCA(n_components=2)).fit(X, y)
    assert model.predict(X).dtype == np.float64
    assert model.score(X, y) > 0.5


def test_is_regression_target_follows_scikit_learns_type_of_target():
    assert is_regression_target(np.array([0.5, 1.0, 2.0]))
    assert not is_regression_target(np.array([0.0, 1.0, 2.0]))          # integral floats: classes
    assert not is_regression_target(["a", "b"])


def test_a_constant_regression_target_is_refused():
    X, _ = regression_problem()
    with pytest.raises(ValueError, match="regression target y is constant"):
        Relief().fit(X, np.full(len(X), 0.5))


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_estimators_for_class_labels_refuse_a_regression_target_with_the_reason(name):
    assert name in public_estimators()
    X, y = regression_problem()
    est = probe_instance(name, public_estimators()[name], "regression")[0]
    with pytest.raises(ValueError, match="Unknown label type: continuous") as info:
        est.fit(X, y)
    assert f"{name} is defined for class labels only: {REFUSALS[name]}" in str(info.value)

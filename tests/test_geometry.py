"""Tests of fsbook.geometry: ratios f1-f6 (Table 1), kernels, models and the selector (Fig. 2)."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import parametrize_with_checks

from fsbook.geometry import (GeometricFeatureSetSelector, fit_models, geometric_ratios,
                             naive_geometric_ratios, paper_model, standardize_within)
from fsbook.geometry import _kernels as K
from fsbook.geometry.ratios import binarize
from fsbook.wrapper import binary_splits, feature_subsets


def _gram(X):
    B = binarize(X)
    return (B @ B.T).toarray()


def _affdim(X):
    G = _gram(X)
    return K.affine_rank(G, np.arange(X.shape[0], dtype=np.int64), 1e-10)


def test_affine_dimension_line_plane_general_position():
    # 0/1 points on a line: (0,0,0,0), (1,1,0,0) and repeats -> dim 1
    line = np.array([[0, 0, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0]])
    assert _affdim(line) == 1
    # points on a 2-plane (affine combos of three 0/1 points that are also 0/1)
    plane = np.array([[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 0, 1], [0, 0, 1, 1]])
    # (1,1,0,1) = (1,0,0,1) + (0,1,0,1) - (0,0,0,1) is not an affine combo of the first three
    assert _affdim(plane[:3]) == 2
    assert _affdim(plane) == 3
    # the standard simplex plus the origin in R^5: general position, dim 5
    simplex = np.vstack([np.zeros(5), np.eye(5)])
    assert _affdim(simplex) == 5
    # a single point and duplicates: dim 0
    assert _affdim(np.ones((3, 4))) == 0


def test_ratios_hand_built():
    # positive cloud: a line in columns 0-1; negative: general position in columns 2-4
    Xp = np.array([[1, 1, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 0, 0, 0]])
    Xn = np.array([[0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]])
    X = np.vstack([Xp, Xn])
    y = np.array([1, 1, 1, 0, 0, 0, 0])
    f = geometric_ratios(X, y)
    # dim aff(Pp)=1, amb(Pp)=2; dim aff(Pn)=3, amb(Pn)=3; amb(Pf)=5; dim aff(Pf)=4
    np.testing.assert_allclose(f[:5], [1 / 2, 3 / 3, 1 / 5, 3 / 5, 4 / 5])
    # the origin (row 1 of Pp) is in aff(Pn) (it is a point of Pn); the other positives
    # have columns outside supp(Pn); no negative except the origin is on the line of Pp
    assert f[5] == pytest.approx(2 / 7)
    np.testing.assert_allclose(f, naive_geometric_ratios(X, y))
    # Table-1 reading: samples in aff(Pp): the 3 positives + the negative origin
    assert geometric_ratios(X, y, f6="table")[5] == pytest.approx(4 / 7)


@pytest.mark.parametrize("seed", range(12))
def test_equals_naive_svd_reference(seed):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(8, 50)), int(rng.integers(4, 60))
    X = (rng.random((m, n)) < rng.uniform(0.05, 0.5)).astype(float)
    if seed % 2:  # repeated columns and rows -> low affine dimension, non-trivial f6
        X = X[:, rng.integers(0, max(2, n // 4), n)][rng.integers(0, max(2, m // 3), m)]
    y = rng.integers(0, 2, m)
    y[:2] = [0, 1]
    for f6 in ("text", "table"):
        np.testing.assert_allclose(geometric_ratios(X, y, f6=f6),
                                   naive_geometric_ratios(X, y, f6=f6))


def test_membership_equivalence_per_sample():
    """One basis + one projection gives the same membership as one SVD per sample."""
    rng = np.random.default_rng(3)
    base = (rng.random((6, 30)) < 0.3).astype(float)
    # samples: 0/1 rows that are affine combinations of `base` rows (repeats, differences)
    # mixed with random rows
    X = np.vstack([base, base[[0, 1, 2]], (rng.random((20, 30)) < 0.3).astype(float)])
    G = _gram(X)
    hull = np.arange(6, dtype=np.int64)
    samples = np.arange(X.shape[0], dtype=np.int64)
    _, member = K.count_in_hull(G, hull, samples, np.zeros(X.shape[0]), 1e-10, 1e-8)
    r0 = np.linalg.matrix_rank(base[1:] - base[0])
    naive = np.array([np.linalg.matrix_rank(np.vstack([base, x])[1:] - base[0]) == r0 for x in X])
    np.testing.assert_array_equal(member, naive)
    assert member[:9].all()


def test_sparse_equals_dense_and_counts_binarised():
    rng = np.random.default_rng(5)
    X = rng.poisson(0.3, size=(40, 70)).astype(float)
    y = rng.integers(0, 2, 40)
    y[:2] = [0, 1]
    d = geometric_ratios(X, y)
    s = geometric_ratios(sp.csr_matrix(X), y)
    b = geometric_ratios((X > 0).astype(float), y)
    np.testing.assert_array_equal(d, s)
    np.testing.assert_array_equal(d, b)


def test_errors():
    X = np.eye(4)
    with pytest.raises(ValueError, match="two classes"):
        geometric_ratios(X, np.zeros(4))
    with pytest.raises(ValueError):
        geometric_ratios(np.array([[np.nan, 1], [0, 1]]), [0, 1])
    with pytest.raises(ValueError):
        geometric_ratios(X, [0, 1])
    with pytest.raises(ValueError, match="f6"):
        geometric_ratios(X, [0, 1, 0, 1], f6="bogus")
    with pytest.raises(ValueError, match="at least two classes"):
        GeometricFeatureSetSelector().fit(X, np.ones(4))


def test_splits_and_subsets_counts():
    for ell in range(2, 7):
        splits = binary_splits(range(ell))
        assert len(splits) == 2 ** (ell - 1) - 1
        # no split equals another or its complement
        keys = {frozenset(s) for s in splits} | {frozenset(set(range(ell)) - set(s)) for s in splits}
        assert len(keys) == 2 * len(splits)
    for k in range(1, 6):
        assert len(feature_subsets(k)) == 2 ** k - 1


def test_paper_model_and_decision_rule():
    m = paper_model()
    assert m.lin_coef[2] == pytest.approx(-0.09114375)
    assert paper_model(+1).lin_coef[2] == pytest.approx(0.09114375)
    Z = np.zeros((1, 6))
    # at the mean every ratio: logistic p = expit(-0.6406) < .5 -> not optimal
    assert not m.predict(Z)[0]
    Z = np.array([[0, 0, -2.0, -2.0, -2.0, -2.0]])
    assert m.linear(Z)[0] > 0 and m.probability(Z)[0] > 0.5 and m.predict(Z)[0]


def test_fit_models_recovers_coefficients():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(400, 6))
    t = -0.8 * Z[:, 2] + 0.1 * rng.normal(size=400)
    lab = (rng.random(400) < 1 / (1 + np.exp(-(-2.0 * Z[:, 5])))).astype(int)
    model = fit_models(Z, t, lab, stepwise=True)
    assert model.lin_coef[2] == pytest.approx(-0.8, abs=0.03)
    assert "f3" in model.info["linear_predictors"]
    assert "f6" in model.info["logistic_predictors"]
    assert model.log_coef[5] == pytest.approx(-2.0, abs=0.5)
    full = fit_models(Z, t, lab, stepwise=False)
    assert np.all(full.lin_coef != 0)


def test_standardize_within():
    v = np.array([[1.0, 5], [3.0, 5], [10.0, 0], [20.0, 1]])
    z = standardize_within(v, ["a", "a", "b", "b"])
    np.testing.assert_allclose(z[:, 0], [-1, 1, -1, 1])
    np.testing.assert_allclose(z[:2, 1], [0, 0])


def test_selector_matches_direct_ratios():
    rng = np.random.default_rng(7)
    X = (rng.random((45, 24)) < 0.2).astype(float)
    X[:, 8:16] = X[:, 0:8]  # group 1 copies group 0
    y = rng.integers(0, 3, 45)
    groups = [np.arange(0, 8), np.arange(8, 16), np.arange(16, 24)]
    sel = GeometricFeatureSetSelector(groups, group_names=["a", "b", "c"]).fit(sp.csr_matrix(X), y)
    res = sel.results_
    assert len(res) == 3 * 7
    for _, row in res.sample(6, random_state=0).iterrows():
        cols = np.concatenate([groups[g] for g in row["groups"]])
        direct = geometric_ratios(X[:, cols], np.isin(y, row["positive"]).astype(int))
        np.testing.assert_allclose(row[["f1", "f2", "f3", "f4", "f5", "f6"]].to_numpy(float),
                                   direct)
    # the copied group adds no affine dimension: a+b has the same dims as a
    r = res[res["split"] == res["split"].iloc[0]].set_index("subset")
    assert r.loc["a+b", "f1"] == pytest.approx(r.loc["a", "f1"] / 2)
    assert set(sel.recommended_) == set(res["split"])
    assert sel.get_support().shape == (24,)
    assert sel.transform(X).shape[1] == sel.get_support().sum()


@parametrize_with_checks([GeometricFeatureSetSelector()])
def test_sklearn_compatible(estimator, check):
    check(estimator)

"""Tests of fsbook.geometry: ratios f1-f6 (Table 1), kernels, models and the selector (Fig. 2)."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn_checks import parametrize_with_checks

from fsbook.geometry import (
    GeometricFeatureSetSelector,
    binary_splits,
    feature_subsets,
    fit_models,
    geometric_ratios,
    naive_geometric_ratios,
    paper_model,
    point_matrix,
    standardize_within,
)
from fsbook.geometry import _kernels as K


def _gram(X):
    P = point_matrix(X)
    return (P @ P.T).toarray()


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
def test_equals_naive_svd_reference(seed, random_binary):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(8, 50)), int(rng.integers(4, 60))
    X, _ = random_binary(seed, m, n, density=rng.uniform(0.05, 0.5))
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


def _cloud(rng, d, support, n, base_scale=3, coef_scale=4, extra=6):
    """Integer points of affine dimension exactly ``d`` supported on the columns ``support``.

    Directions live on disjoint column blocks of ``support`` (independent by construction);
    the coefficient rows include 0 and the unit vectors, so the differences span R^d.  Every
    column of ``support`` is non-zero in the base point, so the ambient dimension is |support|.
    """
    blocks = np.array_split(np.asarray(support), d) if d else []
    V = np.zeros((d, n), dtype=np.int64)
    for i, b in enumerate(blocks):
        V[i, b] = rng.choice([-2, -1, 1, 2, 3], size=b.size)
    a = np.zeros(n, dtype=np.int64)
    a[support] = rng.integers(1, base_scale + 1, size=len(support)) * 5
    T = np.vstack([np.zeros((1, d), dtype=np.int64), np.eye(d, dtype=np.int64),
                   rng.integers(-coef_scale, coef_scale + 1, size=(extra, d))])
    return a + T @ V


@pytest.mark.parametrize("seed", range(6))
def test_integer_clouds_of_known_dimension(seed):
    """f1-f5 are exact on integer (non-0/1) clouds of known affine and ambient dimension."""
    rng = np.random.default_rng(seed)
    n = 40
    dp, dn = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    sp_cols = np.arange(0, 12 + seed)                 # support of the positive cloud
    sn_cols = np.arange(20, 27 + seed)                # disjoint support of the negative cloud
    Pp, Pn = _cloud(rng, dp, sp_cols, n), _cloud(rng, dn, sn_cols, n)
    X = np.vstack([Pp, Pn]).astype(float)
    y = np.r_[np.ones(len(Pp)), np.zeros(len(Pn))]
    ap, an = sp_cols.size, sn_cols.size
    # the clouds sit on disjoint supports with non-zero base points: aff(Pf) adds one dimension
    df = dp + dn + 1
    expected = [dp / ap, dn / an, dp / (ap + an), dn / (ap + an), df / (ap + an), 0.0]
    f = geometric_ratios(X, y)
    np.testing.assert_allclose(f, expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(naive_geometric_ratios(X, y), expected, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(geometric_ratios(sp.csr_matrix(X), y), f)
    # binarising gives the ratios of another point cloud (the naive reference agrees on it)
    fb = geometric_ratios(X, y, binarize=0.0)
    np.testing.assert_allclose(fb, naive_geometric_ratios(X, y, binarize=0.0))
    assert np.abs(fb[:5] - expected[:5]).max() > 0.04


def test_real_valued_scale_invariant_and_membership():
    """On real values the ratios do not depend on the scale, and f6 sees real affine hulls."""
    rng = np.random.default_rng(1)
    A = rng.normal(size=(3, 8))                        # 3 points: a 2-plane
    w = rng.normal(size=(5, 3))
    inside = (w / w.sum(axis=1, keepdims=True)) @ A    # affine combinations: on the plane
    X = np.vstack([A, inside, rng.normal(size=(4, 8))])
    y = np.r_[np.ones(3), np.zeros(9)]
    f = geometric_ratios(X, y)
    assert f[0] == pytest.approx(2 / 8)
    # the 5 negatives on the plane of Pp are in aff(Pp); Pn spans R^8, so all 3 positives
    # are in aff(Pn): f6 = 8/12
    assert f[5] == pytest.approx(8 / 12)
    np.testing.assert_allclose(f, naive_geometric_ratios(X, y))
    for scale in (1e-6, 1e6):
        np.testing.assert_allclose(geometric_ratios(scale * X, y), f)


def test_binarize_option_equals_binarised_input():
    rng = np.random.default_rng(5)
    X = rng.poisson(0.3, size=(40, 70)).astype(float)
    y = rng.integers(0, 2, 40)
    y[:2] = [0, 1]
    b = geometric_ratios(X, y, binarize=0.0)
    np.testing.assert_array_equal(b, geometric_ratios((X > 0).astype(float), y))
    np.testing.assert_array_equal(b, geometric_ratios(sp.csr_matrix(X), y, binarize=0.0))
    np.testing.assert_allclose(geometric_ratios(X, y), naive_geometric_ratios(X, y))
    np.testing.assert_array_equal(geometric_ratios(X, y, binarize=1.0),
                                  geometric_ratios((X > 1).astype(float), y))
    Xc = X.copy()
    geometric_ratios(X, y, binarize=0.0)
    np.testing.assert_array_equal(X, Xc)            # the input is never modified


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
    with pytest.raises(ValueError, match="binarize"):
        geometric_ratios(X, [0, 1, 0, 1], binarize="yes")
    with pytest.raises(ValueError, match="rtol"):
        geometric_ratios(X, [0, 1, 0, 1], rtol=0)
    with pytest.raises(ValueError, match="f3_sign"):
        GeometricFeatureSetSelector(f3_sign=2).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="model"):
        GeometricFeatureSetSelector(model="mine").fit(X, [0, 1, 0, 1])
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


def test_selector_binarize_and_values():
    rng = np.random.default_rng(2)
    X = rng.poisson(0.6, size=(40, 12)).astype(float)
    y = rng.integers(0, 2, 40)
    groups = [np.arange(0, 6), np.arange(6, 12)]
    for binarize, Xd in ((0.0, (X > 0).astype(float)), (None, X)):
        res = GeometricFeatureSetSelector(groups, binarize=binarize).fit(X, y).results_
        for _, row in res.iterrows():
            cols = np.concatenate([groups[g] for g in row["groups"]])
            np.testing.assert_allclose(row[["f1", "f2", "f3", "f4", "f5", "f6"]].to_numpy(float),
                                       geometric_ratios(Xd[:, cols], y))


def test_selector_support_when_nothing_is_recommended():
    from fsbook.geometry import GeometricModel
    rng = np.random.default_rng(4)
    X = (rng.random((30, 9)) < 0.3).astype(float)
    y = rng.integers(0, 3, 30)
    groups = [np.arange(0, 3), np.arange(3, 6), np.arange(6, 9)]
    never = GeometricModel(0.0, np.zeros(6), -50.0, np.zeros(6))
    sel = GeometricFeatureSetSelector(groups, model=never).fit(X, y)
    assert sel.no_recommendation_ == list(sel.results_["split"].unique())
    assert sel.get_support().all()
    # a model preferring small f6 recommends something for every classifier
    some = GeometricModel(1.0, np.zeros(6), 0.0, np.r_[np.zeros(5), -3.0])
    sel = GeometricFeatureSetSelector(groups, model=some).fit(X, y)
    res = sel.results_
    expected = np.zeros(9, bool)
    for _, d in res.groupby("split"):
        if d["recommended"].any():
            best = d[d["recommended"]].sort_values("probability", kind="stable").iloc[-1]
            for g in best["groups"]:
                expected[groups[g]] = True
    assert len(sel.no_recommendation_) < 3
    np.testing.assert_array_equal(sel.get_support(), expected)

"""Sample weights and metadata routing: the estimators whose method weights
its loss take ``sample_weight`` (ones equal no weights; integer weights equal repeated samples),
the others refuse it naming why, the meta-estimators route it to what they wrap, and a Pipeline
routes it with ``set_fit_request``."""
import inspect

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.metadata_routing import MetadataRouter

from fsbook._weights import REFUSALS
from fsbook.baselines import (
    FOHSIC,
    MRMR,
    SVMRFE,
    FeatureWeightingSVM,
    L1SVMSelector,
    StabilitySelection,
    ZeroNormSVM,
)
from fsbook.capabilities import capability_table, probe_instance, public_estimators
from fsbook.hkl import DisjunctiveHKL, DisjunctiveHKLCV, HKLRanker
from fsbook.l1linf import HSFS, LDFS
from fsbook.projection import ExhaustedSafePLS, GeneralizedDiscriminantAnalysis, ProjectionPenalty
from fsbook.projection.linear import augment_features, reduce

#: the estimators that take sample_weight, and the fitted attribute compared across fits
#: ("transform": the transform of held-out points, for a transformer whose attributes are a model)
WEIGHTED = {"SVMRFE": "ranking_", "ZeroNormSVM": "coef_", "L1SVMSelector": "coef_", "MRMR": "relevance_",
            "ExhaustedSafePLS": "transform", "FeatureWeightingSVM": "coef_", "HSFS": "W_", "LDFS": "W_",
            "FOHSIC": "hsic_path_", "DisjunctiveHKL": "coef_", "DisjunctiveHKLCV": "coef_",
            "HKLRanker": "scores_"}
#: the HKL estimators: the same optimum to the duality-gap tolerance, not bit for bit
HKL = {"DisjunctiveHKL", "DisjunctiveHKLCV", "HKLRanker"}
#: the HKL estimators run the conic restricted solver on every sample here: the default working
#: set is chosen among the samples, so a weighted and a repeated fit reach their optimum through
#: other working sets, equal within the certified gap but not always in the validation
#: predictions at a large C (HKLRanker's path on these data: two of seven C)
HKL_SOLVER = {"solver": "conic"}
META = {"ProjectionPenalty", "StabilitySelection"}


def _data(n=60, d=6, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, d))
    X[:, :2] += 1.2 * y[:, None]
    return X, y


def _make(name, **kw):
    return {"SVMRFE": lambda: SVMRFE(n_features_to_select=2, **kw),
            "ZeroNormSVM": lambda: ZeroNormSVM(n_features_to_select=2, **kw),
            "L1SVMSelector": lambda: L1SVMSelector(n_features_to_select=2, **kw),
            "MRMR": lambda: MRMR(n_features_to_select=2, **kw),
            "ExhaustedSafePLS": lambda: ExhaustedSafePLS(n_components=3, **kw),
            "FeatureWeightingSVM": lambda: FeatureWeightingSVM(C=0.5, **kw),
            "HSFS": lambda: HSFS(n_features_to_select=2, **kw),
            "LDFS": lambda: LDFS(n_features_to_select=2, **kw),
            "FOHSIC": lambda: FOHSIC(n_features_to_select=2, **kw),
            "DisjunctiveHKL": lambda: DisjunctiveHKL(C=0.3, tol=1e-5, **HKL_SOLVER, **kw),
            "DisjunctiveHKLCV": lambda: DisjunctiveHKLCV(tol=1e-5, **HKL_SOLVER, **kw),
            "HKLRanker": lambda: HKLRanker(n_features_to_select=2, tol=1e-5, **HKL_SOLVER, **kw)}[name]()


def _fitted(name, est):
    """What is compared across two fits of ``name``: ``WEIGHTED[name]``, or the transform of
    held-out points (the same for every fit)."""
    if WEIGHTED[name] == "transform":
        return est.transform(_data(n=20, seed=99)[0])
    return np.asarray(getattr(est, WEIGHTED[name]), float)


def _same_folds(weighted, repeated, w):
    """For an estimator with an inner ``cv``: the same three folds of the original samples for
    the weighted fit and the repeated one (each copy in its sample's fold), as scikit-learn's
    ``check_sample_weight_equivalence`` does with groups."""
    if "cv" not in weighted.get_params():
        return
    fold = np.arange(len(w)) % 3
    origin = np.repeat(np.arange(len(w)), w)
    for est, f in ((weighted, fold), (repeated, fold[origin])):
        est.set_params(cv=[(np.flatnonzero(f != k), np.flatnonzero(f == k)) for k in range(3)])


def _hkl_same_model(weighted, repeated, X):
    """The same HKL model: the selected disjunctions and their weights, and the decision
    function (relative to its scale), to the duality-gap tolerance 1e-5 of the fits."""
    models = [(weighted, repeated)]
    if hasattr(weighted, "models_"):
        models, X = zip(weighted.models_, repeated.models_), None
    for a, b in models:
        if hasattr(a, "C_"):
            assert a.C_ == b.C_
            np.testing.assert_allclose(a.cv_results_.mean_accuracy, b.cv_results_.mean_accuracy,
                                       rtol=0, atol=1e-12)
        assert sorted(a.disjunctions_) == sorted(b.disjunctions_)
        wa, wb = dict(zip(a.disjunctions_, a.coef_)), dict(zip(b.disjunctions_, b.coef_))
        scale = np.abs(b.coef_).max()
        np.testing.assert_allclose([wa[v] for v in wb], list(wb.values()), rtol=0, atol=1e-3 * scale)
        np.testing.assert_allclose(a.objective_, b.objective_, rtol=2e-5)
        if X is not None:     # (HKLRanker's models see its indicators: their weights above)
            fa, fb = a.decision_function(X), b.decision_function(X)
            np.testing.assert_allclose(fa, fb, rtol=0, atol=1e-3 * np.abs(fb).max())


@pytest.fixture(scope="module")
def table():
    return capability_table()


def test_declared_weight_support_matches_the_capability_table(table):
    """Every public estimator: ``sample_weight`` in ``fit``'s signature ⇔ 'yes' in the table;
    a meta-estimator (a MetadataRouter) ⇔ 'routed'; every other one refuses, with a reason."""
    for name, cls in public_estimators().items():
        declared = "sample_weight" in inspect.signature(cls.fit).parameters
        est = probe_instance(name, cls)[0]
        router = isinstance(est.get_metadata_routing(), MetadataRouter)
        cell = table.loc[name, "sample_weight"]
        if router:
            assert cell == "routed" and name in META, name
        elif declared:
            assert cell == "yes" and name in WEIGHTED, name
        else:
            assert cell in ("refused", "—") and name in REFUSALS, name
            if cell == "refused":
                msg = table.attrs["messages"][(name, "sample_weight")]
                assert msg.startswith(f"TypeError: {name}.fit does not take sample_weight: ")
    assert set(REFUSALS) | set(WEIGHTED) | META == set(public_estimators())
    assert not set(REFUSALS) & (set(WEIGHTED) | META)


def test_refusal_names_the_estimator_and_why():
    from fsbook.projection import GeneralizedDiscriminantAnalysis
    X, y = _data()
    with pytest.raises(TypeError, match=r"GeneralizedDiscriminantAnalysis.fit does not take sample_weight: "
                                        r"its weighted form .* each direction's sign"):
        GeneralizedDiscriminantAnalysis().fit(X, y, sample_weight=np.ones(len(y)))


@pytest.mark.parametrize("name", sorted(WEIGHTED))
def test_weights_of_ones_equal_no_weights(name):
    X, y = _data()
    a = _fitted(name, _make(name).fit(X, y))
    b = _fitted(name, _make(name).fit(X, y, sample_weight=np.ones(len(y))))
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", sorted(WEIGHTED))
def test_integer_weights_equal_repeated_samples(name):
    X, y = _data(seed=1)
    w = np.random.default_rng(2).integers(0, 4, len(y))
    w[[0, -1]] = 1                                   # both classes keep a sample
    weighted, repeated = _make(name), _make(name)
    _same_folds(weighted, repeated, w)
    weighted.fit(X, y, sample_weight=w)
    repeated.fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    if name == "ExhaustedSafePLS":                   # the same directions, to rounding
        assert weighted.n_kept_ == repeated.n_kept_
        np.testing.assert_allclose(_fitted(name, weighted), _fitted(name, repeated), rtol=1e-10, atol=1e-12)
    elif hasattr(weighted, "get_support"):
        np.testing.assert_array_equal(weighted.get_support(), repeated.get_support())
    if name in ("ZeroNormSVM", "L1SVMSelector"):     # the same optimum, to liblinear's tolerance
        np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-4, atol=1e-5)
    elif name == "FeatureWeightingSVM":              # the same optimum, to Clarabel's tolerance
        np.testing.assert_allclose(weighted.objective_, repeated.objective_, rtol=1e-7)
        np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-5, atol=1e-6)
    elif name in ("HSFS", "LDFS"):                   # the same path: the criteria agree to rounding
        np.testing.assert_allclose(weighted.W_, repeated.W_, rtol=1e-8, atol=1e-10)
        assert weighted.lambda_ == pytest.approx(repeated.lambda_, rel=1e-10)
    elif name in HKL:                                # the same optimum, to the duality gap
        _hkl_same_model(weighted, repeated, _data(seed=9)[0])
        if name == "HKLRanker":
            np.testing.assert_allclose(weighted.scores_, repeated.scores_, rtol=1e-3)
    elif name != "ExhaustedSafePLS":                 # the whole elimination order
        np.testing.assert_array_equal(weighted.ranking_, repeated.ranking_)
    # and the weights matter: unit weights rank otherwise, or fit other numbers, on these data
    plain = _make(name)
    _same_folds(plain, _make(name), np.ones(len(y), dtype=int))
    plain, fitted = _fitted(name, plain.fit(X, y)), _fitted(name, weighted)
    assert plain.shape != fitted.shape or not np.allclose(plain, fitted, atol=1e-3)


def test_hkl_default_solver_gives_weights_the_repeated_samples_optimum():
    """With the default working-set solver too, integer weights give the repeated samples' model
    at one C: the same disjunctions, objectives within the gap tolerance."""
    X, y = _data(seed=1)
    w = np.random.default_rng(2).integers(0, 4, len(y))
    w[[0, -1]] = 1
    weighted = DisjunctiveHKL(C=0.3, tol=1e-5).fit(X, y, sample_weight=w)
    repeated = DisjunctiveHKL(C=0.3, tol=1e-5).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert weighted.solver == "working_set" and weighted.certified_ and repeated.certified_
    _hkl_same_model(weighted, repeated, _data(seed=9)[0])


def test_l1svm_zero_weights_equal_dropped_samples_and_the_path_starts_at_the_weighted_l1_min_c():
    """L1SVMSelector: a zero weight is the fit without that sample; the path's first C is
    scikit-learn's own ``l1_min_c`` of the repeated (scaled) samples, times 1.01; three classes
    and sparse input agree with their repeated and dense fits."""
    from sklearn.svm import l1_min_c

    from fsbook.baselines.svm_selectors import _scaled
    X, y = _data(seed=6)
    w = np.ones(len(y))
    w[[3, 10, 40]] = 0
    keep = w > 0
    for k in (2, 3):
        weighted = L1SVMSelector(k).fit(X, y, sample_weight=w)
        dropped = L1SVMSelector(k).fit(X[keep], y[keep])
        np.testing.assert_array_equal(weighted.get_support(), dropped.get_support())
        np.testing.assert_allclose(weighted.C_, dropped.C_, rtol=1e-12)
        np.testing.assert_allclose(weighted.coef_, dropped.coef_, rtol=1e-4, atol=1e-5)
    rng = np.random.default_rng(7)
    y3 = rng.integers(0, 3, 90)
    X3 = rng.normal(size=(90, 8))
    X3[:, :3] += 1.5 * np.eye(3)[y3]
    w3 = rng.integers(0, 4, 90)
    weighted = L1SVMSelector(3).fit(X3, y3, sample_weight=w3)
    Xr, yr = np.repeat(X3, w3, axis=0), np.repeat(y3, w3)
    repeated = L1SVMSelector(3).fit(Xr, yr)
    np.testing.assert_allclose(weighted.path_[0][0], 1.01 * l1_min_c(_scaled(Xr), yr), rtol=1e-12)
    np.testing.assert_array_equal(weighted.get_support(), repeated.get_support())
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-4, atol=1e-5)
    import scipy.sparse as sp
    sparse = L1SVMSelector(3).fit(sp.csr_matrix(X3), y3, sample_weight=w3)
    np.testing.assert_array_equal(sparse.get_support(), weighted.get_support())
    np.testing.assert_allclose(sparse.coef_, weighted.coef_, rtol=1e-6, atol=1e-8)
    with pytest.raises(ValueError, match="(?i)negative"):
        L1SVMSelector(2).fit(X, y, sample_weight=-np.ones(len(y)))


def test_projection_penalty_svc_refuses_weights_and_says_why():
    from fsbook.projection import ProjectionPenaltySVC
    X, y = _data()
    with pytest.raises(TypeError, match=r"ProjectionPenaltySVC.fit does not take sample_weight: .*reducer"):
        ProjectionPenaltySVC(reduced_penalty=1e-2).fit(X, y, sample_weight=np.ones(len(y)))


def test_pipeline_routes_sample_weight_to_the_selector_and_the_classifier():
    X, y = _data(seed=3)
    w = np.random.default_rng(4).integers(0, 3, len(y)).astype(float)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=False), SVMRFE(2).set_fit_request(sample_weight=True),
                             LogisticRegression().set_fit_request(sample_weight=True))
        pipe.fit(X, y, sample_weight=w)
        Xs = StandardScaler().fit_transform(X)
        sel = SVMRFE(2).fit(Xs, y, sample_weight=w)
        clf = LogisticRegression().fit(sel.transform(Xs), y, sample_weight=w)
    np.testing.assert_array_equal(pipe[1].get_support(), sel.get_support())
    np.testing.assert_allclose(pipe[2].coef_, clf.coef_)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(L1SVMSelector(2).set_fit_request(sample_weight=True),
                             LogisticRegression().set_fit_request(sample_weight=True)).fit(X, y, sample_weight=w)
    alone = L1SVMSelector(2).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(pipe[0].coef_, alone.coef_)
    # a step that does not take weights cannot be asked for them
    from fsbook.baselines import LaplacianScore
    assert not hasattr(LaplacianScore(), "set_fit_request")


class _Spy(BaseEstimator):
    """A selector that records the sample_weight each of its fits received (first feature kept)."""
    seen = []

    def fit(self, X, y, sample_weight=None):
        type(self).seen.append(None if sample_weight is None else np.asarray(sample_weight).copy())
        self.n_features_in_ = X.shape[1]
        return self

    def get_support(self):
        return np.arange(self.n_features_in_) == 0


def test_stability_selection_routes_the_weights_of_each_subsample():
    X, y = _data()
    w = np.arange(len(y), dtype=float)
    _Spy.seen = []
    with sklearn.config_context(enable_metadata_routing=True):
        sel = StabilitySelection(_Spy().set_fit_request(sample_weight=True), n_features_to_select=1,
                                 n_resamples=4).fit(X, y, sample_weight=w)
    assert len(_Spy.seen) == 4
    for seen, idx in zip(_Spy.seen, sel.subsamples_):
        np.testing.assert_array_equal(seen, w[idx])
    # without routing enabled, scikit-learn's own error says how to enable it
    with pytest.raises(ValueError, match="enable_metadata_routing"):
        StabilitySelection(_Spy(), n_resamples=2).fit(X, y, sample_weight=w)
    # through SVMRFE: integer weights on the subsamples equal their repeated rows
    with sklearn.config_context(enable_metadata_routing=True):
        a = StabilitySelection(SVMRFE(2).set_fit_request(sample_weight=True), n_resamples=3,
                               n_features_to_select=2).fit(X, y, sample_weight=np.ones(len(y)))
    b = StabilitySelection(SVMRFE(2), n_resamples=3, n_features_to_select=2).fit(X, y)
    np.testing.assert_array_equal(a.frequencies_, b.frequencies_)


def test_projection_penalty_routes_the_weights_to_its_estimator():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 5))
    y = X @ rng.normal(size=5) + 0.1 * rng.normal(size=50)
    w = rng.integers(1, 4, 50).astype(float)
    with sklearn.config_context(enable_metadata_routing=True):
        model = ProjectionPenalty(Ridge(alpha=1.0).set_fit_request(sample_weight=True), PCA(2),
                                  reduced_penalty=1e-2).fit(X, y, sample_weight=w)
        A = augment_features(X, reduce(model.reducer_, X), model.scale_)
        ridge = Ridge(alpha=1.0).fit(A, y, sample_weight=w)
        np.testing.assert_allclose(model.estimator_.coef_, ridge.coef_, rtol=1e-10)
        unweighted = ProjectionPenalty(Ridge(alpha=1.0), PCA(2), reduced_penalty=1e-2).fit(X, y)
        assert not np.allclose(unweighted.estimator_.coef_, ridge.coef_)
        with pytest.raises(ValueError, match="reduced_penalty=0 is solved exactly for an unweighted"):
            ProjectionPenalty(Ridge().set_fit_request(sample_weight=True), PCA(2),
                              reduced_penalty=0.0).fit(X, y, sample_weight=w)


@pytest.mark.parametrize("discretise", ["mean_std", "none"])
def test_mrmr_weights_are_counts_dense_or_sparse_and_zero_drops_a_sample(discretise):
    """MRMR's weighted mutual informations and discretisation: integer weights give the
    relevances of the repeated samples (to rounding), sparse equals dense, and a zero weight gives
    the selection of the samples without it."""
    import scipy.sparse as sp

    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 90)
    X = rng.normal(size=(90, 10))
    X[:, 0] += y
    if discretise == "none":
        X = np.round(X)
    w = rng.integers(0, 4, 90).astype(float)
    a = MRMR(4, discretise=discretise).fit(X, y, sample_weight=w)
    rep = np.repeat(np.arange(90), w.astype(int))
    b = MRMR(4, discretise=discretise).fit(X[rep], y[rep])
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    np.testing.assert_allclose(a.relevance_, b.relevance_, rtol=1e-12, atol=1e-14)
    c = MRMR(4, discretise=discretise).fit(sp.csr_matrix(X), y, sample_weight=w)
    np.testing.assert_array_equal(a.ranking_, c.ranking_)
    np.testing.assert_allclose(a.relevance_, c.relevance_, rtol=1e-12, atol=1e-14)
    kept = w > 0
    d = MRMR(4, discretise=discretise).fit(X[kept], y[kept], sample_weight=w[kept])
    np.testing.assert_array_equal(a.ranking_, d.ranking_)


@pytest.mark.parametrize("name", sorted(WEIGHTED))
@pytest.mark.parametrize("bad, message", [(-1.0, "Negative values"), (np.nan, "NaN"), (np.inf, "infinity")])
def test_negative_or_non_finite_weights_give_scikit_learns_error(name, bad, message):
    X, y = _data()
    w = np.ones(len(y))
    w[3] = bad
    with pytest.raises(ValueError, match=message):
        _make(name).fit(X, y, sample_weight=w)


def _pls_problem(seed, two_columns):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 6)) + 3.0
    Y = X[:, 0] - 2.0 * X[:, 1] + rng.normal(size=40)
    if two_columns:
        Y = np.c_[Y, X[:, 2] ** 2 + rng.normal(size=40)]
    w = rng.integers(0, 4, 40)
    return X, Y, w, rng.normal(size=(15, 6)) + 3.0


@pytest.mark.parametrize("two_columns", [False, True])
def test_pls_weighted_covariances_give_the_repeated_model(two_columns):
    """ExhaustedSafePLS: integer weights (zeros among them) give the model of the repeated rows:
    rotations, coefficients, intercept, the transform and predictions of held-out points to
    1e-10 (measured: ~3e-15), and x_scores_/y_scores_ are the training samples' scores (each
    repeated row has its sample's); with two columns of y the power method takes the same number
    of iterations.  A zero weight is the fit without the sample, bit for bit."""
    X, Y, w, Xt = _pls_problem(5, two_columns)
    assert (w == 0).sum() > 5
    rep = np.repeat(np.arange(len(w)), w)
    a = ExhaustedSafePLS(4).fit(X, Y, sample_weight=w)
    b = ExhaustedSafePLS(4).fit(X[rep], Y[rep])
    assert a.n_kept_ == b.n_kept_ == 4
    assert a.pls_.n_iter_ == b.pls_.n_iter_
    close = dict(rtol=1e-10, atol=1e-12)
    for attr in ("x_weights_", "x_loadings_", "y_loadings_", "x_rotations_", "coef_", "intercept_"):
        np.testing.assert_allclose(getattr(a.pls_, attr), getattr(b.pls_, attr), **close, err_msg=attr)
    np.testing.assert_allclose(a.transform(Xt), b.transform(Xt), **close)
    np.testing.assert_allclose(a.pls_.predict(Xt), b.pls_.predict(Xt), **close)
    np.testing.assert_allclose(a.pls_.x_scores_[rep], b.pls_.x_scores_, **close)
    np.testing.assert_allclose(a.pls_.y_scores_[rep], b.pls_.y_scores_, **close)
    assert a.pls_.x_scores_.shape == (len(w), 4)
    keep = w > 0
    dropped = ExhaustedSafePLS(4).fit(X[keep], Y[keep], sample_weight=w[keep])
    np.testing.assert_array_equal(dropped.transform(Xt), a.transform(Xt))
    np.testing.assert_array_equal(dropped.pls_.coef_, a.pls_.coef_)


def test_pls_weighted_fit_stops_where_the_repeated_krylov_space_is_exhausted():
    """The centred X of rank 2 (4 columns): the weighted and the repeated fits keep the same 2
    components, and real-valued weights, scaled by 7, give the same directions (PLS's weights,
    rotations and transform do not depend on the weights' total)."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(30, 2)) @ rng.normal(size=(2, 4)) + 1.0
    y = X @ [1.0, -1.0, 0.5, 2.0] + 0.1 * rng.normal(size=30)
    w = rng.integers(0, 3, 30)
    rep = np.repeat(np.arange(30), w)
    a = ExhaustedSafePLS(4).fit(X, y, sample_weight=w)
    b = ExhaustedSafePLS(4).fit(X[rep], y[rep])
    assert a.n_kept_ == b.n_kept_ == 2
    np.testing.assert_allclose(a.transform(X), b.transform(X), rtol=1e-10, atol=1e-12)
    u = rng.uniform(0.1, 2.0, 30)
    c, d = ExhaustedSafePLS(3).fit(X, y, sample_weight=u), ExhaustedSafePLS(3).fit(X, y, sample_weight=7 * u)
    assert c.n_kept_ == d.n_kept_ == 2
    np.testing.assert_allclose(c.transform(X), d.transform(X), rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="every column of X is constant over the samples of positive weight"):
        ExhaustedSafePLS(2).fit(X, y, sample_weight=np.r_[1.0, np.zeros(29)])   # one sample


def _fw_problem(seed, duplicate=False):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], 25)
    X = rng.normal(size=(50, 5))
    X[:, :2] += 1.2 * y[:, None]
    if duplicate:
        X = np.c_[X, X[:, 0]]                       # column 5 equals column 0
    w = rng.integers(0, 4, 50)
    w[[0, -1]] = 1
    return X, y, w


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_feature_weighting_svm_slack_costs_are_the_repeated_problem(C):
    """FeatureWeightingSVM: integer weights give the repeated samples' optimum (objective to a
    relative 1e-7, measured < 1e-8; coefficients to 1e-6, measured < 3e-7; the same selection),
    a zero weight the problem without the sample (the same cone program, so the same numbers),
    sparse X the dense fit's; the samples of positive weight must hold both classes."""
    import scipy.sparse as sp

    X, y, w = _fw_problem(3)
    rep = np.repeat(np.arange(len(y)), w)
    a = FeatureWeightingSVM(C=C).fit(X, y, sample_weight=w)
    b = FeatureWeightingSVM(C=C).fit(X[rep], y[rep])
    np.testing.assert_allclose(a.objective_, b.objective_, rtol=1e-7)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(a.support_, b.support_)
    keep = w > 0
    dropped = FeatureWeightingSVM(C=C).fit(X[keep], y[keep], sample_weight=w[keep])
    np.testing.assert_array_equal(dropped.coef_, a.coef_)
    assert dropped.objective_ == a.objective_
    sparse = FeatureWeightingSVM(C=C).fit(sp.csr_matrix(X), y, sample_weight=w)
    np.testing.assert_allclose(sparse.objective_, a.objective_, rtol=1e-7)
    np.testing.assert_allclose(sparse.coef_, a.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(sparse.support_, a.support_)
    with pytest.raises(ValueError, match="samples of positive weight hold one class"):
        FeatureWeightingSVM(C=C).fit(X, y, sample_weight=(y == 1).astype(float))


def test_feature_weighting_svm_with_a_non_unique_optimum_agrees_on_the_value_and_the_split():
    """Two equal columns (0 and 5) may share their weight in any proportion, so the optimal
    point is not unique: weighted and repeated fits agree on the objective (relative 1e-7) and
    on the pair's total weight d_0 + d_5 (1e-6); the point returned is the even split in both
    (Clarabel's interior-point path ends at the centre of the optimal face), so the selection is
    the same too."""
    X, y, w = _fw_problem(4, duplicate=True)
    rep = np.repeat(np.arange(len(y)), w)
    a = FeatureWeightingSVM(C=1.0).fit(X, y, sample_weight=w)
    b = FeatureWeightingSVM(C=1.0).fit(X[rep], y[rep])
    np.testing.assert_allclose(a.objective_, b.objective_, rtol=1e-7)
    np.testing.assert_allclose(a.feature_weights_[[0, 5]].sum(), b.feature_weights_[[0, 5]].sum(), atol=1e-6)
    for fit in (a, b):
        np.testing.assert_allclose(fit.feature_weights_[0], fit.feature_weights_[5], rtol=1e-6)
    np.testing.assert_array_equal(a.support_, b.support_)


def test_pipeline_routes_sample_weight_to_pls_and_the_feature_weighting_svm():
    X, y = _data(seed=3)
    w = np.random.default_rng(4).integers(0, 3, len(y)).astype(float)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(ExhaustedSafePLS(2).set_fit_request(sample_weight=True),
                             Ridge().set_fit_request(sample_weight=True)).fit(X, y, sample_weight=w)
        pls = ExhaustedSafePLS(2).fit(X, y, sample_weight=w)
        ridge = Ridge().fit(pls.transform(X), y, sample_weight=w)
        np.testing.assert_array_equal(pipe[0].transform(X), pls.transform(X))
        np.testing.assert_array_equal(pipe[1].coef_, ridge.coef_)
        assert not np.allclose(ExhaustedSafePLS(2).fit(X, y).transform(X), pls.transform(X))
        pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=False),
                             FeatureWeightingSVM(C=0.5).set_fit_request(sample_weight=True)).fit(X, y, sample_weight=w)
        svm = FeatureWeightingSVM(C=0.5).fit(StandardScaler().fit_transform(X), y, sample_weight=w)
        np.testing.assert_array_equal(pipe[1].coef_, svm.coef_)
        np.testing.assert_array_equal(pipe.predict(X), svm.predict(StandardScaler().fit_transform(X)))


def test_proj_pls_routes_the_weights_to_ridge_and_to_the_pls_reducer():
    """Proj-PLS (chapter 1's ProjectionPenalty of Ridge with ExhaustedSafePLS): both request the
    weights, and integer weights give the repeated samples' model (coefficients to 1e-8)."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 5))
    y = X @ rng.normal(size=5) + 0.1 * rng.normal(size=50)
    w = rng.integers(0, 4, 50)
    rep = np.repeat(np.arange(50), w)
    with sklearn.config_context(enable_metadata_routing=True):
        weighted = ProjectionPenalty(Ridge(alpha=1.0).set_fit_request(sample_weight=True),
                                     ExhaustedSafePLS(2).set_fit_request(sample_weight=True),
                                     reduced_penalty=1e-2).fit(X, y, sample_weight=w)
    repeated = ProjectionPenalty(Ridge(alpha=1.0), ExhaustedSafePLS(2), reduced_penalty=1e-2).fit(X[rep], y[rep])
    np.testing.assert_allclose(weighted.reducer_.transform(X), repeated.reducer_.transform(X), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(weighted.intercept_, repeated.intercept_, rtol=1e-8, atol=1e-10)


def _weighted_gda_transform(X, y, w, Xt, reg=1e-8):
    """The weighted form of GeneralizedDiscriminantAnalysis (poly kernel of degree 2, its
    defaults), which fsbook does not ship (REFUSALS): with ``p = w/Σw``, ``H_w = I − 1pᵀ``, the
    weighted centred kernel ``K_w = H_w K H_wᵀ`` and ``K̃ = diag(√w) K_w diag(√w) = U Λ Uᵀ``, the
    centred points' coordinates are ``F_i = U_i Λ^{1/2} / √w_i`` (total scatter ``Σ w_i F_iᵀF_i =
    Λ``, as the repeated samples' ``Φ̃ᵀΦ̃``), the class means ``μ_c = Σ_{i∈c} w_i F_i / W_c`` and
    ``S_B = Σ_c W_c μ_c μ_cᵀ``; ``S_B a = λ (Λ + ε λ_max I) a`` as before, and a new point maps to
    ``k_w(x)ᵀ diag(√w) U Λ^{-1/2} a`` with ``k_w(x)`` its kernel row centred by the weighted mean."""
    import scipy.linalg

    from fsbook.projection.reducers import _labels

    keep = w > 0
    X, y, w = X[keep], y[keep], w[keep].astype(float)
    classes, codes = _labels(y)
    est = GeneralizedDiscriminantAnalysis()
    K = est._kernel(X, X)
    p = w / w.sum()
    Kp = K @ p
    root = np.sqrt(w)
    Kt = root[:, None] * (K - Kp[:, None] - Kp[None, :] + p @ Kp) * root[None, :]
    lam, U = np.linalg.eigh((Kt + Kt.T) / 2)
    kept = lam > 1e-10 * lam.max()
    lam, U = lam[kept], U[:, kept]
    onehot = (codes[:, None] == np.arange(classes.size)).astype(float)
    Wc = onehot.T @ w
    means = onehot.T @ (root[:, None] * U * np.sqrt(lam)) / Wc[:, None]
    _, A = scipy.linalg.eigh((means * Wc[:, None]).T @ means, np.diag(lam + reg * lam.max()))
    dual = (root[:, None] * U / np.sqrt(lam)) @ A[:, ::-1][:, :classes.size - 1]
    Kn = est._kernel(Xt, X)
    return (Kn - (Kn @ p)[:, None] - Kp[None, :] + p @ Kp) @ dual


def test_gda_refuses_weights_because_its_signs_are_the_eigensolvers():
    """Why GeneralizedDiscriminantAnalysis keeps its refusal (REFUSALS' measurement): the weighted
    form above gives the repeated samples' transform up to the sign of each component (to a
    relative 1e-9, measured 1e-13), but the signs differ in about half of the components, and
    the unweighted fit itself changes signs when the same rows come in another order."""
    flips = shuffled_flips = 0
    for t in range(20):
        rng = np.random.default_rng(100 + t)
        X, y, w = rng.normal(size=(40, 5)), rng.integers(0, 3, 40), rng.integers(0, 4, 40)
        Xt = rng.normal(size=(10, 5))
        rep = np.repeat(np.arange(40), w)
        repeated = GeneralizedDiscriminantAnalysis().fit(X[rep], y[rep]).transform(Xt)
        weighted = _weighted_gda_transform(X, y, w, Xt)
        sign = np.sign(np.sum(weighted * repeated, axis=0))
        np.testing.assert_allclose(weighted * sign, repeated, rtol=0, atol=1e-9 * np.abs(repeated).max())
        flips += int((sign < 0).sum())
        perm = rng.permutation(rep.size)
        shuffled = GeneralizedDiscriminantAnalysis().fit(X[rep][perm], y[rep][perm]).transform(Xt)
        shuffled_flips += int((np.sum(shuffled * repeated, axis=0) < 0).sum())
    assert flips > 0 and shuffled_flips > 0, (flips, shuffled_flips)
    X, y = _data()
    with pytest.raises(TypeError, match=r"GeneralizedDiscriminantAnalysis.fit does not take sample_weight: "
                                        r"its weighted form .* sign"):
        GeneralizedDiscriminantAnalysis().fit(X, y, sample_weight=np.ones(len(y)))
# ----------------------------------------------------------------------------- HSFS, LDFS, FOHSIC
def _three_classes(n=90, d=10, seed=8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, d))
    X[:, :3] += 1.5 * np.eye(3)[y]
    X[:, 3] += 0.8 * (y == 1)
    w = rng.integers(0, 4, n)
    w[:3] = 1
    return X, y, w, X[:, 4] + 0.5 * X[:, 5] + 0.3 * rng.normal(size=n)


def _relative(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(np.max(np.abs(b)), 1e-300))


@pytest.mark.parametrize("sparse", [False, True])
def test_weighted_hsic_and_lda_criteria_are_those_of_the_repeated_samples(sparse):
    """The weighted criteria at a fixed W: integer weights give the value and gradient of the
    repeated rows to 1e-10 (relative), for both pair kernels, the regression target, the shrunk
    LDA scatter and the restriction to a working set; the Ledoit-Wolf γ too; weights scaled by a
    constant give the same HSIC and fixed-γ LDA criteria."""
    import scipy.sparse as sp

    from fsbook.l1linf import HSICCriterion, LDACriterion
    from fsbook.l1linf.lda import ledoit_wolf_within
    X, y, w, t = _three_classes()
    rows = np.repeat(np.arange(len(y)), w)
    Xin = sp.csr_matrix(np.where(np.abs(X) > 0.7, X, 0.0)) if sparse else X
    W = np.random.default_rng(9).normal(size=(X.shape[1], 3)) * 0.4
    subset = np.array([0, 2, 5, 7])
    pairs = [(HSICCriterion(Xin, y, sample_weight=w, pair_kernel=kernel), HSICCriterion(Xin[rows], y[rows],
                                                                                         pair_kernel=kernel))
             for kernel in ("vectorised", "libm")]
    pairs.append((HSICCriterion(Xin, t, regression=True, sample_weight=w),
                  HSICCriterion(Xin[rows], t[rows], regression=True)))
    pairs += [(LDACriterion(Xin, y, ridge=0.7, shrinkage=g, sample_weight=w),
               LDACriterion(Xin[rows], y[rows], ridge=0.7, shrinkage=g)) for g in (0.0, 0.3)]
    for weighted, repeated in pairs:
        for a, b in ((weighted, repeated), (weighted.restrict(subset), repeated.restrict(subset))):
            Wa = W if a is weighted else W[subset]
            (va, ga), (vb, gb) = a(Wa), b(Wa)
            assert _relative(va, vb) < 1e-10 and _relative(ga, gb) < 1e-10
    assert _relative(ledoit_wolf_within(Xin, y, w), ledoit_wolf_within(Xin[rows], y[rows])) < 1e-10
    scaled = [HSICCriterion(Xin, y, sample_weight=3.7 * w), LDACriterion(Xin, y, shrinkage=0.3, sample_weight=3.7 * w)]
    for a, b in zip(scaled, (pairs[0][0], LDACriterion(Xin, y, shrinkage=0.3, sample_weight=w))):
        assert _relative(a(W)[1], b(W)[1]) < 1e-12
    # Ledoit-Wolf counts Σw samples: 2w is the data repeated twice, not w
    rows2 = np.repeat(np.arange(len(y)), 2 * w)
    assert _relative(ledoit_wolf_within(Xin, y, 2 * w), ledoit_wolf_within(Xin[rows2], y[rows2])) < 1e-10
    assert abs(ledoit_wolf_within(Xin, y, 2 * w) - ledoit_wolf_within(Xin, y, w)) > 1e-3


def _hsfs_ldfs_fohsic():
    return {"HSFS": lambda **kw: HSFS(4, **kw), "HSFS-libm": lambda **kw: HSFS(4, pair_kernel="libm", **kw),
            "LDFS": lambda **kw: LDFS(4, **kw), "LDFS-fixed": lambda **kw: LDFS(4, shrinkage=0.2, **kw),
            "FOHSIC": lambda **kw: FOHSIC(4, **kw)}


def _same_fit(a, b, rtol=1e-8, atol=1e-10):
    np.testing.assert_array_equal(a.get_support(), b.get_support())
    if hasattr(a, "W_"):
        np.testing.assert_allclose(a.W_, b.W_, rtol=rtol, atol=atol)
        assert a.lambda_ == pytest.approx(b.lambda_, rel=rtol)
        np.testing.assert_allclose(a.scale_, b.scale_, rtol=1e-12)
    else:
        np.testing.assert_array_equal(a.ranking_, b.ranking_)
        np.testing.assert_allclose(a.hsic_path_, b.hsic_path_, rtol=rtol, atol=1e-14)


@pytest.mark.parametrize("name", sorted(_hsfs_ldfs_fohsic()))
def test_hsfs_ldfs_fohsic_weights_repeat_drop_and_scale(name):
    """Integer weights give the fit of the repeated rows (support, ranking; W and the HSIC path to
    1e-8), zero weights that of the rows without them, sparse X the dense fit, and weights times
    3.7 the same fit -- except LDFS's Ledoit-Wolf γ, which counts Σw samples."""
    import scipy.sparse as sp
    make = _hsfs_ldfs_fohsic()[name]
    X, y, w, _ = _three_classes()
    rows = np.repeat(np.arange(len(y)), w)
    weighted = make().fit(X, y, sample_weight=w)
    _same_fit(weighted, make().fit(X[rows], y[rows]))
    _same_fit(weighted, make().fit(X[w > 0], y[w > 0], sample_weight=w[w > 0]))
    plain = make().fit(X, y)                         # and the weights matter on these data
    key = "W_" if hasattr(plain, "W_") else "hsic_path_"
    assert not np.allclose(getattr(weighted, key), getattr(plain, key), atol=1e-3)
    Xsp = np.where(np.abs(X) > 0.7, X, 0.0)
    _same_fit(make().fit(sp.csr_matrix(Xsp), y, sample_weight=w), make().fit(Xsp, y, sample_weight=w))
    scaled = make().fit(X, y, sample_weight=3.7 * w)
    if name == "LDFS":                     # γ of Σw samples: 3.7 w is not w
        assert scaled.shrinkage_ != pytest.approx(weighted.shrinkage_, rel=1e-6)
        rows2 = np.repeat(np.arange(len(y)), 2 * w)
        assert make().fit(X, y, sample_weight=2 * w).shrinkage_ == pytest.approx(
            make().fit(X[rows2], y[rows2]).shrinkage_, rel=1e-10)
    else:
        _same_fit(scaled, weighted)


@pytest.mark.parametrize("name", ["HSFS", "FOHSIC"])
def test_hsfs_fohsic_weighted_regression_target_is_the_repeated_one(name):
    """A regression target standardised by its weighted mean and s.d.: integer weights give the
    fit of the repeated samples; a target constant on the samples of positive weight is refused."""
    make = _hsfs_ldfs_fohsic()[name]
    X, _, w, t = _three_classes()
    rows = np.repeat(np.arange(len(t)), w)
    _same_fit(make().fit(X, t, sample_weight=w), make().fit(X[rows], t[rows]))
    t2 = np.where(w > 0, 1.0, t)
    with pytest.raises(ValueError, match="constant"):
        make().fit(X, t2, sample_weight=w)


@pytest.mark.parametrize("make", [HSFS, LDFS, FOHSIC], ids=["HSFS", "LDFS", "FOHSIC"])
def test_hsfs_ldfs_fohsic_refuse_bad_weights(make):
    """Negative, non-finite, wrongly shaped or all-zero weights: scikit-learn's errors; weights
    that leave one class: a ValueError naming it."""
    X, y, w, _ = _three_classes()
    bad = [(-np.ones(len(y)), "(?i)negative"), (np.full(len(y), np.nan), "(?i)nan"),
           (np.full(len(y), np.inf), "(?i)infinity"), (np.ones(len(y) - 1), "shape"),
           (np.zeros(len(y)), "(?i)non-zero")]
    for weights, match in bad:
        with pytest.raises(ValueError, match=match):
            make(2).fit(X, y, sample_weight=weights)
    with pytest.raises(ValueError, match="at least two classes with a positive sample_weight"):
        make(2).fit(X, y, sample_weight=(y == 1).astype(float))


def test_ldfs_weights_that_drop_a_class_equal_the_fit_without_it():
    """A class whose samples all have weight 0 is the fit without that class (its n_components
    counts the classes of positive weight)."""
    X, y, w, _ = _three_classes()
    w = np.where(y == 2, 0, w)
    keep = w > 0
    a, b = LDFS(4).fit(X, y, sample_weight=w), LDFS(4).fit(X[keep], y[keep], sample_weight=w[keep])
    assert a.n_components_ == b.n_components_ == 1
    _same_fit(a, b)
    _same_fit(HSFS(4).fit(X, y, sample_weight=w), HSFS(4).fit(X[keep], y[keep], sample_weight=w[keep]))


@pytest.mark.parametrize("name", sorted(WEIGHTED))
def test_pipeline_routes_sample_weight_to_every_weighted_estimator(name):
    """``set_fit_request(sample_weight=True)`` on the selector or transformer: the Pipeline's step is the weighted
    fit (bit for bit), not the unweighted one."""
    X, y = _data(seed=3)
    w = np.random.default_rng(5).integers(0, 4, len(y)).astype(float)   # weights that change every fit
    w[[0, -1]] = 1
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(_make(name).set_fit_request(sample_weight=True),
                             LogisticRegression().set_fit_request(sample_weight=True)).fit(X, y, sample_weight=w)
    alone = _make(name).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(_fitted(name, pipe[0]), _fitted(name, alone))
    assert not np.array_equal(_fitted(name, pipe[0]), _fitted(name, _make(name).fit(X, y)))


def test_relief_refuses_weights_for_the_reason_it_gives():
    """Relief's refusal quotes a measurement: doubling every sample of 60 Gaussian points moves
    the second feature's ReliefF importance from 0.033 to 0.056 (a copy is a nearest hit at
    distance 0), so no instance weight equals repeated samples."""
    from fsbook.baselines import Relief
    X = np.random.default_rng(0).normal(size=(60, 5))
    y = (X[:, 0] > 0).astype(int)
    once = Relief().fit(X, y).feature_importances_
    twice = Relief().fit(np.repeat(X, 2, axis=0), np.repeat(y, 2)).feature_importances_
    assert (round(once[1], 3), round(twice[1], 3)) == (0.033, 0.056)
    assert "from 0.033 to 0.056" in REFUSALS["Relief"]
    with pytest.raises(TypeError, match="Relief.fit does not take sample_weight: ReliefF averages"):
        Relief().fit(X, y, sample_weight=np.ones(len(y)))

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
from fsbook.baselines import MRMR, SVMRFE, L1SVMSelector, StabilitySelection, ZeroNormSVM
from fsbook.capabilities import capability_table, probe_instance, public_estimators
from fsbook.hkl import DisjunctiveHKL, DisjunctiveHKLCV, HKLRanker
from fsbook.projection import ProjectionPenalty
from fsbook.projection.linear import augment_features, reduce

#: the estimators that take sample_weight, and the fitted attribute compared across fits
WEIGHTED = {"SVMRFE": "ranking_", "ZeroNormSVM": "coef_", "L1SVMSelector": "coef_", "MRMR": "relevance_",
            "DisjunctiveHKL": "coef_", "DisjunctiveHKLCV": "coef_", "HKLRanker": "scores_"}
#: the HKL estimators: the same optimum to the duality-gap tolerance, not bit for bit
HKL = {"DisjunctiveHKL", "DisjunctiveHKLCV", "HKLRanker"}
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
            "DisjunctiveHKL": lambda: DisjunctiveHKL(C=0.3, tol=1e-5, **kw),
            "DisjunctiveHKLCV": lambda: DisjunctiveHKLCV(tol=1e-5, **kw),
            "HKLRanker": lambda: HKLRanker(n_features_to_select=2, tol=1e-5, **kw)}[name]()


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
    from fsbook.baselines import FOHSIC
    X, y = _data()
    with pytest.raises(TypeError, match=r"FOHSIC.fit does not take sample_weight: a weighted form "
                                        r"of its HSIC criterion"):
        FOHSIC(2).fit(X, y, sample_weight=np.ones(len(y)))


@pytest.mark.parametrize("name", sorted(WEIGHTED))
def test_weights_of_ones_equal_no_weights(name):
    X, y = _data()
    a = getattr(_make(name).fit(X, y), WEIGHTED[name])
    b = getattr(_make(name).fit(X, y, sample_weight=np.ones(len(y))), WEIGHTED[name])
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", sorted(WEIGHTED))
def test_integer_weights_equal_repeated_samples(name):
    X, y = _data(seed=1)
    w = np.random.default_rng(2).integers(0, 4, len(y))
    w[[0, -1]] = 1                                   # both classes keep a sample
    weighted, repeated = _make(name), _make(name)
    _same_folds(weighted, repeated, w)
    weighted.fit(X, y, sample_weight=w)
    repeated.fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    if hasattr(weighted, "get_support"):
        np.testing.assert_array_equal(weighted.get_support(), repeated.get_support())
    if name in ("ZeroNormSVM", "L1SVMSelector"):     # the same optimum, to liblinear's tolerance
        np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=1e-4, atol=1e-5)
    elif name in HKL:                                # the same optimum, to the duality gap
        _hkl_same_model(weighted, repeated, _data(seed=9)[0])
        if name == "HKLRanker":
            np.testing.assert_allclose(weighted.scores_, repeated.scores_, rtol=1e-3)
    else:                                            # the whole elimination order
        np.testing.assert_array_equal(weighted.ranking_, repeated.ranking_)
    # and the weights matter: unit weights rank otherwise, or fit other numbers, on these data
    plain = _make(name)
    _same_folds(plain, _make(name), np.ones(len(y), dtype=int))
    plain = np.asarray(getattr(plain.fit(X, y), WEIGHTED[name]), float)
    fitted = np.asarray(getattr(weighted, WEIGHTED[name]), float)
    assert plain.shape != fitted.shape or not np.allclose(plain, fitted, atol=1e-3)


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
    from fsbook.baselines import FOHSIC
    assert not hasattr(FOHSIC(), "set_fit_request")


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

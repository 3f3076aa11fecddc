"""DisjunctiveHKL / DisjunctiveHKLCV: API, input validation, scikit-learn checks."""
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.multiclass import OneVsRestClassifier
from sklearn_checks import parametrize_with_checks

from fsbook.hkl import C_LADDER, DisjunctiveHKL, DisjunctiveHKLCV, c_start, disjunctive_hkl_path


def _data(seed=0, m=60, n=6):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(float)
    y = np.where((X[:, 0] + X[:, 1] > 0) ^ (rng.random(m) < 0.05), "yes", "no")
    return X, y


def test_fit_api_names_transform():
    X, y = _data()
    df = pd.DataFrame(X, columns=[f"w{i}" for i in range(X.shape[1])])
    est = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-3).fit(df, y)
    assert list(est.classes_) == ["no", "yes"]
    assert est.duality_gap_ <= 1e-3 and est.n_iter_ == len(est.history_)
    assert {"iteration", "n_active", "gap"} <= set(est.history_.columns)
    assert est.disjunctions_ and all(isinstance(v, tuple) for v in est.disjunctions_)
    assert list(est.feature_names_in_) == list(df.columns)
    assert all(n.startswith("w") for v in est.disjunction_names_ for n in v)
    assert set(est.disjunctions_[0]) <= {0, 1}            # features 0 and 1 carry the label
    T = est.transform(df)
    assert T.dtype == bool and T.shape == (len(X), len(est.disjunctions_))
    f = est.decision_function(df)
    assert np.mean(est.predict(df) == y) > 0.9
    np.testing.assert_array_equal(est.predict(df), np.where(f > 0, "yes", "no"))
    # sparse input gives the same model; names default to x0, x1, ...
    est2 = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-3).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(est2.decision_function(sp.csr_matrix(X)), f, rtol=1e-6, atol=1e-6)
    assert not hasattr(est2, "feature_names_in_")
    out = est.get_feature_names_out()
    assert out[0].startswith("w") and len(out) == len(est.disjunctions_)
    renamed = est2.get_feature_names_out([f"v{i}" for i in range(X.shape[1])])
    assert [s.replace("v", "w") for s in renamed] == list(out)
    with pytest.raises(ValueError):
        est.get_feature_names_out(["a", "b"])


def test_binarize_default_and_none():
    X, y = _data(1)
    counts = X * np.random.default_rng(0).integers(1, 5, X.shape)      # word counts
    a = DisjunctiveHKL(C=10.0, beta=2.0).fit(counts, y)
    b = DisjunctiveHKL(C=10.0, beta=2.0, binarize=None).fit(X, y)
    np.testing.assert_allclose(a.decision_function(counts), b.decision_function(X), atol=1e-8)
    with pytest.raises(ValueError, match="binarize=None"):
        DisjunctiveHKL(binarize=None).fit(counts, y)
    c = DisjunctiveHKL(C=10.0, beta=2.0, binarize=1.5).fit(counts, y)  # x > 1.5
    assert c.n_features_in_ == X.shape[1]


def test_parametrisation_single_feature_cost_mu():
    """δ_v = μ β^{|v|−1}: with a large β no disjunction pays off, and the single-feature
    model does not depend on β (only μ prices single features)."""
    X, y = _data(2, m=80)
    a = DisjunctiveHKL(C=1.0, beta=1e3, mu=0.5, tol=1e-4).fit(X, y)
    b = DisjunctiveHKL(C=1.0, beta=1e4, mu=0.5, tol=1e-4).fit(X, y)
    assert all(len(v) == 1 for v in a.disjunctions_ + b.disjunctions_)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), rtol=1e-3, atol=1e-3)
    small = DisjunctiveHKL(C=1.0, beta=1.0, mu=0.5, tol=1e-4).fit(X, y)
    assert any(len(v) > 1 for v in small.disjunctions_)


def test_feature_weights_change_the_model():
    X, y = _data(1)
    w = np.ones(X.shape[1])
    w[0] = 50.0                       # make feature 0 very expensive
    est = DisjunctiveHKL(C=10.0, beta=2.0, feature_weights=w).fit(X, y)
    assert all(0 not in v for v in est.disjunctions_[:1])


@pytest.mark.parametrize("X,y,msg", [
    (np.array([[0, 2.0], [1, 0]]), [0, 1], "boolean"),
    (np.array([[0, np.nan], [1, 0]]), [0, 1], "NaN"),
    (np.array([[0, 1.0], [1, 0]]), [1, 1], "class"),
    (np.array([[0, 1.0], [1, 0], [1, 1]]), [0, 1, 2], "OneVsRestClassifier"),
])
def test_input_errors(X, y, msg):
    with pytest.raises(ValueError, match=msg):
        DisjunctiveHKL(binarize=None).fit(X, y)


@pytest.mark.parametrize("params", [dict(p=1.0), dict(p=2.5), dict(C=0), dict(tol=0), dict(tol=2),
                                    dict(max_active=0), dict(max_iter=1.5), dict(mu=-1),
                                    dict(beta="big"), dict(max_add=0)])
def test_parameter_validation(params):
    X, y = _data()
    with pytest.raises(ValueError):
        DisjunctiveHKL(**params).fit(X, y)


def test_bad_inputs_after_fit():
    X, y = _data()
    with pytest.raises(ValueError, match="feature_weights"):
        DisjunctiveHKL(feature_weights=np.ones(2)).fit(X, y)
    est = DisjunctiveHKL(beta=2.0, binarize=None).fit(X, y)
    with pytest.raises(ValueError):
        est.predict(np.full((2, X.shape[1]), 0.5))
    with pytest.raises(ValueError):
        est.predict(np.ones((2, X.shape[1] + 1)))


def test_one_vs_rest_with_sklearn_wrapper():
    rng = np.random.default_rng(3)
    X = (rng.random((90, 5)) < 0.3).astype(float)
    y = np.select([X[:, 0] > 0, X[:, 1] > 0], ["a", "b"], "c")
    est = OneVsRestClassifier(DisjunctiveHKL(C=10.0, beta=2.0)).fit(X, y)
    assert len(est.estimators_) == 3
    assert np.mean(est.predict(X) == y) > 0.8


def test_cv_chooses_on_the_path_and_refits():
    X, y = _data(4, m=90)
    cvm = DisjunctiveHKLCV(Cs=[0.01, 1.0, 30.0], betas=[2.0, 50.0], cv=3).fit(X, y)
    res = cvm.cv_results_
    assert len(res) == 6 and {"mean_accuracy", "fold0_accuracy", "mean_multi_feature"} <= set(res)
    best = res.mean_accuracy.max()
    assert res.loc[(res.C == cvm.C_) & (res.beta == cvm.beta_), "mean_accuracy"].item() == best
    # the refitted model is the plain estimator at the chosen values
    ref = DisjunctiveHKL(C=cvm.C_, beta=cvm.beta_).fit(X, y)
    assert isinstance(cvm.estimator_, DisjunctiveHKL) and not isinstance(cvm, DisjunctiveHKL)
    assert cvm.objective_ == pytest.approx(ref.objective_, rel=1e-12)
    assert cvm.disjunctions_ == ref.disjunctions_ and cvm.certified_
    assert np.mean(cvm.predict(X) == y) > 0.85
    with pytest.raises(ValueError, match="Cs"):
        DisjunctiveHKLCV(Cs=[-1.0]).fit(X, y)


def test_gridsearchcv_support():
    from sklearn.model_selection import GridSearchCV
    X, y = _data(5, m=80)
    gs = GridSearchCV(DisjunctiveHKL(beta=2.0), {"C": [0.1, 10.0]}, cv=3).fit(X, y)
    assert gs.best_params_["C"] in (0.1, 10.0)


def test_cv_accepts_splitters_and_split_lists():
    from sklearn.model_selection import StratifiedKFold
    X, y = _data(4, m=90)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    a = DisjunctiveHKLCV(Cs=[0.1, 10.0], cv=cv).fit(X, y)
    b = DisjunctiveHKLCV(Cs=[0.1, 10.0], cv=list(cv.split(X, y))).fit(X, y)
    c = DisjunctiveHKLCV(Cs=[0.1, 10.0], cv=3, random_state=0).fit(X, y)
    for m in (b, c):
        pd.testing.assert_frame_equal(a.cv_results_, m.cv_results_)


def test_warm_path_matches_cold_fits():
    """Each point of the warm-started path: same objective as a cold fit (within the
    certified tolerance) and the same selected disjunctions."""
    X, y = _data(6, m=80)
    ys = np.where(y == "yes", 1.0, -1.0)
    Cs = [0.1, 1.0, 10.0, 100.0]
    for C, res in disjunctive_hkl_path(X, ys, Cs, beta=2.0, tol=1e-5):
        cold = DisjunctiveHKL(C=C, beta=2.0, tol=1e-5).fit(X, y)
        assert res["converged"] and cold.certified_
        assert res["primal"] == pytest.approx(cold.objective_, rel=3e-5)
        w = np.abs(res["w"])
        warm_sel = {v for v, wv in zip(res["nodes"], w) if v and wv > 1e-2 * w.max()}
        cold_sel = {v for v, wv in zip(cold.disjunctions_, np.abs(cold.coef_))
                    if wv > 1e-2 * np.abs(cold.coef_).max()}
        assert warm_sel == cold_sel


def test_data_driven_c_rule():
    """The rule: the start is c_start snapped down to the ladder (independent recomputation),
    the path climbs the ladder, stops `patience` steps after the last improvement by more than
    1/(2m), and ties go to the smaller C."""
    from fsbook.hkl import estimator as E
    from fsbook.hkl.solver import HKLProblem, source_scores
    X, y = _data(7, m=60)
    ys = np.where(y == "yes", 1.0, -1.0)
    beta = 2.0
    # start: 1ᵀa / max_t Q(t) at the empty model's dual point, snapped down to the ladder
    pos = ys > 0
    a = np.where(pos, 1.0, pos.sum() / (~pos).sum()) if pos.sum() <= (~pos).sum() else \
        np.where(pos, (~pos).sum() / pos.sum(), 1.0)
    prob = HKLProblem(X, ys, omega=np.full(X.shape[1], beta), delta_top=1.0, delta_node=1 / beta)
    q = np.exp(source_scores(prob, a * ys, [(i,) for i in range(X.shape[1])])).max()
    kappa = a.sum() / q
    c0 = c_start(X, ys, beta)
    assert c0 in C_LADDER and c0 <= kappa < C_LADDER[C_LADDER.index(c0) + 1]
    # stopping: improvements by more than tie_tol = 1/(2m) reset the count
    m = 60
    tie = 0.5 / m
    scores = [0.5, 0.6, 0.6 + 0.4 / m, 0.6, 0.9]
    assert [E.path_stops(scores[:k], tie, 2) for k in range(1, 6)] == \
        [False, False, False, True, False]
    assert E.path_stops([0.5, 0.5 + 1.0 / m, 0.5 + 2.0 / m], tie, 1) is False
    # the estimator: ties within 1/(2m) go to the smaller C; the path respects patience
    est = DisjunctiveHKLCV(betas=[beta], patience=2, max_Cs=6).fit(X, y)
    res = est.cv_results_
    assert est.Cs_.tolist() == [c for c in C_LADDER if c >= c0][: len(est.Cs_)]
    assert len(est.Cs_) == 6 or E.path_stops(res.mean_accuracy.tolist(), 0.5 / len(y), 2)
    assert not any(E.path_stops(res.mean_accuracy.tolist()[:k], 0.5 / len(y), 2)
                   for k in range(1, len(res)))
    top = res.mean_accuracy.max()
    assert est.C_ == res.C[res.mean_accuracy >= top - 0.5 / len(y)].min()


@parametrize_with_checks([DisjunctiveHKL(), DisjunctiveHKLCV()])
def test_sklearn_check_estimator(estimator, check):
    """A default-constructed estimator passes scikit-learn's checks (binarize=0.0 by default)."""
    check(estimator)


def test_conic_solver_option_and_stop_reason():
    """solver="conic" gives the certified model of the reference solver; a fit that reaches
    its node budget reports certified_ = False and stop_reason_ = "max_active"."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    X, y = _data(6, m=80)
    a = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-5).fit(X, y)
    b = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-5, solver="conic", max_active=None).fit(X, y)
    assert a.certified_ and b.certified_ and b.stop_reason_ == "certified"
    assert b.objective_ == pytest.approx(a.objective_, rel=2e-5)
    fa, fb = a.decision_function(X), b.decision_function(X)
    np.testing.assert_allclose(fb, fa, atol=0.02 * np.abs(fa).max())
    with pytest.warns(ConvergenceWarning, match="max_active"):
        c = DisjunctiveHKL(C=10.0, beta=2.0, solver="conic", max_active=1, max_add=1).fit(X, y)
    assert not c.certified_ and c.stop_reason_ == "max_active" and c.duality_gap_ > c.tol
    cv = DisjunctiveHKLCV(Cs=[1.0, 10.0], solver="conic").fit(X, y)
    assert cv.estimator_.solver == "conic" and cv.certified_
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        DisjunctiveHKLCV(Cs=[1.0, 10.0], solver="conic", max_active=None).fit(X, y)


def test_cv_one_class_column_matches_cold_fold_fits():
    """``cv_results_["one_class"]``: whether the fold fits at a C predict one class on all the
    validation points pooled, checked against a cold :class:`DisjunctiveHKL` per fold and C."""
    X, y = _data(6, m=60)                                      # tiny C: the empty model
    Cs = [1e-3, 1.0, 30.0]
    cvm = DisjunctiveHKLCV(Cs=Cs, betas=[2.0], cv=3, tol=1e-6).fit(X, y)
    folds = cvm._folds(np.where(y == cvm.classes_[1], 1.0, -1.0))
    for C, one_class in zip(cvm.cv_results_.C, cvm.cv_results_.one_class):
        pred = np.concatenate([DisjunctiveHKL(C=C, beta=2.0, tol=1e-6).fit(X[tr], y[tr]).predict(X[va])
                               for tr, va in folds])
        assert one_class == (np.unique(pred).size < 2)
    assert cvm.cv_results_.one_class.iloc[0] and not cvm.cv_results_.one_class.all()


def test_cv_ties_prefer_a_two_class_fit():
    """Breast cancer, outer fold 3 of chapter 6: the smallest C's fits predict one class on every
    validation point, and C = 3 ties with them (within half a sample).  ``tie="simplest"``
    (the smaller C) picks the majority-rate model; the default takes the tied two-class fit."""
    from fsbook.experiments import hkl as H

    X, y, _, split = H.data.load_table1("breast_cancer")
    tr, _ = H.folds.table_folds(y, split)[3]
    kw = dict(cv=3, random_state=3007, tol=H.paper.HKL_TOL, solver="conic", max_active=None, max_iter=None)
    old = DisjunctiveHKLCV(tie="simplest", **kw).fit(X[tr], y[tr])
    new = DisjunctiveHKLCV(**kw).fit(X[tr], y[tr])
    pd.testing.assert_frame_equal(old.cv_results_, new.cv_results_)     # the same CV path
    res = new.cv_results_.set_index("C")
    assert res.loc[old.C_, "one_class"] and not res.loc[new.C_, "one_class"]
    assert res.loc[new.C_, "mean_accuracy"] >= res.mean_accuracy.max() - 0.5 / len(tr)
    assert new.C_ > old.C_


def test_working_set_solver_option():
    """solver="working_set" is the default (with max_add=200) and, through every entry point
    (DisjunctiveHKL, DisjunctiveHKLCV's warm-started path, HKLRanker), gives the certified
    models of solver="conic": the same objectives within the tolerance, the same decision values
    up to it, the same cross-validated accuracies along the path."""
    from fsbook.hkl import HKLRanker
    assert DisjunctiveHKL().solver == DisjunctiveHKLCV().solver == HKLRanker().solver == "working_set"
    assert DisjunctiveHKL().max_add == DisjunctiveHKLCV().max_add == HKLRanker().max_add == 200
    X, y = _data(6, m=80)
    a = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-5, solver="conic").fit(X, y)
    b = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-5, solver="working_set").fit(X, y)
    assert a.certified_ and b.certified_ and b.stop_reason_ == "certified"
    assert b.objective_ == pytest.approx(a.objective_, rel=2e-5)
    fa, fb = a.decision_function(X), b.decision_function(X)
    np.testing.assert_allclose(fb, fa, atol=0.02 * np.abs(fa).max())
    assert "working_samples" in b.history_.columns
    kw = dict(Cs=[0.1, 1.0, 10.0, 100.0], betas=[2.0], tol=1e-5)
    cva = DisjunctiveHKLCV(solver="conic", **kw).fit(X, y)
    cvb = DisjunctiveHKLCV(solver="working_set", **kw).fit(X, y)
    assert cvb.estimator_.solver == "working_set" and cvb.certified_
    assert cvb.cv_results_.certified.all()
    np.testing.assert_allclose(cvb.cv_results_.mean_accuracy, cva.cv_results_.mean_accuracy)
    assert cvb.C_ == cva.C_
    Xb = (X > 0).astype(float)
    ra = HKLRanker(2, boolean=True, tol=1e-5, solver="conic").fit(Xb, y)
    rb = HKLRanker(2, boolean=True, tol=1e-5, solver="working_set").fit(Xb, y)
    assert rb.models_[0].estimator_.solver == "working_set"
    assert ra.get_support(indices=True).tolist() == rb.get_support(indices=True).tolist()
    with pytest.raises(ValueError, match="solver"):
        DisjunctiveHKL(solver="fista").fit(X, y)

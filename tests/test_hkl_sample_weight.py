"""Sample weights in disjunctive HKL: the weighted problem (1), ``½ Ω(w)² + C Σ_i s_i ξ_i``.

Every restricted solver (conic, mirror descent with each inner SVM, working set, variational)
reaches the weighted optimum computed independently on the whole lattice by cvxpy, with a
certificate that bounds the true gap at every active-set iteration; integer weights give the fit
of the repeated samples, zero weights that of the samples left out, weights of ones that of no
weights; DisjunctiveHKLCV weights its inner fits and its validation accuracy; HKLRanker its
quartiles and its models; a Pipeline routes the weights.  (The generic checks are in
``tests/test_sample_weight.py``, scikit-learn's ``check_sample_weight_equivalence_*`` in the
``check_estimator`` runs of ``tests/test_hkl_estimator.py`` and ``tests/test_public_estimators.py``.)
"""
import warnings

import cvxpy as cp
import naive as nv
import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.exceptions import ConvergenceWarning

from fsbook.hkl import DisjunctiveHKL, DisjunctiveHKLCV, HKLProblem, HKLRanker, c_start, solve_active_set
from fsbook.hkl.smo import clarabel_svm, ipm_svm, smo_svm

TOL = 1e-5


def _data(seed, m=40, n=5):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(float)
    y = np.where((X[:, 0] + X[:, 1] > 0) ^ (rng.random(m) < 0.15), 1.0, -1.0)
    w = rng.integers(0, 4, m)
    w[np.argmax(y > 0)] = w[np.argmax(y < 0)] = 1     # both classes keep a sample
    return X, y, w


def _weighted_brute_force(X, y, C, p, omega, delta_top, delta_node, sw):
    """Problem (1) with the hinge loss weighted by ``sw``, over all 2^n − 1 nodes (cvxpy)."""
    n = X.shape[1]
    nodes, groups = nv.norm_matrices(n, omega, delta_top, delta_node)
    Psi = nv.node_values(X, nodes)
    w = cp.Variable(len(nodes))
    b = cp.Variable()
    Om = sum(d * cp.pnorm(w[mem], p) for d, mem in groups)
    hinge = cp.pos(1 - cp.multiply(y, Psi @ w + b))
    pr = cp.Problem(cp.Minimize(0.5 * cp.square(Om) + C * cp.sum(cp.multiply(sw, hinge))))
    pr.solve(solver=cp.CLARABEL)
    return pr.value, nodes, w.value, b.value


#: (solver, inner SVM, p): every restricted solver, mirror descent with each inner SVM
SOLVERS = [("conic", "auto", 2.0), ("conic", "auto", 1.5), ("working_set", "auto", 2.0),
           ("variational", "auto", 2.0), ("mirror", "smo", 2.0), ("mirror", "ipm", 2.0),
           ("mirror", "libsvm", 2.0), ("mirror", "auto", 1.5)]


def _problem(X, y, C, p, sw, inner="auto", n=5):
    return HKLProblem(X, y, C=C, p=p, omega=np.full(n, 2.0), delta_top=1.0, delta_node=0.25,
                      sample_weight=sw, inner=inner)


def _solve(prob, solver, trace=None):
    cb = None if trace is None else (lambda nodes, ev, rec: trace.append(rec))
    return solve_active_set(prob, tol=TOL, max_add=3, max_active=None, solver=solver, callback=cb)


@pytest.mark.parametrize("solver, inner, p", SOLVERS)
def test_weighted_certificate_against_the_weighted_brute_force(solver, inner, p):
    """The certified optimum of the weighted problem is cvxpy's weighted optimum on the whole
    lattice (objective to the gap tolerance, decision values to 2 % of their scale), and at every
    iteration the certificate's dual value is a lower bound of it and the certified gap bounds
    the true gap: the weights enter the loss, the dual box and the gap consistently."""
    X, y, w = _data(3)
    sw = w.astype(float)
    keep = sw > 0
    C = 3.0
    val, nodes, wbf, bbf = _weighted_brute_force(X, y, C, p, np.full(5, 2.0), 1.0, 0.25, sw)
    unweighted, *_ = nv.brute_force_primal(X, y, C, p, np.full(5, 2.0), 1.0, 0.25)
    assert abs(val - unweighted) > 0.05 * val              # the weights change the problem
    trace = []
    r = _solve(_problem(X[keep], y[keep], C, p, sw[keep], inner), solver, trace)
    assert r["converged"] and r["gap"] <= TOL
    assert val * (1 - 1e-7) <= r["primal"] <= val * (1 + 2 * TOL)
    for rec in trace:
        assert rec["dual"] <= val * (1 + 1e-6)
        assert rec["gap"] >= (rec["primal"] - val) / rec["primal"] - 1e-9
    f_bf = nv.node_values(X, nodes) @ wbf + bbf
    f_as = nv.node_values(X, r["nodes"]) @ r["w"] + r["b"]
    np.testing.assert_allclose(f_as, f_bf, atol=0.02 * np.abs(f_bf).max())
    # the dual point is in the weighted box 0 ≤ α_i ≤ C s_i, with yᵀα = 0
    alpha = np.abs(r["c"])
    assert np.all(alpha <= C * sw[keep] * (1 + 1e-12)) and abs(float(r["c"].sum())) <= 1e-8 * C


@pytest.mark.parametrize("solver, inner, p", SOLVERS)
def test_integer_weights_equal_repeated_samples_for_every_solver(solver, inner, p):
    """Integer weights solve the problem of the repeated samples: the same objective (to the
    gap tolerance), the same nodes with weight, the same decision values (to 1e-3 of their
    scale), and the same dual sum 1ᵀα (the dual of repeated copies adds up to the weighted one)."""
    X, y, w = _data(5, m=50)
    keep = w > 0
    a = _solve(_problem(X[keep], y[keep], 10.0, p, w[keep].astype(float), inner), solver)
    b = _solve(_problem(np.repeat(X, w, 0), np.repeat(y, w), 10.0, p, None, inner), solver)
    assert a["converged"] and b["converged"]
    np.testing.assert_allclose(a["primal"], b["primal"], rtol=2 * TOL)

    def used(r):
        s = np.abs(r["w"]).max()
        return {v for v, x in zip(r["nodes"], r["w"]) if v and abs(x) > 1e-3 * s}
    assert used(a) == used(b)
    Xt = (np.random.default_rng(0).random((30, 5)) < 0.3).astype(float)
    fa = nv.node_values(Xt, a["nodes"]) @ a["w"] + a["b"]
    fb = nv.node_values(Xt, b["nodes"]) @ b["w"] + b["b"]
    np.testing.assert_allclose(fa, fb, atol=1e-3 * np.abs(fb).max())
    np.testing.assert_allclose(np.abs(a["c"]).sum(), np.abs(b["c"]).sum(), rtol=1e-3)


@pytest.mark.parametrize("solver", ["conic", "mirror", "working_set", "variational"])
def test_estimator_weights_ones_zeros_and_repeats(solver):
    """DisjunctiveHKL: weights of ones give the unweighted fit (to 1e-9), zero weights give the
    fit without those samples exactly (they are left out), integer weights the fit of the
    repeated samples (same disjunctions, objective to the gap tolerance, decision values on
    held-out points to 1e-3 of their scale)."""
    X, y, w = _data(7, m=60, n=6)
    Xt = (np.random.default_rng(1).random((40, 6)) < 0.3).astype(float)
    kw = dict(C=3.0, beta=2.0, tol=TOL, solver=solver)
    plain = DisjunctiveHKL(**kw).fit(X, y)
    ones = DisjunctiveHKL(**kw).fit(X, y, sample_weight=np.ones(len(y)))
    assert ones.disjunctions_ == plain.disjunctions_
    np.testing.assert_allclose(ones.decision_function(Xt), plain.decision_function(Xt), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ones.objective_, plain.objective_, rtol=1e-9)
    keep = w > 0
    zero = DisjunctiveHKL(**kw).fit(X, y, sample_weight=w)
    dropped = DisjunctiveHKL(**kw).fit(X[keep], y[keep], sample_weight=w[keep])
    assert zero.disjunctions_ == dropped.disjunctions_
    np.testing.assert_array_equal(zero.decision_function(Xt), dropped.decision_function(Xt))
    assert zero.objective_ == dropped.objective_ and zero.duality_gap_ == dropped.duality_gap_
    rep = DisjunctiveHKL(**kw).fit(np.repeat(X, w, 0), np.repeat(y, w))
    assert zero.certified_ and rep.certified_
    assert sorted(zero.disjunctions_) == sorted(rep.disjunctions_)
    np.testing.assert_allclose(zero.objective_, rep.objective_, rtol=2 * TOL)
    fr = rep.decision_function(Xt)
    np.testing.assert_allclose(zero.decision_function(Xt), fr, atol=1e-3 * np.abs(fr).max())
    # and the weights matter here
    assert not np.allclose(plain.decision_function(Xt), fr, atol=1e-2)


def test_weighted_estimator_objective_is_the_weighted_primal():
    """objective_ is ½ Ω(w)² + C Σ s_i ξ_i of the fitted model, recomputed from its weights on
    the whole lattice (Ω by :func:`naive.norm_matrices`), and it is within the certified gap of
    cvxpy's weighted optimum."""
    X, y, w = _data(11, m=50)
    sw = w * 0.7                      # non-integer weights
    est = DisjunctiveHKL(C=2.0, beta=2.0, mu=0.5, tol=TOL).fit(X, y, sample_weight=sw)
    nodes, groups = nv.norm_matrices(5, np.full(5, 2.0), 1.0, 0.25)
    wfull = np.zeros(len(nodes))
    for v, x in zip(est.nodes_, est.weights_):
        if v:
            wfull[nodes.index(tuple(sorted(v)))] = x
    omega = sum(d * np.linalg.norm(wfull[mem]) for d, mem in groups)
    f = est.decision_function(X)
    ys = np.where(y > 0, 1.0, -1.0)
    primal = 0.5 * omega ** 2 + 2.0 * float(sw @ np.maximum(0.0, 1 - ys * f))
    np.testing.assert_allclose(est.objective_, primal, rtol=1e-9)
    val, *_ = _weighted_brute_force(X, ys, 2.0, 2.0, np.full(5, 2.0), 1.0, 0.25, sw)
    assert val * (1 - 1e-7) <= est.objective_ <= val * (1 + est.duality_gap_ + 1e-7)


def test_weights_are_checked():
    X, y, _ = _data(0)
    for bad in (-np.ones(len(y)), np.full(len(y), np.nan), np.full(len(y), np.inf)):
        for est in (DisjunctiveHKL(), DisjunctiveHKLCV(Cs=[1.0]), HKLRanker(2, boolean=True)):
            with pytest.raises(ValueError, match="(?i)negative|NaN|infinity"):
                est.fit(X, y, sample_weight=bad)
    with pytest.raises(ValueError, match="sample_weight.shape"):
        DisjunctiveHKL().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="two classes of positive weight"):
        DisjunctiveHKL().fit(X, y, sample_weight=(y > 0).astype(float))
    with pytest.raises(ValueError, match="positive and finite"):
        HKLProblem(X, y, sample_weight=np.r_[0.0, np.ones(len(y) - 1)])


def test_per_sample_box_of_the_inner_svms():
    """SMO, the interior point and Clarabel solve the same SVM with per-sample bounds C_i
    (zero bounds fix α_i = 0 in SMO); a scalar C is the array of equal bounds to the last bit."""
    X, y, w = _data(2, m=50)
    Psi = sp.csr_matrix(X)
    sigma = np.array([1.0, 0.5, 2.0, 1.0, 0.3])
    K = (Psi.multiply(sigma[None, :]) @ Psi.T).toarray()
    Ci = 2.0 * w.astype(float)
    a_smo, b_smo, _, ok = smo_svm(K, y, Ci, tol=1e-10)
    assert ok and np.all(a_smo[w == 0] == 0) and np.all(a_smo <= Ci)
    keep = w > 0
    a_ipm, b_ipm, ok_ipm = ipm_svm(Psi[keep], sigma, y[keep], Ci[keep])
    a_cl, b_cl, ok_cl = clarabel_svm(Psi[keep], sigma, y[keep], Ci[keep])
    assert ok_ipm and ok_cl

    def dual(a, yy, KK):
        c = a * yy
        return a.sum() - 0.5 * c @ KK @ c
    d = dual(a_smo[keep], y[keep], K[np.ix_(keep, keep)])
    np.testing.assert_allclose(dual(a_ipm, y[keep], K[np.ix_(keep, keep)]), d, rtol=1e-7)
    np.testing.assert_allclose(dual(a_cl, y[keep], K[np.ix_(keep, keep)]), d, rtol=1e-7)
    s1 = smo_svm(K, y, 2.0, tol=1e-10)
    s2 = smo_svm(K, y, np.full(len(y), 2.0), tol=1e-10)
    np.testing.assert_array_equal(s1[0], s2[0])
    assert s1[1:] == s2[1:]


def test_c_start_counts_weighted_classes():
    """The data-driven path starts where it starts for the repeated samples."""
    X, y, w = _data(4, m=80, n=6)
    assert c_start(X, y, 2.0, sample_weight=w) == c_start(np.repeat(X, w, 0), np.repeat(y, w), 2.0)
    assert c_start(X, y, 2.0, sample_weight=np.ones(len(y))) == c_start(X, y, 2.0)


def _group_splits(w, n_folds=3):
    """Folds of the original samples and the same folds of their repeated copies."""
    fold = np.arange(len(w)) % n_folds
    origin = np.repeat(np.arange(len(w)), w)
    mk = lambda f: [(np.flatnonzero(f != k), np.flatnonzero(f == k)) for k in range(n_folds)]  # noqa: E731
    return mk(fold), mk(fold[origin])


def test_cv_weights_its_fits_and_its_validation_accuracy():
    """DisjunctiveHKLCV with the same folds: integer weights give the repeated samples' path
    (the same C values, mean accuracies equal to 1e-12, the same chosen C and model); its
    fold accuracy is the weighted accuracy of a DisjunctiveHKL fitted on the weighted fold."""
    X, y, w = _data(8, m=90, n=6)
    sw_splits, rep_splits = _group_splits(w)
    kw = dict(betas=[2.0], tol=TOL)
    a = DisjunctiveHKLCV(cv=sw_splits, **kw).fit(X, y, sample_weight=w)
    b = DisjunctiveHKLCV(cv=rep_splits, **kw).fit(np.repeat(X, w, 0), np.repeat(y, w))
    np.testing.assert_array_equal(a.Cs_, b.Cs_)
    np.testing.assert_allclose(a.cv_results_.mean_accuracy, b.cv_results_.mean_accuracy, rtol=0, atol=1e-12)
    assert a.C_ == b.C_ and sorted(a.disjunctions_) == sorted(b.disjunctions_)
    np.testing.assert_allclose(a.objective_, b.objective_, rtol=2 * TOL)
    # the fold accuracy is the weighted one of a cold fit on the fold's weighted samples
    row = a.cv_results_.iloc[len(a.cv_results_) // 2]
    for k, (tr, va) in enumerate(sw_splits):
        m = DisjunctiveHKL(C=row.C, beta=2.0, tol=TOL).fit(X[tr], y[tr], sample_weight=w[tr])
        acc = np.average(m.predict(X[va]) == y[va], weights=w[va])
        assert abs(row[f"fold{k}_accuracy"] - acc) <= 1e-12
    # the refit takes the weights
    ref = DisjunctiveHKL(C=a.C_, beta=2.0, tol=TOL).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(a.decision_function(X), ref.decision_function(X))
    # a validation fold without weight cannot be scored
    w0 = w.copy()
    w0[sw_splits[0][1]] = 0
    with pytest.raises(ValueError, match="validation samples of fold 0 all have sample_weight 0"):
        DisjunctiveHKLCV(cv=sw_splits, **kw).fit(X, y, sample_weight=w0)


def test_ranker_weights_its_quartiles_and_its_models():
    """HKLRanker: integer weights give the repeated samples' thresholds and scores (two and three
    classes, the latter through OneVsRestClassifier with routed weights), given the same folds.

    With the conic solver on every sample: the working set is chosen among the samples, so the
    weighted and the repeated problems reach their optimum through other working sets, equal
    within the certified gap but not always in the validation predictions at large C (with the
    working set, the repeated samples' fit at C = 100 predicts two more validation samples
    right on one fold, and the path chooses C = 100 instead of 1)."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 60)
    X = rng.normal(size=(60, 4))
    X[:, 0] += y
    X[:, 2] -= (y == 1)
    w = rng.integers(0, 3, 60)
    w[:3] = 1
    for yy in (y, (y > 0).astype(int)):
        sw_splits, rep_splits = _group_splits(w)
        a = HKLRanker(2, cv=sw_splits, tol=TOL, solver="conic").fit(X, yy, sample_weight=w)
        b = HKLRanker(2, cv=rep_splits, tol=TOL, solver="conic").fit(np.repeat(X, w, 0), np.repeat(yy, w))
        np.testing.assert_array_equal(a.owner_, b.owner_)
        np.testing.assert_array_equal(a.get_support(), b.get_support())
        np.testing.assert_allclose(a.scores_, b.scores_, rtol=1e-3)
        assert [m.C_ for m in a.models_] == [m.C_ for m in b.models_]


def test_pipeline_routes_sample_weight_to_hkl():
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 5))
    y = (X[:, 0] + X[:, 3] + 0.5 * rng.normal(size=60) > 0).astype(int)
    w = rng.integers(1, 4, 60).astype(float)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(HKLRanker(2).set_fit_request(sample_weight=True),
                             DisjunctiveHKL(C=1.0).set_fit_request(sample_weight=True))
        pipe.fit(X, y, sample_weight=w)
        pipe2 = make_pipeline(HKLRanker(2).set_fit_request(sample_weight=True),
                              LogisticRegression().set_fit_request(sample_weight=True))
        pipe2.fit(X, y, sample_weight=w)
    sel = HKLRanker(2).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(pipe[0].scores_, sel.scores_)
    hkl = DisjunctiveHKL(C=1.0).fit(sel.transform(X), y, sample_weight=w)
    np.testing.assert_array_equal(pipe[1].weights_, hkl.weights_)
    np.testing.assert_array_equal(pipe2[0].scores_, sel.scores_)
    unweighted = HKLRanker(2).fit(X, y)
    assert not np.allclose(unweighted.scores_, sel.scores_)


def test_uncertified_weighted_fit_still_bounds_the_weighted_optimum():
    """A fit stopped by its node budget: its dual value is still a lower bound of the weighted
    optimum and its objective an upper bound."""
    X, y, w = _data(9, m=60, n=5)
    val, *_ = _weighted_brute_force(X, y, 10.0, 2.0, np.full(5, 2.0), 1.0, 0.5, w.astype(float))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-8, max_active=1, max_add=1).fit(X, y, sample_weight=w)
    assert not est.certified_
    h = est.history_
    assert np.all(h.dual <= val * (1 + 1e-6)) and np.all(h.primal >= val * (1 - 1e-7))

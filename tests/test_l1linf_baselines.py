"""Tests of the l1/linf chapter's baselines: FOHSIC, Laplacian score, ReliefF, l1-SVM path, SVM-RFE."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import RFE
from sklearn.svm import LinearSVC
from sklearn_checks import parametrize_with_checks
from skrebate import ReliefF

from fsbook.baselines import FOHSIC, SVMRFE, L1SVMSelector, LaplacianScore, Relief
from fsbook.baselines.laplacian_score import class_graph, heat_knn_graph, laplacian_scores
from fsbook.baselines.relief import relieff_weights


def _toy(n=40, d=7, seed=0, classes=2):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    X = rng.standard_normal((n, d))
    X[:, 2] += 1.5 * y
    X[:, 5] -= 1.0 * (y == 1)
    return X, y


def _hsic(Xs, y, sigma):
    n = len(y)
    D2 = ((Xs[:, None, :] - Xs[None, :, :]) ** 2).sum(-1)
    K = np.exp(-D2 / (2 * sigma ** 2))
    L = (y[:, None] == y[None, :]).astype(float)
    H = np.eye(n) - 1.0 / n
    return np.trace(K @ H @ L @ H) / n ** 2


@pytest.mark.parametrize("sparse", [False, True])
def test_fohsic_is_brute_force_greedy_hsic(sparse):
    X, y = _toy(n=25, d=6)
    if sparse:
        X = np.where(np.random.default_rng(1).random(X.shape) < 0.5, 0.0, X)
    sigma = 1.3
    Xs = X / X.std(0)
    chosen = []
    for _ in range(3):
        scores = [(_hsic(Xs[:, chosen + [j]], y, sigma) if j not in chosen else -np.inf) for j in range(6)]
        chosen.append(int(np.argmax(scores)))
    s = FOHSIC(3, sigma=sigma).fit(sp.csr_matrix(X) if sparse else X, y)
    assert list(s.ranking_) == chosen
    np.testing.assert_allclose(s.hsic_path_, [_hsic(Xs[:, chosen[:r + 1]], y, sigma) for r in range(3)], rtol=1e-10)
    assert s.get_support().sum() == 3


def _laplacian_literal(X, S):
    D = np.diag(S.sum(1))
    L = D - S
    one = np.ones(len(S))
    out = []
    for f in X.T:
        ft = f - (f @ D @ one) / (one @ D @ one) * one
        out.append((ft @ L @ ft) / (ft @ D @ ft))
    return np.array(out)


@pytest.mark.parametrize("sparse", [False, True])
def test_laplacian_score_matches_the_literal_formula(sparse):
    X, y = _toy(n=20, d=6)
    for S in (class_graph(y), heat_knn_graph(X, 4)):
        got = laplacian_scores(sp.csr_matrix(X) if sparse else X, S)
        np.testing.assert_allclose(got, _laplacian_literal(X, S), rtol=1e-10)


@pytest.mark.parametrize("sparse", [False, True])
def test_laplacian_score_on_a_sparse_knn_graph_is_the_dense_one(sparse):
    """graph="knn" keeps the n × n graph sparse; the scores are those of the dense graph."""
    X, y = _toy(n=30, d=6)
    Xin = sp.csr_matrix(X) if sparse else X
    np.testing.assert_allclose(laplacian_scores(Xin, heat_knn_graph(X, 4, sparse=True)),
                               laplacian_scores(Xin, heat_knn_graph(X, 4)), rtol=1e-12)
    np.testing.assert_allclose(LaplacianScore(graph="knn", n_neighbors=4).fit(Xin, y).scores_,
                               laplacian_scores(X, heat_knn_graph(X, 4)), rtol=1e-12)


def test_laplacian_score_hand_case():
    # two classes of two samples; feature 0 is the class, feature 1 is not
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([0, 0, 1, 1])
    # class graph: S = 1/2 within class; feature 0 is constant within classes -> f^T L f = 0
    # feature 1: f~ = (-1/2, 1/2, -1/2, 1/2), f~^T D f~ = 1, f~^T S f~ = 2 * 2 * (1/2)(-1/4) + diag 4*(1/2)(1/4) = 0
    np.testing.assert_allclose(laplacian_scores(X, class_graph(y)), [0.0, 1.0], atol=1e-12)
    s = LaplacianScore(1).fit(X, y)
    assert list(np.flatnonzero(s.get_support())) == [0]


def test_relieff_hand_case_and_skrebate():
    # feature 0 is the class: nearest hit differs in feature 1 only, nearest miss in feature 0 only
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([0, 0, 1, 1])
    np.testing.assert_allclose(relieff_weights(X, y, 1), [1.0, -1.0])
    # two classes: identical to skrebate's ReliefF
    X, y = _toy(n=40, d=6, seed=3)
    ref = np.asarray(ReliefF(n_neighbors=5, n_jobs=1).fit(X, y).feature_importances_)
    np.testing.assert_allclose(relieff_weights(X, y, 5), ref, rtol=1e-10, atol=1e-12)
    s = Relief(2, n_neighbors=5).fit(X, y)
    assert set(np.flatnonzero(s.get_support())) == set(np.argsort(-ref)[:2])


def _relieff_unblocked(X, y, n_neighbors):
    """The unblocked implementation: the full n × n distance matrix on the dense X."""
    from sklearn.metrics import pairwise_distances

    X = np.asarray(X, dtype=float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    Z = (X - lo) / span
    D = pairwise_distances(Z, metric="manhattan")
    np.fill_diagonal(D, np.inf)
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    prior = counts / counts.sum()
    m = len(codes)
    w = np.zeros(X.shape[1])
    members = [np.flatnonzero(codes == c) for c in range(len(classes))]
    for c, rows in enumerate(members):
        for c2, cols in enumerate(members):
            kk = min(n_neighbors, len(cols) - (1 if c2 == c else 0))
            if kk <= 0:
                continue
            nn = cols[np.argsort(D[np.ix_(rows, cols)], axis=1, kind="stable")[:, :kk]]
            total = np.zeros(X.shape[1])
            for r in range(kk):
                total += np.abs(Z[rows] - Z[nn[:, r]]).sum(axis=0)
            if c2 == c:
                w -= total / (m * kk)
            else:
                w += prior[c2] / (1.0 - prior[c]) * total / (m * kk)
    return w


@pytest.mark.parametrize("block_bytes", [None, 4000, 30_000])
@pytest.mark.parametrize("sparse", [False, True])
def test_relieff_in_blocks_is_the_unblocked_computation_bit_for_bit(block_bytes, sparse):
    """Neighbours by blocks of rows and a sparse X densified a block at a time give the
    weights of the n × n computation exactly (also with ties: 0/1 and integer data)."""
    rng = np.random.default_rng(7)
    for X, y in [((rng.random((90, 40)) < 0.2).astype(float), np.arange(90) % 3),
                 (rng.integers(0, 4, (70, 25)).astype(float) * (rng.random((70, 25)) < 0.5), np.arange(70) % 2),
                 (rng.standard_normal((60, 33)) * (rng.random((60, 33)) < 0.3), np.arange(60) % 4)]:
        got = relieff_weights(sp.csr_matrix(X) if sparse else X, y, 10, block_bytes=block_bytes)
        np.testing.assert_array_equal(got, _relieff_unblocked(X, y, 10))


def test_relieff_keeps_a_sparse_X_sparse():
    import tracemalloc

    rng = np.random.default_rng(0)
    X = sp.random(200, 5000, density=0.01, format="csr", random_state=0)    # dense: 8 MB
    y = rng.integers(0, 2, 200)
    tracemalloc.start()
    relieff_weights(X, y, 5, block_bytes=1 << 18)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 4e6, peak


def test_l1svm_path_reaches_exactly_k():
    X, y = _toy(n=60, d=10, seed=4)
    for k in (1, 2, 4):
        s = L1SVMSelector(k).fit(X, y)
        assert s.get_support().sum() == k
        if s.exact_:
            assert ((np.abs(s.coef_).max(0) > 0) == s.get_support()).all()
    assert L1SVMSelector(2).fit(X, y).exact_
    assert L1SVMSelector(1).fit(X, y).get_support()[2]          # the strongest feature enters first


@pytest.mark.parametrize("Est", [L1SVMSelector, SVMRFE])
def test_random_state_fixes_liblinear_shuffling(Est):
    # liblinear shuffles coordinates with a seed drawn from NumPy's global generator unless
    # random_state is given: unseeded, the weights below differ with the global seed
    X, y = _toy(n=60, d=10, seed=4)
    params = {"max_iter": 50} if Est is L1SVMSelector else {"step": 1}

    def weights(global_seed, random_state):
        np.random.seed(global_seed)  # noqa: NPY002 (the legacy global state must not matter)
        s = Est(3, random_state=random_state, **params).fit(X, y)
        return s.coef_ if Est is L1SVMSelector else s.ranking_

    np.testing.assert_array_equal(weights(1, 0), weights(2, 0))
    if Est is L1SVMSelector:
        assert not np.array_equal(weights(1, None), weights(2, None))


def test_svm_rfe_is_sklearn_rfe_on_scaled_features():
    X, y = _toy(n=60, d=10, seed=5)
    s = SVMRFE(3, step=1).fit(X, y)
    ref = RFE(LinearSVC(max_iter=10000), n_features_to_select=3, step=1).fit(X / X.std(0), y)
    np.testing.assert_array_equal(s.get_support(), ref.support_)
    assert {2, 5} <= set(np.flatnonzero(s.get_support()))


@pytest.mark.parametrize("Est", [FOHSIC, LaplacianScore, Relief, L1SVMSelector, SVMRFE])
def test_clear_errors(Est):
    X, y = _toy()
    with pytest.raises(ValueError, match="two classes"):
        Est(2).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="exceeds"):
        Est(50).fit(X, y)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Est(2).fit(Xn, y)


@parametrize_with_checks([FOHSIC(), LaplacianScore(), Relief(), L1SVMSelector(), SVMRFE()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("sparse", [False, True])
def test_class_graph_scores_need_no_graph_and_rank_as_f_classif(sparse):
    """The class-graph score from class sums equals the graph's (no n × n matrix), is
    1 / (1 + F (C − 1)/(n − C)) with F of scikit-learn's f_classif, and so ranks as it."""
    import warnings

    from sklearn.feature_selection import f_classif

    from fsbook.baselines.laplacian_score import class_graph_scores

    X, y = _toy(n=40, d=7)
    y = np.arange(40) % 3                                  # three classes
    X[:, 3] = 1.5                                          # a constant column: +inf
    Xin = sp.csr_matrix(X) if sparse else X
    got = class_graph_scores(Xin, y)
    np.testing.assert_allclose(got, laplacian_scores(X, class_graph(y)), rtol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        F, _ = f_classif(X, y)
    live = np.isfinite(got)
    assert not live[3] and live.sum() == 6
    np.testing.assert_allclose(got[live], 1 / (1 + F[live] * 2 / 37), rtol=1e-10)
    assert list(np.argsort(got[live], kind="stable")) == list(np.argsort(-F[live], kind="stable"))
    np.testing.assert_array_equal(LaplacianScore().fit(Xin, y).scores_, got)

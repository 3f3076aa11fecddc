"""MRMR (Peng, Long & Ding 2005): against a brute-force greedy reference built on scikit-learn's
mutual_info_score, on hand-made cases with a known answer, scikit-learn's estimator checks, and
fast-select's mRMR where that package is installed."""

import itertools

import naive
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import mutual_info_score
from sklearn_checks import parametrize_with_checks

from fsbook.baselines import MRMR
from fsbook.baselines.mrmr import discretise_mean_std, mrmr_order, mutual_information_with


@pytest.mark.parametrize("criterion", ["MID", "MIQ"])
@pytest.mark.parametrize("seed", range(6))
def test_against_the_brute_force_reference(criterion, seed):
    rng = np.random.default_rng(seed)
    n, d, k = 40 + 10 * seed, 12, 7
    y = rng.integers(0, 3, n)
    states = rng.integers(0, 3, (n, d))
    states[:, :4] = np.where(rng.random((n, 4)) < 0.6, y[:, None], states[:, :4])     # relevant
    states[:, 4] = np.where(rng.random(n) < 0.8, states[:, 0], states[:, 4])           # redundant
    order, rel, scores = mrmr_order(states, 3, y, 3, k, criterion)
    ref_order, ref_rel, table = naive.mrmr_greedy(states, y, k, criterion)
    np.testing.assert_allclose(rel, ref_rel, rtol=1e-12, atol=1e-15)
    # the same choices; where the reference's scores tie to rounding, ours must be one of the tied
    for step, (ours, theirs) in enumerate(zip(order, ref_order)):
        best = table[step][theirs]
        assert np.isclose(table[step][ours], best, rtol=1e-9, atol=1e-12), (step, ours, theirs)
        if ours != theirs:
            break                   # a tie resolved differently: later steps may then differ
    else:
        assert list(order) == ref_order
    np.testing.assert_allclose(scores[1:], [table[s][order[s]] for s in range(1, k)], rtol=1e-9)


def test_mutual_information_matches_scikit_learn_in_blocks():
    rng = np.random.default_rng(1)
    S = rng.integers(0, 4, (50, 9))
    v = rng.integers(0, 3, 50)
    expected = [mutual_info_score(v, S[:, j]) for j in range(9)]
    for block in (50, 100, 1 << 22):             # one column per block, two, all at once
        np.testing.assert_allclose(mutual_information_with(S, 4, v, 3, block_entries=block), expected, rtol=1e-12)


def test_exhaustive_two_feature_case():
    """For k = 2 the MID choice is the pair (first = most relevant) maximising rel - redundancy:
    checked over every column of a small data set by enumeration."""
    rng = np.random.default_rng(7)
    y = np.repeat([0, 1], 15)
    X = rng.normal(size=(30, 6)) + np.outer(y, [2.0, 1.5, 1.0, 0, 0, 0])
    X[:, 3] = X[:, 0] + 0.01 * rng.normal(size=30)
    states, _, _ = discretise_mean_std(X, 1.0)
    sel = MRMR(2).fit(X, y)
    first = int(np.argmax([mutual_info_score(y, states[:, j]) for j in range(6)]))
    best = max((j for j in range(6) if j != first),
               key=lambda j: (mutual_info_score(y, states[:, j]) - mutual_info_score(states[:, j], states[:, first]), -j))
    assert sel.ranking_.tolist() == [first, best]
    assert 3 not in sel.ranking_ or 0 not in sel.ranking_


def test_redundant_copy_is_passed_over_and_relevance_alone_would_take_it():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 100)
    X = rng.normal(size=(200, 6))
    X[:, 0] += 3.0 * y
    X[:, 1] = X[:, 0] + 0.05 * rng.normal(size=200)
    X[:, 2] += 1.5 * y
    sel = MRMR(2).fit(X, y)
    assert sel.ranking_[0] in (0, 1) and sel.ranking_[1] == 2
    assert set(np.argsort(-sel.relevance_, kind="stable")[:2]) == {0, 1}    # max-relevance keeps the copy
    assert MRMR(2, criterion="MIQ").fit(X, y).ranking_.tolist() == sel.ranking_.tolist()


def test_discretisation_is_fitted_and_none_uses_the_values():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    states, mu, sd = discretise_mean_std(X, 0.5)
    assert states.ravel().tolist() == [0, 0, 1, 2, 2] and mu[0] == 2.0 and sd[0] == pytest.approx(np.sqrt(2))
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    Xd = rng.integers(0, 5, (60, 8)).astype(float)
    Xd[:, 5] = y * 3.0
    sel = MRMR(3, discretise="none").fit(Xd, y)
    assert sel.ranking_[0] == 5
    ref, _, _ = naive.mrmr_greedy(Xd.astype(int), y, 3, "MID")
    assert sel.ranking_.tolist() == ref


def test_sparse_input_gives_the_dense_result():
    rng = np.random.default_rng(2)
    X = rng.poisson(0.3, (80, 30)).astype(float)
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    dense = MRMR(5).fit(X, y)
    sparse = MRMR(5).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(dense.ranking_, sparse.ranking_)
    np.testing.assert_array_equal(dense.get_support(), sparse.get_support())


def test_support_importances_and_feature_names():
    import pandas as pd

    rng = np.random.default_rng(4)
    X = pd.DataFrame(rng.normal(size=(50, 5)), columns=list("abcde"))
    y = np.repeat([0, 1], 25)
    X["c"] += 2 * y
    sel = MRMR(0.4).fit(X, y)
    assert sel.get_support().sum() == 2 and sel.ranking_[0] == 2
    assert list(sel.get_feature_names_out()) == [c for c, keep in zip("abcde", sel.get_support()) if keep]
    assert sel.feature_importances_[sel.ranking_].tolist() == [2.0, 1.0]
    assert MRMR().fit(X, y).get_support().sum() == 2                       # None keeps half (5 // 2)


def test_bad_parameters():
    X, y = np.random.default_rng(0).normal(size=(10, 3)), np.repeat([0, 1], 5)
    for bad in ({"criterion": "MIX"}, {"discretise": "quantile"}, {"alpha": -1.0}, {"n_features_to_select": 0}):
        with pytest.raises(ValueError):
            MRMR(**bad).fit(X, y)
    with pytest.raises(ValueError, match="exceeds"):
        MRMR(4).fit(X, y)


@parametrize_with_checks([MRMR()])
def test_check_estimator(estimator, check):
    check(estimator)


def test_agrees_with_fast_select_where_installed():
    """fast-select's mRMR (MIT; see the module docstring for why it is not wrapped) on the same
    discretised states: the same order (MID and MIQ). Run by hand (fast-select 0.3.0 installed
    apart) it also gave the same orders on madelon, wdbc, isolet_subset, sonar and vehicle."""
    fs = pytest.importorskip("fast_select")
    rng = np.random.default_rng(11)
    for _ in range(3):
        y = rng.integers(0, 2, 120)
        X = rng.normal(size=(120, 15)) + np.outer(y, rng.uniform(0, 1.5, 15))
        states, _, _ = discretise_mean_std(X, 1.0)
        for criterion in ("MID", "MIQ"):
            ours = MRMR(6, criterion=criterion, discretise="none").fit(states, y).ranking_
            theirs = fs.mRMR(n_features_to_select=6, method=criterion, backend="cpu").fit(states, y).top_features_
            assert ours.tolist() == list(theirs)


def test_order_does_not_depend_on_the_column_order_beyond_ties():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 100)
    X = rng.normal(size=(100, 10)) + np.outer(y, np.linspace(0, 2, 10))
    perm = rng.permutation(10)
    a = MRMR(5).fit(X, y).ranking_
    b = perm[MRMR(5).fit(X[:, perm], y).ranking_]
    assert a.tolist() == b.tolist()
    assert len(set(itertools.chain(a))) == 5

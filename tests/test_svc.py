"""fsbook._svc.PrecomputedSVC against scikit-learn's SVC(kernel="precomputed"): the same libsvm calls,
so the same decision values bit for bit."""
import numpy as np
import pytest
from sklearn.svm import SVC

from fsbook._svc import PrecomputedSVC


def _problem(seed, n=30, m=12, d=8, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n + m, d))
    y = rng.choice(np.array(labels), size=n + m)
    y[:2] = labels                                     # both classes in the training part
    X[y == labels[1]] += rng.uniform(0.0, 1.5)
    if seed % 2:
        X = np.tanh(X)                                 # another kernel's scale
    G = X @ X.T
    return G[:n, :n], y[:n], G[n:, :n], y[n:]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("C", [1e-3, 0.1, 1.0, 100.0])
def test_decision_values_and_predictions_equal_svc_bit_for_bit(seed, C):
    labels = [(0, 1), (1, 0), ("b", "a"), (-1, 1)][seed % 4]     # label order of first appearance varies
    K, y, K_test, _ = _problem(seed, labels=labels)
    ref = SVC(kernel="precomputed", C=C).fit(K, y)
    fast = PrecomputedSVC(C).fit(K, y)
    assert np.array_equal(fast.classes_, ref.classes_)
    assert np.array_equal(fast.support_, ref.support_)
    for rows in (K, K_test):
        assert np.array_equal(fast.decision_function(rows), ref.decision_function(rows))
        assert np.array_equal(fast.predict(rows), ref.predict(rows))


def test_a_zero_decision_value_is_predicted_as_svc_predicts_it():
    K = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([0, 1])
    rows = np.array([[0.5, 0.5]])                     # equidistant: libsvm's decision value 0
    ref, fast = SVC(kernel="precomputed", C=1.0).fit(K, y), PrecomputedSVC(1.0).fit(K, y)
    assert fast.decision_function(rows)[0] == ref.decision_function(rows)[0] == 0.0
    assert fast.predict(rows).tolist() == ref.predict(rows).tolist()


@pytest.mark.parametrize("K, y, message", [
    (np.eye(3), np.array([0, 0, 0]), "two classes"),
    (np.eye(3), np.array([0, 1, 2]), "two classes"),
    (np.ones((3, 2)), np.array([0, 1, 0]), "square Gram matrix"),
    (np.eye(3), np.array([0, 1]), "one label per row"),
])
def test_bad_input_is_refused_with_a_clear_error(K, y, message):
    with pytest.raises(ValueError, match=message):
        PrecomputedSVC(1.0).fit(K, y)


def test_a_non_positive_c_and_a_wrong_width_are_refused():
    with pytest.raises(ValueError, match="C must be positive"):
        PrecomputedSVC(0.0)
    fast = PrecomputedSVC(1.0).fit(np.eye(3), np.array([0, 1, 0]))
    with pytest.raises(ValueError, match="one column per training point"):
        fast.decision_function(np.ones((2, 4)))

"""fsbook's mutual information against scikit-learn's, which it must equal bit for bit."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import mutual_info_classif as sklearn_mi
from sklearn.neighbors import KDTree

from fsbook.baselines import mutual_info_classif
from fsbook.baselines._kernels_mutual_info import LEAF_SIZE, tree_nodes
from fsbook.datasets import load_colon, load_wdbc


def _design(seed):
    """A random design of varied size, scale, ties, class sizes and memory order."""
    rng = np.random.default_rng(seed)
    n, p, n_classes = int(rng.integers(5, 500)), int(rng.integers(1, 25)), int(rng.integers(2, 12))
    X = rng.normal(size=(n, p)) * rng.choice([1e-3, 1.0, 1e4])
    if seed % 3 == 0:
        X = np.round(X, 1)                       # many equal values
    if seed % 5 == 0:
        X[:, 0] = 0.0                            # a constant feature
    if seed % 7 == 0:
        X = np.asfortranarray(X)
    y = rng.integers(0, n_classes, size=n)
    if seed % 4 == 0:
        y[:2], y[2] = n_classes + 1, n_classes + 2   # a class of two and a class of one
    return X, y


@pytest.mark.parametrize("seed", range(40))
def test_equals_sklearn_on_random_designs(seed):
    """Small classes (scikit-learn's brute-force search), ties, constant features: equal bits."""
    X, y = _design(seed)
    for k in (1, 3, 5):
        np.testing.assert_array_equal(mutual_info_classif(X, y, n_neighbors=k, random_state=seed),
                                      sklearn_mi(X, y, n_neighbors=k, random_state=seed))


@pytest.mark.parametrize("loader", [load_wdbc, load_colon])
def test_equals_sklearn_on_real_data(loader):
    """Real features (WDBC: 569 samples, several tree levels; colon: 2 000 genes), every feature."""
    data = loader()
    X, y = data.data, data.target
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    np.testing.assert_array_equal(mutual_info_classif(X, y, random_state=3),
                                  sklearn_mi(X, y, random_state=3))


def test_selects_the_informative_feature():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = (X[:, 4] > 0).astype(int)
    mi = mutual_info_classif(X, y, random_state=0)
    assert mi.argmax() == 4 and mi[4] > 0.4 and np.all(mi >= 0)


@pytest.mark.parametrize("n", [1, 2, 39, 40, 41, 81, 160, 161, 1000])
def test_tree_nodes_are_sklearn_kdtree_nodes(n):
    """The node ranges replay scikit-learn's KD-tree build (leaf size 40) on sorted values."""
    tree = KDTree(np.sort(np.random.default_rng(n).normal(size=(n, 1)), axis=0), leaf_size=LEAF_SIZE)
    _, _, node_data, _ = tree.get_arrays()
    starts, ends, n_nodes = tree_nodes(n, LEAF_SIZE)
    assert n_nodes == len(node_data)
    np.testing.assert_array_equal(starts, node_data["idx_start"])
    np.testing.assert_array_equal(ends, node_data["idx_end"])


def test_input_is_copied_by_default():
    X, y = _design(1)
    before = X.copy()
    mutual_info_classif(X, y, random_state=0)
    np.testing.assert_array_equal(X, before)


def test_bad_input_is_refused():
    X, y = _design(2)
    with pytest.raises(TypeError, match="sparse"):
        mutual_info_classif(sp.csr_matrix(X), y)
    with pytest.raises(ValueError, match="n_neighbors"):
        mutual_info_classif(X, y, n_neighbors=0)
    with pytest.raises(ValueError, match="single sample"):
        mutual_info_classif(X[:3], np.arange(3))
    with pytest.raises(ValueError, match="Unknown label type"):
        mutual_info_classif(X, X[:, 0])


def test_benchmark_record_holds_equal_scores():
    """The side-by-side record (``benchmarks/mutual_info.py``) checked equality on every data set."""
    from fsbook.benchmark_records import read_benchmark

    record = read_benchmark("mutual_info", "sklearn")["values"]
    assert set(record) == {"dexter", "orl"}
    assert all(r["equal_bit_for_bit"] and r["ratio"] > 1 for r in record.values())

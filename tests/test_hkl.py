"""Correctness tests for disjunctive HKL (closed forms vs enumeration, brute force)."""
import naive as nv
import numpy as np
import pytest

from fsbook.hkl import lattice
from fsbook.hkl._kernels import descendant_kernel, source_quadforms, source_quadforms_numpy, union_matrix


def _data(seed, m=30, n=5):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(float)
    y = np.where((X[:, 0] + X[:, 1] > 0) ^ (rng.random(m) < 0.1), 1.0, -1.0)
    return X, y


def _sources_by_definition(A, n):
    comp = [v for v in lattice.enumerate_lattice(n) if v not in set(A)]
    return sorted([w for w in comp if all(a in set(A) for a in lattice.ancestors(w) if a != w)],
                  key=lambda v: (len(v), v))


def test_lattice_sources_match_definition():
    n = 4
    A = lattice.hull([(0, 1), (2,)])
    assert lattice.is_hull_closed(A)
    assert lattice.sources(A, n) == _sources_by_definition(A, n)


@pytest.mark.parametrize("seed", range(8))
def test_source_groups_match_definition_on_random_active_sets(seed):
    """Grouped by prefix and read group by group, the sources are those of the definition
    (all parents active, the node itself not), in sorted order; every prefix is active."""
    rng = np.random.default_rng(seed)
    n = 7
    nodes = [tuple(sorted(rng.choice(n, size=rng.integers(1, 4), replace=False).tolist()))
             for _ in range(rng.integers(1, 6))]
    A = lattice.hull(nodes)
    groups = lattice.source_groups(A, n)
    flat = [a + (int(l),) for a, cand in groups for l in cand]
    assert flat == _sources_by_definition(A, n) == lattice.sources(A, n)
    assert all(a in set(A) and np.all(np.diff(cand) > 0) for a, cand in groups)


@pytest.mark.parametrize("t", [(), (1,), (0, 3)])
def test_descendant_kernel_closed_form_equals_enumeration(t):
    rng = np.random.default_rng(1)
    n = 7
    X1 = (rng.random((6, n)) < 0.4).astype(float)
    X2 = (rng.random((5, n)) < 0.4).astype(float)
    h = rng.uniform(0.2, 2.0, n)
    ls, B = descendant_kernel(X1, X2, t, h)
    np.testing.assert_allclose(np.exp(ls) * B, nv.descendant_sum_enum(X1, X2, t, h), rtol=1e-10, atol=1e-10)


def test_numba_and_numpy_quadforms_agree():
    rng = np.random.default_rng(5)
    X = (rng.random((30, 8)) < 0.3).astype(float)
    import scipy.sparse as sp
    Xc = sp.csc_matrix(X)
    lg = np.log1p(rng.uniform(0.01, 0.5, 8))
    R = union_matrix(X, lg)
    c = rng.normal(size=30)
    cand = np.arange(8)
    np.testing.assert_allclose(source_quadforms(c, R, Xc, cand),
                               source_quadforms_numpy(c, R, Xc, cand), rtol=1e-10)


def test_union_matrix_equals_enumeration():
    rng = np.random.default_rng(6)
    X = (rng.random((7, 9)) < 0.4).astype(float)
    h = rng.uniform(0.1, 1.0, 9)
    R = union_matrix(X, np.log1p(h))
    ref = np.array([[np.prod(1 / (1 + h[(a + b) > 0])) for b in X] for a in X])
    np.testing.assert_allclose(R, ref, rtol=1e-12)


@pytest.mark.parametrize("n", [3, 10])
def test_node_indicator_dense_sparse_and_enumeration(n):
    import scipy.sparse as sp
    rng = np.random.default_rng(n)
    X = (rng.random((12, n)) < 0.3).astype(float)
    nodes = lattice.enumerate_lattice(min(n, 4))
    D = lattice.node_indicator(X, nodes)
    S = lattice.node_indicator(sp.csr_matrix(X), nodes, sparse=True).toarray()
    np.testing.assert_array_equal(D, S)
    np.testing.assert_array_equal(D, nv.node_values(X, nodes))


def test_full_lattice_kernel_sum_n10():
    """Σ over all 2^10 nodes of δ_v K_v (δ_v = β^{|v|}) = closed form with t = ()."""
    rng = np.random.default_rng(10)
    n = 10
    X = (rng.random((5, n)) < 0.25).astype(float)
    h = np.full(n, 0.7)
    ls, B = descendant_kernel(X, X, (), h)
    np.testing.assert_allclose(np.exp(ls) * B, nv.descendant_sum_enum(X, X, (), h), rtol=1e-10)


def test_newsgroups_pair_with_the_papers_vocabulary_rule():
    from fsbook.datasets import load_atheism_religion, outer_folds
    X, y, words = load_atheism_religion(2)
    assert X.shape == (1427, 12511) and len(words) == 12511          # the paper's 12 511 words
    assert set(np.unique(X.data)) == {1.0} and set(np.unique(y)) == {0, 1}
    assert np.asarray(X.sum(axis=0)).min() >= 2
    folds = outer_folds(y)
    assert len(folds) == 4 and sorted(np.concatenate([te for _, te in folds])) == list(range(1427))
    with pytest.raises(ValueError, match="min_df"):
        load_atheism_religion(0)

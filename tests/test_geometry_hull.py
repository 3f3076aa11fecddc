"""The sparse path of the geometric ratios (peeled hulls) against the Gram-matrix reference."""
import numpy as np
import pytest
import scipy.sparse as sp

from fsbook.geometry import _kernels as K
from fsbook.geometry import geometric_ratios, gram_geometric_ratios, naive_geometric_ratios, point_matrix
from fsbook.geometry.hull import count_in_sparse_hull, sparse_hull


def _text_like(rng, m, n, per_row, core_rows=0):
    """0/1 rows with ``per_row`` non-zeros from Zipf-like columns, plus rows that do not peel.

    The extra ``core_rows`` are sums of pairs of earlier rows' supports restricted to frequent
    columns and repeats of earlier rows, so the clouds have a non-empty core.
    """
    w = 1.0 / np.arange(1, n + 1) ** 0.8
    rows = [np.sort(rng.choice(n, size=per_row, replace=False, p=w / w.sum())) for _ in range(m)]
    X = np.zeros((m + core_rows, n))
    for i, c in enumerate(rows):
        X[i, c] = 1.0
    for i in range(core_rows):
        a, b = rng.integers(0, m, 2)
        X[m + i] = X[a] if i % 2 else np.minimum(X[a] + X[b], 1.0) * (np.arange(n) < n // 8)
    return X


def _problems():
    rng = np.random.default_rng(0)
    for seed in range(10):
        rng = np.random.default_rng(seed)
        m, n = int(rng.integers(20, 80)), int(rng.integers(30, 300))
        X = _text_like(rng, m, n, int(rng.integers(2, 8)), core_rows=int(rng.integers(0, 30)))
        y = rng.integers(0, 2, X.shape[0])
        y[:2] = [0, 1]
        yield seed, X, y


@pytest.mark.parametrize("seed,X,y", list(_problems()))
def test_sparse_path_equals_gram_reference(seed, X, y):
    """Same ratios (exactly: they are ratios of the same integers) on 0/1, integer and real data."""
    for f6 in ("text", "table"):
        f = geometric_ratios(sp.csr_matrix(X), y, f6=f6)
        np.testing.assert_array_equal(f, gram_geometric_ratios(X, y, f6=f6))
        if seed < 3:
            np.testing.assert_array_equal(f, naive_geometric_ratios(X, y, f6=f6))
    rng = np.random.default_rng(seed)
    Xi = X * rng.integers(1, 4, X.shape)                      # integer values, same supports
    np.testing.assert_array_equal(geometric_ratios(Xi, y), gram_geometric_ratios(Xi, y))
    Xr = X * rng.uniform(0.5, 2.0, X.shape)                   # real values
    np.testing.assert_array_equal(geometric_ratios(Xr, y), gram_geometric_ratios(Xr, y))


@pytest.mark.parametrize("seed", range(6))
def test_peeling_certificate_and_rank(seed):
    """Peeled block triangular with non-zero pivots; rank = peeled + core rank = rank [P | 1]."""
    rng = np.random.default_rng(seed)
    X = _text_like(rng, 40, 120, 4, core_rows=15) * rng.integers(1, 3, (55, 120))
    P = point_matrix(X)
    rows = np.sort(rng.choice(55, size=45, replace=False)).astype(np.int64)
    h = sparse_hull(P, rows, 1e-10)
    D = P.toarray()
    T = D[h.prow][:, h.pcol]
    np.testing.assert_array_equal(T, np.triu(T))              # pivot k is zero after step k
    np.testing.assert_array_equal(np.diag(T), h.pval)
    assert np.all(h.pval != 0)
    assert sorted(np.r_[h.prow, h.core]) == rows.tolist()
    # no column of the core is a singleton
    counts = (D[h.core] != 0).sum(axis=0)
    assert not np.any(counts == 1)
    assert 0 < h.prow.size and 0 < h.core.size
    A = np.hstack([D[rows], np.ones((rows.size, 1))])
    assert h.dim == np.linalg.matrix_rank(A) - 1
    assert sparse_hull(P, rows, 1e-10, basis=False).dim == h.dim
    assert sparse_hull(P, np.zeros(0, np.int64), 1e-10, basis=False).dim == -1


@pytest.mark.parametrize("values", ["binary", "integer", "real"])
def test_membership_equals_gram_path(values):
    """Member flags of every sample equal those of the Gram-path kernel, with true members."""
    rng = np.random.default_rng(11)
    X = _text_like(rng, 30, 90, 3, core_rows=12)
    if values != "binary":
        X = X * (rng.integers(1, 4, X.shape) if values == "integer" else rng.uniform(1, 2, X.shape))
    hull = np.arange(42, dtype=np.int64)                      # 30 peelable rows + 12 core rows
    # affine combinations of hull points (weights sum to one) and linear ones that are not
    inside, outside_ = [], []
    for _ in range(10):
        a, b, c = rng.choice(42, 3, replace=False)
        inside.append(2 * X[a] - X[b] if values != "real" else 0.2 * X[a] + 0.5 * X[b] + 0.3 * X[c])
        outside_.append(2 * X[a] if _ % 2 else X[a] + X[b])
    X = np.vstack([X, inside, outside_])
    P = point_matrix(X)
    samples = np.arange(X.shape[0], dtype=np.int64)
    sup = K.nonzero_columns_csr(P.indptr, P.indices, hull, P.shape[1])
    out = K.outside_support_csr(P.indptr, P.indices, sup)
    assert not out.any()                                      # the filter leaves all to the test
    h = sparse_hull(P, hull, 1e-10)
    assert h.prow.size > 0 and h.core.size > 0
    cnt, member = count_in_sparse_hull(P, h, samples, out, 1e-8, chunk=7)
    G = (P @ P.T).toarray()
    cnt_g, member_g = K.count_in_hull(G, hull, samples, out, 1e-10, 1e-8)
    np.testing.assert_array_equal(member, member_g)
    assert cnt == cnt_g == member.sum()
    assert member[:52].all()
    # independent check: x ∈ aff(hull) iff appending [x, 1] keeps the rank of [P | 1]
    A = np.hstack([X[hull], np.ones((hull.size, 1))])
    r0 = np.linalg.matrix_rank(A)
    dense = [np.linalg.matrix_rank(np.vstack([A, np.r_[x, 1.0]])) == r0 for x in X]
    np.testing.assert_array_equal(member, dense)
    if values == "binary":                                    # (integer: 0 is in the hull)
        assert not all(dense)


def test_scale_invariance_and_errors():
    rng = np.random.default_rng(3)
    X = _text_like(rng, 40, 100, 3, core_rows=10) * rng.uniform(0.5, 2, (50, 100))
    y = rng.integers(0, 2, 50)
    f = geometric_ratios(X, y)
    for s in (1e-6, 1e6):
        np.testing.assert_array_equal(geometric_ratios(s * X, y), f)
    P = point_matrix(X)
    h = sparse_hull(P, np.arange(20, dtype=np.int64), 1e-10, basis=False)
    with pytest.raises(ValueError, match="basis=False"):
        count_in_sparse_hull(P, h, np.arange(50), np.zeros(50), 1e-8)
    with pytest.raises(ValueError, match="CSR"):
        count_in_sparse_hull(P.tocsc(), sparse_hull(P, np.arange(20), 1e-10), np.arange(50),
                             np.zeros(50), 1e-8)


@pytest.mark.parametrize("extra_row", [False, True])
def test_full_rank_core_by_cholesky_and_deficient_core_by_eigenvalues(extra_row):
    """A core of full rank is factorised by Cholesky, a deficient one by eigenvalues; both
    give the dense rank and the dense membership."""
    rng = np.random.default_rng(5)
    tri = np.array([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 0]], dtype=float)  # no private column
    tri = tri * rng.integers(1, 3, tri.shape)
    base = np.vstack([tri, tri[0]]) if extra_row else tri    # a repeated row: deficient core
    samples = np.vstack([base, 0.5 * base[0] + 0.5 * base[1], 2 * base[0], [0, 1, 1, 0],
                         [0, 0, 0, 1]])
    X = np.vstack([base, samples])
    P = point_matrix(X)
    hull = np.arange(base.shape[0], dtype=np.int64)
    h = sparse_hull(P, hull, 1e-10)
    assert h.prow.size == 0 and h.core.size == base.shape[0]
    A = np.hstack([base, np.ones((base.shape[0], 1))])
    r0 = np.linalg.matrix_rank(A)
    assert (h.L is not None) == (not extra_row) and r0 == 3
    assert h.dim == r0 - 1
    idx = np.arange(X.shape[0], dtype=np.int64)
    sup = K.nonzero_columns_csr(P.indptr, P.indices, hull, P.shape[1])
    out = K.outside_support_csr(P.indptr, P.indices, sup)
    _, member = count_in_sparse_hull(P, h, idx, out, 1e-8)
    dense = [np.linalg.matrix_rank(np.vstack([A, np.r_[x, 1.0]])) == r0 for x in X]
    np.testing.assert_array_equal(member, dense)
    assert member[:base.shape[0] + 1].all() and not member[-1]


@pytest.mark.parametrize("seed", range(6))
def test_rank_by_core_components(seed):
    """Block-structured clouds (cores of several components): the rank from the components
    equals the dense rank of [P | 1], and the ratios equal the Gram reference.  Rows with a
    fixed number of non-zeros put the ones column in every block's column space (no extra
    dimension); varying counts and values do not."""
    rng = np.random.default_rng(seed)
    blocks, width, per_row, m = 5, 10, 4, 70
    X = np.zeros((m, blocks * width))
    for i in range(m):
        b = rng.integers(blocks)
        k = per_row if seed % 2 == 0 else int(rng.integers(2, 7))
        X[i, b * width + rng.choice(width, k, replace=False)] = 1.0
    if seed >= 4:
        X *= rng.integers(1, 4, X.shape)
    if seed >= 4:
        X[0] = 0.0                                            # a zero row: its own component
    y = rng.integers(0, 2, m)
    y[:2] = [0, 1]
    P = point_matrix(X)
    h = sparse_hull(P, np.arange(m, dtype=np.int64), 1e-10, basis=False)
    assert h.core.size > 2 * width                            # several blocks left in the core
    absR = abs(P[h.core])
    from scipy.sparse.csgraph import connected_components
    assert connected_components(absR @ absR.T, directed=False)[0] > 2
    assert h.dim == np.linalg.matrix_rank(np.hstack([X, np.ones((m, 1))])) - 1
    for f6 in ("text", "table"):
        np.testing.assert_array_equal(geometric_ratios(X, y, f6=f6),
                                      gram_geometric_ratios(X, y, f6=f6))

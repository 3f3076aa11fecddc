"""FOHSIC in blocks of rows: the same result as the n × n computation, less memory."""
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from fsbook.baselines import FOHSIC
from fsbook.baselines import fohsic as fohsic_module
from fsbook.baselines.fohsic import fohsic_path
from fsbook.decisions import RTOL, argbest
from fsbook.l1linf.estimators import feature_scales


def _fohsic_n_by_n(X, y, k, sigma=1.0):
    """The straightforward computation FOHSIC replaced: dense n × n kernel,
    centred label kernel and, for every candidate, the sum of ``A ∘ (E_j − 1)`` off the diagonal."""
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    n, d = X.shape
    Xs = X / feature_scales(X)
    _, codes = np.unique(y, return_inverse=True)
    Y = np.eye(codes.max() + 1)[codes]
    Yc = Y - Y.mean(axis=0)
    Gamma = Yc @ Yc.T
    K = np.ones((n, n))
    inv2s2 = 1.0 / (2.0 * sigma ** 2)
    chosen, path = [], []
    for _ in range(k):
        A = K * Gamma
        np.fill_diagonal(A, 0.0)
        gains = np.array([-np.inf if j in chosen else
                          (A * (np.exp(-(Xs[:, j, None] - Xs[None, :, j]) ** 2 * inv2s2) - 1.0)).sum()
                          for j in range(d)])
        j = argbest(gains, rtol=RTOL)
        chosen.append(j)
        K *= np.exp(-(Xs[:, j, None] - Xs[None, :, j]) ** 2 * inv2s2)
        path.append(float((K * Gamma).sum()) / n ** 2)
    return np.array(chosen), np.array(path)


def _problems():
    rng = np.random.default_rng(3)
    y3 = np.arange(60) % 3
    X = rng.standard_normal((60, 30)) * (rng.random((60, 30)) < 0.3)
    X[:, 4] += y3
    yield X, y3
    y2 = np.arange(45) % 2
    X = rng.standard_normal((45, 20))
    X[:, 7] -= 1.2 * y2
    yield X, y2
    y4 = np.arange(50) % 4                                        # 0/1 data: many tied gains
    yield (rng.random((50, 25)) < 0.2).astype(float), y4


@pytest.mark.parametrize("sparse", [False, True])
def test_fohsic_equals_the_n_by_n_computation(sparse):
    for X, y in _problems():
        ref_rank, ref_path = _fohsic_n_by_n(X, y, 6, sigma=1.3)
        s = FOHSIC(6, sigma=1.3).fit(sp.csr_matrix(X) if sparse else X, y)
        np.testing.assert_array_equal(s.ranking_, ref_rank)
        np.testing.assert_allclose(s.hsic_path_, ref_path, rtol=1e-12, atol=1e-16)


@pytest.mark.parametrize("sparse", [False, True])
def test_fohsic_does_not_depend_on_the_block_size(sparse):
    """One n × n block kept across steps, blocks of 7 and of 23 rows: the same bits."""
    for X, y in _problems():
        Xin = sp.csc_matrix(X) if sparse else X
        codes = np.unique(y, return_inverse=True)[1]
        n = X.shape[0]
        whole = fohsic_path(Xin, codes, 6, sigma=0.9)
        for block_bytes in (8 * n * 7, 8 * n * 23):
            got = fohsic_path(Xin, codes, 6, sigma=0.9, block_bytes=block_bytes)
            np.testing.assert_array_equal(got[0], whole[0])
            np.testing.assert_array_equal(got[1], whole[1])


def test_fohsic_memory_stays_below_one_n_by_n_matrix():
    """A DEXTER-like corpus (20 000 sparse features at DEXTER's density 0.47 %) with n = 2000:
    one n × n float64 matrix is 32 MB, the n × n computation held about five."""
    n, d = 2000, 20_000
    y = np.random.default_rng(0).integers(0, 2, n)
    X = sp.hstack([sp.csr_matrix(y[:, None] * 0.5),
                   sp.random(n, d - 1, density=0.0047, format="csr", random_state=0)], format="csr")
    assert fohsic_module.BLOCK_BYTES < 8 * n * n / 4
    tracemalloc.start()
    s = FOHSIC(3).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"FOHSIC(3) on {n} x {d}, {X.nnz} non-zeros: peak {peak / 1e6:.1f} MB")
    assert peak < 8 * n * n / 2, peak
    assert s.ranking_[0] == 0

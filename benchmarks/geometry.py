"""Benchmark of the geometric ratios (run on demand: ``python benchmarks/geometry.py``).

1. :func:`fsbook.geometry.geometric_ratios` on a 1500 × 10 000 sparse binary
   matrix (the size of the UCI Amazon commerce reviews data the paper could not
   process beyond ~2 400 columns), beside the paper's naive method (m + 2 SVDs)
   on the same input.  The naive method is timed on a prefix of the samples
   (``--naive-rows``) and its time for all samples is extrapolated linearly in
   the number of per-sample SVDs (each SVD also grows with m, so this
   underestimates it); pass ``--naive-rows 1500`` to time it in full.
2. The full selector (Fig. 2) on a 5-class, 4-feature-type problem of the same
   size (15 binary classifiers × 15 feature sets).
"""
import argparse
import time

import numpy as np
import scipy.sparse as sp

from fsbook.geometry import GeometricFeatureSetSelector, geometric_ratios
from fsbook.geometry.ratios import point_matrix, svd_affine_dim


def sparse_problem(m=1500, n=10_000, seed=0, classes=5):
    """Text-like sparse binary matrix: Zipf column frequencies, class-dependent columns."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(classes), m // classes)
    p = 0.3 / np.arange(1, n + 1) ** 0.8                  # Zipf-like column densities
    shift = rng.permutation(n)
    rows, cols = [], []
    for i in range(m):
        dens = p if rng.random() < 0.5 else p[shift]
        dens = np.where((np.arange(n) % classes) == y[i], dens * 2.0, dens)
        c = np.flatnonzero(rng.random(n) < dens)
        rows.append(np.full(c.size, i))
        cols.append(c)
    X = sp.csr_matrix((np.ones(sum(map(len, cols))), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(m, n))
    return X, y


def naive_time(X, y, n_rows):
    """Seconds of the naive method: the 3 cloud SVDs + ``n_rows`` per-sample SVDs."""
    B = point_matrix(X, binarize=0.0).toarray()
    pos = y == y.max()
    Pp, Pn = B[pos], B[~pos]
    t0 = time.perf_counter()
    dp, dn = svd_affine_dim(Pp), svd_affine_dim(Pn)
    svd_affine_dim(B)
    t_clouds = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(n_rows):
        x = B[i]
        P, d = (Pn, dn) if pos[i] else (Pp, dp)
        svd_affine_dim(np.vstack([P, x]))
    t_per = (time.perf_counter() - t0) / n_rows
    return t_clouds + t_per * B.shape[0], t_clouds, t_per


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--naive-rows", type=int, default=10)
    args = ap.parse_args(argv)
    X, y5 = sparse_problem()
    y = (y5 == 0).astype(int)
    print(f"matrix {X.shape}, density {X.nnz / np.prod(X.shape):.4f}")
    geometric_ratios(X[:50], y[:50] if y[:50].min() < y[:50].max() else np.r_[0, 1, y[2:50]])
    t0 = time.perf_counter()
    f = geometric_ratios(X, y)
    ours = time.perf_counter() - t0
    print(f"ours  geometric_ratios: {ours:8.2f} s   f = {np.round(f, 4)}")
    est, t_clouds, t_per = naive_time(X, y, args.naive_rows)
    print(f"naive: 3 cloud SVDs {t_clouds:.2f} s, {t_per:.2f} s per sample SVD "
          f"({args.naive_rows} timed) -> {est:8.1f} s for all {X.shape[0]} samples")
    print(f"ratio naive / ours: {est / ours:8.1f}")
    groups = np.array_split(np.arange(X.shape[1]), 4)
    t0 = time.perf_counter()
    sel = GeometricFeatureSetSelector(groups, n_jobs=2).fit(X, y5)
    t_sel = time.perf_counter() - t0
    n_pairs = len(sel.results_)
    print(f"selector: 5 classes x 4 feature types = {n_pairs} (classifier, set) pairs in "
          f"{t_sel:.1f} s; naive estimate {n_pairs} x {est:.0f} s = {n_pairs * est / 3600:.1f} h "
          f"(ratio {n_pairs * est / t_sel:.0f})")


if __name__ == "__main__":
    main()

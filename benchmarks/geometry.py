"""Benchmark of the geometric ratios (run on demand: ``python benchmarks/geometry.py``).

0. Scaling: :func:`fsbook.geometry.geometric_ratios` on sparse 0/1
   text-like problems with 40 non-zeros per row (:func:`scaled_problem`; and
   :func:`block_problem`, a hard case for peeling) at the paper's
   scale, 1500 × 10 000 (60 000 non-zeros), and at ten times it, 15 000 ×
   100 000 (600 000 non-zeros): samples × non-zeros grow 100×, the target is
   time(10×) ≤ 100 · time(1×) and peak memory ≤ 8 GB.  Each scale runs in its
   own subprocess, which reports its time and peak RSS (``ru_maxrss``).  The
   quality check beside it: at 1× and at an intermediate scale
   (``--check-rows``) the Gram-matrix reference :func:`gram_geometric_ratios`
   runs on the same problem and must give the same ratios (exact equality);
   at 10× (the reference would need ~12 GB) the peeling certificate is
   checked independently: the peeled rows restricted to their pivot columns
   form an upper-triangular matrix with non-zero diagonal, so the rank is at
   least the number of peeled rows.
1. :func:`fsbook.geometry.geometric_ratios` on a 1500 × 10 000 sparse binary
   matrix (the size of the UCI Amazon commerce reviews data the paper could not
   process beyond ~2 400 columns), beside the paper's naive method (m + 2 SVDs)
   on the same input.  The naive method is timed on a prefix of the samples
   (``--naive-rows``) and its time for all samples is extrapolated linearly in
   the number of per-sample SVDs (each SVD also grows with m, so this
   underestimates it); pass ``--naive-rows 1500`` to time it in full.
2. The full selector (Fig. 2) on a 5-class, 4-feature-type problem of the same
   size (15 binary classifiers × 15 feature sets).
3. Growth (Figure 3's CPU-time claim): CPU seconds (``time.process_time``) of
   :func:`fsbook.geometry.geometric_ratios` (best of ``GROWTH_REPEATS_OURS``) and of the
   paper's m + 2 SVDs (:func:`fsbook.geometry.naive_geometric_ratios`, best of
   ``GROWTH_REPEATS_NAIVE``) for one classifier and set: movie-review unigrams, 150
   reviews, the ``n`` most frequent columns for ``n`` in :data:`GROWTH_DIMS`; the
   quality check beside it is that both give the same ratios at every ``n``.  The
   growth exponent of each (slope of log t on log n, with its standard error) is
   recorded beside the times.  The whole selector's growth (all 225 pairs of each
   Figure 3 set) is read from the store of the geometry protocol, not measured here.

Sections: ``scaling`` (0), ``naive`` (1 and 2) and ``growth`` (3); ``--only scaling``
runs one (``--only-scaling`` is the same).  A run of ``scaling`` over both problems and a
run of ``growth`` record their measurements for chapter 4 in
``benchmarks/results/geometry.json`` (:mod:`fsbook.benchmark_records`).
"""
import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp

from fsbook.benchmark_records import record_benchmark
from fsbook.experiments.geometry.figures import growth_fit, timing
from fsbook.experiments.geometry.problems import text_problem
from fsbook.geometry import GeometricFeatureSetSelector, geometric_ratios, gram_geometric_ratios
from fsbook.geometry.hull import sparse_hull
from fsbook.geometry.ratios import RTOL, point_matrix, svd_affine_dim


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


def scaled_problem(m, n, nnz_per_row=40, seed=0, classes=5):
    """Sparse 0/1 text-like matrix with exactly ``nnz_per_row`` non-zeros per row.

    Column weights are Zipf-like (``j^-0.8``), half of the rows use a permuted
    column order, and the columns ``j ≡ class (mod classes)`` weigh twice as
    much for the samples of that class (as in :func:`sparse_problem`).
    """
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(classes), m // classes)
    w = 1.0 / np.arange(1, n + 1) ** 0.8
    shift = rng.permutation(n)
    cdfs = {}
    for c in range(classes):
        for v, base in enumerate((w, w[shift])):
            wc = np.where(np.arange(n) % classes == c, 2.0 * base, base)
            cdfs[c, v] = np.cumsum(wc) / wc.sum()
    cols = np.empty((m, nnz_per_row), dtype=np.int64)
    for i in range(m):
        cdf = cdfs[y[i], int(rng.random() < 0.5)]
        row = np.empty(0, dtype=np.int64)
        while row.size < nnz_per_row:
            draw = np.minimum(np.searchsorted(cdf, rng.random(2 * nnz_per_row)), n - 1)
            row = np.concatenate([row, draw])
            _, first = np.unique(row, return_index=True)
            row = row[np.sort(first)]
        cols[i] = np.sort(row[:nnz_per_row])
    X = sp.csr_matrix((np.ones(cols.size), cols.ravel(),
                       np.arange(0, cols.size + 1, nnz_per_row)), shape=(m, n))
    return X, y


def block_problem(m, n, nnz_per_row=40, width=400, seed=0, classes=5):
    """Hard case for peeling: rows fall into ``n / width`` blocks of ``width`` columns.

    Each row takes ``nnz_per_row`` random columns of one random block; at 10×
    a block holds ~60 rows over 400 columns, dense enough that thousands of
    rows of the full cloud own no private column (a large core).
    """
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(classes), m // classes)
    blocks = n // width
    cols = np.sort(np.argsort(rng.random((m, width)), axis=1)[:, :nnz_per_row], axis=1)
    cols = cols + width * rng.integers(0, blocks, (m, 1))
    X = sp.csr_matrix((np.ones(cols.size), cols.ravel(),
                       np.arange(0, cols.size + 1, nnz_per_row)), shape=(m, n))
    return X, y


PROBLEMS = {"text": scaled_problem, "block": block_problem}


def peel_certificate(X, rows):
    """Independent check of a peeled cloud: its triangular block has a non-zero diagonal.

    Returns the numbers of peeled and core rows if ``X[prow][:, pcol]`` is upper
    triangular with non-zero diagonal (so ``rank ≥ t``), else raises.
    """
    h = sparse_hull(point_matrix(X), rows, RTOL, basis=False)
    T = X[h.prow][:, h.pcol].tocoo()
    assert np.all(T.row <= T.col), "peeled block is not upper triangular"
    assert np.all(X[h.prow, h.pcol] != 0), "zero pivot"
    return h.prow.size, h.core.size


def child(kind, m, n, reference, repeats=3):
    """One scale in this process: prints JSON with times (best of ``repeats``), ratios, peak RSS."""
    X, y5 = PROBLEMS[kind](m, n)
    y = (y5 == 0).astype(int)
    geometric_ratios(X[:50], np.r_[0, 1, y[2:50]])           # numba JIT / cache load
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f = geometric_ratios(X, y)
        times.append(time.perf_counter() - t0)
    t = min(times)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    P = point_matrix(X)
    on = (P[:, np.flatnonzero(P[y == 0].getnnz(axis=0) == 0)].getnnz(axis=1) == 0)[y == 1]
    op = (P[:, np.flatnonzero(P[y == 1].getnnz(axis=0) == 0)].getnnz(axis=1) == 0)[y == 0]
    out = {"m": m, "n": n, "nnz": int(X.nnz), "seconds": t, "f": f.tolist(),
           "filter_passed": int(on.sum() + op.sum()),
           "peak_rss_gb": rss / 2**20, "rss_before_gb": rss0 / 2**20}
    certs = [peel_certificate(X, np.flatnonzero(y == c)) for c in (1, 0)]
    out["peeled_core"] = certs + [peel_certificate(X, np.arange(m))]
    if reference:
        t0 = time.perf_counter()
        g = gram_geometric_ratios(X, y)
        out["reference_seconds"] = time.perf_counter() - t0
        out["reference_equal"] = bool(np.array_equal(f, g))
        out["peak_rss_with_reference_gb"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                             / 2**20)
    print(json.dumps(out))


def run_child(kind, m, n, reference):
    """Run :func:`child` in a subprocess; returns its JSON."""
    cmd = ([sys.executable, __file__, "--child", kind, str(m), str(n)]
           + (["--reference"] * reference))
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def scaling(kind, check_rows):
    """Section 0: the 1× and 10× runs side by side, with their quality checks."""
    print(f"-- {kind} problem ({PROBLEMS[kind].__name__})")
    one = run_child(kind, 1500, 10_000, True)    # one after the other: the runs do not overlap
    mid = (run_child(kind, check_rows, round(check_rows * 20 / 3), True) if check_rows
           else None)
    ten = run_child(kind, 15_000, 100_000, False)
    for r in (one, mid, ten):
        if r is None:
            continue
        line = (f"scale {r['m']:>6} x {r['n']:>7} nnz {r['nnz']:>7}: "
                f"ours {r['seconds']:8.3f} s (best of 3), "
                f"peak RSS {r['peak_rss_gb']:.2f} GB; f = {np.round(r['f'], 4)}; "
                f"{r['filter_passed']} samples pass the support filter of f6; "
                f"peeled/core per cloud (pos, neg, full) = {r['peeled_core']}")
        if "reference_seconds" in r:
            line += (f"; Gram reference {r['reference_seconds']:.2f} s (peak RSS "
                     f"{r['peak_rss_with_reference_gb']:.2f} GB), same ratios: "
                     f"{r['reference_equal']}")
        print(line)
    ratio = ten["seconds"] / one["seconds"]
    print(f"ratio time(10x) / time(1x) = {ratio:.1f} (target <= 100): "
          f"{'met' if ratio <= 100 else 'NOT met'}; peak RSS at 10x {ten['peak_rss_gb']:.2f} GB "
          f"(target <= 8): {'met' if ten['peak_rss_gb'] <= 8 else 'NOT met'}")
    return {"ratio_10x_over_1x": round(ratio, 1), "within_100x": bool(ratio <= 100),
            "within_8gb": bool(ten["peak_rss_gb"] <= 8),
            "runs": [_scale_record(r) for r in (one, mid, ten) if r is not None]}


def _seconds(t):
    """Seconds for the record: 0.1 s above one second, two significant digits below."""
    return round(t, 1) if t >= 1 else float(f"{t:.2g}")


def _scale_record(r):
    """The plain-JSON record of one scale of :func:`scaling`."""
    out = {"m": r["m"], "n": r["n"], "nnz": r["nnz"], "seconds": _seconds(r["seconds"]),
           "peak_rss_gb": round(r["peak_rss_gb"], 2),
           "core_rows": [int(core) for _, core in r["peeled_core"]],
           "peel_certificate": True}            # child() raises when a certificate fails
    if "reference_seconds" in r:
        out.update(gram_seconds=_seconds(r["reference_seconds"]),
                   gram_peak_rss_gb=round(r["peak_rss_with_reference_gb"], 2),
                   same_ratios_as_gram=r["reference_equal"])
    return out


#: Figure 3's kernel timing: columns of the movie-review unigram problem, repeats of each timing
GROWTH_DIMS = (250, 500, 1000, 2000, 4000, 8000)
GROWTH_REPEATS_OURS, GROWTH_REPEATS_NAIVE = 5, 3


def growth():
    """Section 3: CPU time of our kernels and of the m + 2 SVDs against the number of columns."""
    tp = text_problem("movies", rows=150, cols=3 * max(GROWTH_DIMS), seed=0, ordered=True)
    X, y = tp["X"][:, tp["groups"][0]], tp["y"]
    geometric_ratios(X[:, :50], y)                              # numba JIT / cache load
    ours = timing(X, y, GROWTH_DIMS, naive_max=0, repeats=GROWTH_REPEATS_OURS)
    naive = [timing(X, y, GROWTH_DIMS, repeats=1) for _ in range(GROWTH_REPEATS_NAIVE)]
    naive_s = np.min([t["naive_s"].to_numpy() for t in naive], axis=0)
    agree = all(bool(t["agree"].all()) for t in naive)
    fits = {"ours": growth_fit(GROWTH_DIMS, ours["ours_s"]), "naive": growth_fit(GROWTH_DIMS, naive_s)}
    for d, a, b in zip(GROWTH_DIMS, ours["ours_s"], naive_s):
        print(f"n = {d:>5}: ours {a:.4f} s, m + 2 SVDs {b:.3f} s")
    for k, f in fits.items():
        print(f"{k}: exponent {f['exponent']:.3f} ± {f['se']:.3f}")
    print(f"same ratios at every n: {agree}")
    return {"problem": f"movie-review unigrams, {X.shape[0]} reviews, the n most frequent columns",
            "dimensions": list(GROWTH_DIMS), "rows": int(X.shape[0]),
            "ours_s": [float(f"{t:.3g}") for t in ours["ours_s"]],
            "naive_s": [float(f"{t:.3g}") for t in naive_s],
            "same_ratios": agree,
            "fits": {k: {q: round(v, 4) if isinstance(v, float) else v for q, v in f.items()}
                     for k, f in fits.items()},
            "repeats": f"CPU seconds (process time), best of {GROWTH_REPEATS_OURS} (ours) and of "
                       f"{GROWTH_REPEATS_NAIVE} (m + 2 SVDs); exponents fitted on the full-precision times"}


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
    ap.add_argument("--check-rows", type=int, default=3000,
                    help="rows of the intermediate problem checked against the Gram reference "
                         "(0: skip)")
    ap.add_argument("--only-scaling", action="store_true")
    ap.add_argument("--only", choices=["scaling", "naive", "growth"], default=None,
                    help="one section: scaling (0), naive (1 and 2) or growth (3)")
    ap.add_argument("--problems", nargs="+", default=["text", "block"], choices=list(PROBLEMS))
    ap.add_argument("--child", nargs=3, metavar=("KIND", "M", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--reference", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child[0], int(args.child[1]), int(args.child[2]), args.reference)
    if args.only in (None, "growth"):
        print("recorded in", record_benchmark("geometry", "growth", growth()))
        if args.only == "growth":
            return
    if args.only == "scaling":
        args.only_scaling = True
    if args.only != "naive":
        record = {kind: scaling(kind, args.check_rows) for kind in args.problems}
        if list(record) == list(PROBLEMS):
            record["repeats"] = "best of 3 (ours); the Gram reference once"
            print("recorded in", record_benchmark("geometry", "scaling", record))
        else:
            print("not recorded: the record needs every problem")
    if args.only_scaling:
        return
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

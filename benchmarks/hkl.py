"""Benchmark of disjunctive HKL (run on demand: ``python benchmarks/hkl.py``).

1. ``DisjunctiveHKL`` fit time and peak memory on 20 Newsgroups alt.atheism vs
   talk.religion.misc (training split, counts booleanised as ``x > 0``) with
   the ``k`` most frequent words of the pair, k = 500, 1 000, 2 000, 5 000; the
   share of time in SVMs, mirror descent (η updates, dual norms) and the
   sufficiency checks (kernel sums over sources), test accuracy, the
   number of disjunctions and a few of them.
2. One sufficiency check (the quadratic forms of all single-feature sources at
   the first iteration) in numba against a straightforward NumPy version.
"""
import argparse
import time
import tracemalloc

import numpy as np

from fsbook.datasets import load_20newsgroups
from fsbook.hkl import DisjunctiveHKL
from fsbook.hkl._kernels import source_quadforms, source_quadforms_numpy, union_matrix

PAIR = ["alt.atheism", "talk.religion.misc"]


def load_pair(k):
    tr = load_20newsgroups("train", categories=PAIR)
    te = load_20newsgroups("test", categories=PAIR)
    Xtr = (tr.data > 0).astype(np.float64).tocsr()
    Xte = (te.data > 0).astype(np.float64).tocsr()
    df = np.asarray(Xtr.sum(axis=0)).ravel()
    cols = np.sort(np.argsort(-df, kind="stable")[:k])
    names = np.asarray(tr.feature_names)[cols]
    return Xtr[:, cols], tr.target, Xte[:, cols], te.target, names


def bench_fit(k, C, max_active):
    Xtr, ytr, Xte, yte, names = load_pair(k)
    est = DisjunctiveHKL(C=C, max_active=max_active, feature_names=names)
    tracemalloc.start()
    t0 = time.perf_counter()
    est.fit(Xtr, ytr)
    t = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    acc = float((est.predict(Xte) == yte).mean())
    tt = est.times_
    tot = sum(tt.values())
    print(f"k={k:5d}  fit {t:7.1f} s  peak(py) {peak:7.1f} MiB  iters {est.n_iter_:3d}  "
          f"active {len(est.active_set_):4d}  disjunctions {len(est.disjunctions_):4d}  "
          f"gap {est.duality_gap_:.2e}  test acc {acc:.4f}")
    print("        shares: " + ", ".join(f"{a} {v / tot:.0%}" for a, v in tt.items()))
    multi = [v for v in est.disjunction_names_ if len(v) > 1]
    print(f"        multi-word disjunctions: {len(multi)}; e.g. {multi[:8]}")
    print(f"        top nodes: {est.disjunction_names_[:10]}")
    return est


def bench_sufficiency(k=2000, repeat=3):
    Xtr, ytr, _, _, _ = load_pair(k)
    rng = np.random.default_rng(0)
    c = rng.normal(size=Xtr.shape[0])
    c -= c.mean()
    beta = np.sqrt(k)
    lg = np.log1p((1 + np.full(k, beta)) ** -2.0)
    R = union_matrix(Xtr, lg)
    Xc = Xtr.tocsc()
    Xc.sort_indices()
    cand = np.arange(k)
    source_quadforms(c, R, Xc, cand[:2])              # compile
    t_nb = min(_time(lambda: source_quadforms(c, R, Xc, cand)) for _ in range(repeat))
    t_np = min(_time(lambda: source_quadforms_numpy(c, R, Xc, cand)) for _ in range(repeat))
    a, b = source_quadforms(c, R, Xc, cand), source_quadforms_numpy(c, R, Xc, cand)
    print(f"sufficiency check, {k} single-feature sources, m={Xtr.shape[0]}: numba {t_nb * 1e3:.1f} ms,"
          f" NumPy {t_np * 1e3:.1f} ms, ratio {t_np / t_nb:.1f}x, max rel diff "
          f"{np.max(np.abs(a - b) / np.abs(b).max()):.1e}")


def _time(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", type=int, nargs="+", default=[500, 1000, 2000, 5000])
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--max-active", type=int, default=200)
    a = ap.parse_args()
    bench_sufficiency()
    for k in a.vocab:
        bench_fit(k, a.C, a.max_active)

"""Benchmark of HSFS (run on demand: ``python benchmarks/l1linf.py``).

1. Wall time of HSFS (default: active-set solver, λ path from a tenth of the largest gradient
   row, loose tolerance before the bisection, vectorised numba pair kernel), of the same HSFS with
   the scalar pair kernel (libm's ``exp`` per pair, ``HSFS(pair_kernel="libm")``: the same
   path to rounding, so the ratio is the kernel's gain), of today's HSFS (fsbook before
   the active-set solver: FISTA on every row, ``lambda_start=1e-3, path_tol=None`` and the NumPy criterion,
   :class:`TodaysHSFS`) and of
   FOHSIC selecting the same number of features on ARCENE (200 × 10 000, k = 10) and DEXTER
   (300 × 20 000 sparse, k = 20), measured side by side in one run, with the ratios HSFS/FOHSIC
   (the paper's claim: HSFS cheaper than forward HSIC selection, ≤ 1) and today's/HSFS (floor ≥ 20),
   the same for HSFS on the fast path
   :data:`FAST_PATH` (not the default: it changes the selections) and, beside them, the quality of each
   selection: 5-fold linear-SVM accuracy on the selected features (standardised, seeded
   folds; floor 0.88 on DEXTER) and the overlap of the two HSFS selections.  The paper claims
   O(d²q²) per quasi-Newton iteration for HSFS against O(d³n²) for FOHSIC; our FOHSIC scores a
   candidate in O(nnz_j²) (see :mod:`fsbook.baselines.fohsic`), so the comparison is against a
   fast greedy search.  ``--profile`` adds the λ path (λ, rows, iterations per λ) and a
   cProfile summary of the default HSFS fit: what bounds its time.  On DEXTER (2026-11-26)
   the default path makes 20 solves, 563 proximal-gradient iterations and 1 371 criterion
   evaluations (625 with the gradient, 746 value only at line-search points).  The libm pair
   kernel, bound by its ``n²/2`` scalar exponentials (0.48 ms for a value, 0.9 ms with the
   gradient at n = 300, q = 10), took about half the fit; the vectorised kernel (exponentials in
   vectorisable arithmetic, within one ulp) takes 0.18 and 0.30 ms and leaves the same
   selection (the stored l1linf tasks recompute equal).  What remains is the first solve over
   all 20 000 rows of the dense start ``W₀`` (50 iterations on ``20 000 × 10`` arrays, about
   40 % of the fit) and the iterations of the bisection, half of which go to solves that
   collapse to ``W = 0`` (the count jumps from 21 rows to 0 near λ ≈ 0.1597); ``W = 0`` is
   stationary for every λ (the HSIC gradient vanishes there), so no closed-form first λ exists.
   Fewer of either changes the iterates and, on DEXTER, the selection (the fast path).
   ``--profile`` also prints the pair kernels' share of the profiled fit: they run once per
   criterion value, so with these kernels no rearrangement of the same iterates costs less than
   they do.  On DEXTER
   (2026-11-29) they took 39 % of the fit, about 0.35 s CPU of 0.88 s, 3.5 times FOHSIC's whole
   fit (0.10 s): HSFS at or below FOHSIC there needs fewer criterion evaluations, that is, other
   iterates.  Two rearrangements with the same bits (the proximal step, its line-search sums and
   the penalty fused in one numba pass; the sparse products in numba) gave no measurable gain.
2. One HSFS objective + gradient on DEXTER (q = 10): the matrix form Xᵀ(D − A)XW with X
   sparse, the same product with X densified, and the straightforward per-pair form of
   eq. (11), Σ_ij A_ij (x_i − x_j)(x_i − x_j)ᵀW, in NumPy one sample i at a time (timed on
   ``--naive-rows`` samples and extrapolated linearly: its cost is exactly linear in them).

3. The explanations of chapter 2's gaps to the paper on the data sets the page cannot afford
   live (:data:`fsbook.experiments.l1linf.tasks.RECORDED_EXPLANATION_DATASETS`, on the folds
   :data:`~fsbook.experiments.l1linf.tasks.RECORDED_EXPLANATION_FOLDS`): every variant of
   :func:`~fsbook.experiments.l1linf.tasks.explanation_runs` (unstandardised features with width 1,
   the paper's 0.01 threshold on the rows of W, LDFS's q), its per-fold test errors and its CPU
   seconds; the chapter pairs them with the stored errors of the same folds.

4. The existing HSFS options that shorten the λ path (:data:`PATH_VARIANTS`: fewer bisection
   steps, a looser tolerance, a later start, fewer iterations), each on ARCENE and DEXTER beside
   FOHSIC: CPU seconds, iterations, criterion evaluations and the features in common with the
   default's selection (printed, not recorded).

Sections: ``selection`` (1), ``gradient`` (2), ``explanations`` (3) and ``variants`` (4; only
with ``--only``); ``--only selection`` runs one.  A complete run
of ``selection`` (both data sets, with today's HSFS) records its measurement for chapter 2 in
``benchmarks/results/l1linf.json`` (:mod:`fsbook.benchmark_records`).
"""
import argparse
import cProfile
import pstats
import time

import numpy as np
import scipy.sparse as sp

from fsbook.baselines import FOHSIC
from fsbook.benchmark_records import read_benchmark, record_benchmark
from fsbook.datasets import load_arcene, load_dexter
from fsbook.experiments import l1linf as L1
from fsbook.l1linf import (
    HSFS,
    HSICCriterion,
    feature_scales,
    gaussian_kernel_from_scores,
    initial_transformation,
)


def _time(fn, repeat=1):
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


REFERENCE = {"solver": "fista", "lambda_start": 1e-3, "path_tol": None}

#: the fast path (existing HSFS options, not the default: it changes the selections):
#: λ from half the largest gradient row, every solve at the loose tolerance 0.1, no bisection
#: (the k rows of largest ``||w_j||∞`` at the last λ with more than k rows).  Chosen on DEXTER
#: (k = 20, seed 0) among seven settings of ``lambda_start``, ``max_bisect``, ``path_tol`` and
#: ``max_iter`` as the fastest one above the 0.88 floor, so its DEXTER accuracy is not an
#: independent check; on ARCENE it selects worse features than the default.
FAST_PATH = {"lambda_start": 0.5, "path_tol": 1e-1, "max_bisect": 0}


class _NumPyHSIC:
    """The HSIC criterion as it was before the numba kernels: ``n × n`` NumPy matrices, no ``value``."""

    def __init__(self, crit):
        self.crit = crit

    def __call__(self, W):
        return self.crit.reference(W)


class TodaysHSFS(HSFS):
    """HSFS before the active-set solver: FISTA on every row, λ from 1e-3 of the largest gradient row, one
    tolerance everywhere (``REFERENCE``) and the NumPy criterion."""

    def __init__(self, n_features_to_select=None, *, random_state=None):
        super().__init__(n_features_to_select, random_state=random_state, **REFERENCE)

    def _criterion(self, X, y, regression=False, sample_weight=None):
        return _NumPyHSIC(super()._criterion(X, y, regression, sample_weight=sample_weight))


def svm_accuracy(X, y, support):
    """5-fold (stratified, seeded) accuracy of a linear SVM on the standardised selected columns."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    Xk = X[:, np.flatnonzero(support)]
    Xk = Xk.toarray() if sp.issparse(Xk) else Xk
    model = make_pipeline(StandardScaler(), LinearSVC(random_state=0))
    return float(cross_val_score(model, Xk, y, cv=StratifiedKFold(5, shuffle=True, random_state=0)).mean())


def pair_kernel_share(stats):
    """``(calls, seconds)`` of the HSIC pair kernels (``hsic_value*``) in a :class:`pstats.Stats`:
    the part of an HSFS fit that the same iterates cannot avoid (one kernel call per criterion
    value, with or without the gradient)."""
    rows = [(nc, tt) for (_, _, name), (_, nc, tt, _, _) in stats.stats.items() if name.startswith("hsic_value")]
    return sum(r[0] for r in rows), sum(r[1] for r in rows)


def profile_fit(X, y, k, hsfs_seconds=None, fohsic_seconds=None):
    """The λ path and a cProfile summary (internal time) of one default HSFS fit, and the share of
    its pair kernels: called once per criterion evaluation, they bound from below what an HSFS
    with the same iterates can cost.  Given the CPU seconds of HSFS and FOHSIC measured side by
    side (the profiled fit is slower), that share of ``hsfs_seconds`` is compared with FOHSIC."""
    import pandas as pd

    prof = cProfile.Profile()
    h = prof.runcall(lambda: HSFS(k, random_state=0).fit(X, y))
    with pd.option_context("display.width", 160, "display.max_rows", 100):
        print(h.path_.to_string(), flush=True)
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(12)
    calls, seconds = pair_kernel_share(stats)
    share = seconds / stats.total_tt
    line = f"pair kernels: {calls} calls, {100 * share:.0f} % of the profiled fit"
    if hsfs_seconds and fohsic_seconds:
        line += (f"; that share of HSFS's {hsfs_seconds:.3f} s CPU is {share * hsfs_seconds:.3f} s, "
                 f"{share * hsfs_seconds / fohsic_seconds:.1f}x FOHSIC's whole fit ({fohsic_seconds:.3f} s)")
    print(line, flush=True)


def _cpu_time(fn, repeat=1):
    """(wall seconds, CPU seconds of this process, result), the least of ``repeat`` runs:
    single-threaded fits (the ``*_NUM_THREADS=1`` settings) on a shared machine are compared by
    CPU time, and the fits of a few tenths of a second by the best of :data:`REPEAT` runs (one
    run of FOHSIC on DEXTER took 0.14 to 0.34 s CPU here)."""
    wall = cpu = np.inf
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        cpu, wall = min(cpu, time.process_time() - c), min(wall, time.perf_counter() - t)
    return wall, cpu, out


#: runs of HSFS and FOHSIC timed in :func:`selection_times` (the least CPU time counts; today's
#: HSFS, 30-80 s, runs once)
REPEAT = 3


def _seconds(t):
    """Seconds for the record: 0.1 s above one second, two significant digits below."""
    return round(t, 1) if t >= 1 else float(f"{t:.2g}")


def _record_row(row):
    """The plain-JSON record of one data set of :func:`selection_times` (with the reference)."""
    k = row["k"]
    fast = {"fast_path": FAST_PATH, "fast_seconds": _seconds(row["fast"]),
            "fast_over_fohsic": round(row["fast"] / row["fohsic"], 2),
            "hsfs_at_or_below_fohsic": bool(row["hsfs"] <= row["fohsic"]),
            "fast_at_or_below_fohsic": bool(row["fast"] <= row["fohsic"]),
            "acc_fast": round(row["acc_fast"], 3), "common_features_fast": row["common_fast"],
            "libm_kernel_seconds": _seconds(row["libm"]), "libm_kernel_over_fohsic": round(row["libm"] / row["fohsic"], 1),
            "libm_kernel_over_hsfs": round(row["libm"] / row["hsfs"], 2),
            "common_features_libm_kernel": row["common_libm"]}
    return {**fast, "k": k, "hsfs_seconds": _seconds(row["hsfs"]), "fohsic_seconds": _seconds(row["fohsic"]),
            "reference_seconds": _seconds(row["reference"]),
            "hsfs_over_fohsic": round(row["hsfs"] / row["fohsic"], 1),
            "reference_over_hsfs": round(row["reference"] / row["hsfs"], 1),
            "at_least_20x_faster_than_reference": bool(row["reference"] >= 20 * row["hsfs"]),
            "acc_hsfs": round(row["acc_hsfs"], 3), "acc_fohsic": round(row["acc_fohsic"], 3),
            "acc_reference": round(row["acc_reference"], 3),
            "common_features": row["common"], "same_features": bool(row["common"] == k)}


def selection_times(reference=True, profile=False, datasets=("arcene", "dexter")):
    rows = []
    for name, loader, k in (("arcene", load_arcene, 10), ("dexter", load_dexter, 20)):
        if name not in datasets:
            continue
        b = loader()
        X = b.data.astype(np.float64)
        FOHSIC(2).fit(X[:20], b.target[:20])          # numba compilation outside the timing
        HSFS(2).fit(X[:20, :50], b.target[:20])
        w_h, t_h, h = _cpu_time(lambda: HSFS(k, random_state=0).fit(X, b.target), REPEAT)  # noqa: B023 (called at once)
        w_f, t_f, f = _cpu_time(lambda: FOHSIC(k).fit(X, b.target), REPEAT)  # noqa: B023 (called at once)
        acc_h, acc_f = svm_accuracy(X, b.target, h.support_), svm_accuracy(X, b.target, f.support_)
        print(f"{name:7s} k={k:2d}  HSFS {t_h:8.2f} s CPU ({w_h:.2f} s wall; {h.n_iter_} iterations, "
              f"{len(h.path_)} λ, SVM accuracy {acc_h:.3f})   FOHSIC {t_f:8.2f} s CPU ({w_f:.2f} s wall; "
              f"SVM accuracy {acc_f:.3f})   HSFS/FOHSIC = {t_h / t_f:6.2f} CPU, {w_h / w_f:6.2f} wall", flush=True)
        w_q, t_q, fq = _cpu_time(lambda: HSFS(k, random_state=0, **FAST_PATH).fit(X, b.target), REPEAT)  # noqa: B023
        acc_q = svm_accuracy(X, b.target, fq.support_)
        common_q = int((fq.support_ & h.support_).sum())
        print(f"{name:7s} k={k:2d}  HSFS fast path {t_q:8.2f} s CPU ({w_q:.2f} s wall; {fq.n_iter_} iterations, "
              f"{len(fq.path_)} λ, SVM accuracy {acc_q:.3f})   fast/FOHSIC = {t_q / t_f:6.2f} CPU, "
              f"{w_q / w_f:6.2f} wall   features in common with HSFS {common_q}/{k}", flush=True)
        w_l, t_l, hl = _cpu_time(lambda: HSFS(k, pair_kernel="libm", random_state=0).fit(X, b.target), REPEAT)  # noqa: B023
        common_l = int((hl.support_ & h.support_).sum())
        print(f"{name:7s} k={k:2d}  HSFS, libm pair kernel {t_l:8.2f} s CPU ({w_l:.2f} s wall; {hl.n_iter_} "
              f"iterations)   libm/FOHSIC = {t_l / t_f:6.2f} CPU   libm/HSFS = {t_l / t_h:6.2f} CPU   "
              f"features in common with HSFS {common_l}/{k}", flush=True)
        row = {"dataset": name, "k": k, "hsfs": t_h, "fohsic": t_f, "acc_hsfs": acc_h, "acc_fohsic": acc_f,
               "fast": t_q, "acc_fast": acc_q, "common_fast": common_q, "libm": t_l, "common_libm": common_l}
        if reference:
            w_r, t_r, r = _cpu_time(lambda: TodaysHSFS(k, random_state=0).fit(X, b.target))  # noqa: B023
            acc_r = svm_accuracy(X, b.target, r.support_)
            same = int((r.support_ & h.support_).sum())
            print(f"{name:7s} k={k:2d}  today's HSFS {t_r:8.2f} s CPU ({w_r:.2f} s wall; {r.n_iter_} iterations, "
                  f"{len(r.path_)} λ, SVM accuracy {acc_r:.3f})   today's/HSFS = {t_r / t_h:6.1f} CPU, "
                  f"{w_r / w_h:6.1f} wall   features in common {same}/{k}", flush=True)
            row.update(reference=t_r, acc_reference=acc_r, common=same)
        if profile:
            profile_fit(X, b.target, k, t_h, t_f)
        rows.append(row)
    if reference and [r["dataset"] for r in rows] == ["arcene", "dexter"]:
        values = {r["dataset"]: _record_row(r) for r in rows}
        values["dexter"]["accuracy_floor_met"] = bool(rows[1]["acc_hsfs"] >= 0.88)
        values["dexter"]["fast_accuracy_floor_met"] = bool(rows[1]["acc_fast"] >= 0.88)
        values["time"] = f"CPU seconds of one process (HSFS and FOHSIC: least of {REPEAT} runs)"
        print("recorded in", record_benchmark("l1linf", "selection", values))
    else:
        print("not recorded: the record needs both data sets and today's HSFS")
    return rows


#: the existing HSFS options that shorten the λ path (fewer criterion evaluations, other iterates),
#: timed by :func:`path_variants` against the default and FOHSIC
PATH_VARIANTS = {"default": {}, "max_bisect=10": {"max_bisect": 10}, "max_bisect=8": {"max_bisect": 8},
                 "tol=1e-4": {"tol": 1e-4}, "tol=1e-4, max_bisect=8": {"tol": 1e-4, "max_bisect": 8},
                 "path_tol=5e-2": {"path_tol": 5e-2}, "lambda_start=0.2": {"lambda_start": 0.2},
                 "max_iter=100": {"max_iter": 100}}


class _CountingKernels:
    """Within ``with``: count the calls of HSFS's default pair kernels (one per criterion value,
    with the gradient or without), in ``calls["gradient"]`` and ``calls["value"]``."""

    def __enter__(self):
        from fsbook.l1linf import hsic

        self._kernels, self._saved = hsic.PAIR_KERNELS, hsic.PAIR_KERNELS["vectorised"]
        self.calls = {"gradient": 0, "value": 0}
        with_gradient, value = self._saved

        def counted_gradient(*args):
            self.calls["gradient"] += 1
            return with_gradient(*args)

        def counted_value(*args):
            self.calls["value"] += 1
            return value(*args)

        self._kernels["vectorised"] = (counted_gradient, counted_value)
        return self

    def __exit__(self, *exc):
        self._kernels["vectorised"] = self._saved
        return False


def path_variants(datasets=("arcene", "dexter")):
    """Section ``variants``: every :data:`PATH_VARIANTS` setting of HSFS on ARCENE (k = 10) and
    DEXTER (k = 20), side by side with FOHSIC: CPU seconds (least of :data:`REPEAT` runs), the
    iterations and criterion evaluations of the fit, and the features in common with the
    default's selection.  Printed, not recorded: what the same selection would need."""
    rows = []
    for name, loader, k in (("arcene", load_arcene, 10), ("dexter", load_dexter, 20)):
        if name not in datasets:
            continue
        b = loader()
        X = b.data.astype(np.float64)
        FOHSIC(2).fit(X[:20], b.target[:20])
        HSFS(2).fit(X[:20, :50], b.target[:20])
        _, t_f, _ = _cpu_time(lambda: FOHSIC(k).fit(X, b.target), REPEAT)  # noqa: B023 (called at once)
        default = None
        for label, settings in PATH_VARIANTS.items():
            with _CountingKernels() as counter:     # the same calls in every run: counted over REPEAT
                _, t_h, h = _cpu_time(lambda: HSFS(k, random_state=0, **settings).fit(X, b.target), REPEAT)  # noqa: B023
            counter.calls = {key: n // REPEAT for key, n in counter.calls.items()}
            default = h.support_ if default is None else default
            common = int((h.support_ & default).sum())
            print(f"{name:7s} k={k:2d}  {label:24s} {t_h:6.2f} s CPU  HSFS/FOHSIC = {t_h / t_f:5.2f}  "
                  f"{h.n_iter_:5d} iterations  {counter.calls['gradient']:5d} values with gradient  "
                  f"{counter.calls['value']:5d} values alone  {common}/{k} features in common with the default",
                  flush=True)
            rows.append({"dataset": name, "variant": label, "hsfs": t_h, "fohsic": t_f, "common": common,
                         **counter.calls})
    return rows


def naive_gradient(X, y, W, sigma, rows):
    """Per-pair form of eq. (11) in dense NumPy, over the first ``rows`` samples i."""
    crit = HSICCriterion(X, y, sigma)
    Z = X @ W
    A = gaussian_kernel_from_scores(Z, sigma) * crit.Gamma
    G = np.zeros_like(W)
    for i in range(rows):
        Dif = X[i] - X                                   # x_i - x_j for every j, n x d
        G += Dif.T @ (A[i][:, None] * (Dif @ W))
    n = X.shape[0]
    return G * (1.0 / (n * n * sigma ** 2))              # d J / d W for the rows summed


def gradient_times(naive_rows):
    b = load_dexter()
    X = b.data.astype(np.float64)
    Xs = X @ sp.diags(1.0 / feature_scales(X))
    Xs = Xs.tocsr()
    Xd = Xs.toarray()
    W = initial_transformation(Xs.shape[1], 10, 1.0, 0)
    sparse_crit, dense_crit = HSICCriterion(Xs, b.target), HSICCriterion(Xd, b.target)
    t_s, (_, g_s) = _time(lambda: sparse_crit(W), repeat=20)
    t_d, (_, g_d) = _time(lambda: dense_crit(W), repeat=5)
    t_n, g_n = _time(lambda: naive_gradient(Xd, b.target, W, 1.0, naive_rows))
    n = Xd.shape[0]
    t_full = t_n * n / naive_rows
    # the full per-pair gradient equals the matrix form; check the partial sum against it
    check = naive_gradient(Xd[:40], b.target[:40], W, 1.0, 40)
    ref = HSICCriterion(Xd[:40], b.target[:40])(W)[1]
    assert np.allclose(check, ref, rtol=1e-8, atol=1e-14), "per-pair and matrix forms disagree"
    assert np.allclose(g_s, g_d, rtol=1e-10, atol=1e-16)
    print(f"DEXTER 300 x 20000 (q = 10), one objective + gradient:\n"
          f"  matrix form, X sparse  {1e3 * t_s:10.2f} ms\n"
          f"  matrix form, X dense   {1e3 * t_d:10.2f} ms   ({t_d / t_s:.1f} x sparse)\n"
          f"  per-pair eq. (11)      {1e3 * t_full:10.0f} ms   ({t_full / t_s:.0f} x sparse; "
          f"{naive_rows} of {n} rows timed, extrapolated)")
    return t_s, t_d, t_full


def explanations(datasets=L1.tasks.RECORDED_EXPLANATION_DATASETS, folds=L1.tasks.RECORDED_EXPLANATION_FOLDS):
    """Section 3: the variants of every data set, recorded after each variant.  A run resumes the
    record: a variant already recorded on the same folds is not run again (delete the section of
    ``benchmarks/results/l1linf.json`` to measure everything anew).  A complete run of the default
    data sets and folds is the chapter's record."""
    folds = [int(f) for f in folds]
    try:
        previous = read_benchmark("l1linf", "explanations")["values"]["runs"]
    except FileNotFoundError:
        previous = []
    runs = [r for r in previous if r["dataset"] in datasets and r["folds"] == folds]
    done = {(r["dataset"], r["method"], r["variant"]) for r in runs}
    default = tuple(datasets) == tuple(L1.tasks.RECORDED_EXPLANATION_DATASETS) and tuple(folds) == tuple(
        L1.tasks.RECORDED_EXPLANATION_FOLDS)
    wanted = [(ds, method, name, settings) for ds in datasets
              for (method, name), settings in L1.tasks.explanation_runs(ds).items()]
    for ds, method, name, settings in wanted:
        if (ds, method, name) in done:
            print(f"{ds:8s} {method} {name:26s} recorded already", flush=True)
            continue
        start = time.process_time()
        errors = L1.tasks.variant_errors(ds, method, folds_used=folds, **settings)
        seconds = time.process_time() - start
        runs.append({"dataset": ds, "method": method, "variant": name, "folds": folds,
                     "errors": [float(e) for e in errors], "cpu_seconds": round(seconds, 1)})
        print(f"{ds:8s} {method} {name:26s} errors {np.round(errors.to_numpy(), 1).tolist()}  "
              f"{seconds:7.1f} s CPU", flush=True)
        if default:
            record_benchmark("l1linf", "explanations", _explanation_values(runs, datasets, folds, len(wanted)))
    if default:
        print("recorded in", record_benchmark("l1linf", "explanations",
                                              _explanation_values(runs, datasets, folds, len(wanted))), flush=True)
    return runs


def _explanation_values(runs, datasets, folds, n_wanted):
    return {"runs": runs, "folds": folds, "datasets": list(datasets), "complete": len(runs) == n_wanted,
            "cpu_seconds": round(sum(r["cpu_seconds"] for r in runs), 1),
            "time": "CPU seconds of one process (selector and tuned SVM, all folds of a variant)"}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--naive-rows", type=int, default=30)
    parser.add_argument("--only", nargs="+", default=None,
                        choices=["selection", "gradient", "explanations", "variants"],
                        help="run these sections only")
    parser.add_argument("--skip-selection", action="store_true")
    parser.add_argument("--skip-gradient", action="store_true")
    parser.add_argument("--skip-reference", action="store_true", help="skip today's (slow) HSFS")
    parser.add_argument("--profile", action="store_true", help="λ path and cProfile of the default HSFS")
    parser.add_argument("--datasets", nargs="+", default=["arcene", "dexter"], choices=["arcene", "dexter"])
    args = parser.parse_args()
    run_explanations = args.only is not None and "explanations" in args.only
    run_variants = args.only is not None and "variants" in args.only
    if args.only is not None:
        args.skip_selection = "selection" not in args.only
        args.skip_gradient = "gradient" not in args.only
    if not args.skip_gradient:
        gradient_times(args.naive_rows)
    if not args.skip_selection:
        selection_times(reference=not args.skip_reference, profile=args.profile, datasets=args.datasets)
    if run_variants:
        path_variants(args.datasets)
    if run_explanations:
        explanations()

"""Full LP vs cutting-plane solver for formulations (4) and (7) on Pima (Fung et al. 2007).

One 0.85/0.15 split of Pima, 1 500 training triples from the labels (``S`` = the ~650 distinct
training points of the triples), γ1 = γ2 = 1e-4 (the value 2-fold CV picks most often; the full-kernel optimum is then non-zero).  Each solve runs in its own fresh process
(``multiprocessing`` spawn) so its peak resident memory (``ru_maxrss`` minus the process's
footprint before building the LP) is its own.  Prints LP sizes (variables, constraints,
non-zeros), solve times, peak memory, the objectives (must agree to 1e-6 relative) and the
time ratio full / cutting plane, measured side by side in this run (target ≥ 10×).  Also the
``psd="nonnegative"`` LP (α ≥ 0 in place of dominance, ``m + T + G`` variables): its size, time
and memory on the same problem, and the time ratio cutting plane / α ≥ 0 LP when both ran
(its optimum is a different LP's, so objectives are not compared).

Run: ``.venv/bin/python benchmarks/kernel_design.py [--triples 1500] [--variant full weak]
[--solvers cutting_plane full_lp nonnegative]`` (``--solvers nonnegative`` alone is quick).

``--arcene D [D ...]`` instead times :class:`~fsbook.kernel_design.WeakKernelSelector`
(defaults: α ≥ 0, 1 000 triplets, three widths, ``random_state=0``) on 100 ARCENE samples
(seeded draw of 100 of the 200, the first ``D`` features, standardised): the direct HiGHS
solve of the whole LP (``solver="full_lp"``) against column generation (``solver="auto"``),
each fit in its own fresh process.  Prints CPU and wall time (the CPU-time ratio is the
measure on a shared machine), peak resident memory of the process (``ru_maxrss``, the whole
process), the objectives (must agree to 1e-6 relative), the largest difference of α and
whether the selected features are the same.  ``--no-direct`` skips the direct solve (about
9 min and 3 GB at ``D = 10 000``), ``--direct-max D`` skips it above ``D`` features.

``--only regimes`` runs :func:`fsbook.experiments.kernel_design.weak_kernel_regimes` (formulation
(7) under each regime of ``REGIMES``: raw or standardised features, other widths, dominance per
triple, α ≥ 0; three data sets × five splits × 1 500 training triples, about 6 CPU minutes) and records its rows for
chapter 3 (section ``regimes``), with the CPU time it took.

Sections: ``pima`` (the default run), ``arcene`` (``--only arcene`` runs ``--arcene 3000
10000``) and ``regimes``.  A run of ``arcene`` records its measurement for chapter 3 in
``benchmarks/results/kernel_design.json`` (:mod:`fsbook.benchmark_records`): per number of
features the CPU seconds and peak memory of each solver, and where both ran the CPU-time ratio
direct / column generation beside its quality checks (objectives equal to 1e-6 relative, same
selected features).
"""
import argparse
import multiprocessing as mp
import resource
import time

import numpy as np

from fsbook.benchmark_records import record_benchmark
from fsbook.experiments.kernel_design import FULL_MU, WEAK_MU, split
from fsbook.kernel_design import (
    full_kernel_specs,
    kernel_groups,
    kernel_stack,
    solve_cutting_plane,
    solve_full_lp,
    weak_kernel_specs,
)


def _problem(variant, n_train):
    Xtr, _, _, _, t, _ = split({"dataset": "pima", "split": 0, "n_train": n_train, "n_test": 10})
    S, inv = np.unique(Xtr[np.unique(t)], axis=0, return_inverse=True)
    lookup = np.full(Xtr.shape[0], -1)
    lookup[np.unique(t)] = inv
    loc = lookup[t]
    specs = full_kernel_specs(FULL_MU) if variant == "full" else weak_kernel_specs(Xtr.shape[1], WEAK_MU)
    groups, _ = kernel_groups(specs)
    return kernel_stack(specs, S), loc, groups


def _worker(args):
    variant, solver, n_train, g = args
    K, loc, groups = _problem(variant, n_train)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    if solver == "nonnegative":
        res = solve_full_lp(K, loc, groups, g, g, psd="nonnegative")
    else:
        fn = solve_full_lp if solver == "full_lp" else solve_cutting_plane
        res = fn(K, loc, groups, g, g)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"variant": variant, "solver": solver, "|S|": K.shape[1], "T": loc.shape[0],
            "m": K.shape[0], "variables": res.n_variables, "constraints": res.n_constraints,
            "nnz": res.nnz, "LP solves": res.n_iter, "time [s]": elapsed,
            "peak extra RSS [MiB]": (peak - base) / 1024, "objective": res.objective}


def _arcene(d, n=100, seed=0):
    from sklearn.preprocessing import StandardScaler

    from fsbook import datasets
    b = datasets.load_arcene()
    X, y = np.asarray(b.data, dtype=np.float64), np.asarray(b.target)
    rows = np.sort(np.random.default_rng(seed).choice(y.size, n, replace=False))
    return StandardScaler().fit_transform(X[rows][:, :d]), y[rows]


def _arcene_worker(args):
    from fsbook.kernel_design import WeakKernelSelector
    d, solver = args
    X, y = _arcene(d)
    cpu, wall = time.process_time(), time.perf_counter()
    sel = WeakKernelSelector(solver=solver, random_state=0).fit(X, y)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    lp = sel.kernel_design_.lp_
    return {"d": d, "solver": solver, "cpu [s]": cpu, "wall [s]": wall,
            "peak RSS [MiB]": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "objective": lp.objective, "LP solves": lp.n_iter, "last LP nnz": lp.nnz,
            "alpha": sel.alpha_, "support": sel.get_support(indices=True)}


def _seconds(t):
    """Seconds for the record: 0.1 s above one second, two significant digits below."""
    return round(t, 1) if t >= 1 else float(f"{t:.2g}")


def _solver_record(r):
    return {"cpu_seconds": _seconds(r["cpu [s]"]), "wall_seconds": _seconds(r["wall [s]"]),
            "peak_rss_gb": round(r["peak RSS [MiB]"] / 1024, 2), "lp_solves": int(r["LP solves"]),
            "objective": float(r["objective"]), "selected": int(r["support"].size),
            "nonzero_kernels": int(np.count_nonzero(r["alpha"]))}


def arcene(dims, direct=True, direct_max=None):
    """Direct HiGHS solve vs column generation of the selector's LP on ARCENE (see module)."""
    ctx = mp.get_context("spawn")
    rows = []
    record = {}
    for d in dims:
        done = {}
        run_direct = direct and (direct_max is None or d <= direct_max)
        for solver in (("full_lp",) if run_direct else ()) + ("auto",):
            with ctx.Pool(1) as pool:
                r = done[solver] = pool.apply(_arcene_worker, ((d, solver),))
            rows.append(r)
            print(f"ARCENE 100x{d} {'direct' if solver == 'full_lp' else 'colgen'}: "
                  f"cpu={r['cpu [s]']:.2f}s wall={r['wall [s]']:.2f}s peak RSS={r['peak RSS [MiB]']:.0f}MiB "
                  f"LPs={r['LP solves']} last-LP nnz={r['last LP nnz']:,} obj={r['objective']:.12g} "
                  f"selected={r['support'].size}", flush=True)
        if len(done) == 2:
            a, b = done["full_lp"], done["auto"]
            rel = abs(a["objective"] - b["objective"]) / max(abs(a["objective"]), 1e-300)
            same = np.array_equal(a["support"], b["support"])
            print(f"ARCENE 100x{d}: cpu ratio direct/colgen = {a['cpu [s]'] / b['cpu [s]']:.1f}x, "
                  f"wall ratio = {a['wall [s]'] / b['wall [s]']:.1f}x, objective rel. diff = {rel:.2e} "
                  f"({'OK' if rel <= 1e-6 else 'MISMATCH'}), max |Δα| = "
                  f"{np.abs(a['alpha'] - b['alpha']).max():.1e}, same selected features: {same}",
                  flush=True)
        rec = {"samples": 100, "features": d, "colgen": _solver_record(done["auto"])}
        rec["colgen"]["within_1gb"] = bool(done["auto"]["peak RSS [MiB]"] <= 1024)
        if len(done) == 2:
            rec["direct"] = _solver_record(a)
            rec["cpu_ratio"] = round(a["cpu [s]"] / b["cpu [s]"], 1)
            rec["objective_rel_diff"] = float(f"{rel:.1e}")
            rec["same_objective"] = bool(rel <= 1e-6)
            rec["same_features"] = bool(same)
            rec["target_10x_met"] = bool(a["cpu [s]"] >= 10 * b["cpu [s]"] and rel <= 1e-6)
        record[str(d)] = rec
    print("recorded in", record_benchmark("kernel_design", "arcene", record))
    return rows


def regimes():
    """Formulation (7) under each regime (see module); records section ``regimes``."""
    import math

    from fsbook.experiments.kernel_design import weak_kernel_regimes

    cpu = time.process_time()
    df = weak_kernel_regimes()
    cpu = time.process_time() - cpu
    rows = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
            for r in df.to_dict("records")]
    print(df.groupby(["dataset", "regime"], sort=False)[["alpha_zero", "n_selected", "score",
                                                          "best_single"]].mean().to_string())
    print(f"{len(rows)} fits of the regimes in {cpu:.0f} s CPU")
    print("recorded in", record_benchmark("kernel_design", "regimes",
                                          {"rows": rows, "cpu_seconds": _seconds(cpu)}))
    return df


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--triples", type=int, default=1500)
    p.add_argument("--gamma", type=float, default=1e-4)
    p.add_argument("--variant", nargs="+", default=["full", "weak"], choices=["full", "weak"])
    p.add_argument("--solvers", nargs="+", default=["cutting_plane", "full_lp", "nonnegative"],
                   choices=["cutting_plane", "full_lp", "nonnegative"])
    p.add_argument("--arcene", type=int, nargs="+", default=None, metavar="D",
                   help="time WeakKernelSelector on 100 ARCENE samples x D features instead")
    p.add_argument("--no-direct", action="store_true", help="with --arcene: column generation only")
    p.add_argument("--direct-max", type=int, default=None, metavar="D",
                   help="with --arcene: the direct solve only up to D features")
    p.add_argument("--only", choices=["pima", "arcene", "regimes"], default=None,
                   help="one section: pima (the default run), arcene (--arcene 3000 10000) or regimes")
    a = p.parse_args(argv)
    if a.only == "regimes":
        return regimes()
    if a.only == "arcene" and not a.arcene:
        a.arcene = [3000, 10_000]
    if a.only == "pima" and a.arcene:
        p.error("--only pima does not take --arcene")
    if a.arcene:
        return arcene(a.arcene, direct=not a.no_direct, direct_max=a.direct_max)
    ctx = mp.get_context("spawn")
    rows = []
    for variant in a.variant:
        done = {}
        for solver in a.solvers:
            with ctx.Pool(1) as pool:
                r = done[solver] = pool.apply(_worker, ((variant, solver, a.triples, a.gamma),))
            rows.append(r)
            print(f"{variant:5s} {solver:13s} |S|={r['|S|']} T={r['T']} m={r['m']} "
                  f"vars={r['variables']:,} cons={r['constraints']:,} nnz={r['nnz']:,} "
                  f"LPs={r['LP solves']} time={r['time [s]']:.3f}s "
                  f"peak+={r['peak extra RSS [MiB]']:.0f}MiB obj={r['objective']:.9g}", flush=True)
        if "cutting_plane" in done and "full_lp" in done:
            cut, full = done["cutting_plane"], done["full_lp"]
            rel = abs(cut["objective"] - full["objective"]) / max(abs(full["objective"]), 1e-300)
            print(f"{variant}: time ratio full/cutting = {full['time [s]'] / cut['time [s]']:.1f}x, "
                  f"memory ratio = {full['peak extra RSS [MiB]'] / max(cut['peak extra RSS [MiB]'], 1e-9):.1f}x, "
                  f"objective rel. diff = {rel:.2e} ({'OK' if rel <= 1e-6 else 'MISMATCH'})", flush=True)
        if "cutting_plane" in done and "nonnegative" in done:
            print(f"{variant}: time ratio cutting plane / α ≥ 0 LP = "
                  f"{done['cutting_plane']['time [s]'] / done['nonnegative']['time [s]']:.1f}x", flush=True)
    return rows


if __name__ == "__main__":
    main()

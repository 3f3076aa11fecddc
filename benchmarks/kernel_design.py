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

``--only regimes`` runs :func:`fsbook.experiments.kernel_design.ablations.weak_kernel_regimes` (formulation
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
import json
import multiprocessing as mp
import resource
import time

import numpy as np

from fsbook.benchmark_records import record_benchmark
from fsbook.experiments.kernel_design.paper import FULL_MU, WEAK_MU
from fsbook.experiments.kernel_design.tasks import split
from fsbook.kernel_design import (
    full_kernel_specs,
    kernel_groups,
    kernel_stack,
    solve_cutting_plane,
    solve_full_lp,
    weak_kernel_specs,
)
from fsbook.kernel_design.colgen import LEGACY_OPTIONS


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


#: the column-generation runs of the ARCENE section: label -> ``solver_options`` (``None``:
#: the default); every run with the tie rule must report the direct solve's scores
COLGEN_RUNS = {"default": None,
               "legacy": LEGACY_OPTIONS,
               "legacy_start_tie": {**LEGACY_OPTIONS, "tie": "lexicographic"},
               "small_start_tie": {"n_start": 300, "start_iter": 5}}
#: the numbers of features at which the ARCENE section compares top-k cuts
TOP_KS = (2, 5, 10, 20, 50)


def _arcene_worker(args):
    from fsbook.kernel_design import WeakKernelSelector
    d, solver, options = args
    X, y = _arcene(d)
    cpu, wall = time.process_time(), time.perf_counter()
    sel = WeakKernelSelector(solver=solver, random_state=0, solver_options=options).fit(X, y)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    lp = sel.kernel_design_.lp_
    tie_cpu = sum(h["cpu_seconds"] for h in lp.history if h.get("stage") == 2)
    top = {k: sel.set_params(n_features_to_select=k).get_support(indices=True) for k in TOP_KS}
    sel.set_params(n_features_to_select=None)
    return {"d": d, "solver": solver, "cpu [s]": cpu, "wall [s]": wall, "tie cpu [s]": tie_cpu,
            "peak RSS [MiB]": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "objective": lp.objective, "LP solves": lp.n_iter, "last LP nnz": lp.nnz,
            "alpha": sel.alpha_, "scores": sel.scores_, "support": sel.get_support(indices=True),
            "top": top}


def _seconds(t):
    """Seconds for the record: 0.1 s above one second, two significant digits below."""
    return round(t, 1) if t >= 1 else float(f"{t:.2g}")


def _solver_record(r):
    return {"cpu_seconds": _seconds(r["cpu [s]"]), "wall_seconds": _seconds(r["wall [s]"]),
            "tie_stage_cpu_seconds": _seconds(r["tie cpu [s]"]),
            "peak_rss_gb": round(r["peak RSS [MiB]"] / 1024, 2), "lp_solves": int(r["LP solves"]),
            "objective": float(r["objective"]), "selected": int(r["support"].size),
            "nonzero_kernels": int(np.count_nonzero(r["alpha"]))}


def _quality(ref, r):
    """Objective difference and kept sets of run ``r`` against the reference ``ref``."""
    rel = abs(ref["objective"] - r["objective"]) / max(abs(ref["objective"]), 1e-300)
    return {"objective_rel_diff": float(f"{rel:.1e}"), "same_objective_1e-9": bool(rel <= 1e-9),
            "max_score_diff": float(f"{np.abs(ref['scores'] - r['scores']).max():.1e}"),
            "same_kept_set": bool(np.array_equal(ref["support"], r["support"])),
            "same_top_k": bool(all(np.array_equal(ref["top"][k], r["top"][k]) for k in TOP_KS))}


def _run(ctx, args):
    with ctx.Pool(1) as pool:
        return pool.apply(_arcene_worker, (args,))


def arcene(dims, direct=True, direct_max=None):
    """The direct HiGHS solve against column generation on ARCENE, side by side (see module).

    The direct run is ``solver="full_lp"`` followed by the tie rule's second stage; its CPU
    time without that stage is the direct HiGHS solve's, the reference of the ratio.  Every
    column-generation run with the tie rule (:data:`COLGEN_RUNS`) is checked against the
    direct run: the same objective to 1e-9 relative, the same kept set and top-k cuts."""
    ctx = mp.get_context("spawn")
    record = {}
    for d in dims:
        run_direct = direct and (direct_max is None or d <= direct_max)
        ref = _run(ctx, (d, "full_lp", None)) if run_direct else None
        runs = {label: _run(ctx, (d, "auto", opts)) for label, opts in COLGEN_RUNS.items()}
        rec = {"samples": 100, "features": d, "colgen": _solver_record(runs["default"]),
               "colgen_runs": {label: _solver_record(r) for label, r in runs.items()}}
        rec["colgen"]["within_1gb"] = bool(runs["default"]["peak RSS [MiB]"] <= 1024)
        if ref is not None:
            direct_cpu = ref["cpu [s]"] - ref["tie cpu [s]"]
            rec["direct"] = {**_solver_record(ref), "cpu_seconds": _seconds(direct_cpu),
                             "cpu_seconds_with_tie_stage": _seconds(ref["cpu [s]"])}
            rec["quality"] = {label: _quality(ref, r) for label, r in runs.items()}
            q = rec["quality"]["default"]
            rec["objective_rel_diff"] = q["objective_rel_diff"]
            rec["same_objective"] = q["same_objective_1e-9"]
            rec["same_features"] = q["same_kept_set"]
            rec["cpu_ratio"] = round(direct_cpu / runs["default"]["cpu [s]"], 1)
            rec["cpu_ratio_legacy"] = round(direct_cpu / runs["legacy"]["cpu [s]"], 1)
            rec["target_10x_met"] = bool(rec["cpu_ratio"] >= 10 and q["same_objective_1e-9"]
                                         and q["same_kept_set"] and q["same_top_k"])
        record[str(d)] = rec
        print(json.dumps(rec, indent=1), flush=True)
    print("recorded in", record_benchmark("kernel_design", "arcene", record))
    return record


def regimes():
    """Formulation (7) under each regime (see module); records section ``regimes``."""
    import math

    from fsbook.experiments.kernel_design.ablations import weak_kernel_regimes

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

"""The LP of Fung, Rosales & Rao (2007) against the SDP it replaces, side by side in one run.

Paper 3 (Section 2.1) learns a kernel :math:`K^α = \\sum_p α_p K_p` from triplets and keeps it
positive semidefinite.  Its general formulation (2) asks for :math:`K^α ⪰ 0` on the points
``S`` of the triplets, "a relatively expensive semidefinite program"; formulations (4) and (7)
replace the PSD cone by diagonal dominance, an LP, "much more efficient computationally".  No
SDP is solved anywhere else in the book; this benchmark solves it.

**The SDP.**  Formulation (2) with the LP's own objective and group penalty, so that the two
problems differ only in the cone:

.. math::

   \\min_{α, ε, s}\\; \\sum_t ε_t + γ_1 \\sum_g s_g + γ_2 \\operatorname{tr} K^α
   \\quad\\text{s.t.}\\quad K^α_{ij} - K^α_{ik} + ε_t ≥ 1,\\; ε ≥ 0,\\;
   |α_p| ≤ s_g\\;(p ∈ I_g),\\; K^α = \\sum_p α_p K_p ⪰ 0 \\text{ on } S,

α of any sign (the paper's affine combination).  A diagonally dominant matrix with a
non-negative diagonal is PSD, so every feasible point of the LP is feasible here: the SDP's
optimum is at most the LP's (checked on every problem).  Written with cvxpy
(:func:`sdp_problem`) and solved by Clarabel (interior point) and SCS (first order,
``eps_abs = eps_rel = 1e-6``).

**The LP** is the chapter's: :func:`fsbook.kernel_design.solve_cutting_plane` (the estimator's
default solver for ``psd="dominance"``) and :func:`fsbook.kernel_design.solve_full_lp` (one
HiGHS solve with the auxiliary ``r_ij``), on the same base kernel matrices, triplets, groups
and γ.

**Data.**  The chapter's data sets and split 0 of its protocol
(:func:`fsbook.experiments.kernel_design.tasks.split`: standardised 0.85 / 0.15 partition, 1 000 test
triples from the test part).  Subsampled so that the SDP fits in memory and time: the
triplets are drawn (:func:`~fsbook.kernel_design.triplets_from_labels`) among the first
``n_points`` training points, ``|S| ≤ n_points``.  Clarabel factors a dense block of order
``|S|(|S|+1)/2``: about 3 s of CPU at ``|S| = 60``, more than 3 min and 3 GB at 120.  γ1 = γ2 =
1e-4, the value :mod:`benchmarks.kernel_design` uses (the one 2-fold CV picks most often).
Kernels: the chapter's full kernels (Gaussians at ``FULL_MU``, polynomial of degree 2, linear;
formulation 4) and weak one-feature Gaussians at ``WEAK_MU`` (formulation 7).

Sections:

* ``datasets`` -- every data set, both kernel families, ``|S| ≤ 60``, 300 triplets, the SDP by
  Clarabel (SCS needs tens of thousands of iterations, up to 40 s, at ``1e-6`` on some of
  them): CPU seconds (``time.process_time``, building included) of each solver, objectives,
  the smallest eigenvalue of :math:`K^α` on ``S`` and the fraction of the 1 000 held-out test
  triples each solution respects (:func:`fsbook.experiments.kernel_design.tasks.respected`);
* ``scaling`` -- one data set (wdbc, full kernels) at growing ``|S|`` with ``5 |S|`` triplets:
  Clarabel up to ``CLARABEL_MAX`` points, SCS and the LPs at every size; growth exponents of
  the CPU time (slope of log t on log |S|, over the solves that reached an accurate optimum:
  a solve the solver marks inaccurate, or whose objective exceeds the LP's, is listed under
  ``checks`` and left out of the fit).

``python benchmarks/kernel_design_sdp.py [--only datasets|scaling]`` records each section in
``benchmarks/results/kernel_design_sdp.json`` (:mod:`fsbook.benchmark_records`).  The whole
run takes about 5 min of one core.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from fsbook.benchmark_records import record_benchmark
from fsbook.experiments.geometry.figures import growth_fit
from fsbook.experiments.kernel_design.paper import DATASETS, FULL_MU, WEAK_MU
from fsbook.experiments.kernel_design.tasks import respected, split
from fsbook.kernel_design import (
    dominance_violation,
    full_kernel_specs,
    kernel_groups,
    kernel_stack,
    solve_cutting_plane,
    solve_full_lp,
    triplet_differences,
    triplets_from_labels,
    weak_kernel_specs,
)

#: γ1 = γ2 of every problem (benchmarks/kernel_design.py's value)
GAMMA = 1e-4
#: SDP solvers and their options
SOLVERS = {"clarabel": ("CLARABEL", {}), "scs": ("SCS", {"eps_abs": 1e-6, "eps_rel": 1e-6})}
#: section "datasets": points of S (at most), training triplets, held-out test triples
N_POINTS, N_TRIPLES, N_TEST = 60, 300, 1000
#: section "scaling": data set, sizes of S, triplets per point, largest S Clarabel is run on
SCALING_DATASET, SCALING_SIZES, TRIPLES_PER_POINT, CLARABEL_MAX = "wdbc", (20, 40, 60, 80, 120), 5, 80
#: SDP solvers of section "datasets"
DATASET_SOLVERS = ("clarabel",)
#: relative tolerance of the check "SDP optimum ≤ LP optimum"
OBJECTIVE_RTOL = 1e-6


def _check(K, triplets, groups):
    K = np.asarray(K, dtype=np.float64)
    if K.ndim != 3 or K.shape[1] != K.shape[2]:
        raise ValueError(f"K must have shape (m, n, n), got {K.shape}")
    if not np.allclose(K, K.transpose(0, 2, 1), rtol=0, atol=1e-12 * max(1.0, np.abs(K).max())):
        raise ValueError("the base kernel matrices must be symmetric")
    t = np.asarray(triplets, dtype=np.int64)
    if t.ndim != 2 or t.shape[1] != 3 or t.size == 0 or t.min() < 0 or t.max() >= K.shape[1]:
        raise ValueError(f"triplets must be a non-empty (T, 3) array of indices into S, got {t.shape}")
    g = np.asarray(groups, dtype=np.int64)
    if g.shape != (K.shape[0],) or g.min() < 0:
        raise ValueError("groups must give one non-negative group per base kernel")
    return K, t, g


def sdp_objective(K, triplets, groups, alpha, gamma1, gamma2):
    """The objective of the LP and the SDP at ``alpha`` with the best slacks and group bounds:
    :math:`\\sum_t \\max(0, 1 - D_t α) + γ_1 \\sum_g \\max_{p∈I_g}|α_p| + γ_2 \\operatorname{tr} K^α`.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.stack([np.eye(3), np.ones((3, 3))])
    >>> sdp_objective(K, [[0, 1, 2]], [0, 1], np.array([0.5, 0.0]), 0.1, 0.0)
    1.05
    """
    K, t, g = _check(K, triplets, groups)
    a = np.asarray(alpha, dtype=np.float64)
    eps = np.maximum(0.0, 1.0 - a @ triplet_differences(K, t))
    s = np.zeros(g.max() + 1)
    np.maximum.at(s, g, np.abs(a))
    return float(eps.sum() + gamma1 * s.sum() + gamma2 * np.einsum("pii->p", K) @ a)


def sdp_problem(K, triplets, groups, gamma1, gamma2):
    """Formulation (2) with the LP's objective as a cvxpy problem (see the module docstring).

    Returns ``(problem, alpha)``, ``alpha`` the cvxpy variable of the mixing weights.

    Examples
    --------
    One PSD and one indefinite base kernel on three points: the indefinite one may enter only
    as far as the mixture stays PSD.

    >>> import numpy as np
    >>> K = np.stack([np.eye(3), np.array([[0., 1, 0], [1, 0, 0], [0, 0, 0]])])
    >>> prob, alpha = sdp_problem(K, [[0, 1, 2]], [0, 1], 0.0, 0.1)
    >>> round(float(prob.solve(solver="CLARABEL")), 4), np.round(alpha.value, 3)
    (0.3, array([1., 1.]))
    """
    import cvxpy as cp
    K, t, g = _check(K, triplets, groups)
    m, n, _ = K.shape
    alpha = cp.Variable(m)
    eps = cp.Variable(t.shape[0], nonneg=True)
    s = cp.Variable(int(g.max()) + 1)
    Ka = cp.reshape(K.reshape(m, n * n).T @ alpha, (n, n), order="C")
    constraints = [triplet_differences(K, t).T @ alpha + eps >= 1, cp.abs(alpha) <= s[g],
                   (Ka + Ka.T) / 2 >> 0]
    objective = cp.sum(eps) + gamma1 * cp.sum(s) + gamma2 * np.einsum("pii->p", K) @ alpha
    return cp.Problem(cp.Minimize(objective), constraints), alpha


def solve_sdp(K, triplets, groups, gamma1, gamma2, solver="clarabel"):
    """Solve :func:`sdp_problem` with one of :data:`SOLVERS`.

    Returns
    -------
    dict
        ``alpha``, ``objective`` (the solver's), ``objective_at_alpha`` (:func:`sdp_objective`),
        ``min_eig`` (smallest eigenvalue of :math:`K^α`), ``cpu_seconds`` (process time of
        building and solving), ``compile_cpu_seconds`` (cvxpy's canonicalisation alone),
        ``iterations`` and ``status`` (cvxpy's: ``"optimal"``, or ``"optimal_inaccurate"`` when the
        solver stopped at reduced accuracy; the record checks such a solution's eigenvalues and
        objective like any other).  Raises ``RuntimeError`` on any other status.
    """
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {sorted(SOLVERS)}, got {solver!r}")
    name, options = SOLVERS[solver]
    K, t, g = _check(K, triplets, groups)
    t0 = time.process_time()
    prob, alpha = sdp_problem(K, t, g, gamma1, gamma2)
    prob.get_problem_data(name)
    compile_s = time.process_time() - t0
    t0 = time.process_time()
    prob, alpha = sdp_problem(K, t, g, gamma1, gamma2)
    prob.solve(solver=name, **options)
    cpu = time.process_time() - t0
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"{name} stopped with status {prob.status!r}")
    a = np.asarray(alpha.value, dtype=np.float64)
    return {"alpha": a, "objective": float(prob.value),
            "objective_at_alpha": sdp_objective(K, t, g, a, gamma1, gamma2),
            "min_eig": float(np.linalg.eigvalsh(np.tensordot(a, K, 1)).min()),
            "cpu_seconds": cpu, "compile_cpu_seconds": compile_s,
            "iterations": prob.solver_stats.num_iters, "status": prob.status}


def problem(dataset, variant, n_points, n_triples, n_test=N_TEST):
    """Split 0 of the chapter's protocol, the triplets drawn among the first ``n_points``
    training points: ``(K, loc, groups, specs, X_test, test_triples)``, ``K`` the base kernels
    on the distinct points ``S`` of the triplets, ``loc`` the triplets as indices into ``S``
    (triplets whose points coincide by value dropped)."""
    Xtr, ytr, Xte, _, _, t_te = split({"dataset": dataset, "split": 0, "n_train": 3,
                                       "n_test": n_test})
    sub = np.arange(min(n_points, ytr.size))
    t = triplets_from_labels(ytr[sub], n_triples, 0)
    used = np.unique(t)
    S, inv = np.unique(Xtr[used], axis=0, return_inverse=True)
    lookup = np.full(sub.size, -1)
    lookup[used] = inv.ravel()
    loc = lookup[t]
    loc = loc[(loc[:, 0] != loc[:, 1]) & (loc[:, 0] != loc[:, 2]) & (loc[:, 1] != loc[:, 2])]
    specs = (full_kernel_specs(FULL_MU) if variant == "full"
             else weak_kernel_specs(Xtr.shape[1], WEAK_MU))
    groups, _ = kernel_groups(specs)
    return kernel_stack(specs, S), loc, groups, specs, Xte, t_te


def _lp(solve, K, loc, groups):
    t0 = time.process_time()
    res = solve(K, loc, groups, GAMMA, GAMMA)
    cpu = time.process_time() - t0
    Ka = np.tensordot(res.alpha, K, 1)
    return {"alpha": res.alpha, "objective": float(res.objective), "cpu_seconds": cpu,
            "min_eig": float(np.linalg.eigvalsh(Ka).min()),
            "max_dominance_violation": float(dominance_violation(Ka).max()),
            "lp_solves": int(res.n_iter), "zero_mixture": bool(np.abs(res.alpha).max() <= 1e-12)}


def _seconds(t):
    """Seconds for the record: three significant digits."""
    return float(f"{t:.3g}")


def compare(dataset, variant, n_points, n_triples, sdp_solvers=tuple(SOLVERS)):
    """Every solver on one problem: the plain-JSON record of :func:`problem`'s LP and SDP."""
    K, loc, groups, specs, Xte, t_te = problem(dataset, variant, n_points, n_triples)
    Kte = kernel_stack(specs, Xte)
    runs = {"lp_cutting_plane": _lp(solve_cutting_plane, K, loc, groups),
            "lp_full": _lp(solve_full_lp, K, loc, groups)}
    for s in sdp_solvers:
        runs[f"sdp_{s}"] = solve_sdp(K, loc, groups, GAMMA, GAMMA, s)
    lp_obj = runs["lp_cutting_plane"]["objective"]
    out = {"dataset": dataset, "variant": variant, "points_S": int(K.shape[1]),
           "triplets": int(loc.shape[0]), "kernels": int(K.shape[0]), "test_triples": int(len(t_te))}
    for name, r in runs.items():
        rec = {"cpu_seconds": _seconds(r["cpu_seconds"]), "objective": round(r["objective"], 6),
               "min_eig_S": float(f"{r['min_eig']:.3g}"),
               "test_accuracy": respected(np.tensordot(r["alpha"], Kte, 1), t_te)}
        if name.startswith("sdp"):
            rec.update(compile_cpu_seconds=_seconds(r["compile_cpu_seconds"]),
                       iterations=int(r["iterations"]), status=r["status"],
                       objective_at_alpha=round(r["objective_at_alpha"], 6),
                       at_most_lp=bool(r["objective_at_alpha"] <= lp_obj * (1 + OBJECTIVE_RTOL)
                                       + OBJECTIVE_RTOL))
        else:
            rec.update(lp_solves=r["lp_solves"], zero_mixture=r["zero_mixture"],
                       max_dominance_violation=float(f"{r['max_dominance_violation']:.3g}"))
        out[name] = rec
    for s in sdp_solvers:
        out[f"cpu_ratio_sdp_{s}_over_lp"] = round(runs[f"sdp_{s}"]["cpu_seconds"]
                                                  / runs["lp_cutting_plane"]["cpu_seconds"], 1)
    return out


def _line(r):
    parts = [f"{r['dataset']:>13} {r['variant']:<4} |S| {r['points_S']:>3} T {r['triplets']:>4} "
             f"m {r['kernels']:>3}:"]
    for k in ("lp_cutting_plane", "lp_full", "sdp_clarabel", "sdp_scs"):
        if k in r:
            parts.append(f"{k} {r[k]['cpu_seconds']:.3g} s obj {r[k]['objective']:.4f} "
                         f"acc {r[k]['test_accuracy']:.3f}")
    return " | ".join(parts)


def datasets():
    """Section ``datasets``: every data set and both kernel families at ``|S| ≤ N_POINTS``."""
    rows = []
    for d in DATASETS:
        for variant in ("full", "weak"):
            rows.append(compare(d, variant, N_POINTS, N_TRIPLES, DATASET_SOLVERS))
            print(_line(rows[-1]), flush=True)
    lp = np.array([r["lp_cutting_plane"]["cpu_seconds"] for r in rows])
    summary = {}
    for s in DATASET_SOLVERS:
        sd = np.array([r[f"sdp_{s}"]["cpu_seconds"] for r in rows])
        acc = np.array([r[f"sdp_{s}"]["test_accuracy"] - r["lp_cutting_plane"]["test_accuracy"]
                        for r in rows])
        summary[s] = {"total_cpu_seconds": _seconds(sd.sum()),
                      "median_cpu_ratio_over_lp": round(float(np.median(sd / lp)), 1),
                      "min_cpu_ratio_over_lp": round(float(np.min(sd / lp)), 1),
                      "accuracy_minus_lp_min": round(float(acc.min()), 3),
                      "accuracy_minus_lp_max": round(float(acc.max()), 3),
                      "all_at_most_lp": all(r[f"sdp_{s}"]["at_most_lp"] for r in rows),
                      "more_accurate_than_lp": int((acc > 0).sum()),
                      "less_accurate_than_lp": int((acc < 0).sum())}
    summary["lp_total_cpu_seconds"] = _seconds(lp.sum())
    summary["problems"] = len(rows)
    summary["sdp_inaccurate"] = [f"{r['dataset']} ({r['variant']}, {s})" for r in rows
                                 for s in DATASET_SOLVERS if r[f"sdp_{s}"]["status"] != "optimal"]
    summary["lp_zero_mixture"] = [f"{r['dataset']} ({r['variant']})" for r in rows
                                  if r["lp_cutting_plane"]["zero_mixture"]]
    print(summary)
    return {"setting": f"split 0 of the chapter's protocol; {N_TRIPLES} training triplets drawn "
                       f"among the first {N_POINTS} training points (a subsample: |S| <= {N_POINTS}, "
                       f"so that Clarabel's dense KKT block fits); {N_TEST} held-out test triples; "
                       f"gamma1 = gamma2 = {GAMMA:g}",
            "rows": rows, "summary": summary}


def scaling():
    """Section ``scaling``: CPU time against ``|S|`` on one data set, full kernels."""
    rows = []
    for n in SCALING_SIZES:
        solvers = tuple(s for s in SOLVERS if s != "clarabel" or n <= CLARABEL_MAX)
        rows.append(compare(SCALING_DATASET, "full", n, TRIPLES_PER_POINT * n, solvers))
        print(_line(rows[-1]), flush=True)
    fits = {}
    for k in ("lp_cutting_plane", "lp_full", "sdp_clarabel", "sdp_scs"):
        pts = [(r["points_S"], r[k]["cpu_seconds"]) for r in rows if k in r      # accurate solves only
               and r[k].get("status", "optimal") == "optimal" and r[k].get("at_most_lp", True)]
        fit = growth_fit([p for p, _ in pts], [s for _, s in pts])
        fits[k] = {q: round(v, 3) if isinstance(v, float) else v for q, v in fit.items()}
        print(f"{k}: exponent {fit['exponent']:.2f} ± {fit['se']:.2f}")
    checks = {f"sdp_{s}": {"inaccurate": [r["points_S"] for r in rows if f"sdp_{s}" in r
                                          and r[f"sdp_{s}"]["status"] != "optimal"],
                           "above_lp_optimum": [r["points_S"] for r in rows if f"sdp_{s}" in r
                                                and not r[f"sdp_{s}"]["at_most_lp"]]}
              for s in SOLVERS}
    print(checks)
    return {"setting": f"{SCALING_DATASET}, split 0, full kernels, {TRIPLES_PER_POINT} |S| triplets "
                       f"among the first |S| training points; Clarabel up to |S| = {CLARABEL_MAX}; "
                       f"gamma1 = gamma2 = {GAMMA:g}",
            "rows": rows, "growth_exponents": fits, "checks": checks}


SECTIONS = {"datasets": datasets, "scaling": scaling}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=list(SECTIONS), default=None)
    args = ap.parse_args(argv)
    for name, section in SECTIONS.items():
        if args.only in (None, name):
            t0 = time.process_time()
            values = section()
            values["cpu_seconds_of_section"] = round(time.process_time() - t0, 1)
            print("recorded in", record_benchmark("kernel_design_sdp", name, values))


if __name__ == "__main__":
    main()

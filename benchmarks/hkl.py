"""Benchmark of disjunctive HKL (run on demand: ``python benchmarks/hkl.py``).

1. Inner SVM: the warm-started SMO (:mod:`fsbook.hkl.smo`) against scikit-learn's libsvm,
   both inside the whole active-set solver on the 20 Newsgroups pair (top ``--inner-k`` words,
   one training fold), at a small and a large ``C``: time, SVM count and objective.
2. One sufficiency check (quadratic forms of all single-feature sources) in numba against a
   straightforward NumPy version.
3. The target: the paper's protocol on alt.atheism vs talk.religion.misc — 4-fold stratified
   CV on all 1 427 posts, words with document frequency ≥ 2 (12 511; ``--top-k`` keeps only the
   most frequent), ``x > 0`` — tuned L2-SVM and L1-SVM (LinearSVC, inner 3-fold grid search over
   C) beside ``DisjunctiveHKLCV`` (inner 3-fold CV along the warm-started C path), on the same
   folds, in one run; accuracies, wall time of the whole CV, multi-word disjunctions.
4. The dense regime: on one inner split of outer fold 0's training posts (2 000-word vocabulary
   of the inner training posts), ``DisjunctiveHKL`` with a small ``μ`` (single words nearly
   free, so the model approaches a ridge SVM on the words) beside the L2-SVM on the same words:
   accuracy on the inner validation posts, active nodes, multi-word disjunctions, certified gap
   and the number of sources violating the sufficiency condition at the last iteration.  The
   outer test posts are not used.
5. Large C (``large_c``): tic-tac-toe, 4-fold CV of ``DisjunctiveHKLCV(Cs=[0.1, 1, 10, 100,
   1000], cv=3)`` with this code (``solver="conic"``; recorded) and with the package at the commit when the issue was filed
   (``76f3d01``, unpacked by ``git archive``), each in one single-threaded child process; the
   ratio of their CPU seconds (``/proc`` while running, ``wait4`` if stopped), so that other
   load on the machine does not count.  The old run is stopped after ``--old-timeout`` CPU
   seconds (default 12 × this code's), and the ratio is then a lower bound.
6. MONK's problems (``monks``): the default ``DisjunctiveHKLCV()`` on the UCI test splits.
7. The pair-source sufficiency check (``pair_sources``): the fit of Table 1 on the
   20 Newsgroups pair (outer fold 0's 1 070 training posts, all 12 511 words, ``C = 3``, the
   estimator's defaults) grown to ``--pair-nodes`` active nodes (600 by default; every
   iteration's sources, up to about 190 000 of them, are pairs of active words).  The state
   of every iteration (active set, ``c = α∘y``, threshold) is recorded; then, side by side on
   the same states, the reference (:func:`fsbook.hkl.lattice.sources` +
   :func:`fsbook.hkl.solver.source_scores_reference`, the code of the issue) against the
   grouped check (:func:`~fsbook.hkl.lattice.source_groups` +
   :func:`~fsbook.hkl.solver.source_group_scores`): total seconds, ratio, and the quality
   check beside it — the largest ``|Δ log Q|``, the same maximum (the certificate) and the
   same violating sources at every iteration.
8. The restricted solver, today's mirror descent on ``η`` with one inner SVM per step
   (``solver="mirror"``) side by side with the conic program on the node features
   (``solver="conic"``, :mod:`fsbook.hkl.primal`), same data, same tolerance (``1e-3``), no node
   budget (``max_active=None``), one run, CPU seconds (``time.process_time``: the machine is
   shared; numba's threads count):

   - ``conic_fit``: one fit on the 20 Newsgroups pair, outer fold 0's 1 070 training posts, all
     12 511 words, ``C = 3``, the estimator's defaults (target: certified in ≤ 120 CPU s).
     Quality: both certified, objectives within the tolerance, decision values on the 1 427
     posts (largest difference relative to the largest value) and predicted labels of the 357
     test posts.
   - ``c_path``: tic-tac-toe, the 4 outer training folds of Table 1, ``C`` in
     ``0.1, 1, 10, 100, 1000``: the warm-started path (:func:`fsbook.hkl.disjunctive_hkl_path`)
     against independent fits at the same ``C`` (target: the path ≥ 10× faster), both
     solvers; every fit certified, warm and cold objectives within the tolerance.  Beside
     them the bound of any warm start of the active set: each ``C`` solved once more from
     its own final active set and ``η`` (one restricted solve and its certificate); the
     independent fits' time over that is the most such a warm start can gain.
   - ``task``: one whole Table 1 task of the 20 Newsgroups pair (outer fold 0, seed 7,
     ``DisjunctiveHKLCV``'s data-driven C path with inner 3-fold CV and the refit, as
     :mod:`fsbook.experiments.hkl` runs it but with ``max_active=None``) with the conic solver
     (target ≤ 15 CPU min); every fold fit and the refit certified.  Today's solver is not
     rerun here (several hours by the issue's count).
9. The warm-started C path with the working-set restricted solver (``warm_path``):
   :func:`fsbook.hkl.disjunctive_hkl_path` with ``solver="working_set"``
   (:func:`fsbook.hkl.primal.restricted_working_set`: the conic program on the samples near
   the margin of the previous iteration's or the previous ``C``'s solution) side by side with
   independent conic fits at the same ``C`` (``solver="conic"``, today's default) and with the
   warm path of the conic solver, in one run, CPU seconds (``time.process_time``).  On
   tic-tac-toe, the 4 outer training folds of Table 1 and ``C`` in ``0.1, 1, 10, 100, 1000``
   (the setting of ``large_c`` and ``c_path``; recorded as ``warm_path``) and, with
   ``--warm-newsgroups``, on the 20 Newsgroups pair's outer fold 0 (1 070 training posts, all
   12 511 words; ``C`` in ``0.1, 0.3, 1, 3, 10``; recorded as ``warm_path_newsgroups``).  Target:
   the warm path ≥ 10× the independent fits.  Quality beside it: every fit certified, the
   largest relative difference of the objectives of the warm path and the independent fit at
   each ``C`` (both certified within ``tol``), whether they select the same disjunctions
   (``|w_v| > 10⁻⁴ max|w|``, the estimator's rule) and the largest difference of their decision
   values on the training posts relative to the largest value.  Beside the ratio, the CPU
   seconds of the working-set path spent inside its restricted solves, and the ratio a free
   restricted solver would reach (the independent fits over the rest of the path: the
   sufficiency checks, the bounds of ``Ω_A*`` and the source enumeration of every active-set
   iteration), the bound of any restricted solver with these active-set iterations.  Beside
   them, in the same run, the warm path of the first-order restricted solver
   (``solver="variational"``, :func:`fsbook.hkl.variational.restricted_variational`: warm-started
   SVM w-steps and closed-form η-steps of the variational form, finished by the working-set
   program when the alternation is slow), with the same quality columns, its restricted solves'
   CPU seconds, and how many of them the alternation certified alone.
10. The same solver end to end (``warm_path_cv``): the tic-tac-toe CV of ``large_c``
    (``DisjunctiveHKLCV(Cs=[0.1, 1, 10, 100, 1000], cv=3)`` on the 4 outer training folds, the
    inner folds' warm-started paths and the refit) with ``solver="conic"`` and with
    ``solver="working_set"``, side by side in one run, CPU seconds; quality: the same chosen
    ``C``, the same cross-validated accuracies, the same test predictions, every fit certified.
"""
import argparse
import json
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from fsbook.benchmark_records import record_benchmark
from fsbook.datasets import load_atheism_religion, most_frequent_words, outer_folds
from fsbook.experiments.hkl.newsgroups import SVM_CS, run_fold
from fsbook.hkl import HKLProblem, solve_active_set, union_matrix
from fsbook.hkl._kernels import source_quadforms, source_quadforms_numpy


def top_words(k):
    X, y, words = load_atheism_religion(2)
    cols = most_frequent_words(X, k)
    return X[:, cols].tocsr(), np.where(y == 1, 1.0, -1.0), words[cols]


def bench_inner(k, Cs, mu=0.3, max_active=100):
    X, y, _ = top_words(k)
    tr, _ = outer_folds(y)[0]
    beta = np.sqrt(k)
    for C in Cs:
        row = {}
        for inner in ("smo", "libsvm"):
            prob = HKLProblem(X[tr], y[tr], C=C, omega=np.full(k, beta), delta_top=1.0,
                              delta_node=mu / beta, inner=inner)
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                r = solve_active_set(prob, tol=1e-3, max_active=max_active, max_add=20,
                                     solver="mirror")
            row[inner] = (time.perf_counter() - t0, r["times"]["svm"], r["n_svm"], r["primal"],
                          r["gap"])
        s, l = row["smo"], row["libsvm"]
        print(f"inner SVM, k={k}, C={C:g}: SMO total {s[0]:.1f} s (SVMs {s[1]:.1f} s, {s[2]}), "
              f"libsvm total {l[0]:.1f} s (SVMs {l[1]:.1f} s, {l[2]}); SVM-time ratio "
              f"{l[1] / s[1]:.1f}x; objectives {s[3]:.6g} / {l[3]:.6g}, gaps {s[4]:.1e} / {l[4]:.1e}")


def bench_sufficiency(k=2000, repeat=3):
    X, _, _ = top_words(k)
    X = X[:1000]
    rng = np.random.default_rng(0)
    c = rng.normal(size=X.shape[0])
    c -= c.mean()
    lg = np.log1p((1 + np.full(k, np.sqrt(k))) ** -2.0)
    R = union_matrix(X, lg)
    Xc = X.tocsc()
    Xc.sort_indices()
    cand = np.arange(k)
    source_quadforms(c, R, Xc, cand[:2])              # compile
    t_nb = min(_time(lambda: source_quadforms(c, R, Xc, cand)) for _ in range(repeat))
    t_np = min(_time(lambda: source_quadforms_numpy(c, R, Xc, cand)) for _ in range(repeat))
    a, b = source_quadforms(c, R, Xc, cand), source_quadforms_numpy(c, R, Xc, cand)
    print(f"sufficiency check, {k} single-feature sources, m={X.shape[0]}: numba {t_nb * 1e3:.1f} ms,"
          f" NumPy {t_np * 1e3:.1f} ms, ratio {t_np / t_nb:.1f}x, max rel diff "
          f"{np.max(np.abs(a - b) / np.abs(b).max()):.1e}")


def bench_target(top_k, Cs, betas, mu, max_active, max_add, n_jobs, out):
    from joblib import Parallel, delayed
    t0 = time.perf_counter()
    res = Parallel(n_jobs=n_jobs)(delayed(run_fold)(f, 2, top_k, tuple(Cs), tuple(betas), mu,
                                                    max_active, max_add) for f in range(4))
    wall = time.perf_counter() - t0
    print(f"\n20 Newsgroups atheism vs religion.misc, 4-fold CV, {res[0]['n_words']} words, "
          f"{n_jobs} processes: whole CV with inner model selection {wall / 60:.1f} min")
    for name in ("l2_svm", "l1_svm", "hkl"):
        accs = [r[name]["accuracy"] for r in res]
        extra = [f"C={r[name]['C']:g}" for r in res]
        print(f"  {name:7s} accuracy {np.mean(accs):.4f}  folds {np.round(accs, 4).tolist()}  "
              f"{extra}  time/fold {np.mean([r[name]['seconds'] for r in res]):.0f} s")
    multi = [tuple(v) for r in res for v in r["hkl"]["multi_word"]]
    print(f"  HKL: disjunctions per fold {[r['hkl']['n_disjunctions'] for r in res]}, multi-word "
          f"per fold {[len(r['hkl']['multi_word']) for r in res]}, certified gaps "
          f"{[round(r['hkl']['duality_gap'], 4) for r in res]}")
    print(f"  multi-word disjunctions (first 20): {multi[:20]}")
    if out:
        with open(out, "w") as fh:
            json.dump(dict(wall_seconds=wall, folds=res), fh, indent=1)


def _dense_fit(kind, Xa, ya, Xb, yb, words, C, mu=None):
    from sklearn.svm import LinearSVC

    from fsbook.hkl import DisjunctiveHKL
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if kind == "l2":
            m = LinearSVC(C=C, max_iter=20_000).fit(Xa, ya)
        else:
            m = DisjunctiveHKL(C=C, mu=mu, binarize=None, max_active=2500, max_add=500).fit(Xa, ya)
    row = dict(model=kind, C=C, mu=mu, accuracy=float(np.mean(m.predict(Xb) == yb)),
               seconds=time.perf_counter() - t0)
    if kind == "hkl":
        row.update(n_active=len(m.active_set_), gap=float(m.duality_gap_), converged=m.certified_,
                   n_violating=int(m.history_["n_violating"].iloc[-1]),
                   multi_word=[tuple(str(words[i]) for i in v) for v in m.disjunctions_ if len(v) > 1])
    return row


def bench_dense(hkl_settings, k=2000, n_jobs=2):
    from joblib import Parallel, delayed
    from sklearn.model_selection import StratifiedKFold
    X, y, words = load_atheism_religion(2)
    tr, _ = outer_folds(y)[0]
    a, b = next(StratifiedKFold(3, shuffle=True, random_state=0).split(np.zeros(tr.size), y[tr]))
    a, b = tr[a], tr[b]
    cols = most_frequent_words(X[a], k)
    Xa, Xb, w = X[a][:, cols], X[b][:, cols], words[cols]
    jobs = [("l2", C, None) for C in SVM_CS] + [("hkl", C, mu) for mu, C in hkl_settings]
    rows = Parallel(n_jobs=n_jobs)(delayed(_dense_fit)(kind, Xa, y[a], Xb, y[b], w, C, mu)
                                   for kind, C, mu in jobs)
    print(f"\ndense regime: outer fold 0, one inner split ({a.size} / {b.size} posts), {k} words")
    for r in rows:
        extra = "" if r["model"] == "l2" else (
            f"  mu={r['mu']:g} active={r['n_active']} gap={r['gap']:.2e} converged={r['converged']}"
            f" violating={r['n_violating']} multi-word={len(r['multi_word'])} {r['multi_word'][:3]}")
        print(f"  {r['model']:3s} C={r['C']:<6g} validation accuracy {r['accuracy']:.4f}  "
              f"{r['seconds']:.0f} s{extra}")


_LARGE_C_SCRIPT = r"""
import json, sys, time, warnings
import numpy as np
from sklearn.exceptions import ConvergenceWarning

KW = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}

def fold(f):
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    from fsbook.hkl import DisjunctiveHKLCV
    from fsbook.experiments.hkl.paper import TABLE1_DATASETS
    X, y, _, _ = load_table1("tic_tac_toe" if "tic_tac_toe" in TABLE1_DATASETS else "tic-tac-toe")
    tr, te = table_folds(y, None)[f]
    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m = DisjunctiveHKLCV(Cs=[0.1, 1.0, 10.0, 100.0, 1000.0], cv=3,
                             random_state=1000 * f + 7, **KW).fit(X[tr], y[tr])
    return dict(fold=f, C=m.C_, accuracy=float(np.mean(m.predict(X[te]) == y[te])),
                gap=float(m.duality_gap_), cpu_seconds=time.process_time() - t0)

rows = []
for f in range(4):          # one process, folds in turn: its CPU time is the whole cost
    rows.append(fold(f))
    print(json.dumps(dict(fold=rows[-1])), flush=True)
import fsbook
print(json.dumps(dict(cpu=time.process_time(), folds=rows, package=fsbook.__file__)))
"""


def _cpu_seconds(pid):
    """User + system CPU seconds of a running process, from ``/proc/<pid>/stat``."""
    import os
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run_large_c(root, cpu_timeout, poll=2.0, kwargs=None):
    """The tic-tac-toe CV of section 5 with the package at ``root``, in one single-threaded child
    process: (CPU seconds of the child, folds or None if stopped after ``cpu_timeout`` CPU seconds,
    wall seconds).  CPU time, not wall time, so that other load on the machine does not count."""
    import os
    import signal
    import subprocess
    import sys
    import tempfile

    from fsbook.datasets._store import data_dir
    env = dict(os.environ, PYTHONPATH=root, FSBOOK_DATA_DIR=str(data_dir()), OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        # cwd=root: ``python -c`` puts the working directory first on sys.path, before PYTHONPATH
        proc = subprocess.Popen([sys.executable, "-c", _LARGE_C_SCRIPT, json.dumps(kwargs or {})],
                                env=env, cwd=root,
                                stdout=out, stderr=err, text=True)
        stopped = False
        while proc.poll() is None:
            if cpu_timeout is not None and _cpu_seconds(proc.pid) > cpu_timeout:
                os.kill(proc.pid, signal.SIGKILL)
                stopped = True
                break
            time.sleep(poll)
        if stopped:
            _, status, usage = os.wait4(proc.pid, 0)     # the killed child's own CPU time
            proc.returncode = -signal.SIGKILL
            cpu = usage.ru_utime + usage.ru_stime
        out.seek(0)
        err.seek(0)
        lines = out.read().strip().splitlines()
        wall = time.perf_counter() - t0
        if stopped:
            done = [json.loads(ln)["fold"] for ln in lines if ln.startswith('{"fold"')]
            return cpu, None, wall, done
        if proc.returncode:
            raise RuntimeError(err.read()[-3000:])
    res = json.loads(lines[-1])
    if not res["package"].startswith(root):
        raise RuntimeError(f"the subprocess imported {res['package']}, not the package in {root}")
    return res["cpu"], res["folds"], wall, res["folds"]


def bench_large_c(old_timeout=None, base="76f3d01", factor=12.0, solver="conic"):
    """Large-C target of the issue: this code (restricted solver ``solver``) against the package
    at ``base`` (the commit when the issue was filed, unpacked with ``git archive``), CPU seconds
    of each whole run.  The old run is stopped after ``old_timeout`` CPU seconds (default
    ``factor`` × this code's)."""
    import os
    import subprocess
    import tempfile
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    t_new, new, w_new, _ = _run_large_c(here, None, kwargs=dict(solver=solver))
    limit = factor * t_new if old_timeout is None else old_timeout
    print("\nlarge C: tic-tac-toe 4-fold CV, DisjunctiveHKLCV(Cs=[0.1, 1, 10, 100, 1000], cv=3), "
          "one single-threaded process each, CPU seconds", flush=True)
    gaps = [float(f"{r['gap']:.1e}") for r in new]
    print(f"  this code (solver={solver!r}): {t_new:.0f} CPU s ({w_new:.0f} s wall); accuracy "
          f"{np.mean([r['accuracy'] for r in new]):.4f}, folds "
          f"{[round(r['accuracy'], 4) for r in new]}, C {[r['C'] for r in new]}, gaps {gaps}",
          flush=True)
    with tempfile.TemporaryDirectory() as old_root:
        subprocess.run(f"git -C {here} archive {base} fsbook | tar -x -C {old_root}", shell=True,
                       check=True)
        t_old, old, w_old, done = _run_large_c(old_root, limit)
    row = dict(solver=solver, cpu_seconds=round(t_new, 1), accuracy=round(float(np.mean(
        [r["accuracy"] for r in new])), 4), gaps=gaps, base=base, base_cpu_seconds=round(t_old, 1),
        base_stopped=old is None, ratio=round(t_old / t_new, 1),
        ratio_is_lower_bound=old is None)
    record_benchmark("hkl", "large_c", row)
    if old is None:
        print(f"  main at {base}: stopped after {t_old:.0f} CPU s ({w_old:.0f} s wall), "
              f"{len(done)} of 4 folds done ({[round(r['cpu_seconds']) for r in done]} CPU s); "
              f"ratio >= {t_old / t_new:.1f}x (lower bound)")
    else:
        print(f"  main at {base}: {t_old:.0f} CPU s ({w_old:.0f} s wall); accuracy "
              f"{np.mean([r['accuracy'] for r in old]):.4f}, folds "
              f"{[round(r['accuracy'], 4) for r in old]}, C {[r['C'] for r in old]}; "
              f"ratio {t_old / t_new:.1f}x")


def bench_monks():
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.hkl import DisjunctiveHKLCV
    print("\ndata-driven C rule, default DisjunctiveHKLCV() on MONK's problems (test split):")
    for k, target in ((1, 99.0), (2, 80.0), (3, 97.0)):
        X, y, _, (tr, te) = load_table1(f"monks{k}")
        t0 = time.perf_counter()
        m = DisjunctiveHKLCV().fit(X[tr], y[tr])
        acc = 100 * np.mean(m.predict(X[te]) == y[te])
        print(f"  MONK-{k}: test accuracy {acc:.2f} % (target >= {target:g} %), C = {m.C_:g} of "
              f"{m.Cs_.tolist()}, certified {m.certified_}, {time.perf_counter() - t0:.0f} s")


def bench_pair_sources(max_active=600, C=3.0):
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.hkl import DisjunctiveHKL, lattice
    from fsbook.hkl.estimator import _make_problem, _resolve_beta
    from fsbook.hkl.solver import source_group_scores, source_scores_reference
    X, y, _, _ = load_table1("20newsgroups")
    tr, _ = outer_folds(y)[0]
    Xtr, ys = X[tr], np.where(y[tr] == np.unique(y)[1], 1.0, -1.0)
    defaults = DisjunctiveHKL()
    prob = _make_problem(Xtr, ys, np.ones(X.shape[1]), _resolve_beta(defaults.beta, X.shape[1]),
                         C, defaults.mu, defaults.p)
    states = []
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = solve_active_set(prob, tol=defaults.tol, max_active=max_active, max_add=defaults.max_add,
                             callback=lambda nodes, ev, rec: states.append(
                                 (nodes, ev["c"].copy(), rec["dual_norm2_A"])))
    fit = time.perf_counter() - t0
    source_group_scores(prob, states[0][1], lattice.source_groups(states[0][0], prob.n))  # compile
    t_ref = t_new = 0.0
    worst, same_max, same_viol = 0.0, True, True
    for nodes, c, thr in states:
        t0 = time.perf_counter()
        ref = source_scores_reference(prob, c, lattice.sources(nodes, prob.n), threshold=thr)
        t1 = time.perf_counter()
        new = source_group_scores(prob, c, lattice.source_groups(nodes, prob.n), threshold=thr)
        t2 = time.perf_counter()
        t_ref, t_new = t_ref + t1 - t0, t_new + t2 - t1
        fin = np.isfinite(ref)
        worst = max(worst, float(np.max(np.abs(new[fin] - ref[fin]), initial=0.0)))
        same_max &= bool(np.isclose(ref.max(), new.max(), rtol=0, atol=1e-9))
        log_thr = np.log(thr) if thr > 0 else -np.inf
        same_viol &= bool(np.array_equal(ref > log_thr, new > log_thr))
    max_sources = len(lattice.sources(states[-1][0], prob.n))
    record_benchmark("hkl", "pair_sources", dict(
        posts=int(Xtr.shape[0]), words=int(prob.n), C=C, iterations=len(states),
        active_nodes=len(r["nodes"]) - 1, max_sources=max_sources,
        fit_seconds=round(fit, 1), check_seconds_in_fit=round(r["times"]["sufficiency"], 1),
        reference_seconds=round(t_ref, 1), grouped_seconds=round(t_new, 1),
        ratio=round(t_ref / t_new, 1), max_abs_diff_log_q=float(f"{worst:.1e}"),
        same_maximum=same_max, same_violators=same_viol))
    print(f"\npair-source sufficiency check, 20 Newsgroups fold 0 ({Xtr.shape[0]} posts, "
          f"{prob.n} words, C = {C:g}), {len(states)} iterations to {len(r['nodes']) - 1} active "
          f"nodes (fit {fit:.0f} s, of which the check {r['times']['sufficiency']:.1f} s; "
          f"final gap {r['gap']:.3g}), up to {max_sources} "
          f"sources: reference {t_ref:.1f} s, grouped {t_new:.1f} s, ratio {t_ref / t_new:.1f}x "
          f"(target >= 10x); max |Δ log Q| {worst:.1e}, same maximum {same_max}, same "
          f"violating sources {same_viol}")


def _newsgroups_fold0():
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    X, y, _, _ = load_table1("20newsgroups")
    tr, te = table_folds(y, None)[0]
    return X, np.where(y == np.unique(y)[1], 1.0, -1.0), tr, te


def bench_conic_fit(C=3.0, tol=1e-3):
    from fsbook.hkl import DisjunctiveHKL, lattice
    from fsbook.hkl.estimator import _make_problem, _resolve_beta
    X, ys, tr, te = _newsgroups_fold0()
    d = DisjunctiveHKL()
    beta = _resolve_beta(d.beta, X.shape[1])
    rows, f = {}, {}
    print(f"\nrestricted solver, 20 Newsgroups fold 0 ({tr.size} posts, {X.shape[1]} words), C = "
          f"{C:g}, tol = {tol:g}, no node budget, CPU seconds:", flush=True)
    for solver in ("mirror", "conic"):
        prob = _make_problem(X[tr], ys[tr], np.ones(X.shape[1]), beta, C, d.mu, d.p)
        t0 = time.process_time()
        r = solve_active_set(prob, tol=tol, max_active=None, max_add=d.max_add, solver=solver)
        cpu = time.process_time() - t0
        f[solver] = np.asarray(lattice.node_indicator(X, r["nodes"], sparse=True) @ r["w"]
                               ).ravel() + r["b"]
        rows[solver] = dict(cpu_seconds=round(cpu, 1), iterations=r["n_iter"],
                            active_nodes=len(r["nodes"]) - 1, gap=float(f"{r['gap']:.2e}"),
                            stop_reason=r["stop_reason"], primal=r["primal"],
                            restricted_solves=r["n_svm"], inner_svms_ipm=r["n_ipm"],
                            test_accuracy=round(float(np.mean((f[solver][te] > 0) == (ys[te] > 0))), 4),
                            wall=dict((k, round(v, 1)) for k, v in r["times"].items()))
        print(f"  {solver:6s} {cpu:6.1f} CPU s, {r['n_iter']} iterations, {len(r['nodes']) - 1} "
              f"active nodes, {r['n_svm']} restricted solves/SVMs, gap {r['gap']:.2e} "
              f"({r['stop_reason']}), test accuracy {rows[solver]['test_accuracy']:.4f}", flush=True)
    m, c = rows["mirror"], rows["conic"]
    scale = float(np.abs(f["mirror"]).max())
    quality = dict(both_certified=m["stop_reason"] == c["stop_reason"] == "certified",
                   objective_rel_diff=float(f"{abs(m['primal'] - c['primal']) / c['primal']:.2e}"),
                   max_decision_diff_rel=float(f"{np.abs(f['mirror'] - f['conic']).max() / scale:.2e}"),
                   test_labels_agree=round(float(np.mean((f["mirror"][te] > 0) == (f["conic"][te] > 0))), 4))
    ratio = round(m["cpu_seconds"] / c["cpu_seconds"], 1)
    record_benchmark("hkl", "conic_fit", dict(posts=int(tr.size), words=int(X.shape[1]), C=C, tol=tol,
                                              mirror=m, conic=c, ratio=ratio, target_cpu_seconds=120,
                                              **quality))
    print(f"  ratio {ratio}x; conic within the 120 s target: {c['cpu_seconds'] <= 120}; {quality}")


def bench_c_path(Cs=(0.1, 1.0, 10.0, 100.0, 1000.0), tol=1e-3):
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    from fsbook.hkl import disjunctive_hkl_path
    from fsbook.hkl.estimator import _make_problem, _resolve_beta
    X, y, _, _ = load_table1("tic_tac_toe")
    ys = np.where(y == np.unique(y)[1], 1.0, -1.0)
    beta = _resolve_beta("auto", X.shape[1])
    folds = table_folds(y, None)
    # compile / load the numba kernels before timing
    list(disjunctive_hkl_path(X[folds[0][0]], ys[folds[0][0]], [1.0], beta, solver="conic"))
    out = {}
    print(f"\nC path, tic-tac-toe, 4 outer training folds, C = {list(Cs)}, tol = {tol:g}, "
          f"CPU seconds:", flush=True)
    for solver in ("mirror", "conic"):
        t_warm = t_cold = t_oracle = 0.0
        cert, worst = True, 0.0
        for tr, _ in folds:
            t0 = time.process_time()
            warm = [r for _, r in disjunctive_hkl_path(X[tr], ys[tr], Cs, beta, tol=tol,
                                                       max_active=None, solver=solver)]
            t_warm += time.process_time() - t0
            for C, rw in zip(Cs, warm):
                prob = _make_problem(X[tr], ys[tr], np.ones(X.shape[1]), beta, C, 1.0, 2.0)
                t0 = time.process_time()
                rc = solve_active_set(prob, tol=tol, max_active=None, max_add=20, solver=solver)
                t_cold += time.process_time() - t0
                # the least any warm start of the active set can cost: started from this C's
                # own final active set and η (one restricted solve and its certificate)
                prob = _make_problem(X[tr], ys[tr], np.ones(X.shape[1]), beta, C, 1.0, 2.0)
                t0 = time.process_time()
                ro = solve_active_set(prob, tol=tol, max_active=None, max_add=20, solver=solver,
                                      nodes=rc["nodes"], eta=rc["eta"])
                t_oracle += time.process_time() - t0
                cert &= rw["converged"] and rc["converged"] and ro["converged"]
                worst = max(worst, abs(rw["primal"] - rc["primal"]) / rc["primal"])
        out[solver] = dict(warm_cpu_seconds=round(t_warm, 1), cold_cpu_seconds=round(t_cold, 1),
                           ratio=round(t_cold / t_warm, 2), all_certified=bool(cert),
                           oracle_cpu_seconds=round(t_oracle, 1),
                           oracle_ratio=round(t_cold / t_oracle, 2),
                           warm_cold_objective_rel_diff=float(f"{worst:.1e}"))
        print(f"  {solver:6s} warm path {t_warm:.1f} s, independent fits {t_cold:.1f} s, ratio "
              f"{t_cold / t_warm:.2f}x (target >= 10x); all certified {cert}; warm vs cold "
              f"objectives within {worst:.1e}; started from each C's own final active set "
              f"{t_oracle:.1f} s ({t_cold / t_oracle:.2f}x, the bound of any active-set warm start)",
              flush=True)
    speed = round(out["mirror"]["warm_cpu_seconds"] / out["conic"]["warm_cpu_seconds"], 1)
    record_benchmark("hkl", "c_path", dict(dataset="tic_tac_toe", Cs=list(Cs), tol=tol, **out,
                                           warm_path_mirror_over_conic=speed))
    print(f"  warm path, mirror / conic: {speed}x")


def bench_task(fold=0):
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    from fsbook.hkl import DisjunctiveHKLCV
    X, y, _, _ = load_table1("20newsgroups")
    tr, te = table_folds(y, None)[fold]
    t0 = time.process_time()
    w0 = time.perf_counter()
    m = DisjunctiveHKLCV(cv=3, random_state=1000 * fold + 7, max_active=None,
                         solver="conic").fit(X[tr], y[tr])
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    res = m.cv_results_
    row = dict(dataset="20newsgroups", fold=fold, solver="conic", cpu_seconds=round(cpu, 1),
               wall_seconds=round(wall, 1), Cs=res.C.tolist(), C=m.C_,
               accuracy=round(float(np.mean(m.predict(X[te]) == y[te])), 4),
               fold_fits_certified=bool(res.certified.all()), refit_certified=bool(m.certified_),
               refit_gap=float(f"{m.duality_gap_:.2e}"), refit_active_nodes=len(m.active_set_),
               disjunctions=len(m.disjunctions_),
               multi_word=sum(len(v) > 1 for v in m.disjunctions_), target_cpu_seconds=900)
    record_benchmark("hkl", "task", row)
    print(f"\nwhole Table 1 task, 20 Newsgroups fold {fold}, conic solver: {cpu / 60:.1f} CPU min "
          f"({wall / 60:.1f} min wall; target <= 15), Cs {row['Cs']}, chosen C = {m.C_:g}, "
          f"accuracy {row['accuracy']:.4f}, every fold fit certified {row['fold_fits_certified']}, "
          f"refit certified {row['refit_certified']} (gap {m.duality_gap_:.1e}, "
          f"{row['refit_active_nodes']} active nodes, {row['disjunctions']} disjunctions, "
          f"{row['multi_word']} multi-word)", flush=True)


def _selected(res):
    w = np.abs(res["w"])
    return {v for v, wv in zip(res["nodes"], w) if v and wv > 1e-4 * max(w.max(), 1e-300)}


def bench_warm_path(dataset="tic_tac_toe", Cs=(0.1, 1.0, 10.0, 100.0, 1000.0), folds=None,
                    tol=1e-3, section="warm_path"):
    import fsbook.hkl.solver as hkl_solver
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    from fsbook.hkl import disjunctive_hkl_path, lattice
    from fsbook.hkl.estimator import _make_problem, _resolve_beta
    # CPU seconds inside the restricted solves of the working-set and variational paths
    # (measurement only: the functions are wrapped for this run and restored after it)
    inner = dict(working_set=hkl_solver.restricted_working_set,
                 variational=hkl_solver.restricted_variational)
    t_restricted = dict(working_set=0.0, variational=0.0)
    statuses = []

    def counted(solver):
        def run(*args, **kwargs):
            t0 = time.process_time()
            try:
                out = inner[solver](*args, **kwargs)
                if solver == "variational":
                    statuses.append(out["status"])
                return out
            finally:
                t_restricted[solver] += time.process_time() - t0
        return run
    X, y, _, _ = load_table1(dataset)
    ys = np.where(y == np.unique(y)[1], 1.0, -1.0)
    beta = _resolve_beta("auto", X.shape[1])
    splits = table_folds(y, None)
    folds = range(len(splits)) if folds is None else folds
    solvers = ("working_set", "conic", "variational")
    # compile / load the numba kernels before timing
    tr0 = splits[0][0][:200]
    for solver in solvers:
        list(disjunctive_hkl_path(X[tr0], ys[tr0], [1.0, 1000.0], beta, solver=solver))
    t = dict(working_set=0.0, conic=0.0, variational=0.0, cold=0.0)
    cert, n_fits, n_samples = True, 0, []
    worst_obj = dict(working_set=0.0, variational=0.0)
    worst_f = dict(working_set=0.0, variational=0.0)
    same = dict(working_set=0, variational=0)
    print(f"\nwarm C path, {dataset}, outer training folds {list(folds)}, C = {list(Cs)}, "
          f"tol = {tol:g}, CPU seconds:", flush=True)
    for f in folds:
        tr = splits[f][0]
        paths = {}
        for solver in solvers:
            if solver in inner:
                setattr(hkl_solver, f"restricted_{solver}", counted(solver))
            try:
                t0 = time.process_time()
                paths[solver] = [r for _, r in disjunctive_hkl_path(
                    X[tr], ys[tr], Cs, beta, tol=tol, max_active=None, solver=solver)]
                t[solver] += time.process_time() - t0
            finally:
                if solver in inner:
                    setattr(hkl_solver, f"restricted_{solver}", inner[solver])
        t_fold = 0.0
        for k, C in enumerate(Cs):
            prob = _make_problem(X[tr], ys[tr], np.ones(X.shape[1]), beta, C, 1.0, 2.0)
            t0 = time.process_time()
            cold = solve_active_set(prob, tol=tol, max_active=None, max_add=20, solver="conic")
            t_fold += time.process_time() - t0
            cert &= cold["converged"] and all(paths[s][k]["converged"] for s in solvers)
            fc = np.asarray(lattice.node_indicator(X[tr], cold["nodes"], sparse=True) @ cold["w"]).ravel() + cold["b"]
            for s in ("working_set", "variational"):
                rw = paths[s][k]
                worst_obj[s] = max(worst_obj[s], abs(rw["primal"] - cold["primal"]) / cold["primal"])
                fw = np.asarray(lattice.node_indicator(X[tr], rw["nodes"], sparse=True) @ rw["w"]).ravel() + rw["b"]
                worst_f[s] = max(worst_f[s], float(np.abs(fw - fc).max() / max(np.abs(fc).max(), 1e-300)))
                same[s] += _selected(rw) == _selected(cold)
            n_fits += 1
            n_samples += [h["working_samples"] for h in paths["working_set"][k]["history"]]
        t["cold"] += t_fold
        print(f"  fold {f}: cumulative CPU s: working-set path {t['working_set']:.1f} (restricted "
              f"solves {t_restricted['working_set']:.1f}), variational path {t['variational']:.1f} "
              f"(restricted solves {t_restricted['variational']:.1f}), conic path {t['conic']:.1f}, "
              f"independent conic fits {t['cold']:.1f}", flush=True)
    ratio = t["cold"] / t["working_set"]
    rest = t["working_set"] - t_restricted["working_set"]
    rest_var = t["variational"] - t_restricted["variational"]
    row = dict(dataset=dataset, folds=list(folds), train_samples=int(splits[folds[0]][0].size),
               features=int(X.shape[1]), Cs=list(Cs), tol=tol,
               working_set_path_cpu_seconds=round(t["working_set"], 2),
               working_set_restricted_cpu_seconds=round(t_restricted["working_set"], 2),
               bound_ratio_free_restricted_solves=round(t["cold"] / rest, 2),
               conic_path_cpu_seconds=round(t["conic"], 2),
               independent_conic_cpu_seconds=round(t["cold"], 2),
               ratio=round(ratio, 2), conic_path_ratio=round(t["cold"] / t["conic"], 2),
               target_ratio=10, all_certified=bool(cert),
               max_objective_rel_diff=float(f"{worst_obj['working_set']:.1e}"),
               same_selection=f"{same['working_set']}/{n_fits}",
               max_decision_diff_rel=float(f"{worst_f['working_set']:.1e}"),
               restricted_solves=len(n_samples),
               median_working_samples=int(np.median(n_samples)),
               variational_path_cpu_seconds=round(t["variational"], 2),
               variational_restricted_cpu_seconds=round(t_restricted["variational"], 2),
               variational_ratio=round(t["cold"] / t["variational"], 2),
               variational_bound_ratio_free_restricted_solves=round(t["cold"] / rest_var, 2),
               variational_restricted_solves=len(statuses),
               variational_solved_by_alternation=statuses.count("Solved"),
               variational_fallbacks=statuses.count("fallback"),
               variational_max_objective_rel_diff=float(f"{worst_obj['variational']:.1e}"),
               variational_same_selection=f"{same['variational']}/{n_fits}",
               variational_max_decision_diff_rel=float(f"{worst_f['variational']:.1e}"))
    record_benchmark("hkl", section, row)
    print(f"  independent conic fits {t['cold']:.1f} s, warm path: working set {t['working_set']:.1f} s "
          f"({ratio:.2f}x, target >= 10x), variational {t['variational']:.1f} s "
          f"({row['variational_ratio']}x), conic {t['conic']:.1f} s ({row['conic_path_ratio']}x); "
          f"all certified {cert}; objectives within {worst_obj['working_set']:.1e} (working set), "
          f"{worst_obj['variational']:.1e} (variational); same disjunctions "
          f"{same['working_set']}/{n_fits}, {same['variational']}/{n_fits}; decision values within "
          f"{worst_f['working_set']:.1e}, {worst_f['variational']:.1e} of the largest; median working "
          f"set {row['median_working_samples']} of {row['train_samples']} samples over "
          f"{len(n_samples)} restricted solves; variational restricted solves: "
          f"{row['variational_solved_by_alternation']} by the alternation alone, "
          f"{row['variational_fallbacks']} finished by the working-set program; outside the "
          f"restricted solves the working-set path costs {rest:.1f} s (certificates, sufficiency "
          f"checks), so a free restricted solver would reach {t['cold'] / rest:.2f}x", flush=True)


#: the values of ``max_add`` that :func:`bench_max_add` compares (20 was every fit's before the
#: ``hkl`` protocol's version 10, 200 is the protocol's :data:`~fsbook.experiments.hkl.paper.HKL_MAX_ADD`)
MAX_ADDS = (20, 50, 100, 200, 400, 1000)


def bench_max_add(Cs=(0.1, 0.3, 1.0, 3.0, 10.0), values=MAX_ADDS, tol=1e-3):
    """The C path and the independent fits on the 20 Newsgroups pair's outer fold 0 at each
    ``max_add`` (violating sources added per active-set iteration), side by side in one run, CPU
    seconds: the warm path of the working-set solver and independent conic fits at every value;
    quality beside them (every fit certified, the objectives' largest relative difference from the
    independent conic fits at ``max_add = 20``, the same disjunctions)."""
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    from fsbook.hkl import disjunctive_hkl_path
    from fsbook.hkl.estimator import _make_problem, _resolve_beta
    X, y, _, _ = load_table1("20newsgroups")
    ys = np.where(y == np.unique(y)[1], 1.0, -1.0)
    beta = _resolve_beta("auto", X.shape[1])
    tr = table_folds(y, None)[0][0]
    list(disjunctive_hkl_path(X[tr[:200]], ys[tr[:200]], [1.0], beta, solver="working_set"))
    runs, ref = [], None
    print(f"\nmax_add on the 20 Newsgroups pair, outer fold 0 ({tr.size} posts, {X.shape[1]} words), "
          f"C = {list(Cs)}, tol = {tol:g}, CPU seconds:", flush=True)
    for value in values:
        t0 = time.process_time()
        path = [r for _, r in disjunctive_hkl_path(X[tr], ys[tr], Cs, beta, tol=tol, max_active=None,
                                                    max_add=value, solver="working_set")]
        t_path = time.process_time() - t0
        cold, t_cold = [], 0.0
        for C in Cs:
            prob = _make_problem(X[tr], ys[tr], np.ones(X.shape[1]), beta, C, 1.0, 2.0)
            t0 = time.process_time()
            cold.append(solve_active_set(prob, tol=tol, max_active=None, max_add=value, solver="conic"))
            t_cold += time.process_time() - t0
        if ref is None:
            ref = cold
        fits = path + cold
        worst = max(abs(r["primal"] - c["primal"]) / c["primal"] for r, c in zip(fits, ref + ref))
        same = sum(_selected(r) == _selected(c) for r, c in zip(fits, ref + ref))
        row = dict(max_add=value, path_cpu_seconds=round(t_path, 1), independent_cpu_seconds=round(t_cold, 1),
                   path_iterations=sum(len(r["history"]) for r in path),
                   independent_iterations=sum(len(r["history"]) for r in cold),
                   all_certified=all(r["converged"] for r in fits),
                   max_objective_rel_diff=float(f"{worst:.1e}"), same_selection=f"{same}/{len(fits)}")
        runs.append(row)
        print(f"  max_add {value:5d}: warm path {t_path:6.1f} s ({row['path_iterations']} active-set "
              f"iterations), independent conic fits {t_cold:6.1f} s ({row['independent_iterations']}); "
              f"certified {row['all_certified']}, objectives within {worst:.1e} of the fits at "
              f"max_add {values[0]}, same disjunctions {row['same_selection']}", flush=True)
    base = runs[0]["independent_cpu_seconds"]
    best = min(runs, key=lambda r: r["path_cpu_seconds"])
    values_out = dict(dataset="20newsgroups", fold=0, train_samples=int(tr.size), Cs=list(Cs), tol=tol,
                      runs=runs, cheapest_path_max_add=best["max_add"],
                      path_over_independent_at_20={str(r["max_add"]): round(base / r["path_cpu_seconds"], 2)
                                                   for r in runs},
                      path_over_independent_same_max_add={
                          str(r["max_add"]): round(r["independent_cpu_seconds"] / r["path_cpu_seconds"], 2)
                          for r in runs})
    record_benchmark("hkl", "max_add", values_out)
    print(f"  cheapest path: max_add {best['max_add']}, {base / best['path_cpu_seconds']:.1f}x the "
          f"independent fits at max_add {values[0]}, "
          f"{best['independent_cpu_seconds'] / best['path_cpu_seconds']:.2f}x the independent fits at "
          f"the same max_add", flush=True)


def bench_task_settings(fold=0):
    """One whole Table 1 task of the 20 Newsgroups pair (outer fold 0) with the ``hkl`` protocol's
    HKL (:func:`fsbook.experiments.hkl.models.tuned_hkl`) at version 9's settings (conic solver,
    20 sources per iteration) and at version 10's (:data:`~fsbook.experiments.hkl.paper.HKL_SOLVER`,
    :data:`~fsbook.experiments.hkl.paper.HKL_MAX_ADD`), side by side in one run, CPU seconds;
    quality: the same chosen C, CV accuracies and test predictions, every fit certified."""
    from fsbook._cost import cost_limits
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import inner_seed, table_folds
    from fsbook.experiments.hkl.models import tuned_hkl
    from fsbook.experiments.hkl.paper import HKL_C_GRID, HKL_MAX_ADD, HKL_SOLVER
    X, y, _, _ = load_table1("20newsgroups")
    tr, te = table_folds(y, None)[fold]
    out = {}
    for label, settings in (("version 9", dict(solver="conic", max_add=20)),
                            ("version 10", dict(solver=HKL_SOLVER, max_add=HKL_MAX_ADD))):
        model = tuned_hkl(HKL_C_GRID, inner_seed(1, fold)).set_params(**settings)
        t0 = time.process_time()
        with cost_limits(seconds=None, bytes=None):
            model.fit(X[tr], y[tr])
        cpu = time.process_time() - t0
        res = model.cv_results_
        out[label] = dict(settings=settings, cpu_seconds=round(cpu, 1), C=model.C_,
                          cv_accuracies=res.mean_accuracy.round(12).tolist(),
                          certified=bool(res.certified.all() and model.certified_),
                          predictions=model.predict(X[te]))
        print(f"  {label} ({settings}): {cpu:.1f} CPU s, C = {model.C_:g}, certified "
              f"{out[label]['certified']}", flush=True)
    a, b = out["version 9"], out["version 10"]
    row = dict(dataset="20newsgroups", fold=fold, **{f"{k}_cpu_seconds": v["cpu_seconds"] for k, v in
                                                     (("v9", a), ("v10", b))},
               ratio=round(a["cpu_seconds"] / b["cpu_seconds"], 2), same_C=bool(a["C"] == b["C"]),
               same_cv_accuracies=bool(np.allclose(a["cv_accuracies"], b["cv_accuracies"], rtol=0, atol=1e-12)),
               same_test_predictions=bool(np.array_equal(a["predictions"], b["predictions"])),
               all_certified=bool(a["certified"] and b["certified"]),
               v9_settings=a["settings"], v10_settings=b["settings"])
    record_benchmark("hkl", "task_settings", row)
    print(f"whole Table 1 task, 20 Newsgroups fold {fold}: version 9's HKL {a['cpu_seconds']} CPU s, "
          f"version 10's {b['cpu_seconds']} CPU s ({row['ratio']}x); same C {row['same_C']}, same CV "
          f"accuracies {row['same_cv_accuracies']}, same test predictions {row['same_test_predictions']}, "
          f"all certified {row['all_certified']}", flush=True)


def bench_warm_path_cv(Cs=(0.1, 1.0, 10.0, 100.0, 1000.0)):
    from fsbook.experiments.hkl.data import load_table1
    from fsbook.experiments.hkl.folds import table_folds
    from fsbook.hkl import DisjunctiveHKLCV
    X, y, _, _ = load_table1("tic_tac_toe")
    splits = table_folds(y, None)
    few = splits[0][0][::5]                                         # compile / load numba
    DisjunctiveHKLCV(Cs=[1.0], cv=2, solver="working_set").fit(X[few], y[few])
    t = dict(conic=0.0, working_set=0.0)
    same_C = same_cv = same_pred = cert = True
    acc = dict(conic=[], working_set=[])
    print(f"\nDisjunctiveHKLCV(Cs={list(Cs)}, cv=3) on tic-tac-toe, 4 outer folds, CPU seconds:",
          flush=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for f, (tr, te) in enumerate(splits):
            fits = {}
            for solver in ("conic", "working_set"):
                t0 = time.process_time()
                fits[solver] = DisjunctiveHKLCV(Cs=list(Cs), cv=3, random_state=1000 * f + 7,
                                                solver=solver).fit(X[tr], y[tr])
                t[solver] += time.process_time() - t0
                acc[solver].append(float(np.mean(fits[solver].predict(X[te]) == y[te])))
            a, b = fits["conic"], fits["working_set"]
            same_C &= a.C_ == b.C_
            same_cv &= bool(np.allclose(a.cv_results_.mean_accuracy, b.cv_results_.mean_accuracy,
                                        rtol=0, atol=1e-12))
            same_pred &= bool(np.array_equal(a.predict(X[te]), b.predict(X[te])))
            cert &= bool(a.cv_results_.certified.all() and b.cv_results_.certified.all()
                         and a.certified_ and b.certified_)
    ratio = t["conic"] / t["working_set"]
    row = dict(dataset="tic_tac_toe", Cs=list(Cs), cv=3, conic_cpu_seconds=round(t["conic"], 2),
               working_set_cpu_seconds=round(t["working_set"], 2), ratio=round(ratio, 2),
               same_C=bool(same_C), same_cv_accuracies=bool(same_cv),
               same_test_predictions=bool(same_pred), all_certified=bool(cert),
               accuracy=round(float(np.mean(acc["working_set"])), 4))
    record_benchmark("hkl", "warm_path_cv", row)
    print(f"  conic {t['conic']:.1f} s, working set {t['working_set']:.1f} s ({ratio:.2f}x); same C "
          f"{same_C}, same CV accuracies {same_cv}, same test predictions {same_pred}, all "
          f"certified {cert}; accuracy {row['accuracy']:.4f}", flush=True)


def _time(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    sections = ["inner", "sufficiency", "target", "dense", "large_c", "monks", "pair_sources",
                "conic_fit", "c_path", "task", "warm_path", "warm_path_cv", "max_add", "task_settings"]
    ap.add_argument("--skip", nargs="*", default=[], choices=sections)
    ap.add_argument("--only", nargs="*", default=None, choices=sections,
                    help="run these sections only")
    ap.add_argument("--pair-nodes", type=int, default=600,
                    help="active nodes the 20 Newsgroups fit of the pair-source check grows to")
    ap.add_argument("--old-timeout", type=float, default=None,
                    help="CPU seconds after which the large-C run of the old code is stopped "
                         "(default: 12 times the CPU seconds of this code's run)")
    ap.add_argument("--warm-newsgroups", action="store_true",
                    help="warm_path: also the 20 Newsgroups pair's outer fold 0")
    ap.add_argument("--inner-k", type=int, default=1000)
    ap.add_argument("--top-k", type=int, default=None, help="vocabulary cap (default: all 12 511)")
    ap.add_argument("--Cs", type=float, nargs="+", default=[0.03, 0.1, 0.3, 1.0])
    ap.add_argument("--betas", nargs="+", default=["auto"])
    ap.add_argument("--mu", type=float, default=0.3)
    ap.add_argument("--max-active", type=int, default=300)
    ap.add_argument("--max-add", type=int, default=50)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--out", default=None, help="JSON file for the per-fold results")
    a = ap.parse_args()
    if a.only is not None:
        a.skip = [x for x in sections if x not in a.only]
    betas = [b if b == "auto" else float(b) for b in a.betas]
    if "max_add" not in a.skip:
        bench_max_add()
    if "task_settings" not in a.skip:
        bench_task_settings()
    if "warm_path_cv" not in a.skip:
        bench_warm_path_cv()
    if "warm_path" not in a.skip:
        bench_warm_path()
        if a.warm_newsgroups:
            bench_warm_path("20newsgroups", Cs=(0.1, 0.3, 1.0, 3.0, 10.0), folds=[0],
                            section="warm_path_newsgroups")
    if "conic_fit" not in a.skip:
        bench_conic_fit()
    if "c_path" not in a.skip:
        bench_c_path()
    if "task" not in a.skip:
        bench_task()
    if "pair_sources" not in a.skip:
        bench_pair_sources(a.pair_nodes)
    if "large_c" not in a.skip:
        bench_large_c(a.old_timeout)
    if "monks" not in a.skip:
        bench_monks()
    if "sufficiency" not in a.skip:
        bench_sufficiency()
    if "inner" not in a.skip:
        bench_inner(a.inner_k, [0.1, 10.0])
    if "dense" not in a.skip:
        bench_dense([(0.01, 0.01), (0.01, 0.03), (0.001, 0.01)], n_jobs=a.n_jobs)
    if "target" not in a.skip:
        bench_target(a.top_k, a.Cs, betas, a.mu, a.max_active, a.max_add, a.n_jobs, a.out)

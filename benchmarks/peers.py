"""fsbook beside the peer libraries a user would otherwise pick: peak memory, time, equality.

Run on demand: ``python benchmarks/peers.py [--only relief laplacian mmc]``.  Every measurement
runs in a fresh subprocess that loads the data, notes its resident size, runs one call and reports
the wall time, the CPU time and the peak resident size above the size before the call (the
kernel's peak ``VmHWM``, reset just before the call, so NumPy, SciPy and numba memory all
count; imports and the data are loaded before); the results of both sides come back to this process, which
checks that they agree.  On a machine shared with other jobs, CPU seconds are the fairer time.

Sections
--------
``relief``
    ReliefF weights, 10 neighbours: :func:`fsbook.baselines.relief.relieff_weights` (blocks of
    rows, sparse ``X`` kept sparse) against skrebate's ``ReliefF`` (needs a dense ``X``; the
    densification is inside its measured call), on DEXTER as 0/1 word presence (300 samples; both
    on the ``--dexter-columns`` most frequent words, default all 20 000, where skrebate's Python
    loops over samples and features take about 70 CPU seconds; then fsbook alone on all 20 000)
    and on wdbc (569 × 30, continuous).  The check is the largest absolute difference
    of the weights and the overlap of the top features.  On continuous features (more than 10
    values each, which skrebate treats as continuous) without tied distances the two compute the
    same weights; on 0/1 data many distances tie, and skrebate breaks ties by NumPy's unstable
    ``argsort`` over all samples where fsbook takes the smaller index, so the weights differ.
``laplacian``
    Laplacian score on a heat-kernel 5-nearest-neighbour graph: fsbook's
    ``LaplacianScore(graph="knn")`` (sparse graph, no ``n × n`` array) against scikit-feature's
    ``construct_W`` + ``lap_score`` (dense ``n × n`` distances and two dense ``n × n`` copies of
    the graph), on madelon and on DEXTER (densified for scikit-feature), both with the heat-kernel
    scale of fsbook's default (scikit-feature's default ``t = 1`` makes every off-diagonal weight
    underflow to 0 on these data, leaving the scores rounding noise).  The two libraries still
    build slightly different graphs (scikit-feature counts every point as its own neighbour,
    fsbook has no self-loops), so the check is on scikit-feature's own graph: fsbook's
    :func:`fsbook.baselines.laplacian_score.laplacian_scores` on it must rank the features as
    ``lap_score`` does (scikit-feature returns ranks, not scores), up to the order of tied scores.
``mmc``
    Xing et al.'s metric (MMC) on every pair of rows of wine and of wdbc (standardised):
    :class:`fsbook.baselines.MMC` against metric-learn's ``MMC`` (full matrix, its defaults).
    The check is the objective ``Σ_D ||x_i − x_j||_A`` of each metric rescaled onto the
    constraint ``Σ_S ||x_i − x_j||²_A = 1`` (the larger, the better; fsbook's is checked against
    cvxpy in ``tests/test_mmc.py``) and whether metric-learn's matrix is still the identity.

scikit-feature and metric-learn are not dependencies of fsbook (metric-learn 0.7.0 fails with
scikit-learn ≥ 1.6); their sections run them with the Python of a separate virtual environment,
``--peer-python`` or ``FSBOOK_PEERS_PYTHON``, made for example with::

    python3 -m venv /tmp/peers-venv
    /tmp/peers-venv/bin/pip install "numpy<2" "scipy<1.14" scikit-learn==1.3.2 metric-learn==0.7.0 \\
        skfeature-chappers==1.2.1

Without it, or when the package is missing there, the section prints why and is skipped.
skrebate is a test dependency of fsbook and runs in this Python.  A full run records its
measurements in ``benchmarks/results/peers.json`` (:mod:`fsbook.benchmark_records`).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

HERE = Path(__file__).resolve()


# --------------------------------------------------------------------------- child side
def _rss_bytes():
    """Current resident size of this process (Linux ``/proc/self/statm``)."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _reset_peak():
    """Reset the kernel's peak resident size of this process to the current size (Linux ≥ 4.0:
    ``5`` to ``/proc/self/clear_refs``); False where that is not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _peak_bytes():
    """Peak resident size (``VmHWM``) since the last :func:`_reset_peak`, else ``ru_maxrss``."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _job_fsbook_relief(X, y, out):
    from fsbook.baselines.relief import relieff_weights

    def call():
        out["w"] = relieff_weights(X, y, 10)
    return call


def _job_skrebate_relief(X, y, out):
    from skrebate import ReliefF

    def call():
        Xd = X.toarray() if sp.issparse(X) else X
        out["w"] = np.asarray(ReliefF(n_neighbors=10, n_jobs=1).fit(Xd, y).feature_importances_)
    return call


def _job_fsbook_laplacian(X, y, out):
    from fsbook.baselines import LaplacianScore

    def call():
        out["score"] = LaplacianScore(graph="knn", n_neighbors=5).fit(X, y).scores_
    return call


def _job_skfeature_laplacian(X, y, out, t=1.0):
    from skfeature.function.similarity_based.lap_score import lap_score
    from skfeature.utility.construct_W import construct_W

    def call():
        Xd = X.toarray() if sp.issparse(X) else X
        W = construct_W(Xd, metric="euclidean", neighbor_mode="knn", weight_mode="heat_kernel", k=5,
                        t=float(t))
        out["rank"] = np.asarray(lap_score(Xd, W=W)).ravel()
        out["W"] = W
    return call


def _pairs(X, y):
    i, j = np.triu_indices(len(y), 1)
    return np.stack([X[i], X[j]], axis=1), np.where(y[i] == y[j], 1, -1)


def _job_fsbook_mmc(X, y, out):
    from fsbook.baselines import MMC

    def call():
        m = MMC().fit(*_pairs(X, y))
        out["A"], out["n_iter"] = m.get_mahalanobis_matrix(), np.array(m.n_iter_)
    return call


def _job_metric_learn_mmc(X, y, out):
    import warnings

    from metric_learn import MMC

    def call():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = MMC(diagonal=False, random_state=0).fit(*_pairs(X, y))
        out["A"] = m.get_mahalanobis_matrix()
        out["warnings"] = np.array([str(w.message)[:200] for w in caught] or [""])
    return call


JOBS = {"fsbook-relief": _job_fsbook_relief, "skrebate-relief": _job_skrebate_relief,
        "fsbook-laplacian": _job_fsbook_laplacian, "skfeature-laplacian": _job_skfeature_laplacian,
        "fsbook-mmc": _job_fsbook_mmc, "metric-learn-mmc": _job_metric_learn_mmc}


def child(job, data, result):
    """Run one job on the data file and write its arrays and measurements (child process)."""
    with np.load(data, allow_pickle=False) as f:
        y = f["y"]
        if "X" in f:
            X = f["X"]
        else:
            X = sp.csr_matrix((f["data"], f["indices"], f["indptr"]), shape=tuple(f["shape"]))
        params = {k[6:]: f[k] for k in f.files if k.startswith("param_")}
    out = {}
    call = JOBS[job](X, y, out, **params)                         # imports happen here, not measured
    reset = _reset_peak()
    before = _rss_bytes()
    t0, c0 = time.perf_counter(), time.process_time()
    call()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = _peak_bytes()
    if "W" in out:                                      # a sparse graph, saved by its arrays
        W = sp.csr_matrix(out.pop("W"))
        out["W_data"], out["W_indices"], out["W_indptr"] = W.data, W.indices, W.indptr
    np.savez(result, **out)
    print(json.dumps({"seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
                      "peak_mb": round(max(peak - before, 0) / 1e6, 1), "peak_reset": reset}))


# --------------------------------------------------------------------------- parent side
def _save_data(path, X, y, params):
    params = {f"param_{k}": np.asarray(v) for k, v in params.items()}
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        np.savez(path, data=X.data, indices=X.indices, indptr=X.indptr, shape=np.array(X.shape), y=y,
                 **params)
    else:
        np.savez(path, X=np.ascontiguousarray(X, dtype=float), y=y, **params)


def run(job, X, y, python=None, **params):
    """Measurements and result arrays of ``job`` on ``(X, y)`` in a fresh subprocess."""
    with tempfile.TemporaryDirectory() as tmp:
        data, result = Path(tmp) / "data.npz", Path(tmp) / "result.npz"
        _save_data(data, X, y, params)
        env = dict(os.environ)
        if python is not None:                      # the peers' venv: no fsbook on its path
            env.pop("PYTHONPATH", None)
        proc = subprocess.run([python or sys.executable, str(HERE), "--child", job, str(data), str(result)],
                              capture_output=True, text=True, env=env)
        if proc.returncode:
            raise RuntimeError(f"{job} failed:\n{proc.stderr[-2000:]}")
        measured = json.loads(proc.stdout.strip().splitlines()[-1])
        with np.load(result, allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files}
    return measured, arrays


def peer_python(args, module):
    """The peers' Python if it imports ``module``, else None (and why, printed)."""
    python = args.peer_python or os.environ.get("FSBOOK_PEERS_PYTHON")
    if not python:
        print(f"  skipped: {module} is not a dependency of fsbook; give the Python of a virtual "
              "environment that has it with --peer-python or FSBOOK_PEERS_PYTHON (module docstring)")
        return None
    proc = subprocess.run([python, "-c", f"import {module}"], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    if proc.returncode:
        print(f"  skipped: {python} cannot import {module}: {proc.stderr.strip().splitlines()[-1]}")
        return None
    return python


def _dexter_binary():
    from fsbook.datasets import load_dexter
    b = load_dexter()
    X = sp.csr_matrix(b.data)
    X.data[:] = 1.0
    X.eliminate_zeros()
    return X, np.asarray(b.target)


def _madelon():
    from fsbook.datasets import load_madelon
    b = load_madelon()
    return np.asarray(b.data, dtype=float), np.asarray(b.target)


def _row(name, X, ours, theirs, **check):
    n, d = X.shape
    row = {"data": name, "n": int(n), "d": int(d), "fsbook": ours, **check}
    if theirs is not None:
        row["peer"] = theirs
        row["time_ratio"] = round(theirs["seconds"] / max(ours["seconds"], 1e-9), 1)
    print(f"  {name} ({n} x {d}): fsbook {ours}" + (f"; peer {theirs}" if theirs else "") +
          f"; {check}")
    return row


def _relief_check(a, b, top):
    """Largest weight difference and the overlap of the ``top`` features of largest weight."""
    ta, tb = np.argsort(-a, kind="stable")[:top], np.argsort(-b, kind="stable")[:top]
    return {"max_abs_difference": float(np.abs(a - b).max()),
            f"top_{top}_overlap": int(np.intersect1d(ta, tb).size)}


def section_relief(args):
    print("relief: fsbook relieff_weights vs skrebate ReliefF (10 neighbours)")
    rows = []
    X, y = _dexter_binary()
    order = np.argsort(-np.diff(X.tocsc().indptr), kind="stable")[:args.dexter_columns]
    Xs = X[:, np.sort(order)]
    ours, a = run("fsbook-relief", Xs, y)
    theirs, b = run("skrebate-relief", Xs, y)
    rows.append(_row(f"DEXTER 0/1, {Xs.shape[1]} most frequent words", Xs, ours, theirs,
                     **_relief_check(a["w"], b["w"], top=10)))
    ours, _ = run("fsbook-relief", X, y)
    rows.append(_row("DEXTER 0/1, all words (fsbook only)", X, ours, None))
    from fsbook.datasets import load_wdbc
    data = load_wdbc()
    X, y = np.asarray(data.data, dtype=float), np.asarray(data.target)
    ours, a = run("fsbook-relief", X, y)
    theirs, b = run("skrebate-relief", X, y)
    rows.append(_row("wdbc", X, ours, theirs, **_relief_check(a["w"], b["w"], top=10)))
    return {"peer": "skrebate 0.7 (ReliefF, n_jobs=1)", "rows": rows}


def _skfeature_order(rank):
    """The features in ascending order of score from what ``lap_score`` returns: its
    ``reverse_argsort`` of the order ``F = argsort(score)`` is ``d − 1 − F``."""
    return len(rank) - 1 - np.asarray(rank, dtype=int)


def section_laplacian(args):
    print("laplacian: fsbook LaplacianScore(graph='knn') vs scikit-feature construct_W + lap_score")
    python = peer_python(args, "skfeature")
    if python is None:
        return None
    from sklearn.neighbors import kneighbors_graph

    from fsbook.baselines.laplacian_score import laplacian_scores
    rows = []
    for name, (X, y) in [("madelon", _madelon()), ("DEXTER 0/1", _dexter_binary())]:
        ours, _ = run("fsbook-laplacian", X, y)
        # the same heat-kernel scale for both: fsbook's default exp(−d²/T), T the mean squared
        # edge length of the 5-NN graph, is scikit-feature's exp(−d²/2t²) with t = sqrt(T/2)
        # (scikit-feature's default t = 1 makes every weight underflow to 0 on these data)
        G = kneighbors_graph(X, n_neighbors=5, mode="distance", include_self=False)
        T = float(np.mean(G.maximum(G.T).data ** 2))
        theirs, b = run("skfeature-laplacian", X, y, python=python, t=np.sqrt(T / 2))
        W = sp.csr_matrix((b["W_data"], b["W_indices"], b["W_indptr"]), shape=(len(y), len(y)))
        score = laplacian_scores(X, W)
        finite = np.isfinite(score)
        # scikit-feature scores a constant column 1 − 0/10000 = 1, fsbook +inf: compare the order
        # of the other columns
        theirs_order = _skfeature_order(b["rank"])
        ours_order = np.argsort(score, kind="stable")
        a_, b_ = ours_order[finite[ours_order]], theirs_order[finite[theirs_order]]
        # tied scores (0/1 columns with the same pattern) come in either order: at every position
        # the two orders must hold features of the same score (to 1e-9 relative)
        rows.append(_row(name, X, ours, theirs, positions_differing=int((a_ != b_).sum()),
                         same_order_up_to_ties=bool(np.allclose(score[a_], score[b_], rtol=1e-9, atol=0)),
                         constant_columns=int((~finite).sum())))
    return {"peer": "scikit-feature (skfeature-chappers 1.2.1)", "rows": rows}


def section_mmc(args):
    print("mmc: fsbook MMC vs metric-learn MMC (full matrix), every pair of rows")
    python = peer_python(args, "metric_learn")
    if python is None:
        return None
    from sklearn.preprocessing import StandardScaler

    from fsbook.baselines.mmc import mmc_objective
    from fsbook.datasets import load_wdbc, load_wine
    rows = []
    for name, loader in [("wine", load_wine), ("wdbc", load_wdbc)]:
        b = loader()
        X, y = StandardScaler().fit_transform(np.asarray(b.data, dtype=float)), np.asarray(b.target)
        ours, a = run("fsbook-mmc", X, y)
        theirs, b2 = run("metric-learn-mmc", X, y, python=python)
        pairs, sim = _pairs(X, y)
        diff = pairs[:, 0] - pairs[:, 1]
        dS, dD = diff[sim == 1], diff[sim == -1]

        def objective(A, dS=dS, dD=dD):
            return mmc_objective(A / np.einsum("ij,jk,ik->", dS, A, dS), dD)

        A_ml = b2["A"]
        rows.append(_row(name, X, ours, theirs,
                         objective_fsbook=round(objective(a["A"]), 6),
                         objective_metric_learn=round(objective(A_ml), 6),
                         metric_learn_identity=bool(np.allclose(A_ml / A_ml[0, 0], np.eye(len(A_ml)))),
                         metric_learn_warnings=[w for w in b2["warnings"].tolist() if w]))
    return {"peer": "metric-learn 0.7.0 (scikit-learn 1.3.2)", "rows": rows}


SECTIONS = {"relief": section_relief, "laplacian": section_laplacian, "mmc": section_mmc}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(SECTIONS), default=None)
    ap.add_argument("--peer-python", default=None,
                    help="Python of the venv with scikit-feature and metric-learn")
    ap.add_argument("--dexter-columns", type=int, default=20_000)
    ap.add_argument("--no-record", action="store_true")
    ap.add_argument("--child", nargs=3, metavar=("JOB", "DATA", "RESULT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    for name in args.only or list(SECTIONS):
        values = SECTIONS[name](args)
        if values is not None and not args.no_record:
            from fsbook.benchmark_records import record_benchmark
            values["measure"] = ("wall and CPU seconds of one call in a fresh process; peak_mb: peak "
                                 "resident size (VmHWM, reset before the call) above the size before it")
            print("  recorded in", record_benchmark("peers", name, values))


if __name__ == "__main__":
    main()

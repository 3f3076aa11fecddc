"""Defaults on ordinary data: every public estimator, default-constructed, on dense problems of
growing size.  Run on demand: ``python benchmarks/defaults.py``.

Every fit runs in a fresh child process limited to :data:`CPU_LIMIT` CPU seconds
(``RLIMIT_CPU``) and :data:`MEMORY_LIMIT` bytes of address space (``RLIMIT_AS``); the child reports
the CPU seconds of the fit (``time.process_time``), the peak resident size of the process
(``ru_maxrss``, imports and data included) and, when ``fit`` raised, ``"refused: <message>"``
(a ``ValueError`` raised before the work, as the defaults' refusals are) or ``"error: ..."``.  A
child killed by the CPU limit is recorded as ``"over <limit> CPU s"``.

Problems (:func:`problem`): ``n × d`` standard normal features, ``k`` balanced classes (2 and 5),
the class means apart along the first ``max(2, d // 10)`` features.  The pair learner
:class:`~fsbook.baselines.MMC` gets ``n`` pairs of rows (similar when their labels agree) and the
triplet learner :class:`~fsbook.kernel_design.KernelDesign` ``n`` triplets (the first two points
of one class, the third of another); ``ProjectionPenalty``, which has no default, is probed as the
capability table probes it (``LogisticRegression()`` and ``PCA(2)``).

Sizes (:data:`SIZES`) grow from 500 × 30 to 5 000 × 300; an estimator's larger sizes are skipped
(``"skipped"``) once it fails or exceeds :data:`CPU_LIMIT` at a smaller one, for the same number of
classes (a refusal costs nothing, so the larger sizes are still tried: each must refuse at once),
which keeps a full run within about 20 CPU minutes.  The record goes to section ``sweep`` of
``benchmarks/results/defaults.json`` (:mod:`fsbook.benchmark_records`); ``--append`` replaces the
rows it measures in an existing record, and the record lists every run (``runs``).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve()

#: (n_samples, n_features) of the sweep, smallest first
SIZES = ((500, 30), (2000, 100), (5000, 300))
#: numbers of classes of the sweep
CLASSES = (2, 5)
#: CPU seconds a default fit may take (within a minute on one core)
CPU_LIMIT = 60
#: address space a child may take (bytes)
MEMORY_LIMIT = 6 * 2 ** 30


def problem(n, d, k, seed=0):
    """Dense ``(X, y)``: ``n × d`` normal features, ``k`` balanced classes whose means differ
    along the first ``max(2, d // 10)`` features."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.normal(size=(n, d))
    m = max(2, d // 10)
    X[:, :m] += rng.normal(scale=1.0, size=(k, m))[y]
    return X, y


def fit_input(name, X, y, seed=0):
    """What ``fit`` of estimator ``name`` receives: ``(X, y)``, or pairs / triplets built from them."""
    rng = np.random.default_rng(seed + 1)
    n = X.shape[0]
    if name == "MMC":
        i, j = rng.integers(0, n, n), rng.integers(0, n, n)
        j = np.where(i == j, (j + 1) % n, j)
        return (np.stack([X[i], X[j]], axis=1), np.where(y[i] == y[j], 1, -1))
    if name == "KernelDesign":
        rows = []
        by_class = [np.flatnonzero(y == c) for c in np.unique(y)]
        for t in range(n):
            c = t % len(by_class)
            a, b = rng.choice(by_class[c], 2, replace=False)
            other = by_class[(c + 1 + t % (len(by_class) - 1)) % len(by_class)]
            rows.append((a, b, rng.choice(other)))
        rows = np.asarray(rows)
        return (X[rows],)
    return (X, y)


def make_estimator(name):
    """The default-constructed estimator ``name`` (``ProjectionPenalty`` as the capability table
    probes it)."""
    from fsbook.capabilities import probe_instance, public_estimators
    return probe_instance(name, public_estimators()[name])[0]


# --------------------------------------------------------------------------- child side
def child(name, n, d, k):
    X, y = problem(n, d, k)
    args = fit_input(name, X, y)
    est = make_estimator(name)
    used = time.process_time()
    soft = int(used) + CPU_LIMIT + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(*args)
        status = "ok"
    except ValueError as exc:
        status = "refused: " + " ".join(str(exc).split())
    except MemoryError:
        status = "out of memory"
    except Exception as exc:  # noqa: BLE001 - what a user would see is what the record keeps
        status = f"error: {type(exc).__name__}: " + " ".join(str(exc).split())[:300]
    cpu = time.process_time() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"status": status, "cpu_seconds": round(cpu, 2),
                      "peak_rss_mib": round(peak / 2 ** 20, 1),
                      "rss_before_mib": round(rss_before / 2 ** 20, 1)}))


# --------------------------------------------------------------------------- parent side
def run_one(name, n, d, k, python=sys.executable):
    """Fit ``name`` on the ``n × d``, ``k``-class problem in a child process; its record."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               NUMBA_NUM_THREADS="1")
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([python, str(HERE), "--child", name, str(n), str(d), str(k)],
                                stdout=out, stderr=err, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    if proc.returncode == 0 and lines:
        return json.loads(lines[-1])
    killed = proc.returncode in (-signal.SIGKILL, -signal.SIGXCPU)
    return {"status": f"over {CPU_LIMIT} CPU s" if killed else
            f"crashed (return code {proc.returncode}): {' '.join(stderr.split())[-300:]}",
            "cpu_seconds": None, "peak_rss_mib": round(usage.ru_maxrss / 1024, 1)}


def _recorded_total(record):
    """The child CPU seconds of an earlier record (named ``total_fit_cpu_seconds`` before; 0 if
    absent)."""
    return record.get("total_child_cpu_seconds", record.get("total_fit_cpu_seconds", 0.0))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--only", nargs="*", help="estimator names (default: all public ones)")
    ap.add_argument("--sizes", nargs="*", help="sizes as NxD (default: %(default)s)")
    ap.add_argument("--classes", nargs="*", type=int, default=list(CLASSES))
    ap.add_argument("--no-record", action="store_true", help="print only, record nothing")
    ap.add_argument("--append", action="store_true",
                    help="add the rows to the recorded sweep (replacing those of the same estimator, size "
                         "and classes) instead of replacing it")
    args = ap.parse_args(argv)
    if args.child:
        name, n, d, k = args.child
        child(name, int(n), int(d), int(k))
        return
    from fsbook.benchmark_records import RESULTS_DIR, _commit
    from fsbook.capabilities import public_estimators
    code = _commit(RESULTS_DIR.parents[1])        # the commit of the code each row measures
    names = args.only or list(public_estimators())
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes] if args.sizes else list(SIZES)
    rows, cpu0 = [], resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    for name in names:
        for k in args.classes:
            stop = None
            for n, d in sizes:
                if stop:
                    row = {"status": f"skipped ({stop} at a smaller size)", "cpu_seconds": None,
                           "peak_rss_mib": None}
                else:
                    row = run_one(name, n, d, k)
                    if row["status"] != "ok" and not row["status"].startswith("refused"):
                        stop = row["status"].split(":")[0]
                    elif row["cpu_seconds"] > CPU_LIMIT:
                        stop = f"over {CPU_LIMIT} CPU s"
                row = {"estimator": name, "n": n, "d": d, "classes": k, "code": code, **row}
                rows.append(row)
                print(json.dumps(row), flush=True)
    total = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu0
    record = {"cpu_limit": CPU_LIMIT, "memory_limit_gib": MEMORY_LIMIT / 2 ** 30,
              "total_child_cpu_seconds": round(total, 1), "rows": rows,
              "runs": [" ".join(argv if argv is not None else sys.argv[1:])]}
    if not args.no_record:
        from fsbook.benchmark_records import read_benchmark, record_benchmark
        if args.append:
            old = read_benchmark("defaults", "sweep")["values"]
            new = {(r["estimator"], r["n"], r["d"], r["classes"]) for r in rows}
            kept = [r for r in old["rows"] if (r["estimator"], r["n"], r["d"], r["classes"]) not in new]
            record = {**record, "rows": kept + rows, "runs": old["runs"] + record["runs"],
                      "total_child_cpu_seconds": round(_recorded_total(old) + total, 1)}
        print("written", record_benchmark("defaults", "sweep", record))
    print(f"total child CPU: {total:.0f} s")


if __name__ == "__main__":
    main()

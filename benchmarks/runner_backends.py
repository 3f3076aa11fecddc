"""Benchmark of the experiment runner's backends (run on demand: ``python benchmarks/runner_backends.py``).

1. A real protocol: the first ``--boston`` Table 1 tasks of the projection protocol (one Boston
   run each: 13 values of d, two reducers, 5-fold CV paths), run in this process, on 2 loky
   processes and on a 2-worker Dask ``LocalCluster`` (started and stopped inside the timing).
   Prints the wall-clock times, the loky/LocalCluster ratio and checks the tables are identical.
2. The runner's own overhead per task: ``--tiny`` tasks of the template protocol (a few
   milliseconds of work each) on the same three backends; ``(T_backend - T_serial) / tasks``.

The machine may be shared: the script prints the load average before and after.
"""
import argparse
import os
import time

from fsbook.experiments import run_protocol
from fsbook.experiments._example import PROTOCOL as EXAMPLE
from fsbook.experiments.projection import PROTOCOL as PROJECTION


def timed(protocol, tasks, **kw):
    t = time.perf_counter()
    res = run_protocol(protocol, tasks=tasks, progress=False, **kw)
    return time.perf_counter() - t, res


def compare(protocol, tasks, label):
    rows = {}
    for name, kw in (("in process", dict(n_jobs=1)), ("loky, 2 jobs", dict(n_jobs=2, backend="loky")),
                     ("LocalCluster, 2 workers", dict(n_jobs=2, backend="dask"))):
        rows[name] = timed(protocol, tasks, **kw)
        print(f"{label:28s} {name:24s} {rows[name][0]:7.1f} s", flush=True)
    first = next(iter(rows.values()))[1]
    same = all(r.results == first.results for _, r in rows.values())
    print(f"{label:28s} identical results on all backends: {same}")
    return {k: v[0] for k, v in rows.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boston", type=int, default=24, help="number of Table 1 tasks")
    ap.add_argument("--tiny", type=int, default=200, help="number of template tasks")
    args = ap.parse_args()
    print("load average before:", os.getloadavg())
    real = compare(PROJECTION, [{"part": "boston", "run": r} for r in range(args.boston)],
                   f"projection, {args.boston} Boston tasks")
    tiny_tasks = [{"n": 30, "p": 10, "noise": 1.0, "rep": r} for r in range(args.tiny)]
    tiny = compare(EXAMPLE, tiny_tasks, f"template, {args.tiny} tiny tasks")
    print("load average after:", os.getloadavg())
    ratio = real["LocalCluster, 2 workers"] / real["loky, 2 jobs"]
    print(f"\nreal protocol: LocalCluster / loky = {ratio:.2f}; "
          f"per task: loky {real['loky, 2 jobs'] / args.boston:.2f} s, "
          f"LocalCluster {real['LocalCluster, 2 workers'] / args.boston:.2f} s, "
          f"in process {real['in process'] / args.boston:.2f} s")
    for name in ("loky, 2 jobs", "LocalCluster, 2 workers"):
        print(f"overhead per tiny task, {name}: "
              f"{1000 * (tiny[name] - tiny['in process']) / args.tiny:+.1f} ms "
              f"(in process {1000 * tiny['in process'] / args.tiny:.1f} ms per task)")


if __name__ == "__main__":
    main()

"""Benchmark of the results store at the projection protocol's full size (run on demand:
``python benchmarks/store.py``).

Builds a synthetic store of the projection protocol's 73 262 ``--full`` tasks (its real task
list and keys; results shaped like its Boston, 20 Newsgroups and Yale results, with random
numbers), in a temporary folder, and times:

* packing it (end of a run), its size on disk;
* ``Store.keys()`` (the header only) and ``Store.load()`` (every record, digest-checked) and
  ``Store.load(audit=True)`` (every record's checksum and key, as ``verify`` does);
* ``read_store`` failing on a store that lacks one task (the reading cell's error path:
  ``make_tasks`` + keys + header), and on a missing store.

Wall and CPU time are printed (on a shared machine CPU time is the better estimate of an idle
machine's wall time).  Quality check printed beside them: the loaded records equal the written ones.  The machine may
be shared: the script prints the load average before and after.
"""
import os
import random
import tempfile
import time

from fsbook.experiments import StoreError, read_store
from fsbook.experiments._store import Store, machine_facts, make_record, normalise, task_key
from fsbook.experiments.projection import PROTOCOL as PROJECTION


def synthetic_records(seed=0):
    rnd = random.Random(seed)
    records = {}
    for p in PROJECTION.make_tasks(True):
        p = normalise(p)
        if p["part"] == "news":
            r = {m: rnd.randrange(354) / 354 for m in ("L2-LGR", "LGR-Topic", "Proj-Topic")}
        elif p["part"] == "yale":
            r = {m: {"cv_accuracy": rnd.randrange(20) / 20, "error": rnd.randrange(16) / 16}
                 for m in ("Proj-GDA", "Proj-KPCA", "Proj-OLap", "SVM-GDA", "SVM-KPCA", "SVM-OLap", "SVM-Kernel")}
        else:
            r = {"r2": [rnd.random() for _ in range(40)]}
        k = task_key(PROJECTION, p)
        records[k] = make_record(k, p, r, rnd.random() * 100, machine_facts())
    return records


def timed(label, fn):
    """Wall and CPU time of ``fn()`` (CPU time is what an idle machine's wall time would be)."""
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    print(f"{label:52s} {time.perf_counter() - t:7.2f} s wall {time.process_time() - c:7.2f} s CPU")
    return out


def main():
    print(f"load average before: {os.getloadavg()}")
    records = synthetic_records()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "projection"), PROJECTION)
        timed(f"pack {len(records)} tasks", lambda: store.pack(records))
        print(f"{'pack size':52s} {store.pack_path.stat().st_size / 1e6:7.2f} MB")
        timed("Store.keys() (header only)", store.keys)
        loaded = timed("Store.load() (digest-checked)", store.load)
        timed("Store.load(audit=True) (every record checked)", lambda: store.load(audit=True))
        print(f"{'loaded records equal the written ones':52s} {loaded == records}")
        del records[next(iter(records))]
        store.pack(records)

        def fails(folder):
            try:
                read_store(PROJECTION, folder=folder)
            except StoreError:
                return True
            return False

        ok = timed("read_store error: store lacks 1 of 73 262 tasks", lambda: fails(store.folder))
        ok &= timed("read_store error: no store", lambda: fails(os.path.join(tmp, "nothing")))
        print(f"{'both raised StoreError':52s} {ok}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

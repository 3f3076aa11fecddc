"""Benchmark of the results store at the largest protocol's full size (run on demand:
``python benchmarks/store.py``).

Builds a synthetic store of the projection_text protocol's ``--full`` tasks (34 200 from version 2) (chapter 1's
20 Newsgroups grid: its real task list and keys; results shaped like its records, with random
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
from fsbook.experiments.projection.text import PROTOCOL as TEXT


def synthetic_records(seed=0):
    rnd = random.Random(seed)
    records = {}
    def lgr():
        rec = {"error": rnd.randrange(354) / 354, "C": 0.5 * 10.0 ** rnd.randrange(-10, 8, 2),
               "one_class": rnd.random() < 0.05}
        return {**rec, "ties": rnd.randrange(1, 11), "first_tie": dict(rec)}

    for p in TEXT.make_tasks(True):
        p = normalise(p)
        r = {m: lgr() for m in ("L2-LGR", "LGR-Topic", "Proj-Topic")}
        k = task_key(TEXT, p)
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
    n_tasks = len(records)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "projection_text"), TEXT)
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
                read_store(TEXT, folder=folder)
            except StoreError:
                return True
            return False

        ok = timed(f"read_store error: store lacks 1 of {n_tasks:,} tasks".replace(",", " "), lambda: fails(store.folder))
        ok &= timed("read_store error: no store", lambda: fails(os.path.join(tmp, "nothing")))
        print(f"{'both raised StoreError':52s} {ok}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

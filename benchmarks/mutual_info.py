"""fsbook's mutual information beside scikit-learn's, side by side (run on demand:
``python benchmarks/mutual_info.py``).

For each data set, one training fold as chapter 7's protocols give it to the MI selector (the first
of a stratified 2-fold split, standardised): the CPU seconds of
:func:`sklearn.feature_selection.mutual_info_classif` and of
:func:`fsbook.baselines.mutual_info_classif` on the same array with the same seed, their ratio, and
the quality check beside it, that the two score vectors are equal bit for bit.  DEXTER (20 000
features, two classes of 75) takes scikit-learn's tree searches; ORL (40 classes of 5) its
brute-force searches.  The record goes to section ``sklearn`` of
``benchmarks/results/mutual_info.json`` (:mod:`fsbook.benchmark_records`).
"""
import time

import numpy as np
import scipy.sparse as sp
from sklearn.feature_selection import mutual_info_classif as sklearn_mi
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

from fsbook.baselines import mutual_info_classif
from fsbook.benchmark_records import record_benchmark
from fsbook.experiments import selection_suite

DATASETS = ("dexter", "orl")


def _training_fold(name):
    X, y = selection_suite.tasks.load(name)[:2]
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    tr, _ = next(StratifiedKFold(2, shuffle=True, random_state=0).split(X, y))
    return StandardScaler().fit_transform(X[tr]), y[tr]


def _cpu(f, *args, **kw):
    t = time.process_time()
    out = f(*args, **kw)
    return out, time.process_time() - t


def main():
    mutual_info_classif(np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2)   # compile
    record = {}
    for name in DATASETS:
        X, y = _training_fold(name)
        ours, t_ours = _cpu(mutual_info_classif, X, y, random_state=0)
        ref, t_ref = _cpu(sklearn_mi, X, y, random_state=0)
        record[name] = {"samples": int(X.shape[0]), "features": int(X.shape[1]),
                        "classes": int(np.unique(y).size),
                        "sklearn_cpu_seconds": round(t_ref, 2), "fsbook_cpu_seconds": round(t_ours, 2),
                        "ratio": round(t_ref / t_ours, 1), "equal_bit_for_bit": bool(np.array_equal(ours, ref))}
        print(name, record[name], flush=True)
    print("written", record_benchmark("mutual_info", "sklearn", record))


if __name__ == "__main__":
    main()

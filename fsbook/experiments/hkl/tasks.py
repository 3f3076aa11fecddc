"""The ``hkl`` protocol's tasks: :func:`make_tasks` lists them, :func:`run_task` runs one through
its part (:data:`~fsbook.experiments.hkl.parts.PARTS`).

The data are :mod:`~fsbook.experiments.hkl.data`'s, the folds
:mod:`~fsbook.experiments.hkl.folds`', the models :mod:`~fsbook.experiments.hkl.models`' and the
parts :mod:`~fsbook.experiments.hkl.parts`'.
"""
from __future__ import annotations

from fsbook.experiments.hkl.paper import (
    FRACTIONS,
    INTERACTION_DEGREES,
    N_FOLDS,
    REPEATED_TABLE1,
    REPEATS,
    SMALL_DATASETS,
    TABLE1_DATASETS,
    TABLE1_METHODS,
)
from fsbook.experiments.hkl.parts import PARTS


def make_tasks(full):
    """Full: every table.  Subsample (the chapter, a few minutes on one core): Table 1 on five
    small sets (breast_cancer, vote, monks1–3) with every row (:data:`TABLE1_METHODS`) and HKL (its
    data-driven ``C`` path, as in the full protocol); the words-and-products check of Table 3 on the 20 Newsgroups pair;
    Table 4 on colon and B-cell lymphoma (zero-norm SVM at fractions 1, 1/8 and 1/64, and HKL);
    Table 5 on Wisconsin (``breast_cancer_wisconsin``).

    Parameters
    ----------
    full : bool
        Every table rather than the chapter's subsample.

    Returns
    -------
    list of dict
        One task per table part, data set, outer fold and method: ``table`` (:data:`PARTS`'
        key) and the part's parameters.

    Examples
    --------
    >>> tasks = make_tasks(False)
    >>> len(tasks), tasks[0]
    (312, {'table': 1, 'dataset': 'breast_cancer', 'fold': 0, 'method': 'cfs/best_first', 'full': False})
    """
    tasks = []
    datasets = TABLE1_DATASETS if full else SMALL_DATASETS
    for d in datasets:
        n_folds = 1 if d.startswith("monks") else N_FOLDS
        for f in range(n_folds):
            for m in TABLE1_METHODS:
                tasks.append({"table": 1, "dataset": d, "fold": f, "method": m, "full": bool(full)})
    if full:
        tasks += [{"table": 3, "fold": f, "method": "svm_tuned"} for f in range(N_FOLDS)]
        tasks.append({"table": "disjunctions"})
    tasks += [{"table": 3, "fold": f, "method": "interactions", "degree": d}
              for d in INTERACTION_DEGREES for f in range(N_FOLDS)]
    for d in ("colon", "lymphoma"):
        for f in range(N_FOLDS):
            for fr in (FRACTIONS if full else [1.0, 0.125, 0.015625]):
                tasks.append({"table": 4, "dataset": d, "fold": f, "method": "zero_norm", "fraction": fr})
            tasks.append({"table": 4, "dataset": d, "fold": f, "method": "hkl"})
    for d in (["ionosphere", "breast_cancer_wisconsin"] if full else ["breast_cancer_wisconsin"]):
        for f in range(N_FOLDS):
            tasks.append({"table": 5, "dataset": d, "fold": f, "method": "weighted_svm",
                          "full": bool(full), "impute": "train-median"})
            tasks.append({"table": 5, "dataset": d, "fold": f, "method": "hkl", "full": bool(full)})
    if full:
        tasks += repeated_tasks()
    return tasks


def repeated_tasks():
    """The full protocol's tasks on the other partitions of 4-fold CV (key ``repeat``, 1 to
    :data:`REPEATS` − 1): Table 1's rows on :data:`REPEATED_TABLE1`, Table 3's tuned SVMs (on the
    20 Newsgroups pair's partitions), Table 4's HKL and zero-norm SVM with all genes and with the
    fewest (the two its claims compare), and Table 5's two rows.

    Examples
    --------
    >>> tasks = repeated_tasks()
    >>> len(tasks), tasks[0]["repeat"], tasks[-1]["repeat"]
    (2864, 1, 4)
    """
    tasks = []
    for r in range(1, REPEATS):
        for d in REPEATED_TABLE1:
            tasks += [{"table": 1, "dataset": d, "fold": f, "method": m, "full": True, "repeat": r}
                      for f in range(N_FOLDS) for m in TABLE1_METHODS]
        tasks += [{"table": 3, "fold": f, "method": "svm_tuned", "repeat": r} for f in range(N_FOLDS)]
        for d in ("colon", "lymphoma"):
            for f in range(N_FOLDS):
                tasks += [{"table": 4, "dataset": d, "fold": f, "method": "zero_norm", "fraction": fr, "repeat": r}
                          for fr in (FRACTIONS[0], FRACTIONS[-1])]
                tasks.append({"table": 4, "dataset": d, "fold": f, "method": "hkl", "repeat": r})
        for d in ("ionosphere", "breast_cancer_wisconsin"):
            tasks += [{"table": 5, "dataset": d, "fold": f, "method": m, "full": True, "repeat": r,
                       **({"impute": "train-median"} if m == "weighted_svm" else {})}
                      for f in range(N_FOLDS) for m in ("weighted_svm", "hkl")]
    return tasks



def run_task(params):
    """Run one task (see the module docstring); accuracies are fractions in [0, 1].

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`; its ``table`` picks the part (:data:`PARTS`).

    Returns
    -------
    dict
        The part's result: test accuracies per classifier, and what the part records besides
        (chosen parameters, selected features, HKL's certificate).

    Examples
    --------
    >>> r = run_task({"table": 1, "dataset": "monks1", "fold": 0, "method": "all", "full": False})
    >>> {k: round(v, 3) for k, v in r.items() if not k.startswith("outcomes_")}
    {'L2': 0.785, 'L1': 0.718}
    >>> len(r["outcomes_L2"])                     # MONK's test split: 432 outcomes, "1" correct
    432
    """
    table = params["table"]
    if table not in PARTS:
        raise ValueError(f"unknown table {table!r}; the parts are {list(PARTS)}")
    return PARTS[table](params)

"""Why chapter 2's HSFS and LDFS errors differ from the paper's: the paper's settings, one at a time.

The ``l1linf`` protocol runs HSFS and LDFS at Table 1's ``k`` on five stratified folds with our
settings: standardised features with the Gaussian width 1 in standard units, a feature discarded
when its row of ``W`` is exactly zero, ``q = min(d, 10)`` columns for HSFS and ``C − 1`` for
LDFS.  Each task here reruns one method on one fold of one data set the paper shares with us,
with **one** of the paper's settings in place of ours (:func:`fsbook.experiments.l1linf.tasks.explanation_runs`):

* unstandardised features with the paper's width 1, for the selector and the SVM;
* the paper's rule for a discarded feature, a row whose largest absolute entry is below 0.01
  (``λ`` rises until exactly ``k`` rows are at or above it);
* LDFS with ``q = min(d, 10)`` columns;
* HSFS with the paper's ``q = d``, where ``10 < d ≤ 100`` (wine).

Each fold uses the seed of the stored ``l1linf`` task of that fold
(:func:`fsbook.experiments.l1linf.tasks.variant_errors`), so a variant and the stored result differ
only by the setting.  :func:`fsbook.experiments.l1linf.claims.explanation_claims` pairs the variants'
errors with the stored ones fold by fold and decides whether a variant brings the error closer to
the paper's Table 1 value.

Examples
--------
>>> from fsbook.experiments.l1linf import ablations as A
>>> tasks = A.make_tasks(full=True)
>>> len(tasks), tasks[0]
(130, {'dataset': 'wine', 'method': 'HSFS', 'variant': 'unstandardised, width 1', 'fold': 0})
"""
from __future__ import annotations

import pandas as pd

from fsbook.experiments._runner import Protocol
from fsbook.experiments.l1linf.paper import N_FOLDS, SHARED_DATASETS
from fsbook.experiments.l1linf.tasks import explanation_runs, variant_errors

__all__ = ["PROTOCOL", "DATASETS", "make_tasks", "run_task", "reduce", "variants"]

#: the data sets the paper shares with us (its Table 1's columns), in the order the tasks run
DATASETS = SHARED_DATASETS
#: the data sets of the documented subsample (the small ones, seconds per task)
QUICK_DATASETS = ("wine", "glass")


def make_tasks(full):
    """Full: every variant of :func:`~fsbook.experiments.l1linf.tasks.explanation_runs` on each of the
    five folds of every shared data set.  Subsample: wine and glass."""
    datasets = DATASETS if full else QUICK_DATASETS
    return [{"dataset": ds, "method": method, "variant": name, "fold": fold}
            for ds in datasets for (method, name) in explanation_runs(ds)
            for fold in range(N_FOLDS)]


def run_task(params):
    """The test error (%) of one variant on one fold
    (:func:`fsbook.experiments.l1linf.tasks.variant_errors`)."""
    ds, method, name = params["dataset"], params["method"], params["variant"]
    settings = explanation_runs(ds).get((method, name))
    if settings is None:
        raise ValueError(f"no variant {name!r} of {method} on {ds}")
    errors = variant_errors(ds, method, folds_used=[params["fold"]], **settings)
    return {"error": float(errors.iloc[0])}


def reduce(params_list, results_list):
    """One table, ``folds``: one row per (data set, method, variant, fold) with its error (%)."""
    df = pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])
    return {"folds": df[["dataset", "method", "variant", "fold", "error"]]}


def variants(results):
    """The stored variants as :func:`fsbook.experiments.l1linf.claims.explanation_claims` takes them:
    ``{(dataset, method, variant): errors (%) as a Series indexed by fold}``, for every variant
    whose five folds are stored.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)`` (``allow_partial=True`` while the store is being built).
    """
    out = {}
    for key, g in results.tables["folds"].groupby(["dataset", "method", "variant"], sort=False):
        if len(g) == N_FOLDS:
            out[key] = g.set_index("fold")["error"].sort_index().rename("error").astype(float)
    return out


#: versions of the store: 1, the first; 2, LDFS with its shrunk within-class scatter (the l1linf
#: protocol's version 5), the baseline of every variant
PROTOCOL = Protocol(name="l1linf_ablations", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="2", description="Chapter 2: HSFS and LDFS with one of the paper's settings "
                                             "in place of ours")

"""Protocol ``selection_suite``: which selector, when -- the benchmark over the selection suite.

The protocol of chapter 7's second page: the book's selectors, the usual baselines, mRMR and the
all-features control on the data sets of :data:`DATASETS` (five domains, multiclass included),
with the cost of every fit beside its accuracy.  It is declared rather than coded: the data sets
(domain, preprocessing, subsample) and the exclusions of methods are tables, and the methods
are :mod:`fsbook.experiments.benchmark`'s (its :func:`~fsbook.experiments.benchmark.selectors.make_selector`,
settings, SVM grids and tie rule), plus :class:`~fsbook.baselines.MRMR`.

A task is ``(dataset, repeat, fold, n_folds, method, ks)``.  Data: every set is loaded by its
loader with its stated preprocessing (:data:`DATASETS`); a set of more than :data:`MAX_SAMPLES`
samples is subsampled once, stratified, with a seed derived from its name (:func:`load`).  The
folds are a stratified ``n_folds``-fold split shuffled with a seed derived from ``(dataset,
repeat, n_folds)`` only (:func:`folds`), so every method sees the same folds: :data:`REPEATS`
independent repetitions of :data:`N_FOLDS`-fold CV per data set.  The sizes ``k`` are the
fractions :data:`FRACTIONS` of the data set's width (:func:`ks_of`, at least 1, below the width,
duplicates dropped); the own-size methods (CFS, GeoRatio) keep their own number, ``none`` all.

On the training fold a pipeline ``StandardScaler → selector`` (HKL and GeoRatio: the unscaled
fold, HKL booleanising it inside the fold as in ``benchmark``) keeps ``k`` features; the
classifier (:data:`CLASSIFIERS`: the RBF SVM, C tuned by inner 3-fold CV on the training fold,
``benchmark``'s grid and tie rule) is trained on the kept columns and scored on the test fold.  The rankers
(:data:`RANKERS`) are fitted once at the largest ``k`` and cut at every ``k``.  Each fit records
its CPU time (:func:`~fsbook.experiments._workers.process_cpu_seconds`, this process and its
waited children) and its peak memory: the largest growth of the process's resident set over
the fit, in MiB, sampled every 5 ms (:class:`~fsbook.experiments._memory.PeakRSS`: every allocation counts, compiled
solvers' included, at no cost to the fit; a spike shorter than 5 ms can be missed).

The package: :mod:`~fsbook.experiments.selection_suite.paper` (the declarations: data sets,
methods, sizes, repetitions, exclusions, the version), :mod:`~fsbook.experiments.selection_suite.tasks`
(data, folds, :func:`~fsbook.experiments.selection_suite.tasks.make_tasks` and
:func:`~fsbook.experiments.selection_suite.tasks.run_task`),
:mod:`~fsbook.experiments.selection_suite.tables` (``reduce``),
:mod:`~fsbook.experiments.selection_suite.analysis` (the statistics over data sets: Friedman,
Holm against all features, effects, Pareto fronts), :mod:`~fsbook.experiments.selection_suite.claims`
(each selector against all features, per data set and over data sets, and the page's
"which selector, when" table) and :mod:`~fsbook.experiments.selection_suite.facts` (the numbers
the page's prose quotes).

Example (one task of the quick subsample, a few seconds):

>>> from fsbook.experiments import selection_suite as S
>>> t = next(p for p in S.tasks.make_tasks(False) if p["dataset"] == "wine" and p["method"] == "MRMR")
>>> r = S.tasks.run_task(t)
>>> r["k"] == t["ks"], all(0 <= a <= 1 for a in r["acc_rbf"])
(True, True)
"""
from __future__ import annotations

from fsbook.experiments import benchmark as B
from fsbook.experiments._runner import Protocol
from fsbook.experiments.selection_suite import analysis, claims, facts, paper, tables, tasks

__all__ = ["PROTOCOL", "analysis", "claims", "facts", "paper", "tables", "tasks"]

PROTOCOL = Protocol(name="selection_suite", make_tasks=tasks.make_tasks, run_task=tasks.run_task,
                    reduce=tables.reduce, claims=claims.claims, version=paper.VERSION,
                    description="Which selector, when: the book's selectors, the baselines and mRMR against all "
                                "features on the selection suite (3 x 2 CV, accuracy vs k, fit CPU time and "
                                "peak memory, Kuncheva stability)",
                    tolerances={"hkl_gap": (1e-3, B.paper.HKL_SETTINGS[paper.BENCHMARK_VERSION]["tol"] / 10), "fit_cpu": None,
                                "peak_mib": None})

"""Protocol of the l1/linf chapter: Table 1 and Figures 1-5 of Masaeli, Fung & Dy (2010).

A task is ``(dataset, method, fold, ks, selection, n_max)``: on fold ``fold`` of a seeded
stratified 5-fold split of the dataset (subsampled, stratified and seeded, to ``n_max``
samples when larger, as the paper does for more than 1 000 samples), ``method`` selects each
number of features ``k`` in ``ks`` on the training fold (``selection="fold"``; ``"all"``
selects on the whole data set, the leaky protocol shown for comparison), and an RBF SVM
(LIBSVM through scikit-learn, Gaussian width σ = 1 on standardised features, i.e.
``gamma = 1/2``; C in {0.1, 1, 10, 100} by inner stratified 3-fold CV) trained on the
training fold's selected features is scored on the test fold.

Datasets: wine, glass (9 features; ``glass_id`` adds the UCI id column as a 10th, the
paper's count), ARCENE, DEXTER (sparse), MADELON (1 000 of 2 000), and Yale faces in place of
GISETTE (missing): the only image data set in ``data/`` (1 024 pixel features).
Methods: HSFS, FOHSIC, l1-SVM, SVM-RFE, ReliefF (the paper's "Relief"; 10 neighbours), LDFS, LS (Laplacian score, class graph) and
``all`` (no selection: the SVM on every feature).

What the paper ran: the seven methods on wine, glass, ARCENE, GISETTE, DEXTER and MADELON
(more than 1 000 samples subsampled to 1 000), 5-fold CV error of an RBF SVM of width 1 (C by
cross-validation) at one number of features per data set (Table 1) and along a range of
numbers of features (Figures 1-5: glass, wine, ARCENE, GISETTE, MADELON); it does not say
whether the features were selected inside the folds.

What ``--full`` runs (``make_tasks(True)``, 1 505 tasks): the seven data sets above x the seven
methods and ``all`` x the 5 folds, selection in the training folds at the figures' k and Table
1's k (:data:`~fsbook.experiments.l1linf.paper.FIGURE_KS`, :data:`TABLE1_K`), n <= 1 000; plus selection on all the data at
Table 1's k on wine, glass and glass_id (385 tasks on the first partition); and Table 1's tasks
on :data:`TABLE1_REPEATS` − 1 more partitions of 5-fold CV (1 120 tasks, key ``repeat``), with
the figures' other k there (980 tasks).  The book reads these tasks from the committed store
``results/l1linf/`` (``fsbook.experiments.read_store``); ``make_tasks(False)`` is a quick
subsample (wine, glass, glass_id; folds 0 and 1; Table 1's k) for checks, not shown in the book.

The chapter's verdicts come from :func:`claims`: Table 1's and the figures' pair the methods over
the :data:`TABLE1_REPEATS` partitions (the paired t over the repetition means); Holm within a
table or figure (see ``book/verdicts.md``).
:func:`variant_errors` reruns HSFS or LDFS on the same folds and seeds with one setting of
the paper's (raw features with width 1, another q, the paper's 0.01 threshold on the rows of W:
the selectors' ``row_threshold``), and :func:`explanation_claims` decides whether such a variant moves
the error toward the paper's.  Nothing of that is in the protocol's store: the chapter runs the
variants live on wine and glass, and reads those on the other data sets (a few folds each) from
the record of ``benchmarks/l1linf.py --only explanations``.

The package: :mod:`~fsbook.experiments.l1linf.paper` (the paper's numbers, the settings, the
version history), :mod:`~fsbook.experiments.l1linf.tasks` (data, folds, the SVM, the tasks and the
variants), :mod:`~fsbook.experiments.l1linf.tables` (:func:`reduce` and the chapter's tables),
:mod:`~fsbook.experiments.l1linf.claims` (the claim families),
:mod:`~fsbook.experiments.l1linf.facts` (every number and verdict the chapter's prose quotes) and
:mod:`~fsbook.experiments.l1linf.words` (the phrases the facts are written with).
"""
from __future__ import annotations

from fsbook.experiments._runner import Protocol
from fsbook.experiments.l1linf import ablations, claims, facts, paper, tables, tasks

__all__ = ["PROTOCOL", "ablations", "claims", "facts", "paper", "tables", "tasks"]

PROTOCOL = Protocol(name="l1linf", make_tasks=tasks.make_tasks, run_task=tasks.run_task, reduce=tables.reduce,
                    claims=claims.claims, agreement=claims.agreement_table, version=paper.VERSION,
                    description="l1/linf feature selection: Table 1 and Figures 1-5 of Masaeli et al. 2010")

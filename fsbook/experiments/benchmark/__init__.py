"""Protocol of the benchmark chapter: the book's selectors and the usual baselines on shared data.

A task is ``(dataset, repeat, fold, n_folds, method, ks)``.  The folds are a stratified
``n_folds``-fold split shuffled with a seed derived from ``(dataset, repeat, n_folds)`` only, so
every method sees the same folds.  On the training fold, a pipeline
``StandardScaler → selector`` keeps ``k`` features for every ``k`` in ``ks`` (selection sees only
the training fold); then two classifiers are trained on the kept features of the training fold,
each with its C chosen by an inner stratified 3-fold CV on the training fold, and scored on the
test fold (ties in the CV accuracy broken by :data:`SVM_TIES` of the protocol's version):

* a linear SVM (liblinear ``LinearSVC``, squared hinge, C in :data:`C_LINEAR`);
* an RBF SVM (LIBSVM ``SVC``, ``gamma="scale"``, C in :data:`C_RBF`).

Both are ``StandardScaler → SVM`` pipelines (standardisation learnt on the training fold).  The
result holds, per ``k``: the test accuracies, the selector's fit time (CPU seconds from version
11, wall clock before; volatile), the
number of kept features and the kept set (for Kuncheva's stability index across folds).  The
ranking methods (:data:`RANKERS`: MI, ReliefF, WK-LP) score the features independently of ``k``:
they are fitted once per task and cut at every ``k`` (:func:`support_at`, the same sets as a fit
at each ``k``), and their fit time is that one fit's at every ``k``.

Methods (:func:`make_selector`): ``none`` (all features, one point), ``MI`` (``SelectKBest`` with
scikit-learn's ``mutual_info_classif`` scores, seeded, computed by
:func:`fsbook.baselines.mutual_info_classif`: the same scores bit for bit, by sorting), ``SVM-RFE`` (linear SVM, 10 % of the features per step),
``l1-SVM`` (ℓ1-penalised linear SVM with C bisected to k features), ``ReliefF`` (10 neighbours),
``CFS`` (Weka's CfsSubsetEval + BestFirst: it picks its own number of features, one point), and
the book's ``LDFS`` and ``HSFS`` (ℓ1/ℓ∞ path, fast settings
:data:`~fsbook.experiments.benchmark.paper.L1LINF_FAST`) and the weak-kernel LP (``WK-LP``: its
defaults, 1 000 triplets drawn from the labels with the task's seed, α ≥ 0, the k features of
largest group weight).

Two more methods of the book's papers (version 8 on):

* ``HKL``: disjunctive hierarchical kernel learning (chapter 5) as a ranking of the features
  (:class:`~fsbook.hkl.HKLRanker`): one ``DisjunctiveHKLCV`` (``C``
  by its data-driven path and inner 3-fold CV, with the settings :data:`HKL_SETTINGS` of the
  protocol's :data:`VERSION`; one
  model per class, one-vs-rest, on wine) is fitted on the training fold, and a feature's score
  is the ℓ2 norm of the weights of the selected disjunctions that involve it
  (:func:`~fsbook.hkl.hkl_feature_scores`); the ``k`` largest are
  kept (:func:`fsbook.decisions.top_k`, ties to the smaller index), fitted once per task and cut
  at every ``k`` like the other rankers.  When the model involves fewer than ``k`` features only
  those are kept (``n_selected`` < ``k``; none kept: both classifiers predict the training
  fold's majority class), never zero-score fillers.  HKL learns on 0/1 features.  The boolean
  sets (breast cancer, 20 Newsgroups) are used as they are; a continuous set is booleanised on
  the training fold only, one indicator ``x > t`` per quartile ``t`` of each column
  (:data:`~fsbook.experiments.benchmark.paper.HKL_N_BINS`;
  :func:`fsbook.booleanize.quantile_thresholds`), and the indicators' scores are summed back to their column.  The paper says only that continuous attributes are
  booleanised before HKL reads them, not how; the quartile thresholds are the book's choice, the
  one chapter 6 makes for the paper's continuous sets (colon, ionosphere, the original Wisconsin
  breast-cancer data; WDBC is not among the paper's sets).  It puts HKL in the rank statistics on
  every data set rather than leaving most cells empty; the classifiers then see the kept
  *columns* with their real values, as for every other selector.  HKL is the slowest method (tens of
  seconds to minutes per fit, :data:`FULL_ONLY`): it runs in the full protocol only.  Each task
  records whether every HKL fit reached its duality-gap certificate (``hkl_certified``) and the
  largest relative gap (``hkl_gap``); a fit that cannot certify is stored uncertified with its gap
  and its model is ranked as it is (the chapter counts such fits).
* ``GeoRatio``: the geometric-ratio selector of chapter 4
  (:class:`~fsbook.geometry.GeometricFeatureSetSelector`, the paper's Table 2 model) chooses a
  union of feature *groups* (feature types) and keeps its columns: it picks its own number of
  features (one point, like ``CFS``).  It runs where the data define groups: the booleanised
  breast cancer set, whose groups are the indicators of each of its 9 nominal attributes
  (:func:`attribute_groups`, 511 candidate unions).  On
  the numeric sets and the word-presence text set it does not run (:func:`cannot_run` gives the
  sentence the ``not_run`` table prints): single columns as groups are not feature types (the
  hull-dimension ratios of one column are degenerate) and give ``2^d − 1`` unions, and blocks of
  consecutive attributes (chapter 4's Table 6) are arbitrary; a ranking of ``k`` single features
  is not something the method defines.  Its selector is fitted on the unscaled 0/1 fold.

Projection penalties (``Proj-SVM``) play the classifier's role, not the selector's: they keep
every feature and bias the linear SVM's weights towards a reducer's subspace.  Its task trains
``StandardScaler → ProjectionPenalty(LinearSVC, PCA(RANK_K))`` on all features, with C in
:data:`C_LINEAR` and the reduced-space penalty λ in :data:`PROJ_PENALTIES` chosen together by the
same inner 3-fold CV, and is compared with the tuned linear SVM on all features (``none``) in the
``classifier_side`` table; it has no RBF accuracy and no kept set, so it is not ranked with the
selectors.

Data: the book's subsample (:data:`BOOK_DATASETS`) is wine, ionosphere, Wisconsin diagnostic
(WDBC) and breast cancer (Ljubljana, booleanised: one indicator per nominal level, missing = all
zeros, as in the datasets chapter), ``ks`` = :data:`~fsbook.experiments.benchmark.paper.BOOK_KS`,
one repeat of 3 folds.  The full protocol adds ARCENE, MADELON, colon and the 20 Newsgroups pair alt.atheism / talk.religion.misc
(``20newsgroups``: all 1 427 posts, word presence ``x > 0``), more ``k`` (:data:`FULL_KS`) and 5 repeats
of 2 folds (5 × 2 CV).  The text set's vocabulary is chosen inside each training fold
(:func:`vocabulary`): the :data:`VOCABULARY` words with the largest document frequency among the
training posts, so no method (and no classifier) sees the test posts' words, and every method of
a fold sees the same columns.  The kept sets of ``20newsgroups`` are stored as indices into the pair's
12 511-word list (words in at least two posts), so sets from different folds are comparable.

The package's modules: :mod:`~fsbook.experiments.benchmark.paper` (the method table, data sets,
grids, settings and the version history), :mod:`~fsbook.experiments.benchmark.data` (the data
sets, a fold's columns and the folds), :mod:`~fsbook.experiments.benchmark.selectors` (one
selector per method, where it cannot run, a ranking cut at ``k``),
:mod:`~fsbook.experiments.benchmark.models` (the classifiers' model searches),
:mod:`~fsbook.experiments.benchmark.tasks` (``make_tasks`` and ``run_task``),
:mod:`~fsbook.experiments.benchmark.tables` (``reduce`` and the chapter's tables),
:mod:`~fsbook.experiments.benchmark.ranks` (the rank statistics over data sets),
:mod:`~fsbook.experiments.benchmark.claims` (the per-fold accuracies and the claims families),
:mod:`~fsbook.experiments.benchmark.facts` (the numbers the chapter's prose quotes) and
:mod:`~fsbook.experiments.benchmark.figures` (the chapter's figures).
"""
from __future__ import annotations

from fsbook.experiments._runner import Protocol
from fsbook.experiments.benchmark import (
                    claims,
                    data,
                    facts,
                    figures,
                    models,
                    paper,
                    ranks,
                    selectors,
                    tables,
                    tasks,
)

__all__ = ["PROTOCOL", "claims", "data", "facts", "figures", "models", "paper", "ranks", "selectors",
           "tables", "tasks"]

PROTOCOL = Protocol(name="benchmark", make_tasks=tasks.make_tasks, run_task=tasks.run_task,
                    reduce=tables.reduce, claims=claims.claims, version=paper.VERSION,
                    description="Benchmark chapter: the book's selectors and the usual baselines on shared data "
                                "(same folds, linear and RBF SVM accuracy vs k, fit time, Kuncheva stability)",
                    # HKL's relative duality gap at the final iterate: compared to 1e-3 of itself
                    # and a tenth of the tolerance (hkl_certified, exactly)
                    tolerances={"hkl_gap": (1e-3, paper.HKL_SETTINGS[paper.VERSION]["tol"] / 10)})

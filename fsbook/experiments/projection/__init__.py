"""Protocols of Zhang & Schneider (2010), "Projection penalties", Section 3.

* Table 1 -- Boston housing, R², 50 training / 456 test examples: :func:`~fsbook.experiments.projection.boston.boston_run`.
* Tables 2-4 -- 20 Newsgroups, 190 pairwise tasks, LDA topics: the helpers
  :func:`newsgroups_vocabulary`, :func:`~fsbook.experiments.projection.newsgroups.newsgroups_topics`, :func:`newsgroups_designs`, the
  cross-validation on the exact batched logistic path of :mod:`fsbook.projection.logistic`
  (:func:`lgr_choice`, :func:`lgr_fast_fit`) and the scikit-learn reference
  (:func:`~fsbook.experiments.projection.newsgroups._lgr_cv_search`).  Their protocol
  is :mod:`fsbook.experiments.projection.text` (its own store, ``results/projection_text``).
* Tables 5-7 -- Yale faces, 105 pairwise tasks, degree-2 polynomial kernel: :func:`yale_task`;
  sensitivity of Proj-R to ρ (eq. 17): the ``"rho"`` tasks.

:func:`claims` decides the paper's claims (the order of every pair of methods of Tables 1 and
5-7) on the stored per-run results with :mod:`fsbook.claims` (:func:`order_claims`, shared with
the text protocol), each with its table's declared margin (:data:`ORDER_MARGINS`: one test
prediction of a run).

:data:`PROTOCOL` runs Table 1, Tables 5-7 and the ρ sweep on the shared runner
(:func:`fsbook.experiments.run_protocol`): one task per Boston run and per (run, pair) of the face
experiments, reduced into the paper's tables.  Each task's seeds come from its parameters (run
and pair index), so the subsample's tasks (``make_tasks(False)``) are exactly the corresponding
tasks of the full protocol.

What the paper ran, what ``--full`` runs and what is stored
------------------------------------------------------------

================  ==============================================  ================================
part              the paper (Section 3)                           ``--full``: ``make_tasks(True)``
================  ==============================================  ================================
``boston``        Table 1: 500 random runs                        500 tasks, one per run
``yale``          Tables 5-7: 50 runs of the 105 pairs with 3, 5  15 750 tasks: 3 tables × 50
                  and 7 training images per subject               runs × 105 pairs
``rho``           not in the paper (the chapter's ρ sweep)        12 tasks: run 0, 5 images per
                                                                  subject, every 9th pair
================  ==============================================  ================================

16 262 tasks in all, all stored in ``results/projection/``.  Without ``--full``,
``make_tasks(False)`` is a subsample of 322 of them (100 Boston runs; 2 runs of every 3rd face
pair; the ρ sweep).

The package's modules: :mod:`~fsbook.experiments.projection.paper` (the paper's numbers, the
settings, the tie rule and the version history), :mod:`~fsbook.experiments.projection.tasks`
(:func:`make_tasks`, :func:`run_task` and the part functions), :mod:`~fsbook.experiments.projection.boston`
(Table 1's data and runs), :mod:`~fsbook.experiments.projection.yale` (the faces' data, splits,
reductions, Gram matrices and one pairwise task), :mod:`~fsbook.experiments.projection.yale_checks`
(the live checks of the face experiment),
:mod:`~fsbook.experiments.projection.search` (each part's model search),
:mod:`~fsbook.experiments.projection.newsgroups` (the text tasks' parts, shared with
:mod:`fsbook.experiments.projection.text`), :mod:`~fsbook.experiments.projection.tables`
(:func:`reduce`, one builder per part), :mod:`~fsbook.experiments.projection.claims` (the claim
families) and :mod:`~fsbook.experiments.projection.facts` (the numbers the chapter's prose quotes,
worded by :mod:`~fsbook.experiments.projection.words`, from the tables of
:mod:`~fsbook.experiments.projection.summaries`, with Table 1's and Tables 5-7's facts in
:mod:`~fsbook.experiments.projection.boston_facts` and
:mod:`~fsbook.experiments.projection.yale_facts`; they read the text and ablation stores too,
so they are imported on their own: ``from fsbook.experiments.projection import facts``).
"""
from fsbook.experiments._runner import Protocol
from fsbook.experiments.projection import (
                    ablations,
                    boston,
                    claims,
                    facts,
                    newsgroups,
                    paper,
                    search,
                    tables,
                    tasks,
                    text,
                    yale,
                    yale_checks,
)

__all__ = ["PROTOCOL", "ablations", "boston", "claims", "facts", "newsgroups", "paper", "search", "tables",
           "tasks", "text", "yale", "yale_checks"]

PROTOCOL = Protocol(name=tables.NAME, make_tasks=tasks.make_tasks, run_task=tasks.run_task,
                    reduce=tables.reduce, claims=claims.claims, agreement=claims.agreement_table,
                    version=paper.VERSION, description="Zhang & Schneider (2010), Tables 1 and 5-7 and the ρ sweep")

"""Protocols of the geometric-ratios paper (Sections 3-5), run by the shared runner.

Every task labels one problem: the all-subsets wrapper (:func:`fsbook.geometry.all_subsets_wrapper`)
and the ratios f1-f6 of every (binary classifier, feature set) pair.  The reduction refits the
Table 2 models on the training suite and scores the published and the refitted model on every
problem.  Task kinds:

* ``train`` -- the training suite (Table 3; Tables 2 and 4, Figure 1);
* ``dimension`` -- webtext five-site test sets of the paper's dimensions (Table 5);
* ``uci`` -- low-dimensional UCI data, on real values or booleanised (Table 6);
* ``random`` -- the webtext training problem with 25 % random columns (Section 5.1);
* ``growth`` -- one five-site set at increasing dimension, with the selector's CPU time
  (Figure 3).

The package holds one module per job: :mod:`~fsbook.experiments.geometry.paper` (the paper's
numbers, the settings, the version history), :mod:`~fsbook.experiments.geometry.problems` (the
problems, built from :mod:`fsbook.datasets`), :mod:`~fsbook.experiments.geometry.tasks`
(:func:`make_tasks`, :func:`run_task`), :mod:`~fsbook.experiments.geometry.tables`
(:func:`reduce` and one builder per table), :mod:`~fsbook.experiments.geometry.claims` (the
claims), :mod:`~fsbook.experiments.geometry.figures` (Figures 1 and 3 and the timing of Figure
3's right panel) and :mod:`~fsbook.experiments.geometry.facts` (every number and verdict the
chapter's prose quotes).  Tables are rendered by :func:`fsbook.report.styled_table`; this
package re-exports the names the chapter reads.

:func:`claims` decides the paper's claims on the reduced counts and per-task results by the
book's rule (:mod:`fsbook.claims`): regression t-tests for Figures 1 and 3, exact binomial tests
of the selector's counts against the paper's values for Tables 4-6, a paired t-test over the
binary classifiers for the random columns; Holm within each table; over data sets the Wilcoxon
signed-rank test of the per-data-set effects, in families of their own (:func:`over_family`).

What the paper ran: its Table 3 training suite (two private sentence corpora, 300 movie reviews
x 1000 columns, 1200 webtext sentences x 500 columns), Table 5 on five-author Amazon sets at seven
dimensions (480-1440 columns), Table 6 on three unnamed low-dimensional sets, 25 % random columns
on Polarity1, and Figure 3 on one five-author set grown by 80 columns at a time.
``python -m fsbook.experiments geometry --full --out results/geometry`` runs the paper-sized
protocol on our substitutes (``SETTINGS["full"]``: the paper's Table 3 row and column counts for
movie reviews and webtext, 20 Newsgroups in place of the private corpora, webtext sites as Table 5
authors at all seven dimensions, thirteen Figure 3 dimensions from 80 to 1920); its committed store
``results/geometry/`` is what the chapter reads (:func:`fsbook.experiments.read_store`).  Without
``--full`` it runs a smaller subsample (``SETTINGS["chapter"]``: fewer rows, four Table 5
dimensions) for a quick look.
"""
from __future__ import annotations

from fsbook.experiments._runner import Protocol
from fsbook.experiments.geometry import claims, facts, figures, paper, problems, tables, tasks

__all__ = ["PROTOCOL", "claims", "facts", "figures", "paper", "problems", "tables", "tasks"]

PROTOCOL = Protocol(name="geometry", make_tasks=tasks.make_tasks, run_task=tasks.run_task,
                    reduce=tables.reduce, claims=claims.claims, version=paper.VERSION,
                    description="Geometric-ratio feature selection: training suite, Tables 2-6, "
                                "random columns, Figure 3")

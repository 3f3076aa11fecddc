"""A minimal protocol in the layout of every protocol: the template for new ones and the runner's
test case.

Ridge against ordinary least squares on synthetic linear data with ``n`` examples, ``p``
features and noise level ``noise``, repeated ``rep`` times.  Each slot of a protocol is one module:

``paper``
    the claim, the paper's settings and printed numbers, the version history;
``tasks``
    ``make_tasks(full)`` (the documented subsample or the full protocol) and ``run_task(params)``,
    a pure function of its parameters;
``tables``
    ``reduce(params_list, results_list)``, the tables a page shows;
``claims``
    the paper's claims, decided on the paired per-unit results (:mod:`fsbook.claims`);
``facts``
    every number and verdict the page's prose quotes, as a function of the results;
``ablations`` (optional)
    the variants that explain a gap, a protocol of their own (``_example_ablations``).

``PROTOCOL`` joins them (the scoreboard reads its ``claims``), and the package holds only it and
the modules: every other name is read where it is declared (``tasks.run_task``,
``paper.VERSION``).  ``python -m fsbook.experiments <name> --full`` runs it into its store,
and a page reads the store and glues ``facts``.  The module name starts with ``_``, so the
template is not listed among the book's protocols.
"""
from fsbook.experiments._example import ablations, claims, facts, paper, tables, tasks
from fsbook.experiments._runner import Protocol

__all__ = ["PROTOCOL", "ablations", "claims", "facts", "paper", "tables", "tasks"]

PROTOCOL = Protocol(name="_example", make_tasks=tasks.make_tasks, run_task=tasks.run_task,
                    reduce=tables.reduce, claims=claims.claims, version=paper.VERSION,
                    description="OLS vs ridge on synthetic data (runner template)")

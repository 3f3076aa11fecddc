"""Experiment protocols, one module per paper, all run by one runner.

A protocol module ``fsbook/experiments/<name>.py`` defines ``PROTOCOL = Protocol(...)``: a list
of independent tasks, a pure function that runs one task and a reduction into the chapter's
tables (see :mod:`fsbook.experiments._runner`).  Notebooks call
``run_protocol(PROTOCOL, full=False, n_jobs=1)`` for their documented subsample;
``python -m fsbook.experiments <name> --full`` runs the paper's protocol, on local processes or
on a Dask cluster, resumably, with results under ``results/<name>/``.
"""

from fsbook.experiments._runner import Protocol, ProtocolResult, read_results, run_protocol, task_seed

__all__ = ["Protocol", "ProtocolResult", "read_results", "run_protocol", "task_seed"]

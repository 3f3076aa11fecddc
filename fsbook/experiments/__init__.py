"""Experiment protocols, one module per paper, all run by one runner.

A protocol module ``fsbook/experiments/<name>.py`` defines ``PROTOCOL = Protocol(...)``: a list
of independent tasks, a pure function that runs one task and a reduction into the chapter's
tables (see :mod:`fsbook.experiments._runner`).  Notebooks call
``run_protocol(PROTOCOL, full=False, n_jobs=1)`` for their documented subsample;
``python -m fsbook.experiments <name> --full`` runs the paper's protocol, on local processes or
on a Dask cluster, resumably, into the protocol's committed store ``results/<name>/``, which
``read_store(PROTOCOL)`` reduces without computing anything and
``python -m fsbook.experiments verify`` checks by recomputing a sample of its tasks.
"""

from fsbook.experiments._runner import (
                                        Protocol,
                                        ProtocolResult,
                                        StoreError,
                                        read_results,
                                        read_store,
                                        run_protocol,
                                        task_seed,
)

__all__ = ["Protocol", "ProtocolResult", "StoreError", "read_results", "read_store", "run_protocol",
           "task_seed"]

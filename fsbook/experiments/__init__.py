"""Experiment protocols, one module per paper, all run by one runner.

A protocol module ``fsbook/experiments/<name>.py`` defines ``PROTOCOL = Protocol(...)``: a list
of independent tasks, a pure function that runs one task and a reduction into the chapter's
tables (see :mod:`fsbook.experiments._runner`).
``python -m fsbook.experiments <name> --full`` runs the paper's protocol, on local processes or
on a Dask cluster, resumably, into the protocol's committed store ``results/<name>/``, which
``read_store(PROTOCOL)`` reduces without computing anything (``allow_partial=True`` where a
chapter shows a documented part of it) and ``python -m fsbook.experiments verify`` checks by
recomputing a sample of its tasks.  Chapters whose store is complete read it; a chapter whose
store is still being built runs ``run_protocol(PROTOCOL, full=False, n_jobs=1)``, its documented
subsample, whose tasks are tasks of the full protocol.
"""

from fsbook.experiments._runner import (
                                        Protocol,
                                        ProtocolResult,
                                        StoreError,
                                        read_results,
                                        read_store,
                                        run_protocol,
                                        stored_flags,
                                        task_seed,
)

__all__ = ["Protocol", "ProtocolResult", "StoreError", "read_results", "read_store", "run_protocol",
           "stored_flags", "task_seed"]

"""Experiment protocols, one module per paper, all run by one runner.

A protocol module ``fsbook/experiments/<name>.py`` defines ``PROTOCOL = Protocol(...)``: a list
of independent tasks, a pure function that runs one task and a reduction into the chapter's
tables (see :mod:`fsbook.experiments._runner`).
``python -m fsbook.experiments <name> --full`` runs the paper's protocol, on local processes or
on a Dask cluster, resumably, into the protocol's committed store ``results/<name>/``, which
``read_store(PROTOCOL)`` reduces without computing anything (``allow_partial=True`` where a
chapter shows a documented part of it) and ``python -m fsbook.experiments verify`` checks by
recomputing one turn of the stored tasks (every task once per cycle of turns).  Every chapter
reads its protocol's store and computes only a small live example; a chapter whose store is
still being built reads it with ``allow_partial=True`` and says how many tasks it holds.
``run_protocol(PROTOCOL, full=False)`` runs the documented subsample, whose tasks are tasks of
the full protocol.
"""

from fsbook._cost import LIMITS as _LIMITS
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

# The protocols pin their settings and record what their fits cost: they run without the cost
# limits by which a default fit on out-of-reach data refuses at once (fsbook._cost, issue 50),
# so that no stored task changes.
_LIMITS.update(seconds=None, bytes=None)

__all__ = ["Protocol", "ProtocolResult", "StoreError", "read_results", "read_store", "run_protocol",
           "stored_flags", "task_seed"]

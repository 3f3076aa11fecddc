"""Experiment protocols, one package per paper, all run by one runner.

A protocol package ``fsbook/experiments/<name>/`` defines ``PROTOCOL = Protocol(...)``: a list
of independent tasks, a pure function that runs one task and a reduction into the chapter's
tables (see :mod:`fsbook.experiments._runner`).  A module of the package that declares a
``PROTOCOL`` of its own is the protocol ``<name>_<module>`` (``l1linf/ablations.py`` is
``l1linf_ablations``); :mod:`fsbook.experiments._registry` finds them all from the files.
``python -m fsbook.experiments <name> --full`` runs the paper's protocol, on local processes or
on a Dask cluster, resumably, into the protocol's committed store ``results/<name>/``, which
``read_store(PROTOCOL)`` reduces without computing anything (``allow_partial=True`` where a
chapter shows a documented part of it) and ``python -m fsbook.experiments verify`` checks by
recomputing one turn of the stored tasks (every task once per cycle of turns).  Every chapter
reads its protocol's store and computes only a small live example; a chapter whose store is
still being built reads it with ``allow_partial=True`` and says how many tasks it holds.
``run_protocol(PROTOCOL, full=False)`` runs the documented subsample, whose tasks are tasks of
the full protocol.

The protocols pin their settings and record what their fits cost, so the runner runs every task
without the cost limits by which a default fit on out-of-reach data refuses at once
(:func:`fsbook.cost_limits`); importing this package changes no global state.  Code that calls
a protocol's ``run_task`` itself (a chapter's live task) lifts them the same way, explicitly.
"""

from fsbook.experiments._reading import machines, read_results, read_store
from fsbook.experiments._runner import Protocol, ProtocolResult, run_protocol, stored_flags, task_seed
from fsbook.experiments._store import StoreError

__all__ = ["Protocol", "ProtocolResult", "StoreError", "machines", "read_results", "read_store", "run_protocol",
           "stored_flags", "task_seed"]

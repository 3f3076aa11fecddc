"""The part of the ``kernel_design`` store the chapter reads (:func:`held`: the data sets whose
tasks are all stored) and its accounting: the tasks stored per data set (:func:`coverage_table`)
and the caption's note on a partial store (:func:`scope_note`); the machines that ran them are
:func:`fsbook.experiments._reading.machines`'.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from fsbook.experiments.kernel_design.paper import DATASETS, PAPER_INDEX, PAPER_NAMES
from fsbook.experiments.kernel_design.tables import reduce
from fsbook.experiments.kernel_design.tasks import stored_datasets
from fsbook.report import join_words


@dataclass
class Held:
    """The part of a store the chapter reads: the data sets all of whose tasks are stored, their
    tasks' parameters and results, and the tables :func:`reduce` builds from them."""
    datasets: list
    params: list
    results: list
    tables: dict


def held(res, command="python -m fsbook.experiments kernel_design --full --out results/kernel_design"):
    """The data sets of ``res`` (``read_store(PROTOCOL, allow_partial=...)``) held whole and their
    tasks; a store that holds no data set whole raises, naming ``command``, which completes it."""
    datasets = stored_datasets(res.params)
    if not datasets:
        raise RuntimeError(f"the store holds {res.n_cached} of {res.n_total} tasks but every task of no "
                           f"dataset; complete one with `{command}` (it resumes)")
    use = [i for i, p in enumerate(res.params) if p["dataset"] in datasets]
    params, results = [res.params[i] for i in use], [res.results[i] for i in use]
    tables = res.tables if res.complete else reduce(params, results)
    return Held(datasets, params, results, tables)


def coverage_table(res, tasks, is_stored, datasets):
    """Per data set: tasks stored of the protocol's (``tasks``, ``is_stored`` from
    :func:`fsbook.experiments.stored_flags`), their summed wall time in minutes, and whether the
    chapter reads it (in ``datasets``)."""
    stored = pd.DataFrame(res.params).assign(seconds=pd.Series(res.seconds, dtype=float).fillna(0.0))
    minutes = stored.groupby("dataset")["seconds"].sum() / 60
    flags = pd.DataFrame({"dataset": [t["dataset"] for t in tasks], "stored": is_stored})
    return pd.DataFrame([{
        "#": PAPER_INDEX[d], "dataset": PAPER_NAMES[d],
        "tasks stored": int(flags[flags.dataset == d]["stored"].sum()), "tasks": int((flags.dataset == d).sum()),
        "task time (min)": float(minutes.get(d, 0.0)),
        "read on this page": "yes" if d in datasets else "no: incomplete"} for d in DATASETS])


def scope_note(res, datasets):
    """The caption's note on a partial store (empty for a complete one)."""
    return "" if res.complete else f" (partial store: {join_words(PAPER_NAMES[d] for d in datasets)} only)"

"""The chance audit's reader of the ``geometry`` store: the sets the one-standard-error label
rule marks optimal although they are no better than their binary classifier's majority rate
(:mod:`fsbook.experiments._chance_stores`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments import geometry as G
from fsbook.experiments._chance_stores import choice_row
from fsbook.experiments._reading import read_store
from fsbook.geometry.candidates import binary_splits, split_label

__all__ = ["rows"]


def rows(recompute):
    res, found = read_store(G.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        y = np.asarray(G.tasks.task_problem(p)["y"])
        rate = {}
        for positive in binary_splits(np.unique(y)):
            share = float(np.mean(np.isin(y, positive)))
            rate[split_label(positive)] = max(share, 1.0 - share)
        suite = pd.DataFrame({c: r["suite"][c] for c in ("split", "subset", "accuracy", "optimal")})
        for split, s in suite[suite.optimal].groupby("split", sort=False):
            chance = s.accuracy <= rate[split] + 1e-12
            if chance.any():
                found.append(choice_row("geometry", f"{p['kind']} seed {p.get('seed')} {split}", "optimal sets",
                                 s.subset[chance].tolist(), True, True, bool((~chance).any()),
                                 "the one-standard-error label rule marks these sets optimal"))
    return found

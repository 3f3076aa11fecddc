"""The chance audit's reader of the ``projection`` store: Tables 5-7's face SVMs at the chance
level (:mod:`fsbook.experiments._chance_stores`).
"""
from __future__ import annotations

import numpy as np

from fsbook.experiments import projection as P
from fsbook.experiments._chance_stores import choice_row, majority_rate, svm_row
from fsbook.experiments._reading import read_store

__all__ = ["rows"]


def rows(recompute):
    """Tables 5-7's face SVMs (parts ``yale`` and ``rho``): every (task, Gram matrix) whose stored test
    accuracy is at most the pair's test majority rate, recomputed by the reference search of
    :func:`fsbook.experiments.projection.search.face_svm_search` (one ``GridSearchCV`` on the pair's Gram
    matrix, C over :data:`~fsbook.experiments.projection.paper.GRID`, the tie rule of the store's
    version).  The recomputed choice must be the stored C (version 5 on) and reproduce the
    stored test error.  The Gram matrices of a run (its KPCA, GDA and OLap: about a second) are
    computed once."""
    res, found, screened, splits = read_store(P.PROTOCOL), [], {}, {}
    X, y = P.yale.yale_data()

    def is_train(k, run):                 # the run's split alone (no reductions), for the screen
        if (k, run) not in splits:
            splits[k, run] = np.isin(np.arange(len(y)), P.yale.yale_split(X, y, k, run)[2])
        return splits[k, run]

    for p, r in zip(res.params, res.results):
        if p["part"] not in ("yale", "rho"):
            continue
        k = P.paper.YALE_K[p["table"]] if p["part"] == "yale" else P.paper.SWEEP["k"]
        rel, yy, tr, te = P.yale.pair_split(y, is_train(k, p["run"]), tuple(p["pair"]))
        for name, fit in r.items():
            if 1.0 - fit["error"] <= majority_rate(yy[te]) + 1e-12:
                screened.setdefault((p["part"], p.get("table"), k, p["run"]), []).append((p, name, fit))
    for (part, table, k, run), fits in screened.items():
        rhos = (P.paper.YALE_RHO,) if part == "yale" else tuple(P.paper.YALE_RHOS)
        grams = P.yale.yale_run_grams(k, run, rhos)[1] if recompute else {}
        # the store's name of each Gram matrix (_run_yale's and _run_rho's keys)
        key = {(name if isinstance(name, str) else name[0] if part == "yale" else f"{name[0]}@{name[1]:.0e}"): name
               for name in grams}
        for p, name, fit in fits:
            pair = tuple(p["pair"])
            task = f"{part} {table or ''} k={k} run {run} pair {pair} {name}"
            rel, yy, tr, te = P.yale.pair_split(y, is_train(k, run), pair)
            if not recompute:
                found.append(choice_row("projection", task, "SVM C", fit.get("C"), True,
                                        note="not recomputed"))
                continue
            G = grams[key[name]][np.ix_(rel, rel)]
            search = P.search.face_svm_search(yy[tr], P.paper.GRID, P.yale.yale_seed(run, pair),
                                              P.paper.YALE_TIES[P.paper.VERSION])
            stored = None if "C" not in fit else {"C": fit["C"]}
            found.append(svm_row("projection", task, "SVM C", fit.get("C"), search, G[np.ix_(tr, tr)], yy[tr],
                                 stored, recompute, test=(G[np.ix_(te, tr)], yy[te], 1.0 - fit["error"])))
    return found

"""The chance audit's reader of the ``kernel_design`` store: the kernel LP's (γ1, γ2) choices
that learnt the zero kernel, and the selection check's linear SVMs at the chance level
(:mod:`fsbook.experiments._chance_stores`).

A kernel-LP choice at the grid's first pair (the smallest γ1 and γ2) can never break the rule:
α = 0 at the smallest penalties means α = 0 at every larger pair (raising a penalty raises every
objective value but that of α = 0; :func:`fsbook.experiments.kernel_design.ablations.weak_kernel_regimes`),
so every tied alternative has the zero kernel too.  The check uses this for the zero kernels chosen
at the first pair and for the ``weak_cv10`` records, which hold no α: chosen at the first pair,
they cannot break the rule whatever their α.
"""
from __future__ import annotations

import numpy as np

from fsbook.decisions import SCORE_ATOL
from fsbook.experiments import kernel_design as K
from fsbook.experiments._chance import tie_check
from fsbook.experiments._chance_stores import choice_row, majority_rate, repeat_label, svm_row
from fsbook.experiments._reading import read_store
from fsbook.experiments._runner import task_seed

__all__ = ["rows"]


def _kernel_lp_row(p, r, recompute):
    task = f"{p['dataset']} {p['method']} split {p['split']}"
    pair = (r["gamma1"], r["gamma2"])
    first = (p["grid"][0], p["grid"][0])
    stored = list(pair)
    if "alpha" not in r:            # weak_cv10: α not stored
        if pair == first:
            return choice_row("kernel_design", task, "(γ1, γ2)", stored, None, None, False,
                        "α not stored; the grid's first pair: a zero α there is zero at every pair")
        return choice_row("kernel_design", task, "(γ1, γ2)", stored, None,
                          note="α not stored, not recomputed")
    if np.abs(r["alpha"]).max(initial=0.0) > 0:
        return None
    if pair == first:
        return choice_row("kernel_design", task, "(γ1, γ2)", stored, True, True, False,
                    "zero kernel at the grid's first pair: zero at every pair")
    if not recompute:
        return choice_row("kernel_design", task, "(γ1, γ2)", stored, True, True, note="not recomputed")
    Xtr, ytr, _, _, t_tr, _ = K.tasks.split(p)
    _, _, scores = K.tasks.choose_gammas(p["method"], Xtr, ytr, p["grid"], p["n_train"], p["n_test"] // 2,
                                   task_seed(p, "cv"))
    pairs = list(scores)
    acc = np.array([scores[q] for q in pairs])
    chosen = pairs.index(pair)
    tied = np.flatnonzero(acc >= acc.max() - SCORE_ATOL)
    zero = np.zeros(len(pairs), dtype=bool)
    for i in tied:
        alpha = K.tasks.fit_mixture(p["method"], Xtr, t_tr, *pairs[i]).alpha_
        zero[i] = not np.abs(alpha).max(initial=0.0) > 0
    out = tie_check(acc, zero, chosen)
    note = (f"tied pairs {[pairs[i] for i in out['tied']]}; CV score {acc[chosen]:.3f}, "
            f"zero kernel at {[pairs[i] for i in out['tied'] if zero[i]]}")
    return choice_row("kernel_design", task, "(γ1, γ2)", stored, True, out["degenerate"],
                      out["tied_alternative"], note)


def rows(recompute):
    res, found = read_store(K.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        if p["method"] in K.paper.MIXTURES or p["method"] == "weak_cv10":
            row = _kernel_lp_row(p, r, recompute)
            if row is not None:
                found.append(row)
        elif p["method"] == "selection":
            X, y = K.tasks.load(p["dataset"])
            tr, te = K.tasks.selection_fold(p["dataset"], p["split"], p.get("repeat", 0))
            kept = np.asarray(r["kept"], dtype=int)
            for key, cols in (("acc_all", np.arange(X.shape[1])), ("acc_kept", kept)):
                if not r[key] <= majority_rate(y[te]) + 1e-12:      # NaN (nothing kept): no SVM
                    continue
                search = K.tasks.selection_svm()
                found.append(svm_row("kernel_design", f"{p['dataset']} selection{repeat_label(p)} fold {p['split']} {key}",
                                     "linear SVM C", None, search, X[tr][:, cols], y[tr], None, recompute))
    return found

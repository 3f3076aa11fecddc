"""Chance-level model choices in the stored protocols: the screen and the recomputation.

This module checks the tie rule of :mod:`fsbook.experiments._chance` on the committed stores
of ``kernel_design``, ``l1linf``, ``geometry``, ``benchmark``, ``projection`` (the face SVMs)
and ``hkl``:

1. *Screen* (stored records only): a stored choice is at the chance level when its test
   accuracy is at most the test fold's majority-class rate (SVMs), when its learnt kernel is
   zero (α = 0, the kernel LP) or, for chapter 4's labels, when a set labelled optimal is no
   better than the majority rate of its binary classifier.
2. *Recompute* the choice of every screened record (the records store the chosen C, not the
   cross-validation behind it): the protocol's own inner cross-validation, on the stored kept
   features with the task's seed, gives each candidate's mean validation accuracy and whether
   it predicts both classes on the pooled validation points; the kernel LP's 2-fold table
   gives each (γ1, γ2)'s score and the α of each tied pair refitted on all training triples.  A
   chosen model is *degenerate* when it predicts one class on every validation point (or its
   kernel is zero); a *tied alternative* is another candidate within
   :data:`fsbook.decisions.SCORE_ATOL` of the best mean accuracy that is not degenerate.  The
   recomputed choice is checked against the store (its parameters, or its refit's test
   accuracy where the store keeps no parameter).

:func:`chance_level_choices` runs screen and recomputation over the stores, one reader per
protocol (:data:`PROTOCOL_ROWS`); :func:`fsbook.experiments._chance.chance_violations` keeps
the rows that break the rule.

A kernel-LP choice at the grid's first pair (the smallest γ1 and γ2) can never break the rule:
α = 0 at the smallest penalties means α = 0 at every larger pair (raising a penalty raises every
objective value but that of α = 0; :func:`fsbook.experiments.kernel_design.ablations.weak_kernel_regimes`),
so every tied alternative has the zero kernel too.  The check uses this for the zero kernels chosen
at the first pair and for the ``weak_cv10`` records, which hold no α: chosen at the first pair,
they cannot break the rule whatever their α.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone

from fsbook.decisions import SCORE_ATOL
from fsbook.experiments._chance import CHOICE_COLUMNS, svm_choice, tie_check
from fsbook.experiments._reading import read_store
from fsbook.experiments._runner import task_seed
from fsbook.geometry.candidates import binary_splits, split_label

__all__ = ["PROTOCOL_ROWS", "chance_level_choices"]


def _row(protocol, task, choice, stored, at_chance, degenerate=None, tied_alternative=None, note=""):
    return {"protocol": protocol, "task": task, "choice": choice, "stored": stored,
            "at_chance": at_chance, "degenerate": degenerate, "tied_alternative": tied_alternative,
            "note": note}


def _majority_rate(y):
    return float(np.unique(y, return_counts=True)[1].max() / len(y))


def _svm_row(protocol, task, choice, stored, search, X_train, y_train, stored_param, recompute, test=None):
    """The row of one SVM choice at the chance level: recomputed when asked.  The recomputed
    choice is compared with the stored one: its parameters (``stored_param``) or, for a store
    that keeps no parameter, the test accuracy of its refit (``test = (X, y, stored accuracy)``)."""
    if not recompute:
        return _row(protocol, task, choice, stored, True, note="not recomputed")
    out = svm_choice(search, X_train, y_train)
    chosen = out["params"][out["chosen"]]
    note = ("" if stored_param is None or chosen == stored_param
            else f"recomputed choice {chosen} differs from the stored {stored_param}")
    if test is not None:
        X_test, y_test, accuracy = test
        refit = clone(search.estimator).set_params(**chosen).fit(X_train, y_train)
        again = float(np.mean(refit.predict(X_test) == y_test))
        if abs(again - accuracy) > 1e-12:
            note = f"recomputed choice {chosen} differs from the stored: test accuracy {again} against {accuracy}"
        stored = {k.split("__")[-1]: v for k, v in chosen.items()}
    return _row(protocol, task, choice, stored, True, out["degenerate"], out["tied_alternative"], note)


def _l1linf_rows(recompute):
    from fsbook.experiments import l1linf as L
    res, rows = read_store(L.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        X, y = L.tasks.load(p["dataset"], p["n_max"])
        train, test = L.tasks.folds(p["dataset"], p["n_max"], y, p.get("repeat", 0))[p["fold"]]
        majority = _majority_rate(y[test])
        seed = task_seed(p) % (2 ** 31)
        for k, err, C, support in zip(p["ks"], r["errors"], r["C"], r["supports"]):
            task = (f"{p['dataset']} {p['method']} {p['selection']}"
                    + (f" repeat {p['repeat']}" if p.get("repeat") else "") + f" fold {p['fold']} k={k}")
            if 1.0 - err > majority + 1e-12:
                continue
            cols = np.arange(X.shape[1]) if p["method"] == "all" else np.asarray(support, dtype=int)
            Xtr = X[train][:, cols]
            Xtr = Xtr.toarray() if sp.issparse(Xtr) else Xtr
            rows.append(_svm_row("l1linf", task, "RBF SVM C", C, L.tasks.svm_search(seed), Xtr, y[train],
                                 {"svc__C": C}, recompute))
    return rows


_PROJECTION_KEYS = ("projectionpenalty__estimator__C", "projectionpenalty__reduced_penalty")


def _benchmark_rows(recompute):
    from fsbook.experiments import benchmark as B

    res, rows = read_store(B.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        if "not_run" in r:
            continue
        _, y, _, _ = B.data.load(p["dataset"])
        train, test = B.data.folds(p["dataset"], p["repeat"], p["n_folds"], y)[p["fold"]]
        majority = _majority_rate(y[test])
        seed = task_seed(p)
        base = f"{p['dataset']} {p['method']} repeat {p['repeat']} fold {p['fold']}"
        if p["method"] in B.paper.CLASSIFIER_SIDE:
            if r["acc_linear"] <= majority + 1e-12:
                Xtr, _, _ = B.data.fold_data(p["dataset"], train, test)
                stored = [r["C"], r["reduced_penalty"]]
                rows.append(_svm_row("benchmark", base, "Proj-SVM (C, λ)", stored,
                                     B.models.projection_search(Xtr, y[train], seed), Xtr, y[train],
                                     dict(zip(_PROJECTION_KEYS, stored)), recompute))
            continue
        data = None
        for i, k in enumerate(r["k"]):
            for key, search in B.models.classifier_searches(seed).items():
                if r[key][i] > majority + 1e-12:
                    continue
                task, choice = f"{base} k={k}", f"{key[4:]} SVM C"
                if r["n_selected"][i] == 0:
                    rows.append(_row("benchmark", task, choice, None, True, True, False,
                                     "no feature kept: the majority class, no choice"))
                    continue
                if data is None:
                    data = B.data.fold_data(p["dataset"], train, test)
                Xtr, Xte, columns = data
                cols = np.searchsorted(columns, r["support"][i])
                rows.append(_svm_row("benchmark", task, choice, None, search, Xtr[:, cols], y[train],
                                     None, recompute, test=(Xte[:, cols], y[test], r[key][i])))
    return rows


def _kernel_lp_row(p, r, recompute):
    from fsbook.experiments import kernel_design as K

    task = f"{p['dataset']} {p['method']} split {p['split']}"
    pair = (r["gamma1"], r["gamma2"])
    first = (p["grid"][0], p["grid"][0])
    stored = list(pair)
    if "alpha" not in r:            # weak_cv10: α not stored
        if pair == first:
            return _row("kernel_design", task, "(γ1, γ2)", stored, None, None, False,
                        "α not stored; the grid's first pair: a zero α there is zero at every pair")
        return _row("kernel_design", task, "(γ1, γ2)", stored, None, note="α not stored, not recomputed")
    if np.abs(r["alpha"]).max(initial=0.0) > 0:
        return None
    if pair == first:
        return _row("kernel_design", task, "(γ1, γ2)", stored, True, True, False,
                    "zero kernel at the grid's first pair: zero at every pair")
    if not recompute:
        return _row("kernel_design", task, "(γ1, γ2)", stored, True, True, note="not recomputed")
    Xtr, ytr, _, _, t_tr, _ = K.tasks.split(p)
    _, _, scores = K.tasks.choose_gammas(p["method"], Xtr, ytr, p["grid"], p["n_train"], p["n_test"] // 2,
                                   task_seed(p, "cv"))
    pairs = list(scores)
    acc = np.array([scores[q] for q in pairs])
    chosen = pairs.index(pair)
    tied = np.flatnonzero(acc >= acc.max() - SCORE_ATOL)
    zero = np.zeros(len(pairs), dtype=bool)
    for i in tied:
        zero[i] = not np.abs(K.tasks.fit_mixture(p["method"], Xtr, t_tr, *pairs[i]).alpha_).max(initial=0.0) > 0
    out = tie_check(acc, zero, chosen)
    note = (f"tied pairs {[pairs[i] for i in out['tied']]}; CV score {acc[chosen]:.3f}, "
            f"zero kernel at {[pairs[i] for i in out['tied'] if zero[i]]}")
    return _row("kernel_design", task, "(γ1, γ2)", stored, True, out["degenerate"], out["tied_alternative"], note)


def _repeat_label(params):
    """`` repeat r`` for a selection-check task of repetition ``r > 0`` (version 6 on), else ``""``."""
    return f" repeat {params['repeat']}" if params.get("repeat") else ""


def _kernel_design_rows(recompute):
    from fsbook.experiments import kernel_design as K

    res, rows = read_store(K.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        if p["method"] in K.paper.MIXTURES or p["method"] == "weak_cv10":
            row = _kernel_lp_row(p, r, recompute)
            if row is not None:
                rows.append(row)
        elif p["method"] == "selection":
            X, y = K.tasks.load(p["dataset"])
            tr, te = K.tasks.selection_fold(p["dataset"], p["split"], p.get("repeat", 0))
            for key, cols in (("acc_all", np.arange(X.shape[1])), ("acc_kept", np.asarray(r["kept"], dtype=int))):
                if not r[key] <= _majority_rate(y[te]) + 1e-12:      # NaN (nothing kept): no SVM
                    continue
                search = K.tasks.selection_svm()
                rows.append(_svm_row("kernel_design", f"{p['dataset']} selection{_repeat_label(p)} fold {p['split']} {key}",
                                     "linear SVM C", None, search, X[tr][:, cols], y[tr], None, recompute))
    return rows


def _geometry_rows(recompute):
    from fsbook.experiments import geometry as G

    res, rows = read_store(G.PROTOCOL), []
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
                rows.append(_row("geometry", f"{p['kind']} seed {p.get('seed')} {split}", "optimal sets",
                                 s.subset[chance].tolist(), True, True, bool((~chance).any()),
                                 "the one-standard-error label rule marks these sets optimal"))
    return rows


def _projection_rows(recompute):
    """Tables 5-7's face SVMs (parts ``yale`` and ``rho``): every (task, Gram matrix) whose stored test
    accuracy is at most the pair's test majority rate, recomputed by the reference search of
    :func:`fsbook.experiments.projection.search.face_svm_search` (one ``GridSearchCV`` on the pair's Gram
    matrix, C over :data:`~fsbook.experiments.projection.paper.GRID`, the tie rule of the store's
    version).  The recomputed choice must be the stored C (version 5 on) and reproduce the
    stored test error.  The Gram matrices of a run (its KPCA, GDA and OLap: about a second) are
    computed once."""
    from fsbook.experiments import projection as P

    res, rows, screened, splits = read_store(P.PROTOCOL), [], {}, {}
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
            if 1.0 - fit["error"] <= _majority_rate(yy[te]) + 1e-12:
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
                rows.append(_row("projection", task, "SVM C", fit.get("C"), True, note="not recomputed"))
                continue
            G = grams[key[name]][np.ix_(rel, rel)]
            search = P.search.face_svm_search(yy[tr], P.paper.GRID, P.yale.yale_seed(run, pair), P.paper.YALE_TIES[P.paper.VERSION])
            stored = None if "C" not in fit else {"C": fit["C"]}
            rows.append(_svm_row("projection", task, "SVM C", fit.get("C"), search, G[np.ix_(tr, tr)], yy[tr],
                                 stored, recompute, test=(G[np.ix_(te, tr)], yy[te], 1.0 - fit["error"])))
    return rows


def _hkl_cv_row(task, model, X_train, y_train, stored_C, recompute):
    """The row of one HKL choice at the chance level: :class:`~fsbook.hkl.DisjunctiveHKLCV`'s
    CV path recomputed (its ``one_class`` column), checked with its own tie tolerance, half a
    sample (``1/(2m)``)."""
    if not recompute:
        return _row("hkl", task, "HKL C", stored_C, True, note="not recomputed")
    model.fit(X_train, y_train)
    cv = model.cv_results_
    chosen = int(np.flatnonzero((cv.C.to_numpy() == model.C_) & (cv.beta.to_numpy() == model.beta_))[0])
    out = tie_check(cv.mean_accuracy.to_numpy(), cv.one_class.to_numpy(dtype=bool), chosen,
                    atol=0.5 / len(y_train))
    note = "" if model.C_ == stored_C else f"recomputed choice C = {model.C_} differs from the stored {stored_C}"
    return _row("hkl", task, "HKL C", stored_C, True, out["degenerate"], out["tied_alternative"], note)


def _hkl_rows(recompute):
    """Chapter 6's model choices: HKL's C (Tables 1, 4 and 5 and the disjunctions), the tuned
    raw-attribute SVMs of Table 1, the tuned SVMs of Table 3 and the feature-weighting SVM of
    Table 5 (their stored parameters); Table 3's kernel check stores its C but is not
    recomputed here (none of its choices is at the chance level: a screened one fails the
    test)."""
    from fsbook.experiments import hkl as H

    res, rows = read_store(H.PROTOCOL), []
    for p, r in zip(res.params, res.results):
        t = p["table"]
        if t == 1 and p["method"] in ("hkl", H.paper.RAW_TUNED):
            raw = p["method"] == H.paper.RAW_TUNED
            if raw:
                X, y, nominal, n_levels, split = H.data.load_raw(p["dataset"])
            else:
                X, y, _, split = H.data.load_table1(p["dataset"])
            train, test = H.folds.task_split(p, y, split)
            majority, seed = _majority_rate(y[test]), H.folds.inner_seed(1, p["fold"], p.get("repeat", 0))
            task = f"table 1 {p['dataset']}{_repeat_label(p)} fold {p['fold']}"
            if not raw:
                if r["HKL"] <= majority + 1e-12:
                    rows.append(_hkl_cv_row(task, H.models.tuned_hkl(H.paper.HKL_C_GRID, seed), X[train], y[train], r["C"], recompute))
                continue
            for name, search in H.models.raw_tuned_svms(nominal, n_levels, seed).items():
                if r[name] <= majority + 1e-12:
                    stored = {k: r[f"{name}_{k.split('__')[-1]}"] for k in search.param_grid}
                    rows.append(_svm_row("hkl", f"{task} {name} (raw, tuned)", f"{name} SVM parameters", stored,
                                         search, X[train], y[train], stored, recompute))
        elif t == 3:
            X, y, _, _ = H.data.load_table1("20newsgroups")
            train, test = H.folds.table_folds(y, None)[p["fold"]]
            majority = _majority_rate(y[test])
            if p["method"] == "svm_tuned":
                for name, search in H.models.tuned_svms(H.folds.inner_seed(3, p["fold"])).items():
                    if r[name] <= majority + 1e-12:
                        rows.append(_svm_row("hkl", f"table 3 fold {p['fold']} {name}", f"{name} SVM C",
                                             r[f"C_{name}"], search, X[train], y[train], {"C": r[f"C_{name}"]},
                                             recompute))
            else:
                for key in ("linear", "interactions"):
                    if r[key] <= majority + 1e-12:
                        rows.append(_row("hkl", f"table 3 fold {p['fold']} degree {p['degree']} {key}", "SVM C",
                                         r[f"C_{key}"], True, note="not recomputed"))
        elif t == "disjunctions":
            X, y, _, _ = H.data.load_table1("20newsgroups")
            train, test = H.folds.disjunction_split()
            if r["accuracy"] > _majority_rate(y[test]) + 1e-12:
                continue
            rows.append(_hkl_cv_row("disjunctions", H.models.tuned_hkl(H.paper.HKL_C_GRID, 5), X[train], y[train], r["C"], recompute))
        elif t in (4, 5) and p["method"] in ("hkl", "weighted_svm"):
            X, y = H.data.load_numeric(p["dataset"])
            train, test = H.folds.task_split(p, y)
            if r["accuracy"] > _majority_rate(y[test]) + 1e-12:
                continue
            task = f"table {t} {p['dataset']}{_repeat_label(p)} fold {p['fold']} {p['method']}"
            seed = H.folds.inner_seed(t, p["fold"], p.get("repeat", 0))
            if p["method"] == "weighted_svm":
                stored = {"featureweightingsvm__C": r["C"]}
                rows.append(_svm_row("hkl", task, "SVM C", r["C"], H.models.tuned_weighted_svm(seed), X[train], y[train],
                                     stored, recompute))
                continue
            Xb = H.data.table4_boolean(p["dataset"])[2] if t == 4 else H.data.load_table1(p["dataset"])[0]
            rows.append(_hkl_cv_row(task, H.models.tuned_hkl(H.paper.HKL_C_GRID, seed), Xb[train], y[train], r["C"], recompute))
    return rows


#: the part of :func:`chance_level_choices` that reads each protocol's store
PROTOCOL_ROWS = {"kernel_design": _kernel_design_rows, "l1linf": _l1linf_rows,
                 "geometry": _geometry_rows, "benchmark": _benchmark_rows, "projection": _projection_rows,
                 "hkl": _hkl_rows}


def chance_level_choices(protocols=tuple(PROTOCOL_ROWS), *, recompute=True):
    """Every stored model choice at the chance level, with the tie check of its candidates.

    Parameters
    ----------
    protocols : sequence of str
        Keys of :data:`PROTOCOL_ROWS`.
    recompute : bool, default True
        Recompute the cross-validation behind each screened choice (seconds per choice on the
        stored kept features; the kernel LP's 2-fold table, seconds for the full mixture);
        ``False`` screens the stored records only (``degenerate`` and ``tied_alternative`` are
        then ``None`` where they need a recomputation).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CHOICE_COLUMNS`, one row per stored choice at the chance level (by the
        screen of the module docstring); ``None`` where unknown.

    Examples
    --------
    >>> rows = chance_level_choices(["geometry"], recompute=False)
    >>> list(rows.columns) == CHOICE_COLUMNS, len(rows)
    (True, 0)
    """
    unknown = [p for p in protocols if p not in PROTOCOL_ROWS]
    if unknown:
        raise ValueError(f"unknown protocol(s) {unknown}; expected some of {sorted(PROTOCOL_ROWS)}")
    rows = [row for name in protocols for row in PROTOCOL_ROWS[name](recompute)]
    return pd.DataFrame(rows, columns=CHOICE_COLUMNS)

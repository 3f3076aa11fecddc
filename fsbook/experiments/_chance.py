"""Chance-level model choices: the tie rule and its check.

A protocol that chooses a model from a cross-validation (C of an SVM, the γ of a kernel LP)
breaks ties by a rule.  The rule must never pick a model *at the chance level* while a model
tied with it is not.  A chosen model is *degenerate* when it predicts one class on every
validation point (or its kernel is zero); a *tied alternative* is another candidate within
:data:`fsbook.decisions.SCORE_ATOL` of the best mean accuracy that is not degenerate.

:func:`tie_check` is the rule on one candidate table, :func:`svm_choice` recomputes the
candidate table of an SVM's search, :func:`chance_violations` keeps the rows of a table of
choices (:data:`CHOICE_COLUMNS`) that break the rule.  The stored protocols' choices are
screened and recomputed by :mod:`fsbook.experiments._chance_stores`
(:func:`~fsbook.experiments._chance_stores.chance_level_choices`); ``tests/test_chance.py``
applies them to the committed stores.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import clone

from fsbook.decisions import SCORE_ATOL, argbest

__all__ = ["CHOICE_COLUMNS", "tie_check", "svm_choice", "chance_violations"]

#: the columns of a table of choices (:func:`~fsbook.experiments._chance_stores.chance_level_choices`)
CHOICE_COLUMNS = ["protocol", "task", "choice", "stored", "at_chance", "degenerate",
                  "tied_alternative", "note"]


def tie_check(cv_accuracy, degenerate, chosen, *, atol=SCORE_ATOL):
    """Whether a choice from a candidate table breaks the rule.

    Parameters
    ----------
    cv_accuracy : array-like of float, shape (n,)
        Mean validation accuracy (or score) of each candidate.
    degenerate : array-like of bool, shape (n,)
        Whether each candidate is at the chance level (one class on every validation point,
        zero weights, zero kernel).
    chosen : int
        Index of the candidate the protocol chose.
    atol : float
        Tie tolerance on ``cv_accuracy`` (the protocols' :data:`~fsbook.decisions.SCORE_ATOL`).

    Returns
    -------
    dict
        ``degenerate`` (the chosen candidate is), ``tied`` (indices within ``atol`` of the best)
        and ``tied_alternative`` (some other tied candidate is not degenerate).  The rule is broken
        when both are true.

    Examples
    --------
    >>> tie_check([0.6, 0.6, 0.5], [True, False, False], chosen=0)
    {'degenerate': True, 'tied': [0, 1], 'tied_alternative': True}
    >>> tie_check([0.6, 0.6, 0.5], [True, True, False], chosen=0)["tied_alternative"]
    False
    >>> tie_check([0.6, 0.6, 0.5], [False, True, False], chosen=0)["tied_alternative"]   # not degenerate
    False
    """
    acc = np.asarray(cv_accuracy, dtype=float)
    deg = np.asarray(degenerate, dtype=bool)
    if acc.ndim != 1 or acc.shape != deg.shape or acc.size == 0:
        raise ValueError(f"cv_accuracy and degenerate must be 1-d of one length, got {acc.shape}, {deg.shape}")
    if not 0 <= int(chosen) < acc.size:
        raise ValueError(f"chosen must index a candidate in [0, {acc.size}), got {chosen!r}")
    best = acc[argbest(acc, atol=atol, rtol=0.0)]
    tied = np.flatnonzero(acc >= best - atol)
    others = tied[tied != int(chosen)]
    return {"degenerate": bool(deg[chosen]), "tied": tied.tolist(),
            "tied_alternative": bool((~deg[others]).any())}


def svm_choice(search, X_train, y_train):
    """The candidate table of an unfitted :class:`~sklearn.model_selection.GridSearchCV` whose
    ``refit`` is a tie rule (:func:`fsbook.model_selection.tuned_svm`).

    Recomputes the search's cross-validation: each candidate on each of its folds, its mean
    validation accuracy and whether it predicts one class on all the validation points pooled.
    With ``kernel="precomputed"`` ``X_train`` is the training points' Gram matrix, split by rows
    and columns as the search splits it.

    Returns
    -------
    dict
        ``params`` (candidates), ``cv_accuracy``, ``one_class`` (per candidate: one class on
        every validation point), ``chosen`` (the search's own ``refit`` rule on the recomputed
        accuracies) and :func:`tie_check`'s fields for the chosen candidate.

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> from fsbook.model_selection import tuned_svm
    >>> X = np.r_[np.zeros((8, 1)), np.ones((4, 1))]; y = np.r_[np.zeros(8), np.ones(4)]
    >>> out = svm_choice(tuned_svm(SVC(), {"C": [1e-4, 10.0]}, seed=0), X, y)
    >>> out["cv_accuracy"].tolist(), out["one_class"].tolist(), out["chosen"]
    ([0.6666666666666666, 1.0], [True, False], 1)
    """
    from sklearn.model_selection import ParameterGrid

    candidates = list(ParameterGrid(search.param_grid))
    folds = list(search.cv.split(X_train, y_train))
    # tuned_svm(..., tie="two_class" or "lexicographic"): its tie-breaking scores, recomputed too
    multi = isinstance(search.scoring, dict)
    secondary_names = [name for name in (search.scoring or {}) if name != "accuracy"] if multi else []
    precomputed = getattr(search.estimator, "kernel", None) == "precomputed"   # X_train is a Gram matrix

    def rows(idx, cols):
        return X_train[np.ix_(idx, cols)] if precomputed else X_train[idx]

    acc = np.zeros((len(candidates), len(folds)))
    secondary = {name: np.zeros_like(acc) for name in secondary_names}
    degenerate = np.zeros(len(candidates), dtype=bool)
    for i, params in enumerate(candidates):
        predicted = []
        for f, (tr, va) in enumerate(folds):
            model = clone(search.estimator).set_params(**params).fit(rows(tr, tr), y_train[tr])
            pred = model.predict(rows(va, tr))
            acc[i, f] = np.mean(pred == y_train[va])
            predicted.append(pred)
            if multi:
                for name in secondary:
                    secondary[name][i, f] = search.scoring[name](model, rows(va, tr), y_train[va])
        degenerate[i] = np.unique(np.concatenate(predicted)).size < 2
    mean = acc.mean(axis=1)
    if multi:
        chosen = int(search.refit({"mean_test_accuracy": mean,
                                   **{f"mean_test_{k}": v.mean(axis=1) for k, v in secondary.items()}}))
    else:
        chosen = int(search.refit({"mean_test_score": mean}))
    return {"params": candidates, "cv_accuracy": mean, "one_class": degenerate, "chosen": chosen,
            **tie_check(mean, degenerate, chosen)}


def chance_violations(choices):
    """The rows of a table of choices that break the rule: the chosen model is degenerate while
    a tied alternative is not.

    Parameters
    ----------
    choices : pandas.DataFrame
        Columns :data:`CHOICE_COLUMNS`
        (:func:`~fsbook.experiments._chance_stores.chance_level_choices`).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import pandas as pd
    >>> fake = pd.DataFrame([["p", "t", "C", 0.1, True, True, True, ""],
    ...                      ["p", "u", "C", 0.1, True, True, False, ""]], columns=CHOICE_COLUMNS)
    >>> chance_violations(fake)["task"].tolist()
    ['t']
    """
    missing = [c for c in CHOICE_COLUMNS if c not in choices.columns]
    if missing:
        raise ValueError(f"choices lack the columns {missing}")
    bad = (choices["at_chance"].eq(True) & choices["degenerate"].eq(True)
           & choices["tied_alternative"].eq(True))
    return choices[bad.to_numpy(dtype=bool)]

"""Chance-level model choices in the stored protocols: the screen and the recomputation.

This module checks the tie rule of :mod:`fsbook.experiments._chance` on the committed stores
of the protocols that have a ``chance`` module:

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
protocol: the ``rows(recompute)`` of its package's ``chance`` module (``hkl.chance``, found by
:func:`~fsbook.experiments._registry.protocols_with`), built from this module's
:func:`svm_row` and :func:`choice_row`; :func:`fsbook.experiments._chance.chance_violations` keeps
the rows that break the rule.
"""
from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
from sklearn.base import clone

from fsbook.experiments._chance import CHOICE_COLUMNS, svm_choice
from fsbook.experiments._registry import protocols_with

__all__ = ["chance_level_choices", "choice_row", "majority_rate", "repeat_label", "svm_row"]


def choice_row(protocol, task, choice, stored, at_chance, degenerate=None, tied_alternative=None, note=""):
    return {"protocol": protocol, "task": task, "choice": choice, "stored": stored,
            "at_chance": at_chance, "degenerate": degenerate, "tied_alternative": tied_alternative,
            "note": note}


def majority_rate(y):
    return float(np.unique(y, return_counts=True)[1].max() / len(y))


def svm_row(protocol, task, choice, stored, search, X_train, y_train, stored_param, recompute, test=None):
    """The row of one SVM choice at the chance level: recomputed when asked.  The recomputed
    choice is compared with the stored one: its parameters (``stored_param``) or, for a store
    that keeps no parameter, the test accuracy of its refit (``test = (X, y, stored accuracy)``)."""
    if not recompute:
        return choice_row(protocol, task, choice, stored, True, note="not recomputed")
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
    return choice_row(protocol, task, choice, stored, True, out["degenerate"], out["tied_alternative"], note)


def repeat_label(params):
    """`` repeat r`` for a selection-check task of repetition ``r > 0`` (version 6 on), else ``""``."""
    return f" repeat {params['repeat']}" if params.get("repeat") else ""


def chance_level_choices(protocols=None, *, recompute=True):
    """Every stored model choice at the chance level, with the tie check of its candidates.

    Parameters
    ----------
    protocols : sequence of str, optional
        Protocols with a ``chance`` module (:func:`~fsbook.experiments._registry.protocols_with`);
        all of them by default.
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
    readers = protocols_with("chance")
    protocols = list(readers) if protocols is None else list(protocols)
    unknown = [p for p in protocols if p not in readers]
    if unknown:
        raise ValueError(f"unknown protocol(s) {unknown}; expected some of {sorted(readers)}")
    rows = [row for name in protocols for row in importlib.import_module(readers[name]).rows(recompute)]
    return pd.DataFrame(rows, columns=CHOICE_COLUMNS)

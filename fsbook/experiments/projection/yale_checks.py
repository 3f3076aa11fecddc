"""The live checks of the face experiment, on the protocol's own splits and Gram matrices:
the balance of Proj-R's kernel (:func:`yale_kernel_balance`), the separability of the training
pairs in each reduced space (:func:`yale_separability`) and both tie rules of the face SVMs' C
search on one run (:func:`yale_tie_rules`, the experiment behind version 5).
"""

import itertools

import numpy as np
import pandas as pd
from sklearn.svm import SVC

from fsbook.decisions import SCORE_ATOL
from fsbook.experiments.projection.paper import GRID, YALE_K, YALE_PAIRS, YALE_RHO
from fsbook.experiments.projection.search import _svc_cv_table, _svc_tie_choice, n_inner_folds
from fsbook.experiments.projection.yale import (
    pair_split,
    yale_data,
    yale_reductions,
    yale_run_grams,
    yale_seed,
    yale_setup,
    yale_split,
)
from fsbook.model_selection import inner_folds


def yale_kernel_balance(X, y, per_subject, seed):
    """``{R: tr(Z Zᵀ) / tr(K)}`` on the training images of one run of Tables 5-7: the ρ at which
    the two parts of Proj-R's kernel ``K + Z Zᵀ/ρ`` have equal trace.  Rescaling ``z`` by ``s``
    multiplies it by ``s²``, so ρ in eq. (17) only has a meaning relative to this value.

    Parameters
    ----------
    X, y : array
        The face images and their subjects (:func:`yale_data`).
    per_subject : int
        Training images per subject.
    seed : int
        Seed of the split (the run).

    Returns
    -------
    dict of str to float
        ``{"Proj-KPCA": ρ, "Proj-GDA": ρ, "Proj-OLap": ρ}``.

    Examples
    --------
    >>> X, y = yale_data()
    >>> sorted(yale_kernel_balance(X, y, 3, seed=0))
    ['Proj-GDA', 'Proj-KPCA', 'Proj-OLap']
    """
    _, is_train, Zs, K = yale_setup(X, y, per_subject, seed)
    return {f"Proj-{name}": float(np.sum(Z[is_train] ** 2) / np.trace(K[np.ix_(is_train, is_train)]))
            for name, Z in Zs.items()}



def yale_separability(X, y, per_subject, seed, pairs=None):
    """Fraction of pairwise tasks whose training images are linearly separable in each reduced
    space (hard-margin check: a linear SVM with C = 1e10 fits the training pair exactly).

    When they are, eq. (17) with a tiny ρ puts the whole model into ``v`` (``w̃ ≈ 0``), so
    Proj-R coincides with SVM-R.
    """
    X, classes, train = yale_split(X, y, per_subject, seed)
    Zs = yale_reductions(X, y, train)
    pairs = list(itertools.combinations(classes, 2)) if pairs is None else pairs
    out = {}
    for name, Z in Zs.items():
        sep = []
        for c1, c2 in pairs:
            idx = train[np.isin(y[train], [c1, c2])]
            G = Z[idx] @ Z[idx].T
            clf = SVC(kernel="precomputed", C=1e10).fit(G, y[idx])
            sep.append(bool(np.all(clf.predict(G) == y[idx])))
        out[name] = float(np.mean(sep))
    return out


def yale_tie_rules(table, run, methods=("SVM-Kernel", "Proj-KPCA"), pairs=None):
    """Both tie rules of the face SVMs' C search (:data:`YALE_TIES`) on the pairs of one run of a
    face table: the experiment behind version 5.

    With 3 training images per subject the inner CV has 3 folds of 2 images, so its accuracy
    takes few values and often ties over the whole C grid.  The version-4 rule then took
    C = 1e-8, whose SVM can predict one class on every test image; the lexicographic rule
    (two-class models, then the validation hinge loss, then the grid order) takes another.

    Parameters
    ----------
    table : str
        A key of :data:`YALE_K`.
    run : int
        The run (its split and reductions are the protocol's).
    methods : sequence of str
        Gram matrices of :func:`yale_grams` (``"SVM-Kernel"``, ``"SVM-KPCA"``, …; ``"Proj-R"`` at
        the paper's ρ).
    pairs : sequence of tuple or None
        Pairs of subjects (``None``: all of :data:`YALE_PAIRS`).

    Returns
    -------
    pandas.DataFrame
        One row per (pair, method, tie rule): ``C``, ``cv_accuracy``, ``error`` (test, a
        fraction), ``grid_tied`` (every C within :data:`~fsbook.decisions.SCORE_ATOL` of the
        best CV accuracy) and ``one_class`` (the refit predicts one class on every test image).

    Examples
    --------
    >>> from fsbook.experiments.projection.yale_checks import yale_tie_rules
    >>> t = yale_tie_rules("table5", 0, methods=["SVM-Kernel"], pairs=[(1, 14)])
    >>> t[["tie", "C", "error", "grid_tied", "one_class"]].to_dict("records")      # doctest: +NORMALIZE_WHITESPACE
    [{'tie': 'first', 'C': 1e-08, 'error': 0.5, 'grid_tied': True, 'one_class': True},
     {'tie': 'lexicographic', 'C': 100.0, 'error': 0.125, 'grid_tied': True, 'one_class': False}]
    """
    _, y = yale_data()
    is_train, grams = yale_run_grams(YALE_K[table], run, (YALE_RHO,))
    rows = []
    for pair in (YALE_PAIRS if pairs is None else [tuple(p) for p in pairs]):
        rel, yy, tr, te = pair_split(y, is_train, pair)
        folds = list(inner_folds(yale_seed(run, pair), n_inner_folds(yy[tr])).split(np.zeros((tr.size, 1)), yy[tr]))
        for name in methods:
            G = grams[name if name.startswith("SVM-") else (name, YALE_RHO)][np.ix_(rel, rel)]
            Gtr, Gte = G[np.ix_(tr, tr)], G[np.ix_(te, tr)]
            mean = _svc_cv_table(Gtr, yy[tr], folds, GRID)            # the table svc_cv_fits chooses from
            grid_tied = bool(np.all(mean[:, 0] >= mean[:, 0].max() - SCORE_ATOL))
            for tie in ("first", "lexicographic"):
                best = _svc_tie_choice(mean, tie)
                pred = SVC(kernel="precomputed", C=GRID[best]).fit(Gtr, yy[tr]).predict(Gte)
                rows.append({"pair": pair, "method": name, "tie": tie, "C": float(GRID[best]),
                             "cv_accuracy": float(mean[best, 0]), "error": float(np.mean(pred != yy[te])),
                             "grid_tied": grid_tied, "one_class": bool(np.unique(pred).size == 1)})
    return pd.DataFrame(rows)

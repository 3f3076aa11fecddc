"""The ``hkl`` protocol's models and their searches: Table 1's SVMs with Weka's defaults and
tuned, Table 3's tuned SVMs, the protocol's HKL (:func:`tuned_hkl`), Table 5's feature-weighting
SVM; and what a fitted model records (test accuracy and outcomes, HKL's chosen ``C``, features
and certificate).

The chance audit (:mod:`fsbook.experiments._chance`) and the diagnosis
(:mod:`fsbook.experiments.hkl.diagnosis`) reuse these models rather than rebuilding them.
"""
from __future__ import annotations

import numpy as np
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from fsbook.baselines import FeatureWeightingSVM
from fsbook.baselines.weka_svm import WekaFilters, WekaLibSVM
from fsbook.experiments._protocol_helpers import outcome_string
from fsbook.experiments.hkl.paper import (
    HKL_MAX_ADD,
    HKL_SOLVER,
    HKL_TIE,
    HKL_TOL,
    RAW_TUNED_TIE,
    RBF_C_GRID,
    RBF_GAMMA_GRID,
    SVM_C_GRID,
)
from fsbook.model_selection import tuned_svm


def _svms():
    """The two classifiers of Table 1 with Weka's defaults: ``LibSVM`` (C-SVC, RBF kernel,
    ``γ = 1/number of attributes``, ``C = 1``) and an L1-regularised ``LibLINEAR`` (``C = 1``).

    The paper's all-feature L2 baseline reaches 100 % on MONK-1, whose concept
    ``a1 = a2 or a5 = 1`` no linear classifier of the one-hot attributes separates: its L2-SVM is
    Weka's default RBF LibSVM, not a linear one.
    """
    return {"L2": SVC(kernel="rbf", C=1.0, gamma="auto"),
            "L1": LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1.0, max_iter=10000,
                            random_state=0)}


def _l1_svm(C=1.0):
    """liblinear's L1-regularised L2-loss SVM, with up to 1 000 000 iterations: 10 000 left some
    C = 100 fits of the tuned rows unconverged, and 100 000 one inner fit of hepatitis's third
    partition (version 9); the raw rows treat non-convergence as an error.  A fit that converges
    within fewer iterations is the same fit whatever the cap (liblinear's coordinate descent does
    not depend on it), so raising the cap changes no stored result."""
    return LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=C, max_iter=1_000_000,
                     random_state=0)


def _raw_svms(nominal, n_levels):
    """Table 1's classifiers on raw attributes with Weka's defaults: :class:`WekaLibSVM` (the
    paper's L2 row) and the L1-SVM after the same two Weka filters."""
    return {"L2": WekaLibSVM(nominal=nominal, n_levels=n_levels),
            "L1": make_pipeline(WekaFilters(nominal, n_levels), _l1_svm())}


def raw_tuned_svms(nominal, n_levels, seed):
    """Table 1's two classifiers on raw attributes with their parameters chosen by inner 3-fold
    CV (ties to the first grid point that predicts both classes on some validation fold, then the
    smallest C and the smallest γ: :data:`~fsbook.experiments.hkl.paper.RAW_TUNED_TIE`): LibSVM over
    :data:`RBF_C_GRID` × :data:`RBF_GAMMA_GRID`, the L1-SVM over :data:`SVM_C_GRID`.

    Parameters
    ----------
    nominal : array of bool of shape (n_attributes,)
        Which raw attributes are nominal (:func:`~fsbook.experiments.hkl.data.load_raw`).
    n_levels : array of int of shape (n_attributes,)
        Each nominal attribute's number of levels.
    seed : int
        Seed of the inner folds (:func:`~fsbook.experiments.hkl.folds.inner_seed`).

    Returns
    -------
    dict of str to sklearn.model_selection.GridSearchCV
        ``{"L2": ..., "L1": ...}``, unfitted (the protocol fits them; the chance-level audit
        refits them).

    Examples
    --------
    >>> import numpy as np
    >>> searches = raw_tuned_svms(np.array([True, False]), np.array([3, 0]), seed=7)
    >>> sorted(searches), sorted(searches["L2"].param_grid)
    (['L1', 'L2'], ['C', 'gamma'])
    """
    return {"L2": tuned_svm(WekaLibSVM(nominal=nominal, n_levels=n_levels),
                            {"C": RBF_C_GRID, "gamma": RBF_GAMMA_GRID}, seed, error_score="raise",
                            tie=RAW_TUNED_TIE),
            "L1": tuned_svm(make_pipeline(WekaFilters(nominal, n_levels), _l1_svm()),
                            {"linearsvc__C": SVM_C_GRID}, seed, error_score="raise", tie=RAW_TUNED_TIE)}


def tuned_l1_svm():
    """The L1-SVM of Table 3 before tuning: liblinear's L1-regularised L2-loss SVM (primal),
    10 000 iterations, liblinear's other defaults (tolerance 1e-4, intercept scaling 1).

    Returns
    -------
    sklearn.svm.LinearSVC
        Unfitted.

    Examples
    --------
    >>> svm = tuned_l1_svm()
    >>> svm.penalty, svm.dual, svm.max_iter
    ('l1', False, 10000)
    """
    return LinearSVC(penalty="l1", dual=False, max_iter=10000, random_state=0)


def tuned_svms(seed, l1=None):
    """Table 3's tuned L2- and L1-SVMs (``C`` over :data:`SVM_C_GRID` by inner 3-fold CV).

    Parameters
    ----------
    seed : int
        Seed of the inner folds (:func:`~fsbook.experiments.hkl.folds.inner_seed`).
    l1 : callable, optional
        ``l1(seed)`` replaces the L1-SVM (the ablations of
        :mod:`fsbook.experiments.hkl.ablations`).

    Returns
    -------
    dict of str to estimator
        ``{"L2": ..., "L1": ...}``, unfitted.

    Examples
    --------
    >>> searches = tuned_svms(3)
    >>> sorted(searches), searches["L1"].param_grid == {"C": list(SVM_C_GRID)}
    (['L1', 'L2'], True)
    """
    grid = {"C": SVM_C_GRID}
    return {"L2": tuned_svm(LinearSVC(C=1.0, max_iter=10000, random_state=0), grid, seed),
            "L1": tuned_svm(tuned_l1_svm(), grid, seed) if l1 is None else l1(seed)}


def tuned_hkl(c_grid, seed):
    """The protocol's HKL: ``DisjunctiveHKLCV`` with ``C`` by inner 3-fold CV.

    The working-set restricted solver (:data:`HKL_SOLVER`) adding up to :data:`HKL_MAX_ADD`
    sources per iteration, no node budget and no iteration cap, tolerance :data:`HKL_TOL`, CV
    ties broken by :data:`HKL_TIE`.

    Parameters
    ----------
    c_grid : sequence of float or None
        The C values; ``None``: the estimator's data-driven path (:data:`HKL_C_GRID`).
    seed : int
        Seed of the inner folds (:func:`~fsbook.experiments.hkl.folds.inner_seed`).

    Returns
    -------
    fsbook.hkl.DisjunctiveHKLCV
        Unfitted (the protocol fits it; the chance-level audit and the diagnosis refit it).

    Examples
    --------
    >>> model = tuned_hkl(None, seed=7)
    >>> model.cv, model.Cs, model.solver, model.max_add, model.random_state
    (3, None, 'working_set', 200, 7)
    """
    from fsbook import hkl
    return hkl.DisjunctiveHKLCV(Cs=None if c_grid is None else list(c_grid), cv=3,
                                random_state=seed, tol=HKL_TOL, solver=HKL_SOLVER,
                                max_add=HKL_MAX_ADD, max_active=None, max_iter=None, tie=HKL_TIE)


def tuned_weighted_svm(seed):
    """Table 5's feature-weighting SVM, C by inner 3-fold CV; Wisconsin's 16 missing values are
    replaced by the median of the training posts of each (inner) fold.

    Parameters
    ----------
    seed : int
        Seed of the inner folds (:func:`~fsbook.experiments.hkl.folds.inner_seed`).

    Returns
    -------
    sklearn.model_selection.GridSearchCV
        ``SimpleImputer → StandardScaler → FeatureWeightingSVM``, C over 0.01, 0.1, 1 and 10;
        unfitted.

    Examples
    --------
    >>> tuned_weighted_svm(17).param_grid
    {'featureweightingsvm__C': [0.01, 0.1, 1.0, 10.0]}
    """
    grid = {"featureweightingsvm__C": [0.01, 0.1, 1.0, 10.0]}
    return tuned_svm(make_pipeline(SimpleImputer(strategy="median"), StandardScaler(),
                                   FeatureWeightingSVM()), grid, seed)


# ---- what a fitted model records -------------------------------------------------------------

def _certificate(model):
    """The refitted model's certified relative duality gap and whether it reached ``tol``."""
    est = _fitted_hkl(model)
    return {"duality_gap": float(est.duality_gap_), "certified": bool(est.certified_)}


def _fitted_hkl(model):
    return model.best_estimator_ if hasattr(model, "best_estimator_") else model


def _chosen_c(model):
    if hasattr(model, "best_params_"):
        return float(model.best_params_["C"])
    return float(getattr(model, "C_", np.nan))


def _features_used(hkl_model):
    """The sorted indices of the features that enter ``hkl_model``'s disjunctions."""
    return sorted({int(i) for d in hkl_model.disjunctions_ for i in d})


def _scored(name, model, X, y):
    """``{name: test accuracy, "outcomes_<name>": outcome string}`` of a fitted ``model``: the
    accuracy and the test samples' outcomes
    (:func:`~fsbook.experiments._protocol_helpers.outcome_string`) for the tests on pooled samples."""
    predicted = model.predict(X)
    return {name: float(np.mean(predicted == y)), f"outcomes_{name}": outcome_string(predicted, y)}


def _majority(train_y, test_y, names=("L2", "L1")):
    """Every classifier of ``names`` replaced by the training majority class (no feature selected)."""
    predicted = np.full(test_y.shape, np.bincount(train_y).argmax())
    out = {}
    for name in names:
        out.update({name: float(np.mean(predicted == test_y)), f"outcomes_{name}": outcome_string(predicted, test_y)})
    return out

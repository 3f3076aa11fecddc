"""Protocols of Zhang & Schneider (2010), "Projection penalties", Section 3.

* Table 1 -- Boston housing, R², 50 training / 456 test examples: :func:`boston_run`.
* Tables 2-4 -- 20 Newsgroups, 190 pairwise tasks, LDA topics: the helpers
  :func:`newsgroups_vocabulary`, :func:`newsgroups_topics`, :func:`newsgroups_designs`, the
  cross-validation on the exact batched logistic path of :mod:`fsbook.projection.logistic`
  (:func:`lgr_choice`, :func:`lgr_fast_fit`) and the scikit-learn reference (:func:`_lgr_cv_search`).  Their protocol
  is :mod:`fsbook.experiments.projection_text` (its own store, ``results/projection_text``).
* Tables 5-7 -- Yale faces, 105 pairwise tasks, degree-2 polynomial kernel: :func:`yale_task`;
  sensitivity of Proj-R to ρ (eq. 17): the ``"rho"`` tasks.

:func:`claims` decides the paper's claims (the order of every pair of methods of Tables 1 and
5-7) on the stored per-run results with :mod:`fsbook.claims` (:func:`order_claims`, shared with
the text protocol).

:data:`PROTOCOL` runs Table 1, Tables 5-7 and the ρ sweep on the shared runner
(:func:`fsbook.experiments.run_protocol`): one task per Boston run and per (run, pair) of the face
experiments, reduced into the paper's tables.  Each task's seeds come from its parameters (run
and pair index), so the subsample's tasks (``make_tasks(False)``) are exactly the corresponding
tasks of the full protocol.

What the paper ran, what ``--full`` runs and what is stored
------------------------------------------------------------

================  ==============================================  ================================
part              the paper (Section 3)                           ``--full``: ``make_tasks(True)``
================  ==============================================  ================================
``boston``        Table 1: 500 random runs                        500 tasks, one per run
``yale``          Tables 5-7: 50 runs of the 105 pairs with 3, 5  15 750 tasks: 3 tables × 50
                  and 7 training images per subject               runs × 105 pairs
``rho``           not in the paper (the chapter's ρ sweep)        12 tasks: run 0, 5 images per
                                                                  subject, every 9th pair
================  ==============================================  ================================

16 262 tasks in all, all stored in ``results/projection/``.  Without ``--full``,
``make_tasks(False)`` is a subsample of 322 of them (100 Boston runs; 2 runs of every 3rd face
pair; the ρ sweep).

Version 4's store also held the first 20 Newsgroups tasks (d = 30, scikit-learn's grid search,
ties to the largest α); they moved, recomputed with the exact path and another tie rule, to
:mod:`fsbook.experiments.projection_text`.  The Boston, face and ρ tasks did not change, so the
version did not either.

Version 5 breaks the ties of the face SVMs' C search lexicographically
(:data:`YALE_TIES`) instead of giving them to the smallest C, and stores each fit's chosen C.
"""

from __future__ import annotations

import functools
import itertools
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA, KernelPCA, LatentDirichletAllocation
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import r2_score
from sklearn.metrics.pairwise import polynomial_kernel
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold
from sklearn.preprocessing import StandardScaler, normalize
from sklearn.svm import SVC

from fsbook._compat import LineSearchWarning
from fsbook.decisions import RTOL, SCORE_ATOL, argbest, log_grid, tie_refit
from fsbook.experiments._protocol_helpers import (
    SVM_TIE_RULES,
    inner_folds,
    lexicographic_svm_refit,
    tuned_svm,
)
from fsbook.experiments._runner import Protocol
from fsbook.projection import (
    ExhaustedSafePLS,
    GeneralizedDiscriminantAnalysis,
    OrthogonalLaplacianfaces,
    ProjectionPenalty,
    augment_features,
    krylov_rank,
)
from fsbook.projection.logistic import lgr_cv_path, lgr_refit_decision

#: the paper's regularisation grid 10^-8, 10^-6, ..., 10^10 (exact decimal literals)
GRID = log_grid(-8, 10)[::2]
#: the same range on a quarter-decade grid (mantissas 1, 1.78, 3.16, 5.62; contains GRID);
#: Table 1 tunes every α on it
FINE_GRID = log_grid(-8, 10, per_decade=4)
#: logistic regression's solver settings in Tables 2-4: Newton-CG run to a tight gradient
#: tolerance.  At α = 1e-8 the problem is nearly the hard-margin one and badly conditioned;
#: L-BFGS at ``tol=1e-4`` stopped after ~15 iterations far from the optimum (up to 60 test
#: predictions of one task changed with the stopping point), so its output depended on
#: rounding.  Newton-CG at ``tol=1e-8`` stops in about 20 iterations; on four pairs and
#: α ≥ 1e-6 a relative perturbation of 1e-15 of the data changed no test prediction.  Its
#: gradient test passes before the optimum at α ≤ 1e-6 on word counts (:func:`_lgr_cv_search`;
#: the exact path :func:`fsbook.projection.logistic.logistic_path` reaches it).
LGR_SOLVER = {"solver": "newton-cg", "tol": 1e-8, "max_iter": 10_000}
#: Section 3.1: "λ/1000 ||v||²" (read as reduced_penalty = 1e-3, see the chapter)
BOSTON_REDUCED_PENALTY = 1e-3
#: Section 3.3: the penalty on v in eq. (17), 1e-5 (the paper's γ; ρ = ``reduced_penalty`` here)
YALE_RHO = 1e-5
#: not stated for the text experiment; we use the value of Section 3.1
NEWS_REDUCED_PENALTY = 1e-3
#: the tie rule of the face SVMs' C search (:func:`svc_cv_fits`) per protocol version.  Version 4
#: gave ties to the smallest C; with 3 training images per subject the whole grid is often tied
#: and C = 1e-8 then predicted one class on every test image of 85 stored (task, kernel) fits, 60
#: of them beside a tied C that did not.  Version 5 breaks ties by
#: :func:`~fsbook.experiments._protocol_helpers.lexicographic_svm_refit` (two-class models,
#: then the validation hinge loss, then the grid order), as the benchmark does.
YALE_TIES = {"4": "first", "5": "lexicographic"}
#: the protocol version whose store the chapter reads (a key of :data:`YALE_TIES`)
VERSION = "5"

PAPER = {
    "table1": {"mean": {"Ridge": 49.53, "PCR": 52.93, "PLS": 52.58, "Proj-PCR": 53.55, "Proj-PLS": 53.63},
               "se": {"Ridge": 0.98, "PCR": 0.96, "PLS": 0.97, "Proj-PCR": 0.68, "Proj-PLS": 0.72},
               "d": {"Ridge": None, "PCR": 11, "PLS": 11, "Proj-PCR": 4, "Proj-PLS": 1}},
    "table5": {"mean": {"SVM-Kernel": 16.17, "SVM-KPCA": 16.22, "Proj-KPCA": 15.33, "SVM-GDA": 11.21,
                        "Proj-GDA": 10.38, "SVM-OLap": 8.58, "Proj-OLap": 7.93},
               "se": {"SVM-Kernel": 0.26, "SVM-KPCA": 0.25, "Proj-KPCA": 0.26, "SVM-GDA": 0.25,
                      "Proj-GDA": 0.24, "SVM-OLap": 0.26, "Proj-OLap": 0.22}},
    "table6": {"mean": {"SVM-Kernel": 12.68, "SVM-KPCA": 12.72, "Proj-KPCA": 12.47, "SVM-GDA": 9.32,
                        "Proj-GDA": 7.13, "SVM-OLap": 4.74, "Proj-OLap": 4.57},
               "se": {"SVM-Kernel": 0.30, "SVM-KPCA": 0.30, "Proj-KPCA": 0.29, "SVM-GDA": 0.23,
                      "Proj-GDA": 0.20, "SVM-OLap": 0.21, "Proj-OLap": 0.20}},
    "table7": {"mean": {"SVM-Kernel": 11.43, "SVM-KPCA": 11.37, "Proj-KPCA": 11.19, "SVM-GDA": 7.59,
                        "Proj-GDA": 6.37, "SVM-OLap": 3.43, "Proj-OLap": 3.40},
               "se": {"SVM-Kernel": 0.28, "SVM-KPCA": 0.29, "Proj-KPCA": 0.28, "SVM-GDA": 0.23,
                      "Proj-GDA": 0.23, "SVM-OLap": 0.17, "Proj-OLap": 0.17}},
}


def mean_se(values):
    """Mean and standard error (ddof=1) along axis 0."""
    v = np.asarray(values, dtype=float)
    return v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(v.shape[0])


# ============================================================================ Table 1
def _ridge_path_fold(A_tr, y_tr, A_va, y_va, alphas):
    """Validation MSE of ridge (unpenalised intercept) for every ``alpha``, from one SVD."""
    mu, ym = A_tr.mean(0), y_tr.mean()
    U, s, Vt = np.linalg.svd(A_tr - mu, full_matrices=False)
    uty = U.T @ (y_tr - ym)
    Av = (A_va - mu) @ Vt.T
    return np.array([np.mean((y_va - (Av @ (s / (s ** 2 + a) * uty) + ym)) ** 2) for a in alphas])


def ridge_path_cv(A, y, alphas, n_splits=5, seed=0):
    """Mean validation MSE of ridge (with unpenalised intercept) for every ``alpha``.

    One SVD per fold gives the whole path; equals :class:`sklearn.linear_model.Ridge`.
    """
    errs = np.zeros(len(alphas))
    for tr, va in KFold(n_splits, shuffle=True, random_state=seed).split(A):
        errs += _ridge_path_fold(A[tr], y[tr], A[va], y[va], alphas) / n_splits
    return errs


def _proj_ridge_path_cv(X, y, reducer, alphas, lam, seed):
    """CV errors of the projection-penalised ridge: the reducer is refitted inside each fold."""
    errs = np.zeros(len(alphas))
    for tr, va in KFold(5, shuffle=True, random_state=seed).split(X):
        red = clone(reducer).fit(X[tr], y[tr])
        A_tr = augment_features(X[tr], red.transform(X[tr]), 1 / np.sqrt(lam))
        A_va = augment_features(X[va], red.transform(X[va]), 1 / np.sqrt(lam))
        errs += _ridge_path_fold(A_tr, y[tr], A_va, y[va], alphas) / 5
    return errs


def pls_predict(X_train, y_train, X_test, d):
    """Predictions of PLS regression with ``d`` components (no scaling).

    When the Krylov space of ``(XᵀX, Xᵀy)`` is exhausted before ``d`` components (the last
    component's x-scores vanish: norm below ``1e-10`` of the first's), PLS has already reached
    the least-squares fit, and that is what is returned.  scikit-learn's ``PLSRegression`` keeps
    deflating there and divides rounding noise by rounding noise (test R² of -1e30 % in 2 of 100
    Boston runs at d = 13, a value that differs from machine to machine).
    """
    pls = PLSRegression(d, scale=False).fit(X_train, y_train)
    if krylov_rank(pls) < d:
        return LinearRegression().fit(X_train, y_train).predict(X_test)
    return pls.predict(X_test).ravel()


#: how :func:`boston_run` scales the training sample: ``"features"`` (the book's: the features
#: standardised on the training sample), ``"none"``, ``"features and target"``
BOSTON_SCALINGS = ("features", "none", "features and target")


def boston_run(seed, X, y, d_values=range(1, 14), n_train=50, grids=None,
               reduced_penalty=BOSTON_REDUCED_PENALTY, scaling="features", score=None, projections=True):
    """One random run of Table 1: test R² of every method and every ``d``.

    Features are standardised on the training sample (``scaling``, :data:`BOSTON_SCALINGS`:
    ``"none"`` leaves them raw, ``"features and target"`` standardises the target too, with
    the training mean and deviation; R² is unchanged by rescaling test targets and predictions
    alike).  ``score(y_test, prediction, y_train)`` is the test score (default: R² against
    the test targets' mean, :func:`sklearn.metrics.r2_score`).  ``projections=False`` leaves
    out Proj-PCR and Proj-PLS (their entries stay empty).  Ridge and the projection models pick
    ``alpha`` by 5-fold CV on the training sample, once per grid of ``grids`` (default: the fine
    grid :data:`FINE_GRID` and the paper's :data:`GRID`; the CV errors are computed once on
    the union; errors within a relative :data:`fsbook.decisions.RTOL` of the smallest are ties,
    which go to the smallest ``alpha``); PCR and PLS are least squares on ``d``
    components (no ``alpha``).

    Returns
    -------
    dict: ``{"Ridge": {grid: r2}, "PCR": {d: r2}, "PLS": {d: r2}, "Proj-PCR": {grid: {d: r2}},
    "Proj-PLS": {grid: {d: r2}}}``
    """
    grids = {"fine": FINE_GRID, "paper": GRID} if grids is None else grids
    alphas = np.unique(np.concatenate([np.asarray(g, float) for g in grids.values()]))
    pick = {name: np.flatnonzero(np.isin(alphas, g)) for name, g in grids.items()}

    def best(errs):
        return {name: alphas[idx[argbest(errs[idx], maximize=False, rtol=RTOL)]] for name, idx in pick.items()}

    if scaling not in BOSTON_SCALINGS:
        raise ValueError(f"unknown scaling {scaling!r}; choose one of {BOSTON_SCALINGS}")
    r2 = (lambda t, pr: r2_score(t, pr)) if score is None else (lambda t, pr: score(t, pr, ytr))
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(y))
    tr, te = perm[:n_train], perm[n_train:]
    Xtr, Xte, ytr, yte = X[tr], X[te], y[tr], y[te]
    if scaling != "none":
        sc = StandardScaler().fit(X[tr])
        Xtr, Xte = sc.transform(X[tr]), sc.transform(X[te])
    if scaling == "features and target":
        ym, ys = ytr.mean(), ytr.std()
        ytr, yte = (ytr - ym) / ys, (yte - ym) / ys
    out = {"Ridge": {}, "PCR": {}, "PLS": {}, "Proj-PCR": {g: {} for g in grids}, "Proj-PLS": {g: {} for g in grids}}
    for g, a in best(ridge_path_cv(Xtr, ytr, alphas, seed=seed)).items():
        out["Ridge"][g] = r2(yte, Ridge(alpha=a).fit(Xtr, ytr).predict(Xte))
    for d in d_values:
        pca = PCA(d).fit(Xtr)
        out["PCR"][d] = r2(yte, LinearRegression().fit(pca.transform(Xtr), ytr).predict(pca.transform(Xte)))
        out["PLS"][d] = r2(yte, pls_predict(Xtr, ytr, Xte, d))
        for name, red in (("Proj-PCR", PCA(d)), ("Proj-PLS", ExhaustedSafePLS(d))) if projections else ():
            errs = _proj_ridge_path_cv(Xtr, ytr, red, alphas, reduced_penalty, seed)
            for g, a in best(errs).items():
                model = ProjectionPenalty(Ridge(alpha=a), red, reduced_penalty=reduced_penalty).fit(Xtr, ytr)
                out[name][g][d] = r2(yte, model.predict(Xte))
    return out


def _r2_by_d(runs, name, grid):
    """``(ds, R)``: the sorted ``d`` values and the runs × d matrix of test R² (%) of ``name``."""
    per = [{int(d): v for d, v in (o[name] if name in ("PCR", "PLS") else o[name][grid]).items()} for o in runs]
    ds = sorted(per[0])
    return ds, np.array([[r[d] for d in ds] for r in per]) * 100


def boston_by_d(runs, grid="fine"):
    """Mean test R² (%) over runs for every ``d`` (rows) and model (columns) of Table 1."""
    cols = {}
    for name in ("PCR", "PLS", "Proj-PCR", "Proj-PLS"):
        ds, R = _r2_by_d(runs, name, grid)
        cols[name] = pd.Series(R.mean(axis=0), index=ds)
    return pd.DataFrame(cols).rename_axis("d")


def boston_table(runs, grid="fine"):
    """Aggregate :func:`boston_run` outputs for one α grid: mean ± s.e. of the test R² (%) at
    each model's best ``d`` (highest mean R², the paper's rule; ties go to the smallest d)."""
    rows = {}
    m, s = mean_se(np.array([o["Ridge"][grid] for o in runs]) * 100)
    rows["Ridge"] = (m, s, None)
    for name in ("PCR", "PLS", "Proj-PCR", "Proj-PLS"):
        ds, R = _r2_by_d(runs, name, grid)
        m, s = mean_se(R)
        k = argbest(m, rtol=RTOL)
        rows[name] = (m[k], s[k], ds[k])
    return pd.DataFrame(rows, index=["mean", "se", "d"]).T


# ============================================================================ Tables 2-4
def newsgroups_vocabulary(X, y, per_group=200, n_common=20):
    """Vocabulary of Section 3.2: the ``n_common`` most frequent words of the training corpus
    are set aside, then each group contributes its ``per_group`` most frequent remaining words.

    Returns the sorted column indices of the union.
    """
    X = X.tocsr()
    common = set(np.argsort(-np.asarray(X.sum(0)).ravel(), kind="stable")[:n_common].tolist())
    keep = set()
    for g in np.unique(y):
        order = np.argsort(-np.asarray(X[y == g].sum(0)).ravel(), kind="stable")
        keep.update([j for j in order[:per_group + n_common].tolist() if j not in common][:per_group])
    return np.array(sorted(keep))


def newsgroups_topics(X_train, X_all, n_topics, seed=0, max_iter=10):
    """Fit LDA on the training documents and return topic proportions of all documents."""
    lda = LatentDirichletAllocation(n_components=n_topics, learning_method="online", batch_size=512,
                                    max_iter=max_iter, random_state=seed, n_jobs=1)
    lda.fit(X_train)
    return lda.transform(X_all)


def _lgr_cv_search(A_tr, y_tr, grid, seed):
    """Logistic regression, C = 1/(2α) by stratified CV (≤ 5 folds, :class:`GridSearchCV`;
    CV accuracies within :data:`fsbook.decisions.SCORE_ATOL` are ties, which go to the largest
    α: the simplest model, and the best-conditioned fit), solved by :data:`LGR_SOLVER`.
    Returns the fitted search (the reference of the text tasks).

    At α ≤ 1e-6 on word counts Newton-CG's gradient test (``tol=1e-8`` on scikit-learn's
    objective divided by ``C n``) passes far from the optimum: on one 10 % task the objective
    at α = 1e-8 is 246 against the optimum's 194 (:func:`fsbook.projection.logistic.logistic_path`), with decision values
    off by up to 111.  Those fits are where Newton-CG stops, not the solution of the problem.
    """
    n_folds = int(min(5, np.bincount(y_tr).min()))
    Cs = np.sort(1.0 / (2 * np.asarray(grid)))                 # smallest C (largest α) first
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)   # a fit at the iteration cap is a bug
        # At the grid's largest α (1e10, C = 5e-11) the optimum is w ≈ 0 (|w| < 1e-9) and the
        # objective is flat to rounding: Newton-CG's line search then stops on rounding before its
        # gradient test and says so, in runs that differ between machines.  The fit is at its
        # optimum (tests/test_projection_experiments.py checks |w|); the notice is not shown.
        warnings.filterwarnings("ignore", category=LineSearchWarning)
        warnings.filterwarnings("ignore", message="Line Search failed", category=UserWarning)
        return GridSearchCV(LogisticRegression(**LGR_SOLVER), {"C": list(Cs)}, refit=tie_refit(),
                            error_score="raise", cv=StratifiedKFold(n_folds, shuffle=True, random_state=seed)).fit(A_tr, y_tr)


def _lgr_cv(A_tr, y_tr, A_te, y_te, grid, seed):
    """Test error of :func:`_lgr_cv_search`'s refitted model."""
    return float(np.mean(_lgr_cv_search(A_tr, y_tr, grid, seed).predict(A_te) != y_te))


#: tie rules of :func:`lgr_fast_fit` on the cross-validation path
LGR_TIE_RULES = ("first", "lexicographic")


def lgr_choice(path, tie="first"):
    """Index of the C a cross-validation path (:func:`lgr_cv_path`) chooses.

    ``tie="first"`` (the protocol's rule, version 4): the best mean validation accuracy, ties
    within :data:`~fsbook.decisions.SCORE_ATOL` to the first (largest α).
    ``tie="lexicographic"`` (the rule of version 5's SVMs): the best mean accuracy; among its ties the
    models that predict both classes on the pooled validation documents over those that
    predict one class for all of them (the majority-rate models, at chance), then the smallest
    mean validation log-loss (:data:`~fsbook.decisions.RTOL`), then the first
    (:func:`fsbook.decisions.argbest_lexicographic`).  A one-class model is chosen only when
    every tied model is one.

    Examples
    --------
    >>> path = {"accuracy": np.array([[0.75, 0.75, 0.75]]), "log_loss": np.array([[0.56, 0.9, 0.5]]),
    ...         "positive": np.array([[0.0, 0.5, 0.25]]), "n_validation": np.array([4])}
    >>> lgr_choice(path), lgr_choice(path, "lexicographic")
    (0, 2)
    """
    from fsbook.decisions import argbest_lexicographic
    acc = path["accuracy"].mean(axis=0)
    if tie == "first":
        return argbest(acc, atol=SCORE_ATOL)
    if tie != "lexicographic":
        raise ValueError(f"unknown tie rule {tie!r}; choose one of {LGR_TIE_RULES}")
    w = np.asarray(path["n_validation"], dtype=float)[:, None]
    pos = (path["positive"] * w).sum(axis=0) / w.sum()
    both = ((pos > 0) & (pos < 1)).astype(float)
    return argbest_lexicographic(acc, both, path["log_loss"].mean(axis=0), maximize=(True, True, False),
                                 atol=(SCORE_ATOL, 0.0, 0.0))


def _lgr_refit_error(A_tr, y_tr, A_te, y_te, C):
    """Test error of :data:`LGR_SOLVER`'s logistic regression at ``C`` fitted on all of
    ``A_tr``: what :func:`_lgr_cv`'s ``GridSearchCV`` refits (same estimator, same data)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        warnings.filterwarnings("ignore", category=LineSearchWarning)
        warnings.filterwarnings("ignore", message="Line Search failed", category=UserWarning)
        model = LogisticRegression(C=C, **LGR_SOLVER).fit(A_tr, y_tr)
    return float(np.mean(model.predict(A_te) != y_te))


def lgr_fast_fit(A_tr, y_tr, A_te, y_te, grid, seed, refit="exact", tie="first"):
    """``(C, test error)`` of :func:`_lgr_cv`'s model with the cross-validation by
    :func:`lgr_cv_path` (one batched exact solve instead of ``folds × len(grid)``
    scikit-learn fits): the same folds and, with ``tie="first"``, the same tie rule on the mean
    validation accuracy (:func:`fsbook.decisions.argbest`, atol
    :data:`~fsbook.decisions.SCORE_ATOL`, first = largest α; :func:`lgr_choice` for the
    proposed ``"lexicographic"`` rule).  The chosen C is refitted on all of ``A_tr`` by
    :func:`~fsbook.projection.logistic.logistic_path`
    (``refit="exact"``, warm-started along the grid up to C) or by :func:`_lgr_cv`'s
    scikit-learn estimator (``refit="sklearn"``, :func:`_lgr_refit_error`).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(40, 30)); y = np.repeat([0, 1], 20); A[y == 1, :3] += 1.5
    >>> C, err = lgr_fast_fit(A[::2], y[::2], A[1::2], y[1::2], GRID, seed=0)
    >>> float(C) in (1.0 / (2 * GRID)).tolist(), 0.0 <= err <= 0.5
    (True, True)
    """
    if refit not in ("exact", "sklearn"):
        raise ValueError(f"refit must be 'exact' or 'sklearn', got {refit!r}")
    path = lgr_cv_path(A_tr, y_tr, grid, seed)
    best = lgr_choice(path, tie)
    C = path["C"][best]
    if refit == "sklearn":
        return C, _lgr_refit_error(A_tr, y_tr, A_te, y_te, C)
    z = lgr_refit_decision(A_tr, y_tr, A_te, path["C"][:best + 1])
    return C, float(np.mean((z > 0) != (np.asarray(y_te) == 1)))


def _lgr_cv_fast(A_tr, y_tr, A_te, y_te, grid, seed):
    """Test error of :func:`lgr_fast_fit` (exact refit): :func:`_lgr_cv`'s model, solved to
    machine precision."""
    return lgr_fast_fit(A_tr, y_tr, A_te, y_te, grid, seed)[1]


#: the cross-validated logistic regression :func:`newsgroups_task` runs: the scikit-learn
#: reference :func:`_lgr_cv` or the batched path :func:`_lgr_cv_fast`
LGR_CV = {"reference": _lgr_cv, "fast": _lgr_cv_fast}


def newsgroups_sample(y_tr, frac, seed):
    """Sorted indices of the training documents a text task samples: ``max(4, round(frac · m))``
    of its ``m``, drawn again until each class has at least 2.

    Examples
    --------
    >>> newsgroups_sample(np.repeat([0, 1], 100), 0.02, seed=0).size
    4
    """
    rng = np.random.default_rng(seed)
    m = len(y_tr)
    n = max(4, int(round(frac * m)))
    while True:
        idx = np.sort(rng.choice(m, n, replace=False))
        if np.bincount(y_tr[idx], minlength=2).min() >= 2:
            return idx


def newsgroups_task(X_tr, Z_tr, y_tr, X_te, Z_te, y_te, frac, seed, grid=GRID,
                    reduced_penalty=NEWS_REDUCED_PENALTY, lgr="reference"):
    """One pairwise task: errors of L2-LGR, LGR-Topic and Proj-Topic (eq. 7 + Section 2.5).

    ``frac`` of the task's training documents are sampled (at least 2 per class).  ``lgr``
    names the cross-validated logistic regression of :data:`LGR_CV` (``"reference"``:
    scikit-learn's grid search; ``"fast"``: the batched path).
    """
    if lgr not in LGR_CV:
        raise ValueError(f"unknown lgr {lgr!r}; choose one of {sorted(LGR_CV)}")
    fit = LGR_CV[lgr]
    designs, ys = newsgroups_designs(X_tr, Z_tr, y_tr, X_te, Z_te, frac, seed, reduced_penalty)
    return {m: fit(A, ys, A_te, y_te, grid, seed) for m, (A, A_te) in designs.items()}


def newsgroups_designs(X_tr, Z_tr, y_tr, X_te, Z_te, frac, seed, reduced_penalty=NEWS_REDUCED_PENALTY):
    """``({method: (A_train, A_test)}, y_train)``: the design matrices of one pairwise task's three
    logistic regressions (:data:`NEWS_METHODS`) on its sampled training documents
    (:func:`newsgroups_sample`) and its test documents: the words (L2-LGR), the topic
    proportions (LGR-Topic) and ``[x; θ(x)/√ρ]`` (Proj-Topic, eq. 7 with Section 2.5's trick).

    Examples
    --------
    >>> import numpy as np
    >>> X, Z, y = np.ones((10, 5)), np.full((10, 2), 0.5), np.repeat([0, 1], 5)
    >>> d, ys = newsgroups_designs(X, Z, y, X[:3], Z[:3], 0.5, seed=0)
    >>> {m: a.shape for m, (a, _) in d.items()}, len(ys)
    ({'L2-LGR': (5, 5), 'LGR-Topic': (5, 2), 'Proj-Topic': (5, 7)}, 5)
    """
    idx = newsgroups_sample(y_tr, frac, seed)
    Xs, Zs, ys = X_tr[idx], Z_tr[idx], y_tr[idx]
    s = 1 / np.sqrt(reduced_penalty)
    return {"L2-LGR": (Xs, X_te), "LGR-Topic": (Zs, Z_te),
            "Proj-Topic": (augment_features(Xs, Zs, s), augment_features(X_te, Z_te, s))}, ys


# ============================================================================ Tables 5-7
#: ρ grid of the sensitivity study (contains the paper's 1e-5; exact decimal literals)
YALE_RHOS = log_grid(-5, 3)


def yale_seed(run, pair):
    """Seed of a face task's inner folds: ``1000 * run`` plus the pair's index in :data:`YALE_PAIRS`."""
    return run * 1000 + YALE_PAIRS.index(tuple(pair))


def _pair_split(y, is_train, pair):
    """A pair of subjects' images (indices ``rel`` into ``y``), their labels (1: the pair's second
    subject) and the positions of its training and test images within ``rel``."""
    rel = np.flatnonzero(np.isin(y, pair))
    return rel, (y[rel] == pair[1]).astype(int), np.flatnonzero(is_train[rel]), np.flatnonzero(~is_train[rel])


def _n_inner_folds(y_train):
    """Inner stratified folds of a face SVM's C search: at most 5, at most the smaller class's count."""
    return int(min(5, np.bincount(y_train).min()))


def _svc_cv_fit(G, y, tr, te, grid, seed, tie="first"):
    """SVM on a precomputed Gram matrix ``G`` (all points), C by stratified CV (≤ 5 folds,
    :func:`~fsbook.experiments._protocol_helpers.tuned_svm`; CV accuracies within
    :data:`fsbook.decisions.SCORE_ATOL` are ties, broken by the rule ``tie``: ``"first"``, the
    smallest C, or ``"lexicographic"``).

    Returns ``(mean cv accuracy of the chosen C, test error, chosen C)``.  The reference of
    :func:`svc_cv_fits`, which the protocol runs.
    """
    ytr = y[tr]
    search = tuned_svm(SVC(kernel="precomputed"), {"C": grid}, seed, n_splits=_n_inner_folds(ytr), tie=tie)
    search.fit(G[np.ix_(tr, tr)], ytr)
    score = search.cv_results_["mean_test_accuracy" if tie == "lexicographic" else "mean_test_score"]
    return (float(score[search.best_index_]), float(np.mean(search.predict(G[np.ix_(te, tr)]) != y[te])),
            float(search.best_params_["C"]))


def svc_cv_fits(grams, y, tr, te, grid, seed, tie="first"):
    """:func:`_svc_cv_fit` for every Gram matrix of ``grams`` (``{key: G}``, all on the same
    points, labels and split): ``{key: (mean cv accuracy of the chosen C, test error, chosen C)}``.

    The same fits as the reference's :class:`~sklearn.model_selection.GridSearchCV` (the folds
    of :func:`~fsbook.experiments._protocol_helpers.inner_folds`, an ``SVC(kernel="precomputed",
    C=C)`` per fold and ``C``, accuracies averaged over the folds with ``np.average``, the tie
    rule of :func:`~fsbook.decisions.tie_refit` or, with ``tie="lexicographic"``, of
    :func:`~fsbook.experiments._protocol_helpers.lexicographic_svm_refit` on the folds' numbers
    of predicted classes and hinge losses, the refit on all training points), without its
    per-fit bookkeeping (cloning, parameter validation, scorers, result arrays), with the folds
    drawn once for all the Gram matrices, and scikit-learn's parameter and finiteness checks
    skipped (the Gram matrices are finite by construction): on the faces' 6 to 14 training
    images that bookkeeping was most of a task's time.  ``tests/test_projection_experiments.py``
    checks that both give the same numbers.

    Parameters
    ----------
    grams : dict
        ``{key: G}``, each ``G`` an ``(n, n)`` Gram matrix of the same ``n`` points.
    y : ndarray of shape (n,)
        Binary labels.
    tr, te : ndarray of int
        Training and test points (indices into ``y``).
    grid : list of float
        The C values, in the order ties are broken (the first wins).
    seed : int
        Seed of the inner stratified folds (at most 5, at most the smaller class's count).
    tie : {"first", "lexicographic"}, default "first"
        The tie rule (:data:`YALE_TIES` gives the protocol's).

    Returns
    -------
    dict
        ``{key: (mean CV accuracy of the chosen C, test error, chosen C)}``.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.projection import _svc_cv_fit, svc_cv_fits
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(20, 3)), np.repeat([0, 1], 10)
    >>> X[y == 1] += 1.0
    >>> G = X @ X.T
    >>> tr, te = np.arange(0, 20, 2), np.arange(1, 20, 2)
    >>> svc_cv_fits({"linear": G}, y, tr, te, [0.01, 1.0], seed=0)["linear"] == _svc_cv_fit(G, y, tr, te, [0.01, 1.0], 0)
    True
    >>> fast = svc_cv_fits({"linear": G}, y, tr, te, [0.01, 1.0], seed=0, tie="lexicographic")
    >>> fast["linear"] == _svc_cv_fit(G, y, tr, te, [0.01, 1.0], 0, tie="lexicographic")
    True
    """
    from sklearn import config_context

    ytr, yte = y[tr], y[te]
    folds = list(inner_folds(seed, _n_inner_folds(ytr)).split(np.zeros((tr.size, 1)), ytr))
    if tie not in SVM_TIE_RULES:
        raise ValueError(f"unknown tie rule {tie!r}; choose one of {SVM_TIE_RULES}")
    out = {}
    with config_context(skip_parameter_validation=True, assume_finite=True):
        for key, G in grams.items():
            Gtr = G[np.ix_(tr, tr)]
            mean = _svc_cv_table(Gtr, ytr, folds, grid)
            best = _svc_tie_choice(mean, tie)
            svm = SVC(kernel="precomputed", C=grid[best]).fit(Gtr, ytr)
            out[key] = (float(mean[best, 0]), float(np.mean(svm.predict(G[np.ix_(te, tr)]) != yte)),
                        float(grid[best]))
    return out


def _svc_cv_table(G_train, y_train, folds, grid):
    """Per C of ``grid`` (rows): the mean over ``folds`` of the validation accuracy, the number
    of predicted classes and minus the hinge loss (columns; :func:`_fold_scores`)."""
    blocks = [(G_train[np.ix_(a, a)], y_train[a], G_train[np.ix_(b, a)], y_train[b]) for a, b in folds]
    table = np.array([[_fold_scores(SVC(kernel="precomputed", C=C).fit(Ga, ya), Gb, yb)
                       for Ga, ya, Gb, yb in blocks] for C in grid], dtype=np.float64)
    return np.average(table, axis=1)


def _svc_tie_choice(mean, tie):
    """Index of the chosen C in a table of :func:`_svc_cv_table` under the tie rule ``tie``."""
    if tie == "first":
        return argbest(mean[:, 0], maximize=True, atol=SCORE_ATOL, rtol=0.0)     # tie_refit's rule
    return lexicographic_svm_refit({"mean_test_accuracy": mean[:, 0], "mean_test_classes": mean[:, 1],
                                    "mean_test_hinge": mean[:, 2]})


def _fold_scores(svm, G_val, y_val):
    """A fitted fold's accuracy, number of predicted classes and minus its hinge loss on the
    validation points (0/1 labels): the three scorers of ``tie="lexicographic"``
    (:data:`~fsbook.experiments._protocol_helpers.LEXICOGRAPHIC_SCORING`), the hinge loss with
    the operations of :func:`sklearn.metrics.hinge_loss` (labels ±1 times the decision values,
    clipped at 0, averaged) without its input checks, which took most of a task's time, and the
    predictions from the same decision values.

    Examples
    --------
    >>> from sklearn.metrics import hinge_loss
    >>> G = np.array([[2.0, 0.5, 1.0], [0.5, 2.0, 0.2], [1.0, 0.2, 2.0]]); y = np.array([0, 1, 0])
    >>> svm = SVC(kernel="precomputed", C=1.0).fit(G, y)
    >>> _fold_scores(svm, G, y)[2] == -hinge_loss(y, svm.decision_function(G), labels=svm.classes_)
    True
    >>> _fold_scores(svm, G, y)[0] == float(np.mean(svm.predict(G) == y))
    True
    """
    decision = svm.decision_function(G_val)
    # libsvm's own rule (svm_predict_values): classes_[0] where its decision value is positive,
    # i.e. where scikit-learn's (its negation) is negative; predict() would recompute the values
    pred = svm.classes_[(decision >= 0).astype(int)]
    margin = np.where(y_val == svm.classes_[1], 1, -1) * decision
    losses = 1 - margin
    np.clip(losses, 0, None, out=losses)
    return float(np.mean(pred == y_val)), float(np.unique(pred).size), -float(np.average(losses))


def yale_reductions(X, y, train, n_kpca=None, coef0=1.0):
    """Fit KPCA, GDA and OLap on the training images of all subjects; return ``{name: Z}``
    (KPCA and GDA with the degree-2 polynomial kernel of offset ``coef0``)."""
    kern = dict(kernel="poly", degree=2, coef0=coef0)
    n_kpca = len(train) if n_kpca is None else n_kpca
    kpca = KernelPCA(n_kpca, gamma=1.0, **kern).fit(X[train])
    gda = GeneralizedDiscriminantAnalysis(gamma=1.0, **kern).fit(X[train], y[train])
    olap = OrthogonalLaplacianfaces(n_components=len(np.unique(y)) - 1).fit(X[train], y[train])
    return {"KPCA": kpca.transform(X), "GDA": gda.transform(X), "OLap": olap.transform(X)}


#: how :func:`_yale_split` scales the images: ``"unit"`` (the book's: unit length), ``"none"``
#: (pixel values 0 to 255), ``"standardised"`` (each pixel on the run's training images)
YALE_IMAGES = ("unit", "none", "standardised")


def _yale_split(X, y, per_subject, seed, images="unit"):
    """Images scaled by ``images`` (:data:`YALE_IMAGES`; default unit length) and the sorted
    indices of ``per_subject`` training images per subject."""
    if images not in YALE_IMAGES:
        raise ValueError(f"unknown images {images!r}; choose one of {YALE_IMAGES}")
    rng = np.random.default_rng(seed)
    classes = np.unique(y)
    train = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == c), per_subject, replace=False)
                                    for c in classes]))
    if images == "standardised":
        return StandardScaler().fit(X[train]).transform(X), classes, train
    return (normalize(X) if images == "unit" else X), classes, train


def _yale_setup(X, y, per_subject, seed, images="unit", coef0=1.0):
    """Split, reductions ``{name: Z}`` and kernel ``K`` of one run (images scaled by ``images``,
    :func:`_yale_split`; the polynomial kernel's offset ``coef0``)."""
    X, classes, train = _yale_split(X, y, per_subject, seed, images)
    is_train = np.zeros(len(y), bool)
    is_train[train] = True
    Zs = yale_reductions(X, y, train, coef0=coef0)
    K = polynomial_kernel(X, degree=2, coef0=coef0, gamma=1.0)
    return classes, is_train, Zs, K


def _yale_grams(K, Zs, rhos):
    """Gram matrices of one run: SVM-Kernel ``K``, SVM-R ``Z Zᵀ`` and, keyed ``("Proj-R", ρ)``,
    the Proj-R kernel ``K + Z Zᵀ/ρ`` of eq. (17) (dual 19) for every ``ρ``."""
    grams = {"SVM-Kernel": K}
    for name, Z in Zs.items():
        ZZ = Z @ Z.T
        grams[f"SVM-{name}"] = ZZ
        for g in rhos:
            grams[(f"Proj-{name}", g)] = K + ZZ / g
    return grams


def yale_kernel_balance(X, y, per_subject, seed):
    """``{R: tr(Z Zᵀ) / tr(K)}`` on the training images of one run of Tables 5-7: the ρ at which
    the two parts of Proj-R's kernel ``K + Z Zᵀ/ρ`` have equal trace.  Rescaling ``z`` by ``s``
    multiplies it by ``s²``, so ρ in eq. (17) only has a meaning relative to this value.
    """
    _, is_train, Zs, K = _yale_setup(X, y, per_subject, seed)
    return {f"Proj-{name}": float(np.sum(Z[is_train] ** 2) / np.trace(K[np.ix_(is_train, is_train)]))
            for name, Z in Zs.items()}


# ============================================================================ the protocol
#: the paper's numbers of runs (Table 1, Tables 5-7) and the chapter's subsample
RUNS = {True: {"boston": 500, "yale": 50}, False: {"boston": 100, "yale": 2}}
#: (table, fraction of the training documents) of Tables 2-4
NEWS_FRACS = {"table2": 0.02, "table3": 0.05, "table4": 0.10}
#: (table, training images per subject) of Tables 5-7
YALE_K = {"table5": 3, "table6": 5, "table7": 7}
#: every pair of the 20 groups / 15 subjects; the subsamples take every 19th / 3rd
NEWS_PAIRS = list(itertools.combinations(range(20), 2))
YALE_PAIRS = list(itertools.combinations(range(15), 2))
#: the chapter's ρ sweep: one run with 5 images per subject, every 9th pair
SWEEP = {"k": 5, "run": 0, "pairs": YALE_PAIRS[::9]}
YALE_METHODS = ["SVM-Kernel", "SVM-KPCA", "Proj-KPCA", "SVM-GDA", "Proj-GDA", "SVM-OLap", "Proj-OLap"]


def make_tasks(full):
    """Task parameters: ``{"part": "boston", "run"}``, ``{"part": "yale", "table", "run", "pair"}``
    and ``{"part": "rho", "run", "pair"}`` (the ρ sweep).  ``full=False`` is the chapter's
    subsample.  (The text tasks of Tables 2-4 are :mod:`fsbook.experiments.projection_text`'s.)"""
    runs = RUNS[full]
    yale_pairs = YALE_PAIRS if full else YALE_PAIRS[::3]
    tasks = [{"part": "boston", "run": r} for r in range(runs["boston"])]
    tasks += [{"part": "yale", "table": t, "run": r, "pair": list(p)}
              for t in YALE_K for r in range(runs["yale"]) for p in yale_pairs]
    tasks += [{"part": "rho", "run": SWEEP["run"], "pair": list(p)} for p in SWEEP["pairs"]]
    return tasks


@functools.lru_cache(maxsize=1)
def _boston():
    from fsbook.datasets import load_boston
    b = load_boston()
    return b.data, b.target


@functools.lru_cache(maxsize=1)
def newsgroups_corpus():
    """Training and test counts on the Section 3.2 vocabulary (loaded once per process)."""
    from fsbook.datasets import load_20newsgroups
    tr, te = load_20newsgroups(subset="train"), load_20newsgroups(subset="test")
    cols = newsgroups_vocabulary(tr.data, tr.target)
    Xtr = tr.data[:, cols].astype(float).tocsr()
    Xte = te.data[:, cols].astype(float).tocsr()
    return Xtr, tr.target, Xte, te.target


@functools.cache
def _news_topics(n_topics):
    """Topic proportions ``(Z_train, Z_test)`` of the LDA with ``n_topics`` topics (seed 0),
    fitted once per topic count and process (at most 15 MB each): ``verify`` recomputes text
    tasks of every topic count in key order, and a smaller cache refitted an LDA (about 45 s)
    for almost every task."""
    Xtr, _, Xte, _ = newsgroups_corpus()
    Z = newsgroups_topics(Xtr, sp.vstack([Xtr, Xte]).tocsr(), n_topics=n_topics, seed=0)
    return Z[:Xtr.shape[0]], Z[Xtr.shape[0]:]


@functools.lru_cache(maxsize=1)
def _yale():
    from fsbook.datasets import load_yale
    f = load_yale()
    return f.data, f.target


@functools.lru_cache(maxsize=2)
def _yale_run_grams(k, run, rhos):
    """Gram matrices of one face run (:func:`_yale_grams`), computed once per process."""
    X, y = _yale()
    _, is_train, Zs, K = _yale_setup(X, y, k, run)
    return is_train, _yale_grams(K, Zs, list(rhos))


def yale_task(grams, y, is_train, pair, seed, reference=False, tie="first", grid=GRID):
    """One pairwise face task: ``{name: (cv accuracy, test error)}`` for every Gram matrix of
    :func:`_yale_grams` (SVM-Kernel, SVM-R and Proj-R, the kernel ``K + Z Zᵀ/ρ`` of eq. 17 /
    dual 19), restricted to the pair's images: :func:`svc_cv_fits`, or with ``reference=True``
    its reference :func:`_svc_cv_fit` (one ``GridSearchCV`` per Gram matrix); C from ``grid``
    (default the paper's :data:`GRID`), ties by ``tie`` (:data:`YALE_TIES`)."""
    rel, yy, tr, te = _pair_split(y, is_train, pair)
    sub = {key: G[np.ix_(rel, rel)] for key, G in grams.items()}
    if reference:
        return {key: _svc_cv_fit(G, yy, tr, te, grid, seed, tie) for key, G in sub.items()}
    return svc_cv_fits(sub, yy, tr, te, grid, seed, tie)


def _run_boston(params):
    """One Boston run of Table 1 (:func:`boston_run`)."""
    X, y = _boston()
    return boston_run(params["run"], X, y)


def newsgroups_pair(params, topics=True, corpus=None):
    """The arguments of :func:`newsgroups_task` for a text task (``{"table", "topics", "run",
    "pair"}``, :mod:`fsbook.experiments.projection_text`): the pair's
    training and test documents (words ``X_*``, topic proportions ``Z_*`` of the LDA with
    ``params["topics"]`` topics, or ``None`` with ``topics=False``), labels (1: the pair's
    second group), the table's fraction and the task's seed.  ``corpus`` replaces
    :func:`newsgroups_corpus`'s ``(X_train, y_train, X_test, y_test)`` (another representation
    of the same posts)."""
    Xtr, ytr, Xte, yte = newsgroups_corpus() if corpus is None else corpus
    Ztr, Zte = _news_topics(params["topics"]) if topics else (None, None)
    pair = tuple(params["pair"])
    g1, g2 = pair
    itr, ite = np.flatnonzero((ytr == g1) | (ytr == g2)), np.flatnonzero((yte == g1) | (yte == g2))
    return {"X_tr": Xtr[itr], "Z_tr": None if Ztr is None else Ztr[itr], "y_tr": (ytr[itr] == g2).astype(int),
            "X_te": Xte[ite], "Z_te": None if Zte is None else Zte[ite], "y_te": (yte[ite] == g2).astype(int),
            "frac": NEWS_FRACS[params["table"]], "seed": params["run"] * 1000 + NEWS_PAIRS.index(pair)}


def _run_faces(params, k, rhos, name):
    """One (run, pair) face task: ``{name(key): {"cv_accuracy", "error", "C"}}`` (:func:`yale_task`,
    the tie rule of :data:`VERSION`)."""
    run, pair = params["run"], tuple(params["pair"])
    _, y = _yale()
    is_train, grams = _yale_run_grams(k, run, rhos)
    fits = yale_task(grams, y, is_train, pair, yale_seed(run, pair), tie=YALE_TIES[VERSION])
    return {key if isinstance(key, str) else name(key): {"cv_accuracy": acc, "error": err, "C": C}
            for key, (acc, err, C) in fits.items()}


def _run_yale(params):
    """One (run, pair) task of Tables 5-7, at the paper's ρ."""
    return _run_faces(params, YALE_K[params["table"]], (YALE_RHO,), lambda key: key[0])


def _run_rho(params):
    """One pair of the ρ sweep: Proj-R for every ρ of :data:`YALE_RHOS`, keyed ``Proj-R@ρ``."""
    return _run_faces(params, SWEEP["k"], tuple(YALE_RHOS), lambda key: f"{key[0]}@{key[1]:.0e}")


#: the function that runs a task of each part of :data:`PROTOCOL`
PARTS = {"boston": _run_boston, "yale": _run_yale, "rho": _run_rho}


def run_task(params):
    """Run one task of :data:`PROTOCOL` (see :func:`make_tasks`) by its part's function
    (:data:`PARTS`)."""
    part = params.get("part")
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}; the parts are {sorted(PARTS)}")
    return PARTS[part](params)


def _frame(params_list, results_list, part):
    return [(p, r) for p, r in zip(params_list, results_list) if p["part"] == part]


def balanced_block(rows):
    """The runs and pairs of the largest block of ``runs × pairs`` whose tasks are all present.

    ``rows`` is a list of ``(run, pair)``.  A complete store (every pair of every run) is one
    block.  A partial one is not: its last run may hold only some pairs, and a part may hold a few
    runs on a subset of the pairs beside one run on all of them.  The candidates are the blocks
    formed by one run's pairs and every run that has all of them; the largest (most tasks; ties:
    more runs, then the earliest run) is returned, so that a table's mean over runs and its
    standard error over runs average every run over the same pairs.

    Parameters
    ----------
    rows : list of (int, tuple)

    Returns
    -------
    (list of int, list of tuple)
        The block's runs and pairs, sorted.

    Examples
    --------
    >>> rows = [(0, p) for p in range(6)] + [(1, 0), (1, 3), (2, 0)]
    >>> balanced_block(rows)                     # run 0 on six pairs beats 2 runs × 2 pairs
    ([0], [0, 1, 2, 3, 4, 5])
    >>> balanced_block(rows + [(1, 1), (2, 1), (2, 3)])     # 3 runs × 3 pairs: 9 tasks
    ([0, 1, 2], [0, 1, 3])
    """
    pairs_of = {}
    for run, pair in rows:
        pairs_of.setdefault(run, set()).add(pair)
    best = None
    for run in sorted(pairs_of):
        pairs = pairs_of[run]
        runs = [r for r in sorted(pairs_of) if pairs <= pairs_of[r]]
        score = (len(runs) * len(pairs), len(runs))
        if best is None or score > best[0]:
            best = (score, runs, sorted(pairs))
    return best[1], best[2]


def _per_run(rows, methods, scale):
    """``(per_run, runs, pairs)``: the runs × methods frame of each run's average over the pairs
    of the largest complete block of runs × pairs (:func:`balanced_block`), times ``scale``;
    ``rows`` is ``[(run, pair, {m: v})]``."""
    runs, pairs = balanced_block([(run, tuple(pair)) for run, pair, _ in rows])
    keep = set(runs), set(pairs)
    df = pd.DataFrame([{"run": run, **{m: v[m] for m in methods}} for run, pair, v in rows
                       if run in keep[0] and tuple(pair) in keep[1]])
    return df.groupby("run")[methods].mean() * scale, runs, pairs


def _runs_table(rows, methods, scale):
    """Mean ± s.e. over runs of the per-run average over tasks; ``rows`` is ``[(run, pair, {m:
    v})]``.  Only the tasks of the largest complete block of runs × pairs are averaged
    (:func:`balanced_block`; all of them in a complete store); ``runs`` and ``tasks per run``
    describe that block, ``tasks stored`` counts every task of ``rows``.  With one run the
    standard error is undefined (NaN)."""
    per_run, runs, pairs = _per_run(rows, methods, scale)
    m, s = mean_se(per_run.to_numpy()) if len(per_run) > 1 else (per_run.to_numpy()[0], np.full(len(methods), np.nan))
    return pd.DataFrame({"mean": m, "se": s, "runs": len(runs), "tasks per run": len(pairs),
                         "tasks stored": len(rows)},
                        index=pd.Index(methods, name="method"))


NEWS_METHODS = ["L2-LGR", "LGR-Topic", "Proj-Topic"]


def _yale_rows(yale, table):
    """``[(run, pair, {method: error})]`` of the face tasks of one table."""
    return [(p["run"], p["pair"], {m: r[m]["error"] for m in YALE_METHODS}) for p, r in yale if p["table"] == table]


def _boston_tables(boston):
    """Table 1 on both α grids and the per-d table, from ``[(params, result)]``."""
    runs = [r for _, r in sorted(boston, key=lambda pr: pr[0]["run"])]
    return {"table1": boston_table(runs, "fine"), "table1_paper_grid": boston_table(runs, "paper"),
            "table1_by_d": boston_by_d(runs, "fine")}


def _yale_tables(yale):
    """``table{5,6,7}`` for every table present."""
    return {t: _runs_table(rows, YALE_METHODS, 100) for t in YALE_K if (rows := _yale_rows(yale, t))}


def _rho_tables(sweep):
    """``rho_sweep`` (error % of Proj-R for every ρ) and ``rho_reference`` (the plain models and
    Proj-R with ρ chosen by CV) of the ρ sweep's tasks."""
    rhos = list(YALE_RHOS)
    names = ["KPCA", "GDA", "OLap"]
    err = lambda key: 100 * float(np.mean([r[key]["error"] for _, r in sweep]))  # noqa: E731
    out = {"rho_sweep": pd.DataFrame({f"Proj-{n}": [err(f"Proj-{n}@{g:.0e}") for g in rhos] for n in names},
                                     index=pd.Index(rhos, name="ρ"))}
    ref = {m: err(m) for m in ["SVM-Kernel"] + [f"SVM-{n}" for n in names]}
    for n in names:   # ρ chosen per task jointly with C by the same CV (ties: smallest ρ)
        keys = [f"Proj-{n}@{g:.0e}" for g in rhos]
        cv = [r[keys[argbest([r[k]["cv_accuracy"] for k in keys], atol=SCORE_ATOL)]]["error"] for _, r in sweep]
        ref[f"Proj-{n} (ρ by CV)"] = 100 * float(np.mean(cv))
    out["rho_reference"] = pd.Series(ref, name="error (%)").to_frame()
    return out


#: the builder of each part's tables
BUILDERS = {"boston": _boston_tables, "yale": _yale_tables, "rho": _rho_tables}


def reduce(params_list, results_list):
    """The paper's tables from the tasks present: ``table1`` (best d, every α on the fine grid),
    ``table1_paper_grid`` (α on the paper's grid), ``table1_by_d`` (fine grid),
    ``table{5,6,7}`` (mean ± s.e. over runs, in %; from a partial store,
    over the largest complete block of runs × pairs, :func:`balanced_block`), and for the ρ sweep
    ``rho_sweep`` (error % of Proj-R for every ρ) and ``rho_reference``.  A table none of whose
    tasks is present is left out.  Each part's tables come from its builder (:data:`BUILDERS`)."""
    tables = {}
    for part, build in BUILDERS.items():
        rows = _frame(params_list, results_list, part)
        if rows:
            tables.update(build(rows))
    return tables


PROTOCOL = Protocol(name="projection", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version=VERSION, description="Zhang & Schneider (2010), Tables 1 and 5-7 and the ρ sweep")


# ============================================================================ summaries
#: the projection gains the chapter reports per table: (projection model, its plain counterpart)
GAINS = {"table1": [("Proj-PCR", "PCR"), ("Proj-PLS", "PLS"), ("Proj-PCR", "Ridge")],
         **{t: [("Proj-KPCA", "SVM-KPCA"), ("Proj-GDA", "SVM-GDA"), ("Proj-OLap", "SVM-OLap"),
                ("Proj-KPCA", "SVM-Kernel")] for t in YALE_K}}
GAINS["table1_paper_grid"] = GAINS["table1"]
#: how the claims table names each table (the family of Holm's correction)
TABLE_NAMES = {"table1": "Table 1", "table1_paper_grid": "Table 1 (paper's α grid)",
               **{t: f"Table {t[-1]}" for t in YALE_K}}


@functools.lru_cache(maxsize=1)
def split_ratios():
    """``n_test / n_train`` of one split of each table, for the corrected resampled t-test
    (which decides no verdict of the book: :mod:`fsbook.calibration` compares it with the paired
    t on these designs).

    Table 1: 456 test and 50 training examples.  Tables 5-7: ``11 − k`` test and ``k`` training
    images per subject.

    Returns
    -------
    dict of str to float, keyed like :data:`TABLE_NAMES`.
    """
    n_boston = len(_boston()[1])
    out = {"table1": (n_boston - 50) / 50, "table1_paper_grid": (n_boston - 50) / 50}
    per_subject = int(np.bincount(_yale()[1]).min())
    out.update({t: (per_subject - k) / k for t, k in YALE_K.items()})
    return out


def _boston_per_run(rows, grid):
    """Runs × models of Table 1: test R² (%) at each model's best d (the table's), per run."""
    runs = [r for _, r in sorted(rows, key=lambda pr: pr[0]["run"])]
    best_d = boston_table(runs, grid)["d"]
    out = {"Ridge": np.array([o["Ridge"][grid] for o in runs]) * 100}
    for name in ("PCR", "PLS", "Proj-PCR", "Proj-PLS"):
        ds, R = _r2_by_d(runs, name, grid)
        out[name] = R[:, ds.index(int(best_d[name]))]
    return pd.DataFrame(out, index=pd.Index([p["run"] for p, _ in sorted(rows, key=lambda pr: pr[0]["run"])],
                                            name="run"))


def per_run(results, table):
    """The per-run values a table's claims are paired over (runs × methods).

    Table 1 (``"table1"``, ``"table1_paper_grid"``): each run's test R² (%) of each model at its
    best d.  Tables 5-7: each run's test error (%) averaged over the pairs of the largest complete
    block of runs × pairs (:func:`balanced_block`; all 105 pairs in a complete run), the
    average the tables print the mean of.

    Parameters
    ----------
    results : ProtocolResult
        What ``read_store(PROTOCOL, allow_partial=True)`` returns (``params`` and ``results``).
    table : str
        A key of :data:`TABLE_NAMES`.

    Returns
    -------
    pandas.DataFrame or None
        ``None`` when none of the table's tasks is present.
    """
    if table not in TABLE_NAMES:
        raise ValueError(f"unknown table {table!r}; the tables are {list(TABLE_NAMES)}")
    params, res = results.params, results.results
    if table.startswith("table1"):
        rows = _frame(params, res, "boston")
        return _boston_per_run(rows, "paper" if table == "table1_paper_grid" else "fine") if rows else None
    rows = _yale_rows(_frame(params, res, "yale"), table)
    return _per_run(rows, YALE_METHODS, 100)[0] if rows else None


def order_claims(values_of, tables, paper, gains):
    """Claims table of the paper's order of every pair of methods of each table.

    For each table of ``tables`` (``{id: name}``) whose per-run values ``values_of(id)`` (runs
    × methods, or ``None``) are present and each pair of its methods whose printed values in the
    paper (``paper[id]``, ``{method: mean}``) differ, the claim is the paper's order
    ("Proj-KPCA below SVM-KPCA": a lower error; "Proj-PCR above PCR": a higher R², for the ids
    starting with ``table1``).  It is paired over runs and tested by the paired t-test
    (:mod:`fsbook.claims`, ``"paired_t"``): given the data set, the runs draw their splits (or
    their training samples) independently, so they are independent units and the test estimates
    the paper's quantity, the mean over the protocol's resampling of this data set.  One table is
    one Holm family: the paper's table asserts the order of every pair it prints.

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`fsbook.claims.COLUMNS` plus ``id`` (the table's key), ``gain``
        (whether ``(a, b)`` is in ``gains[id]``) and ``paper effect`` (the paper's difference,
        positive: its direction).

    Examples
    --------
    >>> vals = pd.DataFrame({"A": [1.0, 2.0, 1.5], "B": [3.0, 3.5, 3.0]})
    >>> c = order_claims(lambda t: vals, {"t": "T"}, {"t": {"A": 1.0, "B": 2.0}}, {"t": [("A", "B")]})
    >>> c["claim"].tolist(), bool(c["gain"].iloc[0]), float(c["effect"].iloc[0]), int(c["n_direction"].iloc[0])
    (['A below B'], True, 1.6666666666666667, 3)
    """
    from fsbook.claims import Claim, claims_table, evaluate
    rows = []
    for table, label in tables.items():
        values = values_of(table)
        if values is None:
            continue
        higher = table.startswith("table1")
        names = [m for m in paper[table] if m in values.columns]
        for i, m1 in enumerate(names):
            for m2 in names[i + 1:]:
                p1, p2 = paper[table][m1], paper[table][m2]
                if p1 == p2:
                    continue                                   # the paper asserts no order
                a, b = (m1, m2) if (p1 > p2) == higher else (m2, m1)
                claim = Claim(f"{a} {'above' if higher else 'below'} {b}", a=a, b=b,
                              better="higher" if higher else "lower", unit="runs", test="paired_t", table=label)
                row = evaluate(claim, values[a].to_numpy(), values[b].to_numpy())
                row.update(id=table, gain=(a, b) in gains[table],
                           **{"paper effect": abs(paper[table][a] - paper[table][b])})
                rows.append(row)
    return claims_table(rows)


def claims(results):
    """The chapter's claims table for Tables 1 and 5-7: the paper's order of every pair of
    methods of each table, decided on the stored per-run results by :mod:`fsbook.claims`
    (:func:`order_claims`; Tables 2-4: :func:`fsbook.experiments.projection_text.claims`).

    The claims are paired over runs (:func:`per_run`; for the faces each run's average over its
    pairs, so the runs are the units) and tested by the paired t-test, Holm within each table.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL, allow_partial=True)`` (or any object with ``params`` and
        ``results``).

    Returns
    -------
    pandas.DataFrame
        :func:`order_claims`'s table, for the tables of :data:`TABLE_NAMES` present.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> task = lambda run, pair, e: ({"part": "yale", "table": "table5", "run": run, "pair": pair},
    ...                              {m: {"error": e if m == "Proj-OLap" else 0.25} for m in YALE_METHODS})
    >>> tasks = [task(r, p, 0.25 - 0.05 * (r + 1)) for r in range(3) for p in ([0, 1], [0, 2])]
    >>> store = SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])
    >>> c = claims(store)
    >>> row = c[c["claim"] == "Proj-OLap below SVM-OLap"].iloc[0]
    >>> float(round(row["effect"], 6)), int(row["n"]), bool(row["gain"])   # 5, 10, 15 points: mean 10
    (10.0, 3, True)
    """
    paper = {t: PAPER["table1" if t.startswith("table1") else t]["mean"] for t in TABLE_NAMES}
    return order_claims(lambda t: per_run(results, t), TABLE_NAMES, paper, GAINS)


#: the largest difference between one of our levels and the level the paper prints that counts as
#: agreement (:func:`fsbook.claims.agreement`), in the table's percentage points (R² % in Table 1,
#: error % in Tables 2-7), declared before the comparison: one point, the scale of the paper's own
#: projection gains (Table 1: 0.62 to 4.02 R² points; Tables 2-4: 1.53 to 7.42 error points;
#: Tables 5-7: 0.03 to 2.19, most below one point), so that a level further off could move a
#: method past another in the paper's table
AGREEMENT_MARGIN = 1.0
#: the paper's number of runs per table (its means and standard errors are over them)
PAPER_RUNS = {"table1": 500, **{t: 50 for t in YALE_K}}


def paper_agreement(values_of, tables, paper, paper_runs, margin=AGREEMENT_MARGIN):
    """Whether each level the paper prints agrees with ours: :func:`fsbook.claims.agreement` of
    our per-run values of a method with the paper's mean, with the paper's printed standard error
    (``paper[id]["se"]``; where it prints none, ours scaled to its number of runs,
    ``paper_runs[id]``).

    Parameters
    ----------
    values_of : callable
        ``values_of(id)``: runs × methods (our per-run values, :func:`per_run`), or ``None``.
    tables : dict
        ``{id: name}`` of the tables to compare.
    paper : dict
        ``{id: {"mean": {method: value}, "se": {method: value}}}`` (:data:`PAPER`).
    paper_runs : dict
        ``{id: the paper's number of runs}``.
    margin : float
        :data:`AGREEMENT_MARGIN` by default.

    Returns
    -------
    pandas.DataFrame
        One row per (table, method): ``id``, ``table``, ``method``, ``paper se`` and the keys of
        :func:`fsbook.claims.agreement` (``ours``, ``paper``, ``diff``, ``se``, ``ci_low``,
        ``ci_high``, ``z``, ``agreement``), and ``margin``.

    Examples
    --------
    >>> vals = pd.DataFrame({"A": [10.0, 10.4, 9.8, 10.2], "B": [14.0, 14.2, 13.8, 14.1]})
    >>> paper = {"t": {"mean": {"A": 10.1, "B": 12.0}, "se": {"A": 0.1, "B": 0.1}}}
    >>> paper_agreement(lambda t: vals, {"t": "T"}, paper, {"t": 4})["agreement"].tolist()
    ['agrees', 'differs']
    """
    from fsbook.claims import agreement
    rows = []
    for table, label in tables.items():
        values = values_of(table)
        if values is None:
            continue
        for method, mean in paper[table]["mean"].items():
            if method not in values.columns:
                continue
            se = paper[table].get("se", {}).get(method)
            r = agreement(values[method].to_numpy(dtype=float), mean, margin=margin, paper_se=se,
                          paper_n=paper_runs[table])
            rows.append({"id": table, "table": label, "method": method, "paper se": se, **r, "margin": margin})
    return pd.DataFrame(rows)


def agreement_table(results, margin=AGREEMENT_MARGIN):
    """:func:`paper_agreement` for the levels of Tables 1 (fine α grid, each model at its best d)
    and 5-7 that the paper prints, on the stored per-run results (:func:`per_run`).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> task = lambda run, pair: ({"part": "yale", "table": "table5", "run": run, "pair": pair},
    ...                           {m: {"error": 0.16 + 0.002 * run} for m in YALE_METHODS})
    >>> tasks = [task(r, p) for r in range(4) for p in ([0, 1], [0, 2])]
    >>> store = SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])
    >>> a = agreement_table(store).set_index("method")
    >>> a.loc["SVM-Kernel", "agreement"], a.loc["SVM-OLap", "agreement"]      # 16.3 % against 16.17 and 8.58
    ('agrees', 'differs')
    """
    tables = {t: TABLE_NAMES[t] for t in PAPER_RUNS}
    return paper_agreement(lambda t: per_run(results, t), tables, PAPER, PAPER_RUNS, margin)


def equal_errors(results, a, b):
    """``(equal, stored)``: the stored face tasks (Tables 5-7) in which ``a`` and ``b`` have
    exactly the same test error, and all stored face tasks."""
    face = [r for p, r in zip(results.params, results.results) if p["part"] == "yale"]
    return sum(r[a]["error"] == r[b]["error"] for r in face), len(face)


def subsample(results):
    """The stored tasks of the chapter's earlier subsample (``make_tasks(False)``), as a
    :class:`~fsbook.experiments.ProtocolResult` with its tables."""
    from fsbook.experiments._runner import ProtocolResult, canonical_json
    keys = {canonical_json(p) for p in make_tasks(False)}
    keep = [i for i, p in enumerate(results.params) if canonical_json(p) in keys]
    params, res = [results.params[i] for i in keep], [results.results[i] for i in keep]
    return ProtocolResult(params=params, results=res, tables=reduce(params, res), n_cached=len(keep),
                          protocol=PROTOCOL.name, n_total=len(keys))


#: how :func:`store_coverage` labels the tables of a part
TABLE_LABEL = {t: f"Table {t[-1]} ({k} per subject)" for t, k in YALE_K.items()}


def store_coverage(params, full=True):
    """Tasks stored against the tasks of the protocol, per part of :data:`PROTOCOL`.

    One row per part (``boston``: Table 1; ``yale``: Tables 5-7; ``rho``: the ρ sweep), preceded
    for ``yale`` by one row per table, and a last row for the whole protocol
    (:func:`coverage_table`).

    Parameters
    ----------
    params : list of dict
        The parameters of the tasks present, e.g. the ``params`` of
        ``read_store(PROTOCOL, allow_partial=True)``.
    full : bool, default=True
        Count against ``make_tasks(full)``: the paper's protocol, or the chapter's subsample.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``(part, tasks)``; columns ``stored``, ``in the protocol`` and ``runs with
        every pair`` (the runs all of whose tasks are stored; a Boston run is one task; missing
        on the summary rows).

    Examples
    --------
    >>> cov = store_coverage(make_tasks(False))            # the subsample, as if it were stored
    >>> cov.loc[("boston", "runs")].tolist()
    [100, 500, 100]
    >>> cov.loc[("yale", "Table 5 (3 per subject)")].tolist()
    [70, 5250, 0]
    >>> cov.loc[("all", "all")].tolist()[:2]
    [322, 16262]
    """
    def group(p):
        if p["part"] == "yale":
            return p["part"], TABLE_LABEL[p["table"]]
        return p["part"], "runs" if p["part"] == "boston" else "pairs"

    return coverage_table(PROTOCOL, params, full, group)


def coverage_table(protocol, params, full, group):
    """:func:`store_coverage`'s table for any protocol whose tasks have a ``run``: ``group(p)`` is
    a task's ``(part, detail)`` row; the parts with several rows get a summary row ``(part,
    "all")``, and the last row ``("all", "all")`` sums the protocol."""
    from fsbook.experiments._runner import stored_flags

    groups = {}                                              # (part, detail) -> {run: [stored?]}
    for p, s in zip(*stored_flags(protocol, params, full)):
        groups.setdefault(group(p), {}).setdefault(p["run"], []).append(s)
    rows = {}

    def add(key, runs_list, complete):
        flags = [f for runs in runs_list for fl in runs.values() for f in fl]
        rows[key] = {"stored": sum(flags), "in the protocol": len(flags), "runs with every pair": complete}

    for part in dict.fromkeys(k[0] for k in groups):
        keys = [k for k in groups if k[0] == part]
        for k in keys:
            add(k, [groups[k]], sum(all(fl) for fl in groups[k].values()))
        if len(keys) > 1:
            add((part, "all"), [groups[k] for k in keys], None)
    add(("all", "all"), list(groups.values()), None)
    out = pd.DataFrame.from_dict(rows, orient="index")
    out["runs with every pair"] = out["runs with every pair"].astype("Int64")
    out.index = pd.MultiIndex.from_tuples(out.index, names=["part", "tasks"])
    return out


def yale_separability(X, y, per_subject, seed, pairs=None):
    """Fraction of pairwise tasks whose training images are linearly separable in each reduced
    space (hard-margin check: a linear SVM with C = 1e10 fits the training pair exactly).

    When they are, eq. (17) with a tiny ρ puts the whole model into ``v`` (``w̃ ≈ 0``), so
    Proj-R coincides with SVM-R.
    """
    X, classes, train = _yale_split(X, y, per_subject, seed)
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
        Gram matrices of :func:`_yale_grams` (``"SVM-Kernel"``, ``"SVM-KPCA"``, …; ``"Proj-R"`` at
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
    >>> from fsbook.experiments.projection import yale_tie_rules
    >>> t = yale_tie_rules("table5", 0, methods=["SVM-Kernel"], pairs=[(1, 14)])
    >>> t[["tie", "C", "error", "grid_tied", "one_class"]].to_dict("records")      # doctest: +NORMALIZE_WHITESPACE
    [{'tie': 'first', 'C': 1e-08, 'error': 0.5, 'grid_tied': True, 'one_class': True},
     {'tie': 'lexicographic', 'C': 100.0, 'error': 0.125, 'grid_tied': True, 'one_class': False}]
    """
    _, y = _yale()
    is_train, grams = _yale_run_grams(YALE_K[table], run, (YALE_RHO,))
    rows = []
    for pair in (YALE_PAIRS if pairs is None else [tuple(p) for p in pairs]):
        rel, yy, tr, te = _pair_split(y, is_train, pair)
        folds = list(inner_folds(yale_seed(run, pair), _n_inner_folds(yy[tr])).split(np.zeros((tr.size, 1)), yy[tr]))
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

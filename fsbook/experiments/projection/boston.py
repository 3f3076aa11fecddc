"""Table 1's part: the Boston housing data and one random run of 50 training and 456 test
examples, :func:`boston_run` (ridge, PCR, PLS and their projection-penalised versions, at every
``d``).
"""

import functools

import numpy as np
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import r2_score
from sklearn.preprocessing import StandardScaler

from fsbook.decisions import RTOL, argbest
from fsbook.experiments.projection.paper import BOSTON_REDUCED_PENALTY, FINE_GRID, GRID
from fsbook.experiments.projection.search import _proj_ridge_path_cv, ridge_path_cv
from fsbook.projection import ExhaustedSafePLS, ProjectionPenalty, krylov_rank


def pls_predict(X_train, y_train, X_test, d):
    """Predictions of PLS regression with ``d`` components (no scaling).

    When the Krylov space of ``(XᵀX, Xᵀy)`` is exhausted before ``d`` components (the last
    component's x-scores vanish: norm below ``1e-10`` of the first's), PLS has already reached
    the least-squares fit, and that is what is returned.  scikit-learn's ``PLSRegression`` keeps
    deflating there and divides rounding noise by rounding noise (test R² of -1e30 % in 2 of 100
    Boston runs at d = 13, a value that differs from machine to machine).

    Parameters
    ----------
    X_train, y_train : array
        The training sample.
    X_test : array
        The points to predict.
    d : int
        The number of components.

    Returns
    -------
    array of float of shape (n_test,)

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(20, 3))
    >>> y = X @ [1.0, -2.0, 0.5]
    >>> bool(np.allclose(pls_predict(X, y, X[:2], d=3), y[:2]))    # d = p: least squares
    True
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


@functools.lru_cache(maxsize=1)
def boston_data():
    from fsbook.datasets import load_boston
    b = load_boston()
    return b.data, b.target

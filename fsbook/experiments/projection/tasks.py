"""The data, splits and part functions of the protocol: :func:`make_tasks` and :func:`run_task`.

* ``boston`` (Table 1): one random run of 50 training and 456 test examples,
  :func:`boston_run`.
* ``yale`` (Tables 5-7): one (run, pair) face task, :func:`yale_task` on the run's Gram
  matrices (:func:`yale_grams`), at the paper's ρ.
* ``rho`` (the chapter's ρ sweep): the same on every ρ of
  :data:`~fsbook.experiments.projection.paper.YALE_RHOS`.

Each task's seeds come from its parameters (run and pair index), so the subsample's tasks
(``make_tasks(False)``) are exactly the corresponding tasks of the full protocol.  The live
checks of the face experiment (:func:`yale_kernel_balance`, :func:`yale_separability`,
:func:`yale_tie_rules`) run on the same splits.
"""

import functools
import itertools

import numpy as np
import pandas as pd
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA, KernelPCA
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import r2_score
from sklearn.metrics.pairwise import polynomial_kernel
from sklearn.preprocessing import StandardScaler, normalize
from sklearn.svm import SVC

from fsbook.decisions import RTOL, SCORE_ATOL, argbest
from fsbook.experiments.projection.paper import (
    BOSTON_REDUCED_PENALTY,
    FINE_GRID,
    GRID,
    RUNS,
    SWEEP,
    VERSION,
    YALE_K,
    YALE_PAIRS,
    YALE_RHO,
    YALE_RHOS,
    YALE_TIES,
)
from fsbook.experiments.projection.search import (
    _proj_ridge_path_cv,
    _svc_cv_fit,
    _svc_cv_table,
    _svc_tie_choice,
    n_inner_folds,
    ridge_path_cv,
    svc_cv_fits,
)
from fsbook.model_selection import inner_folds
from fsbook.projection import (
    ExhaustedSafePLS,
    GeneralizedDiscriminantAnalysis,
    OrthogonalLaplacianfaces,
    ProjectionPenalty,
    krylov_rank,
)


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


def yale_seed(run, pair):
    """Seed of a face task's inner folds: ``1000 * run`` plus the pair's index in :data:`YALE_PAIRS`.

    Parameters
    ----------
    run : int
        The run.
    pair : sequence of two int
        The pair of subjects.

    Returns
    -------
    int

    Examples
    --------
    >>> yale_seed(2, (0, 3))
    2002
    """
    return run * 1000 + YALE_PAIRS.index(tuple(pair))


def pair_split(y, is_train, pair):
    """A pair of subjects' images (indices ``rel`` into ``y``), their labels (1: the pair's second
    subject) and the positions of its training and test images within ``rel``.

    Parameters
    ----------
    y : array of shape (n_images,)
        Every image's subject.
    is_train : array of bool of shape (n_images,)
        The run's training images (:func:`yale_setup`).
    pair : tuple of two subjects
        The pair (:data:`YALE_PAIRS`).

    Returns
    -------
    rel : array of int
        The pair's images, indices into ``y``.
    labels : array of int
        1 for the pair's second subject, 0 for its first, per image of ``rel``.
    train, test : array of int
        Positions of the training and the test images within ``rel``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([1, 2, 3, 1, 2, 3])
    >>> is_train = np.array([True, True, True, False, False, False])
    >>> pair_split(y, is_train, (1, 3))
    (array([0, 2, 3, 5]), array([0, 1, 0, 1]), array([0, 1]), array([2, 3]))
    """
    rel = np.flatnonzero(np.isin(y, pair))
    return rel, (y[rel] == pair[1]).astype(int), np.flatnonzero(is_train[rel]), np.flatnonzero(~is_train[rel])


def yale_reductions(X, y, train, n_kpca=None, coef0=1.0):
    """Fit KPCA, GDA and OLap on the training images of all subjects; return ``{name: Z}``
    (KPCA and GDA with the degree-2 polynomial kernel of offset ``coef0``).

    Parameters
    ----------
    X : array of shape (n_images, n_pixels)
        Every image (scaled, :func:`yale_split`).
    y : array
        Their subjects.
    train : array of int
        The training images: the reductions are fitted on them.
    n_kpca : int, optional
        KPCA's components (default: as many as training images).
    coef0 : float, default 1.0
        The polynomial kernel's offset.

    Returns
    -------
    dict of str to array
        ``{"KPCA": Z, "GDA": Z, "OLap": Z}``, every image reduced.

    Examples
    --------
    >>> X, y = yale_data()
    >>> Xs, classes, train = yale_split(X, y, 3, seed=0)
    >>> {name: Z.shape for name, Z in yale_reductions(Xs, y, train).items()}
    {'KPCA': (165, 45), 'GDA': (165, 14), 'OLap': (165, 14)}
    """
    kern = dict(kernel="poly", degree=2, coef0=coef0)
    n_kpca = len(train) if n_kpca is None else n_kpca
    kpca = KernelPCA(n_kpca, gamma=1.0, **kern).fit(X[train])
    gda = GeneralizedDiscriminantAnalysis(gamma=1.0, **kern).fit(X[train], y[train])
    olap = OrthogonalLaplacianfaces(n_components=len(np.unique(y)) - 1).fit(X[train], y[train])
    return {"KPCA": kpca.transform(X), "GDA": gda.transform(X), "OLap": olap.transform(X)}


#: how :func:`yale_split` scales the images: ``"unit"`` (the book's: unit length), ``"none"``
#: (pixel values 0 to 255), ``"standardised"`` (each pixel on the run's training images)
YALE_IMAGES = ("unit", "none", "standardised")


def yale_split(X, y, per_subject, seed, images="unit"):
    """Images scaled by ``images`` (:data:`YALE_IMAGES`; default unit length) and the sorted
    indices of ``per_subject`` training images per subject.

    Parameters
    ----------
    X : array of shape (n_images, n_pixels)
        The face images (:func:`yale_data`).
    y : array of shape (n_images,)
        Their subjects.
    per_subject : int
        Training images drawn per subject (``k`` of Tables 5-7).
    seed : int
        Seed of the draw (the run).
    images : {"unit", "none", "standardised"}, default "unit"
        How the images are scaled (:data:`YALE_IMAGES`).

    Returns
    -------
    X : array of shape (n_images, n_pixels)
        The scaled images.
    classes : array
        The subjects, sorted.
    train : array of int
        The training images, sorted.

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.arange(12.0).reshape(6, 2) + 1, np.array([0, 0, 0, 1, 1, 1])
    >>> Xs, classes, train = yale_split(X, y, 2, seed=0)
    >>> classes, len(train), bool(np.allclose(np.linalg.norm(Xs, axis=1), 1))
    (array([0, 1]), 4, True)
    """
    if images not in YALE_IMAGES:
        raise ValueError(f"unknown images {images!r}; choose one of {YALE_IMAGES}")
    rng = np.random.default_rng(seed)
    classes = np.unique(y)
    train = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == c), per_subject, replace=False)
                                    for c in classes]))
    if images == "standardised":
        return StandardScaler().fit(X[train]).transform(X), classes, train
    return (normalize(X) if images == "unit" else X), classes, train


def yale_setup(X, y, per_subject, seed, images="unit", coef0=1.0):
    """Split, reductions ``{name: Z}`` and kernel ``K`` of one run (images scaled by ``images``,
    :func:`yale_split`; the polynomial kernel's offset ``coef0``).

    Parameters
    ----------
    X, y : array
        The face images and their subjects (:func:`yale_data`).
    per_subject : int
        Training images per subject.
    seed : int
        Seed of the split (the run).
    images : str, default "unit"
        How the images are scaled (:data:`YALE_IMAGES`).
    coef0 : float, default 1.0
        The polynomial kernel's offset.

    Returns
    -------
    classes : array
        The subjects.
    is_train : array of bool
        The training images.
    Zs : dict of str to array
        :func:`yale_reductions`.
    K : array of shape (n_images, n_images)
        The degree-2 polynomial kernel of every pair of images.

    Examples
    --------
    >>> X, y = yale_data()
    >>> classes, is_train, Zs, K = yale_setup(X, y, 3, seed=0)
    >>> len(classes), int(is_train.sum()), sorted(Zs), K.shape
    (15, 45, ['GDA', 'KPCA', 'OLap'], (165, 165))
    """
    X, classes, train = yale_split(X, y, per_subject, seed, images)
    is_train = np.zeros(len(y), bool)
    is_train[train] = True
    Zs = yale_reductions(X, y, train, coef0=coef0)
    K = polynomial_kernel(X, degree=2, coef0=coef0, gamma=1.0)
    return classes, is_train, Zs, K


def yale_grams(K, Zs, rhos):
    """Gram matrices of one run: SVM-Kernel ``K``, SVM-R ``Z Zᵀ`` and, keyed ``("Proj-R", ρ)``,
    the Proj-R kernel ``K + Z Zᵀ/ρ`` of eq. (17) (dual 19) for every ``ρ``.

    Parameters
    ----------
    K : array of shape (n, n)
        The kernel of the images.
    Zs : dict of str to array of shape (n, m)
        The reductions (:func:`yale_reductions`).
    rhos : sequence of float
        The ρ values.

    Returns
    -------
    dict
        ``"SVM-Kernel"``, ``"SVM-<R>"`` and ``("Proj-<R>", ρ)`` to their Gram matrices.

    Examples
    --------
    >>> import numpy as np
    >>> grams = yale_grams(np.eye(2), {"KPCA": np.array([[1.0], [2.0]])}, [0.5])
    >>> list(grams)
    ['SVM-Kernel', 'SVM-KPCA', ('Proj-KPCA', 0.5)]
    >>> grams[("Proj-KPCA", 0.5)]
    array([[3., 4.],
           [4., 9.]])
    """
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


def make_tasks(full):
    """Task parameters: ``{"part": "boston", "run"}``, ``{"part": "yale", "table", "run", "pair"}``
    and ``{"part": "rho", "run", "pair"}`` (the ρ sweep).  ``full=False`` is the chapter's
    subsample.  (The text tasks of Tables 2-4 are :mod:`fsbook.experiments.projection_text`'s.)

    Parameters
    ----------
    full : bool
        The paper's numbers of runs and every pair, rather than the chapter's subsample.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> tasks = make_tasks(False)
    >>> len(tasks), tasks[0], tasks[100]
    (322, {'part': 'boston', 'run': 0}, {'part': 'yale', 'table': 'table5', 'run': 0, 'pair': [0, 1]})
    """
    runs = RUNS[full]
    yale_pairs = YALE_PAIRS if full else YALE_PAIRS[::3]
    tasks = [{"part": "boston", "run": r} for r in range(runs["boston"])]
    tasks += [{"part": "yale", "table": t, "run": r, "pair": list(p)}
              for t in YALE_K for r in range(runs["yale"]) for p in yale_pairs]
    tasks += [{"part": "rho", "run": SWEEP["run"], "pair": list(p)} for p in SWEEP["pairs"]]
    return tasks


@functools.lru_cache(maxsize=1)
def boston_data():
    from fsbook.datasets import load_boston
    b = load_boston()
    return b.data, b.target


@functools.lru_cache(maxsize=1)
def yale_data():
    from fsbook.datasets import load_yale
    f = load_yale()
    return f.data, f.target


@functools.lru_cache(maxsize=2)
def yale_run_grams(k, run, rhos):
    """Gram matrices of one face run (:func:`yale_grams`), computed once per process.

    Parameters
    ----------
    k : int
        Training images per subject.
    run : int
        The run (the seed of its split).
    rhos : tuple of float
        The ρ values of the Proj-R kernels (a tuple: the result is cached).

    Returns
    -------
    is_train : array of bool
        The run's training images.
    grams : dict
        :func:`yale_grams` of the run (KPCA, GDA and OLap fitted on its training images).

    Examples
    --------
    >>> is_train, grams = yale_run_grams(2, 0, (1.0,))
    >>> int(is_train.sum()), sorted(map(str, grams))[:2]
    (30, ["('Proj-GDA', 1.0)", "('Proj-KPCA', 1.0)"])
    """
    X, y = yale_data()
    _, is_train, Zs, K = yale_setup(X, y, k, run)
    return is_train, yale_grams(K, Zs, list(rhos))


def yale_task(grams, y, is_train, pair, seed, reference=False, tie="first", grid=GRID):
    """One pairwise face task: ``{name: (cv accuracy, test error)}`` for every Gram matrix of
    :func:`yale_grams` (SVM-Kernel, SVM-R and Proj-R, the kernel ``K + Z Zᵀ/ρ`` of eq. 17 /
    dual 19), restricted to the pair's images: :func:`svc_cv_fits`, or with ``reference=True``
    its reference :func:`_svc_cv_fit` (one ``GridSearchCV`` per Gram matrix); C from ``grid``
    (default the paper's :data:`GRID`), ties by ``tie`` (:data:`YALE_TIES`).

    Parameters
    ----------
    grams : dict
        The run's Gram matrices on every image (:func:`yale_grams`).
    y : array
        Every image's subject.
    is_train : array of bool
        The run's training images.
    pair : sequence of two int
        The pair of subjects.
    seed : int
        Seed of the inner folds (:func:`yale_seed`).
    reference : bool, default False
        Run the reference search instead of the fast one.
    tie : str, default "first"
        The tie rule.
    grid : sequence of float, default :data:`GRID`
        The C values.

    Returns
    -------
    dict
        ``{key: (mean cv accuracy of the chosen C, test error, chosen C)}`` per Gram matrix.

    Examples
    --------
    >>> X, y = yale_data()
    >>> is_train, grams = yale_run_grams(3, 0, (1.0,))
    >>> fits = yale_task(grams, y, is_train, (0, 1), yale_seed(0, (0, 1)))
    >>> fits["SVM-Kernel"][1], len(fits)
    (0.375, 7)
    """
    rel, yy, tr, te = pair_split(y, is_train, pair)
    sub = {key: G[np.ix_(rel, rel)] for key, G in grams.items()}
    if reference:
        return {key: _svc_cv_fit(G, yy, tr, te, grid, seed, tie) for key, G in sub.items()}
    return svc_cv_fits(sub, yy, tr, te, grid, seed, tie)


def _run_boston(params):
    """One Boston run of Table 1 (:func:`boston_run`)."""
    X, y = boston_data()
    return boston_run(params["run"], X, y)


def _run_faces(params, k, rhos, name):
    """One (run, pair) face task: ``{name(key): {"cv_accuracy", "error", "C"}}`` (:func:`yale_task`,
    the tie rule of :data:`VERSION`)."""
    run, pair = params["run"], tuple(params["pair"])
    _, y = yale_data()
    is_train, grams = yale_run_grams(k, run, rhos)
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
    (:data:`PARTS`).

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`; its ``part`` picks the function.

    Returns
    -------
    dict
        The part's result (a face task: per Gram matrix its test ``error``, CV accuracy and C).

    Examples
    --------
    >>> run_task({"part": "nope"})
    Traceback (most recent call last):
    ...
    ValueError: unknown part 'nope'; the parts are ['boston', 'rho', 'yale']
    >>> r = run_task({"part": "yale", "table": "table5", "run": 0, "pair": [0, 1]})
    >>> sorted(r)[:2], r["SVM-Kernel"]["error"]
    (['Proj-GDA', 'Proj-KPCA'], 0.25)
    """
    part = params.get("part")
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}; the parts are {sorted(PARTS)}")
    return PARTS[part](params)


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
    >>> from fsbook.experiments.projection import yale_tie_rules
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

"""Tables 5-7's part: the Yale faces, one run's split, reductions (KPCA, GDA, OLap) and Gram
matrices, and one pairwise face task, :func:`yale_task` (SVM-Kernel, SVM-R and Proj-R, the
kernel ``K + Z Zᵀ/ρ`` of eq. 17).

A face task's seeds come from its run and pair (:func:`yale_seed`); a run's Gram matrices are
computed once per process (:func:`yale_run_grams`).
"""

import functools

import numpy as np
from sklearn.decomposition import KernelPCA
from sklearn.metrics.pairwise import polynomial_kernel
from sklearn.preprocessing import StandardScaler, normalize

from fsbook.experiments.projection.paper import GRID, YALE_PAIRS
from fsbook.experiments.projection.search import _svc_cv_fit, svc_cv_fits
from fsbook.projection import GeneralizedDiscriminantAnalysis, OrthogonalLaplacianfaces


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


"""Laplacian score (He, Cai & Niyogi 2005) as a feature selector.

For a graph with weights ``S`` (``n × n``), degrees ``D = diag(S1)`` and
Laplacian ``L = D − S``, feature ``f_r`` is scored by

    L_r = f̃_rᵀ L f̃_r / f̃_rᵀ D f̃_r,   f̃_r = f_r − (f_rᵀD1 / 1ᵀD1) 1,

and the features with the *smallest* scores are kept.  Two graphs:
``graph="knn"`` is the paper's unsupervised heat-kernel graph (``S_il =
exp(−||x_i − x_l||²/t)`` if ``i`` is among the ``n_neighbors`` nearest
neighbours of ``l`` or vice versa); ``graph="class"`` is He et al.'s
supervised graph (``S_il = 1/n_c`` if ``y_i = y_l = c``), under which the score
is a monotone function of the Fisher score (the form the l1/linf paper uses).
Vectorised over features: with ``a = Σ_i D_i f_i²``, ``b = Σ_i D_i f_i`` and
``c = f_rᵀ S f_r``, ``L_r = (a − c) / (a − b²/ΣD)``; sparse ``X`` stays sparse.
scikit-learn has no Laplacian score; written by hand for that reason.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.neighbors import kneighbors_graph

from fsbook._compat import Interval, StrOptions, fit_context
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin

__all__ = ["LaplacianScore", "laplacian_scores", "class_graph", "class_graph_scores", "heat_knn_graph"]


def class_graph(y):
    """``S_il = 1/n_c`` if ``y_i = y_l = c`` else 0 (He et al. 2005, supervised case)."""
    _, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    Y = np.eye(len(counts))[codes]
    return (Y / counts) @ Y.T


def heat_knn_graph(X, n_neighbors=5, t=None, *, sparse=False):
    """Symmetrised k-nearest-neighbour graph with heat-kernel weights ``exp(−||x_i − x_l||²/t)``.

    ``t`` defaults to the mean squared distance over the graph's edges.  ``sparse=True`` returns
    the CSR matrix (at most ``2 n k`` entries) instead of the dense ``n × n`` array.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> heat_knn_graph(X, 1, sparse=True).nnz, heat_knn_graph(X, 1).shape
    (4, (3, 3))
    """
    G = kneighbors_graph(X, n_neighbors=n_neighbors, mode="distance", include_self=False)
    G = G.maximum(G.T).tocoo()
    d2 = G.data ** 2
    t = float(np.mean(d2)) if t is None else t
    if t <= 0:
        t = 1.0
    S = sp.csr_matrix((np.exp(-d2 / t), (G.row, G.col)), shape=G.shape)
    return S if sparse else S.toarray()


def laplacian_scores(X, S):
    """``L_r`` for every column of ``X`` (dense or sparse) on the graph ``S`` (dense, or sparse: then
    no ``n × n`` array is formed); constant columns get +inf."""
    deg = np.asarray(S.sum(axis=1)).ravel() if sp.issparse(S) else S.sum(axis=1)
    total = deg.sum()
    if sp.issparse(X):
        a = np.asarray(X.multiply(X).T @ deg).ravel()
        b = np.asarray(X.T @ deg).ravel()
        SX = (X.T @ S).T                                 # S X, n x d (S symmetric); sparse if S is
        SX = SX if sp.issparse(SX) else np.asarray(SX)
        c = np.asarray(X.multiply(SX).sum(axis=0)).ravel()
    else:
        a = (X * X).T @ deg
        b = X.T @ deg
        c = np.einsum("ij,ij->j", X, S @ X)
    return _scores_from_moments(a, b, c, total)


def _scores_from_moments(a, b, c, total):
    """``L_r = (a − c) / (a − b²/ΣD)`` with +inf where the denominator vanishes (constant columns)."""
    denom = a - b * b / total
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (a - c) / denom
    return np.where(denom > 1e-12 * np.maximum(a, 1e-300), score, np.inf)


def class_graph_scores(X, y):
    """``L_r`` on the class graph (:func:`class_graph`) without its ``n × n`` matrix.

    On the class graph every degree is 1, so ``a = Σ f_i²``, ``b = Σ f_i``, ``ΣD = n`` and
    ``c = f_rᵀ S f_r = Σ_c (Σ_{i∈c} f_i)² / n_c``: ``L_r`` is the within-class sum of squares over
    the total one, ``1 / (1 + F (C − 1)/(n − C))`` with ``F`` the one-way ANOVA statistic, so it
    ranks features exactly as scikit-learn's :func:`~sklearn.feature_selection.f_classif`
    (smallest ``L_r`` = largest ``F``; ``tests/test_l1linf_baselines.py`` checks both).  It is
    computed here rather than from ``f_classif`` to keep the Laplacian score's own values (chapter
    2 reports them) and its rule for constant columns (+inf, no warning).  ``X`` dense or sparse;
    memory ``O(C d)``.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [0.0, 3.0], [2.0, 2.0], [2.0, 2.0]])
    >>> class_graph_scores(X, [0, 0, 1, 1]).tolist()
    [0.0, 1.0]
    """
    _, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    Y = sp.csr_matrix((np.ones(codes.size), (np.arange(codes.size), codes)), shape=(codes.size, counts.size))
    if sp.issparse(X):
        a = np.asarray(X.multiply(X).sum(axis=0)).ravel()
        b = np.asarray(X.sum(axis=0)).ravel()
        sums = np.asarray((Y.T @ X).todense())
    else:
        a = np.einsum("ij,ij->j", X, X)
        b = X.sum(axis=0)
        sums = np.asarray(Y.T @ X)
    c = ((sums * sums) / counts[:, None]).sum(axis=0)
    return _scores_from_moments(a, b, c, float(codes.size))


class LaplacianScore(SupportSelectorMixin, BaseEstimator):
    """Keep the features with the smallest Laplacian score (He et al. 2005).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
    graph : {"class", "knn"}, default "class"
        Supervised class graph or the unsupervised heat-kernel kNN graph.
    n_neighbors : int, default 5 (``graph="knn"``)

    Attributes
    ----------
    scores_ : ndarray, ``L_r`` (smaller is better)
    support_ : boolean mask

    See Also
    --------
    fsbook.baselines.Relief : another filter baseline of Table 1 of [2]_.
    fsbook.l1linf.LDFS : the ℓ1/ℓ∞ LDA selector; the supervised Laplacian score is a monotone
        function of the Fisher score.

    References
    ----------
    .. [1] He, X., Cai, D. and Niyogi, P. (2005). Laplacian Score for Feature Selection.
       Advances in Neural Information Processing Systems 18. ``references.bib``:
       ``he2005laplacian``.
    .. [2] Masaeli, M., Fung, G. and Dy, J. G. (2010). From Transformation-Based Dimensionality
       Reduction to Feature Selection. Proceedings of the 27th International Conference on
       Machine Learning (ICML). ``references.bib``: ``masaeli2010transformation``.
       A baseline of its Table 1.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.baselines import LaplacianScore
    >>> sel = LaplacianScore(n_features_to_select=2).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "graph": [StrOptions({"class", "knn"})],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_features_to_select=None, *, graph="class", n_neighbors=5):
        self.n_features_to_select = n_features_to_select
        self.graph = graph
        self.n_neighbors = n_neighbors

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Score every feature and keep the ``n_features_to_select`` smallest.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, codes = self._validate_classes(X, y)
        k = self._resolve_k(X.shape[1])
        if self.graph == "class":
            self.scores_ = class_graph_scores(X, codes)             # no n x n array
        else:
            if self.n_neighbors >= X.shape[0]:
                raise ValueError(f"n_neighbors={self.n_neighbors} must be below n_samples={X.shape[0]}")
            self.scores_ = laplacian_scores(X, heat_knn_graph(X, self.n_neighbors, sparse=True))
        self._keep_top(-self.scores_, k)
        return self

"""Reducers of the face experiments (Zhang & Schneider 2010, Section 3.3).

* :class:`GeneralizedDiscriminantAnalysis` -- kernel multi-class Fisher discriminant
  (Baudat & Anouar 2000): linear in the kernel feature space, so it is a kernel reducer ``P``.
* :class:`OrthogonalLaplacianfaces` -- orthogonal locality preserving projections (Cai, He,
  Han & Zhang 2006): linear in the input space, used with a kernel SVM through the
  Section 2.5 trick.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.metrics.pairwise import PAIRWISE_KERNEL_FUNCTIONS, pairwise_kernels
from sklearn.preprocessing import KernelCenterer
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import Interval, StrOptions, fit_context

__all__ = ["GeneralizedDiscriminantAnalysis", "OrthogonalLaplacianfaces"]


def _labels(y):
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"need at least 2 classes, got {classes.size} class")
    return classes, codes


def _class_graph_scatters(Xh, codes):
    """``S = X̂ᵀDX̂`` and ``T = X̂ᵀLX̂`` of the supervised graph, without its ``m × m`` matrices.

    ``W_ij = 1`` for distinct ``i, j`` of one class, so ``(W X̂)_i`` is the sum of ``x̂_i``'s class
    minus ``x̂_i`` and ``D_ii = m_c − 1``: ``L X̂ = D X̂ − W X̂`` from the ``c`` class sums.
    """
    counts = np.bincount(codes)
    sums = np.zeros((counts.size, Xh.shape[1]))
    np.add.at(sums, codes, Xh)
    Dg = (counts - 1.0)[codes]
    DX = Dg[:, None] * Xh
    return Xh.T @ DX, Xh.T @ (DX - (sums[codes] - Xh))


class GeneralizedDiscriminantAnalysis(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Generalized discriminant analysis: multi-class Fisher discriminant in a kernel space.

    The centred training points are written in the kernel-PCA basis ``Φ̃ = U Λ^{1/2}``
    (``H K H = U Λ Uᵀ``).  There the total scatter is ``Λ`` and the between-class scatter
    ``S_B = Φ̃ᵀ W Φ̃`` with ``W_ij = 1/m_c`` for ``i, j`` in class ``c``; the discriminant
    directions solve ``S_B a = λ (Λ + ε λ_max I) a`` (largest ``λ``).  A new point is mapped by
    its centred kernel row: ``z(x) = k_c(x)ᵀ U Λ^{-1/2} a``, i.e. a linear map ``P`` of ``φ(x)``.

    Parameters
    ----------
    n_components : int or None, default=None
        ``d``; at most (number of classes − 1), the default.
    kernel, degree, gamma, coef0 : kernel (as :func:`sklearn.metrics.pairwise_kernels` and
        :class:`sklearn.decomposition.KernelPCA`; ``gamma`` is the kernel coefficient).
    reg : float, default=1e-8
        Relative ridge ``ε`` on the total scatter.

    See Also
    --------
    fsbook.projection.OrthogonalLaplacianfaces : the other supervised reducer of Tables 5-7.
    fsbook.projection.ProjectionPenaltySVC : the kernel SVM penalised towards its directions
        (Proj-GDA).

    Notes
    -----
    ``X`` may be sparse (CSR): it enters only through the kernel matrices of
    ``pairwise_kernels``, which takes sparse input; the method itself works on the ``m × m``
    kernel matrix, as every kernel method.

    References
    ----------
    .. [1] Baudat, G. and Anouar, F. (2000). Generalized discriminant analysis using a kernel
       approach. Neural Computation, 12(10), as cited by [2]_ (not in ``references.bib``).
    .. [2] Zhang, Y. and Schneider, J. (2010). Projection Penalties: Dimension Reduction
       without Loss. Proceedings of the 27th International Conference on Machine Learning
       (ICML). ``references.bib``: ``zhang2010projection``.

    Examples
    --------
    Iris in the two discriminant directions of a quadratic kernel, then a 1-nearest-neighbour rule:

    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.pipeline import make_pipeline
    >>> from fsbook.projection import GeneralizedDiscriminantAnalysis
    >>> X, y = load_iris(return_X_y=True)
    >>> GeneralizedDiscriminantAnalysis().fit_transform(X, y).shape    # classes - 1 components
    (150, 2)
    >>> knn = make_pipeline(GeneralizedDiscriminantAnalysis(), KNeighborsClassifier(1))
    >>> round(knn.fit(X[::2], y[::2]).score(X[1::2], y[1::2]), 2)     # 74 of 75 test flowers
    0.99
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "kernel": [StrOptions(set(PAIRWISE_KERNEL_FUNCTIONS)), callable],
        "degree": [Interval(Real, 0, None, closed="left")],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "coef0": [Real],
        "reg": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_components=None, *, kernel="poly", degree=2, gamma=1.0, coef0=1.0,
                 reg=1e-8):
        self.n_components = n_components
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.reg = reg

    def _kernel(self, X, Y):
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, degree=self.degree,
                                coef0=self.coef0, gamma=self.gamma)

    @property
    def _n_features_out(self):
        return self.n_components_

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the discriminant directions on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (m, n)
            Training data.
        y : array-like of shape (m,)
            Class labels, at least two classes.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        classes, codes = _labels(y)
        d = classes.size - 1 if self.n_components is None else self.n_components
        if not 1 <= d <= classes.size - 1:
            raise ValueError(f"n_components must be in [1, {classes.size - 1}], got {self.n_components}")
        K = self._kernel(X, X)
        if not np.all(np.isfinite(K)):
            raise ValueError(f"{type(self).__name__}: the {self.kernel!r} kernel matrix of X overflows "
                             f"(largest |x| = {float(abs(X).max()):.3g}); standardise X (e.g. "
                             "StandardScaler) or change the kernel parameters")
        self.centerer_ = KernelCenterer().fit(K)
        Kc = self.centerer_.transform(K)
        lam, U = np.linalg.eigh((Kc + Kc.T) / 2)
        if not lam.max() > 0:
            raise ValueError(
                f"{type(self).__name__}: the centred kernel matrix is zero, so all {X.shape[0]} samples "
                f"have the same image under the {self.kernel!r} kernel (constant X, or features so small "
                "or so large for this kernel that every point looks alike) and there is no direction to "
                "discriminate along; remove constant features, standardise X, or change the kernel "
                "parameters")
        keep = lam > 1e-10 * max(lam.max(), 1e-300)
        lam, U = lam[keep], U[:, keep]
        F = U * np.sqrt(lam)  # Φ̃, coordinates of the centred points
        onehot = (codes[:, None] == np.arange(classes.size)[None, :]).astype(float)
        M = onehot / onehot.sum(axis=0)  # class averaging
        means = M.T @ F  # (c, r) class means
        counts = onehot.sum(axis=0)
        SB = (means * counts[:, None]).T @ means
        ST = np.diag(lam + self.reg * lam.max())
        w, A = scipy.linalg.eigh(SB, ST)
        A = A[:, ::-1][:, :d]
        self.eigenvalues_ = w[::-1][:d]
        self.dual_coef_ = (U / np.sqrt(lam)) @ A  # (m, d)
        self.X_fit_ = X
        self.n_components_ = d
        return self

    def transform(self, X):
        """Coordinates ``z = Pφ(x)`` of ``X`` on the discriminant directions.

        Parameters
        ----------
        X : array-like of shape (m', n)

        Returns
        -------
        ndarray of shape (m', n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False, dtype=np.float64)
        return self.centerer_.transform(self._kernel(X, self.X_fit_)) @ self.dual_coef_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class OrthogonalLaplacianfaces(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Orthogonal Laplacianfaces (orthogonal locality preserving projections, Cai et al. 2006).

    Steps: (1) PCA to the non-null principal subspace (``x̂ = V_pcaᵀ(x − x̄)``); (2) supervised
    graph ``W_ij = 1`` for distinct ``i, j`` of the same class, ``D = diag(W 1)``, ``L = D − W``;
    (3) with ``S = X̂ᵀ D X̂`` and ``T = X̂ᵀ L X̂``, basis vectors ``a_1, a_2, …`` each minimising
    ``aᵀTa / aᵀSa`` subject to ``a ⊥ a_1 … a_{k−1}``.  Cai et al. obtain ``a_k`` as the smallest
    eigenvector of ``{I − S^{-1}A(AᵀS^{-1}A)^{-1}Aᵀ} S^{-1} T``; we solve the same constrained
    Rayleigh quotient in an orthonormal basis ``N`` of ``span(A)^⊥`` (``NᵀTN c = λ NᵀSN c``),
    which is symmetric and numerically safer.

    Parameters
    ----------
    n_components : int, default=2
    pca_tol : float, default=1e-10
        Relative eigenvalue threshold of the PCA step.
    reg : float, default=1e-10
        Relative ridge on ``S``.

    See Also
    --------
    fsbook.projection.GeneralizedDiscriminantAnalysis : the kernel reducer of Tables 5-7.
    fsbook.projection.ProjectionPenaltySVC : the kernel SVM penalised towards its directions
        (Proj-OLap, through the trick of Section 2.5).

    Notes
    -----
    ``X`` may be sparse (CSR).  Then neither the centred ``m × n`` matrix nor the ``n × r`` PCA
    basis is formed: the PCA step diagonalises the centred ``m × m`` Gram matrix (``X̂ = U Σ``, of
    the size of ``X̂`` itself), the graph's ``T = X̂ᵀLX̂`` comes from the class sums of ``X̂``
    (``W X̂`` is a row's class sum minus the row), and the basis is mapped back as
    ``Xcᵀ U Σ⁻¹ A`` with sparse products.  The components agree with those of the dense ``X`` up to
    the sign of each one (an eigenvector's sign is arbitrary), where the problem has a unique
    solution; where the smallest eigenvalue of ``T`` is repeated (few images per class, Yale) any
    basis of its eigenspace is a solution, and the two paths may pick different ones (the same
    subspace, so the same ``Z Zᵀ``).  A dense ``X`` keeps the ``m × m`` graph of the book's fits.

    References
    ----------
    .. [1] Cai, D., He, X., Han, J. and Zhang, H.-J. (2006). Orthogonal Laplacianfaces for face
       recognition. IEEE Transactions on Image Processing, 15(11), as cited by [2]_ (not in
       ``references.bib``).
    .. [2] Zhang, Y. and Schneider, J. (2010). Projection Penalties: Dimension Reduction
       without Loss. Proceedings of the 27th International Conference on Machine Learning
       (ICML). ``references.bib``: ``zhang2010projection``.

    Examples
    --------
    Handwritten digits (64 pixels) in 20 orthogonal locality-preserving directions:

    >>> from sklearn.datasets import load_digits
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.pipeline import make_pipeline
    >>> from fsbook.projection import OrthogonalLaplacianfaces
    >>> X, y = load_digits(return_X_y=True)
    >>> olf = OrthogonalLaplacianfaces(n_components=20).fit(X[:500], y[:500])
    >>> olf.transform(X[500:]).shape
    (1297, 20)
    >>> knn = make_pipeline(OrthogonalLaplacianfaces(n_components=20), KNeighborsClassifier(1))
    >>> round(knn.fit(X[:500], y[:500]).score(X[500:], y[500:]), 3)   # fraction of 1297 test digits
    0.885
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "pca_tol": [Interval(Real, 0, None, closed="left")],
        "reg": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_components=2, *, pca_tol=1e-10, reg=1e-10):
        self.n_components = n_components
        self.pca_tol = pca_tol
        self.reg = reg

    @property
    def _n_features_out(self):
        return self.n_components_

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the orthogonal basis on ``(X, y)`` (supervised graph).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (m, n)
            Training data.
        y : array-like of shape (m,)
            Class labels, at least two classes.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        _, codes = _labels(y)
        if sp.issparse(X):
            self.mean_ = np.asarray(X.mean(axis=0)).ravel()
            Xh, back = self._pca_sparse(X)
        else:
            self.mean_ = X.mean(axis=0)
            Xc = X - self.mean_
            _, s, Vt = np.linalg.svd(Xc, full_matrices=False)
            Xh, back = self._pca_dense(Xc, s, Vt)
        r = Xh.shape[1]
        d = self.n_components
        if r == 0:
            raise ValueError("OrthogonalLaplacianfaces: every column of X is constant (the centred "
                             "data has rank 0), so there is no direction to project on")
        if not 1 <= d <= r:
            raise ValueError(f"n_components must be in [1, {r}] (rank of the centred data), got {d}")
        if not (np.bincount(codes) > 1).any():
            raise ValueError("OrthogonalLaplacianfaces: every class of y has a single sample, so the "
                             "supervised graph (edges between samples of one class) is empty; it needs "
                             "at least one class with two or more samples")
        if sp.issparse(X):
            S, T = _class_graph_scatters(Xh, codes)
        else:                               # the m × m graph, as fitted for the stored results
            W = (codes[:, None] == codes[None, :]).astype(float)
            np.fill_diagonal(W, 0.0)
            Dg = W.sum(axis=1)
            L = np.diag(Dg) - W
            S = Xh.T @ (Dg[:, None] * Xh)
            T = Xh.T @ L @ Xh
        if not np.trace(S) > 0:
            raise ValueError("OrthogonalLaplacianfaces: the samples that share their class with "
                             "another sample all lie at the mean of X, so S = X̂ᵀDX̂ is zero; the "
                             "classes with two or more samples must vary")
        S = S + self.reg * np.trace(S) / r * np.eye(r)
        A = np.zeros((r, 0))
        for _ in range(d):
            if A.shape[1]:
                N = scipy.linalg.null_space(A.T)
            else:
                N = np.eye(r)
            St, Tt = N.T @ S @ N, N.T @ T @ N
            _, C = scipy.linalg.eigh((Tt + Tt.T) / 2, (St + St.T) / 2, subset_by_index=[0, 0])
            a = N @ C[:, 0]
            a /= np.linalg.norm(a)
            A = np.hstack([A, a[:, None]])
        self.components_ = back(A)  # (d, n), orthonormal rows
        self.n_components_ = d
        return self

    def _pca_dense(self, Xc, s, Vt):
        """PCA coordinates ``X̂ = Xc V`` (m × r) and the map ``A ↦ (V A)ᵀ`` back to the input space."""
        r = int(np.sum(s > np.sqrt(self.pca_tol) * max(s.max(), 1e-300))) if s.size else 0
        V = Vt[:r].T
        return Xc @ V, lambda A: (V @ A).T

    def _pca_sparse(self, X):
        """As :meth:`_pca_dense` for a sparse ``X``, from the centred ``m × m`` Gram matrix.

        ``Xc Xcᵀ = U Σ² Uᵀ`` gives ``X̂ = U Σ`` (the same coordinates as ``Xc V`` up to the sign of
        each column) and ``V = Xcᵀ U Σ⁻¹``; ``Xc`` (dense ``m × n``) and ``V`` (``n × r``) are never
        formed: ``(V A)ᵀ = (Xᵀ B − x̄ 1ᵀB)ᵀ`` with ``B = U Σ⁻¹ A``.
        """
        Xmu = np.asarray(X @ self.mean_).ravel()
        G = np.asarray((X @ X.T).todense())
        G -= Xmu[:, None]
        G -= Xmu[None, :]
        G += self.mean_ @ self.mean_
        lam, U = np.linalg.eigh((G + G.T) / 2)
        lam, U = lam[::-1], U[:, ::-1]
        s = np.sqrt(np.maximum(lam, 0.0))
        r = int(np.sum(s > np.sqrt(self.pca_tol) * max(s.max(), 1e-300))) if s.size else 0
        U, s = U[:, :r], s[:r]

        def back(A):
            B = (U / s) @ A
            return (np.asarray(X.T @ B) - np.outer(self.mean_, B.sum(axis=0))).T
        return U * s, back

    def transform(self, X):
        """Coordinates of ``X`` on the orthogonal Laplacianfaces.

        Parameters
        ----------
        X : array-like of shape (m', n)

        Returns
        -------
        ndarray of shape (m', n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False, dtype=np.float64)
        if sp.issparse(X):
            return np.asarray(X @ self.components_.T) - self.mean_ @ self.components_.T
        return (X - self.mean_) @ self.components_.T

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

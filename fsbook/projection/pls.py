"""PLS directions that stop where the Krylov space is exhausted: Proj-PLS's reducer.

* :func:`krylov_rank` -- how many components of a fitted ``PLSRegression`` come before its
  Krylov space is exhausted.
* :class:`ExhaustedSafePLS` -- a transformer onto those PLS directions only.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.cross_decomposition import PLSRegression
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import Interval, check_sample_weight, fit_context

__all__ = ["ExhaustedSafePLS", "krylov_rank"]

#: x-scores of norm at most this fraction of the largest are rounding noise
KRYLOV_RTOL = 1e-10


def _lift(Z):
    """``Q Z`` for ``Q`` of shape (m + 1, m) with orthonormal columns orthogonal to the ones
    vector: the first ``m`` columns of the Householder reflection that swaps ``e_{m+1}`` and
    ``1/√(m+1)``.  ``(QZ)ᵀ(QZ) = ZᵀZ`` and the columns of ``QZ`` sum to zero (to rounding)."""
    a = 1.0 / np.sqrt(Z.shape[0] + 1)
    total = Z.sum(axis=0)
    return np.vstack([Z - (a * a / (1.0 - a)) * total, a * total])


def krylov_rank(pls) -> int:
    """Components of a fitted ``PLSRegression`` before its Krylov space is exhausted.

    The space is exhausted at the first component whose x-scores have a norm of at most
    :data:`KRYLOV_RTOL` times the largest: deflation has reached rounding noise.

    Parameters
    ----------
    pls : sklearn.cross_decomposition.PLSRegression
        A fitted model.

    Returns
    -------
    int

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.cross_decomposition import PLSRegression
    >>> from fsbook.projection import krylov_rank
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(20, 3))
    >>> krylov_rank(PLSRegression(2, scale=False).fit(X, X @ [1.0, 2.0, 3.0]))
    2
    """
    norms = np.linalg.norm(pls.x_scores_, axis=0)
    vanished = np.flatnonzero(norms <= KRYLOV_RTOL * norms.max())
    return int(vanished[0]) if vanished.size else norms.size


class ExhaustedSafePLS(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """PLS directions (``PLSRegression(scale=False)``) that stop where the Krylov space is
    exhausted: Proj-PLS's reducer in Table 1 of Zhang & Schneider (2010).

    Past that point scikit-learn's further components are directions of rounding noise, which
    differ from machine to machine (and with the memory alignment of the arrays); the projection
    penalty built from them would too.  With ``n_components`` beyond the exhaustion point the
    reducer keeps the components before it (:func:`krylov_rank`), which span the same Krylov
    space.

    Sparse ``X`` is refused: PLS centres ``X`` and deflates it after every component
    (``X ← X − t pᵀ``), so it works on a dense ``m × n`` matrix whatever the input; densify with
    ``X.toarray()`` if that fits in memory, or reduce a large sparse ``X`` first with
    :class:`~sklearn.decomposition.TruncatedSVD`, which takes sparse input.

    Parameters
    ----------
    n_components : int, default=2
        The most components to keep.

    Attributes
    ----------
    n_kept_ : int
        Components kept (at most ``n_components``).
    pls_ : sklearn.cross_decomposition.PLSRegression
        The fitted PLS model with ``n_kept_`` components.
    n_features_in_ : int

    See Also
    --------
    fsbook.projection.ProjectionPenalty : Proj-PLS of Table 1 is a ``ProjectionPenalty`` of ``Ridge``
        with this reducer.

    Notes
    -----
    Sample weights.  ``PLSRegression(scale=False)`` sees the data only through the centred
    matrices ``Xc = X − 1x̄ᵀ``, ``Yc = Y − 1ȳᵀ``: each component's weights come from ``Xcᵀ Yc``
    (by the power method), its scores ``t = Xc u`` enter only through inner products
    (``p = Xcᵀ t / tᵀt``, ``q = Ycᵀ t / tᵀt``) and deflation ``Xc ← Xc − t pᵀ`` keeps that form.
    Repeating sample ``i`` ``w_i`` times (integer ``w``) gives the weighted means
    ``x̄_w = Σ w_i x_i / Σ w_i`` and ``ȳ_w``, the weighted products
    ``Xcᵀ Yc = Σ w_i (x_i − x̄_w)(y_i − ȳ_w)ᵀ`` and ``Xcᵀ Xc = Σ w_i (x_i − x̄_w)(x_i − x̄_w)ᵀ``,
    and ``tᵀt = Σ w_i t_i²`` for every score: these define the weighted fit for any
    non-negative ``w``.  ``fit`` computes it with scikit-learn's own PLS on ``m' + 1`` rows
    (``m'`` samples of positive weight): with ``Z = diag(√w)(X − 1x̄_wᵀ)`` and ``Q``
    (``(m'+1) × m'``, ``QᵀQ = I``, ``1ᵀQ = 0``; the columns of a Householder reflection) the
    rows ``QZ + 1x̄_wᵀ`` have mean ``x̄_w`` and centred products ``ZᵀZ`` (likewise for ``Y``),
    and every step above commutes with ``Q``.  So the weights, loadings, rotations,
    coefficients, the score norms that decide exhaustion (:func:`krylov_rank`) and the transform
    are those of the repeated rows (to rounding: ~1e-15 in the tests), a zero weight drops a
    sample, and weights of ones give the unweighted fit to rounding.  ``pls_.x_scores_`` and
    ``pls_.y_scores_`` are then the scores of the ``m`` training samples
    (``x_scores_ = (X − 1x̄_wᵀ) x_rotations_``), not of the ``m' + 1`` rows.  With
    ``sklearn.set_config(enable_metadata_routing=True)``, ``set_fit_request(sample_weight=True)``
    routes the weights from a Pipeline.

    References
    ----------
    .. [1] Zhang, Y. and Schneider, J. (2010). Projection Penalties: Dimension Reduction
       without Loss. Proceedings of the 27th International Conference on Machine Learning
       (ICML). ``references.bib``: ``zhang2010projection``. Table 1 (PLS and Proj-PLS).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.projection import ExhaustedSafePLS
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.normal(size=(20, 3))
    >>> X = np.linalg.qr(Z - Z.mean(axis=0))[0]   # centred, XᵀX = I: a 1-dimensional Krylov space
    >>> pls = ExhaustedSafePLS(3).fit(X, X @ [1.0, 2.0, 3.0])
    >>> pls.n_kept_, pls.transform(X).shape
    (1, (20, 1))

    The output columns are new directions, named after the class as scikit-learn's
    ``PLSRegression`` names its own (one name per kept component), so ``set_output`` works:

    >>> pls.get_feature_names_out().tolist()
    ['exhaustedsafepls0']
    >>> ExhaustedSafePLS(2).set_output(transform="pandas").fit_transform(Z, Z[:, 0] ** 2).columns.tolist()
    ['exhaustedsafepls0', 'exhaustedsafepls1']
    """

    _parameter_constraints: dict = {"n_components": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, n_components=2):
        self.n_components = n_components

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    @property
    def _n_features_out(self):
        """Number of output columns, for ``get_feature_names_out`` (the kept components)."""
        return self.n_kept_

    def _refuse_sparse(self, X):
        if sp.issparse(X):
            raise TypeError(
                f"{type(self).__name__} does not accept sparse X: PLS centres X and deflates it after "
                "every component (X <- X - t p^T), a dense m x n matrix whatever the input; densify "
                "with X.toarray() if it fits in memory, or reduce X first with "
                "sklearn.decomposition.TruncatedSVD, which takes sparse input")

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit PLS with ``n_components``, then refit with the components before exhaustion.

        Parameters
        ----------
        X : array-like of shape (m, n)
            Training data (dense).
        y : array-like of shape (m,) or (m, k)
            Targets.
        sample_weight : array-like of shape (m,), default=None
            Non-negative weights: the means and the covariances ``Σ w_i (x_i − x̄_w)(y_i − ȳ_w)ᵀ``
            of every component and deflation are weighted (see Notes), so integer weights give
            the fit of the repeated samples; None weights every sample 1 (scikit-learn's
            ``PLSRegression`` itself, unchanged).

        Returns
        -------
        self : object
            The fitted estimator.
        """
        self._refuse_sparse(X)
        y_arr = np.asarray(y)
        if y_arr.dtype.kind in "USO":
            try:
                y_arr.astype(np.float64)
            except (TypeError, ValueError):
                raise ValueError(
                    "ExhaustedSafePLS regresses X on y, so y must be numeric; got labels of dtype "
                    f"{y_arr.dtype}: encode them first (e.g. sklearn.preprocessing.LabelBinarizer "
                    "for one column per class)") from None
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True, y_numeric=True,
                             ensure_min_samples=2)
        if sample_weight is not None:
            return self._fit_weighted(X, y, check_sample_weight(sample_weight, X, ensure_non_negative=True))
        self._check_pls_input(X, y.reshape(X.shape[0], -1))
        try:
            pls = PLSRegression(self.n_components, scale=False).fit(X, y)
        except ValueError as err:     # a score of exactly zero: the residual of X vanished
            rank = np.linalg.matrix_rank(X - X.mean(axis=0))
            raise ValueError(
                f"ExhaustedSafePLS: PLSRegression failed with n_components = {self.n_components}: the "
                f"residual of X vanished before the last component (the centred X has rank {rank}); "
                "choose a smaller n_components") from err
        self.n_kept_ = max(1, krylov_rank(pls))
        if self.n_kept_ < self.n_components:
            pls = PLSRegression(self.n_kept_, scale=False).fit(X, y)
        self.pls_ = pls
        return self

    def _check_pls_input(self, X, Y, weighted=False):
        """Refuse an X or Y whose columns are all constant (over the samples of positive weight),
        and more components than features."""
        over, check = (" over the samples of positive weight", "the data and the weights") if weighted \
            else ("", "the data")
        for name, A in (("X", X), ("y", Y)):
            if np.all(A == A[0]):
                raise ValueError(f"ExhaustedSafePLS: every column of {name} is constant{over}, so PLS has "
                                 "no direction that covaries with the other; remove constant features "
                                 f"or check {check}")
        if self.n_components > X.shape[1]:
            raise ValueError(f"n_components = {self.n_components} exceeds the {X.shape[1]} feature(s) of X")

    def _fit_weighted(self, X, y, sample_weight):
        """:meth:`fit` with weights: scikit-learn's PLS on the lifted rows of the samples of
        positive weight (Notes), then the training samples' own scores."""
        positive = sample_weight > 0
        Xp, w = X[positive], sample_weight[positive]
        Y = y.reshape(X.shape[0], -1)
        Yp = Y[positive]
        self._check_pls_input(Xp, Yp, weighted=True)
        x_mean, y_mean = np.average(Xp, axis=0, weights=w), np.average(Yp, axis=0, weights=w)
        root = np.sqrt(w)[:, None]
        Xl = _lift(root * (Xp - x_mean)) + x_mean
        Yl = _lift(root * (Yp - y_mean)) + y_mean
        if y.ndim == 1:
            Yl = Yl.ravel()
        # the lifted rows number m' + 1, and the weighted centred X has rank at most m' - 1, so a
        # component past m' + 1 would be past exhaustion anyway
        first = min(self.n_components, Xl.shape[0])
        try:
            pls = PLSRegression(first, scale=False).fit(Xl, Yl)
        except ValueError as err:     # a score of exactly zero: the residual of X vanished
            rank = np.linalg.matrix_rank(root * (Xp - x_mean))
            raise ValueError(
                f"ExhaustedSafePLS: PLSRegression failed with n_components = {self.n_components}: the "
                f"residual of X vanished before the last component (the weighted centred X has rank "
                f"{rank}); choose a smaller n_components") from err
        self.n_kept_ = max(1, krylov_rank(pls))     # norms √(Σ w_i t_i²), as of the repeated rows
        if self.n_kept_ < first:
            pls = PLSRegression(self.n_kept_, scale=False).fit(Xl, Yl)
        # the scores of the training samples (not of the lifted rows), deflating y as PLS does
        T = (X - x_mean) @ pls.x_rotations_
        Yk = Y - y_mean
        U = np.zeros_like(T)
        for k in range(T.shape[1]):
            c = pls.y_weights_[:, k]
            U[:, k] = Yk @ c / (c @ c)
            Yk = Yk - np.outer(T[:, k], pls.y_loadings_[:, k])
        pls.x_scores_, pls.y_scores_ = T, U
        self.pls_ = pls
        return self

    def transform(self, X):
        """The x-scores of ``X`` on the kept PLS directions.

        Parameters
        ----------
        X : array-like of shape (m', n)

        Returns
        -------
        ndarray of shape (m', n_kept_)
        """
        check_is_fitted(self)
        self._refuse_sparse(X)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.pls_.transform(X)

"""Xing, Ng, Jordan & Russell (2002) metric learning ("MMC"), full Mahalanobis matrix.

Problem (Xing et al., eq. 3–5): with similar pairs ``S`` and dissimilar pairs ``D``,

.. math::

   \\max_{A ⪰ 0} \\sum_{(i,j)∈D} \\|x_i - x_j\\|_A
   \\quad\\text{s.t.}\\quad \\sum_{(i,j)∈S} \\|x_i - x_j\\|_A^2 ≤ 1 .

The objective is concave and positively homogeneous of degree 1/2 in ``A`` and the optimum
lies on the constraint's boundary, so the problem equals the maximisation of the scale-free ratio
:math:`\\sum_D \\|L(x_i-x_j)\\| / (\\sum_S \\|L(x_i-x_j)\\|^2)^{1/2}` over a square factor
``A = LᵀL``; we maximise it by L-BFGS (SciPy) from ``L = I`` and rescale ``A`` onto the
boundary.  Xing et al. use projected gradient ascent with alternating projections instead; we
found our first attempt at that (rescaling as the projection) stalled on the PSD boundary, and
the factored form is both simpler and checked against cvxpy on small cases.

Written by hand because metric-learn 0.7.0, which implements it, fails with scikit-learn 1.9
(``check_X_y`` no longer takes ``force_all_finite``).  Tested against cvxpy on small cases.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import Interval, fit_context
from fsbook._cost import check_cost

__all__ = ["MMC", "MMCSupervised", "UnboundedMetricError", "mmc_objective", "pairs_from_labels"]

#: eigenvalues of the similar pairs' scatter below this fraction of the largest are zero
NULL_RTOL = 1e-10
#: pair differences formed at once by :meth:`MMC.fit` (pairs × features), about 2 MB of float64
BLOCK_ELEMENTS = 2 ** 18


class UnboundedMetricError(ValueError):
    """Xing et al.'s problem has no solution: its objective is unbounded on these pairs."""


def check_bounded(C, diff_dissimilar):
    """Raise :class:`UnboundedMetricError` when Xing et al.'s problem is unbounded.

    ``C = Σ_S d dᵀ`` is the similar pairs' scatter (computed once by :meth:`MMC.fit`).  A
    direction ``v`` with ``Cv = 0`` but ``vᵀd ≠ 0`` for a dissimilar pair lets ``A = t vvᵀ``
    satisfy the constraint for every ``t`` while the objective grows like ``√t``: there is no
    optimum, and an iterative solver stops wherever its tolerance falls, a different metric on
    every machine.  Happens when features are constant within
    every similar pair but differ between dissimilar ones (Soybean Small).  ``C``'s null space is
    its eigenvalues below :data:`NULL_RTOL` times the largest (a clean gap: ~1e-16 against
    ≥ 1e-6 on the book's data sets); a dissimilar difference is in it when its component there
    exceeds ``1e-8`` of its norm.
    """
    null = _null_directions(C)
    if null.shape[1] == 0:
        return
    _raise_if_unbounded(null.shape[1], _n_escaping(diff_dissimilar, diff_dissimilar @ null),
                        diff_dissimilar.shape[0])


def _null_directions(C):
    """An orthonormal basis of the null space of ``C`` (eigenvalues ≤ :data:`NULL_RTOL` × largest)."""
    w, V = np.linalg.eigh(C)
    return V[:, w <= NULL_RTOL * w.max()]


def _n_escaping(diff, diff_null):
    """How many rows ``d`` of ``diff`` have a component in the null space (``diff_null = d N``)
    above ``1e-8`` of their norm."""
    part = np.linalg.norm(diff_null, axis=1)
    full = np.sqrt(np.asarray(diff.multiply(diff).sum(axis=1)).ravel()) if sp.issparse(diff) else \
        np.linalg.norm(diff, axis=1)
    return int(np.sum(part > 1e-8 * np.maximum(full, 1e-300)))


def _raise_if_unbounded(n_null, n_bad, n_dissimilar):
    if n_bad:
        raise UnboundedMetricError(
            f"MMC's problem is unbounded: the similar pairs do not vary along {n_null} "
            f"direction(s) in which {n_bad} of {n_dissimilar} dissimilar pairs differ, so "
            "the metric can grow there without limit (Xing et al.'s problem has no optimum)")




#: floating-point operations per CPU second assumed by the cost estimate of :func:`check_mmc_cost`
FLOPS_PER_SECOND = 1e10
#: objective evaluations assumed by the cost estimate (L-BFGS from ``L = I``; up to ``max_iter``)
NOMINAL_EVALUATIONS = 50


def check_mmc_cost(name, n_pairs, n_dissimilar, d, *, pair_bytes, shape):
    """Refuse at once (:func:`fsbook._cost.check_cost`) a fit of Xing et al.'s metric out of reach.

    Every evaluation of the ratio maximised by L-BFGS costs about ``4 |D| d² + 2 d³``
    floating-point operations (``L d`` for every dissimilar pair ``d``, its gradient, ``L C``),
    and the solver holds ``d²``-vectors (the metric's factor, its gradient and L-BFGS's ten
    correction pairs): the time is estimated from :data:`NOMINAL_EVALUATIONS` evaluations at
    :data:`FLOPS_PER_SECOND`, the memory from ``pair_bytes`` (the pair differences) and
    ``24 d²`` doubles.
    """
    flops = NOMINAL_EVALUATIONS * (4.0 * n_dissimilar * d * d + 2.0 * d ** 3)
    check_cost(name, shape, seconds=flops / FLOPS_PER_SECOND, nbytes=pair_bytes + 8.0 * 24 * d * d,
               why=f"Xing et al.'s metric is a dense {d} x {d} matrix, fitted by L-BFGS on the "
                   f"differences of {n_pairs} pairs ({n_dissimilar} dissimilar), every step costing "
                   "about 4 |D| d² + 2 d³ operations",
               fix="reduce the features first (e.g. sklearn.decomposition.PCA to a few dozen "
                   "components) or use fewer pairs" + (" (fit on a subsample of the rows: the "
                                                       "pairs grow as n²)" if name == "MMCSupervised" else ""))


def _differences(pairs, keep):
    """``pairs[keep, 0] − pairs[keep, 1]`` (rows of ``keep``), a block of rows at a time: no
    temporary copy of all the kept pairs."""
    rows = np.flatnonzero(keep)
    out = np.empty((rows.size, pairs.shape[2]))
    step = max(1, BLOCK_ELEMENTS // max(pairs.shape[2], 1))
    for start in range(0, rows.size, step):
        r = rows[start:start + step]
        np.subtract(pairs[r, 0], pairs[r, 1], out=out[start:start + step])
    return out


def mmc_objective(A, diff_dissimilar):
    """:math:`\\sum_D \\sqrt{d^\\top A d}` for the rows ``d`` of ``diff_dissimilar``."""
    q = np.einsum("ij,jk,ik->i", diff_dissimilar, A, diff_dissimilar)
    return float(np.sum(np.sqrt(np.maximum(q, 0.0))))


class MMC(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Mahalanobis metric of Xing et al. (2002) from pairs, metric-learn conventions.

    ``fit(pairs, y)`` with ``pairs`` of shape ``(n, 2, d)`` and ``y`` in {+1 (similar),
    -1 (dissimilar)}.

    The metric is a dense ``d × d`` matrix and every L-BFGS step costs about
    ``4 |D| d² + 2 d³`` operations: ``fit`` refuses at once with a ``ValueError``
    (:func:`check_mmc_cost`) when that, or the memory, exceeds :data:`fsbook.LIMITS
    <fsbook._cost.LIMITS>` (on 10 000 features: a 10 000 × 10 000 metric); reduce the features
    first or raise the limits with :func:`fsbook.cost_limits`.

    Parameters
    ----------
    max_iter : int, default=1000
    tol : float, default=1e-9
        L-BFGS tolerance on the objective and the projected gradient.

    Attributes
    ----------
    A_ : ndarray (d, d)
        The learnt Mahalanobis matrix, PSD, with :math:`\\sum_S \\|x_i-x_j\\|_A^2 = 1`.
    components_ : ndarray (d, d)
        ``L`` with ``LᵀL = A_``; ``transform(X) = X Lᵀ``.
    objective_ : float
    n_iter_ : int

    See Also
    --------
    MMCSupervised : the same metric from ``(X, y)``, the pairs built from the class labels.
    fsbook.kernel_design.KernelDesign : the LP kernel design it is compared with in Figure 3 of
        [2]_.

    References
    ----------
    .. [1] Xing, E. P., Ng, A. Y., Jordan, M. I. and Russell, S. (2002). Distance Metric
       Learning, with Application to Clustering with Side-Information. Advances in Neural
       Information Processing Systems 15, 505-512. ``references.bib``: ``xing2002metric``.
    .. [2] Fung, G., Rosales, R. and Rao, R. B. (2007). Feature Selection and Kernel Design via
       Linear Programming. Proceedings of the 20th International Joint Conference on Artificial
       Intelligence (IJCAI). ``references.bib``: ``fung2007lp``.

    Examples
    --------
    Two classes that differ along the first coordinate only: the metric keeps that coordinate
    and all but drops the second one.

    >>> import numpy as np
    >>> from fsbook.baselines import MMC
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 10)
    >>> X = np.c_[y + 0.1 * rng.normal(size=20), rng.normal(size=20)]
    >>> i, j = np.triu_indices(20, 1)
    >>> pairs = np.stack([X[i], X[j]], axis=1)          # shape (190, 2, 2)
    >>> similar = np.where(y[i] == y[j], 1, -1)
    >>> mmc = MMC().fit(pairs, similar)
    >>> A = mmc.get_mahalanobis_matrix()
    >>> round(float(A[0, 0]), 2), bool(A[1, 1] < 1e-3 * A[0, 0])
    (0.77, True)
    >>> mmc.transform(X).shape
    (20, 2)

    The output columns are the learnt metric's coordinates ``L x``, new columns named after the
    class, so ``set_output`` gives a DataFrame:

    >>> mmc.get_feature_names_out().tolist()
    ['mmc0', 'mmc1']
    >>> mmc.set_output(transform="pandas").transform(X).columns.tolist()
    ['mmc0', 'mmc1']
    """

    _parameter_constraints = {
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, max_iter=1000, tol=1e-9):
        self.max_iter = max_iter
        self.tol = tol

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, pairs, y):
        """Learn the metric from similar and dissimilar pairs.

        Parameters
        ----------
        pairs : array-like of shape (n_pairs, 2, n_features)
            The two points of every pair.
        y : array-like of shape (n_pairs,)
            ``+1`` (similar) or ``-1`` (dissimilar) per pair; both must occur.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        pairs = np.asarray(pairs, dtype=np.float64)
        y = np.asarray(y)
        if pairs.ndim != 3 or pairs.shape[1] != 2:
            raise ValueError(f"pairs must have shape (n, 2, d), got {pairs.shape}")
        if y.shape != (pairs.shape[0],) or not np.all(np.isin(y, (-1, 1))):
            raise ValueError("y must hold one label in {-1, +1} per pair")
        if not np.all(np.isfinite(pairs)):
            raise ValueError("pairs contain NaN or infinity")
        if not (np.any(y == 1) and np.any(y == -1)):
            raise ValueError("MMC needs both similar (+1) and dissimilar (-1) pairs")
        n, d = pairs.shape[0], pairs.shape[2]
        check_mmc_cost("MMC", n, int(np.sum(y == -1)), d, pair_bytes=8.0 * n * d,
                       shape=f"{n} pairs of {d} features")
        dS, dD = _differences(pairs, y == 1), _differences(pairs, y == -1)
        C = dS.T @ dS
        del dS
        if np.trace(C) <= 0:
            raise ValueError("all similar pairs are identical points")
        check_bounded(C, dD)

        def dissimilar(L):
            U = dD @ L.T                                   # rows L d_k, k in D
            norms = np.sqrt(np.maximum(np.einsum("ij,ij->i", U, U), 1e-300))
            return norms.sum(), (U / norms[:, None]).T @ dD

        return self._solve(C, dissimilar, lambda A: mmc_objective(A, dD))

    def _solve(self, C, dissimilar, objective):
        """Maximise the ratio from ``L = I`` and set the fitted attributes.

        ``C`` is the similar pairs' scatter; ``dissimilar(L)`` returns ``Σ_D ‖L d‖`` and its
        gradient ``Σ_D (L d / ‖L d‖) dᵀ``; ``objective(A)`` returns ``Σ_D ‖d‖_A``.
        """
        d = C.shape[0]

        def neg_ratio(flat):
            L = flat.reshape(d, d)
            g, dg = dissimilar(L)
            LC = L @ C
            h = np.sqrt(max(np.sum(LC * L), 1e-300))
            dh = LC / h
            return -g / h, (-(dg * h - g * dh) / h ** 2).ravel()

        res = minimize(neg_ratio, np.eye(d).ravel(), jac=True, method="L-BFGS-B",
                       options={"maxiter": self.max_iter, "ftol": self.tol, "gtol": self.tol})
        L = res.x.reshape(d, d)
        A = L.T @ L
        A = (A + A.T) / 2 / np.sum(A * C)
        f = objective(A)
        n_iter = res.nit
        self.A_ = A
        w, V = np.linalg.eigh(A)
        self.components_ = (V * np.sqrt(np.maximum(w, 0.0))).T
        self.objective_ = f
        self.n_iter_ = n_iter
        self.n_features_in_ = d
        return self

    @property
    def _n_features_out(self):
        """Number of output columns, for ``get_feature_names_out`` (the rows of ``L``)."""
        return self.components_.shape[0]

    def get_mahalanobis_matrix(self):
        check_is_fitted(self)
        return self.A_

    def pair_distance(self, pairs):
        """:math:`\\|a - b\\|_A` for each pair of shape ``(n, 2, d)``."""
        check_is_fitted(self)
        pairs = np.asarray(pairs, dtype=np.float64)
        diff = pairs[:, 0] - pairs[:, 1]
        return np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", diff, self.A_, diff), 0.0))

    def transform(self, X):
        """``X Lᵀ``: points in the learnt metric's Euclidean coordinates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            ``X @ components_.T``.
        """
        check_is_fitted(self)
        return np.asarray(X, dtype=np.float64) @ self.components_.T


def pairs_from_labels(y):
    """Every pair ``i < j`` of samples, +1 when ``y_i = y_j`` (similar) and -1 otherwise.

    Returns ``(i, j, similar)``: the index arrays and the labels in {+1, -1}.
    """
    y = np.asarray(y)
    i, j = np.triu_indices(y.shape[0], 1)
    return i, j, np.where(y[i] == y[j], 1, -1)


class MMCSupervised(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """:class:`MMC` learnt from labelled points ``(X, y)``: pairs of one class are similar.

    The supervised sibling of the pair learner, as metric-learn's ``MMC_Supervised``: ``fit(X, y)``
    forms every pair of training points (:func:`pairs_from_labels`; metric-learn samples a
    random subset instead, we keep them all so the result has no seed), similar when both points
    have the same label, and fits :class:`MMC` on them; ``transform(X) = X Lᵀ``.

    Scale.  Xing et al.'s problem is homogeneous: the right-hand side 1 of the constraint
    :math:`\\sum_S \\|x_i-x_j\\|_A^2 ≤ 1` fixes only the scale of ``A``, not the metric's shape.
    With all ``O(n²)`` pairs of a data set that scale is tiny (on breast cancer, standardised,
    the output columns have standard deviation ≈ 5e-3), and a downstream estimator with a fixed
    regularisation (``LinearSVC(C=1)``) then learns nothing.  With ``rescale=True`` (default)
    ``A`` is multiplied by :math:`\\sum_S \\|x_i-x_j\\|^2` so that the similar pairs have the same
    total squared distance under ``A`` as under the identity metric (the input's scale: a metric
    that only re-weights directions keeps the within-class spread of ``X``); the learnt metric's
    shape, and every distance comparison, is that of :class:`MMC` (``mmc_.A_``).

    Cost.  Every pair is formed, ``n(n−1)/2`` of them, so the memory and the time grow as ``n²``:
    ``fit`` estimates both from ``n``, ``d`` and the class sizes (:func:`check_mmc_cost`) and
    raises a ``ValueError`` at once, before forming any pair, when they exceed
    :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute of CPU, 4 GiB; on 5 000 × 300 the
    pairs and their differences would take about 140 GiB).  Fit on a subsample of the rows, reduce the features first, or
    raise the limits with :func:`fsbook.cost_limits`.

    Sparse ``X`` is refused: every pair of training points and its difference is formed as a
    dense array (``n(n−1)/2 × d``) and the metric is a dense ``d × d`` matrix; ``X.toarray()``
    densifies a sparse ``X`` that fits in memory.

    Parameters
    ----------
    max_iter, tol
        As in :class:`MMC`.
    rescale : bool, default True
        Rescale ``A_`` to the input's scale as above; False keeps Xing et al.'s constraint
        ``Σ_S ||x_i − x_j||²_A = 1`` (``A_ = mmc_.A_``, the earlier behaviour).

    Attributes
    ----------
    mmc_ : MMC
        The fitted pair learner.
    A_, components_ : ndarray (d, d)
        The Mahalanobis matrix (``mmc_.A_`` times ``scale_``) and its factor.
    scale_ : float
        :math:`\\sum_S \\|x_i-x_j\\|^2` with ``rescale``, else 1.
    classes_ : ndarray
    n_iter_ : int
        L-BFGS iterations of the pair learner.
    n_features_in_ : int

    See Also
    --------
    MMC : the pair learner, ``fit(pairs, y)``.
    fsbook.kernel_design.WeakKernelSelector : the weak-kernel LP feature selector from
        ``(X, y)``, compared with Xing et al.'s metric in Figure 3 of [2]_.

    References
    ----------
    .. [1] Xing, E. P., Ng, A. Y., Jordan, M. I. and Russell, S. (2002). Distance Metric
       Learning, with Application to Clustering with Side-Information. Advances in Neural
       Information Processing Systems 15, 505-512. ``references.bib``: ``xing2002metric``.
    .. [2] Fung, G., Rosales, R. and Rao, R. B. (2007). Feature Selection and Kernel Design via
       Linear Programming. Proceedings of the 20th International Joint Conference on Artificial
       Intelligence (IJCAI). ``references.bib``: ``fung2007lp``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.pipeline import make_pipeline
    >>> from fsbook.baselines import MMCSupervised
    >>> X, y = load_iris(return_X_y=True)
    >>> knn = make_pipeline(MMCSupervised(), KNeighborsClassifier(3)).fit(X[::2], y[::2])
    >>> int((knn.predict(X[1::2]) == y[1::2]).sum()), len(X[1::2])    # correct test points
    (73, 75)

    In a pipeline with a linear SVM, and with named output columns:

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.svm import LinearSVC
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> svm = make_pipeline(StandardScaler(), MMCSupervised(), LinearSVC()).fit(X[::2], y[::2])
    >>> round(float((svm.predict(X[1::2]) == y[1::2]).mean()), 2)
    0.95
    >>> MMCSupervised().set_output(transform="pandas").fit(X[:, :2], y).transform(X[:3, :2]).columns.tolist()
    ['mmcsupervised0', 'mmcsupervised1']
    """

    _parameter_constraints = {**MMC._parameter_constraints, "rescale": ["boolean"]}

    def __init__(self, max_iter=1000, tol=1e-9, rescale=True):
        self.max_iter = max_iter
        self.tol = tol
        self.rescale = rescale

    def _refuse_sparse(self, X):
        if sp.issparse(X):
            raise TypeError(
                f"{type(self).__name__} does not accept sparse X: it forms every pair of training "
                "points and their differences as dense arrays (n(n-1)/2 x d) and learns a dense "
                "d x d metric; densify with X.toarray() if that fits in memory, or reduce X first "
                "(e.g. sklearn.decomposition.TruncatedSVD, which takes sparse input)")

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit :class:`MMC` on every pair of rows of ``X``, similar when their labels agree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (dense).
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        self._refuse_sparse(X)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"MMCSupervised needs at least two classes, got 1 class ({self.classes_[0]!r})")
        n, d = X.shape
        n_pairs = n * (n - 1) // 2
        counts = np.unique(y, return_counts=True)[1]
        n_similar = int(np.sum(counts * (counts - 1) // 2))
        # the pairs (2 d doubles each, and X[i], X[j] before they are stacked), their differences and
        # the pair indices, before any is formed
        check_mmc_cost("MMCSupervised", n_pairs, n_pairs - n_similar, d,
                       pair_bytes=8.0 * n_pairs * (5 * d + 3),
                       shape=f"{n} samples x {d} features, {self.classes_.size} classes")
        i, j, similar = pairs_from_labels(y)
        if not np.any(similar == 1):
            raise ValueError("MMCSupervised needs two points of one class (a similar pair)")
        self.mmc_ = MMC(max_iter=self.max_iter, tol=self.tol).fit(np.stack([X[i], X[j]], 1), similar)
        diff = X[i[similar == 1]] - X[j[similar == 1]]
        self.scale_ = float(np.einsum("ij,ij->", diff, diff)) if self.rescale else 1.0
        self.A_ = self.mmc_.A_ * self.scale_
        self.components_ = self.mmc_.components_ * np.sqrt(self.scale_)
        self.n_iter_ = self.mmc_.n_iter_
        self._n_features_out = self.components_.shape[0]
        return self

    def transform(self, X):
        """``X Lᵀ``: points in the learnt metric's Euclidean coordinates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense).

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            ``X @ components_.T``.
        """
        check_is_fitted(self)
        self._refuse_sparse(X)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.components_.T

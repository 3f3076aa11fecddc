""":class:`WeakKernelSelector`: the weak-kernel LP (formulation 7) as a scikit-learn feature
selector.

``fit(X, y)`` draws training triplets from the class labels as Section 3.1 of Fung, Rosales &
Rao (2007) does (:func:`~fsbook.kernel_design.triplets.triplets_from_labels`), fits
:class:`~fsbook.kernel_design.estimator.KernelDesign` with one-feature Gaussian kernels (eq. 5)
and scores feature ``f`` by its group weight :math:`s_f = \\max_{p∈I_f} |α_p|` (eq. 6).
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from fsbook._compat import Interval, PositiveFloats, StrOptions, fit_context
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin
from fsbook.decisions import top_k_mask
from fsbook.kernel_design.estimator import KernelDesign
from fsbook.kernel_design.lp import PSD_OPTIONS
from fsbook.kernel_design.triplets import triplets_from_labels

__all__ = ["WeakKernelSelector"]


def _distinct_rows_mask(X, t):
    """Triplets of ``t`` whose three points differ by value (no duplicated row of ``X``)."""
    a, b, c = X[t[:, 0]], X[t[:, 1]], X[t[:, 2]]
    return ~((a == b).all(1) | (a == c).all(1) | (b == c).all(1))


def _distinct_triplets(X, t):
    """Drop triplets in which two points coincide by value (duplicated rows of ``X``)."""
    return t[_distinct_rows_mask(X, t)]


class WeakKernelSelector(SupportSelectorMixin, BaseEstimator):
    """Feature selection by the weak-kernel LP (formulation 7 of Fung, Rosales & Rao, 2007).

    Triplets ``(i, j, k)`` with ``y_i = y_j ≠ y_k`` are drawn from the labels; the LP learns a
    mixture :math:`K^α = \\sum_p α_p K_p` of one-feature Gaussians
    :math:`\\exp(-μ(x^f - y^f)^2)` (eq. 5) asking :math:`K^α_{ij} - K^α_{ik} ≥ 1 - ε_t`, with the
    group penalty :math:`γ_1 \\sum_f s_f` driving whole features to zero.  The score of feature
    ``f`` is :math:`s_f = \\max_{p∈I_f}|α_p|`.

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None, default=None
        ``None`` keeps every feature with :math:`s_f >` ``tol``; an int ``k`` (or a fraction of
        the features, :func:`fsbook._selection.resolve_n_features`) keeps the ``k``
        features of largest score (:func:`fsbook.decisions.top_k_mask`: scores within a
        relative :data:`fsbook.decisions.RTOL` are ties, broken by the smaller feature index),
        even when some of them score zero.  The support is read from ``scores_`` when asked
        for, so ``set_params(n_features_to_select=k)`` after ``fit`` changes it without a refit.
    n_triplets : int, default=1000
        Training triplets drawn from the labels (triplets whose points coincide by value are
        dropped afterwards).  The LP's triplet rows are dense: it has about
        ``n_features * len(weak_mu) * n_triplets`` non-zeros; column generation (the default
        solver with ``psd="nonnegative"``) keeps only a working set of kernels in the LP, but
        the ``(n_features * len(weak_mu), n_triplets)`` matrix of triplet differences is held
        in memory (240 MB for 10 000 features, three widths, 1 000 triplets).
    psd : {"nonnegative", "dominance"}, default="nonnegative"
        ``"nonnegative"``: α ≥ 0, PSD by construction (our departure from the paper; the LP
        has ``m + T + d`` variables).  ``"dominance"``: the paper's diagonal dominance on the
        points of the triplets, whose optimum is often α = 0 on real data (ties along one
        feature make a one-feature kernel matrix hard to dominate), in which case no feature
        is kept by ``n_features_to_select=None``.
    gamma1, gamma2 : float, default=1e-4
        Weights of the group penalty and of the trace.  With α ≥ 0 and the margin 1, scaling
        the kernels by ``c`` is the same as dividing γ1 by ``c`` (γ2 is scale-free).  Feature
        ``f`` gets a non-zero weight only if
        :math:`\\sum_{p∈I_f}(\\sum_t D_{pt} - γ_2|S|)_+ > γ_1`, with
        :math:`D_{pt} = K_p(x_i,x_j) - K_p(x_i,x_k) ∈ [-1, 1]` summed over the triplets and
        ``|S|`` the number of distinct points they use: γ2 is compared with the mean gain per
        point, γ1 with the total gain, which grows with ``n_triplets``.
    weak_mu : tuple of float, default=(1.0, 10.0, 100.0)
        Gaussian widths μ per feature (the sets :math:`I_f`); features on a unit scale
        (standardise first) suit the default.
    tol : float, default=1e-6
        Score threshold for ``n_features_to_select=None``.
    solver : {"auto", "column_generation", "cutting_plane", "full_lp"}, default="auto"
        How the LP is solved (:class:`~fsbook.kernel_design.KernelDesign`'s ``solver``):
        ``"auto"`` is column generation over the kernels for ``psd="nonnegative"`` (the LP over
        a working set of kernels, the others priced with the triplet duals) and cutting
        planes for ``psd="dominance"``; ``"full_lp"`` the one LP (the reference).
    random_state : int, RandomState instance or None, default=0
        Seeds the draw of the triplets.
    solver_options : dict or None, default=None
        Passed to :class:`~fsbook.kernel_design.KernelDesign` (``solver_options``): ``None``
        is column generation's default start and the tie rule that makes the scores those
        of one optimal point of the LP whatever vertex HiGHS returns;
        :data:`~fsbook.kernel_design.colgen.LEGACY_OPTIONS` reproduce the stores' fits.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        :math:`s_f = \\max_{p∈I_f}|α_p|`.
    classes_ : ndarray
        The class labels.
    alpha_ : ndarray of shape (n_features * len(weak_mu),)
        Mixing weights, kernel ``p`` acting on feature ``p // len(weak_mu)``.
    kernel_design_ : KernelDesign
        The fitted weak-kernel estimator.
    triplets_ : ndarray of shape (T, 3)
        The training triplets used (indices into ``X``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` has string column names.

    See Also
    --------
    fsbook.kernel_design.KernelDesign : the LP kernel-design estimator on triplets, full or weak
        kernels.
    fsbook.baselines.MMCSupervised : Xing et al.'s (2002) metric learnt from ``(X, y)``.

    Notes
    -----
    A sparse ``X`` is accepted: only the rows the drawn triplets use are made dense (the LP
    works on those points), and the result is that of the dense ``X``.

    References
    ----------
    .. [1] Fung, G., Rosales, R. and Rao, R. B. (2007). Feature Selection and Kernel Design via
       Linear Programming. Proceedings of the 20th International Joint Conference on Artificial
       Intelligence (IJCAI). ``references.bib``: ``fung2007lp``.
       The LP is its formulation (7), the kernels its eq. (5) and their mixture its
       eq. (6); triplets from class labels as in its Section 3.1.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.kernel_design import WeakKernelSelector
    >>> sel = WeakKernelSelector(n_features_to_select=2, n_triplets=300, random_state=0).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "n_triplets": [Interval(Integral, 1, None, closed="left")],
        "psd": [StrOptions(set(PSD_OPTIONS))],
        "gamma1": [Interval(Real, 0, None, closed="left")],
        "gamma2": [Interval(Real, 0, None, closed="left")],
        "weak_mu": [PositiveFloats()],
        "tol": [Interval(Real, 0, None, closed="left")],
        "solver": [StrOptions({"auto", "column_generation", "cutting_plane", "full_lp"})],
        "random_state": ["random_state"],
        "solver_options": [dict, None],
    }

    def __init__(self, n_features_to_select=None, *, n_triplets=1000, psd="nonnegative",
                 gamma1=1e-4, gamma2=1e-4, weak_mu=(1.0, 10.0, 100.0), tol=1e-6,
                 solver="auto", random_state=0, solver_options=None):
        self.n_features_to_select = n_features_to_select
        self.n_triplets = n_triplets
        self.psd = psd
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.weak_mu = weak_mu
        self.tol = tol
        self.solver = solver
        self.random_state = random_state
        self.solver_options = solver_options

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Draw triplets from ``y``, solve the weak-kernel LP, score the features.

        Raises ``ValueError`` for NaN/infinite ``X``, a non-classification ``y``, a single
        class, no class with two points (no triplet exists), ``n_features_to_select`` larger
        than the number of features, or when every drawn triplet repeats a point by value.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels, from which the triplets are drawn.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, codes = self._validate_classes(X, y)
        if np.bincount(codes).max() < 2:
            raise ValueError("no class holds two samples, so no triplet (i, j, k) with "
                             "y_i = y_j != y_k exists")
        d = X.shape[1]
        if self.n_features_to_select is not None:
            self._resolve_k(d)                     # raises if it exceeds the number of features
        seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))
        drawn = triplets_from_labels(codes, self.n_triplets, seed)
        if sp.issparse(X):
            # only the rows the triplets use are densified (the LP works on those points, S):
            # the same points, triplets and LP as for the dense X
            used, local = np.unique(drawn, return_inverse=True)
            points = X[used].toarray()
            local = local.reshape(drawn.shape)
            keep = _distinct_rows_mask(points, local)
            t, fit_on = drawn[keep], local[keep]
        else:
            points, t = X, _distinct_triplets(X, drawn)
            fit_on = t
        if t.shape[0] == 0:
            raise ValueError("every triplet drawn from the labels repeats a point (duplicated "
                             "rows of X); no triplet to learn from")
        self.kernel_design_ = KernelDesign(
            variant="weak", gamma1=self.gamma1, gamma2=self.gamma2, weak_mu=tuple(self.weak_mu),
            threshold=self.tol, preprocessor=points, psd=self.psd, solver=self.solver,
            solver_options=self.solver_options).fit(fit_on)
        groups = self.kernel_design_.groups_
        scores = np.zeros(d)
        np.maximum.at(scores, groups, np.abs(self.kernel_design_.alpha_))
        self.alpha_ = self.kernel_design_.alpha_
        self.scores_ = scores
        self.triplets_ = t
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "scores_")
        if self.n_features_to_select is None:
            return self.scores_ > self.tol
        return top_k_mask(self.scores_, self._resolve_k(self.scores_.size))

""":class:`KernelDesign`: the LP kernel-design estimator with triplet supervision.

Follows metric-learn's conventions for triplet learners (``fit(triplets)`` with triplets of
points of shape ``(n, 3, d)``, or index triplets ``(n, 3)`` with a ``preprocessor`` array;
``decision_function(triplets) = K(a, p) - K(a, n)``; ``predict`` its sign; ``score`` the fraction
of triplets ordered correctly).  metric-learn 0.7.0 itself does not run with scikit-learn 1.9
(it passes the removed ``force_all_finite`` argument to ``check_X_y``), so the conventions are
followed by hand.
"""
from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from fsbook._compat import Interval, PositiveFloats, StrOptions, fit_context
from fsbook.kernel_design.base_kernels import (
    full_kernel_specs,
    kernel_diagonal,
    kernel_groups,
    kernel_pair_differences,
    kernel_pairs,
    kernel_stack,
    weak_kernel_specs,
)
from fsbook.kernel_design.colgen import (
    LEGACY_OPTIONS,
    face_stage,
    solve_nonnegative_colgen,
)
from fsbook.kernel_design.lp import (
    PSD_OPTIONS,
    dominance_violation,
    solve_cutting_plane,
    solve_full_lp,
    solve_nonnegative_lp,
)
from fsbook.kernel_design.triplets import TripletError, check_triplets

__all__ = ["KernelDesign"]



def _checked_preprocessor(preprocessor):
    X = np.asarray(preprocessor, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"preprocessor must be a 2-D array of points, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("preprocessor contains NaN or infinity")
    return X


def _points_of(triplets, preprocessor):
    """Triplets as points ``(n, 3, d)`` (validated), from points or from indices."""
    if preprocessor is not None:
        X = _checked_preprocessor(preprocessor)
        idx = check_triplets(triplets, X.shape[0])
        return X[idx]
    T = np.asarray(triplets)
    if T.size == 0:
        raise TripletError("the set of triplets is empty")
    if T.ndim == 2 and T.shape[1] == 3 and np.issubdtype(T.dtype, np.integer):
        raise TripletError("index triplets need a preprocessor (the array of points)")
    if T.ndim != 3 or T.shape[1] != 3:
        raise TripletError(f"triplets of points must have shape (n, 3, d), got {T.shape}")
    T = T.astype(np.float64)
    if not np.all(np.isfinite(T)):
        raise ValueError("triplets contain NaN or infinity")
    return T


#: solvers of each ``psd`` option; the first is ``solver="auto"``'s choice
SOLVERS = {"dominance": ("cutting_plane", "full_lp"),
           "nonnegative": ("column_generation", "full_lp")}


def _check_solver(solver, psd):
    """The solver to run: ``"auto"`` resolved, a solver of the other ``psd`` option refused."""
    if solver == "auto":
        return SOLVERS[psd][0]
    if solver not in SOLVERS[psd]:
        raise ValueError(f"solver={solver!r} does not solve psd={psd!r}; use one of "
                         f"{('auto',) + SOLVERS[psd]}")
    return solver


def _distinct_points(triplets, preprocessor):
    """``(S, loc)``: the distinct points of the triplets (rows sorted as ``np.unique`` sorts
    them) and the triplets as indices into ``S``.  With a ``preprocessor`` the rows are
    deduplicated from the distinct indices first, without forming the ``(n, 3, d)`` points."""
    if preprocessor is None:
        pts = _points_of(triplets, None)
        n, _, d = pts.shape
        S, inv = np.unique(pts.reshape(-1, d), axis=0, return_inverse=True)
        return S, inv.reshape(n, 3)
    X = _checked_preprocessor(preprocessor)
    idx = check_triplets(triplets, X.shape[0])
    used = np.unique(idx)
    S, inv = np.unique(X[used], axis=0, return_inverse=True)
    return S, inv.reshape(-1)[np.searchsorted(used, idx)]


def _solve_nonnegative(solver, options, D, trace, groups, gamma1, gamma2):
    """The ``α ≥ 0`` LP by ``solver`` with ``options`` (see ``KernelDesign.solver_options``);
    for ``"full_lp"`` the direct solve, then (unless ``tie=None``) the tie rule's second stage
    on the optimal face its duals describe (:func:`~fsbook.kernel_design.colgen.face_stage`)."""
    options = dict(options or {})
    if solver == "column_generation":
        return solve_nonnegative_colgen(D, trace, groups, gamma1, gamma2, **options)
    tie = options.pop("tie", "lexicographic")
    unknown = set(options) - set(LEGACY_OPTIONS)
    if unknown:
        raise ValueError(f"solver='full_lp' takes no option {sorted(unknown)}")
    first = solve_nonnegative_lp(D, trace, groups, gamma1, gamma2)
    if tie is None:
        return first
    second = face_stage(D, trace, groups, gamma1, gamma2, first)
    second.n_iter += first.n_iter
    second.history = [{"stage": 2, **h} for h in second.history]
    return second


class KernelDesign(TransformerMixin, BaseEstimator):
    """Kernel :math:`K^α = \\sum_p α_p K_p` learnt from relative comparisons by an LP.

    Parameters
    ----------
    variant : {"weak", "full"}, default="weak"
        ``"full"``: formulation (4) on full kernels (Gaussians at ``full_mu``, polynomial of
        ``degree``, linear).  ``"weak"``: formulation (7) on one-feature Gaussians (eq. 5) at
        ``weak_mu``, with the group penalty :math:`s_f = \\max_{p∈I_f}|α_p|`.
    gamma1 : float, default=1e-2
        Weight of :math:`\\sum s` (sparsity of α / of features).
    gamma2 : float, default=1e-2
        Weight of the trace :math:`\\sum_{i∈S} K^α_{ii}`.
    full_mu, weak_mu : tuple of float
        Gaussian widths μ in :math:`\\exp(-μ\\,\\|x-y\\|^2)`.
    degree : int, default=2
        Degree of the polynomial full kernel.
    solver : {"auto", "cutting_plane", "column_generation", "full_lp"}, default="auto"
        ``"full_lp"``: one LP (with the ``r_ij`` for ``psd="dominance"``, the ``α ≥ 0`` LP of
        :func:`~fsbook.kernel_design.lp.solve_nonnegative_lp` for ``psd="nonnegative"``).
        ``"cutting_plane"``: constraint generation on the dominance rows (``psd="dominance"``
        only).  ``"column_generation"``: the ``α ≥ 0`` LP over a working set of kernels
        grown by pricing (``psd="nonnegative"`` only,
        :func:`~fsbook.kernel_design.colgen.solve_nonnegative_colgen`).  ``"auto"``: the
        generation method of ``psd``.  All reach the same LP optimum.
    psd : {"dominance", "nonnegative"}, default="dominance"
        How :math:`K^α` is kept positive semidefinite: the paper's diagonal dominance on ``S``
        (α of any sign), or ``α ≥ 0`` (our departure from the paper; PSD by construction since
        each base kernel is PSD, and the base kernel matrices on ``S`` are never formed).
        With ``α ≥ 0`` and the margin 1, scaling the base kernels by ``c`` is the same as
        dividing γ1 by ``c`` (γ2 unchanged); α = 0 is optimal exactly when
        :math:`\\sum_{p∈I_g}(\\sum_t D_{pt} - γ_2\\operatorname{tr}_S K_p)_+ ≤ γ_1` for every
        group (see :mod:`~fsbook.kernel_design.lp`).
    threshold : float, default=0.01
        A feature is selected when :math:`\\max_{p∈I_f}|α_p| >` threshold (the paper's
        "α > 0.01" of Figure 2).
    preprocessor : array of shape (n_points, n_features) or None
        When given, triplets are index triplets into it.
    solver_options : dict or None, default=None
        Options of the ``psd="nonnegative"`` solver: every keyword of
        :func:`~fsbook.kernel_design.colgen.solve_nonnegative_colgen` for column generation,
        ``tie`` only for ``solver="full_lp"``.  ``None``: that function's defaults, and for
        ``"full_lp"`` the same tie rule (``tie="lexicographic"``,
        :func:`~fsbook.kernel_design.colgen.lexicographic_stage`), so both solvers report the
        same optimal point of a degenerate LP.
        :data:`~fsbook.kernel_design.colgen.LEGACY_OPTIONS` are the settings of the stores'
        fits.

    Attributes
    ----------
    alpha_ : ndarray of shape (m,)
        Mixing weights.
    kernels_ : list of KernelSpec
    points_ : ndarray (|S|, n_features)
        The distinct points of the training triplets (the set ``S``).
    selected_features_ : ndarray of int
        Features with a non-zero group (weak) or all features used by a non-zero kernel (full).
    lp_ : LPResult
    dominance_violation_ : float
        :math:`\\max_i \\sum_{j≠i}|K^α_{ij}| - K^α_{ii}` on ``S`` (``psd="dominance"``; NaN for
        ``psd="nonnegative"``, which does not form ``K^α`` on ``S``).
    n_features_in_ : int

    See Also
    --------
    fsbook.kernel_design.WeakKernelSelector : the ``(X, y)`` feature selector of the weak-kernel
        LP (7), triplets drawn from the labels.
    fsbook.baselines.MMC : Xing et al.'s (2002) metric learnt from pairs, the comparison of
        Figure 3 of [1]_.

    Notes
    -----
    Not an ``(X, y)`` estimator: it learns from relative comparisons, as metric-learn's triplet
    learners do. :class:`~fsbook.kernel_design.WeakKernelSelector` is the ``(X, y)`` feature
    selector built on the same weak-kernel LP, with the triplets drawn from the labels.

    References
    ----------
    .. [1] Fung, G., Rosales, R. and Rao, R. B. (2007). Feature Selection and Kernel Design via
       Linear Programming. Proceedings of the 20th International Joint Conference on Artificial
       Intelligence (IJCAI). ``references.bib``: ``fung2007lp``.
       ``variant="full"`` is its formulation (4), ``variant="weak"`` its formulation
       (7) on the one-feature Gaussians of its eq. (5), mixed as in its eq. (6).

    Examples
    --------
    Triplets ``(i, j, k)``: ``i`` is more similar to ``j`` than to ``k`` (here: ``i, j`` share a
    class, ``k`` does not); only the first two of five features carry the classes.

    >>> import numpy as np
    >>> from fsbook.kernel_design import KernelDesign, triplets_from_labels
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 20)
    >>> X = rng.normal(size=(40, 5))
    >>> X[:, :2] += 3.0 * y[:, None]
    >>> T = triplets_from_labels(y, 400, random_state=0)          # index triplets into X
    >>> kd = KernelDesign(psd="nonnegative", gamma1=10.0, preprocessor=X).fit(T)
    >>> kd.selected_features_
    array([0, 1])
    >>> kd.score(triplets_from_labels(y, 200, random_state=1))   # fraction ordered right
    0.945
    """

    _parameter_constraints = {
        "variant": [StrOptions({"weak", "full"})],
        "gamma1": [Interval(Real, 0, None, closed="left")],
        "gamma2": [Interval(Real, 0, None, closed="left")],
        "full_mu": [PositiveFloats(allow_empty=True)],
        "weak_mu": [PositiveFloats()],
        "degree": [Interval(Integral, 1, None, closed="left"), None],
        "solver": [StrOptions({"auto", "cutting_plane", "column_generation", "full_lp"})],
        "threshold": [Interval(Real, 0, None, closed="left")],
        "preprocessor": ["array-like", None],
        "psd": [StrOptions(set(PSD_OPTIONS))],
        "solver_options": [dict, None],
    }

    def __init__(self, variant="weak", gamma1=1e-2, gamma2=1e-2, full_mu=(0.1, 1.0, 10.0, 100.0),
                 weak_mu=(1.0, 10.0, 100.0), degree=2, solver="auto", threshold=0.01,
                 preprocessor=None, psd="dominance", solver_options=None):
        self.variant = variant
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.full_mu = full_mu
        self.weak_mu = weak_mu
        self.degree = degree
        self.solver = solver
        self.threshold = threshold
        self.preprocessor = preprocessor
        self.psd = psd
        self.solver_options = solver_options

    def _specs(self, n_features):
        if self.variant == "full":
            return full_kernel_specs(tuple(self.full_mu), self.degree)
        return weak_kernel_specs(n_features, tuple(self.weak_mu))

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, triplets, y=None):
        """Solve formulation (4) or (7) on the triplets (see class docstring for the input).

        ``S`` is the set of distinct points of the triplets; a triplet whose points coincide
        (by value) raises :class:`~fsbook.kernel_design.triplets.TripletError`.

        Parameters
        ----------
        triplets : array-like of shape (n_triplets, 3, n_features) or (n_triplets, 3)
            Triplets ``(i, j, k)``, ``i`` more similar to ``j`` than to ``k``: points, or
            indices into ``preprocessor``.
        y : None
            Ignored (metric-learn's triplet learners take no labels).

        Returns
        -------
        self : object
            The fitted estimator.
        """
        S, loc = _distinct_points(triplets, self.preprocessor)
        d = S.shape[1]
        same = (loc[:, 0] == loc[:, 1]) | (loc[:, 0] == loc[:, 2]) | (loc[:, 1] == loc[:, 2])
        if same.any():
            raise TripletError(f"{int(same.sum())} triplet(s) hold the same point twice")
        specs = self._specs(d)
        groups, group_features = kernel_groups(specs)
        solver = _check_solver(self.solver, self.psd)
        if self.psd == "nonnegative":
            D = kernel_pair_differences(specs, S, loc)
            self.lp_ = _solve_nonnegative(solver, self.solver_options, D,
                                          kernel_diagonal(specs, S).sum(axis=1), groups,
                                          self.gamma1, self.gamma2)
            del D
            self.dominance_violation_ = float("nan")
        else:
            from fsbook._cost import check_cost
            m = S.shape[0]
            check_cost("KernelDesign", f"{loc.shape[0]} triplets of {m} distinct points x {d} features",
                       nbytes=8.0 * len(specs) * m * m,
                       why=f"psd={self.psd!r} holds one {m} x {m} kernel matrix for each of its "
                           f"{len(specs)} base kernels",
                       fix="use psd='nonnegative' (the LP on the triplets' kernel differences, no "
                           "points x points matrices), fewer triplets (fewer distinct points) or fewer "
                           "features")
            K = kernel_stack(specs, S)
            solve = solve_cutting_plane if solver == "cutting_plane" else solve_full_lp
            self.lp_ = solve(K, loc, groups, self.gamma1, self.gamma2)
            self.dominance_violation_ = float(np.max(dominance_violation(
                np.tensordot(self.lp_.alpha, K, 1))))
        self.alpha_ = self.lp_.alpha
        self.kernels_ = specs
        self.groups_ = groups
        self.points_ = S
        self.n_features_in_ = d
        if self.variant == "weak":
            gmax = np.zeros(group_features.size)
            np.maximum.at(gmax, groups, np.abs(self.alpha_))
            self.selected_features_ = group_features[gmax > self.threshold]
        else:
            self.selected_features_ = (np.arange(d) if np.any(np.abs(self.alpha_) > self.threshold)
                                       else np.arange(0))
        return self

    def kernel_matrix(self, X, Y=None):
        """:math:`K^α(x_i, y_j)` for rows of ``X`` and ``Y`` (default ``X``)."""
        check_is_fitted(self)
        X = np.atleast_2d(np.asarray(X, dtype=np.float64))
        Y = X if Y is None else np.atleast_2d(np.asarray(Y, dtype=np.float64))
        for Z in (X, Y):
            if Z.shape[1] != self.n_features_in_:
                raise ValueError(f"expected {self.n_features_in_} features, got {Z.shape[1]}")
        return np.tensordot(self.alpha_, kernel_stack(self.kernels_, X, Y), axes=1)

    def get_kernel(self):
        """A callable ``k(x, y) -> float`` evaluating the learnt kernel on two points."""
        check_is_fitted(self)

        def kernel(x, y):
            return float(self.kernel_matrix(np.reshape(x, (1, -1)), np.reshape(y, (1, -1)))[0, 0])

        return kernel

    def _pair_values(self, a, b):
        # the mixture on pairs (a_t, b_t), without forming n x n matrices
        nz = np.flatnonzero(self.alpha_)
        return self.alpha_[nz] @ kernel_pairs(self.kernels_, a, b, index=nz)

    def decision_function(self, triplets):
        """``K^α(a, p) - K^α(a, n)`` for each triplet ``(a, p, n)``: positive when ordered
        correctly."""
        check_is_fitted(self)
        pts = _points_of(triplets, self.preprocessor)
        if pts.shape[2] != self.n_features_in_:
            raise ValueError(f"expected {self.n_features_in_} features, got {pts.shape[2]}")
        return self._pair_values(pts[:, 0], pts[:, 1]) - self._pair_values(pts[:, 0], pts[:, 2])

    def predict(self, triplets):
        """+1 when the triplet is ordered correctly by the learnt kernel, -1 otherwise (ties
        count as -1).

        Parameters
        ----------
        triplets : array-like of shape (n_triplets, 3, n_features) or (n_triplets, 3)
            Points, or indices into ``preprocessor``.

        Returns
        -------
        ndarray of shape (n_triplets,)
            ``+1`` or ``-1`` per triplet.
        """
        return np.where(self.decision_function(triplets) > 0, 1, -1)

    def score(self, triplets, y=None):
        """Fraction of triplets ordered correctly (strictly)."""
        return float(np.mean(self.predict(triplets) == 1))

    def transform(self, X):
        """The selected features of ``X`` (weak variant only).

        Warns (``UserWarning``) when no feature is selected: with ``psd="dominance"`` (the
        default, the paper's constraint) the LP's optimum is α = 0 in every fit of chapter 3's
        experiments on real data, so ``transform`` would return no column without a word.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, len(selected_features_))
            The columns ``selected_features_`` of ``X``.
        """
        check_is_fitted(self)
        if self.variant != "weak":
            raise ValueError("transform selects features; only the weak-kernel variant does")
        if self.selected_features_.size == 0:
            hint = (" With psd='dominance' (the default, the paper's diagonal-dominance constraint) "
                    "the LP's optimum is alpha = 0 on most real data (chapter 3); psd='nonnegative' "
                    "keeps K PSD by alpha >= 0 and selects features." if self.psd == "dominance" else "")
            warnings.warn(f"KernelDesign selected no feature (every group weight max|alpha_p| <= "
                          f"threshold={self.threshold}); transform returns 0 columns.{hint} Smaller "
                          "gamma1/gamma2 also make alpha = 0 less likely.", UserWarning, stacklevel=2)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(f"X must have shape (n, {self.n_features_in_}), got {X.shape}")
        return X[:, self.selected_features_]

    def get_feature_names_out(self, input_features=None):
        """Names ``x<f>`` (or ``input_features[f]``) of the selected features."""
        check_is_fitted(self)
        names = (np.array([f"x{f}" for f in range(self.n_features_in_)], dtype=object)
                 if input_features is None else np.asarray(input_features, dtype=object))
        return names[self.selected_features_]

"""FOHSIC: forward selection with the HSIC criterion (Song et al. 2007).

Greedy: start from the empty set, repeatedly add the feature ``j`` that
maximises ``HSIC(X_{S∪j}, y) = (1/n²) tr(K H L H)`` with the same kernels as
:class:`fsbook.l1linf.HSFS` (Gaussian of width ``sigma`` on unit-variance
features, delta kernel on the labels; for a regression target the linear kernel of the
standardised target, as in HSFS).  Because the Gaussian kernel factorises
over features, ``K_{S∪j} = K_S ∘ E_j`` with ``(E_j)_il = exp(−(x_ij − x_lj)²/2σ²)``,
so every candidate is scored from ``A = K_S ∘ HLH`` alone in
``O(nnz_j²)`` operations (numba kernel :func:`hsic_gains_block`); a step costs
``O(Σ_j nnz_j²)``, i.e. ``O(dn²)`` for dense data.  No maintained library
implements FOHSIC, hence this implementation.

Memory: ``A`` is formed a block of rows at a time (``HLH`` from the ``c × c``
table of the centred class indicators, ``K_S`` from the selected columns' non-zeros), so a fit
holds a few blocks of about ``block_bytes`` each, never an ``n × n`` matrix once
``8 n² > block_bytes``; when ``n × n`` fits in one block, ``K_S`` is kept from step to step
instead of being recomputed.  The result does not depend on the block size (the tests check
this bit for bit, and the selection and path against the straightforward ``n × n`` computation).

Sample weights.  Sample ``i`` repeated ``c_i`` times (``N = Σ c_i``) gives
``(1/N²) tr(K̃H̃L̃H̃) = Σ_il p_i p_l K_il (H_p L H_pᵀ)_il`` with ``p = c/N`` and ``H_p = I − 1pᵀ``
(the derivation is in :mod:`fsbook.l1linf.hsic`).  With weights ``w`` and ``p = w/Σw``, ``HLH``
is replaced by ``n² D_p H_p L H_pᵀ D_p`` (:func:`fsbook.l1linf.hsic.weighted_centred_kernel`:
the labels centred by the weighted class priors, or the target standardised by its weighted mean
and standard deviation, the rows and columns scaled by ``n p_i``) and the features by their
weighted standard deviations; the gains are linear in ``A = K_S ∘ Γ``, so the kernels above are
unchanged.  Integer weights give the path of the repeated samples, a zero weight that of the
samples without it, and ``w`` and ``c w`` the same path.
"""
from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator

from fsbook._compat import Interval, check_sample_weight, fit_context
from fsbook._cost import check_cost
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin
from fsbook._targets import standardised
from fsbook.baselines._kernels_fohsic import hsic_gains_block, multiply_gaussian_factor
from fsbook.decisions import RTOL, argbest
from fsbook.l1linf.estimators import feature_scales
from fsbook.l1linf.hsic import weighted_centred_factors

__all__ = ["FOHSIC", "fohsic_path"]

#: bytes of one block of rows of ``K_S`` and ``A`` in :func:`fohsic_path`: a fit holds two such
#: blocks whatever ``n`` is (three ``n × n`` matrices when ``n × n`` fits in a block, n ≤ 724)
BLOCK_BYTES = 1 << 22


def _centred_target_rows(target, regression):
    """The rows ``b0:b1`` of ``Γ = HLH`` as a function of ``(b0, b1)``: from the ``c × c`` table
    of the centred class indicators (delta kernel), or for a regression target the outer product
    of the standardised target ``t`` with itself (linear kernel, ``Γ = t tᵀ``: ``t`` is centred)."""
    if regression:
        t = standardised(target)
        return lambda b0, b1: np.outer(t[b0:b1], t)
    codes = np.asarray(target, dtype=np.intp)
    prior = np.bincount(codes) / len(codes)
    centred = np.eye(len(prior)) - prior                  # row a: indicator of class a, centred
    table = centred @ centred.T                           # (HLH)_il = table[code_i, code_l]
    return lambda b0, b1: table[codes[b0:b1, None], codes[None, :]]


def _weighted_target_rows(target, regression, sample_weight):
    """The rows ``b0:b1`` of ``Γ = n² D_p H_p L H_pᵀ D_p``, from its factor ``F`` (``Γ = F Fᵀ``,
    :func:`fsbook.l1linf.hsic.weighted_centred_factors`)."""
    F = weighted_centred_factors(target, sample_weight, regression)
    return lambda b0, b1: F[b0:b1] @ F.T


def fohsic_path(X, codes, k, *, sigma=1.0, scale=True, block_bytes=None, regression=False, sample_weight=None):
    """The first ``k`` features added by FOHSIC and ``HSIC(X_S, y)`` after each addition.

    Parameters
    ----------
    X : ndarray or sparse matrix (n_samples, n_features), float
    codes : ndarray of int (n_samples,), class codes ``0 … c−1``, or the target values when
        ``regression``
    k : int
    sigma : float
        Width of the Gaussian kernel on the (scaled) selected features.
    scale : bool
        Divide every feature by its standard deviation first.
    block_bytes : int, optional
        Bytes of one block of rows (default :data:`BLOCK_BYTES`); see the module docstring.
    regression : bool, default False
        ``codes`` is a regression target: the linear kernel of the standardised target replaces
        the delta kernel of the classes.
    sample_weight : ndarray (n_samples,) or None, default None
        Non-negative weights with a positive sum (module docstring); None is unweighted.

    Returns
    -------
    ranking : ndarray of int (k,)
    path : ndarray (k,)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [0.1, 0.0], [1.0, 1.0], [1.1, 0.0]])
    >>> ranking, path = fohsic_path(X, np.array([0, 0, 1, 1]), 1)
    >>> ranking.tolist(), bool(path[0] > 0)
    ([0], True)
    """
    n, d = X.shape
    sd = feature_scales(X, sample_weight) if scale else np.ones(d)
    if sp.issparse(X):                                    # x_ij · (1/sd_j), one copy of X
        Xs = sp.csc_matrix(X, dtype=float, copy=True)
        Xs.data *= np.repeat(1.0 / sd, np.diff(Xs.indptr))
    else:
        Xs = sp.csc_matrix(X / sd)
    Xs.sort_indices()
    indptr, indices, data = Xs.indptr, Xs.indices, Xs.data
    if sample_weight is None:
        gamma_rows = _centred_target_rows(codes, regression)
    else:
        gamma_rows = _weighted_target_rows(codes, regression, sample_weight)
    inv2s2 = 1.0 / (2.0 * sigma ** 2)
    budget = BLOCK_BYTES if block_bytes is None else int(block_bytes)
    block_rows = int(min(n, max(1, budget // (8 * n))))
    starts = range(0, n, block_rows)
    K = np.ones((n, n)) if block_rows == n else None       # one block: K_S kept across steps

    def column(j):
        return indices[indptr[j]:indptr[j + 1]], data[indptr[j]:indptr[j + 1]]

    chosen, path = [], []
    available = np.ones(d, dtype=bool)
    rowsum = np.empty(n)
    for step in range(k + 1):
        gains = np.zeros(d)
        pos = indptr[:-1].copy()
        for b0 in starts:
            b1 = min(n, b0 + block_rows)
            if K is not None:
                Ab = K * gamma_rows(b0, b1)
            else:                                         # K_S's rows again, A in their place
                Ab = np.ones((b1 - b0, n))
                for j in chosen:
                    multiply_gaussian_factor(Ab, b0, *column(j), n, inv2s2)
                Ab *= gamma_rows(b0, b1)
            rowsum[b0:b1] = Ab.sum(axis=1)
            if step < k:
                hsic_gains_block(indptr, indices, data, Ab, rowsum[b0:b1], b0, inv2s2, pos, gains)
            del Ab
        if step > 0:
            path.append(float(rowsum.sum()) / n ** 2)
        if step == k:
            break
        gains *= 2.0
        gains[~available] = -np.inf
        j = argbest(gains, rtol=RTOL)          # near-equal gains: the smaller index
        chosen.append(j)
        available[j] = False
        if K is not None:
            multiply_gaussian_factor(K, 0, *column(j), n, inv2s2)
    return np.array(chosen, dtype=np.intp), np.array(path)


#: CPU seconds per unit of ``(k + 1) Σ_j max(nnz_j², n nnz_j)`` (one pair of samples scored for
#: one feature at one step), measured: 9.4 CPU s for ``FOHSIC(5)`` on 2 000 × 100 dense
SECONDS_PER_PAIR = 3.9e-9


def fohsic_seconds(X, k):
    """Estimated CPU seconds of :func:`fohsic_path` selecting ``k`` features of ``X``."""
    n = X.shape[0]
    nnz = (np.diff(sp.csc_matrix(X).indptr) if sp.issparse(X) else np.full(X.shape[1], n)).astype(float)
    return (k + 1) * float(np.sum(np.maximum(nnz ** 2, n * nnz))) * SECONDS_PER_PAIR


class FOHSIC(SupportSelectorMixin, BaseEstimator):
    """Forward selection maximising HSIC (Song et al. 2007).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
        Number (or fraction) of features; None keeps half.
    sigma : float, default 1.0
        Width of the Gaussian kernel on the selected (unit-variance) features.
    scale : bool, default True
        Divide every feature by its standard deviation first.

    Attributes
    ----------
    ranking_ : ndarray of the selected feature indices in the order added
    hsic_path_ : ndarray, ``HSIC(X_S, y)`` after each addition
    support_ : boolean mask

    See Also
    --------
    fsbook.l1linf.HSFS : the ℓ1/ℓ∞-penalised HSIC criterion with the same kernels.

    Notes
    -----
    Cost.  Every step scores every feature on every pair of samples, ``O(d n²)`` on dense data,
    and there are ``k + 1`` steps: on 5 000 × 300 with the default ``k`` (half the features)
    about an hour of CPU.  ``fit`` estimates it (:func:`fohsic_seconds`) and raises a
    ``ValueError`` at once when it exceeds :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute);
    select fewer features, fit on a subsample of the rows, or raise the limit with
    :func:`fsbook.cost_limits`.

    Sample weights.  ``fit(X, y, sample_weight=w)`` maximises the weighted HSIC
    ``Σ_il p_i p_l (K_S)_il (H_p L H_pᵀ)_il`` with ``p = w / Σw`` and ``H_p = I − 1pᵀ`` (module
    docstring) on features scaled by their weighted standard deviations: integer weights give
    the selection and ``hsic_path_`` of the repeated samples (to rounding), a zero weight those of
    the samples without it, and ``w`` and ``c w`` the same.  The cost is that of the unweighted
    fit.  With ``sklearn.set_config(enable_metadata_routing=True)``,
    ``set_fit_request(sample_weight=True)`` routes the weights from a Pipeline.

    References
    ----------
    .. [1] Song, L., Smola, A., Gretton, A., Borgwardt, K. M. and Bedo, J. (2007). Supervised
       Feature Selection via Dependence Estimation. Proceedings of the 24th International
       Conference on Machine Learning, 823-830. ``references.bib``: ``song2007fohsic``.
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
    >>> from fsbook.baselines import FOHSIC
    >>> sel = FOHSIC(n_features_to_select=2).fit(X, y)
    >>> sel.ranking_                                       # in the order added
    array([0, 1])
    """

    _sparse_input = "csc"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "sigma": [Interval(Real, 0, None, closed="neither")],
        "scale": ["boolean"],
    }

    def __init__(self, n_features_to_select=None, *, sigma=1.0, scale=True):
        self.n_features_to_select = n_features_to_select
        self.sigma = sigma
        self.scale = scale

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Select features greedily (see module docstring).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels (delta kernel), or a regression target (continuous values: the linear
            kernel of the standardised target).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative, finite weights.  With ``p = w / Σw`` the criterion is
            ``HSIC_p(X_S, y) = Σ_il p_i p_l (K_S)_il (H_p L H_pᵀ)_il``, ``H_p = I − 1pᵀ`` (the labels
            centred by the weighted class priors, a regression target standardised by its
            weighted mean and standard deviation), and the features are scaled by their weighted
            standard deviations: integer weights give the selection and path of the repeated
            samples, a zero weight those of the samples without it, and the weights' scale does
            not matter.  None is unweighted.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, target, regression = self._validate_classes_or_values(X, y)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
            if not regression and np.unique(target[sample_weight > 0]).size < 2:
                raise ValueError("FOHSIC needs samples of at least two classes with a positive sample_weight")
        k = self._resolve_k(X.shape[1])
        check_cost("FOHSIC", f"{X.shape[0]} samples x {X.shape[1]} features", seconds=fohsic_seconds(X, k),
                   why=f"forward selection scores every feature on every pair of samples at each of "
                       f"its k + 1 = {k + 1} steps (k = n_features_to_select)",
                   fix="select fewer features (n_features_to_select), or fit on a subsample of the rows "
                       "(the cost grows as n²)")
        self.ranking_, self.hsic_path_ = fohsic_path(X, target, k, sigma=self.sigma, scale=self.scale,
                                                     regression=regression, sample_weight=sample_weight)
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[self.ranking_] = True
        return self

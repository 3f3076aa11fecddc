"""Relief (ReliefF, Kononenko 1994; Robnik-Šikonja & Kononenko 2003) as a selector.

ReliefF extends Kira & Rendell's (1992) two-class Relief to several classes and
several neighbours.  With features scaled to ``[0, 1]`` by their range and the
Manhattan distance on them, for every sample ``x_i`` (all ``m = n`` samples
are used) and its ``k`` nearest hits ``H_r`` and, for every other class
``c``, its ``k`` nearest misses ``M_r(c)``:

    w_f ← w_f − Σ_r |x_if − H_rf| / (m k)
              + Σ_{c ≠ y_i} P(c)/(1 − P(y_i)) Σ_r |x_if − M_rf(c)| / (m k).

For a regression target (continuous ``y``) the selector computes RReliefF (Robnik-Šikonja &
Kononenko 2003, Fig. 3), which replaces hits and misses by the probability that the target
differs between near instances: over the ``k`` nearest neighbours ``I_j`` of every ``R_i``,
each of influence ``1/k`` (the constant influence of the paper, WEKA's default),

    N_dC   = Σ_i Σ_j diff(τ, R_i, I_j) / k,
    N_dA   = Σ_i Σ_j diff(A, R_i, I_j) / k,
    N_dCdA = Σ_i Σ_j diff(τ, R_i, I_j) diff(A, R_i, I_j) / k,
    W_A    = N_dCdA / N_dC − (N_dA − N_dCdA) / (m − N_dC),

with ``diff(τ, ·, ·) = |τ(R_i) − τ(I_j)| / (max τ − min τ)`` and the same scaled Manhattan
distance.  skrebate's ReliefF, given a continuous target, computes something else (a hit is a
neighbour whose target is within one standard deviation, then the hit-and-miss update), so the
tests check RReliefF against a loop over the paper's pseudocode instead.

skrebate (0.7) implements the same (classification) algorithm and works with our scikit-learn,
but loops in Python over samples and features: 155 s for ARCENE's 160 × 10 000
training fold, too slow for a protocol of hundreds of fits.  This version is
vectorised (distances and ``k`` array differences per class, in blocks of rows so that
neither an ``n × n`` matrix nor a dense copy of a sparse ``X`` is formed); the tests check it
against skrebate, against a hand-computed case and against the unblocked computation.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.metrics import pairwise_distances
from sklearn.utils.sparsefuncs import min_max_axis

from fsbook._compat import Interval, fit_context
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin

__all__ = ["Relief", "relieff_weights", "rrelieff_weights"]


#: bytes of one block of dense work (scaled rows, distances, differences) in
#: :func:`relieff_weights`; the memory of a fit is a few blocks, whatever ``n`` is
BLOCK_BYTES = 1 << 23


def _scaled_rows(X, rows, lo, span):
    """``(X[rows] − lo) / span`` as a dense array: the same numbers as the rows of the dense
    scaled matrix (elementwise operations), without densifying the other rows of a sparse ``X``."""
    block = X[rows]                                      # a copy (rows is an index array)
    block = block.toarray() if sp.issparse(block) else block
    block -= lo                                          # in place: one block, not three
    block /= span
    return block


def _abs_diff(Zr, Zn):
    """``|Zr − Zn|`` written over ``Zn`` (a temporary block): no further block of memory."""
    np.subtract(Zr, Zn, out=Zn)
    return np.abs(Zn, out=Zn)


def _nearest(X, rows, cols, kk, same, lo, span, block_rows, col_block):
    """The ``kk`` nearest ``cols`` (Manhattan on the scaled rows) of every row of ``rows``, in
    blocks of ``block_rows`` rows: a ``block_rows × |cols|`` distance block instead of ``n × n``.
    ``same``: ``rows`` is ``cols`` (a point is not its own neighbour); the columns are scaled
    ``col_block`` rows at a time.  Each distance is computed
    by the same ``pairwise_distances`` call on the same numbers as the full matrix would be, and
    ties are broken by the stable sort as before, so the neighbours are those of the full matrix."""
    nn = np.empty((len(rows), kk), dtype=np.intp)
    for start in range(0, len(rows), block_rows):
        rb = rows[start:start + block_rows]
        Zr = _scaled_rows(X, rb, lo, span)
        D = np.empty((len(rb), len(cols)))
        for cs in range(0, len(cols), col_block):
            D[:, cs:cs + col_block] = pairwise_distances(
                Zr, _scaled_rows(X, cols[cs:cs + col_block], lo, span), metric="manhattan")
        if same:
            D[np.arange(len(rb)), start + np.arange(len(rb))] = np.inf
        nn[start:start + len(rb)] = cols[np.argsort(D, axis=1, kind="stable")[:, :kk]]
    return nn


def _float_and_range(X):
    """``X`` as float (CSR when sparse), its columns' minima and their ranges (1 for a constant
    column): ``diff(A, ·, ·)`` is the difference divided by the range."""
    if not sp.issparse(X):
        X = np.asarray(X, dtype=float)
        lo, hi = X.min(axis=0), X.max(axis=0)
    else:
        X = X.tocsr().astype(float)
        lo, hi = (np.asarray(v, dtype=float).ravel() for v in min_max_axis(X, axis=0))
    return X, lo, np.where(hi > lo, hi - lo, 1.0)


def relieff_weights(X, y, n_neighbors=10, block_bytes=None):
    """ReliefF weights of the columns of ``X`` (formula in the module docstring).

    ``k`` is capped per class at the number of other samples of that class.

    Memory: the neighbours are found block by block (:func:`_nearest`) and a sparse
    ``X`` is densified a block of rows at a time, so no ``n × n`` matrix and no dense copy of a
    sparse ``X`` is formed; a block holds about ``block_bytes`` (default :data:`BLOCK_BYTES`).
    The weights are those of the unblocked computation bit for bit: the distances, the tie rule
    and the order of every sum are the same (a class whose differences fit in one block is summed
    exactly as before; a larger one is summed row after row across blocks, which is the order of
    NumPy's reduction over the rows of a C-ordered array).

    Parameters
    ----------
    X : ndarray or sparse matrix (n_samples, n_features)
    y : array-like (n_samples,), class labels
    n_neighbors : int
    block_bytes : int, optional

    Returns
    -------
    ndarray (n_features,)

    Examples
    --------
    >>> import numpy as np
    >>> relieff_weights(np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), [0, 0, 1, 1], 1)
    array([ 1., -1.])
    """
    X, lo, span = _float_and_range(X)
    n, d = X.shape
    budget = BLOCK_BYTES if block_bytes is None else int(block_bytes)
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    prior = counts / counts.sum()
    m = len(codes)
    w = np.zeros(d)
    members = [np.flatnonzero(codes == c) for c in range(len(classes))]
    for c, rows in enumerate(members):
        block_rows = max(1, budget // (8 * max(d, n)))       # rows × max(features, samples)
        col_block = max(1, budget // (8 * d))                 # scaled rows of the other points
        for c2, cols in enumerate(members):
            kk = min(n_neighbors, len(cols) - (1 if c2 == c else 0))
            if kk <= 0:
                continue
            nn = _nearest(X, rows, cols, kk, c2 == c, lo, span, block_rows, col_block)
            if len(rows) * d * 8 <= budget:          # one block: the computation as it always was
                Zr = _scaled_rows(X, rows, lo, span)
                sums = [_abs_diff(Zr, _scaled_rows(X, nn[:, r], lo, span)).sum(axis=0) for r in range(kk)]
            else:
                sums = [None] * kk
                for start in range(0, len(rows), block_rows):
                    Zr = _scaled_rows(X, rows[start:start + block_rows], lo, span)
                    for r in range(kk):
                        diff = _abs_diff(Zr, _scaled_rows(X, nn[start:start + block_rows, r], lo, span))
                        if sums[r] is not None:          # the running sum, then the rows in order
                            diff[0] += sums[r]
                        sums[r] = diff.sum(axis=0)
            total = np.zeros(d)
            for r in range(kk):
                total += sums[r]
            if c2 == c:
                w -= total / (m * kk)
            else:
                w += prior[c2] / (1.0 - prior[c]) * total / (m * kk)
    return w


def rrelieff_weights(X, y, n_neighbors=10, block_bytes=None):
    """RReliefF weights of the columns of ``X`` for a regression target ``y`` (module docstring).

    Every sample is an ``R_i`` (``m = n``); its ``k = min(n_neighbors, n − 1)`` nearest other
    samples each have the influence ``1/k``.  Memory as :func:`relieff_weights`: the neighbours
    and the differences are computed a block of rows at a time.

    Parameters
    ----------
    X : ndarray or sparse matrix (n_samples, n_features)
    y : array-like (n_samples,), the target values (not constant)
    n_neighbors : int
    block_bytes : int, optional

    Returns
    -------
    ndarray (n_features,)

    Examples
    --------
    The target is column 0 plus a little noise; column 1 is noise:

    >>> import numpy as np
    >>> X = np.random.default_rng(0).uniform(size=(40, 2))
    >>> w = rrelieff_weights(X, X[:, 0] + 0.05 * X[:, 1], 5)
    >>> w.round(3).tolist()
    [0.086, -0.021]
    """
    X, lo, span = _float_and_range(X)
    y = np.asarray(y, dtype=float)
    y_span = float(np.ptp(y)) or 1.0
    n, d = X.shape
    kk = min(n_neighbors, n - 1)
    budget = BLOCK_BYTES if block_bytes is None else int(block_bytes)
    block_rows = max(1, budget // (8 * max(d, n)))
    rows = np.arange(n)
    nn = _nearest(X, rows, rows, kk, True, lo, span, block_rows, max(1, budget // (8 * d)))
    n_dc, n_da, n_dcda = 0.0, np.zeros(d), np.zeros(d)
    for start in range(0, n, block_rows):
        rb = rows[start:start + block_rows]
        Zr = _scaled_rows(X, rb, lo, span)
        for r in range(kk):
            d_a = _abs_diff(Zr, _scaled_rows(X, nn[rb, r], lo, span))
            d_c = np.abs(y[rb] - y[nn[rb, r]]) / y_span
            n_dc += d_c.sum() / kk
            n_da += d_a.sum(axis=0) / kk
            n_dcda += d_c @ d_a / kk
    return _ratio(n_dcda, n_dc) - _ratio(n_da - n_dcda, n - n_dc)


def _ratio(num, den):
    """``num / den``, 0 where ``den`` is 0 (no neighbour differs in the target, or all do)."""
    return num / den if den > 0 else np.zeros_like(num)


class Relief(SupportSelectorMixin, BaseEstimator):
    """Keep the features with the largest ReliefF weights (RReliefF for a regression target).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
    n_neighbors : int, default 10
        Nearest hits / misses per sample (Kononenko's usual choice).

    Attributes
    ----------
    feature_importances_ : ndarray, the ReliefF weights (RReliefF's for a regression target)
    support_ : boolean mask

    See Also
    --------
    fsbook.baselines.LaplacianScore : another filter baseline of Table 1 of [2]_.
    fsbook.baselines.FOHSIC : forward selection by HSIC.

    References
    ----------
    .. [1] Kira, K. and Rendell, L. A. (1992). A Practical Approach to Feature Selection.
       Proceedings of the Ninth International Workshop on Machine Learning, 249-256.
       ``references.bib``: ``kira1992relief``.  The ReliefF extension implemented here is
       Kononenko (1994) and Robnik-Šikonja & Kononenko (2003) (module docstring; not in
       ``references.bib``).
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
    >>> from fsbook.baselines import Relief
    >>> sel = Relief(n_features_to_select=2).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])

    A regression target (continuous ``y``) gives RReliefF's weights; only column 2 carries it:

    >>> t = X[:, 2] + 0.1 * np.random.default_rng(1).normal(size=100)
    >>> Relief(n_features_to_select=1).fit(X, t).get_support(indices=True)
    array([2])
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_features_to_select=None, *, n_neighbors=10):
        self.n_features_to_select = n_features_to_select
        self.n_neighbors = n_neighbors

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute the ReliefF weights and keep the top ``n_features_to_select``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels, or a regression target (continuous values): RReliefF.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, target, regression = self._validate_classes_or_values(X, y)
        k = self._resolve_k(X.shape[1])
        weights = rrelieff_weights if regression else relieff_weights
        self.feature_importances_ = weights(X, target, self.n_neighbors)
        self._keep_top(self.feature_importances_, k)
        return self

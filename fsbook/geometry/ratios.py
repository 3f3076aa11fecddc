"""The six geometric ratios f1-f6 of Table 1 (Section 3 of the paper).

With ``Pp``, ``Pn``, ``Pf`` the positive, negative and full point clouds (the
rows of the data matrix, taken as given or binarised, see below),

====  ===========================  =========================
      numerator                    denominator
====  ===========================  =========================
f1    dim aff(Pp)                  ambient dimension of Pp
f2    dim aff(Pn)                  ambient dimension of Pn
f3    dim aff(Pp)                  ambient dimension of Pf
f4    dim aff(Pn)                  ambient dimension of Pf
f5    dim aff(Pf)                  ambient dimension of Pf
f6    #samples in aff(Pp) ∩ aff(Pn)  m (number of samples)
====  ===========================  =========================

The ambient dimension of a cloud is its number of non-zero columns.  A ratio
with a zero denominator (a cloud with no non-zero column, hence affine
dimension 0) is set to 0.

**Which point cloud.**  The paper defines the ratios on a 0/1 matrix ("a_ij is
1 if the data point i contains feature j") but also evaluates word-frequency
and continuous data.  :func:`geometric_ratios` therefore computes on the values
it is given (``binarize=None``, the default); ``binarize=t`` first replaces the
data by the 0/1 matrix ``[X > t]`` (``t = 0`` is the paper's "contains feature
j").  Binarising changes the point cloud and hence the ratios: the affine
dimension of integer or real-valued points is in general not that of their
supports.

**f6.**  Table 1 prints ``aff(Pp) ∩ aff(Pf)``; the text says "samples contained in
both of the affine hulls of Pp and Pn".  Since ``Pp ⊂ Pf``, ``aff(Pp) ∩ aff(Pf) =
aff(Pp)``: the Table-1 reading merely counts the samples in ``aff(Pp)``, which
always includes all positive samples (so ``f6 ≥ |Pp|/m`` is mostly the class
proportion), and it cannot support footnote 3 (with convex hulls ``f6 = 0``
would guarantee separability — true for ``conv(Pp) ∩ conv(Pn)``, impossible for
``conv(Pp) ∩ conv(Pf)``).  We therefore use the text's definition by default
(``f6="text"``) and keep ``f6="table"`` for comparison.  The text reading also
matches the paper's count of ``m + 2`` SVDs: one per class hull plus one per
sample (each sample is tested against the hull of the *other* class).
"""
from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_array, check_X_y

from fsbook._compat import Interval, StrOptions, validate_params
from fsbook.geometry import _kernels as K
from fsbook.geometry.hull import count_in_sparse_hull, ones_scale, sparse_hull

__all__ = ["geometric_ratios", "gram_geometric_ratios", "naive_geometric_ratios", "point_matrix",
           "RATIO_NAMES", "ratios_from_gram"]

RATIO_NAMES = ("f1", "f2", "f3", "f4", "f5", "f6")
#: default tolerances, see :mod:`fsbook.geometry._kernels`
RTOL = 1e-10
MTOL = 1e-8


def point_matrix(X, binarize=None):
    """The rows of ``X`` as points: CSR float64 without stored zeros.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (m, n)
        Finite numeric data.
    binarize : float or None, default=None
        ``None`` keeps the values; a threshold ``t`` returns the 0/1 matrix
        ``[X > t]`` (``t = 0``: "sample i contains feature j", the paper's
        representation of text).

    Returns
    -------
    scipy.sparse.csr_matrix of shape (m, n)
        Sorted indices, no explicit zeros; the input is not modified.
    """
    X = check_array(X, accept_sparse="csr", dtype="numeric", ensure_all_finite=True)
    if binarize is None:
        P = sp.csr_matrix(X, dtype=np.float64, copy=True)
    else:
        P = sp.csr_matrix(X > binarize, dtype=np.float64)
    P.sum_duplicates()
    P.eliminate_zeros()
    P.sort_indices()
    return P


def _split_masks(y, positive):
    y = np.asarray(y)
    if positive is None:
        classes = np.unique(y)
        if classes.size != 2:
            raise ValueError(f"geometric ratios need exactly two classes, got {classes.size}; "
                             "pass `positive` to group classes")
        positive = [classes[1]]
    pos = np.isin(y, np.atleast_1d(positive))
    if pos.all() or not pos.any():
        raise ValueError("both the positive and the negative cloud must be non-empty")
    return pos


def ratios_from_gram(G, pos_idx, neg_idx, amb_p, amb_n, amb_f, out_p, out_n, *,
                     f6="text", rtol=RTOL, mtol=MTOL, full_dim=None):
    """f1-f6 (Table 1) from a Gram matrix and precomputed ambient dimensions.

    The shared core of :func:`geometric_ratios` and
    :class:`~fsbook.geometry.GeometricFeatureSetSelector` (which sums per-group
    Gram matrices instead of recomputing them).

    Parameters
    ----------
    G : ndarray of shape (m, m)
        Gram matrix ``P Pᵀ`` of the points.
    pos_idx, neg_idx : ndarray of int64
        Rows of ``Pp`` and ``Pn``.
    amb_p, amb_n, amb_f : int
        Ambient dimensions (non-zero columns) of ``Pp``, ``Pn``, ``Pf``.
    out_p, out_n : ndarray of shape (m,)
        Per sample, the number of its non-zero columns outside the support of
        ``Pp`` (resp. ``Pn``): the exact membership pre-filter.
    f6 : {"text", "table"}, default="text"
        Reading of f6 (module docstring).
    rtol, mtol : float
        Rank and membership tolerances (:mod:`fsbook.geometry._kernels`).
    full_dim : int, optional
        ``dim aff(Pf)`` if already known (it does not depend on the split).

    Returns
    -------
    ndarray of shape (6,)
        ``[f1, f2, f3, f4, f5, f6]``.
    """
    full_idx = np.sort(np.concatenate([pos_idx, neg_idx]))
    dp = K.affine_rank(G, pos_idx, rtol)
    dn = K.affine_rank(G, neg_idx, rtol)
    df = K.affine_rank(G, full_idx, rtol) if full_dim is None else full_dim
    m = full_idx.size
    if f6 == "text":
        c_neg_in_p, _ = K.count_in_hull(G, pos_idx, neg_idx, out_p, rtol, mtol)
        c_pos_in_n, _ = K.count_in_hull(G, neg_idx, pos_idx, out_n, rtol, mtol)
        inter = c_neg_in_p + c_pos_in_n
    elif f6 == "table":
        c_neg_in_p, _ = K.count_in_hull(G, pos_idx, neg_idx, out_p, rtol, mtol)
        inter = pos_idx.size + c_neg_in_p
    else:
        raise ValueError(f"f6 must be 'text' or 'table', got {f6!r}")
    return _ratio_vector(dp, dn, df, amb_p, amb_n, amb_f, inter, m)


def _ratio_vector(dp, dn, df, amb_p, amb_n, amb_f, inter, m):
    """``[f1, …, f6]`` from the dimensions and counts (a zero denominator gives 0)."""
    def ratio(a, b):
        return a / b if b > 0 else 0.0

    return np.array([ratio(dp, amb_p), ratio(dn, amb_n), ratio(dp, amb_f), ratio(dn, amb_f),
                     ratio(df, amb_f), inter / m])


def _prepare(X, y, positive, binarize):
    """Validated points, class rows, supports and the exact membership pre-filters."""
    X, y = check_X_y(X, y, accept_sparse="csr", dtype="numeric", ensure_all_finite=True)
    type_of_target(y)
    pos = _split_masks(y, positive)
    P = point_matrix(X, binarize)
    pos_idx = np.flatnonzero(pos).astype(np.int64)
    neg_idx = np.flatnonzero(~pos).astype(np.int64)
    n = P.shape[1]
    sup_p = K.nonzero_columns_csr(P.indptr, P.indices, pos_idx, n)
    sup_n = K.nonzero_columns_csr(P.indptr, P.indices, neg_idx, n)
    out_p = K.outside_support_csr(P.indptr, P.indices, sup_p)
    out_n = K.outside_support_csr(P.indptr, P.indices, sup_n)
    amb = (int(sup_p.sum()), int(sup_n.sum()), int((sup_p | sup_n).sum()))
    return P, pos_idx, neg_idx, amb, out_p, out_n


_PARAMS = {"X": ["array-like", "sparse matrix"], "y": ["array-like"],
           "positive": [None, "array-like", Real, str], "binarize": [None, Real],
           "f6": [StrOptions({"text", "table"})],
           "rtol": [Interval(Real, 0, 1, closed="neither")],
           "mtol": [Interval(Real, 0, 1, closed="neither")]}


@validate_params(_PARAMS, prefer_skip_nested_validation=True)
def geometric_ratios(X, y, *, positive=None, binarize=None, f6="text", rtol=RTOL, mtol=MTOL):
    """Geometric ratios f1-f6 of Table 1 for a binary problem.

    Sparse path (:mod:`fsbook.geometry.hull`): each cloud is peeled (rows
    owning a column where the rest of the cloud is zero are independent, an
    exact ``O(nnz)`` step) and only the Gram matrix of what is left is formed;
    membership (f6) is a forward substitution on the peeled rows plus a
    projection on the core.  On text-like data the core is small or empty, so
    time and memory grow with ``m · nnz`` instead of ``m³`` and ``m²``.
    :func:`gram_geometric_ratios` is the Gram-matrix reference (same ratios).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (m, n)
        The points (rows).  CSR input is never densified.
    y : array-like of shape (m,)
        Labels.  With two classes the larger label is positive; otherwise pass
        ``positive`` (a label or list of labels forming the positive class).
    positive : label or list of labels, optional
        Labels of the positive cloud ``Pp``; the other samples form ``Pn``.
    binarize : float or None, default=None
        ``None`` computes on the values given; a threshold ``t`` computes on
        the 0/1 matrix ``[X > t]`` (``t = 0`` is the paper's "contains
        feature j" representation of text).
    f6 : {"text", "table"}, default="text"
        Which reading of f6 to use (see the module docstring).
    rtol, mtol : float
        Rank and membership tolerances (:mod:`fsbook.geometry.hull`).

    Returns
    -------
    ndarray of shape (6,)
        ``[f1, f2, f3, f4, f5, f6]``.

    Raises
    ------
    ValueError
        One-class input, NaN/inf, inconsistent lengths, bad parameters.

    Examples
    --------
    Three collinear integer points (affine dimension 1 in two non-zero
    columns) against two points spanning a line in a third column:

    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [1, 2, 0], [2, 4, 0], [0, 0, 3], [0, 0, 5]])
    >>> geometric_ratios(X, [1, 1, 1, 0, 0]).round(3).tolist()
    [0.5, 1.0, 0.333, 0.333, 0.667, 0.2]
    """
    P, pos_idx, neg_idx, amb, out_p, out_n = _prepare(X, y, positive, binarize)
    c = ones_scale(P)
    hp = sparse_hull(P, pos_idx, rtol, ones=c)
    hn = sparse_hull(P, neg_idx, rtol, ones=c, basis=f6 == "text")
    hf = sparse_hull(P, np.arange(P.shape[0], dtype=np.int64), rtol, ones=c, basis=False)
    inter, _ = count_in_sparse_hull(P, hp, neg_idx, out_p, mtol)
    if f6 == "text":
        inter += count_in_sparse_hull(P, hn, pos_idx, out_n, mtol)[0]
    else:
        inter += pos_idx.size
    return _ratio_vector(hp.dim, hn.dim, hf.dim, *amb, inter, P.shape[0])


@validate_params(_PARAMS, prefer_skip_nested_validation=True)
def gram_geometric_ratios(X, y, *, positive=None, binarize=None, f6="text", rtol=RTOL,
                          mtol=MTOL):
    """f1-f6 by the Gram-matrix path: the slow reference of :func:`geometric_ratios`.

    Forms the dense ``m × m`` Gram matrix and eigen-decomposes the based Gram
    matrix of each cloud (:mod:`fsbook.geometry._kernels`): ``O(m²)`` memory
    and ``O(m³)`` time, independent of the sparsity.  Same parameters and
    result as :func:`geometric_ratios`; the tests compare the two.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0, 0], [1, 2, 0], [2, 4, 0], [0, 0, 3], [0, 0, 5]])
    >>> gram_geometric_ratios(X, [1, 1, 1, 0, 0]).round(3).tolist()
    [0.5, 1.0, 0.333, 0.333, 0.667, 0.2]
    """
    P, pos_idx, neg_idx, amb, out_p, out_n = _prepare(X, y, positive, binarize)
    G = (P @ P.T).toarray()
    return ratios_from_gram(G, pos_idx, neg_idx, *amb, out_p, out_n, f6=f6, rtol=rtol,
                            mtol=mtol)


def svd_affine_dim(P):
    """``dim aff`` of the rows of a dense matrix by the paper's formula (one SVD).

    ``dim aff(v_1, …, v_d) = rank(v_1 − v_d, …, v_{d−1} − v_d)`` (Section 3)
    with :func:`numpy.linalg.matrix_rank` (NumPy's default tolerance).

    Parameters
    ----------
    P : ndarray of shape (k, n)

    Returns
    -------
    int
        0 for fewer than two points.
    """
    if P.shape[0] <= 1:
        return 0
    return int(np.linalg.matrix_rank(P[:-1] - P[-1]))


def naive_geometric_ratios(X, y, *, positive=None, binarize=None, f6="text"):
    """The paper's literal method: dense, ``m + 2`` SVDs (Section 5.2).

    A sample ``x`` is in ``aff(P)`` iff ``dim aff(P ∪ {x}) = dim aff(P)``, one
    SVD per sample.  Cost ``O(m · m n²)``.  Used as the independent reference
    in the tests and as the paper's method in the timing figure of the chapter.

    Parameters
    ----------
    X, y, positive, binarize, f6
        As in :func:`geometric_ratios`.

    Returns
    -------
    ndarray of shape (6,)
    """
    X, y = check_X_y(X, y, accept_sparse="csr", dtype="numeric")
    pos = _split_masks(y, positive)
    B = point_matrix(X, binarize).toarray()
    Pp, Pn = B[pos], B[~pos]
    amb = lambda P: int((P != 0).any(axis=0).sum())  # noqa: E731
    dp, dn, df = svd_affine_dim(Pp), svd_affine_dim(Pn), svd_affine_dim(B)
    ap, an, af = amb(Pp), amb(Pn), amb(B)

    def in_hull(P, dP, x):
        return svd_affine_dim(np.vstack([P, x])) == dP

    if f6 == "text":
        inter = sum(in_hull(Pn, dn, x) for x in Pp) + sum(in_hull(Pp, dp, x) for x in Pn)
    elif f6 == "table":
        inter = Pp.shape[0] + sum(in_hull(Pp, dp, x) for x in Pn)
    else:
        raise ValueError(f"f6 must be 'text' or 'table', got {f6!r}")
    return _ratio_vector(dp, dn, df, ap, an, af, inter, B.shape[0])

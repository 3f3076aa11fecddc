"""The six geometric ratios f1-f6 of Table 1 (Section 3 of the paper).

With ``Pp``, ``Pn``, ``Pf`` the positive, negative and full point clouds
(rows of the binarised data matrix ``B = [X > 0]``),

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

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_array, check_X_y
from sklearn.utils.multiclass import type_of_target

from fsbook.geometry import _kernels as K

__all__ = ["geometric_ratios", "naive_geometric_ratios", "binarize", "RATIO_NAMES",
           "ratios_from_gram"]

RATIO_NAMES = ("f1", "f2", "f3", "f4", "f5", "f6")
#: default tolerances, see :mod:`fsbook.geometry._kernels`
RTOL = 1e-10
MTOL = 1e-8


def binarize(X):
    """``[X > 0]`` as a CSR float64 matrix without stored zeros (validated input)."""
    X = check_array(X, accept_sparse="csr", dtype="numeric", ensure_all_finite=True)
    if sp.issparse(X):
        B = sp.csr_matrix(X > 0, dtype=np.float64)
    else:
        B = sp.csr_matrix(np.asarray(X) > 0, dtype=np.float64)
    B.eliminate_zeros()
    B.sort_indices()
    return B


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
    """f1-f6 from a Gram matrix and precomputed ambient dimensions (internal core).

    Parameters
    ----------
    G : ndarray (m, m) Gram matrix of the binarised samples.
    pos_idx, neg_idx : int64 arrays, rows of Pp and Pn.
    amb_p, amb_n, amb_f : int, ambient dimensions of Pp, Pn, Pf.
    out_p, out_n : ndarray (m,), per sample the number of its non-zero
        columns outside the support of Pp (resp. Pn) -- exact pre-filter.
    full_dim : int, optional
        ``dim aff(Pf)`` if already known (it does not depend on the split).

    Returns
    -------
    ndarray (6,)
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

    def ratio(a, b):
        return a / b if b > 0 else 0.0

    return np.array([ratio(dp, amb_p), ratio(dn, amb_n), ratio(dp, amb_f), ratio(dn, amb_f),
                     ratio(df, amb_f), inter / m])


def geometric_ratios(X, y, *, positive=None, f6="text", rtol=RTOL, mtol=MTOL):
    """Geometric ratios f1-f6 of Table 1 for a binary problem.

    Parameters
    ----------
    X : array-like or sparse matrix (m, n)
        Data; binarised as ``X > 0`` (the paper's 0/1 "contains feature j").
        CSR input is never densified: only the ``m × m`` Gram matrix is formed.
    y : array-like (m,)
        Labels.  With two classes the larger label is positive; otherwise pass
        ``positive`` (a label or list of labels forming the positive class).
    positive : label or list of labels, optional
    f6 : {"text", "table"}, default "text"
        Which reading of f6 to use (see the module docstring).
    rtol, mtol : float
        Rank and membership tolerances (:mod:`fsbook.geometry._kernels`).

    Returns
    -------
    ndarray (6,)
        ``[f1, f2, f3, f4, f5, f6]``.

    Raises
    ------
    ValueError
        One-class input, NaN/inf, inconsistent lengths.
    """
    X, y = check_X_y(X, y, accept_sparse="csr", dtype="numeric", ensure_all_finite=True)
    type_of_target(y)
    pos = _split_masks(y, positive)
    B = binarize(X)
    G = (B @ B.T).toarray()
    pos_idx = np.flatnonzero(pos).astype(np.int64)
    neg_idx = np.flatnonzero(~pos).astype(np.int64)
    n = B.shape[1]
    sup_p = K.nonzero_columns_csr(B.indptr, B.indices, pos_idx, n)
    sup_n = K.nonzero_columns_csr(B.indptr, B.indices, neg_idx, n)
    out_p = K.outside_support_csr(B.indptr, B.indices, sup_p)
    out_n = K.outside_support_csr(B.indptr, B.indices, sup_n)
    return ratios_from_gram(G, pos_idx, neg_idx, int(sup_p.sum()), int(sup_n.sum()),
                            int((sup_p | sup_n).sum()), out_p, out_n, f6=f6, rtol=rtol, mtol=mtol)


def _naive_affine_dim(P):
    if P.shape[0] <= 1:
        return 0
    return int(np.linalg.matrix_rank(P[:-1] - P[-1]))


def naive_geometric_ratios(X, y, *, positive=None, f6="text"):
    """Reference implementation following the paper literally (dense, m + 2 SVDs).

    ``dim aff(v_1, …, v_d) = rank(v_1 − v_d, …, v_{d−1} − v_d)`` with
    ``numpy.linalg.matrix_rank`` (SVD, NumPy's default tolerance); a sample
    ``x`` is in ``aff(P)`` iff ``dim aff(P ∪ {x}) = dim aff(P)`` -- one SVD per
    sample.  Cost ``O(m · m n²)``-ish; used only for tests and the timing figure.
    """
    X, y = check_X_y(X, y, accept_sparse="csr", dtype="numeric")
    pos = _split_masks(y, positive)
    B = binarize(X).toarray()
    Pp, Pn = B[pos], B[~pos]
    amb = lambda P: int((P != 0).any(axis=0).sum())  # noqa: E731
    dp, dn, df = _naive_affine_dim(Pp), _naive_affine_dim(Pn), _naive_affine_dim(B)
    ap, an, af = amb(Pp), amb(Pn), amb(B)

    def in_hull(P, dP, x):
        return _naive_affine_dim(np.vstack([P, x])) == dP

    if f6 == "text":
        inter = sum(in_hull(Pn, dn, x) for x in Pp) + sum(in_hull(Pp, dp, x) for x in Pn)
    elif f6 == "table":
        inter = Pp.shape[0] + sum(in_hull(Pp, dp, x) for x in Pn)
    else:
        raise ValueError(f"f6 must be 'text' or 'table', got {f6!r}")
    r = lambda a, b: a / b if b > 0 else 0.0  # noqa: E731
    return np.array([r(dp, ap), r(dn, an), r(dp, af), r(dn, af), r(df, af), inter / B.shape[0]])

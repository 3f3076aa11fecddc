"""Booleanisation of tabular data for the boolean methods (HKL, geometric ratios).

Two kinds of basic boolean features are built from the columns of a data set:

* nominal column ``j`` with levels ``L_1..L_k`` (integer codes ``0..k-1`` as
  returned by the ``fsbook.datasets`` loaders, NaN = missing) gives the
  one-hot indicators ``name=L_l`` (:func:`one_hot`);
* numeric column ``j`` gives threshold indicators ``name>t`` for quantile
  thresholds ``t`` (:func:`quantile_thresholds`, :func:`threshold`).

A missing value (NaN) gives an all-zero block of indicators for its column
(unless ``drop_missing=False`` in :func:`one_hot`, which adds a ``name=?``
indicator).  :func:`booleanize` combines both from a loader's ``Bunch``.
Every function returns ``(X_bool, names)``: a boolean ndarray of shape
``(m, n_bool)`` and the list of the ``n_bool`` feature names.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp


def _as_2d_float(X):
    if sp.issparse(X):
        raise ValueError("sparse input is not supported: booleanise counts with X > 0 instead")
    X = np.asarray(X)
    if X.dtype == bool:
        X = X.astype(np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-d array, got shape {X.shape}")
    if X.dtype.kind not in "biuf":
        raise ValueError(f"X must be numeric, got dtype {X.dtype}")
    X = X.astype(np.float64)
    if np.isinf(X).any():
        raise ValueError("X contains infinite values")
    return X


def _names(feature_names, n):
    if feature_names is None:
        return [f"x{j}" for j in range(n)]
    names = [str(s) for s in feature_names]
    if len(names) != n:
        raise ValueError(f"feature_names has {len(names)} entries for {n} columns")
    return names


def one_hot(X, categories, drop_missing=True, feature_names=None):
    """One-hot indicators of nominal columns.

    Parameters
    ----------
    X : array of shape (m, n)
        Integer codes ``0..k_j-1`` into ``categories[j]``; NaN = missing.
    categories : list of n lists of level names
    drop_missing : bool, default True
        If True a missing value gives all-zero indicators; if False an extra
        indicator ``name=?`` is added for columns with missing values.
    feature_names : list of n str, optional (default ``x0, x1, ...``)

    Returns
    -------
    X_bool : bool ndarray (m, sum_j k_j [+ missing indicators])
    names : list of str ``"<feature>=<level>"``
    """
    X = _as_2d_float(X)
    m, n = X.shape
    if categories is None or len(categories) != n:
        raise ValueError(f"categories must list the levels of each of the {n} columns")
    names_in = _names(feature_names, n)
    blocks, names = [], []
    for j, levels in enumerate(categories):
        if levels is None or len(levels) == 0:
            raise ValueError(f"column {j} ({names_in[j]}) has no levels: it is not nominal")
        col = X[:, j]
        missing = np.isnan(col)
        codes = col[~missing]
        if np.any(codes != np.round(codes)) or np.any(codes < 0) or np.any(codes >= len(levels)):
            raise ValueError(f"column {j} ({names_in[j]}) must hold integer codes 0..{len(levels) - 1} or NaN")
        block = np.zeros((m, len(levels)), dtype=bool)
        block[np.flatnonzero(~missing), codes.astype(np.int64)] = True
        blocks.append(block)
        names += [f"{names_in[j]}={lev}" for lev in levels]
        if not drop_missing and missing.any():
            blocks.append(missing[:, None])
            names.append(f"{names_in[j]}=?")
    X_bool = np.hstack(blocks) if blocks else np.zeros((m, 0), dtype=bool)
    return X_bool, names


def _weighted_lower_quantiles(col, weights, qs):
    """``np.quantile(col, qs, method="lower")`` of the sample in which value ``col[i]`` has weight
    ``weights[i]`` (positive): the value at position ``⌊q (W − 1)⌋`` (``W = Σ weights``) of the
    sorted values, value ``i`` filling ``weights[i]`` positions.  For integer weights this is the
    quantile of the repeated values."""
    order = np.argsort(col, kind="stable")
    cum = np.cumsum(weights[order])
    pos = np.floor((cum[-1] - 1.0) * qs)
    return col[order][np.minimum(np.searchsorted(cum, pos, side="right"), col.size - 1)]


def quantile_thresholds(X, n_bins=4, sample_weight=None):
    """Thresholds at the ``k/n_bins`` quantiles (k = 1..n_bins-1) of each column.

    The quantiles are taken with ``method="lower"`` (an observed value, no
    interpolation), so distinct thresholds give distinct indicator columns
    ``x > t``.  Missing values are ignored.  Only thresholds ``t`` with ``min <= t < max``
    are kept (so ``x > t`` is never constant); repeated quantiles are merged;
    a non-constant column whose quantiles all equal its maximum gets the
    single threshold ``min``.  A constant or all-missing column gets none.

    ``sample_weight`` (non-negative, one per row) weights the rows: the quantiles are those of
    the sample in which row ``i`` counts ``sample_weight[i]`` times (integer weights give the
    thresholds of the repeated rows; rows of zero weight are left out, also from ``min`` and
    ``max``).  ``None``: every row counts once (``np.quantile``).

    Returns
    -------
    list of n 1-d float arrays
    """
    X = _as_2d_float(X)
    if not isinstance(n_bins, numbers.Integral) or isinstance(n_bins, bool) or n_bins < 2:
        raise ValueError(f"n_bins must be an integer >= 2, got {n_bins!r}")
    qs = np.arange(1, n_bins) / n_bins
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight, dtype=np.float64)
        if sample_weight.shape != (X.shape[0],) or not np.all(sample_weight >= 0):
            raise ValueError("sample_weight must be non-negative, one per row")
    out = []
    for j in range(X.shape[1]):
        col = X[:, j]
        if sample_weight is None:
            col = col[~np.isnan(col)]
        else:
            keep = ~np.isnan(col) & (sample_weight > 0)
            col, wcol = col[keep], sample_weight[keep]
        if col.size == 0 or col.min() == col.max():
            out.append(np.zeros(0))
            continue
        if sample_weight is None:
            t = np.unique(np.quantile(col, qs, method="lower"))
        else:
            t = np.unique(_weighted_lower_quantiles(col, wcol, qs))
        t = t[(t >= col.min()) & (t < col.max())]
        if t.size == 0:
            t = np.array([col.min()])
        out.append(t.astype(np.float64))
    return out


def threshold(X, thresholds=None, n_bins=4, feature_names=None):
    """Threshold indicators ``x_j > t`` of numeric columns.

    Parameters
    ----------
    X : array of shape (m, n), NaN = missing (gives False for every threshold)
    thresholds : list of n 1-d arrays, optional
        Default: :func:`quantile_thresholds` ``(X, n_bins)``.  Pass the
        thresholds computed on a training set to transform a test set.
    n_bins : int, default 4
    feature_names : list of n str, optional

    Returns
    -------
    X_bool : bool ndarray (m, total number of thresholds)
    names : list of str ``"<feature>><t>"`` (t printed with 6 significant digits)
    """
    X = _as_2d_float(X)
    names_in = _names(feature_names, X.shape[1])
    if thresholds is None:
        thresholds = quantile_thresholds(X, n_bins)
    if len(thresholds) != X.shape[1]:
        raise ValueError(f"thresholds must have one entry per column ({X.shape[1]}), got {len(thresholds)}")
    blocks, names = [], []
    for j, ts in enumerate(thresholds):
        ts = np.atleast_1d(np.asarray(ts, dtype=np.float64))
        if ts.size == 0:
            continue
        col = X[:, j][:, None]
        with np.errstate(invalid="ignore"):
            blocks.append(np.where(np.isnan(col), False, col > ts[None, :]))
        names += [f"{names_in[j]}>{t:.6g}" for t in ts]
    X_bool = np.hstack(blocks) if blocks else np.zeros((X.shape[0], 0), dtype=bool)
    return X_bool, names


def booleanize(bunch, n_bins=4, thresholds=None, drop_missing=True):
    """Boolean features of a loader's ``Bunch`` (``data``, ``categories``, ``feature_names``).

    Nominal columns (``categories[j]`` a list) are one-hot encoded, numeric
    columns (``categories[j] is None``, or no ``categories``) thresholded at
    quantiles; the indicators of each column appear in the column order.

    Parameters
    ----------
    bunch : Bunch or dict with ``data`` (and optionally ``categories``, ``feature_names``)
    n_bins : int, default 4
    thresholds : list of n arrays (None for nominal columns), optional
        Thresholds from a training set; default: quantiles of ``bunch.data``.
    drop_missing : bool, default True

    Returns
    -------
    X_bool : bool ndarray (m, n_bool)
    names : list of str
    """
    if "data" not in bunch:
        raise ValueError("bunch must have a 'data' entry")
    X = _as_2d_float(bunch["data"])
    n = X.shape[1]
    categories = bunch.get("categories") or [None] * n
    if len(categories) != n:
        raise ValueError(f"categories has {len(categories)} entries for {n} columns")
    names_in = _names(bunch.get("feature_names"), n)
    if thresholds is not None and len(thresholds) != n:
        raise ValueError(f"thresholds must have one entry per column ({n})")
    blocks, names = [], []
    for j in range(n):
        col, name = X[:, [j]], [names_in[j]]
        if categories[j] is not None:
            b, nm = one_hot(col, [categories[j]], drop_missing=drop_missing, feature_names=name)
        else:
            ts = None if thresholds is None else [thresholds[j]]
            b, nm = threshold(col, ts, n_bins=n_bins, feature_names=name)
        blocks.append(b)
        names += nm
    return np.hstack(blocks), names

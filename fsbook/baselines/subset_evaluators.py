"""Weka's attribute-subset evaluators: CFS, consistency, filtered (CFS after SpreadSubsample).

Each evaluator is built on discretised data (:func:`fsbook.baselines.mdl.discretize`) and offers

* ``merit(S)`` -- the merit of a subset ``S`` (sorted attribute indices),
* ``merits_add(S, cand)`` -- the merits of ``S ∪ {a}`` for every candidate ``a`` at once (the
  inner loop of every forward search, vectorised),
* ``post_process(S)`` -- Weka's post-processing of the search result (CFS: locally predictive
  attributes).

Definitions follow Weka 3.9's ``CfsSubsetEval``, ``ConsistencySubsetEval`` and
``FilteredSubsetEval`` (Hall 1999; Liu and Setiono 1996).  Missing values are coded ``-1`` in the
discretised codes; CFS distributes their counts as Weka does (:func:`distribute_missing`), the
consistency evaluator treats a missing value as a value of its own, as Weka does.
"""
from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp

from fsbook.baselines.mdl import _xlogx

__all__ = ["symmetric_uncertainty", "gain_ratio", "distribute_missing", "CfsEvaluator",
           "ConsistencyEvaluator", "spread_subsample"]

_EQ = 1e-6            # Weka's Utils.eq tolerance
_DENSE_LIMIT = 8000   # one-hot columns up to which CFS forms all co-occurrence counts at once


def _entropies(joint):
    """``H(X), H(Y), H(X, Y)`` in nats of contingency tables ``joint[..., i, j]``."""
    total = joint.sum(axis=(-2, -1))
    safe = np.where(total > 0, total, 1.0)
    hx = (_xlogx(total) - _xlogx(joint.sum(axis=-1)).sum(axis=-1)) / safe
    hy = (_xlogx(total) - _xlogx(joint.sum(axis=-2)).sum(axis=-1)) / safe
    # the joint sum in sorted order: SU(a, b) and SU(b, a) agree to the last bit
    cells = np.sort(_xlogx(joint).reshape(*joint.shape[:-2], -1), axis=-1)
    hxy = (_xlogx(total) - cells.sum(axis=-1)) / safe
    return hx, hy, hxy


def symmetric_uncertainty(joint):
    """``SU = 2 (H(X) + H(Y) − H(X,Y)) / (H(X) + H(Y))`` of contingency tables (0 if both constant).

    Parameters
    ----------
    joint : array (..., L_x, L_y) of counts
    """
    hx, hy, hxy = _entropies(np.asarray(joint, dtype=np.float64))
    den = hx + hy
    with np.errstate(invalid="ignore", divide="ignore"):
        su = np.where(den > _EQ, 2.0 * (hx + hy - hxy) / np.where(den > _EQ, den, 1.0), 0.0)
    return np.clip(su, 0.0, 1.0)


def gain_ratio(joint):
    """Gain ratio ``(H(C) − H(C|A)) / H(A)`` of tables ``joint[..., a, c]`` (0 if ``H(A) = 0``).

    Weka's ``GainRatioAttributeEval`` (the default ranker of ``RankSearch``).
    """
    ha, hc, hac = _entropies(np.asarray(joint, dtype=np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ha > _EQ, (ha + hc - hac) / np.where(ha > _EQ, ha, 1.0), 0.0)


def distribute_missing(joint):
    """Spread the missing-value counts of contingency tables over the observed values (Weka).

    Weka 3.9's ``CfsSubsetEval.symmUncertCorr`` with ``missingSeparate`` false (its default): the
    last row and the last column of each table count the examples on which the row attribute,
    respectively the column attribute, is missing.  Unless either attribute is missing on every
    example (then the table is kept as it is: missing acts as a value of its own),

    1. the count of "row missing, column value ``j``" is added to the cells ``(i, j)`` in
       proportion to the row totals ``n_i· / (m − n_miss·)`` of the observed row values (totals
       of the original table, over all columns, missing included);
    2. likewise "column missing, row value ``i``" goes to ``(i, j)`` in proportion to the column
       totals ``n_·j / (m − n_·miss)``;
    3. the "both missing" count goes to ``(i, j)`` in proportion to the original cell counts
       ``n_ij / (m − total missing)``, unless no example has both values (then it stays).

    The three shares are added to each cell in this order, as Weka adds them, so that the
    single-precision correlations are Weka's.  The row attribute is the one of larger index in
    Weka's evaluator (``correlate(i, j)`` with ``i > j``); the spread is symmetric up to the
    order of these additions.

    Parameters
    ----------
    joint : array (..., L_x + 1, L_y + 1) of counts, last row and column = missing

    Returns
    -------
    array of the same shape (float64): the missing row and column are zero unless kept as above

    Examples
    --------
    >>> t = np.array([[3., 1., 0.], [1., 3., 0.], [2., 0., 0.]])  # two rows with x missing
    >>> distribute_missing(t)[:2, :2].tolist()
    [[4.0, 1.0], [2.0, 3.0]]
    """
    C0 = np.asarray(joint, dtype=np.float64)
    m = C0.sum(axis=(-2, -1))
    rows, cols = C0.sum(axis=-1), C0.sum(axis=-2)
    row_miss, col_miss, both = rows[..., -1], cols[..., -1], C0[..., -1, -1]
    spread = (row_miss < m) & (col_miss < m)
    missing = row_miss + col_miss - both
    share3 = spread & (both > 0) & (missing != m)

    def ratio(num, den, ok):
        return num / np.where(ok, den, 1.0)[..., None]

    out = C0.copy()
    obs = out[..., :-1, :-1]
    t1 = ratio(rows[..., :-1], m - row_miss, spread)[..., :, None] * C0[..., -1, None, :-1]
    t2 = ratio(cols[..., :-1], m - col_miss, spread)[..., None, :] * C0[..., :-1, -1, None]
    t3 = (C0[..., :-1, :-1] / np.where(share3, m - missing, 1.0)[..., None, None]
          * both[..., None, None])
    s1, s3 = spread[..., None, None], share3[..., None, None]
    obs[...] = np.where(s1, obs + t1, obs)
    obs[...] = np.where(s1, obs + t2, obs)
    obs[...] = np.where(s3, obs + t3, obs)
    out[..., -1, :-1] = np.where(spread[..., None], 0.0, out[..., -1, :-1])
    out[..., :-1, -1] = np.where(spread[..., None], 0.0, out[..., :-1, -1])
    out[..., -1, -1] = np.where(share3, 0.0, out[..., -1, -1])
    return out


def _onehot(codes, levels):
    """Sparse one-hot matrix (m, Σ L_j) of integer codes and the column offsets.

    Missing codes (``-1``) must have been mapped to a level of their own by the caller.
    """
    m, n = codes.shape
    offsets = np.concatenate([[0], np.cumsum(levels)])
    rows = np.repeat(np.arange(m), n)
    cols = (codes + offsets[:-1]).ravel()
    Z = sp.csr_matrix((np.ones(m * n), (rows, cols)), shape=(m, int(offsets[-1])))
    return Z, offsets


def _class_tables(codes, levels, y, n_classes):
    """Contingency tables attribute × class of every column, shape (n, max L, K).

    With missing values (codes ``-1``) the tables get a last "missing" row (and an empty
    "missing class" column) whose counts are spread by :func:`distribute_missing`, as Weka's
    ``CfsSubsetEval`` and ``GainRatioAttributeEval`` do by default.
    """
    m, n = codes.shape
    missing = bool((codes < 0).any())
    Lmax = int(levels.max()) + missing
    codes = np.where(codes < 0, Lmax - 1, codes)
    idx = (np.arange(n)[None, :] * Lmax + codes) * n_classes + y[:, None]
    tab = np.bincount(idx.ravel(), minlength=n * Lmax * n_classes).reshape(n, Lmax, n_classes)
    return distribute_missing(np.pad(tab, ((0, 0), (0, 0), (0, 1)))) if missing else tab


class CfsEvaluator:
    """Correlation-based feature subset evaluation (Weka's ``CfsSubsetEval``, nominal class).

    Merit of a subset ``S`` of ``k`` attributes (Hall 1999, eq. 4.2 of his thesis):
    ``M_S = Σ_{i∈S} r_ic / sqrt(k + 2 Σ_{i<j∈S} r_ij)`` with ``r`` the symmetric uncertainty of
    the discretised attributes, stored in single precision as Weka does.  A zero correlation
    between two attributes counts as 1 (Weka's convention: a constant attribute is maximally
    redundant), with the class as 0.  Defaults as in Weka: missing values (codes ``-1``) not a
    value of their own but their counts spread over the observed values
    (:func:`distribute_missing`, Weka's ``CfsSubsetEval.symmUncertCorr``), locally predictive
    attributes added after the search (threshold 0, Weka's ``addLocallyPredictive``).

    The correlations are computed lazily column by column (one sparse product of the one-hot
    matrix per attribute that enters a subset), or all at once by one product when the one-hot
    matrix has at most 8 000 columns; the merits of all one-attribute extensions of a subset are
    then one vector operation.  Weka sums the same single-precision correlations in double
    precision, so merits agree to rounding of the summation order.

    Parameters
    ----------
    codes : int array (m, n), levels : int array (n,), y : int array (m,), n_classes : int
    locally_predictive : bool, default True
    """

    def __init__(self, codes, levels, y, n_classes, locally_predictive=True):
        self.codes, self.levels, self.y, self.n_classes = codes, levels, y, n_classes
        self.locally_predictive = locally_predictive
        self.n_features = codes.shape[1]
        self._missing = bool((codes < 0).any())
        # a missing value is one more level, the last of its attribute's one-hot block
        self._Z, self._offsets = _onehot(np.where(codes < 0, levels[None, :], codes),
                                         levels + self._missing)
        r = symmetric_uncertainty(_class_tables(codes, levels, y, n_classes)).astype(np.float32)
        r[np.abs(r) < _EQ] = 0.0
        self.r_class = r
        self._cols = {}
        # the one-hot co-occurrences at once when they fit (exact integer counts either way);
        # a row of correlations is computed when a search first asks for it
        self._gram = None
        if self._Z.shape[1] <= _DENSE_LIMIT:
            Zd = self._Z.toarray()
            self._gram = Zd.T @ Zd

    def _tables(self, counts):
        """Contingency tables (n, W_s, W) of one attribute ``s`` against every attribute.

        ``counts`` are the co-occurrences (W_s, Σ W) of ``s``'s one-hot block with every block;
        with missing values the last row and the last column (index ``max L``) are "missing".
        """
        off, L = self._offsets, self.levels
        Lmax = int(L.max())
        starts = off[:-1]
        tab = np.zeros((self.n_features, counts.shape[0], Lmax + self._missing))
        for lev in range(Lmax):
            valid = L > lev
            tab[valid, :, lev] = counts[:, starts[valid] + lev].T
        if self._missing:
            tab[:, :, Lmax] = counts[:, starts + L].T
        return tab

    def _su_pairs(self, s, tab):
        """Symmetric uncertainties of the tables ``tab`` (attribute ``s`` × every attribute)."""
        if not self._missing:
            return symmetric_uncertainty(tab)
        # Weka spreads the missing counts with the attribute of larger index as the row
        su = np.empty(self.n_features)
        su[:s + 1] = symmetric_uncertainty(distribute_missing(tab[:s + 1]))
        if s + 1 < self.n_features:
            su[s + 1:] = symmetric_uncertainty(distribute_missing(tab[s + 1:].swapaxes(-1, -2)))
        return su

    def _correlations(self, s):
        """Correlations (float32) between attribute ``s`` and every attribute, from the one-hot
        co-occurrences ``ZᵀZ`` when they have been formed, else from ``s``'s block of ``Z``."""
        Z, off = self._Z, self._offsets
        if self._gram is not None:
            counts = self._gram[off[s]:off[s + 1]]                          # (W_s, Σ W)
        else:
            counts = np.asarray((Z[:, off[s]:off[s + 1]].T @ Z).todense())
        su = self._su_pairs(s, self._tables(counts)).astype(np.float32)
        su[np.abs(su) < _EQ] = 1.0                                    # Weka: zero -> 1 between attributes
        return su

    def corr(self, s):
        """Correlations (float32) of attribute ``s`` with every attribute."""
        if s not in self._cols:
            self._cols[s] = self._correlations(s)
        return self._cols[s]

    def merit(self, subset):
        """Merit of one subset (indices)."""
        subset = np.sort(np.asarray(subset, dtype=np.int64))
        k = subset.size
        if k == 0:
            return 0.0
        num = float(np.sum(self.r_class[subset].astype(np.float64)))
        den = float(k)
        for t in range(1, k):
            den += 2.0 * float(np.sum(self.corr(subset[t])[subset[:t]].astype(np.float64)))
        return num / np.sqrt(den) if den > 0 else 0.0

    def merits_add(self, subset, candidates):
        """Merits of ``subset ∪ {a}`` for every ``a`` in ``candidates`` (vectorised)."""
        subset = np.asarray(subset, dtype=np.int64)
        candidates = np.asarray(candidates, dtype=np.int64)
        num = (float(np.sum(self.r_class[subset].astype(np.float64)))
               + self.r_class[candidates].astype(np.float64))
        den = float(subset.size) + 1.0
        for t in range(1, subset.size):
            den += 2.0 * float(np.sum(self.corr(subset[t])[subset[:t]].astype(np.float64)))
        den = den + 2.0 * sum((self.corr(s)[candidates].astype(np.float64) for s in subset),
                              np.zeros(candidates.size))
        return num / np.sqrt(den)

    def merits_prefix(self, order):
        """Merits of ``order[:1], order[:2], …`` (the prefixes ``RankSearch`` evaluates)."""
        order = np.asarray(order, dtype=np.int64)
        num = np.cumsum(self.r_class[order].astype(np.float64))
        inc = np.ones(order.size)
        for t in range(1, order.size):
            inc[t] += 2.0 * float(np.sum(self.corr(order[t])[order[:t]].astype(np.float64)))
        return num / np.sqrt(np.cumsum(inc))

    def post_process(self, subset):
        """Add locally predictive attributes (Weka's ``addLocallyPredictive``, threshold 0)."""
        if not self.locally_predictive:
            return np.sort(np.asarray(subset, dtype=np.int64))
        best = set(int(s) for s in subset)
        tried = set(best)
        # attributes in decreasing class correlation, ties by index (Weka's strict '>' scan)
        order = np.lexsort((np.arange(self.n_features), -self.r_class.astype(np.float64)))
        for j in order:
            j = int(j)
            if j in tried:
                continue
            tried.add(j)
            rj = self.r_class[j]
            if not best or all(not (self.corr(i)[j] > rj) for i in best):   # SU is symmetric
                best.add(j)
        return np.array(sorted(best), dtype=np.int64)


@numba.njit(cache=True)
def _consistency_add(groups, n_groups, codes, levels, cand, y, n_classes):
    """Consistency of (current groups × candidate attribute) for each candidate."""
    m = groups.shape[0]
    out = np.empty(cand.shape[0])
    for t in range(cand.shape[0]):
        a = cand[t]
        L = levels[a]
        counts = np.zeros((n_groups * L, n_classes))
        for i in range(m):
            counts[groups[i] * L + codes[i, a], y[i]] += 1.0
        s = 0.0
        for g in range(n_groups * L):
            best = 0.0
            for c in range(n_classes):
                if counts[g, c] > best:
                    best = counts[g, c]
            s += best
        out[t] = s / m
    return out


def _group_ids(codes_sub):
    if codes_sub.shape[1] == 0:
        return np.zeros(codes_sub.shape[0], dtype=np.int64), 1
    _, inv = np.unique(codes_sub, axis=0, return_inverse=True)
    inv = inv.ravel().astype(np.int64)
    return inv, int(inv.max()) + 1


class ConsistencyEvaluator:
    """Consistency of a subset (Weka's ``ConsistencySubsetEval``; Liu and Setiono 1996).

    The examples are grouped by their (discretised) values on the subset; the inconsistency count
    of a group is its size minus its majority-class count, and the merit is
    ``1 − Σ_groups inconsistency / m`` (1 minus the inconsistency rate), i.e. the fraction of
    examples a lookup table on the subset classifies correctly.  A missing value (code ``-1``) is
    a value of its own.  The candidates of a forward step are scored by one compiled pass over
    the examples each (numba: a hash-free group count).
    """

    def __init__(self, codes, levels, y, n_classes):
        # Weka's ConsistencySubsetEval.evaluateSubset hashes a missing value as one more value
        # (Double.MAX_VALUE): here the level ``L_j`` of its column
        missing = codes < 0
        if missing.any():
            codes, levels = np.where(missing, levels[None, :], codes), levels + 1
        self.codes, self.levels, self.y, self.n_classes = codes, levels, y, n_classes
        self.n_features = codes.shape[1]

    def merit(self, subset):
        groups, ng = _group_ids(self.codes[:, np.sort(np.asarray(subset, dtype=np.int64))])
        counts = np.zeros((ng, self.n_classes))
        np.add.at(counts, (groups, self.y), 1.0)
        return float(counts.max(axis=1).sum() / self.y.size)

    def merits_add(self, subset, candidates):
        groups, ng = _group_ids(self.codes[:, np.sort(np.asarray(subset, dtype=np.int64))])
        return _consistency_add(groups, ng, self.codes, self.levels,
                                np.asarray(candidates, dtype=np.int64), self.y, self.n_classes)

    def merits_prefix(self, order):
        """Merits of ``order[:1], order[:2], …``: the groups refined one attribute at a time."""
        groups = np.zeros(self.y.size, dtype=np.int64)
        out = np.empty(len(order))
        for t, a in enumerate(order):
            _, groups = np.unique(groups * self.levels[a] + self.codes[:, a], return_inverse=True)
            counts = np.zeros((int(groups.max()) + 1, self.n_classes))
            np.add.at(counts, (groups, self.y), 1.0)
            out[t] = counts.max(axis=1).sum() / self.y.size
        return out

    def post_process(self, subset):
        return np.sort(np.asarray(subset, dtype=np.int64))


def spread_subsample(y, max_spread=0.0, random_state=1):
    """Row indices kept by Weka's ``SpreadSubsample`` (supervised instance filter).

    ``max_spread = 0`` (Weka's default) keeps every example; otherwise each class keeps at most
    ``max_spread ×`` the size of the smallest class, drawn at random.  This is the default filter
    of Weka's ``FilteredSubsetEval``, whose default evaluator is CFS: with the default spread the
    filtered evaluator therefore scores subsets exactly as CFS does on the same rows.
    """
    y = np.asarray(y)
    if max_spread < 0:
        raise ValueError("max_spread must be >= 0")
    if max_spread == 0:
        return np.arange(y.size)
    rng = np.random.default_rng(random_state)
    classes, counts = np.unique(y, return_counts=True)
    cap = int(max_spread * counts.min())
    keep = []
    for c in classes:
        idx = np.flatnonzero(y == c)
        keep.append(idx if idx.size <= cap else np.sort(rng.choice(idx, cap, replace=False)))
    return np.sort(np.concatenate(keep))

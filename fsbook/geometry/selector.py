"""GeometricFeatureSetSelector: the algorithm of Fig. 2 (Section 4 of the paper).

For every binary classifier (``2^(ℓ−1) − 1`` splits of the ℓ classes) and every
union of feature groups (``2^k − 1`` sets) the ratios f1-f6 are computed,
standardised (z-scores over the feature sets of that classifier, Fig. 2 line
9) and fed to the linear and logistic models of Table 2; a set is recommended
iff ``lin_pred > 0`` and ``log_pred ≥ 0.5``.

Speed.  Everything is computed from per-group Gram matrices ``G_g = B_g B_gᵀ``:
the Gram matrix of a union of groups is the sum of its groups' matrices, and
ambient dimensions and the exact "column outside the hull's support" filter
are additive over groups as well.  Each (classifier, set) pair then costs three
eigen-decompositions of at most ``m × m`` matrices and one projection of the
samples (``O(m³)``), independent of the number of columns ``n``; the paper's
method needs ``m + 2`` SVDs of ``m × n`` matrices.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from fsbook import decisions
from fsbook._compat import Interval, Options, StrOptions, fit_context
from fsbook._cost import check_cost
from fsbook._selection import SupportSelectorMixin
from fsbook.geometry import _kernels as K
from fsbook.geometry.candidates import (
    MAX_CANDIDATES,
    binary_splits,
    check_candidate_count,
    feature_subsets,
    group_columns,
    split_label,
    subset_label,
)
from fsbook.geometry.models import GeometricModel, paper_model
from fsbook.geometry.ratios import MTOL, RATIO_NAMES, RTOL, point_matrix, ratios_from_gram

__all__ = ["GeometricFeatureSetSelector", "standardize_within"]


def standardize_within(values, groups):
    """z-scores of the columns of ``values`` within each group (Fig. 2, line 9).

    Parameters
    ----------
    values : array-like of shape (n_rows, n_columns)
    groups : array-like of shape (n_rows,)
        Group label of each row (the binary classifier).

    Returns
    -------
    ndarray of shape (n_rows, n_columns)
        ``(v − mean) / sd`` within each group (population s.d.); a column
        that is constant within a group gets 0 there.
    """
    df = pd.DataFrame(np.asarray(values, dtype=float))
    g = df.groupby(np.asarray(groups), sort=False)
    mean, sd = g.transform("mean"), g.transform(lambda a: a.std(ddof=0))
    z = (df - mean) / sd.where(sd > 0, 1.0)
    return np.where(sd > 0, z, 0.0)


def _subset_gram(grams, s):
    G = grams[s[0]].copy()
    for g in s[1:]:
        G += grams[g]
    return G


def _full_dim(grams, s, rtol):
    G = _subset_gram(grams, s)
    return K.affine_rank(G, np.arange(G.shape[0], dtype=np.int64), rtol)


def _split_ratios(grams, B_groups, y, positive, subsets, full_dims, f6, rtol, mtol):
    pos = np.isin(y, positive)
    pos_idx = np.flatnonzero(pos).astype(np.int64)
    neg_idx = np.flatnonzero(~pos).astype(np.int64)
    per_group = []
    for Bg in B_groups:
        ncol = Bg.shape[1]
        sp_ = K.nonzero_columns_csr(Bg.indptr, Bg.indices, pos_idx, ncol)
        sn_ = K.nonzero_columns_csr(Bg.indptr, Bg.indices, neg_idx, ncol)
        per_group.append((int(sp_.sum()), int(sn_.sum()), int((sp_ | sn_).sum()),
                          K.outside_support_csr(Bg.indptr, Bg.indices, sp_),
                          K.outside_support_csr(Bg.indptr, Bg.indices, sn_)))
    rows = []
    for s in subsets:
        G = _subset_gram(grams, s)
        ap = sum(per_group[g][0] for g in s)
        an = sum(per_group[g][1] for g in s)
        af = sum(per_group[g][2] for g in s)
        op = sum(per_group[g][3] for g in s)
        on = sum(per_group[g][4] for g in s)
        rows.append(ratios_from_gram(G, pos_idx, neg_idx, ap, an, af, op, on, f6=f6, rtol=rtol,
                                     mtol=mtol, full_dim=full_dims[s]))
    return np.array(rows)


#: measured CPU seconds of a default selector on 5 000 × 300 standard normal columns (binarised at 0),
#: two classes, and the growth assumed: linear in the samples, quadratic in the features, and
#: ``splits^0.65`` in the binary splits of the classes (measured: 5.8 times the binary time with
#: 5 classes, 15 splits, at 2 000 × 100)
GEOMETRY_SECONDS_AT_REFERENCE = 37.5


def geometry_seconds(n_samples, n_features, n_splits, n_subsets):
    """Estimated CPU seconds of :meth:`GeometricFeatureSetSelector.fit` (see
    :data:`GEOMETRY_SECONDS_AT_REFERENCE`)."""
    return (GEOMETRY_SECONDS_AT_REFERENCE * (n_samples / 5000) * (n_features / 300) ** 2
            * n_splits ** 0.65 * n_subsets)


class GeometricFeatureSetSelector(SupportSelectorMixin, BaseEstimator):
    """Filter selection of unions of feature groups from the geometry of the classes.

    Parameters
    ----------
    feature_groups : list of array-like of int, optional
        Column indices of each feature type (unigrams, bigrams, …).  Default:
        one group holding all columns (then the only candidate is the full set).
    group_names : list of str, optional
        Labels of the groups in the result tables.
    binarize : float or None, default=0.0
        The paper defines the ratios on the 0/1 matrix "sample i contains
        feature j", so by default the points are ``[X > 0]`` (for text:
        presence of an n-gram).  ``None`` computes on the values given
        (word frequencies, real values), another threshold ``t`` on
        ``[X > t]``.
    model : "paper", GeometricModel, default "paper"
        Decision model; ``"paper"`` is Table 2 with the f3 reading of
        ``f3_sign``.  A refitted model comes from
        :func:`fsbook.geometry.models.fit_models`.
    f3_sign : {-1, +1}, default -1
        Reading of the garbled linear f3 coefficient of Table 2.
    f6 : {"text", "table"}, default "text"
        Definition of f6 (:mod:`fsbook.geometry.ratios`).
    rtol, mtol : float
        Rank and membership tolerances.
    n_jobs : int, optional
        joblib (threads) parallelism over binary classifiers.
    max_candidates : int or None, default 4096
        Refuse (``ValueError``) a fit with more than this many (binary classifier, feature set)
        pairs, ``(2^(ℓ−1) − 1)(2^k − 1)`` for ℓ classes and ``k`` groups; each pair costs
        eigen-decompositions of ``m × m`` matrices, so the cost grows exponentially in ℓ and
        ``k`` (:data:`fsbook.geometry.candidates.MAX_CANDIDATES`; 10 classes of one group are
        511 pairs, 13 classes 4 095).  None: no bound.  Independently, ``fit`` estimates its CPU
        time from the samples, features and pairs (:func:`geometry_seconds`) and refuses at once
        above :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute: on 5 000 × 300 with 5 classes
        about 4 minutes); :func:`fsbook.cost_limits` raises that limit.

    Attributes
    ----------
    classes_ : ndarray
    splits_ : list of tuple
        Positive classes of every binary classifier.
    subsets_ : list of tuple
        Group indices of every candidate feature set.
    results_ : pandas.DataFrame
        One row per (classifier, set): raw ratios ``f1..f6``, standardised
        ``z1..z6``, ``linear``, ``probability``, ``recommended``.
    recommended_ : dict
        Split label → list of recommended set labels.
    support_ : ndarray of bool (n_features_in_,)
        Union over the classifiers of the recommended set with the highest
        predicted probability.  A classifier for which no set is recommended
        contributes no column; if no classifier has a recommended set, every
        column is kept (the selector then gives no reason to drop any) and
        ``no_recommendation_`` lists the classifiers concerned.
    no_recommendation_ : list of str
        Classifiers for which the model recommends no set.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Defined when ``X`` has string column names.

    See Also
    --------
    fsbook.geometry.FeatureGroupSelector : keeps the columns of one union of feature groups; in
        the all-subsets wrapper of Section 3 it labels the sets the models of Table 2 learn from.

    References
    ----------
    .. [1] Feature selection for linear SVMs by geometric properties of the data (six affine-hull
       dimension ratios f1-f6); title, authors and venue as given in the paper text
       ``shared/papers/svm_geometric_feature_selection.txt``. ``references.bib``:
       ``geometric_ratios``. The ratios are its Table 1, the decision models its Table 2 and the algorithm
       its Fig. 2 (the paper numbers no equations).

    Examples
    --------
    Two groups of binary features (say unigrams and bigrams); the first tells class 0 from the others:

    >>> import numpy as np
    >>> from fsbook.geometry import GeometricFeatureSetSelector
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 60)
    >>> informative = rng.random((60, 10)) < np.where(y[:, None] == 0, 0.9, 0.1)
    >>> noise = rng.random((60, 10)) < 0.3
    >>> X = np.hstack([informative, noise]).astype(float)
    >>> groups = [np.arange(0, 10), np.arange(10, 20)]
    >>> sel = GeometricFeatureSetSelector(groups, group_names=["informative", "noise"]).fit(X, y)
    >>> sel.recommended_               # the recommended union of groups of each binary classifier
    {'{0} vs rest': ['informative+noise'], '{0,1} vs rest': ['informative'],
     '{0,2} vs rest': ['informative']}
    >>> sel.transform(X).shape
    (60, 20)
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "feature_groups": [None, list, tuple],
        "group_names": [None, list, tuple],
        "binarize": [None, Real],
        "model": [StrOptions({"paper"}), GeometricModel],
        "f3_sign": [Options(Integral, {-1, 1})],
        "f6": [StrOptions({"text", "table"})],
        "rtol": [Interval(Real, 0, 1, closed="neither")],
        "mtol": [Interval(Real, 0, 1, closed="neither")],
        "n_jobs": [None, Integral],
        "max_candidates": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, feature_groups=None, *, group_names=None, binarize=0.0, model="paper",
                 f3_sign=-1, f6="text", rtol=RTOL, mtol=MTOL, n_jobs=None, max_candidates=MAX_CANDIDATES):
        self.feature_groups = feature_groups
        self.group_names = group_names
        self.binarize = binarize
        self.model = model
        self.f3_sign = f3_sign
        self.f6 = f6
        self.rtol = rtol
        self.mtol = mtol
        self.n_jobs = n_jobs
        self.max_candidates = max_candidates

    def _model(self):
        return self.model if isinstance(self.model, GeometricModel) else paper_model(self.f3_sign)

    @fit_context(prefer_skip_nested_validation=True)
    def compute_ratios(self, X, y):
        """Raw ratios f1-f6 for every (classifier, set) (Fig. 2, lines 1-8).

        Sets ``classes_``, ``groups_``, ``splits_`` and ``subsets_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (m, n)
        y : array-like of shape (m,)
            Class labels (two or more classes).

        Returns
        -------
        pandas.DataFrame
            Columns ``split``, ``subset``, ``positive``, ``groups``, ``f1`` … ``f6``.
        """
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype="numeric")
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError("GeometricFeatureSetSelector needs at least two classes; got 1 class")
        groups = group_columns(self.feature_groups, X.shape[1])
        check_candidate_count(self.classes_.size, len(groups), X.shape[0], self.max_candidates,
                              who=type(self).__name__)
        n_splits = 2 ** (self.classes_.size - 1) - 1
        check_cost(type(self).__name__, f"{X.shape[0]} samples x {X.shape[1]} features, "
                   f"{self.classes_.size} classes",
                   seconds=geometry_seconds(X.shape[0], X.shape[1], n_splits, 2 ** len(groups) - 1),
                   why=f"it computes the geometric ratios of {n_splits} binary classifier(s) (every split "
                       f"of the classes in two) for each of {2 ** len(groups) - 1} feature set(s)",
                   fix="use fewer classes (select per one-vs-rest task), or fewer samples or features")
        self.groups_ = groups
        B = point_matrix(X, self.binarize)
        B_groups = [B[:, g].tocsr() for g in groups]
        for Bg in B_groups:
            Bg.sort_indices()
        grams = [(Bg @ Bg.T).toarray() for Bg in B_groups]
        self.splits_ = binary_splits(self.classes_)
        self.subsets_ = feature_subsets(len(groups))
        dims = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(_full_dim)(grams, s, self.rtol) for s in self.subsets_)
        full_dims = dict(zip(self.subsets_, dims))
        blocks = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(_split_ratios)(grams, B_groups, y, p, self.subsets_, full_dims, self.f6,
                                   self.rtol, self.mtol) for p in self.splits_)
        names = self.group_names
        rows = []
        for p, block in zip(self.splits_, blocks):
            for s, r in zip(self.subsets_, block):
                rows.append({"split": split_label(p), "subset": subset_label(s, names),
                             "positive": p, "groups": s, **dict(zip(RATIO_NAMES, r))})
        return pd.DataFrame(rows)

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute, standardise and classify the ratios of every candidate set (Fig. 2).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (m, n)
            Training data (binarised by ``binarize``).
        y : array-like of shape (m,)
            Class labels.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        df = self.compute_ratios(X, y)
        model = self._model()
        Z = standardize_within(df[list(RATIO_NAMES)].to_numpy(), df["split"].to_numpy())
        for i in range(6):
            df[f"z{i + 1}"] = Z[:, i]
        df["linear"] = model.linear(Z)
        df["probability"] = model.probability(Z)
        df["recommended"] = model.predict(Z)
        self.results_ = df
        self.recommended_ = {s: list(d.loc[d["recommended"], "subset"])
                             for s, d in df.groupby("split", sort=False)}
        support = np.zeros(self.n_features_in_, dtype=bool)
        self.no_recommendation_ = []
        for split, d in df.groupby("split", sort=False):
            if not d["recommended"].any():
                self.no_recommendation_.append(split)
                continue
            cand = d[d["recommended"]]
            best = cand.iloc[decisions.argbest(cand["probability"].to_numpy(), rtol=decisions.RTOL)]
            for g in best["groups"]:                                   # near-ties: the first
                support[self.groups_[g]] = True
        if not support.any():
            support[:] = True
        self.support_ = support
        return self

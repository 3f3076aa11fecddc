"""All-subsets wrapper that labels feature sets (Section 3 of the geometric-ratios paper).

For every binary classifier (split of the ℓ classes into a positive and a
negative group, :func:`~fsbook.geometry.candidates.binary_splits`) and every
non-empty union of feature groups
(:func:`~fsbook.geometry.candidates.feature_subsets`), a linear SVM is
evaluated by stratified k-fold cross-validation.  The search over unions is
scikit-learn's :class:`~sklearn.model_selection.GridSearchCV` over the
``subset`` parameter of :class:`FeatureGroupSelector` in a pipeline with
:class:`~sklearn.svm.LinearSVC` (the same folds for every union).

**Definition of "optimal"** (the paper only says the labels are "based on
classifier accuracy"): a feature set is *optimal* for a binary classifier iff
its mean CV accuracy is at least the best mean accuracy over all feature sets
of that classifier minus the standard error of that best mean (the
one-standard-error rule; s.e. = fold standard deviation / √k).  Ties within
noise are therefore all optimal, as the paper's "an optimal subset need not be
unique" requires.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.metrics import f1_score, make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_X_y, validate_data

from fsbook._compat import Interval, fit_context, validate_params
from fsbook._selection import SupportSelectorMixin
from fsbook.decisions import SCORE_ATOL
from fsbook.geometry.candidates import (
    MAX_CANDIDATES,
    binary_splits,
    check_candidate_count,
    feature_subsets,
    group_columns,
    split_label,
    subset_label,
)
from fsbook.geometry.ratios import point_matrix

__all__ = ["FeatureGroupSelector", "all_subsets_wrapper", "SVM_TOL", "SVM_MAX_ITER"]

#: Stopping tolerance of the wrapper's liblinear solver.  At scikit-learn's default (1e-4) the
#: solution depends on the BLAS kernel (liblinear calls BLAS): on a 600 × 900 text problem
#: OpenBLAS's Haswell and SkylakeX kernels gave decision values up to 0.02 apart and iteration
#: counts 30 against 39, and a test point at 1e-4 from the boundary flipped, changing a stored CV
#: accuracy.  At 1e-8 the two kernels agree to 8e-7 on every decision value of that problem
#: (the nearest test point lies 4e-5 from the boundary), at about twice the cost.
SVM_TOL = 1e-8
#: liblinear's iteration cap at :data:`SVM_TOL` (1 811 iterations were the most needed there)
SVM_MAX_ITER = 100_000


class FeatureGroupSelector(SupportSelectorMixin, BaseEstimator):
    """Keep the columns of a union of feature groups.

    Parameters
    ----------
    feature_groups : list of array-like of int, default=None
        Column indices of each feature type; ``None`` is one group of all
        columns.
    subset : tuple of int, default=None
        Indices of the groups to keep; ``None`` keeps every group.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features_in_,)
        The kept columns.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Defined when ``X`` has string column names.

    See Also
    --------
    fsbook.geometry.GeometricFeatureSetSelector : the filter that recommends unions of feature
        groups from the geometry of the classes, without fitting an SVM per union.

    References
    ----------
    .. [1] Feature selection for linear SVMs by geometric properties of the data (six affine-hull
       dimension ratios f1-f6); title, authors and venue as given in the paper text
       ``shared/papers/svm_geometric_feature_selection.txt``. ``references.bib``:
       ``geometric_ratios``. Its Section 3 labels the feature sets by an all-subsets wrapper, the
       search this selector is the pipeline step of.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.geometry import FeatureGroupSelector
    >>> X = np.arange(12.0).reshape(2, 6)
    >>> sel = FeatureGroupSelector([[0, 1], [2, 3], [4, 5]], subset=(0, 2)).fit(X)
    >>> sel.get_support(indices=True)
    array([0, 1, 4, 5])
    >>> sel.transform(X)
    array([[ 0.,  1.,  4.,  5.],
           [ 6.,  7., 10., 11.]])
    """

    _requires_y = False
    _sparse_input = "csr"
    _allow_nan = True
    _parameter_constraints = {"feature_groups": [None, list, tuple],
                              "subset": [None, list, tuple]}

    def __init__(self, feature_groups=None, *, subset=None):
        self.feature_groups = feature_groups
        self.subset = subset

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Record the columns of the chosen groups.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data (only its number of columns, and their names, are used).
        y : None
            Ignored.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X = validate_data(self, X, accept_sparse="csr", dtype="numeric",
                          ensure_all_finite="allow-nan")
        groups = group_columns(self.feature_groups, X.shape[1])
        subset = range(len(groups)) if self.subset is None else self.subset
        support = np.zeros(X.shape[1], dtype=bool)
        for g in subset:
            if not 0 <= int(g) < len(groups):
                raise ValueError(f"subset refers to group {g}; there are {len(groups)} groups")
            support[groups[int(g)]] = True
        self.support_ = support
        return self


@validate_params(
    {"X": ["array-like", "sparse matrix"], "y": ["array-like"], "feature_groups": [list, tuple],
     "splits": [None, list, tuple], "cv": [Interval(Integral, 2, None, closed="left")],
     "C": [Interval(Real, 0, None, closed="neither")], "random_state": ["random_state"],
     "n_jobs": [None, Integral], "group_names": [None, list, tuple], "binarize": [None, Real]},
    prefer_skip_nested_validation=True)
def all_subsets_wrapper(X, y, feature_groups, *, splits=None, cv=5, C=1.0, random_state=0,
                        n_jobs=None, group_names=None, binarize=0.0):
    """Label every (binary classifier, feature set) pair with linear-SVM CV accuracy.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (m, n)
        Data.
    y : array-like of shape (m,)
        Class labels (two or more classes).
    feature_groups : list of array-like of int
        Column indices of each feature type.
    splits : list of tuple, optional
        Positive classes of the binary classifiers; default all
        :func:`~fsbook.geometry.candidates.binary_splits` of ``np.unique(y)``.
    cv : int, default=5
        Stratified folds (shuffled with ``random_state``; the same folds for
        every feature set of a classifier).
    C : float, default=1.0
        Linear SVM cost.
    random_state : int, default=0
        Seed of the folds and of liblinear's coordinate order.
    n_jobs : int, optional
        joblib parallelism of :class:`~sklearn.model_selection.GridSearchCV`.
    group_names : list of str, optional
        Names of the groups in the ``subset`` labels.
    binarize : float or None, default=0.0
        Threshold of the 0/1 representation the SVM is trained on (the
        paper's "contains feature j"); ``None`` trains on the values given.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``split``, ``subset`` (labels), ``positive``,
        ``groups`` (tuples), ``n_features``, ``accuracy``, ``accuracy_se``,
        ``f1_score``, ``accuracy_z`` (z-score within the classifier), ``optimal``.
    """
    X, y = check_X_y(X, y, accept_sparse="csr", dtype="numeric")
    B = point_matrix(X, binarize)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError("the wrapper needs at least two classes")
    groups = group_columns(feature_groups, X.shape[1])
    if splits is None:       # 2^(ℓ−1) − 1 classifiers x 2^k − 1 sets, each a grid of SVM fits: refuse a count too large to run
        check_candidate_count(classes.size, len(groups), X.shape[0], MAX_CANDIDATES, who="all_subsets_wrapper")
    splits = binary_splits(classes) if splits is None else [tuple(s) for s in splits]
    subsets = feature_subsets(len(groups))
    pipe = Pipeline([("groups", FeatureGroupSelector(groups)),
                     ("svm", LinearSVC(C=C, max_iter=SVM_MAX_ITER, tol=SVM_TOL,
                                      random_state=random_state))])
    scoring = {"accuracy": "accuracy", "f1": make_scorer(f1_score, zero_division=0.0)}
    frames = []
    for positive in splits:
        t = np.isin(y, positive).astype(int)
        folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state)
        search = GridSearchCV(pipe, {"groups__subset": subsets}, scoring=scoring, cv=folds,
                              refit=False, n_jobs=n_jobs).fit(B, t)
        res = search.cv_results_
        acc = np.column_stack([res[f"split{k}_test_accuracy"] for k in range(cv)])
        frames.append(pd.DataFrame({
            "split": split_label(positive), "subset": [subset_label(s, group_names)
                                                       for s in subsets],
            "positive": [positive] * len(subsets), "groups": subsets,
            "n_features": [int(sum(groups[g].size for g in s)) for s in subsets],
            "accuracy": acc.mean(axis=1), "accuracy_se": acc.std(axis=1, ddof=1) / np.sqrt(cv),
            "f1_score": np.asarray(res["mean_test_f1"], dtype=float)}))
    df = pd.concat(frames, ignore_index=True)
    g = df.groupby("split", sort=False)["accuracy"]
    sd = g.transform(lambda a: a.std(ddof=0))
    df["accuracy_z"] = np.where(sd > 0, (df["accuracy"] - g.transform("mean"))
                                / sd.where(sd > 0, 1), 0.0)
    best = g.transform("idxmax")
    # within one standard error of the best; SCORE_ATOL keeps a subset lying exactly one s.e.
    # below (common: accuracies are multiples of 1/n) on the same side on every machine
    df["optimal"] = df["accuracy"] >= (df.loc[best, "accuracy"].to_numpy()
                                       - df.loc[best, "accuracy_se"].to_numpy() - SCORE_ATOL)
    return df

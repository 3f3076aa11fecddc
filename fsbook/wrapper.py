"""All-subsets wrapper that labels feature sets (Section 3 of the geometric-ratios paper).

For every binary classifier (split of the ℓ classes into a positive and a
negative group, :func:`binary_splits`) and every non-empty union of feature
groups (:func:`feature_subsets`), a linear SVM is evaluated by stratified
k-fold cross-validation on the binarised features.

**Definition of "optimal"** (the paper only says the labels are "based on
classifier accuracy"): a feature set is *optimal* for a binary classifier iff
its mean CV accuracy is at least the best mean accuracy over all feature sets
of that classifier minus the standard error of that best mean (the
one-standard-error rule; s.e. = fold standard deviation / √k).  Ties within
noise are therefore all optimal, as the paper's "an optimal subset need not be
unique" requires.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_X_y

__all__ = ["binary_splits", "feature_subsets", "all_subsets_wrapper", "subset_label",
           "split_label"]


def binary_splits(classes):
    """The ``2^(ℓ−1) − 1`` binary classifiers of ℓ classes (Section 3).

    Every split is returned once: the positive group is a proper non-empty
    subset containing the first class (the symmetric split is the same
    classifier with labels swapped).

    Returns
    -------
    list of tuple
        Positive classes of each split.
    """
    classes = list(classes)
    if len(classes) < 2:
        raise ValueError("need at least two classes")
    first, rest = classes[0], classes[1:]
    out = []
    for r in range(0, len(rest)):
        for comb in itertools.combinations(rest, r):
            out.append((first,) + comb)
    return out


def feature_subsets(k):
    """The ``2^k − 1`` non-empty unions of ``k`` feature groups, by size then lexicographically."""
    return [c for r in range(1, k + 1) for c in itertools.combinations(range(k), r)]


def subset_label(subset, names=None):
    """``"uni+bi"``-style label of a union of groups."""
    return "+".join(str(names[g]) if names is not None else str(g) for g in subset)


def split_label(positive, names=None):
    """``"{a,b} vs rest"``-style label of a binary classifier."""
    inner = ",".join(str(names[c]) if names is not None else str(c) for c in positive)
    return "{" + inner + "} vs rest"


def _columns(feature_groups, subset):
    return np.concatenate([np.asarray(feature_groups[g], dtype=np.int64) for g in subset])


def _evaluate(B, t, cols, folds, C):
    Xs = B[:, cols]
    acc, f1 = [], []
    for tr, te in folds:
        clf = LinearSVC(C=C, max_iter=5000, tol=1e-4).fit(Xs[tr], t[tr])
        pred = clf.predict(Xs[te])
        acc.append(float(np.mean(pred == t[te])))
        f1.append(float(f1_score(t[te], pred, zero_division=0.0)))
    acc, f1 = np.array(acc), np.array(f1)
    return acc.mean(), acc.std(ddof=1) / np.sqrt(len(acc)), f1.mean()


def all_subsets_wrapper(X, y, feature_groups, *, splits=None, cv=5, C=1.0, random_state=0,
                        n_jobs=None, group_names=None, progress=False):
    """Label every (binary classifier, feature set) pair with linear-SVM CV accuracy.

    Parameters
    ----------
    X : array-like or sparse (m, n)
        Binarised as ``X > 0``.
    y : array-like (m,)
    feature_groups : list of array-like of int
        Column indices of each feature type.
    splits : list of tuple, optional
        Positive classes of the binary classifiers; default all
        :func:`binary_splits` of ``np.unique(y)``.
    cv : int, default 5
        Stratified folds (shuffled with ``random_state``; the same folds for
        every feature set of a classifier).
    C : float, default 1.0
        Linear SVM cost.
    n_jobs : int, optional
        joblib parallelism over (classifier, feature set) pairs.
    group_names : list of str, optional
    progress : bool
        tqdm progress bar.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``split``, ``subset`` (labels), ``positive``,
        ``groups`` (tuples), ``n_features``, ``accuracy``, ``accuracy_se``,
        ``f1_score``, ``accuracy_z`` (z-score within the classifier), ``optimal``.
    """
    from fsbook.geometry.ratios import binarize
    X, y = check_X_y(X, y, accept_sparse="csr", dtype="numeric")
    B = binarize(X)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError("the wrapper needs at least two classes")
    splits = binary_splits(classes) if splits is None else [tuple(s) for s in splits]
    subsets = feature_subsets(len(feature_groups))
    jobs, meta = [], []
    for positive in splits:
        t = np.isin(y, positive).astype(int)
        skf = StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state)
        folds = list(skf.split(np.zeros(len(t)), t))
        for s in subsets:
            cols = _columns(feature_groups, s)
            jobs.append(delayed(_evaluate)(B, t, cols, folds, C))
            meta.append((positive, s, cols.size))
    if progress:
        from tqdm.auto import tqdm
        jobs = tqdm(jobs, desc="wrapper", total=len(meta))
    res = Parallel(n_jobs=n_jobs)(jobs)
    df = pd.DataFrame({
        "split": [split_label(p) for p, _, _ in meta],
        "subset": [subset_label(s, group_names) for _, s, _ in meta],
        "positive": [p for p, _, _ in meta],
        "groups": [s for _, s, _ in meta],
        "n_features": [c for _, _, c in meta],
        "accuracy": [r[0] for r in res],
        "accuracy_se": [r[1] for r in res],
        "f1_score": [r[2] for r in res],
    })
    g = df.groupby("split", sort=False)["accuracy"]
    sd = g.transform(lambda a: a.std(ddof=0))
    df["accuracy_z"] = np.where(sd > 0, (df["accuracy"] - g.transform("mean")) / sd.where(sd > 0, 1), 0.0)
    best = df.groupby("split", sort=False)["accuracy"].transform("idxmax")
    df["optimal"] = df["accuracy"] >= (df.loc[best, "accuracy"].to_numpy()
                                       - df.loc[best, "accuracy_se"].to_numpy())
    return df

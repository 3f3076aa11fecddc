"""The problems of the geometric-ratios chapter, built from fsbook.datasets.

A problem is a dict with ``X`` (sparse), ``y``, ``groups`` (column indices of each feature type)
and ``group_names``: :func:`text_problem` (a text corpus's unigrams, bigrams, trigrams and
function words), :func:`uci_problem` (a low-dimensional UCI set, its attributes grouped) and
:func:`add_random_columns` (a problem with a block of random 0/1 columns appended, Section 5.1).
"""
from __future__ import annotations

import functools

import numpy as np
import scipy.sparse as sp

from fsbook import datasets
from fsbook.booleanize import booleanize

#: webtext sites of the training suite (5 classes -> 15 binary classifiers, as in Table 3)
WEBTEXT_TRAIN_SITES = ("firefox", "grail", "overheard", "pirates", "wine")
WEBTEXT_SITES = ("firefox", "grail", "overheard", "pirates", "singles", "wine")
#: number of most frequent unigrams treated as the "function word" feature type
FUNCTION_WORDS = 50
NEWS_GROUPS = ("comp.graphics", "rec.autos", "sci.space", "talk.politics.misc")


@functools.cache
def _load(name, ngram):
    if name == "movies":
        return datasets.load_movie_reviews(ngram=ngram)
    if name == "webtext":
        return datasets.load_webtext(ngram=ngram)
    if name == "news":
        return datasets.load_20newsgroups(categories=list(NEWS_GROUPS))
    raise ValueError(f"unknown source {name!r}")


def _sample_rows(target, classes, per_class, rng, exclude=None):
    rows = []
    for c in classes:
        idx = np.flatnonzero(target == c)
        if exclude is not None:
            idx = np.setdiff1d(idx, exclude)
        rows.append(np.sort(rng.choice(idx, size=min(per_class, idx.size), replace=False)))
    return np.concatenate(rows)


def allocate(available, total):
    """Share ``total`` columns over feature types with ``available`` columns each.

    Equal shares (the first types get the remainder); a type with fewer columns than its
    share gives all it has and passes the shortfall to the others.

    Parameters
    ----------
    available : sequence of int
    total : int

    Returns
    -------
    list of int
        Columns taken from each type; they sum to ``min(total, sum(available))``.
    """
    take = [0] * len(available)
    open_ = list(range(len(available)))
    remaining = total
    while open_ and remaining > 0:
        share, extra = divmod(remaining, len(open_))
        want = {t: share + (i < extra) for i, t in enumerate(open_)}
        short = [t for t in open_ if available[t] <= want[t]]
        if not short:
            for t in open_:
                take[t] = want[t]
            break
        for t in short:
            take[t] = available[t]
            remaining -= available[t]
            open_.remove(t)
    return take


def _by_frequency(M):
    df = np.asarray((M > 0).sum(axis=0)).ravel()
    order = np.lexsort((np.arange(df.size), -df))
    return order[df[order] > 0]


def text_problem(source, *, rows, cols, seed=0, classes=None, exclude_rows=None,
                 ordered=False, counts=False):
    """One text data set of the training suite or of the test sets (0/1 "contains n-gram").

    Parameters
    ----------
    source : {"movies", "webtext", "news"}
        ``movies``: unigram, bigram, trigram types (2 classes).  ``webtext``: function words
        (the ``FUNCTION_WORDS`` most frequent unigrams of the corpus), other unigrams,
        bigrams, trigrams (4 types).  ``news``: 20 Newsgroups (four groups), unigrams split
        in three document-frequency bands (3 types; no other feature types are available).
    rows : int
        Total number of rows (equal numbers per class).
    cols : int
        Total number of columns, shared equally by the feature types (:func:`allocate`: a type
        with too few columns in the sampled rows passes the shortfall to the others); within a
        type the most frequent columns of the sampled rows are kept.  Fewer columns result
        only if the sampled rows have fewer in all.
    seed : int
        Seed of the row sample.
    classes : sequence of str, optional
        Class names to keep.
    exclude_rows : array of int, optional
        Corpus rows that must not be used (test sets disjoint from the training suite).
    ordered : bool
        Keep each type's columns in decreasing frequency (Figure 3 protocol).
    counts : bool
        Return the n-gram counts instead of the 0/1 matrix (word-frequency format).

    Returns
    -------
    dict
        ``X`` (CSR 0/1, or counts), ``y``, ``groups``, ``group_names``, ``rows`` (corpus rows),
        ``class_names``.
    """
    rng = np.random.default_rng(seed)
    if source == "movies":
        bunches = [_load("movies", k) for k in (1, 2, 3)]
        names = ["unigram", "bigram", "trigram"]
    elif source == "webtext":
        bunches = [_load("webtext", k) for k in (1, 2, 3)]
        names = ["function", "unigram", "bigram", "trigram"]
    elif source == "news":
        bunches = [_load("news", 1)]
        names = ["df-high", "df-mid", "df-low"]
    else:
        raise ValueError(f"unknown source {source!r}")
    base = bunches[0]
    all_names = list(base.target_names)
    if classes is None:
        classes = WEBTEXT_TRAIN_SITES if source == "webtext" else all_names
    codes = [all_names.index(c) for c in classes]
    r = _sample_rows(base.target, codes, rows // len(codes), rng, exclude_rows)
    y = np.array([codes.index(t) for t in base.target[r]])
    if source == "webtext":
        uni = base.data
        corpus_df = np.asarray((uni > 0).sum(axis=0)).ravel()
        func = np.sort(np.lexsort((np.arange(corpus_df.size), -corpus_df))[:FUNCTION_WORDS])
        rest = np.setdiff1d(np.arange(uni.shape[1]), func)
        mats = [uni[r][:, func], uni[r][:, rest], bunches[1].data[r], bunches[2].data[r]]
    elif source == "movies":
        mats = [b.data[r] for b in bunches]
    else:
        M = base.data[r]
        order = _by_frequency(M)
        per = [len(a) for a in np.array_split(np.arange(min(cols, order.size)), 3)]
        cuts = np.cumsum([0] + per)
        mats = [M[:, order[cuts[j]:cuts[j + 1]]] for j in range(3)]
    orders = [_by_frequency(M) for M in mats]
    take = allocate([o.size for o in orders], cols)
    blocks = [M[:, o[:k] if ordered else np.sort(o[:k])] for M, o, k in zip(mats, orders, take)]
    X = sp.hstack(blocks, format="csr").astype(np.float64)
    if not counts:
        X = sp.csr_matrix(X > 0, dtype=np.float64)
    sizes = np.cumsum([0] + [b.shape[1] for b in blocks])
    groups = [np.arange(sizes[i], sizes[i + 1]) for i in range(len(blocks))]
    return {"X": X, "y": y, "groups": groups, "group_names": names, "rows": r,
            "class_names": list(classes)}


def uci_problem(name, values="boolean", n_groups=4):
    """Low-dimensional UCI data for Table 6, attributes in ``n_groups`` consecutive blocks.

    Parameters
    ----------
    name : {"wine", "breast_cancer", "soybean_small"}
    values : {"boolean", "real"}
        ``"boolean"``: numeric attributes thresholded at quartiles, nominal ones one-hot
        encoded (:func:`fsbook.booleanize.booleanize`).  ``"real"``: the numeric values,
        min-max scaled to [0, 1] (an affine bijection of every column, which leaves f1-f6
        unchanged and lets the linear SVM converge).
    n_groups : int

    Returns
    -------
    dict
        ``X``, ``y``, ``groups``, ``group_names``, ``kind``, ``n_attributes``.
    """
    b = getattr(datasets, f"load_{name}")()
    n_attr = b.data.shape[1]
    cats = b.get("categories") or [None] * n_attr
    blocks = np.array_split(np.arange(n_attr), n_groups)
    if values == "real":
        if any(c is not None for c in cats):
            raise ValueError(f"{name} has nominal attributes; use values='boolean'")
        X = np.asarray(b.data, dtype=float)
        keep = ~np.isnan(X).any(axis=1)
        X, y = X[keep], np.asarray(b.target)[keep]
        lo, hi = X.min(axis=0), X.max(axis=0)
        X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
        groups = blocks
    elif values == "boolean":
        mats, groups, start = [], [], 0
        for blk in blocks:
            sub = {"data": b.data[:, blk], "categories": [cats[j] for j in blk],
                   "feature_names": [str(b.feature_names[j]) for j in blk]}
            Xb, _ = booleanize(sub)
            mats.append(Xb.astype(float))
            groups.append(np.arange(start, start + Xb.shape[1]))
            start += Xb.shape[1]
        X, y = np.hstack(mats), np.asarray(b.target)
    else:
        raise ValueError(f"values must be 'boolean' or 'real', got {values!r}")
    kind = "continuous" if all(c is None for c in cats) else (
        "categorical" if all(c is not None for c in cats) else "mixed")
    return {"X": X, "y": y, "groups": groups,
            "group_names": [f"attrs {blk[0]}-{blk[-1]}" for blk in blocks],
            "kind": kind, "n_attributes": n_attr}


def add_random_columns(problem, fraction=0.25, seed=0):
    """Append ``round(fraction × n)`` random binary columns as a feature type "random".

    Each random column has the density of a randomly chosen real column (the paper only says
    "a random binary vector").

    Parameters
    ----------
    problem : dict from :func:`text_problem`
    fraction : float
    seed : int

    Returns
    -------
    dict
        A copy of ``problem`` with the extra group.
    """
    rng = np.random.default_rng(seed)
    X = problem["X"]
    m, n = X.shape
    k = int(round(fraction * n))
    dens = np.asarray(X.mean(axis=0)).ravel()
    p = rng.choice(dens[dens > 0], size=k)
    R = sp.csr_matrix((rng.random((m, k)) < p).astype(float))
    out = dict(problem)
    out["X"] = sp.hstack([X, R], format="csr")
    out["groups"] = list(problem["groups"]) + [np.arange(n, n + k)]
    out["group_names"] = list(problem["group_names"]) + ["random"]
    return out


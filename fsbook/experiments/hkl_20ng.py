"""20 Newsgroups alt.atheism vs talk.religion.misc with the paper's vocabulary rule.

The paper's Section 3 protocol for the pair: all posts of the two groups (train and test
subsets of the bydate archive, 1 427 posts), the words occurring in at least two of them as
features, presence/absence ``x > 0`` as the boolean input, 4-fold stratified cross-validation.
"""
from __future__ import annotations

import functools

import numpy as np

from fsbook.datasets import load_20newsgroups

__all__ = ["PAIR", "load_atheism_religion", "outer_folds"]

#: the two newsgroups of the paper's binary task; ``y = 1`` is talk.religion.misc
PAIR = ("alt.atheism", "talk.religion.misc")


@functools.lru_cache(maxsize=4)
def _load(min_df):
    news = load_20newsgroups("all", categories=list(PAIR))
    X = (news.data > 0).astype(np.float64).tocsr()
    df = np.asarray(X.sum(axis=0)).ravel()
    cols = np.flatnonzero(df >= min_df)
    return X[:, cols].tocsr(), np.asarray(news.target), np.asarray(news.feature_names)[cols]


def load_atheism_religion(min_df=2):
    """All posts of the pair as 0/1 word-presence features, words with document frequency ≥ ``min_df``.

    Parameters
    ----------
    min_df : int, default 2
        Minimum number of posts (of the pair, train + test) a word must occur in; ``2`` gives
        the paper's 12 511 words.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (1427, n_words), float 0/1
    y : ndarray of shape (1427,), 0 = alt.atheism, 1 = talk.religion.misc
    words : ndarray of str, the column names
    """
    if int(min_df) != min_df or min_df < 1:
        raise ValueError(f"min_df must be a positive integer, got {min_df!r}")
    X, y, words = _load(int(min_df))
    return X.copy(), y.copy(), words.copy()


def outer_folds(y, n_splits=4, seed=0):
    """The paper's 4-fold stratified cross-validation: list of (train, test) index arrays."""
    from sklearn.model_selection import StratifiedKFold
    cv = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    return list(cv.split(np.zeros(len(y)), y))

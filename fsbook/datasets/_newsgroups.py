"""The 20 Newsgroups pair alt.atheism vs talk.religion.misc as chapter 6 reads the HKL paper.

The book's input for the paper's Section 3 (the paper gives neither its posts nor its
vocabulary): all posts of the two groups (train and test subsets of the bydate archive, 1 427
posts), the words occurring in at least two of them as features, presence/absence ``x > 0`` as the boolean input, 4-fold stratified cross-validation
(:func:`outer_folds`).  :func:`most_frequent_words` is the vocabulary rule of the chapters that
keep only the most frequent words of the training posts.
"""
from __future__ import annotations

import functools

import numpy as np
from sklearn.model_selection import StratifiedKFold

from fsbook.datasets._loaders import load_20newsgroups
from fsbook.decisions import top_k_mask

__all__ = ["PAIR", "load_atheism_religion", "most_frequent_words", "outer_folds"]

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
        the book's 12 511 words.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (1427, n_words), float 0/1
    y : ndarray of shape (1427,), 0 = alt.atheism, 1 = talk.religion.misc
    words : ndarray of str, the column names

    Examples
    --------
    >>> from fsbook.datasets import load_atheism_religion
    >>> X, y, words = load_atheism_religion()
    >>> X.shape, int(y.sum())
    ((1427, 12511), 628)
    """
    if int(min_df) != min_df or min_df < 1:
        raise ValueError(f"min_df must be a positive integer, got {min_df!r}")
    X, y, words = _load(int(min_df))
    return X.copy(), y.copy(), words.copy()


def most_frequent_words(X, size):
    """Columns of the ``size`` words in the most posts (rows) of ``X``, sorted; ties at the cut
    keep the earlier column (:func:`fsbook.decisions.top_k_mask`).

    Pass the training posts only to keep the test posts' words out of the vocabulary.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.datasets import most_frequent_words
    >>> most_frequent_words(np.array([[1, 0, 1], [1, 1, 0], [0, 1, 0]]), 2).tolist()
    [0, 1]
    """
    if size < 1:
        raise ValueError(f"vocabulary size must be >= 1, got {size}")
    df = np.asarray((X != 0).sum(axis=0)).ravel()
    if size > df.size:
        raise ValueError(f"vocabulary size {size} exceeds the {df.size} candidate words")
    return np.flatnonzero(top_k_mask(df, size))


def outer_folds(y, n_splits=4, seed=0):
    """The paper's 4-fold stratified cross-validation: list of (train, test) index arrays.

    Examples
    --------
    >>> from fsbook.datasets import outer_folds
    >>> [test.tolist() for _, test in outer_folds([0, 0, 1, 1], n_splits=2)]
    [[1, 2], [0, 3]]
    """
    cv = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    return list(cv.split(np.zeros(len(y)), y))

"""The toy problem of the estimators' Examples sections."""
from __future__ import annotations

import numpy as np

__all__ = ["two_informative"]


def two_informative(n_samples=100, n_features=8, shift=2.0, random_state=0):
    """Two classes of equal size in which only columns 0 and 1 carry the class.

    Every column is standard normal; the second class has ``shift`` added to columns 0 and 1.
    The estimators' Examples sections fit on it and find those two columns.

    Parameters
    ----------
    n_samples : int, default 100
        An even number of samples: the first half is class 0, the second class 1.
    n_features : int, default 8
        Columns, at least 2.
    shift : float, default 2.0
        The class difference of the two informative columns' means.
    random_state : int, default 0
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        0 then 1.

    Examples
    --------
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> X.shape, y[[0, -1]].tolist()
    ((100, 8), [0, 1])
    >>> (X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)).round(1)[:3].tolist()
    [2.0, 2.0, 0.1]
    """
    if n_samples % 2 or n_samples < 2:
        raise ValueError(f"n_samples must be a positive even number, got {n_samples}")
    if n_features < 2:
        raise ValueError(f"n_features must be at least 2, got {n_features}")
    rng = np.random.default_rng(random_state)
    y = np.repeat([0, 1], n_samples // 2)
    X = rng.normal(size=(n_samples, n_features))
    X[:, :2] += shift * y[:, None]
    return X, y

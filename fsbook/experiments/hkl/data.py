"""The ``hkl`` protocol's data: the booleanised inputs HKL sees (:func:`load_table1`), the attributes
as Weka reads them (:func:`load_raw`), the numeric values of Tables 4 and 5 (:func:`load_numeric`)
and Table 4's booleanised expression values (:func:`table4_boolean`).
"""
from __future__ import annotations

import functools

import numpy as np

from fsbook import datasets as ds
from fsbook.booleanize import booleanize
from fsbook.datasets import load_atheism_religion


@functools.lru_cache(maxsize=16)
def load_table1(name):
    """``(X, y, names, split)``: booleanised data; ``split`` = (train, test) for MONK's, else None.

    ``name`` is a key of fsbook.datasets (:data:`TABLE1_DATASETS`, ``"ionosphere"``).  ``X`` is
    dense float 0/1 except for ``"20newsgroups"`` (CSR).
    """
    if name.startswith("monks"):
        k = int(name[-1])
        tr, te = ds.load_monks(k, "train"), ds.load_monks(k, "test")
        both = {"data": np.vstack([tr.data, te.data]), "categories": tr.categories,
                "feature_names": tr.feature_names}
        X, names = booleanize(both)
        y = np.r_[tr.target, te.target]
        n_tr = tr.data.shape[0]
        return X.astype(np.float64), y, names, (np.arange(n_tr), np.arange(n_tr, y.size))
    if name == "20newsgroups":
        X, y, words = load_atheism_religion(min_df=2)     # words in ≥ 2 posts (the paper gives no rule)
        return X, np.asarray(y), list(words), None
    b = _bunch(name)
    X, names = booleanize(b)
    return X.astype(np.float64), np.asarray(b.target), names, None


def _bunch(name):
    """The data set by its fsbook.datasets key (tabular sets of Tables 1 and 5)."""
    if name not in _TABULAR:
        raise ValueError(f"unknown data set {name!r}; expected one of {sorted(_TABULAR)}")
    return getattr(ds, f"load_{name}")()


_TABULAR = ("breast_cancer", "breast_cancer_wisconsin", "hepatitis", "transfusion", "vote",
            "tic_tac_toe", "ionosphere")


@functools.lru_cache(maxsize=16)
def load_raw(name):
    """``(X, y, nominal, n_levels, split)``: the attributes as Weka reads them from the ARFF file.

    Nominal columns hold codes ``0..n_levels[j]-1``, numeric columns their values, NaN where the
    file has ``?``; ``split`` as in :func:`load_table1`.  The 20 Newsgroups pair's attributes are
    its word indicators (two-valued nominal), the same matrix as :func:`load_table1` (dense here).
    """
    if name == "20newsgroups":
        X, y, _, split = load_table1(name)
        n = X.shape[1]
        return X.toarray(), y, np.ones(n, dtype=bool), np.full(n, 2), split
    if name.startswith("monks"):
        k = int(name[-1])
        tr, te = ds.load_monks(k, "train"), ds.load_monks(k, "test")
        X = np.vstack([tr.data, te.data]).astype(np.float64)
        y = np.r_[tr.target, te.target]
        cats, n_tr = tr.categories, tr.data.shape[0]
        split = (np.arange(n_tr), np.arange(n_tr, y.size))
    else:
        b = _bunch(name)
        X, y, cats, split = np.asarray(b.data, dtype=np.float64), np.asarray(b.target), b.categories, None
    nominal = np.array([c is not None for c in cats])
    n_levels = np.array([len(c) if c is not None else 0 for c in cats])
    return X, y, nominal, n_levels, split


@functools.lru_cache(maxsize=4)
def load_numeric(name):
    """Raw numeric features and binary target of the Table 4/5 data sets (missing values stay NaN:
    the models impute inside the training fold)."""
    b = {"colon": ds.load_colon, "lymphoma": ds.load_lymphoma, "ionosphere": ds.load_ionosphere,
         "breast_cancer_wisconsin": ds.load_breast_cancer_wisconsin}[name]()
    X = np.asarray(b.data, dtype=np.float64)
    y = np.asarray(b.target)
    if name == "lymphoma":
        y = (y != 0).astype(int)          # "code 1" (46 samples) against the other 50
    return X, y                           # Wisconsin keeps its 16 missing values (NaN)



def table4_boolean(dataset):
    """Table 4's data: the expression values ``X``, the labels ``y``, and HKL's input, the
    booleanised values ``Xb`` (float) with their ``names``.

    Parameters
    ----------
    dataset : {"colon", "lymphoma"}
        Table 4's data set.

    Returns
    -------
    X : array of shape (n_samples, n_genes)
    y : array of int
    Xb : array of float, 0/1
        One indicator per threshold of each gene (:func:`fsbook.booleanize.booleanize`).
    names : list of str
        The indicators' names, ``gene>threshold``.

    Examples
    --------
    >>> X, y, Xb, names = table4_boolean("colon")
    >>> X.shape, Xb.shape, names[:2]
    ((62, 2000), (62, 3967), ['x0>-2', 'x0>0'])
    """
    X, y = load_numeric(dataset)
    Xb, names = booleanize({"data": X})
    return X, y, Xb.astype(np.float64), names

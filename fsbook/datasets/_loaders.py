"""Public loaders: each returns a scikit-learn ``Bunch`` built from ``data/``.

Every call verifies the file's sha256 against ``data/SHA256SUMS`` (a missing,
corrupted or unreadable file raises :class:`DatasetError` naming the file and
the rebuild command) and returns fresh, writable copies of the arrays.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import Bunch

from fsbook.datasets._store import decode_meta, decode_strings, read_dataset, sparse_from_arrays

_TABULAR = ("data", "target")


def _read(name):
    arrays = read_dataset(f"{name}.npz")
    return arrays, decode_meta(arrays["meta"])


def _tabular(name, **extra_keys):
    arrays, meta = _read(name)
    bunch = Bunch(
        data=np.array(arrays["data"], dtype=np.float64),
        target=np.array(arrays["target"], dtype=np.int64 if arrays["target"].dtype.kind in "iu" else np.float64),
        feature_names=np.array(meta["feature_names"], dtype=object),
        target_names=np.array(meta["target_names"], dtype=object),
        categories=[None if c is None else list(c) for c in meta["categories"]],
        DESCR=meta["DESCR"],
    )
    for key in arrays:
        if key not in _TABULAR and key != "meta":
            bunch[key] = np.array(arrays[key])
    return bunch


def _dense(name, feature_prefix="gene"):
    arrays, meta = _read(name)
    X = np.array(arrays["X"], dtype=np.float64)
    return Bunch(data=X, target=np.array(arrays["target"], dtype=np.int64),
                 feature_names=np.array([f"{feature_prefix}_{j}" for j in range(X.shape[1])], dtype=object),
                 target_names=np.array(meta["target_names"], dtype=object),
                 categories=[None] * X.shape[1], DESCR=meta["DESCR"])


def _check_ngram(ngram):
    if ngram not in (1, 2, 3) or isinstance(ngram, bool):
        raise ValueError(f"ngram must be 1, 2 or 3, got {ngram!r}")


# ----------------------------------------------------------------------------
def load_boston():
    """Boston housing: data (506, 13) float, target MEDV (float, in $1000s)."""
    arrays, meta = _read("boston")
    return Bunch(data=np.array(arrays["data"], dtype=np.float64),
                 target=np.array(arrays["target"], dtype=np.float64),
                 feature_names=np.array(meta["feature_names"], dtype=object),
                 target_names=np.array(meta["target_names"], dtype=object),
                 categories=[None] * 13, DESCR=meta["DESCR"])


def load_20newsgroups(subset="all", categories=None):
    """20 Newsgroups (bydate, reconstructed archive) as sparse term counts.

    Parameters
    ----------
    subset : {"all", "train", "test"}
    categories : sequence of str or None
        Group names to keep; the target is relabelled 0..k-1 in the given order.
        The vocabulary (columns) is always the whole corpus's.

    Returns
    -------
    Bunch with ``data`` (CSR int32, posts x vocabulary), ``target`` (int),
    ``target_names``, ``feature_names`` (vocabulary), ``subset`` (array of
    "train"/"test"), ``doc_ids`` ("<subset>/<group>/<post id>") and ``DESCR``.
    """
    if subset not in ("all", "train", "test"):
        raise ValueError(f"subset must be 'all', 'train' or 'test', got {subset!r}")
    arrays, meta = _read("20newsgroups")
    names = list(meta["target_names"])
    target = np.asarray(arrays["target"], dtype=np.int64)
    split = np.asarray(arrays["subset"])
    mask = np.ones(target.shape, dtype=bool)
    if subset != "all":
        mask &= split == (0 if subset == "train" else 1)
    if categories is not None:
        if isinstance(categories, str):
            raise ValueError("categories must be a list of group names, not a string")
        categories = list(categories)
        bad = [c for c in categories if c not in names]
        if bad or not categories or len(set(categories)) != len(categories):
            raise ValueError(f"invalid categories {bad or categories}; valid names: {names}")
        codes = np.array([names.index(c) for c in categories])
        remap = np.full(len(names), -1)
        remap[codes] = np.arange(len(codes))
        mask &= remap[target] >= 0
        target = remap[target]
        names = categories
    X = sparse_from_arrays(arrays)[np.flatnonzero(mask)]
    groups = np.array(meta["target_names"], dtype=object)[np.asarray(arrays["target"])[mask]]
    sub = np.where(split[mask] == 0, "train", "test").astype(object)
    doc_ids = np.array([f"{s}/{g}/{i}" for s, g, i in zip(sub, groups, arrays["post_id"][mask])], dtype=object)
    return Bunch(data=X, target=target[mask], target_names=np.array(names, dtype=object),
                 feature_names=decode_strings(arrays["vocabulary"]).astype(object),
                 subset=sub, doc_ids=doc_ids, DESCR=meta["DESCR"])


def load_yale():
    """Yale faces 32x32: data (165, 1024) float64 pixels 0..255, images (165, 32, 32), target 0..14."""
    arrays, meta = _read("yale")
    return Bunch(data=np.array(arrays["pixels"], dtype=np.float64),
                 images=np.array(arrays["images"], dtype=np.float64),
                 target=np.array(arrays["target"], dtype=np.int64),
                 feature_names=np.array(meta["feature_names"], dtype=object),
                 target_names=np.array(meta["target_names"], dtype=object), DESCR=meta["DESCR"])


def _text(name, extra):
    arrays, meta = _read(name)
    bunch = Bunch(data=sparse_from_arrays(arrays), target=np.array(arrays["target"], dtype=np.int64),
                  target_names=np.array(meta["target_names"], dtype=object),
                  feature_names=decode_strings(arrays["vocabulary"]).astype(object), DESCR=meta["DESCR"])
    for key in extra:
        if key == "doc_ids":
            bunch[key] = decode_strings(arrays[key]).astype(object)
        else:
            bunch[key] = np.array(arrays[key], dtype=np.int64)
    return bunch


def load_movie_reviews(ngram=1):
    """Pang & Lee polarity v2.0 (NLTK movie_reviews): sparse n-gram counts (2000 x V), target 0 neg / 1 pos."""
    _check_ngram(ngram)
    return _text(f"movie_reviews_{ngram}", ["doc_ids"])


def load_webtext(ngram=1):
    """NLTK webtext, one row per sentence: sparse n-gram counts, target = site (6 sites).

    ``line`` gives the line number of the sentence in its site's file.
    """
    _check_ngram(ngram)
    return _text(f"webtext_{ngram}", ["line"])


def load_monks(problem, subset="train"):
    """MONK's problem 1, 2 or 3; ``subset`` "train" or "test" (the UCI splits).

    ``data`` holds codes 0..k-1 of the attribute values 1..k (``categories``).
    """
    if problem not in (1, 2, 3) or isinstance(problem, bool):
        raise ValueError(f"problem must be 1, 2 or 3, got {problem!r}")
    if subset not in ("train", "test"):
        raise ValueError(f"subset must be 'train' or 'test', got {subset!r}")
    return _tabular(f"monks{problem}_{subset}")


def load_tic_tac_toe():
    """Tic-Tac-Toe endgame (958 x 9 nominal b/o/x), target 0 negative / 1 positive."""
    return _tabular("tic_tac_toe")


def load_vote():
    """Congressional voting records 1984 (435 x 16 nominal n/y, NaN = missing), 0 democrat / 1 republican."""
    return _tabular("vote")


def load_breast_cancer():
    """Breast cancer, Ljubljana (286 x 9 nominal, NaN = missing); not scikit-learn's (WDBC)."""
    return _tabular("breast_cancer")


def load_breast_cancer_wisconsin():
    """Breast cancer Wisconsin, original (699 x 9, NaN = missing), 0 benign / 1 malignant."""
    return _tabular("breast_cancer_wisconsin")


def load_wdbc():
    """Breast cancer Wisconsin, diagnostic (569 x 30, KEEL-rounded values), 0 benign / 1 malignant."""
    return _tabular("wdbc")


def load_hepatitis():
    """Hepatitis (155 x 19, mixed, NaN = missing), target 0 DIE / 1 LIVE."""
    return _tabular("hepatitis")


def load_transfusion():
    """Blood transfusion service center (748 x 4), target 1 = donated in March 2007."""
    return _tabular("transfusion")


def load_ionosphere():
    """Ionosphere (351 x 34), target 0 bad / 1 good."""
    return _tabular("ionosphere")


def load_glass():
    """Glass identification (214 x 9), 6 types present relabelled 0..5 (``glass_type`` = original)."""
    return _tabular("glass")


def load_wine():
    """Wine (178 x 13), classes 0..2."""
    return _tabular("wine")


def load_iris():
    """Iris (150 x 4), classes 0..2."""
    return _tabular("iris")


def load_balance_scale():
    """Balance scale (625 x 4 numeric 1..5), classes in ARFF order L, B, R."""
    return _tabular("balance_scale")


def load_soybean_small():
    """Soybean small (47 x 35 nominal codes), classes D1..D4."""
    return _tabular("soybean_small")


def load_pima():
    """Pima Indians diabetes (768 x 8; zeros = missing kept as 0), target 1 = tested positive."""
    return _tabular("pima")


def load_colon():
    """Colon cancer (62 x 2000, ASU-discretised {-2,0,2}), target 0 normal / 1 tumour."""
    return _dense("colon")


def load_lymphoma():
    """B-cell lymphoma, 96 samples (96 x 4026, discretised), 9 classes."""
    return _dense("lymphoma")


def load_lymphoma62():
    """Lymphoma, 62 samples (62 x 4026, continuous), 0 DLBCL / 1 FL / 2 CLL."""
    return _dense("lymphoma62")


def load_leukemia(discretised=False):
    """Leukemia ALL/AML: continuous 72 x 7129 (default) or ASU-discretised 72 x 7070; 0 ALL / 1 AML."""
    if not isinstance(discretised, (bool, np.bool_)):
        raise ValueError(f"discretised must be a bool, got {discretised!r}")
    return _dense("leukemia_discretised" if discretised else "leukemia")


def load_arcene():
    """ARCENE (challenge train + valid, 200 x 10000 raw integers), target 1 = cancer (+1)."""
    return _dense("arcene", "feature")


def load_madelon():
    """MADELON (challenge train, 2000 x 500 raw integers), target 1 = +1."""
    return _dense("madelon", "feature")


def load_dexter():
    """DEXTER (challenge train, 300 x 20000 sparse counts, CSR int32), target 1 = +1."""
    arrays, meta = _read("dexter")
    X = sparse_from_arrays(arrays)
    return Bunch(data=X, target=np.array(arrays["target"], dtype=np.int64),
                 feature_names=np.array([f"feature_{j}" for j in range(X.shape[1])], dtype=object),
                 target_names=np.array(meta["target_names"], dtype=object),
                 categories=[None] * X.shape[1], DESCR=meta["DESCR"])

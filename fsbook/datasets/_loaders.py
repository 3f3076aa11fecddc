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


# ---------------------------------------------------------------------------- the selection suite
def _suite_bunch(name):
    """Bunch of a suite set: ``data`` float64 (CSR int32 counts for text), ``target`` int64 0-based,
    ``feature_names``, ``target_names``, ``categories``, ``domain``, ``preprocessing``, ``DESCR``;
    image sets add ``images`` (a view of ``data``, one upright image per row) and ``image_shape``."""
    from fsbook.datasets._registry import SPECS
    from fsbook.datasets._suite import dense_from_arrays

    spec = next(s for s in SPECS if s.name == name)
    arrays, meta = _read(name)
    X = sparse_from_arrays(arrays) if "X_shape" in arrays else dense_from_arrays(arrays)
    bunch = Bunch(data=X, target=np.array(arrays["target"], dtype=np.int64),
                  feature_names=np.array(meta["feature_names"], dtype=object),
                  target_names=np.array(meta["target_names"], dtype=object),
                  categories=[None if c is None else list(c) for c in meta["categories"]],
                  domain=spec.domain, preprocessing=spec.preprocessing, DESCR=meta["DESCR"])
    if "image_shape" in meta:
        h, w = meta["image_shape"]
        n = X.shape[0]
        bunch.image_shape = (h, w)
        bunch.images = X.reshape(n, h, w) if meta["image_order"] == "C" else X.reshape(n, w, h).transpose(0, 2, 1)
    return bunch


def _suite_loader(name, shape, n_classes, summary):
    def loader():
        return _suite_bunch(name)

    loader.__name__ = loader.__qualname__ = f"load_{name}"
    loader.__doc__ = f"""{summary}

    Part of the selection suite (``shared/data/suite``; see ``DESCR`` for source, licence and
    differences, ``preprocessing`` for what a protocol applies).

    Returns
    -------
    sklearn.utils.Bunch
        ``data`` ({'CSR int32 counts' if 'counts' in summary else 'float64'}, {shape[0]} x {shape[1]}),
        ``target`` (int64 codes 0..{n_classes - 1} into ``target_names``), ``feature_names``,
        ``categories``, ``domain``, ``preprocessing`` and ``DESCR``{'; ``images`` (a view of ``data``, one upright image per row) and ``image_shape``' if 'pixels' in summary else ''}.

    Examples
    --------
    >>> from fsbook.datasets import load_{name}
    >>> b = load_{name}()
    >>> b.data.shape, len(b.target_names)
    ({shape}, {n_classes})
    """
    return loader


load_tumors_9 = _suite_loader("tumors_9", (60, 5726), 9, "9 Tumors microarray (ASU version), 9 classes.")
load_adenoma = _suite_loader("adenoma", (36, 7457), 2, "Colon adenoma vs normal microarray (ASU version).")
load_brain_tumor_2 = _suite_loader("brain_tumor_2", (50, 10367), 4, "Brain tumour 2 microarray (ASU), 4 classes.")
load_cns = _suite_loader("cns", (60, 7129), 2, "CNS embryonal tumour outcome microarray (ASU), survivor / failure.")
load_dlbcl = _suite_loader("dlbcl", (77, 5469), 2, "DLBCL vs follicular lymphoma microarray (ASU), FL / DLBCL.")
load_glioma = _suite_loader("glioma", (50, 4434), 4, "Glioma microarray, log10 scale (ASU), 4 classes.")
load_prostate_ge = _suite_loader("prostate_ge", (102, 5966), 2, "Prostate microarray, log10 scale (ASU), "
                                 "normal / tumour.")
load_tox_171 = _suite_loader("tox_171", (171, 5748), 4, "TOX-171 microarray (ASU), 4 classes.")
load_nci9 = _suite_loader("nci9", (60, 9712), 9, "NCI-9 microarray, discretised to {-2, 0, 2} (ASU), 9 classes.")
load_lung_discrete = _suite_loader("lung_discrete", (73, 325), 7, "Lung cancer microarray, discretised (ASU), "
                                   "7 classes.")
load_orl = _suite_loader("orl", (400, 1024), 40, "ORL faces, 32x32 pixels 0..255, 40 subjects.")
load_coil20 = _suite_loader("coil20", (1440, 1024), 20, "COIL-20 objects, 32x32 pixels in [0, 1], 20 objects.")
load_warp_ar10p = _suite_loader("warp_ar10p", (130, 2400), 10, "AR faces warped to 60x40 pixels 0..255, "
                                "10 subjects.")
load_warp_pie10p = _suite_loader("warp_pie10p", (210, 2420), 10, "CMU PIE faces warped to 55x44 pixels 0..255, "
                                 "10 subjects.")
load_usps_subset = _suite_loader("usps_subset", (2007, 256), 10, "USPS digits, 16x16 pixels in [-1, 1], "
                                 "a fixed 2,007-image subset; target = digit.")
load_mnist_subset = _suite_loader("mnist_subset", (4000, 784), 10, "MNIST digits, 28x28 pixels 0..255, "
                                  "a fixed 4,000-image subset; target = digit.")
load_binary_alphadigits = _suite_loader("binary_alphadigits", (1404, 320), 36, "Binary alphadigits, 20x16 "
                                        "binary pixels, classes 0..9 then A..Z.")
load_msra25 = _suite_loader("msra25", (1799, 256), 12, "MSRA25 faces, 16x16 pixels 0..255, 12 subjects.")
load_isolet_subset = _suite_loader("isolet_subset", (1560, 617), 26, "ISOLET spoken letters, 617 features in "
                                   "[-1, 1], a fixed 1,560-utterance subset; classes A..Z.")
load_pcmac = _suite_loader("pcmac", (1943, 3289), 2, "PCMAC (20 Newsgroups ibm.pc vs mac hardware), sparse "
                           "word counts.")
load_cnae9 = _suite_loader("cnae9", (1080, 856), 9, "CNAE-9 business descriptions, sparse word counts, 9 classes.")
load_sonar = _suite_loader("sonar", (208, 60), 2, "Sonar (KEEL copy, 3 decimals), classes M / R.")
load_spambase = _suite_loader("spambase", (4597, 57), 2, "Spambase (KEEL copy, 4,597 rows), classes 0 / 1 (spam).")
load_libras_movement = _suite_loader("libras_movement", (360, 90), 15, "Libras movement (KEEL copy), 15 classes.")
load_optdigits = _suite_loader("optdigits", (5620, 64), 10, "Optical digits (KEEL copy, UCI train + test), "
                               "classes = digits.")
load_satimage = _suite_loader("satimage", (6435, 36), 6, "Statlog Landsat satellite (KEEL copy), 6 classes "
                              "(UCI labels 1..5, 7).")
load_vehicle = _suite_loader("vehicle", (846, 18), 4, "Statlog vehicle silhouettes (KEEL copy), 4 classes.")
load_texture = _suite_loader("texture", (5500, 40), 11, "Texture (ELENA, KEEL copy), 11 classes.")


def load_splice(one_hot=False):
    """Splice junctions (UCI, KEEL copy): 3,190 sequences of 60 nominal positions, classes EI / IE / N.

    Parameters
    ----------
    one_hot : bool, default False
        False: ``data`` holds codes 0..7 into each position's ``categories`` (A, C, G, T, then the
        ambiguity codes D, N, R, S), as the other nominal loaders do.  True: the stated
        preprocessing, the one-hot encoding of :func:`fsbook.datasets.one_hot_bases` (3,190 x 240,
        four columns per position; an ambiguity code puts ``1/m`` on each of the ``m`` bases it
        stands for); ``feature_names`` and ``categories`` then describe the 240 columns.

    Returns
    -------
    sklearn.utils.Bunch
        ``data`` (float64), ``target`` (int64 0 EI / 1 IE / 2 N), ``feature_names``,
        ``target_names``, ``categories``, ``domain``, ``preprocessing`` and ``DESCR``.

    Examples
    --------
    >>> from fsbook.datasets import load_splice
    >>> load_splice().data.shape, load_splice(one_hot=True).data.shape
    ((3190, 60), (3190, 240))
    >>> b = load_splice(one_hot=True)
    >>> bool((b.data.reshape(3190, 60, 4).sum(axis=2) == 1).all())
    True
    """
    from fsbook.datasets._suite import one_hot_bases

    if not isinstance(one_hot, (bool, np.bool_)):
        raise ValueError(f"one_hot must be a bool, got {one_hot!r}")
    bunch = _suite_bunch("splice")
    if one_hot:
        bunch.data, names = one_hot_bases(bunch.data.astype(np.int64), bunch.categories)
        bunch.feature_names = np.array(names, dtype=object)
        bunch.categories = [None] * len(names)
    return bunch

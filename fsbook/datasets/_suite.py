"""Parsers of the selection suite (``shared/data/suite``): 21 MATLAB files of the ASU
feature-selection repository (and Deng Cai's copies) and 8 KEEL tables.

Every parser returns ``(arrays, meta)`` as the other parsers do.  A dense matrix is stored by
:func:`compact_dense` in the smallest exact form (integer codes, with a power of ten where the
values are decimals, or float64 where no integer form is exact); word counts are stored sparse
(:func:`fsbook.datasets._store.sparse_arrays`).  ``meta`` holds ``target_names``,
``feature_names``, ``categories`` and, for images, ``image_shape`` and ``image_order`` (how a
row of ``data`` is laid out as an image).

The nominal splice sequences are stored as codes into their letters; :func:`one_hot_bases`
gives the one-hot encoding a protocol applies (ambiguity codes spread over the bases they stand
for).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.io as sio
import scipy.sparse as sp

from fsbook.datasets._store import sparse_arrays

__all__ = ["compact_dense", "dense_from_arrays", "one_hot_bases", "IUPAC_BASES"]

#: the largest number of decimals :func:`compact_dense` tries before keeping float64
MAX_DECIMALS = 6


def _smallest_int(lo, hi):
    kinds = (np.uint8, np.uint16, np.uint32, np.uint64) if lo >= 0 else (np.int8, np.int16, np.int32, np.int64)
    for dt in kinds:
        info = np.iinfo(dt)
        if info.min <= lo and hi <= info.max:
            return dt
    raise ValueError(f"values {lo}..{hi} fit no integer type")


def compact_dense(X, prefix="X"):
    """The smallest exact stored form of a dense matrix.

    Integers are kept in the smallest integer type that holds them.  Floats are stored as
    integer codes ``c`` with ``decimals`` when ``c / 10**decimals`` gives back every value bit
    for bit (``decimals`` from 0 to :data:`MAX_DECIMALS`) and the codes fit a type narrower
    than 8 bytes; otherwise as float64.  :func:`dense_from_arrays` inverts it.

    Parameters
    ----------
    X : array-like (n_samples, n_features)
    prefix : str, default "X"
        Key of the codes; ``<prefix>_decimals`` holds the power of ten when it is not 0.

    Returns
    -------
    dict of arrays

    Examples
    --------
    >>> import numpy as np
    >>> out = compact_dense(np.array([[0.25, -1.5], [3.0, 0.0]]))
    >>> out["X"].dtype.name, out["X"].tolist(), out["X_decimals"].tolist()
    ('int16', [[25, -150], [300, 0]], [2])
    >>> dense_from_arrays(out).tolist()
    [[0.25, -1.5], [3.0, 0.0]]
    >>> compact_dense(np.array([[1.0, 2.0]]))["X"].dtype.name
    'uint8'
    >>> compact_dense(np.array([[1 / 3]]))["X"].dtype.name
    'float64'
    """
    X = np.asarray(X)
    if X.dtype.kind in "iub":
        return {prefix: X.astype(_smallest_int(int(X.min()), int(X.max())))}
    X = X.astype(np.float64)
    if not np.isfinite(X).all():
        return {prefix: X}
    for decimals in range(MAX_DECIMALS + 1):
        scale = 10.0 ** decimals
        codes = np.round(X * scale)
        if np.array_equal(codes / scale, X):
            if max(abs(codes.min()), abs(codes.max())) >= 2 ** 53:
                break
            dtype = _smallest_int(int(codes.min()), int(codes.max()))
            if np.dtype(dtype).itemsize >= 8:
                break
            out = {prefix: codes.astype(dtype)}
            if decimals:
                out[f"{prefix}_decimals"] = np.array([decimals], dtype=np.int8)
            return out
    return {prefix: X}


def dense_from_arrays(arrays, prefix="X"):
    """The float64 matrix stored by :func:`compact_dense` (a fresh, writable copy).

    Examples
    --------
    >>> import numpy as np
    >>> dense_from_arrays({"X": np.array([[5, 12]], dtype=np.uint8), "X_decimals": np.array([1])})
    array([[0.5, 1.2]])
    """
    X = np.array(arrays[prefix], dtype=np.float64)
    key = f"{prefix}_decimals"
    if key in arrays:
        X /= 10.0 ** int(np.asarray(arrays[key]).ravel()[0])
    return X


def _labels(y, first):
    """Class codes ``first, first + 1, ...`` (every one present) -> 0-based int8/int16 targets."""
    y = np.asarray(y).ravel().astype(np.int64)
    k = int(y.max()) - first + 1
    if y.min() != first or len(np.unique(y)) != k:
        raise ValueError(f"class codes must be {first}..{first + k - 1}, all present; got {np.unique(y)}")
    return (y - first).astype(np.int8 if k < 128 else np.int16), k


def parse_mat(src: Path, rel: str, *, target_names=None, first=1, sparse=False, image=None, notes=()):
    """One ``.mat`` file of the suite: ``X``/``Y`` or ``fea``/``gnd``.

    Parameters
    ----------
    src : Path
        The ``shared/data`` folder.
    rel : str
        File under it.
    target_names : list of str or callable, optional
        Names of the classes in code order; a callable gets the number of classes; default
        ``"code <k>"`` with the file's codes.
    first : int, default 1
        The smallest class code of the file (1 for the ASU files, 0 for MNIST).
    sparse : bool, default False
        Store the matrix as sparse counts (CSR, smallest types).
    image : (str, (int, int)), optional
        ``(order, (height, width))``: ``data[i].reshape(shape, order=order)`` is image ``i``
        upright (checked by eye on a few images of each set).
    notes : sequence of str
        Facts added to DESCR.
    """
    d = sio.loadmat(str(src / rel))
    xk, yk = ("X", "Y") if "X" in d else ("fea", "gnd")
    X = d[xk]
    target, k = _labels(d[yk], first)
    if X.shape[0] != len(target):
        raise ValueError(f"{rel}: {X.shape[0]} rows for {len(target)} labels")
    if sparse:
        X = sp.csr_matrix(X)
        if X.data.size and (X.data.min() < 0 or not np.array_equal(X.data, np.round(X.data))):
            raise ValueError(f"{rel}: sparse storage is for non-negative counts")
        arrays = sparse_arrays("X_", X)
    else:
        arrays = compact_dense(X)
    arrays["target"] = target
    if target_names is None:
        names = [f"code {c}" for c in range(first, first + k)]
    else:
        names = list(target_names(k) if callable(target_names) else target_names)
    if len(names) != k:
        raise ValueError(f"{rel}: {len(names)} class names for {k} classes")
    meta = {"target_names": names, "notes": list(notes), "categories": [None] * X.shape[1]}
    if image is not None:
        order, (h, w) = image
        if h * w != X.shape[1]:
            raise ValueError(f"{rel}: image {h}x{w} does not match {X.shape[1]} features")
        meta["image_shape"], meta["image_order"] = [h, w], order
        meta["feature_names"] = [f"pixel_{r}_{c}" for r, c in zip(*np.unravel_index(np.arange(h * w), (h, w),
                                                                                   order=order))]
    else:
        meta["feature_names"] = [f"{'word' if sparse else 'feature'}_{j}" for j in range(X.shape[1])]
    return arrays, meta


# ---------------------------------------------------------------------------- KEEL tables
def _read_keel(src: Path, rel: str):
    rows = [[v.strip() for v in line.split(",")] for line in (src / rel).read_text().splitlines() if line.strip()]
    width = {len(r) for r in rows}
    if len(width) != 1:
        raise ValueError(f"{rel}: rows of different lengths {sorted(width)}")
    return rows


def parse_keel(src: Path, rel: str, *, numeric_classes=False, notes=()):
    """A numeric KEEL table: comma-separated values, the class last (padding spaces stripped).

    The class labels are kept as strings (``target_names``, sorted numerically when
    ``numeric_classes``, else alphabetically); ``target`` indexes them.
    """
    rows = _read_keel(src, rel)
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    labels = [r[-1] for r in rows]
    names = sorted(set(labels), key=(lambda s: float(s)) if numeric_classes else None)
    index = {n: i for i, n in enumerate(names)}
    arrays = compact_dense(X)
    arrays["target"] = np.array([index[v] for v in labels], dtype=np.int8)
    return arrays, {"target_names": names, "feature_names": [f"x{j + 1}" for j in range(X.shape[1])],
                    "categories": [None] * X.shape[1], "notes": list(notes)}


#: the bases each letter of the splice sequences stands for (IUPAC nucleotide codes; the UCI
#: documentation of the data set lists D, N, S and R)
IUPAC_BASES = {"A": "A", "C": "C", "G": "G", "T": "T", "D": "AGT", "N": "ACGT", "R": "AG", "S": "CG"}
_SPLICE_LEVELS = ["A", "C", "G", "T", "D", "N", "R", "S"]


def parse_splice(src: Path):
    """Splice junctions: 60 nominal positions stored as codes into ``A C G T D N R S``."""
    rows = _read_keel(src, "suite/keel/splice.dat")
    index = {b: i for i, b in enumerate(_SPLICE_LEVELS)}
    try:
        X = np.array([[index[v] for v in r[:-1]] for r in rows], dtype=np.uint8)
    except KeyError as exc:
        raise ValueError(f"splice: unexpected letter {exc}") from None
    labels = [r[-1] for r in rows]
    names = ["EI", "IE", "N"]
    if set(labels) != set(names):
        raise ValueError(f"splice classes {sorted(set(labels))}")
    ambiguous = {b: int((X == index[b]).sum()) for b in "DNRS"}
    notes = ["Ambiguous letters in the file: " + ", ".join(f"{b} ({IUPAC_BASES[b]}) {c}"
                                                         for b, c in ambiguous.items()) + "."]
    return ({"X": X, "target": np.array([names.index(v) for v in labels], dtype=np.int8)},
            {"target_names": names, "feature_names": [f"position_{j + 1:02d}" for j in range(X.shape[1])],
             "categories": [list(_SPLICE_LEVELS)] * X.shape[1], "notes": notes})


def one_hot_bases(codes, categories):
    """One-hot encoding of nominal DNA positions, ambiguity codes spread over their bases.

    Every position becomes four columns (A, C, G, T).  A base is a one in its column; an
    ambiguity code (IUPAC: D = A/G/T, N = any, R = A/G, S = C/G) puts ``1 / m`` in the columns
    of the ``m`` bases it stands for, so every position's four columns sum to 1 and an
    unambiguous sequence gets the plain one-hot encoding.  This is the stated preprocessing of
    :func:`fsbook.datasets.load_splice` (``one_hot=True``); it is a fixed map of each value, so
    it can be applied before any split without leaking information.

    Parameters
    ----------
    codes : array-like (n_samples, n_positions)
        Integer codes into ``categories`` (as ``load_splice().data``).
    categories : list of lists of str
        Letters of each position (as ``load_splice().categories``).

    Returns
    -------
    X : ndarray (n_samples, 4 * n_positions), float64
    names : list of str
        ``"<position>=<base>"`` per column, for the positions ``position_01`` ... in order.

    Examples
    --------
    >>> import numpy as np
    >>> X, names = one_hot_bases(np.array([[0, 3], [5, 6]]), [["A", "C", "G", "T", "D", "N", "R", "S"]] * 2)
    >>> names[:4]
    ['position_01=A', 'position_01=C', 'position_01=G', 'position_01=T']
    >>> X.tolist()
    [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [0.25, 0.25, 0.25, 0.25, 0.5, 0.0, 0.5, 0.0]]
    """
    codes = np.asarray(codes)
    n, p = codes.shape
    if len(categories) != p:
        raise ValueError(f"{len(categories)} category lists for {p} positions")
    out = np.zeros((n, p, 4))
    for j, levels in enumerate(categories):
        table = np.zeros((len(levels), 4))
        for c, letter in enumerate(levels):
            bases = IUPAC_BASES.get(letter)
            if bases is None:
                raise ValueError(f"position {j + 1}: letter {letter!r} is not a nucleotide code")
            table[c, ["ACGT".index(b) for b in bases]] = 1.0 / len(bases)
        col = codes[:, j].astype(np.int64)
        if col.min() < 0 or col.max() >= len(levels):
            raise ValueError(f"position {j + 1}: codes outside 0..{len(levels) - 1}")
        out[:, j] = table[col]
    names = [f"position_{j + 1:02d}={b}" for j in range(p) for b in "ACGT"]
    return out.reshape(n, 4 * p), names

"""Parsers of the MATLAB files (faces, microarrays, NIPS 2003 challenge sets)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.io as sio
import scipy.sparse as sp

from fsbook.datasets._store import sparse_arrays


def _mat(src: Path, rel: str) -> dict:
    return sio.loadmat(str(src / rel))


def _relabel(y, mapping):
    y = np.asarray(y).ravel()
    out = np.full(y.shape, -1, dtype=np.int8)
    for code, label in mapping.items():
        out[y == code] = label
    if (out < 0).any():
        raise ValueError(f"unexpected class codes {sorted(set(y.tolist()) - set(mapping))}")
    return out


def parse_yale(src: Path):
    d = _mat(src, "faces/yale/Yale_32x32.mat")
    fea, gnd = d["fea"], d["gnd"].ravel()
    # fea rows are column-major 32x32 images: pixel (r, c) is column c*32 + r
    images = fea.reshape(-1, 32, 32).transpose(0, 2, 1)
    arrays = {"pixels": fea.astype(np.uint8), "images": np.ascontiguousarray(images),
              "target": (gnd - 1).astype(np.int8)}
    meta = {"feature_names": [f"pixel_{k // 32}_{k % 32}" for k in range(1024)],
            "target_names": [f"subject{k:02d}" for k in range(1, 16)], "notes": [
                "feature j of `data` is pixel (row j % 32, column j // 32) of the image "
                "(Deng Cai's column-major layout, kept as in the file); `images` is upright."]}
    return arrays, meta


def parse_colon(src: Path):
    d = _mat(src, "microarray/colon/colon.mat")
    return ({"X": d["X"].astype(np.int8), "target": _relabel(d["Y"], {1: 0, 2: 1})},
            {"target_names": ["normal", "tumour"]})


def parse_lymphoma(src: Path):
    d = _mat(src, "microarray/lymphoma/lymphoma.mat")
    return ({"X": d["X"].astype(np.int8), "target": _relabel(d["Y"], {k: k - 1 for k in range(1, 10)})},
            {"target_names": [f"code {k}" for k in range(1, 10)]})


def parse_lymphoma62(src: Path):
    m = _mat(src, "microarray/lymphoma/lymphoma_62.mat")["lymphoma"]
    return ({"X": m[:, :-1].astype(np.float64), "target": _relabel(m[:, -1], {0: 0, 1: 1, 2: 2})},
            {"target_names": ["DLBCL", "FL", "CLL"]})


def parse_leukemia(src: Path, discretised: bool):
    if discretised:
        d = _mat(src, "microarray/leukemia/leukemia.mat")
        # counts 1: 25, 2: 47 -> 2 = ALL (47 ALL / 25 AML in Golub et al.)
        return ({"X": d["X"].astype(np.int8), "target": _relabel(d["Y"], {2: 0, 1: 1})},
                {"target_names": ["ALL", "AML"]})
    d = _mat(src, "microarray/leukemia/ALLAML.mat")
    return ({"X": d["X"].astype(np.float64), "target": _relabel(d["Y"], {1: 0, 2: 1})},
            {"target_names": ["ALL", "AML"]})


def parse_arcene(src: Path):
    d = _mat(src, "nips2003/arcene/arcene.mat")
    # counts 1: 88, 2: 112; the challenge train and valid sets each have 44 positive
    # (cancer) and 56 negative (normal) examples -> code 1 = +1, code 2 = -1
    return ({"X": d["X"].astype(np.uint16), "target": _relabel(d["Y"], {2: 0, 1: 1})},
            {"target_names": ["-1 (normal)", "+1 (cancer)"]})


def parse_madelon(src: Path):
    d = _mat(src, "nips2003/madelon/madelon.mat")
    return ({"X": d["fea"].astype(np.uint16), "target": _relabel(d["gnd"], {-1: 0, 1: 1})},
            {"target_names": ["-1", "+1"]})


DEXTER_FEATURES = 20000


def parse_dexter(src: Path):
    """DEXTER training set: ``col:value`` lines (1-based columns) -> CSR counts, labels -1/+1 -> 0/1."""
    rows, cols, vals = [], [], []
    lines = (src / "nips2003/dexter/dexter_train.data").read_text().splitlines()
    for i, line in enumerate(lines):
        for item in line.split():
            c, v = item.split(":")
            rows.append(i)
            cols.append(int(c) - 1)
            vals.append(int(v))
    cols = np.asarray(cols)
    if cols.min() < 0 or cols.max() >= DEXTER_FEATURES:
        raise ValueError(f"dexter column index out of range 1..{DEXTER_FEATURES}")
    X = sp.csr_matrix((np.asarray(vals, dtype=np.float64), (np.asarray(rows), cols)),
                      shape=(len(lines), DEXTER_FEATURES))
    labels = np.array([int(t) for t in (src / "nips2003/dexter/dexter_train.labels").read_text().split()])
    if len(labels) != X.shape[0]:
        raise ValueError(f"dexter: {len(labels)} labels for {X.shape[0]} samples")
    arrays = sparse_arrays("X_", X)
    arrays["target"] = _relabel(labels, {-1: 0, 1: 1})
    return arrays, {"target_names": ["-1", "+1"]}

"""Parsers of the raw UCI files in ``shared/data/uci`` (undoing the uploaders' edits).

Every parser returns ``(arrays, meta)``: ``arrays`` holds ``data`` (float64,
NaN = missing; nominal attributes as integer codes into ``categories``) and
``target`` (small int codes into ``target_names``); ``meta`` holds
``feature_names``, ``target_names``, ``categories`` and ``notes`` (facts found
while parsing, used in DESCR).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.io import arff


def _codes(values, levels, missing=("?",)):
    """Map strings to integer codes into ``levels`` (NaN for missing)."""
    index = {lev: i for i, lev in enumerate(levels)}
    out = np.empty(len(values), dtype=np.float64)
    for k, v in enumerate(values):
        v = v.decode() if isinstance(v, bytes) else str(v)
        v = v.strip()
        if v in missing:
            out[k] = np.nan
        elif v in index:
            out[k] = index[v]
        else:
            raise ValueError(f"unexpected level {v!r} (levels {levels})")
    return out


def _target(values, levels):
    codes = _codes(values, levels, missing=())
    return codes.astype(np.int8 if len(levels) < 128 else np.int16)


def _result(columns, names, categories, target, target_names, notes=(), **extra_arrays):
    """Assemble ``(arrays, meta)``; ``extra_arrays`` (e.g. ids) are stored beside data/target."""
    arrays = {"data": np.column_stack(columns).astype(np.float64), "target": target}
    arrays.update(extra_arrays)
    meta = {
        "feature_names": list(names),
        "target_names": list(target_names),
        "categories": [None if c is None else list(c) for c in categories],
        "notes": list(notes),
    }
    return arrays, meta


def _read_arff(path):
    data, meta = arff.loadarff(str(path))
    names = meta.names()
    return data, names, [meta[n] for n in names]


def _from_arff(path, class_name=None, missing=("?",)):
    data, names, types = _read_arff(path)
    class_name = class_name or names[-1]
    cols, fnames, cats = [], [], []
    for name, (kind, levels) in zip(names, types):
        if name == class_name:
            continue
        fnames.append(name)
        if kind == "nominal":
            cols.append(_codes(data[name], list(levels), missing))
            cats.append(list(levels))
        else:
            cols.append(np.asarray(data[name], dtype=np.float64))
            cats.append(None)
    levels = list(dict(zip(names, types))[class_name][1])
    return cols, fnames, cats, _target(data[class_name], levels), levels


# ----------------------------------------------------------------------------
MONK_LEVELS = [3, 3, 2, 3, 4, 2]  # a1..a6 take values 1..k


def parse_monks(src: Path, problem: int, subset: str):
    """monks-<problem>.<subset>: class, a1..a6 (the uploader dropped the id column)."""
    rows = [line.split() for line in (src / f"uci/monks/monks-{problem}.{subset}").read_text().splitlines() if line.strip()]
    if any(len(r) != 7 for r in rows):
        raise ValueError("monks rows must have 7 fields (class + a1..a6, no id column)")
    arr = np.array(rows, dtype=np.int64)
    cols, cats = [], []
    for j, k in enumerate(MONK_LEVELS):
        v = arr[:, j + 1]
        if v.min() < 1 or v.max() > k:
            raise ValueError(f"monks attribute a{j + 1} outside 1..{k}")
        cols.append(v - 1.0)
        cats.append([str(i) for i in range(1, k + 1)])
    target = arr[:, 0].astype(np.int8)
    # UCI ids were "data_<n>"; restore a 1-based row number for reference
    return _result(cols, [f"a{j}" for j in range(1, 7)], cats, target, ["0", "1"],
                   row_id=np.arange(1, len(arr) + 1, dtype=np.int16))


def parse_tic_tac_toe(src: Path):
    df = pd.read_csv(src / "uci/tic-tac-toe/tic-tac-toe.data", header=None, dtype=str)
    _, names, types = _read_arff(src / "uci/tic-tac-toe/tic-tac-toe.arff")
    levels = ["b", "o", "x"]
    cols = [_codes(df[j].tolist(), levels) for j in range(9)]
    return _result(cols, names[:9], [levels] * 9, _target(df[9].tolist(), ["negative", "positive"]),
                   ["negative", "positive"])


def parse_vote(src: Path):
    text = (src / "uci/vote/house-votes-84.data").read_text()
    df = pd.read_csv(io.StringIO(text), header=None, dtype=str)  # class first, no final newline
    _, names, _ = _read_arff(src / "uci/vote/vote.arff")
    levels = ["n", "y"]
    cols = [_codes(df[j].tolist(), levels) for j in range(1, 17)]
    return _result(cols, names[:16], [levels] * 16,
                   _target(df[0].tolist(), ["democrat", "republican"]), ["democrat", "republican"])


def parse_breast_cancer(src: Path):
    cols, names, cats, target, levels = _from_arff(src / "uci/breast-cancer/breast-cancer.arff")
    return _result(cols, names, cats, target, levels)


def parse_breast_cancer_wisconsin(src: Path):
    df = pd.read_csv(src / "uci/breast-cancer-wisconsin/breast-cancer-wisconsin.data", header=None,
                     na_values="?")
    names = ["clump_thickness", "uniformity_of_cell_size", "uniformity_of_cell_shape",
             "marginal_adhesion", "single_epithelial_cell_size", "bare_nuclei", "bland_chromatin",
             "normal_nucleoli", "mitoses"]
    cols = [df[j].to_numpy(np.float64) for j in range(1, 10)]
    cls = df[10].to_numpy()
    if set(np.unique(cls)) != {2, 4}:
        raise ValueError("breast-cancer-wisconsin classes must be 2/4")
    return _result(cols, names, [None] * 9, (cls == 4).astype(np.int8), ["benign", "malignant"],
                   sample_id=df[0].to_numpy(np.int64))


WDBC_NAMES = [f"{stat} {feat}" for stat in ("mean", "error", "worst") for feat in (
    "radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity",
    "concave points", "symmetry", "fractal dimension")]


def parse_wdbc(src: Path):
    lines = [ln for ln in (src / "uci/breast-cancer-wisconsin/wdbc.dat").read_text().splitlines()
             if ln.strip() and not ln.startswith("@")]
    df = pd.read_csv(io.StringIO("\n".join(lines)), header=None)
    cols = [df[j].to_numpy(np.float64) for j in range(30)]
    return _result(cols, WDBC_NAMES, [None] * 30, _target(df[30].str.strip().tolist(), ["B", "M"]),
                   ["benign", "malignant"])


def parse_hepatitis(src: Path):
    cols, names, cats, target, levels = _from_arff(src / "uci/hepatitis/hepatitis.arff")
    return _result(cols, names, cats, target, levels)


def parse_transfusion(src: Path):
    df = pd.read_csv(src / "uci/transfusion/transfusion.data", skiprows=1, header=None)
    names = ["Recency (months)", "Frequency (times)", "Monetary (c.c. blood)", "Time (months)"]
    cols = [df[j].to_numpy(np.float64) for j in range(4)]
    return _result(cols, names, [None] * 4, df[4].to_numpy().astype(np.int8),
                   ["not donated", "donated"])


def parse_ionosphere(src: Path):
    df = pd.read_csv(src / "uci/ionosphere/ionosphere.csv", header=None)
    cols = [df[j].to_numpy(np.float64) for j in range(34)]
    return _result(cols, [f"a{j:02d}" for j in range(1, 35)], [None] * 34,
                   _target(df[34].tolist(), ["b", "g"]), ["b (bad)", "g (good)"])


GLASS_TYPES = {1: "building windows float processed", 2: "building windows non float processed",
               3: "vehicle windows float processed", 4: "vehicle windows non float processed",
               5: "containers", 6: "tableware", 7: "headlamps"}


def parse_glass(src: Path):
    df = pd.read_csv(src / "uci/glass/glass.data", header=None)  # column 0 = id
    names = ["RI", "Na", "Mg", "Al", "Si", "K", "Ca", "Ba", "Fe"]
    cols = [df[j].to_numpy(np.float64) for j in range(1, 10)]
    types = df[10].to_numpy()
    present = sorted(np.unique(types))
    target = np.searchsorted(present, types).astype(np.int8)
    return _result(cols, names, [None] * 9, target, [f"{t}: {GLASS_TYPES[t]}" for t in present],
                   glass_id=df[0].to_numpy(np.int16), glass_type=types.astype(np.int8))


WINE_NAMES = ["Alcohol", "Malic acid", "Ash", "Alcalinity of ash", "Magnesium", "Total phenols",
              "Flavanoids", "Nonflavanoid phenols", "Proanthocyanins", "Color intensity", "Hue",
              "OD280/OD315 of diluted wines", "Proline"]


def parse_wine(src: Path):
    df = pd.read_csv(src / "uci/wine/wine.csv", header=None)  # class moved last by the uploader
    cols = [df[j].to_numpy(np.float64) for j in range(13)]
    return _result(cols, WINE_NAMES, [None] * 13, (df[13].to_numpy() - 1).astype(np.int8),
                   ["class 1", "class 2", "class 3"])


def parse_iris(src: Path):
    df = pd.read_csv(src / "uci/iris/iris.csv", header=None)
    cols = [df[j].to_numpy(np.float64) for j in range(4)]
    levels = ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    notes = []
    # The UCI iris.data has two known errors (rows 35 and 38, see iris.names)
    x35, x38 = df.iloc[34, :4].tolist(), df.iloc[37, :4].tolist()
    if x35 == [4.9, 3.1, 1.5, 0.1] and x38 == [4.9, 3.1, 1.5, 0.1]:
        notes.append("This is the UCI iris.data version with the two known errors of rows 35 "
                     "and 38 (Fisher's values are 4.9,3.1,1.5,0.2 and 4.9,3.6,1.4,0.1); kept as in the file.")
    elif x35 == [4.9, 3.1, 1.5, 0.2] and x38 == [4.9, 3.6, 1.4, 0.1]:
        notes.append("Rows 35 and 38 carry Fisher's corrected values (not the UCI errors).")
    return _result(cols, ["sepal length (cm)", "sepal width (cm)", "petal length (cm)",
                          "petal width (cm)"], [None] * 4, _target(df[4].tolist(), levels),
                   ["setosa", "versicolor", "virginica"], notes=notes)


def parse_balance_scale(src: Path):
    cols, names, cats, target, levels = _from_arff(src / "uci/balance-scale/balance-scale.arff")
    return _result(cols, names, cats, target, levels)


SOYBEAN_NAMES = ["date", "plant-stand", "precip", "temp", "hail", "crop-hist", "area-damaged",
                 "severity", "seed-tmt", "germination", "plant-growth", "leaves", "leafspots-halo",
                 "leafspots-marg", "leafspot-size", "leaf-shread", "leaf-malf", "leaf-mild", "stem",
                 "lodging", "stem-cankers", "canker-lesion", "fruiting-bodies", "external-decay",
                 "mycelium", "int-discolor", "sclerotia", "fruit-pods", "fruit-spots", "seed",
                 "mold-growth", "seed-discolor", "seed-size", "shriveling", "roots"]


def parse_soybean_small(src: Path):
    # line 1 was prepended by the uploader (copy of row 1, class "outcome"): skip it
    df = pd.read_csv(src / "uci/soybean-small/soybean-small.data", header=None, skiprows=1)
    if len(df) != 47 or df.shape[1] != 36:
        raise ValueError(f"soybean-small: expected 47 x 36 after the skipped line, got {df.shape}")
    cols, cats = [], []
    for j in range(35):
        v = df[j].to_numpy(np.int64)
        cols.append(v.astype(np.float64))  # code == value (levels "0".."max")
        cats.append([str(i) for i in range(int(v.max()) + 1)])
    return _result(cols, SOYBEAN_NAMES, cats, _target(df[35].tolist(), ["D1", "D2", "D3", "D4"]),
                   ["D1", "D2", "D3", "D4"])


def parse_pima(src: Path):
    df = pd.read_csv(src / "uci/pima-diabetes/pima-indians-diabetes.csv", header=None)
    names = ["pregnancies", "plasma glucose", "diastolic blood pressure", "triceps skin fold",
             "serum insulin", "BMI", "diabetes pedigree function", "age"]
    cols = [df[j].to_numpy(np.float64) for j in range(8)]
    zeros = {names[j]: int((df[j] == 0).sum()) for j in range(1, 6)}
    notes = ["Zero counts (zeros stand for missing values, kept as 0 as in the file): "
             + ", ".join(f"{k} {v}" for k, v in zeros.items()) + "."]
    return _result(cols, names, [None] * 8, df[8].to_numpy().astype(np.int8),
                   ["tested negative", "tested positive"], notes=notes)


BOSTON_NAMES = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO",
                "B", "LSTAT"]


def parse_boston(src: Path):
    df = pd.read_csv(src / "uci/boston-housing/housing.data", header=None, sep=r"\s+")
    if df.shape != (506, 14):
        raise ValueError(f"housing.data: expected 506 x 14, got {df.shape}")
    arrays = {"data": df.iloc[:, :13].to_numpy(np.float64), "target": df[13].to_numpy(np.float64)}
    meta = {"feature_names": BOSTON_NAMES, "target_names": ["MEDV"], "categories": [None] * 13,
            "notes": []}
    return arrays, meta

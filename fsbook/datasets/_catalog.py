"""``list_datasets()``: one row per dataset (built or unavailable), and
``rule_consistency()``: the rule-defined datasets checked against their rules."""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp

from fsbook.datasets import _loaders as L
from fsbook.datasets._registry import PAPERS, SPECS, UNAVAILABLE
from fsbook.datasets._store import decode_meta, read_dataset


def load_by_name(name):
    """Load a built dataset by its file stem (``"monks1_train"``, ``"webtext_2"``, ...)."""
    if name.startswith("monks"):
        return L.load_monks(int(name[5]), name.split("_")[1])
    for prefix, loader in (("movie_reviews_", L.load_movie_reviews), ("webtext_", L.load_webtext)):
        if name.startswith(prefix):
            return loader(int(name[len(prefix):]))
    if name == "leukemia_discretised":
        return L.load_leukemia(discretised=True)
    loader = getattr(L, f"load_{name}", None)
    if loader is None:
        raise ValueError(f"unknown dataset {name!r}")
    return loader()


def list_datasets(include_unavailable=True, compute=False):
    """Table of the datasets.

    Parameters
    ----------
    include_unavailable : bool, default True
        Add the datasets the papers use that could not be obtained (with the reason).
    compute : bool, default False
        If False, shape / classes / density come from the metadata stored in
        the built files at build time; if True every dataset is loaded and
        they are recomputed (plus the number of missing values).

    Returns
    -------
    pandas.DataFrame with columns name, loader, title, domain (one of
    :data:`fsbook.datasets.DOMAINS`), shape, n_classes, density (fraction of
    non-zero stored values), preprocessing (what a protocol applies), papers,
    source, licence, differences, available, reason (and missing if
    ``compute``).

    Examples
    --------
    >>> from fsbook.datasets import list_datasets
    >>> table = list_datasets(include_unavailable=False)
    >>> row = table.set_index("name").loc["splice"]
    >>> row["domain"], row["shape"], int(row["n_classes"])
    ('tabular', (3190, 60), 3)
    >>> int(table.domain.nunique()) >= 5
    True
    """
    rows = []
    for spec in SPECS:
        if compute:
            b = load_by_name(spec.name)
            X = b.data
            shape = X.shape
            nnz = X.nnz if sp.issparse(X) else int(np.count_nonzero(np.nan_to_num(X, nan=1.0)))
            density = nnz / float(shape[0] * shape[1])
            n_classes = len(np.unique(b.target)) if b.target.dtype.kind == "i" else None
            missing = 0 if sp.issparse(X) else int(np.isnan(X).sum())
        else:
            summary = decode_meta(read_dataset(spec.filename)["meta"])["summary"]
            shape, n_classes, density = tuple(summary["shape"]), summary["n_classes"], summary["density"]
        row = {"name": spec.name, "loader": f"fsbook.datasets.{spec.loader}", "title": spec.title,
               "domain": spec.domain, "shape": tuple(int(v) for v in shape), "n_classes": n_classes,
               "density": density, "preprocessing": spec.preprocessing, "papers": ", ".join(spec.papers),
               "source": spec.origin, "licence": spec.licence, "differences": spec.differences,
               "available": True, "reason": ""}
        if compute:
            row["missing"] = missing
        rows.append(row)
    if include_unavailable:
        for item in UNAVAILABLE:
            rows.append({"name": item["name"], "loader": None, "title": item["name"], "domain": None,
                         "shape": item["shape"], "n_classes": None, "density": None, "preprocessing": None,
                         "papers": ", ".join(item["papers"]), "source": None, "licence": None,
                         "differences": None, "available": False, "reason": item["reason"]})
    return pd.DataFrame(rows)


def paper_names():
    """Paper keys P1..P5 and their references."""
    return dict(PAPERS)


MONK_RULES = {
    1: ("a1 = a2 or a5 = 1", lambda a: (a[:, 0] == a[:, 1]) | (a[:, 4] == 1)),
    2: ("exactly two attributes take their first value", lambda a: (a == 1).sum(axis=1) == 2),
    3: ("(a5 = 3 and a4 = 1) or (a5 != 4 and a2 != 3)",
        lambda a: ((a[:, 4] == 3) & (a[:, 3] == 1)) | ((a[:, 4] != 4) & (a[:, 1] != 3))),
}


def rule_consistency():
    """Check the rule-defined datasets against their defining rules.

    MONK's problems (Thrun et al. 1991; attribute values 1..k = codes + 1) and
    Balance Scale (class = sign of left_weight*left_distance -
    right_weight*right_distance).  Returns a DataFrame with, per split, the
    rule, the number of samples, of label/rule mismatches, of distinct
    attribute combinations and of possible ones.
    """
    rows = []
    space = int(np.prod([3, 3, 2, 3, 4, 2]))
    for p, (text, rule) in MONK_RULES.items():
        for subset in ("train", "test"):
            b = L.load_monks(p, subset)
            a = b.data.astype(int) + 1
            rows.append({"dataset": f"MONK-{p} {subset}", "rule": text, "samples": len(a),
                         "mismatches": int((rule(a).astype(int) != b.target).sum()),
                         "distinct combinations": len({tuple(r) for r in a}), "possible combinations": space})
    b = L.load_balance_scale()
    a = b.data.astype(int)
    torque = a[:, 0] * a[:, 1] - a[:, 2] * a[:, 3]
    rule = np.where(torque > 0, "L", np.where(torque < 0, "R", "B"))
    rows.append({"dataset": "Balance scale", "rule": "sign(lw*ld - rw*rd): L / B / R", "samples": len(a),
                 "mismatches": int((np.asarray(b.target_names)[b.target] != rule).sum()),
                 "distinct combinations": len({tuple(r) for r in a}), "possible combinations": 5 ** 4})
    return pd.DataFrame(rows)


__all__ = ["list_datasets", "load_by_name", "rule_consistency", "paper_names"]

"""The benchmark's claims: every comparison the chapter decides, in families of Holm's correction,
each with its declared margin (:func:`~fsbook.experiments.benchmark.paper.order_margin`: one test
prediction of a paired unit; over data sets :func:`~fsbook.experiments.benchmark.paper.
over_datasets_margin`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import ClaimFamily, claims_table
from fsbook.experiments.benchmark.data import load
from fsbook.experiments.benchmark.paper import (
    CLASSIFIER_SIDE,
    CLASSIFIERS,
    FULL_DATASETS,
    OWN_SIZE,
    RANK_K,
    methods,
    order_margin,
    over_datasets_margin,
)


def fold_accuracies(params_list, results_list, dataset, method, metric="acc_linear", k=RANK_K):
    """Test accuracy (%) of ``method`` on every test fold of ``dataset``, as stored.

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks (``read_store(PROTOCOL).params`` and ``.results``).
    dataset, method : str
    metric : {"acc_linear", "acc_rbf"}
        The classifier (``Proj-SVM`` has ``"acc_linear"`` only).
    k : int
        Kept features; ignored by ``none``, :data:`OWN_SIZE` and :data:`CLASSIFIER_SIDE` methods,
        which have one point.

    Returns
    -------
    ndarray of shape (repeats, n_folds)
        Row ``r``, column ``f``: repeat ``r``, test fold ``f``; the folds are the same for every
        method, so two methods' arrays are paired cell by cell.

    Examples
    --------
    >>> from fsbook.experiments import benchmark as B
    >>> ps = [{"dataset": "wine", "method": "none", "repeat": 0, "fold": f, "n_folds": 2} for f in (0, 1)]
    >>> rs = [{"k": [0], "acc_linear": [a], "acc_rbf": [a]} for a in (0.9, 0.95)]
    >>> B.claims.fold_accuracies(ps, rs, "wine", "none").tolist()
    [[90.0, 95.0]]
    """
    if metric not in CLASSIFIERS:
        raise ValueError(f"metric must be one of {list(CLASSIFIERS)}, got {metric!r}")
    cells = {}
    for p, r in zip(params_list, results_list):
        if p["dataset"] != dataset or p["method"] != method:
            continue
        if "not_run" in r:
            raise ValueError(f"{method} does not run on {dataset}: {r['not_run']}")
        if method in CLASSIFIER_SIDE:
            if metric != "acc_linear":
                raise ValueError(f"{method} has a linear SVM accuracy only")
            value = r["acc_linear"]
        else:
            at = 0 if (method == "none" or method in OWN_SIZE) else (r["k"].index(k) if k in r["k"] else None)
            if at is None:
                raise ValueError(f"{method} on {dataset} has no stored k = {k} (stored: {r['k']})")
            value = r[metric][at]
        cells[(p["repeat"], p["fold"])] = 100.0 * value
    if not cells:
        raise ValueError(f"no stored task of {method} on {dataset}")
    repeats = 1 + max(r for r, _ in cells)
    n_folds = next(p["n_folds"] for p in params_list if p["dataset"] == dataset and p["method"] == method)
    if len(cells) != repeats * n_folds:
        raise ValueError(f"{method} on {dataset}: {len(cells)} of {repeats * n_folds} folds stored")
    out = np.empty((repeats, n_folds))
    for (r, f), v in cells.items():
        out[r, f] = v
    return out


def _best(candidates, values):
    """The first candidate (in the given order) whose mean is within the tie tolerance of the
    largest mean (:func:`fsbook.decisions.argbest`), and all those tied with it."""
    from fsbook.decisions import RTOL, argbest

    means = np.array([v.mean() for v in values])
    i = argbest(means, maximize=True)
    tied = [c for c, m in zip(candidates, means) if abs(m - means[i]) <= RTOL * abs(means[i])]
    return i, tied


#: suffix of the family of a table's over-data-set rows (:func:`fsbook.claims.over_datasets_table`)
OVER = " (over data sets)"


def _ordered(t):
    """Each claim's per-data-set rows, then its row over the data sets."""
    scope = np.where(t["dataset"] != "", 0, 1)
    first = {g: i for i, g in enumerate(dict.fromkeys(t["general"]))}
    key = pd.DataFrame({"g": t["general"].map(first), "s": scope, "i": np.arange(len(t))})
    return t.iloc[key.sort_values(["g", "s", "i"]).index].reset_index(drop=True)


#: claims tables of :func:`claims` and the comparison each one makes: the per-data-set rows of a
#: table are one Holm family, its over-data-set rows another (``table + OVER``)
CLAIM_TABLES = {
    "proj": "Proj-SVM against the linear SVM on all features",
    "hsfs": f"HSFS against l1-SVM at k = {RANK_K}",
    "best_k": f"the best selector at k = {RANK_K} against all features",
    "best_any": "the best selector at any k against all features",
    "own_size": "CFS and GeoRatio at their own size against all features",
    "ldfs_wine": f"every other selector against LDFS on wine (linear SVM, k = {RANK_K})",
}


def family_label(table):
    """The words of a claims family of :func:`claims` (:data:`CLAIM_TABLES`), for figures.

    Examples
    --------
    >>> from fsbook.experiments.benchmark.claims import OVER, family_label
    >>> family_label("proj"), family_label("proj" + OVER)
    ('Proj-SVM against the linear SVM on all features', 'Proj-SVM against the linear SVM on all features (over data sets)')
    """
    base = table[:-len(OVER)] if table.endswith(OVER) else table
    return CLAIM_TABLES.get(base, base) + (table[len(base):] if base != table else "")


def claims(results, datasets=None):
    """Every comparison the benchmark chapter decides, evaluated on the stored fold accuracies.

    Each claim says that ``a`` has a higher test accuracy than ``b``.  Per data set it is tested
    on the paired test folds (both methods see the same folds), by :func:`fsbook.claims.fold_test`: on the full
    protocol's 5 × 2 CV the paired t-test over the 5 repetition means (unit ``"repetitions"``),
    on one partition the paired t-test over its folds.  Over the data sets, the Wilcoxon
    signed-rank test on the per-data-set effects, with the Hodges–Lehmann estimate and interval
    (:func:`fsbook.claims.evaluate_over_datasets`, unit ``"data sets"``; its note counts the
    per-data-set verdicts, which decide nothing).  Holm's correction runs within each family: the
    per-data-set rows of a table (:data:`CLAIM_TABLES`) form the family ``table``, its rows over
    the data sets the family ``table + OVER``, so the two kinds never share a correction:

    ``proj``
        ``Proj-SVM`` above the linear SVM on all features (the projection-penalties paper's
        direction).
    ``hsfs``
        HSFS above ℓ1-SVM at :data:`RANK_K` features, for each classifier.
    ``best_k``, ``best_any``
        The selector (``best_any``: the selector and ``k``, own-size methods at their size) of
        the largest mean accuracy on a data set above the classifier on all features.  The best
        is picked on the same test folds, which favours it: a verdict of *holds* is optimistic,
        *not separable* is not.
    ``own_size``
        CFS, and GeoRatio where it runs, above the classifier on all features.
    ``ldfs_wine``
        Every other selector keeping ``k`` features above LDFS on wine (linear SVM, ``k`` =
        :data:`RANK_K`).

    Every claim carries its declared margin (:func:`with_margins`): per data set one test
    prediction of a unit, :func:`~fsbook.experiments.benchmark.paper.order_margin`; over the
    data sets :func:`~fsbook.experiments.benchmark.paper.over_datasets_margin` of those margins
    (the Wilcoxon rows can be "below margin", never "no gain": the engine has no equivalence test
    over data sets).

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL, ...)`` (its ``params`` and ``results``).
    datasets : list of str, optional
        The data sets to use (default: every data set of the stored tasks, protocol order).

    Returns
    -------
    DataFrame
        A claims table (:data:`fsbook.claims.COLUMNS`) with the columns ``general`` (the claim
        without its data set), ``dataset`` (empty over data sets) and ``classifier``.
    """
    params_list, results_list = list(results.params), list(results.results)
    if datasets is None:
        present = {p["dataset"] for p in params_list}
        datasets = [d for d in FULL_DATASETS if d in present]
    if not datasets:
        raise ValueError("claims need at least one data set")

    def acc(dataset, method, metric, k=RANK_K):
        return fold_accuracies(params_list, results_list, dataset, method, metric, k)

    ran = {(p["dataset"], p["method"]) for p, r in zip(params_list, results_list) if "not_run" not in r}
    k_selectors = [m for m in methods() if m not in OWN_SIZE]
    tables = []

    fam = ClaimFamily("proj", OVER)
    text = "Proj-SVM above the linear SVM on all features"
    for d in datasets:
        fam.per_dataset(text, d, "Proj-SVM", "none", acc(d, "Proj-SVM", "acc_linear"),
                        acc(d, "none", "acc_linear"), classifier="linear SVM")
    fam.over_datasets(text, "Proj-SVM", "none", classifier="linear SVM")
    tables.append(fam.table_rows())

    fam = ClaimFamily("hsfs", OVER)
    for metric, clf in CLASSIFIERS.items():
        text = f"HSFS above l1-SVM at k = {RANK_K} ({clf})"
        for d in datasets:
            fam.per_dataset(text, d, "HSFS", "l1-SVM", acc(d, "HSFS", metric), acc(d, "l1-SVM", metric),
                            classifier=clf)
        fam.over_datasets(text, "HSFS", "l1-SVM", classifier=clf)
    tables.append(fam.table_rows())

    for table, at_any in (("best_k", False), ("best_any", True)):
        fam = ClaimFamily(table, OVER)
        for metric, clf in CLASSIFIERS.items():
            text = (f"the best selector {'at any k' if at_any else f'at k = {RANK_K}'} above all features ({clf})")
            for d in datasets:
                cands = [(m, k) for m in methods() if m != "none" and (d, m) in ran
                         for k in (_stored_ks(params_list, d, m) if at_any else
                                   ([RANK_K] if m in k_selectors else []))]
                vals = [acc(d, m, metric, k) for m, k in cands]
                i, tied = _best(cands, vals)
                label = [m if m in OWN_SIZE else f"{m} (k = {k})" if at_any else m for m, k in tied]
                note = "best: " + ", ".join(label)
                fam.per_dataset(text, d, cands[i][0], "none", vals[i], acc(d, "none", metric), note=note,
                                classifier=clf)
            fam.over_datasets(text, "best selector", "none", classifier=clf)
        tables.append(fam.table_rows())

    fam = ClaimFamily("own_size", OVER)
    for method in sorted(OWN_SIZE - {"none"}):
        for metric, clf in CLASSIFIERS.items():
            text = f"{method} above all features ({clf})"
            sets = [d for d in datasets if (d, method) in ran]
            for d in sets:
                fam.per_dataset(text, d, method, "none", acc(d, method, metric), acc(d, "none", metric),
                                classifier=clf)
            if len(sets) > 1:
                fam.over_datasets(text, method, "none", classifier=clf)
    tables.append(fam.table_rows())

    if "wine" in datasets:
        fam = ClaimFamily("ldfs_wine", OVER)
        base = acc("wine", "LDFS", "acc_linear")
        for m in k_selectors:
            if m not in ("none", "LDFS") and ("wine", m) in ran:
                fam.per_dataset(f"{m} above LDFS on wine (linear SVM, k = {RANK_K})", "wine", m, "LDFS",
                                acc("wine", m, "acc_linear"), base, classifier="linear SVM")
        tables.append(fam.table_rows())
    n_folds = {p["dataset"]: p["n_folds"] for p in params_list}
    samples = {d: load(d)[0].shape[0] for d in datasets}
    return pd.concat([_ordered(with_margins(t, samples, n_folds)) for t in tables], ignore_index=True)


def with_margins(table, samples, n_folds):
    """A claims table of :func:`claims` with each row's declared margin and its verdict decided
    again (:func:`fsbook.claims.claims_table`: the same Holm families and p-values).

    A per-data-set row's margin is :func:`~fsbook.experiments.benchmark.paper.order_margin` of
    its data set's ``samples`` and its unit; a row over the data sets (``dataset`` empty, family
    ``table + OVER``) takes :func:`~fsbook.experiments.benchmark.paper.over_datasets_margin` of
    the margins of the per-data-set rows it is decided over (same ``general`` claim, a defined
    effect).

    Parameters
    ----------
    table : DataFrame
        One family's rows (:meth:`fsbook.claims.ClaimFamily.table_rows`), with ``general`` and
        ``dataset``.
    samples, n_folds : dict
        ``{data set: samples}`` and ``{data set: folds of one repetition}``.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.claims import ClaimFamily
    >>> fam = ClaimFamily("demo", OVER)
    >>> base = np.array([[80.0, 82.0], [81.0, 79.0], [80.0, 80.0]])   # 3 repetitions of 2 folds
    >>> for d, gain in (("a", [0.29, 0.31, 0.3]), ("b", [0.1, -0.1, 0.05]), ("c", [0.4, 0.41, 0.39])):
    ...     fam.per_dataset("A above B", d, "A", "B", base + np.array(gain)[:, None], base)
    >>> t = with_margins(fam.table_rows(), {"a": 100, "b": 100, "c": 400}, {"a": 2, "b": 2, "c": 2})
    >>> t["margin"].tolist(), t["verdict"].tolist(), t["size"].tolist()
    ([1.0, 1.0, 0.25], ['holds', 'no gain', 'holds'], ['below margin', '', ''])
    """
    per = (table["dataset"] != "").to_numpy()
    margin = np.full(len(table), np.nan)
    for i in np.flatnonzero(per):
        d = table["dataset"].iloc[i]
        margin[i] = order_margin(samples[d], table["unit"].iloc[i], n_folds[d])
    effect = table["effect"].to_numpy(dtype=float)
    for i in np.flatnonzero(~per):
        over = per & (table["general"] == table["general"].iloc[i]).to_numpy() & np.isfinite(effect)
        margin[i] = over_datasets_margin(margin[over])
    return claims_table(table.assign(margin=margin).to_dict("records"))


def claims_view(claims_df, table):
    """The rows of one table of :func:`claims` (its per-data-set family and its over-data-set family
    ``table + OVER``), each claim named by what distinguishes it within the table (its classifier
    and data set, or "over data sets"), for :func:`fsbook.report.claims_display`.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments import benchmark as B
    >>> t = pd.DataFrame({"table": ["hsfs", "hsfs (over data sets)"], "claim": ["x: wine", "x"],
    ...                   "general": ["x", "x"], "dataset": ["wine", ""], "classifier": ["RBF SVM", "linear SVM"]})
    >>> B.claims.claims_view(t, "hsfs")["claim"].tolist()
    ['RBF SVM, wine', 'linear SVM, over data sets']
    """
    if table not in set(claims_df["table"]):
        raise ValueError(f"no claims of table {table!r}; tables: {sorted(set(claims_df['table']))}")
    t = claims_df[claims_df["table"].isin([table, table + OVER])].copy()
    several = t["classifier"].nunique() > 1 or t["general"].nunique() > 1
    where = np.where(t["dataset"] != "", t["dataset"], "over data sets")
    if table == "ldfs_wine":
        t["claim"] = t["a"].to_numpy()
    elif table == "own_size":
        t["claim"] = [f"{a}, {c}, {w}" for a, c, w in zip(t["a"], t["classifier"], where)]
    else:
        t["claim"] = [f"{c}, {w}" if several else w for c, w in zip(t["classifier"], where)]
    return t.reset_index(drop=True)


def _stored_ks(params_list, dataset, method):
    ks = next(p["ks"] for p in params_list if p["dataset"] == dataset and p["method"] == method)
    return list(ks)

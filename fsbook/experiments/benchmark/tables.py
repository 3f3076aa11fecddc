"""The benchmark's tables: ``reduce`` and the tables the chapter builds from the declarations and
the stored tasks (the rank statistics over data sets are
:mod:`~fsbook.experiments.benchmark.ranks`', the per-fold accuracies the claims pair are
:func:`~fsbook.experiments.benchmark.claims.fold_accuracies`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments._runner import whole_datasets
from fsbook.experiments.benchmark.data import load, width
from fsbook.experiments.benchmark.paper import (
    BOOK_DATASETS,
    BOOK_KS,
    C_LINEAR,
    C_RBF,
    CLASSIFIER_SIDE,
    CLASSIFIERS,
    FULL_DATASETS,
    FULL_KS,
    FULL_ONLY,
    GEO_MAX_GROUPS,
    HKL_N_BINS,
    HKL_SETTINGS,
    L1LINF_FAST,
    OWN_SIZE,
    PROJ_PENALTIES,
    RANK_K,
    RANKERS,
    SVM_TIES,
    VERSION,
    VOCABULARY,
    methods,
)
from fsbook.experiments.benchmark.tasks import make_tasks


def stored_datasets(params_list, full=True):
    """The data sets all of whose tasks of ``make_tasks(full)`` are in ``params_list``, in the
    protocol's order: the data sets a partial store (``read_store(PROTOCOL,
    allow_partial=True).params``) holds whole, so that its tables compare every method on them.

    Examples
    --------
    >>> from fsbook.experiments import benchmark as B
    >>> tasks = B.tasks.make_tasks(False)
    >>> B.tables.stored_datasets([t for t in tasks if not (t["dataset"] == "wdbc" and t["fold"] == 2)], full=False)
    ['wine', 'ionosphere', 'breast_cancer']
    """
    return whole_datasets("benchmark", params_list, FULL_DATASETS if full else BOOK_DATASETS, full)


def _long(params_list, results_list):
    rows = []
    for p, r in zip(params_list, results_list):
        for i in range(len(r["k"])):
            rows.append({"dataset": p["dataset"], "repeat": p["repeat"], "fold": p["fold"], "method": p["method"],
                         "k": r["k"][i], "n_selected": r["n_selected"][i], "acc_linear": 100 * r["acc_linear"][i],
                         "acc_rbf": 100 * r["acc_rbf"][i], "fit_time": r["fit_time"][i],
                         "support": tuple(r["support"][i])})
    return pd.DataFrame(rows)


def kuncheva_by_repeat(group, n_features):
    """Mean over repeats of Kuncheva's index of the folds' kept sets, ``n_features`` to draw from.

    The sets are relabelled to ``0 … |union| − 1`` first: the index depends only on the overlaps,
    and a text set's kept words are indices into the pair's word list while each fold drew them
    from its own :data:`VOCABULARY` words.

    Parameters
    ----------
    group : pandas.DataFrame
        The kept sets of one data set, method and ``k``: columns ``repeat`` and ``support``
        (a sequence of feature indices per fold).
    n_features : int
        How many features the sets are drawn from (:func:`width`).

    Returns
    -------
    float
        The mean of :func:`fsbook.stats.kuncheva_stability` over repeats; NaN when the index is
        undefined (sets of different sizes, every feature kept, or fewer than two folds).

    Examples
    --------
    >>> import pandas as pd
    >>> folds = pd.DataFrame({"repeat": [0, 0], "support": [(0, 1), (0, 2)]})
    >>> round(kuncheva_by_repeat(folds, 10), 3)
    0.375
    >>> kuncheva_by_repeat(pd.DataFrame({"repeat": [0, 0], "support": [(0,), (0, 2)]}), 10)
    nan
    """
    from fsbook.stats import kuncheva_stability

    per_repeat = []
    for _, g in group.groupby("repeat"):
        sets = list(g["support"])
        if len({len(s) for s in sets}) != 1 or not 0 < len(sets[0]) < n_features or len(sets) < 2:
            return np.nan  # undefined: sizes differ between folds (CFS) or every feature kept
        union = np.unique(np.concatenate([np.asarray(s, dtype=int) for s in sets]))
        sets = [np.searchsorted(union, s).tolist() for s in sets]
        per_repeat.append(kuncheva_stability(sets, n_features))
    return float(np.mean(per_repeat))


def _classifier_side(params_list, results_list, none_linear):
    rows = [{"dataset": p["dataset"], "repeat": p["repeat"], "fold": p["fold"], "acc": 100 * r["acc_linear"],
             "C": r["C"], "reduced_penalty": r["reduced_penalty"], "fit_time": r["fit_time"]}
            for p, r in zip(params_list, results_list)]
    if not rows:
        return pd.DataFrame(columns=["dataset", "linear SVM", "Proj-SVM", "difference", "median lambda",
                                     "fit_time"])
    df = pd.DataFrame(rows)
    g = df.groupby("dataset")
    out = pd.DataFrame({"linear SVM": none_linear, "Proj-SVM": g["acc"].mean(),
                        "median lambda": g["reduced_penalty"].median(), "fit_time": g["fit_time"].mean()})
    out = out.dropna(subset=["Proj-SVM"])
    out.insert(2, "difference", out["Proj-SVM"] - out["linear SVM"])
    return out.rename_axis("dataset").reset_index()


def hkl_fits_by_dataset(params_list, results_list):
    """Per data set, how HKL's fits ended: ``reduce``'s ``hkl_fits`` table.

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks and their results; only the results holding ``hkl_gap`` (HKL's tasks)
        count.

    Returns
    -------
    pandas.DataFrame
        One row per data set: ``tasks``, ``certified`` (how many reached the duality-gap
        certificate), ``median gap``, ``largest gap`` and ``mean features used``; empty (same
        columns) without HKL tasks.

    Examples
    --------
    >>> fits = hkl_fits_by_dataset([{"dataset": "wine"}] * 2,
    ...                         [{"hkl_certified": True, "hkl_gap": 1e-4, "hkl_n_used": 6},
    ...                          {"hkl_certified": False, "hkl_gap": 0.3, "hkl_n_used": 10}])
    >>> fits[["dataset", "tasks", "certified", "mean features used"]].to_dict("records")
    [{'dataset': 'wine', 'tasks': 2, 'certified': 1, 'mean features used': 8.0}]
    """
    rows = [{"dataset": p["dataset"], "certified": r["hkl_certified"], "gap": r["hkl_gap"], "n_used": r["hkl_n_used"]}
            for p, r in zip(params_list, results_list) if "hkl_gap" in r]
    columns = ["dataset", "tasks", "certified", "median gap", "largest gap", "mean features used"]
    if not rows:
        return pd.DataFrame(columns=columns)
    g = pd.DataFrame(rows).groupby("dataset", sort=False)
    out = pd.DataFrame({"tasks": g.size(), "certified": g["certified"].sum().astype(int),
                        "median gap": g["gap"].median(), "largest gap": g["gap"].max(),
                        "mean features used": g["n_used"].mean()})
    return out.rename_axis("dataset").reset_index()[columns]


def reduce(params_list, results_list):
    """Tables:

    * ``curves``: mean test accuracy (%) of each classifier per data set, method and ``k``
      (``k`` = the mean number of kept features for ``none`` and ``CFS``);
    * ``accuracy_at_k``: per data set × method at :data:`RANK_K` features (``none`` on all
      features), mean accuracy (%) of each classifier: the input of the statistics;
    * ``stability``: Kuncheva's index of the kept sets across folds, per data set, method and
      ``k`` (undefined, NaN, when the sizes differ), with :func:`width` features to draw from;
    * ``fit_time``: mean selector fit time (s) per data set and method, over folds and ``k``
      (volatile: :func:`~fsbook.experiments.benchmark.paper.fit_time_unit`);
    * ``supports``: every kept set (data set, repeat, fold, method, k);
    * ``classifier_side``: per data set, mean accuracy (%) of the linear SVM on all features
      (``none``) and of ``Proj-SVM``, their difference, the median λ the inner CV chose and
      ``Proj-SVM``'s mean tuning time (s, volatile);
    * ``not_run``: per data set and method that did not run there, the reason
      (:func:`~fsbook.experiments.benchmark.selectors.cannot_run`); those cells are absent from
      the other tables;
    * ``hkl_fits``: per data set, HKL's number of tasks, how many reached the duality-gap
      certificate, the median and largest relative gap, and the mean number of features of
      non-zero weight (:func:`hkl_certificate`; empty without HKL tasks).

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks (:func:`~fsbook.experiments.benchmark.tasks.make_tasks`) and their results
        (:func:`~fsbook.experiments.benchmark.tasks.run_task`).

    Returns
    -------
    dict of str to pandas.DataFrame
        The tables above, by name.

    Examples
    --------
    >>> task = {"dataset": "wine", "repeat": 0, "fold": 0, "n_folds": 3, "method": "MI", "ks": [5]}
    >>> result = {"k": [5], "n_selected": [5], "acc_linear": [0.9], "acc_rbf": [0.8], "fit_time": [0.1],
    ...           "support": [[0, 1, 2, 3, 4]]}
    >>> tables = reduce([task], [result])
    >>> tables["accuracy_at_k"].round(6).to_dict("records")
    [{'dataset': 'wine', 'method': 'MI', 'acc_linear': 90.0, 'acc_rbf': 80.0}]
    """
    not_run = not_run_table(params_list, results_list)
    hkl_fits = hkl_fits_by_dataset(params_list, results_list)
    ran = [(p, r) for p, r in zip(params_list, results_list) if "not_run" not in r]
    side = [(p, r) for p, r in ran if p["method"] in CLASSIFIER_SIDE]
    sel = [(p, r) for p, r in ran if p["method"] not in CLASSIFIER_SIDE]
    df = _long([p for p, _ in sel], [r for _, r in sel])
    df["k_point"] = np.where(df.method.isin(list(OWN_SIZE)), df.n_selected, df.k)
    none_linear = df[df.method == "none"].groupby("dataset")["acc_linear"].mean()
    return {"curves": _curves(df), "accuracy_at_k": _accuracy_at_k(df), "stability": _stability_table(df),
            "fit_time": _fit_time(df), "supports": _supports(df),
            "classifier_side": _classifier_side([p for p, _ in side], [r for _, r in side], none_linear),
            "not_run": not_run, "hkl_fits": hkl_fits}


def not_run_table(params_list, results_list):
    """Per data set and method that did not run there, the reason: ``reduce``'s ``not_run`` table.

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks and their results; a result holding ``not_run``
        (:func:`~fsbook.experiments.benchmark.selectors.cannot_run`'s sentence) is a task that
        did not run.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``method`` and ``reason``, one row per distinct triple.

    Examples
    --------
    >>> params = [{"dataset": "wine", "method": "GeoRatio", "fold": f} for f in (0, 1)]
    >>> not_run_table(params, [{"not_run": "no groups"}] * 2).to_dict("records")
    [{'dataset': 'wine', 'method': 'GeoRatio', 'reason': 'no groups'}]
    """
    return (pd.DataFrame([{"dataset": p["dataset"], "method": p["method"], "reason": r["not_run"]}
                          for p, r in zip(params_list, results_list) if "not_run" in r],
                         columns=["dataset", "method", "reason"])
            .drop_duplicates().reset_index(drop=True))


def _curves(df):
    return (df.groupby(["dataset", "method", "k"])
            .agg(k_mean=("k_point", "mean"), acc_linear=("acc_linear", "mean"), acc_rbf=("acc_rbf", "mean"))
            .reset_index())


def _accuracy_at_k(df):
    at_k = df[(df.k == RANK_K) | (df.method == "none")]
    order = [m for m in methods() if m in set(at_k.method)]
    out = at_k.groupby(["dataset", "method"])[["acc_linear", "acc_rbf"]].mean().reset_index()
    out["method"] = pd.Categorical(out["method"], order)
    out = out.sort_values(["dataset", "method"]).reset_index(drop=True)
    out["method"] = out["method"].astype(str)
    return out


def _stability_table(df):
    n_features = {d: width(d) for d in df.dataset.unique()}
    return pd.DataFrame([{"dataset": d, "method": m, "k": k, "kuncheva": kuncheva_by_repeat(g, n_features[d])}
                         for (d, m, k), g in df[df.method != "none"].groupby(["dataset", "method", "k"])])


def _fit_time(df):
    return df[df.method != "none"].groupby(["dataset", "method"])["fit_time"].mean().reset_index()


def _supports(df):
    supports = df[["dataset", "repeat", "fold", "method", "k", "support"]].copy()
    supports["support"] = supports["support"].map(list)
    return supports


# The chapter's tables (each a function of the declarations or of the store; the page captions them)

def protocol_shape():
    """``(repeats, folds)`` of the full protocol's cross-validation (5 × 2 CV).

    Examples
    --------
    >>> from fsbook.experiments.benchmark.tables import protocol_shape
    >>> protocol_shape()
    (5, 2)
    """
    tasks = pd.DataFrame(make_tasks(full=True))
    return int(tasks["repeat"].nunique()), int(tasks["n_folds"].iloc[0])


#: HKL's restricted solvers (:data:`HKL_SETTINGS`' ``solver``) as the settings table names them
HKL_SOLVER_WORDS = {"mirror": "mirror descent",
                    "conic": "conic program (Clarabel)",
                    "working_set": "conic program on a working set of samples (warm-started along C)"}


def settings_table():
    """The protocol's settings, one row per setting, as the chapter prints them."""
    hkl = HKL_SETTINGS[VERSION]
    repeats, n_folds = protocol_shape()
    ties = {"lexicographic": "two-class model, then smaller hinge loss, then grid order",
            "first": "first C of the grid"}
    rows = [
        ("data sets (full protocol)", ", ".join(FULL_DATASETS)),
        ("k (full protocol; those below a data set's number of features)", ", ".join(map(str, FULL_KS))),
        ("folds (full protocol)", f"{repeats} repeats x {n_folds} folds ({repeats} x {n_folds} CV)"),
        ("data sets, k and folds of the book subsample (not shown here)",
         f"{', '.join(BOOK_DATASETS)}; k = {', '.join(map(str, BOOK_KS))}; 1 repeat x 3 folds"),
        ("C grid, linear SVM", ", ".join(map(str, C_LINEAR))),
        ("C grid, RBF SVM", ", ".join(map(str, C_RBF))),
        ("SVMs' tie rule in the inner CV", ties[SVM_TIES[VERSION]]),
        ("LDFS / HSFS path", ", ".join(f"{k} = {v}" for k, v in L1LINF_FAST.items())),
        ("k at which methods are ranked", str(RANK_K)),
        ("vocabulary of a text set", f"{VOCABULARY} most frequent words of the training posts"),
        ("Proj-SVM grid (C x lambda)",
         f"{', '.join(map(str, C_LINEAR))} x {', '.join(map(str, PROJ_PENALTIES))}"),
        ("selectors", ", ".join(methods())),
        ("selectors left out of the book subsample", ", ".join(sorted(FULL_ONLY))),
        ("HKL: restricted solver, node budget, duality-gap tolerance, nodes added per iteration; "
         "quantile bins of a numeric set",
         f"{HKL_SOLVER_WORDS[hkl['solver']]}, {hkl['max_active'] or 'none'}, {hkl['tol']:g}, "
         f"up to {hkl.get('max_add', 20)}; {HKL_N_BINS}"),
        ("GeoRatio: most feature groups", str(GEO_MAX_GROUPS)),
        ("classifier-side methods", ", ".join(CLASSIFIER_SIDE)),
    ]
    return pd.DataFrame(rows, columns=["setting", "value"])


def datasets_table():
    """Per data set of the full protocol (index): samples, columns, the features a method sees,
    classes, whether the features are 0/1, and the majority class's share (%)."""
    rows = []
    for ds in FULL_DATASETS:
        X, y, _, boolean = load(ds)
        rows.append({"data set": ds, "samples": X.shape[0], "columns": X.shape[1],
                     "features a method sees": width(ds), "classes": len(np.unique(y)),
                     "0/1 features": "yes" if boolean else "no",
                     "majority class (%)": 100 * np.bincount(y).max() / len(y)})
    return pd.DataFrame(rows).set_index("data set")


def coverage_table(stored, datasets):
    """Per data set of the full protocol: its ``k``, the tasks stored and declared, their minutes
    of recorded time, and whether the page reads it (``stored``: ``read_store``'s result).

    The minutes are CPU time when every stored task recorded it (:func:`store_clock`), else wall
    time."""
    declared = pd.DataFrame(make_tasks(full=True))
    times = stored.cpu_seconds if store_clock(stored) == "CPU" else stored.seconds
    tasks = pd.DataFrame(stored.params).assign(seconds=pd.Series(times, dtype=float).fillna(0.0))
    n_stored, minutes = tasks.groupby("dataset").size(), tasks.groupby("dataset")["seconds"].sum() / 60
    return pd.DataFrame([{
        "data set": ds, "k": ", ".join(map(str, max(declared[declared.dataset == ds]["ks"], key=len))),
        "tasks stored": int(n_stored.get(ds, 0)), "tasks": int((declared.dataset == ds).sum()),
        "minutes": float(minutes.get(ds, 0.0)), "read on this page": "yes" if ds in datasets else "no: incomplete"}
        for ds in FULL_DATASETS])


def store_clock(stored):
    """``"CPU"`` when every task of ``stored`` (``read_store``'s result) recorded its CPU time,
    else ``"wall"``: the clock of :func:`coverage_table`'s minutes."""
    cpu = getattr(stored, "cpu_seconds", None)
    return "CPU" if cpu is not None and len(cpu) and all(c is not None for c in cpu) else "wall"


#: each part of the chapter and the stored tasks it reads
PAGE_PARTS = (
    ("accuracy at k = 5, average ranks, Friedman and Nemenyi tests, Figure 1",
     lambda p: p["method"] in [m for m in methods() if m not in OWN_SIZE] + ["none"]),
    ("CFS and GeoRatio at their own size, cells that did not run", lambda p: p["method"] in OWN_SIZE),
    ("best selector per data set, Figures 2 and 3 (curves)", lambda p: p["method"] not in CLASSIFIER_SIDE),
    ("stability (Kuncheva), Figure 4; fit times, Figure 5",
     lambda p: p["method"] in methods() and p["method"] != "none"),
    ("Proj-SVM against the linear SVM", lambda p: p["method"] in CLASSIFIER_SIDE + ["none"]),
    ("HKL's certificates and fit times", lambda p: p["method"] == "HKL"),
    ("Figure 6 (wine features)",
     lambda p: p["dataset"] == "wine" and p["method"] in methods() and p["method"] != "none"),
)


def sources_table(params):
    """Where each part of the chapter comes from: the number of the read tasks (``params``) it
    uses, and the one task the page reruns."""
    rows = [{"part of the page": name, "from": "store", "tasks": sum(bool(keep(p)) for p in params)}
            for name, keep in PAGE_PARTS]
    rows.append({"part of the page": "HKL on one wine fold (bench-hkl)",
                 "from": "computed on this page, compared with its stored task", "tasks": 1})
    return pd.DataFrame(rows)


def own_size_table(curves, datasets):
    """CFS and GeoRatio at their own size per data set, beside the classifiers on all features."""
    none_curve = curves[curves.method == "none"].set_index("dataset")
    rows = []
    for ds in datasets:
        for m in [m for m in methods() if m in OWN_SIZE and m != "none"]:
            c = curves[(curves.dataset == ds) & (curves.method == m)]
            if not c.empty:
                r = c.iloc[0]
                rows.append({"data set": ds, "method": m, "features kept": r["k_mean"],
                             "linear SVM": r["acc_linear"], "RBF SVM": r["acc_rbf"],
                             "all features, linear": none_curve.loc[ds, "acc_linear"],
                             "all features, RBF": none_curve.loc[ds, "acc_rbf"]})
    return pd.DataFrame(rows)


def best_any_table(claims_df, curves):
    """Per data set and classifier: the best selector at any ``k`` (the ``best_any`` claims'
    notes) beside the classifier on all features, and their difference (points)."""
    none_curve = curves[curves.method == "none"].set_index("dataset")
    metric_of = {v: k for k, v in CLASSIFIERS.items()}
    rows = []
    for _, r in claims_df[(claims_df.table == "best_any") & (claims_df.dataset != "")].iterrows():
        all_features = float(none_curve.loc[r["dataset"], metric_of[r["classifier"]]])
        rows.append({"data set": r["dataset"], "classifier": r["classifier"], "all features": all_features,
                     "best selector (k)": r["note"].removeprefix("best: "),
                     "its accuracy": all_features + r["effect"], "difference (points)": r["effect"]})
    return pd.DataFrame(rows)


def stability_at_k(stability, k=RANK_K):
    """Kuncheva's index at ``k``: selectors that keep ``k`` features × data sets."""
    k_methods = [m for m in methods() if m not in OWN_SIZE]
    return stability[stability.k == k].pivot(index="method", columns="dataset",
                                             values="kuncheva").reindex(k_methods)


def hkl_fits_table(hkl_fits, params, results, datasets):
    """``reduce``'s ``hkl_fits`` per data set read, with the tasks that kept fewer than
    :data:`RANK_K` features at ``k`` = :data:`RANK_K`."""
    tasks = [(p, r) for p, r in zip(params, results) if p["method"] == "HKL"]
    fewer = pd.Series([r["n_selected"][r["k"].index(RANK_K)] < RANK_K for _, r in tasks],
                      index=[p["dataset"] for p, _ in tasks], dtype=bool).groupby(level=0).sum()
    fits = hkl_fits.set_index("dataset").loc[list(datasets)]
    fits[f"kept fewer than {RANK_K} at k = {RANK_K}"] = fewer.reindex(fits.index).astype(int)
    return fits.rename_axis("data set").reset_index()


def selector_seconds(params, result):
    """Seconds of a task's selector fits: a ranking is fitted once per task, the others at every k.

    Examples
    --------
    >>> from fsbook.experiments.benchmark.tables import selector_seconds
    >>> selector_seconds({"method": "MI"}, {"fit_time": [2.0, 2.0]})
    2.0
    >>> selector_seconds({"method": "LDFS"}, {"fit_time": [1.0, 2.0]})
    3.0
    """
    if params["method"] in CLASSIFIER_SIDE or params["method"] == "none" or "fit_time" not in result:
        return 0.0
    return max(result["fit_time"]) if params["method"] in RANKERS else sum(result["fit_time"])


def hkl_cost(params, results, datasets):
    """Per data set read: HKL's selector fit time per training fold (``HKL``) and that of all the
    other selectors of the fold together (``others``), mean over the folds (s)."""
    fold_cost = pd.DataFrame([{"data set": p["dataset"], "repeat": p["repeat"], "fold": p["fold"],
                               "who": "HKL" if p["method"] == "HKL" else "others",
                               "seconds": selector_seconds(p, r)} for p, r in zip(params, results)])
    cost = fold_cost.pivot_table(index=["data set", "repeat", "fold"], columns="who", values="seconds",
                                 aggfunc="sum")
    return cost.groupby(level="data set").mean().loc[list(datasets)]


def wine_frequencies(supports, k=RANK_K):
    """Wine: the fraction of folds in which each selector keeps each feature (at ``k``; the
    own-size methods at their size), selectors × feature names."""
    names = list(load("wine")[2])
    own = [m for m in methods() if m in OWN_SIZE and m != "none"]
    sup = supports[(supports.dataset == "wine") & ((supports.k == k) | supports.method.isin(own))]
    freq = pd.DataFrame(0.0, index=[m for m in methods() if m != "none" and m in set(sup.method)],
                        columns=names)
    for m, g in sup.groupby("method"):
        for s in g["support"]:
            freq.loc[m, [names[j] for j in s]] += 1 / len(g)
    return freq

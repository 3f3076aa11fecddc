"""Protocols of the geometric-ratios paper (Sections 3-5), run by the shared runner.

Every task labels one problem: the all-subsets wrapper (:func:`fsbook.geometry.all_subsets_wrapper`)
and the ratios f1-f6 of every (binary classifier, feature set) pair.  The reduction refits the
Table 2 models on the training suite and scores the published and the refitted model on every
problem.  Task kinds:

* ``train`` -- the training suite (Table 3; Tables 2 and 4, Figure 1);
* ``dimension`` -- webtext five-site test sets of the paper's dimensions (Table 5);
* ``uci`` -- low-dimensional UCI data, on real values or booleanised (Table 6);
* ``random`` -- the webtext training problem with 25 % random columns (Section 5.1);
* ``growth`` -- one five-site set at increasing dimension, with the selector's CPU time
  (Figure 3).

``python -m fsbook.experiments geometry`` runs the chapter's subsample, ``--full`` the
paper-sized protocol (Table 3 row counts, all seven dimensions of Table 5).
"""
from __future__ import annotations

import functools
import hashlib
import time
from itertools import combinations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import stats

from fsbook import datasets
from fsbook.report import Table
from fsbook.booleanize import booleanize
from fsbook.decisions import RTOL, argbest
from fsbook.experiments._runner import Protocol
from fsbook.geometry import (RATIO_NAMES, GeometricFeatureSetSelector, all_subsets_wrapper, fit_models, geometric_ratios,
                             naive_geometric_ratios, paper_model, standardize_within)

PAPER = {
    "table3": pd.DataFrame(
        {"R": [463, 324, 787, 300, 1200], "C": [645, 600, 645, 1000, 500], "BC": [7, 7, 7, 1, 15],
         "FT": [5, 5, 5, 3, 4], "feature sets": [156, 183, 179, 7, 192]},
        index=["Polarity1 Sentences", "Polarity2 Sentences", "Strength Sentences",
               "Movies Documents", "Webtext Sentences"]),
    "table4": pd.DataFrame(
        {"accuracy": [0.7564, 0.7542, 0.7814, 0.8571, 0.8091],
         "precision": [0.8621, 0.6304, 0.8986, 1.0, 0.9067],
         "recall": [0.625, 0.8529, 0.6526, 0.8, 0.6602]},
        index=["Polarity1 Sentences", "Polarity2 Sentences", "Strength Sentences",
               "Movies Documents", "Webtext Sentences"]),
    "table5": pd.DataFrame(
        {"accuracy": [0.768888889, 0.76, 0.831111111, 0.817777778, 0.813333333, 0.795555556,
                      0.804444444],
         "precision": [0.823529412, 0.838095238, 0.844444444, 0.837037037, 0.822222222, 0.8,
                       0.82962963],
         "recall": [0.711864407, 0.704, 0.870229008, 0.856060606, 0.860465116, 0.850393701,
                    0.842105263]},
        index=[480, 640, 800, 960, 1120, 1280, 1440]),
    "table6": pd.DataFrame(
        {"dimension": [13, 38, 100], "type": ["continuous", "categorical", "categorical"],
         "accuracy": [0.3218, 0.4444, 0.4286], "precision": [0.1111, 0.0, 0.0],
         "recall": [0.2083, 0.0, 0.0]}),
    # Section 5.1: accuracy gain from dropping the random columns, "between 10% and 26%,
    # median 15%"
    "random_columns": {"min": 10.0, "median": 15.0, "max": 26.0},
}

#: webtext sites of the training suite (5 classes -> 15 binary classifiers, as in Table 3)
WEBTEXT_TRAIN_SITES = ("firefox", "grail", "overheard", "pirates", "wine")
WEBTEXT_SITES = ("firefox", "grail", "overheard", "pirates", "singles", "wine")
#: number of most frequent unigrams treated as the "function word" feature type
FUNCTION_WORDS = 50
NEWS_GROUPS = ("comp.graphics", "rec.autos", "sci.space", "talk.politics.misc")
TRAIN_NAMES = {"movies": "Movies Documents", "webtext": "Webtext Sentences",
               "news": "20 Newsgroups (4 groups)"}
UCI_SETS = (("wine", "real"), ("wine", "boolean"), ("breast_cancer", "boolean"),
            ("soybean_small", "boolean"))

#: chapter subsample (documented in the chapter) and the paper-sized --full protocol.
#: rows/cols per training source; dims = Table 5 dimensions; dim_rows = sentences per site of
#: the Table 5 and Figure 3 sets; growth = Figure 3 dimensions.
SETTINGS = {
    "chapter": {"movies": (150, 600), "webtext": (600, 500), "news": (300, 450),
                "dims": (480, 800, 1120, 1440), "dim_rows": 60,
                "growth": (80, 320, 960, 1440), "cv": 5},
    "full": {"movies": (300, 1000), "webtext": (1200, 500), "news": (600, 900),
             "dims": (480, 640, 800, 960, 1120, 1280, 1440), "dim_rows": 60,
             "growth": (80, 160, 240, 320, 480, 640, 800, 960, 1120, 1280, 1440, 1600, 1920),
             "cv": 5},
}
SEED = 0


# ----------------------------------------------------------------------------- data
@functools.lru_cache(maxsize=None)
def _load(name, ngram):
    if name == "movies":
        return datasets.load_movie_reviews(ngram=ngram)
    if name == "webtext":
        return datasets.load_webtext(ngram=ngram)
    if name == "news":
        return datasets.load_20newsgroups(categories=list(NEWS_GROUPS))
    raise ValueError(f"unknown source {name!r}")


def _sample_rows(target, classes, per_class, rng, exclude=None):
    rows = []
    for c in classes:
        idx = np.flatnonzero(target == c)
        if exclude is not None:
            idx = np.setdiff1d(idx, exclude)
        rows.append(np.sort(rng.choice(idx, size=min(per_class, idx.size), replace=False)))
    return np.concatenate(rows)


def allocate(available, total):
    """Share ``total`` columns over feature types with ``available`` columns each.

    Equal shares (the first types get the remainder); a type with fewer columns than its
    share gives all it has and passes the shortfall to the others.

    Parameters
    ----------
    available : sequence of int
    total : int

    Returns
    -------
    list of int
        Columns taken from each type; they sum to ``min(total, sum(available))``.
    """
    take = [0] * len(available)
    open_ = list(range(len(available)))
    remaining = total
    while open_ and remaining > 0:
        share, extra = divmod(remaining, len(open_))
        want = {t: share + (i < extra) for i, t in enumerate(open_)}
        short = [t for t in open_ if available[t] <= want[t]]
        if not short:
            for t in open_:
                take[t] = want[t]
            break
        for t in short:
            take[t] = available[t]
            remaining -= available[t]
            open_.remove(t)
    return take


def _by_frequency(M):
    df = np.asarray((M > 0).sum(axis=0)).ravel()
    order = np.lexsort((np.arange(df.size), -df))
    return order[df[order] > 0]


def text_problem(source, *, rows, cols, seed=0, classes=None, exclude_rows=None,
                 ordered=False, counts=False):
    """One text data set of the training suite or of the test sets (0/1 "contains n-gram").

    Parameters
    ----------
    source : {"movies", "webtext", "news"}
        ``movies``: unigram, bigram, trigram types (2 classes).  ``webtext``: function words
        (the ``FUNCTION_WORDS`` most frequent unigrams of the corpus), other unigrams,
        bigrams, trigrams (4 types).  ``news``: 20 Newsgroups (four groups), unigrams split
        in three document-frequency bands (3 types; no other feature types are available).
    rows : int
        Total number of rows (equal numbers per class).
    cols : int
        Total number of columns, shared equally by the feature types (:func:`allocate`: a type
        with too few columns in the sampled rows passes the shortfall to the others); within a
        type the most frequent columns of the sampled rows are kept.  Fewer columns result
        only if the sampled rows have fewer in all.
    seed : int
        Seed of the row sample.
    classes : sequence of str, optional
        Class names to keep.
    exclude_rows : array of int, optional
        Corpus rows that must not be used (test sets disjoint from the training suite).
    ordered : bool
        Keep each type's columns in decreasing frequency (Figure 3 protocol).
    counts : bool
        Return the n-gram counts instead of the 0/1 matrix (word-frequency format).

    Returns
    -------
    dict
        ``X`` (CSR 0/1, or counts), ``y``, ``groups``, ``group_names``, ``rows`` (corpus rows),
        ``class_names``.
    """
    rng = np.random.default_rng(seed)
    if source == "movies":
        bunches = [_load("movies", k) for k in (1, 2, 3)]
        names = ["unigram", "bigram", "trigram"]
    elif source == "webtext":
        bunches = [_load("webtext", k) for k in (1, 2, 3)]
        names = ["function", "unigram", "bigram", "trigram"]
    elif source == "news":
        bunches = [_load("news", 1)]
        names = ["df-high", "df-mid", "df-low"]
    else:
        raise ValueError(f"unknown source {source!r}")
    base = bunches[0]
    all_names = list(base.target_names)
    if classes is None:
        classes = WEBTEXT_TRAIN_SITES if source == "webtext" else all_names
    codes = [all_names.index(c) for c in classes]
    r = _sample_rows(base.target, codes, rows // len(codes), rng, exclude_rows)
    y = np.array([codes.index(t) for t in base.target[r]])
    if source == "webtext":
        uni = base.data
        corpus_df = np.asarray((uni > 0).sum(axis=0)).ravel()
        func = np.sort(np.lexsort((np.arange(corpus_df.size), -corpus_df))[:FUNCTION_WORDS])
        rest = np.setdiff1d(np.arange(uni.shape[1]), func)
        mats = [uni[r][:, func], uni[r][:, rest], bunches[1].data[r], bunches[2].data[r]]
    elif source == "movies":
        mats = [b.data[r] for b in bunches]
    else:
        M = base.data[r]
        order = _by_frequency(M)
        per = [len(a) for a in np.array_split(np.arange(min(cols, order.size)), 3)]
        cuts = np.cumsum([0] + per)
        mats = [M[:, order[cuts[j]:cuts[j + 1]]] for j in range(3)]
    orders = [_by_frequency(M) for M in mats]
    take = allocate([o.size for o in orders], cols)
    blocks = [M[:, o[:k] if ordered else np.sort(o[:k])] for M, o, k in zip(mats, orders, take)]
    X = sp.hstack(blocks, format="csr").astype(np.float64)
    if not counts:
        X = sp.csr_matrix(X > 0, dtype=np.float64)
    sizes = np.cumsum([0] + [b.shape[1] for b in blocks])
    groups = [np.arange(sizes[i], sizes[i + 1]) for i in range(len(blocks))]
    return {"X": X, "y": y, "groups": groups, "group_names": names, "rows": r,
            "class_names": list(classes)}


def uci_problem(name, values="boolean", n_groups=4):
    """Low-dimensional UCI data for Table 6, attributes in ``n_groups`` consecutive blocks.

    Parameters
    ----------
    name : {"wine", "breast_cancer", "soybean_small"}
    values : {"boolean", "real"}
        ``"boolean"``: numeric attributes thresholded at quartiles, nominal ones one-hot
        encoded (:func:`fsbook.booleanize.booleanize`).  ``"real"``: the numeric values,
        min-max scaled to [0, 1] (an affine bijection of every column, which leaves f1-f6
        unchanged and lets the linear SVM converge).
    n_groups : int

    Returns
    -------
    dict
        ``X``, ``y``, ``groups``, ``group_names``, ``kind``, ``n_attributes``.
    """
    b = getattr(datasets, f"load_{name}")()
    n_attr = b.data.shape[1]
    cats = b.get("categories") or [None] * n_attr
    blocks = np.array_split(np.arange(n_attr), n_groups)
    if values == "real":
        if any(c is not None for c in cats):
            raise ValueError(f"{name} has nominal attributes; use values='boolean'")
        X = np.asarray(b.data, dtype=float)
        keep = ~np.isnan(X).any(axis=1)
        X, y = X[keep], np.asarray(b.target)[keep]
        lo, hi = X.min(axis=0), X.max(axis=0)
        X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
        groups = blocks
    elif values == "boolean":
        mats, groups, start = [], [], 0
        for blk in blocks:
            sub = {"data": b.data[:, blk], "categories": [cats[j] for j in blk],
                   "feature_names": [str(b.feature_names[j]) for j in blk]}
            Xb, _ = booleanize(sub)
            mats.append(Xb.astype(float))
            groups.append(np.arange(start, start + Xb.shape[1]))
            start += Xb.shape[1]
        X, y = np.hstack(mats), np.asarray(b.target)
    else:
        raise ValueError(f"values must be 'boolean' or 'real', got {values!r}")
    kind = "continuous" if all(c is None for c in cats) else (
        "categorical" if all(c is not None for c in cats) else "mixed")
    return {"X": X, "y": y, "groups": groups,
            "group_names": [f"attrs {blk[0]}-{blk[-1]}" for blk in blocks],
            "kind": kind, "n_attributes": n_attr}


def add_random_columns(problem, fraction=0.25, seed=0):
    """Append ``round(fraction × n)`` random binary columns as a feature type "random".

    Each random column has the density of a randomly chosen real column (the paper only says
    "a random binary vector").

    Parameters
    ----------
    problem : dict from :func:`text_problem`
    fraction : float
    seed : int

    Returns
    -------
    dict
        A copy of ``problem`` with the extra group.
    """
    rng = np.random.default_rng(seed)
    X = problem["X"]
    m, n = X.shape
    k = int(round(fraction * n))
    dens = np.asarray(X.mean(axis=0)).ravel()
    p = rng.choice(dens[dens > 0], size=k)
    R = sp.csr_matrix((rng.random((m, k)) < p).astype(float))
    out = dict(problem)
    out["X"] = sp.hstack([X, R], format="csr")
    out["groups"] = list(problem["groups"]) + [np.arange(n, n + k)]
    out["group_names"] = list(problem["group_names"]) + ["random"]
    return out


# ----------------------------------------------------------------------------- one task
SUITE_COLUMNS = ("split", "subset", "n_features", "accuracy", "accuracy_se", "f1_score",
                 "accuracy_z", "optimal", *RATIO_NAMES, *(f"z{i}" for i in range(1, 7)))


def label_suite(problem, *, cv=5, seed=0, binarize=0.0, n_jobs=None):
    """Wrapper labels and geometric ratios of every (classifier, set) of one problem.

    Parameters
    ----------
    problem : dict with ``X``, ``y``, ``groups``, ``group_names``
    cv, seed : int
        Folds and seed of the wrapper.
    binarize : float or None
        Representation of the points for the ratios and the SVM (``None``: the values).
    n_jobs : int, optional

    Returns
    -------
    pandas.DataFrame
        Wrapper columns (:func:`fsbook.geometry.all_subsets_wrapper`) joined with the raw
        ratios ``f1..f6`` and their within-classifier z-scores ``z1..z6``.
    """
    w = all_subsets_wrapper(problem["X"], problem["y"], problem["groups"], cv=cv,
                            random_state=seed, n_jobs=n_jobs, group_names=problem["group_names"],
                            binarize=binarize)
    sel = GeometricFeatureSetSelector(problem["groups"], group_names=problem["group_names"],
                                      binarize=binarize, n_jobs=n_jobs)
    r = sel.compute_ratios(problem["X"], problem["y"])
    df = w.merge(r[["split", "subset", *RATIO_NAMES]], on=["split", "subset"], validate="1:1")
    Z = standardize_within(df[list(RATIO_NAMES)].to_numpy(), df["split"].to_numpy())
    for i in range(6):
        df[f"z{i + 1}"] = Z[:, i]
    return df


def _train_problem(spec):
    rows, cols = spec["rows"], spec["cols"]
    return text_problem(spec["source"], rows=rows, cols=cols, seed=spec["seed"])


def _problem(params):
    kind = params["kind"]
    if kind == "train":
        return _train_problem(params)
    if kind in ("dimension", "growth"):
        train_rows = _train_problem(params["exclude"])["rows"]
        return text_problem("webtext", rows=5 * params["rows_per_class"],
                            cols=params["dimension"], seed=params["seed"],
                            classes=params["sites"], exclude_rows=train_rows,
                            ordered=kind == "growth")
    if kind == "uci":
        return uci_problem(params["name"], params["values"])
    if kind == "random":
        return add_random_columns(_train_problem(params["base"]), params["fraction"],
                                  seed=params["seed"])
    raise ValueError(f"unknown task kind {kind!r}")


def run_task(params):
    """Label one problem; returns its shape and the labelled suite (column lists).

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`.

    Returns
    -------
    dict
        ``R``, ``C``, ``FT``, ``group_sizes``, ``suite`` (dict of columns
        :data:`SUITE_COLUMNS`) and, for ``growth`` tasks, ``ratios_cpu_s`` (CPU seconds of the
        selector's ratios for all pairs).
    """
    p = _problem(params)
    binarize = None if params.get("values") == "real" else 0.0
    suite = label_suite(p, cv=params["cv"], seed=params["seed"], binarize=binarize)
    out = {"R": int(p["X"].shape[0]), "C": int(p["X"].shape[1]), "FT": len(p["groups"]),
           "group_sizes": [int(g.size) for g in p["groups"]],
           "suite": {c: suite[c].tolist() for c in SUITE_COLUMNS}}
    if params["kind"] == "growth":
        t0 = time.process_time()
        GeometricFeatureSetSelector(p["groups"]).compute_ratios(p["X"], p["y"])
        out["ratios_cpu_s"] = time.process_time() - t0
    return out


def make_tasks(full):
    """Tasks of the chapter's subsample (``full=False``) or of the paper-sized protocol.

    Parameters
    ----------
    full : bool

    Returns
    -------
    list of dict
    """
    cfg = SETTINGS["full" if full else "chapter"]
    cv = cfg["cv"]
    train = {src: {"kind": "train", "source": src, "rows": cfg[src][0], "cols": cfg[src][1],
                   "seed": SEED, "cv": cv} for src in ("movies", "webtext", "news")}
    tasks = list(train.values())
    exclude = {k: v for k, v in train["webtext"].items() if k in ("source", "rows", "cols", "seed")}
    combos = list(combinations(WEBTEXT_SITES, 5))
    for i, d in enumerate(PAPER["table5"].index):
        if d in cfg["dims"]:
            tasks.append({"kind": "dimension", "dimension": int(d), "sites": list(combos[i % 6]),
                          "rows_per_class": cfg["dim_rows"], "seed": SEED + 100 + i,
                          "exclude": exclude, "cv": cv})
    for name, values in UCI_SETS:
        tasks.append({"kind": "uci", "name": name, "values": values, "seed": SEED, "cv": cv})
    tasks.append({"kind": "random", "base": exclude, "fraction": 0.25, "seed": SEED, "cv": cv})
    for d in cfg["growth"]:
        tasks.append({"kind": "growth", "dimension": int(d), "sites": list(combos[0]),
                      "rows_per_class": cfg["dim_rows"], "seed": SEED + 200,
                      "exclude": exclude, "cv": cv})
    return tasks


# ----------------------------------------------------------------------------- reduction
def zcols():
    """Names of the standardised ratios ``z1..z6``."""
    return [f"z{i + 1}" for i in range(6)]


def scores(pred, truth):
    """Accuracy, precision, recall of predicted-optimal against the wrapper labels (Section 5.1).

    Parameters
    ----------
    pred, truth : array-like of bool

    Returns
    -------
    dict
        ``accuracy``, ``precision`` (NaN, i.e. undefined, when nothing is predicted optimal),
        ``recall`` (NaN when nothing is optimal), ``n_sets``, ``n_optimal``, ``n_recommended``.
    """
    pred, truth = np.asarray(pred, bool), np.asarray(truth, bool)
    tp, fp = np.sum(pred & truth), np.sum(pred & ~truth)
    fn, tn = np.sum(~pred & truth), np.sum(~pred & ~truth)
    return {"accuracy": (tp + tn) / pred.size,
            "precision": tp / (tp + fp) if tp + fp else np.nan,
            "recall": tp / (tp + fn) if tp + fn else np.nan,
            "n_sets": int(pred.size), "n_optimal": int(truth.sum()),
            "n_recommended": int(pred.sum())}


def selector_scores(suite, model):
    """:func:`scores` of ``model`` on a labelled suite (uses the stored z-scores)."""
    return scores(model.predict(suite[zcols()].to_numpy()), suite["optimal"].to_numpy())


def refit(suite, stepwise=True):
    """Refit the Table 2 models (forward stepwise by AIC) on a labelled suite."""
    return fit_models(suite[zcols()].to_numpy(), suite["accuracy_z"].to_numpy(),
                      suite["optimal"].to_numpy(), stepwise=stepwise, name="refit (ours)")


def figure1_stats(suite):
    """Per ratio: slope, Pearson r and p-value of the regression of performance on z_i (Fig. 1).

    Performance is the within-classifier z-score of the accuracy, of the F1 score for f4 (as
    in the paper).
    """
    f1z = standardize_within(suite[["f1_score"]].to_numpy(), suite["split"].to_numpy())[:, 0]
    rows = []
    for i, z in enumerate(zcols()):
        t = f1z if i == 3 else suite["accuracy_z"].to_numpy()
        ok = suite[z].std() > 0
        lr = stats.linregress(suite[z], t) if ok else None
        rows.append({"ratio": f"f{i + 1}", "performance": "F1 (z)" if i == 3 else "accuracy (z)",
                     "slope": lr.slope if ok else np.nan, "r": lr.rvalue if ok else np.nan,
                     "p": lr.pvalue if ok else np.nan})
    return pd.DataFrame(rows)


def _score_rows(label_cols, suite, models, paper=None):
    """Rows ``metric`` × model of one labelled suite: accuracy, precision, recall, sets recommended."""
    sc = {m: selector_scores(suite, model) for m, model in models.items()}
    first = next(iter(sc.values()))
    label = {**label_cols, "optimal": f"{first['n_optimal']} of {first['n_sets']}"}
    rows = []
    for metric in ("accuracy", "precision", "recall", "sets recommended"):
        key = "n_recommended" if metric == "sets recommended" else metric
        rows.append({**label, "metric": metric,
                     "paper": np.nan if paper is None or key not in paper else paper[key],
                     **{m: sc[m][key] for m in models}})
    return rows


def random_column_table(suite, model, names):
    """Section 5.1 per binary classifier: the set the model selects, and its accuracy.

    Parameters
    ----------
    suite : DataFrame, labelled suite of the problem with random columns
    model : GeometricModel
    names : list of str, group names (the last is ``"random"``)

    Returns
    -------
    pandas.DataFrame
        ``split``, ``selected`` (the recommended set with the highest logistic probability,
        or ``"none recommended"``), ``random_in_selected`` (None when none is recommended),
        ``accuracy_full`` (all groups, random included), ``accuracy_real`` (all real groups),
        ``accuracy_selected`` and ``gain_pp`` (selected − full, percentage points; NaN when
        none is recommended).
    """
    d_all = suite.copy()
    Z = d_all[zcols()].to_numpy()
    d_all["probability"] = model.probability(Z)
    d_all["recommended"] = model.predict(Z)
    full, real = "+".join(names), "+".join(names[:-1])
    rows = []
    for split, d in d_all.groupby("split", sort=False):
        acc = d.set_index("subset")["accuracy"]
        row = {"split": split, "n_recommended": int(d["recommended"].sum()),
               "accuracy_full": float(acc[full]), "accuracy_real": float(acc[real])}
        if d["recommended"].any():
            cand = d[d["recommended"]]
            best = cand.iloc[argbest(cand["probability"].to_numpy(), rtol=RTOL)]   # ties: first
            row.update(selected=best["subset"],
                       random_in_selected="random" in best["subset"].split("+"),
                       accuracy_selected=float(best["accuracy"]),
                       gain_pp=100 * (float(best["accuracy"]) - float(acc[full])))
        else:
            row.update(selected="none recommended", random_in_selected=None,
                       accuracy_selected=np.nan, gain_pp=np.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def random_summary(table):
    """Counts and gains of :func:`random_column_table` (gains over classifiers with a set)."""
    g = table["gain_pp"].dropna()
    return {"binary classifiers": len(table),
            "with a recommended set": int(table["n_recommended"].gt(0).sum()),
            "selected set contains the random columns": int(
                table["random_in_selected"].eq(True).sum()),
            "SVM accuracy, real columns (mean, %)": 100 * table["accuracy_real"].mean(),
            "SVM accuracy, with random columns (mean, %)": 100 * table["accuracy_full"].mean(),
            "accuracy change from the random columns (pp)": 100 * (
                table["accuracy_full"] - table["accuracy_real"]).mean(),
            "min gain of the selected set (pp)": g.min() if len(g) else np.nan,
            "median gain (pp)": g.median() if len(g) else np.nan,
            "max gain (pp)": g.max() if len(g) else np.nan}


def model_table(paper, ours):
    """Table 2: coefficients of the published and the refitted model, one row per predictor."""
    pc, oc = paper.coefficients(), ours.coefficients()
    return pd.DataFrame([{"model": kind, "predictor": pred, "paper": pc[(kind, pred)],
                          "ours": oc[(kind, pred)]} for kind, pred in pc])


def reduce(params_list, results_list):
    """The chapter's tables from the labelled suites.

    Returns
    -------
    dict of str to pandas.DataFrame
        ``table2``, ``table3``, ``table4``, ``table5``, ``table6``, ``figure1``,
        ``f3_reading``, ``random``, ``random_summary``, ``figure3``, ``training_suite``.
    """
    suites, info = [], []
    for p, r in zip(params_list, results_list):
        suites.append(pd.DataFrame(r["suite"]))
        info.append((p, r))
    train = [(p, r, s) for (p, r), s in zip(info, suites) if p["kind"] == "train"]
    tsuite = pd.concat([s.assign(data=TRAIN_NAMES[p["source"]]) for p, _, s in train],
                       ignore_index=True)
    paper, ours = paper_model(), refit(tsuite)
    models = {"published": paper, "refitted": ours}

    t3 = [{"data set": name, "rows": "paper", **PAPER["table3"].loc[name].to_dict(),
           "optimal": np.nan} for name in PAPER["table3"].index]
    for p, r, s in train:
        t3.append({"data set": TRAIN_NAMES[p["source"]], "rows": "ours", "R": r["R"],
                   "C": r["C"], "BC": s["split"].nunique(), "FT": r["FT"],
                   "feature sets": len(s), "optimal": int(s["optimal"].sum())})
    table3 = pd.DataFrame(t3).rename(columns={"rows": "source"})
    for c in ("R", "C", "BC", "FT", "feature sets", "optimal"):
        table3[c] = table3[c].astype("Int64")

    t4 = []
    for p, r, s in train:
        name = TRAIN_NAMES[p["source"]]
        paper_row = PAPER["table4"].loc[name] if name in PAPER["table4"].index else None
        t4 += _score_rows({"data set": name}, s, models, paper_row)
    table4 = pd.DataFrame(t4, columns=["data set", "optimal", "metric", "paper", *models],
                          dtype=object)

    t5 = []
    dims = PAPER["table5"].index.to_numpy()
    for (p, r), s in zip(info, suites):
        if p["kind"] != "dimension":
            continue
        nearest = int(dims[np.argmin(np.abs(dims - r["C"]))])
        t5 += _score_rows({"columns": r["C"], "paper row": nearest}, s, models,
                          PAPER["table5"].loc[nearest])
    table5 = pd.DataFrame(t5, columns=["columns", "paper row", "optimal", "metric", "paper",
                                       *models], dtype=object)

    t6 = []
    p6 = PAPER["table6"]
    for (p, r), s in zip(info, suites):
        if p["kind"] != "uci":
            continue
        name = p["name"].replace("_", " ")
        if p["name"] == "wine":
            name += " (real values)" if p["values"] == "real" else " (booleanised)"
        pkind = "continuous" if p["name"] == "wine" else "categorical"
        cand = p6[p6["type"] == pkind]
        prow = cand.iloc[int(np.argmin(np.abs(cand["dimension"].to_numpy() - r["C"])))]
        t6 += _score_rows({"data set": name, "columns": r["C"],
                           "paper row": f"{prow['dimension']} {prow['type']}"}, s, models, prow)
    table6 = pd.DataFrame(t6, columns=["data set", "columns", "paper row", "optimal", "metric",
                                       "paper", *models], dtype=object)
    spread = []
    for (p, r), s in zip(info, suites):
        if p["kind"] == "uci":
            spread.append({"data set": p["name"].replace("_", " "), "values": p["values"],
                           **{f: f"{s[f].min():.3f} – {s[f].max():.3f}" for f in RATIO_NAMES}})
    table6_ratios = pd.DataFrame(spread)

    tables = {}
    for (rp, rr), rs in zip(info, suites):
        if rp["kind"] != "random":
            continue
        names = _train_problem(rp["base"])["group_names"] + ["random"]
        rnd = {m: random_column_table(rs, model, names) for m, model in models.items()}
        tables["random"] = rnd["published"].merge(
            rnd["refitted"][["split", "selected", "gain_pp"]], on="split",
            suffixes=(" (published)", " (refitted)"))
        sums = {m: random_summary(t) for m, t in rnd.items()}
        paper_rc = {"selected set contains the random columns": 0,
                    "min gain of the selected set (pp)": PAPER["random_columns"]["min"],
                    "median gain (pp)": PAPER["random_columns"]["median"],
                    "max gain (pp)": PAPER["random_columns"]["max"]}
        tables["random_summary"] = pd.DataFrame(
            [{"quantity": q, "paper": paper_rc.get(q, np.nan), **{m: sums[m][q] for m in sums}}
             for q in sums["published"]], dtype=object)

    f3 = []
    for (p, r), s in zip(info, suites):
        if p["kind"] != "growth":
            continue
        row = {"columns": r["C"], "ratios CPU s": r["ratios_cpu_s"]}
        for m, model in models.items():
            sc = selector_scores(s, model)
            for metric in ("accuracy", "precision", "recall"):
                row[f"{metric} ({m})"] = sc[metric]
        f3.append(row)

    Z = tsuite[zcols()].to_numpy()
    reading = pd.DataFrame([{
        "pairs": len(Z), "wrapper-optimal": int(tsuite["optimal"].sum()),
        "recommended, f3 read as −0.091": int(paper_model(-1).predict(Z).sum()),
        "recommended, f3 read as +0.091": int(paper_model(+1).predict(Z).sum()),
        "decisions that differ": int((paper_model(-1).predict(Z)
                                      != paper_model(+1).predict(Z)).sum())}])
    predictors = pd.DataFrame([{"model": k, "selected predictors": ", ".join(v)}
                               for k, v in (("logistic", ours.info["logistic_predictors"]),
                                            ("linear", ours.info["linear_predictors"]))])
    tables.update({"table2": model_table(paper, ours), "table2_predictors": predictors,
                   "table3": table3, "table4": table4, "table5": table5, "table6": table6,
                   "table6_ratios": table6_ratios,
                   "figure1": figure1_stats(tsuite), "f3_reading": reading,
                   "figure3": pd.DataFrame(f3), "training_suite": tsuite})
    return tables


PROTOCOL = Protocol(name="geometry", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="3",
                    description="Geometric-ratio feature selection: training suite, Tables 2-6, "
                                "random columns, Figure 3")


# ----------------------------------------------------------------------------- timing, figures
def timing(X, y, dims, *, naive_max=None, repeats=1):
    """CPU time of :func:`geometric_ratios` and of the naive SVD method on the first ``d`` columns.

    Parameters
    ----------
    X : sparse matrix, y : array
    dims : sequence of int
    naive_max : int, optional
        Largest dimension at which the naive method is timed.
    repeats : int
        Our time is the minimum over ``repeats`` runs.

    Returns
    -------
    pandas.DataFrame
        ``dimension``, ``ours_s``, ``naive_s`` (NaN above ``naive_max``), ``agree``.
    """
    rows = []
    for d in dims:
        Xd = X[:, :d]
        t = []
        for _ in range(repeats):
            t0 = time.process_time()
            a = geometric_ratios(Xd, y)
            t.append(time.process_time() - t0)
        row = {"dimension": d, "ours_s": min(t), "naive_s": np.nan, "agree": None}
        if naive_max is None or d <= naive_max:
            t0 = time.process_time()
            b = naive_geometric_ratios(Xd, y)
            row["naive_s"] = time.process_time() - t0
            row["agree"] = bool(np.allclose(a, b))
        rows.append(row)
    return pd.DataFrame(rows)


def growth_exponent(dims, seconds):
    """Slope of log(time) on log(dimension) (least squares)."""
    d, s = np.asarray(dims, float), np.asarray(seconds, float)
    ok = np.isfinite(s) & (s > 0)
    return float(np.polyfit(np.log(d[ok]), np.log(s[ok]), 1)[0])


def plot_figure1(suite, stats_table):
    """Figure 1: standardised f1-f6 against standardised performance with regression lines."""
    import matplotlib.pyplot as plt
    st = stats_table.set_index("ratio")
    fig, axes = plt.subplots(2, 3, figsize=(10, 6), sharey=True)
    f1z = standardize_within(suite[["f1_score"]].to_numpy(), suite["split"].to_numpy())[:, 0]
    for i, ax in enumerate(axes.ravel()):
        z = suite[f"z{i + 1}"].to_numpy()
        t = f1z if i == 3 else suite["accuracy_z"].to_numpy()
        ax.scatter(z, t, s=8, alpha=0.4, c=np.where(suite["optimal"], "C1", "C0"))
        row = st.loc[f"f{i + 1}"]
        if np.isfinite(row["slope"]):
            xs = np.linspace(z.min(), z.max(), 2)
            ax.plot(xs, np.mean(t) + row["slope"] * (xs - np.mean(z)), "k-")
        ax.set_title(f"f{i + 1}: slope {row['slope']:+.2f}, p = {row['p']:.1g}", fontsize=9)
        ax.set_xlabel(f"z(f{i + 1})")
    axes[0, 0].set_ylabel("z(accuracy)")
    axes[1, 0].set_ylabel("z(accuracy); f4: z(F1)")
    fig.tight_layout()
    return fig


def plot_figure3(fig3, timing_table, exp_ours, exp_naive):
    """Figure 3: accuracy, precision, recall and CPU time against the number of columns."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.4))
    for ax, metric in zip(axes[:3], ("accuracy", "precision", "recall")):
        for m, style in (("published", "o-"), ("refitted", "s--")):
            ax.plot(fig3["columns"], fig3[f"{metric} ({m})"], style, label=f"{m} model")
        ax.set_title(metric)
        ax.set_xlabel("number of columns")
        ax.set_ylim(-0.05, 1.05)
    axes[0].legend(fontsize=8)
    ax = axes[3]
    ax.loglog(timing_table["dimension"], timing_table["ours_s"], "o-",
              label=f"ours (slope {exp_ours:.2f})")
    ok = timing_table["naive_s"].notna()
    ax.loglog(timing_table.loc[ok, "dimension"], timing_table.loc[ok, "naive_s"], "s-",
              label=f"m + 2 SVDs (slope {exp_naive:.2f})")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_title("CPU time, one classifier and set")
    ax.set_xlabel("number of columns")
    ax.set_ylabel("CPU seconds")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def render(df, caption, *, decimals=3, percent=(), sci=(), uuid=None):
    """A table for the chapter: caption, no index, integers as integers, "—" for missing.

    Parameters
    ----------
    df : pandas.DataFrame
        Integer columns (also nullable ``Int64``) and Python ints print as integers, floats
        with ``decimals`` decimals, missing values as "—", booleans as yes/no; a string may
        wrap after "+" (long feature-set labels).
    caption : str
    decimals : int
    percent : sequence of str
        Columns printed with one decimal.
    sci : sequence of str
        Columns printed in scientific notation (p-values).
    uuid : str, optional
        HTML id; default derived from the caption (stable output).

    Returns
    -------
    fsbook.report.Table
        A Styler with a stable plain-text form.
    """
    def fmt(v, col):
        if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)):
            return "—"
        if isinstance(v, (bool, np.bool_)):
            return "yes" if v else "no"
        if isinstance(v, (int, np.integer)):
            return str(int(v))
        if isinstance(v, (float, np.floating)):
            if col in sci:
                return f"{v:.1e}"
            text = f"{v:.{1 if col in percent else decimals}f}"
            return text.lstrip("-") if float(text) == 0 else text
        return str(v).replace("+", "+\u200b")   # set labels may wrap after "+"

    shown = df.reset_index(drop=True)
    styler = Table(shown).format({c: functools.partial(fmt, col=c) for c in shown.columns})
    styler = styler.hide(axis="index").set_caption(caption)
    styler = styler.set_table_styles([
        {"selector": "", "props": "font-size: 0.85em; border-collapse: collapse;"},
        {"selector": "caption", "props": "caption-side: top; text-align: left; "
                                         "font-weight: bold; padding-bottom: 0.3em;"},
        {"selector": "th, td", "props": "padding: 0.15em 0.5em; text-align: right;"}])
    key = uuid or "t" + hashlib.sha256(caption.encode()).hexdigest()[:10]
    return styler.set_uuid(key)

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

The problems are built in :mod:`fsbook.experiments._geometry_problems`, the figures and the
timing are drawn by :mod:`fsbook.experiments._geometry_figures` and the tables rendered by
:func:`fsbook.report.styled_table`; this module re-exports the names the chapter reads.

What the paper ran: its Table 3 training suite (two private sentence corpora, 300 movie reviews
x 1000 columns, 1200 webtext sentences x 500 columns), Table 5 on five-author Amazon sets at seven
dimensions (480-1440 columns), Table 6 on three unnamed low-dimensional sets, 25 % random columns
on Polarity1, and Figure 3 on one five-author set grown by 80 columns at a time.
``python -m fsbook.experiments geometry --full --out results/geometry`` runs the paper-sized
protocol on our substitutes (``SETTINGS["full"]``: the paper's Table 3 row and column counts for
movie reviews and webtext, 20 Newsgroups in place of the private corpora, webtext sites as Table 5
authors at all seven dimensions, thirteen Figure 3 dimensions from 80 to 1920); its committed store
``results/geometry/`` is what the chapter reads (:func:`fsbook.experiments.read_store`).  Without
``--full`` it runs a smaller subsample (``SETTINGS["chapter"]``: fewer rows, four Table 5
dimensions) for a quick look.
"""
from __future__ import annotations

import time
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.decisions import RTOL, argbest
from fsbook.experiments._geometry_figures import growth_exponent, plot_figure1, plot_figure3, timing
from fsbook.experiments._geometry_problems import (
    FUNCTION_WORDS,
    NEWS_GROUPS,
    WEBTEXT_SITES,
    WEBTEXT_TRAIN_SITES,
    add_random_columns,
    allocate,
    text_problem,
    uci_problem,
)
from fsbook.experiments._runner import Protocol
from fsbook.geometry import (
    RATIO_NAMES,
    GeometricFeatureSetSelector,
    all_subsets_wrapper,
    fit_models,
    paper_model,
    standardize_within,
)
from fsbook.report import styled_table as render

__all__ = ["PROTOCOL", "PAPER", "SETTINGS", "make_tasks", "run_task", "reduce", "label_suite", "scores",
           "selector_scores", "refit", "figure1_stats", "random_column_table", "random_summary", "model_table",
           # the chapter's names from the problems, figures and report modules
           "FUNCTION_WORDS", "NEWS_GROUPS", "WEBTEXT_SITES", "WEBTEXT_TRAIN_SITES", "add_random_columns",
           "allocate", "text_problem", "uci_problem", "growth_exponent", "plot_figure1", "plot_figure3",
           "timing", "render"]

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


TRAIN_NAMES = {"movies": "Movies Documents", "webtext": "Webtext Sentences",
               "news": "20 Newsgroups (4 groups)"}
UCI_SETS = (("wine", "real"), ("wine", "boolean"), ("breast_cancer", "boolean"),
            ("soybean_small", "boolean"))

#: the quick subsample (key "chapter", without --full) and the paper-sized --full protocol the chapter reads.
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
    """Tasks of the quick subsample (``full=False``) or of the paper-sized protocol (the chapter's store).

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
    for p, _r, s in train:
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
    for (p, _r), s in zip(info, suites):
        if p["kind"] == "uci":
            spread.append({"data set": p["name"].replace("_", " "), "values": p["values"],
                           **{f: f"{s[f].min():.3f} – {s[f].max():.3f}" for f in RATIO_NAMES}})
    table6_ratios = pd.DataFrame(spread)

    tables = {}
    for (rp, _rr), rs in zip(info, suites):
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


# version 4: the wrapper's linear SVM runs to tol 1e-8 (fsbook.geometry.wrapper.SVM_TOL); at
# 1e-4 a stored CV accuracy depended on the BLAS kernel of the machine that ran it
PROTOCOL = Protocol(name="geometry", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="4",
                    description="Geometric-ratio feature selection: training suite, Tables 2-6, "
                                "random columns, Figure 3")


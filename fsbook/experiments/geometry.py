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

:func:`claims` decides the paper's claims on the reduced counts and per-task results by the
book's rule (:mod:`fsbook.claims`): regression t-tests for Figures 1 and 3, exact binomial tests
of the selector's counts against the paper's values for Tables 4-6, a paired t-test over the
binary classifiers for the random columns; Holm within each table; over data sets the Wilcoxon
signed-rank test of the per-data-set effects, in families of their own (:func:`over_family`).

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
from collections.abc import Mapping
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.claims import ALPHA, NOT_SEPARABLE, Claim, claims_table, evaluate, evaluate_over_datasets
from fsbook.decisions import RTOL, SCORE_ATOL, argbest
from fsbook.experiments._geometry_figures import (
    growth_exponent,
    growth_fit,
    plot_figure1,
    plot_figure3,
    timing,
)
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

__all__ = ["PROTOCOL", "PAPER", "SETTINGS", "TRAIN_NAMES", "PROBLEMS", "make_tasks", "run_task", "reduce",
           "label_suite", "scores", "confusion", "selector_scores", "refit", "classifier_keys",
           "figure1_performance", "figure1_stats", "figure1_clustered", "random_column_table", "random_summary", "model_table",
           "claims", "headline", "growth_claim", "LABEL_RULES", "paper_base_rates", "label_rule_table",
           # the chapter's names from the problems, figures and report modules
           "FUNCTION_WORDS", "NEWS_GROUPS", "WEBTEXT_SITES", "WEBTEXT_TRAIN_SITES", "add_random_columns",
           "allocate", "text_problem", "uci_problem", "growth_exponent", "growth_fit", "plot_figure1",
           "plot_figure3", "CPU_CLAIM",
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
    return text_problem(spec["source"], rows=spec["rows"], cols=spec["cols"], seed=spec["seed"])


def _site_problem(params):
    """A five-site webtext set of one dimension (Table 5; Figure 3 when ``kind`` is ``growth``)."""
    train_rows = _train_problem(params["exclude"])["rows"]
    return text_problem("webtext", rows=5 * params["rows_per_class"], cols=params["dimension"],
                        seed=params["seed"], classes=params["sites"], exclude_rows=train_rows,
                        ordered=params["kind"] == "growth")


def _uci_problem(params):
    return uci_problem(params["name"], params["values"])


def _random_problem(params):
    return add_random_columns(_train_problem(params["base"]), params["fraction"],
                              seed=params["seed"])


#: the function that builds the problem of each task kind
PROBLEMS = {"train": _train_problem, "dimension": _site_problem, "growth": _site_problem,
            "uci": _uci_problem, "random": _random_problem}


def _problem(params):
    kind = params["kind"]
    if kind not in PROBLEMS:
        raise ValueError(f"unknown task kind {kind!r}; expected one of {sorted(PROBLEMS)}")
    return PROBLEMS[kind](params)


def _ratios_cpu_seconds(problem):
    t0 = time.process_time()
    GeometricFeatureSetSelector(problem["groups"]).compute_ratios(problem["X"], problem["y"])
    return time.process_time() - t0


#: what a task of each kind measures besides the labelled suite
EXTRAS = {"growth": {"ratios_cpu_s": _ratios_cpu_seconds}}


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
    for key, measure in EXTRAS.get(params["kind"], {}).items():
        out[key] = measure(p)
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


def classifier_keys(suite):
    """The binary classifier of each row of a labelled suite: (data set, split).

    Split labels such as ``"{0} vs rest"`` recur across the data sets of the training suite, so
    a z-score "within the classifier" groups by the data set too; a suite without a ``data``
    column is one data set.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.geometry import classifier_keys
    >>> s = pd.DataFrame({"data": ["a", "a", "b"], "split": ["{0} vs rest"] * 3})
    >>> classifier_keys(s).tolist()
    ['a | {0} vs rest', 'a | {0} vs rest', 'b | {0} vs rest']
    """
    split = suite["split"].astype(str)
    if "data" not in suite.columns:
        return split.to_numpy()
    return (suite["data"].astype(str) + " | " + split).to_numpy()


def figure1_performance(suite):
    """Figure 1's y values: the within-classifier z-score of the accuracy for f1-f3, f5, f6 and
    of the wrapper's F1 score for f4 (as in the paper); shape ``(n_pairs, 6)``."""
    f1z = standardize_within(suite[["f1_score"]].to_numpy(), classifier_keys(suite))[:, 0]
    acc = suite["accuracy_z"].to_numpy(dtype=float)
    return np.column_stack([f1z if i == 3 else acc for i in range(6)])


def figure1_stats(suite):
    """Per ratio: slope, its standard error, Pearson r and p-value of the regression of
    performance on z_i (Figure 1), over the ``n`` (classifier, set) pairs of ``suite``.

    Performance is :func:`figure1_performance`: z-scores within (data set, classifier).
    """
    perf = figure1_performance(suite)
    rows = []
    for i, z in enumerate(zcols()):
        ok = suite[z].std() > 0
        lr = stats.linregress(suite[z], perf[:, i]) if ok else None
        rows.append({"ratio": f"f{i + 1}", "performance": "F1 (z)" if i == 3 else "accuracy (z)",
                     "slope": lr.slope if ok else np.nan, "se": lr.stderr if ok else np.nan,
                     "r": lr.rvalue if ok else np.nan, "p": lr.pvalue if ok else np.nan,
                     "n": len(suite)})
    return pd.DataFrame(rows)


def figure1_clustered(suite):
    """Figure 1's slopes with standard errors clustered by classifier.

    The regression t of :func:`figure1_stats` treats the ``n`` (classifier, set) pairs as
    independent, but the sets of one classifier share its samples.  Here the least-squares slope
    of each ratio keeps its value and gets the cluster-robust (CR1) standard error with the
    classifiers (:func:`classifier_keys`) as clusters, tested by t with ``G − 1`` degrees of
    freedom for ``G`` classifiers; ``p_holm`` is Holm's adjustment over the six ratios.

    Returns
    -------
    DataFrame
        One row per ratio: ``ratio``, ``slope``, ``se`` (clustered), ``p``, ``p_holm``, ``n``,
        ``clusters``.
    """
    from fsbook.claims import holm

    perf = figure1_performance(suite)
    groups = pd.factorize(classifier_keys(suite))[0]
    n_groups, n = int(groups.max()) + 1, len(suite)
    rows = []
    for i, z in enumerate(zcols()):
        x = suite[z].to_numpy(dtype=float)
        y = perf[:, i]
        if np.ptp(x) == 0:
            rows.append({"ratio": f"f{i + 1}", "slope": np.nan, "se": np.nan, "p": np.nan})
            continue
        X = np.column_stack([np.ones(n), x])
        bread = np.linalg.inv(X.T @ X)
        beta = bread @ X.T @ y
        score = np.zeros((n_groups, 2))
        np.add.at(score, groups, X * (y - X @ beta)[:, None])
        meat = score.T @ score * (n_groups / (n_groups - 1)) * ((n - 1) / (n - 2))
        se = float(np.sqrt((bread @ meat @ bread)[1, 1]))
        p = float(2 * stats.t.sf(abs(beta[1] / se), n_groups - 1))
        rows.append({"ratio": f"f{i + 1}", "slope": float(beta[1]), "se": se, "p": p})
    out = pd.DataFrame(rows)
    out["p_holm"] = holm(out["p"].to_numpy(dtype=float))
    out["n"], out["clusters"] = n, n_groups
    return out


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


def confusion(suite, model):
    """Counts of ``model``'s recommendations against the wrapper labels of one suite.

    Returns
    -------
    dict
        ``tp``, ``fp``, ``fn``, ``tn``: the counts from which :func:`scores` are ratios (the
        claims test these counts, never the rounded ratios).
    """
    pred = np.asarray(model.predict(suite[zcols()].to_numpy()), bool)
    truth = suite["optimal"].to_numpy(dtype=bool)
    return {"tp": int(np.sum(pred & truth)), "fp": int(np.sum(pred & ~truth)),
            "fn": int(np.sum(~pred & truth)), "tn": int(np.sum(~pred & ~truth))}


# ----------------------------------------------------------------------------- label rules
def _best_within(suite, n_se):
    keys = classifier_keys(suite)
    g = suite.groupby(keys, sort=False)
    best = g["accuracy"].transform("idxmax")
    floor = (suite.loc[best, "accuracy"].to_numpy()
             - n_se * suite.loc[best, "accuracy_se"].to_numpy() - SCORE_ATOL)
    return suite["accuracy"].to_numpy() >= floor


def _above_mean(suite):
    mean = suite.groupby(classifier_keys(suite), sort=False)["accuracy"].transform("mean")
    return (suite["accuracy"] > mean + SCORE_ATOL).to_numpy()


def _as_good_as_full(suite):
    keys = classifier_keys(suite)
    full = suite.groupby(keys, sort=False)["n_features"].transform("idxmax")
    return (suite["accuracy"].to_numpy()
            >= suite.loc[full, "accuracy"].to_numpy() - SCORE_ATOL)


#: rules for the wrapper's "optimal" label; the paper states none.  Ties within
#: :data:`fsbook.decisions.SCORE_ATOL` go to "optimal" (and are not "above the mean").
LABEL_RULES = {
    "within one s.e. of the best (ours)": lambda s: s["optimal"].to_numpy(dtype=bool),
    "within two s.e. of the best": lambda s: _best_within(s, 2.0),
    "above the classifier's mean accuracy": _above_mean,
    "at least the full set's accuracy": _as_good_as_full,
}


def paper_base_rates():
    """The share of optimal sets each Table 4 row of the paper implies.

    With ``O`` optimal sets of ``n``, recall ``r`` gives ``tp = rO``, precision ``p`` gives
    ``fp = tp (1/p − 1)``, and ``1 − accuracy = (fp + fn) / n``, so
    ``O / n = (1 − a) / (r / p + 1 − 2r)``.

    Examples
    --------
    >>> from fsbook.experiments.geometry import paper_base_rates
    >>> t = paper_base_rates()
    >>> round(float(t.loc["Movies Documents", "optimal (implied)"]), 2)     # 5 of 7
    5.0
    """
    t4, t3 = PAPER["table4"], PAPER["table3"]
    rate = (1 - t4["accuracy"]) / (t4["recall"] / t4["precision"] + 1 - 2 * t4["recall"])
    return pd.DataFrame({"feature sets": t3.loc[t4.index, "feature sets"],
                         "optimal (implied)": rate * t3.loc[t4.index, "feature sets"],
                         "share optimal": rate})


def label_rule_table(tsuite, paper=None):
    """Table 4 under each rule of :data:`LABEL_RULES`: per rule and training data set, the share
    of optimal sets and the scores of the published model and of the model refitted on the
    rule's labels (in-sample, as in Table 4)."""
    paper = paper_model() if paper is None else paper
    rows = []
    for rule, labels in LABEL_RULES.items():
        optimal = labels(tsuite)
        relabelled = tsuite.assign(optimal=optimal)
        models = {"published": paper, "refitted": refit(relabelled)}
        for name, s in relabelled.groupby("data", sort=False):
            row = {"rule": rule, "data set": name,
                   "optimal": f"{int(s['optimal'].sum())} of {len(s)}",
                   "share optimal": float(s["optimal"].mean())}
            for m, model in models.items():
                sc = selector_scores(s, model)
                row.update({f"{k} ({m})": sc[k] for k in ("accuracy", "precision", "recall")})
            rows.append(row)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- table builders
def _train_name(p):
    return TRAIN_NAMES[p["source"]]


def _uci_name(p):
    name = p["name"].replace("_", " ")
    if p["name"] == "wine":
        name += " (real values)" if p["values"] == "real" else " (booleanised)"
    return name


def _table3(train):
    rows = [{"data set": name, "source": "paper", **PAPER["table3"].loc[name].to_dict(),
             "optimal": np.nan} for name in PAPER["table3"].index]
    for p, r, s in train:
        rows.append({"data set": _train_name(p), "source": "ours", "R": r["R"], "C": r["C"],
                     "BC": s["split"].nunique(), "FT": r["FT"], "feature sets": len(s),
                     "optimal": int(s["optimal"].sum())})
    table = pd.DataFrame(rows)
    for c in ("R", "C", "BC", "FT", "feature sets", "optimal"):
        table[c] = table[c].astype("Int64")
    return table


def _table4(train, models):
    rows = []
    for p, _r, s in train:
        name = _train_name(p)
        paper_row = PAPER["table4"].loc[name] if name in PAPER["table4"].index else None
        rows += _score_rows({"data set": name}, s, models, paper_row)
    return pd.DataFrame(rows, columns=["data set", "optimal", "metric", "paper", *models],
                        dtype=object)


def _table5_row(columns):
    """The paper's Table 5 dimension nearest to ``columns``."""
    dims = PAPER["table5"].index.to_numpy()
    return int(dims[np.argmin(np.abs(dims - columns))])


def _table5(dimension, models):
    rows = []
    for _p, r, s in dimension:
        nearest = _table5_row(r["C"])
        rows += _score_rows({"columns": r["C"], "paper row": nearest}, s, models,
                            PAPER["table5"].loc[nearest])
    return pd.DataFrame(rows, columns=["columns", "paper row", "optimal", "metric", "paper",
                                       *models], dtype=object)


def _table6_row(p, r):
    """The paper's Table 6 row of the same data type and nearest dimension."""
    p6 = PAPER["table6"]
    cand = p6[p6["type"] == ("continuous" if p["name"] == "wine" else "categorical")]
    return cand.iloc[int(np.argmin(np.abs(cand["dimension"].to_numpy() - r["C"])))]


def _table6(uci, models):
    rows = []
    for p, r, s in uci:
        prow = _table6_row(p, r)
        rows += _score_rows({"data set": _uci_name(p), "columns": r["C"],
                             "paper row": f"{prow['dimension']} {prow['type']}"}, s, models, prow)
    return pd.DataFrame(rows, columns=["data set", "columns", "paper row", "optimal", "metric",
                                       "paper", *models], dtype=object)


def _table6_ratios(uci):
    return pd.DataFrame([{"data set": p["name"].replace("_", " "), "values": p["values"],
                          **{f: f"{s[f].min():.3f} – {s[f].max():.3f}" for f in RATIO_NAMES}}
                         for p, _r, s in uci])


def _random_tables(random, models):
    """Section 5.1: per-classifier table and summary (empty dict without a random task)."""
    if not random:
        return {}
    rp, _rr, rs = random[0]
    names = _train_problem(rp["base"])["group_names"] + ["random"]
    rnd = {m: random_column_table(rs, model, names) for m, model in models.items()}
    per_split = rnd["published"].merge(rnd["refitted"][["split", "selected", "gain_pp"]],
                                       on="split", suffixes=(" (published)", " (refitted)"))
    sums = {m: random_summary(t) for m, t in rnd.items()}
    paper_rc = {"selected set contains the random columns": 0,
                "min gain of the selected set (pp)": PAPER["random_columns"]["min"],
                "median gain (pp)": PAPER["random_columns"]["median"],
                "max gain (pp)": PAPER["random_columns"]["max"]}
    summary = pd.DataFrame([{"quantity": q, "paper": paper_rc.get(q, np.nan),
                             **{m: sums[m][q] for m in sums}} for q in sums["published"]],
                           dtype=object)
    return {"random": per_split, "random_summary": summary}


def _figure3(growth, models):
    rows = []
    for _p, r, s in growth:
        row = {"columns": r["C"], "ratios CPU s": r["ratios_cpu_s"]}
        for m, model in models.items():
            sc = selector_scores(s, model)
            for metric in ("accuracy", "precision", "recall"):
                row[f"{metric} ({m})"] = sc[metric]
        rows.append(row)
    return pd.DataFrame(rows)


def _f3_reading(tsuite):
    Z = tsuite[zcols()].to_numpy()
    minus, plus = paper_model(-1).predict(Z), paper_model(+1).predict(Z)
    return pd.DataFrame([{"pairs": len(Z), "wrapper-optimal": int(tsuite["optimal"].sum()),
                          "recommended, f3 read as −0.091": int(minus.sum()),
                          "recommended, f3 read as +0.091": int(plus.sum()),
                          "decisions that differ": int((minus != plus).sum())}])


def _predictors(ours):
    return pd.DataFrame([{"model": k, "selected predictors": ", ".join(v)}
                         for k, v in (("logistic", ours.info["logistic_predictors"]),
                                      ("linear", ours.info["linear_predictors"]))])


def _confusion_table(by_kind, models):
    """Confusion counts of both models on every labelled suite the claims test."""
    where = {"train": ("Table 4", lambda p, r: _train_name(p)),
             "dimension": ("Table 5", lambda p, r: f"{r['C']} columns"),
             "uci": ("Table 6", lambda p, r: _uci_name(p)),
             "growth": ("Figure 3", lambda p, r: f"{r['C']} columns")}
    rows = []
    for kind, (table, name) in where.items():
        for p, r, s in by_kind.get(kind, []):
            for m, model in models.items():
                rows.append({"table": table, "data set": name(p, r), "columns": r["C"],
                             "model": m, **confusion(s, model)})
    return pd.DataFrame(rows, columns=["table", "data set", "columns", "model", "tp", "fp", "fn",
                                       "tn"])


def reduce(params_list, results_list):
    """The chapter's tables from the labelled suites.

    Returns
    -------
    dict of str to pandas.DataFrame
        ``table2``, ``table2_predictors``, ``table3``, ``table4``, ``table5``, ``table6``,
        ``table6_ratios``, ``figure1``, ``f3_reading``, ``random``, ``random_summary``,
        ``figure3``, ``training_suite``, ``confusion`` (the counts the claims test) and
        ``label_rules`` (Table 4 under other rules for the "optimal" label).
    """
    by_kind = {}
    for p, r in zip(params_list, results_list):
        by_kind.setdefault(p["kind"], []).append((p, r, pd.DataFrame(r["suite"])))
    train = by_kind.get("train", [])
    tsuite = pd.concat([s.assign(data=_train_name(p)) for p, _r, s in train], ignore_index=True)
    tsuite["f1_z"] = figure1_performance(tsuite)[:, 3]
    paper, ours = paper_model(), refit(tsuite)
    models = {"published": paper, "refitted": ours}
    uci = by_kind.get("uci", [])
    tables = {"table2": model_table(paper, ours), "table2_predictors": _predictors(ours),
              "table3": _table3(train), "table4": _table4(train, models),
              "table5": _table5(by_kind.get("dimension", []), models),
              "table6": _table6(uci, models), "table6_ratios": _table6_ratios(uci),
              "figure1": figure1_stats(tsuite), "f3_reading": _f3_reading(tsuite),
              **_random_tables(by_kind.get("random", []), models),
              "figure3": _figure3(by_kind.get("growth", []), models),
              "training_suite": tsuite, "confusion": _confusion_table(by_kind, models),
              "label_rules": label_rule_table(tsuite, paper)}
    return tables


# ----------------------------------------------------------------------------- claims
_Z975 = float(stats.norm.ppf(0.975))


def _claim_row(table, claim, *, a, b, unit, n, effect, se, ci, test, p, note="", **extra):
    """One claims-table row (the columns of :data:`fsbook.claims.COLUMNS`, then ``extra``) for a
    claim whose p-value comes from a test the engine does not run (regression, binomial)."""
    return {"table": table, "claim": claim, "a": a, "b": b, "unit": unit, "n": int(n),
            "effect": float(effect), "se": float(se), "ci_low": float(ci[0]),
            "ci_high": float(ci[1]), "test": test, "p": float(p), "p_adj": float(p),
            "verdict": NOT_SEPARABLE, "note": note, **extra}


def _binomial_min_p(n, p0):
    """The smallest two-sided p-value the exact binomial test of ``p0`` can give with ``n`` units.

    Examples
    --------
    >>> from fsbook.experiments.geometry import _binomial_min_p
    >>> _binomial_min_p(1, 0.63) >= 0.05, _binomial_min_p(10, 0.5) < 0.05
    (True, True)
    """
    return min(float(stats.binomtest(k, n, p0).pvalue) for k in range(n + 1))


def _binomial_row(table, claim, k, n, p0, better, *, a, b, unit="sets", note="", **extra):
    """A selector's proportion ``k / n`` against the paper's value ``p0``: exact two-sided
    binomial test; effect = the difference, signed so that positive is the paper's direction
    (``better``); 95 % Clopper-Pearson interval; ``se`` = the interval's half-width / 1.96.
    No unit (``n = 0``: nothing recommended, or nothing optimal) leaves the claim undefined; so
    few units that no outcome reaches ``p < 0.05`` leave it untestable (``p`` undefined, out of
    the Holm family, as :mod:`fsbook.claims` does for the Wilcoxon test)."""
    if not 0.0 < p0 < 1.0:
        raise ValueError(f"the binomial test needs a reference proportion in (0, 1), got {p0}")
    nan = float("nan")
    if n == 0:
        return _claim_row(table, claim, a=a, b=b, unit=unit, n=0, effect=nan, se=nan,
                          ci=(nan, nan), test="exact binomial", p=nan,
                          note=note or "undefined: no unit", **extra)
    test = stats.binomtest(int(k), int(n), p0)
    ci = test.proportion_ci(0.95, method="exact")
    if _binomial_min_p(int(n), p0) >= ALPHA:     # no outcome of n units can reach p < ALPHA
        note = note or f"untestable: {int(n)} {unit.removesuffix('s') if n == 1 else unit} cannot reach p < {ALPHA:g}"
        sign = 1.0 if better == "higher" else -1.0
        lo, hi = sorted((sign * (ci.low - p0), sign * (ci.high - p0)))
        return _claim_row(table, claim, a=a, b=b, unit=unit, n=n, effect=sign * (k / n - p0),
                          se=(ci.high - ci.low) / (2 * _Z975), ci=(lo, hi), test="exact binomial",
                          p=nan, note=note, **extra)
    sign = 1.0 if better == "higher" else -1.0
    lo, hi = sorted((sign * (ci.low - p0), sign * (ci.high - p0)))
    return _claim_row(table, claim, a=a, b=b, unit=unit, n=n, effect=sign * (k / n - p0),
                      se=(ci.high - ci.low) / (2 * _Z975), ci=(lo, hi), test="exact binomial",
                      p=test.pvalue, note=note, **extra)


def _regression_row(table, claim, x, y, better, *, a, b, unit, null=0.0, note="", **extra):
    """The least-squares slope of ``y`` on ``x`` against ``null``: t-test with ``n − 2`` degrees
    of freedom; effect = slope − null, signed so that positive is the paper's direction
    (``better="higher"``: a larger slope).  Points with an undefined ``y`` are left out."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y, n = x[ok], y[ok], int(ok.sum())
    sign = 1.0 if better == "higher" else -1.0
    nan = float("nan")
    if n < 3 or np.ptp(x) == 0:
        return _claim_row(table, claim, a=a, b=b, unit=unit, n=n, effect=nan, se=nan,
                          ci=(nan, nan), test="regression t", p=nan,
                          note=note or f"untestable: {n} point(s)", **extra)
    if np.ptp(y) == 0:                       # a constant y: slope exactly 0, no evidence
        slope, se, p = 0.0, 0.0, 1.0 if null == 0 else 0.0
    else:
        lr = stats.linregress(x, y)
        slope, se = float(lr.slope), float(lr.stderr)
        t = (slope - null) / se if se > 0 else np.inf * np.sign(slope - null)
        p = float(2 * stats.t.sf(abs(t), n - 2)) if np.isfinite(t) else 0.0
    effect = sign * (slope - null)
    half = float(stats.t.ppf(0.975, n - 2) * se)
    return _claim_row(table, claim, a=a, b=b, unit=unit, n=n, effect=effect, se=se,
                      ci=(effect - half, effect + half), test="regression t", p=p, note=note,
                      **extra)


def _tables(results):
    if isinstance(results, Mapping):
        return results
    if hasattr(results, "tables"):
        return results.tables
    raise TypeError(f"claims() needs read_store's result or its tables, got {type(results)}")


def _regression_row_from_stats(table, r):
    """Figure 1's row of one ratio from its clustered regression (:func:`figure1_clustered`:
    slope, clustered se and p over ``n`` pairs in ``clusters`` classifiers, ``clusters − 1``
    degrees of freedom)."""
    effect, se, n = -float(r["slope"]), float(r["se"]), int(r["n"])
    half = float(stats.t.ppf(0.975, int(r["clusters"]) - 1) * se)
    perf = "F1 score" if r["ratio"] == "f4" else "accuracy"
    return _claim_row(table, f"{r['ratio']}: negative slope on {perf}", a=r["ratio"],
                      b="no relation", unit="sets", n=n, effect=effect, se=se,
                      ci=(effect - half, effect + half), test="clustered regression t", p=r["p"],
                      note=f"se clustered by {int(r['clusters'])} classifiers",
                      **{"data set": "training suite", "model": "", "general claim": ""})


def _figure1_claims(T):
    """Figure 1's claims: the slope of each ratio, its standard error clustered by classifier
    (the sets of one classifier share its samples; :func:`figure1_clustered`)."""
    fig1 = figure1_clustered(T["training_suite"])
    return [_regression_row_from_stats("Figure 1", r) for _, r in fig1.iterrows()]


#: the three metrics of Tables 4 and 5: (successes, trials) from the confusion counts
METRIC_COUNTS = {"accuracy": lambda c: (c["tp"] + c["tn"], c["tp"] + c["fp"] + c["fn"] + c["tn"]),
                 "precision": lambda c: (c["tp"], c["tp"] + c["fp"]),
                 "recall": lambda c: (c["tp"], c["tp"] + c["fn"])}


def _metric_rows(table, counts, reference, claim_text):
    """Per (model, data set, metric) binomial rows of a selector table."""
    rows = []
    for _, c in counts.iterrows():
        for metric, count in METRIC_COUNTS.items():
            p0 = reference(c, metric)
            k, n = count(c)
            general = claim_text(c["model"], metric, p0)
            note = "" if n else ("undefined: no set recommended" if metric == "precision"
                                 else "undefined: no optimal set")
            rows.append(_binomial_row(table, general, k, n, p0, "higher", a=f"{c['model']} model",
                                      b="the paper", note=note, **{"data set": c["data set"],
                                      "model": c["model"], "general claim": general}))
    return rows


def _table4_claims(T):
    lowest = PAPER["table4"].min()
    counts = T["confusion"][T["confusion"]["table"] == "Table 4"]
    return _metric_rows("Table 4", counts, lambda c, metric: float(lowest[metric]),
                        lambda m, metric, p0: f"{m} model: {metric} at least the paper's lowest "
                                              f"({p0:.3f})")


def _table5_claims(T):
    counts = T["confusion"][T["confusion"]["table"] == "Table 5"]
    return _metric_rows("Table 5", counts,
                        lambda c, metric: float(PAPER["table5"].loc[_table5_row(c["columns"]),
                                                                    metric]),
                        lambda m, metric, p0: f"{m} model: {metric} at least the paper's")


def _table6_claims(T):
    rows = []
    for _, c in T["confusion"][T["confusion"]["table"] == "Table 6"].iterrows():
        general = f"{c['model']} model: recall below 0.5 (the method fails)"
        rows.append(_binomial_row("Table 6", general, c["tp"], c["tp"] + c["fn"], 0.5, "lower",
                                  a=f"{c['model']} model", b="half of the optimal sets",
                                  **{"data set": c["data set"], "model": c["model"],
                                     "general claim": general}))
    return rows


def _random_claims(T):
    if "random" not in T:
        return []
    rnd, rows = T["random"], []
    floor = PAPER["random_columns"]["min"]
    for m in ("published", "refitted"):
        gain = rnd[f"gain_pp ({m})"].to_numpy(dtype=float)
        gain = gain[np.isfinite(gain)]
        claim = Claim(f"{m} model: the selected set gains at least {floor:g} pp", a="selected set",
                      b=f"full set + {floor:g} pp", better="higher", unit="splits",
                      test="paired_t", table="Random columns")
        rows.append({**evaluate(claim, gain, np.full(gain.shape, floor)),
                     "data set": "webtext + random", "model": m, "general claim": ""})
        selected = rnd[f"selected ({m})"]
        has = selected != "none recommended"
        excludes = int((~selected[has].str.split("+").map(lambda s: "random" in s)).sum())
        rows.append(_binomial_row("Random columns", f"{m} model: the selected set excludes the "
                                  "random columns on most classifiers", excludes, int(has.sum()),
                                  0.5, "higher", a="selected set", b="random columns", unit="splits",
                                  **{"data set": "webtext + random", "model": m,
                                     "general claim": ""}))
    return rows


def _figure3_claims(T):
    f3, rows = T["figure3"], []
    for m in ("published", "refitted"):
        for metric in METRIC_COUNTS:
            rows.append(_regression_row("Figure 3", f"{m} model: {metric} grows with the number "
                                        "of columns", np.log2(f3["columns"].to_numpy(float)),
                                        f3[f"{metric} ({m})"], "higher", a="more columns",
                                        b="fewer columns", unit="dimensions",
                                        **{"data set": "five-site set", "model": m,
                                           "general claim": ""}))
    return rows


#: the paper's CPU-time claim of Figure 3, decided on the whole selector's stored times
CPU_CLAIM = "whole selector: CPU time grows quadratically with the number of columns"


def _cpu_claims(T):
    """Figure 3's CPU-time claim on the stored CPU seconds of the whole selector's ratios (all
    225 pairs of each Figure 3 set, ``ratios CPU s``): the slope of log t on log n against 2."""
    f3 = T["figure3"]
    if "ratios CPU s" not in f3.columns:
        raise ValueError("the Figure 3 table has no 'ratios CPU s' column: the store's growth tasks "
                         "must record the selector's CPU time (ratios_cpu_s)")
    return [_growth_row(f3["columns"], f3["ratios CPU s"], CPU_CLAIM, a="whole selector",
                        **{"data set": "five-site set", "model": "", "general claim": ""})]


def claims(results):
    """The chapter's claims, decided on the stored per-task results by the book's rule.

    Parameters
    ----------
    results : ProtocolResult or dict of DataFrame
        What :func:`fsbook.experiments.read_store` returns for :data:`PROTOCOL` (or its
        ``tables``).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`fsbook.claims.COLUMNS`, then ``data set``, ``model`` and
        ``general claim``.  Holm's correction runs within each ``table``:

        * ``Figure 1`` -- per ratio, a negative slope of performance on the ratio over the
          training suite's (classifier, set) pairs, t with the standard error clustered by
          classifier (:func:`figure1_clustered`; f4 against the F1 score);
        * ``Table 4`` -- per model, data set and metric, the selector's accuracy, precision and
          recall at least the paper's lowest Table 4 value (exact binomial test on the counts);
          one row per model and metric over the data sets (``data set == "all"``: Wilcoxon
          signed-rank test over the per-data-set effects, in the family :func:`over_family`;
          untestable with Table 4's three data sets);
        * ``Table 5`` -- the same against the paper's row of each dimension, Wilcoxon over the
          seven test sets;
        * ``Table 6`` -- recall below 0.5 (the paper's "the method fails"), Wilcoxon over the
          four data sets (untestable);
        * ``Random columns`` -- the selected set gains at least 10 pp over the full set (paired
          t over the binary classifiers) and excludes the random columns on most of them;
        * ``Figure 3`` -- accuracy, precision and recall grow with log2 of the number of
          columns (regression t over the thirteen dimensions of one set);
        * ``Figure 3, CPU time`` -- the whole selector's CPU time grows quadratically with the
          number of columns: the slope of log t on log n of the stored CPU seconds (all pairs of
          each Figure 3 set) against 2 (:func:`growth_claim`; effect = slope − 2).
    """
    T = _tables(results)
    per_unit = claims_table(_figure1_claims(T) + _table4_claims(T) + _table5_claims(T)
                            + _table6_claims(T) + _random_claims(T) + _figure3_claims(T)
                            + _cpu_claims(T))
    general = per_unit[per_unit["general claim"] != ""]
    over = []
    for (table, text), rows in general.groupby(["table", "general claim"], sort=False):
        model = rows["model"].iloc[0]
        over.append({**evaluate_over_datasets(rows, text, table=over_family(table, model)),
                     "data set": "all", "model": model, "general claim": text})
    per_unit = per_unit.assign(claim=[c if g == "" else f"{c} — {d}" for c, g, d in
                                      zip(per_unit["claim"], per_unit["general claim"],
                                          per_unit["data set"])])
    out = pd.concat([per_unit, claims_table(over)], ignore_index=True)
    order = {t: i for i, t in enumerate(dict.fromkeys(per_unit["table"]))}
    return out.sort_values("table", key=lambda t: t.map(order), kind="stable").reset_index(drop=True)


def over_family(table, model):
    """The Holm family of the over-data-set rows of ``table`` for one model (``"published"``:
    the paper's coefficients, the paper's claims; ``"refitted"``: ours): never shared with the
    per-data-set rows, and three claims each (accuracy, precision, recall), so that a Wilcoxon
    test over Table 5's seven test sets can pass (2/2^7 < 0.05/3)."""
    return f"{table} (over data sets, {model} model)"


def headline(claims_df):
    """The rows of :func:`claims` that are the chapter's claims: the over-data-set rows of the
    claims made for several data sets (``data set == "all"``) and the claims made once
    (Figure 1, random columns, Figure 3), without the per-data-set rows."""
    return claims_df[(claims_df["general claim"] == "") | (claims_df["data set"] == "all")]


def _growth_row(dims, seconds, claim, *, a, exponent=2.0, table="Figure 3, CPU time", **extra):
    d, t = np.asarray(dims, float), np.asarray(seconds, float)
    ok = np.isfinite(t) & (t > 0)
    return _regression_row(table, claim, np.log(d[ok]), np.log(t[ok]), "higher", a=a,
                           b=f"n^{exponent:g}", unit="dimensions", null=exponent,
                           note=f"slope of log t on log n against {exponent:g}", **extra)


def growth_claim(dims, seconds, *, label="paper's method", exponent=2.0,
                 table="Figure 3, CPU time"):
    """The claim "CPU time grows as ``dims**exponent``" (the paper: quadratically) on a timing.

    The least-squares slope ``b`` of log t on log n is tested against ``exponent`` by its
    regression t (``n − 2`` degrees of freedom); effect = ``b − exponent``, positive in the
    paper's direction (growth at least as fast as claimed): the claim *holds* when ``b`` is
    significantly above ``exponent``, *fails* when significantly below, and is *not separable*
    otherwise.  The times at the sizes are treated as independent measurements.

    Parameters
    ----------
    dims, seconds : array-like
        Sizes and CPU times; missing or non-positive times are left out.
    label : str
        What was timed (the claim reads "<label>: CPU time grows quadratically ...").
    exponent : float
        The claimed exponent.
    table : str
        The claims table's family.

    Returns
    -------
    pandas.DataFrame
        One claims-table row (:data:`fsbook.claims.COLUMNS`).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.geometry import growth_claim
    >>> n = np.array([250, 500, 1000, 2000])
    >>> growth_claim(n, 1e-3 * n * (1 + 0.01 * np.arange(4)))["verdict"].item()
    'fails'
    """
    words = "quadratically" if exponent == 2 else f"as n^{exponent:g}"
    row = _growth_row(dims, seconds, f"{label}: CPU time grows {words} with the number of columns",
                      a=label, exponent=exponent, table=table)
    return claims_table([row])


# version 4: the wrapper's linear SVM runs to tol 1e-8 (fsbook.geometry.wrapper.SVM_TOL); at
# 1e-4 a stored CV accuracy depended on the BLAS kernel of the machine that ran it
PROTOCOL = Protocol(name="geometry", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="4",
                    description="Geometric-ratio feature selection: training suite, Tables 2-6, "
                                "random columns, Figure 3")


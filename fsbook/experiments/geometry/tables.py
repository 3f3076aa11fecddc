"""The geometric-ratios chapter's tables, reduced from the labelled suites of the store.

:func:`reduce` refits the Table 2 models on the training suite and scores the published and the
refitted model on every problem: one builder per table (Tables 2-6, Figure 1, the random
columns, Figure 3, the confusion counts the claims test and Table 4 under other label rules).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.decisions import RTOL, SCORE_ATOL, argbest
from fsbook.experiments.geometry.paper import PAPER, TRAIN_NAMES
from fsbook.experiments.geometry.tasks import _train_problem
from fsbook.geometry import RATIO_NAMES, fit_models, paper_model, standardize_within

__all__ = ["zcols", "scores", "selector_scores", "refit", "classifier_keys", "figure1_performance",
           "figure1_stats", "figure1_clustered", "random_column_table", "random_summary",
           "model_table", "confusion", "LABEL_RULES", "label_rule_table", "reduce"]


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
    >>> from fsbook.experiments.geometry.tables import classifier_keys
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
    from fsbook.claims import clustered_slope_test, holm

    perf = figure1_performance(suite)
    keys = classifier_keys(suite)
    rows = []
    for i, z in enumerate(zcols()):
        r = clustered_slope_test(suite[z].to_numpy(dtype=float), perf[:, i], keys)
        rows.append({"ratio": f"f{i + 1}", "slope": r["slope"], "se": r["se"], "p": r["p"]})
        n_groups = r["clusters"]
    out = pd.DataFrame(rows)
    out["p_holm"] = holm(out["p"].to_numpy(dtype=float))
    out["n"], out["clusters"] = len(suite), n_groups
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
    rp, rr, rs = random[0]
    names = _train_problem(rp["base"])["group_names"] + ["random"]
    rnd = {m: random_column_table(rs, model, names) for m, model in models.items()}
    per_split = rnd["published"].merge(rnd["refitted"][["split", "selected", "gain_pp"]],
                                       on="split", suffixes=(" (published)", " (refitted)"))
    per_split = per_split.assign(samples=int(rr["R"]), folds=int(rp["cv"]))   # each classifier's CV
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
        ``table6_ratios``, ``figure1``, ``f3_reading``, ``random`` (with the ``samples`` and CV
        ``folds`` each classifier is scored on), ``random_summary``, ``figure3``, ``training_suite``, ``confusion`` (the counts the claims test) and
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

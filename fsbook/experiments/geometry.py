"""Protocols of the geometric-ratios paper (Sections 3-5).

* Training suite (Table 3) and its wrapper labels: :func:`text_problem`, :func:`label_suite`.
* Figure 1 regressions: :func:`figure1_stats`; Table 2 refit: :func:`fsbook.geometry.fit_models`.
* Table 4 (selector vs wrapper labels): :func:`selector_scores`.
* Table 5 (Amazon substitute: webtext five-site subsets at dimensions 480…1440): :func:`dimension_sets`.
* Table 6 (low-dimensional UCI data): :func:`uci_problem`.
* Random-columns experiment: :func:`add_random_columns`, :func:`random_column_experiment`.
* Figure 3 (CPU time vs dimension, ours and the naive SVD method): :func:`timing`.

``python -m fsbook.experiments geometry --full`` runs the paper-sized protocol
(Table 3 row/column counts) with a progress bar and writes
``results/geometry.json``; without ``--full`` it runs the chapter's subsample.
"""
from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import stats

from fsbook import datasets
from fsbook.booleanize import booleanize
from fsbook.geometry import (RATIO_NAMES, GeometricFeatureSetSelector, fit_models,
                             geometric_ratios, naive_geometric_ratios, paper_model,
                             standardize_within)
from fsbook.geometry import all_subsets_wrapper

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
               "Movie Documents", "Webtext Sentences"]),
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
    "random_columns": {"min": 0.10, "median": 0.15, "max": 0.26},
}

#: webtext sites of the training suite (5 classes -> 15 binary classifiers, as in Table 3)
WEBTEXT_TRAIN_SITES = ("firefox", "grail", "overheard", "pirates", "wine")
#: number of most frequent unigrams treated as the "function word" feature type
FUNCTION_WORDS = 50

#: chapter subsample (documented in the chapter) and the paper-sized --full protocol
SETTINGS = {
    "chapter": {"movies": (150, 600), "webtext": (600, 500), "news": (300, 450),
                "dims": (480, 800, 1120, 1440), "dim_rows": 30, "cv": 5, "uci_rows": 300},
    "full": {"movies": (300, 1000), "webtext": (1200, 500), "news": (600, 900),
             "dims": (480, 640, 800, 960, 1120, 1280, 1440), "dim_rows": 30, "cv": 5,
             "uci_rows": None},
}
NEWS_GROUPS = ("comp.graphics", "rec.autos", "sci.space", "talk.politics.misc")


@functools.lru_cache(maxsize=None)
def _load(name, ngram):
    if name == "movies":
        return datasets.load_movie_reviews(ngram=ngram)
    if name == "webtext":
        return datasets.load_webtext(ngram=ngram)
    if name == "news":
        return datasets.load_20newsgroups(categories=list(NEWS_GROUPS))
    raise ValueError(name)


def _sample_rows(target, classes, per_class, rng, exclude=None):
    rows = []
    for c in classes:
        idx = np.flatnonzero(target == c)
        if exclude is not None:
            idx = np.setdiff1d(idx, exclude)
        rows.append(np.sort(rng.choice(idx, size=min(per_class, idx.size), replace=False)))
    return np.concatenate(rows)


def text_problem(source, *, rows, cols, seed=0, classes=None, exclude_rows=None,
                 ordered=False):
    """Build one text data set of the training suite / test sets.

    Parameters
    ----------
    source : {"movies", "webtext", "news"}
        ``movies``: unigram, bigram, trigram feature types (3 FT, 2 classes).
        ``webtext``: function words (the ``FUNCTION_WORDS`` most frequent
        unigrams of the corpus), other unigrams, bigrams, trigrams (4 FT).
        ``news``: 20 Newsgroups (four groups), unigrams split in three
        document-frequency bands (3 FT) -- no other feature types are
        available for it.
    rows : int
        Total number of rows (equal numbers per class).
    cols : int
        Total number of columns, shared equally by the feature types (the most
        frequent columns of each type in the sampled rows).
    classes : sequence, optional
        Class labels (names) to keep; default as described above.
    exclude_rows : array of int, optional
        Corpus rows that must not be used (to keep test sets disjoint from the
        training suite).
    ordered : bool
        Keep the columns of each type in decreasing frequency (Figure 3 protocol).

    Returns
    -------
    dict with X (CSR 0/1), y, groups, group_names, rows (corpus row indices),
    class_names.
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
    per_class = rows // len(codes)
    r = _sample_rows(base.target, codes, per_class, rng, exclude_rows)
    y = np.searchsorted(codes, base.target[r]) if sorted(codes) == codes else \
        np.array([codes.index(t) for t in base.target[r]])
    per_type = cols // len(names)
    blocks = []
    if source == "webtext":
        uni = base.data
        corpus_df = np.asarray((uni > 0).sum(axis=0)).ravel()
        func = np.lexsort((np.arange(corpus_df.size), -corpus_df))[:FUNCTION_WORDS]
        rest = np.setdiff1d(np.arange(uni.shape[1]), func)
        mats = [uni[r][:, np.sort(func)], uni[r][:, rest], bunches[1].data[r], bunches[2].data[r]]
        for M in mats:
            blocks.append(M[:, _ordered_top(M, per_type, ordered)])
    elif source == "movies":
        for b in bunches:
            M = b.data[r]
            blocks.append(M[:, _ordered_top(M, per_type, ordered)])
    else:
        M = base.data[r]
        order = _ordered_top(M, 3 * per_type, True)
        for j in range(3):
            blocks.append(M[:, order[j * per_type:(j + 1) * per_type]])
    X = sp.hstack(blocks, format="csr")
    X = sp.csr_matrix(X > 0, dtype=np.float64)
    sizes = np.cumsum([0] + [b.shape[1] for b in blocks])
    groups = [np.arange(sizes[i], sizes[i + 1]) for i in range(len(blocks))]
    return {"X": X, "y": y, "groups": groups, "group_names": names, "rows": r,
            "class_names": list(classes)}


def _ordered_top(M, k, ordered):
    df = np.asarray((M > 0).sum(axis=0)).ravel()
    order = np.lexsort((np.arange(df.size), -df))
    order = order[df[order] > 0][:k]
    return order if ordered else np.sort(order)


def label_suite(problem, *, cv=5, n_jobs=None, seed=0, progress=False, f6="text"):
    """Wrapper labels and geometric ratios of every (classifier, set) of one problem.

    Returns
    -------
    pandas.DataFrame
        Wrapper columns (:func:`fsbook.wrapper.all_subsets_wrapper`) joined with
        the raw ratios ``f1..f6`` and their within-classifier z-scores ``z1..z6``.
    """
    w = all_subsets_wrapper(problem["X"], problem["y"], problem["groups"], cv=cv,
                            random_state=seed, n_jobs=n_jobs, group_names=problem["group_names"],
                            )
    sel = GeometricFeatureSetSelector(problem["groups"], group_names=problem["group_names"],
                                      f6=f6, n_jobs=n_jobs)
    r = sel.compute_ratios(problem["X"], problem["y"])
    df = w.merge(r[["split", "subset", *RATIO_NAMES]], on=["split", "subset"], validate="1:1")
    Z = standardize_within(df[list(RATIO_NAMES)].to_numpy(), df["split"].to_numpy())
    for i in range(6):
        df[f"z{i + 1}"] = Z[:, i]
    return df


def zcols():
    return [f"z{i + 1}" for i in range(6)]


def figure1_stats(suite, target="accuracy_z"):
    """Per ratio: slope, Pearson r and p-value of the regression of ``target`` on z_i (Figure 1)."""
    rows = {}
    for i, z in enumerate(zcols()):
        t = suite[target]
        if target == "accuracy_z" and i == 3:
            # the paper uses the F1 score for f4 (Section 3); z-scored within classifier
            t = pd.Series(standardize_within(suite[["f1_score"]].to_numpy(),
                                             suite["split"].to_numpy())[:, 0], index=suite.index)
        ok = suite[z].std() > 0
        lr = stats.linregress(suite[z], t) if ok else None
        rows[f"f{i + 1}"] = {"slope": lr.slope if ok else np.nan, "r": lr.rvalue if ok else np.nan,
                             "p": lr.pvalue if ok else np.nan,
                             "target": "F1 (z)" if i == 3 else "accuracy (z)"}
    return pd.DataFrame(rows).T


def scores(pred, truth):
    """Accuracy, precision, recall of predicted-optimal against wrapper labels (Section 5.1)."""
    pred, truth = np.asarray(pred, bool), np.asarray(truth, bool)
    tp, fp = np.sum(pred & truth), np.sum(pred & ~truth)
    fn, tn = np.sum(~pred & truth), np.sum(~pred & ~truth)
    return {"accuracy": (tp + tn) / pred.size,
            "precision": tp / (tp + fp) if tp + fp else 0.0,
            "recall": tp / (tp + fn) if tp + fn else 0.0,
            "n_sets": int(pred.size), "optimal_rate": float(truth.mean()),
            "predicted_rate": float(pred.mean())}


def selector_scores(suite, model):
    """:func:`scores` of ``model`` on a labelled suite (uses the stored z-scores)."""
    return scores(model.predict(suite[zcols()].to_numpy()), suite["optimal"].to_numpy())


def refit(suites, stepwise=True):
    """Refit the Table 2 models on the concatenation of labelled suites."""
    allz = pd.concat(suites, ignore_index=True)
    return fit_models(allz[zcols()].to_numpy(), allz["accuracy_z"].to_numpy(),
                      allz["optimal"].to_numpy(), stepwise=stepwise, name="refit (ours)")


def uci_problem(name, n_groups=4, rows=None, seed=0):
    """Low-dimensional UCI data for Table 6, booleanised, attributes in ``n_groups`` blocks.

    Numeric attributes are thresholded at quartiles and nominal ones one-hot
    encoded (:func:`fsbook.booleanize.booleanize`); consecutive attributes form
    the feature groups.
    """
    b = getattr(datasets, f"load_{name}")()
    n_attr = b.data.shape[1]
    cats = b.get("categories") or [None] * n_attr
    blocks = np.array_split(np.arange(n_attr), n_groups)
    mats, groups, start = [], [], 0
    for blk in blocks:
        sub = {"data": b.data[:, blk], "categories": [cats[j] for j in blk],
               "feature_names": [str(b.feature_names[j]) for j in blk]}
        Xb, _ = booleanize(sub)
        mats.append(Xb.astype(float))
        groups.append(np.arange(start, start + Xb.shape[1]))
        start += Xb.shape[1]
    X = np.hstack(mats)
    y = np.asarray(b.target)
    if rows is not None and rows < X.shape[0]:
        rng = np.random.default_rng(seed)
        keep = np.sort(rng.choice(X.shape[0], rows, replace=False))
        X, y = X[keep], y[keep]
    kind = "continuous" if all(c is None for c in cats) else (
        "categorical" if all(c is not None for c in cats) else "mixed")
    return {"X": sp.csr_matrix(X), "y": y, "groups": groups,
            "group_names": [f"attrs {blk[0]}-{blk[-1]}" for blk in blocks],
            "kind": kind, "n_attributes": n_attr}


def add_random_columns(problem, fraction=0.25, seed=0):
    """Append ``fraction × n`` random binary columns as an extra feature type "random".

    Each random column has the density of a randomly chosen real column (the
    paper only says "a random binary vector").
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


def random_column_experiment(problem, model, *, cv=5, seed=0, n_jobs=None, suite=None):
    """Section 5.1: does the selector drop the random columns, and what accuracy does it gain?

    Parameters
    ----------
    problem : dict from :func:`add_random_columns`
    model : GeometricModel
    suite : DataFrame, optional
        A labelled suite of ``problem`` (:func:`label_suite`) to reuse.

    Returns
    -------
    table : pandas.DataFrame, one row per binary classifier: the selected set
        (recommended set with the highest probability; the highest-probability
        set if none is recommended), whether it contains the random group,
        wrapper accuracy of the full set and of the selected set, and the gain.
    suite : the labelled suite.
    """
    if suite is None:
        suite = label_suite(problem, cv=cv, n_jobs=n_jobs, seed=seed)
    d_all = suite.copy()
    Z = d_all[zcols()].to_numpy()
    d_all["probability"] = model.probability(Z)
    d_all["recommended"] = model.predict(Z)
    full = "+".join(problem["group_names"])
    rows = []
    for split, d in d_all.groupby("split", sort=False):
        cand = d[d["recommended"]] if d["recommended"].any() else d
        best = cand.loc[cand["probability"].idxmax()]
        acc_full = float(d.loc[d["subset"] == full, "accuracy"].iloc[0])
        rows.append({"split": split, "selected": best["subset"],
                     "n_recommended": int(d["recommended"].sum()),
                     "random_in_selected": "random" in best["subset"].split("+"),
                     "recommended_with_random": int((d["recommended"] & d["subset"].str.contains(
                         "random")).sum()),
                     "accuracy_full": acc_full, "accuracy_selected": float(best["accuracy"]),
                     "gain": float(best["accuracy"]) - acc_full})
    return pd.DataFrame(rows), suite


def timing(X, y, dims, *, naive_max=None, repeats=1):
    """CPU time of :func:`geometric_ratios` and of the naive SVD method on the first ``d`` columns.

    Returns
    -------
    pandas.DataFrame with columns dimension, ours_s, naive_s (NaN above ``naive_max``).
    """
    rows = []
    for d in dims:
        Xd = X[:, :d]
        t = []
        for _ in range(repeats):
            t0 = time.process_time()
            a = geometric_ratios(Xd, y)
            t.append(time.process_time() - t0)
        row = {"dimension": d, "ours_s": min(t), "naive_s": np.nan, "agree": np.nan}
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


def dimension_sets(dims, *, rows_per_class, train_rows, seed=0):
    """Table 5 substitute: webtext five-site subsets with disjoint sentences, one per dimension.

    The five-site subsets cycle through the six possible choices; sentences
    used by the training suite (``train_rows``) are excluded.
    """
    from itertools import combinations
    sites = ["firefox", "grail", "overheard", "pirates", "singles", "wine"]
    combos = list(combinations(sites, 5))
    out = []
    for i, d in enumerate(dims):
        classes = combos[i % len(combos)]
        p = text_problem("webtext", rows=5 * rows_per_class, cols=d, seed=seed + 100 + i,
                         classes=classes, exclude_rows=train_rows)
        p["dimension"] = d
        out.append(p)
    return out


def suite_summary(problem, suite):
    """Table 3 row: R, C, BC, FT, resulting feature sets."""
    return {"R": problem["X"].shape[0], "C": problem["X"].shape[1],
            "BC": suite["split"].nunique(), "FT": len(problem["groups"]),
            "feature sets": len(suite), "optimal": int(suite["optimal"].sum())}


def run(setting="chapter", *, n_jobs=None, seed=0, progress=False):
    """Whole protocol: training suite, refit, Tables 3-6, random columns.  Returns a dict."""
    cfg = SETTINGS[setting]
    problems = {
        "Movies Documents": text_problem("movies", rows=cfg["movies"][0], cols=cfg["movies"][1],
                                         seed=seed),
        "Webtext Sentences": text_problem("webtext", rows=cfg["webtext"][0],
                                          cols=cfg["webtext"][1], seed=seed),
        "20 Newsgroups (4 groups)": text_problem("news", rows=cfg["news"][0],
                                                 cols=cfg["news"][1], seed=seed),
    }
    suites = {k: label_suite(p, cv=cfg["cv"], n_jobs=n_jobs, seed=seed, progress=progress)
              for k, p in problems.items()}
    model = refit(list(suites.values()))
    tests = dimension_sets(cfg["dims"], rows_per_class=cfg["dim_rows"],
                           train_rows=problems["Webtext Sentences"]["rows"], seed=seed)
    dim_suites = {p["dimension"]: label_suite(p, cv=cfg["cv"], n_jobs=n_jobs, seed=seed)
                  for p in tests}
    uci = {}
    for name in ("wine", "breast_cancer", "soybean_small"):
        p = uci_problem(name, rows=cfg["uci_rows"], seed=seed)
        uci[name] = (p, label_suite(p, cv=cfg["cv"], n_jobs=n_jobs, seed=seed))
    rnd_problem = add_random_columns(problems["Webtext Sentences"], 0.25, seed=seed)
    rnd, rnd_suite = random_column_experiment(rnd_problem, paper_model(), cv=cfg["cv"],
                                              seed=seed, n_jobs=n_jobs)
    rnd_refit, _ = random_column_experiment(rnd_problem, model, suite=rnd_suite)
    return {"problems": problems, "suites": suites, "model": model, "dim_suites": dim_suites,
            "dim_problems": tests, "uci": uci, "random": rnd,
            "random_refit": rnd_refit, "random_suite": rnd_suite}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m fsbook.experiments geometry",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="paper-sized protocol (Table 3 sizes)")
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results/geometry.json")
    args = ap.parse_args(argv)
    res = run("full" if args.full else "chapter", n_jobs=args.n_jobs, seed=args.seed,
              progress=True)
    paper, refitted = paper_model(), res["model"]
    out = {"setting": "full" if args.full else "chapter", "seed": args.seed,
           "table2_refit": {f"{k[0]}:{k[1]}": v for k, v in refitted.coefficients().items()},
           "table3": {k: suite_summary(res["problems"][k], s) for k, s in res["suites"].items()},
           "table4": {k: {"paper_model": selector_scores(s, paper),
                          "refit_model": selector_scores(s, refitted)}
                      for k, s in res["suites"].items()},
           "table5": {str(d): {"paper_model": selector_scores(s, paper),
                               "refit_model": selector_scores(s, refitted)}
                      for d, s in res["dim_suites"].items()},
           "table6": {k: {"dimension": int(p["X"].shape[1]), "type": p["kind"],
                          "paper_model": selector_scores(s, paper),
                          "refit_model": selector_scores(s, refitted)}
                      for k, (p, s) in res["uci"].items()},
           "random_columns": {"paper_model": res["random"].to_dict(orient="records"),
                              "refit_model": res["random_refit"].to_dict(orient="records")}}
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, default=lambda o: o.item() if hasattr(o, "item")
                               else str(o)))
    print(f"wrote {path}")
    return 0


def plot_figure1(suite, stats_table=None):
    """Figure 1: standardised f1-f6 against standardised performance with regression lines."""
    import matplotlib.pyplot as plt
    st = figure1_stats(suite) if stats_table is None else stats_table
    fig, axes = plt.subplots(2, 3, figsize=(11, 6.5), sharey=True)
    for i, ax in enumerate(axes.ravel()):
        z = suite[f"z{i + 1}"].to_numpy()
        t = suite["accuracy_z"].to_numpy() if i != 3 else standardize_within(
            suite[["f1_score"]].to_numpy(), suite["split"].to_numpy())[:, 0]
        ax.scatter(z, t, s=8, alpha=0.4, c=np.where(suite["optimal"], "C1", "C0"))
        row = st.loc[f"f{i + 1}"]
        if np.isfinite(row["slope"]):
            xs = np.linspace(z.min(), z.max(), 2)
            ax.plot(xs, np.mean(t) + row["slope"] * (xs - np.mean(z)), "k-")
        ax.set_title(f"f{i + 1}: slope {row['slope']:.2f}, p = {row['p']:.1g}", fontsize=9)
        ax.set_xlabel(f"z(f{i + 1})")
    axes[0, 0].set_ylabel("z(accuracy)")
    axes[1, 0].set_ylabel("z(accuracy); f4: z(F1)")
    fig.suptitle("Figure 1 (ours): orange = wrapper-optimal sets")
    fig.tight_layout()
    return fig


def plot_timing(df, exp_ours, exp_naive):
    """Figure 3 (CPU time part): log-log time against dimension."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(df["dimension"], df["ours_s"], "o-", label=f"ours (slope {exp_ours:.2f})")
    ok = df["naive_s"].notna()
    ax.loglog(df.loc[ok, "dimension"], df.loc[ok, "naive_s"], "s-",
              label=f"naive m+2 SVDs (slope {exp_naive:.2f})")
    ax.set_xlabel("number of columns n")
    ax.set_ylabel("CPU seconds")
    ax.legend()
    fig.tight_layout()
    return fig

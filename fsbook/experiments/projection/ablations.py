"""Why chapter 1's levels differ from the paper's: declared ablations of its protocols.

Every level the chapter prints differs from the paper's
(:func:`fsbook.experiments.projection.claims.agreement_table`,
:func:`fsbook.experiments.projection.text.agreement_table`). Each candidate explanation is one
setting the paper leaves unstated and the book chose; an *ablation* changes that one setting, and
nothing else, for the model whose level differs most on each data set, on the paper's own runs (the
same splits and seeds as the stored protocols: the seeds come from the run and pair), and measures
how much of the gap to the paper's number it closes.

=================  ==================  ======================================================
data set           model (table)       settings (:data:`SETTINGS`; ``"book"``: the protocol's)
=================  ==================  ======================================================
Boston housing     Ridge, PCR, PLS     the R² definition (test targets against the training
                   (Table 1)           mean), no standardisation, the target standardised too;
                                       read from the book's runs: the paper's coarse α grid
                                       (ridge; also with no standardisation) and the paper's
                                       d = 11 (PCR, PLS)
20 Newsgroups      L2-LGR (Table 2,    headers removed, binary words, tf-idf, unit-length
                   2 %)                counts, stop words removed before the vocabulary rule,
                                       a vocabulary of the paper's size
Yale faces         SVM-GDA, SVM-Kernel raw pixels, standardised pixels, no kernel offset, a fine
                   (Table 6, 5 per     C grid, ties of the C search to the smallest C
                   subject)
=================  ==================  ======================================================

The tasks reuse the protocols' functions with one setting overridden
(:func:`~fsbook.experiments.projection.boston.boston_run`,
:func:`~fsbook.experiments.projection.newsgroups.newsgroups_pair`,
:func:`~fsbook.experiments.projection.text.lgr_record`,
:func:`~fsbook.experiments.projection.yale.yale_task`); the ``"book"`` tasks recompute the stored
protocols' values.  :func:`ablation_table` decides each explanation (:data:`ABLATIONS`).

The tasks with the headers removed re-read the raw archive
``text/20newsgroups/20news-bydate.tar.gz`` of the raw data folder (the environment variable
``FSBOOK_SOURCE_DIR``, default ``../shared/data`` beside the clone, as ``python -m
fsbook.datasets build``), which the committed ``data/`` does not hold (it has the counts only);
without it they raise :class:`~fsbook.experiments._runner.RawDataUnavailable`, which ``verify``
reports as skipped.

``--full``: every one of the paper's 500 Boston runs; the paper's 20 runs of every 5th pair (38)
of 20 Newsgroups; 10 of the paper's 50 runs of every 3rd pair (35) of Yale faces (a task of the
fine C grid costs about 0.6 CPU-seconds, the others 0.02 to 0.09): 9 420 tasks, about 10
CPU-minutes.  ``make_tasks(False)`` is a subsample
of it (20 Boston runs, 2 runs of every 20th and every 15th pair).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfTransformer
from sklearn.preprocessing import normalize

from fsbook.claims import ALPHA, paired_test
from fsbook.datasets import load_20newsgroups
from fsbook.datasets._location import repo_root
from fsbook.datasets._store import decode_strings, sparse_from_arrays
from fsbook.datasets._text import parse_20newsgroups
from fsbook.decisions import RTOL, argbest
from fsbook.experiments._runner import Protocol, RawDataUnavailable
from fsbook.experiments.projection.boston import boston_data, boston_run
from fsbook.experiments.projection.newsgroups import (
    newsgroups_corpus,
    newsgroups_pair,
    newsgroups_sample,
    newsgroups_vocabulary,
)
from fsbook.experiments.projection.paper import (
    AGREEMENT_MARGIN,
    FINE_GRID,
    GRID,
    NEWS_PAIRS,
    PAPER,
    YALE_K,
    YALE_PAIRS,
    YALE_TIES,
)
from fsbook.experiments.projection.paper import VERSION as PROJECTION_VERSION
from fsbook.experiments.projection.tables import balanced_block
from fsbook.experiments.projection.text import PAPER as PAPER_TEXT
from fsbook.experiments.projection.text import lgr_record
from fsbook.experiments.projection.yale import yale_data, yale_grams, yale_seed, yale_setup, yale_task
from fsbook.report import format_value, join_words

VERSION = "1"
#: the table of each data set whose levels are ablated
NEWS_TABLE, YALE_TABLE = "table2", "table6"
#: the paper's vocabulary size is reached (1 446 words, the nearest) with each group's 256 most
#: frequent remaining words instead of 200
NEWS_PER_GROUP_PAPER_SIZE = 256
#: the settings of each part: ``{part: {setting: overrides}}`` ("book": the protocol's own)
SETTINGS = {
    "boston": {"book": {}, "R² against the training mean": {"score": "training mean"},
               "no standardisation": {"scaling": "none"},
               "target standardised too": {"scaling": "features and target"}},
    "news": {"book": {}, "headers removed": {"headers": False}, "binary words": {"weights": "binary"},
             "tf-idf": {"weights": "tf-idf"}, "unit-length counts": {"weights": "unit length"},
             "stop words removed first": {"vocabulary": "stop words"},
             "the paper's vocabulary size": {"vocabulary": "paper size"}},
    "yale": {"book": {}, "raw pixels": {"images": "none"}, "standardised pixels": {"images": "standardised"},
             "no kernel offset": {"coef0": 0.0}, "fine C grid": {"grid": "fine"},
             "ties to the smallest C": {"tie": "first"}},
}
#: runs and pairs of each part, full protocol and subsample
RUNS = {True: {"boston": 500, "news": 20, "yale": 10}, False: {"boston": 20, "news": 2, "yale": 2}}
PAIRS = {True: {"news": NEWS_PAIRS[::5], "yale": YALE_PAIRS[::3]},
         False: {"news": NEWS_PAIRS[::20], "yale": YALE_PAIRS[::15]}}
#: the face models whose errors the Yale tasks store
YALE_MODELS = ("SVM-Kernel", "SVM-GDA")


def make_tasks(full):
    """``{"part", "setting", "run"}`` (Boston) and ``{"part", "setting", "run", "pair"}`` (20
    Newsgroups, Yale faces) for every setting of :data:`SETTINGS`, grouped by setting and run
    (a face run's Gram matrices are computed once)."""
    runs, pairs = RUNS[full], PAIRS[full]
    tasks = [{"part": "boston", "setting": s, "run": r} for s in SETTINGS["boston"] for r in range(runs["boston"])]
    for part in ("news", "yale"):
        tasks += [{"part": part, "setting": s, "run": r, "pair": list(p)}
                  for s in SETTINGS[part] for r in range(runs[part]) for p in pairs[part]]
    return tasks


# ============================================================================ Boston
def r2_training_mean(y_test, prediction, y_train):
    """``1 − SSE / Σ (y_test − ȳ_train)²``: R² against the training sample's mean.

    Examples
    --------
    >>> float(r2_training_mean(np.array([1.0, 3.0]), np.array([1.0, 3.0]), np.array([0.0])))
    1.0
    """
    return 1.0 - np.sum((y_test - prediction) ** 2) / np.sum((y_test - np.mean(y_train)) ** 2)


def _run_boston(params):
    """One Boston run under its setting: :func:`~fsbook.experiments.projection.boston.boston_run` without
    the projection models."""
    over = SETTINGS["boston"][params["setting"]]
    X, y = boston_data()
    score = r2_training_mean if over.get("score") == "training mean" else None
    out = boston_run(params["run"], X, y, scaling=over.get("scaling", "features"), score=score,
                     projections=False)
    return {m: out[m] for m in ("Ridge", "PCR", "PLS")}


# ============================================================================ 20 Newsgroups
def source_dir() -> Path:
    """The raw data folder: ``FSBOOK_SOURCE_DIR``, else ``../shared/data`` beside the clone."""
    return Path(os.environ.get("FSBOOK_SOURCE_DIR", repo_root().parent / "shared" / "data"))


@functools.lru_cache(maxsize=1)
def _news_without_headers():
    """``(X_train, y_train, X_test, y_test, words)``: counts of the posts without their headers
    (:func:`fsbook.datasets._text.parse_20newsgroups`, ``headers=False``), in the stored
    corpus's order."""
    archive = source_dir() / "text/20newsgroups/20news-bydate.tar.gz"
    if not archive.is_file():
        raise RawDataUnavailable(f"the posts with their headers removed need the raw archive {archive} "
                                 "(set FSBOOK_SOURCE_DIR to the raw data folder)")
    arrays, _ = parse_20newsgroups(source_dir(), headers=False)
    X = sparse_from_arrays(arrays).astype(float).tocsr()
    target, subset = np.asarray(arrays["target"], dtype=np.int64), np.asarray(arrays["subset"])
    if not np.array_equal(target, load_20newsgroups().target):
        raise ValueError("the archive's posts are not in the stored corpus's order")
    tr, te = subset == 0, subset == 1
    return X[tr], target[tr], X[te], target[te], np.asarray(decode_strings(arrays["vocabulary"]))


def _weighted(Xtr, Xte, weights):
    """The counts reweighted: ``"counts"``, ``"binary"`` (presence), ``"tf-idf"`` (idf of the
    training corpus, rows of unit length) or ``"unit length"`` (rows of unit ℓ2 norm)."""
    if weights == "counts":
        return Xtr, Xte
    if weights == "binary":
        return (Xtr > 0).astype(float).tocsr(), (Xte > 0).astype(float).tocsr()
    if weights == "tf-idf":
        tf = TfidfTransformer().fit(Xtr)
        return tf.transform(Xtr).tocsr(), tf.transform(Xte).tocsr()
    if weights == "unit length":
        return normalize(Xtr).tocsr(), normalize(Xte).tocsr()
    raise ValueError(f"unknown weights {weights!r}")


@functools.lru_cache(maxsize=2)
def news_corpus(headers=True, weights="counts", vocabulary="book"):
    """``(X_train, y_train, X_test, y_test)`` of the text tasks under one setting: the posts with
    or without headers, the vocabulary rule of Section 3.2 (``"book"``: as the protocol;
    ``"stop words"``: scikit-learn's English stop words removed first; ``"paper size"``: each
    group's :data:`NEWS_PER_GROUP_PAPER_SIZE` words) and the word weights (:func:`_weighted`).
    The book's setting is :func:`~fsbook.experiments.projection.newsgroups.newsgroups_corpus` itself."""
    if headers and vocabulary == "book":
        Xtr, ytr, Xte, yte = newsgroups_corpus()
    else:
        if headers:
            tr, te = load_20newsgroups(subset="train"), load_20newsgroups(subset="test")
            Xa, ytr, Xb, yte = tr.data.astype(float).tocsr(), tr.target, te.data.astype(float).tocsr(), te.target
            words = np.asarray(tr.feature_names)
        else:
            Xa, ytr, Xb, yte, words = _news_without_headers()
        keep = np.arange(Xa.shape[1])
        per_group = 200
        if vocabulary == "stop words":
            keep = np.flatnonzero(~np.isin(words, sorted(ENGLISH_STOP_WORDS)))
        elif vocabulary == "paper size":
            per_group = NEWS_PER_GROUP_PAPER_SIZE
        elif vocabulary != "book":
            raise ValueError(f"unknown vocabulary {vocabulary!r}")
        cols = keep[newsgroups_vocabulary(Xa[:, keep], ytr, per_group=per_group)]
        Xtr, Xte = Xa[:, cols].tocsr(), Xb[:, cols].tocsr()
    Xtr, Xte = _weighted(Xtr, Xte, weights)
    return Xtr, ytr, Xte, yte


def _run_news(params):
    """One (run, pair) task of Table 2 under its setting: L2-LGR on the task's sampled training
    posts (:func:`~fsbook.experiments.projection.newsgroups.newsgroups_sample`), cross-validated and refitted
    as the protocol does (:func:`~fsbook.experiments.projection.text.lgr_record`)."""
    over = SETTINGS["news"][params["setting"]]
    corpus = news_corpus(over.get("headers", True), over.get("weights", "counts"), over.get("vocabulary", "book"))
    a = newsgroups_pair({"table": NEWS_TABLE, "topics": None, **params}, topics=False, corpus=corpus)
    idx = newsgroups_sample(a["y_tr"], a["frac"], a["seed"])
    rec = lgr_record(a["X_tr"][idx], a["y_tr"][idx], a["X_te"], a["y_te"], GRID, a["seed"])
    return {"L2-LGR": {"error": rec["error"], "C": rec["C"]}}


# ============================================================================ Yale faces
@functools.lru_cache(maxsize=2)
def _yale_run(setting, run):
    """``(is_train, {model: Gram matrix})`` of one face run of :data:`YALE_TABLE` under a setting."""
    over = SETTINGS["yale"][setting]
    X, y = yale_data()
    _, is_train, Zs, K = yale_setup(X, y, YALE_K[YALE_TABLE], run, images=over.get("images", "unit"),
                                     coef0=over.get("coef0", 1.0))
    grams = yale_grams(K, {"GDA": Zs["GDA"]}, [])
    return is_train, {m: grams[m] for m in YALE_MODELS}


def _run_yale(params):
    """One (run, pair) face task under its setting: :func:`~fsbook.experiments.projection.yale.yale_task`
    on SVM-Kernel's and SVM-GDA's Gram matrices."""
    over = SETTINGS["yale"][params["setting"]]
    _, y = yale_data()
    is_train, grams = _yale_run(params["setting"], params["run"])
    pair = tuple(params["pair"])
    fits = yale_task(grams, y, is_train, pair, yale_seed(params["run"], pair),
                     tie=over.get("tie", YALE_TIES[PROJECTION_VERSION]),
                     grid=FINE_GRID if over.get("grid") == "fine" else GRID)
    return {m: {"error": err, "C": C} for m, (_, err, C) in fits.items()}


PARTS = {"boston": _run_boston, "news": _run_news, "yale": _run_yale}


def run_task(params):
    """One task of :data:`PROTOCOL` (:func:`make_tasks`), by its part's function."""
    if params.get("part") not in PARTS or params.get("setting") not in SETTINGS.get(params.get("part"), {}):
        raise ValueError(f"not a task of projection_ablations: {params!r}")
    return PARTS[params["part"]](params)


# ============================================================================ the decisions
@dataclass(frozen=True)
class Ablation:
    """One candidate explanation: ``setting``'s tasks of ``part`` against the book's, for
    ``model``; ``read`` reads another value of the book's own tasks instead (``"paper grid"``:
    ridge on the paper's α grid; ``"d=11"``: the model at the paper's d)."""

    part: str
    model: str
    explanation: str
    setting: str = "book"
    read: str = ""


#: the candidate explanations, one a row of :func:`ablation_table`
ABLATIONS = [
    Ablation("boston", "Ridge", "R² against the training mean", "R² against the training mean"),
    Ablation("boston", "Ridge", "no standardisation", "no standardisation"),
    Ablation("boston", "Ridge", "target standardised too", "target standardised too"),
    Ablation("boston", "Ridge", "the paper's α grid", read="paper grid"),
    Ablation("boston", "Ridge", "no standardisation, paper's α grid", "no standardisation",
             read="paper grid"),
    Ablation("boston", "PCR", "the paper's d = 11", read="d=11"),
    Ablation("boston", "PLS", "the paper's d = 11", read="d=11"),
    Ablation("news", "L2-LGR", "headers removed", "headers removed"),
    Ablation("news", "L2-LGR", "binary words", "binary words"),
    Ablation("news", "L2-LGR", "tf-idf", "tf-idf"),
    Ablation("news", "L2-LGR", "counts of unit length", "unit-length counts"),
    Ablation("news", "L2-LGR", "stop words removed first", "stop words removed first"),
    Ablation("news", "L2-LGR", "the paper's vocabulary size", "the paper's vocabulary size"),
    *[Ablation("yale", m, e, s) for m in YALE_MODELS for e, s in (
        ("raw pixels", "raw pixels"), ("standardised pixels", "standardised pixels"),
        ("no kernel offset", "no kernel offset"), ("a fine C grid", "fine C grid"),
        ("ties to the smallest C", "ties to the smallest C"))],
]
#: how the tables name each part, and the paper's table each is compared with
DATA = {"boston": "Boston (Table 1)", "news": "20 Newsgroups (Table 2, 2 %)",
        "yale": "Yale faces (Table 6, 5 per subject)"}
#: the verdicts of :func:`ablation_table`
EXPLAINS, PART, NOT = "explains", "explains part", "does not explain"


def paper_level(part, model):
    """The paper's printed level of ``model`` in the table :data:`DATA` names."""
    if part == "boston":
        return PAPER["table1"]["mean"][model]
    if part == "news":
        return PAPER_TEXT[NEWS_TABLE]["mean"][model]
    return PAPER[YALE_TABLE]["mean"][model]


def _boston_values(rows, model, read):
    """Per-run test R² (%) of ``model`` in Boston ``rows`` (``[(run, result)]``): ridge on the fine
    grid (or the paper's, ``read="paper grid"``); PCR and PLS at their best d over these runs
    (Table 1's rule) or at ``read="d=11"``."""
    runs = [r for r, _ in rows]
    if model == "Ridge":
        grid = "paper" if read == "paper grid" else "fine"
        return pd.Series([res["Ridge"][grid] * 100 for _, res in rows], index=runs)
    ds = sorted(int(d) for d in rows[0][1][model])
    R = np.array([[res[model][str(d)] if str(d) in res[model] else res[model][d] for d in ds] for _, res in rows]) * 100
    k = ds.index(int(read[2:])) if read.startswith("d=") else argbest(R.mean(axis=0), rtol=RTOL)
    return pd.Series(R[:, k], index=runs)


def _pair_values(rows, model):
    """Per-run error (%) of ``model``: each run's mean over the pairs of ``rows`` (``[(run, pair,
    result)]``)."""
    df = pd.DataFrame([{"run": r, "e": res[model]["error"]} for r, _, res in rows])
    return df.groupby("run")["e"].mean() * 100


def _paired(results, ab):
    """``(book, with)``: per-run values (Series over the same runs) of the book's setting and of
    the ablation's, over the (run, pair) cells present in both (their largest complete block of
    runs × pairs, :func:`~fsbook.experiments.projection.tables.balanced_block`)."""
    cells = {}
    for p, r in zip(results.params, results.results):
        if p["part"] == ab.part and p["setting"] in ("book", ab.setting):
            cells.setdefault(p["setting"], {})[(p["run"], tuple(p.get("pair", ())))] = r
    if "book" not in cells or ab.setting not in cells:
        return None
    common = sorted(set(cells["book"]) & set(cells[ab.setting]))
    if not common:
        return None
    runs, pairs = balanced_block(common)
    keys = [(r, p) for r in runs for p in pairs]
    if ab.part == "boston":
        return (_boston_values([(r, cells["book"][(r, p)]) for r, p in keys], ab.model, ""),
                _boston_values([(r, cells[ab.setting][(r, p)]) for r, p in keys], ab.model, ab.read))
    return tuple(_pair_values([(r, p, cells[s][(r, p)]) for r, p in keys], ab.model) for s in ("book", ab.setting))


def decide(book, ablated, paper, margin=AGREEMENT_MARGIN):
    """One explanation's row: how far the setting moves our level toward the paper's.

    ``change`` is the paired mean of ``ablated − book`` signed so that a positive value closes
    the gap ``book − paper`` (paired t over the runs, :func:`fsbook.claims.paired_test`, with its
    95 % interval).  Verdict: :data:`EXPLAINS` when the change is significant (p < 0.05) toward
    the paper and the gap left, ``mean(ablated) − paper``, is within ``margin``; :data:`PART`
    when it is significant toward the paper and the gap left is smaller than before but beyond
    the margin; :data:`NOT` otherwise (no significant change, a change away from the paper, or
    past it by more than the gap).

    Examples
    --------
    >>> book, noise = np.array([60.0, 61.0, 59.0, 60.5]), np.array([0.1, -0.1, 0.2, -0.2])
    >>> decide(book, book - 10.2 + noise, paper=50.0)["verdict"], decide(book, book - 4 + noise, paper=50.0)["verdict"]
    ('explains', 'explains part')
    >>> decide(book, book + noise, paper=50.0)["verdict"]
    'does not explain'
    """
    book, ablated = np.asarray(book, dtype=float), np.asarray(ablated, dtype=float)
    before = float(book.mean() - paper)
    sign = -1.0 if before > 0 else 1.0
    t = paired_test(sign * (ablated - book), "paired_t")
    after = float(ablated.mean() - paper)
    closes = np.isfinite(t["p"]) and t["p"] < ALPHA and t["effect"] > 0
    verdict = (EXPLAINS if closes and abs(after) <= margin else
               PART if closes and abs(after) < abs(before) else NOT)
    return {"paper": float(paper), "book": float(book.mean()), "with it": float(ablated.mean()),
            "gap before": before, "change": t["effect"], "ci_low": t["ci_low"], "ci_high": t["ci_high"],
            "p": t["p"], "gap after": after, "runs": int(book.size), "verdict": verdict}


def ablation_table(results, ablations=None, margin=AGREEMENT_MARGIN):
    """The decision of every declared explanation (:data:`ABLATIONS`) on the stored ablation tasks.

    Each row pairs the runs of an explanation's setting with the book's (same runs, same pairs):
    per run, Boston's test R² (%) and the faces' and texts' error (%) averaged over the run's
    pairs; :func:`decide` gives the change of the gap to the paper's level and the verdict.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL, allow_partial=True)`` (or any object with ``params`` and ``results``).
    ablations : list of Ablation, optional
        Default :data:`ABLATIONS`; those whose tasks are absent are left out.
    margin : float
        The agreement margin, :data:`~fsbook.experiments.projection.paper.AGREEMENT_MARGIN` by default.

    Returns
    -------
    pandas.DataFrame
        One row per explanation: ``data set``, ``model``, ``explanation`` and :func:`decide`'s keys.

    Examples
    --------
    >>> task = lambda s, run, e: ({"part": "yale", "setting": s, "run": run, "pair": [0, 1]},
    ...                           {m: {"error": e, "C": 1.0} for m in YALE_MODELS})
    >>> tasks = [task("book", r, 0.04 + 0.001 * r) for r in range(4)]
    >>> tasks += [task("raw pixels", r, 0.09 + 0.002 * r) for r in range(4)]
    >>> store = SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])
    >>> t = ablation_table(store)
    >>> t[["model", "explanation", "verdict"]].values.tolist()[0]
    ['SVM-Kernel', 'raw pixels', 'explains part']
    >>> round(float(t["change"].iloc[0]), 2)          # 5.15 points toward the paper's 12.68 %
    5.15
    """
    rows = []
    for ab in ABLATIONS if ablations is None else ablations:
        pair = _paired(results, ab)
        if pair is None:
            continue
        rows.append({"data set": DATA[ab.part], "model": ab.model, "explanation": ab.explanation,
                     **decide(pair[0].to_numpy(), pair[1].to_numpy(), paper_level(ab.part, ab.model), margin)})
    return pd.DataFrame(rows)


#: how :func:`verdict_words` opens the sentence of each verdict
VERDICT_WORDS = {EXPLAINS: "Explains the gap", PART: "Explains part of it", NOT: "Does not explain it"}


def verdict_words(table, data):
    """The verdicts of one data set's rows of :func:`ablation_table` in words: one sentence per
    verdict, each explanation with its model's level with and without it (points, two decimals)
    and the paper's, and "past the paper's level" where the setting moves the level beyond the
    paper's by more than the gap closed leaves (``gap before`` and ``gap after`` of opposite
    signs, the verdict not :data:`EXPLAINS`).

    Examples
    --------
    >>> t = pd.DataFrame({"data set": "D", "model": ["M", "M", "M"], "explanation": ["a", "b", "c"],
    ...                   "book": [10.0, 10.0, 10.0], "with it": [12.4, 10.1, 16.0], "paper": 12.5,
    ...                   "verdict": [EXPLAINS, NOT, NOT]})
    >>> verdict_words(t.assign(**{"gap before": -2.5, "gap after": t["with it"] - 12.5}), "D")  # doctest: +NORMALIZE_WHITESPACE
    "Explains the gap: a (M: 10.00 → 12.40, the paper 12.50). Does not explain it: b (M: 10.00 → 10.10,
    the paper 12.50) and c (M: 10.00 → 16.00, the paper 12.50: past the paper's level)."
    """
    rows = table[table["data set"] == data]
    out = []
    for verdict, opening in VERDICT_WORDS.items():
        r = rows[rows["verdict"] == verdict]
        if len(r):
            items = [f"{e} ({m}: {format_value(b, 2)} → {format_value(w, 2)}, the paper {format_value(p, 2)}"
                     + (": past the paper's level)" if verdict != EXPLAINS and before * after < 0 else ")")
                     for e, m, b, w, p, before, after in r[["explanation", "model", "book", "with it", "paper",
                                                             "gap before", "gap after"]].itertuples(index=False)]
            out.append(f"{opening}: {join_words(items)}.")
    return " ".join(out)


def reduce(params_list, results_list):
    """``ablations``: :func:`ablation_table` of the tasks present."""
    return {"ablations": ablation_table(SimpleNamespace(params=params_list, results=results_list))}


PROTOCOL = Protocol(name="projection_ablations", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version=VERSION, description="Zhang & Schneider (2010): why our levels differ from the "
                                                 "paper's (one setting changed at a time)")

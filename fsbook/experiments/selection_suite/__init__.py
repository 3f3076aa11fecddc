"""Protocol ``selection_suite``: which selector, when -- the benchmark over the selection suite.

The protocol of chapter 7's second page: the book's selectors, the usual baselines, mRMR and the
all-features control on the data sets of :data:`DATASETS` (five domains, multiclass included),
with the cost of every fit beside its accuracy.  It is declared rather than coded: the data sets
(domain, preprocessing, subsample) and the exclusions of methods are tables, and the methods
are :mod:`fsbook.experiments.benchmark`'s (its :func:`~fsbook.experiments.benchmark.selectors.make_selector`,
settings, SVM grids and tie rule), plus :class:`~fsbook.baselines.MRMR`.

A task is ``(dataset, repeat, fold, n_folds, method, ks)``.  Data: every set is loaded by its
loader with its stated preprocessing (:data:`DATASETS`); a set of more than :data:`MAX_SAMPLES`
samples is subsampled once, stratified, with a seed derived from its name (:func:`load`).  The
folds are a stratified ``n_folds``-fold split shuffled with a seed derived from ``(dataset,
repeat, n_folds)`` only (:func:`folds`), so every method sees the same folds: :data:`REPEATS`
independent repetitions of :data:`N_FOLDS`-fold CV per data set.  The sizes ``k`` are the
fractions :data:`FRACTIONS` of the data set's width (:func:`ks_of`, at least 1, below the width,
duplicates dropped); the own-size methods (CFS, GeoRatio) keep their own number, ``none`` all.

On the training fold a pipeline ``StandardScaler → selector`` (HKL and GeoRatio: the unscaled
fold, HKL booleanising it inside the fold as in ``benchmark``) keeps ``k`` features; the
classifier (:data:`CLASSIFIERS`: the RBF SVM, C tuned by inner 3-fold CV on the training fold,
``benchmark``'s grid and tie rule) is trained on the kept columns and scored on the test fold.  The rankers
(:data:`RANKERS`) are fitted once at the largest ``k`` and cut at every ``k``.  Each fit records
its CPU time (:func:`~fsbook.experiments._workers.process_cpu_seconds`, this process and its
waited children) and its peak memory: the largest growth of the process's resident set over
the fit, in MiB, sampled every 5 ms (:class:`~fsbook.experiments._memory.PeakRSS`: every allocation counts, compiled
solvers' included, at no cost to the fit; a spike shorter than 5 ms can be missed).

The page's statistics on the reduced tables (:func:`score_matrix`, :func:`friedman_tests`,
:func:`versus_none`, :func:`effects_vs_none`, :func:`which_selector`, :func:`pareto`,
:func:`stability_summary`, :func:`decided_counts`) and the facts its prose quotes
(:func:`page_facts`, :data:`MARKDOWN_FACTS`) are :mod:`fsbook.experiments.selection_suite.analysis`'s,
re-exported here: the page reads them from this module.

Example (one task of the quick subsample, a few seconds):

>>> from fsbook.experiments import selection_suite as S
>>> t = next(p for p in S.make_tasks(False) if p["dataset"] == "wine" and p["method"] == "MRMR")
>>> r = S.run_task(t)
>>> r["k"] == t["ks"], all(0 <= a <= 1 for a in r["acc_rbf"])
(True, True)
"""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.experiments import benchmark as B
from fsbook.experiments._memory import PeakRSS
from fsbook.experiments._runner import Protocol, task_seed
from fsbook.experiments._workers import process_cpu_seconds
from fsbook.experiments.benchmark.data import attribute_groups
from fsbook.experiments.selection_suite import analysis, comparisons, settings
from fsbook.experiments.selection_suite.analysis import which_selector

__all__ = ["PROTOCOL", "analysis", "comparisons", "settings", "make_tasks", "run_task", "reduce", "claims",
           "design", "facts", "advice", "load", "width", "folds", "fold_data", "make_selector", "support_at"]

VERSION = "1"
#: the version of :mod:`fsbook.experiments.benchmark` whose selector settings and SVM tie rule
#: this store was computed with (the benchmark moved on; this protocol keeps its own)
BENCHMARK_VERSION = "10"


def sources():
    """The data sets of the protocol, in order: :data:`DATASETS`' keys."""
    return list(settings.DATASETS)


@functools.lru_cache(maxsize=4)
def _raw(dataset):
    """``(X, y, feature_names, boolean)`` of a data set as its loader gives it (X float64, dense,
    or sparse CSR for word counts)."""
    from fsbook import datasets as D

    if dataset not in settings.DATASETS:
        raise ValueError(f"unknown dataset {dataset!r}; expected one of {sources()}")
    if dataset in B.paper.FULL_DATASETS:
        return B.data.load(dataset)
    b = getattr(D, f"load_{dataset}")(**settings.DATASETS[dataset][1])
    X = b.data.astype(np.float64) if sp.issparse(b.data) else np.asarray(b.data, dtype=np.float64)
    names = getattr(b, "feature_names", None)
    names = tuple(str(n) for n in names) if names is not None and len(names) == X.shape[1] else \
        tuple(f"x{j}" for j in range(X.shape[1]))
    boolean = bool(np.isin(X.data if sp.issparse(X) else X, (0.0, 1.0)).all())
    return X, np.asarray(b.target), names, boolean


@functools.lru_cache(maxsize=4)
def load(dataset):
    """``(X, y, feature_names, boolean)`` of a data set after its subsample: the rows of a
    stratified sample of :data:`MAX_SAMPLES` (seeded by the data set's name, in their original
    order) when it has more, else every row."""
    X, y, names, boolean = _raw(dataset)
    if len(y) > settings.MAX_SAMPLES:
        keep, _ = train_test_split(np.arange(len(y)), train_size=settings.MAX_SAMPLES, stratify=y,
                                   random_state=task_seed({"dataset": dataset}, "subsample"))
        keep = np.sort(keep)
        X, y = X[keep], y[keep]
    return X, y, names, boolean


def width(dataset):
    """Features every method of a fold sees (``benchmark.VOCABULARY`` on the 20 Newsgroups pair)."""
    return B.paper.VOCABULARY if dataset in B.paper.TEXT_DATASETS else load(dataset)[0].shape[1]


def facts(dataset):
    """``{"n", "d", "classes", "groups"}`` of a data set after subsampling (``groups``: its
    number of nominal attributes, ``None`` for numeric or word columns), what exclusions read."""
    X, y, names, _ = load(dataset)
    groups = attribute_groups(names)
    return {"n": int(len(y)), "d": int(width(dataset)), "classes": int(np.unique(y).size),
            "groups": None if groups is None else len(groups)}


def ks_of(dataset, fractions=settings.FRACTIONS):
    """The sizes k of a data set: ``round(f · min(d, WIDTH_CAP))`` for ``f`` in ``fractions``,
    at least 1 and below ``d``, without duplicates.

    Examples
    --------
    >>> from fsbook.experiments import selection_suite as S
    >>> S.ks_of("wine"), S.ks_of("colon")
    ([1, 3], [10, 25, 50, 100])
    """
    d = width(dataset)
    return sorted({k for k in (max(1, int(round(f * min(d, settings.WIDTH_CAP)))) for f in fractions) if k < d})


def cannot_run(method, dataset):
    """Why ``method`` does not run on ``dataset`` (from :data:`EXCLUSIONS`), or ``None``."""
    if method not in settings.EXCLUSIONS:
        return None
    rule, reason = settings.EXCLUSIONS[method]
    return f"not run: {reason}" if rule(facts(dataset)) else None


def design():
    """The data sets as the protocol uses them: domain, preprocessing, samples after (and
    before) subsampling, width, classes, the sizes k and the methods excluded there."""
    rows = []
    for d, (domain, _, prep) in settings.DATASETS.items():
        f = facts(d)
        rows.append({"dataset": d, "domain": domain, "n": f["n"], "n (before subsampling)": len(_raw(d)[1]),
                     "d": f["d"], "classes": f["classes"], "preprocessing": prep, "ks": ks_of(d),
                     "excluded": ", ".join(m for m in settings.METHODS if cannot_run(m, d))})
    return pd.DataFrame(rows)


def exclusions():
    """The declared exclusions: each excluded method, its reason and the data sets it skips,
    then the methods of chapter 7 this protocol leaves out (:data:`NOT_INCLUDED`) and the suite's
    data sets it leaves out (:data:`LEFT_OUT`)."""
    rows = [{"method": m, "reason": reason.replace("GEO_MAX_GROUPS", str(B.paper.GEO_MAX_GROUPS)),
             "data sets": ", ".join(d for d in settings.DATASETS if cannot_run(m, d))}
            for m, (_, reason) in settings.EXCLUSIONS.items()]
    rows += [{"method": m, "reason": reason, "data sets": "all"} for m, reason in settings.NOT_INCLUDED.items()]
    rows += [{"method": "all", "reason": reason, "data sets": d} for d, reason in settings.LEFT_OUT.items()]
    return pd.DataFrame(rows)


def folds(dataset, repeat, n_folds=settings.N_FOLDS):
    """The stratified folds of ``(dataset, repeat)``, the same for every method."""
    y = load(dataset)[1]
    seed = task_seed({"dataset": dataset, "repeat": repeat, "n_folds": n_folds}, "folds")
    return list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


def fold_data(dataset, train, test):
    """``(X_train, X_test, columns)``: dense matrices of one fold and their columns in the data
    set (a fold vocabulary on the 20 Newsgroups pair, as in ``benchmark``)."""
    X = load(dataset)[0]
    if dataset in B.paper.TEXT_DATASETS:
        columns = B.data.vocabulary(X[train])
        return X[train][:, columns].toarray(), X[test][:, columns].toarray(), columns
    dense = (lambda A: A.toarray()) if sp.issparse(X) else (lambda A: A)
    return dense(X[train]), dense(X[test]), np.arange(X.shape[1])


def make_selector(method, k, seed, boolean=False, groups=None):
    """``benchmark``'s selector of ``method`` (its settings), or :class:`~fsbook.baselines.MRMR`
    (Peng's MID criterion, mean ± std discretisation; the distinct values on 0/1 data)."""
    if method == "MRMR":
        from fsbook.baselines import MRMR

        return MRMR(k, discretise="none" if boolean else "mean_std")
    return B.selectors.make_selector(method, k, seed, boolean, groups, version=BENCHMARK_VERSION)


def support_at(selector, method, k):
    """The ``k`` features a fitted ranker keeps (mRMR: the first ``k`` it chose, the set a fit at
    ``k`` keeps, greedy forward selection being prefix-consistent)."""
    if method == "MRMR":
        return np.sort(selector.ranking_[:k])
    return B.selectors.support_at(selector, method, k)


def _fit(method, k, seed, dataset, X_train, y_train):
    """Fit one selector; ``(fitted, cpu seconds, peak MiB)`` (:class:`~fsbook.experiments._memory.PeakRSS`)."""
    boolean, names = load(dataset)[3], load(dataset)[2]
    groups = attribute_groups(names) if method == "GeoRatio" else None
    scaler = [] if method in B.paper.UNSCALED else [StandardScaler()]
    pipe = make_pipeline(*scaler, make_selector(method, k, seed, boolean, groups))
    with PeakRSS() as memory:
        start = process_cpu_seconds()
        pipe.fit(X_train, y_train)
        cpu = process_cpu_seconds() - start
    return pipe[-1], cpu, memory.peak_mib


def accuracies(X_train, y_train, X_test, y_test, seed, classifiers=tuple(settings.CLASSIFIERS)):
    """Test accuracy of each classifier (``benchmark``'s tuned SVMs; with no column kept, the
    training fold's majority class)."""
    from sklearn.svm import SVC, LinearSVC

    from fsbook.model_selection import tuned_svm

    if X_train.shape[1] == 0:
        labels, counts = np.unique(y_train, return_counts=True)
        return {c: float(np.mean(y_test == labels[np.argmax(counts)])) for c in classifiers}
    models = {"acc_linear": (LinearSVC(random_state=seed, max_iter=5000), B.paper.C_LINEAR),
              "acc_rbf": (SVC(kernel="rbf", gamma="scale"), B.paper.C_RBF)}
    out = {}
    for c in classifiers:
        clf, grid = models[c]
        model = tuned_svm(clf, {"C": grid}, seed, scale=True, tie=B.paper.SVM_TIES[BENCHMARK_VERSION]).fit(X_train, y_train)
        out[c] = float(np.mean(model.predict(X_test) == y_test))
    return out


def run_task(params):
    """Kept sets, accuracies per ``k`` and each fit's CPU time and peak memory (module docstring)."""
    dataset, method = params["dataset"], params["method"]
    if method not in settings.METHODS or dataset not in settings.DATASETS:
        raise ValueError(f"unknown method or data set in {params}")
    reason = cannot_run(method, dataset)
    if reason is not None:
        return {"not_run": reason}
    y = load(dataset)[1]
    train, test = folds(dataset, params["repeat"], params["n_folds"])[params["fold"]]
    X_train, X_test, columns = fold_data(dataset, train, test)
    seed = task_seed(params)
    with warnings.catch_warnings():       # classes of 3 samples in a training half, 3 inner folds
        warnings.filterwarnings("ignore", "The least populated class", UserWarning)
        return _run_selection(params, dataset, method, X_train, X_test, columns, y[train], y[test], seed)


def _run_selection(params, dataset, method, X_train, X_test, columns, y_train, y_test, seed):
    out = {key: [] for key in ("k", "n_selected", *settings.CLASSIFIERS, "fit_cpu", "peak_mib", "support")}
    ranked = None
    for k in params["ks"]:
        cpu = peak = 0.0
        if method == "none":
            support = np.arange(X_train.shape[1])
        elif ranked is not None:
            support = support_at(ranked, method, k)
        else:
            fitted, cpu, peak = _fit(method, max(params["ks"]) if method in settings.RANKERS else k, seed, dataset,
                                     X_train, y_train)
            ranked = fitted if method in settings.RANKERS else None
            support = support_at(fitted, method, k) if method in settings.RANKERS else np.flatnonzero(fitted.get_support())
        acc = accuracies(X_train[:, support], y_train, X_test[:, support], y_test, seed)
        for key, value in (("k", int(k)), ("n_selected", int(support.size)), ("fit_cpu", cpu), ("peak_mib", peak),
                           ("support", np.asarray(columns)[support].tolist()), *acc.items()):
            out[key].append(value)
    if method == "HKL":
        out.update(B.selectors.hkl_certificate(ranked))
    return out


def make_tasks(full):
    """Full: every data set, :data:`REPEATS` × :data:`N_FOLDS` CV, every method.  Quick:
    :data:`QUICK_DATASETS`, the first :data:`QUICK_REPEATS` repetitions, every method but
    :data:`FULL_ONLY` (tasks of the full protocol).  An excluded cell keeps its tasks (they
    return the reason)."""
    datasets, repeats = (sources(), settings.REPEATS) if full else (settings.QUICK_DATASETS, settings.QUICK_REPEATS)
    return [{"dataset": d, "repeat": r, "fold": f, "n_folds": settings.N_FOLDS, "method": m,
             "ks": [0] if m in settings.OWN_SIZE else ks_of(d)}
            for d in datasets for r in range(repeats) for f in range(settings.N_FOLDS)
            for m in settings.METHODS if full or m not in settings.FULL_ONLY]


def rank_k(dataset):
    """The ``k`` at which methods are ranked on a data set: :data:`RANK_FRACTION` of its width
    up to :data:`WIDTH_CAP` (at least 1; one of :func:`ks_of`)."""
    return max(1, int(round(settings.RANK_FRACTION * min(width(dataset), settings.WIDTH_CAP))))


def _long(params_list, results_list):
    rows = []
    for p, r in zip(params_list, results_list):
        if "not_run" in r:
            continue
        domain = settings.DATASETS[p["dataset"]][0]
        for i, k in enumerate(r["k"]):
            rows.append({"dataset": p["dataset"], "domain": domain, "method": p["method"], "repeat": p["repeat"],
                         "fold": p["fold"], "k": k, "n_selected": r["n_selected"][i],
                         **{c: 100 * r[c][i] for c in settings.CLASSIFIERS}, "fit_cpu": r["fit_cpu"][i],
                         "peak_mib": r["peak_mib"][i], "support": tuple(r["support"][i])})
    columns = ["dataset", "domain", "method", "repeat", "fold", "k", "n_selected", *settings.CLASSIFIERS, "fit_cpu",
               "peak_mib", "support"]
    return pd.DataFrame(rows, columns=columns)


def interval(values, level=0.95):
    """``(mean, low, high)`` of the mean of independent values (Student's t interval; the
    repetition means of one data set).

    Examples
    --------
    >>> [round(v, 3) for v in interval([1.0, 2.0, 3.0])]
    [2.0, -0.484, 4.484]
    """
    from scipy import stats

    v = np.asarray(values, dtype=float)
    m = float(v.mean())
    if v.size < 2:
        return m, float("nan"), float("nan")
    h = stats.t.ppf(0.5 + level / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size)
    return m, float(m - h), float(m + h)


def _accuracy(df):
    rows = []
    for (d, dom, m, k), g in df.groupby(["dataset", "domain", "method", "k"], sort=False):
        row = {"dataset": d, "domain": dom, "method": m, "k": k, "n_selected": g["n_selected"].mean(),
               "rank_k": bool(m in settings.OWN_SIZE or k == rank_k(d)), "repeats": g["repeat"].nunique()}
        for c in settings.CLASSIFIERS:
            row[c], row[f"{c}_low"], row[f"{c}_high"] = interval(g.groupby("repeat")[c].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def reduce(params_list, results_list):
    """Tables:

    * ``accuracy``: per data set, method and ``k`` (0: own size or all features), the
      classifier's mean test accuracy (%) with the 95 % t interval over the repetition means
      (:func:`interval`), ``rank_k`` marking the point the statistics rank (:func:`rank_k`);
    * ``folds``: every test fold's accuracies (the paired units of the claims);
    * ``cost``: per data set and method, the mean fit CPU seconds of a task (its fits summed
      over ``k``) and the largest peak memory growth (MiB, :class:`~fsbook.experiments._memory.PeakRSS`);
    * ``stability``: Kuncheva's index of the two folds' kept sets, mean over repetitions, per
      data set, method and ``k`` (NaN where sizes differ);
    * ``not_run``: the excluded cells and their reasons; ``hkl_fits``: HKL's certificates.
    """
    df = _long(params_list, results_list)
    runs = pd.DataFrame([{"dataset": p["dataset"], "method": p["method"], "fit_cpu": sum(r["fit_cpu"]),
                          "peak_mib": max(r["peak_mib"])} for p, r in zip(params_list, results_list)
                         if "not_run" not in r], columns=["dataset", "method", "fit_cpu", "peak_mib"])
    cost = runs.groupby(["dataset", "method"], sort=False).agg(fit_cpu=("fit_cpu", "mean"),
                                                               peak_mib=("peak_mib", "max")).reset_index()
    cost.insert(1, "domain", cost["dataset"].map(lambda d: settings.DATASETS[d][0]))
    stab = pd.DataFrame([{"dataset": d, "method": m, "k": k, "kuncheva": B.tables.kuncheva_by_repeat(g, width(d))}
                         for (d, m, k), g in df[df.method != "none"].groupby(["dataset", "method", "k"], sort=False)],
                        columns=["dataset", "method", "k", "kuncheva"])
    return {"accuracy": _accuracy(df), "folds": df.drop(columns=["support"]), "cost": cost, "stability": stab,
            "not_run": B.tables.not_run_table(params_list, results_list),
            "hkl_fits": B.tables.hkl_fits_by_dataset(params_list, results_list)}


def order_margins(design):
    """The declared margin of every order claim on a data set, in accuracy points: one test
    prediction of a repetition, ``100 / n`` for the ``n`` samples the protocol uses
    (:func:`fsbook.experiments.benchmark.paper.order_margin`; each of :data:`REPEATS` repetitions of
    :data:`N_FOLDS`-fold CV tests every sample once, and the claims pair the repetition means).
    Declared from the design, before any verdict: 0.1 points on a data set subsampled to
    :data:`MAX_SAMPLES`, more on a smaller one.

    Parameters
    ----------
    design : DataFrame
        :func:`design`'s table (columns ``dataset`` and ``n``).

    Returns
    -------
    dict
        ``{data set: margin}``.

    Examples
    --------
    >>> import pandas as pd
    >>> order_margins(pd.DataFrame({"dataset": ["a", "b"], "n": [1000, 50]}))
    {'a': 0.1, 'b': 2.0}
    """
    return {d: B.paper.order_margin(int(n), "repetitions", settings.N_FOLDS) for d, n in zip(design["dataset"], design["n"])}


def claims(results, design=None):
    """Every comparison the page decides, on the stored folds: per data set, each selector above
    all features by the paired t over the repetition means (Holm within each selector's family of
    data sets, :func:`~fsbook.experiments.selection_suite.comparisons.claims_vs_none`), then per scope (all data
    sets, each domain, each shape) each selector above all features over the scope's data sets by
    the Wilcoxon signed-rank test (Holm within the scope,
    :func:`~fsbook.experiments.selection_suite.comparisons.over_datasets_vs_none`).  Every claim carries its
    declared margin (:func:`order_margins`; over data sets their Hodges–Lehmann estimate,
    :func:`fsbook.experiments.benchmark.over_datasets_margin`).

    Parameters
    ----------
    results : ProtocolResult
        The stored protocol (:func:`~fsbook.experiments.read_store`).
    design : DataFrame, optional
        The protocol's :func:`design`, when the caller has built it already (building it loads
        every data set); built here when omitted.

    Returns
    -------
    DataFrame
        A claims table with ``dataset``, ``domain``, ``method`` and ``scope`` columns (``scope``
        empty on per-data-set rows, ``dataset`` empty on the rows over data sets).
    """
    t = results.tables
    design = _given_or_built(design)
    margins = order_margins(design)
    per = comparisons.claims_vs_none(t["accuracy"], t["folds"], margins).assign(scope="")
    over = comparisons.over_datasets_vs_none(t["accuracy"], design, margins=margins).assign(dataset="", domain="")
    return pd.concat([per, over], ignore_index=True)


def _given_or_built(given_design):
    """``given_design``, or the protocol's :func:`design` when it is ``None``."""
    return design() if given_design is None else given_design


def advice(results, scopes=None, design=None):
    """The page's "which selector, when" table from the stored protocol
    (:func:`which_selector` over the decisions over data sets
    of :func:`claims`, :func:`~fsbook.experiments.selection_suite.comparisons.over_datasets_vs_none`; the
    per-data-set claims, which it does not use, are not computed), indexed by scope; ``scopes``
    keeps those rows, in that order; ``design`` is the protocol's :func:`design` when the caller
    has built it (built here when omitted).

    Also ``advice(results).attrs["effects"]``: per scope and selector, the Hodges–Lehmann effect
    over data sets against all features (accuracy points), the order in which a user might try them.
    """
    design = _given_or_built(design)
    over = comparisons.over_datasets_vs_none(results.tables["accuracy"], design, margins=order_margins(design))
    when = which_selector(over, results.tables["cost"]).set_index("scope")
    if scopes is not None:
        when = when.loc[list(scopes)]
    when.attrs["effects"] = over.pivot_table(index="method", columns="scope", values="effect", sort=False)
    return when


PROTOCOL = Protocol(name="selection_suite", make_tasks=make_tasks, run_task=run_task, reduce=reduce, version=VERSION,
                    description="Which selector, when: the book's selectors, the baselines and mRMR against all "
                                "features on the selection suite (3 x 2 CV, accuracy vs k, fit CPU time and "
                                "peak memory, Kuncheva stability)",
                    tolerances={"hkl_gap": (1e-3, B.paper.HKL_SETTINGS[BENCHMARK_VERSION]["tol"] / 10), "fit_cpu": None,
                                "peak_mib": None},
                    claims=claims)

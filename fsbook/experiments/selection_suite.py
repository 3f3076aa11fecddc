"""Protocol ``selection_suite``: which selector, when -- the benchmark over the selection suite.

Issue 48's protocol for chapter 7: the book's selectors, the usual baselines, mRMR and the
all-features control on the data sets of :data:`DATASETS` (five domains, multiclass included),
with the cost of every fit beside its accuracy.  It is declared rather than coded: the data sets
(domain, preprocessing, subsample) and the exclusions of methods are tables, and the methods
are :mod:`fsbook.experiments.benchmark`'s (its :func:`~fsbook.experiments.benchmark.make_selector`,
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
its CPU time (:func:`~fsbook.experiments._runner.process_cpu_seconds`, this process and its
waited children) and its peak memory: the largest growth of the process's resident set over
the fit, in MiB, sampled every 5 ms (:class:`~fsbook.experiments._memory.PeakRSS`: every allocation counts, compiled
solvers' included, at no cost to the fit; a spike shorter than 5 ms can be missed).

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
from fsbook.experiments._benchmark_methods import attribute_groups
from fsbook.experiments._memory import PeakRSS
from fsbook.experiments._runner import Protocol, process_cpu_seconds, task_seed

VERSION = "1"
#: data set -> (domain, loader keyword arguments, preprocessing).  The sets of chapter 7's
#: ``benchmark`` (wine, ionosphere, wdbc, breast_cancer, colon, madelon, arcene, 20newsgroups)
#: are loaded by :func:`fsbook.experiments.benchmark.load`, with its preprocessing.
DATASETS = {
    # microarray (n << d); ARCENE is mass spectrometry, the same shape of problem
    "colon": ("microarray", {}, "ASU's discretised expression values as distributed"),
    "leukemia": ("microarray", {"discretised": False}, "raw expression values (ALL/AML)"),
    "adenoma": ("microarray", {}, "expression values as distributed"),
    "brain_tumor_2": ("microarray", {}, "expression values as distributed"),
    "cns": ("microarray", {}, "expression values as distributed"),
    "dlbcl": ("microarray", {}, "expression values as distributed"),
    "glioma": ("microarray", {}, "expression values as distributed"),
    "prostate_ge": ("microarray", {}, "expression values as distributed"),
    "tox_171": ("microarray", {}, "expression values as distributed"),
    "arcene": ("microarray", {}, "mass-spectrometry intensities as distributed (NIPS 2003)"),
    # images: pixel values as given
    "yale": ("image", {}, "32x32 pixel values"),
    "orl": ("image", {}, "32x32 pixel values"),
    "coil20": ("image", {}, "32x32 pixel values"),
    "warp_ar10p": ("image", {}, "pixel values"),
    "warp_pie10p": ("image", {}, "pixel values"),
    "usps_subset": ("image", {}, "16x16 pixel values"),
    "mnist_subset": ("image", {}, "28x28 pixel values"),
    "binary_alphadigits": ("image", {}, "20x16 binary pixels"),
    "msra25": ("image", {}, "16x16 pixel values"),
    # text: counts (dense inside the fold), the book's pair as chapter 7's word presence
    "pcmac": ("text", {}, "word counts"),
    "cnae9": ("text", {}, "word counts"),
    "dexter": ("text", {}, "word counts (NIPS 2003 feature values)"),
    "20newsgroups": ("text", {}, "word presence x > 0; 2 000-word vocabulary chosen in each training fold"),
    # speech
    "isolet_subset": ("speech", {}, "617 spectral features as distributed"),
    # tabular (UCI / KEEL; madelon is NIPS 2003's synthetic table)
    "wine": ("tabular", {}, "numeric attributes"),
    "ionosphere": ("tabular", {}, "numeric attributes"),
    "wdbc": ("tabular", {}, "numeric attributes"),
    "breast_cancer": ("tabular", {}, "one 0/1 indicator per nominal level (missing = all zeros)"),
    "sonar": ("tabular", {}, "numeric attributes"),
    "spambase": ("tabular", {}, "numeric attributes"),
    "libras_movement": ("tabular", {}, "numeric attributes"),
    "optdigits": ("tabular", {}, "8x8 block counts"),
    "satimage": ("tabular", {}, "numeric attributes"),
    "vehicle": ("tabular", {}, "numeric attributes"),
    "texture": ("tabular", {}, "numeric attributes"),
    "splice": ("tabular", {"one_hot": True}, "one-hot bases, load_splice(one_hot=True) (4 columns per position)"),
    "madelon": ("tabular", {}, "numeric attributes (synthetic, NIPS 2003)"),
}
DOMAINS = ("microarray", "image", "text", "speech", "tabular")
#: suite sets left out, and why: a class of fewer than 6 samples leaves a 2-fold training half
#: with at most 2 of it, so some inner 3-fold validation part holds a class its training part
#: lacks; the SVM's validation hinge loss (``benchmark``'s tie rule) is then undefined and a tie
#: cannot be broken (it raised on lymphoma's first task)
LEFT_OUT = {d: "a class of fewer than 6 samples (the SVM's inner-CV tie rule is undefined there)"
            for d in ("lymphoma", "tumors_9", "nci9", "lung_discrete")}
#: largest number of samples kept of a data set (stratified, seeded subsample, :func:`load`)
MAX_SAMPLES = 1000
#: 3 independent repetitions of 2-fold CV per data set, by cost: with 5 the measured and
#: extrapolated store projects to 3.7 CPU-h, over the 2.6 h budget; with 3, 2.24 h
#: (``benchmarks/results/selection_suite.json``).  The per-data-set claims then rest on 3
#: repetition means (a t-test of 2 degrees of freedom); the tests over the 37 data sets do not
REPEATS, N_FOLDS = 3, 2
#: repetitions of the quick subsample (tasks of the full protocol) and its data sets
QUICK_REPEATS, QUICK_DATASETS = 2, ("wine", "glioma", "sonar", "cnae9")
#: the sizes k, as fractions of each data set's width counted up to :data:`WIDTH_CAP` features
#: (:func:`ks_of`): k ≤ 100 everywhere.  Beyond that the path selectors (LDFS, HSFS, ℓ1-SVM)
#: refit at a cost that grows with k, and ℓ1-SVM cannot keep many more features than the
#: training fold has samples (18 to 500 here); where it stops short it keeps what it reached
#: (``n_selected`` < k, stored)
FRACTIONS = (0.02, 0.05, 0.1, 0.2)
WIDTH_CAP = 500
#: the fraction at which methods are ranked (the Friedman test, Holm against ``none``)
RANK_FRACTION = 0.1
#: the classifier (the accuracy field of a task): benchmark's tuned RBF SVM.  Its tuned linear
#: SVM is left out by cost: on all 1 024 features of COIL-20 (500 training images, 20 classes)
#: its C search took 190 CPU s per fold (liblinear's dual stops at 5 000 iterations for C ≥ 1;
#: the primal solver is slower still) against 1.3 s for the RBF SVM's, and ``none`` needs it on
#: every fold of every set (``benchmarks/results/selection_suite.json``)
CLASSIFIERS = {"acc_rbf": "RBF SVM"}
METHODS = ["none", "MI", "SVM-RFE", "l1-SVM", "ReliefF", "CFS", "MRMR", "LDFS", "HSFS", "WK-LP", "HKL", "GeoRatio"]
OWN_SIZE = {"none", "CFS", "GeoRatio"}
RANKERS = B.RANKERS | {"MRMR"}
#: methods run in the full protocol only (the quick subsample leaves them out)
FULL_ONLY = {"HKL"}
#: declared exclusions: method -> (rule on the data set's facts, reason).  A task of an excluded
#: cell returns the reason (:func:`cannot_run`), which the ``not_run`` table prints.
EXCLUSIONS = {
    "GeoRatio": (lambda f: f["groups"] is None or f["groups"] > B.GEO_MAX_GROUPS,
                 "needs at most GEO_MAX_GROUPS nominal attributes (feature groups) to choose unions from"),
    "SVM-RFE": (lambda f: f["classes"] * f["n"] > 5_000,
                "cost: one-vs-rest linear SVMs (C = 1, up to 10 000 iterations) refitted at every elimination "
                "step; on COIL-20 (20 classes, 1 000 samples) one task ran over 240 CPU s unfinished; run where "
                "classes x n <= 5 000 (after subsampling)"),
    "HKL": (lambda f: f["classes"] > 3 or f["n"] * f["d"] > 300_000,
            "cost: one HKL fit (a C path) per class beyond two classes (vehicle's 4: 100 CPU s a fold); "
            "run on at most 3 classes and n x d <= 300 000 (after subsampling)"),
}
#: methods of chapter 7 this protocol does not run, and why (printed with the exclusions)
NOT_INCLUDED = {"Proj-SVM": "classifier-side (keeps every feature): compared in chapter 7's benchmark store"}


def sources():
    """The data sets of the protocol, in order: :data:`DATASETS`' keys."""
    return list(DATASETS)


@functools.lru_cache(maxsize=4)
def _raw(dataset):
    """``(X, y, feature_names, boolean)`` of a data set as its loader gives it (X float64, dense,
    or sparse CSR for word counts)."""
    from fsbook import datasets as D

    if dataset not in DATASETS:
        raise ValueError(f"unknown dataset {dataset!r}; expected one of {sources()}")
    if dataset in B.FULL_DATASETS:
        return B.load(dataset)
    b = getattr(D, f"load_{dataset}")(**DATASETS[dataset][1])
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
    if len(y) > MAX_SAMPLES:
        keep, _ = train_test_split(np.arange(len(y)), train_size=MAX_SAMPLES, stratify=y,
                                   random_state=task_seed({"dataset": dataset}, "subsample"))
        keep = np.sort(keep)
        X, y = X[keep], y[keep]
    return X, y, names, boolean


def width(dataset):
    """Features every method of a fold sees (``benchmark.VOCABULARY`` on the 20 Newsgroups pair)."""
    return B.VOCABULARY if dataset in B.TEXT_DATASETS else load(dataset)[0].shape[1]


def facts(dataset):
    """``{"n", "d", "classes", "groups"}`` of a data set after subsampling (``groups``: its
    number of nominal attributes, ``None`` for numeric or word columns), what exclusions read."""
    X, y, names, _ = load(dataset)
    groups = attribute_groups(names)
    return {"n": int(len(y)), "d": int(width(dataset)), "classes": int(np.unique(y).size),
            "groups": None if groups is None else len(groups)}


def ks_of(dataset, fractions=FRACTIONS):
    """The sizes k of a data set: ``round(f · min(d, WIDTH_CAP))`` for ``f`` in ``fractions``,
    at least 1 and below ``d``, without duplicates.

    Examples
    --------
    >>> from fsbook.experiments import selection_suite as S
    >>> S.ks_of("wine"), S.ks_of("colon")
    ([1, 3], [10, 25, 50, 100])
    """
    d = width(dataset)
    return sorted({k for k in (max(1, int(round(f * min(d, WIDTH_CAP)))) for f in fractions) if k < d})


def cannot_run(method, dataset):
    """Why ``method`` does not run on ``dataset`` (from :data:`EXCLUSIONS`), or ``None``."""
    if method not in EXCLUSIONS:
        return None
    rule, reason = EXCLUSIONS[method]
    return f"not run: {reason}" if rule(facts(dataset)) else None


def design():
    """The data sets as the protocol uses them: domain, preprocessing, samples after (and
    before) subsampling, width, classes, the sizes k and the methods excluded there."""
    rows = []
    for d, (domain, _, prep) in DATASETS.items():
        f = facts(d)
        rows.append({"dataset": d, "domain": domain, "n": f["n"], "n (before subsampling)": len(_raw(d)[1]),
                     "d": f["d"], "classes": f["classes"], "preprocessing": prep, "ks": ks_of(d),
                     "excluded": ", ".join(m for m in METHODS if cannot_run(m, d))})
    return pd.DataFrame(rows)


def exclusions():
    """The declared exclusions: each excluded method, its reason and the data sets it skips,
    then the methods of chapter 7 this protocol leaves out (:data:`NOT_INCLUDED`) and the suite's
    data sets it leaves out (:data:`LEFT_OUT`)."""
    rows = [{"method": m, "reason": reason, "data sets": ", ".join(d for d in DATASETS if cannot_run(m, d))}
            for m, (_, reason) in EXCLUSIONS.items()]
    rows += [{"method": m, "reason": reason, "data sets": "all"} for m, reason in NOT_INCLUDED.items()]
    rows += [{"method": "all", "reason": reason, "data sets": d} for d, reason in LEFT_OUT.items()]
    return pd.DataFrame(rows)


def folds(dataset, repeat, n_folds=N_FOLDS):
    """The stratified folds of ``(dataset, repeat)``, the same for every method."""
    y = load(dataset)[1]
    seed = task_seed({"dataset": dataset, "repeat": repeat, "n_folds": n_folds}, "folds")
    return list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


def fold_data(dataset, train, test):
    """``(X_train, X_test, columns)``: dense matrices of one fold and their columns in the data
    set (a fold vocabulary on the 20 Newsgroups pair, as in ``benchmark``)."""
    X = load(dataset)[0]
    if dataset in B.TEXT_DATASETS:
        columns = B.vocabulary(X[train])
        return X[train][:, columns].toarray(), X[test][:, columns].toarray(), columns
    dense = (lambda A: A.toarray()) if sp.issparse(X) else (lambda A: A)
    return dense(X[train]), dense(X[test]), np.arange(X.shape[1])


def make_selector(method, k, seed, boolean=False, groups=None):
    """``benchmark``'s selector of ``method`` (its settings), or :class:`~fsbook.baselines.MRMR`
    (Peng's MID criterion, mean ± std discretisation; the distinct values on 0/1 data)."""
    if method == "MRMR":
        from fsbook.baselines import MRMR

        return MRMR(k, discretise="none" if boolean else "mean_std")
    return B.make_selector(method, k, seed, boolean, groups)


def support_at(selector, method, k):
    """The ``k`` features a fitted ranker keeps (mRMR: the first ``k`` it chose, the set a fit at
    ``k`` keeps, greedy forward selection being prefix-consistent)."""
    if method == "MRMR":
        return np.sort(selector.ranking_[:k])
    return B.support_at(selector, method, k)


def _fit(method, k, seed, dataset, X_train, y_train):
    """Fit one selector; ``(fitted, cpu seconds, peak MiB)`` (:class:`~fsbook.experiments._memory.PeakRSS`)."""
    boolean, names = load(dataset)[3], load(dataset)[2]
    groups = attribute_groups(names) if method == "GeoRatio" else None
    scaler = [] if method in B.UNSCALED else [StandardScaler()]
    pipe = make_pipeline(*scaler, make_selector(method, k, seed, boolean, groups))
    with PeakRSS() as memory:
        start = process_cpu_seconds()
        pipe.fit(X_train, y_train)
        cpu = process_cpu_seconds() - start
    return pipe[-1], cpu, memory.peak_mib


def accuracies(X_train, y_train, X_test, y_test, seed, classifiers=tuple(CLASSIFIERS)):
    """Test accuracy of each classifier (``benchmark``'s tuned SVMs; with no column kept, the
    training fold's majority class)."""
    from sklearn.svm import SVC, LinearSVC

    from fsbook.experiments._protocol_helpers import tuned_svm

    if X_train.shape[1] == 0:
        labels, counts = np.unique(y_train, return_counts=True)
        return {c: float(np.mean(y_test == labels[np.argmax(counts)])) for c in classifiers}
    models = {"acc_linear": (LinearSVC(random_state=seed, max_iter=5000), B.C_LINEAR),
              "acc_rbf": (SVC(kernel="rbf", gamma="scale"), B.C_RBF)}
    out = {}
    for c in classifiers:
        clf, grid = models[c]
        model = tuned_svm(clf, {"C": grid}, seed, scale=True, tie=B.SVM_TIES[B.VERSION]).fit(X_train, y_train)
        out[c] = float(np.mean(model.predict(X_test) == y_test))
    return out


def run_task(params):
    """Kept sets, accuracies per ``k`` and each fit's CPU time and peak memory (module docstring)."""
    dataset, method = params["dataset"], params["method"]
    if method not in METHODS or dataset not in DATASETS:
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
    out = {key: [] for key in ("k", "n_selected", *CLASSIFIERS, "fit_cpu", "peak_mib", "support")}
    ranked = None
    for k in params["ks"]:
        cpu = peak = 0.0
        if method == "none":
            support = np.arange(X_train.shape[1])
        elif ranked is not None:
            support = support_at(ranked, method, k)
        else:
            fitted, cpu, peak = _fit(method, max(params["ks"]) if method in RANKERS else k, seed, dataset,
                                     X_train, y_train)
            ranked = fitted if method in RANKERS else None
            support = support_at(fitted, method, k) if method in RANKERS else np.flatnonzero(fitted.get_support())
        acc = accuracies(X_train[:, support], y_train, X_test[:, support], y_test, seed)
        for key, value in (("k", int(k)), ("n_selected", int(support.size)), ("fit_cpu", cpu), ("peak_mib", peak),
                           ("support", np.asarray(columns)[support].tolist()), *acc.items()):
            out[key].append(value)
    if method == "HKL":
        out.update(B.hkl_certificate(ranked))
    return out


def make_tasks(full):
    """Full: every data set, :data:`REPEATS` × :data:`N_FOLDS` CV, every method.  Quick:
    :data:`QUICK_DATASETS`, the first :data:`QUICK_REPEATS` repetitions, every method but
    :data:`FULL_ONLY` (tasks of the full protocol).  An excluded cell keeps its tasks (they
    return the reason)."""
    datasets, repeats = (sources(), REPEATS) if full else (QUICK_DATASETS, QUICK_REPEATS)
    return [{"dataset": d, "repeat": r, "fold": f, "n_folds": N_FOLDS, "method": m,
             "ks": [0] if m in OWN_SIZE else ks_of(d)}
            for d in datasets for r in range(repeats) for f in range(N_FOLDS)
            for m in METHODS if full or m not in FULL_ONLY]


def rank_k(dataset):
    """The ``k`` at which methods are ranked on a data set: :data:`RANK_FRACTION` of its width
    up to :data:`WIDTH_CAP` (at least 1; one of :func:`ks_of`)."""
    return max(1, int(round(RANK_FRACTION * min(width(dataset), WIDTH_CAP))))


def _long(params_list, results_list):
    rows = []
    for p, r in zip(params_list, results_list):
        if "not_run" in r:
            continue
        domain = DATASETS[p["dataset"]][0]
        for i, k in enumerate(r["k"]):
            rows.append({"dataset": p["dataset"], "domain": domain, "method": p["method"], "repeat": p["repeat"],
                         "fold": p["fold"], "k": k, "n_selected": r["n_selected"][i],
                         **{c: 100 * r[c][i] for c in CLASSIFIERS}, "fit_cpu": r["fit_cpu"][i],
                         "peak_mib": r["peak_mib"][i], "support": tuple(r["support"][i])})
    columns = ["dataset", "domain", "method", "repeat", "fold", "k", "n_selected", *CLASSIFIERS, "fit_cpu",
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
               "rank_k": bool(m in OWN_SIZE or k == rank_k(d)), "repeats": g["repeat"].nunique()}
        for c in CLASSIFIERS:
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
    cost.insert(1, "domain", cost["dataset"].map(lambda d: DATASETS[d][0]))
    stab = pd.DataFrame([{"dataset": d, "method": m, "k": k, "kuncheva": B._stability(g, width(d))}
                         for (d, m, k), g in df[df.method != "none"].groupby(["dataset", "method", "k"], sort=False)],
                        columns=["dataset", "method", "k", "kuncheva"])
    return {"accuracy": _accuracy(df), "folds": df.drop(columns=["support"]), "cost": cost, "stability": stab,
            "not_run": B._not_run_table(params_list, results_list), "hkl_fits": B._hkl_fits(params_list, results_list)}


PROTOCOL = Protocol(name="selection_suite", make_tasks=make_tasks, run_task=run_task, reduce=reduce, version=VERSION,
                    description="Which selector, when: the book's selectors, the baselines and mRMR against all "
                                "features on the selection suite (3 x 2 CV, accuracy vs k, fit CPU time and "
                                "peak memory, Kuncheva stability)",
                    tolerances={"hkl_gap": (1e-3, B.HKL_SETTINGS[B.VERSION]["tol"] / 10), "fit_cpu": None,
                                "peak_mib": None})

"""Why HKL misses on hepatitis and transfusion (chapter 6): experiments that decide between
four hypotheses for the gap between Table 1's HKL row and the paper's.

The hypotheses:

(a) *the C path stops too early*: the data-driven path of ``DisjunctiveHKLCV`` stops before any
    node enters, or before the nodes that entered change a prediction;
(b) *booleanisation loses what matters*: quartile thresholds of the continuous attributes throw
    away the information a classifier needs;
(c) *the split*: the paper's accuracy is what another split of the same data gives;
(d) *the class balance*: the classes are so unbalanced that no classifier does much better than
    predicting the majority class.

Every experiment runs on the protocol's own data and folds: :func:`fsbook.experiments.hkl.data.load_table1`
(booleanised), :func:`fsbook.experiments.hkl.data.load_raw` (the attributes as Weka reads them),
:func:`fsbook.experiments.hkl.folds.table_folds` (4-fold stratified, seed 0) and the protocol's inner
seed ``1000 * fold + 7``, so :func:`hkl_path` reproduces the HKL fits of Table 1's protocol
(version 6: the conic solver, relative gap ``1e-4``, no cap).  The whole diagnosis of both
data sets (:func:`run_diagnosis`) takes about a minute of one core.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from fsbook.booleanize import booleanize
from fsbook.decisions import SCORE_ATOL, argbest_lexicographic, log_grid
from fsbook.experiments.hkl.data import _bunch, load_raw, load_table1
from fsbook.experiments.hkl.folds import inner_seed, table_folds
from fsbook.experiments.hkl.models import tuned_hkl
from fsbook.experiments.hkl.paper import HKL_C_GRID, PAPER_TABLE1, RBF_C_GRID, RBF_GAMMA_GRID, SVM_C_GRID
from fsbook.model_selection import tuned_svm

__all__ = ["DATASETS", "CLASSIFIERS", "STRONG", "PATIENCE", "MAX_CS", "hkl_path", "hkl_fine_thresholds",
           "classifier_accuracies", "compare", "run_diagnosis", "diagnosis_table"]

#: the two Table 1 data sets where HKL is at or below the majority rate
DATASETS = ("hepatitis", "transfusion")
#: number of quantile bins of the finer booleanisation (deciles; the protocol's are quartiles)
FINE_BINS = 10
#: grid of the logistic regression's C and the random forest's minimum leaf size
LOGREG_C_GRID = log_grid(-3, 3)
FOREST_LEAF_GRID = (1, 5, 20)
#: trees of the random forest (50 keep the whole diagnosis within a minute of one core)
FOREST_TREES = 50
#: the protocol's HKL path: steps without improvement before it stops, and its cap on C values
PATIENCE = tuned_hkl(HKL_C_GRID, 0).patience
MAX_CS = tuned_hkl(HKL_C_GRID, 0).max_Cs
#: the tuned classifiers of :func:`classifier_accuracies`: (label, input form)
CLASSIFIERS = (("linear SVM", "booleanised"), ("linear SVM", "raw"),
               ("RBF SVM", "booleanised"), ("RBF SVM", "raw"),
               ("logistic regression", "raw"), ("random forest", "raw"))
#: the strong classifiers whose best accuracy per fold bounds what the data allow
STRONG = ("RBF SVM (raw)", "logistic regression (raw)", "random forest (raw)")


def _seed(fold):
    """The protocol's inner-CV seed of an outer fold of Table 1."""
    return inner_seed(1, fold)


def _check_dataset(dataset):
    if dataset not in PAPER_TABLE1.columns or dataset.startswith("monks") or dataset == "20newsgroups":
        raise ValueError(f"dataset must be a 4-fold tabular Table 1 data set such as "
                         f"{list(DATASETS)}, got {dataset!r}")


def _outer_folds(y, split, outer_folds):
    """``(fold, (train, test))`` of the protocol's outer folds; ``folds`` picks some (None: all)."""
    all_folds = table_folds(y, split)
    picked = range(len(all_folds)) if outer_folds is None else list(outer_folds)
    for f in picked:
        if not 0 <= f < len(all_folds):
            raise ValueError(f"fold {f!r} is not one of the {len(all_folds)} outer folds")
    return [(f, all_folds[f]) for f in picked]


def _majority_rate(y, train, test):
    return float(np.mean(y[test] == np.bincount(y[train]).argmax()))


def _protocol_choice(cv_results, n_train, patience, tie="two_class"):
    """Rows the protocol's path (``patience`` steps without improvement) tries, and the row it
    chooses: the estimator's rule (ties within ``1/(2 n_train)``; among them, with
    ``tie="two_class"``, a fit that predicts both classes on the validation points, then the
    smallest C) applied to the prefix of a longer path."""
    from fsbook.hkl.estimator import path_stops

    scores = cv_results["mean_accuracy"].to_list()
    two_class = (~cv_results["one_class"].to_numpy(dtype=bool)).astype(float)
    if tie == "simplest":
        two_class = np.zeros_like(two_class)
    tie_tol = 0.5 / n_train
    k = next((i + 1 for i in range(len(scores)) if path_stops(scores[: i + 1], tie_tol, patience)),
             len(scores))
    return k, argbest_lexicographic(scores[:k], two_class[:k], maximize=(True, True),
                                    atol=(tie_tol, 0.0), rtol=(0.0, 0.0))


def hkl_path(dataset, outer_folds=None):
    """Hypothesis (a): HKL's data-driven ``C`` path on each outer fold, as the protocol runs it
    and run on to its cap.

    One warm-started path per fold with the protocol's settings
    (:func:`fsbook.experiments.hkl.models.tuned_hkl`) but ``patience = max_Cs``, so it visits all
    ``max_Cs`` (12) values of the ladder.  The protocol's path (patience 4) is a prefix of it
    (the same warm starts, the same fits): its chosen ``C`` is read off that prefix by the
    estimator's rule and refitted, which reproduces the stored HKL row.

    Parameters
    ----------
    dataset : str
        A Table 1 data set with 4-fold CV (:data:`DATASETS`).
    outer_folds : sequence of int or None, default=None
        Which of the protocol's outer folds to run (None: all four).

    Returns
    -------
    folds : pandas.DataFrame
        One row per outer fold: ``n_train``, ``n_test`` (samples), ``majority`` (test accuracy
        of the training majority class),
        ``C`` (the protocol's choice), ``Cs_tried`` (values on the protocol's path), ``C_last``,
        ``n_disjunctions`` (of the refit), ``one_class`` (the refit predicts one class for every
        test sample), ``train_accuracy``, ``cv_accuracy`` (at ``C``), ``accuracy`` (test),
        ``certified``; then ``C_full``, ``n_disjunctions_full``, ``one_class_full`` and
        ``accuracy_full`` of the path run to its cap; then ``C_simplest`` and
        ``accuracy_simplest``, the choice of the protocol's path and its test accuracy under
        the tie rule of the protocol's versions up to 6 (the smallest tied C, even where its
        fits predict one class on every validation point).  Accuracies are fractions.
    path : pandas.DataFrame
        ``cv_results_`` of every fold's path to the cap (column ``fold``), with ``protocol``:
        whether the protocol's path tries that ``C``.

    Examples
    --------
    >>> from fsbook.experiments.hkl.diagnosis import hkl_path
    >>> folds, path = hkl_path("hepatitis", outer_folds=[2])
    >>> folds[["C", "Cs_tried", "n_disjunctions", "one_class", "C_full"]].to_dict("records")
    [{'C': 1.0, 'Cs_tried': 5, 'n_disjunctions': 17, 'one_class': False, 'C_full': 300.0}]
    >>> (100 * folds[["accuracy", "accuracy_full"]]).round(2).iloc[0].tolist()
    [87.18, 82.05]
    >>> len(path), int(path["protocol"].sum())
    (12, 5)
    """
    from fsbook.hkl import DisjunctiveHKL

    _check_dataset(dataset)
    X, y, _, split = load_table1(dataset)
    rows, paths = [], []
    for fold, (tr, te) in _outer_folds(y, split, outer_folds):
        proto = tuned_hkl(HKL_C_GRID, _seed(fold))
        patience = proto.patience
        full = proto.set_params(patience=proto.max_Cs).fit(X[tr], y[tr])
        cv = full.cv_results_
        k, best = _protocol_choice(cv, tr.size, patience)
        keys = ("mu", "p", "binarize", "tol", "max_active", "max_add", "max_iter",
                "feature_weights", "solver")
        est = DisjunctiveHKL(C=float(cv.C.iloc[best]), beta=float(cv.beta.iloc[best]),
                             **{key: getattr(full, key) for key in keys}).fit(X[tr], y[tr])
        pred, pred_full = est.predict(X[te]), full.predict(X[te])
        old = _protocol_choice(cv, tr.size, patience, tie="simplest")[1]
        pred_old = pred if old == best else DisjunctiveHKL(
            C=float(cv.C.iloc[old]), beta=float(cv.beta.iloc[old]),
            **{key: getattr(full, key) for key in keys}).fit(X[tr], y[tr]).predict(X[te])
        rows.append({
            "fold": fold, "n_train": tr.size, "n_test": te.size,
            "majority": _majority_rate(y, tr, te), "C": est.C,
            "Cs_tried": k, "C_last": float(cv.C.iloc[k - 1]),
            "n_disjunctions": len(est.disjunctions_),
            "one_class": bool(np.unique(pred).size == 1),
            "train_accuracy": float(np.mean(est.predict(X[tr]) == y[tr])),
            "cv_accuracy": float(cv.mean_accuracy.iloc[best]),
            "accuracy": float(np.mean(pred == y[te])), "certified": bool(est.certified_),
            "C_full": full.C_, "n_disjunctions_full": len(full.disjunctions_),
            "one_class_full": bool(np.unique(pred_full).size == 1),
            "accuracy_full": float(np.mean(pred_full == y[te])),
            "C_simplest": float(cv.C.iloc[old]), "accuracy_simplest": float(np.mean(pred_old == y[te]))})
        paths.append(cv.assign(fold=fold, protocol=np.arange(len(cv)) < k))
    return pd.DataFrame(rows).set_index("fold"), pd.concat(paths, ignore_index=True)


def hkl_fine_thresholds(dataset, n_bins=FINE_BINS, outer_folds=None):
    """Hypothesis (b): the protocol's HKL on a finer booleanisation (``n_bins`` quantile bins of
    every numeric attribute instead of 4), on the protocol's folds and seeds.

    The thresholds are taken on the whole data set, as :func:`~fsbook.experiments.hkl.data.load_table1`
    takes its quartiles (unsupervised: no label is used).

    Parameters
    ----------
    dataset : str
        A Table 1 data set with 4-fold CV (:data:`DATASETS`).
    outer_folds : sequence of int or None, default=None
        Which of the protocol's outer folds to run (None: all four).
    n_bins : int, default=:data:`FINE_BINS`

    Returns
    -------
    pandas.DataFrame
        One row per outer fold: ``n_columns`` (boolean features), ``C``, ``n_disjunctions``,
        ``one_class``, ``accuracy`` (test, a fraction).

    Examples
    --------
    >>> from fsbook.experiments.hkl.diagnosis import hkl_fine_thresholds
    >>> fine = hkl_fine_thresholds("hepatitis", outer_folds=[2])
    >>> fine[["n_columns", "C", "n_disjunctions"]].to_dict("records")
    [{'n_columns': 76, 'C': 1.0, 'n_disjunctions': 20}]
    """
    _check_dataset(dataset)
    Xb, names = booleanize(_bunch(dataset), n_bins=n_bins)
    X = Xb.astype(np.float64)
    _, y, _, split = load_table1(dataset)
    rows = []
    for fold, (tr, te) in _outer_folds(y, split, outer_folds):
        model = tuned_hkl(HKL_C_GRID, _seed(fold)).fit(X[tr], y[tr])
        pred = model.predict(X[te])
        rows.append({"fold": fold, "n_columns": len(names), "C": model.C_,
                     "n_disjunctions": len(model.disjunctions_),
                     "one_class": bool(np.unique(pred).size == 1),
                     "accuracy": float(np.mean(pred == y[te]))})
    return pd.DataFrame(rows).set_index("fold")


def _classifier(label, form, nominal, n_levels, seed):
    """One tuned classifier: inner 3-fold CV on the training fold (:func:`tuned_svm`, ties to
    the first grid point), standardised inputs; raw inputs first pass Weka's
    ``ReplaceMissingValues`` and ``NominalToBinary`` (:class:`WekaFilters`, as the protocol's
    raw rows)."""
    from fsbook.baselines.weka_svm import WekaFilters

    model, grid = {
        "linear SVM": (LinearSVC(max_iter=100_000, random_state=0), {"C": SVM_C_GRID}),
        "RBF SVM": (SVC(kernel="rbf"), {"C": RBF_C_GRID, "gamma": RBF_GAMMA_GRID}),
        "logistic regression": (LogisticRegression(max_iter=10_000), {"C": list(LOGREG_C_GRID)}),
        "random forest": (RandomForestClassifier(n_estimators=FOREST_TREES, random_state=0),
                          {"min_samples_leaf": list(FOREST_LEAF_GRID)}),
    }[label]
    steps = ([WekaFilters(nominal, n_levels)] if form == "raw" else []) + [StandardScaler(), model]
    pipe = make_pipeline(*steps)
    step = pipe.steps[-1][0]
    return tuned_svm(pipe, {f"{step}__{k}": v for k, v in grid.items()}, seed,
                     error_score="raise")


def classifier_accuracies(dataset, classifiers=CLASSIFIERS, outer_folds=None):
    """Hypotheses (b)–(d): test accuracy of tuned classifiers on the protocol's folds.

    Each classifier has its parameters chosen by inner 3-fold CV on the training fold only
    (seed ``1000 * fold + 7``, as the protocol's tuned rows): the linear SVM over
    :data:`~fsbook.experiments.hkl.paper.SVM_C_GRID`, the RBF SVM over
    :data:`~fsbook.experiments.hkl.paper.RBF_C_GRID` × :data:`~fsbook.experiments.hkl.paper.RBF_GAMMA_GRID`,
    the logistic regression over ``C`` in :data:`LOGREG_C_GRID`, the random forest (:data:`FOREST_TREES` trees)
    over the minimum leaf size :data:`FOREST_LEAF_GRID`.  ``"booleanised"`` inputs are HKL's
    (:func:`~fsbook.experiments.hkl.data.load_table1`), ``"raw"`` ones the attributes as Weka reads
    them (:func:`~fsbook.experiments.hkl.data.load_raw`: missing values replaced by the training
    fold's mean or mode, nominal ones one-hot); both are standardised on the training fold.

    Parameters
    ----------
    dataset : str
        A Table 1 data set with 4-fold CV (:data:`DATASETS`).
    outer_folds : sequence of int or None, default=None
        Which of the protocol's outer folds to run (None: all four).
    classifiers : sequence of (label, form), default=:data:`CLASSIFIERS`

    Returns
    -------
    pandas.DataFrame
        One row per outer fold; a column ``"<label> (<form>)"`` per classifier (accuracy, a
        fraction) and ``majority`` (the training majority class's test accuracy).

    Examples
    --------
    >>> from fsbook.experiments.hkl.diagnosis import classifier_accuracies
    >>> acc = classifier_accuracies("transfusion", [("logistic regression", "raw")])
    >>> acc.round(4).to_dict("list")
    {'majority': [0.7594, 0.7594, 0.7647, 0.7647], 'logistic regression (raw)': [0.7701, 0.7807, 0.7647, 0.7754]}
    """
    _check_dataset(dataset)
    Xb, y, _, split = load_table1(dataset)
    Xr, y_raw, nominal, n_levels, _ = load_raw(dataset)
    if not np.array_equal(y, y_raw):
        raise ValueError(f"{dataset}: the booleanised and raw loaders disagree on the labels")
    rows = []
    for fold, (tr, te) in _outer_folds(y, split, outer_folds):
        row = {"fold": fold, "majority": _majority_rate(y, tr, te)}
        for label, form in classifiers:
            if form not in ("raw", "booleanised"):
                raise ValueError(f"form must be 'raw' or 'booleanised', got {form!r}")
            X = Xr if form == "raw" else Xb
            clf = _classifier(label, form, nominal, n_levels, _seed(fold)).fit(X[tr], y[tr])
            row[f"{label} ({form})"] = float(np.mean(clf.predict(X[te]) == y[te]))
        rows.append(row)
    return pd.DataFrame(rows).set_index("fold")


def compare(base, alternative):
    """The verdict rule: does ``alternative`` move accuracy beyond the fold-to-fold noise?

    With ``d = alternative − base`` per outer fold (``k`` folds), the mean difference ``d̄`` and
    its standard error ``se = sd(d)/√k`` (``ddof = 1``), the alternative *moves* accuracy
    (up) when ``d̄ > se + SCORE_ATOL`` (:data:`fsbook.decisions.SCORE_ATOL`, the tolerance of
    a tie between accuracies).  A scalar ``alternative`` (a published accuracy) is compared with
    every fold; its ``se`` is then that of ``base``.

    Parameters
    ----------
    base, alternative : array-like of float, shape (k,), or a scalar alternative
        Accuracies per fold (fractions or %, the same unit for both), ``k >= 2``.

    Returns
    -------
    dict
        ``diff`` (``d̄``), ``se``, ``moves`` (bool).

    Examples
    --------
    >>> from fsbook.experiments.hkl.diagnosis import compare
    >>> compare([0.76, 0.76, 0.77, 0.77], [0.78, 0.79, 0.79, 0.77])["moves"]
    True
    >>> compare([0.72, 0.82, 0.79, 0.79], [0.79, 0.74, 0.87, 0.79])["moves"]   # noise
    False
    """
    base = np.asarray(base, dtype=float)
    if base.ndim != 1 or base.size < 2:
        raise ValueError(f"base must hold one accuracy per fold, at least 2, got shape {base.shape}")
    alt = np.asarray(alternative, dtype=float)
    if alt.shape not in ((), base.shape):
        raise ValueError(f"alternative must be a scalar or have base's shape {base.shape}, "
                         f"got {alt.shape}")
    if np.isnan(base).any() or np.isnan(alt).any():
        raise ValueError("accuracies must not be NaN")
    d = alt - base
    se = float(np.std(np.broadcast_to(d, base.shape), ddof=1) / np.sqrt(base.size))
    diff = float(np.mean(d))
    return {"diff": diff, "se": se, "moves": bool(diff > se + SCORE_ATOL)}


def run_diagnosis(datasets=DATASETS, outer_folds=None):
    """Every experiment of the diagnosis on each data set, with the CPU time it took.

    Parameters
    ----------
    datasets : sequence of str, default=:data:`DATASETS`
    outer_folds : sequence of int or None, default=None
        Which of the protocol's outer folds to run (None: all four).

    Returns
    -------
    dict
        ``{dataset: {"path": (folds, path), "fine": DataFrame, "classifiers": DataFrame,
        "paper": float (the paper's HKL accuracy, %)}}`` from :func:`hkl_path`,
        :func:`hkl_fine_thresholds` and :func:`classifier_accuracies`, and
        ``"cpu_seconds"`` (``time.process_time`` of the whole run).

    Examples
    --------
    >>> from fsbook.experiments.hkl.diagnosis import run_diagnosis
    >>> results = run_diagnosis(["hepatitis"], outer_folds=[2])
    >>> sorted(results), sorted(results["hepatitis"])
    (['cpu_seconds', 'hepatitis'], ['classifiers', 'fine', 'paper', 'path'])
    >>> results["hepatitis"]["paper"]
    91.25
    """
    start = time.process_time()
    out = {d: {"path": hkl_path(d, outer_folds=outer_folds), "fine": hkl_fine_thresholds(d, outer_folds=outer_folds),
               "classifiers": classifier_accuracies(d, outer_folds=outer_folds),
               "paper": float(PAPER_TABLE1.loc[("hkl", "HKL"), d])}
           for d in datasets}
    out["cpu_seconds"] = time.process_time() - start
    return out


def _pp(x):
    return f"{100 * x:+.2f}"


def _row(dataset, hypothesis, experiment, cmp, supported_if_moves, what):
    """A verdict row: ``supported`` when the alternative moves accuracy and the hypothesis
    predicts it does, or stays and the hypothesis predicts it stays."""
    supported = cmp["moves"] == supported_if_moves
    return {"data set": dataset, "hypothesis": hypothesis, "experiment": experiment,
            "result": f"{what}: {_pp(cmp['diff'])} points (SE {100 * cmp['se']:.2f})",
            "verdict": "supported" if supported else "not supported",
            "diff": 100 * cmp["diff"], "se": 100 * cmp["se"]}


def diagnosis_table(results):
    """Hypothesis → experiment → result → verdict, computed from :func:`run_diagnosis`'s numbers.

    The rule (:func:`compare`): an experiment sets an *alternative* beside a *base*, both
    accuracies per outer fold; the alternative moves accuracy when its mean gain exceeds the
    standard error of the per-fold differences by more than :data:`fsbook.decisions.SCORE_ATOL`.
    A hypothesis is *supported* by an experiment when the alternative moves accuracy where the
    hypothesis says it would, and stays within the noise where it says it would not:

    (a) *the C path stops before any node enters*: supported when some fold's refit selects no
        disjunction (a count, not the accuracy rule); *the path stops before the accuracy
        rises*: supported when running the path to its cap (``max_Cs`` values) moves accuracy above the
        protocol's HKL;
    (b) *booleanisation loses what matters*: supported when HKL on deciles moves accuracy above
        HKL on quartiles, or a tuned linear or RBF SVM on the raw attributes moves it above the
        same SVM on the booleanised ones;
    (c) *the split explains the paper's number*: supported when the paper's accuracy does not
        move above the best accuracy any strong classifier (:data:`STRONG`) reaches on each fold
        (the per-fold maximum: an optimistic bound of what the data allow);
    (d) *the class balance caps the accuracy*: supported when that bound does not move above the
        majority rate.

    Three closing rows ask whether the protocol's HKL fit itself falls short: supported when a
    tuned linear SVM on the same booleanised features, or the bound, moves accuracy above HKL;
    and whether HKL does no better than the majority class: supported when HKL does not move
    accuracy above the majority rate.

    Parameters
    ----------
    results : dict
        :func:`run_diagnosis`'s output (``"cpu_seconds"`` is ignored).

    Returns
    -------
    pandas.DataFrame
        Columns ``data set``, ``hypothesis``, ``experiment``, ``result``, ``verdict``, ``diff``
        and ``se`` (mean difference and its standard error, percentage points).

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.hkl.diagnosis import diagnosis_table
    >>> folds = pd.DataFrame({"n_disjunctions": [3, 4], "accuracy": [0.76, 0.77],
    ...                       "accuracy_full": [0.78, 0.79], "majority": [0.76, 0.77]})
    >>> clf = pd.DataFrame({"majority": [0.76, 0.77], **{c: [0.80, 0.81] for c in (
    ...     "RBF SVM (raw)", "RBF SVM (booleanised)", "linear SVM (raw)",
    ...     "linear SVM (booleanised)", "logistic regression (raw)", "random forest (raw)")}})
    >>> res = {"toy": {"path": (folds, None), "fine": pd.DataFrame({"accuracy": [0.76, 0.77]}),
    ...                "classifiers": clf, "paper": 91.0}}
    >>> diagnosis_table(res)[["hypothesis", "verdict"]].iloc[:2].to_dict("list")
    {'hypothesis': ['(a) the C path stops before any node enters', '(a) the C path stops before the accuracy rises'], 'verdict': ['not supported', 'supported']}
    """
    rows = []
    for d, r in results.items():
        if d == "cpu_seconds":
            continue
        folds, clf = r["path"][0], r["classifiers"]
        hkl = folds["accuracy"].to_numpy()
        bound = clf[list(STRONG)].max(axis=1).to_numpy()
        empty = int((folds["n_disjunctions"] == 0).sum())
        rows.append({"data set": d, "hypothesis": "(a) the C path stops before any node enters",
                     "experiment": "disjunctions selected by the protocol's refit",
                     "result": f"{folds['n_disjunctions'].min()}–{folds['n_disjunctions'].max()} "
                               f"per fold; none on {empty} of {len(folds)} folds",
                     "verdict": "supported" if empty else "not supported",
                     "diff": np.nan, "se": np.nan})
        rows.append(_row(d, "(a) the C path stops before the accuracy rises",
                         f"the same path run on to its cap ({MAX_CS} values of C)",
                         compare(hkl, folds["accuracy_full"]), True, "HKL to the cap − HKL"))
        b = "(b) booleanisation loses what matters"
        rows.append(_row(d, b, "HKL on deciles instead of quartiles",
                         compare(hkl, r["fine"]["accuracy"]), True, "deciles − quartiles"))
        for m in ("RBF SVM", "linear SVM"):
            rows.append(_row(d, b, f"tuned {m}: raw attributes vs booleanised",
                             compare(clf[f"{m} (booleanised)"], clf[f"{m} (raw)"]), True,
                             "raw − booleanised"))
        rows.append(_row(d, "(c) the split explains the paper's number",
                         "the paper's HKL vs the best strong classifier per fold",
                         compare(bound, r["paper"] / 100), False, "paper − best"))
        rows.append(_row(d, "(d) the class balance caps the accuracy",
                         "the best strong classifier per fold vs the majority class",
                         compare(clf["majority"], bound), False, "best − majority"))
        rows.append(_row(d, "(fit) HKL falls short of a linear model of its own features",
                         "a tuned linear SVM on the same booleanised features vs HKL",
                         compare(hkl, clf["linear SVM (booleanised)"]), True,
                         "linear SVM − HKL"))
        rows.append(_row(d, "(fit) HKL falls short of what the data allow",
                         "the best strong classifier per fold vs the protocol's HKL",
                         compare(hkl, bound), True, "best − HKL"))
        rows.append(_row(d, "(fit) HKL does no better than the majority class",
                         "the protocol's HKL vs the majority class",
                         compare(folds["majority"], hkl), False, "HKL − majority"))
    return pd.DataFrame(rows)

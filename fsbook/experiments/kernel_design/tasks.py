"""The tasks of the protocol: data, splits, the parts (one function per ``method``) and each
part's model search; :func:`make_tasks` and :func:`run_task`.

Every split: a random 0.85/0.15 partition (seed from dataset and split), features standardised
with the training part's mean and deviation, ``n_train`` training triples from the labels of the
training part, ``n_test`` test triples from the test part (:func:`split`).  :data:`PARTS` maps a
task's ``method`` to the function that runs it.
"""
from __future__ import annotations

import functools
import itertools

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.metrics import accuracy_score
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.neighbors import NeighborhoodComponentsAnalysis
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from fsbook import datasets
from fsbook.baselines.mmc import MMC, UnboundedMetricError
from fsbook.decisions import RTOL, SCORE_ATOL, argbest
from fsbook.experiments._protocol_helpers import outcome_string
from fsbook.experiments._runner import task_seed, whole_datasets
from fsbook.experiments.kernel_design.paper import (
    BOOK_GRID,
    DATASETS,
    FULL_GRID,
    FULL_MU,
    MIXTURES,
    SELECTION_DATASETS,
    SELECTION_REPEATS,
    SINGLES,
    SVM_C,
    THRESHOLD,
    TIE_RULE,
    WEAK_MU,
)
from fsbook.kernel_design import (
    KernelDesign,
    WeakKernelSelector,
    dominance_violation,
    full_kernel_specs,
    kernel_stack,
    paper_test_triples,
    triplets_from_labels,
)
from fsbook.kernel_design.colgen import LEGACY_OPTIONS
from fsbook.model_selection import tuned_svm


@functools.cache
def load(name):
    """``(X, y)`` of a Table 1 dataset; Boston's class is ``MEDV > 25`` (the paper's footnote)."""
    b = getattr(datasets, f"load_{name}")()
    X = np.asarray(b.data, dtype=np.float64)
    y = np.asarray(b.target)
    if name == "boston":
        y = (y > 25.0).astype(int)
    return X, y.astype(int)


def _standardise(Xtr, *others):
    mean, std = Xtr.mean(axis=0), Xtr.std(axis=0)
    std[std == 0] = 1.0
    return [(Z - mean) / std for Z in (Xtr, *others)]


def _distinct(X, t):
    """Drop triples in which two points coincide by value (duplicated rows in the data)."""
    a, b, c = X[t[:, 0]], X[t[:, 1]], X[t[:, 2]]
    same = (a == b).all(1) | (a == c).all(1) | (b == c).all(1)
    return t[~same]


def respected(sim, t, distance=False):
    """Fraction of test triples ``(a, b, c)`` (``a, b`` same class) respected by the
    similarity matrix ``sim`` (or the distance matrix, ``distance=True``).

    "Respected" is strict: ``a`` must be more similar to ``b`` than to ``c`` (and ``b`` than ``c``)
    by more than :data:`fsbook.decisions.RTOL` relative to the larger of the two values compared.
    Mathematically equal similarities (duplicate or tied points, a kernel that is zero on the
    features that differ) are ties, not respected, on every machine; without the margin their
    last bits decided.  The margin is relative to each pair of values, so the tiny but distinct
    similarities of a narrow Gaussian kernel keep their order."""
    ab, ac, bc = sim[t[:, 0], t[:, 1]], sim[t[:, 0], t[:, 2]], sim[t[:, 1], t[:, 2]]

    def before(u, v):                 # u < v by more than RTOL relative to the pair
        return v - u > RTOL * np.maximum(np.abs(u), np.abs(v))

    ok = before(ab, ac) & before(ab, bc) if distance else before(ac, ab) & before(bc, ab)
    return float(np.mean(ok))


def respected_after_map(Z, t):
    """:func:`respected` for the Euclidean distances between the mapped test points ``Z`` (the
    metric-learning baselines, MMC and NCA)."""
    return respected(cdist(Z, Z), t, distance=True)


def split(params):
    """Standardised train/test parts and the training/test triples of one split."""
    X, y = load(params["dataset"])
    rng = np.random.default_rng(task_seed({"dataset": params["dataset"], "split": params["split"]}))
    perm = rng.permutation(y.size)
    n_tr = int(round(0.85 * y.size))
    tr, te = perm[:n_tr], perm[n_tr:]
    Xtr, Xte = _standardise(X[tr], X[te])
    seed = task_seed({"dataset": params["dataset"], "split": params["split"]}, "triples")
    t_tr = _distinct(Xtr, triplets_from_labels(y[tr], params["n_train"], seed))
    t_te = paper_test_triples(y[te], params["n_test"], seed + 1)
    return Xtr, y[tr], Xte, y[te], t_tr, t_te


def fit_mixture(method, Xtr, t_tr, g1, g2):
    """The mixture ``method`` of :data:`MIXTURES` fitted as every task fits it: the paper's
    widths (:data:`FULL_MU`, :data:`WEAK_MU`), the selection threshold :data:`THRESHOLD`, the
    points of ``Xtr`` as the preprocessor and the column generation's legacy options.

    The model searches (:func:`choose_gammas`) and the chance audit
    (:mod:`fsbook.experiments._chance`) refit the mixtures through this one function, so both see
    the model the stored tasks ran.

    Parameters
    ----------
    method : {"full", "weak", "weak_nonneg"}
        A key of :data:`MIXTURES`: the kernel family and how ``K^α`` is kept PSD.
    Xtr : ndarray of shape (n, d)
        The (standardised) training points.
    t_tr : ndarray of shape (T, 3)
        Training triples ``(a, b, c)``, indices into ``Xtr``, ``a`` and ``b`` of one class.
    g1, g2 : float
        The weights γ1 and γ2 of the LP.

    Returns
    -------
    KernelDesign
        The fitted estimator (``alpha_``, ``selected_features_``, ``kernel_matrix``).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.kernel_design.tasks import fit_mixture
    >>> from fsbook.kernel_design import triplets_from_labels
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 15)
    >>> X = np.c_[y + 0.3 * rng.standard_normal(30), rng.standard_normal((30, 2))]
    >>> est = fit_mixture("weak_nonneg", X, triplets_from_labels(y, 60, 0), 1e-4, 1e-4)
    >>> est.alpha_.shape[0] >= X.shape[1], bool(np.all(est.alpha_ >= 0))
    (True, True)
    """
    if method not in MIXTURES:
        raise ValueError(f"unknown mixture {method!r}; expected one of {sorted(MIXTURES)}")
    variant, psd = MIXTURES[method]
    return KernelDesign(variant=variant, gamma1=g1, gamma2=g2, full_mu=FULL_MU, weak_mu=WEAK_MU,
                        threshold=THRESHOLD, preprocessor=Xtr, psd=psd,
                        solver_options=LEGACY_OPTIONS).fit(t_tr)


def zero_implied(g1, g2, zero_at):
    """Whether the dominance LP's optimum at ``(g1, g2)`` is the zero mixture, known from the
    grid points ``zero_at`` (same triplets) whose optimum was ``α = 0``.

    With diagonal dominance, ``α = 0`` (every ``ε_t = 1``, ``s = 0``) has the objective ``T``
    at every ``(γ1, γ2)``, and every feasible point has ``Σ s ≥ 0`` and ``tr_S K^α ≥ 0``
    (``K^α_ii ≥ 0``).  So if ``α = 0`` is optimal at ``(a, b)``, then at ``γ1 ≥ a, γ2 ≥ b`` every
    feasible point costs at least what it cost at ``(a, b)``, hence at least ``T``: ``α = 0`` is
    optimal there too.  It is the only optimal ``α`` when ``(γ1, γ2) ≠ (a, b)`` and ``γ1 > 0``:
    a point with ``α ≠ 0`` has ``Σ s > 0``, and ``tr_S K^α = 0`` under dominance makes
    ``K^α = 0`` on ``S``, hence ``ε = 1`` and the objective ``T + γ1 Σ s > T`` — so a raise of
    either weight makes it dearer than ``T``.  The fit at such a point would return ``α = 0``,
    the zero kernel, and need not be run.

    Examples
    --------
    >>> from fsbook.experiments.kernel_design.tasks import zero_implied
    >>> zero_implied(0.1, 1.0, [(1e-4, 1e-2)]), zero_implied(1e-4, 1.0, [(1e-2, 1e-4)])
    (True, False)
    >>> zero_implied(1e-2, 1e-4, [(1e-2, 1e-4)])      # the point itself: its own fit decides
    False
    """
    return g1 > 0 and any(g1 >= a and g2 >= b and (g1, g2) != (a, b) for a, b in zero_at)


#: mixtures whose γ search skips the grid points where the optimum is implied to be α = 0
#: (:func:`zero_implied`): a skipped point scores the zero kernel's 0, never more than a fit
#: scores.  Version 3 skipped for the weak mixture only (whose stored choices the skipping keeps:
#: every one is the grid's first point).  For the full mixture the fits at such points return
#: ``α`` of order 1e-14 instead of 0 (HiGHS's tolerances), whose "kernel" scores test triples by
#: rounding noise, and in version 3 such a noise score won the search once (wdbc split 6 chose
#: γ = (0.1, 10) and refitted the zero kernel, a degenerate model).  Version 4 skips for both
#: mixtures, so a zero mixture is never chosen by the noise of its tolerance-sized weights.
SKIP_IMPLIED_ZERO = ("weak", "full")


def cv_halves(Xtr, ytr, n_train, n_val, seed):
    """The two folds of the γ search's 2-fold CV on the training part (:func:`choose_gammas`,
    the regimes' search of :mod:`~fsbook.experiments.kernel_design.ablations`): for each, the
    indices ``ia`` of the half that trains and ``ib`` of the half that scores, ``n_train // 2``
    distinct training triples of ``ia`` and ``n_val`` test triples of ``ib``, all drawn from
    ``seed``.

    Examples
    --------
    >>> X, y = load("iris")
    >>> [(ia.size, ib.size, len(ta), len(tb)) for ia, ib, ta, tb in cv_halves(X[:60], y[:60], 40, 30, 0)]
    [(30, 30, 20, 30), (30, 30, 20, 30)]
    """
    perm = np.random.default_rng(seed).permutation(ytr.size)
    halves = [perm[: ytr.size // 2], perm[ytr.size // 2:]]
    for fold, (ia, ib) in enumerate([(halves[0], halves[1]), (halves[1], halves[0])]):
        yield (ia, ib, _distinct(Xtr[ia], triplets_from_labels(ytr[ia], n_train // 2, seed + 10 + fold)),
               paper_test_triples(ytr[ib], n_val, seed + 20 + fold))


def choose_gammas(method, Xtr, ytr, grid, n_train, n_val, seed, skip_implied_zero=None):
    """γ1, γ2 by 2-fold CV on the training part (Section 3.1: "splitting the training set in
    two halves"); returns ``(g1, g2, cv_table)``.  Scores within :data:`fsbook.decisions.SCORE_ATOL`
    are ties, which go to the first pair in grid order.

    With ``skip_implied_zero`` (default: ``method in SKIP_IMPLIED_ZERO``) a dominance mixture is
    not refitted at the grid points where :func:`zero_implied` shows the optimum is the zero
    mixture: their score is the zero kernel's (no test triple is respected).  The weak
    mixture's LP has ``α = 0`` at the grid's first point on the stored splits, so this saves 35
    of its 36 fits per fold.  ``skip_implied_zero=False`` fits every grid point (the reference;
    ``tests/test_kernel_design.py`` checks that both give the same table where the fits return
    exact zeros, and that the skipped points are zero mixtures up to HiGHS's tolerance)."""
    if skip_implied_zero is None:
        skip_implied_zero = method in SKIP_IMPLIED_ZERO
    skip = skip_implied_zero and MIXTURES[method][1] == "dominance"
    scores = {}
    for ia, ib, ta, tb in cv_halves(Xtr, ytr, n_train, n_val, seed):
        zero_at = []
        for g1, g2 in itertools.product(grid, grid):
            if skip and zero_implied(g1, g2, zero_at):
                s = respected(np.zeros((ib.size, ib.size)), tb)
            else:
                est = fit_mixture(method, Xtr[ia], ta, g1, g2)
                s = respected(est.kernel_matrix(Xtr[ib]), tb)
                if not np.any(est.alpha_):
                    zero_at.append((g1, g2))
            scores[(g1, g2)] = scores.get((g1, g2), 0.0) + s / 2
    pairs = list(scores)
    best = pairs[argbest([scores[k] for k in pairs], atol=SCORE_ATOL)]
    return best[0], best[1], scores


def _mixture_result(est, Xte, t_te):
    K_S = est.kernel_matrix(est.points_)
    diag = np.abs(np.diag(K_S)).max() if K_S.size else 0.0
    return {"score": respected(est.kernel_matrix(Xte), t_te),
            "n_selected": int(est.selected_features_.size),
            "n_kernels": int(np.sum(np.abs(est.alpha_) > THRESHOLD)),
            "alpha": est.alpha_.tolist(),
            "size_S": int(est.points_.shape[0]),
            "min_eig_S": float(np.linalg.eigvalsh(K_S).min()),
            "max_dominance_violation": float(np.max(dominance_violation(K_S))),
            "max_abs_diag": float(diag),
            "n_lp": int(est.lp_.n_iter)}


def _run_singles(params):
    """Figure 1's single kernels: no training, the fraction of test triples each respects."""
    Xtr, ytr, Xte, yte, t_tr, t_te = split(params)
    out = _split_header(params, t_tr)
    for name, (kind, p) in SINGLES.items():
        spec = full_kernel_specs(mu=(p,) if kind == "gaussian" else (),
                                 degree=int(p) if kind == "polynomial" else None,
                                 linear=kind == "linear")
        out[name] = respected(kernel_stack(spec, Xte)[0], t_te)
    return out


def _run_mmc(params):
    """Figure 3's baseline: Xing et al.'s MMC given each training triple as a similar and a
    dissimilar pair; ``score`` is ``None`` (undefined, not 0) when its problem is unbounded."""
    Xtr, ytr, Xte, yte, t_tr, t_te = split(params)
    out = _split_header(params, t_tr)
    pairs = np.concatenate([np.stack([Xtr[t_tr[:, 0]], Xtr[t_tr[:, 1]]], 1),
                            np.stack([Xtr[t_tr[:, 0]], Xtr[t_tr[:, 2]]], 1)])
    lab = np.concatenate([np.ones(t_tr.shape[0]), -np.ones(t_tr.shape[0])])
    try:
        m = MMC().fit(pairs, lab)
    except UnboundedMetricError as err:     # no optimum (Soybean Small): undefined, not 0
        out["score"], out["undefined"] = None, str(err)
        return out
    out["score"] = respected_after_map(m.transform(Xte), t_te)
    return out


def _run_nca(params):
    """The baseline a user would try: NCA on the training labels, triples by Euclidean distance."""
    Xtr, ytr, Xte, yte, t_tr, t_te = split(params)
    out = _split_header(params, t_tr)
    nca = NeighborhoodComponentsAnalysis(random_state=task_seed(params, "nca")).fit(Xtr, ytr)
    out["score"] = respected_after_map(nca.transform(Xte), t_te)
    return out


def _run_mixture(params):
    """A mixture of :data:`MIXTURES`: γ1, γ2 by 2-fold CV on the training part, refitted."""
    Xtr, ytr, Xte, yte, t_tr, t_te = split(params)
    out = _split_header(params, t_tr)
    method = params["method"]
    g1, g2, _ = choose_gammas(method, Xtr, ytr, params["grid"], params["n_train"],
                              params["n_test"] // 2, task_seed(params, "cv"))
    est = fit_mixture(method, Xtr, t_tr, g1, g2)
    out.update({"gamma1": g1, "gamma2": g2, **_mixture_result(est, Xte, t_te)})
    return out


def _split_header(params, t_tr):
    return {"n_features": int(load(params["dataset"])[0].shape[1]), "n_train_triples": int(t_tr.shape[0])}


def run_task(params):
    """One dataset × split × method (see module docstring): the function of :data:`PARTS`."""
    try:
        part = PARTS[params["method"]]
    except KeyError:
        raise ValueError(f"unknown method {params['method']!r}; expected one of {sorted(PARTS)}") from None
    return part(params)


def _run_cv10(params):
    """Figure 2: the weak mixture on the training folds of a 10-fold CV (fold ``split``)."""
    X, y = load(params["dataset"])
    kf = KFold(10, shuffle=True, random_state=task_seed({"dataset": params["dataset"]}, "cv10"))
    tr, _ = list(kf.split(X))[params["split"]]
    (Xtr,) = _standardise(X[tr])
    seed = task_seed(params)
    t_tr = _distinct(Xtr, triplets_from_labels(y[tr], params["n_train"], seed))
    g1, g2, _ = choose_gammas("weak", Xtr, y[tr], params["grid"], params["n_train"],
                              params["n_test"] // 2, seed + 1)
    est = fit_mixture("weak", Xtr, t_tr, g1, g2)
    return {"n_features": int(X.shape[1]), "n_selected": int(est.selected_features_.size),
            "gamma1": g1, "gamma2": g2}


def selection_svm():
    """The selection check's classifier: a linear SVM with ``C`` from :data:`SVM_C` chosen by
    3-fold CV on the training data (features standardised inside the search), ties to the first
    ``C`` (:data:`TIE_RULE`).  The selection tasks and the chance audit both build it here.

    Returns
    -------
    GridSearchCV
        Unfitted; ``fit(X, y)`` runs the search and refits on all of ``X``.

    Examples
    --------
    >>> from fsbook.experiments.kernel_design.tasks import load, selection_svm
    >>> X, y = load("wine")
    >>> svm = selection_svm().fit(X[::2], y[::2])
    >>> svm.best_params_["linearsvc__C"] in (0.01, 0.1, 1.0, 10.0)
    True
    """
    return tuned_svm(LinearSVC(max_iter=20_000, random_state=0), {"C": SVM_C}, None, scale=True,
                     tie=TIE_RULE)


def selection_fold(dataset, fold, repeat=0):
    """``(train, test)`` indices of fold ``fold`` of repetition ``repeat`` of the selection
    check's seeded stratified 5-fold CV of ``dataset`` (the same partition for every fold's task
    of one repetition).

    Each repetition's partition is seeded from the data set and the repetition only; repetition 0
    is the one partition of versions 2-5, so its tasks are the ones those versions stored.

    Examples
    --------
    >>> from fsbook.experiments.kernel_design.tasks import load, selection_fold
    >>> tests = [selection_fold("wine", f)[1] for f in range(5)]
    >>> sorted(int(i) for t in tests for i in t) == list(range(load("wine")[1].size))
    True
    >>> bool((selection_fold("wine", 0, repeat=1)[1] != tests[0]).any())   # another partition
    True
    """
    X, y = load(dataset)
    kf = StratifiedKFold(5, shuffle=True, random_state=task_seed(_repeat_params({"dataset": dataset},
                                                                                repeat), "sel"))
    return list(kf.split(X, y))[fold]


def _repeat_params(params, repeat):
    """``params`` with the repetition of the selection check, left out for repetition 0 so that
    its seeds are the single partition's of versions 2-5."""
    params = {k: v for k, v in params.items() if k != "repeat"}
    return {**params, "repeat": int(repeat)} if repeat else params


def _svm_on(columns, X, y, tr, te):
    """Test accuracy and per-sample outcomes (:func:`outcome_string`) of :func:`selection_svm`
    trained on ``columns`` (indices, or ``slice(None)`` for all) of the training fold."""
    predicted = selection_svm().fit(X[tr][:, columns], y[tr]).predict(X[te][:, columns])
    return float(accuracy_score(y[te], predicted)), outcome_string(predicted, y[te])


def _run_selection(params):
    """Linear SVM on all features vs on the features :class:`WeakKernelSelector` keeps (fold
    ``split`` of repetition ``repeat`` of a stratified 5-fold CV, :func:`selection_fold`; the
    selector sees standardised training features).  Besides the accuracies, the test samples'
    outcomes of both SVMs in the test fold's order (``outcomes_all``, ``outcomes_kept``: ``"1"``
    right, ``"0"`` wrong; version 5 on)."""
    X, y = load(params["dataset"])
    repeat = params.get("repeat", 0)
    tr, te = selection_fold(params["dataset"], params["split"], repeat)
    sel = make_pipeline(StandardScaler(), WeakKernelSelector(random_state=task_seed(_repeat_params(params, repeat)),
                                                             solver_options=LEGACY_OPTIONS))
    keep = sel.fit(X[tr], y[tr])[-1].get_support(indices=True)
    out = {"n_features": int(X.shape[1]), "n_kept": int(keep.size), "kept": keep.tolist()}
    out["acc_all"], out["outcomes_all"] = _svm_on(slice(None), X, y, tr, te)
    out["acc_kept"], out["outcomes_kept"] = (_svm_on(keep, X, y, tr, te) if keep.size
                                             else (float("nan"), None))
    return out


#: the function that runs each part (``method``) of a task
PARTS = {"singles": _run_singles, "mmc": _run_mmc, "nca": _run_nca, "weak_cv10": _run_cv10,
         "selection": _run_selection, **{m: _run_mixture for m in MIXTURES}}


def make_tasks(full):
    """Book: 2 splits, 300 training triples, γ grid {1e-4, 1e-1}; full: the paper's protocol.
    Both run the feature-selection check on :data:`SELECTION_DATASETS` (:data:`SELECTION_REPEATS`
    repetitions of 5-fold CV)."""
    n_splits, n_train, grid = (10, 1500, FULL_GRID) if full else (2, 300, BOOK_GRID)
    base = {"n_train": n_train, "n_test": 1000}
    tasks = []
    for d in DATASETS:
        for s in range(n_splits):
            for m in ("singles", "full", "weak", "weak_nonneg", "mmc", "nca"):
                t = {"dataset": d, "split": s, "method": m, **base}
                if m in MIXTURES:
                    t["grid"] = grid
                tasks.append(t)
        if full:
            tasks += [{"dataset": d, "split": f, "method": "weak_cv10", "grid": grid, **base}
                      for f in range(10)]
    tasks += [{"dataset": d, "repeat": r, "split": f, "method": "selection"} for d in SELECTION_DATASETS
              for r in range(SELECTION_REPEATS) for f in range(5)]
    return tasks


def stored_datasets(params_list, full=True):
    """The data sets all of whose tasks of ``make_tasks(full)`` are in ``params_list``, in the
    protocol's order (:data:`DATASETS`): the data sets a partial store (``read_store(PROTOCOL,
    allow_partial=True).params``) holds whole, so that its tables compare every method on them.
    A data set of :data:`SELECTION_DATASETS` is whole only with its feature-selection folds.

    Examples
    --------
    >>> from fsbook.experiments import kernel_design as KD
    >>> tasks = KD.tasks.make_tasks(False)
    >>> KD.tasks.stored_datasets([t for t in tasks if not (t["dataset"] == "wine" and t["method"] == "selection"
    ...                                                and t["split"] == 4)], full=False)
    ['boston', 'ionosphere', 'iris', 'balance_scale', 'wdbc', 'soybean_small', 'glass', 'pima']
    >>> KD.tasks.stored_datasets(tasks, full=True)          # the subsample's tasks are not the full protocol's
    []
    """
    return whole_datasets("kernel_design", params_list, DATASETS, full)


"""Why chapter 6's tuned L1-SVM is below the paper's on the 20 Newsgroups pair: one setting at a time.

The ``hkl`` protocol's Table 3 tunes an L1-SVM (liblinear's L1-regularised L2-loss SVM, ``C``
by inner 3-fold CV over :data:`~fsbook.experiments.hkl.paper.SVM_C_GRID`) on the pair's 0/1 word
indicators (words in ≥ 2 posts) over four stratified outer folds.  Its accuracy is about six
points below the paper's L1-SVM, while the tuned L2-SVM is above the paper's L2-SVM.  Each task
here reruns that L1-SVM on one outer fold, on the same folds and inner seeds
(:func:`fsbook.experiments.hkl.parts.svm_tuned_fold`), with **one** setting changed
(:data:`VARIANTS`): the ``C`` grid's range, the input (word counts, standardised indicators),
liblinear's iteration cap, the penalty on the intercept, the loss (the hinge loss: an LP, which
liblinear does not offer with the ℓ1 penalty), the penalty (liblinear's default solver is
ℓ2-regularised), and the vocabulary.  The variant ``"stored"`` changes nothing: it recomputes
the stored L1-SVM of the ``hkl`` protocol, the reference of every paired difference.

:func:`explanation_table` compares each variant with the reference over the four folds (the
paired t of :func:`fsbook.claims.paired_test`) and says whether it explains the gap to the
paper's number (:func:`explanation_verdict`).
"""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.experiments._runner import Protocol
from fsbook.experiments.hkl.models import tuned_l1_svm
from fsbook.experiments.hkl.paper import N_FOLDS, PAPER_TABLE3, SVM_C_GRID
from fsbook.experiments.hkl.parts import svm_tuned_fold
from fsbook.model_selection import tuned_svm

__all__ = ["PROTOCOL", "VARIANTS", "WIDE_C_GRID", "CONVERGED_MAX_ITER", "L1HingeSVM", "make_tasks", "run_task", "reduce",
           "explanation_table", "explanation_verdict", "EXPLAINS", "EXPLAINS_PART", "DOES_NOT_EXPLAIN",
           "INCONCLUSIVE"]

#: the ``C`` grid of the ``"c_grid"`` variant: the stored grid extended by two decades upward
#: (the stored search chose its largest value, 100, on two of the four folds)
WIDE_C_GRID = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0]

#: variant → (the explanation it tests, the setting changed: stored → tested), in the order
#: the tasks run (the reference ``"stored"`` last: the ``hkl`` store already holds its results)
VARIANTS = {
    "l2_penalty": ("the penalty: LIBLINEAR's default is ℓ2", "ℓ1 → ℓ2"),
    "c_grid": ("the C grid is capped too low for the ℓ1 penalty", "C ≤ 100 → C ≤ 10 000"),
    "hinge": ("the loss: hinge, not squared hinge", "squared hinge → hinge (LP)"),
    "intercept": ("liblinear penalises the intercept", "intercept scaling 1 → 100"),
    "counts": ("feature scaling: word counts", "0/1 → counts"),
    "standardised": ("feature scaling: standardised words", "0/1 → 0/1 ÷ s.d."),
    "converged": ("liblinear stops before it converges", "10 000 → 30 000 iterations"),
    "all_words": ("the vocabulary: every word", "words in ≥ 2 posts → all"),
    "stored": ("none (the stored L1-SVM, recomputed)", "—"),
}

#: the ``"converged"`` variant's iteration cap (three times the stored one; liblinear's ℓ1 solver
#: needs more than 10⁵ iterations for some C = 100 fits at its default tolerance, which would cost
#: minutes per fit)
CONVERGED_MAX_ITER = 30_000

#: verdicts of :func:`explanation_verdict`
EXPLAINS, EXPLAINS_PART, DOES_NOT_EXPLAIN, INCONCLUSIVE = ("explains", "explains part", "does not explain",
                                                           "inconclusive")


class L1HingeSVM(ClassifierMixin, BaseEstimator):
    """The 1-norm SVM with the hinge loss, ``min ‖w‖₁ + C Σ max(0, 1 − yᵢ(w·xᵢ + b))``, as an LP.

    liblinear offers the ℓ1 penalty only with the squared hinge loss; this is the same objective
    with the hinge loss (Zhu et al.'s 1-norm SVM), solved exactly by HiGHS
    (:func:`scipy.optimize.linprog`); the intercept ``b`` is not penalised.  Binary labels only.

    A helper of this ablation's ``"hinge"`` variant, not one of fsbook's public estimators
    (:func:`fsbook.capabilities.public_estimators`, the method subpackages' classes): it has no
    parameter validation, no ``sample_weight`` and no ``check_estimator`` test, and a weight
    passed to ``fit`` raises Python's own ``TypeError``.

    Parameters
    ----------
    C : float, default 1.0
        Weight of the hinge losses.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0., 1.], [1., 1.], [0., 0.], [1., 0.]])
    >>> model = L1HingeSVM(C=10.0).fit(X, [1, 1, 0, 0])
    >>> model.predict(X).tolist(), np.round(model.coef_, 6).tolist()
    ([1, 1, 0, 0], [0.0, 2.0])
    """

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        """Solve the LP on ``X`` (dense or sparse), ``y`` with two classes."""
        self.classes_, yi = np.unique(np.asarray(y), return_inverse=True)
        if self.classes_.size != 2:
            raise ValueError(f"L1HingeSVM needs two classes, got {self.classes_.size}")
        s = np.where(yi == 1, 1.0, -1.0)
        n, p = X.shape
        yx = sp.diags(s) @ sp.csr_matrix(X, dtype=np.float64)
        # variables: w⁺ (p), w⁻ (p), b (free), ξ (n);  −yᵢ(xᵢ·(w⁺ − w⁻) + b) − ξᵢ ≤ −1
        A = sp.hstack([-yx, yx, -s[:, None], -sp.eye(n)], format="csc")
        c = np.r_[np.ones(2 * p), 0.0, np.full(n, float(self.C))]
        bounds = [(0, None)] * (2 * p) + [(None, None)] + [(0, None)] * n
        res = linprog(c, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
        if res.status != 0:
            raise RuntimeError(f"HiGHS did not solve the 1-norm SVM's LP: {res.message}")
        self.coef_ = res.x[:p] - res.x[p:2 * p]
        self.intercept_ = float(res.x[2 * p])
        return self

    def decision_function(self, X):
        """``X w + b`` (positive: the second class)."""
        return np.asarray(X @ self.coef_).ravel() + self.intercept_

    def predict(self, X):
        """The class on the side of ``X``'s decision values."""
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


@functools.lru_cache(maxsize=4)
def _words(min_df, counts):
    """The pair's posts over the words in ≥ ``min_df`` posts: 0/1 indicators or counts."""
    from fsbook.datasets import load_20newsgroups
    from fsbook.datasets._newsgroups import PAIR

    news = load_20newsgroups("all", categories=list(PAIR))
    X = news.data.astype(np.float64).tocsr()
    cols = np.flatnonzero(np.asarray((X > 0).sum(axis=0)).ravel() >= min_df)
    X = X[:, cols].tocsr()
    return X if counts else (X > 0).astype(np.float64).tocsr()


def _grid_search(model, grid_name="C", grid=None):
    """``seed ↦`` the tuned ``model`` over ``grid`` (default the stored C grid)."""
    return lambda seed: tuned_svm(model, {grid_name: SVM_C_GRID if grid is None else grid}, seed)


def _variant(name):
    """``(X or None, l1 or None)`` of :func:`fsbook.experiments.hkl.parts.svm_tuned_fold` for ``name``."""
    l1 = tuned_l1_svm
    makers = {
        "stored": lambda: (None, None),
        "c_grid": lambda: (None, _grid_search(l1(), grid=WIDE_C_GRID)),
        "counts": lambda: (_words(2, True), None),
        "standardised": lambda: (None, _grid_search(make_pipeline(StandardScaler(with_mean=False), l1()),
                                                    "linearsvc__C")),
        "converged": lambda: (None, _grid_search(l1().set_params(max_iter=CONVERGED_MAX_ITER))),
        "intercept": lambda: (None, _grid_search(l1().set_params(intercept_scaling=100.0))),
        "hinge": lambda: (None, _grid_search(L1HingeSVM())),
        "l2_penalty": lambda: (None, _grid_search(l1().set_params(penalty="l2"))),
        "all_words": lambda: (_words(1, False), None),
    }
    if name not in makers:
        raise ValueError(f"unknown variant {name!r}; expected one of {list(makers)}")
    return makers[name]()


def make_tasks(full):
    """Full: every variant (:data:`VARIANTS`, in its order) on each of the four outer folds.
    Subsample: the ``"l2_penalty"`` variant and the reference (``"stored"``), four folds each."""
    names = list(VARIANTS) if full else ["l2_penalty", "stored"]
    return [{"variant": v, "fold": f} for v in names for f in range(N_FOLDS)]


def run_task(params):
    """The L1-SVM of variant ``params["variant"]`` on outer fold ``params["fold"]``: test accuracy
    (fraction), the chosen ``C`` and how many of its liblinear fits stopped unconverged."""
    X, l1 = _variant(params["variant"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        out = svm_tuned_fold(params["fold"], X=X, l1=l1, models=("L1",))
    unconverged = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
    return {"accuracy": out["L1"], "C": out["C_L1"], "unconverged_fits": int(unconverged)}


def reduce(params_list, results_list):
    """One table, ``folds``: one row per variant and fold (accuracy in %, chosen C, unconverged
    liblinear fits of its search)."""
    df = pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])
    df["accuracy"] *= 100
    return {"folds": df[["variant", "fold", "accuracy", "C", "unconverged_fits"]]}


def explanation_verdict(ci_low, ci_high, gap):
    """Whether a change of accuracy with 95 % interval ``(ci_low, ci_high)`` explains a ``gap``.

    :data:`EXPLAINS`: the interval excludes 0 upward and reaches the gap (the change is
    separable from none and not from the whole gap); :data:`EXPLAINS_PART`: it excludes 0 upward
    and lies below the gap; :data:`DOES_NOT_EXPLAIN`: it lies below the gap and contains 0 or lies
    below it; :data:`INCONCLUSIVE`: it contains both 0 and the gap.

    Examples
    --------
    >>> [explanation_verdict(lo, hi, 6.0) for lo, hi in [(4, 8), (1, 3), (-1, 2), (-2, 7)]]
    ['explains', 'explains part', 'does not explain', 'inconclusive']
    """
    if ci_low > 0:
        return EXPLAINS if ci_high >= gap else EXPLAINS_PART
    return INCONCLUSIVE if ci_high >= gap else DOES_NOT_EXPLAIN


def explanation_table(results, reference=None, paper=None):
    """Each candidate explanation of the gap between our tuned L1-SVM and the paper's.

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL)`` (``allow_partial=True`` for a store being built: a variant is
        shown once all its folds are stored).
    reference : array-like of 4 floats, optional
        The stored L1-SVM's accuracy (%) on each outer fold, the base of every paired
        difference: :func:`fsbook.experiments.hkl.table3_fold_accuracy` of the ``hkl`` store.
        Default: this protocol's ``"stored"`` variant, which recomputes it.
    paper : float, optional
        The paper's L1-SVM accuracy (%); default its Table 3,
        :data:`fsbook.experiments.hkl.paper.PAPER_TABLE3` ``["L1-SVM"]``.

    Returns
    -------
    DataFrame
        One row per variant other than ``"stored"`` with every fold stored: ``explanation``,
        ``setting`` (stored → tested), ``accuracy`` (mean over the folds, %), ``change`` (paired
        mean difference with the stored L1-SVM, points) with its 95 % interval ``ci_low``,
        ``ci_high`` (paired t over the four folds, :func:`fsbook.claims.paired_test`),
        ``folds_up`` (folds where it gains), ``C`` (chosen per fold), ``unconverged_fits`` and
        ``verdict`` (:func:`explanation_verdict` against the gap ``paper − stored``).  ``attrs``
        holds ``stored`` (the reference's mean), ``paper`` and ``gap``.
    """
    from fsbook.claims import paired_test

    folds = results.tables["folds"]
    paper = float(PAPER_TABLE3["L1-SVM"] if paper is None else paper)
    by = {v: g.sort_values("fold") for v, g in folds.groupby("variant", sort=False)
          if len(g) == N_FOLDS}
    ref = np.asarray(by["stored"]["accuracy"] if reference is None else reference, dtype=float)
    gap = paper - float(ref.mean())
    rows = []
    for v, (explanation, setting) in VARIANTS.items():
        if v == "stored" or v not in by:
            continue
        g = by[v]
        acc = g["accuracy"].to_numpy(dtype=float)
        t = paired_test(acc - ref, "paired_t")
        rows.append({"explanation": explanation, "setting": setting, "accuracy": float(acc.mean()),
                     "change": t["effect"], "ci_low": t["ci_low"], "ci_high": t["ci_high"],
                     "folds_up": t["n_direction"], "C": ", ".join(f"{c:g}" for c in g["C"]),
                     "unconverged_fits": int(g["unconverged_fits"].sum()),
                     "verdict": explanation_verdict(t["ci_low"], t["ci_high"], gap)})
    out = pd.DataFrame(rows)
    out.attrs.update(stored=float(ref.mean()), paper=paper, gap=gap)
    return out


PROTOCOL = Protocol(name="hkl_ablations", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="1", description="Chapter 6: the tuned L1-SVM on 20 Newsgroups, one setting "
                                             "changed at a time")

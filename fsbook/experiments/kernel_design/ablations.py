"""The variants that explain a gap: formulation (7) refitted under other regimes (raw features,
other widths, dominance per triple, α ≥ 0) to find why it learns the zero kernel.

:func:`weak_kernel_regimes` is not a protocol part: ``benchmarks/kernel_design.py --only regimes``
records its rows for the chapter, and
:func:`~fsbook.experiments.kernel_design.claims.regime_claims` decides the hypotheses on them.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from fsbook.decisions import SCORE_ATOL, argbest
from fsbook.experiments._runner import task_seed
from fsbook.experiments.kernel_design.paper import DATASETS, SINGLES, THRESHOLD, WEAK_MU
from fsbook.experiments.kernel_design.tasks import _distinct, _standardise, cv_halves, load, respected
from fsbook.kernel_design import (
    KernelDesign,
    full_kernel_specs,
    kernel_groups,
    kernel_stack,
    paper_test_triples,
    triplets_from_labels,
    weak_kernel_specs,
)
from fsbook.kernel_design.colgen import LEGACY_OPTIONS
from fsbook.kernel_design.lp import solve_block_dominance

#: the regimes of :func:`weak_kernel_regimes`: features ``"standardised"`` or ``"raw"``, the weak
#: kernels' widths μ, where diagonal dominance is asked (``"S"``: on all the triples' points, the
#: protocol's; ``"triple"``: on each triple's own 3 × 3 submatrix) or ``α ≥ 0`` instead
#: (``"nonnegative"``); the first is the protocol's own choice
REGIMES = {
    "ours": ("standardised", WEAK_MU, "S"),
    "raw features": ("raw", WEAK_MU, "S"),
    "narrow widths": ("standardised", (1e3, 1e4, 1e5), "S"),
    "wide widths": ("standardised", (0.01, 0.1), "S"),
    "dominance per triple": ("standardised", WEAK_MU, "triple"),
    "raw, dominance per triple": ("raw", WEAK_MU, "triple"),
    "α ≥ 0 (ours)": ("standardised", WEAK_MU, "nonnegative"),
}
#: γ1 and γ2 of the regimes' 2-fold CV
REGIME_GAMMA1 = (1e-4, 1e-2, 1.0, 100.0)
REGIME_GAMMA2 = (1e-4, 1e-1)
#: |α_p| at or below this is zero (HiGHS's feasibility tolerance is 1e-9)
ALPHA_ZERO_TOL = 1e-9


def _regime_fit(regime, Xtr, t, g1, g2):
    """α, the weak kernels and their groups of formulation (7) under ``regime`` (on scaled points)."""
    _, mu, where = REGIMES[regime]
    if where != "triple":
        est = KernelDesign(variant="weak", gamma1=g1, gamma2=g2, weak_mu=mu, threshold=THRESHOLD,
                           psd="nonnegative" if where == "nonnegative" else "dominance",
                           preprocessor=Xtr, solver_options=LEGACY_OPTIONS).fit(t)
        return est.alpha_, est.kernels_, est.groups_
    used = np.unique(t)                       # S and the triples in it, as KernelDesign builds them
    S, inv = np.unique(Xtr[used], axis=0, return_inverse=True)
    loc = inv.reshape(-1)[np.searchsorted(used, t)]
    specs = weak_kernel_specs(Xtr.shape[1], mu)
    groups, _ = kernel_groups(specs)
    res = solve_block_dominance(kernel_stack(specs, S), loc, groups, g1, g2, blocks=loc)
    return res.alpha, specs, groups


def _regime_score(alpha, specs, X, t):
    return respected(np.tensordot(alpha, kernel_stack(specs, X), 1), t)


def _n_selected(alpha, groups):
    gmax = np.zeros(int(groups.max()) + 1)
    np.maximum.at(gmax, groups, np.abs(alpha))
    return int(np.sum(gmax > THRESHOLD))


def _regime_split(dataset, split, n_train, n_test, scale):
    """One split of the protocol (:func:`split`), with the features standardised or raw."""
    X, y = load(dataset)
    rng = np.random.default_rng(task_seed({"dataset": dataset, "split": split}))
    perm = rng.permutation(y.size)
    n_tr = int(round(0.85 * y.size))
    tr, te = perm[:n_tr], perm[n_tr:]
    Xtr, Xte = _standardise(X[tr], X[te]) if scale == "standardised" else (X[tr], X[te])
    seed = task_seed({"dataset": dataset, "split": split}, "triples")
    t_tr = _distinct(Xtr, triplets_from_labels(y[tr], n_train, seed))
    return Xtr, y[tr], Xte, t_tr, paper_test_triples(y[te], n_test, seed + 1)


def _regime_gammas(regime, Xtr, ytr, n_train, n_val, seed):
    """γ1, γ2 by the protocol's 2-fold CV (:func:`choose_gammas`) for a regime."""
    pairs = list(itertools.product(REGIME_GAMMA1, REGIME_GAMMA2))
    scores = np.zeros(len(pairs))
    for ia, ib, ta, tb in cv_halves(Xtr, ytr, n_train, n_val, seed):
        for k, (g1, g2) in enumerate(pairs):
            alpha, specs, _ = _regime_fit(regime, Xtr[ia], ta, g1, g2)
            scores[k] += _regime_score(alpha, specs, Xtr[ib], tb) / 2
    return pairs[argbest(scores, atol=SCORE_ATOL)]


def weak_kernel_regimes(datasets=("iris", "wine", "glass"), n_splits=5, n_train=1500,
                        n_test=1000, regimes=tuple(REGIMES)):
    """Formulation (7) under the regimes of :data:`REGIMES`: does it learn a non-zero kernel,
    select features, and order test triples?

    For each data set, split (the protocol's 0.85/0.15 splits, seeds from data set and split,
    :func:`split` with the features standardised or raw) and regime: the weak-kernel LP on the
    ``n_train`` training triples at the smallest γ of the grid, γ1 = γ2 = 1e-4 (``alpha_zero``:
    its optimum is α = 0).  α = 0 there means α = 0 at every larger (γ1, γ2): raising a penalty
    raises every objective value but that of α = 0, which is the number of triples.  Otherwise γ1,
    γ2 are chosen by the protocol's 2-fold CV on the training part (:data:`REGIME_GAMMA1` ×
    :data:`REGIME_GAMMA2`), the LP is refitted, and the row holds the features selected
    (``n_selected``, max |α| over a feature's kernels > 0.01) and the fraction of the
    ``n_test`` test triples respected (``score``); where α = 0 these are 0 (the zero kernel
    orders no triple) and no γ is chosen.  Every row also holds the single linear and degree-2
    polynomial kernels' and the best single kernel's scores on the same test triples and
    scaling (``linear``, ``poly2``, ``best_single``: the highest of :data:`SINGLES`).

    Parameters
    ----------
    datasets : sequence of str
        Data sets of :data:`DATASETS`.
    n_splits, n_train, n_test : int
        Random splits, training triples and test triples per split.
    regimes : sequence of str
        Keys of :data:`REGIMES`.

    Returns
    -------
    pandas.DataFrame
        One row per data set, split and regime: ``dataset``, ``split``, ``regime``, ``n_train``,
        ``n_test``, ``scale``,
        ``mu``, ``dominance``, ``D``, ``size_S``, ``alpha_zero``, ``gamma1``, ``gamma2``,
        ``n_selected``, ``score``, ``min_eig_S`` (smallest eigenvalue of the learnt kernel on the
        triples' distinct points over its largest diagonal entry; NaN for α = 0), ``linear``, ``poly2``, ``best_single``, ``negative_features``
        (whether the scaled training part has a negative value).

    Examples
    --------
    >>> from fsbook.experiments.kernel_design.ablations import weak_kernel_regimes
    >>> df = weak_kernel_regimes(["iris"], n_splits=1, n_train=60, n_test=100,
    ...                          regimes=["ours", "dominance per triple"])
    >>> df["alpha_zero"].tolist()            # the protocol's regime, then dominance per triple
    [True, False]
    """
    unknown = [r for r in regimes if r not in REGIMES]
    if unknown:
        raise ValueError(f"unknown regimes {unknown}; expected some of {list(REGIMES)}")
    bad = [d for d in datasets if d not in DATASETS]
    if bad:
        raise ValueError(f"unknown data sets {bad}; expected some of {DATASETS}")
    if n_splits < 1 or n_train < 6 or n_test < 1:
        raise ValueError("need n_splits >= 1, n_train >= 6 and n_test >= 1")
    rows = []
    for d, s in itertools.product(datasets, range(n_splits)):
        singles = {}
        for regime in regimes:
            scale, mu, where = REGIMES[regime]
            Xtr, ytr, Xte, t_tr, t_te = _regime_split(d, s, n_train, n_test, scale)
            if scale not in singles:
                singles[scale] = {name: respected(kernel_stack(full_kernel_specs(
                    mu=(p,) if kind == "gaussian" else (), degree=int(p) if kind == "polynomial" else None,
                    linear=kind == "linear"), Xte)[0], t_te) for name, (kind, p) in SINGLES.items()}
            sing = singles[scale]
            alpha, specs, groups = _regime_fit(regime, Xtr, t_tr, REGIME_GAMMA1[0], REGIME_GAMMA2[0])
            row = {"dataset": d, "split": s, "regime": regime, "n_train": int(n_train), "n_test": int(n_test),
                   "scale": scale, "mu": list(mu),
                   "dominance": where, "D": int(Xtr.shape[1]), "size_S": int(np.unique(t_tr).size),
                   "alpha_zero": bool(np.abs(alpha).max() <= ALPHA_ZERO_TOL), "gamma1": np.nan, "gamma2": np.nan,
                   "min_eig_S": np.nan,
                   "n_selected": 0, "score": 0.0, "linear": sing["Linear"], "poly2": sing["Poly degree 2"],
                   "best_single": max(sing.values()), "negative_features": bool((Xtr < 0).any())}
            if not row["alpha_zero"]:
                g1, g2 = _regime_gammas(regime, Xtr, ytr, n_train, n_test // 2,
                                        task_seed({"dataset": d, "split": s, "regime": regime}, "cv"))
                alpha, specs, groups = _regime_fit(regime, Xtr, t_tr, g1, g2)
                K_S = np.tensordot(alpha, kernel_stack(specs, np.unique(Xtr[np.unique(t_tr)], axis=0)), 1)
                row.update(gamma1=g1, gamma2=g2, n_selected=_n_selected(alpha, groups),
                           score=_regime_score(alpha, specs, Xte, t_te),
                           min_eig_S=float(np.linalg.eigvalsh(K_S).min() / np.abs(np.diag(K_S)).max()))
            rows.append(row)
    return pd.DataFrame(rows)


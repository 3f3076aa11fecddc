"""Fold-level experiments on the 20 Newsgroups pair of the disjunctive-HKL chapter (Section 3).

Helpers, not a protocol: :func:`interaction_svm_fold` is the words-and-products check of the
``hkl`` protocol's Table 3 (:mod:`fsbook.experiments.hkl`); :func:`run_fold` (tuned L2-SVM,
L1-SVM and ``DisjunctiveHKLCV`` on one outer fold) serves ``benchmarks/hkl.py``.  The pair, its
vocabulary rule and its outer folds are :mod:`fsbook.datasets`'
(:func:`~fsbook.datasets.load_atheism_religion`, :func:`~fsbook.datasets.most_frequent_words`,
:func:`~fsbook.datasets.outer_folds`).
"""
from __future__ import annotations

import numpy as np
from sklearn.svm import SVC, LinearSVC

from fsbook.datasets import load_atheism_religion, most_frequent_words, outer_folds
from fsbook.decisions import SCORE_ATOL, argbest
from fsbook.experiments._protocol_helpers import outcome_string
from fsbook.model_selection import tuned_svm

__all__ = ["SVM_CS", "run_fold", "interaction_kernel", "interaction_svm_fold", "INTERACTION_GAMMAS"]


#: C grids of the tuned baselines (inner 3-fold stratified CV on the outer training part)
SVM_CS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)


def _svm_fold(Xtr, ytr, Xte, yte, penalty, seed):
    svm = LinearSVC(penalty=penalty, dual=(penalty == "l2"), max_iter=20_000, random_state=seed)
    gs = tuned_svm(svm, {"C": SVM_CS}, seed).fit(Xtr, ytr)
    return dict(accuracy=float(np.mean(gs.predict(Xte) == yte)), C=float(gs.best_params_["C"]),
                n_features=int(np.count_nonzero(gs.best_estimator_.coef_)))


def run_fold(fold, min_df=2, top_k=None, Cs=None, betas=("auto",), mu=0.3,
             max_active=300, max_add=50, seed=0):
    """One outer fold of the 20 Newsgroups protocol: tuned L2-SVM, L1-SVM and DisjunctiveHKLCV.

    Parameters
    ----------
    fold : int
        Outer fold (0–3) of :func:`outer_folds`.
    min_df : int
        Vocabulary rule (document frequency over all posts of the pair).
    top_k : int or None
        Keep only the ``top_k`` most frequent of those words (``None``: all).
    Cs, betas, mu, max_active, max_add
        Grid and settings of :class:`fsbook.hkl.DisjunctiveHKLCV`.
    seed : int
        Seed of the outer and inner folds.

    Returns
    -------
    dict
        Accuracies, chosen parameters, times (seconds) and the multi-word disjunctions found.
    """
    import time
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from fsbook.hkl import DisjunctiveHKLCV
    X, y, words = load_atheism_religion(min_df)
    if top_k is not None:
        cols = most_frequent_words(X, top_k)
        X, words = X[:, cols].tocsr(), words[cols]
    tr, te = outer_folds(y, seed=seed)[fold]
    out = dict(fold=fold, n_words=int(X.shape[1]), n_train=int(tr.size), n_test=int(te.size))
    for name, pen in (("l2_svm", "l2"), ("l1_svm", "l1")):
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = _svm_fold(X[tr], y[tr], X[te], y[te], pen, seed)
        out[name] = dict(r, seconds=time.perf_counter() - t0)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        hkl = DisjunctiveHKLCV(Cs=Cs, betas=betas, mu=mu, max_active=max_active, max_add=max_add,
                               binarize=None, cv=3, random_state=seed).fit(X[tr], y[tr])
    dis = [tuple(str(words[i]) for i in v) for v in hkl.disjunctions_]
    out["hkl"] = dict(accuracy=float(np.mean(hkl.predict(X[te]) == y[te])), C=hkl.C_,
                      beta=hkl.beta_, n_disjunctions=len(dis),
                      multi_word=[list(v) for v in dis if len(v) > 1],
                      duality_gap=float(hkl.duality_gap_), n_active=len(hkl.active_set_),
                      seconds=time.perf_counter() - t0)
    return out


#: weights γ of the word pairs relative to the single words in :func:`interaction_kernel`
#: (0: the linear kernel)
INTERACTION_GAMMAS = (0.0, 0.001, 0.01, 0.1)


def interaction_kernel(G, gamma, degree=2):
    """Kernel of the words and their products up to ``degree`` words:
    ``K = Σ_{d=1}^{degree} γ^{d−1} G^{∘d}``.

    For 0/1 word vectors with Gram matrix ``G = X Xᵀ``, the elementwise power
    ``(G^{∘d})_ij = Σ_{a_1…a_d} x_ia_1⋯x_ia_d x_ja_1⋯x_ja_d`` is the inner product of the
    conjunction features ``x_a_1⋯x_a_d`` (ordered tuples).  By inclusion–exclusion a disjunction of
    at most ``degree`` words is a linear combination of such products — for two words,
    ``x_a ∨ x_b = x_a + x_b − x_a x_b`` — so an SVM with ``K`` can use any linear combination of
    words and disjunctions of up to ``degree`` words, with a ridge penalty ``γ^{−(d−1)}`` times
    heavier on the products of ``d`` words.

    Parameters
    ----------
    G : ndarray of shape (m1, m2)
        ``X1 X2ᵀ`` for 0/1 rows ``X1``, ``X2``.
    gamma : float
        Relative weight ``γ ≥ 0`` of each further word of a product.
    degree : int, default=2
        Largest number of words in a product (1: the linear kernel).
    """
    if gamma < 0:
        raise ValueError(f"gamma must be >= 0, got {gamma}")
    if int(degree) != degree or degree < 1:
        raise ValueError(f"degree must be a positive integer, got {degree!r}")
    K, P = G.copy(), G
    for d in range(2, int(degree) + 1):
        P = P * G
        K += gamma ** (d - 1) * P
    return K


def interaction_svm_fold(fold, gammas=INTERACTION_GAMMAS, Cs=SVM_CS, seed=0, min_df=2, degree=2,
                         inner_seed=None, outcomes=False):
    """Can disjunctions of a few words add anything to a linear SVM on the pair?  One outer fold.

    An SVM (libsvm, precomputed kernel) with :func:`interaction_kernel` of the given ``degree``
    on all words of the pair,
    ``C`` and ``γ`` chosen together by inner 3-fold stratified CV on the outer training posts
    (``γ = 0``, the linear kernel, is one of the choices; ties go to the smaller ``γ``), against
    the same SVM with ``γ = 0`` and ``C`` alone tuned, on the outer folds of :func:`outer_folds`
    (seeded by ``seed``; the inner folds by ``inner_seed``, default ``seed``).

    Returns
    -------
    dict
        ``linear`` and ``interactions``: test accuracy (fraction), chosen ``C`` (and ``gamma``),
        inner-CV accuracy of the chosen setting (``inner``); with ``outcomes=True`` also the test
        posts' outcomes (``outcomes``, a string of ``"1"`` correct and ``"0"`` wrong in test order).
    """
    X, y, _ = load_atheism_religion(min_df)
    tr, te = outer_folds(y, seed=seed)[fold]
    G = (X @ X.T).toarray()
    inner = seed if inner_seed is None else inner_seed
    fits = []
    for g in sorted(gammas):
        K = interaction_kernel(G, g, degree)
        gs = tuned_svm(SVC(kernel="precomputed"), {"C": Cs}, inner)
        gs.fit(K[np.ix_(tr, tr)], y[tr])
        predicted = gs.predict(K[np.ix_(te, tr)])
        fits.append(dict(gamma=float(g), C=float(gs.best_params_["C"]),
                         inner=float(gs.cv_results_["mean_test_score"][gs.best_index_]),
                         accuracy=float(np.mean(predicted == y[te]))))
        if outcomes:
            fits[-1]["outcomes"] = outcome_string(predicted, y[te])
    linear = next((f for f in fits if f["gamma"] == 0.0), None)
    best = fits[argbest([f["inner"] for f in fits], atol=SCORE_ATOL)]   # ties: the smallest γ
    out = dict(fold=int(fold), degree=int(degree), interactions=best)
    if linear is not None:
        out["linear"] = {k: v for k, v in linear.items() if k != "gamma"}
    return out

"""Tables 2-4 (20 Newsgroups): the vocabulary, the topics, the designs and the cross-validated
logistic regression of a pairwise text task.

Their protocol is :mod:`fsbook.experiments.projection.text` (its own store,
``results/projection_text``); this module holds the parts it shares with the ablations and the
benchmark: :func:`newsgroups_vocabulary`, :func:`newsgroups_topics`,
:func:`newsgroups_designs`, the cross-validation on the exact batched logistic path of
:mod:`fsbook.projection.logistic` (:func:`lgr_choice`, :func:`lgr_fast_fit`) and the
scikit-learn reference (:func:`_lgr_cv_search`).
"""

import functools
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import LatentDirichletAllocation
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from fsbook._compat import LineSearchWarning
from fsbook.decisions import SCORE_ATOL, argbest, tie_refit
from fsbook.experiments.projection.paper import (
    LGR_SOLVER,
    NEWS_FRACS,
    NEWS_PAIRS,
    NEWS_REDUCED_PENALTY,
)
from fsbook.projection import augment_features
from fsbook.projection.logistic import lgr_cv_path, lgr_refit_decision


def newsgroups_vocabulary(X, y, per_group=200, n_common=20):
    """Vocabulary of Section 3.2: the ``n_common`` most frequent words of the training corpus
    are set aside, then each group contributes its ``per_group`` most frequent remaining words.

    Returns the sorted column indices of the union.
    """
    X = X.tocsr()
    common = set(np.argsort(-np.asarray(X.sum(0)).ravel(), kind="stable")[:n_common].tolist())
    keep = set()
    for g in np.unique(y):
        order = np.argsort(-np.asarray(X[y == g].sum(0)).ravel(), kind="stable")
        keep.update([j for j in order[:per_group + n_common].tolist() if j not in common][:per_group])
    return np.array(sorted(keep))


def newsgroups_topics(X_train, X_all, n_topics, seed=0, max_iter=10):
    """Fit LDA on the training documents and return topic proportions of all documents."""
    lda = LatentDirichletAllocation(n_components=n_topics, learning_method="online", batch_size=512,
                                    max_iter=max_iter, random_state=seed, n_jobs=1)
    lda.fit(X_train)
    return lda.transform(X_all)


def _lgr_cv_search(A_tr, y_tr, grid, seed):
    """Logistic regression, C = 1/(2α) by stratified CV (≤ 5 folds, :class:`GridSearchCV`;
    CV accuracies within :data:`fsbook.decisions.SCORE_ATOL` are ties, which go to the largest
    α: the simplest model, and the best-conditioned fit), solved by :data:`LGR_SOLVER`.
    Returns the fitted search (the reference of the text tasks).

    At α ≤ 1e-6 on word counts Newton-CG's gradient test (``tol=1e-8`` on scikit-learn's
    objective divided by ``C n``) passes far from the optimum: on one 10 % task the objective
    at α = 1e-8 is 246 against the optimum's 194 (:func:`fsbook.projection.logistic.logistic_path`), with decision values
    off by up to 111.  Those fits are where Newton-CG stops, not the solution of the problem.
    """
    n_folds = int(min(5, np.bincount(y_tr).min()))
    Cs = np.sort(1.0 / (2 * np.asarray(grid)))                 # smallest C (largest α) first
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)   # a fit at the iteration cap is a bug
        # At the grid's largest α (1e10, C = 5e-11) the optimum is w ≈ 0 (|w| < 1e-9) and the
        # objective is flat to rounding: Newton-CG's line search then stops on rounding before its
        # gradient test and says so, in runs that differ between machines.  The fit is at its
        # optimum (tests/test_projection_experiments.py checks |w|); the notice is not shown.
        warnings.filterwarnings("ignore", category=LineSearchWarning)
        warnings.filterwarnings("ignore", message="Line Search failed", category=UserWarning)
        return GridSearchCV(LogisticRegression(**LGR_SOLVER), {"C": list(Cs)}, refit=tie_refit(),
                            error_score="raise", cv=StratifiedKFold(n_folds, shuffle=True, random_state=seed)).fit(A_tr, y_tr)


def _lgr_cv(A_tr, y_tr, A_te, y_te, grid, seed):
    """Test error of :func:`_lgr_cv_search`'s refitted model."""
    return float(np.mean(_lgr_cv_search(A_tr, y_tr, grid, seed).predict(A_te) != y_te))


#: tie rules of :func:`lgr_fast_fit` on the cross-validation path
LGR_TIE_RULES = ("first", "lexicographic")


def lgr_choice(path, tie="first"):
    """Index of the C a cross-validation path (:func:`lgr_cv_path`) chooses.

    ``tie="first"`` (the protocol's rule, version 4): the best mean validation accuracy, ties
    within :data:`~fsbook.decisions.SCORE_ATOL` to the first (largest α).
    ``tie="lexicographic"`` (the rule of version 5's SVMs): the best mean accuracy; among its ties the
    models that predict both classes on the pooled validation documents over those that
    predict one class for all of them (the majority-rate models, at chance), then the smallest
    mean validation log-loss (:data:`~fsbook.decisions.RTOL`), then the first
    (:func:`fsbook.decisions.argbest_lexicographic`).  A one-class model is chosen only when
    every tied model is one.

    Examples
    --------
    >>> path = {"accuracy": np.array([[0.75, 0.75, 0.75]]), "log_loss": np.array([[0.56, 0.9, 0.5]]),
    ...         "positive": np.array([[0.0, 0.5, 0.25]]), "n_validation": np.array([4])}
    >>> lgr_choice(path), lgr_choice(path, "lexicographic")
    (0, 2)
    """
    from fsbook.decisions import argbest_lexicographic
    acc = path["accuracy"].mean(axis=0)
    if tie == "first":
        return argbest(acc, atol=SCORE_ATOL)
    if tie != "lexicographic":
        raise ValueError(f"unknown tie rule {tie!r}; choose one of {LGR_TIE_RULES}")
    w = np.asarray(path["n_validation"], dtype=float)[:, None]
    pos = (path["positive"] * w).sum(axis=0) / w.sum()
    both = ((pos > 0) & (pos < 1)).astype(float)
    return argbest_lexicographic(acc, both, path["log_loss"].mean(axis=0), maximize=(True, True, False),
                                 atol=(SCORE_ATOL, 0.0, 0.0))


def _lgr_refit_error(A_tr, y_tr, A_te, y_te, C):
    """Test error of :data:`LGR_SOLVER`'s logistic regression at ``C`` fitted on all of
    ``A_tr``: what :func:`_lgr_cv`'s ``GridSearchCV`` refits (same estimator, same data)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        warnings.filterwarnings("ignore", category=LineSearchWarning)
        warnings.filterwarnings("ignore", message="Line Search failed", category=UserWarning)
        model = LogisticRegression(C=C, **LGR_SOLVER).fit(A_tr, y_tr)
    return float(np.mean(model.predict(A_te) != y_te))


def lgr_fast_fit(A_tr, y_tr, A_te, y_te, grid, seed, refit="exact", tie="first"):
    """``(C, test error)`` of :func:`_lgr_cv`'s model with the cross-validation by
    :func:`lgr_cv_path` (one batched exact solve instead of ``folds × len(grid)``
    scikit-learn fits): the same folds and, with ``tie="first"``, the same tie rule on the mean
    validation accuracy (:func:`fsbook.decisions.argbest`, atol
    :data:`~fsbook.decisions.SCORE_ATOL`, first = largest α; :func:`lgr_choice` for the
    proposed ``"lexicographic"`` rule).  The chosen C is refitted on all of ``A_tr`` by
    :func:`~fsbook.projection.logistic.logistic_path`
    (``refit="exact"``, warm-started along the grid up to C) or by :func:`_lgr_cv`'s
    scikit-learn estimator (``refit="sklearn"``, :func:`_lgr_refit_error`).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.projection.paper import GRID
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(40, 30)); y = np.repeat([0, 1], 20); A[y == 1, :3] += 1.5
    >>> C, err = lgr_fast_fit(A[::2], y[::2], A[1::2], y[1::2], GRID, seed=0)
    >>> float(C) in (1.0 / (2 * GRID)).tolist(), 0.0 <= err <= 0.5
    (True, True)
    """
    if refit not in ("exact", "sklearn"):
        raise ValueError(f"refit must be 'exact' or 'sklearn', got {refit!r}")
    path = lgr_cv_path(A_tr, y_tr, grid, seed)
    best = lgr_choice(path, tie)
    C = path["C"][best]
    if refit == "sklearn":
        return C, _lgr_refit_error(A_tr, y_tr, A_te, y_te, C)
    z = lgr_refit_decision(A_tr, y_tr, A_te, path["C"][:best + 1])
    return C, float(np.mean((z > 0) != (np.asarray(y_te) == 1)))


def newsgroups_sample(y_tr, frac, seed):
    """Sorted indices of the training documents a text task samples: ``max(4, round(frac · m))``
    of its ``m``, drawn again until each class has at least 2.

    Examples
    --------
    >>> newsgroups_sample(np.repeat([0, 1], 100), 0.02, seed=0).size
    4
    """
    rng = np.random.default_rng(seed)
    m = len(y_tr)
    n = max(4, int(round(frac * m)))
    while True:
        idx = np.sort(rng.choice(m, n, replace=False))
        if np.bincount(y_tr[idx], minlength=2).min() >= 2:
            return idx


def newsgroups_designs(X_tr, Z_tr, y_tr, X_te, Z_te, frac, seed, reduced_penalty=NEWS_REDUCED_PENALTY):
    """``({method: (A_train, A_test)}, y_train)``: the design matrices of one pairwise task's three
    logistic regressions (:data:`NEWS_METHODS`) on its sampled training documents
    (:func:`newsgroups_sample`) and its test documents: the words (L2-LGR), the topic
    proportions (LGR-Topic) and ``[x; θ(x)/√ρ]`` (Proj-Topic, eq. 7 with Section 2.5's trick).

    Examples
    --------
    >>> import numpy as np
    >>> X, Z, y = np.ones((10, 5)), np.full((10, 2), 0.5), np.repeat([0, 1], 5)
    >>> d, ys = newsgroups_designs(X, Z, y, X[:3], Z[:3], 0.5, seed=0)
    >>> {m: a.shape for m, (a, _) in d.items()}, len(ys)
    ({'L2-LGR': (5, 5), 'LGR-Topic': (5, 2), 'Proj-Topic': (5, 7)}, 5)
    """
    idx = newsgroups_sample(y_tr, frac, seed)
    Xs, Zs, ys = X_tr[idx], Z_tr[idx], y_tr[idx]
    s = 1 / np.sqrt(reduced_penalty)
    return {"L2-LGR": (Xs, X_te), "LGR-Topic": (Zs, Z_te),
            "Proj-Topic": (augment_features(Xs, Zs, s), augment_features(X_te, Z_te, s))}, ys


@functools.lru_cache(maxsize=1)
def newsgroups_corpus():
    """Training and test counts on the Section 3.2 vocabulary (loaded once per process)."""
    from fsbook.datasets import load_20newsgroups
    tr, te = load_20newsgroups(subset="train"), load_20newsgroups(subset="test")
    cols = newsgroups_vocabulary(tr.data, tr.target)
    Xtr = tr.data[:, cols].astype(float).tocsr()
    Xte = te.data[:, cols].astype(float).tocsr()
    return Xtr, tr.target, Xte, te.target


@functools.cache
def _news_topics(n_topics):
    """Topic proportions ``(Z_train, Z_test)`` of the LDA with ``n_topics`` topics (seed 0),
    fitted once per topic count and process (at most 15 MB each): ``verify`` recomputes text
    tasks of every topic count in key order, and a smaller cache refitted an LDA (about 45 s)
    for almost every task."""
    Xtr, _, Xte, _ = newsgroups_corpus()
    Z = newsgroups_topics(Xtr, sp.vstack([Xtr, Xte]).tocsr(), n_topics=n_topics, seed=0)
    return Z[:Xtr.shape[0]], Z[Xtr.shape[0]:]


def newsgroups_pair(params, topics=True, corpus=None):
    """The arguments of :func:`newsgroups_designs` for a text task (``{"table", "topics", "run",
    "pair"}``, :mod:`fsbook.experiments.projection.text`): the pair's
    training and test documents (words ``X_*``, topic proportions ``Z_*`` of the LDA with
    ``params["topics"]`` topics, or ``None`` with ``topics=False``), labels (1: the pair's
    second group), the table's fraction and the task's seed.  ``corpus`` replaces
    :func:`newsgroups_corpus`'s ``(X_train, y_train, X_test, y_test)`` (another representation
    of the same posts)."""
    Xtr, ytr, Xte, yte = newsgroups_corpus() if corpus is None else corpus
    Ztr, Zte = _news_topics(params["topics"]) if topics else (None, None)
    pair = tuple(params["pair"])
    g1, g2 = pair
    itr, ite = np.flatnonzero((ytr == g1) | (ytr == g2)), np.flatnonzero((yte == g1) | (yte == g2))
    return {"X_tr": Xtr[itr], "Z_tr": None if Ztr is None else Ztr[itr], "y_tr": (ytr[itr] == g2).astype(int),
            "X_te": Xte[ite], "Z_te": None if Zte is None else Zte[ite], "y_te": (yte[ite] == g2).astype(int),
            "frac": NEWS_FRACS[params["table"]], "seed": params["run"] * 1000 + NEWS_PAIRS.index(pair)}

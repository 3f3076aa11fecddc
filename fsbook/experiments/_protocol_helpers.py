"""Helpers shared by the protocols: the one selector registry and the per-sample outcomes.

:func:`make_selector` builds every feature selector a protocol compares, under the one set of
labels :data:`SELECTOR_LABELS` the book prints; :func:`outcome_string` stores a test fold's
per-sample outcomes.  The tuned SVM every protocol uses lives in :mod:`fsbook.model_selection`
(re-exported here for the protocols that import it from this module).
"""
from __future__ import annotations

import functools

import numpy as np

from fsbook.model_selection import (  # noqa: F401  (re-exported for the protocols)
    LEXICOGRAPHIC_SCORING,
    SVM_TIE_RULES,
    inner_folds,
    lexicographic_svm_refit,
    tuned_svm,
)

__all__ = ["SELECTOR_LABELS", "SVM_TIE_RULES", "inner_folds", "lexicographic_svm_refit", "make_selector",
           "outcome_string", "tuned_svm"]

#: the selectors' labels, one per method, in the book's order (the papers' wording: ``SVM-RFE``
#: for Guyon et al.'s recursive elimination, ``ReliefF`` for Relief with k = 10 neighbours)
SELECTOR_LABELS = ("MI", "SVM-RFE", "l1-SVM", "ReliefF", "CFS", "FOHSIC", "LS", "LDFS", "HSFS",
                   "WK-LP")


#: HSFS's pair kernel in the stores computed with the earlier defaults (``earlier_defaults=True``
#: of :func:`make_selector`: the benchmark and the selection suite): libm's ``exp``, the kernel
#: they were run with.  HSFS's default is the vectorised kernel (one ulp from libm, faster); on
#: an ARCENE fold of the l1linf store that ulp moved the path to other features at k = 6, 8, 10,
#: so adopting it is a new version of a protocol (l1linf's version 5 adopted it).
HSFS_PAIR_KERNEL = "libm"


def outcome_string(predicted, y_test):
    """The test samples' outcomes in test-fold order, ``"1"`` correct and ``"0"`` wrong (the
    per-sample units of the exact sign test on a single partition).

    Examples
    --------
    >>> outcome_string(np.array([0, 1, 1]), np.array([0, 0, 1]))
    '101'
    """
    return "".join("1" if ok else "0" for ok in np.asarray(predicted) == np.asarray(y_test))


def make_selector(method, k, seed, *, l1linf_path=None, boolean=False, earlier_defaults=False):
    """The selector labelled ``method`` keeping ``k`` features, seeded with ``seed``.

    Parameters
    ----------
    method : str
        One of :data:`SELECTOR_LABELS`.
    k : int
        Number of features to keep (ignored by ``CFS``, which picks its own).
    seed : int
        ``random_state`` of the seeded selectors (MI, SVM-RFE, l1-SVM, LDFS, HSFS, WK-LP).
    l1linf_path : dict or None
        Path settings (``tol``, ``max_iter``, ``max_bisect``) of LDFS and HSFS; required by them.
    boolean : bool, default False
        Whether the features are 0/1 (CFS then discretises nothing).
    earlier_defaults : bool, default False
        The settings of stores computed before four defaults changed: SVM-RFE with liblinear's
        dual solve (``solver="dual"``), LDFS without the shrinkage of its within-class scatter
        (``shrinkage=None``), HSFS with libm's ``exp`` (:data:`HSFS_PAIR_KERNEL`) and WK-LP's
        column generation without the tie rule and the faster start
        (:data:`fsbook.kernel_design.colgen.LEGACY_OPTIONS`).

    Examples
    --------
    >>> make_selector("ReliefF", 3, seed=0)
    Relief(n_features_to_select=3)
    >>> make_selector("RFE", 3, seed=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown selector 'RFE'; expected one of ('MI', 'SVM-RFE', ...
    """
    from sklearn.feature_selection import SelectKBest

    from fsbook.baselines import FOHSIC, SVMRFE, L1SVMSelector, LaplacianScore, Relief
    from fsbook.baselines.mutual_info import mutual_info_classif
    from fsbook.baselines.weka_selector import WekaSubsetSelector
    from fsbook.kernel_design import WeakKernelSelector
    from fsbook.kernel_design.colgen import LEGACY_OPTIONS
    from fsbook.l1linf import HSFS, LDFS

    if method not in SELECTOR_LABELS:
        raise ValueError(f"unknown selector {method!r}; expected one of {SELECTOR_LABELS}")
    if method in ("LDFS", "HSFS") and l1linf_path is None:
        raise ValueError(f"{method} needs l1linf_path (tol, max_iter, max_bisect)")
    makers = {"MI": lambda: SelectKBest(functools.partial(mutual_info_classif, random_state=seed), k=k),
              "SVM-RFE": lambda: SVMRFE(k, solver="dual" if earlier_defaults else "converged", random_state=seed),
              "l1-SVM": lambda: L1SVMSelector(k, tol=1e-6, random_state=seed),
              "ReliefF": lambda: Relief(k),
              "CFS": lambda: WekaSubsetSelector("cfs", "best_first", discrete_features=boolean),
              "FOHSIC": lambda: FOHSIC(k),
              "LS": lambda: LaplacianScore(k),
              "LDFS": lambda: LDFS(k, random_state=seed, **l1linf_path,
                                   **({"shrinkage": None} if earlier_defaults else {})),
              "HSFS": lambda: HSFS(k, random_state=seed, **l1linf_path,
                                   **({"pair_kernel": HSFS_PAIR_KERNEL} if earlier_defaults else {})),
              "WK-LP": lambda: WeakKernelSelector(n_features_to_select=k, random_state=seed,
                                                  **({"solver_options": LEGACY_OPTIONS} if earlier_defaults
                                                     else {}))}
    return makers[method]()

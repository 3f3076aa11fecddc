"""The benchmark's declarations: its methods (one table), data sets, grids, settings and the
version history of its store.

Chapter 7 reproduces no paper's table: its "paper" is the design the chapter states, declared
here once.  :mod:`fsbook.experiments.benchmark.tasks` runs it and
:mod:`fsbook.experiments.benchmark.tables` reduces it.

Examples
--------
>>> from fsbook.experiments.benchmark import paper
>>> paper.METHOD_TABLE["HKL"]
Method(family='book', own_size=False, ranker=True, unscaled=True, full_only=True)
>>> paper.RANKERS == {m for m, row in paper.METHOD_TABLE.items() if row.ranker}
True
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fsbook.claims import hodges_lehmann

__all__ = ["Method", "METHOD_TABLE", "BASELINES", "BOOK_METHODS", "CLASSIFIER_SIDE", "OWN_SIZE", "RANKERS",
           "UNSCALED", "FULL_ONLY", "HKL_SETTINGS", "SVM_TIES", "EARLIER_DEFAULTS", "WALL_FIT_TIME", "ROW_SPACE", "VERSION", "HKL_N_BINS", "GEO_MAX_GROUPS",
           "BOOK_DATASETS", "FULL_DATASETS", "TEXT_DATASETS", "VOCABULARY", "BOOK_KS", "FULL_KS", "L1LINF_FAST",
           "C_LINEAR", "C_RBF", "PROJ_PENALTIES", "RANK_K", "CLASSIFIERS", "fit_clock", "fit_time_unit", "methods", "all_methods",
           "order_margin", "over_datasets_margin"]


class Method(NamedTuple):
    """How the protocol treats one method (a row of :data:`METHOD_TABLE`).

    Attributes
    ----------
    family : {"baseline", "book", "classifier side"}
        A usual baseline (``none`` included), a method of the book's papers that selects
        features, or a classifier-side method that keeps every feature (compared with ``none``,
        not ranked with the selectors).
    own_size : bool
        It chooses its own number of features (one point instead of a curve; ``k`` = 0 in its
        tasks).
    ranker : bool
        Its scores do not depend on ``k``: fitted once per task and cut at every ``k``
        (:func:`~fsbook.experiments.benchmark.selectors.support_at`).
    unscaled : bool
        Fitted on the unscaled training fold (it booleanises the fold itself).
    full_only : bool
        Run in the full protocol only (too slow for the book's subsample).
    """

    family: str
    own_size: bool = False
    ranker: bool = False
    unscaled: bool = False
    full_only: bool = False


#: every method of the protocol, in its order (the order of the tables and of the tasks)
METHOD_TABLE = {
    "none": Method("baseline", own_size=True),          # all features, one point
    "MI": Method("baseline", ranker=True),
    "SVM-RFE": Method("baseline"),
    "l1-SVM": Method("baseline"),
    "ReliefF": Method("baseline", ranker=True),
    "CFS": Method("baseline", own_size=True),
    "LDFS": Method("book"),
    "HSFS": Method("book"),
    "WK-LP": Method("book", ranker=True),
    "HKL": Method("book", ranker=True, unscaled=True, full_only=True),
    "GeoRatio": Method("book", own_size=True, unscaled=True),
    "Proj-SVM": Method("classifier side"),
}


def _named(**flags):
    return [m for m, row in METHOD_TABLE.items() if all(getattr(row, f) == v for f, v in flags.items())]


BASELINES = _named(family="baseline")
BOOK_METHODS = _named(family="book")
#: classifier-side methods: keep every feature (compared with ``none``, not ranked with selectors)
CLASSIFIER_SIDE = _named(family="classifier side")
#: methods that choose their own number of features (one point instead of a curve)
OWN_SIZE = set(_named(own_size=True))
#: methods whose scores do not depend on k: fitted once per task, cut at every k (``support_at``)
RANKERS = set(_named(ranker=True))
#: selectors fitted on the unscaled training fold (they booleanise it themselves)
UNSCALED = set(_named(unscaled=True))
#: selectors of the full protocol only (too slow for the book's subsample, see the docstring)
FULL_ONLY = set(_named(full_only=True))

#: HKL's settings by protocol version.  Version 8 ran the mirror-descent restricted solver with
#: a 200-node budget, which left a third of the fits uncertified.  Version 9 runs the conic
#: solver with no node budget to the relative gap 1e-4, as the hkl protocol, adding up to 100
#: nodes per active-set iteration: on madelon the active sets grow to about 1 100 nodes, and
#: 20 at a time (the estimator's default) took 20 iterations per C where 100 take 5 (one
#: ranker fit of madelon fold 0: 564 → 161 CPU s, the same certified optima and the same C).
#: Every version's CV gives ties to the smallest C (``tie="simplest"``), even where its model
#: predicts one class on every validation point; :class:`~fsbook.hkl.DisjunctiveHKLCV`'s default
#: prefers a tied two-class fit first.  The stored selections were made with the
#: older rule, which these settings pin: HKL's C is a selector's parameter here, judged by the
#: SVMs on the kept features, whose own choices :mod:`fsbook.experiments._chance` checks.
#: Version 11 solves each restricted problem on a working set of samples warm-started along the
#: C path (``solver="working_set"``, :func:`fsbook.hkl.primal.restricted_working_set`), the same
#: certificate deciding; ``benchmarks/hkl.py`` records the same C, CV accuracies and test
#: predictions as the conic solver on the tic-tac-toe folds, at less CPU time.
HKL_SETTINGS = {"8": {"solver": "mirror", "max_active": 200, "tol": 1e-3, "tie": "simplest"},
                "9": {"solver": "conic", "max_active": None, "tol": 1e-4, "max_add": 100, "tie": "simplest"},
                "10": {"solver": "conic", "max_active": None, "tol": 1e-4, "max_add": 100, "tie": "simplest"},
                "11": {"solver": "working_set", "max_active": None, "tol": 1e-4, "max_add": 100, "tie": "simplest"},
                "12": {"solver": "working_set", "max_active": None, "tol": 1e-4, "max_add": 100, "tie": "simplest"}}
#: the SVMs' tie rule by protocol version (:func:`~fsbook.model_selection.tuned_svm`).
#: Up to version 9 a CV tie went to the first C of the grid, which chose 8 RBF SVMs at C = 0.1
#: that predict one class while a tied larger C predicts both (found by
#: :mod:`fsbook.experiments._chance`).  Version 10 breaks ties lexicographically: a model that
#: predicts both classes first, then the smaller validation hinge loss, then the grid order.
SVM_TIES = {"8": "first", "9": "first", "10": "lexicographic", "11": "lexicographic", "12": "lexicographic"}
#: versions whose selectors ran with the registry's earlier defaults (SVM-RFE's and LDFS's
#: earlier settings, HSFS's libm pair kernel, WK-LP's column generation without the tie rule:
#: :func:`fsbook.experiments._protocol_helpers.make_selector`'s ``earlier_defaults``).  From
#: version 11 every selector runs with its current default.
EARLIER_DEFAULTS = {"8", "9", "10"}
#: versions whose ``fit_time`` is wall-clock time; from version 11 it is the process's CPU time
#: (:func:`fit_clock`), which does not grow when runs share the cores.
WALL_FIT_TIME = {"8", "9", "10"}
#: versions whose ``Proj-SVM`` solves its linear SVM in the row space of the augmented training
#: fold where liblinear solves the dual (:class:`fsbook._rowspace.RowSpaceLinearSVC`: the same
#: problem and the same steps on a matrix of at most as many columns as training samples; on
#: ARCENE's 10 000 features about 10 times faster)
ROW_SPACE = {"12"}
#: the protocol version whose store the chapter reads (a key of :data:`HKL_SETTINGS` and :data:`SVM_TIES`).
#: Version 11: HKL's working-set solver, every selector's current default (:data:`EARLIER_DEFAULTS`)
#: and fit times in CPU seconds (:data:`WALL_FIT_TIME`).  Version 12: ``Proj-SVM`` in the row
#: space (:data:`ROW_SPACE`); its 80 tasks rerun, the other 880 records carried over from 11.
VERSION = "12"
#: quantile bins of HKL's booleanisation of a non-boolean data set (quartiles, as chapters 5-6)
HKL_N_BINS = 4
#: largest number of feature groups GeoRatio is run with (2^g - 1 candidate unions per split)
GEO_MAX_GROUPS = 12
BOOK_DATASETS = ("wine", "ionosphere", "wdbc", "breast_cancer")
FULL_DATASETS = BOOK_DATASETS + ("colon", "madelon", "arcene", "20newsgroups")
#: text data sets: a vocabulary is chosen in each training fold (``tasks.vocabulary``)
TEXT_DATASETS = {"20newsgroups"}
#: words kept per training fold on a text set (largest document frequency)
VOCABULARY = 2000
BOOK_KS = (2, 5, 10)
FULL_KS = (2, 5, 10, 20, 50)
#: the ℓ1/ℓ∞ path settings used here (looser than the ℓ1/ℓ∞ chapter's, to fit the time budget)
L1LINF_FAST = {"tol": 1e-2, "max_iter": 30, "max_bisect": 4}
C_LINEAR = (0.01, 0.1, 1.0, 10.0)
C_RBF = (0.1, 1.0, 10.0, 100.0)
#: reduced-space penalties λ of ``Proj-SVM`` (all > 0: the augmented-feature form of eq. 7, one
#: LinearSVC fit; λ = 0 needs the exact solver, ≈ 3 min per grid on the 20 Newsgroups pair)
PROJ_PENALTIES = (0.01, 0.1, 1.0, 10.0)
#: the number of features at which methods are ranked
RANK_K = 5
#: the two classifiers of every task: the stored metric and its name on the page
CLASSIFIERS = {"acc_linear": "linear SVM", "acc_rbf": "RBF SVM"}


def fit_clock(version=None):
    """The clock a task of ``version`` (default :data:`VERSION`) times its fits with:
    :func:`time.perf_counter` (wall) up to version 10, :func:`time.process_time` (CPU) after.

    Examples
    --------
    >>> import time
    >>> fit_clock("10") is time.perf_counter, fit_clock("11") is time.process_time
    (True, True)
    """
    import time

    return time.perf_counter if (VERSION if version is None else version) in WALL_FIT_TIME else time.process_time


def fit_time_unit(version=None):
    """What a task of ``version`` (default :data:`VERSION`) records as ``fit_time``, in words
    (:func:`fit_clock`).

    Examples
    --------
    >>> fit_time_unit("10"), fit_time_unit("11")
    ('wall-clock seconds', 'CPU seconds')
    """
    import time

    return "CPU seconds" if fit_clock(version) is time.process_time else "wall-clock seconds"


def methods():
    """The selectors of this run: the baselines, LDFS, HSFS, WK-LP, HKL and GeoRatio."""
    return BASELINES + BOOK_METHODS


def all_methods():
    """Every method with a task: :func:`methods` and the classifier-side :data:`CLASSIFIER_SIDE`."""
    return methods() + CLASSIFIER_SIDE


def order_margin(samples, unit="repetitions", n_folds=2):
    """The declared margin of an order claim on one data set, in accuracy points: one test
    prediction of a paired unit.

    Every claim of the benchmark pairs test accuracies (%) over the units of its cross-validation
    (:func:`fsbook.claims.fold_test`).  A fold's accuracy moves by 100 / (its test samples) points
    when one of its predictions changes, least in the largest fold, of ``⌈samples / n_folds⌉``
    samples (stratified folds differ in size by one at most).  A unit that is one fold (one
    partition, unit ``"folds"``) moves by at least ``100 / ⌈samples / n_folds⌉``; a repetition
    mean (unit ``"repetitions"``, the mean of its ``n_folds`` fold accuracies) by at least
    ``100 / (n_folds · ⌈samples / n_folds⌉)``, about ``100 / samples``.  An effect below it is less
    than one test prediction per unit: a claim that holds by less is labelled "below margin", one
    whose 90 % interval lies inside ±margin shows "no gain" (:class:`fsbook.claims.Claim`).
    Declared from the design (the data set's size and the CV), before any verdict: on the full
    protocol 0.05 points (madelon, 2 000 samples) to 1.6 points (colon, 62).  The chapter
    reproduces no paper's table, so no printed precision applies.

    Parameters
    ----------
    samples : int
        The data set's samples (every one tested once per repetition).
    unit : {"repetitions", "folds"}
        The claim's paired unit.
    n_folds : int
        Folds of one repetition.

    Returns
    -------
    float

    Examples
    --------
    >>> from fsbook.experiments.benchmark.paper import order_margin
    >>> order_margin(178), order_margin(351)          # folds of 89 and 89; of 176 and 175
    (0.5617977528089888, 0.2840909090909091)
    >>> round(order_margin(178, "folds", 3), 3)         # one fold of at most 60
    1.667
    """
    if unit not in ("repetitions", "folds"):
        raise ValueError(f"unit must be 'repetitions' or 'folds', got {unit!r}")
    largest_fold = -(-int(samples) // int(n_folds))
    return 100.0 / (largest_fold * (n_folds if unit == "repetitions" else 1))


def over_datasets_margin(margins):
    """The declared margin of a claim over data sets: the Hodges–Lehmann estimate of its data
    sets' margins (:func:`order_margin`), the effect over the data sets (the same estimate of
    the per-data-set effects, :func:`fsbook.claims.evaluate_over_datasets`) that one test
    prediction per unit on every data set would make.  It labels a claim that holds by less
    "below margin"; the Wilcoxon test over data sets has no equivalence test in
    :mod:`fsbook.claims`, so such a row is never "no gain".

    Examples
    --------
    >>> from fsbook.experiments.benchmark.paper import over_datasets_margin
    >>> over_datasets_margin([0.5, 1.0, 2.0])        # the median of 0.5, 0.75, 1, 1.25, 1.5, 2
    1.125
    """
    m = np.asarray(margins, dtype=float)
    if m.size == 0 or not np.isfinite(m).all() or (m <= 0).any():
        raise ValueError(f"margins must be positive numbers, got {margins!r}")
    return float(hodges_lehmann(m)[0])

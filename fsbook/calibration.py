"""The level and the power of the book's verdict rule, measured by simulation on the book's own designs.

A verdict of :mod:`fsbook.claims` decides a claim on the mean paired effect over the protocol's
resampling of *one* data set.  Whether its test holds its level and can see the effects a chapter
reports depends on the design: how many units, how their differences are distributed (heavy tails
at few runs), and whether the units are independent given the data set.  This module measures
both by resampling the design itself:

* :func:`rejection_rates` -- given a *pool* of the design's units (the per-run differences of a
  stored protocol, or whole CV partitions of a simulation), it draws replicate experiments of the
  book's size, shifts them so that the true mean (the pool's mean: the conditional estimand) is
  ``0`` under the null or ``delta`` in the paper's direction, and reports how often the rule says
  *holds* or *fails*.  The type-I error is the two-sided rejection rate at ``delta = 0``; the
  power at ``delta`` is the rate of *holds*.
* :func:`cv_partition_pool` -- a pool of whole ``k``-fold partitions of a real data set for two
  learners, for the designs whose units are folds (one partition, or ``r`` repetitions); the
  rule's true estimand is then the mean over all the pool's partitions.
* :func:`cv_sample_pool` -- the same partitions with the test samples as the units (each
  sample's paired outcome, tested once per partition by the model of its fold), for the exact
  sign test on pooled samples.  Such outcomes cannot be shifted: the null and the planted effects
  are made by thinning (:func:`plant_by_thinning`), which keeps the real dependence of the
  samples that share a fold's model.

A draw from a pool of stored runs is a bootstrap of the runs: it keeps their real distribution,
tails included, and treats the stored runs as the population of runs of this data set.

Examples
--------
>>> import numpy as np
>>> from fsbook.calibration import rejection_rates
>>> pool = np.random.default_rng(0).standard_t(3, size=2000)       # heavy-tailed differences
>>> r = rejection_rates(pool, n_units=50, test="paired_t", deltas=[0.0, 0.5], n_rep=400, seed=1)
>>> bool(0.02 < r.loc[0.0, "type I"] < 0.09), bool(r.loc[0.5, "power"] > 0.6)
(True, True)
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from fsbook.claims import ALPHA, paired_test

__all__ = ["rejection_rates", "cv_partition_pool", "cv_sample_pool", "plant_by_thinning", "mc_interval",
           "disagreement_dispersion", "dispersion_table", "ONE_PARTITION_DESIGNS", "used_by_verdicts"]


def mc_interval(rate, n_rep):
    """Half-width of the 95 % Monte Carlo interval of a rejection rate from ``n_rep`` replicates."""
    return float(1.96 * np.sqrt(max(rate * (1 - rate), 1e-12) / n_rep))


def _draw(pool, n_units, rng):
    """One replicate experiment's units from ``pool``.

    1-D pool (independent units): ``n_units`` draws with replacement.  2-D pool (partitions ×
    folds): one partition, its folds the units.  3-D pool (partitions × 1 × folds, for repeated
    CV): ``n_units`` partitions, shape ``(n_units, folds)``.
    """
    if pool.ndim == 1:
        return pool[rng.integers(0, pool.size, n_units)]
    if pool.ndim == 2:
        return pool[rng.integers(0, pool.shape[0])]
    return pool[rng.integers(0, pool.shape[0], n_units), 0, :]


def plant_by_thinning(d, delta, rates, rng):
    """Outcome differences ``d`` (values ``−s, 0, s``) moved to the true mean ``delta`` by random
    thinning, without a shift.

    With ``p₊`` and ``p₋`` the pool's rates of positive and negative differences (``rates``), the
    majority sign is first set to 0 with the probability that leaves a mean of 0
    (``1 − p₋/p₊`` for the positives when ``p₊ > p₋``); then each zero becomes ``s`` with the
    probability ``delta / (s · (1 − p₊' − p₋'))`` that gives the mean ``delta``.  The samples
    that disagree keep their real dependence under the null; a planted effect adds independent
    disagreements.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> pool = rng.choice([-1.0, 0.0, 1.0], size=(2000, 100), p=[0.05, 0.8, 0.15])
    >>> rates = (float((pool > 0).mean()), float((pool < 0).mean()))
    >>> null = np.array([plant_by_thinning(row, 0.0, rates, rng) for row in pool])
    >>> abs(float(null.mean())) < 0.003
    True
    >>> bool(abs(np.mean([plant_by_thinning(row, 0.05, rates, rng) for row in pool]) - 0.05) < 0.003)
    True
    """
    d = np.asarray(d, dtype=float).copy()
    scale = float(np.abs(d).max(initial=0.0)) or 1.0
    p_pos, p_neg = rates
    if p_pos > p_neg:
        d[(d > 0) & (rng.random(d.shape) < 1 - p_neg / p_pos)] = 0.0
        p_pos = p_neg
    elif p_neg > p_pos:
        d[(d < 0) & (rng.random(d.shape) < 1 - p_pos / p_neg)] = 0.0
        p_neg = p_pos
    if delta:
        flip = float(delta) / (scale * (1.0 - p_pos - p_neg))
        if not 0 < flip <= 1:
            raise ValueError(f"an effect of {delta} cannot be planted in outcomes of scale {scale}")
        d[(d == 0) & (rng.random(d.shape) < flip)] = scale
    return d


def rejection_rates(pool, *, n_units, test, deltas=(0.0,), n_rep=2000, seed=0, alpha=ALPHA,
                    test_train_ratio=None, plant="shift"):
    """How often the rule rejects on replicate experiments drawn from ``pool``.

    Parameters
    ----------
    pool : ndarray
        The design's units (see :func:`_draw`): 1-D per-unit differences, 2-D partitions × folds
        (one ``k``-fold partition per experiment) or 3-D partitions × 1 × folds (``n_units``
        repetitions of ``k``-fold CV per experiment).  Signed in the paper's direction.
    n_units : int
        Units per experiment (the book's number of runs, or repetitions); ignored for a 2-D pool.
    test : str
        A test of :func:`fsbook.claims.paired_test`.
    deltas : sequence of float
        True effects to plant, in the metric's units (``0``: the null).
    n_rep : int
        Replicate experiments per ``delta``.
    seed : int
    alpha : float
    test_train_ratio : float, optional
        For ``"corrected_t"``.
    plant : {"shift", "thin"}, default "shift"
        How the null and the effects are made: shift every unit by ``delta − mean`` (continuous
        units), or :func:`plant_by_thinning` (per-sample outcomes ``−s, 0, s``).

    Returns
    -------
    DataFrame indexed by ``delta`` with ``type I`` (two-sided rejection rate, at ``delta = 0``
    only), ``power`` (rate of a significant effect in the paper's direction), ``wrong sign`` (rate
    of a significant effect against it) and ``mc ±`` (the Monte Carlo half-width of the larger rate).
    """
    pool = np.asarray(pool, dtype=float)
    if plant not in ("shift", "thin"):
        raise ValueError(f"plant must be 'shift' or 'thin', got {plant!r}")
    true_mean = float(pool.mean())
    rates = (float((pool > 0).mean()), float((pool < 0).mean()))
    rows = []
    for delta in deltas:
        rng = np.random.default_rng([seed, int(round(1e6 * float(delta)))])
        holds = fails = 0
        for _ in range(n_rep):
            drawn = _draw(pool, n_units, rng)
            d = (plant_by_thinning(drawn, float(delta), rates, rng) if plant == "thin"
                 else drawn - true_mean + float(delta))
            r = paired_test(d, test, test_train_ratio=test_train_ratio)
            if np.isfinite(r["p"]) and r["p"] < alpha and r["effect"] != 0:
                holds += r["effect"] > 0
                fails += r["effect"] < 0
        rate = (holds + fails) / n_rep
        rows.append({"delta": float(delta), "type I": rate if delta == 0 else np.nan,
                     "power": holds / n_rep, "wrong sign": fails / n_rep,
                     "mc ±": mc_interval(max(rate, holds / n_rep), n_rep)})
    return pd.DataFrame(rows).set_index("delta")


def cv_partition_pool(X, y, model_a, model_b, *, n_partitions, n_folds, seed=0, scoring=None):
    """Fold differences of accuracy (``a − b``, in points) over ``n_partitions`` independent
    stratified ``n_folds``-fold partitions of ``(X, y)``: an array ``(n_partitions, n_folds)``.

    Parameters
    ----------
    X, y : array-like
    model_a, model_b : estimator
        Cloned and fitted on every training fold.
    n_partitions, n_folds : int
    seed : int
        Partition ``i`` uses the seed ``(seed, i)``.
    scoring : callable, optional
        ``scoring(estimator, X_test, y_test)``; default accuracy in points.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from fsbook.calibration import cv_partition_pool
    >>> X, y = make_classification(120, 6, random_state=0)
    >>> cv_partition_pool(X, y, LogisticRegression(), KNeighborsClassifier(), n_partitions=3, n_folds=4).shape
    (3, 4)
    """
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    X, y = np.asarray(X), np.asarray(y)
    scoring = scoring or (lambda est, Xt, yt: 100.0 * float(np.mean(est.predict(Xt) == yt)))
    out = np.empty((n_partitions, n_folds))
    for i in range(n_partitions):
        cv = StratifiedKFold(n_folds, shuffle=True, random_state=int(np.random.SeedSequence([seed, i]).generate_state(1)[0]))
        for j, (tr, te) in enumerate(cv.split(X, y)):
            a = clone(model_a).fit(X[tr], y[tr])
            b = clone(model_b).fit(X[tr], y[tr])
            out[i, j] = scoring(a, X[te], y[te]) - scoring(b, X[te], y[te])
    return out


def cv_sample_pool(X, y, model_a, model_b, *, n_partitions, n_folds, seed=0):
    """Per-sample outcome differences of ``model_a`` and ``model_b`` over independent stratified
    ``n_folds``-fold partitions of ``(X, y)``: an array ``(n_partitions, n_samples)`` of
    ``100 · (correct_a − correct_b)`` (points of accuracy), each sample scored by the models of
    the fold that tests it.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> pool = cv_sample_pool(X, y, LogisticRegression(max_iter=500), KNeighborsClassifier(),
    ...                       n_partitions=2, n_folds=5)
    >>> pool.shape, sorted(set(pool.ravel().tolist())) <= [-100.0, 0.0, 100.0]
    ((2, 150), True)
    """
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    out = np.empty((n_partitions, len(y)))
    for i in range(n_partitions):
        state = int(np.random.SeedSequence([seed, i]).generate_state(1)[0])
        for tr, te in StratifiedKFold(n_folds, shuffle=True, random_state=state).split(X, y):
            a = clone(model_a).fit(X[tr], y[tr]).predict(X[te]) == y[te]
            b = clone(model_b).fit(X[tr], y[tr]).predict(X[te]) == y[te]
            out[i, te] = 100.0 * (a.astype(float) - b.astype(float))
    return out


def disagreement_dispersion(pool) -> dict:
    """How much the pooled difference of a pooled-sample design varies across partitions, against
    what McNemar's test assumes.

    Given the number ``D`` of samples where two learners disagree, McNemar's test takes the pooled
    difference ``S`` (in samples: the sum of the ±1 outcomes) to vary as a sum of ``D`` fair coin
    tosses, with variance ``D``.  Across the partitions of one data set ``S`` varies less when the
    same few samples disagree in every partition: the ratio ``var(S) / mean(D)`` below 1 makes the
    test conservative for the mean over partitions (its z shrinks by the ratio's square root).

    Parameters
    ----------
    pool : ndarray, shape (n_partitions, n_samples)
        Per-sample outcome differences (``−s, 0, s``), one row per partition
        (:func:`cv_sample_pool`).

    Returns
    -------
    dict
        ``var_S``, ``mean_D``, ``ratio``, ``samples_disagreeing`` (samples that disagree in some
        partition) and ``disagreement_rate`` (how often such a sample disagrees, mean over them).

    Examples
    --------
    >>> import numpy as np
    >>> pool = np.tile([100.0, -100.0, 100.0, 0.0], (50, 1))     # the same disagreements every time
    >>> disagreement_dispersion(pool)["ratio"]
    0.0
    """
    pool = np.asarray(pool, dtype=float)
    signs = np.sign(pool)
    S, D = signs.sum(axis=1), (signs != 0).sum(axis=1)
    rate = (signs != 0).mean(axis=0)
    var_S = float(S.var(ddof=1))
    return {"var_S": var_S, "mean_D": float(D.mean()), "ratio": var_S / float(D.mean()),
            "samples_disagreeing": int((rate > 0).sum()),
            "disagreement_rate": float(rate[rate > 0].mean()) if (rate > 0).any() else float("nan")}


def dispersion_table(designs=None, *, n_partitions=400, seed=0) -> pd.DataFrame:
    """:func:`disagreement_dispersion` for every pooled-sample design of :data:`DESIGNS`, on the
    pools :func:`calibration_table` draws from (the same partitions for the same ``seed``)."""
    designs = DESIGNS if designs is None else {k: DESIGNS[k] for k in designs}
    rows = [{"design": name, **disagreement_dispersion(_cv_pool(source, n_partitions, seed))}
            for name, (source, *_rest) in designs.items() if source.endswith("_samples")]
    return pd.DataFrame(rows)


#: the designs of the book whose verdicts the rule decides, with the effects the chapters report
#: (metric points): name -> (source, pair, units per experiment, tests, planted effects)
DESIGNS = {
    "Boston, 500 runs (ch. 1, Table 1)": ("boston", ("Ridge", "PCR"), 500, ("paired_t", "corrected_t"),
                                          (0.0, 0.5, 1.0, 2.0)),
    "Boston, 20 runs": ("boston", ("Ridge", "PCR"), 20, ("paired_t",), (0.0, 1.0, 2.0, 5.0)),
    "Yale, 50 runs (ch. 1, Table 5)": ("yale", ("SVM-Kernel", "SVM-GDA"), 50, ("paired_t", "corrected_t"),
                                       (0.0, 0.5, 1.0, 2.0)),
    "20 Newsgroups 2 %, 20 runs (ch. 1, Table 2)": ("news", ("LGR-Topic", "Proj-Topic"), 20,
                                                    ("paired_t", "corrected_t"), (0.0, 0.25, 0.5, 1.0)),
    "20 Newsgroups 2 %, 10 runs (ch. 1, choice of d)": ("news", ("LGR-Topic", "Proj-Topic"), 10, ("paired_t",),
                                                        (0.0, 0.25, 0.5, 1.0)),
    "4-fold CV, one partition (ch. 6)": ("cv4", None, 4, ("paired_t", "corrected_t"), (0.0, 1.0, 2.0, 5.0)),
    "5-fold CV, one partition (ch. 2)": ("cv5", None, 5, ("paired_t", "corrected_t"), (0.0, 1.0, 2.0, 5.0)),
    "5-fold CV, pooled samples": ("cv5_samples", None, 5, ("sign",), (0.0, 1.0, 2.0, 5.0)),
    "4-fold CV, pooled samples (ch. 6)": ("cv4_samples", None, 4, ("sign",), (0.0, 1.0, 2.0, 5.0)),
    "10-fold CV, one partition (ch. 3)": ("cv10", None, 10, ("paired_t", "corrected_t"), (0.0, 1.0, 2.0, 5.0)),
    "5 × 2 CV (ch. 7)": ("cv2x5", None, 5, ("repeated_cv_t",), (0.0, 1.0, 2.0, 5.0)),
    "10 × 5-fold CV (ch. 3)": ("cv5x10", None, 10, ("repeated_cv_t",), (0.0, 1.0, 2.0, 5.0)),
    "5 × 5-fold CV (ch. 2, Table 1)": ("cv5x5", None, 5, ("repeated_cv_t",), (0.0, 1.0, 2.0, 5.0)),
    "5 × 4-fold CV (ch. 6)": ("cv4x5", None, 5, ("repeated_cv_t",), (0.0, 1.0, 2.0, 5.0)),
}
#: the repeated-CV designs: source -> folds of each repetition (the repetitions are drawn from the
#: pool's independent partitions, :func:`_draw`'s 3-D case)
REPEATED_CV = {"cv2x5": 2, "cv5x10": 5, "cv5x5": 5, "cv4x5": 4}


def _store_pool(source, pair):
    """Per-run differences ``a − b`` of a stored chapter-1 table (the runs of this data set)."""
    from fsbook.experiments import projection
    from fsbook.experiments._reading import read_store
    from fsbook.experiments.projection import text as projection_text

    if source == "news":
        v = projection_text.per_run(read_store("projection_text"), "table2")
    else:
        v = projection.tables.per_run(read_store("projection"), "table1" if source == "boston" else "table5")
    return (v[pair[0]] - v[pair[1]]).to_numpy(dtype=float)


def _cv_pool(source, n_partitions, seed):
    """Fold differences of two learners over independent partitions of WDBC (logistic regression
    against 5-nearest neighbours, both on standardised features): a real data set the book uses,
    and two learners about 1.5 accuracy points apart.  A repeated-CV design (:data:`REPEATED_CV`)
    draws its repetitions from the partitions of the one-partition design with as many folds."""
    folds = {"cv4": 4, "cv5": 5, "cv10": 10, "cv5_samples": 5, "cv4_samples": 4, **REPEATED_CV}[source]
    pool = _wdbc_pool(source.endswith("_samples"), folds, n_partitions, seed)
    return pool[:, None, :] if source in REPEATED_CV else pool


@functools.cache
def _wdbc_pool(samples, n_folds, n_partitions, seed):
    """:func:`cv_sample_pool` (``samples``) or :func:`cv_partition_pool` of :func:`_cv_pool`'s
    pair on WDBC, computed once per process (the calibration and the dispersion tables, and the
    designs with the same folds, share the partitions); read-only."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from fsbook.datasets import load_wdbc

    data = load_wdbc()
    X, y = data.data, data.target
    a = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    b = make_pipeline(StandardScaler(), KNeighborsClassifier())
    make = cv_sample_pool if samples else cv_partition_pool
    pool = make(X, y, a, b, n_partitions=n_partitions, n_folds=n_folds, seed=seed)
    pool.setflags(write=False)
    return pool


def _test_train_ratio(source):
    """``n_test / n_train`` of a design, for the corrected t shown beside the rule."""
    if source.endswith("_samples") or source in REPEATED_CV:
        return None
    if source in ("cv4", "cv5", "cv10"):
        return 1.0 / ({"cv4": 4, "cv5": 5, "cv10": 10}[source] - 1)
    if source == "news":
        from fsbook.experiments.projection import text as projection_text
        return float(projection_text.split_ratios()["table2"])
    from fsbook.experiments import projection
    return float(projection.claims.split_ratios()["table1" if source == "boston" else "table5"])


def calibration_table(designs=None, *, n_rep=2000, n_partitions=400, seed=0, progress=None):
    """The calibration record: for every design of :data:`DESIGNS` and each of its tests, the
    type-I error and the power at each planted effect (:func:`rejection_rates`).

    Returns
    -------
    DataFrame with ``design``, ``test``, ``units``, ``delta``, ``type I``, ``power``,
    ``wrong sign`` and ``mc ±``.
    """
    designs = DESIGNS if designs is None else {k: DESIGNS[k] for k in designs}
    rows = []
    for name, (source, pair, n_units, tests, deltas) in designs.items():
        pool = (_store_pool(source, pair) if pair else _cv_pool(source, n_partitions, seed))
        ratio = _test_train_ratio(source)
        for test in tests:
            r = rejection_rates(pool, n_units=n_units, test=test, deltas=deltas, n_rep=n_rep, seed=seed,
                                test_train_ratio=ratio if test == "corrected_t" else None,
                                plant="thin" if source.endswith("_samples") else "shift")
            units = pool.shape[1] if source.endswith("_samples") else n_units   # the samples of one partition
            for delta, v in r.iterrows():
                rows.append({"design": name, "test": test, "units": units, "delta": delta, **v.to_dict()})
            if progress:
                progress(name, test)
    return pd.DataFrame(rows)


#: the designs of :data:`DESIGNS` that no verdict of the book decides on any more: one partition of
#: k-fold CV, its folds or its pooled test samples the units.  Every chapter that ran its CV once
#: now repeats it (chapter 6's 20 Newsgroups pair last, in the ``hkl`` protocol's version 10); the
#: rows stay in the record to show what the repetitions replaced.
ONE_PARTITION_DESIGNS = tuple(name for name, (source, *_rest) in DESIGNS.items()
                              if source.startswith("cv") and source not in REPEATED_CV)


def used_by_verdicts(design, test) -> bool:
    """Whether a verdict of the book is decided by ``test`` on ``design``: not Nadeau and
    Bengio's corrected t (never used), not one partition of k-fold CV
    (:data:`ONE_PARTITION_DESIGNS`).

    Examples
    --------
    >>> used_by_verdicts("5 × 4-fold CV (ch. 6)", "repeated_cv_t")
    True
    >>> used_by_verdicts("4-fold CV, pooled samples (ch. 6)", "sign")
    False
    """
    return test != "corrected_t" and design not in ONE_PARTITION_DESIGNS


def calibration_summary(rows) -> pd.DataFrame:
    """One line per design and test of a calibration record (:func:`calibration_table` rows):
    the type-I error with its Monte Carlo half-width, the power at each planted effect, and whether
    a verdict of the book uses the test on the design (:func:`used_by_verdicts`).

    Examples
    --------
    >>> rows = [{"design": "D", "test": "paired_t", "units": 20, "delta": 0.0, "type I": 0.049,
    ...          "power": 0.02, "mc ±": 0.0095},
    ...         {"design": "D", "test": "paired_t", "units": 20, "delta": 1.0, "type I": None,
    ...          "power": 0.8, "mc ±": 0.018}]
    >>> calibration_summary(rows).iloc[0].tolist()
    ['D', 'paired t', '20', '0.05 ± 0.01', '1: 0.80', 'yes']
    """
    from fsbook.report import TEST_NAMES

    df = pd.DataFrame(list(rows))
    out = []
    for (design, test), g in df.groupby(["design", "test"], sort=False):
        null = g[g["delta"] == 0].iloc[0]
        power = " · ".join(f"{d:g}: {p:.2f}" for d, p in zip(g["delta"], g["power"]) if d != 0)
        out.append({"design": design, "test": TEST_NAMES.get(test, test), "units": str(int(null["units"])),
                    "type I": f"{null['type I']:.2f} ± {null['mc ±']:.2f}", "power at effect": power,
                    "used by verdicts": "yes" if used_by_verdicts(design, test) else "no"})
    return pd.DataFrame(out)

"""Stability selection (Meinshausen & Bühlmann 2010) around any feature selector.

The wrapped selector is fitted on ``n_resamples`` subsamples of half the samples, drawn without
replacement and stratified by class (scikit-learn's
:class:`~sklearn.model_selection.StratifiedShuffleSplit` with ``train_size=0.5``, seeded by
``random_state``); the fraction of subsamples on which it selects a feature is that feature's
selection frequency. The features kept are those whose frequency reaches ``threshold`` or, when
no threshold is given, the ``n_features_to_select`` most frequent ones (ties by
:func:`fsbook.decisions.top_k`: the smaller feature index). Kuncheva's index over the
subsamples' selected sets (:func:`fsbook.stats.kuncheva_stability`) measures how stable the
wrapped selector itself is.
"""
from __future__ import annotations

import time
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn import get_config
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils import Bunch, check_random_state, get_tags
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)

from fsbook._compat import HasMethods, Interval, fit_context, raise_for_params
from fsbook._cost import check_cost
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin
from fsbook.stats import kuncheva_stability

__all__ = ["StabilitySelection", "stratified_halves", "random_halves"]


def stratified_halves(y, n_resamples, random_state=None):
    """The subsamples of stability selection: ``n_resamples`` stratified halves of ``y``'s samples.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels; every class needs at least two samples.
    n_resamples : int
        Number of subsamples.
    random_state : int, RandomState instance or None
        Seed: one integer drawn from it seeds :class:`~sklearn.model_selection.StratifiedShuffleSplit`.

    Returns
    -------
    list of ndarray of int
        Sorted sample indices of each subsample, ``floor(n_samples / 2)`` of them, drawn without
        replacement, each class in proportion.

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.baselines.stability import stratified_halves
    >>> halves = stratified_halves(np.repeat([0, 1], 4), 3, random_state=0)
    >>> [len(h) for h in halves], [int((h >= 4).sum()) for h in halves]
    ([4, 4, 4], [2, 2, 2])
    """
    y = np.asarray(y)
    _, counts = np.unique(y, return_counts=True)
    if counts.min() < 2:
        raise ValueError(f"stability selection draws stratified halves, so every class needs at least "
                         f"two samples; the smallest class has {counts.min()}")
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    split = StratifiedShuffleSplit(n_splits=n_resamples, train_size=len(y) // 2,
                                   test_size=len(y) - len(y) // 2, random_state=seed)
    return [np.sort(train) for train, _ in split.split(np.zeros((len(y), 1)), y)]


def random_halves(n_samples, n_resamples, random_state=None):
    """The subsamples of stability selection for a regression target: ``n_resamples`` halves of
    the samples drawn without replacement (Meinshausen & Bühlmann's subsampling).

    Parameters
    ----------
    n_samples : int
    n_resamples : int
    random_state : int, RandomState instance or None
        Seed: one integer drawn from it seeds :class:`~sklearn.model_selection.ShuffleSplit`.

    Returns
    -------
    list of ndarray of int
        Sorted sample indices of each subsample, ``floor(n_samples / 2)`` of them.

    Examples
    --------
    >>> from fsbook.baselines.stability import random_halves
    >>> [len(h) for h in random_halves(9, 3, random_state=0)]
    [4, 4, 4]
    """
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    split = ShuffleSplit(n_splits=n_resamples, train_size=n_samples // 2,
                         test_size=n_samples - n_samples // 2, random_state=seed)
    return [np.sort(train) for train, _ in split.split(np.zeros((n_samples, 1)))]


def _default_estimator():
    from fsbook.baselines.svm_selectors import L1SVMSelector
    return L1SVMSelector()


class StabilitySelection(SupportSelectorMixin, BaseEstimator):
    """Keep the features a selector picks most often on half-size subsamples.

    Stability selection (Meinshausen & Bühlmann 2010): ``estimator`` is cloned and fitted on
    ``n_resamples`` subsamples of ``floor(n_samples / 2)`` samples drawn without replacement,
    stratified by class (:func:`stratified_halves`). ``frequencies_`` is the fraction of
    subsamples on which it selected each feature. The features kept are those with frequency
    at least ``threshold`` if it is given, otherwise the ``n_features_to_select`` most frequent
    (ties, equal frequencies, go to the smaller feature index: :func:`fsbook.decisions.top_k`).
    The clones keep ``estimator``'s parameters, its ``random_state`` included; only the
    subsamples differ.

    Cost.  ``n_resamples`` fits of ``estimator`` on half the samples: after the first one,
    ``fit`` multiplies its CPU time by ``n_resamples`` and raises a ``ValueError`` at once when
    that estimate exceeds :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute of CPU), naming
    the ``n_resamples`` that would fit in it; a cheaper ``estimator``, fewer resamples or
    :func:`fsbook.cost_limits` make it feasible.

    Parameters
    ----------
    estimator : feature selector or None, default None
        Any estimator with ``fit`` and ``get_support`` (an fsbook or scikit-learn selector).
        None means :class:`fsbook.baselines.L1SVMSelector` with its defaults (it keeps half the
        features by an ℓ1-SVM, the classification analogue of the paper's lasso).
    n_features_to_select : int, float in (0, 1] or None, default None
        Number (or fraction) of the most frequent features to keep; None keeps half. Only used
        when ``threshold`` is None.
    threshold : float in (0, 1] or None, default None
        Keep every feature whose frequency is at least ``threshold`` (Meinshausen & Bühlmann's
        ``π_thr``, typically 0.6 to 0.9). Frequencies are ratios ``count / n_resamples``, so a
        frequency equal to ``threshold`` in exact arithmetic equals it in floating point too.
        Give either ``threshold`` or ``n_features_to_select``, not both. When no feature reaches
        it, none is kept and a warning says so.
    n_resamples : int, default 100
        Number of subsamples (at least 2).
    random_state : int, RandomState instance or None, default 0
        Seed of the subsamples.

    Attributes
    ----------
    frequencies_ : ndarray of shape (n_features,)
        Fraction of subsamples on which ``estimator`` selected each feature.
    scores_ : ndarray of shape (n_features,)
        ``frequencies_`` (larger is better).
    selections_ : list of ndarray of int
        Indices of the features selected on each subsample.
    subsamples_ : list of ndarray of int
        Sample indices of each subsample.
    kuncheva_ : float
        Kuncheva's stability index (:func:`fsbook.stats.kuncheva_stability`) of the selected sets,
        1 when every subsample selected the same set. It is defined only for sets of one size
        ``k`` with ``0 < k < n_features``; otherwise it is NaN and ``kuncheva_note_`` says why.
    kuncheva_note_ : str or None
        Why ``kuncheva_`` is NaN, None when it is defined.
    classes_ : ndarray
        Class labels.
    support_ : ndarray of bool
        The features kept.

    See Also
    --------
    fsbook.baselines.L1SVMSelector : the default wrapped selector.
    fsbook.hkl.HKLRanker : another selector it can wrap.

    References
    ----------
    .. [1] Meinshausen, N. and Bühlmann, P. (2010). Stability selection. Journal of the Royal
       Statistical Society, Series B (not in ``references.bib``).
    .. [2] Kuncheva, L. I. (2007). A Stability Index for Feature Selection. Proceedings of the
       25th IASTED International Multi-Conference: Artificial Intelligence and Applications,
       390-395. ``references.bib``: ``kuncheva2007stability``.

    Examples
    --------
    Two classes of 60 points in 8 dimensions; only columns 0 and 1 carry the class:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 60)
    >>> X = rng.normal(size=(120, 8))
    >>> X[:, :2] += 2.0 * y[:, None]
    >>> from fsbook.baselines import L1SVMSelector, StabilitySelection
    >>> sel = StabilitySelection(L1SVMSelector(n_features_to_select=2), threshold=0.8,
    ...                          n_resamples=50, random_state=0).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    >>> sel.frequencies_[:2].tolist(), bool(sel.frequencies_[2:].max() < 0.8)
    ([1.0, 1.0], True)
    >>> sel.kuncheva_ > 0.5
    True
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "get_support"]), None],
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "threshold": [Interval(Real, 0, 1, closed="right"), None],
        "n_resamples": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, n_features_to_select=None, threshold=None, n_resamples=100,
                 random_state=0):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.n_resamples = n_resamples
        self.random_state = random_state

    def _estimator(self):
        return _default_estimator() if self.estimator is None else self.estimator

    @property
    def _sparse_input(self):
        return "csr" if get_tags(self._estimator()).input_tags.sparse else False

    @property
    def _allow_nan(self):
        return get_tags(self._estimator()).input_tags.allow_nan

    def get_metadata_routing(self):
        """The routing of ``fit``'s metadata to ``estimator.fit`` (scikit-learn's metadata routing).

        Returns
        -------
        sklearn.utils.metadata_routing.MetadataRouter
        """
        return MetadataRouter(owner=self).add(
            estimator=self._estimator(), method_mapping=MethodMapping().add(caller="fit", callee="fit"))

    @fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, **fit_params):
        """Fit ``estimator`` on every subsample and keep the most frequently selected features.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data (sparse when ``estimator`` accepts it).
        y : array-like of shape (n_samples,)
            Class labels (the subsamples are stratified by them), or a regression target
            (continuous values: plain halves, :func:`random_halves`) for an ``estimator`` that
            takes one, e.g. ``SelectFromModel(Lasso(alpha=0.1))``.
        **fit_params : dict
            Metadata routed to ``estimator.fit`` (scikit-learn's metadata routing, which must be
            enabled: ``sklearn.set_config(enable_metadata_routing=True)``), for example
            ``sample_weight`` for an estimator with ``set_fit_request(sample_weight=True)``.
            Metadata with one value per sample are cut to each subsample's rows.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        if self.threshold is not None and self.n_features_to_select is not None:
            raise ValueError(f"give either threshold ({self.threshold}) or n_features_to_select "
                             f"({self.n_features_to_select}), not both")
        raise_for_params(fit_params, self, "fit")
        X, target, regression = self._validate_classes_or_values(X, y)
        d = X.shape[1]
        k = None if self.threshold is not None else self._resolve_k(d)
        base = self._estimator()
        routed = (process_routing(self, "fit", **fit_params) if get_config()["enable_metadata_routing"]
                  else Bunch(estimator=Bunch(fit={})))
        n = X.shape[0]

        def rows(params, idx):
            return {key: (np.asarray(v)[idx] if hasattr(v, "__len__") and len(v) == n else v)
                    for key, v in params.items()}

        self.subsamples_ = (random_halves(n, self.n_resamples, self.random_state) if regression
                            else stratified_halves(target, self.n_resamples, self.random_state))
        counts = np.zeros(d, dtype=np.int64)
        self.selections_ = []
        for b, idx in enumerate(self.subsamples_):
            start = time.process_time()
            try:
                fitted = clone(base).fit(X[idx], target[idx], **rows(routed.estimator.fit, idx))
                support = np.asarray(fitted.get_support(), dtype=bool)
            except Exception as err:
                raise ValueError(f"StabilitySelection: {type(base).__name__} failed on subsample {b} "
                                 f"of {self.n_resamples} ({len(idx)} samples): {err}") from err
            if support.shape != (d,):
                raise ValueError(f"StabilitySelection: {type(base).__name__}.get_support() has shape "
                                 f"{support.shape}, expected ({d},)")
            if b == 0:
                self._check_cost(type(base).__name__, X.shape, time.process_time() - start)
            counts += support
            self.selections_.append(np.flatnonzero(support))
        self.frequencies_ = counts / self.n_resamples
        self.scores_ = self.frequencies_
        if k is None:
            self.support_ = self.frequencies_ >= self.threshold
            if not self.support_.any():
                warnings.warn(f"StabilitySelection: no feature reaches threshold={self.threshold} (the "
                              f"largest frequency is {self.frequencies_.max()}), so none is kept",
                              UserWarning, stacklevel=2)
        else:
            self._keep_top(self.frequencies_, k)
        self.kuncheva_, self.kuncheva_note_ = self._kuncheva(d)
        return self

    def _check_cost(self, name, shape, first_seconds):
        """Refuse when ``n_resamples`` times the first subsample's CPU time exceeds the limit."""
        from fsbook._cost import LIMITS
        limit = LIMITS["seconds"]
        feasible = max(2, int(limit / max(first_seconds, 1e-9))) if limit is not None else None
        check_cost("StabilitySelection", f"{shape[0]} samples x {shape[1]} features",
                   seconds=self.n_resamples * first_seconds,
                   why=f"it fits {name} on {self.n_resamples} subsamples of half the samples, and the "
                       f"first fit took {first_seconds:.2f} CPU s",
                   fix=f"use fewer resamples (n_resamples={feasible} would fit in the limit) or a "
                       "cheaper estimator")

    def _kuncheva(self, d):
        sizes = {len(s) for s in self.selections_}
        if len(sizes) > 1:
            return np.nan, (f"the subsamples' selected sets differ in size ({min(sizes)} to {max(sizes)}), "
                            "and Kuncheva's index compares sets of one size")
        size = sizes.pop()
        if not 0 < size < d:
            return np.nan, (f"every subsample selected {size} of {d} features, and Kuncheva's index is "
                            "defined only for 0 < k < n_features")
        return kuncheva_stability(self.selections_, d), None

"""The benchmark's selectors: one per method (:func:`make_selector`), where a method cannot run
(:func:`cannot_run`), the ``k`` features a fitted ranking keeps (:func:`support_at`) and the
certificate of an HKL fit (:func:`hkl_certificate`).

The geometric-ratio selector (chapter 4) chooses among the feature groups
:func:`~fsbook.experiments.benchmark.data.attribute_groups` gives, where the data define them;
HKL's selector is :class:`fsbook.hkl.HKLRanker`.
"""
from __future__ import annotations

import numpy as np

from fsbook.experiments._protocol_helpers import make_selector as registry_selector
from fsbook.experiments.benchmark.data import attribute_groups, load
from fsbook.experiments.benchmark.paper import (
    EARLIER_DEFAULTS,
    GEO_MAX_GROUPS,
    HKL_N_BINS,
    HKL_SETTINGS,
    L1LINF_FAST,
    RANKERS,
    TEXT_DATASETS,
    VERSION,
    methods,
)
from fsbook.hkl import HKLRanker


def _hkl_selector(k, seed, boolean, groups, version):
    return HKLRanker(k, boolean=boolean, n_bins=HKL_N_BINS, random_state=seed,
                     **HKL_SETTINGS[version])


def _georatio_selector(k, seed, boolean, groups, version):
    from fsbook.geometry import GeometricFeatureSetSelector

    if groups is None:
        raise ValueError("GeoRatio needs the feature groups (attribute_groups)")
    return GeometricFeatureSetSelector(list(groups), binarize=0.0)


#: the book's methods built here rather than by the shared registry (method -> factory)
_OWN_FACTORIES = {"HKL": _hkl_selector, "GeoRatio": _georatio_selector}


def make_selector(method, k, seed, boolean=False, groups=None, version=None):
    """The selector of ``method`` keeping ``k`` features (``k`` ignored by ``CFS`` and
    ``GeoRatio``), seeded (:func:`fsbook.experiments._protocol_helpers.make_selector`, LDFS and
    HSFS with :data:`L1LINF_FAST`; ``HKL``: :class:`~fsbook.hkl.HKLRanker`
    with :data:`HKL_SETTINGS` and :data:`HKL_N_BINS`; ``GeoRatio``:
    :class:`~fsbook.geometry.GeometricFeatureSetSelector` over the feature ``groups``).

    Parameters
    ----------
    method : str
        A method of :func:`methods` but ``none``.
    k : int
        How many features to keep.
    seed : int
        The task's seed.
    boolean : bool, default False
        Whether the data are 0/1 (HKL then reads them as they are).
    groups : list of array of int, optional
        The feature groups (:func:`attribute_groups`), for ``GeoRatio``.
    version : str, optional
        The protocol version whose settings apply (default :data:`VERSION`): HKL's
        :data:`HKL_SETTINGS` and, for the versions in :data:`EARLIER_DEFAULTS`, the registry's
        earlier defaults.

    Returns
    -------
    estimator
        An unfitted selector.

    Examples
    --------
    >>> type(make_selector("HKL", 5, seed=0)).__name__
    'HKLRanker'
    >>> make_selector("none", 5, seed=0)
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'none'; expected one of [...]
    """
    if method not in methods() or method == "none":
        raise ValueError(f"unknown method {method!r}; expected one of {methods()[1:]}")
    version = VERSION if version is None else str(version)
    if version not in HKL_SETTINGS:
        raise ValueError(f"unknown protocol version {version!r}; expected one of {sorted(HKL_SETTINGS)}")
    if method in _OWN_FACTORIES:
        return _OWN_FACTORIES[method](k, seed, boolean, groups, version)
    return registry_selector(method, k, seed, l1linf_path=L1LINF_FAST, boolean=boolean,
                             earlier_defaults=version in EARLIER_DEFAULTS)


def cannot_run(method, dataset):
    """Why ``method`` does not run on ``dataset`` (a sentence for the tables), or ``None``.

    Only GeoRatio has such cells: it chooses among unions of feature groups, so it runs where
    the data define groups (:func:`attribute_groups`: the
    one-hot indicators of each nominal attribute) and there are at most :data:`GEO_MAX_GROUPS`.

    Parameters
    ----------
    method : str
        A method of :func:`methods`.
    dataset : str
        One of :data:`FULL_DATASETS`.

    Returns
    -------
    str or None
        The sentence the ``not_run`` table prints, or ``None`` when the method runs there.

    Examples
    --------
    >>> cannot_run("GeoRatio", "wine")
    'not run: numeric attributes, no feature groups'
    >>> cannot_run("GeoRatio", "breast_cancer") is None, cannot_run("MI", "wine") is None
    (True, True)
    """
    if method != "GeoRatio":
        return None
    groups = attribute_groups(load(dataset)[2])
    if groups is None:
        # GeoRatio chooses among unions of feature groups (types)
        return "not run: words only, one feature type" if dataset in TEXT_DATASETS else \
            "not run: numeric attributes, no feature groups"
    if len(groups) > GEO_MAX_GROUPS:
        return (f"not run: {len(groups)} feature groups give 2^{len(groups)} - 1 candidate unions "
                f"(more than GEO_MAX_GROUPS = {GEO_MAX_GROUPS} groups)")
    return None


def support_at(selector, method, k):
    """The ``k`` features a fitted ranking selector keeps, without refitting it.

    The scores of the :data:`RANKERS` do not depend on ``k``, so the top ``k`` of one fit is the
    set a fit at ``k`` keeps; ties are broken by each selector's own rule (``SelectKBest`` and
    ``WeakKernelSelector`` read ``k`` when asked for their support, ReliefF's fit applies
    :func:`~fsbook.decisions.top_k_mask` to its weights).
    ``tests/test_benchmark.py`` checks the equality.

    Parameters
    ----------
    selector : estimator
        A fitted selector of one of the :data:`RANKERS`.
    method : str
        Its method.
    k : int
        How many features to keep.

    Returns
    -------
    array of int
        The kept features, sorted.

    Examples
    --------
    >>> from sklearn.feature_selection import SelectKBest
    >>> X, y = load("wine")[:2]
    >>> support_at(SelectKBest(k=13).fit(X, y), "MI", 2).tolist()     # the two largest F scores
    [6, 12]
    """
    from fsbook.decisions import top_k_mask

    if method == "MI":
        return np.flatnonzero(selector.set_params(k=k).get_support())
    if method == "WK-LP":
        return np.flatnonzero(selector.set_params(n_features_to_select=k).get_support())
    if method == "HKL":
        return np.flatnonzero(selector.support_at(k))
    if method == "ReliefF":
        return np.flatnonzero(top_k_mask(selector.feature_importances_, k))
    raise ValueError(f"{method!r} is not a ranking method; expected one of {sorted(RANKERS)}")


def hkl_certificate(ranker):
    """``{"hkl_certified", "hkl_gap", "hkl_n_used"}`` of a fitted HKL ranker: whether every model
    (one per class on more than two classes) reached its duality-gap tolerance, the largest
    relative gap, and the number of features of positive score.

    Parameters
    ----------
    ranker : fsbook.hkl.HKLRanker
        A fitted ranker.

    Returns
    -------
    dict
        ``hkl_certified`` (bool), ``hkl_gap`` (float) and ``hkl_n_used`` (int).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> fit = NS(models_=[NS(certified_=True, duality_gap_=1e-4), NS(certified_=False, duality_gap_=0.3)],
    ...          n_used_=4)
    >>> hkl_certificate(fit)
    {'hkl_certified': False, 'hkl_gap': 0.3, 'hkl_n_used': 4}
    """
    return {"hkl_certified": bool(all(m.certified_ for m in ranker.models_)),
            "hkl_gap": float(max(m.duality_gap_ for m in ranker.models_)), "hkl_n_used": int(ranker.n_used_)}

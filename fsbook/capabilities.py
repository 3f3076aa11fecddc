"""What each public estimator of fsbook accepts: its scikit-learn tags beside what ``fit`` does.

:func:`capability_table` lists every public estimator (the :class:`~sklearn.base.BaseEstimator`
subclasses exported by a method subpackage's ``__all__``) with what its tags declare
(``sklearn.utils.get_tags``: ``input_tags.sparse``, ``input_tags.allow_nan``) and what a fit on a
tiny input actually does: sparse ``X``, a missing value, three classes, a continuous (regression)
target. The tags of a transformer or selector say nothing about multiclass or regression targets,
so those two columns are probed only, each estimator with the target it is meant for (a
meta-estimator wraps a regression model for the regression probe, :func:`probe_instance`). A probe
is one ``fit`` inside a ``try``: it is *yes* when the fit returns, *refused* when it raises; the
message of each refusal is kept.
"""
from __future__ import annotations

import importlib
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.utils import get_tags

from fsbook._targets import REFUSALS

__all__ = ["SUBPACKAGES", "public_estimators", "probe_instance", "capability_table"]

#: the subpackages whose ``__all__`` exports the public estimators
SUBPACKAGES = ("projection", "geometry", "hkl", "l1linf", "kernel_design", "baselines")

#: the probes, in the columns' order: (column, what the fit receives)
PROBES = ("sparse X", "NaN in X", "3 classes", "regression y")


def public_estimators() -> dict[str, type]:
    """The public estimator classes of fsbook, by name, in the subpackages' order.

    Examples
    --------
    >>> from fsbook.capabilities import public_estimators
    >>> est = public_estimators()
    >>> len(est), "HSFS" in est, est["MMC"].__module__
    (28, True, 'fsbook.baselines.mmc')
    """
    found = {}
    for name in SUBPACKAGES:
        module = importlib.import_module(f"fsbook.{name}")
        for attr in module.__all__:
            obj = getattr(module, attr)
            if isinstance(obj, type) and issubclass(obj, BaseEstimator):
                found[attr] = obj
    return found


def probe_instance(name: str, cls: type, target: str = "classes"):
    """The instance of a public estimator that the capability table probes, and how it is built:
    the default one, or a stated one where the estimator has no default or its default is not
    meant for ``target``.

    ``target="classes"`` is the instance of the classification probes: ``ProjectionPenalty`` needs
    an estimator and a reducer (``LogisticRegression``).  ``target="regression"`` is the instance
    of the ``regression y`` probe: the meta-estimators wrap a regression model, ``ProjectionPenalty``
    chapter 1's ``Ridge`` and ``StabilitySelection`` a lasso (Meinshausen & Bühlmann's example);
    every other estimator is probed as it is by default.

    Examples
    --------
    >>> from fsbook.capabilities import probe_instance, public_estimators
    >>> probe_instance("ProjectionPenalty", public_estimators()["ProjectionPenalty"])[1]
    'LogisticRegression(), PCA(2)'
    >>> probe_instance("ProjectionPenalty", public_estimators()["ProjectionPenalty"], "regression")[1]
    'Ridge(), PCA(2)'
    >>> probe_instance("LDFS", public_estimators()["LDFS"], "regression")[1]
    'default'
    """
    if target not in ("classes", "regression"):
        raise ValueError(f"target must be 'classes' or 'regression', got {target!r}")
    if name == "ProjectionPenalty":
        from sklearn.decomposition import PCA
        from sklearn.linear_model import LogisticRegression, Ridge
        model = Ridge() if target == "regression" else LogisticRegression()
        return cls(model, PCA(n_components=2)), f"{type(model).__name__}(), PCA(2)"
    if name == "StabilitySelection" and target == "regression":
        from sklearn.feature_selection import SelectFromModel
        from sklearn.linear_model import Lasso
        return cls(SelectFromModel(Lasso(alpha=0.1))), "SelectFromModel(Lasso(alpha=0.1))"
    return cls(), "default"


def _input_kind(name: str) -> str:
    return {"MMC": "pairs", "KernelDesign": "triplets"}.get(name, "(X, y)")


def _probe_data(seed: int = 0):
    rng = np.random.default_rng(seed)
    y2 = np.repeat([0, 1], 15)
    X = rng.normal(size=(30, 4))
    X[:, :2] += 2.0 * y2[:, None]
    y3 = np.tile([0, 1, 2], 10)
    Xnan = X.copy()
    Xnan[3, 2] = np.nan
    yreg = X[:, 0] + 0.1 * rng.normal(size=30)
    return {"sparse X": (sp.csr_matrix(X), y2), "NaN in X": (Xnan, y2),
            "3 classes": (X + y3[:, None], y3), "regression y": (X, yreg)}


def _fits(est, X, y, **fit_params):
    """None when ``clone(est).fit(X, y, **fit_params)`` returns, else the one-line message of its
    exception."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clone(est).fit(X, y, **fit_params)
    except Exception as exc:  # noqa: BLE001 - any refusal is what the probe records
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return None


def _weight_support(est, X, y):
    """``("routed", None)`` for a meta-estimator (it routes ``sample_weight`` to what it wraps,
    whose own support decides), else ``("yes", None)`` when ``fit(X, y, sample_weight=ones)``
    returns and ``("refused", message)`` when it raises."""
    from sklearn.utils.metadata_routing import MetadataRouter

    if isinstance(est.get_metadata_routing(), MetadataRouter):
        return "routed", None
    msg = _fits(est, X, y, sample_weight=np.ones(len(y)))
    return ("yes", None) if msg is None else ("refused", msg)


def capability_table(names=None, *, seed: int = 0) -> pd.DataFrame:
    """What every public estimator accepts, from its tags and from a probe fit on tiny inputs.

    Parameters
    ----------
    names : list of str, optional
        Estimator names (keys of :func:`public_estimators`); all of them by default.
    seed : int, default=0
        Seed of the tiny probe data (30 samples, 4 features, two informative).

    Returns
    -------
    pandas.DataFrame
        One row per estimator, indexed by its name, with the columns ``input`` (``(X, y)``,
        ``pairs`` or ``triplets``), ``kind`` (``selector``, ``transformer``, ``classifier``),
        ``sparse (tag)`` and ``NaN (tag)`` (``input_tags.sparse`` / ``allow_nan`` of
        ``sklearn.utils.get_tags``), and one column per probe (``sparse X``, ``NaN in X``,
        ``3 classes``, ``regression y``): ``"yes"`` when ``fit`` returned, ``"refused"`` when it
        raised, ``"—"`` for the pair and triplet learners, which take no ``(X, y)``.  The column
        ``sample_weight`` probes ``fit(X, y, sample_weight=ones)`` on two dense classes:
        ``"yes"``, ``"refused"`` (the ``TypeError`` says why, :data:`fsbook._weights.REFUSALS`) or
        ``"routed"`` for a meta-estimator, which routes the weights to what it wraps
        (scikit-learn's metadata routing). The column
        ``tags agree`` is ``"no"`` where a tag and its probe disagree (the tag says sparse or NaN
        is supported and the fit refuses it, or the reverse). ``table.attrs["messages"]`` maps
        ``(name, probe)`` to the message of each refusal, and ``table.attrs["probed_as"]`` names
        the instance probed where the estimator has no default, ``table.attrs["probed_for_regression_as"]``
        the instance of the ``regression y`` probe where it is not the default
        (:func:`probe_instance`).  A refusal of a regression target is a ``ValueError`` that
        names the reason (:data:`fsbook._targets.REFUSALS`); ``table.attrs["regression_refusals"]``
        maps each estimator that refused it to that reason alone.

    Examples
    --------
    >>> from fsbook.capabilities import capability_table
    >>> t = capability_table(["HSFS", "ProjectionPenaltySVC", "MMC"])
    >>> t[["kind", "sparse (tag)", "sparse X", "3 classes", "regression y"]]
                             kind sparse (tag) sparse X 3 classes regression y
    estimator
    HSFS                     selector          yes      yes       yes          yes
    ProjectionPenaltySVC   classifier          yes      yes       yes      refused
    MMC                   transformer           no        —         —            —
    >>> print(t.attrs["messages"][("ProjectionPenaltySVC", "regression y")][:97])
    ValueError: Unknown label type: continuous. ProjectionPenaltySVC is defined for class labels only
    """
    classes = public_estimators()
    if names is None:
        names = list(classes)
    unknown = [n for n in names if n not in classes]
    if unknown:
        raise ValueError(f"not public estimators of fsbook: {unknown}; choose from {sorted(classes)}")
    data = _probe_data(seed)
    rows, messages, probed_as, probed_for_regression_as = [], {}, {}, {}
    for name in names:
        est, how = probe_instance(name, classes[name])
        if how != "default":
            probed_as[name] = how
        regressor, how = probe_instance(name, classes[name], "regression")
        if how != "default":
            probed_for_regression_as[name] = how
        tags = get_tags(est)
        kind = ("classifier" if tags.estimator_type == "classifier" else
                "regressor" if tags.estimator_type == "regressor" else
                "selector" if hasattr(est, "get_support") else "transformer")
        row = {"estimator": name, "input": _input_kind(name), "kind": kind,
               "sparse (tag)": "yes" if tags.input_tags.sparse else "no",
               "NaN (tag)": "yes" if tags.input_tags.allow_nan else "no"}
        for probe in PROBES:
            if row["input"] != "(X, y)":
                row[probe] = "—"
                continue
            msg = _fits(regressor if probe == "regression y" else est, *data[probe])
            row[probe] = "yes" if msg is None else "refused"
            if msg is not None:
                messages[(name, probe)] = msg
        if row["input"] == "(X, y)":
            Xs, y2 = data["sparse X"]
            row["sample_weight"], msg = _weight_support(est, Xs.toarray(), y2)
            if msg is not None:
                messages[(name, "sample_weight")] = msg
        else:
            row["sample_weight"] = "—"
        row["tags agree"] = "—" if row["input"] != "(X, y)" else (
            "yes" if all((row[tag] == "yes") == (row[probe] == "yes")
                         for tag, probe in (("sparse (tag)", "sparse X"), ("NaN (tag)", "NaN in X")))
            else "no")
        rows.append(row)
    table = pd.DataFrame(rows).set_index("estimator")
    table.attrs["messages"] = messages
    table.attrs["probed_as"] = probed_as
    table.attrs["probed_for_regression_as"] = probed_for_regression_as
    table.attrs["regression_refusals"] = {name: REFUSALS[name] for name in names
                                          if (name, "regression y") in messages and name in REFUSALS}
    return table

"""Regression targets: which estimators take them, and a clear refusal from the others.

A target is a *regression target* when scikit-learn's :func:`~sklearn.utils.multiclass.type_of_target`
calls it ``"continuous"`` (floats that are not all integers); integer or string labels are
classes.  The estimators whose method is defined for such a target take it:

* :class:`~fsbook.baselines.Relief` computes RReliefF (Robnik-Šikonja & Kononenko 2003);
* :class:`~fsbook.l1linf.HSFS` and :class:`~fsbook.baselines.FOHSIC` put the linear kernel of
  the standardised target in HSIC in place of the delta kernel of the classes;
* :class:`~fsbook.baselines.StabilitySelection` draws plain (not stratified) halves and fits
  what it wraps, which decides (Meinshausen & Bühlmann's own example is the lasso);
* :class:`~fsbook.projection.ProjectionPenalty` fits what it wraps: a regressor (``Ridge``)
  makes it a regression model;
* :class:`~fsbook.projection.ExhaustedSafePLS`, :class:`~fsbook.geometry.FeatureGroupSelector`
  and :class:`~fsbook.baselines.WekaFilters` take any numeric target.

Every other public estimator refuses a regression target with a ``ValueError`` that names it
and says why (:data:`REFUSALS`), raised by :func:`fsbook._compat.fit_context` before ``fit``
runs.  The message starts as scikit-learn's own refusal does (``Unknown label type:
continuous``), which scikit-learn's estimator checks expect of a classifier.
"""
from __future__ import annotations

import numpy as np

__all__ = ["REFUSALS", "is_regression_target", "refusal", "refuse_constant_target", "standardised"]

_CLASSIFIER = "it is a classifier ({what})"

#: why each public estimator that is defined for class labels only refuses a regression target
REFUSALS = {
    "ProjectionPenaltySVC": _CLASSIFIER.format(what="the SVM of Masaeli et al.'s eqs. (13)-(15); "
                                                    "ProjectionPenalty with a regressor such as "
                                                    "Ridge is the regression form"),
    "GeneralizedDiscriminantAnalysis": "its kernel scatter matrices are between and within classes",
    "OrthogonalLaplacianfaces": "its graph joins the samples of one class",
    "GeometricFeatureSetSelector": "its geometric ratios compare the convex hulls of two classes",
    "HKLRanker": "it ranks by the disjunctive HKL classifier (logistic loss); HKL's square-loss "
                 "(regression) form is not implemented",
    "DisjunctiveHKL": _CLASSIFIER.format(what="logistic loss on boolean features"),
    "DisjunctiveHKLCV": _CLASSIFIER.format(what="logistic loss on boolean features"),
    "LDFS": "the LDA criterion of eq. (6) is a ratio of between-class to within-class scatter; "
            "HSFS takes a regression target",
    "WeakKernelSelector": "its triplets pair a point with a point of its class and one of another class",
    "WekaSubsetSelector": "it reproduces WEKA's evaluators as the paper ran them, on nominal classes",
    "WekaLibSVM": _CLASSIFIER.format(what="WEKA's C-SVC as the paper ran it"),
    "ZeroNormSVM": _CLASSIFIER.format(what="a linear SVM"),
    "FeatureWeightingSVM": _CLASSIFIER.format(what="a linear SVM"),
    "LaplacianScore": "its class graph joins the samples of one class (graph='class'); the "
                      "neighbourhood graph (graph='knn') does not use y",
    "SVMRFE": "it eliminates features by the weights of a linear SVM classifier (Guyon et al.)",
    "L1SVMSelector": "its l1-SVM is a classifier (hinge loss); a lasso path is the regression form",
    "MMCSupervised": "it makes its similar and dissimilar pairs from the classes",
    "MRMR": "its relevance and redundancy are mutual informations with a discrete class "
            "(Peng et al. 2005)",
}


def is_regression_target(y) -> bool:
    """Whether ``y`` is a regression target: scikit-learn's ``type_of_target`` is ``"continuous"``.

    Examples
    --------
    >>> from fsbook._targets import is_regression_target
    >>> is_regression_target([0.5, 1.2, 3.0]), is_regression_target([0.0, 1.0, 1.0])
    (True, False)
    >>> is_regression_target(["a", "b"]), is_regression_target(None)
    (False, False)
    """
    from sklearn.utils.multiclass import type_of_target

    if y is None:
        return False
    try:
        return type_of_target(y, input_name="y") == "continuous"
    except (TypeError, ValueError):         # not a target fit can read: fit's own check says why
        return False


def refusal(estimator) -> str | None:
    """The ``ValueError`` message of ``estimator.fit(X, y)`` for a regression ``y``, or None when
    the estimator takes one (it is not in :data:`REFUSALS`).

    Examples
    --------
    >>> from fsbook._targets import refusal
    >>> from fsbook.l1linf import LDFS, HSFS
    >>> print(refusal(LDFS()))
    Unknown label type: continuous. LDFS is defined for class labels only: the LDA criterion of eq. (6) is a ratio of between-class to within-class scatter; HSFS takes a regression target. The estimators that take a regression target are listed by fsbook.capabilities.capability_table() (column 'regression y')
    >>> refusal(HSFS()) is None
    True
    """
    name = next((cls.__name__ for cls in type(estimator).__mro__ if cls.__name__ in REFUSALS), None)
    if name is None:
        return None
    return (f"Unknown label type: continuous. {type(estimator).__name__} is defined for class labels "
            f"only: {REFUSALS[name]}. The estimators that take a regression target are listed by "
            "fsbook.capabilities.capability_table() (column 'regression y')")


def refuse_constant_target(y) -> None:
    """Raise a ``ValueError`` when the regression target ``y`` is constant: no feature can then
    carry information about it.

    Examples
    --------
    >>> from fsbook._targets import refuse_constant_target
    >>> refuse_constant_target([2.5, 2.5])
    Traceback (most recent call last):
    ...
    ValueError: the regression target y is constant (2.5), so no feature can carry information about it
    """
    y = np.asarray(y, dtype=float)
    if not np.ptp(y) > 0:
        raise ValueError(f"the regression target y is constant ({float(y[0])!r}), so no feature can carry "
                         "information about it")


def standardised(y) -> np.ndarray:
    """``(y − mean) / s.d.`` of a regression target (refused when it is constant).

    Examples
    --------
    >>> from fsbook._targets import standardised
    >>> standardised([1.0, 2.0, 3.0]).round(4).tolist()
    [-1.2247, 0.0, 1.2247]
    """
    refuse_constant_target(y)
    y = np.asarray(y, dtype=float)
    return (y - y.mean()) / y.std()

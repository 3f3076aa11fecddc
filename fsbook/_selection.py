"""The one base of fsbook's feature selectors: a support mask, ``k`` and the scikit-learn tags.

Every selector of the package (the baselines, LDFS/HSFS, the weak-kernel LP, the geometric
selectors) derives from :class:`SupportSelectorMixin`, which supplies

* ``_get_support_mask``: the fitted boolean ``support_``;
* ``__sklearn_tags__`` from three class attributes that declare the input contract
  (``_requires_y``, ``_sparse_input``, ``_allow_nan``);
* ``_validate_classes``: validated ``X`` and class codes, at least two classes;
* ``_resolve_k`` and ``_keep_top``: ``n_features_to_select`` resolved by
  :func:`resolve_n_features`, and the ``k`` largest scores kept by
  :func:`fsbook.decisions.top_k_mask` (scores within a relative :data:`fsbook.decisions.RTOL`
  are tied; a tie goes to the smaller feature index).

The module sits at the package root, below :mod:`fsbook.baselines` and the method packages, and
imports none of them.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.sparsefuncs import min_max_axis
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import Interval
from fsbook.decisions import top_k_mask

__all__ = ["N_FEATURES_CONSTRAINT", "resolve_n_features", "SupportSelectorMixin", "constant_columns"]

#: ``_parameter_constraints`` entry of ``n_features_to_select``: an int >= 1, a fraction in
#: (0, 1] or None
N_FEATURES_CONSTRAINT = [Interval(Integral, 1, None, closed="left"),
                         Interval(Real, 0, 1, closed="right"), None]


def resolve_n_features(n_features_to_select, n_features: int) -> int:
    """The number ``k`` of features to keep out of ``n_features``.

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
        An int is ``k`` itself; a float (not an int) is a fraction of ``n_features``, rounded
        by Python's :func:`round` (halves to even) and at least 1; None keeps half,
        ``max(1, n_features // 2)``.
    n_features : int
        Number of features of the data.

    Returns
    -------
    int
        ``1 <= k <= n_features``.

    Raises
    ------
    ValueError
        A bool (neither a count nor a fraction), an int below 1 or above ``n_features``, or a
        fraction outside (0, 1].

    Examples
    --------
    >>> from fsbook._selection import resolve_n_features
    >>> resolve_n_features(None, 7), resolve_n_features(None, 1)
    (3, 1)
    >>> resolve_n_features(0.25, 10), resolve_n_features(0.01, 10)   # round(2.5) = 2
    (2, 1)
    >>> resolve_n_features(4, 10)
    4
    >>> resolve_n_features(11, 10)
    Traceback (most recent call last):
    ...
    ValueError: n_features_to_select=11 exceeds the number of features 10
    """
    k = n_features_to_select
    if k is None:
        return max(1, n_features // 2)
    if isinstance(k, (bool, np.bool_)):
        raise ValueError(f"n_features_to_select={k!r} is a bool; give a count or a fraction")
    if isinstance(k, Real) and not isinstance(k, Integral):
        if not 0 < k <= 1:
            raise ValueError(f"n_features_to_select={k} is a fraction outside (0, 1]")
        return max(1, int(round(k * n_features)))
    if k < 1:
        raise ValueError(f"n_features_to_select={k} must be at least 1")
    if k > n_features:
        raise ValueError(f"n_features_to_select={k} exceeds the number of features {n_features}")
    return int(k)


def constant_columns(X):
    """Boolean mask of the columns of ``X`` whose values are all equal (NaN ignored; a column
    of NaN only counts as constant).

    Examples
    --------
    >>> import numpy as np
    >>> constant_columns(np.array([[1.0, 2.0, np.nan], [1.0, 3.0, np.nan]])).tolist()
    [True, False, True]
    """
    if X.shape[0] == 0:
        return np.ones(X.shape[1], dtype=bool)
    if sp.issparse(X):
        lo, hi = min_max_axis(X, axis=0, ignore_nan=True)
    else:
        finite_or_nan = np.where(np.isnan(X), np.inf, X)
        lo = finite_or_nan.min(axis=0)
        hi = np.where(np.isnan(X), -np.inf, X).max(axis=0)
    lo, hi = np.asarray(lo).ravel(), np.asarray(hi).ravel()
    return ~(hi > lo)


def refuse_constant_X(estimator, X):
    """Raise a clear error when every column of ``X`` is constant: no feature then carries
    information about ``y`` and any selection would be arbitrary."""
    if constant_columns(X).all():
        raise ValueError(
            f"{type(estimator).__name__}: every column of X is constant ({X.shape[1]} features, "
            f"{X.shape[0]} samples), so no feature carries information about y and any selection "
            "would be arbitrary; remove constant features first (e.g. "
            "sklearn.feature_selection.VarianceThreshold) and check the data")


class SupportSelectorMixin(SelectorMixin):
    """Base of every fsbook feature selector: ``support_``, ``k``, top-k and the tags.

    A subclass lists it before :class:`~sklearn.base.BaseEstimator` (scikit-learn's mixin
    order), sets ``support_`` in ``fit`` (or overrides ``_get_support_mask``) and declares its
    input contract with three class attributes, which ``__sklearn_tags__`` reads:

    ``_requires_y`` : bool, default True
        ``fit`` needs ``y`` (``target_tags.required``).
    ``_sparse_input`` : False or str, default False
        The sparse format ``fit`` converts a sparse ``X`` to (``"csr"``, ``"csc"``), False if
        it refuses sparse input: ``input_tags.sparse`` and ``_validate_classes``'s
        ``accept_sparse``.
    ``_allow_nan`` : bool, default False
        ``fit`` accepts NaN in ``X``: ``input_tags.allow_nan`` and ``_validate_classes``'s
        ``ensure_all_finite``.

    Examples
    --------
    A selector that keeps the ``k`` columns of largest variance:

    >>> import numpy as np
    >>> from sklearn.base import BaseEstimator
    >>> from fsbook._selection import SupportSelectorMixin
    >>> class VarianceTopK(SupportSelectorMixin, BaseEstimator):
    ...     _requires_y = False
    ...     def __init__(self, n_features_to_select=None):
    ...         self.n_features_to_select = n_features_to_select
    ...     def fit(self, X, y=None):
    ...         X = np.asarray(X, dtype=float)
    ...         self.n_features_in_ = X.shape[1]
    ...         self._keep_top(X.var(axis=0), self._resolve_k(X.shape[1]))
    ...         return self
    >>> X = np.array([[0.0, 1.0, 5.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
    >>> X.var(axis=0).tolist()
    [0.25, 0.0, 6.25, 0.25]
    >>> VarianceTopK().fit(X).get_support(indices=True)      # None keeps half; 0 and 3 tie
    array([0, 2])
    """

    _requires_y = True
    _sparse_input = False
    _allow_nan = False

    def _validate_classes(self, X, y):
        """Validated ``(X, class codes)`` of at least two classes; sets ``classes_``.

        ``X`` is converted to float64 (at least two samples; sparse in the format
        ``_sparse_input`` if that is not False; NaN allowed if ``_allow_nan``), ``y`` must be
        class labels; ``classes_`` holds the sorted labels, the codes index into it.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.base import BaseEstimator
        >>> from fsbook._selection import SupportSelectorMixin
        >>> class Demo(SupportSelectorMixin, BaseEstimator):
        ...     pass
        >>> sel = Demo()
        >>> X, codes = sel._validate_classes(np.eye(3), ["b", "a", "b"])
        >>> codes.tolist(), sel.classes_.tolist()
        ([1, 0, 1], ['a', 'b'])
        >>> sel._validate_classes(np.eye(3), [1, 1, 1])
        Traceback (most recent call last):
        ...
        ValueError: Demo needs at least two classes; y has one class (np.int64(1))

        A constant ``X`` carries no information about ``y``: any ``k`` features would be an
        arbitrary choice, so it is refused:

        >>> sel._validate_classes(np.ones((4, 3)), [0, 1, 0, 1])
        Traceback (most recent call last):
        ...
        ValueError: Demo: every column of X is constant (3 features, 4 samples), so no feature carries information about y and any selection would be arbitrary; remove constant features first (e.g. sklearn.feature_selection.VarianceThreshold) and check the data
        """
        X, y = validate_data(self, X, y, accept_sparse=self._sparse_input, dtype=np.float64,
                             ensure_min_samples=2,
                             ensure_all_finite="allow-nan" if self._allow_nan else True)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"{type(self).__name__} needs at least two classes; "
                             f"y has one class ({self.classes_[0]!r})")
        refuse_constant_X(self, X)
        return X, codes

    def _validate_classes_or_values(self, X, y):
        """``(X, class codes, False)`` as :meth:`_validate_classes` for class labels, or
        ``(X, y as floats, True)`` for a regression target (:func:`fsbook._targets.is_regression_target`),
        which must not be constant; ``classes_`` is set for classes only.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.base import BaseEstimator
        >>> from fsbook._selection import SupportSelectorMixin
        >>> class Demo(SupportSelectorMixin, BaseEstimator):
        ...     pass
        >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
        >>> Demo()._validate_classes_or_values(X, [0.5, 1.5, 4.0])[1:]
        (array([0.5, 1.5, 4. ]), True)
        >>> Demo()._validate_classes_or_values(X, [1, 0, 1])[1:]
        (array([1, 0, 1]), False)
        """
        from fsbook._targets import is_regression_target, refuse_constant_target

        if not is_regression_target(y):
            X, codes = self._validate_classes(X, y)
            return X, codes, False
        X, y = validate_data(self, X, y, accept_sparse=self._sparse_input, dtype=np.float64,
                             ensure_min_samples=2, y_numeric=True,
                             ensure_all_finite="allow-nan" if self._allow_nan else True)
        refuse_constant_target(y)
        refuse_constant_X(self, X)
        self.__dict__.pop("classes_", None)              # from an earlier fit on classes
        return X, y, True

    def _resolve_k(self, n_features):
        """``self.n_features_to_select`` resolved by :func:`resolve_n_features`."""
        return resolve_n_features(self.n_features_to_select, n_features)

    def _keep_top(self, scores, k):
        """Set ``support_`` to the ``k`` largest ``scores`` (:func:`fsbook.decisions.top_k_mask`:
        scores within a relative :data:`fsbook.decisions.RTOL` are ties, kept by the smaller
        feature index)."""
        self.support_ = top_k_mask(scores, k)

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = self._requires_y
        tags.input_tags.sparse = bool(self._sparse_input)
        tags.input_tags.allow_nan = self._allow_nan
        return tags

"""The one place fsbook imports private names of scikit-learn and SciPy.

scikit-learn keeps its parameter-validation machinery private (``sklearn.base._fit_context``,
``sklearn.utils._param_validation``, ``sklearn.utils.validation._check_feature_names_in``) and
SciPy its ``LineSearchWarning`` (``scipy.optimize._linesearch``).  fsbook's estimators use them
the way scikit-learn's own do, but only through this module: each name is imported from its
private home when it is there and otherwise replaced by a small fallback defined below, so a
release that moves or renames one breaks nothing but (at worst) this module, and
``tests/test_compat.py`` checks the fallbacks against the private originals.

Exported names:

* :func:`fit_context` -- ``sklearn.base._fit_context``: a ``fit`` decorator that validates the
  estimator's ``_parameter_constraints`` first;
* :class:`Interval`, :class:`StrOptions`, :class:`Options`, :class:`HasMethods`,
  :func:`validate_params` -- from ``sklearn.utils._param_validation``;
* :class:`PositiveFloats` -- fsbook's own constraint (a sequence of positive finite floats),
  on scikit-learn's private constraint base class;
* :func:`check_feature_names_in` -- ``sklearn.utils.validation._check_feature_names_in``;
* :func:`check_sample_weight` -- ``sklearn.utils.validation._check_sample_weight``, and
  :func:`raise_for_params` -- ``sklearn.utils.metadata_routing._raise_for_params`` (no fallback:
  both are in every scikit-learn fsbook supports, 1.6 onwards);
* :data:`libsvm` -- ``sklearn.svm._libsvm``, the libsvm build scikit-learn ships (no fallback:
  every scikit-learn fsbook supports has it), for :class:`fsbook._svc.PrecomputedSVC`;
* :class:`LineSearchWarning` -- ``scipy.optimize._linesearch.LineSearchWarning`` (fallback:
  :class:`RuntimeWarning`, its base class, so a filter on it still catches the warning).

``USING_FALLBACK`` lists the names for which the fallback is in use.

Examples
--------
>>> from numbers import Integral
>>> from sklearn.base import BaseEstimator
>>> from fsbook._compat import Interval, fit_context
>>> class Demo(BaseEstimator):
...     _parameter_constraints = {"k": [Interval(Integral, 1, None, closed="left")]}
...     def __init__(self, k=1):
...         self.k = k
...     @fit_context(prefer_skip_nested_validation=True)
...     def fit(self, X=None, y=None):
...         return self
>>> Demo(k=0).fit()
Traceback (most recent call last):
...
sklearn.utils._param_validation.InvalidParameterError: The 'k' parameter of Demo must be an int in the range [1, inf). Got 0 instead.
"""
from __future__ import annotations

import functools
import inspect
from numbers import Integral

import numpy as np
import scipy.sparse as sp

__all__ = ["fit_context", "Interval", "StrOptions", "Options", "HasMethods", "validate_params", "PositiveFloats",
           "check_feature_names_in", "check_sample_weight", "raise_for_params", "libsvm", "LineSearchWarning", "InvalidParameterError",
           "USING_FALLBACK"]

USING_FALLBACK: list[str] = []


# ---------------------------------------------------------------------------------------------
# fallbacks (used only when the private originals cannot be imported)

class _FallbackInvalidParameterError(ValueError, TypeError):
    """A parameter violates its constraints (as scikit-learn's ``InvalidParameterError``)."""


class _FallbackInterval:
    """``value`` of ``type`` in the interval from ``left`` to ``right`` (None: unbounded);
    ``closed`` in {"left", "right", "both", "neither"}."""

    def __init__(self, type, left, right, *, closed):
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError(f"closed must be 'left', 'right', 'both' or 'neither', got {closed!r}")
        self.type, self.left, self.right, self.closed = type, left, right, closed

    def is_satisfied_by(self, val):
        # as scikit-learn: any instance of the type (bool included), NaN in no interval
        if not isinstance(val, self.type):
            return False
        if not isinstance(val, Integral) and np.isnan(val):
            return False
        if self.left is not None:
            if val < self.left or (val == self.left and self.closed in ("right", "neither")):
                return False
        if self.right is not None:
            if val > self.right or (val == self.right and self.closed in ("left", "neither")):
                return False
        return True

    def __str__(self):
        kind = "an int" if self.type is Integral else "a float"
        lb = "[" if self.closed in ("left", "both") else "("
        rb = "]" if self.closed in ("right", "both") else ")"
        left = "-inf" if self.left is None else self.left
        right = "inf" if self.right is None else self.right
        return f"{kind} in the range {lb}{left}, {right}{rb}"


class _FallbackOptions:
    """``value`` of ``type`` among ``options``."""

    def __init__(self, type, options):
        self.type, self.options = type, set(options)

    def is_satisfied_by(self, val):
        return isinstance(val, self.type) and val in self.options

    def __str__(self):
        return f"a {getattr(self.type, '__name__', self.type)} among {sorted(map(repr, self.options))}"


class _FallbackStrOptions(_FallbackOptions):
    """A ``str`` among ``options``."""

    def __init__(self, options):
        super().__init__(str, options)


class _FallbackHasMethods:
    """An object with every method of ``methods`` (a name or a list of names)."""

    def __init__(self, methods):
        self.methods = [methods] if isinstance(methods, str) else list(methods)

    def is_satisfied_by(self, val):
        return all(callable(getattr(val, m, None)) for m in self.methods)

    def __str__(self):
        return f"an object implementing {self.methods}"


def _satisfies(constraint, val):
    if constraint is None:
        return val is None
    if isinstance(constraint, str):
        if constraint == "array-like":
            return not isinstance(val, str) and (hasattr(val, "__len__") or hasattr(val, "shape")
                                                 or hasattr(val, "__array__"))
        if constraint == "sparse matrix":
            return sp.issparse(val)
        if constraint == "random_state":
            return val is None or isinstance(val, (Integral, np.random.RandomState)) and not isinstance(val, bool)
        if constraint == "boolean":
            return isinstance(val, (bool, np.bool_))
        if constraint == "callable":
            return callable(val)
        if constraint == "no_validation":
            return True
        raise ValueError(f"unknown constraint {constraint!r}")
    if isinstance(constraint, type):
        return isinstance(val, constraint)
    return constraint.is_satisfied_by(val)


def _fallback_validate(constraints, params, caller):
    for name, val in params.items():
        if name not in constraints or constraints[name] == "no_validation":
            continue
        options = constraints[name]
        if not any(_satisfies(c, val) for c in options):
            shown = " or ".join(str(c) if not isinstance(c, type) else f"an instance of {c.__name__!r}"
                                for c in options)
            raise _FallbackInvalidParameterError(
                f"The {name!r} parameter of {caller} must be {shown}. Got {val!r} instead.")


def _fallback_fit_context(*, prefer_skip_nested_validation):
    """``fit`` decorator: validate ``_parameter_constraints`` against ``get_params(deep=False)``."""
    def decorator(fit_method):
        @functools.wraps(fit_method)
        def wrapper(estimator, *args, **kwargs):
            _fallback_validate(getattr(estimator, "_parameter_constraints", {}),
                               estimator.get_params(deep=False), type(estimator).__name__)
            return fit_method(estimator, *args, **kwargs)
        return wrapper
    return decorator


def _fallback_validate_params(parameter_constraints, *, prefer_skip_nested_validation):
    """Function decorator: validate the bound arguments against ``parameter_constraints``."""
    def decorator(func):
        signature = inspect.signature(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            _fallback_validate(parameter_constraints, bound.arguments, f"{func.__qualname__}")
            return func(*args, **kwargs)
        return wrapper
    return decorator


def _fallback_check_feature_names_in(estimator, input_features=None, *, generate_names=True):
    """Input feature names: ``input_features`` checked against ``feature_names_in_`` and
    ``n_features_in_``, else ``feature_names_in_``, else ``x0, x1, …``."""
    names_in = getattr(estimator, "feature_names_in_", None)
    n_in = getattr(estimator, "n_features_in_", None)
    if input_features is not None:
        input_features = np.asarray(input_features, dtype=object)
        if names_in is not None and not np.array_equal(names_in, input_features):
            raise ValueError("input_features is not equal to feature_names_in_")
        if n_in is not None and len(input_features) != n_in:
            raise ValueError(f"input_features should have length equal to number of features "
                             f"({n_in}), got {len(input_features)}")
        return input_features
    if names_in is not None:
        return names_in
    if not generate_names:
        return None
    if n_in is None:
        raise ValueError("Unable to generate feature names without n_features_in_")
    return np.asarray([f"x{i}" for i in range(n_in)], dtype=object)


# ---------------------------------------------------------------------------------------------
# the names fsbook uses: the private originals when importable, else the fallbacks

try:
    from sklearn.utils._param_validation import (
        HasMethods,
        Interval,
        InvalidParameterError,
        Options,
        StrOptions,
        validate_params,
    )
except ImportError:  # pragma: no cover - depends on the installed scikit-learn
    HasMethods, Interval, Options, StrOptions = (_FallbackHasMethods, _FallbackInterval,
                                                 _FallbackOptions, _FallbackStrOptions)
    InvalidParameterError = _FallbackInvalidParameterError
    validate_params = _fallback_validate_params
    USING_FALLBACK.extend(["Interval", "StrOptions", "Options", "HasMethods", "validate_params"])

class PositiveFloats(HasMethods):
    """Constraint: a non-empty array-like of positive finite numbers (Gaussian widths).

    scikit-learn accepts only its own constraint classes in ``_parameter_constraints``; this one
    derives from :class:`HasMethods` (with no method) to be accepted and replaces its test.

    Examples
    --------
    >>> PositiveFloats().is_satisfied_by((1.0, 10)), PositiveFloats().is_satisfied_by((-1.0,))
    (True, False)
    """

    def __init__(self, allow_empty=False):
        super().__init__([])
        self.allow_empty = allow_empty

    def is_satisfied_by(self, val):
        if isinstance(val, str):
            return False
        try:
            values = np.asarray(val, dtype=np.float64)
        except (TypeError, ValueError):
            return False
        return (values.ndim <= 1 and (values.size > 0 or self.allow_empty)
                and bool(np.all(np.isfinite(values) & (values > 0))))

    def __str__(self):
        return ("a" if self.allow_empty else "a non-empty") + " sequence of positive finite floats"


try:
    if USING_FALLBACK:       # scikit-learn's _fit_context would not understand the fallback constraints
        raise ImportError
    from sklearn.base import _fit_context as _validating_fit_context
except ImportError:  # pragma: no cover - depends on the installed scikit-learn
    _validating_fit_context = _fallback_fit_context
    USING_FALLBACK.append("fit_context")


def fit_context(*, prefer_skip_nested_validation):
    """scikit-learn's ``_fit_context`` (or its fallback) and two clear refusals before ``fit`` runs:
    a ``TypeError`` from a ``fit`` without ``sample_weight`` (nor ``**fit_params``) when it is
    given one (:func:`fsbook._weights.refusal`), and a ``ValueError`` from an estimator defined
    for class labels only when ``y`` is a regression target (:func:`fsbook._targets.refusal`).
    The signature seen by scikit-learn's checks and metadata routing is ``fit``'s own."""
    validating = _validating_fit_context(prefer_skip_nested_validation=prefer_skip_nested_validation)

    def decorator(fit):
        wrapped = validating(fit)
        params = inspect.signature(fit).parameters
        takes_weights = "sample_weight" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())

        @functools.wraps(fit)
        def refusing(estimator, *args, **kwargs):
            if "sample_weight" in kwargs and not takes_weights:
                from fsbook._weights import refusal
                raise TypeError(refusal(estimator))
            _refuse_regression_target(estimator, args[1] if len(args) > 1 else kwargs.get("y"))
            return wrapped(estimator, *args, **kwargs)
        return refusing
    return decorator


def _refuse_regression_target(estimator, y):
    """Raise :func:`fsbook._targets.refusal`'s ``ValueError`` when ``y`` is a regression target
    and the estimator is defined for class labels only."""
    from fsbook._targets import REFUSALS, is_regression_target, refusal

    if any(cls.__name__ in REFUSALS for cls in type(estimator).__mro__) and is_regression_target(y):
        raise ValueError(refusal(estimator))

from sklearn.svm import _libsvm as libsvm  # noqa: E402
from sklearn.utils.metadata_routing import _raise_for_params as raise_for_params  # noqa: E402
from sklearn.utils.validation import _check_sample_weight as check_sample_weight  # noqa: E402

try:
    from sklearn.utils.validation import _check_feature_names_in as check_feature_names_in
except ImportError:  # pragma: no cover - depends on the installed scikit-learn
    check_feature_names_in = _fallback_check_feature_names_in
    USING_FALLBACK.append("check_feature_names_in")

try:
    from scipy.optimize._linesearch import LineSearchWarning
except ImportError:  # pragma: no cover - depends on the installed SciPy
    LineSearchWarning = RuntimeWarning
    USING_FALLBACK.append("LineSearchWarning")

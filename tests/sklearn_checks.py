"""scikit-learn's ``parametrize_with_checks`` with its argument values as a list.

scikit-learn 1.6 (the oldest release fsbook declares) hands ``pytest.mark.parametrize`` a
generator of (estimator, check) pairs, which pytest ≥ 9 deprecates (``PytestRemovedIn10Warning``:
"Passing a non-Collection iterable to parametrize is deprecated"); newer releases pass a list.
The tests import the function from here, which rebuilds the mark with a list either way.
"""
import pytest
from sklearn.utils import estimator_checks

__all__ = ["parametrize_with_checks"]


def parametrize_with_checks(estimators, **kwargs):
    """``sklearn.utils.estimator_checks.parametrize_with_checks`` whose argvalues are a list."""
    mark = estimator_checks.parametrize_with_checks(estimators, **kwargs)
    names, values, *rest = mark.args
    return pytest.mark.parametrize(names, list(values), *rest, **mark.kwargs)

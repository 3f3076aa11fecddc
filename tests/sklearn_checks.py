"""scikit-learn's ``parametrize_with_checks`` with its argument values as a list, and one excuse
for a bug of the oldest scikit-learn releases fsbook declares.

scikit-learn 1.6 (the oldest release fsbook declares) hands ``pytest.mark.parametrize`` a
generator of (estimator, check) pairs, which pytest ≥ 9 deprecates (``PytestRemovedIn10Warning``:
"Passing a non-Collection iterable to parametrize is deprecated"); newer releases pass a list.
The tests import the function from here, which rebuilds the mark with a list either way.

Before 1.7, scikit-learn's ``check_sample_weight_equivalence_on_dense_data`` (and ``_sparse_``)
makes the labels of a binary-only classifier binary separately for the weighted data and for the
repeated data, each by its own first label (``y == y.flat[0]``).  The two arrays start with
different samples, so the two fits learn different classes and the check fails for any correct
weighting (on its data, 0 against the rest for one fit and 1 against the rest for the other:
decision values 2.66 apart for :class:`~fsbook.baselines.FeatureWeightingSVM`).  scikit-learn
1.7 binarises by ``y.min()``.  For scikit-learn < 1.7 these two checks are expected to fail for a
binary-only classifier that takes weights; fsbook's own tests compare weighted and repeated fits.
"""
import inspect

import pytest
import sklearn
from sklearn.utils import estimator_checks, get_tags
from sklearn.utils.fixes import parse_version

__all__ = ["parametrize_with_checks", "old_binary_weight_checks"]

#: scikit-learn binarises the two label arrays of its weight-equivalence check differently
BINARISES_BY_FIRST_LABEL = parse_version(sklearn.__version__) < parse_version("1.7")
#: the checks affected
WEIGHT_CHECKS = ("check_sample_weight_equivalence_on_dense_data",
                 "check_sample_weight_equivalence_on_sparse_data")


def old_binary_weight_checks(estimator) -> dict:
    """The weight-equivalence checks expected to fail on scikit-learn < 1.7 for ``estimator``
    (a binary-only classifier whose ``fit`` takes ``sample_weight``), with the reason."""
    tags = get_tags(estimator)
    if (not BINARISES_BY_FIRST_LABEL or tags.classifier_tags is None or tags.classifier_tags.multi_class
            or "sample_weight" not in inspect.signature(estimator.fit).parameters):
        return {}
    return dict.fromkeys(WEIGHT_CHECKS, "scikit-learn < 1.7 binarises the weighted and the repeated "
                                        "labels by each array's first label, so the two fits learn "
                                        "different classes (fixed in 1.7)")


def parametrize_with_checks(estimators, *, expected_failed_checks=None, **kwargs):
    """``sklearn.utils.estimator_checks.parametrize_with_checks`` whose argvalues are a list,
    with :func:`old_binary_weight_checks` added to ``expected_failed_checks``."""
    def expected(estimator):
        own = expected_failed_checks(estimator) if expected_failed_checks else {}
        return {**old_binary_weight_checks(estimator), **own}

    mark = estimator_checks.parametrize_with_checks(estimators, expected_failed_checks=expected, **kwargs)
    names, values, *rest = mark.args
    return pytest.mark.parametrize(names, list(values), *rest, **mark.kwargs)

"""Every public transformer names its output columns, so ``set_output(transform="pandas")`` works.

The public estimators are :func:`fsbook.capabilities.public_estimators` (the ``BaseEstimator``
subclasses of the subpackages' ``__all__``), built as the capability table builds them
(:func:`fsbook.capabilities.probe_instance`). A *transformer* is one with a ``transform`` method.
For each: ``get_feature_names_out`` exists, and ``set_output(transform="pandas")`` then
``fit_transform`` on a DataFrame returns a DataFrame whose columns are those names, with the input's
index. A selector's names are the input's columns it keeps; a transformer that makes new columns
names them after its class (scikit-learn's ``ClassNamePrefixFeaturesOutMixin``); ``WekaFilters``
keeps its numeric columns' names and expands a nominal column into one name per level. The pair
learner ``MMC`` and the triplet learner ``KernelDesign`` fit on pairs and triplets of the same
points and then transform the DataFrame. None of them needs Java: the Weka estimators of fsbook are
Python reimplementations (the Java cross-checks are in tests/test_baselines_weka.py).
"""
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import SelectorMixin

from fsbook.baselines import MMC, WekaFilters
from fsbook.capabilities import probe_instance, public_estimators
from fsbook.projection import ExhaustedSafePLS

ESTIMATORS = public_estimators()
TRANSFORMERS = sorted(name for name, cls in ESTIMATORS.items() if hasattr(cls, "transform"))

#: estimators that are not transformers: the classifiers and the meta-estimator around one
NOT_TRANSFORMERS = {"ProjectionPenalty", "ProjectionPenaltySVC", "WekaLibSVM"}

#: new columns named after the class (the others are selectors or WekaFilters)
PREFIXED = {"ExhaustedSafePLS", "GeneralizedDiscriminantAnalysis", "MMC", "MMCSupervised",
            "OrthogonalLaplacianfaces"}


def test_every_public_estimator_but_three_is_a_transformer():
    assert set(ESTIMATORS) - set(TRANSFORMERS) == NOT_TRANSFORMERS
    assert len(TRANSFORMERS) == len(ESTIMATORS) - 3 == 25


@pytest.mark.parametrize("name", TRANSFORMERS)
def test_transformer_has_get_feature_names_out(name):
    assert callable(getattr(ESTIMATORS[name], "get_feature_names_out", None))


def _data():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = rng.normal(size=(40, 5))
    X[:, :2] += 2.0 * y[:, None]
    index = pd.RangeIndex(100, 140)
    return pd.DataFrame(X, columns=[f"f{j}" for j in range(5)], index=index), pd.Series(y, index=index)


def _fit_transform(name, est, X, y):
    """``fit_transform`` on (X, y); the pair and triplet learners fit on pairs or triplets of X."""
    Xa, ya = X.to_numpy(), y.to_numpy()
    if name == "MMC":
        i, j = np.triu_indices(len(ya), 1)
        return est.fit(np.stack([Xa[i], Xa[j]], axis=1), np.where(ya[i] == ya[j], 1, -1)).transform(X)
    if name == "KernelDesign":
        T = [(a, b, c) for a, b in combinations(range(len(ya)), 2) if ya[a] == ya[b]
             for c in range(len(ya)) if ya[c] != ya[a]][:200]
        # the non-negative weak-kernel LP (not the paper's dominance LP, whose optimum on real
        # data is alpha = 0, so no column, in chapter 3) selects features here
        return est.set_params(psd="nonnegative").fit(Xa[np.array(T)]).transform(X)
    return est.fit_transform(X, y)


@pytest.mark.parametrize("name", TRANSFORMERS)
def test_set_output_pandas_names_the_columns(name):
    X, y = _data()
    est = probe_instance(name, ESTIMATORS[name])[0].set_output(transform="pandas")
    out = _fit_transform(name, est, X, y)
    names = est.get_feature_names_out()
    assert isinstance(out, pd.DataFrame), type(out)
    assert out.shape[1] >= 1
    assert out.columns.tolist() == names.tolist()
    assert out.index.equals(X.index)
    if isinstance(est, SelectorMixin):
        assert names.tolist() == X.columns[est.get_support()].tolist()
    elif name in PREFIXED:
        assert names.tolist() == [f"{name.lower()}{k}" for k in range(out.shape[1])]


def test_weka_filters_names_follow_the_expanded_columns():
    X = pd.DataFrame({"colour": [0.0, 2.0, 1.0, np.nan], "binary": [1.0, 0.0, 1.0, 0.0],
                      "size": [1.5, np.nan, 2.5, 3.0]})
    nominal = np.array([True, True, False])
    out = WekaFilters(nominal=nominal).set_output(transform="pandas").fit_transform(X)
    assert out.columns.tolist() == ["colour_0", "colour_1", "colour_2", "binary", "size"]
    # the indicator of each level is 1 exactly on its code (the NaN row takes the mode, 0)
    for v in range(3):
        np.testing.assert_array_equal(out[f"colour_{v}"], (X["colour"].fillna(0.0) == v).astype(float))
    np.testing.assert_array_equal(out["size"], X["size"].fillna(X["size"].mean()))
    # declared levels beyond the codes seen still get a column each
    four = WekaFilters(nominal=nominal, n_levels=[4, 2, 0]).fit(X.to_numpy())
    assert four.get_feature_names_out().tolist() == ["x0_0", "x0_1", "x0_2", "x0_3", "x1", "x2"]
    with pytest.raises(ValueError):
        four.get_feature_names_out(["only", "two"])


def test_prefixed_names_count_the_kept_components():
    # ExhaustedSafePLS keeps fewer components than asked when the Krylov space is exhausted
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(20, 3))
    X = np.linalg.qr(Z - Z.mean(axis=0))[0]
    pls = ExhaustedSafePLS(3).fit(X, X @ [1.0, 2.0, 3.0])
    assert pls.n_kept_ == 1 and pls.get_feature_names_out().tolist() == ["exhaustedsafepls0"]
    with pytest.raises(Exception, match="not fitted"):
        MMC().get_feature_names_out()

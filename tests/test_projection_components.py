"""Degenerate numbers of reduced components in the projection penalties raise a clear error at fit.

Before: ``ProjectionPenalty`` with ``PCA(n_components=0)`` failed with NumPy's "zero-size array to
reduction operation maximum", with more components than features with scikit-learn's PCA message,
and ``ProjectionPenaltySVC`` with zero components fitted silently (a plain SVM). Each now raises a
``ValueError`` naming ``reducer__n_components``, its value and the valid range.
"""
import re

import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA, KernelPCA
from sklearn.linear_model import LogisticRegression, Ridge

from fsbook.projection import ExhaustedSafePLS, ProjectionPenalty, ProjectionPenaltySVC


class _NoColumns(TransformerMixin, BaseEstimator):
    """A transformer that maps X to zero columns (a reduced space of dimension 0)."""

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return np.zeros((np.shape(X)[0], 0))


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    y = (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int)
    return X, y


def _message(value, valid):
    return re.escape(f"reducer__n_components = {value}") + ".*" + re.escape(valid)


LINEAR_RANGE = "valid range [1, 5]"


@pytest.mark.parametrize("estimator", [Ridge(), LogisticRegression()], ids=["ridge", "logistic"])
@pytest.mark.parametrize("reducer", [PCA, PLSRegression, ExhaustedSafePLS], ids=lambda r: r.__name__)
@pytest.mark.parametrize("k", [0, 6])
def test_projection_penalty_components_outside_range(data, estimator, reducer, k):
    X, y = data
    with pytest.raises(ValueError, match=r"ProjectionPenalty: " + _message(k, LINEAR_RANGE)):
        ProjectionPenalty(estimator, reducer(n_components=k)).fit(X, y)


@pytest.mark.parametrize("k", [1, 5])
def test_projection_penalty_components_at_the_bounds_fit(data, k):
    X, y = data
    model = ProjectionPenalty(Ridge(), PCA(n_components=k)).fit(X, y.astype(float))
    assert model.n_components_ == k


def test_projection_penalty_empty_matrix_and_empty_transform(data):
    X, y = data
    with pytest.raises(ValueError, match=r"P has d = 0 rows; .*d >= 1"):
        ProjectionPenalty(Ridge(), np.zeros((0, 5))).fit(X, y.astype(float))
    with pytest.raises(ValueError, match=r"gives 0 reduced components; .*reducer__n_components in \[1, inf\)"):
        ProjectionPenalty(Ridge(), _NoColumns()).fit(X, y.astype(float))
    with pytest.raises(ValueError, match=r"gives 0 reduced components"):
        ProjectionPenalty(Ridge(), _NoColumns(), prefit=True).fit(X, y.astype(float))


@pytest.mark.parametrize("k", [0, 6])
def test_projection_penalty_svc_linear_reducer_outside_range(data, k):
    X, y = data
    with pytest.raises(ValueError, match=r"ProjectionPenaltySVC: " + _message(k, LINEAR_RANGE)):
        ProjectionPenaltySVC(reducer=PCA(n_components=k), reduced_penalty=0.1).fit(X, y)


def test_projection_penalty_svc_zero_components(data):
    X, y = data
    with pytest.raises(ValueError, match=r"ProjectionPenaltySVC: " + _message(0, "valid range [1, inf)")):
        ProjectionPenaltySVC(reducer=KernelPCA(n_components=0), reduced_penalty=0.1).fit(X, y)
    with pytest.raises(ValueError, match=r"ProjectionPenaltySVC: the fitted reducer gives 0 reduced components"):
        ProjectionPenaltySVC(reducer=_NoColumns(), reduced_penalty=0.1).fit(X, y)


def test_projection_penalty_svc_kernel_reducer_may_exceed_n_features(data):
    # kernel PCA's components live in the kernel feature space: more than n_features is valid
    X, y = data
    svc = ProjectionPenaltySVC(reducer=KernelPCA(n_components=8), reduced_penalty=0.1).fit(X, y)
    assert svc.coef_reduced_.shape == (1, 8)


def test_n_components_none_is_the_reducers_default_size(data):
    X, y = data
    model = ProjectionPenalty(Ridge(), PCA(n_components=None)).fit(X, y.astype(float))
    assert model.n_components_ == 5

"""Tests of the face-experiment reducers: GDA (Baudat & Anouar 2000), OLap (Cai et al. 2006)."""

import numpy as np
import pytest
import scipy.linalg
import scipy.spatial
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from fsbook.projection import GeneralizedDiscriminantAnalysis, OrthogonalLaplacianfaces


@pytest.fixture
def blobs():
    rng = np.random.default_rng(0)
    centers = rng.normal(scale=3, size=(4, 6))
    y = np.repeat(np.arange(4), 25)
    X = centers[y] + rng.normal(size=(100, 6)) @ np.diag([1, 2, 0.5, 1, 1, 3])
    return X, y


def _angles(A, B):
    return scipy.linalg.subspace_angles(A, B)


def test_gda_linear_kernel_spans_lda_subspace(blobs):
    """With the linear kernel GDA is Fisher's LDA: same discriminant subspace."""
    X, y = blobs
    gda = GeneralizedDiscriminantAnalysis(kernel="linear", reg=1e-12).fit(X, y)
    # GDA is linear in x here: read off its matrix
    M = gda.transform(np.eye(6)) - gda.transform(np.zeros((1, 6)))
    lda = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    assert gda.n_components_ == 3
    assert np.max(_angles(M, lda.scalings_[:, :3])) < 1e-6
    # Fisher ratios: eigenvalues are between / total variance ratios in (0, 1]
    assert np.all((gda.eigenvalues_ > 0) & (gda.eigenvalues_ <= 1 + 1e-9))


def test_gda_poly_kernel_separates_training_classes(blobs):
    X, y = blobs
    Z = GeneralizedDiscriminantAnalysis(kernel="poly", degree=2).fit(X, y).transform(X)
    means = np.array([Z[y == c].mean(0) for c in range(4)])
    within = np.mean([Z[y == c].var(0).sum() for c in range(4)])
    assert np.min(scipy.spatial.distance.pdist(means)) ** 2 > 10 * within


def _cai_olpp(Xh, codes, d):
    """Cai et al.'s iterative formula: a_k = smallest eigvec of {I − S⁻¹A(AᵀS⁻¹A)⁻¹Aᵀ} S⁻¹ T."""
    W = (codes[:, None] == codes[None, :]).astype(float)
    np.fill_diagonal(W, 0)
    D = np.diag(W.sum(1))
    S, T = Xh.T @ D @ Xh, Xh.T @ (D - W) @ Xh
    Si = np.linalg.inv(S)
    A = np.zeros((S.shape[0], 0))
    for k in range(d):
        if k == 0:
            M = Si @ T
        else:
            M = (np.eye(S.shape[0]) - Si @ A @ np.linalg.inv(A.T @ Si @ A) @ A.T) @ Si @ T
        w, V = np.linalg.eig(M)
        w, V = w.real, V.real
        if k > 0:  # eigenvectors of M outside span(A)^⊥ belong to the trivial zero eigenvalues
            ok = np.abs(A.T @ V).max(0) < 1e-8 * np.abs(V).max(0)
            w, V = w[ok], V[:, ok]
        a = V[:, np.argmin(w)]
        A = np.hstack([A, (a / np.linalg.norm(a))[:, None]])
    return A


def test_olap_matches_cai_iteration(blobs):
    X, y = blobs
    olap = OrthogonalLaplacianfaces(n_components=3, reg=0.0).fit(X, y)
    Xc = X - X.mean(0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    A = _cai_olpp(Xc @ Vt.T, y, 3)
    ref = (Vt.T @ A).T
    for k in range(3):  # same vectors up to sign
        assert abs(abs(olap.components_[k] @ ref[k]) - 1) < 1e-6
    np.testing.assert_allclose(olap.components_ @ olap.components_.T, np.eye(3), atol=1e-10)


def test_olap_transform_and_errors(blobs):
    X, y = blobs
    olap = OrthogonalLaplacianfaces(n_components=2).fit(X, y)
    np.testing.assert_allclose(olap.transform(X), (X - X.mean(0)) @ olap.components_.T)
    with pytest.raises(ValueError):
        OrthogonalLaplacianfaces(n_components=50).fit(X, y)
    with pytest.raises(ValueError):
        GeneralizedDiscriminantAnalysis(n_components=4).fit(X, y)
    with pytest.raises(ValueError):
        OrthogonalLaplacianfaces().fit(X, np.zeros(100))


def test_reducers_name_their_outputs_and_refuse_fractional_components(blobs):
    X, y = blobs
    gda = GeneralizedDiscriminantAnalysis(n_components=2).fit(X, y)
    olap = OrthogonalLaplacianfaces(n_components=2).fit(X, y)
    assert list(gda.get_feature_names_out()) == ["generalizeddiscriminantanalysis0",
                                                 "generalizeddiscriminantanalysis1"]
    assert list(olap.get_feature_names_out()) == ["orthogonallaplacianfaces0", "orthogonallaplacianfaces1"]
    for bad in (GeneralizedDiscriminantAnalysis(n_components=1.5), OrthogonalLaplacianfaces(n_components=1.5),
                GeneralizedDiscriminantAnalysis(gamma=-1.0), OrthogonalLaplacianfaces(reg=-1.0)):
        with pytest.raises(ValueError, match="must be"):            # no silent int() truncation
            bad.fit(X, y)

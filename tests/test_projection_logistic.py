"""fsbook.projection.logistic: the exact batched logistic path against scikit-learn."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from fsbook.projection.logistic import lgr_cv_path, lgr_refit_decision, logistic_path, reduced_coordinates


def test_logistic_path_is_the_optimum_of_scikit_learns_problem_in_reduced_coordinates():
    """Batched, padded and warm-started, in the row space of the data: the decision values of
    scikit-learn's converged fit on the original columns."""
    rng = np.random.default_rng(7)
    A = rng.poisson(0.3, size=(24, 80)).astype(float)       # documents ≪ words, like the text tasks
    y = (A[:, :5].sum(1) + rng.normal(size=24) > 1.5).astype(int)
    Cs = np.array([1e-3, 0.1, 1.0])
    Phi, PA = reduced_coordinates(A, A)
    assert Phi.shape[1] <= 24
    n2 = 17                                                 # a second, shorter problem, padded
    Phi2, PA2 = reduced_coordinates(A[:n2], A)
    batch = np.zeros((2, 24, Phi.shape[1]))
    batch[0], batch[1, :n2, :Phi2.shape[1]] = Phi, Phi2
    mask = np.ones((2, 24))
    mask[1, n2:] = 0
    coef, b = logistic_path(batch, np.stack([y, np.r_[y[:n2], np.zeros(24 - n2, int)]]), mask, Cs)
    for j, C in enumerate(Cs):
        for rows, P_all, k in ((24, PA, 0), (n2, PA2, 1)):
            ref = LogisticRegression(C=C, solver="newton-cg", tol=1e-12, max_iter=1000).fit(A[:rows], y[:rows])
            z = P_all @ coef[k, j, :P_all.shape[1]] + b[k, j]
            np.testing.assert_allclose(z, ref.decision_function(A), atol=1e-6)
    with pytest.raises(ValueError, match="positive"):
        logistic_path(batch, np.stack([y, y]), mask, [0.0])


def test_reduced_coordinates_keep_the_inner_products_and_drop_rounding_directions():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(6, 3)) @ rng.normal(size=(3, 20))          # rank 3
    B = rng.normal(size=(4, 20))
    Phi, PB = reduced_coordinates(A, B)
    assert Phi.shape == (6, 3) and PB.shape == (4, 3)
    np.testing.assert_allclose(Phi @ Phi.T, A @ A.T, atol=1e-10)
    np.testing.assert_allclose(PB @ Phi.T, B @ A.T, atol=1e-10)
    assert reduced_coordinates(np.zeros((3, 20)), B)[0].shape == (3, 0)        # no direction at all


def test_cv_path_and_refit_are_scikit_learns_fits_on_each_fold():
    """Well-conditioned folds (more documents than words): each fold's validation accuracy at
    every C is that of scikit-learn's converged fit on the same fold, and the refit's decision
    values are its decision values."""
    rng = np.random.default_rng(5)
    A = rng.normal(size=(40, 6))
    y = (A[:, 0] + 0.8 * rng.normal(size=40) > 0).astype(int)
    grid = [1e-2, 1.0, 1e2]
    path = lgr_cv_path(A, y, grid, seed=4)
    folds = StratifiedKFold(5, shuffle=True, random_state=4).split(np.zeros(40), y)
    assert path["C"].tolist() == sorted(1 / (2 * np.asarray(grid)))
    for f, (tr, va) in enumerate(folds):
        assert path["n_validation"][f] == len(va)
        for j, C in enumerate(path["C"]):
            ref = LogisticRegression(C=C, tol=1e-12, max_iter=10_000).fit(A[tr], y[tr])
            assert path["accuracy"][f, j] == np.mean(ref.predict(A[va]) == y[va])
            assert path["positive"][f, j] == np.mean(ref.predict(A[va]) == 1)
    z = lgr_refit_decision(A, y, A[:7], path["C"])
    ref = LogisticRegression(C=path["C"].max(), tol=1e-12, max_iter=10_000).fit(A, y)
    np.testing.assert_allclose(z, ref.decision_function(A[:7]), atol=1e-6)

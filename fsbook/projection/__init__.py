"""Projection penalties (Zhang & Schneider, ICML 2010).

Dimension reduction used as a *penalty* instead of a restriction: the model
is searched in the full parameter space, and its distance to the parameter
subspace spanned by the reducer is penalised (eqs. 6, 8, 17).

- :class:`ProjectionPenalty` -- linear models (Ridge, LogisticRegression,
  LinearSVC) with a linear reducer or any transformer (Section 2.5), eqs. 6-7.
- :class:`ProjectionPenaltySVC` -- the kernel SVM version, duals (13)-(15)
  for ``gamma=0`` and (19) for ``gamma>0``.
- :class:`GeneralizedDiscriminantAnalysis`, :class:`OrthogonalLaplacianfaces`
  -- two reducers of the paper's face experiments.
- :class:`ExhaustedSafePLS` -- PLS directions up to the exhaustion of the Krylov space
  (Proj-PLS's reducer in the Boston experiment); :func:`krylov_rank`.
- :func:`logistic_path`, :func:`lgr_cv_path`, :func:`lgr_refit_decision` -- exact ℓ2 logistic
  regression along a path of ``C`` for many problems at once, in the reduced coordinates of
  :func:`reduced_coordinates` (the text experiments, Section 3.2).
"""

from fsbook.projection.kernel import (
                                      ProjectionPenaltySVC,
                                      dual_objective,
                                      solve_constrained_dual,
                                      solve_penalised_dual,
)
from fsbook.projection.linear import ProjectionPenalty, augment_features
from fsbook.projection.logistic import lgr_cv_path, lgr_refit_decision, logistic_path, reduced_coordinates
from fsbook.projection.pls import ExhaustedSafePLS, krylov_rank
from fsbook.projection.reducers import GeneralizedDiscriminantAnalysis, OrthogonalLaplacianfaces

__all__ = ["ProjectionPenalty", "augment_features", "ProjectionPenaltySVC",
           "solve_constrained_dual", "solve_penalised_dual", "dual_objective",
           "GeneralizedDiscriminantAnalysis", "OrthogonalLaplacianfaces", "ExhaustedSafePLS", "krylov_rank",
           "logistic_path", "lgr_cv_path", "lgr_refit_decision", "reduced_coordinates"]

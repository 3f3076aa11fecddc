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
"""

from fsbook.projection.kernel import (
                                      ProjectionPenaltySVC,
                                      dual_objective,
                                      solve_constrained_dual,
                                      solve_penalised_dual,
)
from fsbook.projection.linear import ProjectionPenalty, augment_features
from fsbook.projection.pls import ExhaustedSafePLS, krylov_rank
from fsbook.projection.reducers import GeneralizedDiscriminantAnalysis, OrthogonalLaplacianfaces

__all__ = ["ProjectionPenalty", "augment_features", "ProjectionPenaltySVC",
           "solve_constrained_dual", "solve_penalised_dual", "dual_objective",
           "GeneralizedDiscriminantAnalysis", "OrthogonalLaplacianfaces", "ExhaustedSafePLS", "krylov_rank"]

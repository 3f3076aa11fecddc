"""ℓ1/ℓ∞ transformation-based feature selection (Masaeli, Fung & Dy 2010; chapter 2).

- :class:`LDFS`, :class:`HSFS` -- the selectors (eqs. 6 and 9).
- :class:`LDACriterion`, :class:`HSICCriterion` -- ``J(W)`` and ``∇J(W)`` (eqs. 2, 7, 8-11).
- :func:`prox_rows_linf`, :func:`project_rows_l1_ball` -- the exact prox of the penalty.
- :func:`accelerated_proximal_gradient` -- the optimiser, :func:`active_set_proximal_gradient` -- the
  same over the rows that can be non-zero (HSFS's default); :func:`linearly_constrained_slsqp` (eq. 3)
  and :func:`bound_constrained_lbfgsb` (bound-constrained form) -- the paper's route, for checks.
- :func:`select_k_path` -- warm-started λ path with bisection to exactly k features.
"""
from fsbook.l1linf.estimators import HSFS, LDFS, feature_scales, initial_transformation
from fsbook.l1linf.hsic import HSICCriterion, centred_label_kernel, gaussian_kernel_from_scores
from fsbook.l1linf.lda import LDACriterion
from fsbook.l1linf.path import PathResult, row_support, select_k_path, top_k_rows
from fsbook.l1linf.prox import linf_penalty, project_rows_l1_ball, prox_rows_linf
from fsbook.l1linf.solvers import (
                                   OptimResult,
                                   accelerated_proximal_gradient,
                                   active_set_proximal_gradient,
                                   bound_constrained_lbfgsb,
                                   linearly_constrained_slsqp,
)

__all__ = ["HSFS", "LDFS", "feature_scales", "initial_transformation", "HSICCriterion",
           "centred_label_kernel", "gaussian_kernel_from_scores", "LDACriterion", "PathResult",
           "row_support", "select_k_path", "top_k_rows", "linf_penalty", "project_rows_l1_ball", "prox_rows_linf",
           "OptimResult", "accelerated_proximal_gradient", "active_set_proximal_gradient", "bound_constrained_lbfgsb", "linearly_constrained_slsqp"]

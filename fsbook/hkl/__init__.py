"""Disjunctive hierarchical kernel learning (chapter 5).

- :class:`DisjunctiveHKL` -- the estimator (fit / decision_function / predict / transform);
  :class:`DisjunctiveHKLCV` -- with ``C`` and ``β`` chosen by cross-validation along a
  warm-started regularisation path.  Several classes: ``sklearn.multiclass.OneVsRestClassifier``.
- :func:`solve_active_set`, :class:`HKLProblem` -- the active-set solver of Figure 1.
- :class:`RestrictedProblem` -- the problem on an active set: ``g(η)`` of eqs. (8)–(9), its gradient.
- :mod:`primal` -- the same restricted problem as one conic program on the node features
  (``solve_active_set(..., solver="conic")``; Clarabel), with the same certificate, and on a
  working set of samples chosen from a warm start (``solver="working_set"``).
- :func:`smo_svm` -- the warm-started inner SVM solver.
- :func:`descendant_kernel`, :func:`union_matrix` -- closed-form kernel sums over sub-lattices.
- :func:`solve_brute_force` -- problem (1) on the whole lattice (small n, cvxpy, lazy import).
- :mod:`lattice` -- parents, ancestors, descendants, sources, hull, node indicators.
"""
from fsbook.hkl import lattice
from fsbook.hkl._kernels import descendant_kernel, union_matrix
from fsbook.hkl.brute_force import node_weights, solve_brute_force
from fsbook.hkl.estimator import C_LADDER, DisjunctiveHKL, DisjunctiveHKLCV, c_start, disjunctive_hkl_path
from fsbook.hkl.ranker import HKLRanker, hkl_feature_scores
from fsbook.hkl.smo import smo_svm
from fsbook.hkl.solver import HKLProblem, RestrictedProblem, solve_active_set, source_scores

__all__ = ["HKLRanker", "hkl_feature_scores", "lattice", "HKLProblem", "RestrictedProblem", "solve_active_set", "source_scores",
           "DisjunctiveHKL", "DisjunctiveHKLCV", "disjunctive_hkl_path", "c_start", "C_LADDER", "smo_svm", "descendant_kernel", "union_matrix",
           "solve_brute_force", "node_weights"]

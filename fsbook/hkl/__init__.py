"""Disjunctive hierarchical kernel learning (chapter 5).

- :class:`DisjunctiveHKL` -- the estimator (fit / decision_function / predict / transform).
- :class:`OneVsRestDisjunctiveHKL` -- multi-class wrapper.
- :func:`solve_active_set`, :class:`HKLProblem` -- the active-set solver of Figure 1.
- :class:`RestrictedProblem` -- the problem on an active set: ``g(η)`` of eqs. (8)–(9), its gradient.
- :func:`solve_brute_force` -- problem (1) on the whole lattice (small n, cvxpy, lazy import).
- :mod:`lattice` -- parents, ancestors, descendants, sources, hull, node indicators.
"""
from . import lattice
from .brute_force import node_weights, solve_brute_force
from .estimator import DisjunctiveHKL, OneVsRestDisjunctiveHKL
from .solver import HKLProblem, RestrictedProblem, solve_active_set

__all__ = ["lattice", "HKLProblem", "RestrictedProblem", "solve_active_set", "DisjunctiveHKL",
           "OneVsRestDisjunctiveHKL", "solve_brute_force", "node_weights"]

"""Baselines of the disjunctive-HKL experiments (chapter 6).

- :class:`WekaSubsetSelector` -- Weka's attribute-subset evaluators (CFS, consistency, filtered)
  and searches (best first, greedy stepwise, linear forward, rank search, subset-size forward).
- :mod:`mdl`, :mod:`subset_evaluators`, :mod:`subset_search` -- the pieces.
"""
from .weka_selector import EVALUATORS, SEARCHES, WekaSubsetSelector

__all__ = ["WekaSubsetSelector", "EVALUATORS", "SEARCHES"]

"""Baselines of the disjunctive-HKL experiments (chapter 6).

- :class:`WekaSubsetSelector` -- Weka's attribute-subset evaluators (CFS, consistency, filtered)
  and searches (best first, greedy stepwise, linear forward, rank search, subset-size forward).
- :class:`ZeroNormSVM` -- zero-norm SVM by multiplicative rescaling (Weston et al. 2003).
- :class:`FeatureWeightingSVM` -- convex feature-weighting (squared-L1) SVM.
- :mod:`mdl`, :mod:`subset_evaluators`, :mod:`subset_search` -- the pieces.
"""
from .weighted_svm import FeatureWeightingSVM
from .weka_selector import EVALUATORS, SEARCHES, WekaSubsetSelector
from .zero_norm_svm import ZeroNormSVM

__all__ = ["WekaSubsetSelector", "EVALUATORS", "SEARCHES", "ZeroNormSVM", "FeatureWeightingSVM"]

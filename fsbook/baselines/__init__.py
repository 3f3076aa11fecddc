"""Baselines: the published methods that the book's chapters compare their own methods against.

Each is a scikit-learn estimator written from its paper (or from Weka's source), tested against an
independent implementation where one runs (Weka itself, skrebate, cvxpy). By chapter:

Chapter 2, l1/linf feature selection (Table 1 of Masaeli et al. 2010):
:class:`FOHSIC`, :class:`L1SVMSelector`, :class:`SVMRFE`, :class:`Relief`, :class:`LaplacianScore`.

Chapter 3, LP kernel design (Figure 3 of Fung et al. 2007): :class:`MMC` (Xing et al. 2002 metric
learning from pairs) and :class:`MMCSupervised`, the same metric learnt from ``(X, y)``.

Chapter 6, disjunctive-HKL experiments:

- :class:`WekaSubsetSelector` -- Weka's attribute-subset evaluators (CFS, consistency, filtered)
  and searches (best first, greedy stepwise, linear forward, rank search, subset-size forward).
- :class:`ZeroNormSVM` -- zero-norm SVM by multiplicative rescaling (Weston et al. 2003).
- :class:`FeatureWeightingSVM` -- convex feature-weighting (squared-L1) SVM.
- :class:`WekaLibSVM` -- Weka's default LibSVM (mean/mode imputation, nominal to binary, RBF, C = 1).
- :class:`WekaFilters` -- the two Weka filters LibSVM runs first (mean/mode imputation, nominal to binary).
- :mod:`mdl`, :mod:`subset_evaluators`, :mod:`subset_search` -- the pieces.

Any selector: :class:`StabilitySelection` -- stability selection (Meinshausen & Bühlmann 2010), the
selection frequencies of a wrapped selector over stratified half-size subsamples.

Chapter 7, benchmark: :class:`SVMRFE`, :class:`L1SVMSelector`, :class:`Relief` and CFS
(:class:`WekaSubsetSelector`) next to the book's own selectors; :class:`MRMR` (Peng, Long & Ding
2005, minimum redundancy and maximum relevance by mutual information);
:func:`mutual_info_classif`, scikit-learn's nearest-neighbour mutual information (Ross 2014) with
equal scores, computed by sorting.
"""
from fsbook.baselines.fohsic import FOHSIC
from fsbook.baselines.laplacian_score import LaplacianScore
from fsbook.baselines.mmc import MMC, MMCSupervised, UnboundedMetricError
from fsbook.baselines.mrmr import MRMR
from fsbook.baselines.mutual_info import mutual_info_classif
from fsbook.baselines.relief import Relief
from fsbook.baselines.stability import StabilitySelection
from fsbook.baselines.svm_selectors import SVMRFE, L1SVMSelector
from fsbook.baselines.weighted_svm import FeatureWeightingSVM
from fsbook.baselines.weka_selector import EVALUATORS, SEARCHES, WekaSubsetSelector
from fsbook.baselines.weka_svm import WekaFilters, WekaLibSVM
from fsbook.baselines.zero_norm_svm import ZeroNormSVM

__all__ = ["WekaSubsetSelector", "EVALUATORS", "SEARCHES", "WekaLibSVM", "WekaFilters", "ZeroNormSVM",
           "FeatureWeightingSVM", "FOHSIC", "LaplacianScore", "Relief", "SVMRFE", "L1SVMSelector",
           "MMC", "MMCSupervised", "UnboundedMetricError", "StabilitySelection", "MRMR",
           "mutual_info_classif"]

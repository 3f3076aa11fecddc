"""Geometric-ratio feature selection for linear SVMs (chapter "Geometric ratios").

- :func:`geometric_ratios` -- f1-f6 of Table 1, sparse path (peeled hulls, :mod:`.hull`).
- :func:`gram_geometric_ratios` -- the same from the m × m Gram matrix (slow reference).
- :func:`naive_geometric_ratios` -- the paper's literal method, ``m + 2`` SVDs.
- :class:`GeometricFeatureSetSelector` -- the algorithm of Fig. 2 (Section 4).
- :func:`paper_model`, :func:`fit_models` -- Table 2 models, published and refitted.
- :func:`all_subsets_wrapper` -- the wrapper labels ("optimal") of Section 3.
- :class:`FeatureGroupSelector` -- keep the columns of a union of feature groups.
"""
from fsbook.geometry.candidates import (
                                        binary_splits,
                                        feature_subsets,
                                        group_columns,
                                        split_label,
                                        subset_label,
)
from fsbook.geometry.models import GeometricModel, fit_models, paper_model
from fsbook.geometry.ratios import (
                                        RATIO_NAMES,
                                        geometric_ratios,
                                        gram_geometric_ratios,
                                        naive_geometric_ratios,
                                        point_matrix,
)
from fsbook.geometry.selector import GeometricFeatureSetSelector, standardize_within
from fsbook.geometry.wrapper import FeatureGroupSelector, all_subsets_wrapper

__all__ = ["RATIO_NAMES", "point_matrix", "geometric_ratios", "gram_geometric_ratios",
           "naive_geometric_ratios", "GeometricModel", "fit_models", "paper_model",
           "GeometricFeatureSetSelector", "standardize_within", "FeatureGroupSelector",
           "all_subsets_wrapper", "binary_splits", "feature_subsets", "group_columns",
           "split_label", "subset_label"]

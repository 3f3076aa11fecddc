"""Geometric-ratio feature selection for linear SVMs (chapter "Geometric ratios").

- :func:`geometric_ratios` -- f1-f6 of Table 1 from numba kernels on the Gram matrix.
- :func:`naive_geometric_ratios` -- the paper's literal SVD method (reference).
- :class:`GeometricFeatureSetSelector` -- the algorithm of Fig. 2 (Section 4).
- :func:`paper_model`, :func:`fit_models` -- Table 2 models, published and refitted.
"""
from fsbook.geometry.ratios import (RATIO_NAMES, binarize, geometric_ratios,
                                    naive_geometric_ratios)
from fsbook.geometry.models import GeometricModel, fit_models, paper_model
from fsbook.geometry.selector import GeometricFeatureSetSelector, standardize_within

__all__ = ["RATIO_NAMES", "binarize", "geometric_ratios", "naive_geometric_ratios",
           "GeometricModel", "fit_models", "paper_model", "GeometricFeatureSetSelector",
           "standardize_within"]

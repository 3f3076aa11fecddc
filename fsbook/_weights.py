"""Sample weights: which estimators take them, and a clear refusal from the others.

An estimator whose ``fit`` has a ``sample_weight`` parameter weights its loss or its statistics
(its docstring says how) and, through scikit-learn's metadata routing, receives the weights in a
:class:`~sklearn.pipeline.Pipeline` once ``set_fit_request(sample_weight=True)`` is called on it
(with ``sklearn.set_config(enable_metadata_routing=True)``).  The meta-estimators
(:class:`~fsbook.projection.ProjectionPenalty`, :class:`~fsbook.baselines.StabilitySelection`)
route ``fit``'s metadata to what they wrap.

Every other public estimator refuses ``fit(X, y, sample_weight=w)`` with a ``TypeError`` that
names it and says why (:data:`REFUSALS`), raised by :func:`fsbook._compat.fit_context`; its
``fit`` signature has no ``sample_weight``, so scikit-learn's checks and metadata routing see an
estimator that does not consume weights (a Pipeline given weights that no step requests raises
scikit-learn's own error).
"""
from __future__ import annotations

__all__ = ["REFUSALS", "refusal"]

_PAIRS = ("it learns from pairs of points (Xing et al.'s problem has no per-sample weight; weight "
          "the pairs by repeating them)")

#: why each public estimator without ``sample_weight`` refuses it
REFUSALS = {
    "ProjectionPenaltySVC": "its duals would take per-sample costs C_i = C w_i, but the reducer it "
                            "fits on the same samples (kernel PCA by default, or any transformer) "
                            "has no weighted fit, so integer weights would not equal repeated "
                            "samples; with reduced_penalty=0 the offsets (v, b) of a separable "
                            "problem are not unique either",
    "GeneralizedDiscriminantAnalysis": (
        "its weighted form (weighted class means and kernel centring, the eigenproblem of "
        "diag(√w) H_w K H_wᵀ diag(√w)) gives the discriminant directions of the repeated samples "
        "to 1e-13, but each direction's sign is whatever LAPACK's eigensolvers return for the "
        "matrix they are given: on 20 random problems 23 of 40 "
        "components of the weighted fit had the sign opposite to the repeated fit's (transforms "
        "differing by twice their size), as 13 of 40 of the unweighted fit on the same rows in "
        "another order do; a sign convention would change the unweighted fits of the book's "
        "stored results"),
    "OrthogonalLaplacianfaces": "its objective is a graph Laplacian on the samples' neighbourhood "
                                "graph, where a sample weight has no agreed meaning (He et al.)",
    "GeometricFeatureSetSelector": "its geometric ratios are ranks of convex-hull (Gram) matrices of "
                                   "the samples, which a weight does not change",
    "FeatureGroupSelector": "it selects a fixed subset of feature groups and fits nothing on the samples",
    "KernelDesign": "it learns from triplets of points; weight a triplet by repeating it",
    "WeakKernelSelector": "it samples triplets from the labelled points; there is no per-sample loss",
    "WekaSubsetSelector": "it reproduces WEKA's evaluators (CFS, consistency, wrapper), which "
                          "take no instance weights in the paper's runs",
    "WekaLibSVM": "it reproduces WEKA's LibSVM wrapper as the paper ran it, without instance weights",
    "WekaFilters": "it reproduces WEKA's filters (normalisation, nominal to binary), which fit "
                   "no loss",
    "LaplacianScore": "its score is a graph Laplacian statistic on the samples' neighbourhood "
                      "graph, where a sample weight has no agreed meaning (He et al. 2005)",
    "Relief": "ReliefF averages over instances and their nearest hits and misses, and Kononenko's "
              "algorithm defines no instance weight; weights cannot stand for repeated samples "
              "either, because a repeated sample's copies become its nearest hits at distance 0 "
              "(doubling every sample of 60 Gaussian points moves the second feature's importance "
              "from 0.033 to 0.056)",
    "MMC": _PAIRS,
    "MMCSupervised": _PAIRS.replace("weight the pairs by repeating them",
                                    "repeat a sample to weight it"),
}


def refusal(estimator) -> str:
    """The ``TypeError`` message of ``estimator.fit(..., sample_weight=w)`` for an estimator
    without ``sample_weight`` (:data:`REFUSALS`)."""
    name = type(estimator).__name__
    why = REFUSALS.get(name, "its method has no weighted form in fsbook")
    return (f"{name}.fit does not take sample_weight: {why}. "
            "The estimators that do are listed by fsbook.capabilities.capability_table() "
            "(column 'sample_weight')")

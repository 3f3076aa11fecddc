"""fsbook: companion package of a literate reproduction of five papers on
feature selection and supervised dimension reduction.

Subpackages map one-to-one onto the book's chapters:

========================  ==============================================
``fsbook.datasets``       loaders of the compact, checksummed ``data/``
``fsbook.booleanize``     one-hot / threshold booleanisation
``fsbook.report``         paper-vs-ours reproduction tables
``fsbook.projection``     projection penalties (paper 1)
``fsbook.geometry``       geometric-ratio filter for linear SVMs (paper 4)
``fsbook.hkl``            disjunctive hierarchical kernel learning (paper 5)
``fsbook.experiments``    each chapter's experiment protocol and CLI
========================  ==============================================
"""

__version__ = "0.1.0"

from fsbook._cost import LIMITS, CostLimitError, cost_limits  # noqa: E402

__all__ = ["LIMITS", "CostLimitError", "cost_limits"]

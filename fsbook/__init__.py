"""fsbook: companion package of a literate reproduction of five papers on
feature selection and supervised dimension reduction.

The methods of the papers and the tools of the book are in subpackages and modules:

==========================  ==================================================
``fsbook.projection``       projection penalties (paper 1)
``fsbook.l1linf``           ℓ1/ℓ∞ transformation-based feature selection (paper 2)
``fsbook.kernel_design``    feature selection and kernel design by LP (paper 3)
``fsbook.geometry``         geometric-ratio filter for linear SVMs (paper 4)
``fsbook.hkl``              disjunctive hierarchical kernel learning (paper 5)
``fsbook.baselines``        the published methods the chapters compare against
``fsbook.booleanize``       one-hot / threshold booleanisation
``fsbook.capabilities``     what every public estimator accepts
``fsbook.datasets``         loaders of the compact, checksummed ``data/``
``fsbook.claims``           a paper's claim against the measurements
``fsbook.decisions``        grids, ties and top-k choices
``fsbook.calibration``      how often the tests reject, measured
``fsbook.stats``            rank statistics of the benchmark
``fsbook.scoreboard``       every chapter's verdicts in one table
``fsbook.report``           paper-vs-ours reproduction tables
``fsbook.experiments``      each chapter's experiment protocol and CLI
==========================  ==================================================

The top level holds the limits on the cost of a fit (:mod:`fsbook._cost`): a default fit whose
estimated CPU time or memory exceeds :data:`LIMITS` refuses at once with a
:class:`CostLimitError` that gives the reason and the setting that makes it feasible, and
:func:`cost_limits` raises or removes the limits for one block of code.  ``fsbook.__version__``
is the package's version.
"""

__version__ = "0.1.0"

from fsbook import _cost  # noqa: E402
from fsbook._cost import CostLimitError, cost_limits  # noqa: E402

#: The limits a fit's estimated cost is checked against, ``seconds`` of CPU (one core) and
#: ``bytes`` of its largest arrays; ``None`` removes a limit.  The same dictionary as
#: ``fsbook._cost.LIMITS``, changed in place by :func:`cost_limits`.
LIMITS = _cost.LIMITS

__all__ = ["LIMITS", "CostLimitError", "cost_limits"]

"""Former home of the baseline selectors' plumbing, now :mod:`fsbook._selection` (issue 27).

Only :func:`fsbook.decisions.top_k_mask` is re-exported, for
:func:`fsbook.experiments.benchmark.support_at`, which imports it from here; new code imports
it from :mod:`fsbook.decisions`.
"""
from fsbook.decisions import top_k_mask

__all__ = ["top_k_mask"]

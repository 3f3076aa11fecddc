"""The geometric-ratio selector as a method of the benchmark protocol.

:func:`attribute_groups` gives the feature groups the geometric-ratio selector (chapter 4)
chooses among, where the data define them; :mod:`fsbook.experiments.benchmark`, whose docstring
states how it enters the protocol, uses it.  HKL's selector is :class:`fsbook.hkl.HKLRanker`.
"""
from __future__ import annotations

import numpy as np

__all__ = ["attribute_groups"]


def attribute_groups(names):
    """The indicator columns of each nominal attribute, from one-hot names ``"attr=level"``.

    The geometric-ratio selector chooses among unions of feature groups; a booleanised nominal
    table (:func:`fsbook.booleanize.one_hot`) defines them: the indicators of one attribute.
    Returns ``None`` when some name is not of that form (numeric attributes, words): the data
    then define no groups.

    Parameters
    ----------
    names : sequence of str

    Returns
    -------
    list of ndarray of int, or None
        Groups in order of the attributes' first column.

    Examples
    --------
    >>> [g.tolist() for g in attribute_groups(["a=x", "a=y", "b=u", "b=v", "b=w"])]
    [[0, 1], [2, 3, 4]]
    >>> attribute_groups(["alcohol", "a=x"]) is None
    True
    """
    if not names or not all("=" in str(n) for n in names):
        return None
    attrs = [str(n).split("=", 1)[0] for n in names]
    order = list(dict.fromkeys(attrs))
    return [np.flatnonzero(np.asarray(attrs) == a) for a in order]

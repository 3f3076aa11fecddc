"""Refusing at once a fit whose cost is out of reach: defaults that finish or refuse.

A few methods cost more than a minute of one core, or more memory than a desktop has, on
ordinary data (5 000 × 300) because of what they compute (every pair of samples, an ``n × n``
quadratic programme, a greedy search scoring every feature against every pair of samples).  Their
``fit`` estimates the cost from the shape of the input (``n`` samples, ``d`` features, ``c``
classes) **before** any large allocation and raises :class:`CostLimitError` (a ``ValueError``)
when it exceeds :data:`LIMITS`: the message gives the reason, the estimate and the setting that
makes the fit feasible.  The limits are raised (or removed with ``None``) for one block of code
with :func:`cost_limits`::

    from fsbook import cost_limits
    with cost_limits(seconds=None):            # no limit on the estimated CPU time
        FOHSIC().fit(X, y)

The estimates are in CPU seconds of one core, from operation counts calibrated on the measured
times of ``benchmarks/defaults.py`` (recorded in ``benchmarks/results/defaults.json``), and in
bytes of the largest arrays a fit forms.  They are meant to be right within a factor of a few,
which is enough to tell a minute from an hour.
"""
from __future__ import annotations

import contextlib

__all__ = ["LIMITS", "CostLimitError", "cost_limits", "check_cost"]

#: The limits a fit's estimated cost is checked against, ``seconds`` of CPU (one core) and
#: ``bytes`` of its largest arrays; ``None`` removes a limit.  Change them with :func:`cost_limits`.
LIMITS = {"seconds": 60.0, "bytes": 4 * 2 ** 30}


class CostLimitError(ValueError):
    """A fit's estimated cost exceeds :data:`LIMITS`; raised before the work starts."""


@contextlib.contextmanager
def cost_limits(*, seconds=..., bytes=...):  # noqa: A002 - the limit's name
    """Change :data:`LIMITS` within a ``with`` block (``None``: no limit; omitted: unchanged).

    Parameters
    ----------
    seconds : float or None
        Estimated CPU seconds (one core) above which a fit refuses.
    bytes : int or None
        Estimated bytes of a fit's largest arrays above which it refuses.

    Examples
    --------
    >>> from fsbook._cost import LIMITS, cost_limits
    >>> with cost_limits(seconds=None):
    ...     LIMITS["seconds"] is None
    True
    >>> LIMITS["seconds"]
    60.0
    """
    saved = dict(LIMITS)
    if seconds is not ...:
        LIMITS["seconds"] = seconds
    if bytes is not ...:
        LIMITS["bytes"] = bytes
    try:
        yield LIMITS
    finally:
        LIMITS.clear()
        LIMITS.update(saved)


def _human_seconds(s):
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 48 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.0f} days"


def _human_bytes(b):
    for unit, size in (("TiB", 2 ** 40), ("GiB", 2 ** 30), ("MiB", 2 ** 20)):
        if b >= size:
            return f"{b / size:.1f} {unit}"
    return f"{b / 1024:.0f} KiB"


def check_cost(name, shape, *, seconds=None, nbytes=None, why, fix):
    """Raise :class:`CostLimitError` when an estimate exceeds :data:`LIMITS`.

    Parameters
    ----------
    name : str
        The estimator.
    shape : str
        The input's size as the message states it (e.g. ``"5000 samples × 300 features, 5 classes"``).
    seconds : float, optional
        Estimated CPU seconds of the fit.
    nbytes : float, optional
        Estimated bytes of its largest arrays.
    why : str
        What makes the fit costly (the operation count behind the estimate).
    fix : str
        The setting(s) that make the fit feasible.

    Examples
    --------
    >>> from fsbook._cost import check_cost
    >>> check_cost("Demo", "10 samples", seconds=1.0, why="nothing", fix="nothing")
    >>> try:
    ...     check_cost("Demo", "1e6 samples", seconds=1e5, why="n² pairs", fix="subsample")
    ... except ValueError as err:
    ...     print(str(err)[:58])
    Demo: n² pairs; on 1e6 samples that is about 27.8 h of CPU
    """
    over = []
    lim_s, lim_b = LIMITS["seconds"], LIMITS["bytes"]
    if seconds is not None and lim_s is not None and seconds > lim_s:
        over.append(f"about {_human_seconds(seconds)} of CPU, above the limit of {_human_seconds(lim_s)}")
    if nbytes is not None and lim_b is not None and nbytes > lim_b:
        over.append(f"about {_human_bytes(nbytes)} of memory, above the limit of {_human_bytes(lim_b)}")
    if over:
        raise CostLimitError(
            f"{name}: {why}; on {shape} that is {' and '.join(over)}. {fix[0].upper() + fix[1:]}; "
            "or, to run it anyway, raise the limit: `with fsbook.cost_limits(seconds=None, "
            "bytes=None): ...fit(...)`")

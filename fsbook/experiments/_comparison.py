"""How ``verify`` and ``retime`` compare a recomputed result with the stored one, field by field.

:func:`compare_results` returns the differing fields as readable lines:

* integers, booleans, strings, ``None`` (a non-finite float) and the structure (dict keys, list
  lengths, types) exactly: chosen parameters, selected features and counts are discrete;
* floats within ``|a - b| <= atol + rtol * max(|a|, |b|)``, by default ``rtol = 1e-6`` and
  ``atol = 1e-9`` (:data:`DEFAULT_RTOL`, :data:`DEFAULT_ATOL`): the solvers' stopping
  tolerances are 1e-6 or tighter, and a task recomputed on the machine that ran it gives the
  same bits;
* fields whose name marks a timing (``seconds``, ``time``, ``fit_time``, ``elapsed``,
  ``*_s``, ...: :data:`TIMING_FIELD`, matched case-sensitively) not at all.

A protocol overrides the rule per field with ``Protocol(tolerances={pattern: rule})`` (``rule``
is ``(rtol, atol)``, ``"exact"`` or ``None``; ``pattern`` is matched against the dotted path,
e.g. ``"curves.*"``, or the field's name), or replaces it with ``Protocol(compare=...)``.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

__all__ = ["DEFAULT_ATOL", "DEFAULT_RTOL", "TIMING_FIELD", "compare_results"]

#: default relative tolerance for floats
DEFAULT_RTOL = 1e-6
#: default absolute tolerance for floats
DEFAULT_ATOL = 1e-9
#: a field whose name matches is a timing and is not compared; case-sensitive, as the stores name
#: their timings in lower case (``fit_time``, ``cpu_seconds``, ``ratios_cpu_s``), while
#: ``size_S`` and ``min_eig_S`` name a matrix S and are results
TIMING_FIELD = re.compile(r"(^|_)(time|times|seconds|secs|elapsed|duration|timing|runtime)$|_s$")


def _rule_for(protocol, path: str, name: str, inherited):
    for pattern, rule in (getattr(protocol, "tolerances", None) or {}).items():
        if fnmatchcase(path, pattern) or fnmatchcase(name, pattern):
            return rule
    if TIMING_FIELD.search(name):
        return None
    return inherited


def _close(a: float, b: float, rule) -> bool:
    if rule == "exact":
        return a == b
    rtol, atol = rule
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def _describe(rule) -> str:
    return "exactly" if rule == "exact" else f"within rtol {rule[0]:g}, atol {rule[1]:g}"


def compare_results(stored, fresh, protocol=None, path: str = "", rule=(DEFAULT_RTOL, DEFAULT_ATOL)):
    """Mismatches between a stored and a recomputed result, as readable lines.

    Parameters
    ----------
    stored, fresh : JSON values
        A stored result and the normalised recomputed one.
    protocol : Protocol, optional
        Its ``tolerances`` override the default rule per field; its ``compare``, if set,
        replaces this function.

    Returns
    -------
    list of str
        One line per differing field: its dotted path, both values and the rule; empty when
        the results agree.

    Examples
    --------
    >>> compare_results({"C": 1, "acc": 0.5, "fit_time": 3.0}, {"C": 1, "acc": 0.5000001, "fit_time": 9.0})
    []
    >>> compare_results({"C": 1, "acc": 0.5}, {"C": 10, "acc": 0.6})
    ['C: stored 1, recomputed 10 (compared exactly)', 'acc: stored 0.5, recomputed 0.6 (compared within rtol 1e-06, atol 1e-09)']
    """
    if protocol is not None and getattr(protocol, "compare", None) is not None and path == "":
        return list(protocol.compare(stored, fresh))
    where = path or "result"
    if rule is None:
        return []
    if isinstance(stored, dict) and isinstance(fresh, dict):
        out = []
        if set(stored) != set(fresh):
            out.append(f"{where}: stored fields {sorted(stored)}, recomputed fields {sorted(fresh)}")
        for k in sorted(set(stored) & set(fresh)):
            sub = f"{path}.{k}" if path else k
            out += compare_results(stored[k], fresh[k], protocol, sub, _rule_for(protocol, sub, k, rule))
        return out
    if isinstance(stored, list) and isinstance(fresh, list):
        if len(stored) != len(fresh):
            return [f"{where}: stored {len(stored)} items, recomputed {len(fresh)}"]
        out = []
        for i, (a, b) in enumerate(zip(stored, fresh)):
            out += compare_results(a, b, protocol, f"{path}[{i}]", rule)
        return out
    if type(stored) is float and type(fresh) is float:
        ok = _close(stored, fresh, rule)
        return [] if ok else [f"{where}: stored {stored!r}, recomputed {fresh!r} (compared {_describe(rule)})"]
    if type(stored) is not type(fresh) or stored != fresh:
        return [f"{where}: stored {stored!r}, recomputed {fresh!r} (compared exactly)"]
    return []

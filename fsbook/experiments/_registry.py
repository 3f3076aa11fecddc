"""The protocols of :mod:`fsbook.experiments`: every public module of the package.

A module of its own, below the runner, the verifier, the cost report and the command line, so
that each of them can list the protocols without importing another.

>>> from fsbook.experiments._registry import available_protocols
>>> "projection" in available_protocols() and "_example" not in available_protocols()
True
"""
import pkgutil
from pathlib import Path

__all__ = ["available_protocols"]

#: the folder of the package whose public modules are the protocols
PACKAGE_DIR = Path(__file__).resolve().parent


def available_protocols() -> list[str]:
    """Names of the protocol modules (every public module of ``fsbook.experiments``), sorted."""
    return sorted(m.name for m in pkgutil.iter_modules([str(PACKAGE_DIR)])
                  if not m.name.startswith("_"))

"""Imports of the optional dependencies, each behind the ``pip install`` extra that provides it.

A module of fsbook that needs a package outside the core dependencies imports it with
:func:`require`, never with a bare ``import``; a missing package then raises an ``ImportError`` that
names the extra to install. ``tests/test_declared_imports.py`` recognises a guarded import as a
call ``require("<module>", extra="<extra>")`` (literal arguments) and checks that ``<module>``'s
distribution is declared in that extra of ``pyproject.toml``.

Examples
--------
>>> require("no_such_module_xyz", extra="cluster")
Traceback (most recent call last):
...
ImportError: no_such_module_xyz is needed here and is not installed: pip install "fsbook[cluster]"
"""
import importlib


def require(module, *, extra):
    """Import and return ``module``; if it is missing, raise an ImportError naming ``extra``.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"distributed"``.
    extra : str
        The ``pyproject.toml`` extra that declares the module's distribution.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is None or module.split(".")[0] != e.name.split(".")[0]:
            raise                       # the module exists but one of its own imports failed
        raise ImportError(f'{module} is needed here and is not installed: '
                          f'pip install "fsbook[{extra}]"') from e

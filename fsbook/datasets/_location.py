"""Where the data files (``data/``) and the results stores (``results/``) are, and what to do
when one is missing.

Three places, in this order:

1. the folder named by an environment variable, ``FSBOOK_DATA_DIR`` (the data files and their
   ``SHA256SUMS``) or ``FSBOOK_RESULTS_DIR`` (one sub-folder per protocol, as ``results/``);
2. the copy installed with the package: a wheel built from the repository ships ``data/`` as
   ``fsbook/_data/data/`` and the committed packs ``results/<name>/tasks-v*.jsonl.gz`` as
   ``fsbook/_data/results/`` (the package data ``setup.py`` discovers);
3. the repository's own ``data/`` and ``results/``, beside the ``fsbook`` package of a clone
   (or an editable install).

:func:`remedy` words the fix for the reader who meets a missing or damaged file: a clone
restores it with ``git checkout``, a wheel user reinstalls or sets the variable, and the rebuild
from the raw sources is offered only where those sources (``../shared/data``) exist.
"""

from __future__ import annotations

import os
from pathlib import Path

#: environment variable naming the folder of each kind of file
ENV = {"data": "FSBOOK_DATA_DIR", "results": "FSBOOK_RESULTS_DIR"}
#: the command that rebuilds ``data/`` from the raw sources (a checkout beside ``shared/data``)
REBUILD_COMMAND = "python -m fsbook.datasets build --source ../shared/data"


def package_dir() -> Path:
    """The installed (or checked-out) ``fsbook`` package folder."""
    return Path(__file__).resolve().parents[1]


def repo_root() -> Path:
    """Parent directory of the ``fsbook`` package (the repository root in a clone)."""
    return package_dir().parent


def in_checkout() -> bool:
    """Whether the package runs from a clone of the repository (not from an installed wheel)."""
    root = repo_root()
    return (root / "pyproject.toml").is_file() and (root / "fsbook" / "__init__.py").is_file()


def bundled_dir(kind: str) -> Path:
    """Where a wheel installs ``kind`` (``"data"`` or ``"results"``): ``fsbook/_data/<kind>``."""
    _check_kind(kind)
    return package_dir() / "_data" / kind


def _check_kind(kind):
    if kind not in ENV:
        raise ValueError(f"kind must be 'data' or 'results', got {kind!r}")


def locate(kind: str) -> tuple[Path, str]:
    """``(folder, how)`` of ``kind``; ``how`` is ``"env"`` (the variable :data:`ENV` names),
    ``"bundled"`` (installed with the package), ``"checkout"`` (the clone's folder) or
    ``"missing"`` (an installed package without its bundled copy).

    Examples
    --------
    >>> from fsbook.datasets._location import locate
    >>> folder, how = locate("data")
    >>> how in {"env", "bundled", "checkout", "missing"}
    True
    """
    _check_kind(kind)
    env = os.environ.get(ENV[kind])
    if env:
        return Path(env).expanduser(), "env"
    bundled = bundled_dir(kind)
    if bundled.is_dir():
        return bundled, "bundled"
    return repo_root() / kind, "checkout" if in_checkout() else "missing"


def remedy(kind: str, name: str | None = None) -> str:
    """How the reader restores ``kind``'s file ``name`` (a path relative to the folder), for the
    place :func:`locate` found; one clause, to follow "; " in an error message.

    Examples
    --------
    >>> from fsbook.datasets._location import remedy
    >>> import os
    >>> os.environ["FSBOOK_DATA_DIR"] = "/somewhere"
    >>> print(remedy("data", "wine.npz"))
    FSBOOK_DATA_DIR is set to /somewhere: put wine.npz there (from a clone of the repository, data/wine.npz), ...
    >>> del os.environ["FSBOOK_DATA_DIR"]
    """
    folder, how = locate(kind)
    var = ENV[kind]
    rel = kind if name is None else f"{kind}/{name}"
    what = f"the {kind}/ folder" if name is None else name
    if how == "env":
        return (f"{var} is set to {folder}: put {what} there (from a clone of the repository, {rel}), "
                f"or unset {var} to use the copy installed with fsbook or the clone's {kind}/")
    if how == "bundled":
        return (f"the copy installed with fsbook is incomplete or damaged: reinstall fsbook "
                f"(`pip install --force-reinstall` of its wheel), or set {var} to a folder holding "
                f"{what} (a clone's {kind}/)")
    if how == "missing":
        return (f"this installed fsbook carries no {kind}/ (no {folder}): install a wheel built from the "
                f"repository (it ships data/ and results/), or set {var} to a clone's {kind}/ folder")
    fix = f"restore it from git with `git checkout -- {rel}` (run in {repo_root()})"
    if kind == "data" and (repo_root().parent / "shared" / "data").is_dir():
        fix += f", or rebuild it from the raw sources with `{REBUILD_COMMAND}`"
    return fix

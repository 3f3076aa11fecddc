"""The protocols of :mod:`fsbook.experiments`, found from the package's files.

A protocol is a public module or package of :mod:`fsbook.experiments` (``l1linf``), or a public
module inside such a package that declares a ``PROTOCOL`` of its own (``l1linf/ablations.py``,
the protocol ``l1linf_ablations``).  Nothing lists them by hand: a new protocol package is found
as soon as its folder exists.  The sources are read with :mod:`ast`, without importing them.

A module of its own, below the runner, the verifier, the cost report and the command line, so
that each of them can list the protocols without importing another.

>>> from fsbook.experiments._registry import available_protocols, protocol_module
>>> "projection" in available_protocols() and "_example" not in available_protocols()
True
>>> protocol_module("l1linf_ablations")
'fsbook.experiments.l1linf.ablations'
"""
import ast
import functools
import pkgutil
from pathlib import Path

__all__ = ["available_protocols", "protocol_module", "protocol_modules"]

#: the folder of the package whose public modules are the protocols
PACKAGE_DIR = Path(__file__).resolve().parent
PACKAGE = "fsbook.experiments"


def declares_protocol(path) -> bool:
    """Whether the source at ``path`` assigns ``PROTOCOL`` at its top level."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "PROTOCOL" for t in targets):
            return True
    return False


@functools.cache
def _modules(folder) -> tuple:
    out = []
    for m in pkgutil.iter_modules([str(folder)]):
        if m.name.startswith("_"):
            continue
        out.append((m.name, f"{PACKAGE}.{m.name}"))
        if m.ispkg:
            out += [(f"{m.name}_{sub.name}", f"{PACKAGE}.{m.name}.{sub.name}")
                    for sub in pkgutil.iter_modules([str(Path(folder) / m.name)])
                    if not sub.ispkg and not sub.name.startswith("_")
                    and declares_protocol(Path(folder) / m.name / f"{sub.name}.py")]
    return tuple(sorted(out))


def protocol_modules() -> dict:
    """``{protocol name: module}`` of every protocol, sorted by name."""
    return dict(_modules(PACKAGE_DIR))


def available_protocols() -> list[str]:
    """Names of the protocols (:func:`protocol_modules`), sorted."""
    return list(protocol_modules())


def protocol_module(name: str) -> str:
    """The module that defines the protocol ``name``; a private name (``_example``) is the
    module of that name.  An unknown name raises ``ValueError`` listing the protocols."""
    modules = protocol_modules()
    if name in modules:
        return modules[name]
    if isinstance(name, str) and name.startswith("_") and name.isidentifier():
        return f"{PACKAGE}.{name}"
    raise ValueError(f"unknown protocol {name!r}; choose one of {list(modules)}")

"""The protocols of :mod:`fsbook.experiments`, found from the package's files.

A protocol is a public module or package of :mod:`fsbook.experiments` (``l1linf``), or a public
module inside such a package that declares a ``PROTOCOL`` of its own (``l1linf/ablations.py``,
the protocol ``l1linf_ablations``).  The template ``_example`` and its ablations are protocols
too, private ones: they are not listed among the book's.  Nothing lists them by hand: a new
protocol package is found as soon as its folder exists.  The sources are read with :mod:`ast`,
without importing them.

A module of its own, below the runner, the verifier, the cost report and the command line, so
that each of them can list the protocols without importing another.

>>> from fsbook.experiments._registry import available_protocols, protocol_module
>>> "projection" in available_protocols() and "_example" not in available_protocols()
True
>>> protocol_module("l1linf_ablations"), protocol_module("_example_ablations")
('fsbook.experiments.l1linf.ablations', 'fsbook.experiments._example.ablations')
"""
import ast
import functools
import pkgutil
from pathlib import Path

__all__ = ["available_protocols", "protocol_module", "protocol_modules", "protocols_with"]

#: the folder searched for protocols (the package :mod:`fsbook.experiments`)
PACKAGE_DIR = Path(__file__).resolve().parent
#: the dotted name of that package
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
    """``(name, module)`` of every protocol under ``folder``: its public modules and packages,
    its private packages that declare a ``PROTOCOL`` (the template), and the modules inside any
    package that declare one of their own."""
    out = []
    for m in pkgutil.iter_modules([str(folder)]):
        path = Path(folder) / m.name
        if m.name.startswith("_") and not (m.ispkg and declares_protocol(path / "__init__.py")):
            continue                                   # the machinery (_runner, _store, ...)
        out.append((m.name, f"{PACKAGE}.{m.name}"))
        if m.ispkg:
            out += [(f"{m.name}_{sub.name}", f"{PACKAGE}.{m.name}.{sub.name}")
                    for sub in pkgutil.iter_modules([str(path)])
                    if not sub.ispkg and not sub.name.startswith("_")
                    and declares_protocol(path / f"{sub.name}.py")]
    return tuple(sorted(out))


def protocol_modules(private=False) -> dict:
    """``{protocol name: module}`` of the book's protocols, sorted by name; ``private=True``
    adds the template's (names starting with ``_``), which are not the book's."""
    return {name: module for name, module in _modules(PACKAGE_DIR) if private or not name.startswith("_")}


def available_protocols() -> list[str]:
    """Names of the book's protocols (:func:`protocol_modules`), sorted."""
    return list(protocol_modules())


def protocol_module(name: str) -> str:
    """The module that defines the protocol ``name`` (the template's included); an unknown name
    raises ``ValueError`` listing the protocols."""
    modules = protocol_modules(private=True)
    if name not in modules:
        raise ValueError(f"unknown protocol {name!r}; choose one of {available_protocols()}")
    return modules[name]


def protocols_with(slot: str) -> dict:
    """``{protocol name: module}`` of the book's protocol packages that have the module ``slot``
    (``"chance"``: the reader of the chance audit, :mod:`fsbook.experiments._chance_stores`), as
    ``<package>.<slot>``, sorted by name.

    Examples
    --------
    >>> from fsbook.experiments._registry import protocols_with
    >>> protocols_with("chance")["hkl"]
    'fsbook.experiments.hkl.chance'
    """
    return {name: f"{module}.{slot}" for name, module in protocol_modules().items()
            if (PACKAGE_DIR / name / f"{slot}.py").is_file()}

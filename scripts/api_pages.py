"""Write the API reference pages of the book, ``book/api/<module>.md``, from the package itself.

Each page documents one subpackage or module: its docstring, a summary table of its public classes,
functions and constants, then every one of them in full (Sphinx autodoc, numpydoc sections read by
napoleon).  The public names are a subpackage's ``__all__``; for a top-level module, its ``__all__``
together with the public functions and classes it defines.  ``tests/test_api_pages.py`` checks that
the committed pages are the ones this script writes, so a new public name cannot be left out.

Usage: ``python scripts/api_pages.py`` (rewrites ``book/api/*.md`` except ``index.md``).
"""
from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "book" / "api"

#: (module, page title), in the order of the reference's table of contents
PAGES = (
    ("fsbook", "The package and the limits on a fit's cost"),
    ("fsbook.projection", "Projection penalties"),
    ("fsbook.l1linf", "ℓ1/ℓ∞ feature selection"),
    ("fsbook.kernel_design", "Kernel design by linear programming"),
    ("fsbook.geometry", "Geometric ratios"),
    ("fsbook.hkl", "Disjunctive hierarchical kernel learning"),
    ("fsbook.baselines", "Baselines"),
    ("fsbook.booleanize", "Booleanisation"),
    ("fsbook.datasets", "The loaders of the checksummed data sets"),
    ("fsbook.capabilities", "Capabilities"),
    ("fsbook.claims", "Claims and verdicts"),
    ("fsbook.decisions", "Decisions: grids, ties and top-k"),
    ("fsbook.model_selection", "Model selection: the tuned SVM and its tie rules"),
    ("fsbook.calibration", "Calibration of the tests"),
    ("fsbook.stats", "Rank statistics"),
    ("fsbook.scoreboard", "Scoreboard"),
)


def public_names(modname: str) -> list[str]:
    """The names a page documents: ``__all__`` (in its order), then, for a module that is not a
    package, the public functions and classes it defines that ``__all__`` leaves out."""
    module = importlib.import_module(modname)
    names = list(getattr(module, "__all__", []))
    if not hasattr(module, "__path__"):
        for name, obj in vars(module).items():
            if (not name.startswith("_") and name not in names
                    and (inspect.isfunction(obj) or inspect.isclass(obj))
                    and getattr(obj, "__module__", None) == modname):
                names.append(name)
    return names


def kind(obj) -> str:
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


def page(modname: str, title: str) -> str:
    module = importlib.import_module(modname)
    groups = {"class": [], "exception": [], "function": [], "data": []}
    for name in public_names(modname):
        groups[kind(getattr(module, name))].append(name)
    out = [f"# `{modname}`: {title}", "",
           "```{eval-rst}", f".. automodule:: {modname}", "   :no-members:", "",
           f".. currentmodule:: {modname}", "```", ""]
    headings = {"class": "Classes", "exception": "Exceptions", "function": "Functions", "data": "Constants"}
    for key, names in groups.items():
        if names:
            out += [f"## {headings[key]}", "", "```{eval-rst}", ".. autosummary::", "   :nosignatures:", ""]
            out += [f"   {n}" for n in names] + ["```", ""]
    out += ["## Reference", "", "```{eval-rst}"]
    for key, names in groups.items():
        for n in names:
            if key in ("class", "exception"):
                out += [f".. autoclass:: {n}", "   :members:", ""]
            elif key == "function":
                out += [f".. autofunction:: {n}", ""]
            else:
                out += [f".. autodata:: {n}", "   :no-value:", ""]
    out[-1:] = ["```", ""]
    return "\n".join(out)


def pages() -> dict[Path, str]:
    """Every page's path and text."""
    return {API / f"{modname.removeprefix('fsbook.')}.md": page(modname, title) for modname, title in PAGES}


def main() -> int:
    API.mkdir(parents=True, exist_ok=True)
    for path, text in pages().items():
        path.write_text(text)
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every third-party module that fsbook/ imports is a declared dependency.

An import is *guarded* when it is a call ``require("<module>", extra="<extra>")`` of
:func:`fsbook._optional.require` with literal arguments: its distribution must then be declared in
that extra of ``pyproject.toml``. Every other import (``import x`` / ``from x import y``, at module
level or inside a function) must be a core dependency. ``requirements.in`` must list exactly the
core dependencies and the extras' packages.
"""
import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

from fsbook._optional import require

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "fsbook"


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(spec):
    """``"jupyter-book<2"`` -> ``"jupyter-book"`` (canonical)."""
    return _canonical(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec).group(1))


def _declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {_requirement_name(s) for s in project["dependencies"]}
    extras = {k: {_requirement_name(s) for s in v} for k, v in project["optional-dependencies"].items()}
    return core, extras


def _imports(path):
    """``(top-level module, extra or None, line)`` of every absolute import in ``path``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[0], None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.module.split(".")[0], None, node.lineno))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "require"):
            extra = {k.arg: k.value for k in node.keywords}.get("extra")
            assert (node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(extra, ast.Constant)), \
                f"{path}:{node.lineno}: require() needs literal module and extra= arguments"
            found.append((node.args[0].value.split(".")[0], extra.value, node.lineno))
    return found


def _third_party_imports():
    for path in sorted(PACKAGE.rglob("*.py")):
        for module, extra, line in _imports(path):
            if module in sys.stdlib_module_names or module == "fsbook":
                continue
            yield f"{path.relative_to(ROOT)}:{line}", module, extra


def test_every_imported_module_is_declared():
    core, extras = _declared()
    distributions = importlib.metadata.packages_distributions()
    problems = []
    seen = set()
    for where, module, extra in _third_party_imports():
        seen.add(module)
        dists = {_canonical(d) for d in distributions.get(module, [])}
        if not dists:
            problems.append(f"{where}: {module} is not installed, so its distribution is unknown")
            continue
        allowed = core if extra is None else core | extras.get(extra, set())
        if extra is not None and extra not in extras:
            problems.append(f"{where}: require(..., extra={extra!r}) names no extra of pyproject.toml")
        elif not dists & allowed:
            place = "the core dependencies" if extra is None else f"the extra {extra!r}"
            problems.append(f"{where}: {module} (distribution {', '.join(sorted(dists))}) "
                            f"is not in {place} of pyproject.toml")
    assert not problems, "\n".join(problems)
    assert {"numpy", "sklearn", "cvxpy", "distributed", "scikit_posthocs"} <= seen   # the walk sees them


def test_unguarded_optional_import_is_caught(tmp_path):
    """The walk finds imports inside functions and reads the extra of a guarded one."""
    path = tmp_path / "m.py"
    path.write_text("import numpy as np\n\ndef f():\n    from distributed import Client\n"
                    "    d = require('distributed', extra='cluster')\n")
    assert _imports(path) == [("numpy", None, 1), ("distributed", None, 4), ("distributed", "cluster", 5)]


def test_requirements_in_lists_the_declared_packages():
    core, extras = _declared()
    listed = set()
    for line in (ROOT / "requirements.in").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            listed.add(_requirement_name(line))
    assert listed == core.union(*extras.values())


def test_missing_optional_module_names_the_extra():
    with pytest.raises(ImportError, match=r'pip install "fsbook\[cluster\]"'):
        require("fsbook_no_such_module", extra="cluster")

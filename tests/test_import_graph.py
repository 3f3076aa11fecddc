"""The experiments layer has no import circle.

Every module of :mod:`fsbook.experiments` imports on its own in a fresh interpreter (an import
that works only after another module has run is a hidden circle), and the graph of its imports
inside the package (function-level imports included: a deferred import still ties two modules
together) has no cycle.  The graph is read with :mod:`ast`, without importing anything.
"""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import fsbook.experiments

PACKAGE = "fsbook.experiments"
PACKAGE_DIR = Path(fsbook.experiments.__file__).resolve().parent


def module_names(folder: Path, package: str) -> dict:
    """``{module name: path}`` of the package's modules, its subpackages' included (a package's
    ``__init__`` is the package itself)."""
    out = {}
    for p in sorted(folder.rglob("*.py")):
        parts = p.relative_to(folder).with_suffix("").parts
        out[".".join((package, *(parts[:-1] if parts[-1] == "__init__" else parts)))] = p
    return out


def imported_modules(path: Path, known) -> set:
    """The modules of ``known`` that the source at ``path`` imports, at any depth of the code.

    ``from pkg import name`` counts as an import of ``pkg.name`` when that is a module of
    ``known``, else of ``pkg``.

    >>> import tempfile
    >>> src = "import a.b\\nfrom a import c, x\\ndef f():\\n    from a.d import y\\n"
    >>> with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
    ...     _ = fh.write(src)
    >>> sorted(imported_modules(Path(fh.name), {"a", "a.b", "a.c", "a.d"}))
    ['a', 'a.b', 'a.c', 'a.d']
    """
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            subs = {f"{node.module}.{a.name}" for a in node.names} & set(known)
            out |= subs
            if node.module in known and len(subs) < len(node.names):
                out.add(node.module)
    return out


def find_cycle(graph: dict):
    """One cycle of the directed graph ``{node: set of successors}`` as a list of nodes that
    starts and ends at the same node, or None.

    >>> find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    True
    >>> find_cycle({"a": {"b"}, "b": {"a"}})
    ['a', 'b', 'a']
    """
    state = {}                       # absent: not seen, 1: on the current path, 2: done

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                full = path + [node]
                return full[full.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [node])
                if found:
                    return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start, [])
            if found:
                return found
    return None


MODULES = module_names(PACKAGE_DIR, PACKAGE)
#: circles in modules being rewritten elsewhere, ignored for now (to be emptied): the edges
#: between the members of each set are dropped before the search
KNOWN_CIRCLES = []


def test_the_cycle_finder_sees_a_cycle_through_a_deferred_import(tmp_path):
    (tmp_path / "b.py").write_text("def f():\n    from pkg.a import g\n")
    (tmp_path / "__init__.py").write_text("from pkg.b import f\n")
    (tmp_path / "a.py").write_text("from pkg import b\n")
    mods = module_names(tmp_path, "pkg")
    graph = {name: imported_modules(path, mods) - {name} for name, path in mods.items()}
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"}
    cycle = find_cycle(graph)
    assert cycle[0] == cycle[-1] and set(cycle) == {"pkg.a", "pkg.b"}


def test_no_import_circle_in_the_experiments_layer():
    graph = {name: imported_modules(path, MODULES) - {name} for name, path in MODULES.items()}
    assert "fsbook.experiments._verify" in graph["fsbook.experiments.__main__"]      # a deferred import
    for circle in KNOWN_CIRCLES:
        assert circle <= set(graph), "a module of KNOWN_CIRCLES no longer exists: drop the entry"
        assert find_cycle({m: graph[m] & circle for m in circle}), f"{circle} is no circle now: drop it"
        graph = {m: (e - circle if m in circle else e) for m, e in graph.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_module_imports_in_a_fresh_interpreter(name):
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]

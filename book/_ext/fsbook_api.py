"""Sphinx extension of the API reference: numpydoc docstrings read by napoleon, made safe for a
page that documents many objects, and cross-references resolved the way a reader expects.

- Each docstring's numbered references (``.. [1]`` and ``[1]_``) get labels unique to the object,
  as numpydoc does, so two classes on one page can both cite their ``[1]``.
- A word ending in an underscore outside inline code (``coef_``, ``n_features_in_``) is text, not
  a reStructuredText hyperlink reference.
- A Python cross-reference that Sphinx cannot find is resolved by importing it: an object fsbook
  documents under its public name (``fsbook.l1linf.solvers.accelerated_proximal_gradient`` is
  documented as ``fsbook.l1linf.accelerated_proximal_gradient``) links there; a name that exists
  but is not part of the documented API (a private helper, a submodule, scikit-learn, SciPy,
  pandas) is shown as code without a link.  A name that does not import stays a warning.
- A docstring's reference that its text does not cite (``[1]`` listed under References only) is
  not reported as an unreferenced citation.
- The ``set_*_request`` methods that scikit-learn's metadata routing generates are not listed.
"""
from __future__ import annotations

import hashlib
import importlib
import logging
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util.nodes import make_refnode

# the book documents the package of its own checkout
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

_CITATION_DEF = re.compile(r"^(\s*)\.\. \[(\d+)\]")
_CITATION_REF = re.compile(r"\[(\d+)\]_")
#: inline code and roles, left untouched by the underscore escaping
_PROTECTED = re.compile(r"(^\s*:[^:`\s]+:(?=\s)|``.+?``|:[\w:.-]+:`[^`]+`|`[^`]+`_{0,2}|\.\. \S+|\[[\w-]+\]_)")
_TRAILING_UNDERSCORE = re.compile(r"(?<=[\w)])_(?![\w`])")
#: packages whose names are shown as code (no inventory of theirs is available offline)
EXTERNAL = ("sklearn", "scipy", "numpy", "pandas", "matplotlib", "scikit_posthocs", "skrebate",
            "metric_learn", "cvxpy", "clarabel", "numba", "networkx")


def _escape(line: str) -> str:
    parts = _PROTECTED.split(line)
    return "".join(p if i % 2 else _TRAILING_UNDERSCORE.sub(r"\\_", p) for i, p in enumerate(parts))


def process_docstring(app, what, name, obj, options, lines):
    prefix = "R" + hashlib.sha1(name.encode()).hexdigest()[:6]
    for i, line in enumerate(lines):
        line = _CITATION_DEF.sub(lambda m: f"{m.group(1)}.. [{prefix}-{m.group(2)}]", line)
        line = _CITATION_REF.sub(lambda m: f"[{prefix}-{m.group(1)}]_", line)
        if not line.lstrip().startswith(".."):
            line = _escape(line)
        lines[i] = line


_LABEL = re.compile(r"R[0-9a-f]{6}-(\d+)")


def show_numbers(app, doctree):
    """The unique labels are shown as the docstring's own numbers: ``[1]``."""
    for label in doctree.findall(nodes.label):
        m = _LABEL.fullmatch(label.astext())
        if m and isinstance(label.parent, nodes.citation):
            label.replace(label[0], nodes.Text(m.group(1))) if label.children else label.append(nodes.Text(m.group(1)))
    for ref in doctree.findall(addnodes.pending_xref):
        m = _LABEL.fullmatch(ref.get("reftarget", ""))
        if m and ref.get("reftype") == "ref" and ref.get("refdomain") == "citation":
            ref.children = [nodes.inline(text=f"[{m.group(1)}]")]


class _UncitedReference(logging.Filter):
    """Drops Sphinx's "Citation [...] is not referenced" for the labels given above only."""

    def filter(self, record):
        return not (str(record.msg).startswith("Citation [%s] is not referenced")
                    and re.fullmatch(r"R[0-9a-f]{6}-\d+", str(record.args[0] if record.args else "")))


def skip_member(app, what, name, obj, skip, options):
    if re.fullmatch(r"set_\w+_request", name):
        return True
    return None


def _import(path: str):
    """The object a dotted path names, or None."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _candidates(target: str, node) -> list[str]:
    """Full names a target may mean, from the reference's module and class context."""
    target = target.lstrip(".~")
    module, cls = node.get("py:module"), node.get("py:class")
    out = [target]
    # the object whose docstring holds the reference, and the modules that define it
    source = str(node.source or "")
    if "docstring of " in source:
        owner = source.rsplit("docstring of ", 1)[1].split(":")[0].split(".")
        out += [".".join(owner[:cut] + [target]) for cut in range(len(owner), 0, -1)]
    if module:
        out.append(f"{module}.{target}")
        if cls:
            out.append(f"{module}.{cls}.{target}")
            owner = _import(f"{module}.{cls}")
            defining = getattr(owner, "__module__", None)
            if defining:
                out += [f"{defining}.{target}", f"{defining}.{cls}.{target}"]
        # a summary line (autosummary) knows only the page's module: its submodules
        out += [f"{sub}.{target}" for sub in sorted(sys.modules) if sub.startswith(module + ".")]
    return out


def missing_reference(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if target.split(".")[0] in EXTERNAL:
        return contnode
    domain = env.get_domain("py")
    documented = {}
    for full in _candidates(target, node):
        obj = _import(full)
        if obj is None:
            continue
        if not documented:
            for dname, entry in domain.objects.items():
                if entry.objtype in ("class", "function", "exception", "data", "method", "attribute"):
                    found = _import(dname)
                    if found is not None and not isinstance(found, (int, float, str, tuple, bool)):
                        documented.setdefault(id(found), (dname, entry))
        hit = documented.get(id(obj))
        if hit is not None:
            dname, entry = hit
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, dname)
        if full.startswith("fsbook."):
            return contnode          # exists, but not part of the documented API
    return None


def setup(app):
    app.connect("autodoc-process-docstring", process_docstring, priority=600)
    app.connect("autodoc-skip-member", skip_member)
    app.connect("doctree-read", show_numbers)
    app.connect("missing-reference", missing_reference)
    logging.getLogger("sphinx.sphinx.domains.citation").addFilter(_UncitedReference())
    return {"parallel_read_safe": True, "parallel_write_safe": True}

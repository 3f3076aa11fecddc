"""The table of contents lists only pages that exist, and every chapter is listed."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def toc_entries():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    entries = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                entries.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc.get("parts", toc.get("chapters", [])))
    return entries


def test_every_toc_entry_exists():
    for entry in toc_entries():
        candidates = [ROOT / f"{entry}{suffix}" for suffix in (".md", ".ipynb")]
        assert any(c.exists() for c in candidates), f"_toc.yml lists {entry}, which does not exist"


def test_every_notebook_is_in_the_toc():
    listed = set(toc_entries())
    for nb in sorted((ROOT / "book").glob("**/*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        entry = nb.relative_to(ROOT).with_suffix("").as_posix()
        assert entry in listed, f"{entry} is not in _toc.yml"


def test_config_builds_from_stored_outputs():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "off"
    assert "sphinx-mathjax-offline" in config["sphinx"]["extra_extensions"]


def test_requirements_are_pinned():
    lines = [ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]      # pip-compile's "# via" lines
    assert lines
    unpinned = [ln for ln in lines if not re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[\w.+\-!]+", ln)]
    assert not unpinned, f"unpinned requirements: {unpinned}"


def test_notebooks_are_committed_executed():
    """The book is built from stored outputs: a notebook saved without running would render empty
    and pass nbval vacuously, so every code cell must carry an execution count."""
    import json

    for nb in sorted((ROOT / "book").glob("**/*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        cells = json.loads(nb.read_text())["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        assert code, f"{nb.name} has no code cell"
        unexecuted = [i for i, c in enumerate(cells)
                      if c["cell_type"] == "code" and c.get("execution_count") is None]
        assert not unexecuted, f"{nb.name}: cells {unexecuted} were not executed"
        counts = [c["execution_count"] for c in code]
        assert counts == list(range(1, len(code) + 1)), f"{nb.name} was not run top to bottom"
        timed = [i for i, c in enumerate(cells) if "execution" in c.get("metadata", {})]
        assert not timed, f"{nb.name}: cells {timed} carry execution timestamps (use make execute)"

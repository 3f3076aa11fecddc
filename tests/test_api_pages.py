"""The API reference pages (book/api/<module>.md) are the ones scripts/api_pages.py writes from the
package, so every public name of every documented module has its entry, and every page is listed in
_toc.yml."""
from pathlib import Path

import yaml
from script_loader import load_script

ROOT = Path(__file__).resolve().parents[1]


def _script():
    return load_script("api_pages")


def test_committed_pages_are_generated():
    for path, text in _script().pages().items():
        assert path.exists(), f"{path.name} is missing: run python scripts/api_pages.py"
        assert path.read_text() == text, f"{path.name} is stale: run python scripts/api_pages.py"


def test_every_api_page_is_in_the_toc():
    toc = (ROOT / "_toc.yml").read_text()
    listed = {line.split("file:")[1].strip() for line in toc.splitlines() if "file:" in line}
    for page in sorted((ROOT / "book" / "api").glob("*.*")):
        if page.suffix in (".md", ".ipynb"):
            assert f"book/api/{page.stem}" in listed, f"{page.name} is not in _toc.yml"
    assert yaml.safe_load(toc)


def test_the_top_level_names_have_their_page():
    """``fsbook``'s own public names (the limits on a fit's cost) are documented on book/api/fsbook.md,
    each in the summary and in full, and the page is linked from the reference's index."""
    import fsbook

    text = (ROOT / "book" / "api" / "fsbook.md").read_text()
    assert {"LIMITS", "CostLimitError", "cost_limits"} <= set(fsbook.__all__)
    for name in fsbook.__all__:
        assert f"   {name}\n" in text, f"fsbook.{name} is not in the summary of fsbook.md"
    assert ".. autodata:: LIMITS" in text
    assert ".. autoclass:: CostLimitError" in text
    assert ".. autofunction:: cost_limits" in text
    assert "{doc}`fsbook`" in (ROOT / "book" / "api" / "index.md").read_text()

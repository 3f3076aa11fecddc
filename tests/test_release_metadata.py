"""Release metadata agrees with the package (issue "fsbook as a library people adopt").

The version has one source, ``fsbook.__version__``: setuptools reads it (``dynamic = ["version"]``)
and ``CITATION.cff``, ``.zenodo.json``, the README's BibTeX entry and ``CHANGELOG.md`` repeat it.
``CITATION.cff`` and ``.zenodo.json`` list the five papers the book reproduces, with a DOI only
where ``references.bib`` has one. The packages are discovered by ``setup.py``, not listed by hand
(``tests/test_wheel_install.py`` checks that the wheel holds every one of them).
"""
import json
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from script_loader import load_script

import fsbook

ROOT = Path(__file__).resolve().parents[1]


def _citation():
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def _zenodo():
    return json.loads((ROOT / ".zenodo.json").read_text(encoding="utf-8"))


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_has_one_source():
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "fsbook.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", fsbook.__version__)


def test_citation_cff_version_equals_the_package_version():
    assert str(_citation()["version"]) == fsbook.__version__


def test_zenodo_readme_and_changelog_name_the_package_version():
    assert _zenodo()["version"] == fsbook.__version__
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"version\s*=\s*\{([^}]*)\}", readme) == [fsbook.__version__]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert re.search(rf"^## \[{re.escape(fsbook.__version__)}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)


def test_citation_cff_parses_and_lists_the_five_papers():
    cff = _citation()
    assert cff["cff-version"] == "1.2.0"
    refs = cff["references"]
    assert len(refs) == 5
    for ref in refs:
        assert ref["type"] and ref["title"] and ref["authors"], ref
    titles = {r["title"] for r in refs}
    # the three papers whose texts name them, spelled as references.bib spells them
    bib = (ROOT / "references.bib").read_text(encoding="utf-8")
    for key in ("zhang2010projection", "masaeli2010transformation", "fung2007lp"):
        entry = bib.split(f"{{{key},", 1)[1].split("\n}", 1)[0]
        title = re.search(r"title\s*=\s*\{(.*)\},?\n", entry).group(1)
        assert title in titles, (key, title)


def test_no_doi_that_the_sources_do_not_give():
    bib = (ROOT / "references.bib").read_text(encoding="utf-8").lower()
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8") + (ROOT / ".zenodo.json").read_text(encoding="utf-8")
    for doi in re.findall(r"10\.\d{4,9}/[^\s\"',;]+", text):
        assert doi.lower() in bib, f"DOI {doi} is in no entry of references.bib"
    for ref in _citation()["references"]:
        if "doi" in ref:
            assert ref["doi"].lower() in bib


def test_zenodo_json_has_the_citation_metadata():
    cff, zen = _citation(), _zenodo()
    assert zen["title"] == cff["title"]
    assert zen["license"] == cff["license"] == _pyproject()["project"]["license"]
    assert zen["publication_date"] == str(cff["date-released"])
    assert [c["name"] for c in zen["creators"]] == [a["name"] for a in cff["authors"]]
    assert len(zen["references"]) == len(cff["references"]) == 5
    for text, ref in zip(zen["references"], cff["references"]):
        assert ref["title"] in text, (ref["title"], text)


def test_no_package_or_store_is_listed_by_hand():
    """A new protocol package or store needs no line in pyproject.toml or setup.py: setuptools'
    options name no fsbook package, and setup.py names no store."""
    setuptools = _pyproject()["tool"]["setuptools"]
    assert "packages" not in setuptools and "package-data" not in setuptools
    setup_py = (ROOT / "setup.py").read_text()
    stores = {p.parent.name for p in ROOT.glob("results/*/tasks-v*.jsonl.gz")}
    assert stores and not any(f'"{name}"' in setup_py or f".{name}" in setup_py for name in stores)
    code = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("fsbook/**/__init__.py")}
    assert not any(f'"{package}"' in setup_py for package in code - {"fsbook"})


def _badge_script():
    return load_script("readme_badges")


def test_readme_badges_point_at_the_configured_repository():
    script = _badge_script()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = script.badges()
    assert block in readme, "README.md's badges are stale: run python scripts/readme_badges.py"
    url = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    links = re.findall(r"\]\((https://github\.com/[^)]+)\)", block)
    assert links and all(link.startswith(url + "/") for link in links)
    assert "actions/workflows/pages.yml" in block and (ROOT / ".github/workflows/pages.yml").exists()


def test_readme_badge_block_is_replaced_and_a_bad_address_refused(tmp_path):
    script = _badge_script()
    assert script.replace_block("a\n<!-- badges:start -->\nold\n<!-- badges:end -->\nb", "NEW") == "a\nNEW\nb"
    with pytest.raises(ValueError, match="one <!-- badges:start -->"):
        script.replace_block("no markers", "NEW")
    (tmp_path / "_config.yml").write_text("repository:\n  url: https://gitlab.com/x/y\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    with pytest.raises(ValueError, match="https://github.com/OWNER/NAME"):
        script.badges(tmp_path)

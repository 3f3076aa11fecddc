"""Write the README's status badges from ``_config.yml`` (``python scripts/readme_badges.py``).

The repository's address has one home, ``_config.yml``'s ``repository.url`` (with its
``branch``): the book's repository and launch buttons read it, and this script writes the
badges between the README's ``<!-- badges:start -->`` and ``<!-- badges:end -->`` markers from
it.  ``--check`` exits with 1 when the README's block differs from what the configuration gives
(``tests/test_release_metadata.py`` runs the same comparison), so the badges cannot drift from
the configured address.

The badges:

* **tests and book** -- the status of ``.github/workflows/pages.yml``, which lints, runs the unit
  tests and the docstring examples, and builds the HTML before it publishes;
* **Binder** -- the repository's environment (``.binder/``) opened on the configured branch;
* **book** -- the published HTML (GitHub Pages);
* **licence** and **Python** -- ``pyproject.toml``'s licence and ``requires-python``.
"""
from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path
from urllib.parse import quote

import yaml

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- badges:start -->", "<!-- badges:end -->"
WORKFLOW = "pages.yml"


def _owner_and_name(url):
    match = re.fullmatch(r"https://github\.com/([^/\s]+)/([^/\s]+?)(?:\.git)?/?", url)
    if not match:
        raise ValueError(f"_config.yml's repository.url must be https://github.com/OWNER/NAME, got {url!r}")
    return match.groups()


def _shield(label, message, colour):
    def part(text):
        return quote(text.replace("-", "--").replace("_", "__"), safe="")
    return f"https://img.shields.io/badge/{part(label)}-{part(message)}-{colour}"


def badges(root=ROOT) -> str:
    """The README's badge block (markers included) for the repository of ``root/_config.yml``."""
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    url, branch = config["repository"]["url"].rstrip("/"), config["repository"].get("branch", "main")
    owner, name = _owner_and_name(url)
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    licence = project["license"] if isinstance(project["license"], str) else project["license"]["text"]
    python = project["requires-python"]
    lines = [
        f"[![tests and book]({url}/actions/workflows/{WORKFLOW}/badge.svg?branch={branch})]"
        f"({url}/actions/workflows/{WORKFLOW})",
        f"[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/{owner}/{name}/{branch})",
        f"[![book]({_shield('book', 'online', 'blue')})](https://{owner.lower()}.github.io/{name}/)",
        f"[![licence]({_shield('licence', licence, 'green')})]({url}/blob/{branch}/LICENSE)",
        f"![Python]({_shield('Python', python, 'informational')})",
    ]
    return "\n".join([START, *lines, END])


def replace_block(readme: str, block: str) -> str:
    """``readme`` with its badge block replaced by ``block``."""
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if len(pattern.findall(readme)) != 1:
        raise ValueError(f"the README must hold one {START} ... {END} block")
    return pattern.sub(lambda _: block, readme)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the README's badges are stale")
    args = ap.parse_args(argv)
    path = ROOT / "README.md"
    readme = path.read_text(encoding="utf-8")
    fresh = replace_block(readme, badges())
    if args.check:
        if fresh != readme:
            print("README.md's badges are stale: run python scripts/readme_badges.py")
            return 1
        return 0
    path.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Chapters read like papers, not logs: short paragraphs, short shown code that the text column
does not clip.  Store bookkeeping and the cells that compute glued values carry the tag
``hide-input`` (or ``remove-input``), so the reader sees the code a reader would run.

Checked on the notebooks' sources: the median paragraph of a page's prose (lists, tables, math
blocks and headings excluded) has at most ``MAX_MEDIAN_WORDS`` words; a code cell shown to the
reader has at most ``MAX_SHOWN_LINES`` lines and no line longer than ``MAX_LINE`` characters,
the width the text column shows at 1 280 pixels without a scroll bar.
"""
import json
import re
import statistics
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
NOTEBOOKS = sorted([*BOOK.glob("*.ipynb"), *BOOK.glob("gallery/*.ipynb"), *BOOK.glob("api/*.ipynb")])
MAX_MEDIAN_WORDS = 40
MAX_SHOWN_LINES = 30
MAX_LINE = 76
HIDDEN = {"hide-input", "remove-input", "remove-cell", "hide-cell"}
_MARKUP = re.compile(r"\{[a-z:-]+\}`[^`]*`|\$[^$]*\$")


def paragraph_words(markdown: str) -> list[int]:
    """Word counts of the prose paragraphs of one markdown cell (inline math and roles count as
    one word; headings, lists, tables, math blocks, directives and HTML are not paragraphs).

    >>> paragraph_words("# Title\\n\\nOne two three $x+y$.\\n\\n- a list item here")
    [4]
    """
    out = []
    for block in re.split(r"\n\s*\n", markdown):
        b = block.strip()
        if not b or b.startswith(("#", "|", "```", "$$", ":::", "<", "!", ">")) or re.match(r"^([-*+]|\d+\.)\s", b):
            continue
        out.append(len(_MARKUP.sub("X", b).split()))
    return out


def shown_code_cells(nb: dict):
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] == "code" and not HIDDEN & set(c.get("metadata", {}).get("tags", [])):
            yield i, "".join(c["source"])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(BOOK).with_suffix("").as_posix())
def test_paragraphs_are_short(path):
    nb = json.loads(path.read_text())
    words = [w for c in nb["cells"] if c["cell_type"] == "markdown" for w in paragraph_words("".join(c["source"]))]
    assert words, f"{path.name} has no prose"
    assert statistics.median(words) <= MAX_MEDIAN_WORDS, (
        f"{path.name}: median paragraph {statistics.median(words)} words (at most {MAX_MEDIAN_WORDS})")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(BOOK).with_suffix("").as_posix())
def test_shown_code_fits_the_column(path):
    nb = json.loads(path.read_text())
    problems = []
    for i, src in shown_code_cells(nb):
        lines = src.splitlines()
        if len(lines) > MAX_SHOWN_LINES:
            problems.append(f"cell {i}: {len(lines)} lines shown (at most {MAX_SHOWN_LINES}; tag hide-input?)")
        problems += [f"cell {i}: line of {len(line)} characters: {line[:40]!r}…"
                     for line in lines if len(line) > MAX_LINE]
    assert not problems, f"{path.name}:\n" + "\n".join(problems[:20]) + (
        f"\n… and {len(problems) - 20} more" if len(problems) > 20 else "")

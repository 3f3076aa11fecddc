"""Chapters read like papers, not logs: short paragraphs, short shown code that the text column
does not clip.  Store bookkeeping and the cells that compute glued values carry the tag
``hide-input`` (or ``remove-input``), so the reader sees the code a reader would run.

Checked on the notebooks' sources: the median paragraph of a page's prose (lists, tables, math
blocks and headings excluded) has at most ``MAX_MEDIAN_WORDS`` words; a code cell shown to the
reader has at most ``MAX_SHOWN_LINES`` lines and no line longer than ``MAX_LINE`` characters,
the width the text column shows at 1 280 pixels without a scroll bar.  Checked on the stored
outputs: no line of printed text (a stream, or a result shown as plain text) is longer than
``MAX_LINE`` characters either.
"""
import json
import re
import statistics
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
NOTEBOOKS = sorted([*BOOK.glob("*.ipynb"), *BOOK.glob("gallery/*.ipynb"), *BOOK.glob("api/*.ipynb")])
MAX_MEDIAN_WORDS = 30
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


#: rich outputs the page renders instead of their plain text
RICH = {"text/html", "text/markdown", "image/png", "image/svg+xml", "image/jpeg"}
#: pages allowed to print lines wider than the column, each with the reason (none today); the
#: mark is strict, so the check fails once such a page fits and its entry is left here
WIDE_OUTPUT: dict = {}


def printed_lines(nb: dict):
    """``(cell index, line)`` for every line of text a reader sees printed under a code cell: stream
    outputs and results without a rich form (an HTML table or a figure shows that instead); the
    outputs of cells tagged ``remove-output`` or ``remove-cell`` are not shown."""
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] != "code" or {"remove-output", "remove-cell"} & set(c.get("metadata", {}).get("tags", [])):
            continue
        for out in c.get("outputs", []):
            if out["output_type"] == "stream":
                text = "".join(out["text"])
            elif out["output_type"] in ("execute_result", "display_data") and not RICH & set(out["data"]):
                text = "".join(out["data"].get("text/plain", ""))
            else:
                continue
            yield from ((i, line) for line in text.splitlines())


def test_printed_lines_are_those_a_reader_sees():
    long = "x" * (MAX_LINE + 1)
    nb = {"cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [{"output_type": "stream", "text": ["ok\n", long]}]},
        {"cell_type": "code", "metadata": {}, "outputs": [
            {"output_type": "execute_result", "data": {"text/plain": long, "text/html": "<table/>"}},
            {"output_type": "display_data", "data": {"text/plain": [long]}}]},
        {"cell_type": "code", "metadata": {"tags": ["remove-output"]},
         "outputs": [{"output_type": "stream", "text": long}]},
        {"cell_type": "markdown", "metadata": {}, "source": long}]}
    assert list(printed_lines(nb)) == [(0, "ok"), (0, long), (1, long)]


def page_id(path: Path) -> str:
    return path.relative_to(BOOK).with_suffix("").as_posix()


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=WIDE_OUTPUT[page_id(p)])
                 if page_id(p) in WIDE_OUTPUT else ()) for p in NOTEBOOKS], ids=page_id)
def test_printed_output_fits_the_column(path):
    problems = [f"cell {i}: printed line of {len(line)} characters: {line[:40]!r}…"
                for i, line in printed_lines(json.loads(path.read_text())) if len(line) > MAX_LINE]
    assert not problems, f"{path.name}:\n" + "\n".join(problems[:20])


def test_every_wide_output_entry_names_a_page():
    assert set(WIDE_OUTPUT) <= {page_id(p) for p in NOTEBOOKS}


# ---- no process words: the code says the reason, the book says what was checked ------------

REPO = BOOK.parent
#: an issue number: "issue 38", "Issue 48's", "issues 39"
ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)
#: an issue number or the name of a test file in the book's prose
BOOK_PROCESS = re.compile(r"\bissues?\s+#?\d+|\b(?:tests/)?test_\w+\.py\b|\btests/\w+", re.IGNORECASE)
#: source files still citing an issue number, being rewritten elsewhere (to be emptied)
CODE_PROCESS_ALLOWLIST = set()
#: pages whose prose still names the process (to be emptied)
BOOK_PROCESS_ALLOWLIST = set()
PY_SOURCES = sorted(p for folder in ("fsbook", "tests", "benchmarks", "scripts")
                    for p in (REPO / folder).rglob("*.py") if p != Path(__file__).resolve())
PAGES = sorted(p for p in BOOK.rglob("*") if p.suffix in (".ipynb", ".md") and "_build" not in p.parts)


def markdown_of(path: Path) -> str:
    """The prose of a page: a ``.md`` file whole, a notebook's markdown cells joined."""
    if path.suffix == ".md":
        return path.read_text()
    nb = json.loads(path.read_text())
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_process_patterns_catch_what_they_should():
    assert ISSUE_NUMBER.search("a tie rule (issue 38)") and ISSUE_NUMBER.search("Issue 48's protocol")
    assert not ISSUE_NUMBER.search("the issue's count") and not ISSUE_NUMBER.search("tissue 3")
    assert BOOK_PROCESS.search("`tests/test_chance.py` recomputes") and BOOK_PROCESS.search("see test_stats.py")
    assert not BOOK_PROCESS.search("the test posts, a paired t-test over 10 splits")


def test_no_issue_numbers_in_the_code():
    rel = {p.relative_to(REPO).as_posix(): p for p in PY_SOURCES}
    assert CODE_PROCESS_ALLOWLIST <= set(rel), "an allowlisted file no longer exists: drop it"
    hits = [f"{name}:{i}: {line.strip()[:90]}" for name, p in rel.items() if name not in CODE_PROCESS_ALLOWLIST
            for i, line in enumerate(p.read_text().splitlines(), 1) if ISSUE_NUMBER.search(line)]
    assert not hits, "say the reason, not the issue:\n" + "\n".join(hits)


def test_no_process_words_in_the_book():
    assert BOOK_PROCESS_ALLOWLIST <= {p.name for p in PAGES}, "an allowlisted page no longer exists"
    hits = [f"{p.relative_to(BOOK)}: {m.group(0)!r}" for p in PAGES if p.name not in BOOK_PROCESS_ALLOWLIST
            for m in BOOK_PROCESS.finditer(markdown_of(p))]
    assert not hits, "say what was checked, not which test or issue checks it:\n" + "\n".join(hits)

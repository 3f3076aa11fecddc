"""The browser check's decisions (scripts/check_html.py), on measured facts without a browser."""
import pytest
from script_loader import load_script

pytest.importorskip("selenium")
check_html = load_script("check_html")


def table(width=500.0, caption="Table 1: accuracy", cells=("a", "1.00")):
    return {"width": width, "caption": caption, "label": caption or cells[0], "cells": list(cells)}


def test_a_captioned_table_within_the_column_passes():
    assert check_html.table_problems([table(width=700.0)], 700.0) == []
    assert check_html.table_problems([table(width=700.9)], 700.0) == []      # sub-pixel layout


def test_a_table_wider_than_the_column_fails_with_both_widths():
    (msg,) = check_html.table_problems([table(width=702.0)], 700.0)
    assert "702 px wide" in msg and "700 px" in msg


def test_a_table_without_caption_fails():
    (msg,) = check_html.table_problems([table(caption="")], 700.0)
    assert "no caption" in msg


@pytest.mark.parametrize("bare", ["NaN", "nan", "<NA>", "None"])
def test_a_bare_missing_value_cell_fails(bare):
    (msg,) = check_html.table_problems([table(cells=("x", bare))], 700.0)
    assert bare in msg


def test_a_missing_value_written_out_passes():
    assert check_html.table_problems([table(cells=("undefined", "—", "NaN-free text"))], 700.0) == []


def test_clipped_code_fails_and_fitting_code_passes():
    blocks = [{"index": 0, "scrollWidth": 701.0, "clientWidth": 700.0, "first": "fits"},
              {"index": 1, "scrollWidth": 760.0, "clientWidth": 700.0, "first": "too long"}]
    (msg,) = check_html.code_problems(blocks)
    assert "cell 2" in msg and "760 px" in msg and "700 px" in msg


def test_each_table_is_numbered_in_order():
    msgs = check_html.table_problems([table(), table(caption="", cells=("first cell",))], 700.0)
    assert msgs == ["output table 2 (first cell) has no caption"]


@pytest.mark.parametrize("text, found", [
    ("the merit $M_S$ of a subset", ["$M_S$"]),
    ("with $r$ the symmetric uncertainty", ["$r$"]),
    ("$\\alpha \\ge 0$ holds", ["$\\alpha \\ge 0$"]),
    ("costs $5 and $6 each", []),                 # prices, not math
    ("a typeset formula leaves no dollar sign", []),
    ("US$10 and $ 3", []),
])
def test_raw_inline_math(text, found):
    assert check_html.raw_inline_math(text) == found


def test_raw_reprs():
    assert check_html.raw_reprs(["a    1\nName: x, dtype: float64"]) == ["dtype: float64"]
    assert check_html.raw_reprs(["<fsbook.Model object at 0xdeadBEEF>"]) == ["object at 0xdeadBEEF"]
    assert check_html.raw_reprs(["value  <NA>"]) == ["<NA>"]
    assert check_html.raw_reprs(["accuracy 93.40 %", "the dtype of X is float"]) == []


@pytest.mark.parametrize("html, target", [
    ('<meta http-equiv="Refresh" content="0; url=book/intro.html" />', "book/intro.html"),
    ("<meta http-equiv=refresh content='0; url=a.html'>\n", "a.html"),
    ('<html><head><meta http-equiv="refresh" content="0; url=a.html"></head><body>x</body></html>', None),
    ("<html><body>a page</body></html>", None),
])
def test_only_a_bare_redirect_stub_is_skipped(html, target):
    assert check_html.redirect_target(html) == target

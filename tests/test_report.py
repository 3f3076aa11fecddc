"""Tests of the paper-vs-ours table helper."""

import numpy as np
import pandas as pd
import pytest

from fsbook.report import format_value, paper_vs_ours, refill


def test_format_value_fixed_decimals_and_missing():
    assert format_value(0.123456, 3) == "0.123"
    assert format_value(2, 2) == "2.00"
    assert format_value(None) == "–"
    assert format_value(np.nan) == "–"
    # a value rounding to zero never prints as -0.000
    assert format_value(-1e-9, 3) == "0.000"


def test_series_table_has_paper_ours_difference():
    table = paper_vs_ours({"ridge": 0.61, "pcr": 0.50}, {"ridge": 0.6049, "pcr": 0.55},
                          {"ridge": 0.0123, "pcr": 0.02}, decimals=2, index_name="method")
    assert list(table.columns) == ["paper", "ours (± s.e.)", "difference"]
    assert table.index.name == "method"
    assert table.loc["ridge"].tolist() == ["0.61", "0.60 ± 0.01", "-0.01"]
    assert table.loc["pcr", "difference"] == "+0.05"


def test_unreported_paper_values_and_extra_rows():
    table = paper_vs_ours({"a": None}, {"a": 0.26, "b": 0.5}, decimals=1)
    assert table.loc["a"].tolist() == ["–", "0.3", "–"]
    assert table.loc["b", "paper"] == "–"


def test_paper_row_without_ours_is_an_error():
    with pytest.raises(ValueError, match="ours lacks"):
        paper_vs_ours({"a": 1.0, "zzz": 2.0}, {"a": 1.0})


def test_dataframe_input_gives_one_block_per_column():
    paper = pd.DataFrame({"2%": [0.1, 0.2]}, index=["x", "y"])
    ours = pd.DataFrame({"2%": [0.12, 0.19], "5%": [0.1, 0.1]}, index=["x", "y"])
    table = paper_vs_ours(paper, ours, ours * 0.1)
    assert table.columns.nlevels == 2
    assert table[("2%", "difference")].tolist() == ["+0.020", "-0.010"]
    assert table[("5%", "paper")].tolist() == ["–", "–"]


def test_rendering_is_deterministic():
    rng = np.random.default_rng(0)
    ours = {f"m{i}": v for i, v in enumerate(rng.random(5))}
    a = paper_vs_ours({"m0": 0.5}, ours).to_html()
    b = paper_vs_ours({"m0": 0.5}, {k: v + 1e-12 for k, v in ours.items()}).to_html()
    assert a == b


def test_bad_types_are_rejected():
    with pytest.raises(TypeError):
        paper_vs_ours([0.1], {"a": 0.1})
    with pytest.raises(TypeError):
        paper_vs_ours({"a": 0.1}, pd.DataFrame({"c": [1.0]}))


def test_refill_keeps_every_word_and_fits_the_width():
    text = ("Title\n=====\n\nSource: " + "x" * 80 + " (a/b/c.arff)\nUsed by: " + "word " * 30 + "\n\n"
            "Differences:\n  " + "one two three " * 12 + "\n  continued here\n    deeper indent\n")
    out = refill(text, width=40)
    assert out.split() == text.split()
    assert out.endswith("\n") and "\n\n" in out
    long_word = "x" * 80
    assert all(len(line) <= 40 for line in out.splitlines() if long_word not in line)
    lines = out.splitlines()
    assert lines[:3] == ["Title", "=====", ""] and lines[3] == "Source:" and lines[4] == "  " + long_word
    paragraph = [line for line in lines[lines.index("Differences:") + 1:] if line.startswith("  ")]
    assert all(not line.startswith("   ") for line in paragraph[:-1]) and paragraph[-1] == "    deeper indent"


def test_refill_leaves_short_text_alone():
    text = "a: 1\nb: 2\n\n  note\n"
    assert refill(text) == text

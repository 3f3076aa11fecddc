"""The ranking helpers of fsbook.report used by the projection chapter (ties counted apart)."""

import pytest

from fsbook.report import compare_rankings, paper_vs_ours, rank_order


def test_rank_order_shows_ties_at_the_printed_precision():
    assert rank_order({"a": 3.0, "b": 1.0, "c": 2.0}, higher_is_better=True) == "a > c > b"
    assert rank_order({"a": 3.0, "b": 1.0, "c": 2.0}, higher_is_better=False) == "b > c > a"
    assert rank_order({"x": 2.004, "y": 1.0, "z": 1.996}, higher_is_better=True) == "x = z > y"
    assert rank_order({"x": 2.004, "y": 1.0, "z": 1.996}, higher_is_better=True, decimals=3) == "x > z > y"


def test_compare_rankings_counts_agreements_reversals_and_ties():
    paper = {"A": 10.0, "B": 8.0, "C": 6.0, "D": 6.0}
    ours = {"A": 5.0, "B": 5.0, "C": 7.0, "D": 1.0}
    r = compare_rankings(paper, ours, higher_is_better=False)
    # pairs: AB tied in ours; AC reversed (paper C<A, ours A<C); AD agree; BC reversed; BD agree;
    # CD tied in paper
    assert (r["agree"], r["reversed"], r["tied in ours"], r["tied in paper"], r["pairs"]) == (2, 2, 1, 1, 6)
    assert r["paper order"] == "C = D > B > A" and r["our order"] == "D > A = B > C"


def test_paper_spread_is_printed_beside_the_paper_mean():
    t = paper_vs_ours({"m": 1.5}, {"m": 1.25}, {"m": 0.1}, decimals=2, paper_spread={"m": 0.05})
    assert list(t.columns) == ["paper (± s.e.)", "ours (± s.e.)", "difference"]
    assert t.loc["m", "paper (± s.e.)"] == "1.50 ± 0.05" and t.loc["m", "difference"] == "-0.25"


@pytest.mark.parametrize("bad", [["a"], 3])
def test_bad_input_is_refused(bad):
    with pytest.raises(TypeError):
        rank_order(bad, higher_is_better=True)


def test_captioned_formats_integers_floats_and_missing_deterministically():
    import numpy as np
    import pandas as pd

    from fsbook.report import captioned
    df = pd.DataFrame({"d": pd.array([11, None], dtype="Int64"), "R²": [61.234, np.nan]},
                      index=pd.Index(["PCR", "Ridge"], name="method"))
    html = captioned(df, "Table 1: best d").to_html()
    assert "<caption>Table 1: best d</caption>" in html
    assert ">11<" in html and ">61.23<" in html and html.count(">—<") == 2 and "nan" not in html.lower()
    assert captioned(df, "Table 1: best d").to_html() == html          # same id on every run


def test_captioned_has_a_stable_plain_text_form_and_can_hide_the_index():
    """The repr stored in a notebook beside the HTML names the caption, not a memory address."""
    import pandas as pd
    from IPython.lib.pretty import pretty

    from fsbook.report import captioned
    df = pd.DataFrame({"C": [0.1, 1.0]}, index=pd.Index(["first_row", "second_row"]))
    table = captioned(df, "Table 2: path", decimals=3)
    assert pretty(table) == repr(table) == "<table: Table 2: path>"
    assert "first_row" in table.to_html()
    hidden = captioned(df, "Table 2: path", decimals=3, index=False).to_html()
    assert "first_row" not in hidden and ">0.100<" in hidden and ">1.000<" in hidden

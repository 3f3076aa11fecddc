"""Paper-vs-ours reproduction tables.

Every chapter prints the paper's published numbers beside the numbers its
notebook has just computed.  :func:`paper_vs_ours` renders such a table
deterministically: the values are formatted as strings with a fixed number
of decimals, so that the HTML the notebook shows (and that ``pytest --nbval``
compares) does not change with the last bits of a floating-point sum.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import textwrap
from collections.abc import Mapping

import numpy as np
import pandas as pd
from pandas.io.formats.style import Styler

__all__ = ["paper_vs_ours", "format_value", "format_significant", "rank_order", "compare_rankings", "captioned",
           "styled_table", "Table", "join_words", "spaced", "percent", "format_p", "describe_claim",
           "claims_display", "claims_pivot", "with_unit", "tally", "refill"]

#: shown where the paper reports no value
MISSING = "–"


def format_value(value, decimals: int = 3) -> str:
    """Format one number with a fixed number of decimals.

    ``None`` and NaN become ``"–"``; ``-0.000`` is printed as ``0.000``
    so that a value that rounds to zero does not flip sign between runs.

    Parameters
    ----------
    value : float or None
    decimals : int, default=3

    Returns
    -------
    str
    """
    if value is None:
        return MISSING
    value = float(value)
    if math.isnan(value):
        return MISSING
    text = f"{value:.{decimals}f}"
    if float(text) == 0.0:
        text = f"{0.0:.{decimals}f}"
    return text


def format_significant(value, digits: int = 3) -> str:
    """Format one number with ``digits`` significant digits (``959.8387`` → ``"960"``).

    For quantities a solver determines only to a relative tolerance (an LP's objective or
    constraint violation, an eigenvalue of a matrix built from an LP's solution): printing more
    digits than the tolerance fixes would show rounding noise that differs between machines.
    ``None`` and NaN become ``"–"``; a value that rounds to zero prints as ``0``.

    Parameters
    ----------
    value : float or None
    digits : int, default=3

    Returns
    -------
    str

    Examples
    --------
    >>> from fsbook.report import format_significant
    >>> format_significant(959.838732664), format_significant(0.000123456, 2), format_significant(-0.0)
    ('960', '0.00012', '0')
    """
    if value is None:
        return MISSING
    value = float(value)
    if math.isnan(value):
        return MISSING
    if value == 0.0:
        return "0"
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def _as_series(values, name: str) -> pd.Series:
    if values is None:
        return None
    if isinstance(values, pd.Series):
        return values.astype(float)
    if isinstance(values, Mapping):
        return pd.Series({k: (np.nan if v is None else float(v)) for k, v in values.items()},
                         dtype=float)
    raise TypeError(f"{name} must be a mapping or a pandas Series, got {type(values).__name__}")


def _block(paper: pd.Series, ours: pd.Series, spread: pd.Series | None,
           decimals: int, spread_label: str, paper_spread: pd.Series | None = None) -> pd.DataFrame:
    unknown = paper.index.difference(ours.index)
    if len(unknown):
        raise ValueError(f"paper values for rows that ours lacks: {list(unknown)}")
    if spread is not None:
        extra = spread.index.difference(ours.index)
        if len(extra):
            raise ValueError(f"spread given for rows that ours lacks: {list(extra)}")
    rows = {}
    for key in ours.index:
        p = paper.get(key, np.nan)
        o = ours[key]
        text = format_value(o, decimals)
        if spread is not None and key in spread.index and not np.isnan(spread[key]):
            text = f"{text} ± {format_value(spread[key], decimals)}"
        diff = o - p if not (np.isnan(p) or np.isnan(o)) else np.nan
        if not np.isnan(diff):
            diff_text = format_value(diff, decimals)
            if not diff_text.startswith("-"):
                diff_text = "+" + diff_text
        else:
            diff_text = MISSING
        p_text = format_value(p, decimals)
        if paper_spread is not None and key in paper_spread.index and not np.isnan(paper_spread[key]):
            p_text = f"{p_text} ± {format_value(paper_spread[key], decimals)}"
        rows[key] = {"paper": p_text, "ours": text, "difference": diff_text}
    out = pd.DataFrame.from_dict(rows, orient="index")
    if paper_spread is not None:
        out = out.rename(columns={"paper": f"paper (± {spread_label})"})
    if spread is not None:
        out = out.rename(columns={"ours": f"ours (± {spread_label})"})
    return out


def paper_vs_ours(paper, ours, spread=None, *, decimals: int = 3,
                  spread_label: str = "s.e.", index_name: str | None = None,
                  paper_spread=None) -> pd.DataFrame:
    """Render a paper-vs-ours reproduction table.

    Parameters
    ----------
    paper : mapping, Series or DataFrame
        The paper's published values, keyed by row label.  ``None`` or NaN
        means "not reported" and is shown as ``–``.  Rows present in
        ``ours`` but not in ``paper`` are allowed (extra baselines).
    ours : mapping, Series or DataFrame
        Our values (typically a mean over runs), same keys as ``paper``.
    spread : mapping, Series or DataFrame, optional
        Our spread (standard error, standard deviation, ...), printed as
        ``mean ± spread``.
    decimals : int, default=3
        Fixed number of decimals of every printed value.
    spread_label : str, default="s.e."
        What the spread is, shown in the column header.
    index_name : str, optional
        Name of the row index (e.g. ``"method"``).
    paper_spread : mapping or Series, optional
        The paper's own spread (same kind as ``spread``), printed as ``paper ± spread``
        (Series input only).

    Returns
    -------
    pandas.DataFrame
        Strings only, columns ``paper``, ``ours`` and ``difference``
        (ours − paper).  With DataFrame input the columns are a MultiIndex
        (input column, one of those three).

    Examples
    --------
    >>> paper_vs_ours({"ridge": 0.61}, {"ridge": 0.6049}, {"ridge": 0.0123}, decimals=2)
          paper ours (± s.e.) difference
    ridge  0.61   0.60 ± 0.01      -0.01
    """
    if isinstance(ours, pd.DataFrame):
        if not isinstance(paper, pd.DataFrame):
            raise TypeError("with a DataFrame for ours, paper must be a DataFrame too")
        if spread is not None and not isinstance(spread, pd.DataFrame):
            raise TypeError("with a DataFrame for ours, spread must be a DataFrame too")
        missing = [c for c in paper.columns if c not in ours.columns]
        if missing:
            raise ValueError(f"paper columns that ours lacks: {missing}")
        blocks = {
            col: _block(_as_series(paper[col], "paper") if col in paper else
                        pd.Series(np.nan, index=ours.index),
                        ours[col].astype(float),
                        None if spread is None or col not in spread else spread[col].astype(float),
                        decimals, spread_label)
            for col in ours.columns
        }
        out = pd.concat(blocks, axis=1)
    else:
        out = _block(_as_series(paper, "paper"), _as_series(ours, "ours"),
                     _as_series(spread, "spread"), decimals, spread_label,
                     _as_series(paper_spread, "paper_spread"))
    if index_name is not None:
        out.index.name = index_name
    return out


def rank_order(values, *, higher_is_better: bool, decimals: int = 2) -> str:
    """Methods from best to worst, ties (equal after rounding to ``decimals``) joined by ``=``.

    Parameters
    ----------
    values : mapping or Series
        Score of each method.
    higher_is_better : bool
    decimals : int, default=2
        Precision at which two scores count as equal (the precision the table prints).

    Returns
    -------
    str

    Examples
    --------
    >>> rank_order({"a": 1.004, "b": 2.0, "c": 1.0}, higher_is_better=True)
    'b > a = c'
    """
    s = _as_series(values, "values").round(decimals)
    groups = s.groupby(s, sort=True)
    keys = sorted(groups.groups, reverse=higher_is_better)
    return " > ".join(" = ".join(sorted(groups.get_group(k).index, key=list(s.index).index)) for k in keys)


def compare_rankings(paper, ours, *, higher_is_better: bool, decimals: int = 2) -> dict:
    """Compare the paper's ranking of methods with ours, pair by pair, counting ties apart.

    Each pair of methods (present in both) is one of: ``agree`` (same strict order),
    ``reversed`` (opposite strict order), ``tied in ours`` (equal after rounding ours to
    ``decimals``, the paper strict) or ``tied in paper`` (the paper's values equal).

    Parameters
    ----------
    paper, ours : mapping or Series
    higher_is_better : bool
    decimals : int, default=2

    Returns
    -------
    dict with ``"paper order"``, ``"our order"`` (as :func:`rank_order`), the four pair counts
    and ``"pairs"`` (their total).

    Examples
    --------
    >>> r = compare_rankings({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 1, "c": 0}, higher_is_better=True)
    >>> r["agree"], r["reversed"], r["tied in ours"]
    (0, 2, 1)
    """
    p = _as_series(paper, "paper").round(decimals)
    o = _as_series(ours, "ours").round(decimals)
    names = [k for k in p.index if k in o.index]
    counts = {"agree": 0, "reversed": 0, "tied in ours": 0, "tied in paper": 0}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            sp, so = np.sign(p[a] - p[b]), np.sign(o[a] - o[b])
            if sp == 0:
                counts["tied in paper"] += 1
            elif so == 0:
                counts["tied in ours"] += 1
            else:
                counts["agree" if sp == so else "reversed"] += 1
    return {"paper order": rank_order(p[names], higher_is_better=higher_is_better, decimals=decimals),
            "our order": rank_order(o[names], higher_is_better=higher_is_better, decimals=decimals),
            **counts, "pairs": sum(counts.values())}


class Table(Styler):
    """A :class:`pandas.io.formats.style.Styler` whose plain-text form names its caption.

    A notebook stores a displayed object's ``repr`` beside its HTML; a plain ``Styler`` shows its
    memory address there, so every re-execution changed the stored notebook even when the table
    did not.  ``Table`` prints ``<table: caption>`` instead: an unchanged table gives an unchanged
    notebook file.
    """

    def __repr__(self) -> str:
        return f"<table: {self.caption}>" if self.caption else "<table>"


def captioned(table: pd.DataFrame, caption: str, *, decimals: int = 2, missing: str = "—",
              index: bool = True) -> Table:
    """A table ready to display under a caption: floats with ``decimals`` decimals, integers as
    integers, missing values as ``missing``, deterministic HTML (a fixed table id derived from
    the caption, so ``pytest --nbval`` sees the same output on every run) and a stable plain-text
    form (:class:`Table`).

    Parameters
    ----------
    table : pandas.DataFrame
    caption : str
        Shown above the table; name the paper's table it reproduces.
    decimals : int, default=2
    missing : str, default="—"
    index : bool, default=True
        Whether the row index is shown.

    Returns
    -------
    Table
    """
    import hashlib

    def fmt(v):
        if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
            return missing
        if isinstance(v, (bool, np.bool_, str)):
            return str(v)
        if isinstance(v, (int, np.integer)):
            return str(int(v))
        if isinstance(v, (float, np.floating)):
            return format_value(v, decimals)
        return str(v)

    uuid = hashlib.sha256(caption.encode("utf-8")).hexdigest()[:8]
    styler = (Table(table).format(fmt).set_caption(caption).set_uuid(uuid)
              .set_table_styles([{"selector": "caption",
                                  "props": "caption-side: top; text-align: left; font-weight: bold;"}]))
    return styler if index else styler.hide(axis="index")


def styled_table(df, caption, *, decimals=3, percent=(), sci=(), uuid=None):
    """A table for a chapter: caption, no index, integers as integers, "—" for missing.

    Parameters
    ----------
    df : pandas.DataFrame
        Integer columns (also nullable ``Int64``) and Python ints print as integers, floats
        with ``decimals`` decimals, missing values as "—", booleans as yes/no; a string may
        wrap after "+" (long feature-set labels).
    caption : str
    decimals : int
    percent : sequence of str
        Columns printed with one decimal.
    sci : sequence of str
        Columns printed in scientific notation (p-values).
    uuid : str, optional
        HTML id; default derived from the caption (stable output).

    Returns
    -------
    Table
        A Styler with a stable plain-text form.

    Examples
    --------
    >>> import pandas as pd
    >>> t = styled_table(pd.DataFrame({"set": ["a+b"], "n": [3], "p": [0.0012], "ok": [True]}),
    ...                  "Example", sci=("p",))
    >>> t
    <table: Example>
    >>> "1.2e-03" in t.to_html() and "yes" in t.to_html()
    True
    """
    def fmt(v, col):
        if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)):
            return "—"
        if isinstance(v, (bool, np.bool_)):
            return "yes" if v else "no"
        if isinstance(v, (int, np.integer)):
            return str(int(v))
        if isinstance(v, (float, np.floating)):
            if col in sci:
                return f"{v:.1e}"
            text = f"{v:.{1 if col in percent else decimals}f}"
            return text.lstrip("-") if float(text) == 0 else text
        return str(v).replace("+", "+\u200b")   # set labels may wrap after "+"

    shown = df.reset_index(drop=True)
    styler = Table(shown).format({c: functools.partial(fmt, col=c) for c in shown.columns})
    styler = styler.hide(axis="index").set_caption(caption)
    styler = styler.set_table_styles([
        {"selector": "", "props": "font-size: 0.85em; border-collapse: collapse;"},
        {"selector": "caption", "props": "caption-side: top; text-align: left; "
                                         "font-weight: bold; padding-bottom: 0.3em;"},
        {"selector": "th, td", "props": "padding: 0.15em 0.5em; text-align: right;"}])
    key = uuid or "t" + hashlib.sha256(caption.encode()).hexdigest()[:10]
    return styler.set_uuid(key)


# --- prose helpers: the one place chapters take them from ---------------------------------------

def join_words(items, *, empty: str = "none") -> str:
    """``'a'``, ``'a and b'``, ``'a, b and c'``; ``empty`` for no item.

    Examples
    --------
    >>> from fsbook.report import join_words
    >>> join_words(["wine", "glass", "DEXTER"]), join_words([]), join_words(["wine"])
    ('wine, glass and DEXTER', 'none', 'wine')
    """
    items = [str(i) for i in items]
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _indent(line: str) -> str | None:
    """The leading spaces of an indented line; ``None`` for an unindented or blank one."""
    return line[:len(line) - len(line.lstrip())] if line.strip() and line[0].isspace() else None


def refill(text: str, width: int = 76) -> str:
    """``text`` refilled to ``width`` characters, so that printed output fits the page.

    An unindented line is wrapped on its own, its continuation lines indented by two spaces; a
    run of lines with the same indent is one paragraph, joined and wrapped at that indent. Blank
    lines stay; words longer than ``width`` (paths, hashes) and hyphenated words stay whole.

    Parameters
    ----------
    text : str
    width : int, default=76

    Returns
    -------
    str

    Examples
    --------
    >>> from fsbook.report import refill
    >>> print(refill("Shape: 155 samples x 19 features\\n\\nNotes:\\n  one\\n  two three", width=14))
    Shape: 155
      samples x 19
      features
    <BLANKLINE>
    Notes:
      one two
      three
    """
    out = []
    for indent, lines in itertools.groupby(text.split("\n"), key=_indent):
        if indent is None:
            out += [textwrap.fill(line, width, subsequent_indent="  ", break_long_words=False,
                                  break_on_hyphens=False) for line in lines]
        else:
            out.append(textwrap.fill(" ".join(line.strip() for line in lines), width, initial_indent=indent,
                                     subsequent_indent=indent, break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


def spaced(n) -> str:
    """An integer with its thousands separated by a space, as the book prints counts.

    Examples
    --------
    >>> from fsbook.report import spaced
    >>> spaced(73262), spaced(12)
    ('73 262', '12')
    """
    if isinstance(n, float) and not float(n).is_integer():
        raise ValueError(f"spaced() prints counts; got the non-integer {n!r}")
    return f"{int(n):,}".replace(",", " ")


def percent(fraction, decimals: int = 1) -> str:
    """A fraction as a percentage with ``decimals`` decimals (``0.118`` → ``'11.8 %'``).

    Examples
    --------
    >>> from fsbook.report import percent
    >>> percent(134 / 1140)
    '11.8 %'
    """
    return f"{format_value(100.0 * float(fraction), decimals)} %"


def format_p(p) -> str:
    """A p-value for prose: ``'p < 0.001'``; three significant digits below 0.1, so a value near the
    0.05 level never prints on its other side; two decimals from 0.1 up; ``'p undefined'`` for NaN.

    Examples
    --------
    >>> from fsbook.report import format_p
    >>> format_p(0.0123), format_p(0.0498), format_p(0.0502), format_p(0.437), format_p(2e-7)
    ('p = 0.0123', 'p = 0.0498', 'p = 0.0502', 'p = 0.44', 'p < 0.001')
    >>> format_p(float("nan"))
    'p undefined'
    """
    p = float(p)
    if math.isnan(p):
        return "p undefined"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2f}" if p >= 0.1 else f"p = {p:.3g}"


_SINGULAR = {"runs": "run", "pairs": "pair", "splits": "split", "folds": "fold", "data sets": "data set",
             "tasks": "task"}


def with_unit(n, unit: str) -> str:
    """``'1 data set'``, ``'4 folds'``: a count with its unit in the right number.

    Examples
    --------
    >>> from fsbook.report import with_unit
    >>> with_unit(1, "data sets"), with_unit(500, "runs")
    ('1 data set', '500 runs')
    """
    n = int(n)
    return f"{n} {_SINGULAR.get(unit, unit) if n == 1 else unit}"


#: the verb of each claim verdict with the claim as its subject, singular; a claim that holds by
#: less than its margin is "holds, below margin"
VERDICT_VERB = {"holds": "holds", "holds, below margin": "holds by less than its margin", "fails": "fails",
                "no gain": "shows no gain", "not separable": "is not separable"}
#: the same verbs, plural
VERDICT_VERB_PLURAL = {"holds": "hold", "holds, below margin": "hold by less than their margin", "fails": "fail",
                       "no gain": "show no gain", "not separable": "are not separable"}


def tally(verdicts):
    """How many verdicts hold, fail, show no gain (only when some do) and are not separable, in words.

    Examples
    --------
    >>> from fsbook.report import tally
    >>> tally(["fails"] + ["not separable"] * 20)
    'none holds, 1 fails and 20 are not separable'
    >>> tally(["fails", "no gain"] + ["not separable"] * 20)
    'none holds, 1 fails, 1 shows no gain and 20 are not separable'
    """
    from fsbook.claims import verdict_counts

    c = verdict_counts(verdicts)

    def word(n, one, many):
        return f"{'none' if n == 0 else n} {one if n <= 1 else many}"

    parts = [word(c["holds"], "holds", "hold"), word(c["fails"], "fails", "fail")]
    if c["no gain"]:
        parts.append(word(c["no gain"], "shows no gain", "show no gain"))
    return f"{', '.join(parts)} and {word(c['not separable'], 'is not separable', 'are not separable')}"


def describe_claim(row, *, decimals: int = 2, units: str = "") -> str:
    """One claims-table row as prose: verdict, effect with its 95 % interval, test, units in the
    paper's direction, and p.

    Parameters
    ----------
    row : mapping
        A row of :func:`fsbook.claims.claims_table`.
    decimals : int
        Decimals of the effect (the metric's printed precision).
    units : str
        The effect's unit ("points", "%"), appended after the number.

    Returns
    -------
    str

    Examples
    --------
    >>> from fsbook.report import describe_claim
    >>> describe_claim({"verdict": "holds", "effect": 0.2251, "ci_low": 0.156, "ci_high": 0.294,
    ...                 "test": "paired_t", "p_adj": 1e-5, "n": 500, "n_direction": 341, "unit": "runs"},
    ...                units="points")
    "holds (+0.23 points, 95 % CI [+0.16, +0.29], paired t, 341 of 500 runs in the paper's direction, p < 0.001)"
    """
    effect = float(row["effect"])
    lo, hi = float(row.get("ci_low", float("nan"))), float(row.get("ci_high", float("nan")))
    unit = f" {units}" if units else ""
    if math.isnan(effect):
        size = ""
    elif math.isnan(lo) or math.isnan(hi):
        size = f"{effect:+.{decimals}f}{unit}, "
    else:
        size = f"{effect:+.{decimals}f}{unit}, 95 % CI [{lo:+.{decimals}f}, {hi:+.{decimals}f}], "
    test = TEST_NAMES.get(row["test"], row["test"])
    k = row.get("n_direction", float("nan"))
    if k is not None and not (isinstance(k, float) and math.isnan(k)):
        count = f"{int(k)} of {with_unit(row['n'], row['unit'])} in the paper's direction"
    else:
        count = f"over {with_unit(row['n'], row['unit'])}"
    verdict = row["verdict"] + (f", {row['size']}" if isinstance(row.get("size"), str) and row.get("size") else "")
    return f"{verdict} ({size}{test}, {count}, {format_p(row['p_adj'])})"


#: how the claims tests are named in prose
TEST_NAMES = {"corrected_t": "corrected resampled t", "5x2cv_f": "5 × 2 CV F test", "paired_t": "paired t",
              "repeated_cv_t": "paired t over repetitions", "sign": "exact sign test",
              "wilcoxon": "Wilcoxon signed-rank", "count rule": "count rule"}


def _direction(r) -> str:
    """``'18 of 20'``: the units in the paper's direction, where the row counts them."""
    k = r.get("n_direction", float("nan"))
    try:
        return "—" if k is None or math.isnan(float(k)) else f"{int(k)} of {int(r['n'])}"
    except (TypeError, ValueError):
        return "—"


def _verdict_cell(r) -> str:
    size = r.get("size") if isinstance(r.get("size"), str) else ""
    verdict = r["verdict"] + (f", {size}" if size else "")
    return verdict + (f" ({r['note']})" if r.get("note") else "")


def claims_display(claims: pd.DataFrame, caption: str, *, decimals: int = 2) -> Table:
    """A claims table (:func:`fsbook.claims.claims_table`) as a captioned table for a page:
    the claim, n and unit, the units in the paper's direction, the effect with its 95 % interval,
    the test, Holm-adjusted p and the verdict (with ``below margin`` where it holds by less than
    the claim's margin)."""
    rows = []
    for _, r in claims.iterrows():
        effect = "—" if math.isnan(float(r["effect"])) else f"{float(r['effect']):+.{decimals}f}"
        ci = ("—" if math.isnan(float(r["ci_low"])) else
              f"[{float(r['ci_low']):+.{decimals}f}, {float(r['ci_high']):+.{decimals}f}]")
        rows.append({"claim": r["claim"], "n": with_unit(r["n"], r["unit"]), "in direction": _direction(r),
                     "effect": effect, "95 % CI": ci,
                     "test": TEST_NAMES.get(r["test"], r["test"]),
                     "p (Holm)": "—" if math.isnan(float(r["p_adj"])) else format_p(r["p_adj"]).removeprefix("p ")
                     .removeprefix("= "),
                     "verdict": _verdict_cell(r)})
    return styled_table(pd.DataFrame(rows), caption)


def claims_pivot(claims: pd.DataFrame, caption: str, *, rows: str = "dataset", columns: str = "claim",
                 decimals: int = 2, labels: Mapping | None = None) -> Table:
    """Per-unit claims (one row per claim and, say, data set) as a compact captioned grid: one cell
    per ``(rows, columns)`` pair reading ``effect ± se: verdict`` (``effect: verdict`` without an
    uncertainty, the note where the claim was untestable).

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.report import claims_pivot
    >>> c = pd.DataFrame({"dataset": ["a", "b"], "claim": ["x", "x"], "effect": [1.234, 0.5],
    ...                   "se": [0.2, float("nan")], "verdict": ["holds", "not separable"],
    ...                   "p": [0.01, float("nan")], "note": ["", "one split: untestable"]})
    >>> claims_pivot(c, "Claims").data.to_numpy().tolist()
    [['+1.23 ± 0.20: holds'], ['+0.50: not separable (one split: untestable)']]
    """
    def cell(r):
        effect, se = float(r["effect"]), float(r.get("se", float("nan")))
        size = "" if math.isnan(effect) else (
            f"{effect:+.{decimals}f}" + ("" if math.isnan(se) else f" ± {format_value(se, decimals)}") + ": ")
        note = f" ({r['note']})" if r.get("note") and math.isnan(float(r.get("p", float("nan")))) else ""
        return f"{size}{r['verdict']}{note}"

    grid = claims.assign(_cell=[cell(r) for _, r in claims.iterrows()]).pivot(
        index=rows, columns=columns, values="_cell")
    grid = grid.reindex(index=list(dict.fromkeys(claims[rows])), columns=list(dict.fromkeys(claims[columns])))
    if labels:
        grid = grid.rename(index=labels, columns=labels)
    return captioned(grid, caption, missing="—")

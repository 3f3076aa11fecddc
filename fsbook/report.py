"""Paper-vs-ours reproduction tables.

Every chapter prints the paper's published numbers beside the numbers its
notebook has just computed.  :func:`paper_vs_ours` renders such a table
deterministically: the values are formatted as strings with a fixed number
of decimals, so that the HTML the notebook shows (and that ``pytest --nbval``
compares) does not change with the last bits of a floating-point sum.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["paper_vs_ours", "format_value"]

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
           decimals: int, spread_label: str) -> pd.DataFrame:
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
        rows[key] = {"paper": format_value(p, decimals), "ours": text, "difference": diff_text}
    out = pd.DataFrame.from_dict(rows, orient="index")
    if spread is not None:
        out = out.rename(columns={"ours": f"ours (± {spread_label})"})
    return out


def paper_vs_ours(paper, ours, spread=None, *, decimals: int = 3,
                  spread_label: str = "s.e.", index_name: str | None = None) -> pd.DataFrame:
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
                     _as_series(spread, "spread"), decimals, spread_label)
    if index_name is not None:
        out.index.name = index_name
    return out

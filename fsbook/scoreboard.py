"""One scoreboard of every claim of every paper the book reproduces.

Each chapter's protocol decides its paper's claims (its ``PROTOCOL.claims(results)``, on its
complete store) with the one rule of :mod:`fsbook.claims`.
:func:`scoreboard` gathers them into one table, :func:`verdict_summary` counts the verdicts per
chapter, and :func:`verdict_strip` draws every claim's standardised effect, by chapter or, at the
head of each chapter, by table of claims (with :func:`family_summary`).

Examples
--------
>>> from fsbook.scoreboard import CHAPTERS
>>> [c.protocols for c in CHAPTERS][:2]
[('projection', 'projection_text'), ('l1linf',)]
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fsbook.claims import VERDICTS
from fsbook.experiments._runner import load_protocol

__all__ = ["Chapter", "CHAPTERS", "chapter_claims", "family_summary", "scoreboard", "verdict_summary", "chapter_rows",
           "agreement_board", "agreement_summary",
           "verdict_strip",
           "SCOREBOARD_COLUMNS"]


@dataclass(frozen=True)
class Chapter:
    """A chapter of the book: its number, the paper's short title and the protocols whose
    ``PROTOCOL.claims(results)`` decide the paper's claims."""

    number: int
    paper: str
    protocols: tuple
    #: why the chapter sets no printed number of its paper against ours, where it does not
    no_agreement: str = ""


#: the chapters whose protocols decide claims, in book order
CHAPTERS = (
    Chapter(1, "Projection penalties", ("projection", "projection_text")),
    Chapter(2, "ℓ1/ℓ∞ feature selection", ("l1linf",)),
    Chapter(3, "Kernel design by linear programming", ("kernel_design",),
            no_agreement="the paper gives its results as figures, without printed numbers"),
    Chapter(4, "Geometric ratios", ("geometry",),
            no_agreement="its Tables 4-6 test each of the paper's metrics against ours in the chapter "
                         "(exact binomial tests)"),
    Chapter(6, "Disjunctive HKL", ("hkl",)),
    Chapter(7, "All methods under one protocol", ("benchmark", "selection_suite"),
            no_agreement="the book's own comparison: no paper prints its numbers"),
)

#: the columns of :func:`scoreboard`
SCOREBOARD_COLUMNS = ["chapter", "paper", "protocol", "table", "claim", "dataset", "unit", "n", "n_direction",
                      "effect", "ci_low", "ci_high", "test", "p_adj", "verdict", "size", "note"]


def chapter_claims(chapter: Chapter, read=None) -> pd.DataFrame:
    """The claims of one chapter: every protocol's ``claims`` on its complete store, in the
    columns :data:`SCOREBOARD_COLUMNS`.

    Parameters
    ----------
    chapter : Chapter
    read : callable, optional
        ``read(protocol_name)`` returning the stored results; default
        :func:`fsbook.experiments._reading.read_store`.
    """
    if read is None:
        from fsbook.experiments._reading import read_store as read
    frames = []
    for name in chapter.protocols:
        t = load_protocol(name).claims(read(name)).copy()
        t["chapter"], t["paper"], t["protocol"] = chapter.number, chapter.paper, name
        frames.append(t)
    out = pd.concat(frames, ignore_index=True)
    for col in SCOREBOARD_COLUMNS:
        if col not in out.columns:
            out[col] = "" if col in ("dataset", "size", "note") else np.nan
    out["dataset"] = out["dataset"].fillna("").astype(str)
    return out[SCOREBOARD_COLUMNS]


def scoreboard(chapters=CHAPTERS, read=None) -> pd.DataFrame:
    """Every claim of every chapter (:func:`chapter_claims`), in book order."""
    return pd.concat([chapter_claims(c, read) for c in chapters], ignore_index=True)


def agreement_board(chapters=CHAPTERS, read=None) -> pd.DataFrame:
    """Every printed paper number set against ours: the rows of each protocol's
    ``PROTOCOL.agreement(results)`` (:func:`fsbook.claims.agreement` per number), for the protocols
    that define one, with ``chapter`` and ``paper``."""
    if read is None:
        from fsbook.experiments._reading import read_store as read
    frames = []
    for chapter in chapters:
        for name in chapter.protocols:
            agreement = load_protocol(name).agreement
            if agreement is not None:
                t = agreement(read(name)).copy()
                t["chapter"], t["paper"], t["protocol"] = chapter.number, chapter.paper, name
                frames.append(t)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["chapter", "agreement"])


def agreement_summary(board: pd.DataFrame) -> pd.DataFrame:
    """Printed paper numbers per chapter that agree with ours, differ, or are inconclusive.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.scoreboard import agreement_summary
    >>> b = pd.DataFrame({"chapter": [1, 1], "paper": ["P", "P"], "agreement": ["differs", "agrees"]})
    >>> agreement_summary(b).loc[1, ["agrees", "differs", "inconclusive", "numbers"]].tolist()
    [1, 1, 0, 2]
    """
    from fsbook.claims import AGREES, DIFFERS, INCONCLUSIVE

    counts = pd.crosstab(board["chapter"], board["agreement"]).reindex(columns=[AGREES, DIFFERS, INCONCLUSIVE],
                                                                         fill_value=0)
    counts["numbers"] = counts.sum(axis=1)
    counts.insert(0, "paper", board.groupby("chapter")["paper"].first())
    return counts


def verdict_summary(board: pd.DataFrame) -> pd.DataFrame:
    """Claims per chapter and verdict (rows: chapters; columns: the verdicts and ``claims``).

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.scoreboard import verdict_summary
    >>> b = pd.DataFrame({"chapter": [1, 1, 2], "paper": ["P", "P", "Q"],
    ...                   "verdict": ["holds", "not separable", "fails"]})
    >>> verdict_summary(b).loc[1, ["holds", "fails", "claims"]].tolist()
    [1, 0, 2]
    """
    counts = pd.crosstab(board["chapter"], board["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    counts["claims"] = counts.sum(axis=1)
    counts.insert(0, "paper", board.groupby("chapter")["paper"].first())
    return counts


def _interval(r, decimals):
    lo, hi = float(r["ci_low"]), float(r["ci_high"])
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "—"
    return f"[{lo:+.{decimals}f}, {hi:+.{decimals}f}]"


def chapter_rows(board: pd.DataFrame, chapter: int, *, decimals: int = 2) -> pd.DataFrame:
    """The scoreboard's rows of one chapter as printed strings: table, claim (with its data set),
    effect with its 95 % interval, units in the paper's direction, and verdict.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.scoreboard import chapter_rows
    >>> b = pd.DataFrame({"chapter": [1], "table": ["Table 1"], "claim": ["A above B"], "dataset": ["wine"],
    ...                   "effect": [1.234], "ci_low": [0.5], "ci_high": [2.0], "n": [20], "n_direction": [17],
    ...                   "unit": ["runs"], "verdict": ["holds"], "size": [""], "note": [""]})
    >>> chapter_rows(b, 1).iloc[0].tolist()
    ['Table 1', 'A above B (wine)', '+1.23 [+0.50, +2.00]', '17 of 20 runs', 'holds']
    """
    rows = board[board["chapter"] == chapter]
    out = []
    for _, r in rows.iterrows():
        eff = float(r["effect"])
        k = r["n_direction"]
        direction = ("—" if k is None or (isinstance(k, float) and np.isnan(k)) or not np.isfinite(float(r["n"]))
                     else f"{int(k)} of {int(r['n'])} {r['unit']}")
        size = r["size"] if isinstance(r["size"], str) and r["size"] else ""
        interval = _interval(r, decimals)
        effect = "—" if not np.isfinite(eff) else f"{eff:+.{decimals}f}" + ("" if interval == "—" else f" {interval}")
        claim = r["claim"] if not r["dataset"] or str(r["dataset"]) in str(r["claim"]) else f"{r['claim']} ({r['dataset']})"
        out.append({"table": r["table"], "claim": claim, "effect [95 % CI]": effect, "in direction": direction,
                    "verdict": r["verdict"] + (f", {size}" if size else "")})
    return pd.DataFrame(out, columns=["table", "claim", "effect [95 % CI]", "in direction", "verdict"])


def verdict_strip(board: pd.DataFrame, ax=None, *, by="chapter"):
    """Every testable claim as one dot: its effect over its 95 % half-interval (so ±1 is the edge
    of significance before the family's correction), one row per chapter (``by="chapter"``) or per
    family (``by="table"``), coloured by verdict: a forest plot of standardised paired effects.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    half = (board["ci_high"].astype(float) - board["ci_low"].astype(float)) / 2
    z = board["effect"].astype(float) / half
    ok = np.isfinite(z.to_numpy()) & np.isfinite(half.to_numpy()) & (half.to_numpy() > 0)
    b = board[ok].assign(z=np.clip(z[ok], -6, 6))
    groups = list(dict.fromkeys(board[by]))
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 0.42 * len(groups) + 1.3))
    colours = {"holds": "C0", "fails": "C3", "no gain": "C2", "not separable": "0.6"}
    jitter = np.random.default_rng(0).uniform(-0.22, 0.22, len(b))
    rows = np.array([groups.index(g) for g in b[by]])
    for verdict, colour in colours.items():
        sel = (b["verdict"] == verdict).to_numpy()
        ax.plot(b["z"].to_numpy()[sel], rows[sel] + jitter[sel], "o", ms=3, alpha=0.7, color=colour,
                label=verdict)
    ax.axvline(0, color="0.2", lw=0.8)
    for x in (-1, 1):
        ax.axvline(x, color="0.6", lw=0.6, ls=":")
    labels = [f"chapter {g}" for g in groups] if by == "chapter" else [str(g) for g in groups]
    ax.set_yticks(range(len(groups)), labels, fontsize=8 if by != "chapter" else None)
    ax.set_ylim(len(groups) - 0.5, -0.5)
    ax.set_xlabel("effect in the paper's direction ÷ half its 95 % interval (clipped at ±6)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False)
    return ax


def family_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts per family (``table``) of one chapter's claims, in the chapter's order.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.scoreboard import family_summary
    >>> r = pd.DataFrame({"table": ["T1", "T1", "T2"], "verdict": ["holds", "fails", "holds"]})
    >>> family_summary(r).values.tolist()
    [['T1', 1, 1, 0, 0, 2], ['T2', 1, 0, 0, 0, 1]]
    """
    order = list(dict.fromkeys(rows["table"]))
    counts = pd.crosstab(rows["table"], rows["verdict"]).reindex(index=order, columns=list(VERDICTS), fill_value=0)
    counts["claims"] = counts.sum(axis=1)
    return counts.rename_axis("family").reset_index().rename_axis(None, axis=1)

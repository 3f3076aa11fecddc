"""The numbers and verdicts chapter 7's "which selector, when" page quotes, as functions of the
stored ``selection_suite`` protocol."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments.selection_suite import paper as S
from fsbook.experiments.selection_suite.analysis import _pts, which_selector
from fsbook.report import join_words

__all__ = ["facts", "MARKDOWN_FACTS", "PAPER_METHODS"]

#: the papers' selectors on the page, with the chapter that derives each
PAPER_METHODS = {"LDFS": "02_l1linf_feature_selection", "HSFS": "02_l1linf_feature_selection",
                 "WK-LP": "03_lp_kernel_design", "GeoRatio": "04_geometric_ratios", "HKL": "05_disjunctive_hkl"}


def _row_words(r):
    """"MI (+1.2 points, 95 % interval [+0.4, +2.0], 30 data sets)"; "MI (+1.2 points on 4 data
    sets, too few to test)" where the interval is undefined."""
    if not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])):
        n = int(r["n"])
        return f"{r['method']} ({_pts(r['effect'])} points on {n} data set{'s' if n != 1 else ''}, too few to test)"
    return (f"{r['method']} ({_pts(r['effect'])} points, 95 % interval [{_pts(r['ci_low'])}, "
            f"{_pts(r['ci_high'])}], {int(r['n'])} data sets)")


def _bullets(rows):
    """A markdown list of :func:`_row_words`, one selector an item."""
    return "\n".join(f"- {_row_words(r)}" for _, r in rows.iterrows())


def _margin_facts(claims_table):
    """The declared margins of the page's claims (:func:`fsbook.experiments.selection_suite.claims.order_margins`) and the verdicts they give, in words.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"scope": ["", "", "all"], "dataset": ["a", "b", ""], "margin": [0.1, 2.0, 0.6],
    ...                   "verdict": ["no gain", "holds", "fails"], "size": ["", "below margin", ""]})
    >>> f = _margin_facts(t)
    >>> f["ws_margins"], f["ws_margin_over"]
    ('0.10 points on a (one of 1 000 test samples) to 2.00 points on b (one of 50)', '0.60')
    >>> f["ws_margin_verdicts"]
    'On one data set, 1 comparison shows no gain within its margin and 1 holds by less than its margin.'
    """
    per = claims_table[claims_table["scope"] == ""]
    margin = per.drop_duplicates("dataset").set_index("dataset")["margin"].astype(float)
    over = claims_table.loc[claims_table["scope"] == "all", "margin"].astype(float)
    lo, hi = margin.idxmin(), margin.idxmax()
    no_gain = int((per["verdict"] == "no gain").sum())
    below = int((per["size"] == "below margin").sum())
    over_words = (f"{over.iloc[0]:.2f}" if np.allclose(over, over.iloc[0]) else
                  f"{over.min():.2f} to {over.max():.2f}")
    return {
        "ws_margins": (f"{margin[lo]:.2f} points on {lo} (one of {100 / margin[lo]:,.0f} test samples) to "
                       f"{margin[hi]:.2f} points on {hi} (one of {100 / margin[hi]:,.0f})").replace(",", " "),
        "ws_margin_over": over_words,
        "ws_margin_verdicts": (f"On one data set, {_count(no_gain, 'comparison shows', 'comparisons show')} "
                               f"no gain within {'its' if no_gain == 1 else 'their'} margin and "
                               f"{_count(below, 'holds', 'hold')} by less than {'its' if below == 1 else 'their'} "
                               "margin."),
    }


def _count(n, one, many):
    """'1 comparison shows', '0 comparisons show'."""
    return f"{n} {one if n == 1 else many}"


#: the facts of :func:`facts` that are markdown blocks (lists), to be glued as ``Markdown`` and shown
#: with the ``{glue:md}`` directive; every other fact is inline text
MARKDOWN_FACTS = ("ws_all_sentence", "ws_when_sentence", "ws_conclusion_papers")


def facts(results, design, claims_table):
    """Every number and verdict the page's prose quotes, as glue keys to text.

    Parameters
    ----------
    results : ProtocolResult
        The stored protocol.
    design : DataFrame
        :func:`fsbook.experiments.selection_suite.paper`.
    claims_table : DataFrame
        :func:`fsbook.experiments.selection_suite.claims.claims` of ``results``.

    Returns
    -------
    dict of str to str
    """
    over = claims_table[claims_table["scope"] != ""]
    everywhere = over[over["scope"] == "all"].sort_values("effect", ascending=False)
    above, below = everywhere[everywhere["verdict"] == "holds"], everywhere[everywhere["verdict"] == "fails"]
    between = everywhere[~everywhere["verdict"].isin(["holds", "fails"])]
    domains = [d for d in S.DOMAINS if (design["domain"] == d).any()]
    out = {
        "ws_n_datasets": str(len(design)), "ws_n_domains": str(len(domains)),
        "ws_domains": join_words([f"{d} ({int((design['domain'] == d).sum())})" for d in domains]),
        "ws_n_selectors": str(len([m for m in S.METHODS if m != "none"])),
        "ws_cv": f"{S.REPEATS} repetitions of {S.N_FOLDS}-fold cross-validation",
        "ws_n_repeats": str(S.REPEATS), "ws_max_samples": f"{S.MAX_SAMPLES:,}".replace(",", " "),
        "ws_rank_fraction": f"{S.RANK_FRACTION:.0%}", "ws_width_cap": str(S.WIDTH_CAP),
        "ws_fractions": join_words([f"{f:.0%}" for f in S.FRACTIONS]),
    }
    out.update(_margin_facts(claims_table))
    out["ws_all_sentence"] = "\n\n".join(b for b in [
        f"Over every data set, decided above all features:\n\n{_bullets(above)}" if len(above) else
        "Over every data set, no selector is decided above all features.",
        f"Decided below all features:\n\n{_bullets(below)}" if len(below) else "None is decided below.",
        f"Not separated from all features: {join_words(between['method'].tolist())}." if len(between) else ""]
        if b)
    when = which_selector(over)
    parts = []
    for _, r in when.iterrows():
        if r["scope"] == "all" or not (r["above all features"] or r["below all features"]):
            continue
        bits = [f"above all features {r['above all features']}" if r["above all features"] else "",
                f"below {r['below all features']}" if r["below all features"] else ""]
        parts.append(f"- on {r['scope']} ({r['data sets']} data sets): " + "; ".join(b for b in bits if b))
    undecided = [r["scope"] for _, r in when.iterrows()
                 if r["scope"] != "all" and not (r["above all features"] or r["below all features"])]
    out["ws_when_sentence"] = (
        ("Decided per domain and shape (effects in points):\n\n" + "\n".join(parts) + "\n\n" if parts else
         "No domain or shape decides any selector against all features. ")
        + (f"No selector is decided either way on {join_words(undecided)}." if undecided else ""))
    out["ws_overview"] = (
        f"Over all {len(design)} data sets, {len(above)} of {len(everywhere)} selectors are decided above "
        f"the SVM on all features and {len(below)} below it; the rest are not separated. "
        f"The table in the section *Which selector, when* gives the answer per domain and per shape.")
    paper_rows = []
    for m in PAPER_METHODS:
        r = everywhere[everywhere["method"] == m]
        ran = int(r["n"].iloc[0]) if len(r) else 0
        skipped = len(design) - ran
        verdict = ("above all features" if len(r) and r["verdict"].iloc[0] == "holds" else
                   "below all features" if len(r) and r["verdict"].iloc[0] == "fails" else
                   "not separated from all features")
        where = f"; it did not run on {skipped} (see *What does not run*)" if skipped else ""
        paper_rows.append(f"- {_row_words(r.iloc[0])} is {verdict} over the data sets where it ran{where}"
                          if len(r) else f"- {m} ran on none of the data sets (see *What does not run*)")
    out["ws_conclusion_papers"] = "On data their papers never used:\n\n" + "\n".join(paper_rows)
    cpu = pd.Series([c for c in results.cpu_seconds if c is not None], dtype=float)
    med = results.tables["cost"].groupby("method")["fit_cpu"].median().drop("none", errors="ignore")
    out["ws_conclusion_cost"] = (
        f"The store holds {len(results.params):,} tasks".replace(",", " ")
        + f" and cost {cpu.sum() / 3600:.2f} CPU-hours of recorded task time"
        + (f" ({len(cpu)} tasks timed)" if len(cpu) < len(results.params) else "")
        + f". The cheapest selector by median fit time per task is {med.idxmin()} "
          f"({med.min():.2g} CPU s), the dearest {med.idxmax()} ({med.max():.2g} CPU s).")
    return out

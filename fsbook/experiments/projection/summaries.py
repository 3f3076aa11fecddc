"""The chapter's tables computed from the stores, which its facts and its displays read.

The claims and the paper-vs-ours agreement of both stores (:func:`chapter_claims`,
:func:`chapter_agreement`, :func:`chapter_d_claims`), the stores' coverage and recorded time per
part (:func:`store_parts`, :func:`cost_table`), the text tables at the paper's topic count and
their chance-level tasks (:func:`news_tables`, :func:`chance_table`), the ρ sweep per reducer
(:func:`rho_summary`) and both tie rules of the live check (:func:`tie_rule_table`).
"""

import numpy as np
import pandas as pd

from fsbook.decisions import argbest
from fsbook.experiments.projection import text as projection_text
from fsbook.experiments.projection.claims import agreement_table, claims, with_margins
from fsbook.experiments.projection.paper import (
    GRID,
    NEWS_FRACS,
    YALE_RHO,
)
from fsbook.experiments.projection.tables import store_coverage

#: each text table's fraction of the training documents, as the prose writes it
FRAC = {t: f"{int(f * 100)} %" for t, f in NEWS_FRACS.items()}


def chapter_claims(res, res_text):
    """Every order claim of the chapter: Tables 1 and 5-7, then Tables 2-4."""
    return pd.concat([claims(res), projection_text.claims(res_text)], ignore_index=True)


def chapter_d_claims(res_text):
    """The paper's choice of d as claims (:func:`fsbook.experiments.projection.text.
    topic_count_claims`), with the margin of their table's order claims
    (:func:`~fsbook.experiments.projection.claims.with_margins`)."""
    return with_margins(projection_text.topic_count_claims(res_text))


def chapter_agreement(res, res_text):
    """Every level the paper prints against ours (:func:`~fsbook.experiments.projection.claims.
    agreement_table` of both stores)."""
    return pd.concat([agreement_table(res), projection_text.agreement_table(res_text)], ignore_index=True)


def store_parts(res, res_text):
    """Tasks stored and in the protocol per part: ``boston``, ``20newsgroups``, ``yale``, ``rho``."""
    cover = store_coverage(res.params)
    parts = (cover[cover.index.get_level_values("tasks") != "all"]
             .groupby(level="part", sort=False)[["stored", "in the protocol"]].sum())
    parts.loc["20newsgroups"] = [res_text.n_cached, res_text.n_total]
    return parts.reindex(["boston", "20newsgroups", "yale", "rho"])


def _task_seconds(res):
    """Each stored task's CPU seconds where every task of ``res`` has one, else its wall seconds
    (stores computed before CPU time was recorded), and which of the two it is."""
    cpu = list(getattr(res, "cpu_seconds", []) or [])
    if len(cpu) == len(res.params) and all(c is not None for c in cpu):
        return cpu, "CPU"
    return list(res.seconds), "wall"


def cost_table(res, res_text):
    """Recorded time of the stored tasks per part (CPU time where a store records it for every
    task, else wall-clock time: the column ``clock`` says which), and an estimate for the
    missing ones."""
    parts = store_parts(res, res_text)
    part_of = np.array([p["part"] for p in res.params] + ["20newsgroups"] * len(res_text.params))
    (s1, c1), (s2, c2) = _task_seconds(res), _task_seconds(res_text)
    seconds = pd.Series(s1 + s2, index=part_of, dtype=float).groupby(level=0)
    clock = pd.Series([c1] * len(parts), index=parts.index)
    clock["20newsgroups"] = c2
    cost = pd.DataFrame({"tasks stored": parts["stored"], "tasks in the protocol": parts["in the protocol"],
                         "hours stored": (seconds.sum() / 3600).reindex(parts.index).fillna(0.0),
                         "seconds a task (mean)": seconds.mean().reindex(parts.index),
                         "clock": clock}).rename_axis("part")
    cost["hours missing (estimate)"] = ((cost["tasks in the protocol"] - cost["tasks stored"])
                                        * cost["seconds a task (mean)"] / 3600)
    return cost


def news_tables(res_text):
    """Tables 2-4 at the paper's topic count (``{table: runs_table}``, the tables stored)."""
    d, tables = projection_text.NEWS_D, res_text.tables
    return {t: tables[f"{t}_d{d}"] for t in NEWS_FRACS if f"{t}_d{d}" in tables}


def chance_table(res_text):
    """Per text table and method: stored tasks at the chance level (error ≥ 40 %) and one-class
    refits, under the protocol's tie rule and the earlier one (``None`` when no table is stored)."""
    chance = {}
    for t in news_tables(res_text):
        ch = projection_text.chance_level_tasks(res_text, t)
        for m in projection_text.NEWS_METHODS:
            chance[(f"Table {t[-1]} ({FRAC[t]})", m)] = {
                "tasks": ch["tasks"], "error ≥ 40 %": ch[m], "one class": ch["one class"][m],
                "error ≥ 40 %, earlier rule": ch["first tie"][m]["chance"],
                "one class, earlier rule": ch["first tie"][m]["one class"]}
    return pd.DataFrame.from_dict(chance, orient="index").rename_axis(["table", "method"]) if chance else None


def rho_summary(tables, balance=None):
    """The ρ sweep per reducer: Proj-R at the paper's ρ, at the grid's best ρ and with ρ by CV,
    against SVM-R and SVM-Kernel (error %), and with ``balance`` (:func:`~fsbook.experiments.
    projection.yale_checks.yale_kernel_balance`) the ρ at which Proj-R's two kernels have equal trace."""
    sweep, ref = tables["rho_sweep"], tables["rho_reference"]["error (%)"]
    out = pd.DataFrame({
        "Proj-R, paper's ρ": sweep.loc[YALE_RHO],
        "best Proj-R on grid": sweep.min(),
        # the smallest ρ whose error is within 1e-9 (relative) of the minimum: near-equal averages are ties
        "at ρ": sweep.apply(lambda col: f"{col.index[argbest(col.to_numpy(), maximize=False)]:.0e}"),
        "Proj-R, ρ by CV": [ref[f"{c} (ρ by CV)"] for c in sweep.columns],
        "SVM-R": [ref[c.replace("Proj-", "SVM-")] for c in sweep.columns],
        "SVM-Kernel": ref["SVM-Kernel"]})
    if balance is not None:
        out["tr(ZZᵀ)/tr(K)"] = pd.Series(balance).map(lambda g: f"{g:.1e}")
    return out


def tie_rule_table(ties):
    """Per method and tie rule of :func:`~fsbook.experiments.projection.yale_checks.yale_tie_rules`:
    mean error (%), fits at the smallest C, one-class refits and fully tied grids."""
    return (ties.groupby(["method", "tie"], sort=False)
            .agg(**{"mean error (%)": ("error", lambda e: 100 * e.mean()),
                    "smallest C chosen": ("C", lambda c: int((c == GRID[0]).sum())),
                    "one class on every test image": ("one_class", "sum"),
                    "whole grid tied": ("grid_tied", "sum")})
            .rename(index={"first": "smallest C (version 4)", "lexicographic": "lexicographic (version 5)"}))

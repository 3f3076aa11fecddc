"""Every number and verdict the chapter's prose quotes, as a function of the stores.

:func:`facts` reads the three stores of the chapter (``results/projection``,
``results/projection_text`` and ``results/projection_ablations``) and returns ``{glue key:
text}``; the chapter glues each.  The numbers of the checks the chapter computes live (the
vocabulary rule, the separability of the face pairs, both tie rules on one run, the balance of
Proj-R's kernel) come from the small ``*_facts`` functions of their results.  The phrases are
built by :mod:`fsbook.experiments.projection.words`, the tables they read by
:mod:`fsbook.experiments.projection.summaries`, and the facts of Table 1 and of Tables 5-7 by
:mod:`~fsbook.experiments.projection.boston_facts` and
:mod:`~fsbook.experiments.projection.yale_facts`.  The small display helpers of the chapter
(:func:`claims_shown`, :func:`ablation_shown`, :func:`with_agreement`, :func:`order_counts`)
live here too, and :func:`~fsbook.experiments._reading.store_machines` is importable from here.
"""

import pandas as pd

from fsbook.claims import HOLDS, VERDICTS
from fsbook.experiments._reading import store_machines as store_machines
from fsbook.experiments.projection import ablations as projection_ablations
from fsbook.experiments.projection import text as projection_text
from fsbook.experiments.projection.boston_facts import _table1_facts
from fsbook.experiments.projection.claims import claims
from fsbook.experiments.projection.paper import (
    AGREEMENT_MARGIN,
    ORDER_MARGINS,
    PAPER,
    VERSION,
    YALE_RHO,
)
from fsbook.experiments.projection.summaries import (
    FRAC,
    chance_table,
    chapter_agreement,
    chapter_claims,
    chapter_d_claims,
    cost_table,
    news_tables,
    rho_summary,
    store_parts,
    tie_rule_table,
)
from fsbook.experiments.projection.tables import subsample
from fsbook.experiments.projection.words import (
    LABEL,
    Verdicts,
    agreement_words,
    block_words,
    counts,
    margin_words,
    part_words,
    where,
)
from fsbook.experiments.projection.yale_facts import _yale_facts
from fsbook.report import (
    captioned,
    claims_display,
    format_significant,
    format_value,
    join_words,
    percent,
    spaced,
)

#: the caption's note on the agreement column of :func:`with_agreement`
AGREE_CAPTION = (f"agreement: ours − paper inside ±{format_value(AGREEMENT_MARGIN, 0)} point with its 90 % "
                 "interval (agrees), its 95 % interval excluding 0 (differs), else inconclusive; z: ours − paper "
                 "in standard errors of the difference (ours over runs and the paper's printed one combined)")


def order_counts(cl):
    """Per table of the claims ``cl`` (in their order): the pairs of methods per verdict, those
    that hold by less than the table's margin, the pairs, and the margin (points).

    Examples
    --------
    >>> cl = pd.DataFrame({"table": ["Table 5"] * 3, "id": ["table5"] * 3,
    ...                    "verdict": ["holds", "holds", "no gain"], "size": ["below margin", "", ""]})
    >>> order_counts(cl).loc["Table 5"].astype(str).tolist()
    ['2', '1', '0', '1', '0', '3', '0.06']
    """
    order = (cl.groupby("table", sort=False)["verdict"].value_counts().unstack(fill_value=0)
             .reindex(columns=list(VERDICTS), fill_value=0))
    order.insert(1, "of which below margin", cl.groupby("table", sort=False)["size"]
                 .agg(lambda s: int((s == "below margin").sum())))
    order["pairs"] = order[list(VERDICTS)].sum(axis=1)
    ids = cl.groupby("table", sort=False)["id"].first()
    order["margin (points)"] = [format_significant(ORDER_MARGINS[ids[t]], 2) for t in order.index]
    return order.rename_axis("table").rename_axis(None, axis=1)


def with_agreement(agree, table, frame):
    """A paper-vs-ours ``frame`` (indexed by method) with each row's agreement verdict and the
    difference in combined standard errors."""
    a = agree[agree["id"] == table].set_index("method")
    return frame.assign(**{"agreement (z)": [f"{a.loc[m, 'agreement']} ({a.loc[m, 'z']:+.1f})" if m in a.index
                                             else "—" for m in frame.index]})


def _store_facts(res, res_text, agree):
    parts, cost = store_parts(res, res_text), cost_table(res, res_text).loc["20newsgroups"]
    hours = cost["tasks in the protocol"] * cost["seconds a task (mean)"] / 3600
    unit = ("CPU-hours" if cost["clock"] == "CPU" else
            "hours of recorded wall-clock time (an upper bound on its CPU time)")
    rate = (f"about {format_significant(hours, 2)} {unit} on one core ({cost['seconds a task (mean)']:.1f} s a "
            f"task, the mean of its stored tasks on the machine that ran them)")
    news_cost = ("None of the text experiment's tasks is stored yet, so its cost is not measured here"
                 if not cost["tasks stored"] else f"The text experiment alone took {rate}"
                 if cost["tasks stored"] == cost["tasks in the protocol"] else
                 f"The text experiment alone needs {rate}, more than one machine should spend on a page, "
                 "so it is stored in part")
    return {"pp_agree_n": str(len(agree)), "pp_agree_all": agreement_words(agree, agree["id"]),
            "pp_store_version": VERSION, "pp_text_version": projection_text.PROTOCOL.version,
            "pp_store_tasks": spaced(res.n_cached + res_text.n_cached),
            "pp_store_total": spaced(res.n_total + res_text.n_total),
            "pp_store_parts": join_words(part_words(parts, p) for p in parts.index), "pp_news_cost": news_cost}


def _news_facts(res_text, v, agree, parts):
    news, cl, D = news_tables(res_text), v.claims, projection_text.NEWS_D
    ds = sorted({p["topics"] for p in res_text.params})
    out = {"pp_news_stored": f"The store holds {part_words(parts, '20newsgroups')}"
           + (f", with {join_words(f'd = {d}' for d in ds)} topics; the tables below show d = {D}" if ds else
              ", so Tables 2–4 are not shown")}
    keys = ("pp_news_headline", "pp_news_lowest", "pp_news_words", "pp_news_orders", "pp_news_diffs",
            "pp_news_block", "pp_news_chance", "pp_news_agree")
    if not news:
        return {**out, **dict.fromkeys(keys, "not stored"), **_d_choice_facts(res_text),
                "pp_ties": "No task is stored at d = 30"}
    gain = {m: v.by_verdict([(LABEL[t], t, f"Proj-Topic below {m}") for t in news], "at")
            for m in ("L2-LGR", "LGR-Topic")}
    out["pp_news_headline"] = f"Proj-Topic below L2-LGR {gain['L2-LGR']}; Proj-Topic below LGR-Topic {gain['LGR-Topic']}"
    out["pp_news_lowest"] = "The lowest mean error: " + "; ".join(
        f"at {LABEL[t]} {news[t]['mean'].idxmin()} ({format_value(news[t]['mean'].min(), 2)})" for t in news)
    words = [(LABEL[t], t, v.pair_claim(t, "L2-LGR", "LGR-Topic")) for t in news]
    out["pp_news_words"] = "Words against topics: " + "; ".join(
        f"the paper's '{c}' at {label}: {v.described(t, c)}" for label, t, c in words)
    out["pp_news_orders"] = counts(cl[cl["id"].isin(list(news))])
    out["pp_news_agree"] = agreement_words(agree, news)
    paper = projection_text.PAPER
    diffs = [float(news[t]["mean"][m]) - paper[t]["mean"][m] for t in news for m in paper[t]["mean"]]
    out["pp_news_diffs"] = (f"Our mean errors are {format_value(min(diffs), 2)}–{format_value(max(diffs), 2)} "
                            "points higher than the paper's") if min(diffs) > 0 else \
        f"Our mean errors differ from the paper's by {format_value(min(diffs), 2)} to {format_value(max(diffs), 2)} points"
    out["pp_news_block"] = join_words(sorted({block_words(news[t]).replace("our ", "", 1) for t in news}))
    ch = projection_text.chance_level_tasks(res_text, "table2")
    out["pp_news_chance"] = (
        f"in {spaced(ch['L2-LGR'])} of the {spaced(ch['tasks'])} stored 2 % tasks "
        f"({percent(ch['L2-LGR'] / ch['tasks'])}) L2-LGR's test error is 40 % or more (LGR-Topic's in "
        f"{spaced(ch['LGR-Topic'])}, Proj-Topic's in {spaced(ch['Proj-Topic'])}); "
        f"{spaced(ch['one class']['L2-LGR'])} of L2-LGR's refits predict one class for every test post, "
        f"against {spaced(ch['first tie']['L2-LGR']['one class'])} under the earlier tie rule"
    ) if ch["tasks"] else "no 2 % task is stored"
    return {**out, **_d_choice_facts(res_text), **_ties_facts(res_text, news)}


#: how the choice of d is worded per verdict of "d = 30 better than d" (and a claim that holds by
#: less than its margin)
VERB_D = {"holds": "better than", "holds, below margin": "better, by less than the margin, than",
          "fails": "worse than", "no gain": "equal, within the margin, to", "not separable": "not separable from"}


#: the calibration design that measures the paired t at the sweep's number of runs
SWEEP_DESIGN = "20 Newsgroups 2 %, 10 runs (ch. 1, choice of d)"


def sweep_runs_words(rows=None, effect=0.25):
    """How many runs the choice of d rests on, and what the paired t sees with them: the level
    and the power at ``effect`` error points measured for :data:`SWEEP_DESIGN` (``rows``: the
    calibration record's rows, by default ``benchmarks/results/claims.json``'s).

    Examples
    --------
    >>> rows = [{"design": SWEEP_DESIGN, "test": "paired_t", "delta": 0.0, "type I": 0.045, "power": 0.02},
    ...         {"design": SWEEP_DESIGN, "test": "paired_t", "delta": 0.25, "type I": None, "power": 0.802}]
    >>> sweep_runs_words(rows)
    "the paper's 20 runs at d = 30 and the first 10 of them at each other d, half the sweep's cost; with 10 runs the paired t rejects a true null in 0.045 of simulated experiments and separates 0.25 error points in 0.80 of them"
    """
    from fsbook.benchmark_records import read_benchmark
    from fsbook.calibration import DESIGNS

    R, S, D = projection_text.RUNS[True], projection_text.SWEEP_RUNS[True], projection_text.NEWS_D
    if DESIGNS[SWEEP_DESIGN][2] != S:
        raise ValueError(f"the calibration design {SWEEP_DESIGN!r} has {DESIGNS[SWEEP_DESIGN][2]} runs, the sweep {S}")
    rows = read_benchmark("claims", "calibration")["values"]["rows"] if rows is None else rows
    mine = {r["delta"]: r for r in rows if r["design"] == SWEEP_DESIGN and r["test"] == "paired_t"}
    share = "half the sweep's cost" if 2 * S == R else f"{S / R:.0%} of the sweep's cost"
    return (f"the paper's {R} runs at d = {D} and the first {S} of them at each other d, {share}; with {S} runs "
            f"the paired t rejects a true null in {mine[0.0]['type I']:.3f} of simulated experiments and "
            f"separates {effect:g} error points in {mine[effect]['power']:.2f} of them")


def _d_choice_facts(res_text):
    d_cl, D = chapter_d_claims(res_text), projection_text.NEWS_D
    if not len(d_cl):
        return {"pp_d_choice": f"Only d = {D} is stored, so the choice of d is not tested here",
                "pp_d_runs": sweep_runs_words()}
    best = []
    for (t, m), g in d_cl.groupby(["id", "method"], sort=False):
        s = (g["verdict"] + g["size"].map(lambda x: f", {x}" if x else "")).set_axis(g["d"])
        text = ("better than every other stored d" if (s == HOLDS).all() else
                "; ".join(f"{VERB_D[k]} {join_words(f'd = {d}' for d in s.index[s == k])}"
                          for k in VERB_D if (s == k).any()))
        best.append(f"{m} at {FRAC[t]}: d = {D} {text}")
    return {"pp_d_choice": "In ours, " + "; ".join(best), "pp_d_runs": sweep_runs_words()}


def _ties_facts(res_text, news):
    c2 = chance_table(res_text).loc[f"Table {next(iter(news))[-1]} ({FRAC[next(iter(news))]})", "L2-LGR"]
    n = {k: spaced(int(c2[k])) for k in c2.index}
    return {"pp_ties": f"At {FRAC[next(iter(news))]}, L2-LGR's error is 40 % or more in {n['error ≥ 40 %']} of the "
                       f"{n['tasks']} stored tasks ({n['one class']} one-class refits); the earlier rule on the same "
                       f"results gives {n['error ≥ 40 %, earlier rule']} ({n['one class, earlier rule']} one-class "
                       "refits)"}


def _sweep_facts(tables):
    if "rho_sweep" not in tables:
        return {"pp_sweep": "The ρ sweep's tasks are not stored yet"}
    s = rho_summary(tables)
    lower = lambda col: [c for c in s.index if s.loc[c, col] < s.loc[c, "SVM-R"]]  # noqa: E731
    beat_grid, beat_cv = lower("best Proj-R on grid"), lower("Proj-R, ρ by CV")
    return {"pp_sweep": ("On the sweep's tasks no ρ of the grid, and no choice of ρ by CV, gives Proj-R a lower "
                         "mean error than SVM-R (one run: a description, not a test)") if not (beat_grid or beat_cv)
            else (f"On the sweep's tasks the best ρ of the grid gives a lower mean error than SVM-R for "
                  f"{join_words(beat_grid, empty='no reducer')}, and ρ chosen by CV for "
                  f"{join_words(beat_cv, empty='no reducer')} (one run: a description, not a test)")}


def _overview_facts(res, v):
    cl, C = v.claims, v.by_claim
    gains = cl[cl["gain"] & (cl["id"] != "table1_paper_grid")]
    held, failed = gains[gains["verdict"] == "holds"], gains[gains["verdict"] == "fails"]
    out = {"pp_gain_n": str(len(gains)), "pp_gain_counts": counts(gains),
           "pp_gain_holds": join_words(f"{c} {where(t)}" + (" (by less than its margin)" if z else "")
                                       for c, t, z in zip(held["claim"], held["id"], held["size"])),
           "pp_gain_fails": ("The gains that fail (the plain model is better): "
                             + join_words(f"{c} {where(t)}" for c, t in zip(failed["claim"], failed["id"])))
           if len(failed) else "No gain fails"}
    sub = subsample(res)
    sub_cl = claims(sub).set_index(["id", "claim"])
    both = [k for k in zip(gains["id"], gains["claim"]) if k in sub_cl.index]
    moved = [k for k in both if sub_cl.loc[k, "verdict"] != C.loc[k, "verdict"]]
    out["pp_sub_n"] = spaced(len(sub.params))
    out["pp_changed"] = (
        f"on its {spaced(len(sub.params))} stored tasks, of the {len(both)} projection gains "
        f"{counts(sub_cl.loc[both].reset_index())}; "
        + (f"{len(moved)} verdicts differ from the store's: " + join_words(
            f"{c} {where(t)} ({sub_cl.loc[(t, c), 'verdict']} on the subsample, {C.loc[(t, c), 'verdict']} on "
            "the store)" for t, c in moved) if moved else "no verdict differs from the store's"))
    return out


def _margin_facts(cl):
    """The order claims' margins of the tables of ``cl``, and the paper's words on two of its
    smallest differences (Table 7), which set no single threshold."""
    t7 = PAPER["table7"]["mean"]
    olap, kpca = t7["SVM-OLap"] - t7["Proj-OLap"], t7["SVM-Kernel"] - t7["SVM-KPCA"]
    return {"pp_margins": margin_words([t for t in ORDER_MARGINS if t in set(cl["id"])]),
            "pp_margin_paper": f"it calls Proj-OLap's {format_value(olap, 2)} points below SVM-OLap in Table 7 "
                               f"'slightly better', and SVM-KPCA's {format_value(kpca, 2)} points below SVM-Kernel in "
                               "the same table 'similar'"}


def _why_facts(res_why):
    pa = projection_ablations
    why = pa.ablation_table(res_why)
    pairs = {part: len({tuple(p["pair"]) for p in res_why.params if p["part"] == part}) for part in ("news", "yale")}
    runs = why.groupby("data set")["runs"].max()
    out = {"pp_why_runs": join_words([f"{spaced(runs[pa.DATA['boston']])} Boston runs",
                                      f"{runs[pa.DATA['news']]} runs of {pairs['news']} pairs of groups",
                                      f"{runs[pa.DATA['yale']]} runs of {pairs['yale']} pairs of faces"])
           + f"; {spaced(len(res_why.params))} tasks in all"}
    out.update({f"pp_why_{part}": pa.verdict_words(why, data) for part, data in pa.DATA.items()})
    return out


def facts(res, res_text, res_why):
    """Every number and verdict of the chapter's prose that the stores decide: ``{glue key: text}``.

    Parameters
    ----------
    res, res_text, res_why : ProtocolResult
        ``read_store`` of :data:`~fsbook.experiments.projection.PROTOCOL`,
        :data:`fsbook.experiments.projection.text.PROTOCOL` and
        :data:`fsbook.experiments.projection.ablations.PROTOCOL`.

    Returns
    -------
    dict of str to str
        The chapter's glue keys (``pp_…``), each the text the prose shows.  The checks the
        chapter runs live add theirs (:func:`vocabulary_facts`, :func:`separability_facts`,
        :func:`tie_rule_facts`, :func:`balance_facts`).
    """
    cl, agree = chapter_claims(res, res_text), chapter_agreement(res, res_text)
    v, parts = Verdicts(cl), store_parts(res, res_text)
    return {**_store_facts(res, res_text, agree), **_overview_facts(res, v), **_margin_facts(cl),
            **_table1_facts(res, v, agree),
            **_news_facts(res_text, v, agree, parts), **_yale_facts(res, v, agree, parts),
            **_sweep_facts(res.tables), **_why_facts(res_why)}


def vocabulary_facts(n_vocab, vocab, paper=projection_text.PAPER_VOCABULARY):
    """The vocabulary's size and how the other readings of the rule compare with the paper's
    (``vocab``: :func:`fsbook.experiments.projection.text.vocabulary_sizes`)."""
    gap, row, col = sorted((abs(int(vocab.loc[r, c]) - paper), r, c) for r in vocab.index for c in vocab.columns)[0]
    story = (f"With the stop list '{row}' and words ranked by {col} the rule gives the paper's {spaced(paper)} "
             "words exactly") if gap == 0 else \
        (f"None of these readings gives {spaced(paper)} words; the closest, {spaced(int(vocab.loc[row, col]))}, "
         f"removes the stop list '{row}' and ranks words by {col}. The paper names no stop list, so the "
         "protocol keeps the rule as stated")
    return {"pp_vocab": spaced(n_vocab), "pp_vocab_story": story}


def separability_facts(sep):
    """How many training pairs of run 0 are separable (``sep``: fractions per reducer, or empty)."""
    if not len(sep):
        return {"pp_sep": "separability was not checked (no run 0 of a face table is stored)"}
    low = sep[["KPCA", "GDA", "OLap"]].to_numpy(dtype=float).min()
    return {"pp_sep": "every training pair of run 0 is linearly separable in every reduced space" if low == 1 else
            f"at least {low:.0%} of the training pairs of run 0 are linearly separable in each reduced space"}


def tie_rule_facts(ties):
    """SVM-Kernel's numbers under both tie rules (``ties``: :func:`~fsbook.experiments.projection.
    yale_checks.yale_tie_rules`)."""
    kernel, n = tie_rule_table(ties).loc["SVM-Kernel"], ties.pair.nunique()
    return {"pp_tie_grid_tied": f"{int(kernel['whole grid tied'].iloc[0])} of {n}",
            "pp_tie_smallest_first": f"{int(kernel['smallest C chosen'].iloc[0])} of {n}",
            "pp_tie_smallest_lex": f"{int(kernel['smallest C chosen'].iloc[1])}",
            "pp_tie_err_first": f"{kernel['mean error (%)'].iloc[0]:.2f}",
            "pp_tie_err_lex": f"{kernel['mean error (%)'].iloc[1]:.2f}"}


def balance_facts(balance):
    """The smallest balance point tr(ZZᵀ)/tr(K) in multiples of the paper's ρ (two digits)."""
    return {"pp_rho_ratio": spaced(float(f"{min(balance.values()) / YALE_RHO:.2g}"))}


def claims_shown(rows, caption):
    """The claims ``rows`` (rows of :func:`chapter_claims`), each named with its table, as a
    captioned table (:func:`fsbook.report.claims_display`), the caption ending with the tables'
    margins (:func:`~fsbook.experiments.projection.words.margin_words`)."""
    margins = margin_words([t for t in ORDER_MARGINS if t in set(rows["id"])])
    return claims_display(rows.assign(claim=rows["table"] + ": " + rows["claim"]),
                          f"{caption}; 'below margin' / 'no gain' against the margin of {margins}")


#: the unit of each ablated data set's levels
UNIT = {"boston": "test R² (%)", "news": "test error (%)", "yale": "test error (%)"}


def ablation_shown(why, part):
    """The ablations of one data set (``part``, a key of
    :data:`fsbook.experiments.projection.ablations.DATA`) as the chapter shows them: each
    setting changed, the model's level with the book's settings and with that one changed, the
    paper's, and the gap closed with its interval (``why``:
    :func:`fsbook.experiments.projection.ablations.ablation_table`)."""
    data = projection_ablations.DATA[part]
    t = why[why["data set"] == data]
    shown = pd.DataFrame({
        "model": t["model"].to_numpy(), "ours": t["book"].to_numpy(),
        "with it": t["with it"].to_numpy(), "paper": t["paper"].to_numpy(),
        "gap closed (95 % CI)": [f"{format_value(c, 2)} ({format_value(lo, 2)}, {format_value(hi, 2)})"
                                 for c, lo, hi in t[["change", "ci_low", "ci_high"]].to_numpy()],
        "verdict": t["verdict"].to_numpy()},
        index=pd.Index(t["explanation"], name="setting changed"))
    return captioned(shown, f"Why our levels differ, {data}: {UNIT[part]} of each model over the same runs "
                     f"with the book's settings (ours) and with one setting changed (with it); gap closed: "
                     f"the paired change toward the paper's level (points), mean over the runs with its 95 % "
                     f"interval (paired t)")

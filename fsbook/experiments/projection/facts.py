"""Every number and verdict the chapter's prose quotes, as a function of the stores.

:func:`facts` reads the three stores of the chapter (``results/projection``,
``results/projection_text`` and ``results/projection_ablations``) and returns ``{glue key:
text}``; the chapter glues each.  The numbers of the checks the chapter computes live (the
vocabulary rule, the separability of the face pairs, both tie rules on one run, the balance of
Proj-R's kernel) come from the small ``*_facts`` functions of their results.  The phrases are
built by :mod:`fsbook.experiments.projection.words`.
"""

import warnings

import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler

from fsbook.claims import FAILS, HOLDS, NO_GAIN, VERDICTS
from fsbook.decisions import argbest
from fsbook.experiments import projection_ablations, projection_text
from fsbook.experiments.projection.claims import agreement_table, claims, equal_errors, with_margins
from fsbook.experiments.projection.paper import (
    AGREEMENT_MARGIN,
    GAINS,
    GRID,
    NEWS_FRACS,
    ORDER_MARGINS,
    PAPER,
    VERSION,
    YALE_K,
    YALE_RHO,
)
from fsbook.experiments.projection.tables import store_coverage, subsample
from fsbook.experiments.projection.tasks import boston_data
from fsbook.experiments.projection.words import (
    LABEL,
    Verdicts,
    agreement_words,
    block_words,
    counts,
    level_range,
    margin_words,
    part_words,
    where,
)
from fsbook.projection import ExhaustedSafePLS
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
#: each text table's fraction of the training documents, as the prose writes it
FRAC = {t: f"{int(f * 100)} %" for t, f in NEWS_FRACS.items()}


def chapter_claims(res, res_text):
    """Every order claim of the chapter: Tables 1 and 5-7, then Tables 2-4."""
    return pd.concat([claims(res), projection_text.claims(res_text)], ignore_index=True)


def chapter_d_claims(res_text):
    """The paper's choice of d as claims (:func:`fsbook.experiments.projection_text.
    topic_count_claims`), with the margin of their table's order claims
    (:func:`~fsbook.experiments.projection.claims.with_margins`)."""
    return with_margins(projection_text.topic_count_claims(res_text))


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


def chapter_agreement(res, res_text):
    """Every level the paper prints against ours (:func:`~fsbook.experiments.projection.claims.
    agreement_table` of both stores)."""
    return pd.concat([agreement_table(res), projection_text.agreement_table(res_text)], ignore_index=True)


def with_agreement(agree, table, frame):
    """A paper-vs-ours ``frame`` (indexed by method) with each row's agreement verdict and the
    difference in combined standard errors."""
    a = agree[agree["id"] == table].set_index("method")
    return frame.assign(**{"agreement (z)": [f"{a.loc[m, 'agreement']} ({a.loc[m, 'z']:+.1f})" if m in a.index
                                             else "—" for m in frame.index]})


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


def store_machines(*stores):
    """'CPU, n logical CPUs' of every machine that ran a stored task, sorted."""
    return sorted({f"{m['cpu']}, {m['cores']} logical CPUs" for r in stores for m in r.machines if m})


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


def krylov_exhausted(run):
    """Whether PLS on ``run``'s standardised training sample (as in
    :func:`~fsbook.experiments.projection.tasks.boston_run`) runs out of Krylov directions
    before 13 components."""
    X, y = boston_data()
    train = np.random.default_rng(run).permutation(len(y))[:50]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: "y residual is constant" once exhausted
        return ExhaustedSafePLS(13).fit(StandardScaler().fit_transform(X[train]), y[train]).n_kept_ < 13


def _table1_facts(res, v, agree):
    t1, t1_pg, cl = res.tables["table1"], res.tables["table1_paper_grid"], v.claims
    C, P1 = v.by_claim, PAPER["table1"]
    boston_runs = [(p["run"], r) for p, r in zip(res.params, res.results) if p["part"] == "boston"]
    G1 = [f"{a} above {b}" for a, b in GAINS["table1"]]
    half = (cl.loc[cl["id"] == "table1", "ci_high"] - cl.loc[cl["id"] == "table1", "ci_low"]) / 2
    out = {"pp_boston_runs": spaced(len(boston_runs)),
           "pp_t1_fine": "; ".join(f"{c}, {v.described('table1', c)}" for c in G1),
           "pp_t1_paper_grid": v.grouped([("table1_paper_grid", c) for c in G1]),
           "pp_t1_resolution": f"the 95 % intervals of the 10 pairs of methods reach {format_value(half.min(), 2)} "
                               f"to {format_value(half.max(), 2)} points either side of the effect"}
    out.update({f"pp_t1_{m.replace('-', '_')}": format_value(t1.loc[m, "mean"], 2) for m in t1.index})
    trio = ["Proj-PCR above Ridge", "Proj-PLS above Ridge", "Proj-PLS above Proj-PCR"]
    out["pp_t1_tuned"] = _tuned_words(v, trio)
    ridge_pg = float(t1_pg.loc["Ridge", "mean"])
    out["pp_t1_ridge_paper_grid"] = format_value(ridge_pg, 2)
    out["pp_t1_ridge_grid_gain"] = format_value(float(t1.loc["Ridge", "mean"]) - ridge_pg, 2)
    above = cl[(cl["id"] == "table1_paper_grid") & (cl["b"] == "Ridge")]
    k_ridge = int((above["verdict"] == "holds").sum())
    out["pp_t1_ridge_last"] = (("its mean is the lowest of the five, as in the paper"
                                if t1_pg["mean"].idxmin() == "Ridge" else
                                "its mean is not the lowest of the five (the paper has it last)")
                               + f"; the paired tests separate it from {k_ridge or 'none'} of the {len(above)} others")
    out["pp_t1_orders_fine"] = counts(cl[cl["id"] == "table1"])
    out["pp_t1_orders_paper_grid"] = counts(cl[cl["id"] == "table1_paper_grid"])
    d1 = {m: int(t1.loc[m, "d"]) for m in ("PCR", "PLS", "Proj-PCR", "Proj-PLS")}
    out["pp_t1_d13"] = (f"Proj-PCR's best d is 13, where it is ridge with α/1001 (checked above): its difference to "
                        f"ridge on the fine grid, {v.described('table1', 'Proj-PCR above Ridge')}, comes from the "
                        "grid's offset and the CV, not from a projection. Its comparison with PCR is therefore one "
                        "of ridge with PCR") if d1["Proj-PCR"] == 13 else \
        f"Proj-PCR's best d is {d1['Proj-PCR']} (the paper's 4)"
    changed = [c for c in G1 if C.loc[("table1", c), "verdict"] != C.loc[("table1_paper_grid", c), "verdict"]]
    out["pp_t1_grid_changes"] = ("The α grid changes the verdict for " + join_words(changed)) if changed \
        else "The α grid changes none of the three verdicts"
    out.update({f"pp_t1_d_{m.replace('-', '_')}": str(d) for m, d in d1.items()})
    out["pp_t1_pls_vs_projpls"] = (f"Proj-PLS above PLS: {v.described('table1', 'Proj-PLS above PLS')}"
                                   + (f": PLS with {d1['PLS']} components is already a strongly regularised model "
                                      "at this sample size" if C.loc[("table1", "Proj-PLS above PLS"), "verdict"]
                                      == "fails" and d1["PLS"] <= 3 else ""))
    same13 = sum(np.isclose(o["PLS"]["13"], o["PCR"]["13"], rtol=1e-9, atol=0) for _, o in boston_runs)
    out["pp_t1_pls13"] = (f"its test R² equals PCR's at d = 13 (to a relative 1e-9) in {spaced(same13)} of the "
                          f"{spaced(len(boston_runs))} runs")
    out["pp_t1_exhausted"] = str(sum(krylov_exhausted(run) for run, _ in boston_runs))
    n_higher = int((t1["mean"] > pd.Series(P1["mean"])).sum())
    out["pp_t1_higher"] = "all five" if n_higher == 5 else f"{n_higher} of the five"
    d_t1 = t1["mean"] - pd.Series(P1["mean"])
    out["pp_t1_levels"] = (f"by {format_value(d_t1.min(), 2)} to {format_value(d_t1.max(), 2)} points"
                           if n_higher == 5 else
                           f"differences {format_value(d_t1.min(), 2)} to {format_value(d_t1.max(), 2)} points")
    out["pp_t1_agree"] = agreement_words(agree, ["table1"])
    return out


def _tuned_words(v, trio):
    """How the orders among three Table 1 models are decided: none separated (and those within
    the margin), or the claims by verdict."""
    if any(v.verdict("table1", c) in (HOLDS, FAILS) for c in trio):
        return "of the paper's orders among the three, " + v.by_verdict([(c, "table1", c) for c in trio], "for")
    same = [c for c in trio if v.verdict("table1", c) == NO_GAIN]
    return "the paired tests separate no two of the three" + (
        f", and {join_words(same)} {'shows' if len(same) == 1 else 'show'} no gain within the margin" if same else "")


def news_tables(res_text):
    """Tables 2-4 at the paper's topic count (``{table: runs_table}``, the tables stored)."""
    d, tables = projection_text.NEWS_D, res_text.tables
    return {t: tables[f"{t}_d{d}"] for t in NEWS_FRACS if f"{t}_d{d}" in tables}


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


def _d_choice_facts(res_text):
    d_cl, D = chapter_d_claims(res_text), projection_text.NEWS_D
    if not len(d_cl):
        return {"pp_d_choice": f"Only d = {D} is stored, so the choice of d is not tested here"}
    best = []
    for (t, m), g in d_cl.groupby(["id", "method"], sort=False):
        s = (g["verdict"] + g["size"].map(lambda x: f", {x}" if x else "")).set_axis(g["d"])
        text = ("better than every other stored d" if (s == HOLDS).all() else
                "; ".join(f"{VERB_D[k]} {join_words(f'd = {d}' for d in s.index[s == k])}"
                          for k in VERB_D if (s == k).any()))
        best.append(f"{m} at {FRAC[t]}: d = {D} {text}")
    return {"pp_d_choice": "In ours, " + "; ".join(best)}


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


def _ties_facts(res_text, news):
    c2 = chance_table(res_text).loc[f"Table {next(iter(news))[-1]} ({FRAC[next(iter(news))]})", "L2-LGR"]
    n = {k: spaced(int(c2[k])) for k in c2.index}
    return {"pp_ties": f"At {FRAC[next(iter(news))]}, L2-LGR's error is 40 % or more in {n['error ≥ 40 %']} of the "
                       f"{n['tasks']} stored tasks ({n['one class']} one-class refits); the earlier rule on the same "
                       f"results gives {n['error ≥ 40 %, earlier rule']} ({n['one class, earlier rule']} one-class "
                       "refits)"}


def rho_summary(tables, balance=None):
    """The ρ sweep per reducer: Proj-R at the paper's ρ, at the grid's best ρ and with ρ by CV,
    against SVM-R and SVM-Kernel (error %), and with ``balance`` (:func:`~fsbook.experiments.
    projection.tasks.yale_kernel_balance`) the ρ at which Proj-R's two kernels have equal trace."""
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


def _yale_facts(res, v, agree, parts):
    tables, cl, C = res.tables, v.claims, v.by_claim
    yale = {t: tables[t] for t in YALE_K if t in tables}
    kpca_paper = [abs(PAPER[t]["mean"]["SVM-KPCA"] - PAPER[t]["mean"]["SVM-Kernel"]) <= PAPER[t]["se"]["SVM-Kernel"]
                  for t in YALE_K]
    eq = {n: equal_errors(res, f"Proj-{n}", f"SVM-{n}") for n in ("GDA", "OLap")}
    n_face = eq["GDA"][1]
    face_fits = [fit for p, r in zip(res.params, res.results) if p["part"] == "yale" for fit in r.values()]
    out = {"pp_paper_kpca": "within one standard error in all three tables" if all(kpca_paper) else
           f"within one standard error in {sum(kpca_paper)} of its three tables",
           "pp_yale_stored": f"The store holds {part_words(parts, 'yale')}",
           "pp_equal_svmr": (f"have exactly the test errors of SVM-GDA and SVM-OLap in every one of the "
                             f"{spaced(n_face)} stored face tasks") if all(e == n_face for e, _ in eq.values()) else
           (f"have exactly the test errors of SVM-GDA and SVM-OLap in {spaced(eq['GDA'][0])} and "
            f"{spaced(eq['OLap'][0])} of the {spaced(n_face)} stored face tasks"),
           "pp_tie_store_fits": spaced(len(face_fits)),
           "pp_tie_store_chance": spaced(sum(fit["error"] >= 0.5 for fit in face_fits))}
    if not yale:
        return {**out, **dict.fromkeys(("pp_yale_headline", "pp_kpca_text", "pp_olap_gda", "pp_yale_levels",
                                        "pp_yale_agree"), "not stored"), "pp_kpca_kernel": "are not stored"}
    gains = cl[cl["gain"] & cl["id"].isin(list(yale))]
    out["pp_yale_headline"] = f"Of the {len(gains)} projection gains of Tables 5–7, {counts(gains)}"
    same_k, _ = equal_errors(res, "SVM-KPCA", "SVM-Kernel")
    out["pp_kpca_kernel"] = f"have the same test error in {spaced(same_k)} of the {spaced(n_face)} stored face tasks"
    kp, kk = "Proj-KPCA below SVM-KPCA", "Proj-KPCA below SVM-Kernel"
    text = (f"{kp} {v.by_verdict([(LABEL[t], t, kp) for t in yale])}. "
            f"{kk} {v.by_verdict([(LABEL[t], t, kk) for t in yale])}")
    text += "".join(f". {where(t)[0].upper()}{where(t)[1:]}, against SVM-KPCA, it {v.described(t, kp)}"
                    for t in yale if C.loc[(t, kp), "verdict"] in (HOLDS, FAILS))
    out["pp_kpca_text"] = text
    out["pp_olap_gda"] = v.by_verdict([(LABEL[t], t, v.pair_claim(t, "SVM-OLap", "SVM-GDA")) for t in yale])
    out["pp_yale_levels"] = level_range(list(yale), PAPER, yale, "errors")
    out["pp_yale_agree"] = agreement_words(agree, yale)
    return out


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
        :data:`fsbook.experiments.projection_text.PROTOCOL` and
        :data:`fsbook.experiments.projection_ablations.PROTOCOL`.

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
    (``vocab``: :func:`fsbook.experiments.projection_text.vocabulary_sizes`)."""
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


def tie_rule_table(ties):
    """Per method and tie rule of :func:`~fsbook.experiments.projection.tasks.yale_tie_rules`:
    mean error (%), fits at the smallest C, one-class refits and fully tied grids."""
    return (ties.groupby(["method", "tie"], sort=False)
            .agg(**{"mean error (%)": ("error", lambda e: 100 * e.mean()),
                    "smallest C chosen": ("C", lambda c: int((c == GRID[0]).sum())),
                    "one class on every test image": ("one_class", "sum"),
                    "whole grid tied": ("grid_tied", "sum")})
            .rename(index={"first": "smallest C (version 4)", "lexicographic": "lexicographic (version 5)"}))


def tie_rule_facts(ties):
    """SVM-Kernel's numbers under both tie rules (``ties``: :func:`~fsbook.experiments.projection.
    tasks.yale_tie_rules`)."""
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
    :data:`fsbook.experiments.projection_ablations.DATA`) as the chapter shows them: each
    setting changed, the model's level with the book's settings and with that one changed, the
    paper's, and the gap closed with its interval (``why``:
    :func:`fsbook.experiments.projection_ablations.ablation_table`)."""
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

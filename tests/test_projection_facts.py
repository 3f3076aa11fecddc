"""The numbers the projection chapter's prose quotes (fsbook.experiments.projection.facts): on the
stored results, against independent counts of the same stores, and on small cases whose answer
is known."""

import re

import numpy as np
import pandas as pd
import pytest

from fsbook.claims import family_check, verdict_counts
from fsbook.experiments import projection, read_store
from fsbook.experiments.projection import ablations as projection_ablations
from fsbook.experiments.projection import boston_facts as B
from fsbook.experiments.projection import facts as F
from fsbook.experiments.projection import summaries as S
from fsbook.experiments.projection import text as projection_text
from fsbook.experiments.projection.words import Verdicts, counts
from fsbook.report import format_value, spaced


@pytest.fixture(scope="module")
def stores():
    return (read_store(projection.PROTOCOL, allow_partial=True),
            read_store(projection_text.PROTOCOL, allow_partial=True),
            read_store(projection_ablations.PROTOCOL))


@pytest.fixture(scope="module")
def glued(stores):
    return F.facts(*stores)


def test_every_fact_is_a_nonempty_text(glued):
    assert len(glued) == 71
    assert all(k.startswith("pp_") and isinstance(v, str) and v for k, v in glued.items())


def test_the_store_counts_are_those_of_the_stores(stores, glued):
    res, res_text, res_why = stores
    assert glued["pp_store_tasks"] == spaced(len(res.params) + len(res_text.params))
    assert glued["pp_boston_runs"] == spaced(sum(p["part"] == "boston" for p in res.params))
    faces = [r for p, r in zip(res.params, res.results) if p["part"] == "yale"]
    assert glued["pp_tie_store_fits"] == spaced(len(projection.paper.YALE_METHODS) * len(faces))
    assert glued["pp_store_version"] == projection.paper.VERSION
    assert glued["pp_why_runs"].endswith(f"; {spaced(len(res_why.params))} tasks in all")


def test_the_levels_and_verdicts_are_the_tables_and_claims(stores, glued):
    res, res_text, _ = stores
    t1 = res.tables["table1"]
    for m in t1.index:
        assert glued[f"pp_t1_{m.replace('-', '_')}"] == format_value(t1.loc[m, "mean"], 2)
    assert glued["pp_t1_d_PLS"] == str(int(t1.loc["PLS", "d"]))
    cl = S.chapter_claims(res, res_text)
    gains = cl[cl["gain"] & (cl["id"] != "table1_paper_grid")]
    assert glued["pp_gain_n"] == str(len(gains)) and glued["pp_gain_counts"] == counts(gains)
    assert glued["pp_t1_orders_fine"] == counts(cl[cl["id"] == "table1"])
    agree = S.chapter_agreement(res, res_text)
    n = agree["agreement"].value_counts()
    assert glued["pp_agree_n"] == str(len(agree))
    assert glued["pp_agree_all"].startswith(f"{n.get('agrees', 0)} agree, {n.get('differs', 0)} differ")


def test_every_order_claim_of_the_chapter_has_its_tables_declared_margin(stores, glued):
    """The orders of methods (Tables 1-7) and the choice of d (Tables 2-4) carry the margin their
    table declares; the counts shown per table are the verdicts; every Holm family can pass."""
    res, res_text, _ = stores
    cl, d_cl = S.chapter_claims(res, res_text), S.chapter_d_claims(res_text)
    for rows in (cl, d_cl):
        assert len(rows) and rows["margin"].notna().all()
        assert (rows["margin"].astype(float) == rows["id"].map(projection.paper.ORDER_MARGINS)).all()
    assert set(cl["id"]) == set(projection.paper.ORDER_MARGINS)
    order = F.order_counts(cl)
    for table, rows in cl.groupby("table"):
        n = verdict_counts(rows["verdict"])
        assert order.loc[table, list(n)].tolist() == list(n.values())
        assert order.loc[table, "of which below margin"] == (rows["size"] == "below margin").sum()
    assert family_check(pd.concat([cl, d_cl], ignore_index=True))["can pass"].all()
    assert glued["pp_margins"].startswith(f"{format_value(100 / 456, 2)} points in Table 1")
    t7 = projection.paper.PAPER["table7"]["mean"]
    assert f"Proj-OLap's {format_value(t7['SVM-OLap'] - t7['Proj-OLap'], 2)} points below" in glued["pp_margin_paper"]


def test_a_margin_decides_no_gain_and_below_margin_in_the_words():
    cl = pd.DataFrame({"id": ["table1"] * 3, "claim": ["A above R", "B above R", "B above A"],
                       "a": ["A", "B", "B"], "b": ["R", "R", "A"],
                       "verdict": ["no gain", "not separable", "not separable"], "size": ["", "", ""]})
    v = Verdicts(cl)
    assert B._tuned_words(v, list(cl["claim"])) == ("the paired tests separate no two of the three, and A above R "
                                                   "shows no gain within the margin")
    v = Verdicts(cl.assign(verdict=["holds", "not separable", "no gain"], size=["below margin", "", ""]))
    assert B._tuned_words(v, list(cl["claim"])) == ("of the paper's orders among the three, holds by less than its "
                                                   "margin for A above R; is not separable for B above R; shows no "
                                                   "gain for B above A")
    assert counts(v.claims) == "1 holds (1 by less than its margin), 0 fail, 1 shows no gain and 1 is not separable"


def test_the_yale_tables_shown_are_the_stored_ones(stores):
    res, res_text, _ = stores
    assert set(S.news_tables(res_text)) == set(projection.paper.NEWS_FRACS)
    chance = S.chance_table(res_text)
    assert chance.index.names == ["table", "method"] and len(chance) == 3 * len(projection.paper.NEWS_FRACS)


def test_a_gain_that_holds_everywhere_is_worded_by_table():
    cl = pd.DataFrame({"id": ["table5", "table6"], "claim": ["Proj-GDA below SVM-GDA"] * 2,
                       "a": ["Proj-GDA"] * 2, "b": ["SVM-GDA"] * 2, "verdict": ["holds", "fails"]})
    v = Verdicts(cl)
    assert v.by_verdict([("Table 5", "table5", "Proj-GDA below SVM-GDA"),
                         ("Table 6", "table6", "Proj-GDA below SVM-GDA")]) == "holds in Table 5; fails in Table 6"


def test_separability_says_every_pair_only_when_all_are():
    sep = pd.DataFrame({"KPCA": [1.0], "GDA": [1.0], "OLap": [1.0], "pairs": [35]})
    assert F.separability_facts(sep)["pp_sep"].startswith("every training pair")
    assert F.separability_facts(sep.assign(GDA=0.8))["pp_sep"].startswith("at least 80% of")
    assert "not checked" in F.separability_facts(pd.DataFrame())["pp_sep"]


def test_the_tie_rules_are_counted_per_pair():
    rows = []
    for pair, (c_first, e_first) in enumerate([(1e-8, 0.5), (1e-8, 0.25), (1.0, 0.0)]):
        rows.append({"pair": pair, "method": "SVM-Kernel", "tie": "first", "C": c_first, "error": e_first,
                     "grid_tied": pair < 2, "one_class": e_first == 0.5})
        rows.append({"pair": pair, "method": "SVM-Kernel", "tie": "lexicographic", "C": 1.0, "error": 0.0,
                     "grid_tied": pair < 2, "one_class": False})
    out = F.tie_rule_facts(pd.DataFrame(rows))
    assert out == {"pp_tie_grid_tied": "2 of 3", "pp_tie_smallest_first": "2 of 3", "pp_tie_smallest_lex": "0",
                   "pp_tie_err_first": "25.00", "pp_tie_err_lex": "0.00"}


def test_the_vocabulary_story_names_the_closest_reading():
    vocab = pd.DataFrame({"occurrences": [1400, 1440], "documents": [1500, 1443]}, index=["none", "english"])
    assert "gives the paper's 1 443 words exactly" in F.vocabulary_facts(1400, vocab)["pp_vocab_story"]
    story = F.vocabulary_facts(1400, vocab.assign(documents=[1500, 1460]))["pp_vocab_story"]
    assert story.startswith("None of these readings gives 1 443 words; the closest, 1 440, removes the stop "
                            "list 'english' and ranks words by occurrences")


def test_the_rho_summary_takes_the_smallest_tied_rho():
    rhos = [1e-5, 1e-3, 1e-1]
    tables = {"rho_sweep": pd.DataFrame({"Proj-GDA": [10.0, 8.0, 8.0]}, index=pd.Index(rhos, name="ρ")),
              "rho_reference": pd.Series({"SVM-Kernel": 12.0, "SVM-GDA": 9.0, "Proj-GDA (ρ by CV)": 9.5},
                                         name="error (%)").to_frame()}
    s = S.rho_summary(tables, {"Proj-GDA": 2e-3})
    assert s.loc["Proj-GDA", "at ρ"] == "1e-03" and s.loc["Proj-GDA", "best Proj-R on grid"] == 8.0
    assert s.loc["Proj-GDA", "tr(ZZᵀ)/tr(K)"] == "2.0e-03"
    assert "for Proj-GDA, and ρ chosen by CV for no reducer" in F._sweep_facts(tables)["pp_sweep"]
    assert F.balance_facts({"Proj-GDA": 2e-3, "Proj-OLap": 5e-2})["pp_rho_ratio"] == "200"



# ---- the display helpers and the Krylov check, on known cases and against the stores -----------


def test_with_agreement_on_a_known_case():
    agree = pd.DataFrame({"id": ["table1", "table1", "table5"], "method": ["Ridge", "PCR", "Ridge"],
                          "agreement": ["agrees", "differs", "inconclusive"], "z": [0.04, -2.96, 9.9]})
    frame = pd.DataFrame({"paper": [1.0, 2.0, 3.0]}, index=["PCR", "Ridge", "PLS"])
    out = F.with_agreement(agree, "table1", frame)
    assert list(out.index) == ["PCR", "Ridge", "PLS"] and list(out["paper"]) == [1.0, 2.0, 3.0]
    assert list(out["agreement (z)"]) == ["differs (-3.0)", "agrees (+0.0)", "—"]     # PLS: not compared


def test_with_agreement_on_the_stored_tables(stores):
    res, res_text, _ = stores
    agree = S.chapter_agreement(res, res_text)
    shown = {**{t: res.tables[t] for t in ("table1", *projection.paper.YALE_K) if t in res.tables},
             **S.news_tables(res_text)}
    assert set(shown) == set(agree["id"])
    for t, table in shown.items():
        paper = (projection.paper.PAPER if t in projection.paper.PAPER else projection_text.PAPER)[t]["mean"]
        a = agree[agree["id"] == t].set_index("method")
        out = F.with_agreement(agree, t, table[["mean"]])
        for m, text in out["agreement (z)"].items():
            z = (table.loc[m, "mean"] - paper[m]) / a.loc[m, "se"]        # ours − paper in standard errors
            assert text == f"{a.loc[m, 'agreement']} ({z:+.1f})"


def test_store_machines_name_each_machine_once_sorted(stores):
    from types import SimpleNamespace

    a = SimpleNamespace(machines=[{"cpu": "Intel Xeon", "cores": 8}, None, {"cpu": "AMD EPYC", "cores": 2}])
    b = SimpleNamespace(machines=[{"cpu": "AMD EPYC", "cores": 2}, {"cpu": "AMD EPYC", "cores": 4}, {}])
    assert F.store_machines(a, b) == ["AMD EPYC, 2 logical CPUs", "AMD EPYC, 4 logical CPUs",
                                      "Intel Xeon, 8 logical CPUs"]
    assert F.store_machines(a) == ["AMD EPYC, 2 logical CPUs", "Intel Xeon, 8 logical CPUs"]
    assert F.store_machines() == []
    seen = pd.DataFrame([m for r in stores for m in r.machines if m]).drop_duplicates()
    assert F.store_machines(*stores) == sorted(f"{c}, {n} logical CPUs" for c, n in zip(seen["cpu"], seen["cores"]))


def test_claims_shown_names_each_claim_with_its_table_and_margin(stores):
    res, res_text, _ = stores
    cl = S.chapter_claims(res, res_text)
    rows = cl[cl["id"].isin(["table5", "table6"])]
    shown = F.claims_shown(rows, "Tables 5 and 6")
    assert list(shown.data["claim"]) == [f"{t}: {c}" for t, c in zip(rows["table"], rows["claim"])]
    assert list(shown.data["verdict"]) == [v + (f", {s}" if s else "") for v, s in zip(rows["verdict"], rows["size"])]
    assert shown.caption.startswith("Tables 5 and 6; 'below margin' / 'no gain' against the margin of ")
    for (table, margin) in rows.groupby("table")["margin"].first().items():
        # one test prediction of a run: the margin is 100 / (test predictions a run)
        m = re.search(rf"([\d.]+) points in {table}, one of ([\d ]+) test predictions a run", shown.caption)
        assert m and int(m.group(2).replace(" ", "")) == round(100 / margin)
        assert float(m.group(1)) == pytest.approx(margin, rel=0.05)


def test_claims_shown_on_a_known_row():
    row = pd.DataFrame({"table": ["Table 1"], "id": ["table1"], "claim": ["PLS above Ridge"], "n": [500],
                        "unit": ["runs"], "n_direction": [289], "effect": [0.1], "ci_low": [0.05], "ci_high": [0.15],
                        "test": ["paired_t"], "p_adj": [0.0001], "verdict": ["holds"], "size": ["below margin"],
                        "note": [""]})
    shown = F.claims_shown(row, "Table 1")
    assert shown.data.iloc[0].to_dict() == {
        "claim": "Table 1: PLS above Ridge", "n": "500 runs", "in direction": "289 of 500", "effect": "+0.10",
        "95 % CI": "[+0.05, +0.15]", "test": "paired t", "p (Holm)": "< 0.001", "verdict": "holds, below margin"}
    assert shown.caption.endswith(f"the margin of {format_value(100 / 456, 2)} points in Table 1, one of 456 test "
                                  "predictions a run")


def test_ablation_shown_on_a_known_table():
    why = pd.DataFrame({"data set": [projection_ablations.DATA["boston"]] * 2 + ["other"],
                        "model": ["Ridge", "PCR", "Ridge"], "explanation": ["no standardisation", "d = 11", "x"],
                        "book": [60.0, 59.9, 1.0], "with it": [53.5, 55.6, 2.0], "paper": [49.53, 52.93, 3.0],
                        "change": [6.609, 4.2, 0.0], "ci_low": [5.2, -0.004, 0.0], "ci_high": [8.0, 5.1, 0.0],
                        "verdict": ["explains part", "does not explain", "explains"]})
    shown = F.ablation_shown(why, "boston")
    assert list(shown.data.index) == ["no standardisation", "d = 11"]          # the other data set left out
    assert shown.data.index.name == "setting changed"
    assert list(shown.data["gap closed (95 % CI)"]) == ["6.61 (5.20, 8.00)", "4.20 (0.00, 5.10)"]
    assert list(shown.data["ours"]) == [60.0, 59.9] and list(shown.data["with it"]) == [53.5, 55.6]
    assert list(shown.data["verdict"]) == ["explains part", "does not explain"]
    assert shown.caption.startswith(f"Why our levels differ, {projection_ablations.DATA['boston']}: test R² (%)")


def test_ablation_shown_levels_are_the_chapters_tables(stores):
    res, _, res_why = stores
    why = projection_ablations.ablation_table(res_why)
    t1, paper = res.tables["table1"], projection.paper.PAPER["table1"]["mean"]
    for part, data in projection_ablations.DATA.items():
        shown = F.ablation_shown(why, part)
        assert len(shown.data) == int((why["data set"] == data).sum()) > 0
        assert data in shown.caption and F.UNIT[part] in shown.caption
        for text in shown.data["gap closed (95 % CI)"]:
            change, low, high = map(float, re.fullmatch(r"(\S+) \((\S+), (\S+)\)", text).groups())
            assert low <= change <= high
    # Boston's levels with the book's settings are Table 1's means, over the same 500 runs
    boston = F.ablation_shown(why, "boston").data
    for model, ours, p in zip(boston["model"], boston["ours"], boston["paper"]):
        assert ours == pytest.approx(t1.loc[model, "mean"]) and p == paper[model]


def _krylov_dimension(run):
    """The dimension of the Krylov space of PLS on ``run``'s standardised training sample: the
    eigen-directions of XᵀX on which Xᵀy has a weight (the eigenvalues are distinct)."""
    from fsbook.datasets import load_boston

    b = load_boston()
    train = np.random.default_rng(run).permutation(len(b.target))[:50]
    x, y = b.data[train], b.target[train]
    sd = x.std(axis=0)
    xs = (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1.0)      # a constant feature stays a column of 0
    s = xs.T @ (y - y.mean())
    values, vectors = np.linalg.eigh(xs.T @ xs)
    assert np.diff(values).min() > 1e-6 * values.max()
    return int((np.abs(vectors.T @ s) > 1e-8 * np.linalg.norm(s)).sum()), bool((sd == 0).any())


def test_krylov_exhausted_where_the_krylov_space_has_fewer_than_13_dimensions(stores, glued):
    res = stores[0]
    runs = [p["run"] for p in res.params if p["part"] == "boston"]
    exhausted = {run: B.krylov_exhausted(run) for run in runs}
    dims = {run: _krylov_dimension(run) for run in runs}
    assert all(exhausted[run] == (dims[run][0] < 13) for run in runs)
    # it happens where a feature (CHAS, the river dummy) is constant on the 50 training houses
    assert all(exhausted[run] == dims[run][1] for run in runs)
    assert 0 < sum(exhausted.values()) < len(runs)
    assert glued["pp_t1_exhausted"] == str(sum(exhausted.values()))

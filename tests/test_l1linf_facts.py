"""The numbers and verdicts of the l1/linf chapter's prose (fsbook.experiments.l1linf.facts), on
the committed store and on small cases whose answer is known."""
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from read_back import tally_counts

from fsbook.benchmark_records import read_benchmark
from fsbook.experiments import l1linf, read_store
from fsbook.experiments.l1linf import ablations as l1linf_ablations
from fsbook.experiments.l1linf import facts as F
from fsbook.experiments.l1linf import words
from fsbook.report import VERDICT_VERB, spaced, tally

CHAPTER = Path(__file__).resolve().parents[1] / "book" / "02_l1linf_feature_selection.ipynb"


@pytest.fixture(scope="module")
def store():
    return read_store(l1linf.PROTOCOL)


@pytest.fixture(scope="module")
def page(store):
    return F.page(store)


@pytest.fixture(scope="module")
def store_facts(store):
    """The facts on the committed stores (the chapter's and its ablations')."""
    ablations = read_store(l1linf_ablations.PROTOCOL)
    starts = pd.DataFrame({"features": ["a, b"] * 6})
    return F.facts(store, selection_record=read_benchmark("l1linf", "selection"),
                   variants=l1linf_ablations.variants(ablations),
                   variants_cpu_seconds=sum(s or 0.0 for s in ablations.cpu_seconds), starts=starts,
                   fohsic_pair="a, c")


def test_the_module_is_the_protocol_not_the_method_package():
    assert l1linf.__name__ == "fsbook.experiments.l1linf"
    assert F.__name__ == "fsbook.experiments.l1linf.facts"
    assert callable(l1linf.claims.claims) and l1linf.tables.__name__ == "fsbook.experiments.l1linf.tables"


def test_every_key_the_prose_quotes_is_a_fact_and_every_fact_is_text(store_facts):
    cells = json.loads(CHAPTER.read_text())["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    quoted = set(re.findall(r"\{glue(?::text)?\}`([A-Za-z0-9_]+)", prose))
    assert quoted and quoted <= set(store_facts)
    assert all(isinstance(v, str) and v for v in store_facts.values())


def test_counts_follow_the_store(store, store_facts):
    assert store_facts["l1_store_tasks"] == str(store.n_cached) == store_facts["l1_store_total"]
    assert store_facts["l1_store_version"] == l1linf.PROTOCOL.version
    n_sets, n_shared = len(l1linf.paper.TABLE1_K), len(l1linf.paper.SHARED_DATASETS)
    # three claims per data set; Table 1's pairs: 6 against HSFS, 5 against FOHSIC, LDFS against LS
    assert store_facts["l1_n_dataset_claims"] == str(3 * n_sets)
    assert store_facts["l1_n_table1_pairs"] == str((6 + 5 + 1) * n_sets)
    assert store_facts["l1_agree_n"] == str(len(l1linf.paper.METHODS) * n_shared)
    n_leak = len(l1linf.paper.METHODS) * len(l1linf.paper.BOOK_DATASETS)     # selection on all the data: wine, glass(_id)
    assert store_facts["l1_leak_n"] == str(n_leak)
    assert store_facts["l1_n_sets"] == str(n_sets)
    assert int(store_facts["l1_leak_down"]) + int(store_facts["l1_leak_up"]) + int(
        store_facts["l1_leak_same"]) == n_leak


def test_the_claim_sentences_name_each_verdict_of_the_claims_table(page, store_facts):
    for key, claim in F.TABLE1_CLAIM_KEYS.items():
        rows = page.per_ds[page.per_ds.claim == claim]
        text = store_facts[f"l1_claim_{key}"]
        for verdict, verb in words.VERBS.items():
            named = rows.loc[rows.verdict == verdict, "dataset"]
            assert (verb in text) == (len(named) > 0)
            assert all(l1linf.paper.NAMES[d] in text for d in named) or len(named) == len(rows)


def test_means_quoted_are_the_stored_means(page, store_facts):
    for ds in l1linf.paper.SHARED_DATASETS:
        for m in ("HSFS", "FOHSIC"):
            assert float(store_facts[f"l1_{ds}_{m}"]) == pytest.approx(page.ours.loc[m, ds], abs=0.005)
    assert store_facts["l1_yale_HSFS"] == words.pct(page.ours.loc["HSFS", "yale"])


def test_a_sentence_the_store_no_longer_supports_raises(page):
    means = page.ours.copy()
    means.loc["HSFS", "wine"] = 0.0                   # now below the paper's 4.58 %
    changed = type(page)(**{**vars(page), "ours": means})
    with pytest.raises(ValueError, match="prose no longer holds"):
        F.means_vs_paper_facts(changed)


def test_starts_one_pair_or_several():
    one = F.starts_facts(pd.DataFrame({"features": ["a, b"] * 3}), "a, c")["l1_starts"]
    assert "give one pair of features (a, b) and FOHSIC another (a, c)" in one
    several = F.starts_facts(pd.DataFrame({"features": ["a, b", "a, c", "a, b"]}), "a, c")["l1_starts"]
    assert "give 2 different pairs of features (FOHSIC's: a, c)" in several


def test_speed_facts_quote_the_record_as_recorded():
    entry = {key: 1.5 for key in F.SPEED_KEYS} | {"common_features": 10, "hsfs_over_fohsic": 0.25,
                                                 "hsfs_seconds": 1.0, "fohsic_seconds": 4.0}
    out = F.speed_facts({"values": {"arcene": entry, "dexter": entry}})
    assert out["l1_arcene_common_features"] == "10" and out["l1_dexter_acc_fast"] == "1.5"
    assert out["l1_arcene_versus"] == "4.0 times faster than"


def test_phrases_of_known_cases():
    rows = pd.DataFrame({"dataset": ["wine", "glass", "arcene"], "verdict": ["holds", "fails", "not separable"]})
    assert words.where(rows) == "holds on wine; fails on glass; is not separable on ARCENE"
    assert tally(["holds", "holds", "fails"]) == "2 hold, 1 fails and none is not separable"
    means = pd.DataFrame({"wine": [5.0, 5.0 * (1 + 1e-12), 6.0]}, index=["A", "B", "C"])
    assert words.lowest(means, "wine") == ["A", "B"]           # equal within the decisions' tolerance


def test_table1_block_puts_the_papers_column_beside_ours(page):
    block = l1linf.tables.table1_block(page.ours, page.se, page.agreement, ["wine", "glass_id", "yale"])
    assert block.loc["HSFS", ("glass_id (k = 2)", "paper")] == "24.80"     # the paper's glass column
    assert block.loc["all", ("glass_id (k = 2)", "paper")] == "–"           # no paper value
    assert ("yale (k = 6)", "paper") not in block.columns
    assert set(block[("wine (k = 2)", "agreement")].dropna()) <= {"agrees", "differs", "inconclusive", "–"}


def test_speed_table_has_a_column_per_data_set():
    table = l1linf.tables.speed_table(read_benchmark("l1linf", "selection"))
    assert list(table.columns) == ["ARCENE (k = 10)", "DEXTER (k = 20)"]
    assert table.loc["paper's claim: HSFS cheaper than forward HSIC selection (FOHSIC)"].isin(
        ["holds", "fails"]).all()


def test_the_curves_decided_points_are_every_decided_point(page, store_facts):
    """Each decided point of the figures is named once, under its verdict, with its effect."""
    points = page.curve_points
    decided = points[points.verdict != "not separable"]
    text = store_facts["l1_curve_decided"]
    assert text.count(" at k = ") == len(decided) > 0
    for verdict in set(decided.verdict):
        assert text.count(f"{VERDICT_VERB[verdict]} on ") == 1
    assert text.startswith("the claim ")
    assert all(f"({r['effect']:+.2f} points)" in text for _, r in decided.iterrows())


# ---- each part of facts() against the per-fold errors, the claims, the data or a known case -----


def _fold_means(page, k=None):
    """Means over the folds of the per-fold errors (%): at Table 1's k by default (the SVM on every
    feature has no k), else at ``k`` per data set; a methods × data sets frame."""
    e = page.errors
    at = e["dataset"].map(l1linf.paper.TABLE1_K) if k is None else e["dataset"].map(k)
    kept = e[(e["k"] == at) | (e["method"] == "all")]
    return kept.pivot_table(index="method", columns="dataset", values="error", aggfunc="mean")


def _counts(verdicts):
    return pd.Series(verdicts).value_counts().reindex(["holds", "fails", "no gain", "not separable"],
                                                      fill_value=0).to_dict()


def test_data_facts_are_the_data_sets_sizes_and_classes():
    from fsbook import datasets as D

    out = F.data_facts()
    y = {ds: np.asarray(getattr(D, f"load_{ds}")().target) for ds in ("wine", "glass", "arcene", "yale", "dexter",
                                                                       "madelon")}
    for ds in ("arcene", "dexter", "madelon"):
        assert out[f"l1_n_{ds}"] == str(min(len(y[ds]), 1000))       # MADELON subsampled to 1000
    assert out["l1_n_madelon_all"] == spaced(len(y["madelon"])) == "2 000"
    for ds in ("arcene", "dexter"):                                   # five folds: one test error a step
        fold = len(y[ds]) // 5
        assert out[f"l1_fold_{ds}"] == str(fold)
        assert float(out[f"l1_step_{ds}"]) == pytest.approx(100 / fold, abs=0.05)
    classes = {ds: len(np.unique(v)) for ds, v in y.items()}
    two = [l1linf.paper.NAMES[d] for d in l1linf.paper.TABLE1_K if d in classes and classes[d] == 2]
    assert out["l1_two_class"] == words.join_words(two)
    multi = [d for d in l1linf.paper.TABLE1_K if d in classes and classes[d] > 2]
    assert out["l1_multi_class"].count(" classes)") == len(multi) == 3
    assert all(f"{l1linf.paper.NAMES[d]} ({classes[d]} classes)" in out["l1_multi_class"] for d in multi)


def test_table1_claim_facts_read_the_claims_table(page):
    from scipy import stats

    out = F.table1_claim_facts(page)
    n = len(l1linf.paper.SHARED_DATASETS)
    assert out["l1_n_shared"] == "five" and n == 5
    # the smallest two-sided p of a Wilcoxon signed-rank test on five pairs: every sign alike
    p_min = stats.wilcoxon(np.arange(1.0, n + 1), np.zeros(n)).pvalue
    assert float(out["l1_wilcoxon_min_p"]) == pytest.approx(p_min, abs=5e-5)
    for key, claim in F.TABLE1_CLAIM_KEYS.items():
        shared = page.per_ds[(page.per_ds.claim == claim) & page.per_ds.dataset.isin(l1linf.paper.SHARED_DATASETS)]
        k = int((shared["effect"] > 0).sum())                    # the paper's direction: a positive effect
        assert out[f"l1_dir_{key}"] == f"{k} of {n}"
        assert out[f"l1_over_{key}"].endswith(f"direction on {k} of them")
    assert out["l1_n_dataset_claims"] == str(len(page.per_ds))
    assert tally_counts(out["l1_tally_table1"]) == _counts(page.per_ds.verdict)
    assert out["l1_n_table1_pairs"] == str(len(page.pairs_t1))
    hsfs = page.per_ds[page.per_ds.claim == l1linf.claims.CLAIM_HSFS]
    decided = hsfs[hsfs.verdict != "not separable"]
    assert out["l1_hsfs_decided"].count("fails there") == len(decided) > 0
    for _, r in decided.iterrows():
        assert (f"on {l1linf.paper.NAMES[r['dataset']]} {r['b']}'s mean error is {-r['effect']:.2f} points below"
                in out["l1_hsfs_decided"])
    undecided = hsfs[hsfs.verdict == "not separable"].sort_values("effect").iloc[0]
    assert out["l1_hsfs_undecided"].startswith(
        f"on {l1linf.paper.NAMES[undecided['dataset']]} {undecided['b']}'s mean error is {-undecided['effect']:.2f}")
    ldfs = page.per_ds[(page.per_ds.claim == l1linf.claims.CLAIM_LDFS) & (page.per_ds.verdict != "not separable")]
    assert (out["l1_ldfs_decided"] == "none") == ldfs.empty
    means = _fold_means(page)
    pairs = re.findall(r"([\w ]+) (\d+\.\d\d) % against (\d+\.\d\d) %", out["l1_ldfs_ls"])
    assert [name.strip() for name, _, _ in pairs] == [l1linf.paper.NAMES[d] for d in page.datasets]
    for d, (_, ldfs_mean, ls_mean) in zip(page.datasets, pairs):
        assert float(ldfs_mean) == pytest.approx(means.loc["LDFS", d], abs=0.005)
        assert float(ls_mean) == pytest.approx(means.loc["LS", d], abs=0.005)


def test_lowest_mean_facts_recomputed_from_the_fold_errors(page):
    out = F.lowest_mean_facts(page)
    means = _fold_means(page).loc[list(l1linf.paper.METHODS)]
    for d in page.datasets:
        col = means[d].sort_values()
        assert col.iloc[1] > col.iloc[0] * (1 + 1e-6)           # one lowest mean on every data set
        assert f"{l1linf.paper.NAMES[d]}: {col.index[0]}" in out["l1_lowest_by_set"].split("; ")
    assert ("HSFS has the lowest" in out["l1_lowest_mean_sentence"]) == (means.idxmin() == "HSFS").any()
    yale = means["yale"]
    assert out["l1_yale_lowest"] == f"{yale.idxmin()} ({yale.min():.2f} %)"
    assert out["l1_yale_HSFS"] == f"{yale['HSFS']:.2f}"
    lower = [l1linf.paper.NAMES[d] for d in page.datasets if means.loc["FOHSIC", d] < means.loc["HSFS", d]]
    assert out["l1_n_fohsic_lower"] == str(len(lower)) and out["l1_fohsic_lower"] == words.join_words(lower)
    higher = [l1linf.paper.NAMES[d] for d in page.datasets if means.loc["FOHSIC", d] > means.loc["HSFS", d]]
    assert out["l1_hsfs_lower"] == words.join_words(higher)
    first = [l1linf.paper.NAMES[d] for d in page.datasets if means[d].idxmin() == "FOHSIC"]
    assert out["l1_fohsic_first"] == words.join_words(first)
    hf = page.pairs_t1[(page.pairs_t1.a == "HSFS") & (page.pairs_t1.b == "FOHSIC")]
    assert len(hf) == len(page.datasets)
    n = _counts(hf.verdict)
    assert (f"better on {n['fails']} and the relaxation on {n['holds']}" in out["l1_relaxation"]) == (
        n["holds"] + n["fails"] > 0)
    for verdict, verb in words.VERBS.items():
        for d in hf.loc[hf.verdict == verdict, "dataset"]:
            assert re.search(rf"{verb} on [^;]*\b{re.escape(l1linf.paper.NAMES[d])}\b", out["l1_hsfs_fohsic"])


def test_curve_facts_recomputed_from_the_fold_errors(page):
    out = F.curve_facts(page)
    e = page.errors[page.errors.method != "all"]
    means = e.groupby(["dataset", "k", "method"])["error"].mean()
    points = means.groupby(level=["dataset", "k"])
    assert out["l1_curve_points"] == str(points.ngroups) == str(len(page.curve_points))
    assert tally_counts(out["l1_curve_tally"]) == _counts(page.curve_points.verdict)
    for m in ("HSFS", "FOHSIC"):                  # the (data set, k) where m's mean is the lowest
        lowest = sum(np.isclose(g.loc[(ds, k, m)], g.min(), rtol=1e-9, atol=0) for (ds, k), g in points)
        assert out[f"l1_curve_{m.lower()}_lowest"] == str(lowest)
    arcene4 = means.loc[("arcene", 4)]
    assert out["l1_arcene_k4_values"] == f"FOHSIC {arcene4['FOHSIC']:.2f} %, HSFS {arcene4['HSFS']:.2f} %"
    for key, claim in (("l1_arcene_k4", "FOHSIC lower than HSFS at k = 4"),
                       ("l1_arcene_later", "HSFS lower than FOHSIC at k = 6, 8 and 10")):
        row = page.remark[page.remark.claim == claim].iloc[0]
        assert out[key].startswith(f"{row['verdict']} ({row['effect']:+.2f} points")


def test_glass_id_facts_are_the_fold_errors_range(page):
    out = F.glass_id_facts(page)
    means = _fold_means(page).loc[list(l1linf.paper.METHODS)]
    for key, ds in (("glassid", "glass_id"), ("glass", "glass")):
        assert float(out[f"l1_{key}_min"]) == pytest.approx(means[ds].min(), abs=0.005)
        assert float(out[f"l1_{key}_max"]) == pytest.approx(means[ds].max(), abs=0.005)
    assert float(out["l1_glassid_max"]) < float(out["l1_glass_min"])    # the id column gives the class away


def test_leak_facts_against_the_stored_selection_on_all_the_data(store, page):
    out = F.leak_facts(page)
    leak = store.tables["all_data_selection"]
    inside = _fold_means(page)
    pairs = [(m, d, inside.loc[m, d], leak.loc[m, d]) for m in leak.index for d in leak.columns]
    same = [abs(b - a) <= 1e-9 * abs(a) for _, _, a, b in pairs]
    assert out["l1_leak_n"] == str(len(pairs))
    assert out["l1_leak_same"] == str(sum(same))
    assert out["l1_leak_down"] == str(sum(b < a and not s for (_, _, a, b), s in zip(pairs, same)))
    m, d, a, b = max(pairs, key=lambda t: abs(t[3] - t[2]))
    assert out["l1_leak_largest"] == f"{m} on {l1linf.paper.NAMES[d]}, {a:.2f} % → {b:.2f} %"
    for d in ("wine", "glass"):
        paper = l1linf.paper.PAPER_TABLE1.loc["HSFS", l1linf.paper.PAPER_COLUMN[d]]
        assert (f"{l1linf.paper.NAMES[d]} {inside.loc['HSFS', d]:.2f} % → {leak.loc['HSFS', d]:.2f} % "
                f"(paper {paper:.2f} %)") in out["l1_leak_hsfs"]


def test_all_features_facts_count_the_selectors_below_the_svm_on_every_feature(page):
    out = F.all_features_facts(page)
    means = _fold_means(page)
    beaten = {d: sum(means.loc[m, d] < means.loc["all", d] for m in l1linf.paper.METHODS) for d in page.datasets}
    parts = out["l1_all_beaten"].split("; ")
    assert len(parts) == len(page.datasets)
    for d, part in zip(page.datasets, parts):
        assert part == f"{l1linf.paper.NAMES[d]} {means.loc['all', d]:.2f} % ({beaten[d]} of {len(l1linf.paper.METHODS)})"
    every = [l1linf.paper.NAMES[d] for d in page.datasets if beaten[d] == len(l1linf.paper.METHODS)]
    assert out["l1_all_beaten_by_every"] == words.join_words(every)
    assert out["l1_all_beaten_by_few"] == words.join_words([l1linf.paper.NAMES[d] for d in page.datasets if beaten[d] <= 2])


@pytest.fixture(scope="module")
def ablations():
    store = read_store(l1linf_ablations.PROTOCOL)
    return l1linf_ablations.variants(store), sum(s or 0.0 for s in store.cpu_seconds)


def test_explanation_facts_on_the_ablation_store(page, ablations):
    variants, cpu = ablations
    out = F.explanation_facts(page, variants, cpu)
    shared = {key: v for key, v in variants.items() if key[0] in l1linf.paper.SHARED_DATASETS}
    assert out["l1_expl_n"] == str(len(shared))
    assert float(out["l1_expl_cpu"]) == pytest.approx(cpu / 60, abs=0.05)
    assert out["l1_expl_coverage"] == "It holds every variant on every fold"
    assert out["l1_expl_threshold_n"] == str(sum(name == "row threshold 0.01" for _, _, name in shared))
    # the largest change of a mean error, against the stored errors of the same folds
    e = page.errors

    def change(key):
        ds, m, _ = key
        ours = e[(e.dataset == ds) & (e.method == m) & (e.k == l1linf.paper.TABLE1_K[ds])].set_index("fold")["error"]
        return shared[key].mean() - ours.loc[shared[key].index].mean()

    ds, m, name = max(shared, key=lambda key: abs(change(key)))
    assert (f"The largest change: {name} takes {m} on {l1linf.paper.NAMES[ds]} from "
            f"{shared[(ds, m, name)].mean() - change((ds, m, name)):.2f} % to "
            f"{shared[(ds, m, name)].mean():.2f} %") in out["l1_expl_summary"]
    counts = tally_counts(out["l1_expl_summary"])
    assert sum(counts.values()) == len(shared)
    held = out["l1_expl_verdict"].count("(holds (")
    assert held == counts["holds"] and out["l1_expl_summary"].startswith(
        f"{held} of the {len(shared)} variants" if held else f"None of the {len(shared)} variants")


def test_explanation_facts_name_a_variant_the_store_lacks(page, ablations):
    variants, cpu = ablations
    dropped = ("wine", "HSFS", "q = d")
    assert dropped in variants
    out = F.explanation_facts(page, {k: v for k, v in variants.items() if k != dropped}, cpu)
    assert out["l1_expl_coverage"].startswith("It lacks q = d (HSFS on wine) (")
    assert out["l1_expl_n"] == str(sum(k[0] in l1linf.paper.SHARED_DATASETS for k in variants) - 1)
    assert "q = d" not in out["l1_expl_by_hypothesis"]

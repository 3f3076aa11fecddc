"""The numbers and verdicts of the l1/linf chapter's prose (fsbook.experiments.l1linf.facts), on
the committed store and on small cases whose answer is known."""
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from fsbook.benchmark_records import read_benchmark
from fsbook.experiments import l1linf, read_store
from fsbook.experiments.l1linf import ablations as l1linf_ablations
from fsbook.experiments.l1linf import facts as F
from fsbook.experiments.l1linf import words
from fsbook.report import tally

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
    assert callable(l1linf.claims) and l1linf.tables.__name__ == "fsbook.experiments.l1linf.tables"


def test_every_key_the_prose_quotes_is_a_fact_and_every_fact_is_text(store_facts):
    cells = json.loads(CHAPTER.read_text())["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    quoted = set(re.findall(r"\{glue(?::text)?\}`([A-Za-z0-9_]+)", prose))
    assert quoted and quoted <= set(store_facts)
    assert all(isinstance(v, str) and v for v in store_facts.values())


def test_counts_follow_the_store(store, store_facts):
    assert store_facts["l1_store_tasks"] == str(store.n_cached) == store_facts["l1_store_total"]
    assert store_facts["l1_store_version"] == l1linf.PROTOCOL.version
    n_sets, n_shared = len(l1linf.TABLE1_K), len(l1linf.SHARED_DATASETS)
    # three claims per data set; Table 1's pairs: 6 against HSFS, 5 against FOHSIC, LDFS against LS
    assert store_facts["l1_n_dataset_claims"] == str(3 * n_sets)
    assert store_facts["l1_n_table1_pairs"] == str((6 + 5 + 1) * n_sets)
    assert store_facts["l1_agree_n"] == str(len(l1linf.METHODS) * n_shared)
    n_leak = len(l1linf.METHODS) * len(l1linf.BOOK_DATASETS)     # selection on all the data: wine, glass(_id)
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
            assert all(l1linf.NAMES[d] in text for d in named) or len(named) == len(rows)


def test_means_quoted_are_the_stored_means(page, store_facts):
    for ds in l1linf.SHARED_DATASETS:
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
        assert text.count(f"{verdict} ") >= 1
    assert all(f"({r['effect']:+.2f} points)" in text for _, r in decided.iterrows())

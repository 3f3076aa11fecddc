"""The facts chapter 4 quotes (fsbook.experiments.geometry.facts): the formatting helpers on cases
whose answer is known, and facts() on the committed store."""
import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from fsbook.benchmark_records import read_benchmark
from fsbook.experiments import geometry, read_store
from fsbook.experiments.geometry.facts import (
    b_se,
    by_verdict,
    claim_row,
    counted,
    facts,
    p3,
    span,
    three,
)

CHAPTER = Path(__file__).resolve().parents[1] / "book" / "04_geometric_ratios.ipynb"
#: the chapter's glue keys that its own cells fill in: the scaling benchmark's record and the
#: Table 1 check computed in a shown cell
OWN_KEYS = re.compile(r"geo_(m|n|nnz)(1|mid|10)|geo_(text|block)_(seconds10|ratio)|geo_peak10|"
                      r"geo_targets|geo_same|geo_gram_(max|gb)|geo_t1_\w+")


# ----------------------------------------------------------------------------- helpers
def test_three_and_span_print_as_the_tables_do():
    assert three(0.12345) == "0.123" and three(np.nan) == "undefined"
    assert span([0.3, 0.1, 0.2]) == "0.100–0.300"
    assert span([0.1, 0.1004]) == "0.100"            # equal once printed: one value


def test_p3_keeps_three_significant_digits():
    assert p3(0.0498) == "0.0498" and p3(0.5) == "0.5" and p3(1e-5) == "< 0.001"


def test_b_se():
    assert b_se({"exponent": 2.004, "se": 0.1234}) == "2.00 ± 0.12"


def test_by_verdict_groups_labels_in_verdict_order():
    text = by_verdict(["a", "b", "c", "d"], ["fails", "holds", "not separable", "holds"])
    assert text == "holds for b and d, fails for a and is not separable for c"
    assert by_verdict([], []) == "none"


def _claims(p, verdict="holds", note="2 hold, 1 not separable"):
    return pd.DataFrame({"claim": ["x — all", "x — A"], "general claim": ["x", "x"],
                         "data set": ["all", "A"], "p": [p, 0.01], "p_adj": [p, 0.01],
                         "verdict": [verdict, "holds"], "note": [note, ""], "effect": [0.2, 0.2],
                         "ci_low": [0.1, 0.1], "ci_high": [0.3, 0.3], "test": ["wilcoxon"] * 2,
                         "n": [3, 10], "unit": ["data sets", "sets"]})


def test_counted_reads_the_row_over_the_data_sets():
    untestable = _claims(np.nan, "not separable", "too few data sets")
    assert counted(untestable, "x") == "not separable (too few data sets)"
    text = counted(_claims(0.01), "x")
    assert text.startswith("holds (+0.200") and text.endswith("; per data set: 2 hold, 1 not separable)")


def test_claim_row_needs_exactly_one_row():
    C = _claims(0.01)
    assert claim_row(C, "x — A")["data set"] == "A"
    with pytest.raises(KeyError, match="0 rows"):
        claim_row(C, "y")


# ----------------------------------------------------------------------------- on the store
@pytest.fixture(scope="module")
def store():
    res = read_store(geometry.PROTOCOL)
    return res, geometry.claims.claims(res)


def chapter_keys():
    cells = json.loads(CHAPTER.read_text())["cells"]
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return {k.split(":")[0] for k in re.findall(r"\{glue(?::text)?\}`([^`]+)`", text)}


def test_facts_are_the_chapter_keys_the_chapter_does_not_fill_itself(store):
    res, C = store
    out = facts(res, C, read_benchmark("geometry", "growth"))
    assert all(isinstance(v, str) for v in out.values())
    keys = chapter_keys()
    assert set(out) <= keys, sorted(set(out) - keys)                    # every fact is quoted
    missing = {k for k in keys - set(out) if not OWN_KEYS.fullmatch(k)}
    assert not missing, sorted(missing)                                 # every quote is a fact


def test_facts_count_and_quote_the_claims_table(store):
    res, C = store
    out = facts(res, C)
    top = geometry.claims.headline(C)
    assert out["geo_n_claims"] == str(len(top))
    assert sum(int(out[f"geo_n_{k}"]) for k in ("holds", "fails", "ns")) == (
        top["verdict"] != "no gain").sum()
    assert out["geo_cpu_verdict"] == claim_row(C, geometry.claims.CPU_CLAIM)["verdict"]
    # the gain claim's margin: one test prediction of a classifier's CV accuracy over 1 200 rows
    assert out["geo_rc_margin"] == f"{100 / 1200:.3f}" and out["geo_rc_rows"] == "1 200"
    assert not any(k.startswith("geo_e_") for k in out)                 # no benchmark record given
    strongest = res.tables["figure1"].set_index("ratio")["r"].abs().idxmax()
    assert out["geo_fig1_best"].split()[0] == strongest
    assert out == facts(res)                                            # the claims default to claims(res)


def test_facts_refuse_a_store_that_contradicts_the_text(store):
    res, C = store
    fig1 = res.tables["figure1"].copy()
    fig1["r"] = 0.5                                  # no ratio is "by far" the strongest any more
    changed = SimpleNamespace(tables={**res.tables, "figure1": fig1}, params=res.params,
                              results=res.results, n_cached=res.n_cached, n_total=res.n_total,
                              machines=res.machines)
    with pytest.raises(ValueError, match="by far"):
        facts(changed, C)

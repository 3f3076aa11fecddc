"""The ablations of chapter 2's HSFS and LDFS (fsbook.experiments.l1linf.ablations): the task list,
the task function against the selectors' own settings, and the store against an independent
record of the same variants (benchmarks/l1linf.py --only explanations)."""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from fsbook.benchmark_records import read_benchmark
from fsbook.experiments import l1linf
from fsbook.experiments._reading import read_store
from fsbook.experiments.l1linf import ablations as A


def test_tasks_cover_every_variant_and_fold_of_the_shared_data_sets():
    full = A.make_tasks(True)
    keys = {(t["dataset"], t["method"], t["variant"]) for t in full}
    expected = {(ds, m, v) for ds in l1linf.paper.SHARED_DATASETS for (m, v) in l1linf.tasks.explanation_runs(ds)}
    assert keys == expected
    assert len(full) == len(expected) * l1linf.paper.N_FOLDS
    quick = A.make_tasks(False)
    assert quick and all(t in full for t in quick) and {t["dataset"] for t in quick} == set(A.QUICK_DATASETS)


def test_a_task_is_the_variant_on_its_fold():
    task = {"dataset": "wine", "method": "LDFS", "variant": "q = min(d, 10)", "fold": 2}
    direct = l1linf.tasks.variant_errors("wine", "LDFS", n_components=10, folds_used=[2])
    assert A.run_task(task)["error"] == pytest.approx(float(direct.iloc[0]), abs=0)


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="no variant"):
        A.run_task({"dataset": "glass", "method": "HSFS", "variant": "q = d", "fold": 0})   # glass has d = 9


def test_variants_keeps_only_variants_with_every_fold():
    folds = pd.DataFrame({"dataset": "wine", "method": "HSFS", "variant": ["v"] * 5 + ["w"] * 3,
                          "fold": list(range(5)) + [0, 1, 2], "error": np.arange(8.0)})
    out = A.variants(SimpleNamespace(tables={"folds": folds}))
    assert list(out) == [("wine", "HSFS", "v")] and out["wine", "HSFS", "v"].index.tolist() == list(range(5))


def test_the_store_agrees_with_the_independent_record_of_the_same_variants():
    """The record of ``benchmarks/l1linf.py --only explanations`` ran the same variants on the first
    three folds of ARCENE, DEXTER and MADELON in another process, months of commits apart."""
    results = read_store(A.PROTOCOL, allow_partial=True)
    stored = A.variants(results)
    recorded = l1linf.tasks.recorded_variants(read_benchmark("l1linf", "explanations"))
    compared = 0
    for key, errors in recorded.items():
        if key in stored:
            np.testing.assert_allclose(stored[key].loc[errors.index].to_numpy(), errors.to_numpy(), atol=1e-9)
            compared += 1
    assert compared == len(recorded)

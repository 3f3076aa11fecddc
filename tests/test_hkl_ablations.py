"""The ablations of chapter 6's tuned L1-SVM (fsbook.experiments.hkl.ablations): the LP of the
hinge-loss 1-norm SVM, the verdict rule, the explanation table, and the reference variant
against the stored hkl protocol."""
import gzip
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import hkl
from fsbook.experiments.hkl import ablations as A

ROOT = Path(__file__).resolve().parents[1]


def _stored_hkl(table, method):
    """The hkl store's records of ``table``/``method`` on the first partition, by fold."""
    out = {}
    with gzip.open(ROOT / "results" / "hkl" / f"tasks-v{hkl.PROTOCOL.version}.jsonl.gz", "rt") as f:
        next(f)
        for line in f:
            r = json.loads(line)
            p = r["params"]
            if p.get("table") == table and p.get("method") == method and not p.get("repeat"):
                out[p["fold"]] = r["result"]
    return out


def test_l1_hinge_svm_solves_the_1_norm_svm():
    cvxpy = pytest.importorskip("cvxpy")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6))
    y = (X[:, 0] - 0.5 * X[:, 1] + 0.3 * rng.normal(size=40) > 0).astype(int)
    C = 0.7
    model = A.L1HingeSVM(C=C).fit(X, y)
    s = np.where(y == 1, 1.0, -1.0)
    w, b = cvxpy.Variable(6), cvxpy.Variable()
    obj = cvxpy.norm1(w) + C * cvxpy.sum(cvxpy.pos(1 - cvxpy.multiply(s, X @ w + b)))
    best = cvxpy.Problem(cvxpy.Minimize(obj)).solve()
    ours = np.abs(model.coef_).sum() + C * np.maximum(0, 1 - s * model.decision_function(X)).sum()
    assert ours == pytest.approx(best, rel=1e-6)
    assert set(model.predict(X)) <= {0, 1}


def test_l1_hinge_svm_refuses_one_class():
    with pytest.raises(ValueError, match="two classes"):
        A.L1HingeSVM().fit(np.eye(3), [1, 1, 1])


@pytest.mark.parametrize(("lo", "hi", "verdict"), [
    (0.5, 6.2, A.EXPLAINS), (0.5, 6.0, A.EXPLAINS), (0.5, 5.9, A.EXPLAINS_PART),
    (-0.1, 5.9, A.DOES_NOT_EXPLAIN), (-3.0, -1.0, A.DOES_NOT_EXPLAIN), (-0.1, 6.5, A.INCONCLUSIVE)])
def test_explanation_verdict(lo, hi, verdict):
    assert A.explanation_verdict(lo, hi, 6.0) == verdict


def _fake_results(changes):
    """Folds of the reference at 85, 86, 87, 88 % and each variant shifted per fold."""
    rows = [{"variant": "stored", "fold": f, "accuracy": 85.0 + f, "C": 1.0, "unconverged_fits": 0}
            for f in range(4)]
    for v, shift in changes.items():
        rows += [{"variant": v, "fold": f, "accuracy": 85.0 + f + d, "C": 10.0, "unconverged_fits": 1}
                 for f, d in enumerate(shift)]
    return SimpleNamespace(tables={"folds": pd.DataFrame(rows)})


def test_explanation_table_pairs_each_variant_with_the_reference():
    res = _fake_results({"c_grid": [6.0, 7.0, 6.5, 6.1], "counts": [0.1, -0.1, 0.2, -0.2],
                         "hinge": [1.0, 1.2, 0.9, 1.1]})
    t = A.explanation_table(res, paper=93.0).set_index("explanation")
    assert t.attrs["stored"] == pytest.approx(86.5) and t.attrs["gap"] == pytest.approx(6.5)
    grid = t.loc[A.VARIANTS["c_grid"][0]]
    assert grid["change"] == pytest.approx(6.4) and grid["folds_up"] == 4
    assert grid["accuracy"] == pytest.approx(92.9) and grid["verdict"] == A.EXPLAINS
    assert t.loc[A.VARIANTS["counts"][0], "verdict"] == A.DOES_NOT_EXPLAIN
    assert t.loc[A.VARIANTS["hinge"][0], "verdict"] == A.EXPLAINS_PART
    assert t.loc[A.VARIANTS["hinge"][0], "ci_low"] < 1.05 < t.loc[A.VARIANTS["hinge"][0], "ci_high"]
    assert t.loc[A.VARIANTS["c_grid"][0], "unconverged_fits"] == 4
    assert "none (the stored L1-SVM, recomputed)" not in t.index


def test_tasks_and_variants():
    full, sub = A.make_tasks(True), A.make_tasks(False)
    assert len(full) == len(A.VARIANTS) * hkl.paper.N_FOLDS and all(t in full for t in sub)
    with pytest.raises(ValueError, match="unknown variant"):
        A.run_task({"variant": "nothing", "fold": 0})


def test_the_reference_variant_is_the_stored_l1_svm():
    """The ablations' reference recomputes the hkl store's tuned L1-SVM (fold 3), and the hkl
    protocol's own Table 3 task, through the same code, still gives its stored record (fold 1)."""
    stored = _stored_hkl(3, "svm_tuned")
    r = A.run_task({"variant": "stored", "fold": 3})
    assert r["accuracy"] == stored[3]["L1"] and r["C"] == stored[3]["C_L1"]
    assert hkl.tasks.run_task({"table": 3, "fold": 1, "method": "svm_tuned"}) == stored[1]


def test_count_and_vocabulary_inputs_are_the_same_posts():
    X01, y, words, _ = hkl.data.load_table1("20newsgroups")
    counts = A._words(2, True)
    assert counts.shape == X01.shape and ((counts > 0).astype(float) != X01).nnz == 0
    assert counts.max() > 1
    assert A._words(1, False).shape[1] > X01.shape[1]

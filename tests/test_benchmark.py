"""Benchmark protocol: deterministic tasks independent of order, the same folds for every
method, a tiny run through run_protocol end to end, clear errors on bad parameters."""
import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.experiments import run_protocol
from fsbook.experiments import benchmark as B


def _task(method="ReliefF", ks=(2,), fold=0, dataset="wine", repeat=0):
    return {"dataset": dataset, "repeat": repeat, "fold": fold, "n_folds": 3, "method": method, "ks": list(ks)}


def _stable(result):
    return {k: v for k, v in result.items() if k != "fit_time"}


def test_folds_are_shared_partitions_seeded_by_dataset_and_repeat():
    y = B.load("wine")[1]
    f0 = B.folds("wine", 0, 3, y)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(f0, B.folds("wine", 0, 3, y)))
    assert np.array_equal(np.sort(np.concatenate([t for _, t in f0])), np.arange(len(y)))
    assert not np.array_equal(f0[0][1], B.folds("wine", 1, 3, y)[0][1])
    # every method has a task on every (dataset, repeat, fold), and the task's folds ignore the method
    tasks = B.make_tasks(False)
    cells = {}
    for t in tasks:
        cells.setdefault((t["dataset"], t["repeat"], t["fold"]), set()).add(t["method"])
    assert all(m == set(B.methods()) for m in cells.values())
    assert len(cells) == len(B.BOOK_DATASETS) * 3


def test_full_protocol_asks_only_for_k_below_each_datasets_width():
    """wine has 13 features: the full protocol's k = 20 and 50 are not asked of it (run_task
    refuses them), while the wide sets get every k of FULL_KS."""
    tasks = B.make_tasks(True)
    widths = {name: B.load(name)[0].shape[1] for name in B.FULL_DATASETS}
    assert {t["dataset"] for t in tasks} == set(B.FULL_DATASETS)
    assert len(tasks) == len(B.FULL_DATASETS) * 5 * 2 * len(B.methods())
    for t in tasks:
        if t["method"] in B.OWN_SIZE:
            assert t["ks"] == [0]
        else:
            assert t["ks"] == [k for k in B.FULL_KS if k < widths[t["dataset"]]]
    assert next(t for t in tasks if t["dataset"] == "wine" and t["method"] == "MI")["ks"] == [2, 5, 10]
    assert next(t for t in tasks if t["dataset"] == "arcene" and t["method"] == "MI")["ks"] == list(B.FULL_KS)


@pytest.mark.parametrize("method", sorted(B.RANKERS))
def test_a_ranking_fitted_once_keeps_the_sets_of_a_fit_at_each_k(method):
    """run_task fits MI, ReliefF and WK-LP once and cuts the ranking at every k: the kept sets
    must equal those of a separate fit at each k (same seed, same training fold)."""
    params = _task(method, ks=(2, 5, 10))
    result = B.run_task(params)
    X, y, _, boolean = B.load("wine")
    train = B.folds("wine", 0, 3, y)[0][0]
    seed = B.task_seed(params)
    for k, kept in zip(result["k"], result["support"]):
        alone = make_pipeline(StandardScaler(), B.make_selector(method, k, seed, boolean)).fit(X[train], y[train])
        assert kept == np.flatnonzero(alone[-1].get_support()).tolist()
    assert len(set(result["fit_time"])) == 1          # one fit serves every k


def test_run_task_is_deterministic():
    a, b = B.run_task(_task("MI", ks=(2, 5))), B.run_task(_task("MI", ks=(2, 5)))
    assert _stable(a) == _stable(b)
    assert a["n_selected"] == [2, 5] and all(0 <= x <= 1 for x in a["acc_linear"] + a["acc_rbf"])
    # liblinear-based selectors must not depend on NumPy's global generator (other processes)
    np.random.seed(1)
    l1a = B.run_task(_task("l1-SVM", ks=(5,), dataset="breast_cancer"))
    np.random.seed(2)
    l1b = B.run_task(_task("l1-SVM", ks=(5,), dataset="breast_cancer"))
    assert _stable(l1a) == _stable(l1b)
    if B.weak_kernel_available():  # the LP's triplets are drawn with the task's seed
        w1, w2 = B.run_task(_task("WK-LP", ks=(5,))), B.run_task(_task("WK-LP", ks=(5,)))
        assert _stable(w1) == _stable(w2) and w1["n_selected"] == [5]
    none = B.run_task(_task("none", ks=(0,)))
    assert none["n_selected"] == [13] and none["support"] == [list(range(13))]


def test_tiny_protocol_end_to_end_and_independent_of_order():
    tasks = [_task(m, ks=(B.RANK_K,) if m != "none" else (0,), fold=f, dataset=d)
             for d in ("wine", "breast_cancer") for f in range(3) for m in ("none", "MI", "ReliefF", "LDFS")]
    r1 = run_protocol(B.PROTOCOL, tasks=tasks, out=None, progress=False)
    r2 = run_protocol(B.PROTOCOL, tasks=tasks[::-1], out=None, progress=False)
    by_key = {str(p): _stable(r) for p, r in zip(r2.params, r2.results)}
    assert all(by_key[str(p)] == _stable(r) for p, r in zip(r1.params, r1.results))
    t = r1.tables
    acc = t["accuracy_at_k"]
    assert set(acc.method) == {"none", "MI", "ReliefF", "LDFS"} and set(acc.dataset) == {"wine", "breast_cancer"}
    stab = t["stability"]
    assert stab.kuncheva.between(-1, 1).all()
    st = B.statistics(acc)
    assert st["p-value"].between(0, 1).all() and (st["data sets"] == 2).all()
    assert len(t["supports"]) == len(tasks)


def test_bad_parameters():
    with pytest.raises(ValueError, match="unknown method"):
        B.run_task(_task("nope"))
    with pytest.raises(ValueError, match="fold"):
        B.run_task(_task(fold=3))
    with pytest.raises(ValueError, match="k=13"):
        B.run_task(_task(ks=(13,)))
    with pytest.raises(ValueError, match="k=13"):          # refused before the one fit at max(ks)
        B.run_task(_task("MI", ks=(2, 13)))
    with pytest.raises(ValueError, match="lack"):
        B.run_task({"dataset": "wine"})
    with pytest.raises(ValueError, match="unknown dataset"):
        B.load("nope")
    with pytest.raises(ValueError, match="metric"):
        B.score_matrix(None, "accuracy")

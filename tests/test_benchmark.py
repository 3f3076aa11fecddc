"""Benchmark protocol: deterministic tasks independent of order, the same folds for every
method, a tiny run through run_protocol end to end, clear errors on bad parameters."""
import numpy as np
import pandas as pd
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fsbook.experiments import benchmark as B
from fsbook.experiments import run_protocol
from fsbook.experiments._runner import task_seed


def _task(method="ReliefF", ks=(2,), fold=0, dataset="wine", repeat=0):
    return {"dataset": dataset, "repeat": repeat, "fold": fold, "n_folds": 3, "method": method, "ks": list(ks)}


def _stable(result):
    return {k: v for k, v in result.items() if k != "fit_time"}


def test_folds_are_shared_partitions_seeded_by_dataset_and_repeat():
    y = B.data.load("wine")[1]
    f0 = B.data.folds("wine", 0, 3, y)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(f0, B.data.folds("wine", 0, 3, y)))
    assert np.array_equal(np.sort(np.concatenate([t for _, t in f0])), np.arange(len(y)))
    assert not np.array_equal(f0[0][1], B.data.folds("wine", 1, 3, y)[0][1])
    # every method has a task on every (dataset, repeat, fold), and the task's folds ignore the method
    tasks = B.tasks.make_tasks(False)
    cells = {}
    for t in tasks:
        cells.setdefault((t["dataset"], t["repeat"], t["fold"]), set()).add(t["method"])
    assert all(m == set(B.paper.all_methods()) - B.paper.FULL_ONLY for m in cells.values())
    assert len(cells) == len(B.paper.BOOK_DATASETS) * 3


def test_full_protocol_asks_only_for_k_below_each_datasets_width():
    """wine has 13 features: the full protocol's k = 20 and 50 are not asked of it (run_task
    refuses them), while the wide sets get every k of FULL_KS."""
    tasks = B.tasks.make_tasks(True)
    widths = {name: B.data.width(name) for name in B.paper.FULL_DATASETS}
    assert widths["20newsgroups"] == B.paper.VOCABULARY and widths["wine"] == 13
    assert {t["dataset"] for t in tasks} == set(B.paper.FULL_DATASETS)
    assert len(tasks) == len(B.paper.FULL_DATASETS) * 5 * 2 * len(B.paper.all_methods())
    for t in tasks:
        if t["method"] in B.paper.OWN_SIZE or t["method"] in B.paper.CLASSIFIER_SIDE:
            assert t["ks"] == [0]
        else:
            assert t["ks"] == [k for k in B.paper.FULL_KS if k < widths[t["dataset"]]]
    assert next(t for t in tasks if t["dataset"] == "wine" and t["method"] == "MI")["ks"] == [2, 5, 10]
    assert next(t for t in tasks if t["dataset"] == "arcene" and t["method"] == "MI")["ks"] == list(B.paper.FULL_KS)


@pytest.mark.parametrize("method", sorted(B.paper.RANKERS - {"HKL"}))   # HKL: test_benchmark_methods.py
def test_a_ranking_fitted_once_keeps_the_sets_of_a_fit_at_each_k(method):
    """run_task fits MI, ReliefF and WK-LP once and cuts the ranking at every k: the kept sets
    must equal those of a separate fit at each k (same seed, same training fold)."""
    params = _task(method, ks=(2, 5, 10))
    result = B.tasks.run_task(params)
    X, y, _, boolean = B.data.load("wine")
    train = B.data.folds("wine", 0, 3, y)[0][0]
    seed = task_seed(params)
    for k, kept in zip(result["k"], result["support"]):
        alone = make_pipeline(StandardScaler(), B.selectors.make_selector(method, k, seed, boolean)).fit(X[train], y[train])
        assert kept == np.flatnonzero(alone[-1].get_support()).tolist()
    assert len(set(result["fit_time"])) == 1          # one fit serves every k


def test_run_task_is_deterministic():
    a, b = B.tasks.run_task(_task("MI", ks=(2, 5))), B.tasks.run_task(_task("MI", ks=(2, 5)))
    assert _stable(a) == _stable(b)
    assert a["n_selected"] == [2, 5] and all(0 <= x <= 1 for x in a["acc_linear"] + a["acc_rbf"])
    # liblinear-based selectors must not depend on NumPy's global generator (other processes)
    np.random.seed(1)  # noqa: NPY002 (the legacy global state must not matter)
    l1a = B.tasks.run_task(_task("l1-SVM", ks=(5,), dataset="breast_cancer"))
    np.random.seed(2)  # noqa: NPY002
    l1b = B.tasks.run_task(_task("l1-SVM", ks=(5,), dataset="breast_cancer"))
    assert _stable(l1a) == _stable(l1b)
    # the LP's triplets are drawn with the task's seed
    w1, w2 = B.tasks.run_task(_task("WK-LP", ks=(5,))), B.tasks.run_task(_task("WK-LP", ks=(5,)))
    assert _stable(w1) == _stable(w2) and w1["n_selected"] == [5]
    none = B.tasks.run_task(_task("none", ks=(0,)))
    assert none["n_selected"] == [13] and none["support"] == [list(range(13))]


def test_tiny_protocol_end_to_end_and_independent_of_order():
    tasks = [_task(m, ks=(B.paper.RANK_K,) if m != "none" else (0,), fold=f, dataset=d)
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
    st = B.ranks.statistics(acc)
    assert st["p-value"].between(0, 1).all() and (st["data sets"] == 2).all()
    assert len(t["supports"]) == len(tasks)


def test_bad_parameters():
    with pytest.raises(ValueError, match="unknown method"):
        B.tasks.run_task(_task("nope"))
    with pytest.raises(ValueError, match="fold"):
        B.tasks.run_task(_task(fold=3))
    with pytest.raises(ValueError, match="k=13"):
        B.tasks.run_task(_task(ks=(13,)))
    with pytest.raises(ValueError, match="k=13"):          # refused before the one fit at max(ks)
        B.tasks.run_task(_task("MI", ks=(2, 13)))
    with pytest.raises(ValueError, match="lack"):
        B.tasks.run_task({"dataset": "wine"})
    with pytest.raises(ValueError, match="unknown dataset"):
        B.data.load("nope")
    with pytest.raises(ValueError, match="metric"):
        B.ranks.score_matrix(None, "accuracy")
    with pytest.raises(ValueError, match="vocabulary size"):
        B.data.vocabulary(np.eye(3), 4)


def test_vocabulary_keeps_the_most_frequent_words_of_the_training_posts_ties_to_the_earlier():
    import scipy.sparse as sp

    X = sp.csr_matrix(np.array([[1, 0, 1, 1, 0],
                                [1, 0, 0, 1, 0],
                                [0, 1, 2, 0, 0],
                                [1, 0, 0, 0, 1]], dtype=float))   # document frequencies 3, 1, 2, 2, 1
    assert B.data.vocabulary(X, 1).tolist() == [0]
    assert B.data.vocabulary(X, 3).tolist() == [0, 2, 3]
    assert B.data.vocabulary(X, 4).tolist() == [0, 1, 2, 3]           # tie of words 1 and 4: the earlier


def test_text_fold_sees_only_its_training_vocabulary_and_sets_index_the_word_list():
    """20newsgroups: the vocabulary comes from the training posts only, every method of a fold sees the
    same columns, and kept sets are indices into the pair's word list (comparable across folds)."""
    X, y, words, boolean = B.data.load("20newsgroups")
    assert boolean and X.shape == (1427, 12511) and len(words) == 12511
    train, test = B.data.folds("20newsgroups", 0, 2, y)[0]
    X_train, X_test, columns = B.data.fold_data("20newsgroups", train, test)
    assert X_train.shape == (train.size, B.paper.VOCABULARY) and X_test.shape == (test.size, B.paper.VOCABULARY)
    df_train = np.asarray((X[train] != 0).sum(axis=0)).ravel()
    assert df_train[columns].min() >= np.delete(df_train, columns).max()    # the most frequent in training
    assert np.array_equal(X_train, X[train][:, columns].toarray())
    tasks = [{"dataset": "20newsgroups", "repeat": 0, "fold": f, "n_folds": 2, "method": "l1-SVM", "ks": [5]} for f in (0, 1)]
    res = run_protocol(B.PROTOCOL, tasks=tasks, out=None, progress=False)
    r = res.results[0]
    assert r["n_selected"] == [5] and set(r["support"][0]) <= set(columns.tolist())
    assert 0.5 < r["acc_linear"][0] <= 1
    # Kuncheva's index across the two folds' word sets (indices up to 12 511, drawn from 2 000 each)
    from fsbook.stats import kuncheva_index
    a, b = (set(x["support"][0]) for x in res.results)
    stab = res.tables["stability"]
    assert stab.kuncheva.iloc[0] == pytest.approx(kuncheva_index([0, 1, 2, 3, 4], list(range(5 - len(a & b), 10 - len(a & b))), B.paper.VOCABULARY))


def test_projection_penalty_task_tunes_C_and_lambda_on_the_same_inner_folds():
    params = {"dataset": "wine", "repeat": 0, "fold": 0, "n_folds": 3, "method": "Proj-SVM", "ks": [0]}
    r1, r2 = B.tasks.run_task(params), B.tasks.run_task(params)
    assert {k: v for k, v in r1.items() if k != "fit_time"} == {k: v for k, v in r2.items() if k != "fit_time"}
    assert r1["C"] in B.paper.C_LINEAR and r1["reduced_penalty"] in B.paper.PROJ_PENALTIES and 0.8 < r1["acc_linear"] <= 1
    # reduce puts it beside the linear SVM on all features, not among the ranked selectors
    tasks = [dict(params, fold=f, method=m) for f in range(3) for m in ("none", "Proj-SVM")]
    tables = run_protocol(B.PROTOCOL, tasks=tasks, out=None, progress=False).tables
    side = tables["classifier_side"]
    assert side.dataset.tolist() == ["wine"] and "Proj-SVM" not in set(tables["accuracy_at_k"].method)
    none = tables["accuracy_at_k"].set_index("method").loc["none", "acc_linear"]
    assert side["linear SVM"].iloc[0] == pytest.approx(none)
    assert side["difference"].iloc[0] == pytest.approx(side["Proj-SVM"].iloc[0] - none)


def _fake_store(datasets=("wine", "ionosphere"), seed=0):
    """Every full-protocol task of ``datasets`` with random stored accuracies (a test fold of 100)."""
    from types import SimpleNamespace

    rng = np.random.default_rng(seed)
    params = [t for t in B.tasks.make_tasks(True) if t["dataset"] in datasets]
    results = []
    for p in params:
        if B.selectors.cannot_run(p["method"], p["dataset"]):
            results.append({"not_run": "no groups"})
        elif p["method"] in B.paper.CLASSIFIER_SIDE:
            results.append({"acc_linear": rng.integers(80, 95) / 100})
        else:
            n = len(p["ks"])
            results.append({"k": list(p["ks"]), "acc_linear": list(rng.integers(80, 95, n) / 100),
                            "acc_rbf": list(rng.integers(80, 95, n) / 100)})
    return SimpleNamespace(params=params, results=results)


def _set(store, dataset, method, values):
    """Set the linear SVM accuracy of every fold of ``method`` on ``dataset`` (values[repeat][fold])."""
    for p, r in zip(store.params, store.results):
        if p["dataset"] == dataset and p["method"] == method:
            v = values[p["repeat"]][p["fold"]]
            if method in B.paper.CLASSIFIER_SIDE:
                r["acc_linear"] = v
            else:
                r["acc_linear"] = [v] * len(r["k"])


def test_fold_accuracies_pair_the_stored_folds_and_refuse_missing_ones():
    store = _fake_store(("wine",))
    acc = B.claims.fold_accuracies(store.params, store.results, "wine", "MI", "acc_rbf", k=5)
    assert acc.shape == (5, 2)
    p, r = next((p, r) for p, r in zip(store.params, store.results) if p["method"] == "MI" and p["repeat"] == 3
                and p["fold"] == 1)
    assert acc[3, 1] == pytest.approx(100 * r["acc_rbf"][r["k"].index(5)])
    with pytest.raises(ValueError, match="does not run"):
        B.claims.fold_accuracies(store.params, store.results, "wine", "GeoRatio")
    with pytest.raises(ValueError, match="linear SVM accuracy only"):
        B.claims.fold_accuracies(store.params, store.results, "wine", "Proj-SVM", "acc_rbf")
    keep = [i for i, p in enumerate(store.params) if not (p["method"] == "MI" and p["repeat"] == 0)]
    with pytest.raises(ValueError, match="8 of 10 folds"):
        B.claims.fold_accuracies([store.params[i] for i in keep], [store.results[i] for i in keep], "wine", "MI")


def test_proj_claim_is_the_paired_t_over_the_repetition_means_by_hand():
    """5 x 2 CV: the paired t-test over the 5 repetition means (unit "repetitions"); the row over the
    data sets is a Wilcoxon test over the per-data-set effects, in a Holm family of its own."""
    from scipy import stats

    store = _fake_store()
    proj = [[0.90, 0.92], [0.91, 0.88], [0.93, 0.90], [0.89, 0.91], [0.92, 0.94]]
    none = [[0.88, 0.92], [0.90, 0.85], [0.90, 0.91], [0.87, 0.90], [0.90, 0.91]]
    _set(store, "wine", "Proj-SVM", proj)
    _set(store, "wine", "none", none)
    t = B.claims.claims(store)
    row = t[(t.table == "proj") & (t.dataset == "wine")].iloc[0]
    d = (100 * (np.array(proj) - np.array(none))).mean(axis=1)        # Proj-SVM's direction: higher
    tstat = d.mean() / (d.std(ddof=1) / np.sqrt(5))
    assert row["test"] == "repeated_cv_t" and row["unit"] == "repetitions" and row["n"] == 5
    assert row["n_direction"] == int((d > 0).sum())
    assert row["effect"] == pytest.approx(d.mean())
    assert row["p"] == pytest.approx(2 * stats.t.sf(abs(tstat), 4))
    half = stats.t.ppf(0.975, 4) * d.std(ddof=1) / np.sqrt(5)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    # Holm over the per-data-set rows only (2 data sets); the Wilcoxon row is a family of its own
    fam = t[t.table == "proj"]
    assert len(fam) == 2 and (fam.dataset != "").all() and (fam.p_adj >= fam.p).all()
    over = t[t.table == "proj" + B.claims.OVER]
    assert len(over) == 1
    over = over.iloc[0]
    assert over["test"] == "wilcoxon" and over["unit"] == "data sets" and over["n"] == 2
    assert np.isnan(over["p"]) and over["verdict"] == "not separable"      # 2 data sets: untestable
    assert "count rule" not in set(t.test)
    # the chapter's view shows both families of the table
    assert B.claims.claims_view(t, "proj")["claim"].tolist() == ["wine", "ionosphere", "over data sets"]


def test_over_datasets_rows_are_a_wilcoxon_family_apart_and_every_family_can_pass():
    """Eight data sets: the Wilcoxon row over them is decided on the per-data-set effects, Holm runs
    over the per-data-set rows and over the over-data-set rows separately, and family_check finds
    no family that could never pass (2/2^8 < 0.05/2)."""
    from scipy import stats

    from fsbook.claims import family_check, holm

    store = _fake_store(B.paper.FULL_DATASETS, seed=1)
    t = B.claims.claims(store)
    for table in B.claims.CLAIM_TABLES:
        per = t[t.table == table]
        assert (per.dataset != "").all() and (per.test == "repeated_cv_t").all()
    over = t[t.table == "hsfs" + B.claims.OVER]
    assert over.classifier.tolist() == list(B.paper.CLASSIFIERS.values())
    for _, r in over.iterrows():
        effects = t[(t.table == "hsfs") & (t.general == r["general"])]["effect"].to_numpy()
        nz = effects[effects != 0]
        assert r["n"] == 8 and r["p"] == pytest.approx(stats.wilcoxon(nz).pvalue)
    assert over.p_adj.tolist() == pytest.approx(holm(over.p.to_numpy()).tolist())   # Holm over these 2 only
    check = family_check(t)
    assert set(check.table) == set(B.claims.CLAIM_TABLES) | {f"{x}{B.claims.OVER}" for x in B.claims.CLAIM_TABLES if x != "ldfs_wine"}
    assert check["can pass"].all()


def test_rounding_decides_nothing():
    """One test sample in one of ten folds (+0.1 point on the mean, a "win" at the printed 0.1 %)
    decides no direction; a last-bit difference is no difference at all.  Both lie within the
    declared margin (one test prediction per repetition, 0.56 points on wine's 178 samples), so
    the engine shows them equal: no gain."""
    store = _fake_store()
    base = [[0.9, 0.9]] * 5
    _set(store, "wine", "none", base)
    _set(store, "wine", "Proj-SVM", [[0.91, 0.9]] + [[0.9, 0.9]] * 4)
    _set(store, "ionosphere", "none", base)
    _set(store, "ionosphere", "Proj-SVM", [[0.9 + 1e-15, 0.9]] * 5)
    t = B.claims.claims(store).set_index(["table", "dataset"])
    wine = t.loc[("proj", "wine")]
    assert round(wine["effect"], 1) == 0.1 and wine["p_adj"] > 0.05 and wine["verdict"] == "no gain"
    assert wine["margin"] == pytest.approx(100 / 178)
    iono = t.loc[("proj", "ionosphere")]
    assert iono["effect"] == 0.0 and iono["p"] == 1.0 and iono["verdict"] == "no gain"


def test_best_selector_claims_name_the_best_and_its_ties():
    store = _fake_store()
    for m in ("MI", "ReliefF"):
        _set(store, "wine", m, [[0.99, 0.99]] * 5)
    _set(store, "wine", "none", [[0.80, 0.82], [0.81, 0.80], [0.79, 0.80], [0.82, 0.81], [0.80, 0.80]])
    t = B.claims.claims(store)
    row = t[(t.table == "best_k") & (t.dataset == "wine") & (t.classifier == "linear SVM")].iloc[0]
    assert row["a"] == "MI" and row["note"] == "best: MI, ReliefF"         # tie: the protocol's first
    assert row["effect"] > 0 and row["verdict"] == "holds"


def test_stored_datasets_lists_the_data_sets_whose_tasks_are_all_stored():
    """A partial store's page reduces whole data sets only: one missing task drops its data set,
    the order is the protocol's, and the parameters as read back from JSON (lists) still match."""
    import json

    tasks = B.tasks.make_tasks(True)
    read_back = [json.loads(json.dumps(t)) for t in tasks]
    assert B.tables.stored_datasets(read_back) == list(B.paper.FULL_DATASETS)
    partial = [t for t in read_back if t["dataset"] in ("ionosphere", "wine", "colon")]
    partial.remove(next(t for t in partial if t["dataset"] == "colon" and t["method"] == "HKL"))
    assert B.tables.stored_datasets(partial[::-1]) == ["wine", "ionosphere"]
    assert B.tables.stored_datasets([]) == []
    # tasks of another protocol (the subsample's 3 folds) do not count for the full protocol
    assert B.tables.stored_datasets(B.tasks.make_tasks(False)) == []


def test_versus_control_is_holm_vs_control_per_classifier():
    """Each ranked method against the classifier on all features, per classifier: the ranks, z and
    Holm-adjusted p of fsbook.stats.holm_vs_control on the chapter's score matrix."""
    from fsbook.stats import average_ranks, holm_vs_control

    rng = np.random.default_rng(3)
    methods = ["none", "MI", "SVM-RFE", "HSFS"]
    acc = pd.DataFrame([{"dataset": f"d{i}", "method": m, "acc_linear": rng.uniform(70, 90),
                         "acc_rbf": rng.uniform(70, 90)} for i in range(6) for m in methods])
    out = B.ranks.versus_control(acc)
    assert out.classifier.tolist() == ["linear SVM"] * 3 + ["RBF SVM"] * 3
    for metric, label in B.paper.CLASSIFIERS.items():
        s = B.ranks.score_matrix(acc, metric)
        ref = holm_vs_control(s, "none")
        got = out[out.classifier == label].set_index("method")
        assert got.index.tolist() == ref.index.tolist() == ["MI", "SVM-RFE", "HSFS"]
        assert np.allclose(got[["average rank", "z", "p", "p (Holm)"]].to_numpy(),
                           ref[["rank", "z", "p", "p_holm"]].to_numpy())
        assert (got["rank of the control"] == average_ranks(s)["none"]).all()
        assert ((got.z > 0) == (got.side == "ranks below")).all()

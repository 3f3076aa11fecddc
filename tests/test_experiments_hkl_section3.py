"""The Section 3 protocol of chapter 6 (fsbook.experiments.hkl): tasks, one run per table kind,
the reduction and the Wilcoxon table."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from fsbook.experiments import hkl as proto


def test_tasks_cover_the_tables():
    full = proto.tasks.make_tasks(True)
    sub = proto.tasks.make_tasks(False)
    assert {t["table"] for t in full} == {1, 3, 4, 5, "disjunctions"}
    t1 = [t for t in full if t["table"] == 1 and "repeat" not in t]
    # 15 configurations + 5 CFS on raw attributes + all features (booleanised, raw, raw tuned)
    # + HKL, 4 folds (1 split for each MONK's problem)
    assert len(t1) == 24 * (7 * 4 + 3)
    # the other partitions: every Table 1 row on the seven data sets with 4-fold CV (the 20
    # Newsgroups pair's too, version 10 on) and Table 3's tuned SVMs on the pair's partitions,
    # Table 4's claims' rows, Table 5's rows; the subsample has none
    again = [t for t in full if "repeat" in t]
    assert {t["repeat"] for t in again} == set(range(1, proto.paper.REPEATS))
    assert {t["dataset"] for t in again if t["table"] == 1} == set(proto.paper.REPEATED_TABLE1)
    assert "20newsgroups" in proto.paper.REPEATED_TABLE1
    assert len([t for t in again if t["table"] == 1]) == (proto.paper.REPEATS - 1) * 7 * 4 * 24
    assert sorted((t["repeat"], t["fold"]) for t in again if t["table"] == 3) == [
        (r, f) for r in range(1, proto.paper.REPEATS) for f in range(4)]
    assert {t.get("fraction") for t in again if t["table"] == 4} == {None, 1.0, min(proto.paper.FRACTIONS)}
    assert not any("repeat" in t for t in sub)
    assert {t["dataset"] for t in sub if t["table"] == 1} == set(proto.paper.SMALL_DATASETS)
    assert len({tuple(sorted(t.items())) for t in full}) == len(full)
    # the subsample's Table 4: both microarray sets, three fractions and HKL, each a full-protocol task
    t4 = [t for t in sub if t["table"] == 4]
    assert {t["dataset"] for t in t4} == {"colon", "lymphoma"} and len(t4) == 2 * 4 * (3 + 1)
    assert all(t in full for t in t4)
    assert proto.paper.PAPER_TABLE1.shape == (47, 10)
    assert proto.paper.PAPER_TABLE1.loc[("hkl", "HKL"), "20newsgroups"] == 94.55


def test_monk_uses_the_uci_split_and_a_wrapper_task_runs():
    X, y, names, split = proto.data.load_table1("monks1")
    assert split[0].size == 124 and split[1].size == 432 and X.shape[1] == 17
    r = proto.tasks.run_task({"table": 1, "dataset": "monks1", "fold": 0, "method": "cfs/best_first"})
    assert set(r) == {"n_selected", "L2", "L1", "outcomes_L2", "outcomes_L1"}
    assert 0 <= r["L2"] <= 1 and r["n_selected"] >= 1
    assert len(r["outcomes_L2"]) == 432 and r["outcomes_L2"].count("1") == round(432 * r["L2"])
    r_all = proto.tasks.run_task({"table": 1, "dataset": "monks1", "fold": 0, "method": "all"})
    assert set(r_all) == {"L2", "L1", "outcomes_L2", "outcomes_L1"}
    assert r == proto.tasks.run_task({"table": 1, "dataset": "monks1", "fold": 0, "method": "cfs/best_first"})


def test_table4_zero_norm_task_keeps_the_fraction():
    r = proto.tasks.run_task({"table": 4, "dataset": "colon", "fold": 0, "method": "zero_norm",
                        "fraction": 0.125})
    assert r["fraction_used"] == pytest.approx(0.125) and 0.5 <= r["accuracy"] <= 1


def test_reduce_builds_tables_and_wilcoxon():
    rng = np.random.default_rng(0)
    params, results = [], []
    datasets = ["breast_cancer", "vote", "monks1", "monks2", "monks3", "breast_cancer_wisconsin"]
    for d in datasets:
        for m in proto.paper.CONFIGS + ["all", "hkl"]:
            params.append({"table": 1, "dataset": d, "fold": 0, "method": m})
            a = float(rng.uniform(0.6, 0.8))
            results.append({"HKL": 0.9, "C": 1.0, "n_disjunctions": 3, "n_features_used": 4}
                           if m == "hkl" else {"L2": a, "L1": a - 0.01})
    params.append({"table": 4, "dataset": "colon", "fold": 0, "method": "zero_norm", "fraction": 0.5})
    results.append({"accuracy": 0.8, "fraction_used": 0.5})
    tables = proto.tables.reduce(params, results)
    t1 = tables["table1"]
    assert t1.shape == (33, 6) and t1.loc[("hkl", "HKL")].eq(90.0).all()
    t2 = tables["table2"]
    assert len(t2) == 32 and (t2["wins"] == 6).all()
    expected = wilcoxon(t1.loc[("hkl", "HKL")], t1.loc[("cfs/best_first", "L2")], alternative="greater").pvalue
    assert t2.iloc[0]["p (HKL better)"] == pytest.approx(expected)
    assert tables["table1_details"].loc["vote", "n_disjunctions"] == 3
    assert tables["table4"].iloc[0]["accuracy"] == pytest.approx(80.0)


def _table1_with_20ng():
    """Task lists of a fake full run: Table 1 on vote and 20ng, one tuned-SVM Table 3 task."""
    params, results = [], []
    for d in ["vote", "20newsgroups"]:
        for m in proto.paper.CONFIGS + ["all", "hkl"]:
            params.append({"table": 1, "dataset": d, "fold": 0, "method": m})
            results.append({"HKL": 0.9, "C": 1.0, "n_disjunctions": 3, "n_features_used": 4}
                           if m == "hkl" else {"L2": 0.8, "L1": 0.7})
    params.append({"table": 3, "fold": 0, "method": "svm_tuned"})
    results.append({"L2": 0.92, "L1": 0.87})
    return params, results


def test_reduce_of_the_full_protocol_gives_only_dataframes():
    """The runner stores every table with DataFrame.to_dict(orient="split"): Table 3 and the
    disjunction summary must be DataFrames too (a Series stopped the first full run)."""
    params, results = _table1_with_20ng()
    params.append({"table": "disjunctions"})
    results.append({"accuracy": 0.85, "C": 1.0, "found": [{"disjunction": "god", "coverage": 0.3}],
                    "paper": [{"disjunction": "god | beliefs", "coverage": 0.2}]})
    tables = proto.tables.reduce(params, results)
    assert {"table3", "disjunctions", "disjunctions_accuracy"} <= set(tables)
    assert all(isinstance(t, pd.DataFrame) for t in tables.values())
    assert tables["table3"].loc["L2-SVM (tuned C)"].iloc[0] == pytest.approx(92.0)
    assert tables["disjunctions_accuracy"].loc["accuracy", "value"] == pytest.approx(0.85)


def test_interaction_tasks_in_both_protocols():
    for full in (True, False):
        ti = [t for t in proto.tasks.make_tasks(full) if t["table"] == 3 and t["method"] == "interactions"]
        assert sorted((t["degree"], t["fold"]) for t in ti) == \
            [(d, f) for d in (2, 3) for f in range(proto.paper.N_FOLDS)]


def test_interaction_kernel_is_the_inner_product_of_words_and_pairs():
    from fsbook.experiments.hkl.newsgroups import interaction_kernel
    rng = np.random.default_rng(3)
    X = (rng.random((7, 5)) < 0.4).astype(float)
    gamma = 0.3
    # explicit features: the words, and sqrt(γ) x_a x_b for every ordered pair (a, b)
    pairs = np.einsum("ia,ib->iab", X, X).reshape(7, -1)
    Phi = np.hstack([X, np.sqrt(gamma) * pairs])
    np.testing.assert_allclose(interaction_kernel(X @ X.T, gamma), Phi @ Phi.T)
    # every two-word disjunction is in the span: x_a ∨ x_b = x_a + x_b − x_a x_b
    a, b = 1, 3
    np.testing.assert_array_equal(np.maximum(X[:, a], X[:, b]), X[:, a] + X[:, b] - pairs[:, a * 5 + b])
    # degree 3 adds γ² times the ordered triples; degree 1 is the linear kernel
    triples = np.einsum("ia,ib,ic->iabc", X, X, X).reshape(7, -1)
    Phi3 = np.hstack([Phi, gamma * triples])
    np.testing.assert_allclose(interaction_kernel(X @ X.T, gamma, degree=3), Phi3 @ Phi3.T)
    np.testing.assert_allclose(interaction_kernel(X @ X.T, gamma, degree=1), X @ X.T)
    with pytest.raises(ValueError, match="gamma"):
        interaction_kernel(X @ X.T, -1.0)
    with pytest.raises(ValueError, match="degree"):
        interaction_kernel(X @ X.T, 0.1, degree=0)


def test_interaction_fold_with_the_linear_kernel_only_matches_a_linear_svc():
    from sklearn.svm import SVC

    from fsbook.datasets import load_atheism_religion, outer_folds
    from fsbook.experiments.hkl.newsgroups import interaction_svm_fold
    r = interaction_svm_fold(1, gammas=(0.0,), Cs=(0.01, 0.1))
    assert r["interactions"] == {"gamma": 0.0, **r["linear"]}
    X, y, _ = load_atheism_religion()
    tr, te = outer_folds(y)[1]
    ref = SVC(kernel="linear", C=r["linear"]["C"]).fit(X[tr], y[tr])
    assert r["linear"]["accuracy"] == pytest.approx(np.mean(ref.predict(X[te]) == y[te]))
    # the choice does not depend on the order of the grid; ties go to the smaller γ
    assert interaction_svm_fold(1, gammas=(0.1, 0.0), Cs=(0.01, 0.1)) == \
        interaction_svm_fold(1, gammas=(0.0, 0.1), Cs=(0.01, 0.1))


def test_reduce_gives_the_interaction_table():
    params, results = _table1_with_20ng()
    for d, accs in ((3, [(0.90, 0.90), (0.94, 0.93)]), (2, [(0.90, 0.91), (0.94, 0.94)])):
        for f, (lin, inter) in reversed(list(enumerate(accs))):
            params.append({"table": 3, "fold": f, "method": "interactions", "degree": d})
            results.append({"linear": lin, "C_linear": 0.01, "inner_linear": 0.9,
                            "interactions": inter, "gamma": 0.001, "C_interactions": 0.03,
                            "inner_interactions": 0.91})
    tables = proto.tables.reduce(params, results)
    ti = tables["interactions"]
    assert list(ti.index) == [0, 1, "mean"]
    assert ti.loc["mean", "linear SVM: accuracy (%)"] == pytest.approx(92.0)
    assert ti.loc["mean", "words + pairs: accuracy (%)"] == pytest.approx(92.5)
    assert ti.loc["mean", "words + pairs + triples: accuracy (%)"] == pytest.approx(91.5)
    assert ti.loc[1, "words + pairs + triples: accuracy (%)"] == pytest.approx(93.0)
    assert np.isnan(ti.loc["mean", "words + pairs: γ"])
    t3 = tables["table3"]
    assert t3.loc["L2-SVM (tuned C)"].iloc[0] == pytest.approx(92.0)       # svm_tuned rows only
    assert t3.loc["SVM, words + pairs (tuned γ, C)"].iloc[0] == pytest.approx(92.5)
    assert t3.loc["SVM, words + pairs + triples (tuned γ, C)"].iloc[0] == pytest.approx(91.5)


def test_wisconsin_missing_values_are_imputed_inside_the_fold():
    """``_load_numeric`` keeps Wisconsin's NaNs (no imputation over all rows); the weighted-SVM
    task marks its rule and runs (the imputer is the first step of the pipeline it tunes)."""
    X, _ = proto.data.load_numeric("breast_cancer_wisconsin")
    assert int(np.isnan(X).sum()) == 16
    t5 = [t for t in proto.tasks.make_tasks(False) if t["table"] == 5 and t["method"] == "weighted_svm"]
    assert t5 and all(t["impute"] == "train-median" for t in t5)
    r = proto.tasks.run_task(t5[0])
    assert 0.9 <= r["accuracy"] <= 1 and 0 < r["fraction_used"] <= 1


def test_raw_attributes_are_weka_s_and_keep_missing_values():
    X, y, nominal, n_levels, split = proto.data.load_raw("breast_cancer")
    assert split is None and X.shape == (286, 9) and nominal.all()
    assert int(np.isnan(X).sum()) == 9                       # the ARFF file's nine "?"
    seen = np.where(np.isnan(X), 0, X)
    assert (seen < n_levels[None, :]).all() and (seen == np.round(seen)).all()
    Xm, ym, nom_m, lev_m, (tr, te) = proto.data.load_raw("monks2")
    assert tr.size == 169 and te.size == 432 and lev_m.tolist() == [3, 3, 2, 3, 4, 2]


def test_weka_default_svm_on_raw_tic_tac_toe_equals_the_booleanised_all_row():
    """Tic-tac-toe: nine three-valued attributes, no missing value, so Weka's NominalToBinary of
    the raw codes is the one-hot matrix of ``booleanize`` and γ = 1/27 both ways: the
    ``all (raw)`` L2-SVM (WekaLibSVM) must equal the booleanised ``all`` row fold by fold."""
    raw = proto.tasks.run_task({"table": 1, "dataset": "tic_tac_toe", "fold": 1, "method": proto.paper.RAW_ALL})
    boo = proto.tasks.run_task({"table": 1, "dataset": "tic_tac_toe", "fold": 1, "method": "all"})
    assert raw["L2"] == boo["L2"] and raw["L1"] == pytest.approx(boo["L1"], abs=0.02)


def test_raw_cfs_and_tuned_rows_run():
    r = proto.tasks.run_task({"table": 1, "dataset": "vote", "fold": 0, "method": "cfs/best_first (raw)"})
    X, y, nominal, _, _ = proto.data.load_raw("vote")
    train, _ = proto.folds.table_folds(y, None)[0]
    from fsbook.baselines import WekaSubsetSelector
    sel = WekaSubsetSelector(evaluator="cfs", search="best_first", discrete_features=nominal)
    assert r["n_selected"] == sel.fit(X[train], y[train]).selected_.size >= 1
    t = proto.tasks.run_task({"table": 1, "dataset": "vote", "fold": 0, "method": proto.paper.RAW_TUNED})
    assert t["L2_C"] in proto.paper.RBF_C_GRID and t["L2_gamma"] in proto.paper.RBF_GAMMA_GRID
    assert t["L1_C"] in proto.paper.SVM_C_GRID and 0.8 <= t["L2"] <= 1


def test_every_uncertified_hkl_fit_is_marked_with_its_gap():
    params, results = _table1_with_20ng()
    for r in results:
        if "HKL" in r:
            r.update(certified=True, duality_gap=1e-4)
    params.append({"table": 1, "dataset": "20newsgroups", "fold": 1, "method": "hkl"})
    results.append({"HKL": 0.8, "C": 1.0, "n_disjunctions": 3, "n_features_used": 4,
                    "certified": False, "duality_gap": 0.98})
    for f, (cert, gap) in enumerate([(True, 1e-4), (False, 0.23), (False, 0.05)]):
        params.append({"table": 4, "dataset": "colon", "fold": f, "method": "hkl"})
        results.append({"accuracy": 0.8, "fraction_used": 0.01, "certified": cert, "duality_gap": gap})
    params.append({"table": 4, "dataset": "colon", "fold": 0, "method": "zero_norm", "fraction": 0.5})
    results.append({"accuracy": 0.8, "fraction_used": 0.5})
    tables = proto.tables.reduce(params, results)
    assert tables["table3"].loc["HKL", "HKL fit"] == "1 of 2 fits uncertified (max gap 0.98)"
    assert tables["table1_details"].loc["vote", "HKL fit"] == "certified"
    t4 = tables["table4"].set_index("method")
    assert t4.loc["hkl", "HKL fit"] == "2 of 3 fits uncertified (max gap 0.23)"
    assert t4.loc["zero_norm", "HKL fit"] == "—"


def test_claims_pair_hkl_with_each_baseline_over_the_repetitions_or_the_pooled_test_samples():
    """Table 1's and Table 3's claims on the 20 Newsgroups pair (version 10 on) are decided like
    every data set with several partitions of its 4-fold CV, by the paired t over the repetition
    means (Table 3's tuned SVMs on Table 1's partitions); MONK's single split pairs its test
    samples (McNemar's exact test on the samples where the two disagree), every accuracy claim has
    the margin of one test sample, the over-data-set rows are Wilcoxon tests in a family of their
    own, and Table 2 pairs over the ten data sets one-sided (the paper's test), the paper's
    claims in one family that can pass."""
    import numpy as np
    from scipy import stats

    from fsbook.experiments import read_store
    res = read_store(proto.PROTOCOL)
    claims = proto.claims.claims(res)
    assert set(claims["verdict"]) <= {"holds", "fails", "no gain", "not separable"}
    ng = "20newsgroups"

    def means(table, method, column):
        acc = {}
        for p, r in zip(res.params, res.results):
            if p["table"] == table and p["method"] == method and p.get("dataset", ng) == ng:
                acc.setdefault(p.get("repeat", 0), []).append(100 * r[column])
        assert sorted(acc) == list(range(proto.paper.REPEATS))
        assert all(len(v) == proto.paper.N_FOLDS for v in acc.values())
        return np.array([np.mean(acc[k]) for k in sorted(acc)])

    for table, claim, b in (
            ("Table 1", "HKL beats a CV-tuned LibSVM (raw attributes)", means(1, proto.paper.RAW_TUNED, "L2")),
            ("Table 3", "HKL beats the L2 SVM with C tuned", means(3, "svm_tuned", "L2")),
            ("Table 3", "HKL beats the L1 SVM with C tuned", means(3, "svm_tuned", "L1"))):
        row = claims[(claims["table"] == table) & (claims["dataset"] == ng) & (claims["claim"] == claim)].iloc[0]
        d = means(1, "hkl", "HKL") - b
        assert row["test"] == "repeated_cv_t" and row["unit"] == "repetitions" and row["n"] == proto.paper.REPEATS
        assert row["effect"] == pytest.approx(d.mean())
        assert row["p"] == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue)
    monk = claims[(claims["table"] == "Table 1") & (claims["dataset"] == "monks1")]
    assert (monk["n"] == 432).all() and monk["p"].notna().all()
    per = claims[claims["dataset"] != "all"]
    accuracy = per[per["test"] == "sign"]
    assert len(accuracy) and np.allclose(accuracy["margin"].astype(float), 100 / accuracy["n"].astype(float))
    assert set(accuracy["dataset"]) == {"monks1", "monks2", "monks3"}
    over = claims[claims["dataset"] == "all"]
    t1_over = over[over["table"] == proto.claims.TABLE1_OVER]
    assert len(t1_over) == 3 and (t1_over["test"] == "wilcoxon").all() and (t1_over["n"] == 10).all()
    t2 = claims[claims["table"].isin([proto.claims.TABLE2_ASSERTED, proto.claims.TABLE2_OTHER])]
    assert len(t2) == len(res.tables["table2"]) and (t2["n"] == 10).all()
    assert t2["one_sided"].all() and (t2["p_adj"] >= t2["p"]).all()
    # where HKL leads (positive Hodges-Lehmann effect), the one-sided p is scipy's, as in the
    # paper's Table 2 (reduce's column)
    p_reduce = dict(zip(res.tables["table2"]["method"] + " · " + res.tables["table2"]["classifier"],
                        res.tables["table2"]["p (HKL better)"]))
    for b, p, e in zip(t2["b"], t2["p"], t2["effect"]):
        if e > 0:
            assert p == pytest.approx(p_reduce[b])
    asserted = t2[t2["table"] == proto.claims.TABLE2_ASSERTED]
    assert len(asserted) == 27 and "cfs/best_first (raw) · L1" in set(asserted["b"])
    assert "cfs/best_first · L1" not in set(asserted["b"]) and "all tuned (raw) · L2" not in set(asserted["b"])
    from fsbook.claims import family_check
    assert family_check(claims)["can pass"].all()
    # no family mixes per-data-set and over-data-set rows
    assert not set(claims.loc[claims["dataset"] == "all", "table"]) & set(claims.loc[claims["dataset"] != "all", "table"])


def test_agreement_with_the_papers_numbers():
    """Every number checked against the paper gets a verdict from fsbook.claims.agreement with the
    protocol's declared margin; a single test split (MONK) has no spread and is inconclusive."""
    import numpy as np

    from fsbook.claims import agreement
    from fsbook.experiments import read_store
    res = read_store(proto.PROTOCOL)
    a = proto.claims.agreement_table(res)
    assert set(a["agreement"]) <= {"agrees", "differs", "inconclusive"}
    assert (a.loc[a["dataset"].str.startswith("monks"), "agreement"] == "inconclusive").all()
    row = a[(a["table"] == "Table 3") & (a["row"] == "L2-SVM (tuned C)")].iloc[0]
    folds = np.array([100 * r["L2"] for p, r in sorted(zip(res.params, res.results), key=lambda pr: pr[0].get("fold", 0))
                      if p["table"] == 3 and p["method"] == "svm_tuned" and not p.get("repeat")])
    ref = agreement(folds, proto.paper.PAPER_TABLE3["L2-SVM"], margin=proto.claims.AGREEMENT_MARGIN, paper_n=folds.size)
    assert row["diff"] == pytest.approx(ref["diff"]) and row["agreement"] == ref["agreement"]


def test_claims_on_repeated_cv_are_the_paired_t_over_the_repetition_means():
    """On a data set with several stored partitions of its 4-fold CV, an accuracy claim is the
    paired t over the repetition means (scipy's ttest_rel on the per-partition mean accuracies),
    its effect the mean difference and its margin one test sample of one partition; the tables
    show the first partition only."""
    from scipy import stats

    from fsbook.experiments import read_store
    res = read_store(proto.PROTOCOL)
    claims = proto.claims.claims(res)
    acc = {}
    for p, r in zip(res.params, res.results):
        if p["table"] == 1 and p["dataset"] == "vote" and p["method"] in ("hkl", proto.paper.RAW_TUNED):
            acc.setdefault(p["method"], {})[(p.get("repeat", 0), p["fold"])] = \
                r["HKL" if p["method"] == "hkl" else "L2"]
    shape = (proto.paper.REPEATS, proto.paper.N_FOLDS)
    hkl = 100 * np.array([[acc["hkl"][(r, f)] for f in range(shape[1])] for r in range(shape[0])])
    svm = 100 * np.array([[acc[proto.paper.RAW_TUNED][(r, f)] for f in range(shape[1])] for r in range(shape[0])])
    row = claims[(claims["table"] == "Table 1") & (claims["dataset"] == "vote")
                 & (claims["claim"] == "HKL beats a CV-tuned LibSVM (raw attributes)")].iloc[0]
    assert row["test"] == "repeated_cv_t" and row["unit"] == "repetitions" and row["n"] == proto.paper.REPEATS
    assert row["effect"] == pytest.approx((hkl - svm).mean())
    d = (hkl - svm).mean(axis=1)
    if d.std() > 0:
        assert row["p"] == pytest.approx(stats.ttest_rel(hkl.mean(axis=1), svm.mean(axis=1)).pvalue)
    assert row["margin"] == pytest.approx(100 / 435)
    # Table 1 shows the first partition's mean
    assert res.tables["table1"].loc[("hkl", "HKL"), "vote"] == pytest.approx(hkl[0].mean())
    repeated = claims[claims["test"] == "repeated_cv_t"]
    assert set(repeated["dataset"]) == set(proto.paper.REPEATED_TABLE1) | {"colon", "lymphoma", "ionosphere",
                                                                      "breast_cancer_wisconsin"}


def test_a_repetition_runs_on_another_partition_with_its_own_inner_seed():
    _, y, _, split = proto.data.load_table1("vote")
    first = proto.folds.task_split({"dataset": "vote", "fold": 1}, y, split)
    again = proto.folds.task_split({"dataset": "vote", "fold": 1, "repeat": 2}, y, split)
    assert not np.array_equal(first[1], again[1])
    assert np.array_equal(np.sort(np.concatenate([again[0], again[1]])), np.arange(y.size))
    assert proto.folds.inner_seed(1, 1, 2) != proto.folds.inner_seed(1, 1)
    # MONK's own split is every repetition's
    _, y, _, split = proto.data.load_table1("monks1")
    assert np.array_equal(proto.folds.task_split({"dataset": "monks1", "fold": 0, "repeat": 3}, y, split)[1], split[1])

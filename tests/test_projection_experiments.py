"""Tests of the protocol helpers in fsbook.experiments.projection (on small synthetic data)."""

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA
from sklearn.linear_model import Ridge
from sklearn.metrics.pairwise import polynomial_kernel
from sklearn.model_selection import KFold
from sklearn.svm import SVC

from fsbook.claims import HOLDS, NO_GAIN, NOT_SEPARABLE
from fsbook.decisions import SCORE_ATOL
from fsbook.experiments import projection as ex
from fsbook.experiments._store import canonical_json
from fsbook.experiments.projection.newsgroups import _lgr_cv, _lgr_cv_search
from fsbook.experiments.projection.search import _proj_ridge_path_cv
from fsbook.projection import ProjectionPenalty, ProjectionPenaltySVC
from fsbook.projection import logistic as L


def test_ridge_path_cv_equals_sklearn_ridge():
    rng = np.random.default_rng(0)
    A, y = rng.normal(size=(40, 5)), rng.normal(size=40)
    alphas = np.array([1e-3, 1.0, 100.0])
    errs = ex.search.ridge_path_cv(A, y, alphas, seed=3)
    ref = np.zeros(3)
    for tr, va in KFold(5, shuffle=True, random_state=3).split(A):
        for j, a in enumerate(alphas):
            ref[j] += np.mean((Ridge(alpha=a).fit(A[tr], y[tr]).predict(A[va]) - y[va]) ** 2) / 5
    np.testing.assert_allclose(errs, ref, rtol=1e-8)


def test_projection_path_cv_equals_estimator():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(40, 6)), rng.normal(size=40)
    alphas = np.array([0.1, 10.0])
    errs = _proj_ridge_path_cv(X, y, PCA(2), alphas, 1e-3, seed=0)
    ref = np.zeros(2)
    for tr, va in KFold(5, shuffle=True, random_state=0).split(X):
        for j, a in enumerate(alphas):
            m = ProjectionPenalty(Ridge(alpha=a), PCA(2), reduced_penalty=1e-3).fit(X[tr], y[tr])
            ref[j] += np.mean((m.predict(X[va]) - y[va]) ** 2) / 5
    np.testing.assert_allclose(errs, ref, rtol=1e-7)


def test_boston_run_and_table_shapes():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 4))
    y = X @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(size=80)
    runs = [ex.boston.boston_run(s, X, y, d_values=[1, 2], n_train=30) for s in range(3)]
    assert set(runs[0]["Ridge"]) == set(runs[0]["Proj-PCR"]) == {"fine", "paper"}
    tab = ex.tables.boston_table(runs)
    assert list(tab.index) == ["Ridge", "PCR", "PLS", "Proj-PCR", "Proj-PLS"]
    # isotropic X: the top principal components miss the signal, PCR fails, while the
    # projection penalty (search in the full space) recovers ridge's accuracy
    assert tab.loc["PCR", "mean"] < 50
    assert np.all(tab.loc[["Ridge", "PLS", "Proj-PCR", "Proj-PLS"], "mean"] > 70)
    assert set(tab["d"].dropna()) <= {1, 2}


def test_precomputed_projection_gram_is_the_estimator():
    """Proj-R in yale_run (SVC on K + ZZᵀ/γ) is ProjectionPenaltySVC with a prefit reducer."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 5))
    y = (X[:, 0] + X[:, 1] ** 2 > 0.5).astype(int)
    pca = PCA(2).fit(X)
    Z = pca.transform(X)
    K = polynomial_kernel(X, degree=2, coef0=1, gamma=1)
    svc = SVC(kernel="precomputed", C=1.0, tol=1e-8).fit(K + Z @ Z.T / 0.1, y)
    est = ProjectionPenaltySVC(pca, reduced_penalty=0.1, prefit=True).fit(X, y)
    np.testing.assert_allclose(est.decision_function(X), svc.decision_function(K + Z @ Z.T / 0.1),
                               atol=1e-4)


def test_vocabulary_rule():
    # 3 groups, 6 words; word 0 is the most frequent overall and is set aside
    X = sp.csr_matrix(np.array([[9, 5, 0, 0, 1, 0], [9, 0, 5, 0, 0, 1], [9, 0, 0, 5, 1, 1]]))
    cols = ex.newsgroups.newsgroups_vocabulary(X, np.array([0, 1, 2]), per_group=1, n_common=1)
    np.testing.assert_array_equal(cols, [1, 2, 3])


def test_mean_se():
    m, s = ex.tables.mean_se([1.0, 2.0, 3.0])
    assert m == 2.0 and np.isclose(s, 1 / np.sqrt(3))


def test_projection_svm_gamma_limits():
    """Eq. (17) with tiny γ is the max-margin separator in z when z separates the classes;
    with huge γ it is the plain kernel SVM (the two ends of the chapter's γ sweep)."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(120, 5))
    s = X[:, 0] + X[:, 1]
    X, s = X[np.abs(s) > 0.4], s[np.abs(s) > 0.4]       # margin: z = X[:, :2] is separable
    y = (s > 0).astype(int)
    tr, te = np.arange(40), np.arange(40, len(y))
    Z = X[:, :2]
    K = polynomial_kernel(X, degree=2, coef0=1, gamma=1)
    # the kernel SVM alone does not reproduce the separator in z (else the check below is void)
    svm_k = SVC(kernel="precomputed", C=1.0).fit(K[np.ix_(tr, tr)], y[tr])
    svm_z = SVC(kernel="linear", C=1e6).fit(Z[tr], y[tr])
    assert np.any(svm_k.predict(K[np.ix_(te, tr)]) != svm_z.predict(Z[te]))
    for gamma, ref in ((1e-6, svm_z.predict(Z[te])), (1e8, svm_k.predict(K[np.ix_(te, tr)]))):
        G = K + Z @ Z.T / gamma
        proj = SVC(kernel="precomputed", C=1.0).fit(G[np.ix_(tr, tr)], y[tr])
        np.testing.assert_array_equal(proj.predict(G[np.ix_(te, tr)]), ref)
    G = K + Z @ Z.T / 1e8
    proj = SVC(kernel="precomputed", C=1.0, tol=1e-8).fit(G[np.ix_(tr, tr)], y[tr])
    ref = SVC(kernel="precomputed", C=1.0, tol=1e-8).fit(K[np.ix_(tr, tr)], y[tr])
    np.testing.assert_allclose(proj.decision_function(G[np.ix_(te, tr)]),
                               ref.decision_function(K[np.ix_(te, tr)]), atol=1e-5)


def _faces():
    rng = np.random.default_rng(5)
    centres = rng.normal(size=(4, 30))
    y = np.repeat(np.arange(4), 7)
    X = np.abs(centres[y] + 1.5 * rng.normal(size=(28, 30)))
    return X, y


def test_gamma_sweep_ends_and_gamma_by_cv():
    """The sweep's Gram matrices share the table's split, reductions and folds: at γ = YALE_RHO
    a sweep task reproduces the table task's Proj-R errors, at huge γ SVM-Kernel's; the
    reduction's "γ by CV" from a one-point grid is that γ."""
    X, y = _faces()
    _, is_train, Zs, K = ex.yale.yale_setup(X, y, 3, 1)
    table = ex.yale.yale_grams(K, Zs, [ex.paper.YALE_RHO])
    sweep = ex.yale.yale_grams(K, Zs, [ex.paper.YALE_RHO, 1e8])
    for k, pair in enumerate([(0, 1), (1, 2), (0, 3), (2, 3)]):
        t = ex.yale.yale_task(table, y, is_train, pair, seed=k)
        s = ex.yale.yale_task(sweep, y, is_train, pair, seed=k)
        for name in ("KPCA", "GDA", "OLap"):
            assert s[(f"Proj-{name}", ex.paper.YALE_RHO)] == t[(f"Proj-{name}", ex.paper.YALE_RHO)]
            assert s[(f"Proj-{name}", 1e8)][1] == t["SVM-Kernel"][1]


def test_reduce_builds_the_tables_and_picks_gamma_by_cv(monkeypatch):
    """Tables from hand-made task results: means over runs of per-run task averages, s.e. over
    runs, and γ by CV = the γ of the best CV accuracy (ties: the smallest γ)."""
    monkeypatch.setattr(ex.tables, "YALE_RHOS", np.array([1e-5, 1.0]))   # the module reduce reads it in
    fit = lambda acc, err: {"cv_accuracy": acc, "error": err}  # noqa: E731
    base = {m: fit(1.0, 0.5) for m in ex.paper.YALE_METHODS}
    params, results = [], []
    for run, errs in ((0, (0.1, 0.3)), (1, (0.2, 0.2))):
        for pair, e in zip(([0, 1], [0, 2]), errs):
            params.append({"part": "yale", "table": "table5", "run": run, "pair": pair})
            results.append({**base, "SVM-GDA": fit(1.0, e)})
    sweep = {"SVM-Kernel": fit(1, 0.4), "SVM-KPCA": fit(1, 0.4), "SVM-GDA": fit(1, 0.4), "SVM-OLap": fit(1, 0.4)}
    for n in ("KPCA", "GDA", "OLap"):
        sweep[f"Proj-{n}@1e-05"] = fit(0.8, 0.1)
        sweep[f"Proj-{n}@1e+00"] = fit(0.9 if n == "GDA" else 0.8, 0.3)
    params.append({"part": "rho", "run": 0, "pair": [0, 1]})
    results.append(sweep)
    tables = ex.tables.reduce(params, results)
    t5 = tables["table5"]
    assert np.isclose(t5.loc["SVM-GDA", "mean"], 20.0)            # runs average 20 % and 20 %
    assert np.isclose(t5.loc["SVM-GDA", "se"], 0.0) and t5.loc["SVM-Kernel", "mean"] == 50.0
    assert t5["runs"].iloc[0] == 2 and t5["tasks per run"].iloc[0] == 2
    ref = tables["rho_reference"]["error (%)"]
    assert np.isclose(ref["Proj-GDA (ρ by CV)"], 30.0) and np.isclose(ref["Proj-KPCA (ρ by CV)"], 10.0)
    assert list(tables["rho_sweep"].index) == [1e-5, 1.0]
    assert set(tables) == {"table5", "rho_sweep", "rho_reference"}


def test_subsample_tasks_are_tasks_of_the_full_protocol():
    """The chapter's subsample runs exactly the full protocol's tasks for those runs and pairs
    (seeds come from the run and the pair's index among all pairs)."""
    full = {canonical_json(t) for t in ex.tasks.make_tasks(True) if t["part"] != "rho"}
    sub = [t for t in ex.tasks.make_tasks(False) if t["part"] != "rho"]
    assert sub and all(canonical_json(t) in full for t in sub)
    assert len({canonical_json(t) for t in ex.tasks.make_tasks(True)}) == len(ex.tasks.make_tasks(True))


def test_protocol_runs_boston_tasks_on_the_runner(tmp_path):
    from fsbook.experiments import run_protocol
    res = run_protocol(ex.PROTOCOL, tasks=[{"part": "boston", "run": 0}, {"part": "boston", "run": 1}],
                       out=tmp_path, progress=False)
    assert list(res.tables) == ["table1", "table1_paper_grid", "table1_by_d"]
    assert list(res.tables["table1"].index) == ["Ridge", "PCR", "PLS", "Proj-PCR", "Proj-PLS"]
    assert list(res.tables["table1_by_d"].index) == list(range(1, 14))


def test_paper_grid_is_a_subset_of_the_fine_grid_and_selection_matches_a_paper_grid_run():
    """Selecting α on the paper's grid from the union's CV errors gives the numbers of a run on
    the paper's grid alone (the tie rule, smallest α, is the same)."""
    assert np.all(np.isin(ex.paper.GRID, ex.paper.FINE_GRID)) and len(ex.paper.FINE_GRID) == 73
    rng = np.random.default_rng(6)
    X = rng.normal(size=(70, 4))
    y = X @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(size=70)
    both = ex.boston.boston_run(1, X, y, d_values=[1, 3], n_train=30)
    alone = ex.boston.boston_run(1, X, y, d_values=[1, 3], n_train=30, grids={"paper": ex.paper.GRID})
    assert both["Ridge"]["paper"] == alone["Ridge"]["paper"]
    assert both["Proj-PLS"]["paper"] == alone["Proj-PLS"]["paper"]


def test_full_rank_proj_pcr_is_ridge_with_rescaled_alpha():
    """With d = n the penalty α min_v(||w − Pᵀv||² + λ||v||²) is α λ/(1+λ) ||w||²: Proj-PCR(d = n)
    is ridge with α λ/(1+λ) (= α/1001 for λ = 1e-3)."""
    rng = np.random.default_rng(7)
    X, y = rng.normal(size=(40, 5)), rng.normal(size=40)
    lam, a = 1e-3, 3.0
    proj = ProjectionPenalty(Ridge(alpha=a), PCA(5), reduced_penalty=lam).fit(X, y)
    ridge = Ridge(alpha=a * lam / (1 + lam)).fit(X, y)
    np.testing.assert_allclose(proj.predict(X), ridge.predict(X), atol=1e-8)


def test_pls_with_an_exhausted_krylov_space_is_least_squares():
    from sklearn.linear_model import LinearRegression
    from sklearn.preprocessing import StandardScaler
    X, y = ex.boston.boston_data()
    for seed in (40, 0):          # run 40: scikit-learn's PLS(13) breaks down, run 0 does not
        perm = np.random.default_rng(seed).permutation(len(y))
        tr, te = perm[:50], perm[50:]
        sc = StandardScaler().fit(X[tr])
        Xtr, Xte = sc.transform(X[tr]), sc.transform(X[te])
        ols = LinearRegression().fit(Xtr, y[tr]).predict(Xte)
        pred = ex.boston.pls_predict(Xtr, y[tr], Xte, 13)
        np.testing.assert_allclose(pred, ols, rtol=1e-8, atol=1e-8)   # d = p: PLS is OLS either way
        assert np.allclose(ex.boston.pls_predict(Xtr, y[tr], Xte, 2),
                           PLSRegression(2, scale=False).fit(Xtr, y[tr]).predict(Xte).ravel())


def test_lgr_at_the_largest_alpha_is_at_its_flat_optimum():
    """The line-search notices hidden in _lgr_cv occur only where w is zero to rounding."""
    import warnings

    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(0)
    X = rng.poisson(0.3, size=(40, 60)).astype(float)
    y = (X[:, :5].sum(1) > 1).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = LogisticRegression(C=1 / (2 * ex.paper.GRID[-1]), **ex.paper.LGR_SOLVER).fit(X, y)
    assert ex.paper.GRID[-1] == 1e10 and np.abs(clf.coef_).max() < 1e-8
    # and a real fit through the grid search raises no warning to the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        err = _lgr_cv(X, y, X, y, ex.paper.GRID, seed=0)
    assert 0.0 <= err <= 1.0


def test_reduce_averages_the_largest_complete_block_of_a_partial_store():
    """A partial store (run 0 on three pairs, run 1 on one of them): the table averages run 0's
    three pairs only, says so, and has no standard error over one run."""
    base = {m: {"cv_accuracy": 1.0, "error": 0.5} for m in ex.paper.YALE_METHODS}
    params, results = [], []
    for run, pair, err in ((0, [0, 1], 0.1), (0, [0, 2], 0.2), (0, [1, 2], 0.3), (1, [0, 1], 0.9)):
        params.append({"part": "yale", "table": "table6", "run": run, "pair": pair})
        results.append({**base, "SVM-GDA": {"cv_accuracy": 1.0, "error": err}})
    t6 = ex.tables.reduce(params, results)["table6"]
    assert np.isclose(t6.loc["SVM-GDA", "mean"], 20.0) and np.isnan(t6.loc["SVM-GDA", "se"])
    assert (t6["runs"].iloc[0], t6["tasks per run"].iloc[0], t6["tasks stored"].iloc[0]) == (1, 3, 4)
    # with run 1 on every pair too, both runs count
    params.append({"part": "yale", "table": "table6", "run": 1, "pair": [0, 2]})
    params.append({"part": "yale", "table": "table6", "run": 1, "pair": [1, 2]})
    results += [{**base, "SVM-GDA": {"cv_accuracy": 1.0, "error": 0.0}}] * 2
    t6 = ex.tables.reduce(params, results)["table6"]
    assert (t6["runs"].iloc[0], t6["tasks per run"].iloc[0]) == (2, 3)
    assert np.isclose(t6.loc["SVM-GDA", "mean"], 25.0) and np.isclose(t6.loc["SVM-GDA", "se"], 5.0)


def test_store_coverage_counts_stored_tasks_per_part_table_and_topic_count():
    full = ex.tasks.make_tasks(True)
    stored = [p for p in full if p["part"] == "boston" and p["run"] < 3]
    stored += [p for p in full if p["part"] == "yale" and p["table"] == "table5" and p["run"] == 0]
    stored += [p for p in full if p["part"] == "yale" and p["table"] == "table6" and p["run"] == 0][:10]
    cov = ex.tables.store_coverage(stored)
    assert cov.loc[("boston", "runs")].tolist() == [3, 500, 3]
    assert cov.loc[("yale", "Table 5 (3 per subject)")].tolist() == [105, 5250, 1]
    assert cov.loc[("yale", "Table 6 (5 per subject)")].tolist() == [10, 5250, 0]
    assert cov.loc[("yale", "all"), ["stored", "in the protocol"]].tolist() == [115, 15750]
    assert cov.loc[("rho", "pairs")].tolist() == [0, 12, 0]
    assert cov.loc[("all", "all"), ["stored", "in the protocol"]].tolist() == [118, len(full)] == [118, 16262]
    # parts in the order of the task list; the text tasks are projection_text's
    assert list(dict.fromkeys(cov.index.get_level_values("part"))) == ["boston", "yale", "rho", "all"]


def _store(tasks):
    return SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])


def _face(run, pair, errors, table="table5"):
    """A face task whose methods all have error 0.25 except those in ``errors``."""
    return ({"part": "yale", "table": table, "run": run, "pair": list(pair)},
            {m: {"cv_accuracy": 1.0, "error": errors.get(m, 0.25)} for m in ex.paper.YALE_METHODS})


def test_claims_against_a_hand_computed_paired_t():
    """Proj-GDA below SVM-GDA on 4 runs × 2 pairs: pairs are averaged within a run, the runs are
    paired, and the plain paired t over the runs decides (the runs draw their splits
    independently); Holm runs over the table's claims."""
    proj = {0: (0.20, 0.10), 1: (0.25, 0.15), 2: (0.30, 0.20), 3: (0.10, 0.30)}
    tasks = [_face(r, p, {"Proj-GDA": e}) for r, errs in proj.items() for p, e in zip(([0, 1], [0, 2]), errs)]
    c = ex.claims.claims(_store(tasks))
    row = c[c["claim"] == "Proj-GDA below SVM-GDA"].iloc[0]
    d = np.array([25 - 15, 25 - 20, 25 - 25, 25 - 20], dtype=float)        # points, per run
    se = d.std(ddof=1) / 2
    p = 2 * stats.t.sf(d.mean() / se, 3)
    assert row["n"] == 4 and row["unit"] == "runs" and row["test"] == "paired_t" and row["gain"]
    assert row["n_direction"] == 3                                         # run 2 is a tie
    assert row["effect"] == pytest.approx(d.mean()) and row["se"] == pytest.approx(se)
    assert row["p"] == pytest.approx(float(stats.ttest_1samp(d, 0).pvalue)) and row["p"] == pytest.approx(p)
    lo, hi = d.mean() + np.array([-1, 1]) * stats.t.ppf(0.975, 3) * se
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))
    assert "se (uncorrected)" not in c.columns                             # the verdict's se is the plain one
    fam = c[c["table"] == "Table 5"]
    assert row["p_adj"] == pytest.approx(min(1.0, p * fam["p"].notna().sum()))   # smallest p of its family
    assert row["verdict"] == NOT_SEPARABLE                  # 5 ± 6.5 points over 4 runs
    assert (c["test"] == "paired_t").all()


def test_claims_decide_on_independent_runs_a_difference_the_corrected_t_could_not():
    """Fifty runs in which Proj-OLap is 0.5 points below SVM-OLap give or take 0.2: the paired t
    over the runs holds; the corrected resampled t with Table 5's n_test / n_train (8/3) would
    inflate the standard error √(1 + 50·8/3) ≈ 11.6 times."""
    rng = np.random.default_rng(0)
    shift = 0.005 + 0.002 * rng.standard_normal(50)
    tasks = [_face(r, p, {"Proj-OLap": 0.25 - shift[r]}) for r in range(50) for p in ([0, 1], [0, 2])]
    row = ex.claims.claims(_store(tasks)).set_index("claim").loc["Proj-OLap below SVM-OLap"]
    assert row["verdict"] == HOLDS and row["n_direction"] == 50
    from fsbook.claims import paired_test
    corrected = paired_test(100 * shift, "corrected_t", test_train_ratio=8 / 3)
    assert corrected["se"] == pytest.approx(row["se"] * np.sqrt(1 + 50 * 8 / 3))


def test_rounding_cannot_decide_a_claim():
    """Table 5's Proj-OLap against SVM-OLap: 3 of 5 250 tasks differ by one test image (two worse,
    one better), so the means differ in the third decimal (6.1857 against 6.1845 in the store):
    the printed-value rule called that a failure; the paired test separates nothing, and its 90 %
    interval lies inside Table 5's margin (one of a run's 1 680 test predictions): no gain."""
    tasks = []
    for run in range(50):
        for k, pair in enumerate(ex.paper.YALE_PAIRS):
            e = {}
            if (run, k) in ((3, 10), (17, 40)):
                e = {"Proj-OLap": 0.25 + 1 / 16}
            elif (run, k) == (30, 7):
                e = {"Proj-OLap": 0.25 - 1 / 16}
            tasks.append(_face(run, pair, e))
    row = ex.claims.claims(_store(tasks)).set_index("claim").loc["Proj-OLap below SVM-OLap"]
    assert row["effect"] == pytest.approx(-100 / 16 / 105 / 50)            # one image net, against
    assert row["verdict"] == NO_GAIN and row["p_adj"] > 0.5 and row["margin"] == pytest.approx(100 / 1680)
    clear = [_face(r, p, {"Proj-OLap": 0.10 + 0.001 * (r % 2)}) for r in range(10) for p in ([0, 1], [1, 2])]
    row = ex.claims.claims(_store(clear)).set_index("claim").loc["Proj-OLap below SVM-OLap"]
    assert row["verdict"] == HOLDS and row["effect"] == pytest.approx(14.95)


def test_order_claims_carry_the_margin_of_their_table():
    """Table 7 (840 test predictions a run, margin 0.12 points): Proj-OLap below SVM-OLap by 0.05 to
    0.07 points in every run holds, below the margin; SVM-GDA and Proj-GDA, equal in every task,
    show no gain; SVM-GDA below SVM-Kernel by 10 points holds by more than the margin."""
    shift = {r: 0.0005 + 0.0002 * (r % 2) for r in range(10)}
    tasks = [_face(r, p, {"Proj-OLap": 0.25 - shift[r], "SVM-GDA": 0.15, "Proj-GDA": 0.15}, table="table7")
             for r in range(10) for p in ([0, 1], [0, 2])]
    c = ex.claims.claims(_store(tasks)).set_index("claim")
    np.testing.assert_allclose(c["margin"].astype(float), 100 / 840)
    assert (c["id"] == "table7").all()
    row = c.loc["Proj-OLap below SVM-OLap"]
    assert row["verdict"] == HOLDS and row["size"] == "below margin" and row["effect"] == pytest.approx(0.06)
    assert c.loc["Proj-GDA below SVM-GDA", "verdict"] == NO_GAIN
    assert c.loc["SVM-GDA below SVM-Kernel", "verdict"] == HOLDS and c.loc["SVM-GDA below SVM-Kernel", "size"] == ""


def test_an_order_claim_without_a_declared_margin_is_refused():
    with pytest.raises(ValueError, match="no margin declared"):
        ex.claims.order_claims(lambda t: None, {"t": "T"}, {"t": {"A": 1.0, "B": 2.0}}, {"t": []})
    with pytest.raises(ValueError, match="no margin declared"):
        ex.claims.with_margins(ex.claims.claims(_store([_face(r, (0, 1), {}) for r in range(3)])).assign(id="t"))


def test_the_margins_are_one_test_prediction_of_a_run_of_each_design():
    """Counted on the data: Boston's test houses, the 190 pairs' test posts, the 105 pairs' test
    images; every table of the chapter's order claims (Tables 2-4 are projection_text's) has one."""
    from fsbook.datasets import load_20newsgroups
    from fsbook.experiments.projection import text as tx
    assert ex.paper.TEST_PREDICTIONS["table1"] == ex.paper.TEST_PREDICTIONS["table1_paper_grid"] == len(ex.boston.boston_data()[1]) - 50
    test_posts = np.bincount(load_20newsgroups(subset="test").target)
    assert all(ex.paper.TEST_PREDICTIONS[t] == sum(test_posts[a] + test_posts[b] for a, b in ex.paper.NEWS_PAIRS)
               for t in ex.paper.NEWS_FRACS)
    per_subject = np.bincount(ex.yale.yale_data()[1])
    for t, k in ex.paper.YALE_K.items():
        assert ex.paper.TEST_PREDICTIONS[t] == sum(per_subject[a] + per_subject[b] - 2 * k for a, b in ex.paper.YALE_PAIRS)
    assert ex.paper.ORDER_MARGINS == pytest.approx({t: 100 / n for t, n in ex.paper.TEST_PREDICTIONS.items()})
    assert set(ex.paper.TABLE_NAMES) | set(tx.TABLE_NAMES) == set(ex.paper.ORDER_MARGINS)


def test_claims_of_table1_pair_runs_at_each_models_best_d():
    """Table 1 is higher-is-better R², each model at the d of its best mean over runs (Proj-PCR's
    runs vary by ±0.5 points around the others', so that its differences are not constant)."""
    runs = []
    for run in range(6):
        r2 = lambda base, e: {"1": base + e, "2": base + 0.1 + e}  # noqa: E731 - d = 2 is best
        e, jitter = 0.01 * (run % 3), 0.005 * (-1) ** run
        runs.append(({"part": "boston", "run": run},
                     {"Ridge": {"fine": 0.50 + e, "paper": 0.40 + e}, "PCR": r2(0.3, e), "PLS": r2(0.3, e),
                      "Proj-PCR": {"fine": r2(0.45 + jitter, e), "paper": r2(0.45 + jitter, e)},
                      "Proj-PLS": {"fine": r2(0.3, e), "paper": r2(0.3, e)}}))
    vals = ex.tables.per_run(_store(runs), "table1")
    np.testing.assert_allclose(vals["Proj-PCR"], [55.5, 55.5, 57.5, 54.5, 56.5, 56.5])
    c = ex.claims.claims(_store(runs)).set_index(["table", "claim"])
    assert c.loc[("Table 1", "Proj-PCR above PCR"), "effect"] == pytest.approx(15.0)
    assert c.loc[("Table 1", "Proj-PCR above PCR"), "verdict"] == HOLDS
    assert c.loc[("Table 1", "Proj-PCR above Ridge"), "effect"] == pytest.approx(5.0)
    assert c.loc[("Table 1 (paper's α grid)", "Proj-PCR above Ridge"), "effect"] == pytest.approx(15.0)


def test_agreement_uses_the_papers_standard_error_and_the_declared_margin():
    """Table 5's SVM-GDA: our per-run errors against the paper's 11.21 ± 0.25 (its printed s.e.);
    the difference's s.e. combines ours over the runs with the paper's; one point is the margin."""
    errs = {r: 0.10 + 0.002 * (r % 5) for r in range(10)}                 # 10.0 .. 10.8 %, mean 10.4
    tasks = [_face(r, p, {"SVM-GDA": e, "Proj-GDA": 0.105}) for r, e in errs.items() for p in ([0, 1], [0, 2])]
    a = ex.claims.agreement_table(_store(tasks)).set_index("method")
    assert len(a) == 7 and set(a["id"]) == {"table5"} and (a["margin"] == ex.paper.AGREEMENT_MARGIN).all()
    ours = 100 * np.array(list(errs.values()))
    se = np.hypot(ours.std(ddof=1) / np.sqrt(10), 0.25)
    row = a.loc["SVM-GDA"]
    assert row["ours"] == pytest.approx(10.4) and row["diff"] == pytest.approx(10.4 - 11.21)
    assert row["se"] == pytest.approx(se) and row["paper se"] == 0.25
    assert row["z"] == pytest.approx((10.4 - 11.21) / se)
    assert row["agreement"] == "differs"               # -0.81 ± 0.52: inside the margin, yet not the paper's level
    assert a.loc["Proj-GDA", "agreement"] == "agrees"  # 10.5 % on every run against 10.38 ± 0.24: 0.12 ± 0.39
    assert a.loc["SVM-Kernel", "agreement"] == "differs"                  # 25 % against 16.17 %


def test_split_ratios_follow_the_protocol():
    r = ex.claims.split_ratios()
    assert r["table1"] == pytest.approx(456 / 50)
    assert (r["table5"], r["table6"], r["table7"]) == pytest.approx((8 / 3, 6 / 5, 4 / 7))
    assert set(r) == {"table1", "table1_paper_grid", "table5", "table6", "table7"}


def test_run_task_names_an_unknown_part():
    with pytest.raises(ValueError, match="unknown part"):
        ex.tasks.run_task({"part": "nope", "run": 0})


#: stored text tasks (2, 5 and 10 % training) on which the fast path is checked against the reference
NEWS_CHECK = [{"table": "table2", "topics": 30, "run": 0, "pair": [7, 16]},
              {"table": "table3", "topics": 30, "run": 1, "pair": [2, 9]},
              {"table": "table4", "topics": 30, "run": 0, "pair": [5, 11]}]


@pytest.mark.parametrize("params", NEWS_CHECK, ids=lambda p: p["table"])
def test_fast_cv_path_agrees_with_the_grid_search_on_real_tasks(params):
    """L2-LGR on a stored task's words: the batched path's per-fold validation accuracies are
    GridSearchCV's at every α in [1e-4, 1e6], where Newton-CG's stopping point decides no
    prediction.  At α ≤ 1e-6 Newton-CG stops early and the path's fit is the better minimiser
    of the same objective; at α ≥ 1e8 the decision values (~1e-7) are of the order of the
    intercept's accuracy at ``tol=1e-8``, so the reference's predictions there are its
    stopping point's (not checked)."""
    from sklearn.linear_model import LogisticRegression
    a = ex.newsgroups.newsgroups_pair(params, topics=False)
    idx = ex.newsgroups.newsgroups_sample(a["y_tr"], a["frac"], a["seed"])
    X, y = a["X_tr"][idx], a["y_tr"][idx]
    path = L.lgr_cv_path(X, y, ex.paper.GRID, a["seed"])
    search = _lgr_cv_search(X, y, ex.paper.GRID, a["seed"])
    folds = path["accuracy"].shape[0]
    ref = np.array([search.cv_results_[f"split{f}_test_score"] for f in range(folds)])
    alpha = 1 / (2 * path["C"])
    converged = (alpha >= 1e-4) & (alpha <= 1e6)
    np.testing.assert_array_equal(path["accuracy"][:, converged], ref[:, converged])
    assert path["C"].tolist() == [float(c) for c in search.cv_results_["param_C"]]
    Phi, PX = L.reduced_coordinates(X, X)
    coef, b = L.logistic_path(Phi[None], y[None], np.ones((1, len(y))), path["C"])
    s = 2 * y - 1
    for j in np.flatnonzero(alpha < 1e-4):
        C = path["C"][j]
        skl = LogisticRegression(C=C, **ex.paper.LGR_SOLVER).fit(X, y)
        f_skl = C * np.sum(np.logaddexp(0, -s * skl.decision_function(X))) + 0.5 * np.sum(skl.coef_ ** 2)
        f_path = C * np.sum(np.logaddexp(0, -s * (PX @ coef[0, j] + b[0, j]))) + 0.5 * np.sum(coef[0, j] ** 2)
        assert f_path <= f_skl * (1 + 1e-12)
    assert isinstance(skl, LogisticRegression)


def test_lexicographic_tie_rule_never_picks_a_one_class_model_beside_a_tied_two_class_one():
    """Imbalanced documents (6 vs 3): at the largest α the model predicts the majority class for
    every validation document, which ties with models that predict both classes; the protocol's
    rule takes the first tie (largest α), the proposed rule a two-class model."""
    rng = np.random.default_rng(11)
    moved = 0
    for trial in range(20):
        A = rng.poisson(0.5, size=(9, 40)).astype(float)
        y = np.r_[np.zeros(6, int), np.ones(3, int)]
        A[y == 1, :3] += rng.poisson(1.0, size=(3, 3))
        path = L.lgr_cv_path(A, y, ex.paper.GRID, seed=trial)
        acc = path["accuracy"].mean(0)
        pos = (path["positive"] * path["n_validation"][:, None]).sum(0) / path["n_validation"].sum()
        one_class = (pos == 0) | (pos == 1)
        tied = np.flatnonzero(acc >= acc.max() - SCORE_ATOL)
        first, lex = ex.newsgroups.lgr_choice(path), ex.newsgroups.lgr_choice(path, "lexicographic")
        assert first == tied[0] and lex in tied
        if (~one_class[tied]).any():
            assert not one_class[lex]
            moved += bool(one_class[first])
    assert moved >= 1                                      # the case the rule is for occurs
    assert one_class[0]                                    # w ≈ 0 at α = 1e10: the majority class
    with pytest.raises(ValueError, match="tie rule"):
        ex.newsgroups.lgr_choice(path, "largest")


@pytest.mark.parametrize("tie", ["first", "lexicographic"])
@pytest.mark.parametrize("k", [3, 5])
def test_yale_task_fast_fits_equal_the_grid_search_reference(k, tie):
    """:func:`svc_cv_fits` (the protocol's path) gives every Gram matrix's CV accuracy, test
    error and chosen C exactly as one ``GridSearchCV`` per matrix (:func:`_svc_cv_fit`), on
    several pairs, with ties among the C values (small training sets) and a ρ sweep, under
    both tie rules."""
    X, y = _faces()
    _, is_train, Zs, K = ex.yale.yale_setup(X, y, k, 2)
    grams = ex.yale.yale_grams(K, Zs, [ex.paper.YALE_RHO, 1e8])
    tied = 0
    for s, pair in enumerate([(0, 1), (1, 2), (2, 3)]):
        fast = ex.yale.yale_task(grams, y, is_train, pair, seed=s, tie=tie)
        ref = ex.yale.yale_task(grams, y, is_train, pair, seed=s, reference=True, tie=tie)
        assert fast == ref and set(fast) == set(grams)
        tied += sum(acc == 1.0 for acc, _, _ in fast.values())
    assert tied > 0                                   # perfect CV at several C: the tie rule decides


def test_yale_lexicographic_ties_leave_the_smallest_c():
    """On the stored run where version 4's smallest C predicted one class on every test image
    (table 5, run 0, pair (1, 14), SVM-Kernel: every C tied at CV accuracy 2/3), the
    lexicographic rule picks a C whose refit predicts both classes, and the rule is the
    protocol's from version 5."""
    assert ex.paper.YALE_TIES[ex.paper.VERSION] == "lexicographic" and ex.paper.YALE_TIES["4"] == "first"
    X, y = ex.yale.yale_data()
    is_train, grams = ex.yale.yale_run_grams(ex.paper.YALE_K["table5"], 0, (ex.paper.YALE_RHO,))
    pair = (1, 14)
    seed = ex.paper.YALE_PAIRS.index(pair)
    first = ex.yale.yale_task({"K": grams["SVM-Kernel"]}, y, is_train, pair, seed, tie="first")["K"]
    lex = ex.yale.yale_task({"K": grams["SVM-Kernel"]}, y, is_train, pair, seed, tie="lexicographic")["K"]
    assert first[0] == lex[0]                         # the same (tied) CV accuracy
    assert first[2] == ex.paper.GRID[0] and first[1] == 0.5  # one class on the balanced test images
    assert lex[2] > ex.paper.GRID[0] and lex[1] < 0.5


def test_yale_tie_rules_reproduce_the_stored_face_tasks():
    """:func:`yale_tie_rules`' lexicographic rows are the stored version-5 fits (C, CV accuracy,
    test error) of the same run and pairs; its version-4 rows take the smallest C wherever the
    whole grid ties."""
    from fsbook.experiments import read_store

    res = read_store(ex.PROTOCOL)
    pairs = ex.paper.YALE_PAIRS[:6]
    stored = {tuple(p["pair"]): r for p, r in zip(res.params, res.results)
              if p["part"] == "yale" and p["table"] == "table5" and p["run"] == 0 and tuple(p["pair"]) in pairs}
    t = ex.yale_checks.yale_tie_rules("table5", 0, methods=["SVM-Kernel", "Proj-KPCA"], pairs=pairs)
    for row in t[t.tie == "lexicographic"].itertuples():
        fit = stored[row.pair][row.method]
        assert (row.C, row.cv_accuracy, row.error) == (fit["C"], fit["cv_accuracy"], fit["error"])
    first = t[t.tie == "first"]
    assert (first.C[first.grid_tied] == ex.paper.GRID[0]).all()

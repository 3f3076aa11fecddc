"""Tests of the 20 Newsgroups protocol fsbook.experiments.projection.text (Tables 2-4 of chapter 1)."""
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from fsbook.decisions import SCORE_ATOL
from fsbook.experiments import projection as pp
from fsbook.experiments._store import canonical_json, task_key
from fsbook.experiments.projection import text as tx
from fsbook.experiments.projection.newsgroups import _lgr_cv_search
from fsbook.projection import logistic as L


def _store(tasks):
    return SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])


def _rec(error, one_class=False):
    return {"error": error, "C": 0.5, "one_class": one_class, "ties": 1,
            "first_tie": {"error": 0.5, "C": 5e-11, "one_class": True}}


# ----------------------------------------------------------------------------- the task list
def test_task_lists_of_the_two_protocols():
    """The text grid is all of projection_text's and none of projection's; the subsample's tasks
    are tasks of the full grid."""
    full, sub = tx.make_tasks(True), tx.make_tasks(False)
    assert len(full) == 3 * 190 * (20 + 4 * 10) == 34_200 and len(sub) == 60
    runs = {d: {t["run"] for t in full if t["topics"] == d} for d in tx.TOPICS[True]}
    assert runs == {d: set(range(20 if d == tx.NEWS_D else 10)) for d in tx.TOPICS[True]}   # the sweep: runs 0-9
    keys = {canonical_json(t) for t in full}
    assert len(keys) == len(full) and all(canonical_json(t) in keys for t in sub)
    assert {t["topics"] for t in full} == {10, 20, 30, 50, 100} and {t["topics"] for t in sub} == {tx.NEWS_D}
    assert all(t["part"] != "20newsgroups" for t in pp.tasks.make_tasks(True)) and len(pp.tasks.make_tasks(True)) == 16_262
    assert not ({task_key(tx.PROTOCOL, t) for t in sub} & {task_key(pp.PROTOCOL, t) for t in pp.tasks.make_tasks(False)})
    with pytest.raises(ValueError, match="not a task of projection_text"):
        tx.run_task({"part": "20newsgroups", "table": "table9", "topics": 30, "run": 0, "pair": [0, 1]})


# ----------------------------------------------------------------------------- the fast path
def _small_task(seed, n=30, p=60, lopsided=False):
    """Word-count-like documents (Poisson counts) of two classes, a training and a test sample."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.zeros(2 * n // 3 if lopsided else n // 2, int), np.ones(n - (2 * n // 3 if lopsided else n // 2), int)]
    X = rng.poisson(0.4, size=(n, p)).astype(float)
    X[y == 1, :4] += rng.poisson(0.8, size=(int(y.sum()), 4))
    yt = rng.permutation(np.repeat([0, 1], 40))
    Xt = rng.poisson(0.4, size=(80, p)).astype(float)
    Xt[yt == 1, :4] += rng.poisson(0.8, size=(40, 4))
    return X, y, Xt, yt


#: the part of the paper's grid where scikit-learn's Newton-CG (tol 1e-8) reaches the optimum on
#: such data (α ≤ 1e-6 stops early, α ≥ 1e8 leaves decision values of the order of its tolerance)
CONVERGED = pp.paper.GRID[(pp.paper.GRID >= 1e-4) & (pp.paper.GRID <= 1e6)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_path_equals_the_scikit_learn_reference_where_it_converges(seed):
    """With the reference's tie rule (first = largest α) the record's chosen C, test error and
    refitted decision values are scikit-learn's GridSearchCV + LogisticRegression(newton-cg) to
    solver tolerance; with the lexicographic rule the choice is one of the reference's ties."""
    from sklearn.linear_model import LogisticRegression
    X, y, Xt, yt = _small_task(seed)
    search = _lgr_cv_search(X, y, CONVERGED, seed)
    fast = tx.lgr_record(X, y, Xt, yt, CONVERGED, seed, tie="first")
    assert fast["C"] == float(search.best_params_["C"])
    assert fast["error"] == float(np.mean(search.predict(Xt) != yt))
    path = L.lgr_cv_path(X, y, CONVERGED, seed)
    ref_acc = np.array([search.cv_results_[f"split{f}_test_score"] for f in range(path["accuracy"].shape[0])])
    np.testing.assert_array_equal(path["accuracy"], ref_acc)
    z = L.lgr_refit_decision(X, y, Xt, path["C"][path["C"] <= fast["C"]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = LogisticRegression(C=fast["C"], solver="newton-cg", tol=1e-12, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(z, ref.decision_function(Xt), atol=1e-6)
    lex = tx.lgr_record(X, y, Xt, yt, CONVERGED, seed)
    mean = search.cv_results_["mean_test_score"]
    tied = {float(c) for c, m in zip(search.cv_results_["param_C"], mean) if m >= mean.max() - SCORE_ATOL}
    assert lex["C"] in tied and lex["ties"] == len(tied)


def test_the_record_never_keeps_a_one_class_model_beside_a_tied_two_class_one():
    """Lopsided training documents (2:1), the paper's grid: wherever a model that predicts both
    classes on the validation documents ties at the best CV accuracy, the record's C is such a
    model; the old rule (first tie, the largest α) picks a one-class model in some of these."""
    moved = checked = 0
    for seed in range(30):
        X, y, Xt, yt = _small_task(seed, n=12, p=40, lopsided=True)
        path = L.lgr_cv_path(X, y, pp.paper.GRID, seed)
        acc = path["accuracy"].mean(0)
        pos = (path["positive"] * path["n_validation"][:, None]).sum(0) / path["n_validation"].sum()
        one_class = (pos == 0) | (pos == 1)
        tied = acc >= acc.max() - SCORE_ATOL
        rec = tx.lgr_record(X, y, Xt, yt, pp.paper.GRID, seed)
        j = int(np.flatnonzero(path["C"] == rec["C"])[0])
        assert tied[j] and rec["ties"] == tied.sum()
        assert rec["first_tie"]["C"] == path["C"][int(np.flatnonzero(tied)[0])]
        if (tied & ~one_class).any():
            checked += 1
            assert not one_class[j]
            moved += bool(one_class[int(np.flatnonzero(tied)[0])])
    assert checked >= 10 and moved >= 1                     # the case the rule is for occurs


# ----------------------------------------------------------------------------- reduce and claims
def test_reduce_counts_one_class_refits_and_claims_average_the_pairs_of_a_run_first():
    tasks = []
    for run in range(3):
        for k, pair in enumerate(([0, 1], [0, 2])):
            tasks.append(({"table": "table3", "topics": tx.NEWS_D, "run": run, "pair": pair},
                          {"L2-LGR": _rec(0.5, one_class=(k == 0)), "LGR-Topic": _rec(0.2 + 0.1 * k),
                           "Proj-Topic": _rec(0.1 * run)}))
    store = _store(tasks)
    vals = tx.per_run(store, "table3")
    np.testing.assert_allclose(vals["LGR-Topic"], [25.0] * 3)
    np.testing.assert_allclose(vals["Proj-Topic"], [0.0, 10.0, 20.0])
    c = tx.claims(store).set_index("claim")
    assert c.loc["Proj-Topic below LGR-Topic", "n"] == 3 and c.loc["Proj-Topic below LGR-Topic", "gain"]
    assert (c["test"] == "paired_t").all() and "se (uncorrected)" not in c.columns
    tables = tx.reduce(store.params, store.results)
    assert set(tables) == {"table3_d30", "choices"}
    assert tables["choices"].loc[("Table 3 (5 %)", 30)].tolist() == [6, 3, 0, 0]
    ch = tx.chance_level_tasks(store, "table3")
    assert ch["tasks"] == 6 and ch["L2-LGR"] == 6 and ch["one class"] == {"L2-LGR": 3, "LGR-Topic": 0, "Proj-Topic": 0}
    assert ch["first tie"]["Proj-Topic"] == {"chance": 6, "one class": 6}
    with pytest.raises(ValueError, match="unknown table"):
        tx.per_run(store, "table5")


def test_agreement_of_tables_2_to_4_at_the_papers_topic_count():
    """Only d = 30 is compared with the paper's levels; the paper's printed s.e. enters the verdict."""
    tasks = [({"table": "table3", "topics": d, "run": r, "pair": [0, 1]},
              {"L2-LGR": _rec(0.1108 + 0.001 * (r % 2) + (0.2 if d == 10 else 0.0)), "LGR-Topic": _rec(0.2),
               "Proj-Topic": _rec(0.0787)}) for d in (10, 30) for r in range(6)]
    a = tx.agreement_table(_store(tasks)).set_index("method")
    assert set(a["table"]) == {"Table 3"} and a.loc["L2-LGR", "paper se"] == tx.PAPER["table3"]["se"]["L2-LGR"]
    assert a.loc["L2-LGR", "ours"] == pytest.approx(11.13)
    assert a["agreement"].tolist() == ["agrees", "differs", "agrees"]
    assert a.loc["Proj-Topic", "se"] == pytest.approx(tx.PAPER["table3"]["se"]["Proj-Topic"])   # ours: no spread


def test_topic_count_claims_pair_the_same_tasks_across_d():
    """d = 30 against d = 10 on the tasks stored at both (a run × pair block): the effect is the
    mean over runs of the per-run difference (paired t over the runs); a topic count stored for
    other pairs is paired on the common ones only."""
    tasks = []
    for d, bump in ((30, 0.0), (10, 0.04), (50, -0.02)):
        for run in range(4):
            for pair in ([0, 1], [0, 2], [1, 2]):
                if d == 50 and pair == [1, 2]:
                    continue
                e = 0.1 + bump + 0.01 * run + (0.005 * (-1) ** run if d != 30 else 0.0)   # ±0.5 points
                tasks.append(({"table": "table2", "topics": d, "run": run, "pair": pair},
                              {m: _rec(e) for m in pp.paper.NEWS_METHODS}))
    c = tx.topic_count_claims(_store(tasks)).set_index(["method", "d"])
    assert c.loc[("Proj-Topic", 10), "effect"] == pytest.approx(4.0)
    assert c.loc[("Proj-Topic", 10), "verdict"] == "holds" and c.loc[("Proj-Topic", 10), "tasks"] == 12
    assert c.loc[("LGR-Topic", 50), "effect"] == pytest.approx(-2.0) and c.loc[("LGR-Topic", 50), "tasks"] == 8
    assert c.loc[("LGR-Topic", 50), "verdict"] == "fails"
    assert set(c["table"]) == {"Table 2, LGR-Topic", "Table 2, Proj-Topic"}
    assert tx.topic_count_claims(_store([t for t in tasks if t[0]["topics"] == 30])).empty


def test_split_ratios_and_coverage_follow_the_protocol():
    r = tx.split_ratios()
    assert set(r) == set(pp.paper.NEWS_FRACS)
    assert 25 < r["table2"] < 40 and r["table2"] > r["table3"] > r["table4"] > 5      # ~ 1 / fraction
    full = tx.make_tasks(True)
    stored = [p for p in full if p["topics"] == 30 and p["table"] == "table3" and p["run"] == 1]
    cov = tx.store_coverage(stored)
    assert cov.loc[("d = 30", "Table 3 (5 %)")].tolist() == [190, 3800, 1]
    assert cov.loc[("d = 10", "Table 3 (5 %)")].tolist() == [0, 1900, 0]              # 10 runs of the sweep
    assert cov.loc[("d = 30", "all"), ["stored", "in the protocol"]].tolist() == [190, 11400]
    assert cov.loc[("all", "all"), ["stored", "in the protocol"]].tolist() == [190, 34200]


def test_vocabulary_sizes_include_the_protocols_vocabulary():
    sizes = tx.vocabulary_sizes(rankings=("occurrences",))
    assert sizes.iloc[0]["occurrences"] == pp.newsgroups.newsgroups_corpus()[0].shape[1]
    assert sizes.index[0].startswith("none (0 words)")
    with pytest.raises(ValueError, match="ranking"):
        tx.vocabulary_sizes(rankings=("tf-idf",))

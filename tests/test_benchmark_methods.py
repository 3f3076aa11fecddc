"""HKL and GeoRatio in the benchmark protocol: the HKL ranking against the fitted models'
disjunctions computed directly, the training-fold booleanisation of continuous data, GeoRatio's
kept groups against its results table, and the reason a method gives where it cannot run."""
import numpy as np
import pytest

from fsbook.booleanize import quantile_thresholds
from fsbook.decisions import top_k
from fsbook.experiments import benchmark as B
from fsbook.experiments import run_protocol
from fsbook.experiments.benchmark.data import attribute_groups
from fsbook.hkl import DisjunctiveHKLCV, HKLRanker, hkl_feature_scores


def _direct_ranking(models, owner, n):
    """Scores by a loop over features (not over disjunctions), order by (-score, index)."""
    scores = []
    for j in range(n):
        mine = set(np.flatnonzero(np.asarray(owner) == j).tolist())
        scores.append(np.sqrt(sum(w * w for m in models for v, w in zip(m.disjunctions_, m.coef_)
                                  if mine & set(v))))
    scores = np.array(scores)
    order = top_k(scores, n).tolist()       # ties (equal up to rounding) to the smaller index
    return scores, [j for j in order if scores[j] > 0]


def test_hkl_ranking_on_boolean_data_matches_the_fitted_models_disjunctions():
    rng = np.random.default_rng(3)
    X = (rng.random((120, 8)) < 0.35).astype(float)
    y = ((X[:, 2] + X[:, 5] > 0) ^ (rng.random(120) < 0.1)).astype(int)
    sel = HKLRanker(3, boolean=True, random_state=4).fit(X, y)
    alone = DisjunctiveHKLCV(cv=3, random_state=4, binarize=None).fit(X, y)
    assert alone.disjunctions_ == sel.models_[0].disjunctions_            # the same fit
    scores, order = _direct_ranking([alone], np.arange(8), 8)
    np.testing.assert_allclose(sel.scores_, scores, rtol=1e-12)
    assert sel.n_used_ == len(order)
    assert set(order[:2]) == {2, 5}                                     # the two informative features
    for k in range(1, 8):
        assert np.flatnonzero(sel.support_at(k)).tolist() == sorted(order[:k])
    assert sel.get_support(indices=True).tolist() == sorted(order[:3])
    # fewer used features than k: only the used ones are kept
    assert sel.support_at(8).sum() == min(8, sel.n_used_)


def test_hkl_ranking_of_continuous_data_uses_training_quartiles_and_sums_back_to_columns():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 4))
    y = (X[:, 1] > 0.3).astype(int)
    sel = HKLRanker(1, random_state=0).fit(X, y)
    counts = [len(t) for t in quantile_thresholds(X, 4)]
    assert np.bincount(sel.owner_, minlength=4).tolist() == counts
    Xb = np.hstack([X[:, [j]] > t[None, :] for j, t in enumerate(quantile_thresholds(X, 4))]).astype(float)
    alone = DisjunctiveHKLCV(cv=3, random_state=0, binarize=None).fit(Xb, y)
    scores, order = _direct_ranking([alone], sel.owner_, 4)
    np.testing.assert_allclose(sel.scores_, scores, rtol=1e-12)
    assert sel.get_support(indices=True).tolist() == [1] == order[:1]


def test_hkl_scores_of_a_multiclass_fit_add_every_class_model():
    rng = np.random.default_rng(1)
    X = (rng.random((150, 5)) < 0.4).astype(float)
    y = np.where(X[:, 0] > 0, 0, np.where(X[:, 3] > 0, 1, 2))
    sel = HKLRanker(2, boolean=True).fit(X, y)
    assert len(sel.models_) == 3
    scores, _ = _direct_ranking(sel.models_, np.arange(5), 5)
    np.testing.assert_allclose(sel.scores_, scores, rtol=1e-12)
    assert set(sel.get_support(indices=True)) == {0, 3}


def test_hkl_refuses_non_boolean_input_declared_boolean():
    with pytest.raises(ValueError, match="0/1"):
        HKLRanker(1, boolean=True).fit(np.array([[0.0, 2.0], [1.0, 0.0], [0.0, 1.0]]), [0, 1, 0])
    assert hkl_feature_scores([], [0, 1], 2).tolist() == [0.0, 0.0]


def test_georatio_keeps_whole_attributes_of_its_most_probable_recommended_union():
    """On a breast-cancer training fold (9 nominal attributes), the kept columns are the
    attributes of the recommended union of highest probability in the selector's own table."""
    names = B.data.load("breast_cancer")[2]
    groups = attribute_groups(names)
    assert len(groups) == 9 and sorted(np.concatenate(groups).tolist()) == list(range(len(names)))
    assert attribute_groups(["a=x", "alcohol"]) is None
    y = B.data.load("breast_cancer")[1]
    train, test = B.data.folds("breast_cancer", 0, 3, y)[0]
    X_train = B.data.fold_data("breast_cancer", train, test)[0]
    sel = B.selectors.make_selector("GeoRatio", 0, 0, True, groups).fit(X_train, y[train])
    rec = sel.results_[sel.results_.recommended]
    assert len(rec) > 0                                     # a real choice, not the keep-all rule
    best = rec[rec.probability >= rec.probability.max() * (1 - 1e-9)].iloc[0]   # near-ties: the first
    expected = np.zeros(len(names), dtype=bool)
    for g in best["groups"]:
        expected[groups[g]] = True
    assert np.array_equal(sel.get_support(), expected) and 0 < expected.sum() < len(names)
    with pytest.raises(ValueError, match="groups"):
        B.selectors.make_selector("GeoRatio", 0, 0)


def test_a_method_that_cannot_run_gives_its_reason_in_the_not_run_table():
    assert B.selectors.cannot_run("GeoRatio", "breast_cancer") is None
    assert B.selectors.cannot_run("HKL", "wine") is None
    reason = B.selectors.cannot_run("GeoRatio", "wine")
    assert reason.startswith("not run:") and "no feature groups" in reason
    assert "one feature type" in B.selectors.cannot_run("GeoRatio", "20newsgroups")
    task = {"dataset": "wine", "repeat": 0, "fold": 0, "n_folds": 3, "method": "GeoRatio", "ks": [0]}
    assert B.tasks.run_task(task) == {"not_run": reason}
    tasks = [task, {**task, "fold": 1}, {**task, "method": "MI", "ks": [B.paper.RANK_K]}, {**task, "method": "none"}]
    t = run_protocol(B.PROTOCOL, tasks=tasks, out=None, progress=False).tables
    assert t["not_run"].to_dict("records") == [{"dataset": "wine", "method": "GeoRatio", "reason": reason}]
    assert "GeoRatio" not in set(t["curves"].method) | set(t["accuracy_at_k"].method) | set(t["fit_time"].method)
    assert set(t["accuracy_at_k"].method) == {"none", "MI"}


def test_no_kept_feature_scores_the_training_majority():
    y_train, y_test = np.array([0, 1, 1, 2]), np.array([1, 1, 0, 2, 1])
    lin, rbf = B.models.test_accuracies(np.zeros((4, 0)), y_train, np.zeros((5, 0)), y_test, 0)
    assert lin == rbf == 0.6


def test_hkl_fits_table_counts_certificates_per_dataset():
    def task(d, f):
        return {"dataset": d, "repeat": 0, "fold": f, "n_folds": 2, "method": "HKL", "ks": [2]}

    def result(cert, gap, used):
        return {"k": [2], "n_selected": [2], "acc_linear": [0.5], "acc_rbf": [0.5], "fit_time": [1.0],
                "support": [[0, 1]], "hkl_certified": cert, "hkl_gap": gap, "hkl_n_used": used}

    params = [task("wine", 0), task("wine", 1), task("colon", 0)]
    results = [result(True, 1e-4, 6), result(False, 0.3, 10), result(False, 0.5, 40)]
    fits = B.tables.reduce(params, results)["hkl_fits"].set_index("dataset")
    assert fits.loc["wine", "tasks"] == 2 and fits.loc["wine", "certified"] == 1
    assert fits.loc["wine", "median gap"] == pytest.approx((1e-4 + 0.3) / 2)
    assert fits.loc["wine", "largest gap"] == 0.3 and fits.loc["wine", "mean features used"] == 8
    assert fits.loc["colon", "certified"] == 0
    assert B.tables.reduce(params[:1], results[:1])["not_run"].empty

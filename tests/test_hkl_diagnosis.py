"""The diagnosis of HKL on hepatitis and transfusion (fsbook.experiments.hkl.diagnosis)."""
import numpy as np
import pandas as pd
import pytest

from fsbook.experiments import hkl as section3
from fsbook.experiments.hkl import diagnosis as diag


def test_majority_rate_of_a_fold_by_hand():
    # transfusion: 570 "not donated", 178 "donated"; 4 stratified folds of 187 posts hold 142 or
    # 143 of the 570, and the training part's majority is "not donated" on every fold
    acc = diag.classifier_accuracies("transfusion", classifiers=[])
    assert list(acc.columns) == ["majority"]
    assert acc["majority"].tolist() == [142 / 187, 142 / 187, 143 / 187, 143 / 187]
    assert acc["majority"].mean() == pytest.approx(570 / 748, abs=1e-15)
    assert 100 * acc["majority"].mean() == pytest.approx(section3.folds.majority_accuracy("transfusion"))


def test_hkl_path_reproduces_the_protocol_fit():
    # the protocol's path is a prefix of the path run to its cap: same choice, same refit
    X, y, _, split = section3.data.load_table1("hepatitis")
    tr, te = section3.folds.table_folds(y, split)[2]
    model = section3.models.tuned_hkl(section3.paper.HKL_C_GRID, 1000 * 2 + 7).fit(X[tr], y[tr])
    folds, path = diag.hkl_path("hepatitis", outer_folds=[2])
    row = folds.loc[2]
    assert row["C"] == model.C_
    assert row["Cs_tried"] == len(model.cv_results_)
    assert row["accuracy"] == np.mean(model.predict(X[te]) == y[te])
    assert row["n_disjunctions"] == len(model.disjunctions_)
    proto = path[path["protocol"]]
    np.testing.assert_array_equal(proto["C"], model.cv_results_["C"])
    np.testing.assert_allclose(proto["mean_accuracy"], model.cv_results_["mean_accuracy"], atol=1e-12)
    assert len(path) == model.max_Cs and path["C"].is_monotonic_increasing
    # the version-6 rule's column: DisjunctiveHKLCV(tie="simplest") on the same fold
    old = section3.models.tuned_hkl(section3.paper.HKL_C_GRID, 1000 * 2 + 7).set_params(tie="simplest").fit(X[tr], y[tr])
    assert row["C_simplest"] == old.C_ and row["accuracy_simplest"] == np.mean(old.predict(X[te]) == y[te])
    assert row["C_simplest"] < row["C"]             # this fold is one the two-class tie rule changed


def test_compare_moves_and_stays():
    up = diag.compare([0.76, 0.76, 0.77, 0.77], [0.78, 0.79, 0.79, 0.78])
    assert up["moves"] and up["diff"] == pytest.approx(0.02)
    noise = diag.compare([0.72, 0.82, 0.79, 0.79], [0.79, 0.74, 0.87, 0.79])
    assert not noise["moves"]
    down = diag.compare([0.80, 0.81, 0.80, 0.81], [0.70, 0.71, 0.70, 0.71])
    assert not down["moves"] and down["diff"] < 0
    # one fold of four moving: mean = se exactly, a tie under SCORE_ATOL (whatever the rounding)
    one = diag.compare([0.7, 0.8, 0.9, 0.75], [0.7 + 1 / 39, 0.8, 0.9, 0.75])
    assert one["diff"] == pytest.approx(one["se"]) and not one["moves"]
    # a scalar alternative (a published accuracy) against every fold, with base's spread
    pub = diag.compare([0.80, 0.84, 0.82, 0.86], 0.9125)
    assert pub["moves"] and pub["se"] == pytest.approx(np.std([0.80, 0.84, 0.82, 0.86], ddof=1) / 2)


@pytest.mark.parametrize("base, alt", [([0.8], [0.9]), ([0.8, 0.9], [0.9, 0.8, 0.7]),
                                       ([0.8, np.nan], [0.9, 0.8])])
def test_compare_rejects_bad_input(base, alt):
    with pytest.raises(ValueError):
        diag.compare(base, alt)


def _toy_results(fine, paper):
    cols = ("RBF SVM (raw)", "RBF SVM (booleanised)", "linear SVM (raw)", "linear SVM (booleanised)",
            "logistic regression (raw)", "random forest (raw)")
    majority = [0.76, 0.76, 0.77, 0.77]
    folds = pd.DataFrame({"n_disjunctions": [0, 3, 4, 5], "accuracy": majority,
                          "accuracy_full": majority, "majority": majority})
    clf = pd.DataFrame({"majority": majority, **{c: [0.80, 0.81, 0.80, 0.82] for c in cols}})
    return {"toy": {"path": (folds, None), "fine": pd.DataFrame({"accuracy": fine}),
                    "classifiers": clf, "paper": paper}, "cpu_seconds": 1.0}


def test_verdict_rule_returns_both_outcomes():
    def verdicts(results):
        t = diag.diagnosis_table(results)
        return dict(zip(t["experiment"], t["verdict"]))
    same = verdicts(_toy_results(fine=[0.76, 0.76, 0.77, 0.77], paper=91.0))
    better = verdicts(_toy_results(fine=[0.80, 0.81, 0.80, 0.82], paper=81.0))
    deciles = "HKL on deciles instead of quartiles"
    split = "the paper's HKL vs the best strong classifier per fold"
    assert same[deciles] == "not supported" and better[deciles] == "supported"
    assert same[split] == "not supported" and better[split] == "supported"
    # a fold whose refit selects nothing supports (a); the path to the cap moves nothing here
    t = diag.diagnosis_table(_toy_results(fine=[0.76] * 4, paper=91.0))
    assert t.loc[0, "verdict"] == "supported" and "none on 1 of 4 folds" in t.loc[0, "result"]
    assert t.loc[1, "verdict"] == "not supported"
    assert set(t["data set"]) == {"toy"}


def test_bad_dataset_and_fold():
    with pytest.raises(ValueError, match="4-fold tabular"):
        diag.hkl_path("monks1")
    with pytest.raises(ValueError, match="not one of the 4 outer folds"):
        diag.classifier_accuracies("hepatitis", classifiers=[], outer_folds=[4])
    with pytest.raises(ValueError, match="form must be"):
        diag.classifier_accuracies("hepatitis", classifiers=[("RBF SVM", "binary")], outer_folds=[0])


def test_a_fold_with_no_kept_feature_scores_every_classifier_as_the_training_majority():
    from fsbook.experiments.hkl.models import _majority

    train_y, test_y = np.array([0, 1, 1, 1, 0]), np.array([1, 0, 1, 1])
    out = _majority(train_y, test_y)
    assert out["L2"] == out["L1"] == 0.75
    assert out["outcomes_L2"] == out["outcomes_L1"] == "1011"

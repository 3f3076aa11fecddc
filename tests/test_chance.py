"""The tie rule's check: no stored model choice at the chance level while a tied
alternative is not.  The check itself must be able to fail: it is first shown a fake record
that breaks the rule."""
import functools

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC

from fsbook.decisions import SCORE_ATOL, argbest, argbest_lexicographic
from fsbook.experiments._chance import CHOICE_COLUMNS, chance_violations, svm_choice, tie_check
from fsbook.experiments._chance_stores import chance_level_choices


def test_tie_check_flags_a_degenerate_first_tie():
    # the "first of the ties" rule picks the one-class model; a tied model predicts both classes
    acc, degenerate = [0.7, 0.7, 0.6], [True, False, False]
    out = tie_check(acc, degenerate, chosen=argbest(acc, atol=SCORE_ATOL))
    assert out == {"degenerate": True, "tied": [0, 1], "tied_alternative": True}
    # the lexicographic rule (non-degenerate first among the ties) does not break the rule
    fixed = argbest_lexicographic(acc, [not d for d in degenerate], maximize=(True, True), atol=(SCORE_ATOL, 0.0))
    assert not tie_check(acc, degenerate, chosen=fixed)["degenerate"]


def test_tie_check_rejects_bad_input():
    with pytest.raises(ValueError):
        tie_check([0.5, 0.5], [True], chosen=0)
    with pytest.raises(ValueError):
        tie_check([0.5, 0.5], [True, False], chosen=2)


def test_chance_violations_fails_on_a_fake_record():
    fake = pd.DataFrame([["l1linf", "fake task", "RBF SVM C", 0.1, True, True, True, ""],
                         ["l1linf", "no alternative", "RBF SVM C", 0.1, True, True, False, ""],
                         ["l1linf", "not degenerate", "RBF SVM C", 1.0, True, False, True, ""]],
                        columns=CHOICE_COLUMNS)
    assert chance_violations(fake)["task"].tolist() == ["fake task"]
    with pytest.raises(ValueError, match="lack the columns"):
        chance_violations(fake.drop(columns="degenerate"))


def test_svm_choice_recomputes_the_search_and_sees_a_one_class_model():
    # a tiny C predicts the majority class on every validation point; the fake refit takes it
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0, 1, (20, 2)), rng.normal(3, 1, (10, 2))]
    y = np.r_[np.zeros(20), np.ones(10)]
    search = GridSearchCV(SVC(), {"C": [1e-4, 10.0]}, cv=StratifiedKFold(3, shuffle=True, random_state=0),
                          refit=lambda r: 0)
    out = svm_choice(search, X, y)
    assert out["chosen"] == 0 and out["one_class"].tolist() == [True, False] and out["degenerate"]
    real = GridSearchCV(SVC(), {"C": [1e-4, 10.0]}, cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(X, y)
    assert np.allclose(out["cv_accuracy"], real.cv_results_["mean_test_score"])


STORES = ["kernel_design", "l1linf", "geometry", "benchmark", "projection", "hkl"]


@functools.cache
def stored_choices(protocol):
    """:func:`chance_level_choices` of one committed store, computed once for the tests below
    (minutes of CPU for l1linf, benchmark and projection: their screened choices are recomputed)."""
    return chance_level_choices([protocol])


@pytest.mark.parametrize("protocol", STORES)
def test_screened_choices_are_recomputed_as_stored(protocol):
    choices = stored_choices(protocol)
    assert list(choices.columns) == CHOICE_COLUMNS
    # every screened choice was decided, and the recomputed cross-validations choose what the
    # store holds (its parameters, or the test accuracy of its refit where no parameter is stored)
    assert not choices["note"].str.contains("not recomputed").any()
    differ = choices[choices["note"].str.contains("differs from the stored")]
    assert differ.empty, differ.to_string()


@pytest.mark.parametrize("protocol", STORES)
def test_no_stored_choice_at_chance_with_a_tied_alternative(protocol):
    bad = chance_violations(stored_choices(protocol))
    assert bad.empty, f"chance-level choices with a tied alternative:\n{bad.to_string()}"


def test_tuned_svm_lexicographic_rule_prefers_a_two_class_model_among_ties():
    from fsbook.model_selection import lexicographic_svm_refit, tuned_svm

    # fake CV table: the first C is tied and predicts one class on every fold
    table = {"mean_test_accuracy": [0.7, 0.7 + 1e-16, 0.7, 0.6], "mean_test_classes": [1.0, 2.0, 1.5, 2.0],
             "mean_test_hinge": [-0.6, -0.9, -0.8, -0.1]}
    assert lexicographic_svm_refit(table) == 2          # two-class on some fold, then the smaller hinge
    rng = np.random.default_rng(1)
    X = np.r_[rng.normal(0, 1, (40, 3)), rng.normal(0.3, 1, (20, 3))]
    y = np.r_[np.zeros(40), np.ones(20)]
    lex = tuned_svm(SVC(), {"C": [1e-4, 1.0, 100.0]}, seed=0, scale=True, tie="lexicographic").fit(X, y)
    assert lex.best_index_ == lexicographic_svm_refit(lex.cv_results_)
    first = tuned_svm(SVC(), {"C": [1e-4, 1.0, 100.0]}, seed=0, scale=True).fit(X, y)
    acc = lex.cv_results_["mean_test_accuracy"]
    assert np.allclose(acc, first.cv_results_["mean_test_score"])
    with pytest.raises(ValueError, match="unknown tie rule"):
        tuned_svm(SVC(), {"C": [1.0]}, seed=0, tie="last")


def test_svm_choice_recomputes_the_lexicographic_rule_of_the_search():
    """:func:`svm_choice` on a ``tie="lexicographic"`` search chooses what the fitted search chose
    (its accuracy, class-count and hinge tables recomputed fold by fold)."""
    from fsbook.experiments._chance import svm_choice
    from fsbook.model_selection import tuned_svm

    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(0, 1, (30, 2)), rng.normal(0.4, 1, (12, 2))]
    y = np.r_[np.zeros(30), np.ones(12)]
    search = tuned_svm(SVC(), {"C": [1e-3, 1e-2, 1.0, 10.0]}, seed=2, scale=True, tie="lexicographic")
    out = svm_choice(search, X, y)
    fitted = search.fit(X, y)
    assert out["chosen"] == fitted.best_index_
    assert np.allclose(out["cv_accuracy"], fitted.cv_results_["mean_test_accuracy"])


def test_two_class_rule_changes_the_first_grid_point_only_away_from_a_one_class_model():
    """``tie="two_class"`` chooses the first grid point among the best unless that point predicts
    one class on every validation fold while a tied point predicts both; svm_choice recomputes
    its choice."""
    from fsbook.experiments._chance import svm_choice
    from fsbook.model_selection import tuned_svm, two_class_svm_refit

    table = {"mean_test_accuracy": [0.7, 0.7 + 1e-16, 0.7, 0.6], "mean_test_classes": [1.0, 2.0, 1.5, 2.0]}
    assert two_class_svm_refit(table) == 1
    table["mean_test_classes"] = [2.0, 2.0, 1.0, 2.0]
    assert two_class_svm_refit(table) == 0               # what "first" chooses
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(0, 1, (30, 2)), rng.normal(0.4, 1, (12, 2))]
    y = np.r_[np.zeros(30), np.ones(12)]
    grid = {"C": [1e-3, 1e-2, 1.0, 10.0]}
    two = tuned_svm(SVC(), grid, seed=2, scale=True, tie="two_class")
    out = svm_choice(two, X, y)
    fitted = two.fit(X, y)
    assert out["chosen"] == fitted.best_index_
    first = tuned_svm(SVC(), grid, seed=2, scale=True).fit(X, y)
    assert np.allclose(fitted.cv_results_["mean_test_accuracy"], first.cv_results_["mean_test_score"])
    if fitted.cv_results_["mean_test_classes"][first.best_index_] > 1:    # not one class on every fold
        assert fitted.best_index_ == first.best_index_

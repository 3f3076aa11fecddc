"""DisjunctiveHKL estimator: API, input validation, scikit-learn checks."""
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from fsbook.hkl import DisjunctiveHKL, OneVsRestDisjunctiveHKL


def _data(seed=0, m=60, n=6):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < 0.3).astype(float)
    y = np.where((X[:, 0] + X[:, 1] > 0) ^ (rng.random(m) < 0.05), "yes", "no")
    return X, y


def test_fit_api_names_transform():
    X, y = _data()
    df = pd.DataFrame(X, columns=[f"w{i}" for i in range(X.shape[1])])
    est = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-3).fit(df, y)
    assert list(est.classes_) == ["no", "yes"]
    assert est.duality_gap_ <= 1e-3 and est.n_iter_ == len(est.history_)
    assert {"iteration", "n_active", "gap"} <= set(est.history_.columns)
    assert est.disjunctions_ and all(isinstance(v, tuple) for v in est.disjunctions_)
    assert all(n.startswith("w") for v in est.disjunction_names_ for n in v)
    # features 0 and 1 carry the label
    assert set(est.disjunctions_[0]) <= {0, 1}
    T = est.transform(df)
    assert T.dtype == bool and T.shape == (len(X), len(est.disjunctions_))
    f = est.decision_function(df)
    assert np.mean(est.predict(df) == y) > 0.9
    np.testing.assert_array_equal(est.predict(df), np.where(f > 0, "yes", "no"))
    # sparse input gives the same model
    est2 = DisjunctiveHKL(C=10.0, beta=2.0, tol=1e-3).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(est2.decision_function(sp.csr_matrix(X)), f, rtol=1e-6, atol=1e-6)
    assert est2.disjunction_names_ is None
    assert est.get_feature_names_out()[0].startswith("w")


def test_feature_weights_change_the_model():
    X, y = _data(1)
    w = np.ones(X.shape[1])
    w[0] = 50.0                       # make feature 0 very expensive
    est = DisjunctiveHKL(C=10.0, beta=2.0, feature_weights=w).fit(X, y)
    assert all(0 not in v for v in est.disjunctions_[:1])


@pytest.mark.parametrize("X,y,msg", [
    (np.array([[0, 2.0], [1, 0]]), [0, 1], "boolean"),
    (np.array([[0, np.nan], [1, 0]]), [0, 1], "NaN"),
    (np.array([[0, 1.0], [1, 0]]), [1, 1], "class"),
    (np.array([[0, 1.0], [1, 0], [1, 1]]), [0, 1, 2], "binary"),
])
def test_input_errors(X, y, msg):
    with pytest.raises(ValueError, match=msg):
        DisjunctiveHKL().fit(X, y)


def test_bad_parameters():
    X, y = _data()
    with pytest.raises(ValueError, match="p must"):
        DisjunctiveHKL(p=1.0).fit(X, y)
    with pytest.raises(ValueError, match="feature_weights"):
        DisjunctiveHKL(feature_weights=np.ones(2)).fit(X, y)
    est = DisjunctiveHKL(beta=2.0).fit(X, y)
    with pytest.raises(ValueError):
        est.predict(np.full((2, X.shape[1]), 0.5))
    with pytest.raises(ValueError):
        est.predict(np.ones((2, X.shape[1] + 1)))


def test_one_vs_rest():
    rng = np.random.default_rng(3)
    X = (rng.random((90, 5)) < 0.3).astype(float)
    y = np.select([X[:, 0] > 0, X[:, 1] > 0], ["a", "b"], "c")
    est = OneVsRestDisjunctiveHKL(DisjunctiveHKL(C=10.0, beta=2.0)).fit(X, y)
    assert len(est.estimators_) == 3
    assert np.mean(est.predict(X) == y) > 0.8


#: the message of the estimator's only input restriction (0/1 features)
BOOLEAN_ONLY = "needs boolean (0/1) features"
#: checks that feed random real-valued sparse data and read any refusal as "sparse unsupported"
SPARSE_RANDOM_DATA = {"check_estimator_sparse_tag", "check_estimator_sparse_array",
                      "check_estimator_sparse_matrix"}


def test_sklearn_check_estimator_direct():
    """scikit-learn's checks on the estimator itself.

    Most generic checks feed real-valued (often negative) features, which a boolean method must
    refuse.  Every failing check must fail *for that reason*: its exception carries the
    estimator's boolean-input message, or it is one of the three sparse checks whose random
    real-valued sparse data the estimator refuses for the same reason.  Everything else passes.
    """
    from sklearn.utils.estimator_checks import check_estimator
    res = check_estimator(DisjunctiveHKL(beta=2.0, max_active=20), on_fail=None)
    other = {r["check_name"]: str(r["exception"])[:200] for r in res if r["status"] == "failed"
             and BOOLEAN_ONLY not in str(r["exception"]) and r["check_name"] not in SPARSE_RANDOM_DATA}
    assert not other, other
    passed = {r["check_name"] for r in res if r["status"] == "passed"}
    assert {"check_no_attributes_set_in_init", "check_parameters_default_constructible",
            "check_get_params_invariance", "check_set_params", "check_estimators_unfitted",
            "check_classifiers_one_label", "check_classifiers_regression_target",
            "check_classifier_not_supporting_multiclass",
            "check_estimators_empty_data_messages"} <= passed


def test_sklearn_check_estimator_on_boolean_input():
    """The full check suite with the data booleanised first (Binarizer, x > 0).

    Expected failures, all independent of DisjunctiveHKL: Pipeline fits its ``steps`` in
    place (two checks fail the same way for ``Binarizer + LogisticRegression``), and
    ``transform`` returns the boolean matrix of disjunctions by design, not float64.
    """
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Binarizer
    from sklearn.utils.estimator_checks import check_estimator
    expected = {"check_estimators_overwrite_params": "Pipeline fits its steps in place",
                "check_dont_overwrite_parameters": "Pipeline fits its steps in place",
                "check_transformer_preserve_dtypes": "transform returns booleans by design"}
    est = make_pipeline(Binarizer(threshold=0.0), DisjunctiveHKL(beta=2.0, max_active=20))
    res = check_estimator(est, on_fail=None, expected_failed_checks=expected)
    failed = {r["check_name"]: str(r["exception"])[:200] for r in res if r["status"] == "failed"}
    assert not failed, failed
    assert sum(r["status"] == "passed" for r in res) >= 50

"""fsbook.capabilities: the capability table lists every public estimator, and its probes and
tags say what fit does."""
import numpy as np
import pytest

from fsbook.capabilities import PROBES, capability_table, public_estimators

FAST = ["HSFS", "Relief", "ProjectionPenalty", "ZeroNormSVM", "DisjunctiveHKL", "FeatureGroupSelector",
        "MMC", "KernelDesign", "ExhaustedSafePLS"]


@pytest.fixture(scope="module")
def table():
    return capability_table(FAST)


def test_every_public_estimator_is_listed():
    est = public_estimators()
    assert len(est) == 28
    assert {"GeometricFeatureSetSelector", "ProjectionPenalty", "KernelDesign", "MMC"} <= set(est)


def test_columns_and_values(table):
    assert list(table.index) == FAST
    assert set(PROBES) <= set(table.columns)
    for probe in PROBES:
        assert set(table[probe]) <= {"yes", "refused", "—"}


def test_probes_record_what_fit_does(table):
    assert table.loc["HSFS", "sparse X"] == "yes"              # HSFS keeps sparse X sparse
    assert table.loc["ZeroNormSVM", "sparse X"] == "yes"        # sparse X kept sparse
    assert table.loc["ExhaustedSafePLS", "sparse X"] == "refused"
    assert table.loc["ZeroNormSVM", "3 classes"] == "refused"  # binary only
    assert table.loc["DisjunctiveHKL", "3 classes"] == "refused"
    assert table.loc["Relief", "3 classes"] == "yes"
    assert table.loc["FeatureGroupSelector", "NaN in X"] == "yes"
    assert table.loc["ExhaustedSafePLS", "regression y"] == "yes"
    assert table.loc["HSFS", "regression y"] == "yes"             # the linear kernel of the target
    assert table.loc["Relief", "regression y"] == "yes"           # RReliefF
    assert table.loc["ProjectionPenalty", "regression y"] == "yes"  # with Ridge
    assert table.loc["ZeroNormSVM", "regression y"] == "refused"
    assert "defined for class labels only" in table.attrs["messages"][("ZeroNormSVM", "regression y")]
    assert "binary" in table.attrs["messages"][("DisjunctiveHKL", "3 classes")]
    assert table.attrs["probed_as"] == {"ProjectionPenalty": "LogisticRegression(), PCA(2)"}
    assert table.attrs["probed_for_regression_as"] == {"ProjectionPenalty": "Ridge(), PCA(2)"}


def test_every_regression_refusal_names_its_reason():
    """A regression target is taken or refused with the reason of fsbook._targets.REFUSALS, never
    with a bare error from deep inside fit."""
    from fsbook._targets import REFUSALS

    t = capability_table()
    xy = t.index[t["input"] == "(X, y)"]
    refused = set(xy[t.loc[xy, "regression y"] == "refused"])
    assert refused == set(REFUSALS)
    for name in refused:
        assert REFUSALS[name] in t.attrs["messages"][(name, "regression y")]
    assert t.attrs["regression_refusals"] == {name: REFUSALS[name] for name in xy if name in refused}
    assert set(xy) - refused == {"ProjectionPenalty", "ExhaustedSafePLS", "FeatureGroupSelector",
                                 "HSFS", "WekaFilters", "FOHSIC", "Relief", "StabilitySelection"}


def test_pair_and_triplet_learners_are_not_probed(table):
    assert table.loc["MMC", "input"] == "pairs"
    assert table.loc["KernelDesign", "input"] == "triplets"
    assert (table.loc[["MMC", "KernelDesign"], list(PROBES)] == "—").all().all()


def test_tags_agree_with_fit(table):
    assert (table.loc[table["input"] == "(X, y)", "tags agree"] == "yes").all()


def test_a_wrong_tag_is_reported(monkeypatch):
    """The check can fail: a selector whose tag claims sparse input while fit refuses it."""
    from fsbook.l1linf import HSFS

    def refuse_sparse(self, X, y):
        import scipy.sparse as sp
        if sp.issparse(X):
            raise TypeError("no sparse")
        return self
    monkeypatch.setattr(HSFS, "fit", refuse_sparse)
    t = capability_table(["HSFS"])
    assert t.loc["HSFS", "sparse (tag)"] == "yes"
    assert t.loc["HSFS", "sparse X"] == "refused"
    assert t.loc["HSFS", "tags agree"] == "no"


def test_unknown_name_is_refused():
    with pytest.raises(ValueError, match="not public estimators"):
        capability_table(["SelectKBest"])


def test_probe_data_is_seeded():
    a, b = capability_table(["Relief"], seed=1), capability_table(["Relief"], seed=1)
    assert a.equals(b)
    assert np.all(a.columns == b.columns)


def test_sparse_tags_of_the_remaining_estimators():
    """Sparse X accepted (OrthogonalLaplacianfaces) or refused with the reason
    (ExhaustedSafePLS, the Weka estimators): the tags agree with fit either way."""
    names = ["OrthogonalLaplacianfaces", "ExhaustedSafePLS", "WekaLibSVM", "WekaSubsetSelector"]
    t = capability_table(names)
    assert list(t.loc[names, "sparse X"]) == ["yes", "refused", "refused", "refused"]
    assert (t.loc[names, "tags agree"] == "yes").all()
    for name in names[1:]:
        assert "X.toarray()" in t.attrs["messages"][(name, "sparse X")]

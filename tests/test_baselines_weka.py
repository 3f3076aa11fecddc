"""Our Weka selectors against Weka itself (weka.jar 3.9 bundled with python-weka-wrapper3).

Only Weka's core evaluators and searches ship in weka.jar (CfsSubsetEval, BestFirst,
GreedyStepwise); ConsistencySubsetEval, FilteredSubsetEval's companions LinearForwardSelection,
RankSearch and SubsetSizeForwardSelection are Weka packages that need Weka's package server, which
is not reachable here, so those are checked against hand-computed cases in test_baselines.py.
"""
import shutil

import numpy as np
import pytest

from fsbook.baselines import WekaSubsetSelector
from fsbook.booleanize import booleanize
from fsbook.datasets import (load_breast_cancer, load_breast_cancer_wisconsin, load_hepatitis,
                             load_ionosphere, load_monks, load_tic_tac_toe, load_transfusion,
                             load_vote)

weka_jvm = pytest.importorskip("weka.core.jvm", reason="python-weka-wrapper3 is not installed")
if shutil.which("java") is None:
    pytest.skip("no Java runtime (JVM) on this machine: Weka cannot run", allow_module_level=True)


def _write_arff(path, X, y, discrete):
    with open(path, "w") as f:
        f.write("@relation fsbook\n")
        for j in range(X.shape[1]):
            if discrete[j]:
                vals = ",".join(str(int(v)) for v in sorted(set(X[:, j].tolist())))
                f.write(f"@attribute a{j} {{{vals}}}\n")
            else:
                f.write(f"@attribute a{j} numeric\n")
        classes = ",".join(str(c) for c in sorted(set(y.tolist())))
        f.write(f"@attribute class {{{classes}}}\n@data\n")
        for i in range(X.shape[0]):
            vals = [str(int(v)) if discrete[j] else repr(float(v)) for j, v in enumerate(X[i])]
            f.write(",".join(vals) + f",{y[i]}\n")


@pytest.fixture(scope="module")
def weka():
    weka_jvm.start(packages=False)
    from weka.attribute_selection import ASEvaluation, ASSearch, AttributeSelection
    from weka.core.converters import Loader

    def select(X, y, discrete, search, tmp_path):
        path = str(tmp_path / "data.arff")
        _write_arff(path, X, y, discrete)
        data = Loader(classname="weka.core.converters.ArffLoader").load_file(path)
        data.class_is_last()
        sel = AttributeSelection()
        sel.evaluator(ASEvaluation(classname="weka.attributeSelection.CfsSubsetEval"))
        sel.search(ASSearch(classname=search))
        sel.select_attributes(data)
        return sorted(int(i) for i in sel.selected_attributes if i != X.shape[1])

    yield select
    # the JVM cannot be restarted within a process; it ends with the test session


def _boolean(loader, **kw):
    b = loader(**kw)
    X, _ = booleanize(b)
    return X.astype(np.float64), np.asarray(b.target), np.ones(X.shape[1], dtype=bool)


def _numeric(loader):
    b = loader()
    X = np.asarray(b.data, dtype=np.float64)
    return X, np.asarray(b.target), np.zeros(X.shape[1], dtype=bool)


DATASETS = {
    "vote": lambda: _boolean(load_vote),
    "breast-cancer": lambda: _boolean(load_breast_cancer),
    "wisconsin": lambda: _boolean(load_breast_cancer_wisconsin),
    "hepatitis": lambda: _boolean(load_hepatitis),
    "tic-tac-toe": lambda: _boolean(load_tic_tac_toe),
    "monk-1": lambda: _boolean(load_monks, problem=1),
    "transfusion (numeric, MDL)": lambda: _numeric(load_transfusion),
    "ionosphere (numeric, MDL)": lambda: _numeric(load_ionosphere),
}


@pytest.mark.parametrize("search", ["best_first", "greedy_stepwise"])
@pytest.mark.parametrize("name", list(DATASETS))
def test_cfs_selects_the_same_subset_as_weka(weka, tmp_path, name, search):
    X, y, discrete = DATASETS[name]()
    weka_search = {"best_first": "weka.attributeSelection.BestFirst",
                   "greedy_stepwise": "weka.attributeSelection.GreedyStepwise"}[search]
    expected = weka(X, y, discrete, weka_search, tmp_path)
    ours = WekaSubsetSelector(evaluator="cfs", search=search, discrete_features=discrete).fit(X, y)
    assert list(map(int, ours.selected_)) == expected
    assert len(expected) > 0

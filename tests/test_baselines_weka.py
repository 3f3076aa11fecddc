"""Our Weka selectors against Weka itself (weka.jar 3.9 bundled with python-weka-wrapper3).

Only Weka's core evaluators and searches ship in weka.jar 3.9 (CfsSubsetEval, BestFirst,
GreedyStepwise, GainRatioAttributeEval, Ranker, the filters); ConsistencySubsetEval,
FilteredSubsetEval, LinearForwardSelection, RankSearch and SubsetSizeForwardSelection are Weka
packages that need Weka's package server, which is not reachable here.  Those are checked against
Debian's ``weka`` package (3.6.14, ``/usr/share/java/weka-3.6*.jar``, run from its command line)
where its definitions are those of 3.9 (the evaluators' and searches' source is unchanged, and
ties in the rankings happen to fall the same way on these data), and against hand-computed cases
in test_baselines.py.  SubsetSizeForwardSelection is not compared: its folds come from Java's
random generator and its command-line default set-size evaluator differs from the GUI's.
"""
import glob
import re
import shutil
import subprocess

import numpy as np
import pytest

from fsbook.baselines import WekaSubsetSelector
from fsbook.baselines.weka_svm import weka_fill_values, weka_nominal_to_binary
from fsbook.booleanize import booleanize
from fsbook.datasets import (
    load_breast_cancer,
    load_breast_cancer_wisconsin,
    load_hepatitis,
    load_ionosphere,
    load_monks,
    load_tic_tac_toe,
    load_transfusion,
    load_vote,
)

weka_jvm = pytest.importorskip("weka.core.jvm", reason="python-weka-wrapper3 is not installed")
if shutil.which("java") is None:
    pytest.skip("no Java runtime (JVM) on this machine: Weka cannot run", allow_module_level=True)


def _write_arff(path, X, y, discrete, n_levels=None):
    """ARFF of ``(X, y)``: nominal columns as codes ``0..L-1`` (all ``n_levels[j]`` declared, as
    the data set's own ARFF declares them, else the observed ones), NaN as ``?``."""
    def cell(j, v):
        if np.isnan(v):
            return "?"
        return str(int(v)) if discrete[j] else repr(float(v))

    with open(path, "w") as f:
        f.write("@relation fsbook\n")
        for j in range(X.shape[1]):
            if discrete[j]:
                seen = X[~np.isnan(X[:, j]), j]
                codes = (range(n_levels[j]) if n_levels is not None
                         else sorted(set(int(v) for v in seen)))
                f.write(f"@attribute a{j} {{{','.join(str(c) for c in codes)}}}\n")
            else:
                f.write(f"@attribute a{j} numeric\n")
        classes = ",".join(str(c) for c in sorted(set(y.tolist())))
        f.write(f"@attribute class {{{classes}}}\n@data\n")
        for i in range(X.shape[0]):
            f.write(",".join(cell(j, v) for j, v in enumerate(X[i])) + f",{y[i]}\n")


@pytest.fixture(scope="module")
def weka():
    weka_jvm.start(packages=False)
    from weka.attribute_selection import ASEvaluation, ASSearch, AttributeSelection
    from weka.core.converters import Loader

    def select(X, y, discrete, search, tmp_path, n_levels=None):
        path = str(tmp_path / "data.arff")
        _write_arff(path, X, y, discrete, n_levels)
        data = Loader(classname="weka.core.converters.ArffLoader").load_file(path)
        data.class_is_last()
        sel = AttributeSelection()
        sel.evaluator(ASEvaluation(classname="weka.attributeSelection.CfsSubsetEval"))
        sel.search(ASSearch(classname=search))
        sel.select_attributes(data)
        return sorted(int(i) for i in sel.selected_attributes if i != X.shape[1])

    def load(X, y, discrete, tmp_path, n_levels=None):
        path = str(tmp_path / "data.arff")
        _write_arff(path, X, y, discrete, n_levels)
        data = Loader(classname="weka.core.converters.ArffLoader").load_file(path)
        data.class_is_last()
        return data

    select.load = load
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


def _raw(loader):
    """The data set's own attributes, as Weka reads them from its ARFF file: nominal codes and
    numeric values, NaN where the file has ``?``."""
    b = loader()
    X = np.asarray(b.data, dtype=np.float64)
    discrete = np.array([c is not None for c in b.categories])
    n_levels = [len(c) if c is not None else 0 for c in b.categories]
    return X, np.asarray(b.target), discrete, n_levels


RAW = {   # the Table 1 data sets with missing values
    "vote (raw)": lambda: _raw(load_vote),
    "breast-cancer (raw)": lambda: _raw(load_breast_cancer),
    "hepatitis (raw, mixed)": lambda: _raw(load_hepatitis),
    "wisconsin (raw, numeric)": lambda: _raw(load_breast_cancer_wisconsin),
}

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


@pytest.mark.parametrize("search", ["best_first", "greedy_stepwise"])
@pytest.mark.parametrize("name", list(RAW))
def test_cfs_on_raw_attributes_with_missing_values_selects_weka_subset(weka, tmp_path, name,
                                                                       search):
    X, y, discrete, n_levels = RAW[name]()
    assert np.isnan(X).any()
    weka_search = {"best_first": "weka.attributeSelection.BestFirst",
                   "greedy_stepwise": "weka.attributeSelection.GreedyStepwise"}[search]
    expected = weka(X, y, discrete, weka_search, tmp_path, n_levels)
    ours = WekaSubsetSelector(evaluator="cfs", search=search, discrete_features=discrete).fit(X, y)
    assert list(map(int, ours.selected_)) == expected
    assert len(expected) > 0


@pytest.mark.parametrize("name", list(RAW))
def test_libsvm_preprocessing_equals_weka_filters(weka, tmp_path, name):
    """ReplaceMissingValues then NominalToBinary (Weka's LibSVM defaults), statistics from the
    first two thirds of the rows, applied to all rows: our matrices equal Weka's."""
    from weka.core.dataset import Instances
    from weka.filters import Filter
    X, y, discrete, n_levels = RAW[name]()
    data = weka.load(X, y, discrete, tmp_path, n_levels)
    n_train = 2 * X.shape[0] // 3
    train = Instances.copy_instances(data, 0, n_train)
    out = data
    for cls in ("weka.filters.unsupervised.attribute.ReplaceMissingValues",
                "weka.filters.unsupervised.attribute.NominalToBinary"):
        flt = Filter(classname=cls)
        flt.inputformat(train)
        train, out = flt.filter([train, out])
    expected = out.to_numpy(internal=True)[:, :-1]
    fill = weka_fill_values(X[:n_train], discrete)
    ours = weka_nominal_to_binary(np.where(np.isnan(X), fill, X), discrete, np.array(n_levels))
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", list(RAW))
def test_gain_ratio_ranking_with_missing_values_equals_weka_ranker(weka, tmp_path, name):
    """``rank_search``'s ranking (GainRatioAttributeEval, missing counts spread) against Weka's
    Ranker: the same merits, the same order up to ties (RankSearch, a Weka package not in
    weka.jar, breaks ties its own way, see ``gain_ratio_ranking``)."""
    from weka.attribute_selection import ASEvaluation, ASSearch, AttributeSelection

    from fsbook.baselines.mdl import discretize
    from fsbook.baselines.subset_evaluators import _class_tables, gain_ratio
    from fsbook.baselines.weka_selector import gain_ratio_ranking
    X, y, discrete, n_levels = RAW[name]()
    data = weka.load(X, y, discrete, tmp_path, n_levels)
    sel = AttributeSelection()
    sel.evaluator(ASEvaluation(classname="weka.attributeSelection.GainRatioAttributeEval"))
    sel.search(ASSearch(classname="weka.attributeSelection.Ranker"))
    sel.ranking(True)
    sel.select_attributes(data)
    ranked = np.asarray(sel.ranked_attributes)
    codes, levels, _ = discretize(X, y, discrete)
    ours = gain_ratio_ranking(codes, levels, y, 2)
    merit = gain_ratio(_class_tables(codes, levels, y, 2))
    theirs = ranked[:, 0].astype(int)
    np.testing.assert_allclose(merit[theirs], ranked[:, 1], rtol=1e-9, atol=1e-12)
    assert np.round(merit[ours], 9).tolist() == np.round(merit[theirs], 9).tolist()
    assert sorted(ours.tolist()) == sorted(theirs.tolist())


def test_weka_sort_leaves_ties_as_weka_utils_sort_does(weka):
    """``weka_sort`` (the ranking of LinearForwardSelection / SubsetSizeForwardSelection) against
    Weka 3.9's own ``weka.core.Utils.sort`` on arrays with many ties and NaN."""
    from jpype import JArray, JClass, JDouble

    from fsbook.baselines.subset_search import weka_sort
    utils = JClass("weka.core.Utils")
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(1, 80))
        v = rng.integers(0, int(rng.integers(1, 6)), n).astype(float)
        v[rng.random(n) < 0.05] = np.nan
        assert weka_sort(v).tolist() == list(utils.sort(JArray(JDouble)(v.tolist())))


WEKA36 = sorted(glob.glob("/usr/share/java/weka-3.6*.jar"))
WEKA36_CLASSES = {
    "cfs": "weka.attributeSelection.CfsSubsetEval",
    "consistency": "weka.attributeSelection.ConsistencySubsetEval",
    "filtered": "weka.attributeSelection.FilteredSubsetEval",
    "best_first": "weka.attributeSelection.BestFirst",
    "greedy_stepwise": "weka.attributeSelection.GreedyStepwise",
    "linear_forward": "weka.attributeSelection.LinearForwardSelection",
    "rank_search": "weka.attributeSelection.RankSearch",
}
WEKA36_SETS = {**{k: RAW[k] for k in RAW},
               **{k: (lambda f=DATASETS[k]: (*f(), None))
                  for k in ("vote", "tic-tac-toe", "transfusion (numeric, MDL)")}}
WEKA36_CASES = ([(ev, se) for ev in ("consistency", "filtered")
                 for se in ("best_first", "greedy_stepwise", "linear_forward", "rank_search")]
                + [("cfs", "linear_forward"), ("cfs", "rank_search")])


def _weka36_select(path, evaluator, search):
    out = subprocess.run(["java", "-cp", WEKA36[-1], WEKA36_CLASSES[evaluator], "-s",
                          WEKA36_CLASSES[search], "-i", path],
                         capture_output=True, text=True, check=True).stdout
    found = re.search(r"Selected attributes: *([\d,]*)", out)
    assert found, out[-500:]
    return sorted(int(v) - 1 for v in found.group(1).split(",") if v)


@pytest.mark.skipif(not WEKA36, reason="Debian's weka package (3.6) is not installed")
@pytest.mark.parametrize("name", list(WEKA36_SETS))
def test_consistency_filtered_and_other_searches_select_weka36_subsets(tmp_path, name):
    X, y, discrete, n_levels = WEKA36_SETS[name]()
    path = str(tmp_path / "data.arff")
    _write_arff(path, X, y, discrete, n_levels)
    for evaluator, search in WEKA36_CASES:
        ours = WekaSubsetSelector(evaluator=evaluator, search=search,
                                  discrete_features=discrete).fit(X, y)
        assert list(map(int, ours.selected_)) == _weka36_select(path, evaluator, search), (
            evaluator, search)

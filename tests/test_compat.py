"""fsbook._compat: the one module that imports private scikit-learn / SciPy names.

The fallbacks are checked against the private originals they replace, so the day an upgrade
removes an original the fallback in use is known to behave the same; and no other module may
import a private name (the grep below), so such an upgrade breaks this module at worst.
"""
import pathlib
import re
import warnings
from numbers import Integral, Real

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils import _param_validation as private
from sklearn.utils.validation import _check_feature_names_in

from fsbook import _compat

PACKAGE = pathlib.Path(_compat.__file__).parent
PRIVATE_IMPORT = re.compile(r"sklearn\.[a-z_.]*\._|from sklearn[\w.]* import [^\n]*\b_[a-z]|_linesearch|"
                            r"from scipy[\w.]*\._")
#: modules outside the scope of the change that introduced _compat, still importing private names
#: directly; each is a one-line change to ``from fsbook._compat import ...``
NOT_YET_ROUTED: set[str] = set()


def test_only_compat_imports_private_names():
    offenders = set()
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "_compat.py":
            continue
        for line in path.read_text().splitlines():
            if line.lstrip().startswith(("from ", "import ")) and PRIVATE_IMPORT.search(line):
                offenders.add(rel)
    assert offenders <= NOT_YET_ROUTED, sorted(offenders - NOT_YET_ROUTED)


def test_the_originals_are_in_use_on_this_scikit_learn():
    assert _compat.USING_FALLBACK == []
    assert _compat.Interval is private.Interval


CONSTRAINTS = [
    (private.Interval(Integral, 1, None, closed="left"), _compat._FallbackInterval(Integral, 1, None, closed="left")),
    (private.Interval(Real, 0, 1, closed="right"), _compat._FallbackInterval(Real, 0, 1, closed="right")),
    (private.Interval(Real, 0, None, closed="neither"), _compat._FallbackInterval(Real, 0, None, closed="neither")),
    (private.StrOptions({"a", "b"}), _compat._FallbackStrOptions({"a", "b"})),
    (private.Options(Integral, {-1, 1}), _compat._FallbackOptions(Integral, {-1, 1})),
    (private.HasMethods(["fit", "predict"]), _compat._FallbackHasMethods(["fit", "predict"])),
]
VALUES = [0, 1, 2, 0.5, 1.0, -1, 1e300, float("nan"), True, "a", "c", None, BaseEstimator(),
          np.int64(3), np.float64(0.25)]


@pytest.mark.parametrize("pair", CONSTRAINTS, ids=[str(c[0]) for c in CONSTRAINTS])
def test_fallback_constraints_agree_with_scikit_learn(pair):
    original, fallback = pair
    for v in VALUES:
        assert fallback.is_satisfied_by(v) == original.is_satisfied_by(v), (str(original), v)


@pytest.mark.parametrize("name,value", [("array-like", [1, 2]), ("array-like", "ab"), ("array-like", 3),
                                        ("sparse matrix", sp.eye(2, format="csr")), ("sparse matrix", np.eye(2)),
                                        ("random_state", 0), ("random_state", None), ("random_state", 0.5),
                                        ("random_state", np.random.RandomState(0)), ("boolean", True),
                                        ("boolean", 1), (None, None), (None, 0), (list, [1]), (list, (1,))])
def test_fallback_string_constraints_agree_with_scikit_learn(name, value):
    assert _compat._satisfies(name, value) == private.make_constraint(name).is_satisfied_by(value)


class _Demo(BaseEstimator):
    _parameter_constraints = {"k": [private.Interval(Integral, 1, None, closed="left"), None],
                              "how": [private.StrOptions({"a", "b"})]}

    def __init__(self, k=1, how="a"):
        self.k = k
        self.how = how

    def fit(self, X=None, y=None):
        return self


@pytest.mark.parametrize("params,ok", [({}, True), ({"k": None}, True), ({"k": 0}, False),
                                       ({"how": "c"}, False), ({"k": 2.0}, False)])
def test_fallback_fit_context_validates_like_scikit_learn(params, ok):
    fits = {}
    for name, deco in (("original", _compat.fit_context), ("fallback", _compat._fallback_fit_context)):
        cls = type(f"Demo{name}", (_Demo,), {"fit": deco(prefer_skip_nested_validation=True)(_Demo.fit)})
        try:
            cls(**params).fit()
            fits[name] = True
        except ValueError as err:
            assert "parameter" in str(err)
            fits[name] = False
    assert fits == {"original": ok, "fallback": ok}


def test_fallback_validate_params():
    @_compat._fallback_validate_params({"n": [private.Interval(Integral, 0, None, closed="left")]},
                                       prefer_skip_nested_validation=True)
    def f(n=1):
        return n

    assert f(3) == 3
    with pytest.raises(ValueError, match="'n' parameter of"):
        f(-1)


@pytest.mark.parametrize("names,given", [(None, None), (["a", "b"], None), (None, ["u", "v"]), (["a", "b"], ["a", "b"]),
                                         (["a", "b"], ["a", "c"]), (None, ["u"])])
def test_fallback_feature_names_in_agree_with_scikit_learn(names, given):
    est = BaseEstimator()
    est.n_features_in_ = 2
    if names is not None:
        est.feature_names_in_ = np.asarray(names, dtype=object)
    results = []
    for func in (_check_feature_names_in, _compat._fallback_check_feature_names_in):
        try:
            results.append(list(func(est, given)))
        except ValueError:
            results.append("error")
    assert results[0] == results[1]


def test_line_search_warning_is_scipys():
    from scipy.optimize import line_search

    def f(x):
        return float(-np.sum(x))        # unbounded below: the line search gives up and warns

    def g(x):
        return -np.ones_like(x)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line_search(f, g, np.zeros(2), np.ones(2), maxiter=2)
    assert any(issubclass(w.category, _compat.LineSearchWarning) for w in caught)


def test_positive_floats_constraint():
    c = _compat.PositiveFloats()
    assert c.is_satisfied_by((1.0, 10.0)) and c.is_satisfied_by([3])
    for bad in [(-1.0,), (), (0.0,), (np.inf,), "ab", [[1.0]], None]:
        assert not c.is_satisfied_by(bad), bad
    assert _compat.PositiveFloats(allow_empty=True).is_satisfied_by(())


def test_compat_script_runs_existing_tests_against_declared_floors():
    """``make test-compat`` (scripts/test_compat.py) installs the floors of pyproject.toml and runs
    its SUBSET: a renamed test or a dropped floor would make it test less than it says."""
    from script_loader import load_script

    root = PACKAGE.parent
    script = load_script("test_compat")
    for node in script.SUBSET:
        path, _, func = node.partition("::")
        assert (root / path).is_file(), node
        if func:
            assert f"def {func}(" in (root / path).read_text(), node
    floors = dict(script.declared_dependencies())
    assert all(floors[name] for name in ("scikit-learn", "numpy", "scipy", "pandas")), floors
    assert "scikit-learn==" + floors["scikit-learn"] in script.requirements("oldest")


def test_parametrize_with_checks_gives_pytest_a_list(monkeypatch):
    """scikit-learn 1.6 hands ``pytest.mark.parametrize`` a generator (deprecated by pytest 9,
    ``PytestRemovedIn10Warning``); the tests' wrapper turns it into a list."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.utils import estimator_checks
    from sklearn_checks import parametrize_with_checks

    real = estimator_checks.parametrize_with_checks

    def as_in_1_6(estimators, **kwargs):                 # the argvalues as a generator
        mark = real(estimators, **kwargs)
        names, values, *rest = mark.args
        return pytest.mark.parametrize(names, (v for v in values), *rest, **mark.kwargs)

    monkeypatch.setattr(estimator_checks, "parametrize_with_checks", as_in_1_6)
    mark = parametrize_with_checks([LogisticRegression()])
    assert isinstance(mark.args[1], list) and len(mark.args[1]) > 10


def test_old_scikit_learn_weight_checks_are_excused_only_for_binary_weighted_classifiers(monkeypatch):
    """On scikit-learn < 1.7 the weight-equivalence checks binarise the weighted and the repeated
    labels differently; the wrapper excuses exactly those two checks, and only for a binary-only
    classifier whose fit takes weights (never on scikit-learn ≥ 1.7)."""
    import sklearn
    import sklearn_checks
    from sklearn.linear_model import LogisticRegression
    from sklearn.utils.fixes import parse_version

    from fsbook.baselines import FeatureWeightingSVM, WekaLibSVM
    assert sklearn_checks.BINARISES_BY_FIRST_LABEL == (parse_version(sklearn.__version__) < parse_version("1.7"))
    monkeypatch.setattr(sklearn_checks, "BINARISES_BY_FIRST_LABEL", True)
    assert set(sklearn_checks.old_binary_weight_checks(FeatureWeightingSVM())) == set(sklearn_checks.WEIGHT_CHECKS)
    assert sklearn_checks.old_binary_weight_checks(LogisticRegression()) == {}      # multiclass
    assert sklearn_checks.old_binary_weight_checks(WekaLibSVM()) == {}             # takes no weights
    monkeypatch.setattr(sklearn_checks, "BINARISES_BY_FIRST_LABEL", False)
    assert sklearn_checks.old_binary_weight_checks(FeatureWeightingSVM()) == {}

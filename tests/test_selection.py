"""The one selector base, :mod:`fsbook._selection`: k, ties, and who derives from it."""
import importlib
import inspect
import pkgutil
import subprocess
import sys

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import fsbook
from fsbook._selection import SupportSelectorMixin, resolve_n_features
from fsbook.baselines import Relief
from fsbook.kernel_design import WeakKernelSelector

#: the selectors known to derive from it; the walk below must find at least these
KNOWN_SELECTORS = {"FOHSIC", "LaplacianScore", "Relief", "SVMRFE", "L1SVMSelector", "ZeroNormSVM",
                   "FeatureWeightingSVM", "WekaSubsetSelector", "LDFS", "HSFS", "WeakKernelSelector",
                   "FeatureGroupSelector", "GeometricFeatureSetSelector"}


class _TopK(SupportSelectorMixin, BaseEstimator):
    """Keeps the top ``n_features_to_select`` of given scores (the base's own top-k)."""

    _requires_y = False

    def __init__(self, scores=None, n_features_to_select=None):
        self.scores = scores
        self.n_features_to_select = n_features_to_select

    def fit(self, X=None, y=None):
        self.n_features_in_ = len(self.scores)
        self._keep_top(np.asarray(self.scores, dtype=float), self._resolve_k(len(self.scores)))
        return self


def _kept(scores, k):
    return _TopK(scores, k).fit().get_support(indices=True).tolist()


@pytest.mark.parametrize("d", range(1, 10))
def test_none_keeps_half(d):
    assert resolve_n_features(None, d) == max(1, d // 2)


@pytest.mark.parametrize("fraction, d, k", [
    (0.25, 10, 2),      # 2.5 rounds to even
    (0.75, 10, 8),      # 7.5 rounds to even
    (0.3, 10, 3),
    (0.5, 5, 2),        # 2.5
    (0.01, 10, 1),      # never below one feature
    (1.0, 7, 7),
])
def test_fractions_round_half_to_even_and_keep_one(fraction, d, k):
    assert resolve_n_features(fraction, d) == k


def test_int_is_k_itself():
    assert resolve_n_features(4, 10) == 4
    assert resolve_n_features(np.int64(10), 10) == 10
    assert type(resolve_n_features(np.int64(3), 10)) is int


@pytest.mark.parametrize("k, match", [
    (11, r"n_features_to_select=11 exceeds the number of features 10"),
    (0, r"n_features_to_select=0 must be at least 1"),
    (-2, r"must be at least 1"),
    (1.5, r"fraction outside \(0, 1\]"),
    (0.0, r"fraction outside \(0, 1\]"),
    (True, r"is a bool"),
])
def test_bad_k_is_a_clear_error(k, match):
    with pytest.raises(ValueError, match=match):
        resolve_n_features(k, 10)


def test_a_selector_reports_k_above_d():
    X = np.random.default_rng(0).normal(size=(12, 5))
    with pytest.raises(ValueError, match="exceeds the number of features 5"):
        Relief(n_features_to_select=6).fit(X, np.arange(12) % 2)


def test_equal_scores_keep_the_smaller_index():
    assert _kept([0.3, 0.5, 0.5, 0.5], 2) == [1, 2]
    assert _kept([0.0, 0.0, 0.0], 1) == [0]


def test_last_bit_differences_are_ties():
    up = np.nextafter(0.5, 1.0)
    down = np.nextafter(0.5, 0.0)
    assert _kept([0.3, 0.5, up], 1) == [1]          # index 2 is larger by one ulp: a tie
    assert _kept([0.3, down, 0.5], 1) == [1]
    assert _kept([0.3, 0.5, 0.5 * (1 + 1e-6)], 1) == [2]   # a real difference counts


def test_weak_kernel_selector_uses_the_tie_rule():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 3)), np.arange(20) % 2
    sel = WeakKernelSelector(n_features_to_select=1, n_triplets=30).fit(X, y)
    sel.scores_ = np.array([0.5, np.nextafter(0.5, 1.0), 0.1])
    assert sel.get_support(indices=True).tolist() == [0]


def test_selection_module_imports_no_method_package():
    code = ("import sys, fsbook._selection; "
            "print(sorted(m for m in sys.modules if m.startswith('fsbook')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # fsbook._cost (the cost limits, imported by fsbook itself) is infrastructure, no method package
    assert out.stdout.split() == ["['fsbook',", "'fsbook._compat',", "'fsbook._cost',", "'fsbook._selection',",
                                  "'fsbook.decisions']"]


def _selector_classes():
    """Every class defined in fsbook (any module) that has ``get_support``."""
    found = {}
    for info in pkgutil.walk_packages(fsbook.__path__, "fsbook."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__.startswith("fsbook.") and hasattr(cls, "get_support"):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def test_every_selector_derives_from_the_base():
    classes = _selector_classes()
    assert KNOWN_SELECTORS <= {cls.__name__ for cls in classes.values()}
    strays = sorted(name for name, cls in classes.items() if not issubclass(cls, SupportSelectorMixin))
    assert strays == [], f"selectors not built on fsbook._selection.SupportSelectorMixin: {strays}"


def test_tags_follow_the_declared_contract():
    for cls in _selector_classes().values():
        if not issubclass(cls, BaseEstimator) or inspect.isabstract(cls) or cls.__name__.startswith("_"):
            continue
        est = cls()           # the contract may depend on parameters (StabilitySelection's estimator)
        tags = est.__sklearn_tags__()
        assert tags.input_tags.sparse == bool(est._sparse_input), cls
        assert tags.input_tags.allow_nan == bool(est._allow_nan), cls
        assert tags.target_tags.required == bool(est._requires_y), cls

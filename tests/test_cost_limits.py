"""Defaults that finish or refuse at once: every refusal of a fit whose cost is
out of reach is raised before the work, with the reason, the estimate and the setting that makes
it feasible, and :func:`fsbook.cost_limits` lifts it."""
import time

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import fsbook
from fsbook import CostLimitError, cost_limits
from fsbook.baselines import FOHSIC, MMC, MMCSupervised, StabilitySelection
from fsbook.hkl import HKLRanker
from fsbook.projection import ProjectionPenaltySVC

DEFAULT = {"seconds": 60.0, "bytes": 4 * 2 ** 30}


def _problem(n, d, k, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    return rng.normal(size=(n, d)) + y[:, None] * (np.arange(d) < 3), y


def _refuses_at_once(est, *args, match):
    start = time.process_time()
    with cost_limits(**DEFAULT), pytest.raises(CostLimitError, match=match) as info:
        est.fit(*args)
    assert time.process_time() - start < 5.0
    message = str(info.value)
    assert "about" in message and "fsbook.cost_limits" in message
    return message


def test_limits_are_restored_and_can_be_removed():
    before = dict(fsbook.LIMITS)
    with cost_limits(seconds=None):
        assert fsbook.LIMITS["seconds"] is None and fsbook.LIMITS["bytes"] == before["bytes"]
    assert fsbook.LIMITS == before
    assert issubclass(CostLimitError, ValueError)


def test_fohsic_refuses_half_of_300_features_of_5000_samples():
    X, y = _problem(5000, 300, 5)
    msg = _refuses_at_once(FOHSIC(), X, y, match="FOHSIC: forward selection")
    assert "n_features_to_select" in msg and "5000 samples x 300 features" in msg


def test_projection_penalty_svc_refuses_the_constrained_qp_on_5000_samples():
    X, y = _problem(5000, 300, 5)
    msg = _refuses_at_once(ProjectionPenaltySVC(), X, y, match="reduced_penalty=0 solves")
    assert "reduced_penalty > 0" in msg and "5 binary problem" in msg


def test_mmc_supervised_refuses_before_forming_the_pairs():
    X, y = _problem(5000, 300, 5)
    msg = _refuses_at_once(MMCSupervised(), X, y, match="MMCSupervised: Xing")
    assert "GiB of memory" in msg and "12497500 pairs" in msg


def test_mmc_refuses_a_10000_feature_metric():
    rng = np.random.default_rng(0)
    pairs = rng.normal(size=(40, 2, 10_000))
    y = np.repeat([1, -1], 20)
    msg = _refuses_at_once(MMC(), pairs, y, match="dense 10000 x 10000 matrix")
    assert "PCA" in msg


def test_hkl_ranker_refuses_900_indicators_by_5_classes():
    X, y = _problem(5000, 300, 5)
    msg = _refuses_at_once(HKLRanker(), X, y, match="HKLRanker: a cross-validated")
    assert "n_bins=2" in msg and "900 boolean indicators, 5 model" in msg


def test_hkl_ranker_estimate_accepts_the_measured_short_fits_and_refuses_the_long_ones():
    from fsbook.hkl.ranker import HKL_MEASURED, HKL_OVER_A_MINUTE, hkl_ranker_seconds
    for size, seconds in HKL_MEASURED.items():
        estimate = hkl_ranker_seconds(*size)
        assert estimate < DEFAULT["seconds"] and 0.3 < estimate / seconds < 6, size
    for size in HKL_OVER_A_MINUTE:
        assert hkl_ranker_seconds(*size) > DEFAULT["seconds"], size


def test_hkl_ranker_does_not_refuse_500_by_30_with_5_classes():
    from fsbook.hkl.ranker import hkl_ranker_seconds
    assert hkl_ranker_seconds(500, 3 * 30, 5) < DEFAULT["seconds"]


class _SlowSelector(BaseEstimator):
    """Burns ``seconds`` of CPU per fit and selects the first feature."""

    def __init__(self, seconds=0.05):
        self.seconds = seconds

    def fit(self, X, y):
        start = time.process_time()
        while time.process_time() - start < self.seconds:
            pass
        self.n_features_in_ = X.shape[1]
        return self

    def get_support(self):
        return np.arange(self.n_features_in_) == 0


def test_stability_selection_refuses_after_its_first_subsample():
    X, y = _problem(40, 3, 2)
    est = StabilitySelection(_SlowSelector(0.05), n_resamples=1000)
    start = time.process_time()
    with cost_limits(seconds=10.0), pytest.raises(CostLimitError, match="first fit took") as info:
        est.fit(X, y)
    assert time.process_time() - start < 2.0
    assert "n_resamples=" in str(info.value)
    with cost_limits(seconds=None):
        assert StabilitySelection(_SlowSelector(0.0), n_resamples=5).fit(X, y).support_.sum() == 1


def test_small_fits_pass_the_limits():
    X, y = _problem(200, 10, 3)
    with cost_limits(**DEFAULT):
        FOHSIC(2).fit(X, y)
        MMCSupervised().fit(X[:60], y[:60])
        ProjectionPenaltySVC().fit(X[:100], y[:100])


def test_importing_the_protocols_changes_no_limit():
    import subprocess
    import sys
    code = "import fsbook, fsbook.experiments; print(fsbook.LIMITS)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(DEFAULT)


def _limits_task(params):
    return {"seconds": fsbook.LIMITS["seconds"], "bytes": fsbook.LIMITS["bytes"]}


def test_the_runner_runs_a_task_without_limits_and_restores_them():
    from fsbook.experiments._workers import call_task
    with cost_limits(**DEFAULT):
        index, result, *_ = call_task(_limits_task, 0, {})
        assert fsbook.LIMITS == DEFAULT
    assert index == 0 and result == {"seconds": None, "bytes": None}


def test_hsfs_refuses_5000_by_300():
    from fsbook.l1linf import HSFS
    X, y = _problem(5000, 300, 5)
    msg = _refuses_at_once(HSFS(), X, y, match="HSFS: every gradient")
    assert "subsample" in msg


def test_geometric_selector_refuses_5_classes_of_5000_by_300_but_not_2():
    from fsbook.geometry import GeometricFeatureSetSelector
    from fsbook.geometry.selector import geometry_seconds
    X, y = _problem(5000, 300, 5)
    msg = _refuses_at_once(GeometricFeatureSetSelector(), X, y, match="15 binary classifier")
    assert "fewer classes" in msg
    assert geometry_seconds(5000, 300, 1, 1) < 60.0     # the binary problem fits (37.5 s measured)


def test_disjunctive_hkl_cv_refuses_5000_by_300():
    from fsbook.hkl import DisjunctiveHKLCV
    X, y = _problem(5000, 300, 2)
    _refuses_at_once(DisjunctiveHKLCV(), X, y, match="DisjunctiveHKLCV: it fits a path of C")


def test_kernel_design_refuses_the_dominance_lp_on_2000_points_of_100_features():
    from fsbook.kernel_design import KernelDesign
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 100))
    idx = np.stack([np.arange(2000), (np.arange(2000) + 1) % 2000, (np.arange(2000) + 2) % 2000], 1)
    msg = _refuses_at_once(KernelDesign(), X[idx], match="one 2000 x 2000 kernel matrix for each of its 300")
    assert "psd='nonnegative'" in msg and "GiB of memory" in msg

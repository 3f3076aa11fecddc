"""Every public (X, y) estimator on degenerate inputs: a result or a clear error, in bounded time.

Once, ``LDFS(3).fit`` on two samples looped for over 9 minutes, a constant ``X`` gave an
arbitrary selection, and several inputs ended in errors that name an internal detail ("zero-size
array to reduction operation maximum", "Ill-posed l1_min_c calculation", a cvxpy "SolverError").
``hypothesis`` is not a dependency, so the property is checked on a fixed grid: every estimator
that ``check_estimator`` runs default-constructed (``tests/test_public_estimators.py``) times the
inputs below, each under a time limit (SIGALRM), must either return finite output of the right
number of rows or raise ``ValueError``/``TypeError`` with a message that does not come from the
inside of a numerical library.
"""
import re
import signal
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from fsbook.capabilities import public_estimators

#: not (X, y) estimators (see NOT_DEFAULT_CHECKED in test_public_estimators.py)
NOT_XY = {"MMC", "KernelDesign", "ProjectionPenalty"}
#: constructor arguments that keep a case cheap (the default searches 12 values of C by 3-fold CV)
PARAMS = {"DisjunctiveHKLCV": {"max_Cs": 3}}
#: seconds per (estimator, input); the slowest case measured takes about 3 s
TIME_LIMIT = 20
#: messages that come from inside a library rather than from fsbook's checks
OBSCURE = re.compile(r"zero-size array|Ill-posed|Model error|Solver '\w+' failed|singular matrix|"
                     r"out of bounds|division by zero|has no attribute|not supported between|"
                     r"contains infinity|operands could not be broadcast", re.IGNORECASE)


def _estimators():
    return {name: cls for name, cls in public_estimators().items() if name not in NOT_XY}


def _inputs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 5))
    y = np.repeat([0, 1], 15)
    const_col = X.copy()
    const_col[:, 1] = 3.0
    return {
        "two_samples": (rng.normal(size=(2, 6)), np.array([0, 1])),
        "constant_X": (np.ones((30, 5)), y),
        "constant_column": (const_col, y),
        "one_feature": (X[:, :1], y),
        "duplicated_rows": (np.repeat(X[:5], 6, axis=0), np.repeat([0, 1, 0, 1, 1], 6)),
        "huge_scale": (X * 1e150, y),
        "tiny_scale": (X * 1e-150, y),
        "sparse": (sp.csr_matrix(np.where(np.abs(X) > 1, X, 0.0)), y),
        "float32": (X.astype(np.float32), y),
        "string_labels": (X, np.where(y == 1, "yes", "no")),
    }


class _TimeLimit(Exception):
    pass


def _alarm(signum, frame):
    raise _TimeLimit()


@pytest.mark.parametrize("case", sorted(_inputs()))
@pytest.mark.parametrize("name", sorted(_estimators()))
def test_result_or_clear_error(name, case):
    X, y = _inputs()[case]
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = _estimators()[name](**PARAMS.get(name, {})).fit(X, y)
            out = est.transform(X) if hasattr(est, "transform") else est.predict(X)
    except _TimeLimit:
        pytest.fail(f"{name} on {case}: no result or error within {TIME_LIMIT} s")
    except (ValueError, TypeError) as err:
        assert not OBSCURE.search(str(err)), f"{name} on {case}: obscure error {err!r}"
        return
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - start < TIME_LIMIT
    out = out.toarray() if sp.issparse(out) else np.asarray(out)
    assert out.shape[0] == X.shape[0]
    if out.dtype.kind == "f":
        assert np.all(np.isfinite(out)), f"{name} on {case}: non-finite output"


# --- the degenerate cases, one by one --------------------------------------------------------

def test_ldfs_on_one_sample_per_class_refuses_at_once():
    from fsbook.l1linf import LDFS

    X = np.random.default_rng(0).normal(size=(2, 6))
    start = time.perf_counter()
    with pytest.raises(ValueError, match="within-class scatter S_W is zero"):
        LDFS(3).fit(X, [0, 1])
    assert time.perf_counter() - start < 5


def test_proximal_gradient_on_an_unbounded_criterion_raises_instead_of_looping():
    from fsbook.l1linf.solvers import SolverDivergedError, accelerated_proximal_gradient

    def unbounded(W):                         # J(W) = -||W||², no minimiser
        return -float(np.sum(W * W)), -2.0 * W

    start = time.perf_counter()
    with pytest.raises(SolverDivergedError, match="unbounded below"):
        accelerated_proximal_gradient(unbounded, np.ones((3, 2)), 1e-3, max_iter=100_000)
    assert time.perf_counter() - start < 10

    def nan_after_a_while(W):                 # a criterion that stops being finite
        value = float(np.sum((W - 5.0) ** 2))
        return (np.nan if np.abs(W).max() > 2.0 else value), 2.0 * (W - 5.0)

    with pytest.raises(SolverDivergedError):
        accelerated_proximal_gradient(nan_after_a_while, np.zeros((2, 2)), 0.0)


def test_geometric_selector_refuses_exponential_candidate_counts():
    from sklearn.datasets import load_diabetes

    from fsbook.geometry import GeometricFeatureSetSelector, all_subsets_wrapper
    from fsbook.geometry.candidates import n_candidates

    X, y = load_diabetes(return_X_y=True)
    start = time.perf_counter()
    with pytest.raises(ValueError, match="regression"):
        GeometricFeatureSetSelector().fit(X, y.astype(int))
    assert time.perf_counter() - start < 5
    rng = np.random.default_rng(0)
    Xb = (rng.random((70, 6)) < 0.4).astype(float)
    y14 = np.arange(70) % 14                                   # 8 191 binary classifiers
    with pytest.raises(ValueError, match="max_candidates=4096"):
        GeometricFeatureSetSelector().fit(Xb, y14)
    groups = [[0], [1], [2], [3], [4], [5]]
    with pytest.raises(ValueError, match=r"fewer\s+feature_groups"):
        GeometricFeatureSetSelector(groups, max_candidates=100).fit(Xb, np.arange(70) % 3)   # 3 x 63
    assert n_candidates(3, 6) == 189
    sel = GeometricFeatureSetSelector(groups, max_candidates=None).fit(Xb, np.arange(70) % 3)
    assert len(sel.results_) == 189
    with pytest.raises(ValueError, match="all_subsets_wrapper would evaluate"):
        all_subsets_wrapper(Xb, y14, [np.arange(6)])


@pytest.mark.parametrize("name", ["FOHSIC", "HSFS", "LDFS", "LaplacianScore", "Relief", "SVMRFE",
                                  "L1SVMSelector", "WeakKernelSelector", "WekaSubsetSelector",
                                  "ZeroNormSVM", "FeatureWeightingSVM"])
def test_selectors_refuse_a_constant_X(name):
    X = np.full((20, 4), 2.5)
    with pytest.raises(ValueError, match="every column of X is constant"):
        _estimators()[name]().fit(X, np.arange(20) % 2)


def test_clear_messages_instead_of_library_internals():
    from fsbook.baselines import FeatureWeightingSVM, L1SVMSelector
    from fsbook.projection import GeneralizedDiscriminantAnalysis

    y = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="centred kernel matrix is zero"):
        GeneralizedDiscriminantAnalysis().fit(np.ones((8, 3)), y)
    with pytest.raises(ValueError, match="kernel matrix of X overflows"):
        GeneralizedDiscriminantAnalysis().fit(np.random.default_rng(0).normal(size=(8, 3)) * 1e200, y)
    # X'y = 0 for a non-constant X: scikit-learn's l1_min_c says "Ill-posed"
    X = np.array([[1.0], [1.0], [2.0], [2.0], [1.0], [1.0], [2.0], [2.0]])
    with pytest.raises(ValueError, match="no feature is correlated with the labels"):
        L1SVMSelector(1).fit(X, y)
    with pytest.raises(ValueError, match="standardise X"):
        FeatureWeightingSVM().fit(np.random.default_rng(0).normal(size=(8, 3)) * 1e150, y)


def test_kernel_design_widths_are_validated_before_fitting():
    from sklearn.utils._param_validation import InvalidParameterError

    from fsbook.kernel_design import KernelDesign, WeakKernelSelector

    for bad in [(-1.0,), (), (0.0, 1.0), (np.inf,), "ab"]:
        with pytest.raises(InvalidParameterError, match="'weak_mu' parameter"):
            KernelDesign(weak_mu=bad).fit(np.zeros((1, 3, 2)))
        with pytest.raises(InvalidParameterError, match="'weak_mu' parameter"):
            WeakKernelSelector(weak_mu=bad).fit(np.eye(4), [0, 0, 1, 1])
    with pytest.raises(InvalidParameterError, match="'full_mu' parameter"):
        KernelDesign(variant="full", full_mu=(-0.1,)).fit(np.zeros((1, 3, 2)))


def test_kernel_design_warns_when_it_selects_nothing():
    from fsbook.kernel_design import KernelDesign, triplets_from_labels

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = rng.normal(size=(40, 5))
    X[:, :2] += 3.0 * y[:, None]
    T = triplets_from_labels(y, 200, random_state=0)
    default = KernelDesign(preprocessor=X).fit(T)            # psd="dominance": alpha = 0
    assert default.selected_features_.size == 0
    with pytest.warns(UserWarning, match="psd='nonnegative'"):
        assert default.transform(X).shape == (40, 0)
    nonneg = KernelDesign(preprocessor=X, psd="nonnegative", gamma1=10.0).fit(T)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nonneg.transform(X).shape[1] > 0


def test_weak_kernel_selector_takes_a_fraction():
    from fsbook.kernel_design import WeakKernelSelector

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 50)
    X = rng.normal(size=(100, 8))
    X[:, :2] += 2.0 * y[:, None]
    frac = WeakKernelSelector(0.25, n_triplets=300).fit(X, y)
    count = WeakKernelSelector(2, n_triplets=300).fit(X, y)
    np.testing.assert_array_equal(frac.get_support(), count.get_support())
    with pytest.raises(ValueError):
        WeakKernelSelector(1.5, n_triplets=300).fit(X, y)

"""Shared test fixtures (data generators used by more than one test file)."""
import numpy as np
import pytest


def _random_binary(seed, m, n, density=0.3, n_classes=2):
    """0/1 matrix with i.i.d. entries and random labels covering every class."""
    rng = np.random.default_rng(seed)
    X = (rng.random((m, n)) < density).astype(float)
    y = rng.integers(0, n_classes, m)
    y[:n_classes] = np.arange(n_classes)
    return X, y


@pytest.fixture
def random_binary():
    """Factory ``random_binary(seed, m, n, density=0.3, n_classes=2) -> (X, y)``."""
    return _random_binary


@pytest.fixture
def grouped_binary():
    """Three classes, an informative feature group (class 0) and a noise group.

    Returns ``(X, y, groups)`` with 120 rows, two groups of six 0/1 columns.
    """
    rng = np.random.default_rng(0)
    m = 120
    y = rng.integers(0, 3, m)
    informative = (rng.random((m, 6)) < np.where(y[:, None] == 0, 0.8, 0.1)).astype(float)
    noise = (rng.random((m, 6)) < 0.4).astype(float)
    return np.hstack([informative, noise]), y, [np.arange(6), np.arange(6, 12)]

"""The second numerical path of `make nbval-generic` is really in force (scripts/numpy_dispatch.py)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "numpy_dispatch.py"


def _run(*args, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("NPY_DISABLE_CPU_FEATURES", "NUMBA_CPU_NAME")}
    full.update(env)
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=full)


def test_second_path_disables_every_dispatched_feature():
    features = _run().stdout.strip()
    check = _run("--check", NPY_DISABLE_CPU_FEATURES=features, NUMBA_CPU_NAME="generic")
    assert check.returncode == 0, check.stderr
    assert "dispatch targets still active: none" in check.stdout and "numba CPU: generic" in check.stdout


def test_check_fails_when_the_second_path_is_not_in_force():
    features = _run().stdout.split()
    if not features:
        pytest.skip("this CPU has no SIMD feature above NumPy's baseline: nothing to disable")
    check = _run("--check", NUMBA_CPU_NAME="generic")
    assert check.returncode == 1 and "still dispatches" in check.stderr


def test_bad_arguments():
    assert _run("--nonsense").returncode != 0

"""The second numerical path of `make nbval-generic` is really in force (scripts/numpy_dispatch.py)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "numpy_dispatch.py"


def _run(*args, **env):
    full = {k: v for k, v in os.environ.items()
            if k not in ("NPY_DISABLE_CPU_FEATURES", "NUMBA_CPU_NAME", "OPENBLAS_CORETYPE")}
    full.update(env)
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=full)


def test_second_path_disables_every_dispatched_feature():
    features = _run().stdout.strip()
    core = _run("--blas-core").stdout.strip()
    check = _run("--check", NPY_DISABLE_CPU_FEATURES=features, NUMBA_CPU_NAME="generic", OPENBLAS_CORETYPE=core)
    assert check.returncode == 0, check.stderr
    assert "dispatch targets still active: none" in check.stdout and "numba CPU: generic" in check.stdout
    assert f"OpenBLAS kernel: {core}" in check.stdout


def test_second_path_changes_the_blas_kernel():
    own = _run("--check").stdout            # no variable set: the host's own kernel
    core = _run("--blas-core").stdout.strip()
    assert core in ("Haswell", "Sandybridge")
    assert f"OpenBLAS kernel: {core}" not in own


def test_check_fails_when_the_blas_kernel_is_not_in_force():
    features = _run().stdout.strip()
    # a kernel name OpenBLAS does not know leaves it on the host's own: --check must notice
    check = _run("--check", NPY_DISABLE_CPU_FEATURES=features, NUMBA_CPU_NAME="generic",
                 OPENBLAS_CORETYPE="NoSuchCore")
    assert check.returncode == 1 and "OpenBLAS runs on" in check.stderr


def test_check_fails_when_the_second_path_is_not_in_force():
    features = _run().stdout.split()
    if not features:
        pytest.skip("this CPU has no SIMD feature above NumPy's baseline: nothing to disable")
    check = _run("--check", NUMBA_CPU_NAME="generic")
    assert check.returncode == 1 and "still dispatches" in check.stderr


def test_bad_arguments():
    assert _run("--nonsense").returncode != 0

"""Run fsbook's scikit-learn-facing tests against the oldest and the newest declared dependencies.

``make test-compat`` runs this script. For each of two throwaway virtual environments,
created outside the repository:

* ``oldest``: every dependency of ``pyproject.toml`` that declares a floor (``name>=X``) installed
  at exactly that floor (scikit-learn, NumPy, SciPy, pandas), the others at the newest release
  compatible with those;
* ``newest``: every dependency unpinned, so pip takes the newest release on the package registry,

it installs the dependencies (binary wheels only, no source builds), imports fsbook from this
checkout (``PYTHONPATH``), runs the focused subset ``SUBSET`` (the tests of ``fsbook._compat``,
every public estimator's Examples section and scikit-learn's ``check_estimator`` on every
estimator that runs it, the docstring examples of ``fsbook/_compat.py``, and the two helpers built
on scikit-learn's internals: ``fsbook._svc`` and ``fsbook._rowspace``) and prints one line
per environment, for example::

    compat oldest: scikit-learn 1.6.0, numpy 1.23.2, scipy 1.9.2, pandas 1.5.0, numba 0.68.1, cvxpy 1.6.0:
    1694 passed, 14 warnings (install N s wall, N s CPU; tests N s wall, N s CPU)

Usage::

    python3 scripts/test_compat.py                  # both environments, removed afterwards
    python3 scripts/test_compat.py --only oldest    # one of them
    python3 scripts/test_compat.py --pin scikit-learn==1.5.2 --only oldest --keep DIR  # probe a version

Exits non-zero when an environment cannot be installed or one of its tests fails.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the focused subset: fsbook._compat and its doctests, every public estimator, and every
#: check_estimator test (the only tests that exercise scikit-learn's estimator API broadly)
SUBSET = [
    "fsbook/_compat.py",
    "tests/test_compat.py",
    "tests/test_public_estimators.py",
    "tests/test_baselines.py::test_sklearn_conventions",
    "tests/test_geometry.py::test_sklearn_compatible",
    "tests/test_geometry_wrapper.py::test_sklearn_compatible",
    "tests/test_hkl_estimator.py::test_sklearn_check_estimator",
    "tests/test_kernel_design_selector.py::test_sklearn_conventions",
    "tests/test_l1linf.py::test_sklearn_compatible",
    "tests/test_l1linf_baselines.py::test_sklearn_compatible",
    "tests/test_projection_kernel.py::test_sklearn_compatible",
    "tests/test_projection_linear.py::test_sklearn_compatible",
    "tests/test_mutual_info.py",  # scikit-learn's neighbour searches, replayed bit for bit
    "tests/test_svc.py",          # scikit-learn's private libsvm calls (through fsbook._compat)
    "tests/test_rowspace.py",     # LinearSVC subclassed: liblinear's steps in the row space
]
#: test-only packages the subset imports (pytest; skrebate, imported by test_l1linf_baselines)
TEST_TOOLS = ["pytest", "skrebate"]
#: versions reported in the summary line
REPORTED = ["scikit-learn", "numpy", "scipy", "pandas", "numba", "cvxpy"]
#: the Makefile's reproducible-numerics settings
ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
       "NUMBA_NUM_THREADS": "2", "PYTHONHASHSEED": "0", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}


def declared_dependencies(pyproject=ROOT / "pyproject.toml"):
    """``[(name, floor or None)]`` from ``[project].dependencies``; only ``>=`` floors are allowed.

    Examples
    --------
    >>> deps = dict(declared_dependencies())
    >>> "scikit-learn" in deps and deps["scikit-learn"] is not None
    True
    """
    deps = tomllib.loads(Path(pyproject).read_text())["project"]["dependencies"]
    out = []
    for dep in deps:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*(?:>=\s*([0-9][0-9A-Za-z.]*))?\s*", dep)
        if match is None:
            raise ValueError(f"pyproject.toml: cannot read the dependency {dep!r}: this script "
                             "understands 'name' and 'name>=version' only")
        out.append((match.group(1), match.group(2)))
    return out


def requirements(which, pins=()):
    """pip requirement strings of the environment ``which`` ("oldest" or "newest"); ``pins``
    (``name==version``) replace the declared ones of the same name."""
    reqs = {}
    for name, floor in declared_dependencies():
        if which == "oldest" and floor is not None:
            reqs[name] = f"{name}=={floor}"
        else:
            reqs[name] = f"{name}>={floor}" if floor else name
    for pin in pins:
        name = re.split(r"[=<>!~ ]", pin, maxsplit=1)[0]
        reqs[name] = pin
    return list(reqs.values()) + TEST_TOOLS


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(which, venv, pins, pytest_args):
    """Create the environment, install, run the subset; return (ok, summary line)."""
    t0, cpu_start = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    python = venv / "bin" / "python"
    reqs = requirements(which, pins)
    print(f"== compat {which}: pip install {' '.join(reqs)}", flush=True)
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                              "--only-binary", ":all:", *reqs])
    t_install, cpu_install = time.perf_counter() - t0, _children_cpu() - cpu_start
    if install.returncode != 0:
        return False, f"compat {which}: pip could not install {' '.join(reqs)}"
    code = f"import importlib.metadata as m; print(', '.join(n + ' ' + m.version(n) for n in {REPORTED!r}))"
    versions = subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                              check=True).stdout.strip()
    print(f"== compat {which}: {versions}", flush=True)
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(venv / "numba_cache")}
    env.pop("VIRTUAL_ENV", None)
    t1, cpu0 = time.perf_counter(), _children_cpu()
    proc = subprocess.Popen([str(python), "-m", "pytest", "-q", "--no-header", "-p", "no:cacheprovider",
                             "--doctest-modules", *pytest_args, *SUBSET],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    last = ""
    for line in proc.stdout:
        sys.stdout.write(line)
        if line.strip():
            last = line.strip()
    proc.wait()
    t_tests = time.perf_counter() - t1
    cpu = _children_cpu() - cpu0
    counts = re.sub(r"^=+\s*|\s*in [0-9.]+s.*$|\s*=+$", "", last)
    ok = proc.returncode == 0
    return ok, (f"compat {which}: {versions}: {counts}{'' if ok else ' FAILED'} "
                f"(install {t_install:.0f} s wall, {cpu_install:.0f} s CPU; tests {t_tests:.0f} s wall, {cpu:.0f} s CPU)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["oldest", "newest"], help="run one environment only")
    parser.add_argument("--pin", action="append", default=[], metavar="NAME==VERSION",
                        help="install this version instead of the declared one (repeatable; for probing)")
    parser.add_argument("--keep", metavar="DIR", help="create the environments in DIR and keep them "
                        "(default: a temporary folder, removed afterwards)")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="fsbook-compat-"))
    if base.resolve().is_relative_to(ROOT):
        parser.error("the environments must be outside the repository")
    base.mkdir(parents=True, exist_ok=True)
    lines, all_ok = [], True
    t0 = time.perf_counter()
    try:
        for which in [args.only] if args.only else ["oldest", "newest"]:
            ok, line = run_one(which, base / f"venv-{which}", args.pin, args.pytest_args)
            all_ok &= ok
            lines.append(line)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(f"== compat summary ({time.perf_counter() - t0:.0f} s wall)")
    for line in lines:
        print(line)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""An installed wheel works from any folder.

Builds the wheel from a copy of the repository's sources (``pip wheel --no-deps
--no-build-isolation``: offline, with the setuptools of the running environment), installs it with
``--no-deps`` into a fresh virtual environment that sees this environment's dependencies through
a ``.pth`` file, and from a temporary folder outside the repository (no ``PYTHONPATH``, no
``FSBOOK_*`` variable): loads every data set, reads every store (the tables must equal the
clone's), fits one estimator, and checks that a missing or damaged installed file names a remedy
that works for a wheel user (reinstall, or the environment variable), never ``git checkout``.
About 40 s.
"""

import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import fsbook

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("setuptools") is None or importlib.util.find_spec("wheel") is None,
    reason="building the wheel offline needs setuptools and wheel in the running environment")

#: the stores read with allow_partial=True, as their chapters do (chapter 1's Tables 2-4)
PARTIAL = {"projection_text"}

SCRIPT = textwrap.dedent("""
    import hashlib, json, os, sys
    from pathlib import Path

    import fsbook
    import fsbook.datasets as D
    from fsbook.datasets._registry import SPECS
    from fsbook.experiments import StoreError, read_store
    from fsbook.experiments._reading import store_root

    partial, stores = set(json.loads(sys.argv[1])), json.loads(sys.argv[2])
    out = {"fsbook": fsbook.__file__, "data_dir": str(D.data_dir()), "store_root": str(store_root())}
    out["datasets"] = {s.name: list(D.load_by_name(s.name).data.shape) for s in SPECS}
    out["stores"] = {}
    for name in stores:
        res = read_store(name, allow_partial=name in partial)
        tables = {t: hashlib.sha256(df.to_csv().encode()).hexdigest() for t, df in res.tables.items()}
        out["stores"][name] = [res.n_cached, res.n_total, tables]

    from fsbook.l1linf import LDFS
    wine = D.load_wine()
    out["selected"] = int(LDFS(3).fit(wine.data, wine.target).get_support().sum())

    def message(call):
        try:
            call()
        except (D.DatasetError, StoreError) as e:
            return str(e)
        return None

    bundled_data, bundled_results = Path(D.data_dir()), Path(store_root())
    (bundled_data / "wine.npz").unlink()
    out["missing_data"] = message(D.load_wine)
    victim = sorted((bundled_results / "l1linf").glob("tasks-v*.jsonl.gz"))[0]
    victim.unlink()
    out["missing_store"] = message(lambda: read_store("l1linf"))
    os.environ["FSBOOK_DATA_DIR"] = str(Path.cwd())
    out["env_data"] = message(D.load_iris)
    print(json.dumps(out))
""")


def _copy_sources(dest):
    """The files the wheel is built from (not the notebooks, tests or local run leftovers)."""
    dest.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "fsbook", dest / "fsbook", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(ROOT / "data", dest / "data")
    for pack in ROOT.glob("results/*/tasks-v*.jsonl.gz"):
        (dest / pack.parent.relative_to(ROOT)).mkdir(parents=True, exist_ok=True)
        shutil.copy2(pack, dest / pack.relative_to(ROOT))


def _run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _check_build_backend():
    """The running setuptools satisfies pyproject.toml's [build-system] (the build is offline)."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    for req in map(Requirement, requires):
        if req.name == "setuptools":
            version = importlib.metadata.version("setuptools")
            assert req.specifier.contains(version), (
                f"this environment's setuptools {version} does not satisfy the build requirement "
                f"{req} of pyproject.toml: pip install -r requirements.txt (make venv) installs the pinned one")


def test_the_wheel_installs_and_works_from_any_folder(tmp_path):
    src, dist, venv, work = (tmp_path / n for n in ("src", "dist", "venv", "work"))
    _check_build_backend()
    _copy_sources(src)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
          "-q", "-w", str(dist), str(src)], cwd=tmp_path)
    wheel = next(dist.glob("fsbook-*.whl"))
    # the version setuptools read from fsbook.__version__ (pyproject.toml: dynamic = ["version"])
    assert wheel.name == f"fsbook-{fsbook.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    assert f"fsbook-{fsbook.__version__}.dist-info/licenses/LICENSE" in names
    # every package of the source tree, every data file and every committed pack is in the wheel
    packages = {p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "fsbook").rglob("__init__.py")}
    assert {f"{p}/__init__.py" for p in packages} <= names
    data = {p.name for p in (ROOT / "data").iterdir() if p.suffix == ".npz" or p.name == "SHA256SUMS"}
    assert {n.rsplit("/", 1)[1] for n in names if n.startswith("fsbook/_data/data/")} == data
    packs = {p.relative_to(ROOT / "results").as_posix() for p in ROOT.glob("results/*/tasks-v*.jsonl.gz")}
    assert {n[len("fsbook/_data/results/"):] for n in names if n.startswith("fsbook/_data/results/")} == packs

    # a fresh environment that sees this one's dependencies (not its fsbook: a plain path line
    # does not run the editable install's .pth hook) through a .pth file
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    shared = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_shared_env.pth").write_text("".join(f"{p}\n" for p in sorted(shared)))
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "FSBOOK_DATA_DIR", "FSBOOK_RESULTS_DIR"}}
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "-q",
          str(wheel)], env=env, cwd=tmp_path)

    work.mkdir()
    stores = sorted(p.parent.name for p in ROOT.glob("results/*/tasks-v*.jsonl.gz"))
    proc = _run([str(python), "-c", SCRIPT, json.dumps(sorted(PARTIAL)), json.dumps(stores)], env=env, cwd=work)
    out = json.loads(proc.stdout.strip().splitlines()[-1])

    # the installed package, its bundled data and stores, not the clone's
    for key in ("fsbook", "data_dir", "store_root"):
        assert Path(out[key]).is_relative_to(site), (key, out[key])
    import fsbook.datasets as D
    from fsbook.datasets._registry import SPECS
    from fsbook.experiments import read_store

    assert out["datasets"] == {s.name: list(D.load_by_name(s.name).data.shape) for s in SPECS}
    assert set(out["stores"]) == set(stores) and len(stores) >= 6
    import hashlib
    for name, (n_cached, n_total, tables) in out["stores"].items():
        here = read_store(name, allow_partial=name in PARTIAL)
        assert (n_cached, n_total) == (here.n_cached, here.n_total)
        assert tables == {t: hashlib.sha256(df.to_csv().encode()).hexdigest() for t, df in here.tables.items()}
    assert out["selected"] == 3

    # a wheel user's remedies: reinstall or the variable; never git or ../shared/data
    for key, variable in (("missing_data", "FSBOOK_DATA_DIR"), ("missing_store", "FSBOOK_RESULTS_DIR")):
        text = out[key]
        assert text and "reinstall fsbook" in text and variable in text, text
        assert "git checkout" not in text and "shared/data" not in text, text
    assert "wine.npz" in out["missing_data"]
    assert "FSBOOK_DATA_DIR is set to" in out["env_data"] and "iris.npz" in out["env_data"]

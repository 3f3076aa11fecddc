"""The packages of fsbook's wheel, discovered rather than listed (pyproject.toml holds the rest).

The wheel holds every Python package under ``fsbook/`` (setuptools' ``find_packages``) and, as
package data, the committed data and stores: ``data/`` ships as ``fsbook._data.data`` and each
store ``results/<name>/tasks-v*.jsonl.gz`` as ``fsbook._data.results.<name>`` (pyproject.toml's
``package-dir`` maps both), so that an installed fsbook loads every data set and reads every store
from any folder (``fsbook/datasets/_location.py``).  A new protocol package or a new store needs
no line here or in pyproject.toml; ``tests/test_wheel_install.py`` checks that the wheel holds
every package, data set and store of the source tree.
"""
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
#: the committed stores, one data package each
STORES = sorted({pack.parent.name for pack in ROOT.glob("results/*/tasks-v*.jsonl.gz")})

setup(
    packages=[*find_packages(where=str(ROOT), include=["fsbook", "fsbook.*"]),
              "fsbook._data.data", "fsbook._data.results",
              *(f"fsbook._data.results.{name}" for name in STORES)],
    package_data={"fsbook._data.data": ["*.npz", "SHA256SUMS"],
                  **{f"fsbook._data.results.{name}": ["tasks-v*.jsonl.gz"] for name in STORES}},
)

"""Load a file of ``scripts/`` (or of another folder of the clone that is not a package:
``benchmarks/``, ``book/_ext/``) as a module, for the tests of the files that are not part of the
package (``from script_loader import load_script``)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(name, folder="scripts"):
    """The module of ``<folder>/<name>.py`` (a folder of the clone, ``scripts`` by default), executed afresh."""
    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

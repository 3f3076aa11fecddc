"""Load a file of ``scripts/`` as a module, for the tests of the scripts that are not part of the
package (``from script_loader import load_script``; ``scripts/`` has no ``__init__``)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(name):
    """The module of ``scripts/<name>.py``, executed afresh."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

"""The registry finds a protocol from its files alone: a copy of the template protocol under a new
name, with an ablations module of its own, is listed, loaded and run without editing any other
file of the package."""
import shutil
import sys

import pytest

import fsbook.experiments
from fsbook.experiments import _registry, run_protocol
from fsbook.experiments._registry import available_protocols, declares_protocol, protocol_module
from fsbook.experiments._runner import load_protocol

ABLATIONS = '''"""The template's ablations: the same tasks, as a protocol of their own."""
from fsbook.experiments._runner import Protocol
from fsbook.experiments.toy.tables import reduce
from fsbook.experiments.toy.tasks import make_tasks, run_task

PROTOCOL = Protocol(name="toy_ablations", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="1", description="the template's ablations")
'''


def test_the_book_protocols_are_found_with_their_ablations():
    names = available_protocols()
    assert {"l1linf", "l1linf_ablations", "hkl_ablations", "projection_ablations", "projection_text"} <= set(names)
    assert names == sorted(names) and "_example" not in names
    assert protocol_module("projection_text") == "fsbook.experiments.projection.text"
    # kernel_design's ablations module declares no protocol: its regimes are a benchmark's rows
    assert "kernel_design_ablations" not in names
    # the template and its ablations are protocols, private ones: not among the book's
    assert protocol_module("_example") == "fsbook.experiments._example"
    assert protocol_module("_example_ablations") == "fsbook.experiments._example.ablations"
    assert "_example_ablations" not in names
    assert load_protocol("_example_ablations").name == "_example_ablations"
    with pytest.raises(ValueError, match="unknown protocol"):
        protocol_module("no_such_protocol")


def test_declares_protocol_reads_top_level_assignments_only(tmp_path):
    (tmp_path / "a.py").write_text("PROTOCOL = 1\n")
    (tmp_path / "b.py").write_text("from x import PROTOCOL\ndef f():\n    PROTOCOL = 2\n")
    (tmp_path / "c.py").write_text("PROTOCOL: object = None\n")
    assert [declares_protocol(tmp_path / f"{m}.py") for m in "abc"] == [True, False, True]


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    """The template copied to ``toy/`` (its name replaced throughout) in a folder of its own,
    which the registry scans and ``fsbook.experiments`` imports from."""
    src = fsbook.experiments._registry.PACKAGE_DIR / "_example"
    dest = tmp_path / "toy"
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    for f in dest.glob("*.py"):
        f.write_text(f.read_text().replace("_example", "toy"))
    (dest / "ablations.py").write_text(ABLATIONS)
    monkeypatch.setattr(_registry, "PACKAGE_DIR", tmp_path)
    monkeypatch.setattr(fsbook.experiments, "__path__", [*fsbook.experiments.__path__, str(tmp_path)])
    yield dest
    for name in [m for m in sys.modules if m == "fsbook.experiments.toy" or m.startswith("fsbook.experiments.toy.")]:
        del sys.modules[name]


def test_a_copied_template_is_found_loaded_and_run(toy_package, tmp_path):
    assert available_protocols() == ["toy", "toy_ablations"]
    protocol = load_protocol("toy")
    assert protocol.name == "toy" and load_protocol("toy_ablations").name == "toy_ablations"
    res = run_protocol(protocol, full=False, out=tmp_path / "results" / "toy", progress=False)
    assert res.n_total == len(protocol.make_tasks(False)) and res.tables
    # a module declaring another protocol's name is refused, not run under the wrong store
    (toy_package / "other.py").write_text(ABLATIONS.replace("toy_ablations", "toy_elsewhere"))
    _registry._modules.cache_clear()
    with pytest.raises(ValueError, match="declares the protocol 'toy_elsewhere', not 'toy_other'"):
        load_protocol("toy_other")

"""Every public estimator's docstring follows scikit-learn's numpydoc standard (issue "A house a
newcomer can live in", docstring item).

The class docstring has a ``References`` section (the paper the estimator implements, or the
baseline's original paper) and a ``See Also`` section naming related fsbook estimators, and its
sections come in numpydoc's order; ``fit``, and ``transform``, ``fit_transform`` and ``predict``
where the class defines them itself, have ``Parameters`` and ``Returns``. numpydoc is not a
dependency of fsbook, so the sections are read by the small parser below (numpydoc's rule: a
title line underlined by dashes of at least its length).
"""
import importlib
import inspect
import re

import pytest

from fsbook.capabilities import public_estimators

ESTIMATORS = public_estimators()

#: numpydoc's order of the sections of a class docstring
CLASS_SECTIONS = ["Parameters", "Attributes", "Methods", "See Also", "Notes", "References", "Examples"]

#: the methods whose docstrings need Parameters and Returns when the class defines them itself
#: (``fit`` is checked on every estimator, inherited or not)
OWN_METHODS = ("transform", "fit_transform", "predict")


def sections(doc):
    """The numpydoc sections of a docstring, ``{title: body}``, body dedented and stripped."""
    lines = inspect.cleandoc(doc or "").splitlines()
    found, title, body = {}, None, []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and re.fullmatch(r"\s*-{3,}\s*", nxt) and len(nxt.strip()) >= len(line.strip()):
            if title is not None:
                found[title] = "\n".join(body).strip()
            title, body = line.strip(), []
        elif title is not None and not re.fullmatch(r"\s*-{3,}\s*", line):
            body.append(line)
    if title is not None:
        found[title] = "\n".join(body).strip()
    return found


def test_sections_parser():
    doc = """Summary.

    Parameters
    ----------
    X : array-like
        Data.

    See Also
    --------
    MMC : the pair learner.
    """
    assert sections(doc) == {"Parameters": "X : array-like\n    Data.", "See Also": "MMC : the pair learner."}
    assert sections("No sections.") == {}


def _resolve(name):
    """The object a See Also entry names: a public estimator of fsbook or an importable dotted path."""
    if name in ESTIMATORS:
        return ESTIMATORS[name]
    module, _, attr = name.rpartition(".")
    while module:
        try:
            obj = importlib.import_module(module)
        except ImportError:
            module, _, head = module.rpartition(".")
            attr = f"{head}.{attr}"
            continue
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj
    raise LookupError(name)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_class_docstring_has_references(name):
    refs = sections(ESTIMATORS[name].__doc__).get("References", "")
    assert refs, f"{name}: no References section"


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_class_docstring_has_see_also_naming_estimators(name):
    see_also = sections(ESTIMATORS[name].__doc__).get("See Also", "")
    entries = [m.group(1) for m in re.finditer(r"^([A-Za-z_][\w.]*)\s*(?::|,|$)", see_also, re.M)]
    assert entries, f"{name}: no See Also section"
    named = [_resolve(entry) for entry in entries]  # a misspelt name raises
    others = set(ESTIMATORS.values()) - {ESTIMATORS[name]}
    assert any(obj in others for obj in named), f"{name}: See Also names no other fsbook estimator"


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_class_sections_are_in_numpydoc_order(name):
    found = list(sections(ESTIMATORS[name].__doc__))
    assert set(found) <= set(CLASS_SECTIONS), f"{name}: unknown sections {set(found) - set(CLASS_SECTIONS)}"
    assert found == sorted(found, key=CLASS_SECTIONS.index), f"{name}: sections {found}"


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_fit_has_parameters_and_returns(name):
    found = sections(inspect.getdoc(ESTIMATORS[name].fit))
    assert found.get("Parameters"), f"{name}.fit: no Parameters section"
    assert found.get("Returns"), f"{name}.fit: no Returns section"


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_own_methods_have_parameters_and_returns(name):
    cls = ESTIMATORS[name]
    for method in OWN_METHODS:
        if method in vars(cls):
            found = sections(inspect.getdoc(getattr(cls, method)))
            assert found.get("Parameters"), f"{name}.{method}: no Parameters section"
            assert found.get("Returns"), f"{name}.{method}: no Returns section"

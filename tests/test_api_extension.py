"""The book's Sphinx extension for the API reference (book/_ext/fsbook_api.py): docstring
rewriting, skipped members and the resolution of references by import."""
import pytest
from script_loader import load_script

pytest.importorskip("sphinx")

ext = load_script("fsbook_api", folder="book/_ext")


def test_citations_get_labels_unique_to_the_object():
    lines = ["See [1]_ and [2]_.", "", ".. [1] First.", ".. [2] Second."]
    other = list(lines)
    ext.process_docstring(None, "class", "fsbook.l1linf.HSFS", None, {}, lines)
    ext.process_docstring(None, "class", "fsbook.l1linf.LDFS", None, {}, other)
    assert lines[0].startswith("See [R") and "-1]_ and [R" in lines[0]
    assert lines[2].startswith(".. [R") and lines[2].endswith("-1] First.")
    assert lines[0][5:12] != other[0][5:12]                 # another object, another label


def test_trailing_underscores_are_text_outside_code():
    lines = ["support_ : mask; exact_ : whether ``W_`` has k rows, :attr:`coef_`",
             ":Attributes: **scale_** (*array (n_features_in_,)*)"]
    ext.process_docstring(None, "class", "x", None, {}, lines)
    assert lines[0] == r"support\_ : mask; exact\_ : whether ``W_`` has k rows, :attr:`coef_`"
    assert lines[1] == r":Attributes: **scale\_** (*array (n_features_in\_,)*)"


def test_metadata_request_methods_are_skipped():
    assert ext.skip_member(None, "class", "set_fit_request", None, False, {}) is True
    assert ext.skip_member(None, "class", "fit", None, False, {}) is None


def test_import_of_dotted_paths():
    from fsbook.l1linf import HSFS

    assert ext._import("fsbook.l1linf.HSFS") is HSFS
    assert ext._import("fsbook.l1linf.estimators.HSFS") is HSFS
    assert ext._import("fsbook.l1linf.NoSuch") is None

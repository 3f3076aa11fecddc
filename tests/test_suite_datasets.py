"""The selection suite (issue 48): 29 data sets of shared/data/suite in data/.

Shapes and class counts against MANIFEST.md (typed below from its table, and read from the table
itself where ../shared/data is present), the stored values against the raw files, the
checksums, the catalogue's domains, the splice encoding and the compact storage."""

import os
import re
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import fsbook.datasets as D
from fsbook.datasets._build import SOURCE_SHA256, build
from fsbook.datasets._registry import DOMAINS, SPECS, SUITE_SPECS
from fsbook.datasets._store import read_sums, sha256_file
from fsbook.datasets._suite import IUPAC_BASES, compact_dense, dense_from_arrays, one_hot_bases

REPO = Path(__file__).resolve().parents[1]
# the raw sources: ../shared/data beside the clone, or $FSBOOK_SHARED_DATA (a git worktree elsewhere)
SHARED = Path(os.environ.get("FSBOOK_SHARED_DATA", REPO.parent / "shared" / "data"))
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data (raw sources) is absent")

# name: (domain, shape, class counts in target order, or (n_classes, min count, max count) where
# MANIFEST.md gives a range) -- MANIFEST.md, section "The selection suite"
SUITE = {
    "tumors_9": ("microarray", (60, 5726), [7, 8, 6, 6, 8, 8, 2, 6, 9]),
    "adenoma": ("microarray", (36, 7457), [18, 18]),
    "brain_tumor_2": ("microarray", (50, 10367), [7, 14, 15, 14]),
    "cns": ("microarray", (60, 7129), [21, 39]),
    "dlbcl": ("microarray", (77, 5469), [19, 58]),
    "glioma": ("microarray", (50, 4434), [14, 7, 14, 15]),
    "prostate_ge": ("microarray", (102, 5966), [50, 52]),
    "tox_171": ("microarray", (171, 5748), [45, 45, 39, 42]),
    "nci9": ("microarray", (60, 9712), [9, 9, 8, 5, 7, 6, 8, 6, 2]),
    "lung_discrete": ("microarray", (73, 325), [6, 5, 5, 16, 7, 13, 21]),
    "orl": ("image", (400, 1024), [10] * 40),
    "coil20": ("image", (1440, 1024), [72] * 20),
    "warp_ar10p": ("image", (130, 2400), [13] * 10),
    "warp_pie10p": ("image", (210, 2420), [21] * 10),
    "usps_subset": ("image", (2007, 256), (10, 147, 359)),
    "mnist_subset": ("image", (4000, 784), (10, 359, 454)),
    "binary_alphadigits": ("image", (1404, 320), [39] * 36),
    "msra25": ("image", (1799, 256), (12, 113, 186)),
    "isolet_subset": ("speech", (1560, 617), [60] * 26),
    "pcmac": ("text", (1943, 3289), [982, 961]),
    "cnae9": ("text", (1080, 856), [120] * 9),
    "sonar": ("tabular", (208, 60), [111, 97]),
    "spambase": ("tabular", (4597, 57), [2785, 1812]),
    "libras_movement": ("tabular", (360, 90), [24] * 15),
    "optdigits": ("tabular", (5620, 64), (10, 554, 572)),
    "satimage": ("tabular", (6435, 36), (6, 626, 1533)),
    "vehicle": ("tabular", (846, 18), (4, 199, 218)),
    "texture": ("tabular", (5500, 40), [500] * 11),
    "splice": ("tabular", (3190, 60), [767, 768, 1655]),
}


def test_the_suite_is_the_manifest_list():
    assert len(SUITE) == len(SUITE_SPECS) == 29
    assert [s.name for s in SUITE_SPECS] == list(SUITE)
    assert {s.name for s in SUITE_SPECS} <= {s.name for s in SPECS}
    assert len({f for s in SUITE_SPECS for f in s.sources}) == 29


@pytest.mark.parametrize("name", list(SUITE))
def test_shape_classes_and_bunch(name):
    domain, shape, counts = SUITE[name]
    b = D.load_by_name(name)
    assert b.data.shape == shape
    assert len(b.feature_names) == shape[1] and len(b.categories) == shape[1] and len(b.target) == shape[0]
    assert b.target.dtype == np.int64 and b.target.min() == 0 and b.target.max() == len(b.target_names) - 1
    observed = np.bincount(b.target).tolist()
    if isinstance(counts, list):
        assert observed == counts
    else:
        k, lo, hi = counts
        assert len(observed) == k and min(observed) == lo and max(observed) == hi
    assert b.domain == domain and b.preprocessing
    assert f"Domain: {domain}" in b.DESCR and "Licence:" in b.DESCR and "Source:" in b.DESCR
    if domain == "text":
        assert sp.issparse(b.data) and b.data.format == "csr" and b.data.dtype == np.int32
        assert b.data.data.min() > 0
    else:
        assert isinstance(b.data, np.ndarray) and b.data.dtype == np.float64 and b.data.flags.writeable
    if domain == "image":
        h, w = b.image_shape
        assert b.images.shape == (shape[0], h, w) and h * w == shape[1]
        assert np.shares_memory(b.images, b.data)


@needs_shared
def test_shapes_and_checksums_agree_with_the_manifest_table():
    """The table of MANIFEST.md itself: each suite file's shape and sha256 as typed above / in the build."""
    text = (SHARED / "MANIFEST.md").read_text()
    section = text[text.index("## The selection suite"):]
    rows = re.findall(r"^\| `(suite/[^`]+)` \|(.*)\| `([0-9a-f]{64})` \|$", section, re.M)
    assert len(rows) == 29
    by_file = {s.sources[0]: s.name for s in SUITE_SPECS}
    for rel, middle, digest in rows:
        assert SOURCE_SHA256[rel] == digest == sha256_file(SHARED / rel)
        shape = re.search(r"(\d+) x (\d+)", middle)
        assert tuple(int(v) for v in shape.groups()) == SUITE[by_file[rel]][1], rel


@needs_shared
@pytest.mark.parametrize("spec", [s for s in SUITE_SPECS if s.sources[0].endswith(".mat")], ids=lambda s: s.name)
def test_stored_values_are_the_mat_file_values(spec):
    import scipy.io as sio

    raw = sio.loadmat(str(SHARED / spec.sources[0]))
    X, y = (raw["X"], raw["Y"]) if "X" in raw else (raw["fea"], raw["gnd"])
    b = D.load_by_name(spec.name)
    got = b.data.toarray() if sp.issparse(b.data) else b.data
    np.testing.assert_array_equal(got, np.asarray(X, dtype=np.float64))     # bit for bit
    y = y.ravel().astype(int)
    np.testing.assert_array_equal(b.target, y - y.min())


@needs_shared
@pytest.mark.parametrize("spec", [s for s in SUITE_SPECS if s.sources[0].endswith(".dat")], ids=lambda s: s.name)
def test_stored_values_are_the_keel_file_values(spec):
    b = D.load_by_name(spec.name)
    rows = [[v.strip() for v in line.split(",")] for line in (SHARED / spec.sources[0]).read_text().splitlines()]
    assert len(rows) == b.data.shape[0]
    if spec.name == "splice":
        letters = np.array([r[:-1] for r in rows])
        np.testing.assert_array_equal(np.array(b.categories[0])[b.data.astype(int)], letters)
    else:
        np.testing.assert_array_equal(b.data, np.array([[float(v) for v in r[:-1]] for r in rows]))
    np.testing.assert_array_equal(b.target_names[b.target], [r[-1] for r in rows])


def test_images_are_upright_views_of_the_rows():
    """images[i][r, c] is pixel (r, c) of the layout the file uses (column-major for Deng Cai's
    copies, row-major for USPS and MNIST; orientation checked by eye when the loaders were written)."""
    orl, mnist = D.load_orl(), D.load_mnist_subset()
    assert orl.images[7, 3, 20] == orl.data[7, 20 * 32 + 3]              # column-major
    assert mnist.images[7, 3, 20] == mnist.data[7, 3 * 28 + 20]          # row-major
    assert orl.feature_names[20 * 32 + 3] == "pixel_3_20" and mnist.feature_names[3 * 28 + 20] == "pixel_3_20"
    ar = D.load_warp_ar10p()
    assert ar.image_shape == (60, 40) and ar.images[0, 59, 39] == ar.data[0, -1]
    bad = D.load_binary_alphadigits()
    assert list(bad.target_names[:11]) == [str(k) for k in range(10)] + ["A"] and set(np.unique(bad.data)) == {0, 1}


def test_value_ranges_stated_in_the_manifest():
    assert set(np.unique(D.load_nci9().data)) == {-2, 0, 2}
    assert set(np.unique(D.load_lung_discrete().data)) <= {-2, -1, 0, 1, 2}
    for loader, lo, hi in ((D.load_coil20, 0, 1), (D.load_usps_subset, -1, 1), (D.load_isolet_subset, -1, 1),
                           (D.load_orl, 0, 255), (D.load_mnist_subset, 0, 255)):
        X = loader().data
        assert lo <= X.min() and X.max() <= hi
    g = D.load_glioma().data
    assert 1 < g.min() and g.max() < 5                                 # log10 scale
    pc, cn = D.load_pcmac(), D.load_cnae9()
    assert round(pc.data.nnz / np.prod(pc.data.shape), 3) == 0.015
    assert round(cn.data.nnz / np.prod(cn.data.shape), 3) == 0.008
    assert list(D.load_vehicle().target_names) == ["bus", "opel", "saab", "van"]   # padding stripped
    assert list(D.load_satimage().target_names) == ["1", "2", "3", "4", "5", "7"]


def test_checksums_of_the_suite_files():
    sums = read_sums(D.data_dir())
    for spec in SUITE_SPECS:
        assert sha256_file(D.data_dir() / spec.filename) == sums[spec.filename]


@needs_shared
def test_rebuilding_suite_sets_is_byte_identical(tmp_path):
    names = ["sonar", "splice", "cnae9", "tox_171", "orl"]
    written = build(SHARED, tmp_path, names=names, log=lambda *a: None)
    sums = read_sums(D.data_dir())
    assert written == {f"{n}.npz": sums[f"{n}.npz"] for n in names}


# ---------------------------------------------------------------------------- the catalogue
def test_catalogue_lists_the_suite_with_domains():
    table = D.list_datasets(include_unavailable=False).set_index("name")
    assert set(table.domain) <= set(DOMAINS)
    for name, (domain, shape, _) in SUITE.items():
        assert table.loc[name, "domain"] == domain and table.loc[name, "shape"] == shape
        assert table.loc[name, "preprocessing"] and table.loc[name, "licence"]
    assert "one-hot" in table.loc["splice", "preprocessing"]
    assert "counts" in table.loc["pcmac", "preprocessing"]
    assert table.loc["colon", "domain"] == "microarray" and table.loc["20newsgroups", "domain"] == "text"


def test_catalogue_covers_thirty_data_sets_in_five_domains_with_multiclass():
    """Issue 48: at least 30 data sets in at least five domains, multiclass included. Variants of
    one data set (n-gram counts, MONK's train/test splits, leukemia discretised) count once."""
    table = D.list_datasets(include_unavailable=False)
    table = table[table.n_classes.notna()]                              # classification sets
    distinct = table.name.str.replace(r"^(monks\d)_(train|test)$", r"\1", regex=True)
    distinct = distinct.str.replace(r"^(movie_reviews|webtext)_\d$", r"\1", regex=True)
    distinct = distinct.replace({"leukemia_discretised": "leukemia"})
    table = table.assign(dataset=distinct).drop_duplicates("dataset")
    assert len(table) >= 30
    required = {"microarray", "image", "text", "speech", "tabular"}
    assert required <= set(table.domain)
    multiclass = table[table.n_classes > 2]
    assert len(multiclass) >= 15
    assert required - {"speech"} <= set(multiclass.domain) and "speech" in set(multiclass.domain)


# ---------------------------------------------------------------------------- splice and storage
def test_splice_one_hot_encoding():
    codes, hot = D.load_splice(), D.load_splice(one_hot=True)
    assert hot.data.shape == (3190, 240) and len(hot.feature_names) == 240
    per_position = hot.data.reshape(3190, 60, 4)
    np.testing.assert_array_equal(per_position.sum(axis=2), 1.0)
    letters = np.array(codes.categories[0])[codes.data.astype(int)]
    plain = np.isin(letters, list("ACGT"))
    # unambiguous positions: exactly scikit-learn's one-hot over A, C, G, T
    from sklearn.preprocessing import OneHotEncoder

    clean_rows = plain.all(axis=1)
    enc = OneHotEncoder(categories=[list("ACGT")] * 60, sparse_output=False).fit_transform(letters[clean_rows])
    np.testing.assert_array_equal(hot.data[clean_rows], enc)
    # ambiguity codes: counts in the file and their spread
    found = {b: int((letters == b).sum()) for b in "DNRS"}
    assert found == {"D": 2, "N": 56, "R": 1, "S": 1}
    for b in "DNRS":
        i, j = np.argwhere(letters == b)[0]
        expected = [1.0 / len(IUPAC_BASES[b]) if base in IUPAC_BASES[b] else 0.0 for base in "ACGT"]
        np.testing.assert_array_equal(per_position[i, j], expected)
    with pytest.raises(ValueError, match="one_hot"):
        D.load_splice(one_hot="yes")
    with pytest.raises(ValueError, match="not a nucleotide"):
        one_hot_bases(np.zeros((1, 1), dtype=int), [["X"]])


def test_compact_dense_is_exact_and_small():
    rng = np.random.default_rng(0)
    for decimals, dtype in ((0, "uint8"), (2, "int16"), (4, "int32")):     # 4 decimals: codes up to 50,000
        X = np.round(rng.uniform(-5, 5, size=(30, 7)), decimals) if decimals else rng.integers(0, 200, (30, 7))
        out = compact_dense(X)
        expected = dtype if decimals else "uint8"
        assert out["X"].dtype.name == expected
        np.testing.assert_array_equal(dense_from_arrays(out), X)
    X = rng.normal(size=(5, 3))
    assert compact_dense(X)["X"].dtype == np.float64 and np.array_equal(dense_from_arrays(compact_dense(X)), X)
    X = np.array([[1e15 + 0.5]])                        # codes would not fit a narrow integer type
    assert compact_dense(X)["X"].dtype == np.float64

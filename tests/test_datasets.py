"""Tests of fsbook.datasets: shapes/classes vs the manifest and published numbers,
rule-defined datasets against their rules, checksum verification, byte-deterministic rebuild."""

import itertools
import re
import shutil
import tarfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import fsbook.datasets as D
from fsbook.datasets import REBUILD_COMMAND, DatasetError
from fsbook.datasets._build import SourceError, build
from fsbook.datasets._registry import SPECS
from fsbook.datasets._store import read_sums, sha256_file
from fsbook.datasets._text import TOKEN_PATTERN

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data (raw sources) is absent")

# (loader call, shape, class counts in target order) -- manifest / UCI published numbers
CASES = [
    ("load_tic_tac_toe", (), (958, 9), [332, 626]),
    ("load_vote", (), (435, 16), [267, 168]),
    ("load_breast_cancer", (), (286, 9), [201, 85]),
    ("load_breast_cancer_wisconsin", (), (699, 9), [458, 241]),
    ("load_wdbc", (), (569, 30), [357, 212]),
    ("load_hepatitis", (), (155, 19), [32, 123]),
    ("load_transfusion", (), (748, 4), [570, 178]),
    ("load_ionosphere", (), (351, 34), [126, 225]),
    ("load_glass", (), (214, 9), [70, 76, 17, 13, 9, 29]),
    ("load_wine", (), (178, 13), [59, 71, 48]),
    ("load_iris", (), (150, 4), [50, 50, 50]),
    ("load_balance_scale", (), (625, 4), [288, 49, 288]),
    ("load_soybean_small", (), (47, 35), [10, 10, 10, 17]),
    ("load_pima", (), (768, 8), [500, 268]),
    ("load_monks", (1, "train"), (124, 6), [62, 62]),
    ("load_monks", (1, "test"), (432, 6), [216, 216]),
    ("load_monks", (2, "train"), (169, 6), [105, 64]),
    ("load_monks", (2, "test"), (432, 6), [290, 142]),
    ("load_monks", (3, "train"), (122, 6), [62, 60]),
    ("load_monks", (3, "test"), (432, 6), [204, 228]),
    ("load_colon", (), (62, 2000), [22, 40]),
    ("load_lymphoma", (), (96, 4026), [46, 10, 9, 11, 6, 6, 4, 2, 2]),
    ("load_lymphoma62", (), (62, 4026), [42, 9, 11]),
    ("load_leukemia", (False,), (72, 7129), [47, 25]),
    ("load_leukemia", (True,), (72, 7070), [47, 25]),
    ("load_arcene", (), (200, 10000), [112, 88]),
    ("load_madelon", (), (2000, 500), [1000, 1000]),
    ("load_dexter", (), (300, 20000), [150, 150]),
    ("load_yale", (), (165, 1024), [11] * 15),
    ("load_movie_reviews", (1,), (2000, None), [1000, 1000]),
    ("load_movie_reviews", (2,), (2000, None), [1000, 1000]),
    ("load_movie_reviews", (3,), (2000, None), [1000, 1000]),
    ("load_webtext", (1,), (None, None), None),
    ("load_20newsgroups", (), (18846, None), None),
]


@pytest.mark.parametrize("loader, args, shape, counts", CASES, ids=lambda v: str(v) if isinstance(v, str) else None)
def test_loader_shape_dtype_classes(loader, args, shape, counts):
    b = getattr(D, loader)(*args)
    for key in ("data", "target", "feature_names", "target_names", "DESCR"):
        assert key in b
    m, n = b.data.shape
    assert shape[0] in (None, m) and shape[1] in (None, n)
    assert len(b.feature_names) == n and len(b.target) == m
    assert b.target.dtype.kind == "i" and b.target.min() == 0
    assert b.target.max() == len(b.target_names) - 1
    if sp.issparse(b.data):
        assert b.data.format == "csr" and b.data.dtype == np.int32 and b.data.data.min() > 0
    else:
        assert b.data.dtype == np.float64
    if counts is not None:
        assert np.bincount(b.target).tolist() == counts
    assert "Source:" in b.DESCR and "Licence:" in b.DESCR and "Differences" in b.DESCR
    if "categories" in b:
        assert len(b.categories) == n


def test_loaders_return_independent_writable_copies():
    a, b = D.load_iris(), D.load_iris()
    a.data[0, 0] = -1.0
    assert b.data[0, 0] != -1.0 and D.load_iris().data[0, 0] == b.data[0, 0]


def test_boston():
    b = D.load_boston()
    assert b.data.shape == (506, 13) and b.target.dtype == np.float64
    assert list(b.feature_names) == ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD",
                                     "TAX", "PTRATIO", "B", "LSTAT"]
    np.testing.assert_allclose(b.data[0], [0.00632, 18, 2.31, 0, 0.538, 6.575, 65.2, 4.09, 1, 296, 15.3,
                                           396.9, 4.98])
    assert b.target[0] == 24.0 and b.target.min() == 5.0 and b.target.max() == 50.0
    assert "ethical" in b.DESCR


def test_missing_values_as_published():
    # UCI: vote 392 '?', hepatitis 167, breast-cancer 9, breast-cancer-wisconsin 16 (bare nuclei)
    assert np.isnan(D.load_vote().data).sum() == 392
    assert np.isnan(D.load_hepatitis().data).sum() == 167
    assert np.isnan(D.load_breast_cancer().data).sum() == 9
    bcw = D.load_breast_cancer_wisconsin()
    assert np.isnan(bcw.data).sum() == 16 and np.isnan(bcw.data[:, 5]).sum() == 16
    assert bcw.sample_id[0] == 1000025


def test_nominal_codes_match_categories():
    for loader in (D.load_vote, D.load_hepatitis, D.load_tic_tac_toe, D.load_breast_cancer, D.load_soybean_small):
        b = loader()
        for j, levels in enumerate(b.categories):
            if levels is None:
                continue
            col = b.data[:, j][~np.isnan(b.data[:, j])]
            assert np.all(col == np.round(col)) and col.min() >= 0 and col.max() < len(levels)


def test_undone_uploader_edits():
    # tic-tac-toe first row of the UCI file: x,x,x,x,o,o,x,o,o,positive
    t = D.load_tic_tac_toe()
    assert [t.categories[j][int(v)] for j, v in enumerate(t.data[0])] == list("xxxxooxoo")
    assert t.target_names[t.target[0]] == "positive"
    # vote: class was the first column; first row republican, n,y,n,y,y,y,n,n,n,y,?,...
    v = D.load_vote()
    assert v.target_names[v.target[0]] == "republican" and np.isnan(v.data[0, 10]) and v.data[0, 0] == 0
    # glass: id column removed, types 1,2,3,5,6,7
    g = D.load_glass()
    assert g.glass_id.tolist() == list(range(1, 215)) and sorted(set(g.glass_type.tolist())) == [1, 2, 3, 5, 6, 7]
    np.testing.assert_allclose(g.data[0], [1.52101, 13.64, 4.49, 1.10, 71.78, 0.06, 8.75, 0, 0])
    # soybean: the prepended 'outcome' line is gone
    assert "outcome" not in D.load_soybean_small().target_names
    # transfusion: original header restored
    assert D.load_transfusion().feature_names[0] == "Recency (months)"
    # hepatitis: class (moved last by Weka) is the target, first attribute is AGE
    h = D.load_hepatitis()
    assert h.feature_names[0] == "AGE" and list(h.target_names) == ["DIE", "LIVE"]


def test_against_scikit_learn_bundled_copies():
    from sklearn import datasets as skd

    w, skw = D.load_wine(), skd.load_wine()
    np.testing.assert_array_equal(w.data, skw.data)
    np.testing.assert_array_equal(w.target, skw.target)
    i, ski = D.load_iris(), skd.load_iris()
    np.testing.assert_array_equal(i.target, ski.target)
    diff_rows = np.flatnonzero(np.any(i.data != ski.data, axis=1))
    assert diff_rows.tolist() == [34, 37]  # the two known errors of UCI iris.data (sklearn fixed them)
    # KEEL's wdbc: rounded values, same rows; target B/M = 0/1 while sklearn has 0 = malignant
    b, skb = D.load_wdbc(), skd.load_breast_cancer()
    np.testing.assert_array_equal(b.target, 1 - skb.target)
    np.testing.assert_allclose(b.data, skb.data, rtol=0.05, atol=6e-4)


def test_monk1_rule():
    for subset in ("train", "test"):
        b = D.load_monks(1, subset)
        a = b.data.astype(int) + 1  # codes 0..k-1 -> attribute values 1..k
        rule = (a[:, 0] == a[:, 1]) | (a[:, 4] == 1)
        np.testing.assert_array_equal(b.target, rule.astype(int))


def test_monk2_rule():
    for subset in ("train", "test"):
        b = D.load_monks(2, subset)
        a = b.data.astype(int) + 1
        rule = (a == 1).sum(axis=1) == 2
        np.testing.assert_array_equal(b.target, rule.astype(int))


def _monk3_rule(a):
    return ((a[:, 4] == 3) & (a[:, 3] == 1)) | ((a[:, 4] != 4) & (a[:, 1] != 3))


def test_monk_test_sets_are_the_full_space():
    space = set(itertools.product(*[range(1, k + 1) for k in (3, 3, 2, 3, 4, 2)]))
    assert len(space) == 432
    for p in (1, 2, 3):
        a = D.load_monks(p, "test").data.astype(int) + 1
        assert {tuple(r) for r in a} == space


def test_monk3_rule_and_train_noise():
    test = D.load_monks(3, "test")
    np.testing.assert_array_equal(test.target, _monk3_rule(test.data.astype(int) + 1).astype(int))
    train = D.load_monks(3, "train")
    mismatches = int((train.target != _monk3_rule(train.data.astype(int) + 1)).sum())
    assert mismatches == 6  # the documented 5% noise: 6 of the 122 training examples


def test_balance_scale_rule():
    b = D.load_balance_scale()
    a = b.data.astype(int)
    assert {tuple(r) for r in a} == set(itertools.product(range(1, 6), repeat=4))
    torque = a[:, 0] * a[:, 1] - a[:, 2] * a[:, 3]
    expected = np.where(torque > 0, "L", np.where(torque < 0, "R", "B"))
    np.testing.assert_array_equal(np.asarray(b.target_names)[b.target], expected)


BYDATE = {  # published per-group counts of the bydate split (train, test)
    "alt.atheism": (480, 319), "comp.graphics": (584, 389), "comp.os.ms-windows.misc": (591, 394),
    "comp.sys.ibm.pc.hardware": (590, 392), "comp.sys.mac.hardware": (578, 385), "comp.windows.x": (593, 395),
    "misc.forsale": (585, 390), "rec.autos": (594, 396), "rec.motorcycles": (598, 398),
    "rec.sport.baseball": (597, 397), "rec.sport.hockey": (600, 399), "sci.crypt": (595, 396),
    "sci.electronics": (591, 393), "sci.med": (594, 396), "sci.space": (593, 394),
    "soc.religion.christian": (599, 398), "talk.politics.guns": (546, 364), "talk.politics.mideast": (564, 376),
    "talk.politics.misc": (465, 310), "talk.religion.misc": (377, 251),
}


def test_20newsgroups_splits_and_categories():
    tr, te = D.load_20newsgroups("train"), D.load_20newsgroups("test")
    assert tr.data.shape[0] == 11314 and te.data.shape[0] == 7532
    assert list(tr.target_names) == sorted(BYDATE)
    assert np.bincount(tr.target).tolist() == [BYDATE[g][0] for g in sorted(BYDATE)]
    assert np.bincount(te.target).tolist() == [BYDATE[g][1] for g in sorted(BYDATE)]
    assert tr.data.shape[1] == te.data.shape[1] and set(tr.subset) == {"train"}
    sel = D.load_20newsgroups("all", categories=["talk.religion.misc", "alt.atheism"])
    assert list(sel.target_names) == ["talk.religion.misc", "alt.atheism"]
    assert np.bincount(sel.target).tolist() == [377 + 251, 480 + 319]
    assert all(d.split("/")[1] == sel.target_names[t] for d, t in zip(sel.doc_ids, sel.target))
    # vocabulary: words of >= 2 letters, each in >= 2 posts of the whole corpus
    full = D.load_20newsgroups()
    df = np.bincount(full.data.indices, minlength=full.data.shape[1])
    assert df.min() >= 2
    assert all(re.fullmatch(TOKEN_PATTERN, w) and w == w.lower() for w in full.feature_names[::500])
    for bad in ("everything", ["no.such.group"], ["alt.atheism", "alt.atheism"]):
        with pytest.raises(ValueError):
            D.load_20newsgroups(categories=bad)
    with pytest.raises(ValueError, match="subset"):
        D.load_20newsgroups("validation")


@needs_shared
def test_20newsgroups_counts_match_raw_posts():
    full = D.load_20newsgroups()
    vocab = {w: j for j, w in enumerate(full.feature_names)}
    row = {d: i for i, d in enumerate(full.doc_ids)}
    wanted = {"20news-bydate-train/alt.atheism/49960", "20news-bydate-test/sci.space/61556",
              "20news-bydate-train/comp.graphics/38291"}
    with tarfile.open(SHARED / "text/20newsgroups/20news-bydate.tar.gz") as tar:
        for name in sorted(wanted):
            text = tar.extractfile(name).read().decode("latin-1").lower()
            counts = Counter(w for w in re.findall(TOKEN_PATTERN, text) if w in vocab)
            subset, group, pid = name.split("/")
            i = row[f"{subset.rsplit('-', 1)[1]}/{group}/{pid}"]
            got = full.data[i]
            assert {full.feature_names[j]: int(c) for j, c in zip(got.indices, got.data)} == dict(counts)


def test_text_ngrams_and_webtext():
    m1, m2 = D.load_movie_reviews(1), D.load_movie_reviews(2)
    assert all(" " not in w for w in m1.feature_names[:100])
    assert all(len(w.split(" ")) == 2 for w in m2.feature_names[:100])
    assert D.load_movie_reviews(3).feature_names[0].count(" ") == 2
    assert m1.doc_ids[0].startswith("neg/") and m1.doc_ids[-1].startswith("pos/")
    w = D.load_webtext()
    assert list(w.target_names) == ["firefox", "grail", "overheard", "pirates", "singles", "wine"]
    assert np.all(np.bincount(w.target) > 300) and w.line.min() >= 1
    for bad in (0, 4, "1", True):
        with pytest.raises(ValueError):
            D.load_webtext(bad)


def test_yale_images_match_data():
    y = D.load_yale()
    assert y.images.shape == (165, 32, 32) and 0 <= y.data.min() and y.data.max() <= 255
    r, c = 5, 20
    np.testing.assert_array_equal(y.images[:, r, c], y.data[:, c * 32 + r])


def test_bad_loader_arguments():
    with pytest.raises(ValueError):
        D.load_monks(4)
    with pytest.raises(ValueError):
        D.load_monks(1, "valid")
    with pytest.raises(ValueError):
        D.load_leukemia(discretised="yes")


def test_list_datasets():
    table = D.list_datasets()
    assert len(table) == len(SPECS) + 5
    avail = table[table.available]
    assert set(avail.name) == {s.name for s in SPECS}
    assert set(table[~table.available].name) >= {"Protein", "Amazon Commerce Reviews", "GISETTE"}
    assert (table[~table.available].reason.str.len() > 10).all()
    row = table.set_index("name").loc["wine"]
    assert row["shape"] == (178, 13) and row["n_classes"] == 3 and "P2" in row["papers"]


# ---------------------------------------------------------------------------- checksums
def _copy_data(tmp_path, names=("iris.npz",)):
    sums = read_sums(D.data_dir())
    for n in names:
        shutil.copy(D.data_dir() / n, tmp_path / n)
    (tmp_path / "SHA256SUMS").write_text("".join(f"{sums[n]}  {n}\n" for n in names))
    return tmp_path


def test_checksums_of_built_files_verify():
    sums = read_sums(D.data_dir())
    assert set(sums) == {s.filename for s in SPECS}
    for name in ("iris.npz", "monks1_train.npz"):
        assert sha256_file(D.data_dir() / name) == sums[name]


def test_corrupted_file_raises_clear_error(tmp_path, monkeypatch):
    _copy_data(tmp_path)
    raw = bytearray((tmp_path / "iris.npz").read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (tmp_path / "iris.npz").write_bytes(bytes(raw))
    monkeypatch.setenv("FSBOOK_DATA_DIR", str(tmp_path))
    with pytest.raises(DatasetError, match="iris.npz") as exc:
        D.load_iris()
    assert f"FSBOOK_DATA_DIR is set to {tmp_path}" in str(exc.value) and "checksum" in str(exc.value)
    assert isinstance(exc.value, OSError)


def test_missing_file_raises_clear_error(tmp_path, monkeypatch):
    _copy_data(tmp_path)
    monkeypatch.setenv("FSBOOK_DATA_DIR", str(tmp_path))
    with pytest.raises(DatasetError, match="wine.npz") as exc:
        D.load_wine()
    assert "FSBOOK_DATA_DIR is set to" in str(exc.value) and "data/wine.npz" in str(exc.value)
    (tmp_path / "SHA256SUMS").unlink()
    with pytest.raises(DatasetError, match="SHA256SUMS") as exc:
        D.load_iris()
    assert "FSBOOK_DATA_DIR" in str(exc.value)


def test_unreadable_file_with_matching_checksum(tmp_path, monkeypatch):
    (tmp_path / "iris.npz").write_bytes(b"not a zip file")
    (tmp_path / "SHA256SUMS").write_text(f"{sha256_file(tmp_path / 'iris.npz')}  iris.npz\n")
    monkeypatch.setenv("FSBOOK_DATA_DIR", str(tmp_path))
    with pytest.raises(DatasetError, match="iris.npz.*unreadable") as exc:
        D.load_iris()
    assert "FSBOOK_DATA_DIR" in str(exc.value)


def test_the_remedy_fits_where_the_package_runs(tmp_path, monkeypatch):
    """A clone restores a file with git (and rebuilds it only beside ../shared/data); an installed
    package without its data is told to reinstall or set the variable (the wheel itself:
    tests/test_wheel_install.py)."""
    from fsbook.datasets import _location

    monkeypatch.delenv("FSBOOK_DATA_DIR", raising=False)
    assert _location.locate("data") == (REPO / "data", "checkout") and D.data_dir() == REPO / "data"
    text = _location.remedy("data", "wine.npz")
    assert "`git checkout -- data/wine.npz`" in text
    assert (REBUILD_COMMAND in text) == SHARED.is_dir()
    assert "`git checkout -- results/hkl`" in _location.remedy("results", "hkl")
    monkeypatch.setattr(_location, "in_checkout", lambda: False)           # an install without data
    text = _location.remedy("data", "wine.npz")
    assert "FSBOOK_DATA_DIR" in text and "git" not in text and REBUILD_COMMAND not in text
    monkeypatch.setattr(_location, "bundled_dir", lambda kind: tmp_path)   # an install with data
    assert _location.locate("data") == (tmp_path, "bundled")
    assert "reinstall fsbook" in _location.remedy("data", "wine.npz")
    monkeypatch.setenv("FSBOOK_DATA_DIR", str(tmp_path / "x"))
    assert _location.locate("data") == (tmp_path / "x", "env")
    with pytest.raises(ValueError, match="kind"):
        _location.locate("other")


def test_intact_copy_in_other_dir_loads(tmp_path, monkeypatch):
    _copy_data(tmp_path)
    monkeypatch.setenv("FSBOOK_DATA_DIR", str(tmp_path))
    assert D.load_iris().data.shape == (150, 4)


# ---------------------------------------------------------------------------- build
@needs_shared
def test_build_rejects_tampered_source(tmp_path):
    src = tmp_path / "src"
    (src / "uci/iris").mkdir(parents=True)
    raw = (SHARED / "uci/iris/iris.csv").read_bytes()
    (src / "uci/iris/iris.csv").write_bytes(raw.replace(b"5.1,3.5", b"5.2,3.5", 1))
    with pytest.raises(SourceError, match="iris.csv"):
        build(src, tmp_path / "out", names=["iris"], log=lambda *a: None)
    with pytest.raises(SourceError, match="not found"):
        build(src, tmp_path / "out", names=["wine"], log=lambda *a: None)


@needs_shared
def test_rebuild_is_byte_identical(tmp_path):
    """Rebuild every dataset from ../shared/data into a tmp dir: same sha256 as data/SHA256SUMS."""
    written = build(SHARED, tmp_path, log=lambda *a: None, n_jobs=2)
    assert written == read_sums(D.data_dir())
    assert (tmp_path / "SHA256SUMS").read_text() == (D.data_dir() / "SHA256SUMS").read_text()


def test_rule_consistency_table():
    table = D.rule_consistency().set_index("dataset")
    assert table.loc["MONK-3 train", "mismatches"] == 6
    assert (table.drop("MONK-3 train").mismatches == 0).all()
    tests = table.loc[["MONK-1 test", "MONK-2 test", "MONK-3 test", "Balance scale"]]
    assert (tests["distinct combinations"] == tests["possible combinations"]).all()


def test_list_datasets_computed_matches_stored_summary():
    stored = D.list_datasets(include_unavailable=False)
    computed = D.list_datasets(include_unavailable=False, compute=True)
    assert stored["shape"].tolist() == computed["shape"].tolist()
    assert np.allclose(stored.density, computed.density)
    assert computed.set_index("name").loc["vote", "missing"] == 392


def test_data_dir_under_50_mb():
    assert D.data_size_mb() < 50


@needs_shared
@pytest.mark.parametrize("loader, rel, class_col", [
    ("load_vote", "uci/vote/vote.arff", "Class"),
    ("load_tic_tac_toe", "uci/tic-tac-toe/tic-tac-toe.arff", "Class"),
    ("load_breast_cancer_wisconsin", "uci/breast-cancer-wisconsin/breast-w.arff", "Class"),
    ("load_glass", "uci/glass/glass.arff", "Type"),
    ("load_ionosphere", "uci/ionosphere/ionosphere.arff", "class"),
    ("load_pima", "uci/pima-diabetes/diabetes.arff", "class"),
    ("load_wine", "uci/wine/wine.arff", None),
    ("load_iris", "uci/iris/iris.arff", "class"),
])
def test_loader_agrees_with_independent_weka_copy(loader, rel, class_col):
    """The raw files parsed by the build hold the same (row, class) multiset as the
    Weka ARFF copies (Weka reorders some files' rows, e.g. glass)."""
    from scipy.io import arff

    b = getattr(D, loader)()
    data, meta = arff.loadarff(str(SHARED / rel))
    names = meta.names()
    class_col = class_col or names[0]  # wine.arff has the class first
    feats = [c for c in names if c != class_col]
    assert len(data) == b.data.shape[0] and len(feats) == b.data.shape[1]

    def key(values):
        return tuple("?" if (isinstance(v, float) and np.isnan(v)) else (round(v, 8) if isinstance(v, float) else v)
                     for v in values)

    theirs_rows, ours_rows = [], []
    for i in range(len(data)):
        row = []
        for c in feats:
            v = data[c][i]
            row.append(v.decode() if isinstance(v, bytes) else float(v))
        theirs_rows.append((key(row), data[class_col][i].decode()))
        ours = [float(v) if b.categories[j] is None else ("?" if np.isnan(v) else b.categories[j][int(v)])
                for j, v in enumerate(b.data[i])]
        ours_rows.append((key(ours), int(b.target[i])))
    assert Counter(r for r, _ in ours_rows) == Counter(r for r, _ in theirs_rows)
    # the classes correspond one to one (mapping read off rows whose features are unique)
    by_row_ours, by_row_theirs = {}, {}
    for r, t in ours_rows:
        by_row_ours.setdefault(r, []).append(t)
    for r, t in theirs_rows:
        by_row_theirs.setdefault(r, []).append(t)
    mapping = {}
    for r, ts in by_row_ours.items():
        if len(ts) == 1:
            assert mapping.setdefault(ts[0], by_row_theirs[r][0]) == by_row_theirs[r][0]
    assert len(set(mapping.values())) == len(mapping) == len(b.target_names)
    for r, ts in by_row_ours.items():
        assert Counter(mapping[t] for t in ts) == Counter(by_row_theirs[r])


def test_ionosphere_second_attribute_is_constant():
    assert np.all(D.load_ionosphere().data[:, 1] == 0)


def test_cli_build_and_list(tmp_path, capsys):
    from fsbook.datasets.__main__ import main

    if SHARED.is_dir():
        assert main(["build", "--source", str(SHARED), "--dest", str(tmp_path), "-j", "1", "iris", "wine"]) == 0
        sums = read_sums(tmp_path)
        assert set(sums) == {"iris.npz", "wine.npz"} and sums == {k: read_sums(D.data_dir())[k] for k in sums}
        assert main(["build", "--source", str(tmp_path / "nowhere"), "--dest", str(tmp_path)]) == 1
        assert "does not exist" in capsys.readouterr().err
    assert main(["list"]) == 0
    assert "load_20newsgroups" in capsys.readouterr().out


def test_dexter_is_the_manifest_sparse_matrix():
    b = D.load_dexter()
    assert sp.issparse(b.data) and b.data.nnz == 28218 and b.data.max() == 907


def test_two_informative_is_the_examples_problem():
    """The toy problem of the Examples sections: the construction they spelled out before."""
    import numpy as np

    from fsbook.datasets import two_informative

    X, y = two_informative()
    rng = np.random.default_rng(0)
    expected = rng.normal(size=(100, 8))
    expected[:, :2] += 2.0 * np.repeat([0, 1], 50)[:, None]
    np.testing.assert_array_equal(X, expected)
    np.testing.assert_array_equal(y, np.repeat([0, 1], 50))
    with pytest.raises(ValueError, match="even"):
        two_informative(n_samples=7)
    with pytest.raises(ValueError, match="at least 2"):
        two_informative(n_features=1)

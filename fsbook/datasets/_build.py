"""Build ``data/`` from the raw files of ``shared/data``.

``python -m fsbook.datasets build --source ../shared/data`` verifies the sha256
of every source file against the value of ``shared/data/MANIFEST.md``
(hard-coded below), parses it, and writes one byte-deterministic
``data/<name>.npz`` per dataset plus ``data/SHA256SUMS``.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from fsbook.datasets._registry import PAPERS, SPECS
from fsbook.datasets._store import encode_meta, sha256_file, write_npz, write_sums

# sha256 of the source files, copied from shared/data/MANIFEST.md
SOURCE_SHA256 = {
    "text/20newsgroups/20news-bydate.tar.gz": "933dedc591812ba17499841c10ab324d60e093c42800008423b1148ec3474bf8",
    "text/nltk_movie_reviews/movie_reviews.zip": "a41211ae685019137410268134db6a1a14428c89b671eb83056151a878539008",
    "text/nltk_webtext/webtext.zip": "9e32dbae4879464b8f420a0dc721855bb26167b720d7695588d2ca2aeadf501a",
    "uci/hepatitis/hepatitis.arff": "4cf1419eaaf3a1b0f60aa739e4304ef92c542785205037b92dfc27000a10f16f",
    "uci/transfusion/transfusion.data": "96e7e6747da7e9a599ecbe351c78feec86498ed7a662066dbb2e113919fe6359",
    "uci/monks/monks-1.train": "546ea7e7f0e466b99bd923387edda78e7dda2f846e58997e9170a9f79d27886f",
    "uci/monks/monks-1.test": "88a73f39eeb33578045e23b9f6fe3ed3b4fb430d785a0da3c421ace46ae323d7",
    "uci/monks/monks-2.train": "a07f0d1eb80e40f82196075f43d1769eb07d3d5361259d61893e62bc1cc72e3c",
    "uci/monks/monks-2.test": "0f980abaa5eb50789de13e7202e06e4627335322dec46b3e024101f14597ee8f",
    "uci/monks/monks-3.train": "fdac645e1fb150764ea8d708962fa9b1f9e93fb1b496aa363d5fd4b0a28eae29",
    "uci/monks/monks-3.test": "73a9ba06a930f790cdb182758e8da22c0ccc172103d6218f8c637f762dfc9015",
    "uci/tic-tac-toe/tic-tac-toe.data": "a996a756484d0cf8cbad1680d823aadbfcff8ae2d78c450e6999362d580301c5",
    "uci/tic-tac-toe/tic-tac-toe.arff": "1d4b50e01285eb59e1bc1c7ced29b2c4f53b90a6a55ee9386855f0c2716dcfcd",
    "uci/vote/house-votes-84.data": "aaa5e785ce9efecf8d86ce7f87b1aad1f0954af8e071ce405b7342545ee8f707",
    "uci/vote/vote.arff": "ee647a77207729d73d02cea20646afcd274fe9de95711cbf9909c903636cd65f",
    "uci/breast-cancer/breast-cancer.arff": "f37aea89243c1ea4fff82269ccd0a677afd5d88966bd927295be9f774a15e9d9",
    "uci/breast-cancer-wisconsin/breast-cancer-wisconsin.data": "402c585309c399237740f635ef9919dc512cca12cbeb20de5e563a4593f22b64",
    "uci/breast-cancer-wisconsin/wdbc.dat": "f47612e4ffcd253ddf456474c584eb1f39d07e998b96fc7193a23e7b7d26b611",
    "uci/ionosphere/ionosphere.csv": "fd6dd7864b55d56dac0a1e6e24af9ccc35bf2555ac79af8ab9f3d1daa065ab83",
    "uci/glass/glass.data": "dd67373f4baf2807345df02cbfef2093d342e61ad0d82a4fb79af43ef8ce449d",
    "uci/wine/wine.csv": "e9c16b779f9194945067f65118da6afb317ef60c6515879c50124dc4f6cdd756",
    "uci/iris/iris.csv": "f5d0c11e5c78a69a20dbb80baf2b24703f59a6687595752abb397d23732647c5",
    "uci/balance-scale/balance-scale.arff": "ba8570478b133a15640672fb67301cead7050624fd3597f21fd7da8396a97485",
    "uci/soybean-small/soybean-small.data": "e183b5fed2dbf57bb28589fa929efc7a302453f2c2c8ba086ffcd8922a97038a",
    "uci/pima-diabetes/pima-indians-diabetes.csv": "6bfe5d0f379d17a0e0819b996407e3c09bf80febd4287f2ed212190dfff154af",
    "uci/boston-housing/housing.data": "e3e36f7b9e5435f9eb8320e106aebad00031fefa3064527da0c71dec59e49b76",
    "microarray/colon/colon.mat": "8091f602ce7816cd337f4439ca3f1b7dea64276817ac0c164e3be01dc86035f5",
    "microarray/lymphoma/lymphoma.mat": "5b46f7bd8e82752468a2e525b3348b39c2f2ceedbae2bb2b2e1debf548a36901",
    "microarray/lymphoma/lymphoma_62.mat": "33523e05dced635055f4a451d80b401ac2dfa7f181967f23236c52ae801bcc60",
    "microarray/leukemia/ALLAML.mat": "82afd66b425605870da4a4dfaf5d898cbb9035030c8f26801e473d7ddf9929c1",
    "microarray/leukemia/leukemia.mat": "7a6a43094c4c8d745f94e814d923a33236b3ded211d1d561655381a3963ffd78",
    "nips2003/arcene/arcene.mat": "37be65ace34b1b483665b0e82588807d1fd100d940ef8a07bd6b45d616fbc187",
    "nips2003/madelon/madelon.mat": "63cf11c710d438fd510763df6369d952194825def79ce509f0e472ecf05f9d7f",
    "nips2003/dexter/dexter_train.data": "19f6a64c41bedd198f61b919f8b8bca98ee1173ca60db45f3aa980f1294d1fd0",
    "nips2003/dexter/dexter_train.labels": "903477b77d8a81cc56828bb25626cd05a7fc95e3b67b6358faeee7cbdd85dbbc",
    "faces/yale/Yale_32x32.mat": "beb3cc9f448c1ab786583c8f5429368c299843ee88263f9650ed463004ef7633",
    # the selection suite (MANIFEST.md, section "The selection suite")
    "suite/asu/9_Tumor.mat": "a6cd9e403ab167aca32840cd66db17d923986faa43fb95a62ead566368e3e7bb",
    "suite/asu/Adenoma.mat": "b6deab8f0bd9f76dc02831b2f5da34e034dc26a4a73d6505a06e57f9b0b833e2",
    "suite/asu/Brain_Tumor_2.mat": "741cdfaf83ed6693682dc816434310bd8e5865f936e8a63c70e304569567a2e6",
    "suite/asu/CNS.mat": "388304da7074cb899bfd11ecdea3d8c2e491b167743c20af77047a8f738e41ef",
    "suite/asu/DLBCL.mat": "02239e76799369e3bded07dcdcb02080e96218e89f7b0c720a5b928c6f62d42a",
    "suite/asu/GLIOMA.mat": "1aa2cab909dcd0b8335117c464925f96e6e0da6654221948ce75134fc03017b7",
    "suite/asu/Prostate_GE.mat": "70db27ff569c58336ca628b56956e56f8a34feab8e487a45efd28fcf661ea0c7",
    "suite/asu/TOX_171.mat": "dde8327b7f40b8ef6a3acea73afeb2a06ad46b7aac6a69d6bc557d57461edf21",
    "suite/asu/nci9.mat": "51d5d6386ae880bdebf1855ffd01fb22c9c23c04be12a1f26bd7f4bcecf69e63",
    "suite/asu/lung_discrete.mat": "097fbbfa7486949b3d5fda3aecc4b9edba2176115fe81a46c4d4eed1541de92f",
    "suite/asu/ORL.mat": "70aa0106e033ead1bd302c12d8aea52dd6725db5f907f39a9a70eda85128a63b",
    "suite/asu/COIL20.mat": "2a35c105dbb327492b90389e55612bcbf39187bc7c408252239903e4ce7d6958",
    "suite/asu/warpAR10P.mat": "c6e18c4ba7dc9a4f9fbc890837d35c8cd37fded4f863850ba8cb776b8abc98f2",
    "suite/asu/warpPIE10P.mat": "3056e3df44b594e90a8376c827b375dcecb7de60ae1225fb79af60e45697c8de",
    "suite/asu/usps.mat": "c82c8597595774044182a2776999ca19fcec42c0ae561db1d85333d0e3d37ad6",
    "suite/asu/mnist.mat": "1fb8e3de70753bfb8aa1f45e8ec968591d00a0773e2f81558ce222bf20d9114e",
    "suite/asu/binaryalphadigs.mat": "13a5b25f26f75564bfa2de1d776e994ffb0e5923930def10f1d9e84ee7f907c4",
    "suite/asu/MSRA.mat": "9a4c99fb3f05ecb1d98ffc3406adfbb17fa037f95847deeaac943736afc43c2f",
    "suite/asu/Isolet.mat": "9e5a5a33234be965fca9dbc4e02af1517ef03aa53f714a80411e90d91a83d322",
    "suite/asu/PCMAC.mat": "713764d8eec2e7694d0ee2625518bd0504c481943ec3954da634d62a449c42dd",
    "suite/asu/CNAE9.mat": "cc8c4043fca7199c27d5cb6690f548ec3726c64c6d27a0ce02a58d83490bb558",
    "suite/keel/sonar.dat": "3db22f5ece13d019e43617217524f1072b1eae5275c69040517b784c52427b0d",
    "suite/keel/spambase.dat": "4000f307ace66d6e24ab4a017cd5617887ef81a243155a677eafcc1c759d2f32",
    "suite/keel/movement_libras.dat": "9177ab9c7304096022952729e4246028283d9c0fb899eb0f6f85ca3423f6f6ce",
    "suite/keel/optdigits.dat": "ff5bdca1a597fde4361854eeec741dc671a97633a1de46f1ac23fc173f95306b",
    "suite/keel/satimage.dat": "8e7d5263e37bb14dbe49e1a7da24e38fbd0a91b3e9817d59af36852455202110",
    "suite/keel/vehicle.dat": "0b3d1659ded56bdacc90a49fe8d58a90db156532cc3a80e260803df83f29aaa9",
    "suite/keel/texture.dat": "6e2e06ccf0da12bebed463df55bafddd3ae1d37ccbd23c4bbbe597d5d5445ae3",
    "suite/keel/splice.dat": "385c6c37b2120b89d5c4922a7947dc1db925b245e9f33eaf08619cc92e4b011a",
}


class SourceError(ValueError):
    """A source file in shared/data is missing or differs from the manifest."""


def verify_sources(src: Path, files) -> None:
    for rel in files:
        path = src / rel
        if not path.is_file():
            raise SourceError(f"source file {rel} not found under {src}")
        digest = sha256_file(path)
        if digest != SOURCE_SHA256[rel]:
            raise SourceError(f"source file {rel}: sha256 {digest} differs from the manifest "
                              f"value {SOURCE_SHA256[rel]}")


def _shape_of(arrays):
    if "X_shape" in arrays:
        return [int(v) for v in arrays["X_shape"]]
    for key in ("data", "X", "pixels"):
        if key in arrays:
            return list(arrays[key].shape)
    raise KeyError("no data array")


def compose_descr(spec, arrays, meta) -> str:
    shape = _shape_of(arrays)
    target = np.asarray(arrays["target"])
    lines = [f"{spec.title}", "=" * len(spec.title), "",
             f"Loader: fsbook.datasets.{spec.loader}",
             f"Shape: {shape[0]} samples x {shape[1]} features"]
    if target.dtype.kind in "iu":
        counts = np.bincount(target.astype(np.int64), minlength=len(meta["target_names"]))
        lines.append("Classes: " + ", ".join(f"{n} {int(c)}" for n, c in zip(meta["target_names"], counts)))
    else:
        lines.append(f"Target: {meta['target_names'][0]} (continuous)")
    lines += [f"Source: {spec.origin} (shared/data/{', shared/data/'.join(spec.sources)})",
              f"Original publisher: {spec.publisher}", f"Licence: {spec.licence}",
              "Used by: " + ("; ".join(f"{p} {PAPERS[p]}" for p in spec.papers) or spec.used_by or "backup, no paper")]
    for extra in spec.extra_descr:           # the suite's domain and preprocessing (older specs: none)
        lines += textwrap.wrap(extra, 100, subsequent_indent="  ")
    lines += ["", "Differences from the papers' version / edits undone:"]
    lines += textwrap.wrap(spec.differences, 100, initial_indent="  ", subsequent_indent="  ")
    for note in meta.get("notes", []):
        lines += textwrap.wrap(note, 100, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(lines) + "\n"


def _summary(arrays, meta):
    shape = _shape_of(arrays)
    target = np.asarray(arrays["target"])
    if "X_data" in arrays:
        nnz = int(arrays["X_data"].size)
    else:
        key = next(k for k in ("data", "X", "pixels") if k in arrays)
        nnz = int(np.count_nonzero(np.nan_to_num(arrays[key], nan=1.0)))
    return {"shape": shape, "n_classes": int(len(meta["target_names"])) if target.dtype.kind in "iu" else None,
            "density": nnz / float(shape[0] * shape[1])}


def _build_group(specs, src: Path, dest: Path):
    """Parse and write the datasets of one group (the n-gram variants share one corpus)."""
    written, lines, corpus = {}, [], None
    for spec in specs:
        if spec.group:
            from fsbook.datasets._text import read_movie_reviews, webtext_sentences

            readers = {"movie_reviews": read_movie_reviews, "webtext": webtext_sentences}
            if corpus is None:
                corpus = readers[spec.group](src)
            arrays, meta = spec.parse(src, corpus=corpus)
        else:
            arrays, meta = spec.parse(src)
        meta = dict(meta)
        meta.setdefault("notes", [])
        meta["name"] = spec.name
        meta["DESCR"] = compose_descr(spec, arrays, meta)
        meta["summary"] = _summary(arrays, meta)
        meta["source_sha256"] = {f: SOURCE_SHA256[f] for f in spec.sources}
        arrays = dict(arrays)
        arrays["meta"] = encode_meta(meta)
        digest = write_npz(dest / spec.filename, arrays)
        written[spec.filename] = digest
        lines.append(f"{spec.filename:32s} {digest[:16]}  {(dest / spec.filename).stat().st_size:>10,d} B")
    return written, lines


def build(source, dest, names=None, log=print, n_jobs=1) -> dict:
    """Build the datasets ``names`` (default: all) from ``source`` into ``dest``.

    Parameters
    ----------
    source, dest : path-like
    names : list of str, optional
        File stems of the datasets to build (default: all of ``SPECS``).
    log : callable, default print
    n_jobs : int, default 1
        Number of joblib processes (datasets are independent; the output does
        not depend on ``n_jobs``).

    Returns
    -------
    dict ``{filename: sha256}`` of the files written.  ``SHA256SUMS`` in
    ``dest`` is updated (entries of datasets not rebuilt are kept).
    """
    src, dest = Path(source), Path(dest)
    if not src.is_dir():
        raise SourceError(f"source directory {src} does not exist")
    unknown = set(names or ()) - {s.name for s in SPECS}
    if unknown:
        raise ValueError(f"unknown datasets {sorted(unknown)}")
    specs = [s for s in SPECS if names is None or s.name in names]
    verify_sources(src, sorted({f for s in specs for f in s.sources}))
    dest.mkdir(parents=True, exist_ok=True)
    groups = {}
    for spec in specs:
        groups.setdefault(spec.group or spec.name, []).append(spec)
    # largest jobs first so that they start early
    jobs = sorted(groups.values(), key=lambda g: -sum((src / f).stat().st_size for s in g for f in s.sources))
    if n_jobs == 1:
        results = [_build_group(g, src, dest) for g in jobs]
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=n_jobs)(delayed(_build_group)(g, src, dest) for g in jobs)
    written = {}
    for w, lines in results:
        written.update(w)
        for line in lines:
            log(line)
    sums = {}
    sums_path = dest / "SHA256SUMS"
    if names is not None and sums_path.is_file():
        for line in sums_path.read_text().splitlines():
            if line.strip():
                d, n = line.split(None, 1)
                sums[n.strip()] = d
    sums.update(written)
    write_sums(dest, sums)
    return dict(sorted(written.items()))

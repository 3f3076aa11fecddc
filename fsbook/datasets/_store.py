"""Deterministic, checksummed storage of the built datasets.

Each dataset is one zip file ``data/<name>.npz`` holding ``.npy`` members
(readable by :func:`numpy.load`).  The members are written in sorted order
with a fixed timestamp (1980-01-01) and fixed permissions, so rebuilding from
the same sources gives byte-identical files.  ``data/SHA256SUMS`` lists the
sha256 of every file written by the build; the loaders verify it on each read.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import numpy as np

from fsbook.datasets._location import REBUILD_COMMAND, locate, remedy, repo_root

__all__ = ["REBUILD_COMMAND", "DatasetError", "data_dir", "data_size_mb", "read_dataset", "repo_root"]

SUMS_FILE = "SHA256SUMS"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


class DatasetError(OSError):
    """A built dataset file is missing, unreadable or fails its checksum."""


def data_dir() -> Path:
    """The data folder: ``$FSBOOK_DATA_DIR`` if set, else the copy installed with the package
    (``fsbook/_data/data`` of a wheel), else the clone's ``data/`` (see
    :func:`fsbook.datasets._location.locate`)."""
    return locate("data")[0]


def sha256_file(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ----------------------------------------------------------------------------
# writing
def encode_meta(meta: dict) -> np.ndarray:
    """JSON-encode a metadata dict as a uint8 array (sorted keys: deterministic)."""
    text = json.dumps(meta, sort_keys=True, ensure_ascii=False, indent=None)
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8).copy()


def decode_meta(arr: np.ndarray) -> dict:
    return json.loads(bytes(np.asarray(arr, dtype=np.uint8)).decode("utf-8"))


def encode_strings(strings) -> np.ndarray:
    """Newline-joined UTF-8 bytes as a uint8 array (compact for vocabularies)."""
    strings = [str(s) for s in strings]
    for s in strings:
        if "\n" in s:
            raise ValueError(f"string {s!r} contains a newline")
    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8).copy()


def decode_strings(arr: np.ndarray) -> np.ndarray:
    text = bytes(np.asarray(arr, dtype=np.uint8)).decode("utf-8")
    return np.array(text.split("\n") if text else [], dtype=str)


def smallest_uint(max_value: int):
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        if max_value <= np.iinfo(dt).max:
            return dt
    raise ValueError("value too large")


def sparse_arrays(prefix: str, matrix) -> dict:
    """CSR matrix -> dict of arrays with the smallest dtypes that fit."""
    import scipy.sparse as sp

    m = sp.csr_matrix(matrix)
    m.sum_duplicates()
    m.sort_indices()
    data = m.data
    if data.size and np.all(data == np.round(data)) and data.min() >= 0:
        data = data.astype(smallest_uint(int(data.max())))
    return {
        f"{prefix}data": data,
        f"{prefix}indices": m.indices.astype(smallest_uint(max(m.shape[1] - 1, 0))),
        f"{prefix}indptr": m.indptr.astype(smallest_uint(int(m.nnz))),
        f"{prefix}shape": np.array(m.shape, dtype=np.int64),
    }


def sparse_from_arrays(arrays: dict, prefix: str = "X_", dtype=np.int32):
    """Inverse of :func:`sparse_arrays`: a CSR matrix with int32 indices and ``dtype`` values."""
    import scipy.sparse as sp

    shape = tuple(int(v) for v in arrays[f"{prefix}shape"])
    indptr = arrays[f"{prefix}indptr"]
    index_dtype = np.int32 if (indptr.size == 0 or int(indptr[-1]) < 2**31) else np.int64
    return sp.csr_matrix(
        (arrays[f"{prefix}data"].astype(dtype), arrays[f"{prefix}indices"].astype(index_dtype),
         indptr.astype(index_dtype)),
        shape=shape,
    )


def write_npz(path, arrays: dict) -> str:
    """Write ``arrays`` as a byte-deterministic npz; return its sha256."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as zf:
        for key in sorted(arrays):
            arr = np.asarray(arrays[key])
            if arr.dtype == object:
                raise TypeError(f"array {key!r} has dtype object (not allowed)")
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, buf.getvalue(), compresslevel=6)
    os.replace(tmp, path)
    return sha256_file(path)


def write_sums(directory, sums: dict) -> Path:
    directory = Path(directory)
    lines = "".join(f"{sums[name]}  {name}\n" for name in sorted(sums))
    out = directory / SUMS_FILE
    out.write_text(lines, encoding="ascii")
    return out


# ----------------------------------------------------------------------------
# reading
def read_sums(directory) -> dict:
    path = Path(directory) / SUMS_FILE
    if not path.is_file():
        raise DatasetError(
            f"checksum list {path.name} not found in the data folder {Path(directory)}; "
            f"{remedy('data', path.name)}"
        )
    sums = {}
    for line in path.read_text(encoding="ascii").splitlines():
        if line.strip():
            digest, name = line.split(None, 1)
            sums[name.strip()] = digest
    return sums


@functools.lru_cache(maxsize=16)
def _read_verified(path_str: str, size: int, mtime_ns: int, expected: str) -> dict:
    path = Path(path_str)
    digest = sha256_file(path)
    if digest != expected:
        raise DatasetError(
            f"checksum mismatch for data file {path.name} (sha256 {digest[:12]}..., "
            f"expected {expected[:12]}... from {SUMS_FILE}); the file is corrupted or "
            f"stale: {remedy('data', path.name)}"
        )
    try:
        out = {}
        with zipfile.ZipFile(path) as zf:
            for name in zf.namelist():
                with zf.open(name) as fh:
                    out[name[:-4]] = np.lib.format.read_array(fh, allow_pickle=False)
    except Exception as exc:  # zip / npy format errors
        raise DatasetError(
            f"data file {path.name} is unreadable ({exc}); {remedy('data', path.name)}"
        ) from exc
    for arr in out.values():
        arr.flags.writeable = False
    return out


def read_dataset(filename: str) -> dict:
    """Read ``data/<filename>`` after verifying its sha256; arrays are read-only."""
    directory = data_dir()
    path = directory / filename
    if not path.is_file():
        raise DatasetError(
            f"data file {filename} not found in the data folder {directory}; {remedy('data', filename)}"
        )
    sums = read_sums(directory)
    if filename not in sums:
        raise DatasetError(
            f"data file {filename} is not listed in {SUMS_FILE} of {directory}; {remedy('data', SUMS_FILE)}"
        )
    st = path.stat()
    return _read_verified(str(path.resolve()), st.st_size, st.st_mtime_ns, sums[filename])


def data_size_mb() -> float:
    """Total size in MB (10^6 bytes) of the files listed in ``data/SHA256SUMS``."""
    directory = data_dir()
    return sum((directory / name).stat().st_size for name in read_sums(directory)) / 1e6

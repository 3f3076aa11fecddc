"""The results store of a protocol: one packed file per protocol version plus a crash-safe journal.

A protocol's folder (``results/<name>/`` by default) holds

* ``tasks-v<version>.jsonl.gz``: the *pack*, the committed form.  A gzip file (no time stamp, no
  file name, so equal content gives equal bytes) of JSON lines: first a header
  ``{"format": "fsbook-store/1", "protocol", "version", "n_tasks", "keys", "sha256"}`` (the
  sorted task keys, and the SHA-256 of their canonical JSON, a newline and the bytes after the
  header line), then one *record* per task in the order of ``keys``, without its ``key``;
* ``journal-v<version>.jsonl``: records appended (one line each, flushed and synced) as tasks
  finish during a run, so an interrupted run loses at most the task in flight.  The runner merges
  the journal into the pack at the end of every run (also after a failure or an interrupt) and
  then deletes it; a reader loads the pack and any journal left by a crash (later lines win).

A record is ``{"key", "params", "result", "seconds", "machine", "package", "sha256"}``, plus
``"cpu_seconds"`` in records written since CPU time is measured: ``key`` = :func:`task_key`,
``seconds`` the wall-clock time of ``run_task`` where it ran, ``cpu_seconds`` the CPU time of
the worker process over the task (all its threads, and the children it waited for), ``machine``
that machine's ``{"cpu", "cores"}``, ``package`` the fsbook version that computed it (for
information only: it is not part of the key), ``sha256`` the SHA-256 of the canonical JSON of
all the other fields.  A record without ``cpu_seconds`` (written before it was measured, or
where the process ran other tasks at the same time) is as valid as one with it; its checksum is
unchanged.  The format is documented for readers of the repository in ``results/README.md``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import math
import os
import platform
import re
import tempfile
import warnings
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np

import fsbook

#: identifies the layout of a pack (its header line)
STORE_FORMAT = "fsbook-store/1"
#: the fields of one stored task record
RECORD_FIELDS = ("key", "params", "result", "seconds", "machine", "package", "sha256")
#: fields a record may hold besides :data:`RECORD_FIELDS` (absent from the older records)
OPTIONAL_RECORD_FIELDS = ("cpu_seconds",)


class StoreError(LookupError):
    """A protocol's store is missing, outdated (another protocol version) or incomplete."""


# ----------------------------------------------------------------------------- canonical JSON
def to_jsonable(obj):
    """Plain-JSON copy of ``obj``: dict keys become strings, tuples and arrays lists, NumPy
    scalars Python numbers, non-finite floats ``None``.  Raises ``TypeError`` on anything else."""
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return v if math.isfinite(v) else None
    raise TypeError(f"not JSON-serialisable: {type(obj).__name__} {obj!r}")


def _not_plain(obj):
    raise TypeError("not plain JSON")


#: in the fast path's text, a sign of a ``True``, ``False`` or ``None`` dict key, which
#: :func:`to_jsonable` spells differently from :func:`json.dumps`
_SPECIAL_KEY = re.compile(r'"(?:true|false|null)":')


def canonical_json(obj) -> str:
    """Canonical JSON text of ``to_jsonable(obj)`` (sorted keys, no spaces); equal for equal
    content.

    Fast path: :func:`json.dumps` of ``obj`` itself, used when it succeeds without help (only
    dicts with str, int or float keys, lists, tuples, str, int, float, bool and ``None``,
    finite floats) and shows no key that could have been ``True``, ``False`` or ``None``; on
    such input it equals the reference path, :func:`to_jsonable` then :func:`json.dumps`
    (tested on both kinds of input).
    """
    try:
        text = json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False, default=_not_plain)
        if not _SPECIAL_KEY.search(text):
            return text
    except (TypeError, ValueError):
        pass
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)


def normalise(obj):
    """``obj`` as it reads back from JSON (see :func:`to_jsonable`)."""
    return json.loads(canonical_json(obj))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def task_key(protocol, params: dict) -> str:
    """Store key of one task: the first 32 hex digits of the SHA-256 of the canonical JSON of
    ``{"protocol": name, "version": version, "params": params}``.

    The package version is not part of the key: a new fsbook release reuses the stored tasks;
    a change that alters a protocol's results must bump the protocol's ``version``.
    """
    return key_of_canonical(protocol, canonical_json(params))


def key_of_canonical(protocol, params_json):
    """:func:`task_key` from the canonical JSON text of the parameters (no second conversion),
    or the list of keys of a list of such texts: the canonical JSON of ``{"params",
    "protocol", "version"}`` is assembled in that (sorted) order."""
    tail = ',"protocol":' + _dumps(protocol.name) + ',"version":' + _dumps(str(protocol.version)) + "}"
    if isinstance(params_json, str):
        return sha256('{"params":' + params_json + tail)[:32]
    return [sha256('{"params":' + text + tail)[:32] for text in params_json]


# ----------------------------------------------------------------------------- records
@lru_cache(maxsize=1)
def machine_facts() -> dict:
    """``{"cpu": model name, "cores": logical CPUs}`` of the machine running this process."""
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu or platform.processor() or platform.machine(), "cores": os.cpu_count()}


def machine_words(machine: dict) -> str:
    """A machine of :func:`machine_facts` as the book names it.

    >>> machine_words({"cpu": "Xeon", "cores": 2})
    'Xeon, 2 logical CPUs'
    """
    return f"{machine['cpu']}, {machine['cores']} logical CPUs"


def _dumps(obj) -> str:
    """Canonical JSON of plain JSON data (as :func:`canonical_json`, without its conversion)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def record_checksum(record: dict) -> str:
    """SHA-256 of the canonical JSON of every field of ``record`` but ``sha256``."""
    return sha256(_dumps({k: v for k, v in record.items() if k != "sha256"}))


def make_record(key, params, result, seconds, machine, cpu_seconds=None) -> dict:
    """A stored task record with its checksum.

    Parameters
    ----------
    key, params, result, machine
        The record's fields (see the module's docstring).
    seconds : float or None
        Wall-clock time of the task, rounded to 0.1 ms.
    cpu_seconds : float or None, optional
        CPU time of the task, rounded to 0.1 ms; ``None`` (unknown) leaves the field out, so
        the record has the fields of the records written before CPU time was measured.

    Returns
    -------
    dict

    Examples
    --------
    >>> from fsbook.experiments._store import check_record, make_record
    >>> rec = make_record("k", {}, {}, 2.00004, {}, cpu_seconds=0.51234)
    >>> rec["seconds"], rec["cpu_seconds"], check_record(rec) is rec
    (2.0, 0.5123, True)
    >>> "cpu_seconds" in make_record("k", {}, {}, 2.0, {})
    False
    """
    record = {"key": key, "params": params, "result": result,
              "seconds": None if seconds is None else round(float(seconds), 4),
              "machine": machine, "package": fsbook.__version__}
    if cpu_seconds is not None:
        record["cpu_seconds"] = round(float(cpu_seconds), 4)
    record["sha256"] = record_checksum(record)
    return record


def check_record(record, protocol=None) -> dict:
    """``record`` if it is a well-formed record whose checksum (and, with ``protocol``, key)
    verifies; raises ``ValueError`` otherwise.  A record has every field of
    :data:`RECORD_FIELDS` and may have those of :data:`OPTIONAL_RECORD_FIELDS`."""
    if not isinstance(record, dict) or not set(RECORD_FIELDS) <= set(record) \
            or not set(record) <= set(RECORD_FIELDS) | set(OPTIONAL_RECORD_FIELDS):
        raise ValueError("not a task record")
    if record["sha256"] != record_checksum(record):
        raise ValueError(f"task {record['key']} fails its checksum")
    if protocol is not None and record["key"] != task_key(protocol, record["params"]):
        raise ValueError(f"task {record['key']} is keyed for other parameters or another protocol version")
    return record


# ----------------------------------------------------------------------------- files
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so
    a reader sees either the old file or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())          # as an ordinary new file, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write(path: Path, text: str) -> None:
    _atomic_write_bytes(Path(path), text.encode("utf-8"))


def _safe_version(version) -> str:
    v = str(version)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", v):
        raise ValueError(f"a protocol version must be letters, digits, '.', '_' or '-', got {v!r}")
    return v


_STORE_FILE = re.compile(r"(?:tasks-v(?P<pack>.+)\.jsonl\.gz|journal-v(?P<journal>.+)\.jsonl)")


def _pack_digest(keys, body: bytes) -> str:
    """SHA-256 of a pack's keys (canonical JSON, then a newline) and records (its body)."""
    return hashlib.sha256((_dumps(keys) + "\n").encode("utf-8") + body).hexdigest()


class Store:
    """The store of one protocol version in ``folder``.

    Parameters
    ----------
    folder : path
        The protocol's results folder, e.g. ``results/projection``.
    protocol : Protocol
        Its ``name`` and ``version`` select the files ``tasks-v<version>.jsonl.gz`` and
        ``journal-v<version>.jsonl``.
    """

    def __init__(self, folder, protocol):
        self.folder = Path(folder)
        self.protocol = protocol
        version = _safe_version(protocol.version)
        self.pack_path = self.folder / f"tasks-v{version}.jsonl.gz"
        self.journal_path = self.folder / f"journal-v{version}.jsonl"

    # -- inspection
    def exists(self) -> bool:
        """Whether a pack or a journal of this version is present."""
        return self.pack_path.exists() or self.journal_path.exists()

    def other_versions(self) -> list:
        """Versions of the other packs and journals in the folder (sorted)."""
        if not self.folder.is_dir():
            return []
        found = set()
        for p in self.folder.iterdir():
            m = _STORE_FILE.fullmatch(p.name)
            if m:
                found.add(m.group("pack") or m.group("journal"))
        found.discard(str(self.protocol.version))
        return sorted(found)

    def older_versions(self) -> list:
        """The versions of :meth:`other_versions` older than the protocol's (numeric versions
        compared as numbers; a version that is not a number counts as older only if the
        protocol's is not a number either and sorts after it)."""
        cur = str(self.protocol.version)

        def older(v):
            if v.isdigit() and cur.isdigit():
                return int(v) < int(cur)
            return not v.isdigit() and not cur.isdigit() and v < cur
        return [v for v in self.other_versions() if older(v)]

    def newest_older_version(self):
        """The newest of :meth:`older_versions` (by the same rule: numbers as numbers), or ``None``."""
        older = self.older_versions()
        if not older:
            return None
        return max(older, key=lambda v: int(v) if v.isdigit() else v)   # all numbers or none (older_versions)

    def legacy_layout(self) -> bool:
        """Whether the folder holds task files of the first runner (``tasks/<key>.json``)."""
        return (self.folder / "tasks").is_dir()

    def check_layout(self) -> None:
        """Refuse a folder written by the first runner (its keys included the package version
        and its records no cost): it is not read, and not silently mixed with a store."""
        if self.legacy_layout():
            raise StoreError(
                f"{self.folder / 'tasks'} holds task files of the old per-file layout (fsbook-task/1), "
                "which this runner does not read; delete that folder (and results.json) and rerun "
                f"`python -m fsbook.experiments {self.protocol.name} --out {self.folder}`")

    # -- reading
    def _header(self, f) -> dict:
        """Read and check the pack's header line from the open gzip file ``f``."""
        try:
            header = json.loads(f.readline())
        except (OSError, EOFError, ValueError) as e:
            raise ValueError(f"unreadable pack {self.pack_path}: {e}") from None
        expected = {"format": STORE_FORMAT, "protocol": self.protocol.name,
                    "version": str(self.protocol.version)}
        if not isinstance(header, dict) or {k: header.get(k) for k in expected} != expected \
                or not isinstance(header.get("keys"), list):
            raise ValueError(f"{self.pack_path} is not a {STORE_FORMAT} pack of "
                             f"{self.protocol.name} version {self.protocol.version}")
        return header

    def keys(self) -> set:
        """Keys of the stored tasks, from the pack's header and the journal, without reading
        the pack's records (fast: for completeness checks)."""
        keys = set()
        if self.pack_path.exists():
            with gzip.open(self.pack_path, "rb") as f:
                keys.update(self._header(f)["keys"])
        if self.journal_path.exists():
            keys.update(self._journal(lambda message: None))
        return keys

    def _journal(self, bad) -> dict:
        records = {}
        with open(self.journal_path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, start=1):
                try:
                    rec = check_record(json.loads(line), self.protocol)
                    records[rec["key"]] = rec
                except (ValueError, KeyError, TypeError) as e:
                    bad(f"{self.journal_path} line {n}: {e}")
        return records

    def load(self, strict: bool = False, audit: bool = False) -> dict:
        """``{key: record}`` of the pack and the journal (journal lines win).

        The pack's keys and records are checked against the SHA-256 in its header; when it
        matches, its records are taken as written (fast), otherwise (or with ``audit``) every
        record's checksum and key are checked.  Journal records are always checked.  A damaged
        record (torn journal line, failed checksum, wrong key) is skipped with a
        ``RuntimeWarning`` (the runner then recomputes it); with ``strict`` it raises
        ``ValueError`` instead.  A pack that is unreadable, truncated or of another protocol or
        version always raises.
        """
        records = {}

        def bad(message):
            if strict:
                raise ValueError(message)
            warnings.warn(f"{message}; recomputing this task", RuntimeWarning, stacklevel=3)

        if self.pack_path.exists():
            try:
                with gzip.open(self.pack_path, "rb") as f:
                    header = self._header(f)
                    body = f.read()
            except (OSError, EOFError) as e:
                raise ValueError(f"unreadable pack {self.pack_path}: {e}") from None
            keys, lines = header["keys"], body.decode("utf-8", errors="replace").splitlines()
            if len(lines) != len(keys):
                raise ValueError(f"{self.pack_path} lists {len(keys)} tasks but holds {len(lines)}")
            check = audit or header.get("sha256") != _pack_digest(keys, body)
            for n, (key, line) in enumerate(zip(keys, lines), start=2):
                try:
                    rec = {"key": key, **json.loads(line)}
                    if check:
                        check_record(rec, self.protocol)
                    records[key] = rec
                except (ValueError, KeyError, TypeError) as e:
                    bad(f"{self.pack_path} line {n}: {e}")
        if self.journal_path.exists():
            records.update(self._journal(bad))
        return records

    # -- writing
    @contextmanager
    def writing(self):
        """Hold the store's lock file ``.lock`` (an exclusive ``flock``) while writing: a
        second run into the same folder stops with an error instead of packing over the first
        one's records."""
        import fcntl

        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".lock", "a") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise StoreError(f"another run is writing the store {self.folder}; wait for it to "
                                 "finish (runs into one folder cannot overlap)") from None
            try:
                yield self
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def append(self, record: dict) -> None:
        """Append one record to the journal: one write of one line, flushed and synced."""
        self.folder.mkdir(parents=True, exist_ok=True)
        line = (_dumps(record) + "\n").encode("utf-8")
        with open(self.journal_path, "ab+") as f:
            if f.tell() > 0:                # after a crash mid-line: start on a fresh line
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    line = b"\n" + line
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def pack(self, records: dict) -> Path:
        """Write ``records`` (each checked against its checksum) as the pack (sorted by key,
        deterministic bytes, the body's SHA-256 in the header), then delete the
        journal and the packs and journals of older versions (superseded: their results are
        no longer what the code computes; git keeps them).  A *newer* version's files are kept:
        they are a pending store being built while the code still reads this version."""
        for k, rec in records.items():
            if rec.get("key") != k or rec.get("sha256") != record_checksum(rec):
                raise ValueError(f"refusing to pack task {k}: its record fails its checksum")
        keys = sorted(records)
        body = "".join(_dumps({f: v for f, v in records[k].items() if f != "key"}) + "\n"
                       for k in keys).encode("utf-8")
        header = {"format": STORE_FORMAT, "protocol": self.protocol.name, "version": str(self.protocol.version),
                  "n_tasks": len(keys), "keys": keys, "sha256": _pack_digest(keys, body)}
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
            gz.write((_dumps(header) + "\n").encode("utf-8") + body)
        data = buf.getvalue()
        if not (self.pack_path.exists() and self.pack_path.read_bytes() == data):
            _atomic_write_bytes(self.pack_path, data)
        if self.journal_path.exists():
            self.journal_path.unlink()
        for v in self.older_versions():
            for old in (self.folder / f"tasks-v{v}.jsonl.gz", self.folder / f"journal-v{v}.jsonl"):
                if old.exists():
                    old.unlink()
                    warnings.warn(f"removed {old}: version {v} of {self.protocol.name} is superseded by "
                                  f"version {self.protocol.version}", RuntimeWarning, stacklevel=2)
        return self.pack_path

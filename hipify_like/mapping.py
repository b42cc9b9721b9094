"""The mapping database: one record per CUDA name, loaded once from ``data/*.tsv``.

Each ``data/<library>.tsv`` file holds the entries of one library family. Columns:

``cuda``
    The CUDA spelling. Its form depends on the kind: an identifier (``cudaMalloc``), a qualified name
    (``at::cuda``, ``DeviceType::CUDA``: matched as a token sequence), a member (``.is_cuda``: matched only
    after ``.`` or ``->``), a header path (``cuda_runtime.h``), a library name without ``lib`` and suffix
    (``cudart``), an architecture (``sm_80``) or a dispatch key (``CUDA``).
``musa``
    The MUSA spelling, in the same form; empty when there is none.
``kind``
    One of :class:`Kind`.
``status``
    One of :class:`Status`.
``evidence``
    ``inventory`` when the MUSA name is a row of ``data/inventory/musa_api_inventory.tsv``; otherwise a
    citation (``owner/repo:path``, a URL, or a reference note and section) for the MUSA name, or for the
    absence of one.
``note``
    Free text: what a human must do for ``manual`` entries, why an entry is ``unsupported``.

Example::

    >>> db = load_db()
    >>> db.identifier("cudaMalloc").musa
    'musaMalloc'
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from torchada_build.core.errors import TorchadaError

__all__ = [
    "DATA_DIR",
    "Entry",
    "Kind",
    "MappingDB",
    "MappingError",
    "Status",
    "load_db",
]

DATA_DIR = Path(__file__).parent / "data"
COLUMNS = ("cuda", "musa", "kind", "status", "evidence", "note")


class MappingError(TorchadaError, ValueError):
    """A data file breaks the schema (a bad column, a duplicate key)."""


class Kind(enum.Enum):
    FUNCTION = "function"
    TYPE = "type"
    ENUM = "enum"
    ENUMERATOR = "enumerator"
    MACRO = "macro"
    NAMESPACE = "namespace"
    HEADER = "header"
    LIBRARY = "library"
    FILE = "file"
    ARCH = "arch"
    DISPATCH_KEY = "dispatch_key"

    @property
    def is_identifier(self) -> bool:
        """Whether entries of this kind are spelled in source code as identifiers."""
        return self._value_ in _IDENTIFIER_KINDS  # a str: its hash is cached, an Enum's is Python code


_IDENTIFIER_KINDS = frozenset(
    kind.value for kind in (Kind.FUNCTION, Kind.TYPE, Kind.ENUM, Kind.ENUMERATOR, Kind.MACRO, Kind.NAMESPACE)
)


class Status(enum.Enum):
    SUPPORTED = "supported"
    """MUSA has a counterpart; the translator renames to it."""
    UNSUPPORTED = "unsupported"
    """MUSA has none; the translator leaves the name and reports it."""
    MANUAL = "manual"
    """A human must port it; the translator renames when a MUSA name is given, and reports the note."""


_KINDS = {kind.value: kind for kind in Kind}
_STATUSES = {status.value: status for status in Status}
"""Kind and Status by value: a dict lookup, where ``Kind(value)`` runs Enum's Python code."""


class Entry(NamedTuple):
    """One row of a data file. A named tuple: every new process makes ten thousand of them, three times
    faster than frozen dataclass instances (and no module of a port's start-up imports dataclasses)."""

    cuda: str
    musa: str
    kind: Kind
    library: str
    status: Status
    evidence: str
    note: str

    @property
    def renames(self) -> bool:
        """Whether translation changes the CUDA spelling."""
        return bool(self.musa) and self.musa != self.cuda and self.status is not Status.UNSUPPORTED


IDENTIFIER = "identifier"
"""The group of every kind spelled in code as identifiers (:attr:`Kind.is_identifier`): they share one
namespace, so a function and a macro of one name are one key."""
_GROUPS = (IDENTIFIER, *(kind.value for kind in Kind if not kind.is_identifier))


class MappingDB:
    """The entries of the data files in ``data_dir``, in file order, and by group."""

    def __init__(self, entries: tuple[Entry, ...], data_dir: Path, groups: Mapping[str, Mapping[str, Entry]]) -> None:
        self.entries = entries
        self.data_dir = data_dir
        self.groups = groups
        """The entries by group (:data:`IDENTIFIER`, or the value of another kind), each by its CUDA spelling."""

    def __repr__(self) -> str:
        return f"MappingDB({len(self.entries)} entries from {self.data_dir})"

    @functools.cached_property
    def version(self) -> str:
        """The content hash of the data files: the database version used in cache keys."""
        return compute_version(self.data_dir)

    def identifier(self, name: str) -> Entry | None:
        """The entry for a source identifier, qualified name (``at::cuda``) or member (``.is_cuda``)."""
        return self.groups[IDENTIFIER].get(name)

    def header(self, path: str) -> Entry | None:
        return self.groups[Kind.HEADER.value].get(path)

    def library(self, name: str) -> Entry | None:
        """The entry for a library name as ``-l`` spells it (``cudart``)."""
        return self.groups[Kind.LIBRARY.value].get(name)

    def dispatch_key(self, name: str) -> Entry | None:
        return self.groups[Kind.DISPATCH_KEY.value].get(name)

    def of_kind(self, kind: Kind) -> tuple[Entry, ...]:
        group = self.groups[IDENTIFIER if kind.is_identifier else kind.value].values()
        return tuple(e for e in group if e.kind is kind) if kind.is_identifier else tuple(group)


def read_entries(path: Path) -> list[Entry]:
    """Read one data file, checking its header and each row's columns (tab-separated, no quoting)."""
    library = path.stem
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines or tuple(lines[0].split("\t")) != COLUMNS:
        msg = f"{path.name}: the first row must be the tab-separated header {' '.join(COLUMNS)}"
        raise MappingError(msg)
    entries = []
    for number, line in enumerate(lines[1:], start=2):
        row = line.split("\t")
        if len(row) != len(COLUMNS):
            msg = f"{path.name}:{number}: expected {len(COLUMNS)} tab-separated columns, got {len(row)}"
            raise MappingError(msg)
        cuda, musa, kind, status, evidence, note = row
        if kind not in _KINDS or status not in _STATUSES:
            bad = f"{kind!r} is not a valid Kind" if kind not in _KINDS else f"{status!r} is not a valid Status"
            msg = f"{path.name}:{number}: {bad}"
            raise MappingError(msg)
        entries.append(Entry(cuda, musa, _KINDS[kind], library, _STATUSES[status], evidence, note))
    return entries


def data_files(data_dir: Path = DATA_DIR) -> list[Path]:
    return sorted(data_dir.glob("*.tsv"))


def compute_version(data_dir: Path = DATA_DIR) -> str:
    """The content hash of the data files: the database version used in cache keys."""
    import hashlib  # only cache keys need it (OpenSSL's libcrypto loads with it)

    digest = hashlib.sha256()
    for path in [*data_files(data_dir), *sorted(data_dir.glob("architectures/*.tsv"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_db(data_dir: Path = DATA_DIR) -> MappingDB:
    """Load every data file; a key defined twice is an error, never a silent overwrite."""
    groups: dict[str, dict[str, Entry]] = {group: {} for group in _GROUPS}
    entries: list[Entry] = []
    for path in data_files(data_dir):
        for entry in read_entries(path):
            kind = entry.kind._value_
            group = groups[IDENTIFIER if kind in _IDENTIFIER_KINDS else kind]
            first = group.setdefault(entry.cuda, entry)
            if first is not entry:
                msg = f"{entry.cuda!r} is defined twice: in {first.library}.tsv and {entry.library}.tsv"
                raise MappingError(msg)
            entries.append(entry)
    return MappingDB(tuple(entries), data_dir, groups)


@functools.cache
def load_db() -> MappingDB:
    """The database, loaded once per process."""
    return build_db()

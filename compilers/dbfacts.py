"""The few mapping-database facts the driver needs on every run, cached as one small JSON file.

A compile needs the sm → mp architecture table, the library renames (``-lcublas`` → ``-lmublas``)
and the macro renames (``-D__CUDA_NO_HALF_OPERATORS__``). Loading the database for them on every
compile would cost more than the rest of a warm-cache run, so they are written once per database
and translator version under ``<cache>/db/<fingerprint>.json``. The fingerprint is computed from the
file names, sizes and modification times of ``hipify_like``'s code and data, without importing it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

from torchada_build.core.files import write_atomically

__all__ = ["DbFacts", "get_db_facts", "translator_fingerprint"]

_SM_RANGE = range(10, 200)
_FORMAT = 3


def _hipify_like_dir() -> Path:
    spec = importlib.util.find_spec("hipify_like")
    if spec is None or not spec.submodule_search_locations:
        msg = "the hipify_like package (torchada's translator) is not installed"
        raise ImportError(msg)
    return Path(next(iter(spec.submodule_search_locations)))


def translator_fingerprint() -> str:
    """Changes whenever the translator's code or mapping data changes (or is merely touched)."""
    root = _hipify_like_dir()
    digest = hashlib.sha256()
    for path in sorted([*root.glob("*.py"), *root.glob("data/*.tsv"), *root.glob("data/*/*.tsv")]):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:20]


@dataclass(frozen=True)
class DbFacts:
    version: str
    """``hipify_like.mapping.compute_version()``: the content hash of the database."""
    musa_for_sm: dict[int, str]
    """``sm_NN`` → ``mp_XX`` for every NN in 10..199, from the one arch table."""
    musa_arches: tuple[str, ...]
    """The MUSA architectures that are the tier of a CUDA architecture."""
    musa_targets: tuple[str, ...]
    """Every MUSA architecture torch_musa builds for (``data/architectures/musa.tsv``)."""
    cuda_for_musa: dict[str, int]
    """``mp_XX`` → the ``sm_NN`` standing for it (``hipify_like.arch.ArchTable.cuda_for``)."""
    warps: dict[str, int]
    """``mp_XX`` → lanes per warp (``data/architectures/musa.tsv``)."""
    table_sms: tuple[int, ...]
    """The ``sm_NN`` the arch table lists (each maps to its tier; others map to the nearest lower)."""
    libraries: dict[str, str]
    """``-l`` names the database renames: ``cublas`` → ``mublas``."""
    macros: dict[str, str]
    """Macro names the database renames: ``__CUDA_NO_HALF_OPERATORS__`` → its MUSA name."""
    headers: dict[str, str]
    """Header paths the database renames: ``cuda_runtime.h`` → ``musa_runtime.h``."""

    def tier_sm(self, musa_arch: str) -> int | None:
        """The lowest ``sm_NN`` of the table in ``musa_arch``'s tier (mp_22 → 80)."""
        return min((sm for sm in self.table_sms if self.musa_for_sm[sm] == musa_arch), default=None)

    def library(self, name: str) -> str:
        return self.libraries.get(name, name)

    def macro(self, name: str) -> str:
        return self.macros.get(name, name)


def _compute() -> DbFacts:
    from hipify_like.arch import get_arch_table
    from hipify_like.mapping import Kind, compute_version, load_db

    db = load_db()
    table = get_arch_table()
    renamed = [e for e in db.entries if e.renames]
    return DbFacts(
        version=compute_version(),
        musa_for_sm={sm: table.musa_for_sm(sm) for sm in _SM_RANGE},
        musa_arches=table.musa_arches,
        musa_targets=tuple(a.name for a in table.targets),
        cuda_for_musa={a.name: table.cuda_for(a.name) for a in table.targets},
        warps={a.name: a.warp for a in table.targets},
        table_sms=tuple(sorted(table.by_sm)),
        libraries={e.cuda: e.musa for e in renamed if e.kind is Kind.LIBRARY},
        macros={e.cuda: e.musa for e in renamed if e.kind is Kind.MACRO},
        headers={e.cuda: e.musa for e in renamed if e.kind is Kind.HEADER},
    )


def get_db_facts(cache_dir: Path) -> DbFacts:
    path = cache_dir / "db" / f"{translator_fingerprint()}-{_FORMAT}.json"
    try:
        data = json.loads(path.read_text())
        return DbFacts(
            data["version"],
            {int(k): v for k, v in data["musa_for_sm"].items()},
            tuple(data["musa_arches"]),
            tuple(data["musa_targets"]),
            data["cuda_for_musa"],
            data["warps"],
            tuple(data["table_sms"]),
            data["libraries"],
            data["macros"],
            data["headers"],
        )
    except (OSError, ValueError, KeyError):
        pass
    facts = _compute()
    record = {
        "version": facts.version,
        "musa_for_sm": facts.musa_for_sm,
        "musa_arches": facts.musa_arches,
        "musa_targets": facts.musa_targets,
        "cuda_for_musa": facts.cuda_for_musa,
        "warps": facts.warps,
        "table_sms": facts.table_sms,
        "libraries": facts.libraries,
        "macros": facts.macros,
        "headers": facts.headers,
    }
    write_atomically(path, json.dumps(record, indent=1, sort_keys=True).encode(), private=True)
    return facts

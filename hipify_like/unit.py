"""Translate a source file together with the project's own headers that it includes, recursively.

An ``#include`` names a project header when it resolves (quoted: next to the including file first,
then the include directories; angled: the include directories) to an existing file that
``is_project_path`` accepts. By default every path outside the Python installation and the usual
system trees (``/usr``, ``/opt``, the CUDA and MUSA homes) is the project's, and so is every installed
package's but the platform's (:data:`PLATFORM_PACKAGES`: torch, the CUDA wheels). Those headers keep their
names and are translated too, so the translated tree resolves the same includes.

    >>> unit = translate_unit(Path("csrc/kernel.cu"), include_dirs=[Path("csrc/include")])  # doctest: +SKIP
    >>> [f.path for f in unit.files]       # doctest: +SKIP
    ['/proj/csrc/kernel.cu', '/proj/csrc/common.cuh']
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from torchada_build.core.errors import ReadError
from torchada_build.core.files import first_file, read_file

from .findings import Finding
from .tables import Tables, get_tables
from .translate import Translation, project_macros, translate_source

__all__ = [
    "PLATFORM_PACKAGES",
    "FileMemo",
    "IncludeAnswer",
    "IncludeSearch",
    "Unit",
    "is_system_path",
    "resolve_include",
    "search_include",
    "system_roots",
    "translate_unit",
]


PLATFORM_PACKAGES = frozenset({"torch", "torch_musa", "nvidia", "triton", "cuda", "pybind11"})
"""The installed packages whose headers are the platform's (torch's, the CUDA wheels', pybind11's):
never translated. Every other package's headers are code to port, as a JIT library's kernels are
(FlashInfer's ``data/include``, DeepSpeed's ``ops/csrc``, TVM-FFI's CUDA helpers)."""


def system_roots() -> tuple[Path, ...]:
    """Trees whose headers are never the project's: Python's, the system's, CUDA's and MUSA's."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path("/usr"), Path("/opt"), Path("/usr/local/cuda")}
    for variable in ("CUDA_HOME", "CUDA_PATH", "MUSA_HOME", "MUSA_PATH"):
        if os.environ.get(variable):
            roots.add(Path(os.environ[variable]))
    return tuple(sorted(Path(os.path.realpath(r)) for r in roots))


def is_system_path(path: Path, roots: Sequence[Path] | None = None) -> bool:
    """Under a system root, except inside an installed package that is not one of the platform's."""
    real = Path(os.path.realpath(path))
    for marker in ("site-packages", "dist-packages"):
        if marker in real.parts[:-1]:
            package = real.parts[real.parts.index(marker) + 1]
            return package.partition(".")[0] in PLATFORM_PACKAGES
    return any(real.is_relative_to(root) for root in (roots if roots is not None else system_roots()))


class IncludeSearch(NamedTuple):
    """Where one ``#include`` was looked for, in order, and :func:`first_file` of them (None: none was
    a file, as for a system header's name)."""

    candidates: tuple[str, ...]
    found: str | None


class IncludeAnswer(NamedTuple):
    """Whether an ``#include`` of a translated file named one of the project's headers."""

    spelled: str
    angled: bool
    local: bool


class FileMemo(Protocol):
    """Files translated before, in this process or another (torchada-nvcc's cache): a file's
    translation under ``key`` (its path, bytes and the unit's options), with the answers its include
    searches got, which must still hold for it to be reused."""

    def recall(self, key: str, original: bytes) -> tuple[Translation, tuple[IncludeAnswer, ...]] | None: ...

    def keep(self, key: str, translation: Translation, answers: tuple[IncludeAnswer, ...]) -> None: ...


class Unit(NamedTuple):
    """The translated files of one unit, the main source first; paths are absolute."""

    files: tuple[Translation, ...]
    searches: tuple[IncludeSearch, ...] = ()
    """Every ``#include`` search that decided which headers are in the unit."""

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for translation in self.files for f in translation.findings)


def search_include(spelled: str, angled: bool, includer: Path, include_dirs: Iterable[Path]) -> IncludeSearch:
    """Where the compiler looks for ``#include "spelled"`` / ``<spelled>`` from ``includer``, and finds it."""
    directories = [] if angled else [includer.parent]
    directories.extend(include_dirs)
    candidates = tuple(str((directory / spelled).absolute()) for directory in directories)
    return IncludeSearch(candidates, first_file(candidates))


def resolve_include(spelled: str, angled: bool, includer: Path, include_dirs: Iterable[Path]) -> Path | None:
    """Where the compiler would find ``#include "spelled"`` / ``<spelled>`` from ``includer``."""
    found = search_include(spelled, angled, includer, include_dirs).found
    return None if found is None else Path(found)


def _memo_key(path: Path, data: bytes, line_directive: str | None, project_names: frozenset[str]) -> str:
    import hashlib  # only a memo needs it (OpenSSL's libcrypto loads with it)

    options = repr((str(path), line_directive, sorted(project_names))).encode()
    return hashlib.sha256(options + b"\0" + data).hexdigest()


def translate_unit(
    source: Path,
    *,
    include_dirs: Sequence[Path] = (),
    is_project_path: Callable[[Path], bool] | None = None,
    line_directives: bool = False,
    tables: Tables | None = None,
    memo: FileMemo | None = None,
) -> Unit:
    """Translate ``source`` and, transitively, every project header it includes; a file ``memo`` holds
    with the same bytes, options and include answers is not translated again (a header many units
    include, such as a vendored GLM, is translated once a build)."""
    tables = tables or get_tables()
    if is_project_path is None:
        roots = system_roots()

        def is_project_path(path: Path) -> bool:
            return not is_system_path(path, roots)

    include_dirs = [Path(d).absolute() for d in include_dirs]
    found: dict[str, set[Path]] = {}
    searches: dict[IncludeSearch, None] = {}

    def is_local(includer: str, spelled: str, angled: bool) -> bool:
        search = search_include(spelled, angled, Path(includer), include_dirs)
        searches[search] = None
        path = None if search.found is None else Path(search.found)
        if path is None or not is_project_path(path):
            return False
        found.setdefault(includer, set()).add(path)
        return True

    def translate(path: Path, data: bytes, project_names: frozenset[str] = frozenset()) -> Translation:
        line_directive = str(path) if line_directives else None
        key = _memo_key(path, data, line_directive, project_names) if memo is not None else ""
        recalled = memo.recall(key, data) if memo is not None else None
        if recalled is not None and all(is_local(str(path), a.spelled, a.angled) == a.local for a in recalled[1]):
            return recalled[0]
        answers: list[IncludeAnswer] = []

        def answering(includer: str, spelled: str, angled: bool) -> bool:
            answers.append(IncludeAnswer(spelled, angled, is_local(includer, spelled, angled)))
            return answers[-1].local

        translation = translate_source(data, str(path), is_local=answering, report_includes=True, tables=tables,
                                       line_directive=line_directive, project_names=project_names)  # fmt: skip
        if memo is not None:
            memo.keep(key, translation, tuple(answers))
        return translation

    pending = [Path(os.path.normpath(Path(source).absolute()))]
    done: dict[Path, Translation] = {}
    while pending:
        path = pending.pop(0)
        if path not in done:
            try:
                data, _ = read_file(path)
            except ReadError:
                raise
            except OSError as error:
                raise ReadError(str(path), error) from None
            done[path] = translate(path, data)
            pending.extend(sorted(found.get(str(path), ())))
    project_names = project_macros((t.original for t in done.values()), tables)
    if project_names:  # the unit's own CUDA-looking macros: kept in every file of it
        done = {path: translate(path, t.original, project_names) for path, t in done.items()}
    return Unit(tuple(done.values()), tuple(searches))

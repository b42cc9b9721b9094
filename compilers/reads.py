"""What the compiler read: the compiler's own dependency output, checked against what was translated.

torchada finds a unit's headers with its own include search (:mod:`hipify_like.unit`); the compiler
finds them with its own, which also follows computed includes (``#include HDR``), ``-Xcompiler -I``,
``CPATH`` and whatever else its preprocessor does. Every compile of a translated unit therefore writes
a dependency file (``-MD``, as ccache's depend mode asks for one), and after it succeeds each file the
compiler read is checked: one outside the unit's translated tree, outside the cache and outside the
system trees is a project file the compiler read as it is. When its translation is not the file itself
(a CUDA name, a CUDA header, a finding), the build compiled untranslated CUDA: the file is recorded in
the source's manifest as a root of its unit, and the driver translates the unit again and compiles it
once more. A file the compiler still reads untranslated then is an error, never an object built from
untranslated CUDA.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .depfile import parse_depfile
from .errors import TranslationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .units import CachedUnit, UnitRequest

__all__ = ["ReadsCheck", "UntranslatedReadError"]


class UntranslatedReadError(TranslationError):
    """The compiler read project files that hold CUDA, untranslated."""

    def __init__(self, paths: list[str], outputs: tuple[str, ...]) -> None:
        self.paths = paths
        self.outputs = outputs
        names = ", ".join(f"'{p}'" for p in paths)
        super().__init__(
            f"the compiler read {names} untranslated (found where torchada cannot put the translated copy first,"
            " such as an absolute path spelled by a macro); name its directory with -I"
        )


@dataclass(frozen=True)
class ReadsCheck:
    """The check of one compile: ``depfile`` is the compiler's dependency file, ``tree`` the unit's
    translated tree, ``manifest`` where a file found untranslated is recorded for the next translation."""

    depfile: str
    tree: str
    cache_dir: str
    manifest: str
    flags: tuple[str, ...]
    """The command's words that are there for the check alone (none when the user asked for dependencies
    too): a compile memo replays the command without them, and a command that is all check not at all."""
    originals: frozenset[str]
    """The unit's original files. nvcc's dependency file names an original after the ``#line`` directive
    its translated copy starts with: an original counts as read translated when its copy is named too."""
    include_dirs: tuple[str, ...]
    """The unit's include directories: a file under ``<dir>/cutlass/`` (a folder of a library with a MUSA
    port) is a vendored copy of that library, which is the library, as translation takes it
    (:mod:`hipify_like.translate`): loopback reads it where the port is missing, as it reads CUDA's headers."""

    @classmethod
    def of(cls, unit: CachedUnit, request: UnitRequest, depfile: str, cache_dir: Path, flags: tuple[str, ...] = ()) -> ReadsCheck:
        """The check of a compile of ``unit``, the answer to ``request``, that writes ``depfile``."""
        assert unit.manifest is not None
        return cls(depfile, str(unit.tree), str(cache_dir), str(unit.manifest), flags, frozenset(unit.originals),
                   tuple(map(str, request.include_dirs)))  # fmt: skip

    def untranslated(self) -> list[str]:
        """The files the compiler read that translation would have changed."""
        from hipify_like.tables import get_tables
        from hipify_like.translate import translate_source
        from hipify_like.unit import is_system_path, system_roots
        from torchada_build.core.errors import ReadError
        from torchada_build.core.files import read_file

        with open(self.depfile, encoding="utf-8", errors="surrogateescape") as file:
            rules = parse_depfile(file.read())
        libraries = tuple(os.path.join(d, folder, "") for d in self.include_dirs for folder in get_tables().ported_libraries)
        inside = (self.tree + os.sep, self.cache_dir + os.sep, *libraries)
        roots = system_roots()
        found = []
        read = dict.fromkeys(os.path.normpath(os.path.abspath(p)) for _, prerequisites in rules for p in prerequisites)
        for path in read:
            if path in self.originals and os.path.join(self.tree, path.lstrip(os.sep)) in read:
                continue
            if path.startswith(inside) or is_system_path(Path(path), roots):
                continue
            try:
                data, _ = read_file(path)
            except ReadError:
                raise
            except OSError:
                continue  # gone since the compile: the next build's check sees what it reads
            translation = translate_source(data, path)
            if translation.text != data or translation.findings:
                found.append(path)
        return found

    def run(self, outputs: tuple[str, ...]) -> None:
        """Raise :class:`UntranslatedReadError`, having removed ``outputs`` (built from untranslated code)
        and recorded the files, when the compiler read any untranslated."""
        paths = self.untranslated()
        if not paths:
            return
        for output in outputs:
            try:
                os.unlink(output)
            except OSError:
                pass
        from .units import record_discovered

        record_discovered(Path(self.manifest), paths)
        raise UntranslatedReadError(paths, outputs)

"""The translation cache: each source and the project headers it includes, translated once.

A *unit* is a main source plus the project headers it includes (``hipify_like.translate_unit``),
translated and mirrored under ``<cache>/units/<key>/tree/<absolute original path>``: translated files
keep their names, so the compiler, pointed at the mirror of the main file with ``-I<mirror of each
-I dir>`` first, finds the translated headers wherever the original ones were. ``#line`` directives
make diagnostics name the original files.

The key is content-addressed: the bytes of every file in the unit, where each ``#include`` was
searched for and found (or not), the database version, the translator's fingerprint and the options
that change translation (include directories, forced includes, the directories that count as system
ones). Finding the key means knowing the headers, so each main file has a manifest
(``<cache>/manifests/<hash>.json``) listing its recent units with each file's hash and each include
search: a warm run hashes those files and repeats the searches instead of translating (ccache's direct
mode), so a header created, moved or shadowed since makes a new unit.

A new unit translates only the files no unit translated before: each file's translation is kept under
``<cache>/files/<database version>-<fingerprint>/`` by its path, bytes and the options that change it,
with the answers its include searches got (whether each named a project header), and is reused while
those searches still answer the same. A header every unit of a build includes (a vendored GLM) is
translated once.

Units are written under a temporary name and renamed into place, once: no run changes or deletes a
unit, which another may be compiling from. A unit is used only when all its translated files are
there (an age-based cache cleaner may have removed some); one that is not is left alone, and its
replacement is written beside it under another name.

Run as a module, it is the translate job of ``--dryrun`` output:
``python -m torchada_build.compilers.units k.cu -I include`` prints the unit's directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import stat
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from torchada_build.core.errors import WriteError
from torchada_build.core.files import atomic_directory, first_file, locked, make_private_dir, write_atomically

from .cache import open_cache_dir
from .dbfacts import translator_fingerprint
from .depfile import DependencyRewrite
from .errors import InputError, TorchadaError, TranslationError, format_fatal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hipify_like.findings import Finding
    from hipify_like.translate import Translation
    from hipify_like.unit import IncludeAnswer, IncludeSearch

__all__ = ["CachedUnit", "UnitRequest", "get_unit", "record_discovered", "translate_command"]

_FORMAT = 5
_MANIFEST_ENTRIES = 16
_ROOT_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "MUSA_HOME", "MUSA_PATH")


_UNIT_NAME = re.compile(r"[0-9a-f]{32}(?:-[0-9a-f]{8})?")
"""A unit directory's name: its key, and a suffix when an incomplete one of that key was in the way."""


def _traversed_directories(searches: Iterable[IncludeSearch]) -> set[str]:
    """The directories that an include found through ``..`` passes (``sub`` of ``"sub/../h.cuh"``): the
    compiler, reading the unit's copy, needs them there too, or it finds the untranslated original."""
    directories: set[str] = set()
    for search in searches:
        if search.found is None:
            continue
        for candidate in search.candidates:
            parts = candidate.split(os.sep)
            directories.update(os.sep.join(parts[:i]) for i, part in enumerate(parts) if part == ".." and i > 1)
            if os.path.normpath(candidate) == search.found:
                break
    return {directory for directory in directories if os.path.isdir(directory)}


def _naming_copies(translation: Translation, translations: Mapping[str, Translation]) -> bytes:
    """The translated text, where an ``#include "/abs/h.cuh"`` of a header of the unit names the unit's
    copy of it instead, relative to the includer's copy: the compiler opens an absolute path as written,
    which is the untranslated original."""
    text = translation.text
    copies = [(include.line, include.spelled) for include in translation.includes
              if not include.angled and os.path.isabs(include.spelled)
              and os.path.normpath(include.spelled) in translations]  # fmt: skip
    if not copies:
        return text
    lines = text.splitlines(keepends=True)
    shift = len(lines) - len(translation.original.splitlines())  # the #line directive put first, if any
    for line, spelled in copies:
        relative = os.path.relpath(_relative(spelled), os.path.dirname(_relative(translation.path)))
        quoted = b'"' + os.fsencode(spelled) + b'"'
        lines[line - 1 + shift] = lines[line - 1 + shift].replace(quoted, b'"' + os.fsencode(relative) + b'"', 1)
    return b"".join(lines)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _relative(path: str) -> str:
    return os.path.normpath(path).lstrip(os.sep)


@dataclass(frozen=True)
class CachedUnit:
    root: Path
    originals: tuple[str, ...]
    """Absolute original paths, the main source first."""
    findings: tuple[Finding, ...]
    """What the translator found in the unit's files."""
    cuda_free: bool = False
    """Whether no file of the unit names anything of CUDA's (:attr:`hipify_like.translate.Translation.cuda_free`):
    such a unit compiles as it is, for MUSA as for CUDA."""
    inputs: _Inputs | None = field(default=None, compare=False)
    """What decided the unit (when :func:`get_unit` returned it): its files' hashes and include searches."""
    manifest: Path | None = field(default=None, compare=False)
    """The manifest of its source (when :func:`get_unit` returned it)."""
    _reported: dict[Path, bool] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tree(self) -> Path:
        return self.root / "tree"

    def findings_applying(self, left_out: Collection[str] = ()) -> list[Finding]:
        """:attr:`findings` but those of the rules ``left_out`` (which do not apply to this compile)."""
        return [f for f in self.findings if f.rule not in left_out]

    def findings_to_print(self, left_out: Collection[str] = ()) -> list[Finding]:
        """:attr:`findings` but those of the rules ``left_out`` (which do not apply to this compile), less
        those of headers already printed in this build session.

        A project header's findings are the same in every unit that includes it; they print with the
        first unit of the session (the terminal or CI job running the build) that includes the header,
        the main source's always. A marker per header, the findings printed and session under
        ``<cache>/reported`` records it.
        """
        main = self.originals[0]
        kept = self.findings_applying(left_out)
        by_header: dict[str, list[Finding]] = {}
        for finding in kept:
            if finding.path != main:
                by_header.setdefault(finding.path, []).append(finding)
        first = {header: self._first_report(header, [f.format() for f in found]) for header, found in by_header.items()}
        return [f for f in kept if f.path == main or first[f.path]]

    def _first_report(self, header: str, lines: list[str]) -> bool:
        marker = self.root.parent.parent / "reported" / str(os.getsid(0)) / _digest("\n".join(lines).encode())
        if marker in self._reported:
            return self._reported[marker]
        try:
            make_private_dir(marker.parent)
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            first = True
        except FileExistsError:
            first = False
        except OSError:  # an unwritable cache: better twice than never
            first = True
        self._reported[marker] = first
        return first

    @property
    def main(self) -> Path:
        return self.mirror(self.originals[0])

    def mirror(self, original: str | Path) -> Path:
        return self.tree / _relative(str(original))

    def rewrite(self, written: str, final: str | None, target: str | None, phony: bool, source: str) -> DependencyRewrite:
        """The rewrite of the dependency file ``written`` that the compiler of this unit wrote, naming
        ``source`` (the main file as the command line gave it) and the originals of mirrored headers."""
        return DependencyRewrite(written, final, target, phony, source, str(self.main), str(self.tree))

    @property
    def original_dirs(self) -> list[str]:
        """The directories of the original files: where an include of an untranslated sibling header
        is found (the compiler gets them as ``-idirafter``, searched after the translated copies; an
        ``-iquote`` would be searched first and let an original header shadow its translation)."""
        return list(dict.fromkeys(os.path.dirname(o) for o in self.originals))

    def search_dirs(self, directory: str) -> list[str]:
        """An include directory's translated copy (when the unit has one), then the directory itself."""
        mirror = self.mirrored_dir(Path(directory).absolute())
        return ([str(mirror)] if mirror is not None else []) + [directory]

    def pre_include(self, path: str) -> str:
        """A forced include: its translated copy when it is a project header of the unit."""
        mirror = self.mirror(Path(path).absolute())
        return str(mirror) if mirror.is_file() else path

    def mirrored_dir(self, directory: Path) -> Path | None:
        """The mirror of an include directory, when the unit translated something under it."""
        mirror = self.mirror(directory)
        return mirror if mirror.is_dir() else None


@dataclass(frozen=True)
class UnitRequest:
    source: Path
    include_dirs: tuple[Path, ...] = ()
    pre_includes: tuple[Path, ...] = ()
    pre_include_searches: tuple[tuple[tuple[str, ...], str | None], ...] = field(default=(), compare=False)
    """How each ``-include`` was found (its candidates in order, then the first that is a file): a header
    that appears earlier in that order makes another unit, which the compile memo checks for."""

    @classmethod
    def of(cls, source: Path, include_dirs: Sequence[Path], pre_include_values: Sequence[str]) -> UnitRequest:
        """The request for ``source``, with the forced includes (``-include``) that are the project's own,
        each found as the compiler finds it: the working directory, then each include directory (a system
        header is left to the compiler)."""
        searches = []
        for value in pre_include_values:
            candidates = tuple(os.path.join(str(directory), value) for directory in (os.getcwd(), *include_dirs))
            searches.append((candidates, first_file(candidates)))
        found = [Path(path) for _, path in searches if path is not None]
        if found:
            from hipify_like.unit import is_system_path

            found = [path for path in found if not is_system_path(path)]
        return cls(source, tuple(include_dirs), tuple(found), tuple(searches))

    def options_key(self) -> list[object]:
        roots = [sys.prefix, *(os.environ.get(v, "") for v in _ROOT_VARIABLES)]
        return [_FORMAT, [str(d) for d in self.include_dirs], [str(p) for p in self.pre_includes], roots]

    def manifest_path(self, cache_dir: Path, fingerprint: str) -> Path:
        key = json.dumps([str(self.source), fingerprint, self.options_key()]).encode()
        return cache_dir / "manifests" / f"{_digest(key)[:32]}.json"


@dataclass(frozen=True)
class _Inputs:
    """What decides a unit: each file's path and hash, and each include search (its candidates in
    order, then what was found: the first that is a file, or None)."""

    files: list[list[str]]
    """``[path, sha256]``"""
    searches: list[tuple[list[str], str | None]]
    """``(candidates, found)``"""

    def match(self) -> bool:
        """Whether the files and the searches are still what they were."""
        if not self.files:
            return False
        if any(first_file(candidates) != found for candidates, found in self.searches):
            return False
        for path, digest in self.files:
            try:
                if _digest(Path(path).read_bytes()) != digest:
                    return False
            except OSError:
                return False
        return True


def _load(root: Path) -> CachedUnit | None:
    """The unit at ``root``, when it is complete and as it was written: a real directory, its record,
    and every translated file there a regular file with the bytes it was written with (an edit in the
    cache that keeps the size is a changed unit too: it is translated again beside it)."""
    try:
        if root.is_symlink():
            return None
        from hipify_like.findings import Finding

        data = json.loads((root / "unit.json").read_text())
        findings = tuple(Finding(*finding) for finding in data["findings"])
        unit = CachedUnit(root, tuple(data["originals"]), findings, data["cuda_free"])
        for original, digest in zip(unit.originals, data["digests"], strict=True):
            fd = os.open(unit.mirror(original), os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as file:
                if not stat.S_ISREG(os.fstat(fd).st_mode) or _digest(file.read()) != digest:
                    return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return unit


def _read_manifest(manifest: Path) -> dict[str, list[object]]:
    try:
        document = json.loads(manifest.read_text())
        return {"entries": list(document["entries"]), "discovered": list(document.get("discovered", []))}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {"entries": [], "discovered": []}


def _discovered(manifest: Path) -> list[Path]:
    """The files the compiler read untranslated in earlier builds of the source (:mod:`.reads`) that
    still exist: roots of its unit from then on."""
    paths = _read_manifest(manifest)["discovered"]
    return [Path(p) for p in paths if isinstance(p, str) and os.path.isabs(p) and os.path.isfile(p)]


def record_discovered(manifest: Path, paths: Iterable[str]) -> None:
    """Add ``paths`` to the manifest's discovered roots, under its lock."""
    make_private_dir(manifest.parent)
    with locked(manifest):
        document = _read_manifest(manifest)
        document["discovered"] = list(dict.fromkeys([*document["discovered"], *paths]))
        write_atomically(manifest, json.dumps(document, indent=1).encode(), private=True)


def _lookup(manifest: Path, cache_dir: Path, discovered: Sequence[Path]) -> tuple[CachedUnit, _Inputs] | None:
    try:
        for entry in _read_manifest(manifest)["entries"]:
            if not isinstance(entry, dict):
                continue
            inputs = _Inputs(entry["files"], entry["searches"])
            members = {path for path, _ in inputs.files}
            if not all(str(p) in members for p in discovered):
                continue
            if _UNIT_NAME.fullmatch(entry["unit"]) and inputs.match():  # a name, never a path out of units/
                unit = _load(cache_dir / "units" / entry["unit"])
                if unit is not None:
                    return unit, inputs
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None


def _record(manifest: Path, name: str, inputs: _Inputs) -> None:
    """Put the unit first in the manifest, under its lock: parallel builds of one source keep every entry."""
    with locked(manifest):
        document = _read_manifest(manifest)
        entry = {"unit": name, "files": inputs.files, "searches": inputs.searches}
        entries = [entry] + [e for e in document["entries"] if not isinstance(e, dict) or e.get("unit") != name]
        document["entries"] = entries[:_MANIFEST_ENTRIES]
        write_atomically(manifest, json.dumps(document, indent=1).encode(), private=True)


class _FileMemo:
    """The translations of single files under ``<cache>/files/<database version>-<fingerprint>/``, one
    JSON record each, which every unit of every build with this cache shares (:class:`hipify_like.unit.FileMemo`).
    A record that cannot be read, or whose text is not the bytes it was written with, is no record."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def recall(self, key: str, original: bytes) -> tuple[Translation, tuple[IncludeAnswer, ...]] | None:
        from collections import Counter

        from hipify_like.findings import Finding
        from hipify_like.translate import Include, Translation
        from hipify_like.unit import IncludeAnswer

        try:
            record = json.loads((self.directory / f"{key}.json").read_bytes())
            text = record["text"].encode("latin-1")
            if _digest(text) != record["digest"]:
                return None
            translation = Translation(
                record["path"], original, text, tuple(Finding(*f) for f in record["findings"]), Counter(record["renamed"]),
                tuple(Include(*i) for i in record["includes"]), record["cuda_free"],
            )  # fmt: skip
            return translation, tuple(IncludeAnswer(*a) for a in record["answers"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def keep(self, key: str, translation: Translation, answers: tuple[IncludeAnswer, ...]) -> None:
        record = {
            "path": translation.path, "text": translation.text.decode("latin-1"), "digest": _digest(translation.text),
            "findings": translation.findings, "renamed": translation.renamed, "includes": translation.includes,
            "cuda_free": translation.cuda_free, "answers": answers,
        }  # fmt: skip
        try:
            write_atomically(self.directory / f"{key}.json", json.dumps(record).encode(), private=True)
        except WriteError:  # a memo that cannot be written is one that is not there: the unit is still right
            pass


def _translate(request: UnitRequest, cache_dir: Path, fingerprint: str, discovered: Sequence[Path]) -> tuple[CachedUnit, _Inputs]:
    from hipify_like.mapping import compute_version
    from hipify_like.unit import translate_unit

    translations: dict[str, Translation] = {}
    searches: dict[IncludeSearch, None] = {}
    version = compute_version()
    memo = _FileMemo(cache_dir / "files" / f"{version}-{fingerprint}")
    for root in (request.source, *request.pre_includes, *discovered):
        translated = translate_unit(root, include_dirs=list(request.include_dirs), line_directives=True, memo=memo)
        for translation in translated.files:
            translations.setdefault(translation.path, translation)
        searches.update(dict.fromkeys(translated.searches))
    inputs = _Inputs(
        [[path, _digest(t.original)] for path, t in translations.items()],
        [(list(search.candidates), search.found) for search in searches],
    )
    identity = [version, fingerprint, request.options_key(), inputs.files, inputs.searches]
    key = _digest(json.dumps(identity).encode())[:32]
    findings = [f for t in translations.values() for f in t.findings]
    texts = {path: _naming_copies(t, translations) for path, t in translations.items()}
    record = {
        "originals": list(translations),
        "digests": [_digest(text) for text in texts.values()],
        "findings": findings,
        "cuda_free": all(t.cuda_free for t in translations.values()),
    }
    final = cache_dir / "units" / key
    unit: CachedUnit | None = _load(final)
    if unit is None and os.path.lexists(final):
        unit = _load(final)  # a parallel build may have renamed it into place since
        if unit is None:  # incomplete: whoever uses it keeps it; this unit goes beside it
            final = final.with_name(f"{key}-{secrets.token_hex(4)}")
    if unit is None:
        try:
            with atomic_directory(final) as temporary:
                for path, text in texts.items():
                    target = temporary / "tree" / _relative(path)
                    make_private_dir(target.parent)
                    target.write_bytes(text)
                for directory in _traversed_directories(searches):
                    make_private_dir(temporary / "tree" / _relative(directory))
                (temporary / "unit.json").write_text(json.dumps(record, indent=1))
        except OSError as error:  # a full disk, an unwritable units/: nothing of the unit is left
            raise WriteError(str(final), error) from None
        unit = _load(final)
        if unit is None:
            msg = f"the translation cache changed while this build wrote '{final}'"
            raise TranslationError(msg)
    return unit, inputs


def get_unit(request: UnitRequest, cache_dir: Path) -> CachedUnit:
    """The translated unit of ``request``: from the cache when its inputs are unchanged."""
    if not request.source.is_file() or not os.access(request.source, os.R_OK):
        msg = f"cannot read input file '{request.source}'"
        raise InputError(msg)
    fingerprint = translator_fingerprint()
    manifest = request.manifest_path(cache_dir, fingerprint)
    discovered = _discovered(manifest)
    found = _lookup(manifest, cache_dir, discovered)
    if found is None:
        found = _translate(request, cache_dir, fingerprint, discovered)
        _record(manifest, found[0].root.name, found[1])
    unit, inputs = found
    searches = inputs.searches + [(list(candidates), path) for candidates, path in request.pre_include_searches]
    return replace(unit, inputs=_Inputs(inputs.files, searches), manifest=manifest)


def translate_command(request: UnitRequest) -> tuple[str, ...]:
    """The command that makes (or finds) the unit: what ``--dryrun`` prints for the translate job."""
    argv = [sys.executable, "-m", "torchada_build.compilers.units", str(request.source)]
    for directory in request.include_dirs:
        argv += ["-I", str(directory)]
    for path in request.pre_includes:
        argv += ["--pre-include", str(path)]
    return tuple(argv)


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m torchada_build.compilers.units", description=__doc__)
    parser.add_argument("source", type=Path)
    parser.add_argument("-I", dest="include_dirs", action="append", type=Path, default=[])
    parser.add_argument("--pre-include", action="append", type=Path, default=[])
    options = parser.parse_args(argv)
    request = UnitRequest(
        options.source.absolute(),
        tuple(d.absolute() for d in options.include_dirs),
        tuple(p.absolute() for p in options.pre_include),
    )
    try:
        print(get_unit(request, open_cache_dir(os.environ)).root)
    except TorchadaError as error:
        print(format_fatal(str(error)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``torchada-port``: translate CUDA sources to MUSA without touching the originals.

    torchada-port kernel.cu -o musa/kernel.cu       one file (and the project headers it includes); each
                                                    file written is named, and only earlier outputs
                                                    (``musa/.torchada-port.json``) are replaced without --force
    torchada-port kernel.cu                         one file, to standard output
    torchada-port csrc --out-root csrc_musa         a whole tree (other files are copied), in one
                                                    process per core (-j N)
    torchada-port csrc --inplace                    in place, each changed file backed up first
    torchada-port --list-mappings --json            every mapping database entry, for audit

Exit status: 0 when translation found nothing at error level, 1 when it did, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, NoReturn

from torchada_build.core.diagnostics import OUTPUT_IS_SOURCE
from torchada_build.core.errors import TorchadaError, WriteError
from torchada_build.core.files import read_file, write_atomically
from torchada_build.core.inputs import PORTED

from .config import Suppressions, load_config_suppress
from .findings import Finding
from .mapping import load_db
from .report import PortedFile, PortReport
from .tables import INCLUDE_DIRECTIVE, get_tables
from .translate import Translation, project_macros, translate_sources
from .unit import resolve_include, translate_unit
from .workers import forked_workers, split

__all__ = ["console_main", "main"]

SKIPPED_DIRECTORIES = frozenset({".git", ".hg", ".svn", "__pycache__"})
_BATCH = 256
_INCLUDE_WORD = re.compile(rb"(?:" + INCLUDE_DIRECTIVE + rb')[ \t]*(?:<([^>\r\n]*)>|"([^"\r\n]*)")')
"""The end of an ``#include`` line: the directive's name and the header it names (angled, quoted)."""
_INVENTORY = "hipify_like/data/inventory/musa_api_inventory.tsv"
"""Where the evidence column's inventory rows are, in the repository."""
_REFERENCE_NOTES = ("musa_toolchain.md", "musa_inventory.md", "torchada.md")
"""Notes the evidence column cites by section, kept under ``docs/reference/``."""


class UsageError(TorchadaError):
    """A wrong command line or an unusable path: exit status 2."""


class _Parser(argparse.ArgumentParser):
    """``--help`` says what the tool is for first and where its docs are last."""

    def format_help(self) -> str:
        return (
            "torchada-port: translate CUDA C++ sources to MUSA (Moore Threads GPUs), token by token, "
            f"never editing the originals\n\n{super().format_help()}\nDocs: README.md and docs/port.md (torchada's source tree)\n"
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="torchada-port",
        epilog="Exit status: 0 clean, 1 findings at error level, 2 usage error.",
    )
    parser.add_argument("source", nargs="?", type=Path, help="a source file or a directory")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", type=Path, help="output file (a single source; - for standard output)")
    where.add_argument("--out-root", type=Path, help="output directory (a directory source)")
    where.add_argument("--inplace", action="store_true", help="rewrite sources in place, backing each up first")
    parser.add_argument("--backup-suffix", default=".orig", help="suffix of --inplace backups (default: %(default)s)")
    parser.add_argument("-I", dest="include_dirs", action="append", type=Path, default=[], metavar="DIR",
                        help="an include directory in which project headers are looked up")
    parser.add_argument("--line-directives", action="store_true",
                        help="start each output file with #line so compiler errors name the original")
    parser.add_argument("--report", type=Path, help="write a report: report.json or report.html")
    parser.add_argument("--findings-format", choices=("gcc", "json"), default="gcc",
                        help="how findings are printed on standard error (default: %(default)s)")
    parser.add_argument("--force", action="store_true",
                        help="with -o: overwrite files that are not earlier outputs of the same sources")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line, no list of files written")
    parser.add_argument("--suppress", action="append", default=[], metavar="ID_OR_NAME",
                        help="silence a finding ID (TA1004) or the findings about a name (cudaFoo); repeatable, "
                        "added to [tool.torchada] suppress = [...] of the nearest pyproject.toml")
    parser.add_argument("--list-mappings", nargs="?", const="", metavar="NAME",
                        help="print the mapping database (only the rows whose CUDA or MUSA name contains NAME) "
                        "and exit")
    parser.add_argument("--json", action="store_true", help="with --list-mappings: JSON")
    parser.add_argument("-j", "--jobs", type=int, default=_cores(), metavar="N",
                        help="translate a tree in N processes (default: the cores, %(default)s)")
    return parser


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def console_main() -> NoReturn:
    """``torchada-port`` and ``python -m hipify_like``: :func:`main`, then the process ends once standard
    output and error are flushed, without the interpreter's teardown (freeing the tables and unloading
    libclang take 30-40 ms, a fifth of a small port's run; nothing is left for it to do)."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away after the last line: as main does
        code = code or 1
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.list_mappings is not None:
            return list_mappings(args.list_mappings, as_json=args.json)
        if args.json:
            raise UsageError("--json goes with --list-mappings (for findings as JSON: --findings-format json)")
        if args.source is None:
            raise UsageError("no input; give a source file or directory (see --help)")
        if args.jobs < 1:
            raise UsageError(f"-j {args.jobs}: the number of processes must be at least 1")
        return port(args)
    except TorchadaError as error:  # a usage, configuration, write or worker failure
        print(f"torchada-port: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (`| head`) went away: stop quietly, and keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        where = f"'{error.filename}': " if error.filename else ""
        print(f"torchada-port: error: {where}{error.strerror or error}", file=sys.stderr)
        return 2


def list_mappings(name: str, *, as_json: bool) -> int:
    """The database's rows, or those whose CUDA or MUSA name contains ``name``; 1 when none does."""
    from .inventory import musa_inventory  # only the listing cites it

    inventory = musa_inventory()
    rows = []
    for e in load_db().entries:
        if name not in e.cuda and name not in e.musa:
            continue
        evidence = e.evidence
        if evidence == "inventory" and e.musa in inventory:
            found = inventory[e.musa]
            evidence = f"{_INVENTORY}: {found.evidence} ({found.basis})"
        elif evidence == "musa_api_inventory.tsv (absent)":
            evidence = f"absent from {_INVENTORY}"
        for note in _REFERENCE_NOTES:
            evidence = re.sub(rf"(?<![\w/.]){re.escape(note)}", f"docs/reference/{note}", evidence)
        rows.append(
            {"cuda": e.cuda, "musa": e.musa, "kind": e.kind.value, "library": e.library,
             "status": e.status.value, "evidence": evidence, "note": e.note}
        )
    if as_json:
        import json

        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for row in rows:
            print("\t".join(row[k] for k in ("cuda", "musa", "kind", "library", "status", "evidence")))
    if not rows:
        print(f"torchada-port: error: no CUDA or MUSA name in the mapping database contains '{name}'", file=sys.stderr)
        return 1
    return 0


_REPORT_SUFFIXES = frozenset({".json", ".html", ".htm"})


def port(args: argparse.Namespace) -> int:
    source: Path = args.source
    if not source.exists():
        raise UsageError(f"cannot read '{source}': no such file or directory")
    if not source.is_dir() and not source.is_file():
        raise UsageError(f"cannot read '{source}': not a regular file (a FIFO, socket or device)")
    if args.inplace and not args.backup_suffix:
        raise UsageError("--inplace needs a non-empty --backup-suffix: originals are always backed up")
    if os.sep in args.backup_suffix or "\0" in args.backup_suffix:
        raise UsageError(f"--backup-suffix '{args.backup_suffix}' must be a file name suffix (no '{os.sep}')")
    if args.report is not None and args.report.suffix not in _REPORT_SUFFIXES:
        raise UsageError(f"cannot tell the report format of '{args.report}': name it report.json or report.html")
    if args.output == Path("-"):  # as with gcc and nvcc: standard output
        args.output = None
    suppress = load_config_suppress(source, Path.cwd()) | Suppressions.parse(args.suppress, "--suppress")
    written: list[Path] = []
    if source.is_dir():
        if args.output is not None:
            raise UsageError(f"'{source}' is a directory: use --out-root DIR (or --inplace), not -o")
        if args.out_root is None and not args.inplace:
            raise UsageError(f"'{source}' is a directory: give --out-root DIR or --inplace")
        ported = port_tree(source, args)
    else:
        if args.out_root is not None:
            raise UsageError(f"'{source}' is a file: use -o FILE, not --out-root")
        translations, written = port_file(source, args)
        ported = [PortedFile.of(t) for t in translations]
    ported, suppressed = suppress.apply(ported)
    report = PortReport(ported, root=source.absolute() if source.is_dir() else source.absolute().parent,
                        suppressed=suppressed)
    print_findings([finding for file in ported for finding in file.findings], args.findings_format)
    if not args.quiet:
        for path in written:
            print(f"torchada-port: wrote {path}", file=sys.stderr)
    if args.report is not None:
        write_report(report, args.report)
    if not args.quiet:
        print(f"torchada-port: {report.summary()}", file=sys.stderr)
    return 1 if report.has_errors else 0


def print_findings(findings: Sequence[Finding], form: str) -> None:
    """One line each on standard error, written at once (line by line, a tree's thousands of findings
    take as many system calls)."""
    if form == "json":
        import json  # imported only where used: a port's start-up is in series with its processes

        lines = [json.dumps(f.to_json()) for f in findings]
    else:
        lines = [f.format() for f in findings]
    sys.stderr.write("".join(f"{line}\n" for line in lines))


def write_report(report: PortReport, path: Path) -> None:
    """The report as JSON or HTML; a path that is not UTF-8 shows its odd bytes as ``\\udcff`` escapes."""
    text = report.to_json() if path.suffix == ".json" else report.to_html()
    write_atomically(path, text.encode("utf-8", "backslashreplace"))


def write_inplace(path: Path, translation: Translation, backup_suffix: str) -> None:
    """Back up what was translated (the bytes read, not the file again), then replace the file. The
    backup is created, never overwritten nor written through a link: one that exists already was refused
    before anything was written (:func:`refuse_existing_backups`), unless another run ports the file at
    the same time, which this one then leaves alone."""
    if not translation.changed:
        return
    backup = path.with_name(path.name + backup_suffix)
    try:
        fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        raise UsageError(_backup_exists(path, backup)) from None
    except OSError as error:
        raise WriteError(str(backup), error) from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(translation.original)
        shutil.copystat(path, backup)
    except OSError as error:
        backup.unlink(missing_ok=True)
        raise WriteError(str(backup), error) from None
    write_atomically(path, translation.text)


def _backup_exists(path: Path, backup: Path) -> str:
    kind = "a symbolic link" if backup.is_symlink() else "there"
    return (f"'{backup}' is {kind}, and '{path}' would change: a backup is never overwritten or written "
            "through a link; move it away (or choose --backup-suffix), then port again")


def refuse_existing_backups(translations: Sequence[Translation], backup_suffix: str) -> None:
    """Refuse, before anything is written, a port in place whose changed file has a backup already (an
    earlier run's of a file edited since, a link that would send the backup elsewhere)."""
    for translation in translations:
        path = Path(translation.path)
        backup = path.with_name(path.name + backup_suffix)
        if translation.changed and os.path.lexists(backup):
            raise UsageError(_backup_exists(path, backup))


def port_file(source: Path, args: argparse.Namespace) -> tuple[list[Translation], list[Path]]:
    """The unit's translations, and the files written for ``-o`` (as the user will see them)."""
    unit = translate_unit(source, include_dirs=args.include_dirs, line_directives=args.line_directives)
    main, headers = unit.files[0], unit.files[1:]
    if args.output is None and not args.inplace:
        sys.stdout.buffer.write(main.text)
        return [main], []
    source_dir = Path(main.path).parent
    inside = [main]
    for header in headers:  # -o and --inplace alike write nothing outside the source's directory
        if Path(header.path).is_relative_to(source_dir):
            inside.append(header)
        elif header.changed:
            print(f"torchada-port: note: '{header.path}' is outside '{source_dir}' and was not written; "
                  "port the whole tree with --out-root", file=sys.stderr)
    if args.inplace:
        refuse_existing_backups(inside, args.backup_suffix)
        for translation in inside:
            write_inplace(Path(translation.path), translation, args.backup_suffix)
        return list(unit.files), []
    output_dir = args.output.absolute().parent
    if args.output.resolve() == Path(main.path).resolve():
        raise UsageError(OUTPUT_IS_SOURCE.text(output=args.output))
    planned = [(args.output, main)]  # (where, as the user will see it; what)
    for header in inside[1:]:
        original = Path(header.path)
        destination = output_dir / original.relative_to(source_dir)
        if destination.resolve() == original.resolve():
            if header.changed:
                raise UsageError(f"writing the translated '{original.name}' beside '{args.output}' would overwrite "
                                 "the original header; choose an output file in another directory")
            continue
        planned.append((args.output.parent / original.relative_to(source_dir), header))
    from .outputs import OutputManifest  # only -o keeps a record of its outputs

    manifest = OutputManifest.load(output_dir)
    if not args.force:
        for destination, translation in planned:
            refusal = manifest.refusal(destination, Path(translation.path))
            if refusal is not None:
                raise UsageError(f"{refusal}; move it away, or pass --force to overwrite it")
    for destination, translation in planned:
        write_atomically(destination, translation.text)
        manifest.record(destination, Path(translation.path), translation.text)
    manifest.save()
    return list(unit.files), [destination for destination, _ in planned]


def iter_tree(root: Path) -> Iterator[os.DirEntry[str]]:
    """The tree's entries that are not directories, each directory's in name order (symbolic links
    to directories included: they are copied as links)."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError as error:
        raise UsageError(f"cannot read '{root}': {error.strerror}") from None
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in SKIPPED_DIRECTORIES:
                yield from iter_tree(Path(entry.path))
        else:
            yield entry


class _ProjectHeaderTest:
    """Whether an ``#include`` names a header of the tree (:meth:`find` says which)."""

    def __init__(self, root: Path, include_dirs: list[Path]) -> None:
        self.root = root
        self.include_dirs = include_dirs
        self.found: dict[tuple[str, bool, str], str | None] = {}
        """``(spelled, angled, including directory or "" if angled)`` → where the header is, None if nowhere."""

    def __call__(self, includer: str, spelled: str, angled: bool) -> bool:
        path = self.find(includer, spelled, angled)
        return path is not None and Path(path).is_relative_to(self.root)

    def find(self, includer: str, spelled: str, angled: bool) -> str | None:
        """Where the compiler would find the header, searched once per process."""
        key = (spelled, angled, "" if angled else os.path.dirname(includer))
        if key not in self.found:
            path = resolve_include(spelled, angled, Path(includer), self.include_dirs)
            self.found[key] = None if path is None else str(path)
        return self.found[key]


class _TreePort(NamedTuple):
    """Where and how a tree's files are ported (:meth:`port`). Its paths are strings (a tree's
    thousands of ``Path`` objects would cost milliseconds before the processes start)."""

    root: str
    """The tree, absolute, with a trailing separator: every path of it starts so."""
    out_root: str | None
    """The same of the output tree; None: in place, with backups."""
    is_local: _ProjectHeaderTest
    non_source_names: frozenset[bytes]
    """The names of the tree's files whose suffix is not a source's (:meth:`included`), as bytes."""
    line_directives: bool
    backup_suffix: str
    project_names: frozenset[str]
    """The project's own CUDA-looking macros (:func:`.translate.project_macros`), kept in every file."""

    def port(self, paths: Sequence[str]) -> list[tuple[PortedFile, list[str]]]:
        """Translate a batch of the tree's files and write each where it goes; each file's record and
        what it includes of the files that :attr:`non_source_names` names."""
        originals = [read_file(p) for p in paths]
        results = self.translate(paths, [data for data, _ in originals])
        for path, (_, mode), translation in zip(paths, originals, results, strict=True):
            if self.out_root is None:
                write_inplace(Path(path), translation, self.backup_suffix)
            else:
                write_atomically(self.out_root + path[len(self.root) :], translation.text, mode=mode)
        return [(PortedFile.of(t), self.included(t.original, t.path)) for t in results]

    def translate(self, paths: Sequence[str], datas: Sequence[bytes] | None = None) -> list[Translation]:
        """The translations of ``paths``, whose bytes are ``datas`` (read when not given)."""
        datas = [read_file(p)[0] for p in paths] if datas is None else datas
        return translate_sources(list(zip(datas, paths, strict=True)), is_local=self.is_local,
                                 line_directives=self.line_directives, project_names=self.project_names)  # fmt: skip

    def included(self, data: bytes, path: str) -> list[str]:
        """The files that ``data``'s ``#include`` lines reach, of the headers named like one of
        :attr:`non_source_names` (the lines are found without lexing: one in a block comment counts
        too, so at worst a header is ported needlessly, never left untranslated)."""
        if not self.non_source_names:
            return []
        found = []
        for directive in _INCLUDE_WORD.finditer(data):
            angled = directive[1] is not None
            header_name = directive[1] if angled else directive[2]
            if header_name.rpartition(b"/")[2] not in self.non_source_names or not _after_hash(data, directive.start()):
                continue
            header = self.is_local.find(path, header_name.decode(errors="surrogateescape"), angled)
            if header is not None:
                found.append(header)
        return found


def _after_hash(data: bytes, at: int) -> bool:
    """Whether ``#`` (or ``%:``) and blanks are all that come before ``at`` on its line."""
    line_start = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1
    return data[line_start:at].translate(None, b" \t") in (b"#", b"%:")


def port_tree(root: Path, args: argparse.Namespace) -> list[PortedFile]:
    root = root.absolute()
    out_root = None if args.inplace else args.out_root.absolute()
    if out_root is not None and out_root.resolve().is_relative_to(root.resolve()):
        raise UsageError(f"--out-root '{args.out_root}' is inside the source tree '{root}'; choose another directory")
    if out_root is not None and root.resolve().is_relative_to(out_root.resolve()):
        raise UsageError(f"--out-root '{args.out_root}' holds the source tree '{root}', whose files the output "
                         "would overwrite; choose a directory outside it")
    is_local = _ProjectHeaderTest(root, [root, *(d.absolute() for d in args.include_dirs)])
    sources: list[str] = []
    others: list[Path] = []
    non_sources: set[str] = set()
    for entry in iter_tree(root):
        if entry.is_symlink():
            others.append(Path(entry.path))
        elif not entry.is_file(follow_symlinks=False):
            msg = f"cannot read '{entry.path}': not a regular file (a FIFO, socket or device); move it out of the tree"
            raise UsageError(msg)
        elif os.path.splitext(entry.name)[1] in PORTED:
            sources.append(entry.path)
        else:
            others.append(Path(entry.path))
            non_sources.add(entry.path)
    batches = split(sources, args.jobs, most=_BATCH)
    get_tables()  # built once, before processes are forked
    work = _TreePort(os.path.join(root, ""), None if out_root is None else os.path.join(out_root, ""), is_local,
                     frozenset(os.fsencode(os.path.basename(path)) for path in non_sources), args.line_directives,
                     args.backup_suffix, project_macros(read_file(path)[0] for path in sources))  # fmt: skip
    if out_root is None:
        backed_up = [path for path in sources if os.path.lexists(path + args.backup_suffix)]
        refuse_existing_backups(work.translate(backed_up), args.backup_suffix)
    with forked_workers(work.port, batches, args.jobs) as workers:
        if out_root is not None:  # while the forked processes translate
            copy_others(root, out_root, others)
        with _progress(len(sources)) as advance:  # its thread starts after the forks
            ported = [record for records in workers.run(lambda number: advance(len(batches[number])))
                      for record in records]  # fmt: skip
    included = _port_included(work, ported, non_sources)
    if not included:
        return [record for record, _ in ported]
    every = [record for record, _ in ported] + included
    return sorted(every, key=lambda record: record.path.split(os.sep))  # the order iter_tree walks in


def _port_included(work: _TreePort, ported: list[tuple[PortedFile, list[str]]], non_sources: set[str]) -> list[PortedFile]:
    """Port the files of the tree whose suffix is not a source's but that a ported file includes (a
    libcu++-style ``<cuda/std/ctime>``, a ``"kernels.def"``), and those they include in turn; their
    copies (:func:`copy_others`) are replaced."""
    included: list[PortedFile] = []
    left = set(non_sources)
    while True:
        reached = {header for _, headers in ported for header in headers}
        paths = sorted(reached & left)
        left -= reached
        if not paths:
            return included
        ported = work.port(paths)
        included += [record for record, _ in ported]


def copy_others(root: Path, out_root: Path, paths: Sequence[Path]) -> None:
    """Copy the files that are not translated, so the output is a complete project."""
    for path in paths:
        destination = out_root / path.relative_to(root)
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            if destination.is_symlink() or destination.exists():
                destination.unlink()
            destination.symlink_to(os.readlink(path))
        else:
            shutil.copy2(path, destination)


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None]]:
    """Advance a rich progress bar on an interactive terminal (standard error); nothing otherwise."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("translating", total=total)
        yield lambda n: bar.advance(task, n)

"""Compile memos: a compile's commands, replayed while nothing they were planned from has changed.

A warm compile through torchada-nvcc or torchada-host-compile would parse its command line, plan
its jobs and look its translation up in the unit cache on every run, which costs more than Python's
own start-up. After a compile succeeds, the driver writes a memo under ``<cache>/memo/``: the
command line, working directory and environment it answered, the commands it ran, and what they
were planned from, each with the status ``stat`` gives it (the original and translated files, each
include search, torchada's code and data, the cache entries the commands name, and every place the
MUSA SDK and nvcc were looked for). The same command line later checks those statuses and runs the commands
itself; any difference goes the long way, which writes a new memo. :func:`replay` imports nothing
beyond :mod:`os`, :mod:`sys`, :mod:`marshal`, the settings table (:mod:`torchada_build.core.settings`,
which reads ``TORCHADA_CACHE_DIR``) and :func:`torchada_build.core.files.first_file`, so that path costs
about a millisecond.

A memo is written only for a compile without translator findings (those print on every compile)
whose files outside the cache are at least :data:`SETTLED_S` old: a file changed in the same clock
tick as its status was taken would look unchanged (ccache's "too new" rule). Files in the cache are
written once and never changed, so their status stands as it is.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

TYPE_CHECKING = False  # typing itself would cost a millisecond here
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from .depfile import DependencyRewrite
    from .jobs import Job
    from .units import CachedUnit

__all__ = ["SETTLED_S", "MemoWriter", "cache_root", "replay"]

_FORMAT = 1
SETTLED_S = 2.0
"""How old (seconds) a file outside the cache must be for its status to be trusted."""
_VOLATILE = frozenset(
    {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKE_TERMOUT", "MAKE_TERMERR", "PWD", "OLDPWD", "_", "SHLVL"}
)
"""Variables that differ between runs of one build (make's jobserver descriptors, the shell's
directories) and that the driver does not plan by; every other variable is part of the key."""
_WORKDIR = "\0workdir\0"
"""Stands for the run's work directory in a memo's words."""

Status = tuple[int, int, int, int, int] | None
"""A file's ``(size, mtime_ns, ctime_ns, inode, mode)``; None: it must not exist."""


def cache_root(environ: Mapping[str, str]) -> str:
    """``TORCHADA_CACHE_DIR``, else ``$XDG_CACHE_HOME/torchada``, else ``~/.cache/torchada`` (absolute)."""
    from torchada_build.core.settings import value

    configured = value("TORCHADA_CACHE_DIR", environ)
    if configured:
        return os.path.abspath(configured)
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(os.path.abspath(base), "torchada")


def _status(path: str) -> Status:
    try:
        s = os.stat(path)
    except OSError:
        return None
    return (s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino, s.st_mode)


def _key(tool: str, argv: Sequence[str], environ: Mapping[str, str]) -> tuple[object, ...]:
    variables = tuple(sorted((k, v) for k, v in environ.items() if k not in _VOLATILE))
    interpreter = (sys.prefix, os.path.realpath(sys.executable))  # python and python3 are one interpreter
    return (_FORMAT, tool, tuple(argv), os.getcwd(), interpreter, variables)


def _memo_path(root: str, key: tuple[object, ...]) -> str:
    try:
        from _blake2 import blake2b  # the C module itself: hashlib would also load OpenSSL's
    except ImportError:  # pragma: no cover - a CPython built without it
        from hashlib import blake2b
    return os.path.join(root, "memo", blake2b(repr(key).encode(), digest_size=16).hexdigest())


def _private(status: os.stat_result) -> bool:
    return status.st_uid == os.geteuid() and not status.st_mode & 0o022


def _load(tool: str, argv: Sequence[str], environ: Mapping[str, str]) -> dict[str, object] | None:
    root = cache_root(environ)
    key = _key(tool, argv, environ)
    try:
        if not _private(os.stat(root)):
            return None  # the long way says what is wrong with the cache
        with open(_memo_path(root, key), "rb") as f:
            if not _private(os.fstat(f.fileno())):
                return None
            record = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(record, dict) or record.get("key") != key or not _well_formed(record):
        return None
    return record


def _is_text(value: object, optional: bool = False) -> bool:
    return isinstance(value, str) or (optional and value is None)


def _well_formed(record: dict[object, object]) -> bool:
    """Whether ``record`` has the shape :meth:`MemoRecorder.save` writes: a memo someone edited, or one
    cut short, is no memo (the command is planned the long way), never a traceback."""
    try:
        statuses, searches, steps = record["statuses"], record["searches"], record["steps"]
        return (
            isinstance(record["workdir"], bool)
            and all(_is_text(path) and (status is None or isinstance(status, tuple)) for path, status in statuses)  # type: ignore[attr-defined]
            and all(_is_text(found, True) and all(map(_is_text, candidates)) for candidates, found in searches)  # type: ignore[attr-defined]
            and isinstance(steps, list) and len(steps) > 0
            and all(
                (step[0] == "run" and len(step) == 2 and len(step[1]) > 0 and all(map(_is_text, step[1])))
                or (step[0] == "rewrite" and len(step) == 8 and all(map(_is_text, step[1:2] + step[5:]))
                    and all(_is_text(f, True) for f in step[2:4]) and isinstance(step[4], bool))
                for step in steps
            )
        )  # fmt: skip
    except (KeyError, TypeError, ValueError):
        return False


def _still_valid(record: dict[str, object]) -> bool:
    for path, status in record["statuses"]:  # type: ignore[attr-defined]
        if _status(path) != status:
            return False
    from torchada_build.core.files import first_file

    return all(first_file(candidates) == found for candidates, found in record["searches"])  # type: ignore[attr-defined]


def replay(tool: str, argv: Sequence[str], environ: Mapping[str, str]) -> int | None:
    """Run the memo of this command line when it is still valid, and return its exit status (a last
    command replaces this process); None when there is none, and the command must be planned."""
    record = _load(tool, argv, environ)
    if record is None or not _still_valid(record):
        return None
    steps: list[tuple[object, ...]] = record["steps"]  # type: ignore[assignment]
    if len(steps) == 1 and steps[0][0] == "run" and not record["workdir"]:
        command: list[str] = list(steps[0][1])  # type: ignore[call-overload]
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            os.execvpe(command[0], command, environ)  # found on PATH as subprocess finds it
        except OSError:  # gone, or too long a command line: planned the long way, which says so
            return None
    from torchada_build.core.files import make_work_dir

    workdir = make_work_dir(cache_root(environ)) if record["workdir"] else ""
    try:
        for step in steps:
            if step[0] == "run":
                try:
                    status = _run([w.replace(_WORKDIR, workdir) for w in step[1]], environ)  # type: ignore[attr-defined]
                except OSError:
                    return None
                if status:
                    return status
            else:
                from .depfile import DependencyRewrite

                fields = [f.replace(_WORKDIR, workdir) if isinstance(f, str) else f for f in step[1:]]
                DependencyRewrite(*fields).run()  # type: ignore[arg-type]
    finally:
        if workdir:
            _remove_workdir(workdir)
    return 0


def _run(command: list[str], environ: Mapping[str, str]) -> int:
    """Run ``command`` and wait: its exit status (the negative signal number when one killed it)."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.posix_spawnp(command[0], command, environ)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _remove_workdir(path: str) -> None:
    for name in os.listdir(path):
        os.unlink(os.path.join(path, name))
    os.rmdir(path)


def _without(argv: Sequence[str], words: Sequence[str]) -> tuple[str, ...]:
    """``argv`` less the first run of ``words`` in it."""
    for at in range(len(argv) - len(words) + 1):
        if tuple(argv[at : at + len(words)]) == tuple(words):
            return (*argv[:at], *argv[at + len(words) :])
    return tuple(argv)


class MemoWriter:
    """What a compile that is being planned and run depends on, written as its memo when it succeeds."""

    def __init__(self, tool: str, argv: Sequence[str], environ: Mapping[str, str]) -> None:
        self.key = _key(tool, argv, environ)
        self.root = cache_root(environ)
        self.statuses: dict[str, Status] = {}
        self.searches: list[tuple[tuple[str, ...], str | None]] = []
        self.steps: list[tuple[object, ...]] = []
        self.uses_workdir = False
        self.usable = True
        """False once something makes a memo unsafe (a finding to print, a file too new)."""
        self.now = time.time_ns()

    def refuse(self) -> None:
        self.usable = False

    def watch(self, path: str) -> Status:
        """Record ``path``'s status (or that it is missing); a file outside the cache that changed in
        the last :data:`SETTLED_S` seconds makes the memo unsafe."""
        path = os.path.abspath(path)
        status = _status(path)
        if status is not None and not path.startswith(self.root + os.sep):
            if self.now - max(status[1], status[2]) < SETTLED_S * 1e9:
                self.usable = False
        self.statuses[path] = status
        return status

    def watch_content(self, path: str, digest: str) -> None:
        """Record ``path``, whose bytes hashed to ``digest`` (sha256) when they were translated: the status
        is taken before the bytes are read again, so a later change shows in one or the other."""
        import hashlib

        self.watch(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self.usable = False
            return
        if hashlib.sha256(data).hexdigest() != digest:
            self.usable = False

    def watch_cache_paths(self, words: Iterable[str]) -> None:
        """Record the cache entries that ``words`` name (``-I<cache>/compat/…``, a translated unit's file)."""
        prefix = self.root + os.sep
        for word in words:
            at = word.find(prefix)
            if at >= 0 and _WORKDIR not in word:
                self.watch(word[at:])

    def watch_tree(self, directories: Iterable[str], suffixes: tuple[str, ...]) -> None:
        """Record every file of ``directories`` (not their subdirectories) ending in one of ``suffixes``."""
        for directory in directories:
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                continue
            for name in names:
                if name.endswith(suffixes):
                    self.watch(os.path.join(directory, name))

    def unit(self, unit: CachedUnit) -> None:
        """Record what ``unit`` was decided by, and its translated files; a unit with findings (which
        print on every compile) makes the memo unsafe."""
        if unit.findings or unit.inputs is None:
            self.usable = False
            return
        for path, digest in unit.inputs.files:
            self.watch_content(path, digest)
        for original in unit.originals:
            self.watch(str(unit.mirror(original)))
        self.searches += [(tuple(candidates), found) for candidates, found in unit.inputs.searches]

    def discovery(self, environ: Mapping[str, str]) -> None:
        """Record every place the backend's toolkits were looked for (the backend was not asked for)."""
        from .installations import discovery_paths

        for path in discovery_paths(environ):
            self.watch(str(path))

    def _watch_code(self) -> None:
        """torchada's own code and the mapping database: an upgrade or an edit plans anew."""
        from importlib.util import find_spec

        def package_dirs(name: str) -> list[str]:
            spec = find_spec(name)
            return list(spec.submodule_search_locations or ()) if spec else []

        translator = package_dirs("hipify_like")
        data = [os.path.join(d, "data") for d in translator]
        directories = [os.path.dirname(__file__), *package_dirs("torchada_build"), *translator, *data]
        self.watch_tree([*directories, *(os.path.join(d, "inventory") for d in data)], (".py", ".tsv"))

    def run(self, command: Sequence[str], workdir: str | None = None) -> None:
        """A command of the memo; ``workdir`` (this run's temporary directory) becomes the next run's."""
        words = tuple(self._placeholder(word, workdir) for word in command)
        self.watch_cache_paths(words)
        self.steps.append(("run", words))

    def jobs(self, jobs: Sequence[Job], units: Iterable[CachedUnit], workdir: str | None = None) -> None:
        """Record a compile: each unit its plan translated (what it was decided by), and its jobs: each
        command, each dependency rewrite; any other job (a link, an archive) makes the memo unsafe."""
        for unit in units:
            self.unit(unit)
        for job in jobs:
            if not job.kind.replayed:
                self.usable = False
            elif job.kind.value == "translate":  # done by preparing: its unit is among ``units``
                continue
            elif job.rewrite is not None:
                self.rewrite(job.rewrite, workdir)
            elif job.check is not None and job.check.flags:  # a replay reads what the checked compile read
                if job.kind.value != "dependencies":
                    self.run(_without(job.argv, job.check.flags), workdir)
            else:
                self.run(job.argv, workdir)

    def rewrite(self, rewrite: DependencyRewrite, workdir: str | None = None) -> None:
        fields = (self._placeholder(f, workdir) if isinstance(f, str) else f for f in rewrite.fields())
        self.steps.append(("rewrite", *fields))

    def _placeholder(self, value: str, workdir: str | None) -> str:
        """``value`` with ``workdir`` replaced by the placeholder that the replay's own stands for."""
        if not workdir or workdir not in value:
            return value
        self.uses_workdir = True
        return value.replace(workdir, _WORKDIR)

    def write(self) -> None:
        """Write the memo (never a partial one: a temporary file renamed into place), when it is usable;
        a memo that cannot be written is left out (the next run plans again)."""
        self._watch_code()
        if not self.usable or not self.steps:
            return
        from torchada_build.core.errors import WriteError
        from torchada_build.core.files import write_atomically

        record = {
            "key": self.key,
            "statuses": sorted(self.statuses.items()),
            "searches": self.searches,
            "steps": self.steps,
            "workdir": self.uses_workdir,
        }
        try:
            write_atomically(_memo_path(self.root, self.key), marshal.dumps(record), private=True)
        except WriteError:
            pass

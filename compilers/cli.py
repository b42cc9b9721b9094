"""``torchada-nvcc``: the console script. Errors print as one nvcc-style line; the status is nvcc's.

``--torchada-info`` says which backend runs and why (:mod:`.info`). Set ``TORCHADA_DEBUG=1`` to see a
traceback instead of the one-line message. A compile that succeeded before runs again from its memo
(:mod:`.memo`) while nothing it was planned from has changed; only then is anything else imported.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing and the rest of the driver load only when the memo cannot answer
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .backends import BackendChoice
    from .jobs import Job
    from .memo import MemoWriter
    from .parse import ParsedArgs
    from .toolchains.base import BuildContext, TranslatingToolchain
    from .units import CachedUnit

__all__ = ["main"]

_MEMO = "nvcc"

_VERSION = frozenset({"--version", "-V"})
_INFO = "--torchada-info"


def _info(argv: Sequence[str]) -> str | None:
    """The ``--torchada-info`` form asked for (``""`` or ``"cmake"``), or None."""
    asked = [w.partition("=")[2] for w in argv if w == _INFO or w.startswith(_INFO + "=")]
    if not asked:
        return None
    if asked[-1] not in ("", "cmake"):
        from .errors import UsageError

        msg = f"{_INFO} takes no value or 'cmake', not '{asked[-1]}'"
        raise UsageError(msg)
    return asked[-1]

_TOOL_OPTIONS = frozenset(
    {"-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options", "-Xptxas", "--ptxas-options",
     "-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options", "-Xfatbin", "--fatbin-options"}
)  # fmt: skip
"""Options whose next word is another tool's (``-Xcompiler --version`` asks the host compiler)."""


def _asks_version(argv: Sequence[str]) -> bool:
    return any(word in _VERSION and (i == 0 or argv[i - 1] not in _TOOL_OPTIONS) for i, word in enumerate(argv))

_HOST_QUERIES = frozenset({"--version", "-dumpversion", "-dumpfullversion", "-dumpmachine"})


def _host_compiler_query(parsed: ParsedArgs) -> list[str]:
    """``nvcc .c -Xcompiler --version`` (or ``-dumpfullversion``), with no real input: the host
    compiler's answer is what nvcc prints; the words to ask it, or none for any other command line."""
    from .toolchains.base import host_compiler_words

    words = host_compiler_words(parsed)
    asks = words and all(w in _HOST_QUERIES for w in words)
    return words if asks and not any(os.path.exists(i) for i in parsed.inputs) else []


def _drive(argv: Sequence[str], environ: Mapping[str, str], choice: BackendChoice,
           toolchain: TranslatingToolchain) -> int:  # fmt: skip
    from .memo import MemoWriter

    memo = MemoWriter(_MEMO, argv, environ)
    from pathlib import Path

    from torchada_build.core.files import make_work_dir

    from .archs import requested_targets
    from .cache import open_cache_dir
    from .errors import warn
    from .identity import arch_line, variable_lines
    from .jobs import run_jobs
    from .launcher import launcher_words
    from .parse import parse_args
    from .plan import clean_jobs, plan_jobs, prepare
    from .reads import UntranslatedReadError
    from .request import STDIN, build_request, standard_input
    from .toolchains.base import BuildContext
    from .toolkit import ensure_toolkit, toolkit_home

    parsed = parse_args(argv, environ=environ)
    for message in parsed.warnings:
        warn(message)
    if parsed.has("--help"):
        from .docs import help_text

        sys.stdout.write(help_text())
        return 0
    cache_dir = open_cache_dir(environ)
    if parsed.has("--list-gpu-arch") or parsed.has("--list-gpu-code"):
        from .dbfacts import get_db_facts

        prefix = "compute" if parsed.has("--list-gpu-arch") else "sm"
        print("\n".join(f"{prefix}_{sm}" for sm in get_db_facts(cache_dir).table_sms))
        return 0
    toolchain.check_options(parsed)
    echo = parsed.has("--verbose") or parsed.has("--dryrun")
    execute = not parsed.has("--dryrun")
    reads_stdin = STDIN in parsed.inputs
    if execute or reads_stdin:  # private and unpredictable; the finally below removes it, atexit when that is skipped
        import atexit
        import shutil

        workdir = Path(make_work_dir(cache_dir))
        atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    else:
        workdir = cache_dir / "tmp" / f"torchada-nvcc-{os.getpid()}"
    if echo:
        from .dbfacts import get_db_facts

        home = (ensure_toolkit if execute else toolkit_home)(toolchain, get_db_facts(cache_dir), cache_dir)
        lines = variable_lines(
            describe=f"{toolchain.describe()}; chosen because {choice.reason}",
            top=home,
            include_dirs=toolchain.include_dirs(),
            library_dirs=[home / "lib64", *toolchain.library_dirs()],
            path=environ.get("PATH", ""),
        )
        print("\n".join(lines), file=sys.stderr, flush=True)
    query = _host_compiler_query(parsed)
    if query and execute:
        import subprocess

        return subprocess.run([toolchain.cuda_host_compiler(parsed, environ), *query], env=dict(environ), check=False).returncode
    request = build_request(parsed)
    if reads_stdin:
        request = standard_input(request, workdir)
        memo.refuse()  # the same command line reads other code next time
    ctx = BuildContext(parsed, request, requested_targets(parsed), environ, cache_dir, workdir, launcher_words(environ))
    if echo:
        lines = [arch_line(n, toolchain.arch_note(ctx, n)) for n in toolchain.reported_arches(ctx)]
        print("\n".join(lines), file=sys.stderr, flush=True)
    prepared = prepare(ctx, toolchain, write=execute)
    jobs = plan_jobs(ctx, toolchain, prepared)
    if parsed.has("--clean-targets"):
        jobs = clean_jobs(ctx, jobs)
    elif execute:
        toolchain.require_installed()
    try:
        try:
            run_jobs(jobs, echo=echo, execute=execute, environ=environ)
        except UntranslatedReadError:  # recorded: the units translate them now
            prepared = prepare(ctx, toolchain, write=execute)
            jobs = plan_jobs(ctx, toolchain, prepared)
            run_jobs(jobs, echo=echo, execute=execute, environ=environ)
        if execute and not echo:
            _remember(memo, ctx, toolchain, jobs, [unit for _, unit in prepared.units.values()])
    finally:
        if execute or reads_stdin:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _remember(
    memo: MemoWriter, ctx: BuildContext, toolchain: TranslatingToolchain, jobs: list[Job], units: list[CachedUnit]
) -> None:
    """Write the memo of a compile that succeeded: its commands and what they were planned from."""
    if toolchain.depends_on_device(ctx):
        return
    memo.discovery(ctx.environ)
    for path in ctx.parsed.values("--options-file"):
        memo.watch(path)
    memo.jobs(jobs, units, str(ctx.workdir))
    memo.write()


def _debugging(environ: Mapping[str, str]) -> bool:
    """``TORCHADA_DEBUG=1``: a traceback instead of the one line (any other value: the one line)."""
    from torchada_build.core.settings import SettingError, is_on

    try:
        return is_on("TORCHADA_DEBUG", environ)
    except SettingError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """The console script; ``argv`` (default: the process's own) is an nvcc command line. Only the
    process's own command line is replayed from a memo, which may replace the process."""
    if argv is None:
        from .memo import replay

        status = replay(_MEMO, sys.argv[1:], os.environ)
        if status is not None:
            return status
    argv = list(sys.argv[1:] if argv is None else argv)
    environ = os.environ
    from .backends import Backend, choose_backend
    from .errors import FailedProcessError, TorchadaError, format_fatal
    from .toolchains import make_toolchain

    try:
        choice = choose_backend(argv, environ)
        info = _info(argv)
        if info is not None:
            from .info import cmake_lines, info_lines

            print("\n".join(cmake_lines(choice) if info == "cmake" else info_lines(choice, environ)))
            return 0
        if choice.backend.value != "nvcc" and _asks_version(argv):  # before any toolchain module is imported
            from .identity import CUDA_VERSION, loopback_version, version_banner
            from .installations import find_cuda

            version = loopback_version(find_cuda(environ)) if choice.backend is Backend.LOOPBACK else CUDA_VERSION
            sys.stdout.write(version_banner(choice.backend.value, version))  # nvcc ignores NVCC_*_FLAGS for --version
            return 0
        toolchain = make_toolchain(choice.backend, environ)
        status = toolchain.passthrough(argv, choice)
        if status is not None:
            return status
        from .toolchains.base import TranslatingToolchain

        assert isinstance(toolchain, TranslatingToolchain)  # every toolchain but nvcc's plans
        return _drive(argv, environ, choice, toolchain)
    except FailedProcessError as error:
        return error.returncode
    except TorchadaError as error:
        if _debugging(environ):
            raise
        print(format_fatal(str(error)), file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader (`| head`) went away: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

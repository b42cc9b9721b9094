"""``torchada-host-compile``: the program in front of a CUDA project's host C/C++ compiler.

The build hook and the CMake toolchain file put it in front of the compiler command that torch runs
(ccache included) and of CMake's C and C++ compilers. A command compiling one C or C++ source runs on
its translation (:mod:`torchada_build.compilers.host`); any other command, and every command on the
``nvcc`` backend (an NVIDIA machine), runs unchanged. A command that compiled before runs again from
its memo (:mod:`torchada_build.compilers.memo`) while nothing it was planned from has changed.

    $ torchada-host-compile --backend=mcc -- ccache c++ -MMD -MF k.o.d -I inc -c k.cpp -o k.o
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .compilers.backends import Backend

__all__ = ["main", "prefix"]

_MEMO = "host"


def prefix(backend: Backend) -> list[str]:
    """The words that put this program in front of a host compiler command."""
    return [sys.executable, "-m", "torchada_build.host_compile", f"--backend={backend.value}", "--"]


def main(argv: Sequence[str] | None = None) -> int:
    """The console script; only the process's own command line (the default ``argv``) is replayed from
    a memo, which may replace the process."""
    if argv is None:
        from .compilers.memo import replay

        status = replay(_MEMO, sys.argv[1:], os.environ)
        if status is not None:
            return status
    return _plan_and_run(list(sys.argv[1:] if argv is None else argv))


def _plan_and_run(argv: list[str]) -> int:
    import argparse
    import shlex

    from .compilers.backends import Backend, select_backend
    from .compilers.errors import FailedProcessError, TorchadaError
    from .compilers.host import plan_host_compile
    from .compilers.jobs import JobKind, run_jobs
    from .compilers.memo import MemoWriter
    from .compilers.reads import UntranslatedReadError
    from .helpformat import ToolParser

    parser = ToolParser(
        prog="torchada-host-compile",
        purpose="compile a CUDA project's host C/C++ file for MUSA: translate it and its project headers, "
        "then run the compiler command on the copies",
        docs="README.md and docs/build.md (torchada's source tree)",
        usage="%(prog)s [--backend {mcc,nvcc,loopback}] [--print] -- COMPILER ARGS...",
    )
    parser.add_argument(
        "--backend", choices=[b.value for b in Backend], help="default: the one torchada-nvcc would use here"
    )
    parser.add_argument("--print", action="store_true", help="print the command instead of running it")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the compiler command, after --")
    options = parser.parse_args(argv)
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command to run")
    memo = MemoWriter(_MEMO, argv, os.environ)
    try:
        backend = Backend(options.backend) if options.backend else select_backend([], os.environ)
        plan = plan_host_compile(command, backend, os.environ)
        if options.print:
            print(shlex.join(next(job for job in plan.jobs if job.kind is JobKind.COMPILE).argv))
            return 0
        try:
            run_jobs(plan.jobs, echo=False, execute=True, environ=os.environ)
        except UntranslatedReadError:  # recorded: the unit translates them now
            plan = plan_host_compile(command, backend, os.environ)
            run_jobs(plan.jobs, echo=False, execute=True, environ=os.environ)
        memo.discovery(os.environ)
        memo.jobs(plan.jobs, plan.units)
        memo.write()
    except FailedProcessError as error:
        return error.returncode
    except TorchadaError as error:
        print(f"torchada: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the compiler could not be run
        print(f"torchada: error: cannot run '{command[0]}': {error.strerror}", file=sys.stderr)
        return 127
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``TORCHADA_COMPILER_LAUNCHER``: a compiler cache (ccache, sccache) wrapped around each compile.

The launcher runs the backend compiler on the *translated* sources, so it caches what mcc or nvcc
really compile; an outer ``CMAKE_CUDA_COMPILER_LAUNCHER`` would see torchada-nvcc instead (ccache
cannot cache torch's long dependency options, and sccache re-runs ``--dryrun`` lines itself). The
value is split like a shell would (``ccache``, ``sccache``, ``/usr/bin/ccache -d /tmp/c``).
"""

from __future__ import annotations

from .errors import ToolNotFoundError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["launcher_words"]


def launcher_words(environ: Mapping[str, str]) -> tuple[str, ...]:
    from torchada_build.core.settings import value

    command = value("TORCHADA_COMPILER_LAUNCHER", environ)
    if not command:
        return ()
    import shlex
    import shutil

    try:
        words = shlex.split(command)
    except ValueError as error:  # an unbalanced quote
        from torchada_build.core.diagnostics import BAD_LAUNCHER

        raise UsageError(BAD_LAUNCHER.text(error=error, value=command)) from None
    if not words:
        return ()
    program = shutil.which(words[0], path=environ.get("PATH"))
    if program is None:
        from torchada_build.core.diagnostics import NO_LAUNCHER

        raise ToolNotFoundError(NO_LAUNCHER.text(program=words[0]))
    return (program, *words[1:])

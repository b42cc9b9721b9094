"""``TORCHADA_COMPILER_LAUNCHER``: a compiler cache (ccache, sccache) wrapped around each compile.

The launcher runs the backend compiler on the *translated* sources, so it caches what mcc or nvcc
really compile; an outer ``CMAKE_CUDA_COMPILER_LAUNCHER`` would see torchada-nvcc instead (ccache
cannot cache torch's long dependency options, and sccache re-runs ``--dryrun`` lines itself). The
value is split like a shell would (``ccache``, ``sccache``, ``/usr/bin/ccache -d /tmp/c``).
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Mapping

from .errors import ToolNotFoundError, UsageError

__all__ = ["launcher_words"]


def launcher_words(environ: Mapping[str, str]) -> tuple[str, ...]:
    try:
        words = shlex.split(environ.get("TORCHADA_COMPILER_LAUNCHER", ""))
    except ValueError as error:  # an unbalanced quote
        msg = f"cannot read TORCHADA_COMPILER_LAUNCHER ({error}): {environ['TORCHADA_COMPILER_LAUNCHER']}"
        raise UsageError(msg) from None
    if not words:
        return ()
    program = shutil.which(words[0], path=environ.get("PATH"))
    if program is None:
        msg = f"cannot find the compiler launcher '{words[0]}' named by TORCHADA_COMPILER_LAUNCHER"
        raise ToolNotFoundError(msg)
    return (program, *words[1:])

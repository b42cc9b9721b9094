"""The nvcc toolchain: the command line goes to the real nvcc, untouched (minus ``--torchada-backend``).

Nothing is parsed, translated or imported beyond what finding nvcc takes, so the same build works
on an NVIDIA machine at nvcc's own speed. ``TORCHADA_COMPILER_LAUNCHER`` still wraps the call. A human
still sees torchada: ``-v`` prints one ``#$ _TORCHADA_BACKEND_=`` line first (CMake skips ``#$ NAME=``
lines), ``--version`` and ``--help`` add a line after nvcc's own text (``--help`` one before, too).
"""

from __future__ import annotations

import os
import sys

from torchada_build.core.diagnostics import NO_NVCC

from ..backends import Backend
from ..errors import ToolNotFoundError
from ..installations import find_cuda
from ..launcher import launcher_words
from . import Toolchain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..backends import BackendChoice
    from ..installations import CudaInstallation

__all__ = ["NvccToolchain", "strip_backend_option"]

_HELP = frozenset({"--help", "-h"})
_VERSION = frozenset({"--version", "-V"})
_VERBOSE = frozenset({"--verbose", "-v", "--dryrun", "-dryrun"})


def strip_backend_option(argv: Sequence[str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--torchada-backend":
            skip = True
        elif not word.startswith("--torchada-backend="):
            kept.append(word)
    return kept


class NvccToolchain(Toolchain):
    """NVIDIA's own toolchain: nothing is planned; :meth:`passthrough` hands nvcc the command line."""

    backend = Backend.NVCC

    def describe(self) -> str:
        cuda = find_cuda(self.environ)
        return f"nvcc backend, the real nvcc {cuda.nvcc_path}" if cuda else "nvcc backend, no NVIDIA nvcc found"

    def require_installed(self) -> None:
        self._cuda()

    def _cuda(self) -> CudaInstallation:
        cuda = find_cuda(self.environ)
        if cuda is None:
            raise ToolNotFoundError(NO_NVCC.text(backend="nvcc"))
        return cuda

    def passthrough(self, argv: Sequence[str], choice: BackendChoice) -> int | None:
        """Replace this process with the real nvcc (never returns on success); run it for ``--help``
        and ``--version``, which print a line of torchada's after nvcc's."""
        cuda = self._cuda()
        environ = self.environ
        command = [*launcher_words(environ), cuda.nvcc_path, *strip_backend_option(argv)]
        words = set(argv)
        if _HELP & words or _VERSION & words:
            import subprocess

            from ..info import DOCS

            if _HELP & words:
                print("torchada-nvcc: a drop-in nvcc that builds CUDA code for Moore Threads GPUs (MUSA); "
                      f"here it passes everything to NVIDIA's nvcc at {cuda.nvcc}", flush=True)
            returncode = subprocess.run(command, env=dict(environ), check=False).returncode
            if _VERSION & words:
                print(f"Actually torchada-nvcc: the nvcc backend ({choice.reason}); see torchada-nvcc --torchada-info")
            else:
                print(f"torchada-nvcc docs: {DOCS}")
            return returncode
        if _VERBOSE & words:
            print(f"#$ _TORCHADA_BACKEND_=nvcc backend, the real nvcc {cuda.nvcc_path}; chosen because {choice.reason}",
                  file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(command[0], command, dict(environ))
        return 127  # not reached

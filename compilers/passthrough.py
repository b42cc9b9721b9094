"""The nvcc backend: the command line goes to the real nvcc, untouched (minus ``--torchada-backend``).

Nothing is parsed, translated or imported beyond what finding nvcc takes, so the same build works
on an NVIDIA machine at nvcc's own speed. ``TORCHADA_COMPILER_LAUNCHER`` still wraps the call.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from .errors import ToolNotFoundError
from .installations import find_cuda
from .launcher import launcher_words

__all__ = ["exec_nvcc", "strip_backend_option"]


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


def exec_nvcc(argv: Sequence[str], environ: Mapping[str, str]) -> int:
    """Replace this process with the real nvcc (never returns on success)."""
    cuda = find_cuda(environ)
    if cuda is None:
        msg = (
            "the nvcc backend needs NVIDIA's nvcc, and none was found (set CUDA_HOME); for Moore Threads "
            "GPUs set MUSA_HOME, or TORCHADA_BACKEND=mcc"
        )
        raise ToolNotFoundError(msg)
    command = [*launcher_words(environ), str(cuda.nvcc), *strip_backend_option(argv)]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(command[0], command, dict(environ))
    return 127  # not reached

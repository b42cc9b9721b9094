"""Fixtures for the build-integration tests: copies of the samples, build environments, a MUSA stand-in.

Two environments build every sample:

* **loopback** (``TORCHADA_BACKEND=loopback``): the full patched path — translation, torchada-nvcc, the
  real nvcc, the real link — so the result is imported where this host allows;
* **MUSA dry-run**: the ``mcc`` backend chosen automatically because a (stand-in) torch_musa and MUSA SDK
  are installed; the SDK's mcc records its command lines (:mod:`musa_standin`).

Expensive builds are session fixtures in the test modules; each copies its sample into a temporary folder.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from musa_standin import MusaStandIn, make_musa_standin

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
PACKAGES = REPO / "tests" / "packages"

# Variables of the developer's shell that would change what a build does.
_CLEARED = (
    "TORCHADA_BACKEND",
    "TORCHADA_MUSA_ARCH",
    "TORCH_CUDA_ARCH_LIST",
    "TORCH_MUSA_ARCH_LIST",
    "TORCH_EXTENSIONS_DIR",
    "MUSA_HOME",
    "MUSA_PATH",
    "PYTORCH_NVCC",
    "NVCC_PREPEND_FLAGS",
    "NVCC_APPEND_FLAGS",
    "CMAKE_TOOLCHAIN_FILE",
    "CUDACXX",
    "CC",
    "CXX",
)


@dataclass(frozen=True)
class Built:
    """A finished build: its folder, exit status and merged output."""

    directory: Path
    returncode: int
    output: str

    def check(self) -> Built:
        assert self.returncode == 0, f"build in {self.directory} failed:\n{self.output[-6000:]}"
        return self


def run(argv: Sequence[str | os.PathLike[str]], cwd: Path, env: Mapping[str, str], timeout: int = 1200) -> Built:
    process = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, timeout=timeout, check=False,
    )
    return Built(cwd, process.returncode, process.stdout)


def copy_sample(name: str, destination: Path) -> Path:
    """A fresh copy of ``samples/<name>`` (or ``tests/packages/<name>``) under ``destination``."""
    source = SAMPLES / name if (SAMPLES / name).is_dir() else PACKAGES / name
    target = destination / name
    shutil.copytree(source, target)
    return target


def source_snapshot(directory: Path) -> dict[str, bytes]:
    """Every file of a sample copy outside its build outputs, by relative path."""
    skipped = {"build", "dist", "__pycache__"}
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in directory.rglob("*")
        if p.is_file() and not skipped & set(p.relative_to(directory).parts) and p.suffix not in {".so", ".log"}
    }


@pytest.fixture(scope="session")
def build_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment every build starts from: this interpreter's scripts first, private caches."""
    root = tmp_path_factory.mktemp("build-env")
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["TORCHADA_CACHE_DIR"] = str(root / "torchada-cache")
    env["XDG_CACHE_HOME"] = str(root / "xdg-cache")  # torch's JIT extension root
    env.setdefault("CCACHE_DIR", str(Path.home() / ".cache" / "ccache"))  # torch wraps compilers in ccache
    env["CCACHE_BASEDIR"] = str(tmp_path_factory.getbasetemp())  # so copies of one sample share entries
    env["CCACHE_NOHASHDIR"] = "1"
    env["MAX_JOBS"] = "2"
    return env


@pytest.fixture(scope="session")
def driver() -> None:
    """torchada-nvcc and its toolkit mimic, which every build here goes through."""
    try:
        found = importlib.util.find_spec("torchada_build.compilers.toolkit") is not None
    except ImportError:
        found = False
    if not found:
        pytest.skip("the torchada-nvcc driver (torchada_build.compilers) is not installed")


@pytest.fixture(scope="session")
def loopback_env(build_env: dict[str, str], driver: None) -> dict[str, str]:
    return {**build_env, "TORCHADA_BACKEND": "loopback", "TORCH_MUSA_ARCH_LIST": "22"}


@pytest.fixture(scope="session")
def musa_standin(tmp_path_factory: pytest.TempPathFactory) -> MusaStandIn:
    return make_musa_standin(tmp_path_factory.mktemp("musa-standin"))


@pytest.fixture(scope="session")
def musa_env(build_env: dict[str, str], musa_standin: MusaStandIn, driver: None) -> dict[str, str]:
    """A MUSA machine as torchada recognises one; no compiler cache, so every mcc call is recorded."""
    return {
        **build_env,
        "MUSA_HOME": str(musa_standin.home),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(musa_standin.site), build_env.get("PYTHONPATH")])),
        "TORCH_MUSA_ARCH_LIST": "22",
        "TORCH_NO_COMPILER_WRAPPER": "1",
    }

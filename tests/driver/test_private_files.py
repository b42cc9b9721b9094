"""What torchada writes is either private or the user's: cache directories 0700 whatever the umask, a
cache others could write (or own) refused, no predictable temporary directory, no unit followed
through a symlink; outputs, reports and dependency files get the mode the umask gives."""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from torchada_build.compilers.units import UnitRequest, get_unit

from hipify_like.cli import main as port
from torchada_build.core.files import STALE_AFTER_S


@pytest.fixture
def umask() -> Iterator[None]:
    """Run with umask 000 (every bit left to what torchada asks for)."""
    previous = os.umask(0)
    yield
    os.umask(previous)


@pytest.fixture
def source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text('#include "h.cuh"\n__global__ void k(cudaStream_t) {}\n')
    (tmp_path / "h.cuh").write_text("#pragma once\ncudaEvent_t e;\n")
    return tmp_path / "k.cu"


def _modes(root: Path) -> set[int]:
    return {stat.S_IMODE(os.lstat(d).st_mode) for d, _, _ in os.walk(root)}


@pytest.mark.parametrize("backend", ["mcc", pytest.param("loopback", marks=pytest.mark.nvcc)])
def test_cache_directories_are_private_whatever_the_umask(driver, driver_env, source: Path, tmp_path: Path,
                                                          umask: None, backend: str) -> None:  # fmt: skip
    driver_env(backend, TORCHADA_CACHE_DIR=str(tmp_path / "new" / "cache"))
    assert driver(["--dryrun", "-c", "k.cu"]).returncode == 0
    assert _modes(tmp_path / "new") == {0o700}


def test_a_cache_directory_others_can_write_is_refused(driver, driver_env, source: Path, tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared").chmod(0o777)
    driver_env("mcc", TORCHADA_CACHE_DIR=str(tmp_path / "shared"))
    result = driver(["--dryrun", "-c", "k.cu"])
    assert result.returncode == 1 and result.stderr == (
        f"torchada-nvcc fatal   : the cache directory '{tmp_path}/shared' is writable by other users (mode 777); "
        "chmod go-w it, or set TORCHADA_CACHE_DIR to your own [TA2013]\n"
    )
    assert os.listdir(tmp_path / "shared") == []


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a directory to another user")
def test_a_cache_directory_of_another_user_is_refused(driver, driver_env, source: Path, tmp_path: Path) -> None:
    (tmp_path / "theirs").mkdir(mode=0o700)
    os.chown(tmp_path / "theirs", 4321, 4321)
    driver_env("mcc", TORCHADA_CACHE_DIR=str(tmp_path / "theirs"))
    result = driver(["--dryrun", "-c", "k.cu"])
    assert result.returncode == 1 and result.stderr == (
        f"torchada-nvcc fatal   : the cache directory '{tmp_path}/theirs' belongs to another user (uid 4321); "
        "set TORCHADA_CACHE_DIR to your own [TA2012]\n"
    )


def test_a_symlinked_unit_directory_is_not_followed(source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    request = UnitRequest(source, ())
    first = get_unit(request, cache)
    planted = tmp_path / "planted"
    first.root.rename(planted)
    first.root.symlink_to(planted)
    second = get_unit(request, cache)
    assert not second.root.is_symlink() and second.root != first.root
    assert second.main.read_text() == (planted / second.main.relative_to(second.root)).read_text()


def test_port_outputs_and_reports_get_the_umask_mode(source: Path, tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        assert port(["k.cu", "-o", "out/k.cu", "--report", "r.json", "-q"]) == 0
    finally:
        os.umask(previous)
    for written in ("out/k.cu", "out/h.cuh", "r.json"):
        assert stat.S_IMODE(os.stat(tmp_path / written).st_mode) == 0o640, written


@pytest.mark.nvcc
def test_the_work_directory_is_new_and_private_and_its_dependency_file_gets_the_umask_mode(
    driver, driver_env, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nvcc: str  # noqa: ARG001
) -> None:
    """The old work directory was $TMPDIR/torchada-nvcc-<pid>: whoever made it first (a symlink to a
    directory of theirs) received the temporaries. It is now a new directory in the private cache."""
    (tmp_path / "tmp").mkdir()
    (tmp_path / "trap").mkdir()
    (tmp_path / "tmp" / f"torchada-nvcc-{os.getpid()}").symlink_to(tmp_path / "trap")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    driver_env("loopback", TORCHADA_CACHE_DIR=str(tmp_path / "cache"))
    previous = os.umask(0o022)
    try:
        assert driver(["-c", "k.cu", "-o", "k.o", "-MD", "-MF", "k.d"]).returncode == 0
    finally:
        os.umask(previous)
    assert os.listdir(tmp_path / "trap") == []
    assert os.listdir(tmp_path / "cache" / "tmp") == []  # the work directory is gone
    assert stat.S_IMODE(os.stat(tmp_path / "k.d").st_mode) == 0o644


@pytest.mark.nvcc
def test_what_a_killed_run_left_is_removed_a_day_later(driver, driver_env, source: Path, tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    cache = tmp_path / "cache"
    driver_env("loopback", TORCHADA_CACHE_DIR=str(cache))
    assert driver(["-c", "k.cu", "-o", "k.o"]).returncode == 0
    left = [cache / "tmp" / "torchada-nvcc-killed", cache / "units" / ".tmp-killed", cache / "manifests" / ".tmp-killed"]
    for path in left:
        path.mkdir(parents=True)
        (path / "partial").write_text("half")
    recent = cache / "units" / ".tmp-running"
    recent.mkdir()
    day_and_a_bit = time.time() - STALE_AFTER_S - 60
    for path in left:
        os.utime(path, (day_and_a_bit, day_and_a_bit))
    (source.parent / "k.cu").write_text((source.parent / "k.cu").read_text() + "// a new unit\n")
    assert driver(["-c", "k.cu", "-o", "k.o"]).returncode == 0
    assert [p for p in left if p.exists()] == [] and recent.is_dir()

"""``pip install`` of an unchanged project builds it for MUSA: torchada's start-up hook (``torchada.pth``)
reaches every build process, with nothing in the command or the project that names torchada.

On a MUSA machine (the stand-in torch_musa importable, the stand-in SDK's recording mcc, no nvcc on ``PATH``),
torchsort's sdist from PyPI goes through each route a user takes: ``pip wheel``, ``pip install``,
``pip install -e``, ``uv pip install`` and a git checkout, all without build isolation, as torch_musa's
users must build. Each reaches mcc for its CUDA extension (torchsort's ``setup.py`` builds that extension only
when ``nvcc`` runs: torchada-nvcc, first on ``PATH``), and its metadata records the MUSA build. An isolated
build stops with one line. The same routes compile for real in loopback in the CI slice
(``tests/real/test_pip_loopback.py``); scikit-build-core's are in ``test_cmake_make.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import REPO, run
from musa_standin import read_mcc_calls

sys.path.append(str(REPO / "tests" / "real"))
from corpus import by_key, fetch_sdist  # noqa: E402

pytestmark = [pytest.mark.network, pytest.mark.slow]

TORCHSORT = "torchsort-0.1.10"


@pytest.fixture(scope="module")
def sdist() -> Path:
    try:
        return fetch_sdist(by_key(TORCHSORT))
    except OSError as error:
        pytest.skip(f"cannot fetch {TORCHSORT} from PyPI: {error}")


def _without_nvcc(path: str) -> str:
    """``PATH`` less every folder holding an ``nvcc``: a MUSA machine has none."""
    return os.pathsep.join(d for d in path.split(os.pathsep) if d and not os.path.exists(os.path.join(d, "nvcc")))


@pytest.fixture
def machine(musa_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The MUSA dry-run machine of this test: its own mcc log, temporary folder and compiler cache (torch
    wraps torchada-nvcc in ccache, and a shared cache would answer one route's mcc compile from another's)."""
    env = {k: v for k, v in musa_env.items() if k != "TORCH_NO_COMPILER_WRAPPER"}
    return {**env, "PATH": _without_nvcc(env["PATH"]), "STANDIN_MCC_LOG": str(tmp_path / "mcc.log"),
            "TMPDIR": str(tmp_path), "UV_CACHE_DIR": str(tmp_path / "uv-cache"), "CCACHE_DIR": str(tmp_path / "ccache")}  # fmt: skip


def _pip(*args: str | Path, env: dict[str, str], cwd: Path) -> str:
    return run([sys.executable, "-m", "pip", *args, "--no-deps"], cwd, env).check().output


def _check_musa_build(installed: Path, env: dict[str, str], arches: list[str], package: Path | None = None) -> None:
    """torchsort's two extensions built (in ``installed``, or ``package`` for an editable install), the CUDA
    one by mcc for ``arches``; the record says MUSA."""
    package = installed / "torchsort" if package is None else package
    assert {p.name.split(".")[0] for p in package.glob("*.so")} == {"isotonic_cpu", "isotonic_cuda"}
    (compile_argv,) = [a for a in read_mcc_calls(Path(env["STANDIN_MCC_LOG"])) if "-c" in a]  # ccache's -E aside
    assert [w for w in compile_argv if w.startswith("--offload-arch=")] == [f"--offload-arch={a}" for a in arches]
    translated = Path(next(w for w in compile_argv if w.endswith("isotonic_cuda.cu")))
    assert b"at::musa::OptionalMUSAGuard" in translated.read_bytes()
    (dist_info,) = installed.glob("torchsort-0.1.10.dist-info")
    record = json.loads((dist_info / "torchada.json").read_text())
    assert (record["built_for"], record["backend"], record["musa_architectures"]) == ("MUSA", "mcc", arches)


def test_pip_wheel(sdist: Path, machine: dict[str, str], tmp_path: Path) -> None:
    env = {**machine, "TORCH_MUSA_ARCH_LIST": "31;22"}
    _pip("wheel", "--no-build-isolation", "-w", tmp_path / "dist", sdist, env=env, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("torchsort-0.1.10-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "unpacked")
    _check_musa_build(tmp_path / "unpacked", env, ["mp_22", "mp_31"])


def test_pip_install(sdist: Path, machine: dict[str, str], tmp_path: Path) -> None:
    _pip("install", "--no-build-isolation", "--target", tmp_path / "target", sdist, env=machine, cwd=tmp_path)
    _check_musa_build(tmp_path / "target", machine, ["mp_22"])


def _unpacked(sdist: Path, destination: Path) -> Path:
    with tarfile.open(sdist) as archive:
        archive.extractall(destination, filter="data")
    return destination / TORCHSORT


def test_pip_install_editable(sdist: Path, machine: dict[str, str], tmp_path: Path) -> None:
    project = _unpacked(sdist, tmp_path / "src")
    _pip("install", "--no-build-isolation", "--target", tmp_path / "target", "-e", project, env=machine, cwd=tmp_path)
    _check_musa_build(tmp_path / "target", machine, ["mp_22"], package=project / "torchsort")


def test_a_git_checkout(sdist: Path, machine: dict[str, str], tmp_path: Path) -> None:
    project = _unpacked(sdist, tmp_path / "src")
    git = {**machine, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "sdist"]):
        run(argv, project, git).check()
    _pip("install", "--no-build-isolation", "--target", tmp_path / "target", f"git+file://{project}", env=git, cwd=tmp_path)
    _check_musa_build(tmp_path / "target", machine, ["mp_22"])


def test_uv_pip_install(sdist: Path, machine: dict[str, str], tmp_path: Path) -> None:
    uv = shutil.which("uv", path=os.pathsep.join([str(Path(sys.executable).parent), machine["PATH"]]))
    if uv is None:
        pytest.skip("uv is not installed (pip install -e '.[test]')")
    argv = [uv, "pip", "install", "--no-build-isolation", "--no-deps", "--python", sys.executable,
            "--target", tmp_path / "target", sdist]  # fmt: skip
    run(argv, tmp_path, machine).check()
    _check_musa_build(tmp_path / "target", machine, ["mp_22"])


def test_an_isolated_build_stops_with_one_line(sdist: Path, machine: dict[str, str], tmp_path: Path) -> None:
    """pip installs torch into the isolated build environment (the CPU build on this machine's disk, by
    a build constraint); the build stops at torch's cpp_extension import, before any compile. (pip replaces
    ``PYTHONPATH``, which holds the stand-in torch_musa, so ``TORCHADA_BACKEND`` says it is a MUSA machine;
    a torch_musa installed in the environment's site folder is found there, ``test_startup_hook.py``.)"""
    constraints = tmp_path / "build-constraints.txt"
    constraints.write_text("torch==2.13.0\n")
    argv = [sys.executable, "-m", "pip", "install", "--no-deps", "--build-constraint", constraints,
            "--target", tmp_path / "target", sdist]  # fmt: skip
    done = run(argv, tmp_path, {**machine, "TORCHADA_BACKEND": "mcc"})
    assert done.returncode != 0
    lines = [line.strip() for line in done.output.splitlines() if "[TA2032]" in line]
    assert lines == [
        "torchada: error: cannot build a torch extension for MUSA (TORCHADA_BACKEND=mcc) in an isolated build "
        "environment: it cannot see torch_musa, and its torch is the one pip installed there; build with "
        "--no-build-isolation (PIP_NO_BUILD_ISOLATION=0 for pip, UV_NO_BUILD_ISOLATION=1 for uv) [TA2032]"
    ], done.output[-4000:]
    assert read_mcc_calls(Path(machine["STANDIN_MCC_LOG"])) == []
    # pip's environment spelling of the remedy really turns isolation off
    argv = [sys.executable, "-m", "pip", "install", "--no-deps", "--target", tmp_path / "target", sdist]
    run(argv, tmp_path, {**machine, "PIP_NO_BUILD_ISOLATION": "0"}).check()
    _check_musa_build(tmp_path / "target", machine, ["mp_22"])


def test_without_torch_musa_the_hook_changes_nothing(sdist: Path, build_env: dict[str, str], tmp_path: Path) -> None:
    """No torch_musa, no TORCHADA_BACKEND (and no nvcc): torchsort builds its C++ extension only, as without
    torchada; no record."""
    env = {**build_env, "TMPDIR": str(tmp_path), "PATH": _without_nvcc(build_env["PATH"])}
    _pip("install", "--no-build-isolation", "--target", tmp_path / "target", sdist, env=env, cwd=tmp_path)
    assert {p.name.split(".")[0] for p in (tmp_path / "target" / "torchsort").glob("*.so")} == {"isotonic_cpu"}
    assert not list((tmp_path / "target").glob("*.dist-info/torchada.json"))

"""``pip`` builds an unchanged sdist for MUSA through torchada's start-up hook (``torchada.pth``), in loopback on
the test device: torch_musa importable (the stand-in's), the CUDA build of torch, nothing in the command that
names torchada. torchsort through ``pip install``, torch-scatter through ``pip wheel``; the other routes run
in the MUSA dry-run of the default suite (``tests/build/test_pip_routes.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from corpus import build_environment, by_key, fetch_sdist
from musa_standin import make_musa_standin

pytestmark = [pytest.mark.network, pytest.mark.nvcc, pytest.mark.slow, pytest.mark.real, pytest.mark.ci_slice]


def _sdist(key: str) -> Path:
    try:
        return fetch_sdist(by_key(key))
    except OSError as error:
        pytest.skip(f"cannot fetch {key} from PyPI: {error}")


def _test_device(work: Path, venv: Path) -> dict[str, str]:
    """A MUSA machine that compiles for real: torch_musa importable, ``TORCHADA_BACKEND=loopback``."""
    standin = make_musa_standin(work / "musa-standin")
    env = build_environment("loopback", work, venv, None)
    return {**env, "PYTHONPATH": str(standin.site), "TMPDIR": str(work)}


def _translated(env: dict[str, str], name: str) -> bytes:
    (copy,) = {p.read_bytes() for p in Path(env["TORCHADA_CACHE_DIR"]).rglob(name) if p.is_file()}
    return copy


def _record(wheel_or_dist_info: Path) -> dict[str, object]:
    if wheel_or_dist_info.suffix == ".whl":
        with zipfile.ZipFile(wheel_or_dist_info) as archive:
            (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/torchada.json")]
            return json.loads(archive.read(name))
    return json.loads((wheel_or_dist_info / "torchada.json").read_text())


def _pip(venv: Path, *args: str | Path, env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", *map(str, args)], env=env, cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-6000:]
    return done.stdout


def test_pip_install_builds_torchsort_in_loopback(venv: Path, tmp_path: Path) -> None:
    env = _test_device(tmp_path, venv)
    _pip(venv, "install", "--no-build-isolation", "--no-deps", "--target", tmp_path / "target", _sdist("torchsort-0.1.10"),
         env=env, cwd=tmp_path)  # fmt: skip
    built = {p.name.split(".")[0] for p in (tmp_path / "target" / "torchsort").glob("*.so")}
    assert built == {"isotonic_cpu", "isotonic_cuda"}, "torchsort's nvcc check must find torchada-nvcc"
    assert b"at::musa::OptionalMUSAGuard" in _translated(env, "isotonic_cuda.cu")
    record = _record(tmp_path / "target" / "torchsort-0.1.10.dist-info")
    assert record["built_for"] == "MUSA" and record["backend"] == "loopback"
    assert record["musa_architectures"] == ["mp_22"]


def test_pip_wheel_builds_torch_scatter_in_loopback(venv: Path, tmp_path: Path) -> None:
    env = {**_test_device(tmp_path, venv), "FORCE_ONLY_CUDA": "1"}
    _pip(venv, "wheel", "--no-build-isolation", "--no-deps", "-w", tmp_path / "dist", _sdist("torch-scatter-2.1.2"),
         env=env, cwd=tmp_path)  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("torch_scatter-2.1.2-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        libraries = {os.path.basename(n).split(".")[0] for n in archive.namelist() if n.endswith(".so")}
    assert {"_scatter_cuda", "_segment_csr_cuda", "_segment_coo_cuda"} <= libraries
    assert b"getCurrentMUSAStream" in _translated(env, "scatter_cuda.cu")
    record = _record(wheel)
    assert record["backend"] == "loopback" and record["musa_architectures"] == ["mp_22"]

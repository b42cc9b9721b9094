"""JIT kernel libraries, unchanged and pinned, in a venv of their own with the CUDA build of torch:
FlashInfer's JIT build of its norm module, stock (the real nvcc), in loopback and in the MUSA dry-run
(the stand-in SDK), each with torchada-nvcc found the way FlashInfer finds nvcc (``CUDA_HOME``).

Without a GPU FlashInfer cannot pick an architecture, so ``FLASHINFER_CUDA_ARCH_LIST`` names one; it
builds but cannot load its module (that needs the driver). Opt-in (``-m real``): the venv is about 6 GB.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus import BUILD_REQUIREMENTS, CUDA_ARCH, REPO, build_environment, cached_venv
from musa_standin import make_musa_standin, read_mcc_calls

pytestmark = [pytest.mark.real, pytest.mark.network, pytest.mark.nvcc, pytest.mark.slow]

FLASHINFER = "flashinfer-python==0.7.4"
SCRIPT = REPO / "tests" / "packages" / "jit_libraries" / "flashinfer_norm.py"


@pytest.fixture(scope="module")
def flashinfer_venv() -> Path:
    try:
        return cached_venv(f"jit-venv-{FLASHINFER.replace('==', '-')}", (*BUILD_REQUIREMENTS, FLASHINFER))
    except RuntimeError as error:
        pytest.skip(f"cannot install {FLASHINFER}: {error}")


def _build(mode: str, work: Path, venv: Path) -> tuple[str, list[Path]]:
    standin = make_musa_standin(work / "musa-standin") if mode == "musa" else None
    env = build_environment(mode, work, venv, standin.home.parent if standin else None)
    env.update(FLASHINFER_CUDA_ARCH_LIST=CUDA_ARCH, FLASHINFER_WORKSPACE_BASE=str(work / "flashinfer"))
    python = str(venv / "bin" / "python")
    if mode != "stock":
        env["CUDA_HOME"] = subprocess.run([python, "-m", "torchada_build", "--cuda-home"], env=env, text=True,
                                          capture_output=True, check=True).stdout.strip()  # fmt: skip
    done = subprocess.run([python, str(SCRIPT)], env=env, cwd=work, capture_output=True, text=True, check=False)
    output = done.stdout + done.stderr
    objects = sorted((work / "flashinfer").rglob("*.cuda.o"))
    return output, objects


@pytest.mark.parametrize("mode", ["stock", "loopback"])
def test_flashinfer_norm_module_builds(tmp_path: Path, flashinfer_venv: Path, mode: str) -> None:
    output, objects = _build(mode, tmp_path, flashinfer_venv)
    assert any(line.startswith("BUILT ") for line in output.splitlines()), output[-6000:]
    assert [o.name for o in objects] == ["csrc_flashinfer_norm_binding.cuda.o", "csrc_norm.cuda.o"], output[-3000:]
    if mode == "loopback":
        copies = list((tmp_path / "torchada-cache" / "units").rglob("norm.cuh"))
        assert copies and all(b"musaStream_t" in p.read_bytes() for p in copies), copies


def test_flashinfer_norm_module_in_musa_dry_run(tmp_path: Path, flashinfer_venv: Path) -> None:
    output, _ = _build("musa", tmp_path, flashinfer_venv)
    compiles = [argv for argv in read_mcc_calls(tmp_path / "mcc.log") if "-c" in argv]
    assert sorted(Path(a[a.index("-c") + 1]).name for a in compiles) == ["flashinfer_norm_binding.cu", "norm.cu"], output[-6000:]
    for argv in compiles:
        assert argv[argv.index("-x") + 1] == "musa" and "--offload-arch=mp_22" in argv
        assert "/units/" in argv[argv.index("-c") + 1]

"""JIT kernel libraries, unchanged and pinned, in a venv of their own with the CUDA build of torch,
each stock (the real nvcc), in loopback and in the MUSA dry-run (the stand-in SDK), with torchada-nvcc
found the way the library finds nvcc (``CUDA_HOME``):

* FlashInfer's JIT builds of its norm module and of its sampling module (cub block scans and
  reductions on half and bfloat16). Without a GPU it cannot pick an architecture, so
  ``FLASHINFER_CUDA_ARCH_LIST`` names one; it builds but cannot load the module (that needs the driver).
* DeepSpeed's op builder for FusedAdam (torch's ``load()`` underneath, so torchada's hook runs it);
  ``DS_ACCELERATOR=cuda``, since without a GPU DeepSpeed picks its CPU accelerator.
* TileLang's JIT of a float16 GEMM tile program (``tilelang.compile``, its cython backend: ``nvcc
  --shared`` of the generated CUDA, TileLang's templates and the CUTLASS its wheel vendors), in a venv of
  its own (it pins an older ``apache-tvm-ffi`` than FlashInfer). It builds; loading stops where the CUDA
  driver is needed, stock or not.

Opt-in (``-m real``): the venv is about 7 GB.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from corpus import BUILD_REQUIREMENTS, CUDA_ARCH, REPO, build_environment, cached_venv
from musa_standin import make_musa_standin, read_mcc_calls

pytestmark = [pytest.mark.real, pytest.mark.network, pytest.mark.nvcc, pytest.mark.slow]

FLASHINFER = "flashinfer-python==0.7.4"
DEEPSPEED = "deepspeed==0.19.8"
TILELANG = "tilelang==0.1.15"
SCRIPTS = REPO / "tests" / "packages" / "jit_libraries"


@pytest.fixture(scope="module")
def jit_venv() -> Path:
    try:
        return cached_venv("jit-venv", (*BUILD_REQUIREMENTS, FLASHINFER), built_against=(DEEPSPEED,))
    except RuntimeError as error:
        pytest.skip(f"cannot install {FLASHINFER} and {DEEPSPEED}: {error}")


@pytest.fixture(scope="module")
def tilelang_venv() -> Path:
    try:
        return cached_venv("tilelang-venv", (*BUILD_REQUIREMENTS, TILELANG))
    except RuntimeError as error:
        pytest.skip(f"cannot install {TILELANG}: {error}")


def _run(script: str, mode: str, work: Path, venv: Path, *args: str) -> str:
    """``script args`` run as a user would in ``mode`` (through torchada's hook unless stock); its output."""
    standin = make_musa_standin(work / "musa-standin") if mode == "musa" else None
    env = build_environment(mode, work, venv, standin.home.parent if standin else None)
    env.update(FLASHINFER_CUDA_ARCH_LIST=CUDA_ARCH, FLASHINFER_WORKSPACE_BASE=str(work / "flashinfer"),
               DS_ACCELERATOR="cuda", TMPDIR=str(work / "tmp"), TILELANG_CACHE_DIR=str(work / "tilelang-cache"))  # fmt: skip
    (work / "tmp").mkdir(exist_ok=True)
    python = str(venv / "bin" / "python")
    hook = [] if mode == "stock" else ["-m", "torchada_build"]
    if mode != "stock":
        env["CUDA_HOME"] = subprocess.run([python, "-m", "torchada_build", "--cuda-home"], env=env, text=True,
                                          capture_output=True, check=True).stdout.strip()  # fmt: skip
    done = subprocess.run([python, *hook, str(SCRIPTS / script), *args], env=env, cwd=work, capture_output=True, text=True,
                          check=False)  # fmt: skip
    return done.stdout + done.stderr


FLASHINFER_MODULES = {
    "norm": (["flashinfer_norm_binding.cu", "norm.cu"], "norm.cuh", b"musaStream_t"),
    "sampling": (["flashinfer_sampling_binding.cu", "renorm.cu", "sampling.cu"], "sampling.cuh", b"#include <murand_kernel.h>"),
}
"""Each module's CUDA sources, a header of FlashInfer's that its translated copy shows, and text in that copy."""


def _build(module: str, mode: str, work: Path, venv: Path) -> tuple[str, list[Path]]:
    output = _run("flashinfer_module.py", mode, work, venv, module)
    return output, sorted((work / "flashinfer").rglob("*.cuda.o"))


@pytest.mark.parametrize("module", FLASHINFER_MODULES)
@pytest.mark.parametrize("mode", ["stock", "loopback"])
def test_flashinfer_module_builds(tmp_path: Path, jit_venv: Path, mode: str, module: str) -> None:
    sources, header, text = FLASHINFER_MODULES[module]
    output, objects = _build(module, mode, tmp_path, jit_venv)
    assert any(line.startswith("BUILT ") for line in output.splitlines()), output[-6000:]
    assert [o.name for o in objects] == [f"csrc_{Path(s).stem}.cuda.o" for s in sources], output[-3000:]
    if mode == "loopback":
        copies = list((tmp_path / "torchada-cache" / "units").rglob(header))
        assert copies and all(text in p.read_bytes() for p in copies), copies


@pytest.mark.parametrize("module", FLASHINFER_MODULES)
def test_flashinfer_module_in_musa_dry_run(tmp_path: Path, jit_venv: Path, module: str) -> None:
    output, _ = _build(module, "musa", tmp_path, jit_venv)
    compiles = [argv for argv in read_mcc_calls(tmp_path / "mcc.log") if "-c" in argv]
    assert sorted(Path(a[a.index("-c") + 1]).name for a in compiles) == FLASHINFER_MODULES[module][0], output[-6000:]
    for argv in compiles:
        assert argv[argv.index("-x") + 1] == "musa" and "--offload-arch=mp_22" in argv
        assert "/units/" in argv[argv.index("-c") + 1]


@pytest.mark.parametrize("mode", ["stock", "loopback", "musa"])
def test_deepspeed_fused_adam_op_builder(tmp_path: Path, jit_venv: Path, mode: str) -> None:
    output = _run("deepspeed_fused_adam.py", mode, tmp_path, jit_venv)
    expected = "LOAD_ERROR" if mode == "musa" else "LOADED"  # the stand-in's objects are empty
    assert any(line.split(" ")[0] == expected for line in output.splitlines()), output[-6000:]
    if mode == "loopback":
        copies = list((tmp_path / "torchada-cache" / "units").rglob("multi_tensor_apply.cuh"))
        assert copies and all(b"musaStream" in p.read_bytes() or b"MUSA" in p.read_bytes() for p in copies), copies
    if mode == "musa":
        compiles = [argv for argv in read_mcc_calls(tmp_path / "mcc.log") if "-c" in argv]
        assert [Path(a[a.index("-c") + 1]).name for a in compiles] == ["multi_tensor_adam.cu"], output[-6000:]


@pytest.mark.parametrize("mode", ["stock", "loopback", "musa"])
def test_tilelang_gemm_jit(tmp_path: Path, tilelang_venv: Path, mode: str) -> None:
    output = _run("tilelang_gemm.py", mode, tmp_path, tilelang_venv)
    lines = [line.split(" ")[0] for line in output.splitlines()]
    assert "BUILT" in lines and "LOAD_ERROR" in lines, output[-6000:]  # no driver here; the stand-in's objects are empty
    units = tmp_path / "torchada-cache" / "units"
    if mode == "loopback":
        templates = list(units.rglob("tl_templates/cuda/common.h"))
        assert templates and all(b"MUSA" in p.read_bytes() for p in templates), templates
        assert not list(units.rglob("cutlass/*.h")), "the vendored CUTLASS is the library, not code to translate"
    if mode == "musa":
        compiles = [argv for argv in read_mcc_calls(tmp_path / "mcc.log") if "-c" in argv]
        assert len(compiles) == 1 and "/units/" in compiles[0][compiles[0].index("-c") + 1], output[-6000:]
        assert "--offload-arch=mp_22" in compiles[0]

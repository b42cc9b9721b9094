"""JIT kernel libraries that run nvcc themselves, unchanged, with torchada-nvcc as the nvcc they find.

Apache TVM-FFI (``apache-tvm-ffi``, pinned in the test extra; SGLang's JIT kernels use its
``tvm_ffi.cpp.load_inline``) finds nvcc through ``CUDA_HOME``, ``CUDA_PATH`` or ``PATH``; each is
pointed at the toolkit mimic (``python -m torchada_build --cuda-home``). Without a GPU it cannot pick
an architecture (it says "Could not detect CUDA compute_cap"), so ``TVM_FFI_CUDA_ARCH_LIST`` names one.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PACKAGES, run
from musa_standin import MusaStandIn, read_mcc_calls

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]

TVM_FFI_SCRIPT = PACKAGES / "jit_libraries" / "tvm_ffi_add_one.py"


def _toolkit_mimic(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "torchada_build", "--cuda-home"], env=env, capture_output=True,
                          text=True, check=True)  # fmt: skip
    return done.stdout.strip()


def _tvm_ffi_build(directory: Path, env: dict[str, str], found_by: str) -> tuple[str, Path]:
    if importlib.util.find_spec("tvm_ffi") is None:
        pytest.skip("apache-tvm-ffi is not installed (pip install -e '.[test]')")
    mimic = _toolkit_mimic(env)
    env = {k: v for k, v in env.items() if k not in ("CUDA_HOME", "CUDA_PATH")}
    env["TVM_FFI_CUDA_ARCH_LIST"] = "8.0"
    if found_by == "PATH":
        env["PATH"] = os.pathsep.join([f"{mimic}/bin", env["PATH"]])
    else:
        env[found_by] = mimic
    directory.mkdir()
    built = run([sys.executable, TVM_FFI_SCRIPT, directory / "build"], directory, env).check()
    return built.output, directory / "build"


@pytest.mark.parametrize("found_by", ["CUDA_HOME", "CUDA_PATH", "PATH"])
def test_tvm_ffi_load_inline_in_loopback(tmp_path: Path, loopback_env: dict[str, str], found_by: str) -> None:
    output, build = _tvm_ffi_build(tmp_path / "tvm", loopback_env, found_by)
    assert "LOADED" in output.splitlines(), output
    ninja = (build / "build.ninja").read_text()
    assert f"nvcc = {_toolkit_mimic(loopback_env)}/bin/nvcc" in ninja
    copies = [p for p in Path(loopback_env["TORCHADA_CACHE_DIR"]).rglob("cuda.cu") if str(build) in str(p)]
    assert copies and all(b"musaGetLastError" in p.read_bytes() for p in copies), copies
    assert b"cudaGetLastError" in (build / "cuda.cu").read_bytes(), "TVM-FFI's own source stays CUDA"


def test_tvm_ffi_load_inline_in_musa_dry_run(tmp_path: Path, musa_env: dict[str, str], musa_standin: MusaStandIn) -> None:
    env = {**musa_env, "STANDIN_MCC_LOG": str(tmp_path / "mcc.log")}
    output, build = _tvm_ffi_build(tmp_path / "tvm", env, "CUDA_HOME")
    assert any(line.startswith("LOAD_ERROR") for line in output.splitlines()), output  # empty stand-in objects
    (compile_argv,) = [argv for argv in read_mcc_calls(tmp_path / "mcc.log") if "-c" in argv]
    assert compile_argv[0] == str(musa_standin.mcc)
    assert compile_argv[compile_argv.index("-x") + 1] == "musa" and "--offload-arch=mp_22" in compile_argv
    assert Path(compile_argv[compile_argv.index("-c") + 1]).name == "cuda.cu" and "/units/" in compile_argv[compile_argv.index("-c") + 1]

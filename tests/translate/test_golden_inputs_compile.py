"""The golden inputs are real CUDA: nvcc compiles each of them as it is.

``pytorch.cu`` is left out: the CPU-only torch wheel lacks ``c10/cuda/impl/cuda_cmake_macros.h``
and the cuSPARSE/cuSOLVER headers that ``ATen/cuda/CUDAContext.h`` includes.
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
NEEDS_CUDA_TORCH = {"pytorch.cu"}


def _nvidia_includes() -> list[str]:
    spec = importlib.util.find_spec("nvidia")
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    return [f"-I{d}" for root in roots for d in sorted(root.glob("*/include"))]


@pytest.mark.nvcc
@pytest.mark.slow
def test_golden_inputs_compile_with_nvcc(nvcc: str, tmp_path: Path) -> None:
    sources = sorted(str(p) for p in GOLDEN.glob("*.cu") if p.name not in NEEDS_CUDA_TORCH)
    includes = _nvidia_includes()
    if not any("cu13" in i for i in includes) or not any("nccl" in i for i in includes):
        pytest.skip("the nvidia-cublas/-curand/-nccl wheels' headers are not installed")
    command = [nvcc, "-std=c++17", "-arch=sm_90", "-c", "-odir", str(tmp_path), f"-I{GOLDEN}", *includes, *sources]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert sorted(p.stem for p in tmp_path.glob("*.o")) == sorted(Path(s).stem for s in sources)

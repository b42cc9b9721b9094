"""The core families' data (runtime, cuBLAS, cuRAND, NCCL, fp16/bf16/fp8, compiler macros, the
PyTorch CUDA surface): each inventory name sits in its family's file, the ownership rules hold, and
the irregular renames are the ones the reference notes give (musa_inventory.md §1.3-1.4).

Schema-wide invariants (sorting, evidence, statuses, idempotence) are in ``test_database.py``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from hipify_like.inventory import cuda_inventory
from hipify_like.mapping import Status, load_db

CUDA_INCLUDE = Path("/usr/local/cuda/include")
NUMBER_TYPE_HEADERS = [
    CUDA_INCLUDE / f"cuda_{kind}.{ext}" for kind in ("fp16", "bf16", "fp8", "fp6", "fp4") for ext in ("h", "hpp")
]
DB = load_db()


@pytest.mark.parametrize("library", ["runtime", "cublas", "curand", "nccl"])
def test_every_inventory_name_of_a_library_is_in_its_file(library: str) -> None:
    names = {n.name for n in cuda_inventory() if n.library == library}
    covered = {e.cuda for e in DB.entries if e.library == library and e.kind.is_identifier}
    assert sorted(names - covered) == []


def test_device_names_of_the_number_type_headers_are_in_fp16() -> None:
    """Ownership: a device name belongs to fp16.tsv iff cuda_{fp16,bf16,fp8,fp6,fp4}.h(pp) spell it."""
    present = [p for p in NUMBER_TYPE_HEADERS if p.is_file()]
    if not present:
        pytest.skip(f"no CUDA number-type headers under {CUDA_INCLUDE}")
    words = {w for p in present for w in re.findall(r"\w+", p.read_text(errors="replace"))}
    owned = {n.name for n in cuda_inventory() if n.library == "device" and n.name in words}
    assert len(owned) > 300
    libraries = {name: DB.identifier(name).library if DB.identifier(name) else None for name in owned}
    assert {name: lib for name, lib in libraries.items() if lib != "fp16"} == {}


def test_every_torch_cuda_header_has_an_entry() -> None:
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("torch is not installed")
    include = Path(next(iter(spec.submodule_search_locations))) / "include"
    headers = [p.relative_to(include).as_posix() for top in ("ATen/cuda", "c10/cuda") for p in (include / top).rglob("*.*h")]
    assert len(headers) > 50
    assert [h for h in headers if DB.header(h) is None] == []


# A wrong edit to one of these rows is a wrong port: each comes from the reference notes.
IRREGULAR = {
    "CUBLAS_GEMM_DEFAULT_TENSOR_OP": ("MUBLAS_GEMM_DEFAULT", Status.SUPPORTED),
    "CUBLAS_TF32_TENSOR_OP_MATH": ("MUBLAS_TENSOR_OP_MATH", Status.SUPPORTED),
    "CUBLAS_STATUS_NOT_SUPPORTED": ("MUBLAS_STATUS_NOT_IMPLEMENTED", Status.MANUAL),
    "cublasGetStatusString": ("mublasGetStatusString", Status.SUPPORTED),
    "cublasSgemm_v2": ("mublasSgemm", Status.SUPPORTED),
    "ncclCommCuDevice": ("mcclCommMuDevice", Status.SUPPORTED),
    "ncclCommSplit": ("", Status.UNSUPPORTED),
    "curandStatePhilox4_32_10_t": ("murandStatePhilox4_32_10_t", Status.SUPPORTED),
    "__nv_bfloat16": ("__mt_bfloat16", Status.SUPPORTED),
    "__nv_half": ("__half", Status.SUPPORTED),
    "__half": ("__half", Status.SUPPORTED),
    "__nv_fp8_e4m3": ("__mt_fp8_e4m3", Status.SUPPORTED),
    "__NV_E4M3": ("__MT_E4M3", Status.SUPPORTED),
    "__nv_cvt_float2_to_fp8x2": ("__musa_cvt_float2_to_fp8x2", Status.SUPPORTED),
    "cudaMallocAsync": ("", Status.UNSUPPORTED),
    "cudaGridDependencySynchronize": ("", Status.UNSUPPORTED),
    "make_cudaExtent": ("make_musaExtent", Status.SUPPORTED),
    "CUDART_VERSION": ("MUSART_VERSION", Status.MANUAL),
    "CUDA_VERSION": ("CUDA_VERSION", Status.SUPPORTED),  # kept: torchada-nvcc defines it on mcc
    "__NVCC__": ("__MUSACC__", Status.SUPPORTED),
    "kCUDA": ("kPrivateUse1", Status.SUPPORTED),
    "DeviceType::CUDA": ("DeviceType::PrivateUse1", Status.SUPPORTED),
    ".is_cuda": (".is_privateuseone", Status.SUPPORTED),
}


@pytest.mark.parametrize("cuda", sorted(IRREGULAR))
def test_irregular_rename(cuda: str) -> None:
    entry = DB.identifier(cuda)
    assert (entry.musa, entry.status) == IRREGULAR[cuda]


@pytest.mark.parametrize(
    ("cuda", "musa"),
    [
        ("cublas_v2.h", "mublas.h"),
        ("curand_philox4x32_x.h", "murand_philox4x32_10.h"),
        ("nccl.h", "mccl.h"),
        ("cuda_bf16.h", "musa_bf16.h"),
        ("ATen/cuda/CUDAContext.h", "torch_musa/csrc/aten/musa/MUSAContext.h"),
        ("c10/cuda/CUDAGuard.h", "torch_musa/csrc/core/MUSAGuard.h"),
        ("ATen/cuda/Atomic.cuh", "ATen/musa/Atomic.muh"),
        ("ATen/native/cuda/Loops.cuh", "ATen/native/musa/Loops.muh"),
    ],
)
def test_header_rename(cuda: str, musa: str) -> None:
    assert DB.header(cuda).musa == musa

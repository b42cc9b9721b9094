"""Invariants of the core families' data files: runtime, cuBLAS, cuRAND, NCCL, fp16/bf16/fp8,
compiler macros and the PyTorch CUDA surface.

Every CUDA name of these families in ``data/inventory/cuda_api_inventory.tsv`` has exactly one
entry in its family's file, each entry's status agrees with its MUSA name and note, evidence
``inventory`` names a real MUSA inventory row, and no MUSA name is itself a CUDA name that would be
renamed again (translation is idempotent).
"""

from __future__ import annotations

import csv
import importlib.util
import re
from pathlib import Path

import pytest

from hipify_like.mapping import DATA_DIR, Kind, Status, build_db, read_entries

FAMILIES = ("runtime", "cublas", "curand", "nccl", "fp16", "compiler", "pytorch")
INVENTORY = DATA_DIR / "inventory"
CUDA_INCLUDE = Path("/usr/local/cuda/include")
FP_HEADERS = [CUDA_INCLUDE / f"cuda_{kind}.{ext}" for kind in ("fp16", "bf16", "fp8", "fp6", "fp4") for ext in ("h", "hpp")]
KIND_ORDER = list(Kind)


def _tsv(name: str) -> list[dict[str, str]]:
    with (INVENTORY / name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture(scope="module")
def db():
    return build_db()


@pytest.fixture(scope="module")
def cuda_inventory() -> list[dict[str, str]]:
    return _tsv("cuda_api_inventory.tsv")


@pytest.fixture(scope="module")
def musa_names() -> set[str]:
    return {row["musa_name"] for row in _tsv("musa_api_inventory.tsv")}


def _fp_header_words() -> set[str]:
    present = [p for p in FP_HEADERS if p.is_file()]
    if not present:
        pytest.skip(f"no CUDA toolkit number-type headers under {CUDA_INCLUDE}")
    return {w for p in present for w in re.findall(r"\w+", p.read_text(errors="replace"))}


@pytest.mark.parametrize("library", ["runtime", "cublas", "curand", "nccl"])
def test_every_inventory_name_of_a_library_has_one_entry_in_its_file(db, cuda_inventory, library) -> None:
    names = {row["cuda_name"] for row in cuda_inventory if row["library"] == library}
    covered = {e.cuda for e in db.entries if e.library == library and e.kind.is_identifier}
    assert sorted(names - covered) == []


def test_every_device_name_in_the_number_type_headers_is_in_fp16(db, cuda_inventory) -> None:
    words = _fp_header_words()
    owned = {row["cuda_name"] for row in cuda_inventory if row["library"] == "device" and row["cuda_name"] in words}
    assert len(owned) > 300
    misplaced = {n: db.identifier(n).library if db.identifier(n) else None for n in owned}
    assert {n: lib for n, lib in misplaced.items() if lib != "fp16"} == {}


def test_every_torch_cuda_header_has_an_entry(db) -> None:
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("torch is not installed")
    include = Path(next(iter(spec.submodule_search_locations))) / "include"
    headers = [p.relative_to(include).as_posix() for top in ("ATen/cuda", "c10/cuda") for p in (include / top).rglob("*.*h")]
    assert len(headers) > 50
    assert [h for h in headers if db.header(h) is None] == []


@pytest.mark.parametrize("family", FAMILIES)
def test_status_agrees_with_musa_name_and_note(family) -> None:
    for e in read_entries(DATA_DIR / f"{family}.tsv"):
        if e.status is Status.SUPPORTED:
            assert e.musa, e
        elif e.status is Status.UNSUPPORTED:
            assert not e.musa and e.note, e
        else:
            assert e.note, e
        assert e.evidence, e


@pytest.mark.parametrize("family", FAMILIES)
def test_inventory_evidence_names_a_musa_inventory_row(family, musa_names) -> None:
    wrong = [e.cuda for e in read_entries(DATA_DIR / f"{family}.tsv") if e.evidence == "inventory" and e.musa not in musa_names]
    assert wrong == []


@pytest.mark.parametrize("family", FAMILIES)
def test_rows_are_sorted_by_kind_then_name(family) -> None:
    keys = [(KIND_ORDER.index(e.kind), e.cuda) for e in read_entries(DATA_DIR / f"{family}.tsv")]
    assert keys == sorted(keys)


def test_no_musa_name_is_renamed_again(db) -> None:
    lookups = {Kind.HEADER: db.header, Kind.LIBRARY: db.library, Kind.DISPATCH_KEY: db.dispatch_key}
    again = []
    for e in db.entries:
        if not e.renames or e.library not in FAMILIES:
            continue
        lookup = db.identifier if e.kind.is_identifier else lookups.get(e.kind)
        parts = [e.musa, *e.musa.lstrip(".").split("::")] if e.kind.is_identifier else [e.musa]
        for part in parts:
            target = lookup(part) if lookup else None
            if target is not None and target.renames:
                again.append((e.cuda, part, target.musa))
    assert again == []


# The irregular renames and known gaps (musa_inventory.md §1.3-1.4): a wrong edit here is a wrong port.
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
    "CUDA_VERSION": ("", Status.MANUAL),
    "__NVCC__": ("__MUSACC__", Status.SUPPORTED),
    "kCUDA": ("kPrivateUse1", Status.SUPPORTED),
    "DeviceType::CUDA": ("DeviceType::PrivateUse1", Status.SUPPORTED),
    ".is_cuda": (".is_privateuseone", Status.SUPPORTED),
}


@pytest.mark.parametrize("cuda", sorted(IRREGULAR))
def test_irregular_renames(db, cuda) -> None:
    entry = db.identifier(cuda)
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
def test_header_renames(db, cuda, musa) -> None:
    assert db.header(cuda).musa == musa

"""The data of the library families beyond the runtime (issue 6): every CUDA name of these libraries is
mapped to its code- or doc-basis MUSA counterpart where the MUSA inventory has one, and the known
irregular renames and vendor-table bugs come out right."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from hipify_like.inventory import cuda_inventory, musa_inventory
from hipify_like.mapping import DATA_DIR, Status, load_db, read_entries

DB = load_db()
FAMILY_FILES = (
    "cooperative_groups", "cub", "cublasLt", "cucomplex", "cudnn", "cufft", "cusolver", "cusparse", "cutlass",
    "device", "driver", "library_types", "nvrtc", "thrust", "wmma",
)
INVENTORY_LIBRARIES = frozenset(
    {"cub", "cublasLt", "cucomplex", "cudnn", "cufft", "cusolver", "cusparse", "device", "driver", "library_types", "nvrtc"}
)
FP16_HEADERS = [
    Path("/usr/local/cuda/include") / f"cuda_{kind}{suffix}"
    for kind in ("fp16", "bf16", "fp8", "fp6", "fp4")
    for suffix in (".h", ".hpp")
]
CITATION = re.compile(r"[\w.-]+/[\w.-]+:\S+|\w+\.md §[\d.]+|musa_api_inventory\.tsv \(absent\)")


def _entries(name: str):
    return read_entries(DATA_DIR / f"{name}.tsv")


def _code_counterparts() -> dict[str, set[str]]:
    """CUDA name → the MUSA names that real (code- or doc-basis) MUSA sources give as its equivalent."""
    counterparts: dict[str, set[str]] = defaultdict(set)
    for row in musa_inventory().values():
        if row.basis in ("code", "doc") and row.cuda_name and not row.cuda_equivalent.endswith("]"):
            counterparts[row.cuda_name].add(row.name)
    return counterparts


def test_every_name_with_a_code_basis_counterpart_is_mapped_to_it() -> None:
    counterparts = _code_counterparts()
    wrong = []
    for name in cuda_inventory():
        entry = DB.identifier(name.name)
        targets = counterparts.get(name.name)
        if name.library not in INVENTORY_LIBRARIES or entry is None or entry.library not in FAMILY_FILES or not targets:
            continue
        # A manual entry may target another spelling (an SDK-dependent form) when its note names the real one.
        if entry.musa not in targets and not (entry.status is Status.MANUAL and any(t in entry.note for t in targets)):
            wrong.append(f"{name.name} -> {entry.musa!r}, the inventory has {sorted(targets)}")
    assert not wrong, wrong


@pytest.mark.parametrize(
    ("cuda", "musa"),
    [
        ("CUDA_SUCCESS", "MUSA_SUCCESS"),
        ("CUDA_ERROR_OUT_OF_MEMORY", "MUSA_ERROR_OUT_OF_MEMORY"),
        ("CUresult", "MUresult"),
        ("CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED", "MU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED"),
        ("cuTensorMapEncodeTiled", "muTensorMapEncodeTiled"),
        ("cublasLtGetCudartVersion", "mublasLtGetCudartVersion"),
        ("cusolverDnCungqr", "musolverDnCungqr"),
        ("cusolverDnCunmqr", "musolverDnCunmqr"),
        ("CUDA_R_16BF", "MUSA_R_16BF"),
        ("make_cuComplex", "make_muComplex"),
        ("nvcuda", "mtmusa"),
        ("thrust::cuda", "thrust::musa"),
        ("cutlass", "mutlass"),
        ("cute", "mute"),
        ("CUTLASS_HOST_DEVICE", "MUTLASS_HOST_DEVICE"),
        ("cub", "cub"),
        ("cooperative_groups", "cooperative_groups"),
        ("__syncthreads", "__syncthreads"),
    ],
)
def test_irregular_and_kept_names(cuda: str, musa: str) -> None:
    entry = DB.identifier(cuda)
    assert entry is not None and entry.musa == musa


@pytest.mark.parametrize(
    ("cuda", "musa"),
    [
        ("cuda.h", "musa.h"),
        ("cusolverDn.h", "musolver.h"),
        ("cutlass/cutlass.h", "mutlass/mutlass.h"),
        ("cute/tensor.hpp", "mute/tensor.hpp"),
        ("thrust/system/cuda/execution_policy.h", "thrust/system/musa/execution_policy.h"),
        ("cub/cub.cuh", "cub/cub.cuh"),
        ("mma.h", "mma.h"),
    ],
)
def test_family_headers(cuda: str, musa: str) -> None:
    entry = DB.header(cuda)
    assert entry is not None and entry.musa == musa


def test_vendor_table_renaming_bugs_are_not_targets() -> None:
    """general.json turns the ``Cu`` of ``cusolverDnCungqr`` into ``Mu``; real MUSA code keeps ``Cungqr``."""
    bugs = [e.cuda for e in _entries("cusolver") if re.fullmatch(r"musolverDnMun\w+", e.musa)]
    assert not bugs, bugs


def test_nvrtc_is_unsupported_on_musa() -> None:
    names = [n.name for n in cuda_inventory() if n.library == "nvrtc"]
    assert names and all(DB.identifier(n).status is Status.UNSUPPORTED for n in names)


def test_fp16_names_are_left_to_the_fp16_family() -> None:
    """A device name that the CUDA fp16/bf16/fp8 headers use belongs to fp16.tsv, not to device.tsv."""
    present = [path for path in FP16_HEADERS if path.is_file()]
    if not present:
        pytest.skip("the CUDA fp16/bf16/fp8 headers are not installed under /usr/local/cuda/include")
    words = set()
    for path in present:
        words.update(re.findall(r"\w+", path.read_text(errors="replace")))
    assert not [e.cuda for e in _entries("device") if e.cuda in words]


@pytest.mark.parametrize("family", FAMILY_FILES)
def test_evidence_is_the_inventory_or_a_citation(family: str) -> None:
    uncited = [e.cuda for e in _entries(family) if e.evidence != "inventory" and not CITATION.fullmatch(e.evidence)]
    assert not uncited, uncited

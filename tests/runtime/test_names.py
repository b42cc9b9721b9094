"""The name converters read the tables generated from the mapping database."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
import torchada


@pytest.mark.parametrize(("convert", "cuda", "musa"), [
    (torchada.cuda_to_musa_name, "cudaMalloc", "musaMalloc"),
    (torchada.cuda_to_musa_name, "cudaHostRegister", "musaHostRegister"),
    (torchada.nccl_to_mccl_name, "ncclAllReduce", "mcclAllReduce"),
    (torchada.cublas_to_mublas_name, "cublasCreate_v2", "mublasCreate"),
    (torchada.curand_to_murand_name, "curandCreateGenerator", "murandCreateGenerator"),
])
def test_converters(convert, cuda, musa):
    assert convert(cuda) == musa


@pytest.mark.parametrize(("convert", "cuda", "musa"), [
    # outside the mapping database: the prefix rule
    (torchada.cuda_to_musa_name, "cudaError_t", "musaError_t"),
    (torchada.cuda_to_musa_name, "cuNotInTheDatabase", "muNotInTheDatabase"),
    (torchada.cuda_to_musa_name, "CUresult_t_like", "MUresult_t_like"),
    (torchada.nccl_to_mccl_name, "ncclUniqueId", "mcclUniqueId"),
    (torchada.curand_to_murand_name, "curandCreate", "murandCreate"),
    (torchada.cublas_to_mublas_name, "cublasNotInTheDatabase_v2", "mublasNotInTheDatabase_v2"),
    # where the MUSA name is not the mechanical one, the database wins
    (torchada.cuda_to_musa_name, "cudaDeviceGetNvSciSyncAttributes", "musaDeviceGetMtSciSyncAttributes"),
    (torchada.nccl_to_mccl_name, "ncclCommCuDevice", "mcclCommMuDevice"),
])
def test_prefix_rule_and_database(convert, cuda, musa):
    assert convert(cuda) == musa


def test_names_without_the_prefix_are_unchanged():
    assert torchada.cuda_to_musa_name("notACudaName") == "notACudaName"
    assert torchada.cuda_to_musa_name("curandCreate") == "curandCreate"  # cu + lowercase: no driver name
    assert torchada.nccl_to_mccl_name("cudaMalloc") == "cudaMalloc"  # not an NCCL name
    assert torchada.cublas_to_mublas_name("my_cublas_helper") == "my_cublas_helper"


def test_converters_agree_with_the_mapping_database():
    """The runtime reads generated tables, never the database: each supported function the database
    renames converts to the database's MUSA name."""
    from hipify_like.mapping import Kind, Status, load_db

    converters = {"runtime": torchada.cuda_to_musa_name, "driver": torchada.cuda_to_musa_name,
                  "nccl": torchada.nccl_to_mccl_name, "cublas": torchada.cublas_to_mublas_name,
                  "curand": torchada.curand_to_murand_name}  # fmt: skip
    checked: Counter[str] = Counter()
    for entry in load_db().of_kind(Kind.FUNCTION):
        convert = converters.get(entry.library)
        if convert and entry.renames and entry.status is Status.SUPPORTED and entry.cuda.isidentifier():
            assert convert(entry.cuda) == entry.musa, entry.cuda
            checked[entry.library] += 1
    assert min(checked[family] for family in converters) >= 10, checked


def test_import_needs_neither_the_translator_nor_libclang():
    """Nothing of hipify_like: the error classes every package shares are torchada_build.core's."""
    code = ("import sys, torchada; torchada.cuda_to_musa_name('cudaMalloc'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('hipify_like', 'clang')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

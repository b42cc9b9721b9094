"""The name converters read the tables generated from the mapping database."""

from __future__ import annotations

import subprocess
import sys

import pytest

import torchada
from torchada import _mapping_tables


@pytest.mark.parametrize(("convert", "cuda", "musa"), [
    (torchada.cuda_to_musa_name, "cudaMalloc", "musaMalloc"),
    (torchada.cuda_to_musa_name, "cudaHostRegister", "musaHostRegister"),
    (torchada.nccl_to_mccl_name, "ncclAllReduce", "mcclAllReduce"),
    (torchada.cublas_to_mublas_name, "cublasCreate_v2", "mublasCreate"),
    (torchada.curand_to_murand_name, "curandCreateGenerator", "murandCreateGenerator"),
])
def test_converters(convert, cuda, musa):
    assert convert(cuda) == musa


def test_unknown_names_are_unchanged():
    assert torchada.cuda_to_musa_name("cudaNotAFunction") == "cudaNotAFunction"
    assert torchada.nccl_to_mccl_name("cudaMalloc") == "cudaMalloc"  # not an NCCL name
    assert torchada.cublas_to_mublas_name("my_cublas_helper") == "my_cublas_helper"


def test_converters_answer_every_table_entry():
    for family, convert in (("runtime", torchada.cuda_to_musa_name),
                            ("nccl", torchada.nccl_to_mccl_name),
                            ("cublas", torchada.cublas_to_mublas_name),
                            ("curand", torchada.curand_to_murand_name)):
        table = _mapping_tables.SYMBOLS[family]
        assert table and all(convert(cuda) == musa for cuda, musa in table.items())


def test_import_needs_neither_the_translator_nor_libclang():
    code = ("import sys, torchada; torchada.cuda_to_musa_name('cudaMalloc'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('hipify_like', 'clang')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

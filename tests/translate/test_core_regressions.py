"""Regressions beside the golden files: properties that must hold whatever the data of other
families says, and engine defects found while writing the core families' golden tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hipify_like import translate_source
from hipify_like.lexer import lex


def test_driver_attribute_call_is_translated_consistently() -> None:
    """torchada renamed ``cuDeviceGetAttribute`` but not its ``CU_DEVICE_ATTRIBUTE_*`` argument."""
    source = b"cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);\n"
    result = translate_source(source, "k.cu")
    function, attribute = b"cuDeviceGetAttribute", b"CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"
    renamed = [name not in result.text for name in (function, attribute)]
    assert renamed in ([True, True], [False, False])
    if renamed == [False, False]:
        assert {f.name for f in result.findings} == {function.decode(), attribute.decode()}


def test_no_name_findings_inside_an_angled_include() -> None:
    result = translate_source(b"#include <cublas_v2.h>\n#include <curand_kernel.h>\n", "k.cu")
    assert result.text == b"#include <mublas.h>\n#include <murand_kernel.h>\n"
    assert result.findings == ()


def test_unknown_angled_include_path_is_left_alone() -> None:
    source = b"#include <mylib/CUDAStream.h>\n#include <ext/cudaMalloc.h>\n"
    assert translate_source(source, "k.cu").text == source


def test_a_long_run_of_line_splices_is_lexed_without_overflowing_libclang(tmp_path) -> None:
    """clang's lexer recurses once per consecutive line splice: 80,000 of them crashed it (SIGSEGV)."""
    source = tmp_path / "s.cu"
    source.write_bytes(b"cudaMalloc(0, 1);\n" + b"\\\n" * 80_000 + b"cudaFree(p); cuda\\\n\\ \n\\\r\nMalloc\n")
    run = subprocess.run(
        [sys.executable, "-m", "hipify_like", str(source), "-o", str(tmp_path / "o.cu")], capture_output=True
    )
    assert run.returncode == 0, run
    expected = b"musaMalloc(0, 1);\n" + b"\\\n" * 80_000 + b"musaFree(p); musaMalloc\\\n\\ \n\\\r\n\n"
    assert (tmp_path / "o.cu").read_bytes() == expected


@pytest.mark.parametrize("splices", [b"\\\n", b"\\\n\\\n\\\n", b"\\ \t\n\\\r\n\\\r\\\n\r"])
def test_tokens_after_a_run_of_splices_keep_their_offsets(splices: bytes) -> None:
    data = b"a " + splices + b"b c" + splices + b"d /*" + splices + b"*/ e"
    tokens = lex(data)
    assert [data[s : s + n] for s, n in zip(tokens.starts, tokens.lengths, strict=True)] == [
        b"a", b"b", b"c" + splices + b"d", b"/*" + splices + b"*/", b"e"
    ]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending_translates_the_whole_file_and_reports_real_lines(newline: bytes) -> None:
    """With CR-only line endings everything after the first ``#include`` was taken for its header name."""
    source = newline.join([b"#include <cuda_runtime.h>", b"#include <cublas_v2.h>", b"", b"cudaMallocAsync(p);", b""])
    result = translate_source(source, "k.cu")
    assert result.text == newline.join([b"#include <musa_runtime.h>", b"#include <mublas.h>", b"", b"cudaMallocAsync(p);", b""])
    assert [(f.rule, f.line, f.column) for f in result.findings] == [("TA1001", 4, 1)]


@pytest.mark.parametrize(
    "directive",
    [b"#include", b"# include", b"#\tinclude", b"  #  include", b"%:include", b"#inc\\\nlude", b"#inc\\ \r\nlude",
     b"#\\\ninclude", b"#/* c */include", b"#/* c\n */include", b"/* c */ #include", b"#include_next", b"#import"],
)  # fmt: skip
def test_every_spelling_of_an_include_directive_is_translated(directive: bytes) -> None:
    source = directive + b" <cuda_runtime.h>\nint x;\n"
    assert translate_source(source, "k.cu").text == source.replace(b"cuda_runtime", b"musa_runtime")


@pytest.mark.parametrize("not_a_directive", [b"x; #include", b"x \\\n#include", b"x /* c\n */ #include"])
def test_a_hash_that_does_not_start_a_line_is_no_directive(not_a_directive: bytes) -> None:
    source = not_a_directive + b" <cuda_runtime.h>\n"
    assert translate_source(source, "k.cu").text == source


def test_a_name_split_by_line_splices_is_translated_and_keeps_its_lines() -> None:
    source = b"cuda\\\nMalloc(p, n); cudaStream\\\r\n_t s;\n#if __CUDA_ARCH__ >= 8\\\n00\n#endif\n"
    assert translate_source(source, "k.cu").text == (
        b"musaMalloc\\\n(p, n); musaStream_t\\\r\n s;\n#if __MUSA_ARCH__ >= 220\\\n\n#endif\n"
    )


@pytest.mark.parametrize("header", [b"<cuda_\\\nruntime.h>", b'"cuda_run\\\r\ntime.h"'])
def test_a_header_name_split_by_a_line_splice_is_translated_and_keeps_its_lines(header: bytes) -> None:
    result = translate_source(b"#include " + header + b"\nint x;\n", "k.cu")
    splice = header[header.index(b"\\") : header.index(b"\n") + 1]
    assert result.text == b"#include " + header[:1] + b"musa_runtime.h" + splice + header[-1:] + b"\nint x;\n"

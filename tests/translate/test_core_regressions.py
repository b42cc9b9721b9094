"""Regressions beside the golden files: properties that must hold whatever the data of other
families says, and engine defects found while writing the core families' golden tests."""

from __future__ import annotations

from hipify_like import translate_source


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

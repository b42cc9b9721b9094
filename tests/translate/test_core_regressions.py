"""Regressions beside the golden files: properties that must hold whatever the data of other
families says, and engine defects found while writing the core families' golden tests (strict
xfail: they start failing, and so get noticed, once the engine is fixed)."""

from __future__ import annotations

import pytest

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


@pytest.mark.xfail(
    strict=True,
    reason="engine: identifier tokens inside '#include <...>' are checked as code, so a translated "
    "header such as <cublas_v2.h> also yields TA1004 for 'cublas_v2' (seen in cublas.cu, curand.cu, "
    "pytorch.cu goldens)",
)
def test_no_name_findings_inside_an_angled_include() -> None:
    result = translate_source(b"#include <cublas_v2.h>\n#include <curand_kernel.h>\n", "k.cu")
    assert result.text == b"#include <mublas.h>\n#include <murand_kernel.h>\n"
    assert result.findings == ()


@pytest.mark.xfail(
    strict=True,
    reason="engine: identifier tokens inside '#include <...>' of a header the database does not know "
    "are renamed, damaging the path (<mylib/CUDAStream.h> becomes <mylib/MUSAStream.h>)",
)
def test_unknown_angled_include_path_is_left_alone() -> None:
    source = b"#include <mylib/CUDAStream.h>\n#include <ext/cudaMalloc.h>\n"
    assert translate_source(source, "k.cu").text == source

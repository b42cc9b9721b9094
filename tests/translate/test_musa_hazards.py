"""Findings for what compiles with nvcc but cannot run on MUSA (PTX, 32-lane warps), on the real database,
and the project's own names, which are never renamed nor reported. Each case is a pattern a real
project showed (nvdiffrast, Mask2Former, marlin, mmcv, neural_renderer); the measured corpus is in
``tests/findings/``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hipify_like.translate import translate_source
from hipify_like.unit import translate_unit


def found(source: str, path: str = "k.cu") -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in translate_source(source.encode(), path).findings]


@pytest.mark.parametrize(
    "statement",
    [
        # marlin's cp.async: the first literal holds only "{\n"
        'asm volatile("{\\n" ".reg .pred p;\\n" "cp.async.cg.shared.global [%0], [%1], 16;\\n" "}\\n" :: "r"(s), "l"(g));',
        # nvdiffrast's video instructions
        'asm("vmax.s32.s32.s32.max %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));',
        'asm("vadd4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));',
        'asm volatile("trap;");',
        'asm("mov.u32 %0, %%laneid;" : "=r"(x));',
        "asm volatile(PTX_TEMPLATE_MACRO);",
    ],
)
def test_device_assembly_is_ptx_whatever_its_literals_hold(statement: str) -> None:
    assert found(f"__device__ void f() {{ {statement} }}\n") == [("TA1101", 1)]


@pytest.mark.parametrize(
    "statement",
    ['asm volatile("" ::: "memory");', 'asm("movl %%eax, %0" : "=r"(x));', 'asm("rdtsc" : "=a"(lo), "=d"(hi));'],
)
def test_host_assembly_and_compiler_barriers_are_not_ptx(statement: str) -> None:
    assert found(f"void f() {{ {statement} }}\n") == []


@pytest.mark.parametrize(
    "mask",
    ["~0u", "~0", "-1", "0xFFFFFFFFu", "0xffffffffU", "uint32_t(-1)", "(unsigned)-1", "static_cast<unsigned>(-1)",
     "(~0u)", "4294967295u", "FULL", "kFullMask", "FINAL_MASK"],
)  # fmt: skip
def test_every_spelling_of_the_full_mask_is_a_32_lane_assumption(mask: str) -> None:
    source = f"#define FULL ~0u\nconstexpr unsigned kFullMask = 0xffffffff;\n__device__ void f() {{ b = __ballot_sync({mask}, p); }}\n"
    assert found(source) == [("TA1201", 3)]


@pytest.mark.parametrize("mask", ["mask", "__activemask()", "0xffff", "1u << lane", "active"])
def test_masks_that_are_not_full_are_not_reported(mask: str) -> None:
    assert found(f"__device__ void f(unsigned mask) {{ v = __shfl_xor_sync({mask}, v, 1); }}\n") == []


@pytest.mark.parametrize(
    "source",
    [
        "int lane = threadIdx.x % 32;",
        "int warp = threadIdx.x >> 5;",
        "int w = (threadIdx.x + blockDim.x * threadIdx.y) / 32;",
        "int tid = threadIdx.x; int lane_id = tid & 31;",
        "int lane = t & 0x1f; g(threadIdx.y);",
        "#define WARP_SIZE_BITS 5",
    ],
)
def test_lane_and_warp_arithmetic_on_thread_indices_is_reported(source: str) -> None:
    assert [rule for rule, _ in found(f"__device__ void f(int t) {{\n{source}\n}}\n")] == ["TA1201"]


@pytest.mark.parametrize("source", ["int col = blockIdx.x % 32;", "int r = n % 32;", "int q = bytes >> 5;"])
def test_arithmetic_on_other_numbers_is_not_reported(source: str) -> None:
    assert found(f"__device__ void f(int n, int bytes) {{ {source} }}\n") == []


def test_a_name_like_tid_is_a_lane_only_in_a_file_that_shuffles() -> None:
    plain = "__device__ void f(int tid) { int r = tid % 32; }\n"
    assert found(plain) == []
    assert found(plain + "__device__ void g() { v = __shfl_xor_sync(m, v, 1); }\n") == [("TA1201", 1)]


def test_a_macro_the_project_defines_keeps_its_name() -> None:
    """Mask2Former's ``CUDA_KERNEL_LOOP`` would collide with the compat header's once renamed."""
    source = "#define CUDA_KERNEL_LOOP(i, n) for (int i = 0; i < (n); ++i)\n__global__ void k(int n) { CUDA_KERNEL_LOOP(i, n) {} }\n"
    result = translate_source(source.encode(), "k.cu")
    assert result.text.decode() == source and result.findings == ()


def test_a_function_or_variable_the_project_names_like_cuda_api_is_its_own() -> None:
    source = (
        "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 300\n"
        "__device__ inline float16 __shfl(float16 var, int srcLane, int width) { return var; }\n#endif\n"
        "struct Options { int cudaDeviceIdx; };\n"
        "__global__ void k(const float* textures) { const float* texture = &textures[3]; x = texture[0]; }\n"
    )
    result = translate_source(source.encode(), "k.cu")
    assert result.findings == ()
    assert result.text.decode() == source.replace("__CUDA_ARCH__", "__MUSA_ARCH__").replace(">= 300", ">= 210")


def test_the_cuda_api_of_the_same_name_is_still_translated_elsewhere() -> None:
    assert found("texture<float, 2> tex;\n") == [("TA1001", 1)]
    assert translate_source(b"#define CUDA_KERNEL_LOOP_X 1\nCUDA_KERNEL_LOOP(i, n) {}\n", "k.cu").text == (
        b"#define CUDA_KERNEL_LOOP_X 1\nMUSA_KERNEL_LOOP(i, n) {}\n"
    )


def test_a_header_already_rewritten_is_not_reported() -> None:
    result = translate_source(b"#include <device_launch_parameters.h>\n", "k.cu")
    assert result.text == b"#include <musa_runtime.h>\n" and result.findings == ()


def _project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "common.h").write_text("#define CUDA_KERNEL_LOOP(i, n) for (int i = 0; i < (n); ++i)\n")
    (tmp_path / "src" / "k.cu").write_text('#include "common.h"\n__global__ void k(int n) { CUDA_KERNEL_LOOP(i, n) {} }\n')
    return tmp_path / "src"


def test_a_macro_defined_in_another_file_of_the_tree_keeps_its_name(tmp_path: Path) -> None:
    source = _project(tmp_path)
    ported = subprocess.run(
        [sys.executable, "-m", "hipify_like", str(source), "--out-root", str(tmp_path / "out"), "-q"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ported.returncode == 0, ported.stderr
    assert "CUDA_KERNEL_LOOP(i, n) {}" in (tmp_path / "out" / "k.cu").read_text()


def test_a_macro_defined_in_an_included_header_keeps_its_name_in_a_unit(tmp_path: Path) -> None:
    unit = translate_unit(_project(tmp_path) / "k.cu")
    assert all(b"MUSA_KERNEL_LOOP" not in result.text for result in unit.files)

"""The translator engine's rules, on a small database of its own (so that data changes don't move
these tests), including a regression test for each way text-replacement porters damage code."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify_like.mapping import COLUMNS, build_db
from hipify_like.tables import build_tables
from hipify_like.translate import translate_source

ROWS = """\
sm_75	mp_21	arch	supported	inventory
sm_80	mp_22	arch	supported	inventory
sm_86	mp_22	arch	supported	inventory
sm_90	mp_31	arch	supported	inventory
cudaMalloc	musaMalloc	function	supported	inventory
cudaStream_t	musaStream_t	type	supported	inventory
cudaMallocAsync		function	unsupported	src	the stream-ordered allocator is missing
cusolverDnSgetrf	musolverSgetrf	function	manual	src	no handle; different arguments
CUDART_VERSION	MUSART_VERSION	macro	manual	src	MUSA numbering differs
__nv_bfloat16	__mt_bfloat16	type	supported	inventory
nv_bfloat16	__mt_bfloat16	type	supported	inventory
__nv_half	__half	type	supported	inventory
__half	__half	type	supported	inventory
cuDeviceGetAttribute	muDeviceGetAttribute	function	supported	inventory
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT	MU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT	enumerator	supported	inventory
ncclAllReduce	mcclAllReduce	function	supported	inventory
ncclCommSplit		function	unsupported	src	no MUSA counterpart in the inventory
cudaGridDependencySynchronize		function	unsupported	src	programmatic dependent launch is missing
at::cuda	at::musa	namespace	supported	src
c10::cuda	c10::musa	namespace	supported	src
getCurrentCUDAStream	getCurrentMUSAStream	function	supported	src
DeviceType::CUDA	DeviceType::PrivateUse1	enumerator	supported	src
.is_cuda	.is_privateuseone	function	supported	src
CUDA	PrivateUse1	dispatch_key	supported	src
nvcuda	mtmusa	namespace	supported	inventory
__shfl_xor_sync	__shfl_xor_sync	function	supported	inventory
cuda_runtime.h	musa_runtime.h	header	supported	inventory
cuda.h	musa.h	header	supported	inventory
ATen/cuda/CUDAContext.h	torch_musa/csrc/aten/musa/MUSAContext.h	header	supported	src
nvrtc.h		header	unsupported	src	NVRTC is stubbed on MUSA
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory):
    directory = tmp_path_factory.mktemp("db")
    rows = [line + "\t" * (len(COLUMNS) - 1 - line.count("\t")) for line in ROWS.splitlines()]
    (directory / "test.tsv").write_text("\t".join(COLUMNS) + "\n" + "\n".join(rows) + "\n")
    return build_tables(build_db(directory))


def port(tables, source: str, **kwargs):
    return translate_source(source.encode(), "k.cu", tables=tables, **kwargs)


def text(tables, source: str) -> str:
    return port(tables, source).text.decode()


def rules(tables, source: str) -> list[str]:
    return [f.rule for f in port(tables, source).findings]


# -- never a substring, a literal, a comment or a user name ----------------------------------------


def test_user_identifiers_that_contain_cuda_names_are_untouched(tables) -> None:
    source = "float inv_half = 0.5f; int conv_bfloat16_tiles = 4; int my_cudaMalloc;\n"
    assert text(tables, source) == source


def test_build_system_macros_are_untouched(tables) -> None:
    source = "#ifdef ENABLE_NCCL\n#if defined(USE_CUDNN) && defined(WITH_CUTLASS)\n#endif\n#endif\n"
    assert text(tables, source) == source


def test_string_literals_are_untouched(tables) -> None:
    source = 'm.def("cutlass_scaled_mm", &f); ops.def("nccl_all_reduce(Tensor x) -> Tensor");\n' \
             'const char* a = "cudaMalloc failed"; auto r = R"x(cudaMalloc)x"; char c = \'c\';\n'
    assert text(tables, source) == source


def test_comments_are_untouched_and_code_after_them_is_translated(tables) -> None:
    source = "// cudaMalloc\n/* setup */ cudaStream_t s0 = nullptr; /* cudaStream_t */\n"
    assert text(tables, source) == "// cudaMalloc\n/* setup */ musaStream_t s0 = nullptr; /* cudaStream_t */\n"


def test_a_line_mentioning_cub_is_still_translated(tables) -> None:
    assert text(tables, "#include <cub/cub.cuh> // needs cudaStream_t\ncudaStream_t s;\n") == (
        "#include <cub/cub.cuh> // needs cudaStream_t\nmusaStream_t s;\n"
    )


def test_members_of_user_objects_are_untouched(tables) -> None:
    assert text(tables, "cfg.cudaMalloc = 1; p->cudaStream_t;\n") == "cfg.cudaMalloc = 1; p->cudaStream_t;\n"


def test_a_name_joined_by_a_dollar_is_one_identifier(tables) -> None:
    assert text(tables, "int x$cudaMalloc;\n") == "int x$cudaMalloc;\n"


# -- what is translated ------------------------------------------------------------------------------


def test_driver_call_and_its_enum_are_translated_together(tables) -> None:
    source = "cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);\n"
    assert text(tables, source) == "muDeviceGetAttribute(&v, MU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);\n"


def test_qualified_names_and_members(tables) -> None:
    source = "auto s = at::cuda::getCurrentCUDAStream(); if (t.is_cuda()) {} bool is_cuda = x.is_cuda;\n" \
             "auto d = c10::DeviceType::CUDA; using namespace nvcuda; nvcuda::wmma::fragment<> f;\n"
    assert text(tables, source) == (
        "auto s = at::musa::getCurrentMUSAStream(); if (t.is_privateuseone()) {} bool is_cuda = x.is_privateuseone;\n"
        "auto d = c10::DeviceType::PrivateUse1; using namespace mtmusa; mtmusa::wmma::fragment<> f;\n"
    )


@pytest.mark.parametrize(
    "spelling",
    ["at::cuda", "at :: cuda", "at::\\\ncuda", "at:: /* c */ cuda", "at /* c */ :: cuda", "at:: // c\ncuda", "::at::cuda"],
)
def test_qualified_names_with_blanks_and_comments_inside(tables, spelling: str) -> None:
    assert text(tables, f"auto s = {spelling}::getCurrentCUDAStream();\n") == (
        f"auto s = {spelling.replace('cuda', 'musa')}::getCurrentMUSAStream();\n"
    )


def test_members_and_dispatch_keys_with_blanks(tables) -> None:
    assert text(tables, "t . is_cuda(); p ->\n is_cuda(); TORCH_LIBRARY_IMPL(ns,\n  CUDA, m) {}\n") == (
        "t . is_privateuseone(); p ->\n is_privateuseone(); TORCH_LIBRARY_IMPL(ns,\n  PrivateUse1, m) {}\n"
    )


def test_a_cuda_namespace_of_a_user_namespace_is_untouched(tables) -> None:
    assert text(tables, "mylib::cuda::run(); cuda::std::max(1, 2);\n") == "mylib::cuda::run(); cuda::std::max(1, 2);\n"


def test_dispatch_key_only_as_the_macro_argument(tables) -> None:
    source = "TORCH_LIBRARY_IMPL(myops, CUDA, m) {}\nSTABLE_TORCH_LIBRARY_IMPL(_C, CUDA, m) {}\nint CUDA = 1;\n"
    assert text(tables, source) == (
        "TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {}\nSTABLE_TORCH_LIBRARY_IMPL(_C, PrivateUse1, m) {}\nint CUDA = 1;\n"
    )


def test_includes(tables) -> None:
    source = '#include <cuda_runtime.h>\n#include "cuda.h"\n  #  include <ATen/cuda/CUDAContext.h>\n' \
             '#include "decode_jpegs_cuda.h"\n#include <cuda/std/atomic>\n'
    assert text(tables, source) == (
        '#include <musa_runtime.h>\n#include "musa.h"\n  #  include <torch_musa/csrc/aten/musa/MUSAContext.h>\n'
        '#include "decode_jpegs_cuda.h"\n#include <cuda/std/atomic>\n'
    )


def test_a_project_header_that_shadows_an_sdk_header_is_kept_and_reported(tables) -> None:
    result = port(tables, '#include "cuda.h"\n#include <cuda.h>\n', is_local=lambda i, s, angled: not angled)
    assert result.text == b'#include "cuda.h"\n#include <musa.h>\n'
    assert [(i.spelled, i.angled, i.line) for i in result.includes] == [("cuda.h", False, 1)]


def test_an_include_inside_a_comment_is_not_a_directive(tables) -> None:
    source = "// #include <cuda_runtime.h>\n/* #include <cuda.h> */\n"
    assert text(tables, source) == source


@pytest.mark.parametrize(
    ("cuda", "musa"),
    [
        ("__CUDA_ARCH__ >= 800", "__MUSA_ARCH__ >= 220"),
        ("__CUDA_ARCH__>=800", "__MUSA_ARCH__>=220"),
        ("__CUDA_ARCH__ >= 750", "__MUSA_ARCH__ >= 210"),
        ("__CUDA_ARCH__ >= 890", "__MUSA_ARCH__ >= 310"),
        ("__CUDA_ARCH__ < 900", "__MUSA_ARCH__ < 310"),
        ("__CUDA_ARCH__ <= 860", "__MUSA_ARCH__ < 310"),
        ("__CUDA_ARCH__ > 800", "__MUSA_ARCH__ >= 310"),
        ("__CUDA_ARCH__ == 800", "__MUSA_ARCH__ == 220"),
        ("800 <= __CUDA_ARCH__", "220 <= __MUSA_ARCH__"),
        ("(__CUDA_ARCH__ < 800)", "(__MUSA_ARCH__ < 220)"),
        ("__CUDA_ARCH__ >= 800u", "__MUSA_ARCH__ >= 220"),
        ("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890", "defined(__MUSA_ARCH__) && __MUSA_ARCH__ >= 310"),
        ("defined __CUDA_ARCH__", "defined __MUSA_ARCH__"),
    ],
)
def test_arch_guards_are_translated_by_value(tables, cuda: str, musa: str) -> None:
    result = port(tables, f"#if {cuda}\n#endif\n")
    assert result.text.decode() == f"#if {musa}\n#endif\n"
    assert not result.findings


def test_ifdef_arch(tables) -> None:
    assert text(tables, "#ifdef __CUDA_ARCH__\n#endif\n#ifndef __CUDA_ARCH__\n#endif\n") == (
        "#ifdef __MUSA_ARCH__\n#endif\n#ifndef __MUSA_ARCH__\n#endif\n"
    )


def test_arch_beyond_every_musa_architecture_is_false_and_reported(tables) -> None:
    result = port(tables, "#if __CUDA_ARCH__ >= 1000\n#endif\n")
    assert result.text == b"#if __MUSA_ARCH__ >= 311\n#endif\n"
    assert [f.rule for f in result.findings] == ["TA1302"]


def test_arch_used_as_a_number_is_renamed_and_reported(tables) -> None:
    result = port(tables, "constexpr int arch = __CUDA_ARCH__;\n#if __CUDA_ARCH__ >= MIN_ARCH\n#endif\n")
    assert result.text == b"constexpr int arch = __MUSA_ARCH__;\n#if __MUSA_ARCH__ >= MIN_ARCH\n#endif\n"
    assert [f.rule for f in result.findings] == ["TA1301", "TA1301"]


# -- what is reported --------------------------------------------------------------------------------


def test_inline_ptx_is_reported_and_never_disabled(tables) -> None:
    source = 'asm volatile("bar.sync 0;");\n__asm__ __volatile__("ld.global.nc.v4.u32 %0, [%1];");\n'
    result = port(tables, source)
    assert result.text.decode() == source
    assert [(f.rule, f.line, f.column) for f in result.findings] == [("TA1101", 1, 1), ("TA1101", 2, 1)]


def test_unsupported_and_manual_apis_are_reported(tables) -> None:
    source = "cudaMallocAsync(&p, n, s);\nncclCommSplit(c, 0, 0, &o, 0);\ncusolverDnSgetrf(h, m);\n" \
             "cudaGridDependencySynchronize ();\n"
    result = port(tables, source)
    assert result.text.decode() == source.replace("cusolverDnSgetrf", "musolverSgetrf")
    assert [f.rule for f in result.findings] == ["TA1001", "TA1001", "TA1002", "TA1001"]


def test_unknown_cuda_names_are_reported_but_project_names_are_not(tables) -> None:
    source = (
        "#define CUDA_CHECK(x) x\ncudaLaunchKernelExFoo(); CUDA_CHECK(1); cublasLtFooBar();\n"
        "cuWelfordOnlineSum(a); cuApplyLayerNorm(b); int cublas_status; cudnn_frontend::Tensor t;\n"
    )
    found = port(tables, source).findings
    assert [(f.rule, f.name) for f in found] == [("TA1004", "cudaLaunchKernelExFoo"), ("TA1004", "cublasLtFooBar")]


def test_version_macro_is_translated_and_reported(tables) -> None:
    result = port(tables, "#ifdef CUDART_VERSION\n#endif\n")
    assert result.text == b"#ifdef MUSART_VERSION\n#endif\n"
    assert [f.rule for f in result.findings] == ["TA1002"]


def test_unsupported_header_is_reported(tables) -> None:
    assert rules(tables, "#include <nvrtc.h>\n") == ["TA1003"]


@pytest.mark.parametrize(
    "source",
    [
        "v = __shfl_xor_sync(0xffffffff, v, 16);\n",
        "#define WARP_SIZE 32\n",
        "constexpr int kWarpSize = 32;\n",
        "static const unsigned warp_size{32};\n",
    ],
)
def test_warp_size_assumptions_are_reported(tables, source: str) -> None:
    assert rules(tables, source) == ["TA1201"]


def test_warp_size_aware_code_is_not_reported(tables) -> None:
    assert rules(tables, "int lanes = warpSize; v = __shfl_xor_sync(mask, v, 16); if (kWarpSize == 32) {}\n") == []


# -- output shape ------------------------------------------------------------------------------------


def test_line_directive_names_the_original_and_is_not_repeated(tables) -> None:
    once = port(tables, "cudaStream_t s;\n", line_directive='/src/a "b".cu')
    assert once.text == b'#line 1 "/src/a \\"b\\".cu"\nmusaStream_t s;\n'
    again = translate_source(once.text, "k.cu", tables=tables, line_directive='/src/a "b".cu')
    assert again.text == once.text


def test_findings_have_positions(tables) -> None:
    result = port(tables, "int a;\n  cudaMallocAsync(p);\n")
    finding = result.findings[0]
    assert (finding.path, finding.line, finding.column) == ("k.cu", 2, 3)
    assert finding.format() == (
        "k.cu:2:3: error: 'cudaMallocAsync' has no MUSA counterpart: the stream-ordered allocator is missing [TA1001]"
    )


def test_bytes_that_are_not_utf8_survive(tables) -> None:
    source = b"// caf\xe9\ncudaStream_t s; const char* x = \"\xff\";\n"
    result = translate_source(source, "k.cu", tables=tables)
    assert result.text == source.replace(b"cudaStream_t", b"musaStream_t")


def test_crlf_line_ends_survive(tables) -> None:
    assert text(tables, "cudaStream_t s;\r\n#if __CUDA_ARCH__ >= 800\r\n#endif\r\n") == (
        "musaStream_t s;\r\n#if __MUSA_ARCH__ >= 220\r\n#endif\r\n"
    )


def test_the_many_to_one_names_translate_consistently(tables) -> None:
    assert text(tables, "__nv_bfloat16 a; nv_bfloat16 b; __nv_half c; __half d;\n") == (
        "__mt_bfloat16 a; __mt_bfloat16 b; __half c; __half d;\n"
    )


def test_an_empty_file(tables) -> None:
    assert port(tables, "").text == b""


def test_translation_of_a_file_on_disk_keeps_its_name(tables, tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_bytes(b"cudaStream_t s;\n")
    result = translate_source(path.read_bytes(), str(path), tables=tables)
    assert result.path == str(path) and result.changed


def test_findings_under_rocm_only_branches_are_not_reported() -> None:
    """Code a MUSA build never compiles (``#ifdef USE_ROCM``, ``#if BNB_HIP``, the ``#else`` of
    ``#ifndef __HIP_PLATFORM_AMD__``) has no MUSA findings; the CUDA branches keep theirs."""
    source = (
        "#ifdef USE_ROCM\ncudaRocmOnlyA();\n#else\ncudaKeptA();\n#endif\n"
        "#if defined(BNB_HIP)\ncudaRocmOnlyB();\n#elif defined(X)\ncudaKeptB();\n#endif\n"
        "#ifndef __HIP_PLATFORM_AMD__\ncudaKeptC();\n#else\ncudaRocmOnlyC();\n#endif\n"
        "#if !defined(USE_ROCM)\ncudaKeptD();\n#endif\n"
        "#if defined(USE_ROCM) || defined(Y)\ncudaKeptE();\n#endif\n"
    )
    result = translate_source(source.encode(), "k.cu")
    assert [f.name for f in result.findings] == ["cudaKeptA", "cudaKeptB", "cudaKeptC", "cudaKeptD", "cudaKeptE"]


def test_findings_under_another_operating_systems_branches_are_not_reported() -> None:
    """MUSA is Linux's alone: mcc never compiles a branch only MSVC, Windows or macOS takes (``#ifdef _MSC_VER``,
    the ``#else`` of ``#ifndef _WIN32``, ``&& defined(__APPLE__)``), whatever else the condition tests."""
    ptx = 'asm("mov.u32 %0, 1;");'
    source = (
        "#ifdef _MSC_VER\ncudaWindowsA();\n#else\ncudaKeptA();\n#endif\n"
        f"#ifndef _WIN32\ncudaKeptB();\n#else\ncudaWindowsB();\n{ptx}\n#endif\n"
        f"#if defined(__x86_64__) && defined(__APPLE__)\ncudaMacC();\n#elif defined(__linux__)\ncudaKeptC();\n#endif\n"
        "#if !defined(_MSC_VER)\ncudaKeptD();\n#endif\n"
        "#if defined(_WIN32) || defined(__linux__)\ncudaKeptE();\n#endif\n"
    )
    found = translate_source(source.encode(), "k.cu").findings
    assert [f.name for f in found] == ["cudaKeptA", "cudaKeptB", "cudaKeptC", "cudaKeptD", "cudaKeptE"]


def test_only_ptx_assembly_is_reported() -> None:
    source = (
        '__device__ int lane() { int x; asm volatile("mov.u32 %0, %%laneid;" : "=r"(x)); return x; }\n'
        '__device__ void pred() { asm volatile("{\\n\\t.reg .pred p;\\n\\t}"); asm(PTX_FROM_A_MACRO); }\n'
        'void host() { asm("movl %%eax, %0" : "=r"(x)); asm("ld1 {v0.4s}, [%0]" :: "r"(p)); asm("bswap %0" : "+r"(x)); __asm { mov eax,1 } }\n'
        '#ifdef __ARM_NEON\nvoid neon() { asm("vadd.f32 q0, q0, q1"); asm("mov.u32 %0, 1;"); }\n#endif\n'
        '#if defined(__x86_64__)\n#elif defined(__POWER9_VECTOR__)\nfloat p9(short h) { __asm__("mtfprd %0,%2\\n" "frsp %1,%0\\n" : "=d"(d), "=f"(f) : "r"(h)); }\n#endif\n'
    )
    found = translate_source(source.encode(), "k.cu").findings
    assert [(f.rule, f.line) for f in found] == [("TA1101", 1), ("TA1101", 2), ("TA1101", 2)]


def test_assembly_under_a_conjunction_that_needs_a_host_instruction_set_is_not_reported() -> None:
    """torch-sparse's parallel-hashmap keeps x86 assembly under ``#if defined(__GNUC__) && defined(__x86_64__)
    && !defined(__APPLE__)``: the other terms narrow the branch, still to x86 alone. A branch the host
    instruction set's macro does not decide (a disjunction, a negated group) keeps its findings."""
    ptx = 'asm("mov.u32 %0, 1;");'
    source = (
        f"#if defined(__GNUC__) && defined(__x86_64__) && !defined(__APPLE__)\n{ptx}\n#elif defined(__GLIBC__)\n{ptx}\n#endif\n"
        f"#if !defined(__x86_64__) || defined(Y)\n{ptx}\n#else\n{ptx}\n#endif\n"
        f"#if !(defined(__x86_64__) && defined(X))\n{ptx}\n#else\n{ptx}\n#endif\n"
        f"#if defined(__aarch64__) || defined(Y)\n{ptx}\n#endif\n"
        f"#if defined(__aarch64__) && defined(Y) || defined(Z)\n{ptx}\n#endif\n"
        f"#if defined(USE_ROCM) && !defined(Y)\ncudaRocmOnly();\n#endif\n"
    )
    found = translate_source(source.encode(), "k.cu").findings
    assert [f.line for f in found] == [4, 7, 12, 14, 17, 20]


def test_deprecated_type_properties_member_is_not_renamed() -> None:
    """``x.type()`` is an ``at::DeprecatedTypeProperties``, which has ``is_cuda()`` but no ``is_privateuseone()``."""
    source = "bool a = x.type().is_cuda(); bool b = x.is_cuda(); bool c = p->type().is_cuda();\n"
    result = translate_source(source.encode(), "k.cpp")
    assert result.text.decode() == source.replace("x.is_cuda()", "x.is_privateuseone()")
    assert [(f.rule, f.column) for f in result.findings] == [("TA1002", 19), ("TA1002", 71)]


def test_line_directive_goes_after_a_byte_order_mark(tmp_path: Path) -> None:
    """llama.cpp's unicode.h starts with a UTF-8 BOM, which a compiler accepts only as the first bytes."""
    import shutil
    import subprocess

    result = translate_source(b"\xef\xbb\xbf#pragma once\ncudaStream_t s;\n", "/src/u.h", line_directive="/src/u.h")
    assert result.text == b'\xef\xbb\xbf#line 1 "/src/u.h"\n#pragma once\nmusaStream_t s;\n'
    if shutil.which("g++"):
        (tmp_path / "u.cpp").write_bytes(result.text.replace(b"#pragma once\n", b"").replace(b"musaStream_t", b"int"))
        subprocess.run(["g++", "-fsyntax-only", str(tmp_path / "u.cpp")], check=True)


def test_installed_packages_headers_are_ported_unless_they_are_the_platforms(tmp_path: Path) -> None:
    """A JIT library's kernels and headers live in site-packages (FlashInfer's ``data/include``); they
    are code to port. torch's and the CUDA wheels' headers are the platform's and stay as they are."""
    from hipify_like.unit import translate_unit

    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    for relative in ("flashinfer/data/include/norm.cuh", "torch/include/ATen/cuda/CUDAContext.h",
                     "nvidia/cu13/include/cublas_v2.h"):  # fmt: skip
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_text("#pragma once\ncudaStream_t s;\n")
    main = site / "flashinfer" / "data" / "csrc" / "norm.cu"
    main.parent.mkdir(parents=True)
    main.write_text("#include <norm.cuh>\n#include <ATen/cuda/CUDAContext.h>\n#include <cublas_v2.h>\n")
    include_dirs = [site / "flashinfer" / "data" / "include", site / "torch" / "include", site / "nvidia" / "cu13" / "include"]
    unit = translate_unit(main, include_dirs=include_dirs, is_project_path=None)
    translated = {Path(f.path).name: f for f in unit.files}
    assert set(translated) == {"norm.cu", "norm.cuh"}
    assert b"musaStream_t" in translated["norm.cuh"].text


def test_a_vendored_copy_of_a_library_with_a_musa_port_is_the_library(tmp_path: Path) -> None:
    """TileLang ships CUTLASS in its wheel and includes it by ``-I``. Its headers are CUTLASS, which MUSA
    replaces by MUTLASS, not project code: a known header is renamed (loopback finds the copy through
    the compat header), an unknown one is kept with a finding, and neither is translated."""
    from hipify_like.unit import translate_unit

    vendored = tmp_path / "3rdparty" / "cutlass" / "include"
    for relative in ("cutlass/cutlass.h", "cute/arch/mma_sm80.hpp"):
        (vendored / relative).parent.mkdir(parents=True, exist_ok=True)
        (vendored / relative).write_text("#pragma once\nnamespace cutlass { using stream = cudaStream_t; }\n")
    (tmp_path / "common.h").write_text("#pragma once\ncudaStream_t s;\n")
    main = tmp_path / "kernel.cu"
    main.write_text('#include "common.h"\n#include <cutlass/cutlass.h>\n#include <cute/arch/mma_sm80.hpp>\n')
    unit = translate_unit(main, include_dirs=[vendored], is_project_path=None)
    assert sorted(Path(f.path).name for f in unit.files) == ["common.h", "kernel.cu"]
    (kernel,) = [f for f in unit.files if f.path == str(main)]
    assert kernel.text == b'#include "common.h"\n#include <mutlass/mutlass.h>\n#include <cute/arch/mma_sm80.hpp>\n'
    assert [(f.rule, f.line) for f in kernel.findings] == [("TA1002", 3)]
    assert "cute/arch/mma_sm80.hpp" in kernel.findings[0].message and "mute/" in kernel.findings[0].message


def test_the_unknown_prefix_expression_matches_exactly_the_prefix_set() -> None:
    """``_ANY_UNKNOWN_PREFIX`` spells :data:`UNKNOWN_PREFIXES` in short; both must name the same words."""
    from hipify_like.tables import UNKNOWN_PREFIXES, get_tables

    tables = get_tables()
    prefixes = tuple(p.encode() for p in UNKNOWN_PREFIXES)
    near = [p[:cut] + tail for p in prefixes for cut in (len(p) - 1, len(p)) for tail in (b"", b"x", b"_1", b"Foo", b"a")]
    extra = [b"cuda", b"cudax", b"cuda_", b"CUDA_X", b"ncclx", b"__nv", b"CUx", b"cublas_status", b"cuWelford", b"x" + prefixes[0]]
    for word in near + extra:
        expected = word.startswith(prefixes)
        assert bool(tables.unknown.fullmatch(word)) is expected, word
        assert bool(tables.prefixed.fullmatch(word)) is expected, word

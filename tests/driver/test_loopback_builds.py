"""Real builds through torchada-nvcc's loopback backend: each source is translated to MUSA, compiled
by NVIDIA's nvcc against the generated compat headers, and linked by the host compiler, the way the
mcc backend links. There is no GPU, so the programs are linked and inspected (``nm``, ``ldd``), not
run. Covered: samples/makefile with make, the pip wheels' cuBLAS, paths with spaces, quotes and
non-ASCII letters, dependency files that make ninja rebuild when an original header changes,
diagnostics that name the original file, and ``-Werror`` on translator findings."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest
from driver_support import REPO, TORCHADA_NVCC, cli_env, run_cli

from hipify_like.compat import TORCH_ALIASES

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{argv}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def makefile_build(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path, nvcc: str) -> Path:  # noqa: ARG001
    project = tmp_path_factory.mktemp("make") / "saxpy project"
    shutil.copytree(REPO / "samples" / "makefile", project)
    _run(["make", f"NVCC={TORCHADA_NVCC}"], project, cli_env(cache_dir, "loopback"))
    return project


def test_makefile_sample_links(makefile_build: Path) -> None:
    program = makefile_build / "saxpy"
    assert program.is_file()
    symbols = subprocess.run(["nm", "-C", str(program)], capture_output=True, text=True, check=True).stdout
    assert " T main" in symbols
    assert "saxpy(int, float, float const*, float*)" in symbols  # the kernel's host stub
    assert "cudaStreamCreate" in symbols or "cudaMalloc" in symbols  # the static CUDA runtime
    libraries = subprocess.run(["ldd", str(program)], capture_output=True, text=True, check=True).stdout
    assert "libstdc++" in libraries and "libcudart.so" not in libraries  # nvcc's default: static cudart


def test_makefile_sample_is_translated(makefile_build: Path, cache_dir: Path) -> None:
    mirrors = list((cache_dir / "units").glob(f"*/tree{makefile_build}/saxpy.cu"))
    assert mirrors, "no translated copy of saxpy.cu in the cache"
    text = mirrors[0].read_text()
    assert f'#line 1 "{makefile_build}/saxpy.cu"' in text
    assert "__MUSA_ARCH__ >= 220" in text and "__CUDA_ARCH__" not in text
    assert (mirrors[0].parent / "common.cuh").is_file()  # the project header is translated beside it


def test_wheel_cublas_links_and_resolves(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    source = tmp_path / "blas.cu"
    source.write_text("#include <cublas_v2.h>\nint main() { cublasHandle_t h; return cublasCreate(&h); }\n")
    result = run_cli(["blas.cu", "-lcublas", "-o", "blas"], env=cli_env(cache_dir, "loopback"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    libraries = subprocess.run(["ldd", str(tmp_path / "blas")], capture_output=True, text=True, check=True).stdout
    line = next(x for x in libraries.splitlines() if "libcublas.so.13" in x)
    assert "site-packages/nvidia/cu13/lib/libcublas.so.13" in line  # found through the rpath the driver adds


def test_paths_with_spaces_quotes_and_non_ascii(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    # nvcc itself mangles include directories with single quotes or commas (it re-quotes -I for its
    # shell) and file names with commas (its fatbinary step), so quotes go in file names here.
    project = tmp_path / "dir with spaces and ünïcode"
    (project / "inc dir").mkdir(parents=True)
    (project / "inc dir" / "helper ü.cuh").write_text(
        "#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n"
    )
    (project / "k 'ernel' v2.cu").write_text(
        '#include "helper ü.cuh"\n#include <cuda_runtime.h>\n'
        "__global__ void k(float* x) { x[0] = twice(x[0]); }\n"
        "int main() { float* x; cudaMalloc(&x, 4); k<<<1, 1>>>(x); return 0; }\n"
    )
    env = cli_env(cache_dir, "loopback")
    argv = ["-I", str(project / "inc dir"), "k 'ernel' v2.cu", "-o", "prögram 'x'", "-MD"]
    result = run_cli(argv, env=env, cwd=project)
    assert result.returncode == 0, result.stderr
    assert (project / "prögram 'x'").is_file()
    header = str(project / "inc dir" / "helper ü.cuh").replace(" ", "\\ ")
    assert header in (project / "prögram 'x'.d").read_text()


def test_translated_header_wins_over_its_original(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    """A quoted include found through ``-I`` opens the translated copy, not the original (``-H`` lists them)."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "inc" / "helper.cuh").write_text(
        "#pragma once\n#include <cuda_runtime.h>\ninline cudaError_t sync_all() { return cudaDeviceSynchronize(); }\n"
    )
    (tmp_path / "src" / "k.cu").write_text('#include "helper.cuh"\nint main() { return sync_all(); }\n')
    result = run_cli(["-Iinc", "-Xcompiler=-H", "-c", "src/k.cu", "-o", "k.o"], env=cli_env(cache_dir, "loopback"),
                     cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    opened = [line.split(" ", 1)[1] for line in result.stderr.splitlines() if line.endswith("helper.cuh")]
    assert opened and all("/units/" in path for path in opened), opened


def test_diagnostics_name_the_original_file(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    (tmp_path / "broken.cuh").write_text("#pragma once\n\nint broken() { return undeclared_name; }\n")
    (tmp_path / "k.cu").write_text('#include "broken.cuh"\n__global__ void k() {}\n')
    result = run_cli(["-c", "k.cu"], env=cli_env(cache_dir, "loopback"), cwd=tmp_path)
    assert result.returncode != 0
    error = next(line for line in result.stderr.splitlines() if ": error:" in line)
    assert error.startswith(f"{tmp_path}/broken.cuh(3): error:")  # nvcc's file(line) form, the user's own file


def test_findings_are_warnings_and_werror_makes_them_fail(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    (tmp_path / "k.cu").write_text("#define WARP_SIZE 32\n__global__ void k() {}\n")
    env = cli_env(cache_dir, "loopback")
    warned = run_cli(["-c", "k.cu"], env=env, cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr
    assert f"{tmp_path}/k.cu:1:19: warning: " in warned.stderr and "[TA1201]" in warned.stderr
    assert "warning" not in run_cli(["-c", "k.cu", "-w"], env=env, cwd=tmp_path).stderr
    (tmp_path / "k.o").unlink()
    failed = run_cli(["-c", "k.cu", "-Werror", "all-warnings"], env=env, cwd=tmp_path)
    assert failed.returncode == 1
    assert f"{tmp_path}/k.cu:1:19: error: " in failed.stderr
    assert "torchada-nvcc fatal   : 1 translation finding(s)" in failed.stderr
    assert not (tmp_path / "k.o").exists()


@pytest.fixture(scope="module")
def ninja_build(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path, nvcc: str) -> Path:  # noqa: ARG001
    """A build.ninja with torch's cuda_compile rule (deps = gcc, torch's long dependency options)."""
    root = tmp_path_factory.mktemp("ninja")
    (root / "include").mkdir()
    (root / "include" / "scale.cuh").write_text("#pragma once\nconstexpr float kScale = 2.0f;\n")
    (root / "k.cu").write_text('#include "scale.cuh"\n__global__ void k(float* x) { x[0] *= kScale; }\n')
    (root / "build.ninja").write_text(
        f"nvcc = {TORCHADA_NVCC}\n"
        "rule cuda_compile\n"
        "  depfile = $out.d\n"
        "  deps = gcc\n"
        "  command = $nvcc --generate-dependencies-with-compile --dependency-output $out.d -Iinclude -c -c $in"
        " -o $out --compiler-options \"'-fPIC'\" -gencode=arch=compute_80,code=sm_80 -std=c++17\n"
        "build k.o: cuda_compile k.cu\n"
    )
    _run(["ninja"], root, cli_env(cache_dir, "loopback"))
    return root


def _ninja_plan(root: Path, env: dict[str, str]) -> str:
    return _run(["ninja", "-n", "-d", "explain"], root, env).stderr


def test_dependency_file_names_the_original_headers(ninja_build: Path, cache_dir: Path) -> None:
    deps = subprocess.run(["ninja", "-t", "deps"], cwd=ninja_build, capture_output=True, text=True, check=True).stdout
    assert f"{ninja_build}/include/scale.cuh" in deps
    assert "/units/" not in deps and "k.cu" in deps


def test_touching_an_original_header_rebuilds(ninja_build: Path, cache_dir: Path) -> None:
    env = cli_env(cache_dir, "loopback")
    assert "k.o" not in _ninja_plan(ninja_build, env)  # up to date
    header = ninja_build / "include" / "scale.cuh"
    header.write_text(header.read_text() + "// changed\n")
    assert f"older than most recent input {header}" in _ninja_plan(ninja_build, env)
    _run(["ninja"], ninja_build, env)
    assert "k.o" not in _ninja_plan(ninja_build, env)


@pytest.mark.parametrize("flags", [[], ["-D__CUDA_NO_HALF_OPERATORS__"]], ids=["operators", "no-operators"])
def test_half_operator_switch_reaches_cuda_headers(tmp_path: Path, cache_dir: Path, nvcc: str, flags: list[str]) -> None:
    """torch passes -D__CUDA_NO_HALF_OPERATORS__ so that c10::Half's own operators are the only ones; in
    loopback it reaches nvcc with its MUSA name, and cuda_fp16.hpp must still see it (pytorch_scatter's
    ``c10::Half < c10::Half`` is ambiguous otherwise)."""
    source = tmp_path / "lt.cu"
    source.write_text("#include <cuda_fp16.h>\n__device__ bool lt(__half a, __half b) { return a < b; }\n")
    stock = subprocess.run([nvcc, *flags, "-c", str(source), "-o", str(tmp_path / "stock.o")], capture_output=True, check=False)
    ported = run_cli([*flags, "-c", "lt.cu", "-o", "ported.o"], env=cli_env(cache_dir, "loopback"), cwd=tmp_path)
    assert (stock.returncode == 0) is (not flags)  # without operators, __half has no operator<
    assert ported.returncode == stock.returncode, ported.stderr


def test_a_macro_a_cuda_header_defines_is_aliased_after_it(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:
    """``__CUDA_ALIGN__`` comes from a header (``cuda_fp8.hpp`` leaves it defined), not the compiler, so its
    MUSA name must be aliased once that header is in: FlashInfer's ``struct __CUDA_ALIGN__(8) ...`` did
    not parse in loopback."""
    (tmp_path / "packed.cuh").write_text("#pragma once\n#include <cuda_fp8.h>\n"
                                         "typedef struct __CUDA_ALIGN__(8) { __nv_fp8_e4m3 a[8]; } fp8_8;\n")  # fmt: skip
    (tmp_path / "k.cu").write_text('#include "packed.cuh"\n__global__ void k(fp8_8* x) { x->a[0] = x->a[1]; }\n'
                                   "static_assert(alignof(fp8_8) == 8, \"\");\n")  # fmt: skip
    stock = subprocess.run([nvcc, "-c", "k.cu", "-o", "stock.o"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert stock.returncode == 0, stock.stderr
    result = run_cli(["-c", "k.cu", "-o", "k.o"], env=cli_env(cache_dir, "loopback"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr


TORCH_DEVICE_TESTS = "bool on_gpu(const at::Tensor& x) { return x.is_cuda() && x.device().type() == at::kCUDA; }\n"


def test_pytorchs_own_spellings_of_a_cuda_test_map_back(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    """``x.is_cuda()`` and ``at::kCUDA`` become torch's own ``x.is_privateuseone()`` and ``at::kPrivateUse1``,
    which the CUDA build of torch declares too: loopback maps them back right after the torch header
    that declares them, so that a loopback build run on an NVIDIA GPU tests what the original tests.
    Only a unit that holds one of them gets that header's stand-in, and only where the unit includes
    it: a configuration macro that the unit sets before its first ``#include`` still configures the
    library (megablocks wraps cub in its own namespace; a torch header included ahead lost that)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("torch is not installed")
    include = Path(spec.submodule_search_locations[0]) / "include"
    wrapped = "#define CUB_WRAPPED_NAMESPACE wrapped\n#include <cub/cub.cuh>\n"
    (tmp_path / "gpu.cu").write_text(wrapped + "#include <ATen/ATen.h>\n" + TORCH_DEVICE_TESTS)
    (tmp_path / "cpu.cu").write_text("#include <ATen/ATen.h>\nbool on_cpu(const at::Tensor& x) { return x.is_cpu(); }\n")
    env = cli_env(cache_dir, "loopback")
    flags = ["-std=c++20", "-arch=sm_80", f"-I{include}", f"-I{include / 'torch' / 'csrc' / 'api' / 'include'}"]
    for name in ("gpu", "cpu"):
        result = run_cli([*flags, "-E", f"{name}.cu", "-o", f"{name}.ii"], env=env, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    preprocessed = (tmp_path / "gpu.ii").read_text()
    (line,) = [line for line in preprocessed.splitlines() if line.startswith("bool on_gpu")]
    assert line == TORCH_DEVICE_TESTS.strip()
    code = " ".join(" ".join(x for x in preprocessed.splitlines() if not x.startswith("#")).split())
    assert "namespace wrapped { namespace cub {" in code, "cub is not in the unit's namespace"
    (translated,) = cache_dir.glob(f"units/*/tree{tmp_path}/gpu.cu")
    assert "x.is_privateuseone() && x.device().type() == at::kPrivateUse1" in translated.read_text()
    for name, expected in (("gpu", True), ("cpu", False)):
        shown = run_cli([*flags, "--dryrun", "-c", f"{name}.cu"], env=env, cwd=tmp_path)
        assert (f"/{TORCH_ALIASES} " in shown.stderr) is expected, shown.stderr
        assert "TensorBase.h" not in shown.stderr  # nothing of torch's is included ahead of the unit


def test_a_cutlass_architecture_tag_compiles_back(tmp_path: Path, cache_dir: Path, nvcc: str) -> None:  # noqa: ARG001
    """A project that carries its own CUTLASS (grouped_gemm's third_party/cutlass) names ``cutlass::arch::Sm80``,
    which translates to MUTLASS's ``mutlass::arch::Mp22``: loopback must compile it as ``Sm80`` again."""
    (tmp_path / "inc" / "cutlass" / "arch").mkdir(parents=True)
    (tmp_path / "inc" / "cutlass" / "arch" / "arch.h").write_text(
        "#pragma once\nnamespace cutlass { namespace arch { struct Sm80 { static int const kMin = 80; }; } }\n"
    )
    (tmp_path / "k.cu").write_text(
        '#include "cutlass/arch/arch.h"\nstatic_assert(::cutlass::arch::Sm80::kMin == 80, "");\n'
    )
    result = run_cli(["-Iinc", "-c", "k.cu", "-o", "k.o"], env=cli_env(cache_dir, "loopback"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "mutlass::arch::Mp22" in result.stderr  # the finding: a MUSA kernel must be re-tuned
    assert (tmp_path / "k.o").is_file()

"""Golden ``--dryrun`` output of the mcc backend, on the fake MUSA tree (no mcc needed), for the
command lines build systems really send: torch's cpp_extension, CMake, a Makefile, device links,
archives. Each case's command line sits beside the lines it must print, FileCheck style, with
machine-specific paths written ``$CACHE``, ``$SRC``, ``$MUSA_HOME``…: ``CHECK:`` a later line is this
one, ``CHECK-NEXT:`` the next line is, and the last checked line is the last line printed. They are
written and reviewed by hand; nothing rewrites them.

The conventions checked beyond the golden text are torch_musa's (``musa_toolchain.md`` §1.4): ``-x
musa`` for CUDA sources, ``--offload-arch=mp_XX``, ``-U__CUDA__``, ``-fPIC`` and ``-std=c++17`` as
given, the host compiler linking with ``-lmusart``.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from driver_support import FAKE_MUSA, REPO

TORCH_FLAGS = [
    "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__", "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "-D__CUDA_NO_HALF2_OPERATORS__", "--expt-relaxed-constexpr", "--compiler-options", "'-fPIC'",
    "-gencode=arch=compute_80,code=sm_80", "-std=c++17",
]  # fmt: skip
CASES: dict[str, tuple[list[str], dict[str, str], list[str]]] = {
    "torch_ninja_compile": (
        ["--generate-dependencies-with-compile", "--dependency-output", "saxpy.o.d", "-I$SRC/include",
         "-DTORCH_EXTENSION_NAME=ext", "-DTORCH_API_INCLUDE_EXTENSION_H", "-c", "-c", "saxpy.cu", "-o", "saxpy.o",
         *TORCH_FLAGS],
        {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu -I $SRC/include",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -I $SRC/include -DTORCH_EXTENSION_NAME=ext -DTORCH_API_INCLUDE_EXTENSION_H -D__MUSA_NO_HALF_OPERATORS__ -D__MUSA_NO_HALF_CONVERSIONS__ -D__MUSA_NO_BFLOAT16_CONVERSIONS__ -D__MUSA_NO_HALF2_OPERATORS__ -fPIC -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT saxpy.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o saxpy.o",
            "CHECK-NEXT: #$ -- Filter Dependencies -- > saxpy.o.d",
        ],
    ),
    "cmake_compile_rdc": (
        ["-forward-unknown-to-host-compiler", "-Dkern_EXPORTS",
         "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
         "-Xcompiler=-fPIC", "-std=c++17", "-MD", "-MT", "CMakeFiles/kern.dir/saxpy.cu.o", "-MF",
         "CMakeFiles/kern.dir/saxpy.cu.o.d", "-x", "cu", "-rdc=true", "-c", "$SRC/saxpy.cu", "-o",
         "CMakeFiles/kern.dir/saxpy.cu.o"],
        {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -fgpu-rdc -Dkern_EXPORTS -fPIC -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT CMakeFiles/kern.dir/saxpy.cu.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o CMakeFiles/kern.dir/saxpy.cu.o",
            "CHECK-NEXT: #$ -- Filter Dependencies -- > CMakeFiles/kern.dir/saxpy.cu.o.d",
        ],
    ),
    "cmake_device_link": (
        ["-forward-unknown-to-host-compiler", "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
         "-Xcompiler=-fPIC", "-Wno-deprecated-gpu-targets", "-shared", "-dlink", "saxpy.o", "-o",
         "cmake_device_link.o", "-lcudadevrt", "-lcudart_static"],
        {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -dlink saxpy.o -o cmake_device_link.o --offload-arch=mp_22 -fPIC -L$MUSA_HOME/lib -lmusadevrt -lmusart",
        ],
    ),
    "makefile_compile_and_link": (["-O2", "-arch=sm_80", "saxpy.cu", "-o", "saxpy"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -O2 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT $TMP/0_saxpy.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o $TMP/0_saxpy.o",
            "CHECK-NEXT: #$ $CXX -Wl,--start-group $TMP/0_saxpy.o -L$CACHE/toolkit/mcc-$HASH/lib64 -L$MUSA_HOME/lib -lmusart -lrt -lpthread -ldl -Wl,--end-group -o saxpy",
        ],
    ),
    "rdc_link_shared": (["-rdc=true", "-shared", "-Xcompiler", "-fPIC", "saxpy.o", "-o", "libk.so", "-lcublas",
                         "-Xlinker", "-rpath=/opt/x", "-L/opt/x"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -dlink saxpy.o -o $TMP/libk.so_dlink.o --offload-arch=mp_22 -fPIC -L/opt/x -L$MUSA_HOME/lib -lmublas -lmusadevrt",
            "CHECK-NEXT: #$ $CXX -fPIC -Wl,--start-group $TMP/libk.so_dlink.o saxpy.o -shared -Xlinker -rpath=/opt/x -L/opt/x -lmublas -L$CACHE/toolkit/mcc-$HASH/lib64 -L$MUSA_HOME/lib -lmusart -lrt -lpthread -ldl -Wl,--end-group -o libk.so",
        ],
    ),  # fmt: skip
    "archive": (["-lib", "saxpy.cu", "other.o", "-o", "libk.a", "-arch=sm_90"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_90 --offload-arch=mp_31",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_31 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT $TMP/0_saxpy.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o $TMP/0_saxpy.o",
            "CHECK-NEXT: #$ ar cr libk.a $TMP/0_saxpy.o other.o",
        ],
    ),
    "host_cpp": (["-c", "host.cpp", "-o", "host.o", "-DFOO=1", "-O3", "-std=c++17", "--use_fast_math"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/host.cpp",
            "CHECK-NEXT: #$ $CXX -x c++ -DCUDA_VERSION=13000 -DFOO=1 -O3 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_host.d -MT host.o -c $CACHE/units/$UNIT/tree$SRC/host.cpp -o host.o",
        ],
    ),
    "dependencies_only": (["-M", "-MP", "-MT", "saxpy.o", "saxpy.cu", "-o", "saxpy.d"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -M -MF $TMP/0_saxpy.d -MT saxpy.o $CACHE/units/$UNIT/tree$SRC/saxpy.cu",
            "CHECK-NEXT: #$ -- Filter Dependencies -- > saxpy.d",
        ],
    ),
    "preprocess": (["-E", "saxpy.cu", "-DX"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -DX -idirafter $SRC -I$MUSA_HOME/include -M -MF $TMP/0_saxpy.d -MT saxpy.o $CACHE/units/$UNIT/tree$SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -DX -idirafter $SRC -I$MUSA_HOME/include -E --cuda-device-only $CACHE/units/$UNIT/tree$SRC/saxpy.cu",
        ],
    ),
    "sccache_preprocess": (["-x", "cu", "-E", "-P", "-MD", "-MF", "saxpy.d", "-MT", "saxpy.o", "-arch=sm_80",
                            "saxpy.cu"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -M -MF $TMP/0_saxpy.d -MT saxpy.o $CACHE/units/$UNIT/tree$SRC/saxpy.cu",
            "CHECK-NEXT: #$ -- Filter Dependencies -- > saxpy.d",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -E --cuda-device-only -P $CACHE/units/$UNIT/tree$SRC/saxpy.cu",
        ],
    ),  # sccache takes torchada-nvcc for a gcc (docs/build.md)
    "arch_override": (["-arch=all", "-c", "saxpy.cu"], {"TORCHADA_MUSA_ARCH": "mp_21;31"},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_75 --offload-arch=mp_21 --offload-arch=mp_31",
            "CHECK-NEXT: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_21 --offload-arch=mp_31",
            "CHECK-NEXT: #$ _GPU_ARCH_=-arch compute_90 --offload-arch=mp_21 --offload-arch=mp_31",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_21 --offload-arch=mp_31 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT saxpy.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o saxpy.o",
        ],
    ),
    "rdc_two_files": (["-rdc=true", "saxpy.cu", "b.cu", "-o", "app"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -fgpu-rdc -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT $TMP/0_saxpy.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o $TMP/0_saxpy.o",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/b.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -fgpu-rdc -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/1_b.d -MT $TMP/1_b.o -c $CACHE/units/$UNIT/tree$SRC/b.cu -o $TMP/1_b.o",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -dlink $TMP/0_saxpy.o $TMP/1_b.o -o $TMP/app_dlink.o -fPIC --offload-arch=mp_22 -L$MUSA_HOME/lib -lmusadevrt",
            "CHECK-NEXT: #$ $CXX -Wl,--start-group $TMP/app_dlink.o $TMP/0_saxpy.o $TMP/1_b.o -L$CACHE/toolkit/mcc-$HASH/lib64 -L$MUSA_HOME/lib -lmusart -lrt -lpthread -ldl -Wl,--end-group -o app",
        ],
    ),  # MT-DeepEP links musadevrt with separable compilation (docs/build.md, torch_musa's conventions)
    "musa_source_and_torch_musa_arch_list": (["-gencode=arch=compute_80,code=sm_80", "-c", "k.mu"],
        {"TORCH_MUSA_ARCH_LIST": "32;10"},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_10 --offload-arch=mp_32",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/k.mu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc --offload-arch=mp_10 --offload-arch=mp_32 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_k.d -MT k.o -c $CACHE/units/$UNIT/tree$SRC/k.mu -o k.o",
        ],
    ),  # torch_musa's variable wins over a CUDA -gencode, sorted; a .mu goes to mcc without -x musa
    "verbose_no_arch": (["-c", "saxpy.cu", "-O0", "-g", "-G", "-lineinfo"], {},
        [
            "CHECK: #$ _GPU_ARCH_=-arch compute_80 --offload-arch=mp_22",
            "CHECK-NEXT: #$ $PYTHON -m torchada_build.compilers.units $SRC/saxpy.cu",
            "CHECK-NEXT: #$ $MUSA_HOME/bin/mcc -x musa --offload-arch=mp_22 -U__CUDA__ -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -DCUDA_VERSION=13000 -std=c++17 -O0 -g -g -idirafter $SRC -I$MUSA_HOME/include -MD -MF $TMP/0_saxpy.d -MT saxpy.o -c $CACHE/units/$UNIT/tree$SRC/saxpy.cu -o saxpy.o",
        ],
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("golden")
    for name in ("saxpy.cu", "common.cuh"):
        shutil.copy(REPO / "samples" / "makefile" / name, root / name)
    shutil.copy(root / "saxpy.cu", root / "k.mu")
    (root / "b.cu").write_text('#include "common.cuh"\n__device__ float twice(float x) { return 2 * x; }\n')
    (root / "include").mkdir()
    (root / "host.cpp").write_text('#include "common.cuh"\nint main() { cudaDeviceSynchronize(); }\n')
    return root


def normalize(text: str, cache_dir: Path, sources: Path) -> str:
    replacements = [
        (str(cache_dir), "$CACHE"),
        (str(sources), "$SRC"),
        (str(FAKE_MUSA), "$MUSA_HOME"),
        (sys.executable, "$PYTHON"),
        (shutil.which("c++") or "c++", "$CXX"),
    ]
    for old, new in replacements:
        text = text.replace(old, new)
    text = re.sub(r"units/[0-9a-f]{32}", "units/$UNIT", text)
    text = re.sub(r"toolkit/mcc-[0-9a-f]{16}", "toolkit/mcc-$HASH", text)
    text = re.sub(r"\$CACHE/tmp/torchada-nvcc-\d+/", "$TMP/", text)  # the work directory
    text = re.sub(r"^#\$ PATH=.*$", "#$ PATH=$CACHE/toolkit/mcc-$HASH/bin:$PATH", text, flags=re.M)
    return text


def check_lines(lines: list[str], checks: list[str]) -> None:
    """``CHECK:``/``CHECK-NEXT:`` against ``lines``; the last check must match the last line."""
    position = -1
    for check in checks:
        directive, _, expected = check.partition(": ")
        if directive == "CHECK-NEXT":
            assert lines[position + 1 : position + 2] == [expected], f"{check!r} is not the line after line {position}"
            position += 1
        else:
            assert directive == "CHECK", check
            assert expected in lines[position + 1 :], f"{check!r} not found after line {position}:\n" + "\n".join(lines)
            position = lines.index(expected, position + 1)
    assert position == len(lines) - 1, "lines after the last check:\n" + "\n".join(lines[position + 1 :])


@pytest.mark.parametrize("case", sorted(CASES))
def test_dryrun(case: str, driver, driver_env, sources: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv, env, checks = CASES[case]
    driver_env("mcc", **env)
    monkeypatch.chdir(sources)
    result = driver(["--dryrun", *(a.replace("$SRC", str(sources)) for a in argv)])
    assert result.returncode == 0, result.stderr
    check_lines(normalize(result.stderr, cache_dir, sources).splitlines(), checks)


def test_the_checks_are_read_as_documented() -> None:
    lines = ["#$ a", "#$ b", "#$ c"]
    check_lines(lines, ["CHECK: #$ b", "CHECK-NEXT: #$ c"])
    for wrong in (["CHECK: #$ a", "CHECK-NEXT: #$ c"], ["CHECK: #$ b"], ["CHECK: #$ c", "CHECK: #$ b"]):
        with pytest.raises(AssertionError):
            check_lines(lines, wrong)


def test_torch_musa_conventions(driver, sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(sources)
    result = driver(["--dryrun", "-c", "saxpy.cu", "-o", "saxpy.o", *TORCH_FLAGS])
    compile_line = next(line for line in result.lines if line.startswith(str(FAKE_MUSA / "bin" / "mcc")))
    words = compile_line.split()
    assert words[1:4] == ["-x", "musa", "--offload-arch=mp_22"]
    for flag in ("-U__CUDA__", "-fPIC", "-std=c++17", "-c"):
        assert flag in words
    assert words.count("-std=c++17") == 1  # mcc refuses two
    assert "--expt-relaxed-constexpr" not in compile_line and "-gencode" not in compile_line
    assert words[-2:] == ["-o", "saxpy.o"]


def test_library_and_macro_names_come_from_the_database(driver, sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hipify_like.mapping import load_db

    monkeypatch.chdir(sources)
    db = load_db()
    result = driver(["--dryrun", "saxpy.o", "-o", "app", "-lcudart", "-lcublas", "-DCUDART_VERSION=1"])
    link = result.lines[-1]
    for name in ("cudart", "cublas"):
        entry = db.library(name)
        assert f" -l{entry.musa if entry else name} " in link
    assert link.split()[0] == shutil.which("c++")
    assert link.endswith("-lmusart -lrt -lpthread -ldl -Wl,--end-group -o app")


def test_a_dry_run_prints_the_findings_a_build_would(driver, sources: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every finding, a header's too, after the translate job's line; no marker that a build would leave
    to print a header's findings once a session, so the build that follows prints them as well."""
    monkeypatch.chdir(sources)
    (sources / "ptx.cuh").write_text('__device__ inline void stop() { asm volatile("trap;"); }\n')
    (sources / "warp.cu").write_text('#include "ptx.cuh"\n__global__ void k(int* v) { *v = __ballot_sync(~0u, 1); }\n')
    for _ in range(2):
        result = driver(["--dryrun", "-c", "warp.cu", "-o", "warp.o"])
        assert result.returncode == 0, result.stderr
        lines = result.stderr.splitlines()
        findings = [line for line in lines if line.endswith(("[TA1101]", "[TA1201]"))]
        assert [line.split(": ")[0] for line in findings] == [f"{sources / 'warp.cu'}:2:48", f"{sources / 'ptx.cuh'}:1:33"]
        translate = next(i for i, line in enumerate(lines) if "torchada_build.compilers.units" in line)
        assert lines.index(findings[0]) == translate + 1
    assert not (cache_dir / "reported").exists()
    werror = driver(["--dryrun", "-Werror", "all-warnings", "-c", "warp.cu", "-o", "warp.o"])
    assert werror.returncode == 0 and sum(": error: " in line for line in werror.stderr.splitlines()) == 2


@pytest.mark.parametrize(("arches", "warned"), [("mp_22", True), ("mp_31", False), ("22;31", True)])
def test_a_32_lane_warp_assumption_is_a_finding_where_a_target_has_wider_warps(
    driver, driver_env, sources: Path, monkeypatch: pytest.MonkeyPatch, arches: str, warned: bool
) -> None:
    """mp_31's warps are 32 lanes wide (``data/architectures/musa.tsv``): a full-mask ballot is right
    there, and wrong on mp_22's 128; the translation, shared by both, is the same."""
    monkeypatch.chdir(sources)
    driver_env(TORCH_MUSA_ARCH_LIST=arches)
    (sources / "warp.cu").write_text("__global__ void k(int* v) { *v = __ballot_sync(0xffffffff, 1); }\n")
    for werror in ([], ["-Werror", "all-warnings"]):
        result = driver(["--dryrun", *werror, "-c", "warp.cu", "-o", "warp.o"])
        assert result.returncode == 0, result.stderr
        assert any(line.endswith("[TA1201]") for line in result.stderr.splitlines()) is warned

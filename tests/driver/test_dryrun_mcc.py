"""Golden ``--dryrun`` output of the mcc backend, on the fake MUSA tree (no mcc needed), for the
command lines build systems really send: torch's cpp_extension, CMake, a Makefile, device links,
archives. ``golden/<case>.txt`` holds the expected lines with machine-specific paths replaced by
``$CACHE``, ``$SRC``, ``$MUSA_HOME``…; ``TORCHADA_UPDATE_GOLDEN=1`` rewrites them (review the diff).

The conventions checked beyond the golden text are torch_musa's (``musa_toolchain.md`` §1.4): ``-x
musa`` for CUDA sources, ``--offload-arch=mp_XX``, ``-U__CUDA__``, ``-fPIC`` and ``-std=c++17`` as
given, the host compiler linking with ``-lmusart``.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from driver_support import FAKE_MUSA, REPO

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("TORCHADA_UPDATE_GOLDEN") == "1"
TORCH_FLAGS = [
    "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__", "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "-D__CUDA_NO_HALF2_OPERATORS__", "--expt-relaxed-constexpr", "--compiler-options", "'-fPIC'",
    "-gencode=arch=compute_80,code=sm_80", "-std=c++17",
]  # fmt: skip
CASES: dict[str, tuple[list[str], dict[str, str]]] = {
    "torch_ninja_compile": (
        ["--generate-dependencies-with-compile", "--dependency-output", "saxpy.o.d", "-I$SRC/include",
         "-DTORCH_EXTENSION_NAME=ext", "-DTORCH_API_INCLUDE_EXTENSION_H", "-c", "-c", "saxpy.cu", "-o", "saxpy.o",
         *TORCH_FLAGS],
        {},
    ),
    "cmake_compile_rdc": (
        ["-forward-unknown-to-host-compiler", "-Dkern_EXPORTS",
         "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
         "-Xcompiler=-fPIC", "-std=c++17", "-MD", "-MT", "CMakeFiles/kern.dir/saxpy.cu.o", "-MF",
         "CMakeFiles/kern.dir/saxpy.cu.o.d", "-x", "cu", "-rdc=true", "-c", "$SRC/saxpy.cu", "-o",
         "CMakeFiles/kern.dir/saxpy.cu.o"],
        {},
    ),
    "cmake_device_link": (
        ["-forward-unknown-to-host-compiler", "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
         "-Xcompiler=-fPIC", "-Wno-deprecated-gpu-targets", "-shared", "-dlink", "saxpy.o", "-o",
         "cmake_device_link.o", "-lcudadevrt", "-lcudart_static"],
        {},
    ),
    "makefile_compile_and_link": (["-O2", "-arch=sm_80", "saxpy.cu", "-o", "saxpy"], {}),
    "rdc_link_shared": (["-rdc=true", "-shared", "-Xcompiler", "-fPIC", "saxpy.o", "-o", "libk.so", "-lcublas",
                         "-Xlinker", "-rpath=/opt/x", "-L/opt/x"], {}),  # fmt: skip
    "archive": (["-lib", "saxpy.cu", "other.o", "-o", "libk.a", "-arch=sm_90"], {}),
    "host_cpp": (["-c", "host.cpp", "-o", "host.o", "-DFOO=1", "-O3", "-std=c++17", "--use_fast_math"], {}),
    "dependencies_only": (["-M", "-MP", "-MT", "saxpy.o", "saxpy.cu", "-o", "saxpy.d"], {}),
    "preprocess": (["-E", "saxpy.cu", "-DX"], {}),
    "sccache_preprocess": (["-x", "cu", "-E", "-P", "-MD", "-MF", "saxpy.d", "-MT", "saxpy.o", "-arch=sm_80",
                            "saxpy.cu"], {}),  # sccache takes torchada-nvcc for a gcc (docs/build.md)
    "arch_override": (["-arch=all", "-c", "saxpy.cu"], {"TORCHADA_MUSA_ARCH": "mp_21;31"}),
    "verbose_no_arch": (["-c", "saxpy.cu", "-O0", "-g", "-G", "-lineinfo"], {}),
}  # fmt: skip


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("golden")
    for name in ("saxpy.cu", "common.cuh"):
        shutil.copy(REPO / "samples" / "makefile" / name, root / name)
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


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case: str, driver, driver_env, sources: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv, env = CASES[case]
    driver_env("mcc", **env)
    monkeypatch.chdir(sources)
    result = driver(["--dryrun", *(a.replace("$SRC", str(sources)) for a in argv)])
    assert result.returncode == 0, result.stderr
    text = normalize(result.stderr, cache_dir, sources)
    expected = GOLDEN / f"{case}.txt"
    if UPDATE:
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(text)
    assert text == expected.read_text()


def test_every_golden_file_has_a_case() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(CASES)


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

"""The compiler reads only what torchada translated, however its preprocessor finds a header.

Each case is a header holding CUDA that the compiler finds in a way torchada's own include search did
not (a computed include, ``-Xcompiler -I``, ``-Xcompiler -include``, ``CPATH``, ``CPLUS_INCLUDE_PATH``).
Two checks, on real nvcc in loopback: the unit's preprocessed output (``-E`` with the host
preprocessor's ``-fdirectives-only``, so that the compat headers' macros do not turn MUSA names back
into CUDA ones) holds no text of a project file that translation would change, and ``-c`` builds.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from driver_support import cli_env, run_cli

from hipify_like.translate import translate_source

pytestmark = pytest.mark.usefixtures("nvcc")

_HEADER = "#pragma once\n#include <cuda_runtime.h>\ninline cudaError_t {name}() {{ return cudaGetLastError(); }}\n"
_MARKER = re.compile(r'^# \d+ "(.*)"')


def _untranslated_text(preprocessed: str, project: Path) -> dict[str, str]:
    """The text of each project file in ``preprocessed`` that translation would change, by file."""
    regions: dict[str, list[str]] = {}
    current = ""
    for line in preprocessed.splitlines():
        marker = _MARKER.match(line)
        if marker:  # a relative name is the working directory's; <built-in> and <command-line> are no file
            name = marker.group(1)
            current = "" if name.startswith("<") else os.path.normpath(os.path.join(project, name))
        elif current.startswith(f"{project}/") and "/cache/" not in current:
            regions.setdefault(current, []).append(line)
    changed = {}
    for path, lines in regions.items():
        text = "\n".join(lines).encode()
        if translate_source(text, path).text != text:
            changed[path] = "\n".join(lines)
    return changed


def _project(tmp_path: Path, include: str) -> None:
    for directory, name in (("", "b"), ("inc", "c"), ("env", "d")):
        (tmp_path / directory).mkdir(exist_ok=True)
        (tmp_path / directory / f"{name}.cuh").write_text(_HEADER.format(name=name))
    (tmp_path / "k.cu").write_text(f"{include}\n__global__ void k() {{}}\nint main() {{ return 0; }}\n")


CASES = {
    "computed quoted include": ("#include HDR", ['-DHDR="b.cuh"'], {}),
    "computed angled include": ("#include HDR", ["-DHDR=<c.cuh>", "-Iinc"], {}),
    "-Xcompiler -I": ("#include <c.cuh>", ["-Xcompiler", "-Iinc"], {}),
    "-Xcompiler -I, the directory apart": ("#include <c.cuh>", ["-Xcompiler", "-I,inc"], {}),
    "-Xcompiler -include": ("", ["-Xcompiler", "-include,inc/c.cuh"], {}),
    "CPATH": ("#include <d.cuh>", [], {"CPATH": "env"}),
    "CPLUS_INCLUDE_PATH": ("#include <d.cuh>", [], {"CPLUS_INCLUDE_PATH": "{tmp}/env"}),
}


@pytest.mark.parametrize("case", CASES)
def test_a_header_the_compiler_finds_its_own_way_is_read_translated(tmp_path: Path, case: str) -> None:
    include, flags, variables = CASES[case]
    _project(tmp_path, include)
    env = cli_env(tmp_path / "cache", "loopback", **{k: v.format(tmp=tmp_path) for k, v in variables.items()})
    preprocessed = run_cli([*flags, "-Xcompiler", "-fdirectives-only", "-E", "k.cu"], env=env, cwd=tmp_path)
    assert preprocessed.returncode == 0, preprocessed.stderr
    assert "return " in preprocessed.stdout
    assert _untranslated_text(preprocessed.stdout, tmp_path) == {}
    built = run_cli([*flags, "-c", "k.cu", "-o", "k.o"], env=env, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "k.o").is_file()


def test_the_preprocessed_check_sees_an_untranslated_header(tmp_path: Path) -> None:
    """The check above fails on the compiler reading a header as it is (torchada's compat headers
    turned off by compiling the original with nvcc itself)."""
    _project(tmp_path, '#include "b.cuh"')
    env = cli_env(tmp_path / "cache", "nvcc")
    preprocessed = run_cli(["-Xcompiler", "-fdirectives-only", "-E", "k.cu"], env=env, cwd=tmp_path)
    assert preprocessed.returncode == 0, preprocessed.stderr
    assert list(_untranslated_text(preprocessed.stdout, tmp_path)) == [f"{tmp_path}/b.cuh"]


def test_a_computed_include_is_found_once_and_remembered(tmp_path: Path) -> None:
    """The compile that finds a header the search missed is redone translated; the header is recorded in
    the source's manifest, so the next build translates it from the start."""
    _project(tmp_path, "#include HDR")
    env = cli_env(tmp_path / "cache", "loopback")
    first = run_cli(['-DHDR="b.cuh"', "-c", "k.cu", "-v"], env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    compiles = [line for line in first.lines if " -c " in line]
    assert len(compiles) == 2, "compiled again, translated"
    (manifest,) = (tmp_path / "cache" / "manifests").glob("*.json")
    assert json.loads(manifest.read_text())["discovered"] == [f"{tmp_path}/b.cuh"]
    again = run_cli(['-DHDR="b.cuh"', "-c", "k.cu", "-v"], env=env, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len([line for line in again.lines if " -c " in line]) == 1


def test_a_header_the_compiler_reads_untranslated_stops_the_build(tmp_path: Path) -> None:
    """An absolute path spelled by a macro: the compiler opens the original whatever torchada translates.
    One line, exit 1, and no object built from untranslated CUDA."""
    _project(tmp_path, "#include HDR")
    env = cli_env(tmp_path / "cache", "loopback")
    result = run_cli([f'-DHDR="{tmp_path}/inc/c.cuh"', "-c", "k.cu", "-o", "k.o"], env=env, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"torchada-nvcc fatal   : the compiler read '{tmp_path}/inc/c.cuh' untranslated (found where torchada cannot"
        " put the translated copy first, such as an absolute path spelled by a macro); name its directory with -I"
    ]
    assert not (tmp_path / "k.o").exists()


def test_a_cuda_free_header_read_as_it_is_is_left_alone(tmp_path: Path) -> None:
    """A header the search missed that holds nothing of CUDA's needs no translation: one compile."""
    (tmp_path / "plain.h").write_text("#pragma once\ninline int plain() { return 1; }\n")
    (tmp_path / "k.cu").write_text(f'#include "{tmp_path}/plain.h"\n__global__ void k() {{}}\n')
    env = cli_env(tmp_path / "cache", "loopback")
    result = run_cli(["-c", "k.cu", "-v"], env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert len([line for line in result.lines if " -c " in line]) == 1
    assert os.path.isfile(tmp_path / "k.o")


def test_standard_input_is_read_as_the_language_x_names(tmp_path: Path) -> None:
    """``nvcc -x cu -c -`` compiles standard input; so does torchada-nvcc, translated, naming the object
    ``stdin.o``, and it leaves no memo: the same command line reads other code next time."""
    import subprocess

    from driver_support import TORCHADA_NVCC

    env = cli_env(tmp_path / "cache", "loopback")
    source = "#include <cuda_runtime.h>\n__global__ void k() {}\nint main() { return cudaDeviceSynchronize(); }\n"
    for argv, output in ((["-x", "cu", "-c", "-", "-o", "s.o"], "s.o"), (["-x", "cu", "-c", "-"], "stdin.o")):
        done = subprocess.run([str(TORCHADA_NVCC), *argv], input=source, env=env, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / output).stat().st_size > 0
    preprocessed = subprocess.run([str(TORCHADA_NVCC), "-x", "cu", "-E", "-Xcompiler", "-fdirectives-only", "-"], input=source,
                                  env=env, cwd=tmp_path, capture_output=True, text=True)  # fmt: skip
    assert "musaDeviceSynchronize" in preprocessed.stdout
    assert not (tmp_path / "cache" / "memo").exists() or not any((tmp_path / "cache" / "memo").iterdir())
    unknown = subprocess.run([str(TORCHADA_NVCC), "-c", "-"], input=source, env=env, cwd=tmp_path, capture_output=True, text=True)
    assert (unknown.returncode, unknown.stderr) == (1, "torchada-nvcc fatal   : Don't know what to do with '-'\n")


def test_a_host_compile_reads_a_computed_include_translated(tmp_path: Path) -> None:
    """torchada-host-compile (in front of c++, as torch's and CMake's builds run it) checks the rule the
    compiler writes in the same way."""
    import subprocess
    import sys

    (tmp_path / "b.h").write_text("#pragma once\n#include <cuda_runtime.h>\ninline cudaError_t b() { return cudaGetLastError(); }\n")
    (tmp_path / "k.cpp").write_text("#include HDR\nint main() { return b() == cudaSuccess ? 0 : 1; }\n")
    env = cli_env(tmp_path / "cache", "loopback")
    command = [sys.executable, "-m", "torchada_build.host_compile", "--backend=loopback", "--",
               "c++", "-MD", "-MF", "k.d", '-DHDR="b.h"', "-c", "k.cpp", "-o", "k.o"]  # fmt: skip
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (manifest,) = (tmp_path / "cache" / "manifests").glob("*.json")
    assert json.loads(manifest.read_text())["discovered"] == [f"{tmp_path}/b.h"]
    assert f"{tmp_path}/b.h" in (tmp_path / "k.d").read_text(), "the rule names the original"


def test_a_vendored_copy_of_a_ported_library_is_read_as_the_library(tmp_path: Path) -> None:
    """A project's copy of CUTLASS (which MUSA ports as MUTLASS) is the library, as translation takes it
    (grouped_gemm's ``third_party/cutlass``): loopback reads it as it reads CUDA's headers, in one compile,
    and records nothing to translate."""
    vendored = tmp_path / "third_party" / "cutlass" / "include" / "cutlass"
    vendored.mkdir(parents=True)
    (vendored / "project_gemm.h").write_text(_HEADER.format(name="gemm"))  # no database header: kept, TA1002
    (tmp_path / "k.cu").write_text("#include <cutlass/project_gemm.h>\n__global__ void k() {}\n")
    env = cli_env(tmp_path / "cache", "loopback")
    built = run_cli(["-Ithird_party/cutlass/include", "-c", "k.cu", "-o", "k.o", "-v"], env=env, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "[TA1002]" in built.stderr
    assert len([line for line in built.lines if " -c " in line]) == 1, "compiled once"
    (manifest,) = (tmp_path / "cache" / "manifests").glob("*.json")
    assert json.loads(manifest.read_text())["discovered"] == []

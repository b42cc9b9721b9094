"""Host ``.cpp`` files of CUDA extensions: translated in front of the host compiler (``torchada_build.host_compile``).

``samples/stream_scale`` keeps its CUDA in host C++ (``at::cuda::getCurrentCUDAStream``, ``c10::cuda::CUDAGuard``,
``cudaStream_t``), as real extensions do. The installed CPU build of torch lacks the generated
``c10/cuda/impl/cuda_cmake_macros.h`` that its ``c10/cuda`` headers include, so loopback builds of that sample
find it in the CUDA build's headers (``CPLUS_INCLUDE_PATH``); the module links, and its undefined symbols
name the CUDA torch libraries, which a CPU torch does not have, so it is not imported.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Built, copy_sample, run, source_snapshot
from musa_standin import MusaStandIn
from torchada_build.compilers.backends import Backend
from torchada_build.compilers.host import is_host_compile, plan_host_compile
from torchada_build.compilers.jobs import JobKind

HOOKED_BUILD = [sys.executable, "-m", "torchada_build", "setup.py", "build_ext", "--inplace"]
WITHOUT_NINJA = ('{"build_ext": BuildExtension}', '{"build_ext": BuildExtension.with_options(use_ninja=False)}')


@pytest.mark.parametrize(
    ("command", "translated"),
    [
        (["c++", "-MMD", "-MF", "k.o.d", "-Iinc", "-c", "k.cpp", "-o", "k.o"], True),
        (["ccache", "g++", "-c", "dir/k.cc", "-o", "k.o"], True),
        (["gcc", "-x", "c++", "-c", "kernel.inc", "-o", "k.o"], True),
        (["gcc", "-c", "k.c"], True),
        (["c++", "k.o", "k_kernel.o", "-shared", "-o", "k.so"], False),  # a link
        (["c++", "-x", "c++-header", "extension.h", "-o", "extension.h.gch"], False),  # a precompiled header
        (["ccache", "/opt/cuda/bin/nvcc", "-c", "k.cpp"], False),
        (["c++", "-c", "a.cpp", "b.cpp"], False),
        (["c++", "-o", "x.cpp", "-c", "k.o"], False),  # x.cpp is the output
    ],
)
def test_which_commands_are_host_compiles(command: list[str], translated: bool) -> None:
    assert is_host_compile(command) is translated


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "helper.h").write_text(
        "#pragma once\n#include <cuda_runtime.h>\ninline cudaError_t sync_all() { return cudaDeviceSynchronize(); }\n"
    )
    (tmp_path / "plain.h").write_text("#pragma once\nconstexpr int kAnswer = 42;\n")
    (tmp_path / "k.cpp").write_text(
        '#include "helper.h"\n#include "plain.h"\n'
        "int use() {\n  cudaStream_t stream = nullptr;\n  (void)stream;\n"
        "  return sync_all() == cudaSuccess ? kAnswer : 0;\n}\n"
    )
    return tmp_path


def test_loopback_compile_of_a_host_file_with_the_real_compiler(
    project: Path, loopback_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    command = ["c++", "-MMD", "-MP", "-MF", "k.o.d", "-Iinc", "-c", "k.cpp", "-o", "k.o"]
    plan = plan_host_compile(command, Backend.LOOPBACK, loopback_env)
    translate, compile_job, rewrite = plan.jobs
    (unit,), argv = plan.units, compile_job.argv
    assert [job.kind for job in (translate, compile_job, rewrite)] == [JobKind.TRANSLATE, JobKind.COMPILE,
                                                                        JobKind.FILTER_DEPENDENCIES]  # fmt: skip
    assert unit is not None and rewrite.rewrite is not None and argv[0] == "c++"
    main = Path(argv[argv.index("-c") + 1])
    assert main == unit.main and main.name == "k.cpp" and b"musaStream_t" in main.read_bytes()
    includes = [w for w in argv if w.startswith("-I")]
    assert includes[:2] == [f"-I{unit.mirror(project / 'inc')}", "-Iinc"], "translated headers come first"
    assert b"musaDeviceSynchronize" in unit.mirror(project / "inc" / "helper.h").read_bytes()
    assert ("-idirafter", str(project)) in zip(argv, argv[1:], strict=False), "untranslated siblings are found last"
    assert argv[1:3] == ("-include", "torchada_loopback.h")

    subprocess.run(argv, cwd=project, check=True, capture_output=True)
    compiled = (project / "k.o.d").read_text().split()
    assert str(unit.mirror(project / "inc" / "helper.h")) in compiled, "the original helper.h was compiled"
    assert str(project / "inc" / "helper.h") not in compiled, "the original helper.h was compiled"
    rewrite.rewrite.run()
    depfile = (project / "k.o.d").read_text()
    assert depfile.startswith("k.o : ")
    assert str(project / "k.cpp") in depfile and str(project / "inc" / "helper.h") in depfile
    assert str(project / "plain.h") in depfile, "an untranslated sibling is found next to the original"
    assert str(unit.root) not in depfile, "the dependency file names the translated copies"
    assert f"\n{project / 'inc' / 'helper.h'} :" in depfile, "-MP's empty rules are kept"


def test_host_compile_module_reports_and_runs(project: Path, loopback_env: dict[str, str]) -> None:
    (project / "k.cpp").write_text((project / "k.cpp").read_text() + "int bad() { return missing_name; }\n")
    command = [sys.executable, "-m", "torchada_build.host_compile", "--backend=loopback", "--", "c++", "-Iinc",
               "-c", "k.cpp", "-o", "k.o"]  # fmt: skip
    result = run(command, project, loopback_env)
    assert result.returncode != 0 and not (project / "k.o").exists()
    assert f"{project / 'k.cpp'}:8:" in result.output and "missing_name" in result.output, result.output


def test_a_host_compile_prints_no_assembly_finding(project: Path, loopback_env: dict[str, str]) -> None:
    """A host file's inline assembly is the host compiler's, never mcc's (stb_image.h's MSVC ``__asm`` block in
    llama.cpp's host files): TA1101 is no finding of a host compile; a header's other findings print."""
    (project / "inc" / "fence.h").write_text(
        '#pragma once\n#define FENCE ""\n#define WARP_SIZE 32\ninline void fence() { asm volatile(FENCE); }\n'
    )
    (project / "k.cpp").write_text('#include "fence.h"\n' + (project / "k.cpp").read_text())
    command = [sys.executable, "-m", "torchada_build.host_compile", "--backend=loopback", "--", "c++", "-Iinc",
               "-c", "k.cpp", "-o", "k.o"]  # fmt: skip
    output = run(command, project, loopback_env).check().output
    assert "fence.h:3:" in output and "[TA1201]" in output, output
    assert "[TA1101]" not in output, output


def test_dependency_file_names_the_originals_behind_ccache(
    project: Path, loopback_env: dict[str, str], ccache: str
) -> None:
    """Under ``CCACHE_BASEDIR`` ccache writes the translated copies' paths relative; they still map back."""
    assert Path(loopback_env["CCACHE_BASEDIR"]) in project.parents
    command = [sys.executable, "-m", "torchada_build.host_compile", "--backend=loopback", "--", ccache, "c++",
               "-MMD", "-MF", "k.o.d", "-Iinc", "-c", "k.cpp", "-o", "k.o"]  # fmt: skip
    run(command, project, loopback_env).check()
    dependencies = (project / "k.o.d").read_text().split()
    assert "/units/" not in " ".join(dependencies), dependencies
    assert {str(project / "k.cpp"), str(project / "inc" / "helper.h")} <= set(dependencies), dependencies


def test_host_compile_module_prints_and_refuses_in_one_line(project: Path, musa_env: dict[str, str]) -> None:
    module = [sys.executable, "-m", "torchada_build.host_compile", "--backend=mcc", "--print", "--"]
    printed = run([*module, "c++", "-c", "k.cpp", "-o", "k.o"], project, musa_env).check().output.strip()
    words = shlex.split(printed)
    assert words[0] == "c++" and words[words.index("-c") + 1].endswith(f"{project}/k.cpp") and "/units/" in printed
    linked = run([*module, "c++", "k.o", "-o", "k"], project, musa_env).check().output.strip()
    assert linked == "c++ k.o -o k", "a link runs unchanged"
    missing = run([*module, "c++", "-c", "gone.cpp"], project, musa_env)
    assert missing.returncode == 1
    assert missing.output.strip() == f"torchada: error: cannot read input file '{project / 'gone.cpp'}'"


def test_host_compile_script_follows_the_platform(project: Path, build_env: dict[str, str]) -> None:
    """``torchada-host-compile`` without ``--backend`` decides as torchada-nvcc does: here (CUDA, no
    MUSA) it runs the command unchanged; ``TORCHADA_BACKEND`` forces a translating backend."""
    script = [str(Path(sys.executable).parent / "torchada-host-compile"), "--print", "--"]
    compile_k = ["c++", "-c", "k.cpp", "-o", "k.o"]
    assert run([*script, *compile_k], project, build_env).check().output.strip() == shlex.join(compile_k)
    forced = run([*script, *compile_k], project, {**build_env, "TORCHADA_BACKEND": "loopback"}).check().output
    assert "torchada_loopback.h" in forced and "/units/" in forced
    wrong = run([*script, *compile_k], project, {**build_env, "TORCHADA_BACKEND": "rocm"})
    assert wrong.returncode == 1
    assert wrong.output.strip() == "torchada: error: TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'rocm'; unset it for its default (docs/settings.md) [TA2022]"


def test_makefile_cxx_through_the_script(project: Path, loopback_env: dict[str, str]) -> None:
    """``make CXX="torchada-host-compile -- c++"``: the compile opens the translated helper.h (``-H``)."""
    (project / "Makefile").write_text("k.o: k.cpp\n\t$(CXX) $(CXXFLAGS) -Iinc -c k.cpp -o k.o\n")
    launcher = Path(sys.executable).parent / "torchada-host-compile"
    built = run(["make", f"CXX={launcher} -- c++", "CXXFLAGS=-H"], project, loopback_env).check()
    opened = [line.split(" ", 1)[1] for line in built.output.splitlines() if line.endswith("helper.h")]
    assert opened and all("/units/" in path for path in opened), built.output


def test_musa_command_has_the_sdk_include_and_no_prelude(
    project: Path, musa_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    _, compile_job = plan_host_compile(["c++", "-Iinc", "-c", "k.cpp", "-o", "k.o"], Backend.MCC, musa_env).jobs
    assert compile_job.argv[-1] == f"-I{Path(musa_env['MUSA_HOME']) / 'include'}"
    assert "-include" not in compile_job.argv


def test_a_file_using_a_cuda_name_that_stays_gets_the_musa_flags(tmp_path: Path, musa_env: dict[str, str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """pytorch_scatter's version.cpp returns CUDA_VERSION, which translation keeps: the file is CUDA code
    and compiles with the mcc route's flags (CUDA_VERSION defined as reported); a file with no CUDA name
    compiles unchanged."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "version.cpp").write_text("long cuda_version() { return CUDA_VERSION; }\n")
    (tmp_path / "plain.cpp").write_text("#include <cmath>\ndouble f(double x) { return std::sqrt(x); }\n")
    *_, versioned = plan_host_compile(["c++", "-c", "version.cpp"], Backend.MCC, musa_env).jobs
    assert "-DCUDA_VERSION=13000" in versioned.argv
    *_, plain = plan_host_compile(["c++", "-c", "plain.cpp"], Backend.MCC, musa_env).jobs
    assert plain.argv == ("c++", "-c", "plain.cpp")


# -- samples/stream_scale ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def cuda_headers_env(loopback_env: dict[str, str], cuda_torch_include: Path) -> dict[str, str]:
    return {**loopback_env, "CPLUS_INCLUDE_PATH": str(cuda_torch_include)}


def undefined_symbols(directory: Path) -> str:
    (module,) = directory.glob("stream_scale*.so")
    return subprocess.run(["nm", "-DC", "--undefined-only", module], capture_output=True, text=True, check=True).stdout


def check_stream_scale(built: Built, before: dict[str, bytes], cache: Path) -> None:
    built.check()
    assert source_snapshot(built.directory) == before, "a source file was modified"
    copies = [p for p in cache.rglob("stream_scale.cpp") if str(p).endswith(str(built.directory / "stream_scale.cpp"))]
    assert copies, "the host .cpp was not translated"
    copy = copies[0]
    text = copy.read_text()
    for name in ("at::musa::getCurrentMUSAStream()", "c10::musa::MUSAGuard", "musaStream_t", "AT_MUSA_CHECK",
                 "torch_musa/csrc/aten/musa/MUSAContext.h", "x.is_privateuseone()"):  # fmt: skip
        assert name in text, name
    symbols = undefined_symbols(built.directory)
    assert "c10::cuda::getCurrentCUDAStream(signed char)" in symbols, "the compat headers map the names back"


@pytest.mark.nvcc
@pytest.mark.slow
def test_loopback_stream_scale_with_ninja(tmp_path: Path, cuda_headers_env: dict[str, str]) -> None:
    directory = copy_sample("stream_scale", tmp_path)
    before = source_snapshot(directory)
    built = run(HOOKED_BUILD, directory, cuda_headers_env)
    check_stream_scale(built, before, Path(cuda_headers_env["TORCHADA_CACHE_DIR"]))
    (ninja_dir,) = {p.parent for p in (directory / "build").rglob("build.ninja")}
    cxx = next(line for line in (ninja_dir / "build.ninja").read_text().splitlines() if line.startswith("cxx = "))
    assert shlex.split(cxx[len("cxx = ") :])[1:4] == ["-m", "torchada_build.host_compile", "--backend=loopback"]
    # What ninja rebuilds on a header edit: both objects name the original files, never the cache's copies.
    deps = subprocess.run(["ninja", "-t", "deps"], cwd=ninja_dir, capture_output=True, text=True, check=True).stdout
    for obj, source in (("stream_scale.o", "stream_scale.cpp"), ("stream_scale_kernel.o", "stream_scale_kernel.cu")):
        listed = deps.split(f"{obj}:")[1].split("\n\n")[0].splitlines()[1:]
        named = {os.path.normpath(ninja_dir / line.strip()) for line in listed}  # relative to ninja's folder
        assert {str(directory / source), str(directory / "stream_scale.h")} <= named, (obj, named)
        assert not any(n.startswith(cuda_headers_env["TORCHADA_CACHE_DIR"] + "/units") for n in named), obj


@pytest.mark.nvcc
@pytest.mark.slow
def test_loopback_stream_scale_without_ninja(tmp_path: Path, cuda_headers_env: dict[str, str]) -> None:
    directory = copy_sample("stream_scale", tmp_path)
    setup = directory / "setup.py"
    setup.write_text(setup.read_text().replace(*WITHOUT_NINJA))
    before = source_snapshot(directory)
    built = run(HOOKED_BUILD, directory, cuda_headers_env)
    assert not list((directory / "build").rglob("build.ninja"))
    check_stream_scale(built, before, Path(cuda_headers_env["TORCHADA_CACHE_DIR"]))


JIT_SCRIPT = """
import sys
from torch.utils import cpp_extension
try:
    cpp_extension.load(name="stream_scale_jit", sources=sys.argv[1:])
except ImportError as error:
    print("IMPORT ERROR", error)
print("BUILD DIRECTORY", cpp_extension._get_build_directory("stream_scale_jit", False))
"""


@pytest.mark.nvcc
@pytest.mark.slow
def test_loopback_stream_scale_with_load(tmp_path: Path, cuda_headers_env: dict[str, str]) -> None:
    directory = copy_sample("stream_scale", tmp_path)
    (tmp_path / "jit.py").write_text(JIT_SCRIPT)
    sources = [directory / "stream_scale.cpp", directory / "stream_scale_kernel.cu"]
    built = run([sys.executable, "-m", "torchada_build", tmp_path / "jit.py", *sources], tmp_path, cuda_headers_env)
    built.check()
    assert "undefined symbol: _ZN3c104cuda" in built.output, "built and linked; only CUDA torch's libraries are missing"
    build_directory = Path(built.output.split("BUILD DIRECTORY ")[1].strip())
    ninja = (build_directory / "build.ninja").read_text()
    assert "-m torchada_build.host_compile --backend=loopback" in ninja


@pytest.mark.nvcc
@pytest.mark.slow
def test_musa_dry_run_host_compile_sees_the_translated_file(
    tmp_path: Path, musa_env: dict[str, str], musa_standin: MusaStandIn
) -> None:
    """The stand-in torch_musa has no headers, so g++ stops at the first torch_musa include of the
    translated copy, and says so at the original file's line."""
    directory = copy_sample("stream_scale", tmp_path)
    built = run(HOOKED_BUILD, directory, {**musa_env, "STANDIN_MCC_LOG": str(directory / "mcc.log")})
    assert built.returncode != 0
    assert f"{directory / 'stream_scale.cpp'}:5:10: fatal error: torch_musa/csrc/aten/musa/MUSAContext.h" in built.output
    assert "--backend=mcc" in built.output
    assert not list(directory.glob("stream_scale*.so"))

"""CMake (toolchain file and find_package), Make and scikit-build-core projects, in loopback and MUSA dry-run.

The dry-run of a CMake project re-runs the exact compile commands CMake generated (compile_commands.json)
with the ``mcc`` backend and ``--dryrun``: CMake's compiler identification needs a real compiler, which the
stand-in SDK is not.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from compiler_caches import cache_counts, private_caches
from conftest import Built, copy_sample, run
from musa_standin import MusaStandIn, read_mcc_calls
from test_setuptools import nvidia_wheel_libs
from torchada_build.compilers.toolchains.loopback import wheel_libraries

from torchada_build.commands import get_cmake_dir, get_toolchain_file

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]


def with_wheel_libs(env: dict[str, str]) -> dict[str, str]:
    return {**env, "LD_LIBRARY_PATH": os.pathsep.join(filter(None, [*nvidia_wheel_libs(), env.get("LD_LIBRARY_PATH")]))}


def cmake_build(source: Path, build: Path, env: dict[str, str], *args: str) -> Built:
    configure = run(["cmake", "-S", source, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *args], source, env)
    if configure.returncode != 0:
        return configure
    built = run(["cmake", "--build", build], source, env)
    return Built(built.directory, built.returncode, configure.output + built.output)


def mcc_dryrun_lines(command: str, directory: str, env: dict[str, str]) -> list[list[str]]:
    """The mcc commands torchada-nvcc prints for one recorded CUDA compile command."""
    argv = [*shlex.split(command), "--dryrun"]
    printed = run(argv, Path(directory), env).check().output
    lines = [shlex.split(line[3:]) for line in printed.splitlines() if line.startswith("#$ ")]
    return [words for words in lines if words and Path(words[0]).name == "mcc"]


def cuda_commands(build: Path) -> list[dict[str, str]]:
    entries = json.loads((build / "compile_commands.json").read_text())
    return [e for e in entries if e["file"].endswith(".cu")]


@pytest.fixture(scope="session")
def cmake_loopback(tmp_path_factory: pytest.TempPathFactory, loopback_env: dict[str, str]) -> tuple[Path, Built]:
    source = copy_sample("cmake_cublas", tmp_path_factory.mktemp("cmake"))
    return source, cmake_build(source, source / "build", loopback_env, "-G", "Ninja",
                               f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}")


def test_loopback_cmake_toolchain_builds_and_links_cublas(cmake_loopback, loopback_env) -> None:
    source, built = cmake_loopback
    built.check()
    (compiler_file,) = (source / "build" / "CMakeFiles").glob("*/CMakeCUDACompiler.cmake")
    assert compiler_file.read_text().startswith(f'set(CMAKE_CUDA_COMPILER "{Path(sys.executable).parent}/torchada-nvcc")')
    assert "Unable to find" not in built.output, built.output  # cublas_v2.h is in the toolkit mimic's include/
    dynamic = run(["readelf", "-d", source / "build" / "gemm"], source, loopback_env).output
    assert "[libcublas.so.13]" in dynamic
    (runpath,) = re.findall(r"\(RUNPATH\).*\[(.*)\]", dynamic)
    assert str(wheel_libraries()["cublas"].parent) in runpath.split(":"), dynamic
    ran = run([source / "build" / "gemm"], source, loopback_env)  # no LD_LIBRARY_PATH: the RUNPATH finds cuBLAS
    assert ran.output.startswith("gemm: "), ran.output  # no GPU here: a clean CUDA error, not a loader error


def test_loopback_cmake_find_package(tmp_path: Path, loopback_env) -> None:
    source = copy_sample("cmake_find_package", tmp_path)
    built = cmake_build(source, source / "build", loopback_env, "-G", "Unix Makefiles",
                        f"-DTorchada_DIR={get_cmake_dir()}").check()
    targets = dict(line.split("=", 1) for line in (source / "build" / "targets.txt").read_text().splitlines())
    assert Path(targets["compiler"]).name == "torchada-nvcc"
    for name in ("cudart", "cublas", "curand"):
        assert targets[name], f"CUDA::{name} did not resolve"
    assert (source / "build" / "uniform").is_file(), built.output


def test_find_package_after_enable_language_is_one_line(tmp_path: Path, build_env, nvcc: str) -> None:
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(late LANGUAGES CUDA)\nfind_package(Torchada REQUIRED)\n"
    )
    built = run(["cmake", "-S", tmp_path, "-B", tmp_path / "build", f"-DCMAKE_CUDA_COMPILER={nvcc}",
                 "-DCMAKE_CUDA_ARCHITECTURES=80", f"-DTorchada_DIR={get_cmake_dir()}"], tmp_path, build_env)
    assert built.returncode != 0
    assert "torchada: CUDA is already enabled with" in " ".join(built.output.split())


def test_toolchain_without_the_driver_is_one_line(tmp_path: Path, build_env) -> None:
    (tmp_path / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(none LANGUAGES NONE)\n")
    env = {**build_env, "PATH": "/usr/bin:/bin"}
    built = run(["cmake", "-S", tmp_path, "-B", tmp_path / "build", f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}",
                 "-DCMAKE_IGNORE_PREFIX_PATH=/", "-U", "TORCHADA_NVCC"], tmp_path, env)
    assert built.returncode != 0
    assert "torchada: cannot find torchada-nvcc; put it on PATH or pass -DTORCHADA_NVCC=<path>" in " ".join(built.output.split())


@pytest.mark.parametrize("minimum", ["3.0", "3.18"])
def test_toolchain_reads_under_old_policies(tmp_path: Path, loopback_env, minimum: str) -> None:
    """torch_scatter and torch_cluster say cmake_minimum_required(VERSION 3.0): the toolchain file and
    the package config are read with every policy OLD (no IN_LIST, quoted if() arguments dereferenced)."""
    (tmp_path / "CMakeLists.txt").write_text(
        f"cmake_minimum_required(VERSION {minimum})\nproject(old CXX)\nenable_language(CUDA)\n"
        "find_package(Torchada REQUIRED)\nmessage(STATUS \"cuda compiler: ${CMAKE_CUDA_COMPILER}\")\n"
    )
    built = run(["cmake", "-S", tmp_path, "-B", tmp_path / "build", f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}",
                 f"-DTorchada_DIR={get_cmake_dir()}"], tmp_path, loopback_env)  # fmt: skip
    built.check()
    assert "cuda compiler: " in built.output and "torchada-nvcc" in built.output.split("cuda compiler: ")[1].split()[0]


def test_musa_dry_run_cmake_commands(cmake_loopback, musa_env, musa_standin: MusaStandIn) -> None:
    source, built = cmake_loopback
    built.check()
    env = {**musa_env, "TORCHADA_BACKEND": "mcc"}
    commands = cuda_commands(source / "build")
    assert sorted(Path(c["file"]).name for c in commands) == ["kernels.cu", "main.cu"]
    for entry in commands:
        (mcc,) = mcc_dryrun_lines(entry["command"], entry["directory"], env)
        assert mcc[0] == str(musa_standin.mcc)
        assert mcc[mcc.index("-x") + 1] == "musa" and "--offload-arch=mp_22" in mcc  # CUDA_ARCHITECTURES 80
        assert "-std=c++17" in mcc and "-c" in mcc
        assert not any(a.startswith(("--generate-code", "-gencode", "-Xcompiler")) for a in mcc)


@pytest.fixture(scope="session")
def cmake_host_cpp(tmp_path_factory: pytest.TempPathFactory, loopback_env: dict[str, str]) -> tuple[Path, Built]:
    """The sample built with a project's own C++ compiler launcher (as ccache would be): one that logs each
    command it runs, so a test sees that it stays in front of the real compiler."""
    scratch = tmp_path_factory.mktemp("cmake-host")
    launcher = scratch / "launcher"
    launcher.write_text(f'#!/bin/sh\necho "$@" >> {scratch / "launched.log"}\nexec "$@"\n')
    launcher.chmod(0o755)
    source = copy_sample("cmake_host_cpp", scratch)
    return source, cmake_build(source, source / "build", loopback_env, "-G", "Ninja",
                               f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}", f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}")


def host_command(build: Path, env: dict[str, str]) -> list[str]:
    """The command ninja runs for main.cpp (compile_commands.json leaves compiler launchers out)."""
    commands = run(["ninja", "-t", "commands", "CMakeFiles/saxpy.dir/main.cpp.o"], build, env).check().output
    return shlex.split(commands.splitlines()[-1])


def test_loopback_cmake_translates_cxx_sources(cmake_host_cpp, loopback_env) -> None:
    source, built = cmake_host_cpp
    built.check()
    words = host_command(source / "build", loopback_env)
    launcher = source.parent / "launcher"
    assert Path(words[0]).name == "torchada-host-compile" and words[1:3] == ["--", str(launcher)], words
    launched = (source.parent / "launched.log").read_text().splitlines()
    assert any("/units/" in line and "main.cpp.o" in line for line in launched), launched
    (compiler_file,) = (source / "build" / "CMakeFiles").glob("*/CMakeCXXCompiler.cmake")
    assert "torchada" not in compiler_file.read_text(), "CMake's compiler checks went through the launcher"
    copies = [p for p in Path(loopback_env["TORCHADA_CACHE_DIR"]).rglob("main.cpp") if str(source) in str(p)]
    assert copies and all(b"musaMalloc" in p.read_bytes() for p in copies), copies
    assert b"cudaMalloc" in (source / "main.cpp").read_bytes()
    ran = run([source / "build" / "saxpy"], source, loopback_env)
    assert "CUDA error in cudaStreamCreate" in ran.output or "saxpy: 0 errors" in ran.output, ran.output
    again = run(["cmake", "--build", source / "build"], source, loopback_env).check()
    assert "no work to do" in again.output


def test_musa_cmake_cxx_source_compiles_translated(cmake_host_cpp, musa_env, musa_standin: MusaStandIn) -> None:
    """The stand-in SDK's headers are empty, so the host compiler stops at the first MUSA type, at the
    original header's line: the translated copies were compiled, against the MUSA SDK."""
    source, built = cmake_host_cpp
    built.check()
    env = {**musa_env, "TORCHADA_BACKEND": "mcc"}
    words = host_command(source / "build", env)
    printed = shlex.split(run([words[0], "--print", *words[1:]], source / "build", env).check().output)
    assert f"-I{musa_standin.home / 'include'}" in printed and "-include" not in printed
    compiled = run(words, source / "build", env)
    assert compiled.returncode != 0
    error = next(line for line in compiled.output.splitlines() if ": error: " in line)
    assert error.startswith(f"{source / 'include' / 'saxpy.h'}:5:1: error: ") and "musaError_t" in error, error


def test_makefile_loopback_and_musa_dry_run(tmp_path: Path, loopback_env, musa_env, musa_standin: MusaStandIn) -> None:
    loopback = copy_sample("makefile", tmp_path / "loopback")
    run(["make", "NVCC=torchada-nvcc"], loopback, loopback_env).check()
    ran = run([loopback / "saxpy"], loopback, loopback_env)
    assert "CUDA error" in ran.output or "saxpy: 0 errors" in ran.output, ran.output

    # MUSA dry-run: the compile runs (recorded by the stand-in mcc); the stand-in's empty objects cannot
    # make an executable, so the link is planned with --dryrun from the command make would run.
    musa = copy_sample("makefile", tmp_path / "musa")
    log = musa / "mcc.log"
    env = {**musa_env, "TORCHADA_BACKEND": "mcc", "STANDIN_MCC_LOG": str(log)}
    run(["make", "NVCC=torchada-nvcc", "saxpy.o"], musa, env).check()
    (compile_argv,) = read_mcc_calls(log)
    assert compile_argv[0] == str(musa_standin.mcc) and compile_argv[compile_argv.index("-x") + 1] == "musa"
    assert "--offload-arch=mp_22" in compile_argv and "-O2" in compile_argv  # NVCCFLAGS = -O2 -arch=sm_80
    translated = Path(compile_argv[compile_argv.index("-c") + 1])
    assert translated != musa / "saxpy.cu" and b"musaMalloc" in translated.read_bytes()
    assert b"cudaMalloc" in (musa / "saxpy.cu").read_bytes()
    (link,) = run(["make", "-n", "NVCC=torchada-nvcc"], musa, env).check().output.splitlines()
    printed = run([*shlex.split(link), "--dryrun"], musa, env).check().output.splitlines()
    link_words = shlex.split(printed[-1][3:])
    assert "saxpy.o" in link_words and "-lmusart" in link_words and f"-L{musa_standin.home / 'lib'}" in link_words
    assert not any(w.startswith("-lcuda") for w in link_words)


@pytest.mark.skipif(importlib.util.find_spec("scikit_build_core") is None, reason="scikit-build-core is not installed")
def test_scikit_build_core_loopback(tmp_path: Path, loopback_env) -> None:
    """``pip wheel .`` as is: the start-up hook names torchada's toolchain file for scikit-build-core's CMake."""
    source = copy_sample("skbuild", tmp_path)
    env = {**loopback_env, "CMAKE_GENERATOR": "Ninja"}
    run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", "dist", "."], source, env).check()
    copies = [p for p in Path(env["TORCHADA_CACHE_DIR"]).rglob("saxpy.cu") if p.is_file()]
    assert any(b"musaMalloc" in p.read_bytes() for p in copies), "saxpy.cu was not translated"
    (wheel,) = (source / "dist").glob("gpu_saxpy-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(source / "installed")
    code = (
        "import gpu_saxpy\n"
        "try:\n    print('RESULT', gpu_saxpy.saxpy(2.0, [1.0], [1.0]))\n"
        "except RuntimeError as e:\n    print('CHECKED', e)\n"
    )
    ran = run([sys.executable, "-c", code], source / "installed", env).check()
    assert "CHECKED saxpy: " in ran.output or "RESULT [3.0]" in ran.output


@pytest.mark.network
def test_scikit_build_core_under_pips_build_isolation(tmp_path: Path, loopback_env) -> None:
    """``pip wheel .`` as a project's README says: pip installs scikit-build-core into an isolated
    environment and builds with a PYTHONPATH that hides every other one, torchada's too."""
    probe = run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", tmp_path / "probe", "scikit-build-core==1.1.2"],
                tmp_path, loopback_env)  # fmt: skip
    if probe.returncode != 0:
        pytest.skip(f"PyPI cannot be reached: {probe.output.strip().splitlines()[-1]}")
    source = copy_sample("skbuild", tmp_path)
    env = {**loopback_env, "CMAKE_GENERATOR": "Ninja"}  # the start-up hook names the toolchain file
    built = run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", "dist", "."], source, env).check()
    assert "CMakeFiles/torchada/torchada-nvcc" in built.output, "the driver ran without its wrapper"
    copies = [p for p in Path(env["TORCHADA_CACHE_DIR"]).rglob("saxpy.cu") if p.is_file()]
    assert any(b"musaMalloc" in p.read_bytes() for p in copies), "saxpy.cu was not translated"
    assert list((source / "dist").glob("gpu_saxpy-*.whl"))


def test_cuda_home_command_gives_a_root_whose_nvcc_is_the_driver(tmp_path: Path, loopback_env) -> None:
    printed = run([sys.executable, "-m", "torchada_build", "--cuda-home"], tmp_path, loopback_env).check().output
    cuda_home = Path(printed.strip())
    directory = copy_sample("makefile", tmp_path)
    run(["make", f"NVCC={cuda_home / 'bin' / 'nvcc'}", "saxpy.o"], directory, loopback_env).check()
    translated = [p for p in Path(loopback_env["TORCHADA_CACHE_DIR"]).rglob("saxpy.cu") if b"musaMalloc" in p.read_bytes()]
    assert translated, "the toolkit's bin/nvcc did not translate"


@pytest.mark.parametrize("launcher", ["ccache", "sccache"])
def test_cmake_cuda_compiler_launcher_in_front(tmp_path: Path, loopback_env, launcher: str) -> None:
    """``-DCMAKE_CUDA_COMPILER_LAUNCHER=<cache>`` with the toolchain file, as vLLM's build runs: a clean
    rebuild takes every CUDA object from the cache."""
    path = os.pathsep.join([str(Path(sys.executable).parent), loopback_env["PATH"]])
    program = shutil.which(launcher, path=path)
    if program is None:
        pytest.skip(f"{launcher} is not installed")
    source = copy_sample("cmake_cublas", tmp_path)
    with private_caches(launcher, {**loopback_env, "PATH": path}, tmp_path) as env:
        cmake_build(source, source / "build", env, "-G", "Ninja", f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}",
                    f"-DCMAKE_CUDA_COMPILER_LAUNCHER={program}").check()  # fmt: skip
        run(["ninja", "-t", "clean"], source / "build", env).check()
        run(["cmake", "--build", source / "build"], source, env).check()
        hits, misses = cache_counts(launcher, env, "CUDA")
    cuda_objects = len(cuda_commands(source / "build"))
    assert cuda_objects > 0 and hits == misses == cuda_objects, (hits, misses, cuda_objects)


def test_separable_compilation_in_loopback_and_musa_dry_run(tmp_path: Path, loopback_env, musa_env,
                                                            musa_standin: MusaStandIn) -> None:  # fmt: skip
    """``CUDA_SEPARABLE_COMPILATION``: built for real in loopback; each of its nvcc commands, given to the
    mcc backend, compiles with ``-fgpu-rdc`` and device-links with ``mcc -dlink ... -lmusadevrt``, the
    device runtime Moore Threads' DeepEP port links this way (MT-DeepEP ``csrc/kernels/CMakeLists.txt:9-11``)."""
    source = copy_sample("cmake_rdc", tmp_path)
    build = source / "build"
    cmake_build(source, build, loopback_env, "-G", "Ninja", f"-DCMAKE_TOOLCHAIN_FILE={get_toolchain_file()}").check()
    commands = run(["ninja", "-t", "commands", "rdc"], build, loopback_env).check().output.splitlines()
    nvcc = [c for c in commands if "torchada-nvcc" in c.split()[0] or c.split()[0].endswith("/nvcc")]
    env = {**musa_env, "TORCHADA_BACKEND": "mcc"}
    compiles = [c for c in nvcc if " -c " in f" {c} "]
    (device_link,) = [c for c in nvcc if "-dlink" in c.split()]
    assert len(compiles) == 2
    for command in compiles:
        (mcc,) = mcc_dryrun_lines(command, str(build), env)
        assert "-fgpu-rdc" in mcc and "--offload-arch=mp_22" in mcc
    (dlink,) = mcc_dryrun_lines(device_link, str(build), env)
    assert dlink[:2] == [str(musa_standin.mcc), "-dlink"] and dlink.count("-lmusadevrt") == 1
    assert "-lcudadevrt" not in dlink

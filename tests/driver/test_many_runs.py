"""Many driver runs on one cache, as real builds make them: 32 at once on a cold cache, 50 killed at
random moments (translating, writing the cache, compiling), and two users on one machine."""

from __future__ import annotations

import os
import random
import shutil
import site
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from driver_support import TORCHADA_NVCC, cli_env

from hipify_like import translate_source
from torchada_build.core.files import STALE_AFTER_S

pytestmark = [pytest.mark.nvcc, pytest.mark.slow]

HEADER = "#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\ncudaStream_t stream;\n"
KERNEL = '#include "twice.cuh"\n__global__ void k(float* x) { x[0] = twice(x[0]); }\nvoid* launch() { return (void*)cudaGetLastError; }\n'


def _project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "twice.cuh").write_text(HEADER)
    (root / "k.cu").write_text(KERNEL)
    return root


def _cache_leftovers(cache: Path) -> list[Path]:
    return [*cache.glob("units/.tmp-*"), *cache.glob("manifests/.tmp-*"), *cache.glob("tmp/*")]


def test_32_parallel_runs_on_one_cold_cache_agree(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    project = _project(tmp_path / "p")
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    runs = [
        subprocess.Popen([TORCHADA_NVCC, "-arch=sm_80", "-E", "k.cu", "-o", f"k{i}.ii"], cwd=project, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
        for i in range(32)
    ]
    outputs = [run.communicate()[0] for run in runs]
    assert [run.returncode for run in runs] == [0] * 32, next(o for o, r in zip(outputs, runs, strict=True) if r.returncode)
    preprocessed = {(project / f"k{i}.ii").read_bytes() for i in range(32)}
    assert len(preprocessed) == 1 and f"{cache}/units/".encode() in preprocessed.pop(), "not from the translated copy"
    (unit,) = [p for p in (cache / "units").iterdir() if not p.name.startswith(".")]  # one unit for one source
    assert b"musaGetLastError" in next(unit.glob(f"tree{project}/k.cu")).read_bytes()
    assert _cache_leftovers(cache) == []


def test_runs_killed_at_random_moments_leave_nothing_a_later_run_reads(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    """Each run compiles a source no run translated before (so each kill can land in translation, in a
    cache write or in nvcc); afterwards every source compiles from an intact unit."""
    project = _project(tmp_path / "p")
    cache = tmp_path / "cache"
    env = cli_env(cache, "loopback")
    started = time.monotonic()  # how long a whole run takes here, on a cache of its own
    subprocess.run([TORCHADA_NVCC, "-arch=sm_80", "-MD", "-c", "k.cu", "-o", "k.o"], cwd=project, check=True,
                   env=cli_env(tmp_path / "timing-cache", "loopback"))  # fmt: skip
    whole_run = time.monotonic() - started
    rng = random.Random(20261203)
    kills = 0
    for i in range(50):
        (project / "k.cu").write_text(f"{KERNEL}// variant {i % 10}\n")
        run = subprocess.Popen([TORCHADA_NVCC, "-arch=sm_80", "-MD", "-c", "k.cu", "-o", "k.o"], cwd=project, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        time.sleep(rng.uniform(0.0, whole_run))
        if run.poll() is None:
            run.kill()
            kills += 1
        run.wait()
    assert kills >= 15, f"only {kills} of 50 runs were still running when killed (a whole run: {whole_run:.2f} s)"
    for variant in range(10):
        text = f"{KERNEL}// variant {variant}\n"
        (project / "k.cu").write_text(text)
        (project / "k.o").unlink(missing_ok=True)
        done = subprocess.run([TORCHADA_NVCC, "-arch=sm_80", "-MD", "-c", "k.cu", "-o", "k.o"], cwd=project, env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0 and (project / "k.o").is_file(), done.stderr
        expected = translate_source(text.encode(), str(project / "k.cu")).text
        copies = {p.read_bytes() for p in cache.glob(f"units/*/tree{project}/k.cu")}
        assert any(c.endswith(expected) for c in copies), f"variant {variant}: no intact translation in the cache"
        assert str(project / "twice.cuh") in (project / "k.d").read_text()
    left = _cache_leftovers(cache)
    assert len(left) <= kills, "a finished run left its work directory"  # a killed run leaves at most one entry
    day_ago = time.time() - STALE_AFTER_S - 60
    for path in left:
        os.utime(path, (day_ago, day_ago))
    (project / "k.cu").write_text(f"{KERNEL}// one more\n")
    subprocess.run([TORCHADA_NVCC, "-arch=sm_80", "-c", "k.cu", "-o", "k.o"], cwd=project, env=env, check=True)
    assert [p for p in left if p.exists()] == [], "a later run keeps what killed runs left a day ago"


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder both users reach (pytest's own temporary folders are root's alone)."""
    directory = Path(tempfile.mkdtemp(prefix="torchada-two-users-"))
    directory.chmod(0o1777)  # sticky, as /tmp is
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def _as(uid: int, argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False, user=uid, group=uid,
                          extra_groups=[])  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can run a second user")
def test_two_users_one_machine_neither_reads_nor_writes_the_others_cache(shared_dir: Path) -> None:
    """Root and uid 4321 compile the same project; each cache is the owner's alone, and a cache the
    other user made is refused in one line, whoever points TORCHADA_CACHE_DIR at it."""
    packages = next(p for p in site.getsitepackages() if Path(p).is_dir())
    # The system interpreter (this venv's is under /root, which uid 4321 cannot enter) with this venv's
    # packages, .pth files included (torchada is installed editable).
    driver = ["/usr/bin/python3", "-c", "import site, sys; site.addsitedir(sys.argv.pop(1)); "
              "from torchada_build.compilers.cli import main; sys.exit(main())", packages]  # fmt: skip
    probe = _as(4321, [*driver, "--version"], shared_dir, {"PATH": os.environ["PATH"]})
    if probe.returncode != 0:
        pytest.skip(f"uid 4321 cannot run this checkout's driver: {(probe.stderr.strip().splitlines() or [''])[-1]}")
    project = _project(shared_dir / "p")
    for path in (project, *project.iterdir()):
        path.chmod(0o777 if path.is_dir() else 0o644)  # both users build here

    def compile_as(uid: int, cache: Path, output: str) -> subprocess.CompletedProcess[str]:
        env = cli_env(cache, "loopback", HOME=str(shared_dir))
        return _as(uid, [*driver, "-arch=sm_80", "-c", "k.cu", "-o", output], project, env)

    own = compile_as(4321, shared_dir / "cache-4321", "k4321.o")
    assert own.returncode == 0, own.stderr
    assert (shared_dir / "cache-4321").stat().st_uid == 4321 and (shared_dir / "cache-4321").stat().st_mode & 0o077 == 0
    mine = compile_as(0, shared_dir / "cache-root", "k0.o")
    assert mine.returncode == 0, mine.stderr

    theirs = compile_as(0, shared_dir / "cache-4321", "k1.o")
    assert theirs.returncode == 1 and theirs.stderr == (
        f"torchada-nvcc fatal   : the cache directory '{shared_dir}/cache-4321' belongs to another user (uid 4321); "
        "set TORCHADA_CACHE_DIR to your own [TA2012]\n"
    )
    intruder = compile_as(4321, shared_dir / "cache-root", "k2.o")
    assert intruder.returncode == 1 and len(intruder.stderr.splitlines()) == 1, intruder.stderr
    assert intruder.stderr.startswith("torchada-nvcc fatal   : "), intruder.stderr
    assert "set TORCHADA_CACHE_DIR to" in intruder.stderr
    assert not (project / "k1.o").exists() and not (project / "k2.o").exists()
    assert {p.stat().st_uid for p in (shared_dir / "cache-root").rglob("*")} == {0}, "uid 4321 wrote into root's cache"

"""torchada-nvcc's start-up time and its overhead over the backend compiler, as ratios, in one run.

* start-up: ``torchada-nvcc --version`` and a warm-cache ``--dryrun -c`` of samples/makefile/saxpy.cu
  (mcc backend on the fake MUSA tree: everything the driver does before the compiler runs), against
  the interpreter's own start-up (``python -c pass``). Target: ≤ 100 ms.
* overhead: ``torchada-nvcc -c saxpy.cu`` through the loopback backend against running the very
  command it runs (NVIDIA's nvcc on the translated unit) directly, with a warm translation cache and
  a cold one (a fresh cache each time: translation, compat headers, toolkit mimic). Target: ≤ 1.05×
  warm. Needs nvcc; skipped without it.

Usage: ``python benchmarks/driver_overhead.py [--repeat N]``. Each figure is the best of N runs (on
a shared machine, other load only ever adds time). Bytecode is compiled first and
``PYTHONDONTWRITEBYTECODE`` is cleared for the runs, as in an installed package.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DRIVER = Path(sys.executable).parent / "torchada-nvcc"
SAMPLE = REPO / "samples" / "makefile"
ARGV = ["-c", "saxpy.cu", "-o", "saxpy.o", "-O2", "-arch=sm_80"]


def best_seconds(command: list[str], env: dict[str, str], cwd: Path, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)  # the least disturbed run: the machine's other load only ever adds time


def environment(cache: Path, backend: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NVCC_", "TORCHADA_", "PYTHONDONTWRITEBYTECODE"))}
    env.update(
        TORCHADA_CACHE_DIR=str(cache), TORCHADA_BACKEND=backend, MUSA_HOME=str(REPO / "tests" / "inputs" / "musa")
    )
    return env


def startup(work: Path, repeat: int) -> None:
    env = environment(work / "cache", "mcc")
    subprocess.run([str(DRIVER), "--dryrun", *ARGV], env=env, cwd=work, check=True, capture_output=True)  # warm up
    baseline = best_seconds([sys.executable, "-c", "pass"], env, work, repeat)
    print(f"start-up (best of {repeat}; target <= 100 ms)")
    print(f"  {'python -c pass (baseline)':<34} {baseline * 1e3:7.1f} ms   1.00x")
    for label, argv in (
        ("torchada-nvcc --version", ["--version"]),
        ("torchada-nvcc --dryrun -c (warm)", ["--dryrun", *ARGV]),
    ):
        seconds = best_seconds([str(DRIVER), *argv], env, work, repeat)
        verdict = "ok" if seconds <= 0.100 else "over target"
        print(f"  {label:<34} {seconds * 1e3:7.1f} ms   {seconds / baseline:.2f}x  {verdict}")


def overhead(work: Path, repeat: int) -> None:
    if shutil.which("nvcc") is None:
        print("overhead: skipped (nvcc is not on PATH)")
        return
    cache = work / "cache"
    env = environment(cache, "loopback")
    shown = subprocess.run(
        [str(DRIVER), "--dryrun", *ARGV], env=env, cwd=work, check=True, capture_output=True, text=True
    )
    direct = shlex.split([line for line in shown.stderr.splitlines() if " -c " in line][-1][3:])
    subprocess.run(direct, env=env, cwd=work, check=True)  # the translated unit and compat headers exist now
    nvcc = best_seconds(direct, env, work, repeat)
    warm = best_seconds([str(DRIVER), *ARGV], env, work, repeat)
    cold = best_seconds(
        [str(DRIVER), *ARGV], env, work, repeat, before=lambda: shutil.rmtree(cache, ignore_errors=True)
    )
    print(f"overhead on a real kernel, loopback backend (best of {repeat}; target <= 1.05x warm)")
    print(f"  {'nvcc on the translated unit':<34} {nvcc:7.3f} s    1.00x")
    print(
        f"  {'torchada-nvcc -c, warm cache':<34} {warm:7.3f} s    {warm / nvcc:.3f}x  "
        + ("ok" if warm / nvcc <= 1.05 else "over target")
    )
    print(f"  {'torchada-nvcc -c, cold cache':<34} {cold:7.3f} s    {cold / nvcc:.3f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    options = parser.parse_args()
    compileall.compile_dir(REPO / "compilers", quiet=1)
    compileall.compile_dir(REPO / "hipify_like", quiet=1)
    with tempfile.TemporaryDirectory(prefix="torchada-bench-") as directory:
        work = Path(directory)
        for name in ("saxpy.cu", "common.cuh"):
            shutil.copy(SAMPLE / name, work / name)
        startup(work, options.repeat)
        overhead(work, options.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())

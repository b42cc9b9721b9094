"""torchada-nvcc's cost over the compiler it runs, as ratios measured in one run.

torchada is installed into a scratch environment the way users install it (``installed.py``): a
non-editable copy with compiled bytecode. Each figure is the best of N runs (other load on the machine
only ever adds time).

* start-up: ``torchada-nvcc --version`` (mcc backend on the fake MUSA tree; target <= 30 ms) and the
  nvcc passthrough's ``--version`` against NVIDIA's own, against the interpreter's ``python -c pass``.
* overhead on a compile, loopback backend: ``torchada-nvcc -c`` against running the very command it
  runs (NVIDIA's nvcc on the translated unit) directly, warm (a memo replayed; target <= 1.03x) and
  cold (a fresh cache each run: translation, compat headers; target <= 1.5x), on a small kernel
  (samples/makefile/saxpy.cu) and a large one (CUB and Thrust algorithms, tests/translate/golden).
  Also the nvcc passthrough (an NVIDIA build) against nvcc itself. Needs nvcc; skipped without it.

Usage: ``python benchmarks/driver_overhead.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from installed import REPO, InstalledCopy, installed_copy

KERNELS = {
    "small (saxpy.cu)": (REPO / "samples" / "makefile", ["saxpy.cu", "common.cuh"]),
    "large (cub_thrust.cu)": (REPO / "tests" / "translate" / "golden", ["cub_thrust.cu"]),
}


def best_seconds(command: list[str], env: dict[str, str], cwd: Path, repeat: int,
                 before: Callable[[], None] | None = None) -> float:  # fmt: skip
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def environment(cache: Path, backend: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NVCC_", "TORCHADA_", "PYTHONDONTWRITEBYTECODE"))}
    env.update(TORCHADA_CACHE_DIR=str(cache))
    if backend is not None:
        env.update(TORCHADA_BACKEND=backend, MUSA_HOME=str(REPO / "tests" / "inputs" / "musa"))
    else:
        env.pop("MUSA_HOME", None)
    return env


def row(label: str, seconds: float, baseline: float, target: float | None = None, unit: str = "s") -> str:
    shown = f"{seconds * 1e3:8.1f} ms" if unit == "ms" else f"{seconds:8.3f} s "
    verdict = "" if target is None else ("  ok" if seconds / baseline <= target else "  over target")
    return f"  {label:<40} {shown}  {seconds / baseline:6.3f}x{verdict}"


def startup(copy: InstalledCopy, work: Path, repeat: int) -> None:
    driver = str(copy.script("torchada-nvcc"))
    env = environment(work / "cache", "mcc")
    baseline = best_seconds([str(copy.python), "-c", "pass"], env, work, repeat)
    print(f"start-up (best of {repeat})")
    print(row("python -c pass (baseline)", baseline, baseline, unit="ms"))
    version = best_seconds([driver, "--version"], env, work, repeat)
    print(row("torchada-nvcc --version (mcc)", version, baseline, unit="ms") + ("  ok" if version <= 0.030 else
                                                                             "  over 30 ms"))  # fmt: skip
    nvcc = shutil.which("nvcc")
    if nvcc is not None:
        passthrough = environment(work / "cache", None)
        print(row("nvcc --version (NVIDIA's)", best_seconds([nvcc, "--version"], passthrough, work, repeat), baseline,
                  unit="ms"))  # fmt: skip
        print(row("torchada-nvcc --version (passthrough)", best_seconds([driver, "--version"], passthrough, work,
                                                                        repeat), baseline, unit="ms"))  # fmt: skip


def overhead(copy: InstalledCopy, work: Path, label: str, files: tuple[Path, list[str]], repeat: int) -> None:
    directory, names = files
    for name in names:
        shutil.copy(directory / name, work / name)
    past = time.time() - 60  # older than the memo's "too new" limit
    for name in names:
        os.utime(work / name, (past, past))
    time.sleep(2.1)  # the copies' status change (ctime) too
    driver = str(copy.script("torchada-nvcc"))
    argv = ["-c", names[0], "-o", "k.o", "-O2", "-arch=sm_80"]
    cache = work / f"cache-{names[0]}"
    env = environment(cache, "loopback")
    shown = subprocess.run([driver, "--dryrun", *argv], env=env, cwd=work, check=True, capture_output=True, text=True)
    direct = shlex.split([line for line in shown.stderr.splitlines() if " -c " in line][-1][3:])
    subprocess.run(direct, env=env, cwd=work, check=True)  # the translated unit and compat headers exist now
    nvcc = best_seconds(direct, env, work, repeat)
    subprocess.run([driver, *argv], env=env, cwd=work, check=True)  # writes the memo
    warm = best_seconds([driver, *argv], env, work, repeat)
    cold = best_seconds([driver, *argv], env, work, repeat, before=lambda: shutil.rmtree(cache, ignore_errors=True))
    passthrough_env = environment(cache, None)
    stock = best_seconds(["nvcc", *argv], passthrough_env, work, repeat)
    passthrough = best_seconds([driver, *argv], passthrough_env, work, repeat)
    print(f"{label}, best of {repeat}")
    print(row("nvcc on the translated unit (baseline)", nvcc, nvcc))
    print(row("torchada-nvcc -c, warm (memo)", warm, nvcc, 1.03))
    print(row("torchada-nvcc -c, cold cache", cold, nvcc, 1.5))
    print(row("nvcc on the original (baseline)", stock, stock))
    print(row("torchada-nvcc -c, nvcc passthrough", passthrough, stock))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="torchada-bench-") as directory:
        scratch = Path(directory)
        copy = installed_copy(scratch / "install")
        work = scratch / "work"
        work.mkdir()
        startup(copy, work, options.repeat)
        if shutil.which("nvcc") is None:
            print("overhead: skipped (nvcc is not on PATH)")
            return 0
        for label, files in KERNELS.items():
            overhead(copy, work, label, files, options.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())

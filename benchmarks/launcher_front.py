"""A compiler cache in front of torchada-nvcc (``sccache torchada-nvcc -MD -MF ... -c``, as torch's JIT and
``make NVCC="sccache torchada-nvcc"`` run it), loopback backend: the first compile of
``samples/makefile/saxpy.cu`` (a cache miss) against the no-change rebuilds (cache hits), each rebuild
deleting the object first. Prints the median of each and the ratio rebuild / first; ``--launcher ccache``
measures ccache instead. A private cache directory and server per run, so the first compile is a miss.

    python benchmarks/launcher_front.py [--launcher sccache|ccache] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "makefile"
TORCHADA_NVCC = Path(sys.executable).parent / "torchada-nvcc"


def _compile(launcher: str, root: Path, env: dict[str, str]) -> float:
    (root / "saxpy.o").unlink(missing_ok=True)
    command = [launcher, str(TORCHADA_NVCC), "-arch=sm_80", "-MD", "-MF", "saxpy.d", "-c", "saxpy.cu", "-o", "saxpy.o"]
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=root, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launcher", choices=("sccache", "ccache"), default="sccache")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    path = os.pathsep.join([str(TORCHADA_NVCC.parent), os.environ.get("PATH", "")])
    launcher = shutil.which(args.launcher, path=path)
    if launcher is None:
        sys.exit(f"{args.launcher} is not installed")
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        root = Path(tmp) / "saxpy"
        shutil.copytree(SAMPLE, root)
        env = {**os.environ, "PATH": path, "TORCHADA_BACKEND": "loopback", "TORCHADA_CACHE_DIR": f"{tmp}/torchada",
               "CCACHE_DIR": f"{tmp}/ccache", "SCCACHE_DIR": f"{tmp}/sccache",
               "SCCACHE_SERVER_PORT": str(s.getsockname()[1])}  # fmt: skip
        s.close()
        if args.launcher == "sccache":
            subprocess.run([launcher, "--start-server"], env=env, check=True, capture_output=True)
        try:
            first = _compile(launcher, root, env)
            rebuilds = [_compile(launcher, root, env) for _ in range(args.repeats)]
        finally:
            if args.launcher == "sccache":
                subprocess.run([launcher, "--stop-server"], env=env, check=False, capture_output=True)
    rebuild = statistics.median(rebuilds)
    print(f"{args.launcher} in front, loopback, saxpy.cu: first (miss) {first:.3f} s, "
          f"no-change rebuild (hit) {rebuild:.3f} s, ratio {rebuild / first:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()

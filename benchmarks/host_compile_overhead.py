"""What translating host files costs a build: one host compile run directly against the same compile
through ``python -m torchada_build.host_compile`` (loopback, translation cache warm, as on every rebuild).

Two files: ``samples/vector_add/vector_add.cpp`` (includes ``torch/extension.h``, the usual extension
``.cpp``) and a tiny one (the fixed cost: Python start-up, the cache lookup). Runs alternate; the script
prints the median wall time of each and the ratio.

    python benchmarks/host_compile_overhead.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREFIX = [sys.executable, "-m", "torchada_build.host_compile", "--backend=loopback", "--"]


def torch_include_flags() -> list[str]:
    import torch.utils.cpp_extension as cpp_extension

    dirs = [*cpp_extension.include_paths(), sysconfig.get_paths()["include"]]
    return [f"-I{d}" for d in dirs] + ["-DTORCH_EXTENSION_NAME=bench", "-DTORCH_API_INCLUDE_EXTENSION_H"]


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(source: Path, flags: list[str], repeats: int, env: dict[str, str], scratch: Path) -> tuple[float, float]:
    command = ["c++", "-std=c++20", "-O2", "-fPIC", *flags, "-c", str(source), "-o", str(scratch / "out.o")]
    subprocess.run([*PREFIX, *command], env=env, check=True)  # warm the translation cache
    direct, translated = [], []
    for _ in range(repeats):
        direct.append(timed(command, env))
        translated.append(timed([*PREFIX, *command], env))
    return statistics.median(direct), statistics.median(translated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        env = {**os.environ, "TORCHADA_CACHE_DIR": str(scratch / "cache"), "CCACHE_DISABLE": "1"}
        tiny = scratch / "tiny.cpp"
        tiny.write_text("#include <cstdio>\nint main() { std::puts(\"hi\"); return 0; }\n")
        rows = [
            ("tiny.cpp", tiny, []),
            ("vector_add.cpp (torch/extension.h)", REPO / "samples" / "vector_add" / "vector_add.cpp", torch_include_flags()),
        ]
        print(f"{'host file':<38}{'direct s':>10}{'torchada s':>12}{'ratio':>8}")
        for label, source, flags in rows:
            direct, translated = measure(source, flags, options.repeats, env, scratch)
            print(f"{label:<38}{direct:>10.3f}{translated:>12.3f}{translated / direct:>8.3f}")


if __name__ == "__main__":
    main()

"""What translating host files costs a build: a host compile run directly against the same compile
through ``torchada-host-compile`` (loopback), warm (as on every rebuild: the compile's memo replayed)
and, for the tiny files, cold (a fresh cache: the translator runs).

torchada is installed into a scratch environment as users install it (``installed.py``). Files: a tiny
``.cpp`` with no CUDA name (compiled unchanged), a tiny one that calls the CUDA runtime (compiled from
its translation), and ``samples/vector_add/vector_add.cpp`` (includes ``torch/extension.h``, the usual
extension ``.cpp``). Each figure is the best of N runs; targets: the tiny files add <= 40 ms warm, the
torch extension file costs <= 1.02x.

    python benchmarks/host_compile_overhead.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from installed import REPO, installed_copy

TINY = '#include <cstdio>\nint main() { std::puts("hi"); return 0; }\n'
TINY_CUDA = "#include <cuda_runtime.h>\nint main() { return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }\n"


def torch_include_flags() -> list[str]:
    import torch.utils.cpp_extension as cpp_extension

    dirs = [*cpp_extension.include_paths(), sysconfig.get_paths()["include"]]
    return [f"-I{d}" for d in dirs] + ["-DTORCH_EXTENSION_NAME=bench", "-DTORCH_API_INCLUDE_EXTENSION_H"]


def best(argv: list[str], env: dict[str, str], repeat: int, before: Callable[[], None] | None = None) -> float:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="torchada-bench-") as directory:
        scratch = Path(directory)
        copy = installed_copy(scratch / "install")
        cache = scratch / "cache"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCHADA_", "PYTHONDONTWRITEBYTECODE"))}
        env.update(TORCHADA_CACHE_DIR=str(cache), CCACHE_DISABLE="1")
        prefix = [str(copy.script("torchada-host-compile")), "--backend=loopback", "--"]
        (scratch / "tiny.cpp").write_text(TINY)
        (scratch / "tiny_cuda.cpp").write_text(TINY_CUDA)
        cuda_include = ["-I/usr/local/cuda/include"]
        rows = [
            ("tiny.cpp (no CUDA name)", scratch / "tiny.cpp", [], True),
            ("tiny_cuda.cpp (cudaDeviceSynchronize)", scratch / "tiny_cuda.cpp", cuda_include, True),
            ("vector_add.cpp (torch/extension.h)", REPO / "samples" / "vector_add" / "vector_add.cpp",
             torch_include_flags(), False),
        ]  # fmt: skip
        past = time.time() - 60  # older than the memo's "too new" limit
        for _, source, _, _ in rows:
            if source.parent == scratch:
                os.utime(source, (past, past))
        time.sleep(2.1)
        print(f"{'host file, best of ' + str(options.repeat):<40}{'direct':>10}{'torchada':>10}{'added':>10}{'ratio':>8}")
        for label, source, flags, cold in rows:
            command = ["c++", "-std=c++20", "-O2", "-fPIC", *flags, "-c", str(source), "-o", str(scratch / "out.o")]
            subprocess.run([*prefix, *command], env=env, check=True)  # translates, writes the memo
            direct = best(command, env, options.repeat)
            warm = best([*prefix, *command], env, options.repeat)
            print(f"{label:<40}{direct:>9.3f}s{warm:>9.3f}s{(warm - direct) * 1e3:>8.1f}ms{warm / direct:>8.3f}  warm")
            if cold:
                fresh = best([*prefix, *command], env, options.repeat, before=lambda: shutil.rmtree(cache))
                print(f"{'':<40}{'':>10}{fresh:>9.3f}s{(fresh - direct) * 1e3:>8.1f}ms{fresh / direct:>8.3f}  cold")


if __name__ == "__main__":
    sys.exit(main())

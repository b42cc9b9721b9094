"""No-change rebuild of samples/cublas_curand: with torchada (loopback) against the same build without it.

Both copies are built once, then rebuilt ``--repeats`` times each, alternating; the script prints the median
wall time of each and their ratio (target: at most 1.05).

The baseline is torch's stock ``setup.py build_ext`` with the real nvcc. This machine's torch is a CPU build,
so the baseline gets what a CUDA torch would provide: ``CUDA_HOME`` (a CPU torch leaves it ``None``), empty
``libc10_cuda``/``libtorch_cuda`` and unversioned cuBLAS/cuRAND names on ``LIBRARY_PATH``, and the wheels'
headers through ``NVCC_APPEND_FLAGS``.

    python benchmarks/build_rebuild.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "cublas_curand"


# Runs setup.py as a CUDA build of torch would: CUDA_HOME set from the environment, nothing else changed.
BASELINE = (
    "import os, runpy, sys; import torch.utils.cpp_extension as c; c.CUDA_HOME = os.environ['CUDA_HOME']; "
    "sys.argv = sys.argv[1:]; sys.path.insert(0, ''); runpy.run_path('setup.py', run_name='__main__')"
)


def nvidia_wheel_dir(sub: str) -> Path:
    spec = importlib.util.find_spec("nvidia")
    for location in spec.submodule_search_locations if spec else []:
        if (Path(location) / "cu13" / sub).is_dir():
            return Path(location) / "cu13" / sub
    sys.exit("the nvidia-cublas and nvidia-curand wheels are not installed")


def baseline_env(root: Path) -> dict[str, str]:
    shims = root / "shims"
    shims.mkdir()
    for name in ("c10_cuda", "torch_cuda"):
        subprocess.run(["cc", "-shared", "-x", "c", os.devnull, "-o", shims / f"lib{name}.so"], check=True)
    for name in ("cublas", "curand"):
        (shims / f"lib{name}.so").symlink_to(next(nvidia_wheel_dir("lib").glob(f"lib{name}.so.*")))
    return {
        **os.environ,
        "CUDA_HOME": "/usr/local/cuda",
        "LIBRARY_PATH": os.pathsep.join(filter(None, [str(shims), os.environ.get("LIBRARY_PATH")])),
        "NVCC_APPEND_FLAGS": f"-I{nvidia_wheel_dir('include')}",
        "TORCHADA_BACKEND": "nvcc",
    }


def build(directory: Path, command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=directory, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="torchada-rebuild-") as temporary:
        root = Path(temporary)
        common = {"MAX_JOBS": "2", "TORCH_MUSA_ARCH_LIST": "", "TORCH_CUDA_ARCH_LIST": "8.0"}
        runs = {
            "without torchada": ([sys.executable, "-c", BASELINE, "setup.py", "build_ext", "--inplace"], {**baseline_env(root), **common}),
            "with torchada": (
                [sys.executable, "-m", "torchada_build", "setup.py", "build_ext", "--inplace"],
                {**os.environ, **common, "TORCHADA_BACKEND": "loopback", "TORCHADA_CACHE_DIR": str(root / "cache")},
            ),
        }
        directories = {}
        for label, (command, env) in runs.items():
            directories[label] = shutil.copytree(SAMPLE, root / label.replace(" ", "_"))
            print(f"{label}: first build {build(directories[label], command, env):.1f} s", flush=True)
        times: dict[str, list[float]] = {label: [] for label in runs}
        for _ in range(options.repeats):
            for label, (command, env) in runs.items():
                times[label].append(build(directories[label], command, env))
        medians = {label: statistics.median(values) for label, values in times.items()}
        for label, median in medians.items():
            print(f"{label}: no-change rebuild, median of {options.repeats}: {median:.3f} s")
        print(f"ratio (with / without): {medians['with torchada'] / medians['without torchada']:.3f}  (target <= 1.05)")


if __name__ == "__main__":
    main()

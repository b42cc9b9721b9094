"""Translating a real project's units one after another: every unit sharing one cache against each unit in its own.

The units are gsplat 1.5.3's (an unchanged sdist from PyPI, pinned in ``tests/real/corpus.py``): 28 CUDA and C++
files under ``gsplat/cuda/csrc`` that all include the project's vendored GLM headers, searched for with the ``-I``
directories its ``load()`` build passes (``gsplat/cuda/include`` and ``csrc/third_party/glm``). Each unit is
translated by a process of its own, as each compile of a build is (``python -m torchada_build.compilers.units``):

* ``shared``: every unit into one empty cache, so a header translated for one unit is remembered for the next
  (``<cache>/files/``, ``compilers/units.py: _FileMemo``);
* ``separate`` (the baseline): each unit into an empty cache of its own, so every unit translates every file it
  includes, as before files were remembered.

Both translate the same bytes with the same options and end with the same translated units. The two are run
alternately ``--repeat`` times; the script prints the median wall time of each and shared/separate (target: at
most 0.7).

    python benchmarks/file_memo.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "real"), str(REPO / "tests" / "build"), str(REPO / "tests")]

import corpus  # noqa: E402

PROJECT = "gsplat-1.5.3"


def unpack(root: Path) -> Path:
    with tarfile.open(corpus.fetch_sdist(corpus.by_key(PROJECT))) as archive:
        archive.extractall(root, filter="data")
    return root / PROJECT / "gsplat" / "cuda"


def translate_units(cuda: Path, caches: list[Path]) -> float:
    """Seconds to translate every unit, the i-th into ``caches[i % len(caches)]``."""
    sources = sorted((cuda / "csrc").glob("*.cu")) + sorted((cuda / "csrc").glob("*.cpp"))
    flags = ["-I", str(cuda / "include"), "-I", str(cuda / "csrc" / "third_party" / "glm")]
    start = time.perf_counter()
    for index, source in enumerate(sources):
        environment = {**os.environ, "TORCHADA_CACHE_DIR": str(caches[index % len(caches)])}
        command = [sys.executable, "-m", "torchada_build.compilers.units", str(source), *flags]
        subprocess.run(command, env=environment, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        cuda = unpack(root)
        units = len(list((cuda / "csrc").glob("*.cu"))) + len(list((cuda / "csrc").glob("*.cpp")))
        times: dict[str, list[float]] = {"shared": [], "separate": []}
        for run in range(args.repeat):
            for name in times:
                caches = [root / f"{name}-{run}-{i}" for i in range(1 if name == "shared" else units)]
                times[name].append(translate_units(cuda, caches))
    shared, separate = (statistics.median(times[name]) for name in ("shared", "separate"))
    print(f"{PROJECT}: {units} units, median of {args.repeat}")
    print(f"  separate caches (baseline) {separate:7.1f} s")
    print(f"  one shared cache           {shared:7.1f} s")
    print(f"  shared/separate            {shared / separate:7.2f}")


if __name__ == "__main__":
    main()

"""Stage what the GPU check needs in ``.device/`` (ignored by git), for a GPU machine that cannot download:
the pinned sdists of torchsort, DeepSpeed and rwkv (``tests/real/corpus.py``), the libclang wheel, and
fast_soft_sort (torchsort's tests compare against it; it is not on PyPI) at a pinned commit.

    python tests/real/gpu/stage.py [--fast-soft-sort CHECKOUT]

Then, on the GPU machine, from the repository root: ``bash tests/real/gpu/check.sh`` (``.device`` carried).
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])]  # tests/real, tests
from corpus import by_key, fetch_sdist  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
STAGE = REPO / ".device"
PROJECTS = ("torchsort-0.1.10", "deepspeed-0.19.8", "rwkv-0.8.30")
LIBCLANG = "libclang==18.1.1"
FAST_SOFT_SORT = "6a52ce79869ab16e1e0f39149a84f50f8ad648c5"
"""google-research/fast-soft-sort's last commit, which torchsort's CI installs from git."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast-soft-sort", type=Path, help="a checkout of google-research/fast-soft-sort to take it from")
    args = parser.parse_args()
    for folder in ("sdists", "whl", "pylib"):
        shutil.rmtree(STAGE / folder, ignore_errors=True)
        (STAGE / folder).mkdir(parents=True)
    for key in PROJECTS:
        shutil.copy(fetch_sdist(by_key(key)), STAGE / "sdists" / f"{key}.tar.gz")
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                    "--platform", "manylinux2010_x86_64", "-d", str(STAGE / "whl"), LIBCLANG], check=True)  # fmt: skip
    if args.fast_soft_sort:
        archive = subprocess.run(["git", "-C", str(args.fast_soft_sort), "archive", FAST_SOFT_SORT, "fast_soft_sort"],
                                 check=True, capture_output=True).stdout  # fmt: skip
        tarfile.open(fileobj=io.BytesIO(archive)).extractall(STAGE / "pylib", filter="data")
    else:
        url = f"https://github.com/google-research/fast-soft-sort/archive/{FAST_SOFT_SORT}.tar.gz"
        with urllib.request.urlopen(url, timeout=120) as response, tarfile.open(fileobj=io.BytesIO(response.read())) as tar:
            members = [m for m in tar.getmembers() if "/fast_soft_sort/" in m.name]
            for member in members:
                member.name = member.name.split("/", 1)[1]
            tar.extractall(STAGE / "pylib", members=members, filter="data")
    print(f"staged in {STAGE}: " + ", ".join(sorted(p.name for p in STAGE.glob("*/*"))))


if __name__ == "__main__":
    main()

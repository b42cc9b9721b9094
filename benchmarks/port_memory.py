"""Peak memory of ``torchada-port`` on one source file, against the file's size, in one run.

    python benchmarks/port_memory.py [--sizes 1,4,16,64]

Each input is real CUDA text (the CUDA toolkit's CCCL headers, concatenated, then repeated to the size
in MiB); each port runs in a fresh child process, ``torchada-port big.cu -o out.cu``, and its peak RSS is
read from ``wait4``. The baseline is the same port of a one-line file (interpreter, imports, tables,
libclang). Prints per size: peak, peak less the baseline, and that over the input size (goal: at most 4).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CCCL = Path("/usr/local/cuda/include/cccl")


def real_cuda_text() -> bytes:
    if not CCCL.is_dir():
        raise SystemExit(f"the input is made of the CUDA toolkit's CCCL headers: {CCCL} is missing")
    return b"".join(p.read_bytes() for p in sorted(CCCL.rglob("*.cuh")))


def peak_mib(source: Path, out: Path) -> float:
    """The peak RSS, in MiB, of porting ``source`` in a child process."""
    process = subprocess.Popen([sys.executable, "-m", "hipify_like", str(source), "-o", str(out), "-q", "--force"],
                               stderr=subprocess.DEVNULL)  # fmt: skip
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"torchada-port failed on {source}")
    return usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,4,16,64", help="input sizes in MiB, comma-separated")
    args = parser.parse_args()
    text = real_cuda_text()
    with tempfile.TemporaryDirectory() as work:
        tiny = Path(work) / "tiny.cu"
        tiny.write_bytes(b"cudaStream_t s;\n")
        baseline = peak_mib(tiny, Path(work) / "tiny.musa.cu")
        print(f"baseline (a one-line file): {baseline:.0f} MiB peak")
        print(f"{'input MiB':>9} {'peak MiB':>9} {'less baseline':>13} {'x input':>8}")
        for size in (int(s) for s in args.sizes.split(",")):
            source = Path(work) / f"big{size}.cu"
            wanted = size << 20
            source.write_bytes((text * (wanted // len(text) + 1))[:wanted].rpartition(b"\n")[0] + b"\n")
            peak = peak_mib(source, Path(work) / f"big{size}.musa.cu")
            print(f"{size:>9} {peak:>9.0f} {peak - baseline:>13.0f} {(peak - baseline) / size:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

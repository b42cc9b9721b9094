"""Translation time against line length: the same names on one line and one per line, in one run.

A translator whose work per name grows with the line it sits on (re-scanning the line, splitting it
again at each rename) is quadratic in line length; generated code and minified headers have lines
of megabytes. Each size is translated both ways; the ratio one line / many lines stays near 1 for a
linear translator, and grows with the size for a quadratic one.

Usage: ``python benchmarks/translate_line_length.py [--repeat N] [--megabytes 1 4 10]``.
"""

from __future__ import annotations

import argparse
import time

from hipify_like import translate_source

STATEMENT = b"cudaMalloc(0, 1);"


def seconds(data: bytes, repeat: int) -> float:
    """The least of ``repeat`` translations of ``data``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        translate_source(data, "generated.cu")
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--megabytes", type=float, nargs="+", default=[1.0, 4.0, 10.0])
    args = parser.parse_args()
    print(f"{'size':>8}  {'one line':>9}  {'one per line':>12}  ratio")
    for megabytes in args.megabytes:
        count = int(megabytes * 1_000_000) // (len(STATEMENT) + 1)
        one_line = seconds((STATEMENT + b" ") * count, args.repeat)
        many_lines = seconds((STATEMENT + b"\n") * count, args.repeat)
        print(f"{megabytes:>6.1f} MB  {one_line:>8.2f}s  {many_lines:>11.2f}s  {one_line / many_lines:.2f}×")


if __name__ == "__main__":
    main()

"""The translator on mutated real sources (the golden files and the samples): it never raises and never
crashes, keeps every line break, and a second pass over its output does not fail either.

Two thousand cases run by default; a long run is

    TORCHADA_FUZZ_EXAMPLES=100000 python -m pytest -n 0 tests/translate/test_fuzz.py -p no:cacheprovider
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify_like import translate_source, translate_sources

REPO = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    p.read_bytes()
    for pattern in ("tests/translate/golden/*.cu", "samples/**/*.cu", "samples/**/*.cuh", "samples/**/*.cpp")
    for p in REPO.glob(pattern)
)
PIECES = [
    b"\\\n", b"\\\r\n", b"\\ \n", b"\\\r", b"\r", b"\n", b"\r\n", b"#", b"%:", b"# include ", b"#include <", b">",
    b'"', b"'", b"/*", b"*/", b"//", b'R"x(', b')x"', b"\x00", b"\xff", b"\xef\xbb\xbf", b"::", b"<<<", b">>>",
    b"cudaMalloc", b"cuda", b"__CUDA_ARCH__ >= 800", b"at::cuda::", b".is_cuda()", b"asm volatile(", b"WARP_SIZE 32",
    b"#if 1\n", b"#else\n", b"#endif\n", b"\\\n" * 300,
]  # fmt: skip
EXAMPLES = int(os.environ.get("TORCHADA_FUZZ_EXAMPLES", "2000"))


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "duplicate", "byte"]))
        if action == "insert":
            data[at:at] = draw(st.sampled_from(PIECES))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 200))]
        elif action == "duplicate":
            data[at:at] = data[at : at + draw(st.integers(1, 200))]
        else:
            data[at:at] = bytes([draw(st.integers(0, 255))])
    return bytes(data)


def _breaks(data: bytes) -> int:
    return data.count(b"\n") + data.count(b"\r")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(st.lists(mutated(), min_size=1, max_size=3))
def test_mutated_sources_translate_without_failing(files: list[bytes]) -> None:
    results = translate_sources([(data, f"f{i}.cu") for i, data in enumerate(files)])
    for data, result in zip(files, results, strict=True):
        assert _breaks(result.text) == _breaks(data)
        translate_source(result.text, "again.cu")

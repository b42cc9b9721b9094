"""Dependency files: the compiler's rule (gcc escapes, continuation lines) is read, the translated
copies are mapped back to the user's files, and nvcc's layout is written (with ``-MP``'s empty rules)."""

from __future__ import annotations

from torchada_build.compilers.depfile import format_rule, parse_depfile, remap

CLANG_STYLE = (
    "out.o: /cache/tree/src/k.cu /cache/tree/src/my\\ header.cuh \\\n"
    "  /usr/include/stdio.h /src/a$$b.h \\\n"
    "  /src/hash\\#.h\n"
    "\n"
    "/cache/tree/src/my\\ header.cuh:\n"
)


def test_parse_reads_gcc_escapes_and_continuations() -> None:
    rules = parse_depfile(CLANG_STYLE)
    assert rules[0] == (
        ["out.o"],
        ["/cache/tree/src/k.cu", "/cache/tree/src/my header.cuh", "/usr/include/stdio.h", "/src/a$b.h", "/src/hash#.h"],
    )
    assert rules[1] == (["/cache/tree/src/my header.cuh"], [])


def test_nvcc_layout_with_original_paths() -> None:
    originals = {"/cache/tree/src/k.cu": "k.cu", "/cache/tree/src/my header.cuh": "/src/my header.cuh"}
    prerequisites = remap(parse_depfile(CLANG_STYLE), lambda p: originals.get(p, p))
    text = format_rule("obj/k.o", prerequisites, phony=True)
    assert text == (
        "obj/k.o : k.cu \\\n"
        "    /src/my\\ header.cuh \\\n"
        "    /usr/include/stdio.h \\\n"
        "    /src/a$$b.h \\\n"
        "    /src/hash\\#.h\n"
        "\n/src/my\\ header.cuh :\n\n/usr/include/stdio.h :\n\n/src/a$$b.h :\n\n/src/hash\\#.h :\n"
    )
    assert parse_depfile(text)[0] == (["obj/k.o"], ["k.cu", "/src/my header.cuh", "/usr/include/stdio.h",
                                                   "/src/a$b.h", "/src/hash#.h"])  # fmt: skip


def test_nvcc_style_rules_parse_too() -> None:
    assert parse_depfile("k.o : k.cu \\\n    h.cuh\n") == [(["k.o"], ["k.cu", "h.cuh"])]

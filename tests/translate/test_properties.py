"""Properties of the translator over generated and real inputs: identity on code with no CUDA in it,
idempotence, literals and comments byte-for-byte unchanged, every line kept on its line."""

from __future__ import annotations

import glob
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hipify_like import load_db, translate_source, translate_sources
from hipify_like.lexer import TokenKind, lex

DB = load_db()
RENAMED = sorted(e.cuda for e in DB.entries if e.renames and e.kind.is_identifier and e.cuda.isidentifier())
HEADERS = sorted(e.cuda for e in DB.entries if e.renames and e.kind.value == "header")

user_identifiers = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True).filter(
    lambda s: DB.identifier(s) is None and not s.startswith(("cu", "nv", "nccl", "asm", "include"))
)
cuda_names = st.sampled_from(RENAMED)
hidden_text = st.lists(st.one_of(cuda_names, user_identifiers), max_size=4).map(" ".join)


def _fragments(with_cuda: bool):
    code = [
        user_identifiers,
        st.integers(0, 10**6).map(str),
        st.sampled_from(["(", ")", "{", "}", ";", ",", "::", "->", ".", "<<<", ">>>", "=", "+", "*", "&"]),
        st.sampled_from([" ", "\n", "\t", "\r\n", " \\\n"]),
        hidden_text.map(lambda t: f'"{t}"'),
        hidden_text.map(lambda t: f"/* {t} */"),
        hidden_text.map(lambda t: f"// {t}\n"),
        hidden_text.map(lambda t: f'R"x({t})x"'),
        st.just("'c'"),
        st.just("#if defined(FOO) && BAR >= 800\n#endif\n"),
    ]
    if with_cuda:
        code += [
            cuda_names,
            st.sampled_from(HEADERS).map(lambda h: f"\n#include <{h}>\n"),
            st.sampled_from([">= 800", "< 900", "== 750", ">=890"]).map(lambda c: f"\n#if __CUDA_ARCH__ {c}\n#endif\n"),
        ]
    return st.lists(st.one_of(*code), max_size=60).map(" ".join)


def _literals_and_comments(data: bytes) -> list[bytes]:
    """String and character literals and comments (number literals are excluded: arch guards change them)."""
    tokens = lex(data)
    spelled = [
        data[s : s + n]
        for k, s, n in zip(tokens.kinds, tokens.starts, tokens.lengths, strict=True)
        if k in (TokenKind.LITERAL, TokenKind.COMMENT)
    ]
    return [t for t in spelled if not t[:1].isdigit()]


@settings(max_examples=150, deadline=None)
@given(_fragments(with_cuda=False))
def test_code_without_cuda_is_unchanged(source: str) -> None:
    data = source.encode()
    assert translate_source(data, "k.cu").text == data


@settings(max_examples=150, deadline=None)
@given(_fragments(with_cuda=True))
def test_translation_keeps_literals_comments_and_lines_and_is_idempotent(source: str) -> None:
    data = source.encode()
    once = translate_source(data, "k.cu").text
    assert translate_source(once, "k.cu").text == once
    assert once.count(b"\n") == data.count(b"\n")
    assert _literals_and_comments(once) == _literals_and_comments(data)


def test_real_code_without_cuda_is_byte_identical() -> None:
    """libstdc++'s headers: thousands of lines of templates, macros and comments, no CUDA."""
    paths = sorted(glob.glob("/usr/include/c++/*/bits/*.h"))
    paths = random.Random(0).sample(paths, min(80, len(paths)))
    files = [(Path(p).read_bytes(), p) for p in paths]
    assert files, "no libstdc++ headers found"
    for (data, path), result in zip(files, translate_sources(files), strict=True):
        assert result.text == data, path

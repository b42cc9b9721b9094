"""No translation damage in any corpus file: every token the translator changes is a database rename.

Each C, C++ and CUDA file of each corpus sdist is translated as ``torchada-port`` would, both files are
lexed, and the changed tokens are compared pairwise with what the mapping database allows: a renamed
identifier (each part of a qualified name, a member without its ``.``), a header path's words on an
``#include`` line, a dispatch key, and the literal of an architecture comparison. Anything else that
changed is damage. Cheap (no compile), so every corpus project runs on every test run.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

import pytest
from corpus import CORPUS, STOCK_FAILS, Project, fetch_sdist, unpack

from hipify_like.lexer import TokenKind, lex
from hipify_like.mapping import Kind, load_db
from hipify_like.translate import translate_source

pytestmark = [pytest.mark.network]

SOURCES = (".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh", ".inl")


def allowed_renames() -> set[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for entry in load_db().entries:
        if not entry.renames:
            continue
        if entry.kind is Kind.HEADER:
            cuda, musa = re.findall(r"\w+", entry.cuda), re.findall(r"\w+", entry.musa)
        else:
            cuda, musa = entry.cuda.lstrip(".").split("::"), entry.musa.lstrip(".").split("::")
        pairs.update(zip(cuda, musa, strict=False))
    return pairs | {("__CUDA_ARCH__", "__MUSA_ARCH__")}  # the architecture rule, outside the database


ALLOWED = allowed_renames()


def words(data: bytes) -> list[tuple[int, str, int]]:
    """(kind, text, line) of each token."""
    tokens = lex(data)
    starts = [0, *(m.end() for m in re.finditer(rb"\n", data))]
    return [
        (kind, data[start : start + length].decode(errors="replace"), bisect.bisect_right(starts, start))
        for kind, start, length in zip(tokens.kinds, tokens.starts, tokens.lengths, strict=True)
    ]


def damage(original: bytes, translated: bytes) -> list[str]:
    """Each changed token that no database rename explains, as ``line: old -> new``.

    Translation keeps every line break, so the tokens are compared line by line."""
    before, after = _by_line(words(original)), _by_line(words(translated))
    lines = original.decode(errors="replace").splitlines()
    problems = []
    for number in sorted(set(before) | set(after)):
        old, new = before.get(number, []), after.get(number, [])
        if [t[1] for t in old] == [t[1] for t in new]:
            continue
        text = lines[number - 1] if number - 1 < len(lines) else ""
        if re.match(r"\s*#\s*include\b", text):
            continue  # a header path: include_damage checks it as a whole
        arch_line = "__CUDA_ARCH__" in text
        if len(old) == len(new) and all(
            o[1] == n[1]
            or (o[0] in (TokenKind.IDENTIFIER, TokenKind.KEYWORD) and (o[1], n[1]) in ALLOWED)
            or (arch_line and o[0] in (TokenKind.LITERAL, TokenKind.PUNCTUATION))
            for o, n in zip(old, new, strict=True)
        ):
            continue
        problems.append(f"{number}: {' '.join(t[1] for t in old)} -> {' '.join(t[1] for t in new)}")
    return problems


def _by_line(tokens: list[tuple[int, str, int]]) -> dict[int, list[tuple[int, str, int]]]:
    lines: dict[int, list[tuple[int, str, int]]] = {}
    for token in tokens:
        lines.setdefault(token[2], []).append(token)
    return lines


def include_damage(original: bytes, translated: bytes) -> list[str]:
    """``#include`` lines whose path changed to something other than the database's MUSA header."""
    headers = {e.cuda: e.musa for e in load_db().of_kind(Kind.HEADER) if e.renames}
    spelled = re.compile(rb'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
    problems = []
    for number, (old, new) in enumerate(zip(original.splitlines(), translated.splitlines(), strict=False), 1):
        if old == new:
            continue
        was, now = spelled.match(old), spelled.match(new)
        if was and now and headers.get(was.group(1).decode()) == now.group(1).decode():
            continue
        if was:
            problems.append(f"{number}: {old.decode(errors='replace')} -> {new.decode(errors='replace')}")
    return problems


SDISTS = list({(p.name, p.version): p for p in (*CORPUS, *STOCK_FAILS)}.values())


@pytest.fixture(scope="module", params=SDISTS, ids=lambda p: f"{p.name}-{p.version}")
def project_sources(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    project: Project = request.param
    try:
        sdist = fetch_sdist(project)
    except OSError as error:
        pytest.skip(f"cannot fetch {project.key} from PyPI: {error}")
    top = unpack(sdist, tmp_path_factory.mktemp(project.key))
    return sorted(p for p in top.rglob("*") if p.is_file() and p.suffix in SOURCES)


def test_no_translation_damage(project_sources: list[Path]) -> None:
    assert project_sources, "the sdist has no C, C++ or CUDA sources"
    problems = []
    for path in project_sources:
        data = path.read_bytes()
        translated = translate_source(data, str(path)).text
        if translated != data:
            problems += [f"{path.name}:{p}" for p in damage(data, translated) + include_damage(data, translated)]
    assert problems == []


@pytest.mark.parametrize(
    ("translated", "damaged"),
    [
        (b'cudaStream_t s; // cudaStream_t\nauto n = "cudaMalloc";\n', False),
        (b'musaStream_t s; // musaStream_t\nauto n = "cudaMalloc";\n', True),  # a comment changed
        (b'musaStream_t s; // cudaStream_t\nauto n = "musaMalloc";\n', True),  # a string changed
        (b'musaStream_t s; // cudaStream_t\nauto n = "cudaMalloc";\n', False),  # the one rename
        (b'musaStream_t mine; // cudaStream_t\nauto n = "cudaMalloc";\n', True),  # a user name changed
    ],
)
def test_damage_is_what_the_database_does_not_explain(translated: bytes, damaged: bool) -> None:
    original = b'cudaStream_t s; // cudaStream_t\nauto n = "cudaMalloc";\n'
    assert bool(damage(original, translated)) is damaged

"""Make-style dependency files: read the compiler's, name the user's original files, write nvcc's.

The compiler sees the translated copies, so its rule names them; make and ninja must watch the
originals instead, or they never rebuild when a ``.cu`` or ``.cuh`` changes. The rule is written in
nvcc's layout (``target : source \\`` and four-space continuation lines), with gcc's escapes
(``\\ `` for a space, ``\\#``, ``$$``), which is what CMake (``deps = gcc``) and torch's ninja file read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

__all__ = ["Rule", "format_rule", "parse_depfile", "remap"]

Rule = tuple[list[str], list[str]]
"""(targets, prerequisites)"""


def _words(line: str) -> list[tuple[str, bool]]:
    """The words of one logical line, and whether each ended with an unescaped ``:`` separator."""
    words: list[tuple[str, bool]] = []
    word: list[str] = []
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\\" and i + 1 < len(line) and line[i + 1] in " \\#:":
            word.append(line[i + 1])
            i += 2
            continue
        if char == "$" and line[i + 1 : i + 2] == "$":
            word.append("$")
            i += 2
            continue
        if char == ":" and (i + 1 == len(line) or line[i + 1].isspace()):
            if word:
                words.append(("".join(word), True))
                word = []
            elif words:
                words[-1] = (words[-1][0], True)
            i += 1
            continue
        if char.isspace():
            if word:
                words.append(("".join(word), False))
                word = []
        else:
            word.append(char)
        i += 1
    if word:
        words.append(("".join(word), False))
    return words


def parse_depfile(text: str) -> list[Rule]:
    rules: list[Rule] = []
    for line in text.replace("\\\r\n", " ").replace("\\\n", " ").splitlines():
        targets: list[str] = []
        prerequisites: list[str] = []
        seen_colon = False
        for word, ends_targets in _words(line):
            (prerequisites if seen_colon else targets).append(word)
            seen_colon = seen_colon or ends_targets
        if seen_colon:
            rules.append((targets, prerequisites))
    return rules


def _escape(path: str) -> str:
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def format_rule(target: str | Sequence[str], prerequisites: Iterable[str], *, phony: bool) -> str:
    """One rule (of one target or several) in nvcc's layout, plus an empty rule per header when ``phony`` (``-MP``)."""
    deps = list(dict.fromkeys(prerequisites))
    targets = [target] if isinstance(target, str) else list(target)
    lines = [" ".join(map(_escape, targets)) + " : " + " \\\n    ".join(_escape(d) for d in deps)]
    if phony:
        lines += [f"\n{_escape(d)} :" for d in deps[1:]]
    return "\n".join(lines) + "\n"


def remap(rules: list[Rule], original_of: Callable[[str], str]) -> list[str]:
    """The prerequisites of every rule, each mapped through ``original_of``."""
    return [original_of(d) for _, prerequisites in rules for d in prerequisites]

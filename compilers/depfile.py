"""Make-style dependency files: read the compiler's, name the user's original files, write nvcc's.

The compiler sees the translated copies, so its rule names them; make and ninja must watch the
originals instead, or they never rebuild when a ``.cu`` or ``.cuh`` changes. The rule is written in
nvcc's layout (``target : source \\`` and four-space continuation lines), with gcc's escapes
(``\\ `` for a space, ``\\#``, ``$$``), which is what CMake (``deps = gcc``) and torch's ninja file read.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # the compile memo's replay imports this module
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

__all__ = ["DependencyRewrite", "Rule", "dependency_name", "format_rule", "parse_depfile", "remap"]

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


def dependency_name(path: str, *, source: str, main: str, tree: str) -> str:
    """What a dependency file names for ``path``, which the compiler of a translated unit named: the
    ``source`` as the command line gave it for the translated ``main`` file, the original of a file
    mirrored under ``tree`` (relative paths from the working directory, as ccache writes them under
    ``CCACHE_BASEDIR``), or ``path`` itself."""
    absolute = os.path.abspath(path)
    if absolute == main:
        return source
    prefix = tree + os.sep
    return os.sep + absolute[len(prefix) :] if absolute.startswith(prefix) else path


class DependencyRewrite:
    """A dependency file the compiler wrote for a translated unit, written again naming the originals.

    ``written`` is the compiler's file; ``final`` where the rule goes (None: standard output);
    ``target`` the rule's target (None: the compiler's own, and nothing is written when the compiler
    wrote no rule). ``source``, ``main`` and ``tree`` are as in :func:`dependency_name`.
    """

    __slots__ = ("final", "main", "phony", "source", "target", "tree", "written")

    def __init__(self, written: str, final: str | None, target: str | None, phony: bool, source: str, main: str,
                 tree: str) -> None:  # fmt: skip
        self.written, self.final, self.target, self.phony = written, final, target, phony
        self.source, self.main, self.tree = source, main, tree

    def fields(self) -> tuple[str | bool | None, ...]:
        """The constructor's arguments, in order (what a compile memo records)."""
        return (self.written, self.final, self.target, self.phony, self.source, self.main, self.tree)

    def run(self) -> None:
        try:
            with open(self.written, encoding="utf-8", errors="surrogateescape") as f:
                rules = parse_depfile(f.read())
        except FileNotFoundError:
            if self.target is None:
                return
            raise
        if self.target is None and not rules:
            return
        target = self.target if self.target is not None else rules[0][0]
        names = remap(rules, lambda p: dependency_name(p, source=self.source, main=self.main, tree=self.tree))
        text = format_rule(target, names, phony=self.phony)
        if self.final is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        from torchada_build.core.files import write_atomically

        write_atomically(self.final, text.encode("utf-8", errors="surrogateescape"))

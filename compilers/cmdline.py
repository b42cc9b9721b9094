"""nvcc's small tokenizers: options files, comma lists, and shell-style unquoting of pass-through items.

* An options file (``--options-file f``): whitespace separates words, ``"…"`` groups, a backslash
  escapes the next character (an escaped newline is part of the word), single quotes are ordinary
  characters, and there are no comments (``docs/nvcc.md``, "The command line").
* A list value (``-I a,b``, ``-Xcompiler a,b``) splits on commas; ``\\,`` keeps a comma (the backslash
  goes), text inside double quotes keeps its commas (and its quotes), and empty items are dropped.
* A pass-through item (``-Xcompiler "'-fPIC'"``) is pasted unquoted into a ``/bin/sh`` command line by
  nvcc, so it is split the way a shell would: ``'-fPIC'`` is ``-fPIC``, ``-a -b`` is two words.

    >>> split_list('A=f(x\\\\,y),"B=1,2",,C')
    ['A=f(x,y)', '"B=1,2"', 'C']
    >>> shell_words("'-fPIC'")
    ['-fPIC']
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from .errors import UsageError

__all__ = ["environment_flags", "read_options_file", "shell_words", "split_list", "split_options_text"]


def split_options_text(text: str) -> list[str]:
    """The words of an options file."""
    words: list[str] = []
    word: list[str] = []
    in_word = in_quotes = False
    chars = iter(text)
    for char in chars:
        if char == "\\":
            word.append(next(chars, ""))
            in_word = True
        elif char == '"':
            in_quotes = not in_quotes
            in_word = True
        elif char.isspace() and not in_quotes:
            if in_word:
                words.append("".join(word))
                word, in_word = [], False
        else:
            word.append(char)
            in_word = True
    if in_word:
        words.append("".join(word))
    return words


OPTIONS_FILE_LIMIT = 4 << 20
"""The most bytes an options file may hold: twice what Linux lets a whole command line be (``ARG_MAX``),
so a device or a runaway file (``--options-file /dev/zero``) stops with one line, not an exhausted memory."""


def read_options_file(path: str) -> list[str]:
    try:
        with open(path, "rb") as file:
            data = file.read(OPTIONS_FILE_LIMIT + 1)
    except OSError:
        msg = f"Could not open options file '{path}'"
        raise UsageError(msg) from None
    if len(data) > OPTIONS_FILE_LIMIT:
        msg = f"Options file '{path}' is larger than {OPTIONS_FILE_LIMIT >> 20} MiB, more than a command line can hold"
        raise UsageError(msg)
    return split_options_text(data.decode("utf-8", errors="surrogateescape"))


def split_list(value: str) -> list[str]:
    """Split a list option's value on commas, as nvcc does."""
    items: list[str] = []
    item: list[str] = []
    in_quotes = False
    i = 0
    while i < len(value):
        char = value[i]
        if char == "\\" and value[i + 1 : i + 2] == ",":
            item.append(",")
            i += 2
            continue
        if char == '"':
            in_quotes = not in_quotes
        if char == "," and not in_quotes:
            items.append("".join(item))
            item = []
        else:
            item.append(char)
        i += 1
    items.append("".join(item))
    return [x for x in items if x]


def shell_words(item: str) -> list[str]:
    """The words ``/bin/sh`` would make of a pass-through item."""
    try:
        return shlex.split(item)
    except ValueError as error:
        msg = f"cannot split pass-through option '{item}' like a shell would: {error}"
        raise UsageError(msg) from None


def environment_flags(environ: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """``NVCC_PREPEND_FLAGS`` and ``NVCC_APPEND_FLAGS``, split like a shell would."""
    return (
        shell_words(environ.get("NVCC_PREPEND_FLAGS", "")),
        shell_words(environ.get("NVCC_APPEND_FLAGS", "")),
    )

"""libclang's raw lexer over whole files, with no parse.

libclang tokenizes only inside a translation unit, and parsing a file without its headers can take
seconds (each undeclared name is an error). So the bytes are wrapped in a nest of ``#if 1 / #else``
blocks: the preprocessor skips them cheaply, and ``clang_tokenize`` then lexes the raw buffer, which
it does the same whether the code was skipped or not. A stray ``#else`` or ``#endif`` in the input
cannot reopen the nest (each level is already in its ``#else``).

Several files can be lexed in one call (:func:`lex_many`): they are joined into one buffer, and a
file whose last token runs into the next file (an unterminated comment or raw string) is lexed again
on its own.

Consecutive line splices are lexed as one: clang's lexer recurses once per splice, and tens of
thousands in a row overflow its stack (the offsets are mapped back to the original bytes).

Tokens are kept as three parallel lists read straight from libclang's token array, so the cost per
token is a few machine words, not a Python object. The eight functions of libclang's C API this needs
are declared here, not through ``clang.cindex``: importing it and registering its 150 prototypes add
4-5 ms to every process's first lex.
"""

from __future__ import annotations

import bisect
import ctypes
import enum
import functools
import os
import re
import sys
from array import array
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["ONE_SPLICE", "SPLICES", "TokenKind", "Tokens", "lex", "lex_many", "unspliced"]

_NEST = 16
_PREFIX = b"#if 1\n#else\n" * _NEST
_SUFFIX = b"\n" + b"#endif\n" * _NEST
_VIRTUAL_PATH = "/__torchada__/lex.cpp"
_ARGS = (ctypes.c_char_p * 6)(b"-x", b"c++", b"-std=c++20", b"-nostdinc", b"-nostdinc++", b"-w")
_BATCH_BYTES = 4 << 20
_SENTINEL = b"__torchada_lexer_file_boundary__"
_ONE = rb"\\[ \t\f\v]*(?:\r\n?|\n\r?)"
ONE_SPLICE = re.compile(_ONE)
"""A line splice as clang reads it: a backslash, optional blanks, a newline (``\\r\\n``, ``\\n\\r``,
``\\n`` or ``\\r``)."""
SPLICES = re.compile(_ONE + rb"(?:" + _ONE + rb")*")
"""A run of line splices (each pattern starts with the backslash itself: searching is then fast)."""
_SPLICE_RUN = re.compile(_ONE + rb"(?:" + _ONE + rb")+")
_SEPARATOR = b"\n" + _SENTINEL + b"\n"


class _CXToken(ctypes.Structure):
    _fields_ = [("int_data", ctypes.c_uint32 * 4), ("ptr_data", ctypes.c_void_p)]


class _CXSourceLocation(ctypes.Structure):
    _fields_ = [("ptr_data", ctypes.c_void_p * 2), ("int_data", ctypes.c_uint)]


class _CXSourceRange(ctypes.Structure):
    _fields_ = [("ptr_data", ctypes.c_void_p * 2), ("begin_int_data", ctypes.c_uint), ("end_int_data", ctypes.c_uint)]


class _CXUnsavedFile(ctypes.Structure):
    _fields_ = [("filename", ctypes.c_char_p), ("contents", ctypes.c_char_p), ("length", ctypes.c_ulong)]


_PROTOTYPES: dict[str, tuple[object, list[object]]] = {
    "clang_createIndex": (ctypes.c_void_p, [ctypes.c_int, ctypes.c_int]),
    "clang_parseTranslationUnit": (ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                                   ctypes.c_int, ctypes.POINTER(_CXUnsavedFile), ctypes.c_uint, ctypes.c_uint]),
    "clang_disposeTranslationUnit": (None, [ctypes.c_void_p]),
    "clang_getFile": (ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]),
    "clang_getLocationForOffset": (_CXSourceLocation, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]),
    "clang_getRange": (_CXSourceRange, [_CXSourceLocation, _CXSourceLocation]),
    "clang_tokenize": (None, [ctypes.c_void_p, _CXSourceRange, ctypes.POINTER(ctypes.POINTER(_CXToken)),
                       ctypes.POINTER(ctypes.c_uint)]),
    "clang_disposeTokens": (None, [ctypes.c_void_p, ctypes.POINTER(_CXToken), ctypes.c_uint]),
}  # fmt: skip


# A CXToken is read as 32-bit words: [kind, location, length, 0, pointer...].
_WORDS_PER_TOKEN = ctypes.sizeof(_CXToken) // 4


class TokenKind(enum.IntEnum):
    """libclang's ``CXTokenKind``."""

    PUNCTUATION = 0
    KEYWORD = 1
    IDENTIFIER = 2
    LITERAL = 3
    COMMENT = 4


class Tokens(NamedTuple):
    """The tokens of one file: kind, start byte offset and byte length of each, in order."""

    kinds: array[int]
    starts: array[int]
    lengths: array[int]

    def at(self, offset: int) -> int | None:
        """The index of the token that starts exactly at ``offset``, if any."""
        i = bisect.bisect_left(self.starts, offset)
        if i < len(self.starts) and self.starts[i] == offset:
            return i
        return None

    def end(self, i: int) -> int:
        return self.starts[i] + self.lengths[i]


@functools.cache
def _libclang() -> tuple[ctypes.CDLL, int]:
    """libclang, from the ``libclang`` wheel (or ``$LIBCLANG_LIBRARY_PATH``, as ``clang.cindex`` looks),
    with its prototypes declared; and an index."""
    import clang

    folder = os.environ.get("LIBCLANG_LIBRARY_PATH") or os.path.join(os.path.dirname(clang.__file__), "native")
    name = {"darwin": "libclang.dylib", "win32": "libclang.dll"}.get(sys.platform, "libclang.so")
    library = ctypes.CDLL(os.path.join(folder, name) if os.path.isfile(os.path.join(folder, name)) else name)
    for function, (restype, argtypes) in _PROTOTYPES.items():
        getattr(library, function).restype = restype
        getattr(library, function).argtypes = argtypes
    return library, library.clang_createIndex(0, 0)


def _lex_buffer(buffer: bytes) -> tuple[array[int], array[int], array[int]]:
    """Lex ``buffer``; return the kinds, byte offsets and byte lengths of its tokens."""
    squeezed, runs = _squeeze_splices(buffer)
    kinds, starts, lengths = _lex_squeezed(squeezed)
    _strip_leading_splices(squeezed, starts, lengths)
    if runs.at:
        ends = array("I", (runs.original(s + n, end=True) for s, n in zip(starts, lengths, strict=True)))
        starts = array("I", map(runs.original, starts))
        lengths = array("I", (e - s for s, e in zip(starts, ends, strict=True)))
    return kinds, starts, lengths


class _SqueezedRuns(NamedTuple):
    """Where :func:`_squeeze_splices` removed bytes: at each ``at`` offset of the squeezed buffer (the
    splice kept from a run), the bytes removed before it in total, ``removed``."""

    at: list[int]
    removed: list[int]

    def original(self, offset: int, end: bool = False) -> int:
        """The original offset of squeezed ``offset``; an ``end`` offset at a kept splice stays before it."""
        i = (bisect.bisect_left if end else bisect.bisect_right)(self.at, offset)
        return offset + (self.removed[i - 1] if i else 0)


def _squeeze_splices(buffer: bytes) -> tuple[bytes, _SqueezedRuns]:
    """``buffer`` with each run of consecutive line splices cut to its last splice (the same source
    to a compiler, which deletes them all), and where bytes were removed."""
    runs = _SqueezedRuns([], [])
    pieces = []
    position = removed = 0
    for run in _SPLICE_RUN.finditer(buffer):
        last = buffer.rfind(b"\\", run.start(), run.end())  # each splice has one backslash
        pieces.append(buffer[position : run.start()])
        removed += last - run.start()
        runs.at.append(last - removed)
        runs.removed.append(removed)
        position = last
    if not pieces:
        return buffer, runs
    pieces.append(buffer[position:])
    return b"".join(pieces), runs


def _lex_squeezed(buffer: bytes) -> tuple[array[int], array[int], array[int]]:
    """libclang's tokens of ``buffer``, which must hold no run of line splices."""
    library, index = _libclang()
    wrapped = _PREFIX + buffer + _SUFFIX
    path = _VIRTUAL_PATH.encode()
    unsaved = _CXUnsavedFile(path, wrapped, len(wrapped))
    tu = library.clang_parseTranslationUnit(index, path, _ARGS, len(_ARGS), ctypes.byref(unsaved), 1, 0)
    if not tu:
        raise RuntimeError(f"libclang could not lex a buffer of {len(buffer)} bytes")
    try:
        return _tokens_of(library, tu, len(buffer))
    finally:
        library.clang_disposeTranslationUnit(tu)


def _tokens_of(library: ctypes.CDLL, tu: int, size: int) -> tuple[array[int], array[int], array[int]]:
    """The tokens of the ``size`` bytes after :data:`_PREFIX` in the virtual file of ``tu``."""
    file = library.clang_getFile(tu, _VIRTUAL_PATH.encode())
    first = library.clang_getLocationForOffset(tu, file, len(_PREFIX))
    last = library.clang_getLocationForOffset(tu, file, len(_PREFIX) + size)
    tokens = ctypes.POINTER(_CXToken)()
    count = ctypes.c_uint()
    library.clang_tokenize(tu, library.clang_getRange(first, last), ctypes.byref(tokens), ctypes.byref(count))
    if not count.value:
        return array("I"), array("I"), array("I")
    try:
        words = (ctypes.c_uint32 * (count.value * _WORDS_PER_TOKEN)).from_address(
            ctypes.addressof(tokens.contents)
        )
        view = memoryview(words).cast("B").cast("I")
        # Arrays, not lists: 4 bytes a number, where a list holds an 8-byte pointer to a 28-byte int.
        kinds = array("I", view[0::_WORDS_PER_TOKEN].tobytes())
        raw = view[1::_WORDS_PER_TOKEN].tobytes()
        lengths = array("I", view[2::_WORDS_PER_TOKEN].tobytes())
    finally:
        library.clang_disposeTokens(tu, tokens, count)
    # A token's location is the raw encoding of the file's start plus the token's offset.
    starts = array("I", map(first.int_data.__rsub__, array("I", raw)))
    # libclang also returns the token that begins at the end of the range (the suffix's '#').
    stop = bisect.bisect_left(starts, size)
    return kinds[:stop], starts[:stop], lengths[:stop]


def _strip_leading_splices(buffer: bytes, starts: array[int], lengths: array[int]) -> None:
    """A token right after a line splice (``\\`` + newline) includes the splice in its spelling;
    start it at its first real character instead, as a compiler reads it."""
    for splice in SPLICES.finditer(buffer):
        i = bisect.bisect_left(starts, splice.start())
        if i < len(starts) and starts[i] == splice.start() and splice.end() < starts[i] + lengths[i]:
            lengths[i] -= splice.end() - starts[i]
            starts[i] = splice.end()


def unspliced(spelling: bytes) -> bytes:
    """``spelling`` without its line splices, as the compiler reads it."""
    return ONE_SPLICE.sub(b"", spelling) if b"\\" in spelling else spelling


def lex(data: bytes) -> Tokens:
    """Lex one file's bytes."""
    return Tokens(*_lex_buffer(data))


def lex_many(files: Sequence[bytes]) -> list[Tokens]:
    """Lex several files, joining small ones into one libclang call."""
    results: list[Tokens | None] = [None] * len(files)
    batch: list[int] = []
    size = 0
    for i, data in enumerate(files):
        if batch and size + len(data) > _BATCH_BYTES:
            _lex_batch(files, batch, results)
            batch, size = [], 0
        batch.append(i)
        size += len(data) + 1
    if batch:
        _lex_batch(files, batch, results)
    return [r if r is not None else lex(files[i]) for i, r in enumerate(results)]


def _lex_batch(files: Sequence[bytes], batch: list[int], results: list[Tokens | None]) -> None:
    """Lex the files ``batch`` names as one buffer, a sentinel line between files.

    The sentinel lexes as its own token only when the lexer is in a clean state there. Where it is
    missing, the file before it ended inside a comment, a string or a line splice, and the state leaked
    into the next file: both are left out of ``results`` for the caller to lex alone.
    """
    kinds, starts, lengths = _lex_buffer(_SEPARATOR.join(files[i] for i in batch))
    bounds = []
    offset = 0
    for i in batch:
        bounds.append(offset)
        offset += len(files[i]) + len(_SEPARATOR)
    spoiled: set[int] = set()
    for position, start in enumerate(bounds[1:]):
        sentinel = bisect.bisect_left(starts, start - len(_SENTINEL) - 1)
        if sentinel == len(starts) or starts[sentinel] != start - len(_SENTINEL) - 1:
            spoiled.update((position, position + 1))
    for position, i in enumerate(batch):
        if position in spoiled:
            continue
        base = bounds[position]
        lo = bisect.bisect_left(starts, base)
        hi = bisect.bisect_left(starts, base + len(files[i]))
        results[i] = Tokens(kinds[lo:hi], array("I", map(base.__rsub__, starts[lo:hi])), lengths[lo:hi])

"""Translate one file's bytes from CUDA to MUSA, token by token.

Only whole tokens change: a candidate word (:meth:`.tables.Tables.candidates`) is translated only when
libclang's lexer has an identifier (or keyword) token starting and ending exactly there, so names
inside string literals, comments and longer user identifiers are never touched. Every byte outside
the renamed tokens is kept, and so is every line break.

    >>> out = translate_source(b'cudaMalloc(&p, n); // cudaMalloc\\n', "k.cu")
    >>> out.text
    b'musaMalloc(&p, n); // cudaMalloc\\n'
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

from .findings import Finding
from .lexer import ONE_SPLICE, SPLICES, TokenKind, Tokens, lex_many, unspliced
from .mapping import Entry, Status
from .tables import ASM_KEYWORDS, INCLUDE_WORDS, WARP_INTRINSICS, Tables, get_tables

__all__ = ["Include", "LocalHeaderTest", "Translation", "translate_source", "translate_sources"]

LocalHeaderTest = Callable[[str, str, bool], bool]
"""``(including file, spelled, angled) -> bool``: whether an ``#include`` names a project header."""

_COMPARISONS = (b">=", b">", b"<", b"<=", b"==", b"!=")
_FLIPPED = {">=": "<=", ">": "<", "<": ">", "<=": ">=", "==": "==", "!=": "!="}
_INTEGER = re.compile(rb"(\d+)[uUlL]*")
_FULL_MASK = re.compile(rb"0[xX][fF]{8}[uU]?[lL]{0,2}")
_WARP_SIZE_NAME = re.compile(rb"\w*?(?:WARP_?SIZE|[Ww]arp_?[Ss]ize)\w*")
_LINE_DIRECTIVE = b"#line 1 "
_INCLUDE_PEEK = re.compile(rb'[ \t]*(?:<([^>\r\n]*)>|"([^"\r\n]*)")')
_BLANK = frozenset(b" \t\r\n\\\f\v")
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_HASH = re.compile(rb"#|%:")
_INCLUDE_WORD = re.compile(rb"include_next|include|import")  # whole tokens: checked on the tokens
_INCLUDE_DIRECTIVES = frozenset(word.encode() for word in INCLUDE_WORDS)
_SPLICES_BEFORE_WORD = re.compile(SPLICES.pattern + rb"\w")
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_IDENTIFIER_KINDS = (TokenKind.IDENTIFIER, TokenKind.KEYWORD)
_PTX_OPCODES = (
    "mov ld st cvt cvta add sub mul mad fma div rem abs neg min max and or xor not shl shr shf shfl bar barrier "
    "atom red mma wmma wgmma ldmatrix stmatrix cp prmt lop3 setp set selp slct bfe bfi brev popc clz bfind vote "
    "match activemask membar fence rcp sqrt rsqrt ex2 lg2 sin cos tanh copysign testp prefetch prefetchu "
    "isspacep mbarrier redux dp4a dp2a elect griddepcontrol tcgen05 mapa getctarank multimem nanosleep sad "
    "mul24 mad24 addc subc madc cnot szext bmsk discard applypriority createpolicy tensormap setmaxnreg"
).split()
_PTX_TEXT = re.compile(
    rb'(?:^"|[\s;{}@!]|\\[nt])(?:' + b"|".join(o.encode() for o in _PTX_OPCODES) + rb")\.[a-z0-9]"
    rb"|\.reg\b|%%(?:laneid|warpid|smid|nsmid|clock(?:64)?|globaltimer|lanemask_\w+|n?tid|n?ctaid|\w+_smem_size)"
)
"""PTX in an ``asm`` string: an instruction with a ``.`` qualifier (``mov.u32``, ``shfl.sync``), a
``.reg`` declaration or a special register; ARM's ``vld1.32`` and x86's ``movl`` are not."""


class Include(NamedTuple):
    """An ``#include`` of one of the project's own headers, as written."""

    spelled: str
    angled: bool
    line: int


class Translation(NamedTuple):
    path: str
    original: bytes
    text: bytes
    findings: tuple[Finding, ...]
    renamed: Counter[str]
    """How many names were translated, per library."""
    includes: tuple[Include, ...]
    cuda_free: bool = False
    """Whether the file names nothing of CUDA's: no name the database knows or reports, no CUDA-looking
    name, no ``#include`` of a CUDA header (it compiles the same for MUSA as for CUDA)."""

    @property
    def changed(self) -> bool:
        return self.text != self.original


def _never_local(includer: str, spelled: str, angled: bool) -> bool:
    return False


def translate_source(
    data: bytes,
    path: str,
    *,
    is_local: LocalHeaderTest = _never_local,
    report_includes: bool = False,
    line_directive: str | None = None,
    tables: Tables | None = None,
) -> Translation:
    """Translate one file. ``line_directive`` (a path) makes the output start with ``#line 1 "path"``."""
    result = translate_sources([(data, path)], is_local=is_local, report_includes=report_includes, tables=tables)[0]
    return result if line_directive is None else _with_line_directive(result, line_directive)


def translate_sources(
    files: Sequence[tuple[bytes, str]],
    *,
    is_local: LocalHeaderTest = _never_local,
    report_includes: bool = False,
    line_directives: bool = False,
    tables: Tables | None = None,
) -> list[Translation]:
    """Translate several files, lexing together those that need it (faster than one at a time).

    ``is_local`` is asked about an ``#include`` whose header the database maps (a project header of
    that name is kept); with ``report_includes`` it is asked about every ``#include``, and the project
    headers found are listed in :attr:`Translation.includes`. ``line_directives`` starts each output
    with ``#line 1`` naming its file.
    """
    tables = tables or get_tables()
    scans = [find_candidates(tables, data, report_includes) for data, _ in files]
    candidates = [found for found, _ in scans]
    needs_lexing = [i for i, found in enumerate(candidates) if found or _has_spliced_word(files[i][0])]
    lexed = dict(zip(needs_lexing, lex_many([files[i][0] for i in needs_lexing]), strict=True))
    results = []
    for i, (data, path) in enumerate(files):
        cuda_free = not scans[i][1] and not any(not _needs_nothing(tables, data, m, False) for m in candidates[i])
        if i in lexed:
            translator = _FileTranslator(tables, data, path, lexed[i], is_local, report_includes)
            result = translator.run(candidates[i])._replace(cuda_free=cuda_free and not _has_spliced_word(data))
        else:
            result = Translation(path, data, data, (), Counter(), (), cuda_free)
        results.append(_with_line_directive(result, path) if line_directives else result)
    return results


def _has_spliced_word(data: bytes) -> bool:
    """Whether a line splice is inside a word: it may be a name to translate that no candidate shows."""
    return any(m.start() and data[m.start() - 1] in _WORD_BYTES for m in _SPLICES_BEFORE_WORD.finditer(data))


def find_candidates(tables: Tables, data: bytes, report_includes: bool) -> tuple[list[re.Match[bytes]], bool]:
    """The spans that may need translating or reporting (lexing decides which really do), and whether
    the file holds a CUDA name that translation keeps (:attr:`.tables.Tables.kept`).

    Without ``report_includes``, an ``#include`` of a header the database does not know needs nothing,
    so a file whose only candidates are such includes is not lexed at all.
    """
    found, kept = tables.candidates(data)
    if b"arp" in data or b"ARP" in data:
        seen = {m.start() for m in found}
        found += [m for m in tables.warp_size.finditer(data) if m.start() not in seen]
        found.sort(key=lambda m: m.start())
    return [m for m in found if not _needs_nothing(tables, data, m, report_includes)], kept


def _needs_nothing(tables: Tables, data: bytes, match: re.Match[bytes], report_includes: bool) -> bool:
    """Whether a candidate certainly needs nothing, by looking at the bytes around it (conservatively:
    where a comment could hide what comes before, it is kept for the lexer to decide)."""
    word = match.group()
    before = tables.contextual.get(word)
    if before is not None:
        return not _follows(data, match.start(), before)
    if word in _INCLUDE_DIRECTIVES and not report_includes:
        peek = _INCLUDE_PEEK.match(data, match.end())
        return peek is not None and (peek.group(1) or peek.group(2)) not in tables.headers
    return False


def _follows(data: bytes, start: int, predecessors: frozenset[bytes]) -> bool:
    """Whether ``data[start:]`` may come right after one of ``predecessors`` (``.``, ``at::``), blanks
    and line splices allowed between; a comment there could hide anything, so it answers yes."""
    i = _skip_blanks_back(data, start)
    if i is None or data.endswith(b"*/", 0, i):
        return True
    for before in predecessors:
        if before.endswith(b"::") and len(before) > 2:
            if data.endswith(b"::", 0, i):
                j = _skip_blanks_back(data, i - 2)
                if j is None or data.endswith(b"*/", 0, j) or data.endswith(before[:-2], 0, j):
                    return True
        elif data.endswith(before, 0, i):
            return True
    return False


def _skip_blanks_back(data: bytes, i: int) -> int | None:
    """The offset after the last non-blank byte before ``i``; None when a line comment may end there."""
    start = i
    while i > 0 and data[i - 1] in _BLANK:
        i -= 1
    line_start = max(data.rfind(b"\n", 0, i), data.rfind(b"\r", 0, i)) + 1
    if (b"\n" in data[i:start] or b"\r" in data[i:start]) and b"//" in data[line_start:i]:
        return None
    return i


_BOM = b"\xef\xbb\xbf"


def _with_line_directive(result: Translation, original_path: str) -> Translation:
    """``#line 1 "<original>"`` first, after a UTF-8 byte-order mark (compilers take one only there)."""
    bom = _BOM if result.text.startswith(_BOM) else b""
    body = result.text[len(bom) :]
    if body.startswith(_LINE_DIRECTIVE):
        return result
    quoted = original_path.replace("\\", "\\\\").replace('"', '\\"')
    directive = _LINE_DIRECTIVE + b'"' + quoted.encode() + b'"\n'
    return result._replace(text=bom + directive + body)


class _FileTranslator:
    def __init__(
        self, tables: Tables, data: bytes, path: str, tokens: Tokens, is_local: LocalHeaderTest, report_includes: bool
    ):
        self.tables = tables
        self.db = tables.db
        self.data = data
        self.path = path
        self.tokens = tokens
        self.is_local = is_local
        self.report_includes = report_includes
        self.edits: dict[int, tuple[int, bytes]] = {}
        self.findings: list[Finding] = []
        self.renamed: Counter[str] = Counter()
        self.includes: list[Include] = []
        self._line_starts: list[int] | None = None
        self._defined: set[bytes] | None = None
        self._foreign: list[tuple[int, int, bool]] | None = None
        self._breaks: dict[int, bool] = {}

    # -- token helpers -------------------------------------------------------------------------

    def text(self, i: int) -> bytes:
        """Token ``i`` as the compiler reads it (without line splices)."""
        spelled = self.spelling(i)
        return unspliced(spelled) if b"\\" in spelled else spelled

    def spelling(self, i: int) -> bytes:
        start = self.tokens.starts[i]
        return self.data[start : start + self.tokens.lengths[i]]

    def step(self, i: int | None, direction: int) -> int | None:
        """The index of the nearest non-comment token before (-1) or after (+1) token ``i``."""
        if i is None:
            return None
        i += direction
        while 0 <= i < len(self.tokens.kinds):
            if self.tokens.kinds[i] != TokenKind.COMMENT:
                return i
            i += direction
        return None

    def is_punct(self, i: int | None, *spellings: bytes) -> bool:
        return i is not None and self.tokens.kinds[i] == TokenKind.PUNCTUATION and self.text(i) in spellings

    def is_word(self, i: int | None, word: bytes | None = None) -> bool:
        return (
            i is not None
            and self.tokens.kinds[i] in _IDENTIFIER_KINDS
            and (word is None or self.text(i) == word)
        )

    def position(self, offset: int) -> tuple[int, int]:
        """Line and column of ``offset``; a line ends at ``\\n``, ``\\r\\n`` or ``\\r``."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(self.data)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def line_ends(self, a: int, b: int) -> bool:
        """Whether a logical line ends between tokens ``a`` < ``b``: a line break outside comments and
        line splices."""
        start, end = self.tokens.end(a), self.tokens.starts[b]
        if self.data.find(b"\n", start, end) < 0 and self.data.find(b"\r", start, end) < 0:
            return False  # no line break at all between them (most questions): no need to look at each gap
        return any(self.breaks_after(k) for k in range(a, b))

    def breaks_after(self, k: int) -> bool:
        """Whether a line break (not a line splice) lies between token ``k`` and the next (remembered)."""
        known = self._breaks.get(k)
        if known is None:
            gap = unspliced(self.data[self.tokens.end(k) : self.tokens.starts[k + 1]])
            known = self._breaks[k] = b"\n" in gap or b"\r" in gap
        return known

    def same_line(self, a: int, b: int) -> bool:
        return not self.line_ends(min(a, b), max(a, b))

    def starts_line(self, i: int) -> bool:
        """Whether token ``i`` is the first thing on its logical line, comments aside (a directive's ``#``)."""
        before = self.step(i, -1)
        return before is None or self.line_ends(before, i)

    def names_directive(self, i: int) -> bool:
        """Whether word ``i`` names a directive: it follows a ``#`` or ``%:`` that is first on its logical
        line, on the same line (``#  include``, ``#/**/if``, ``#\\<newline>define``)."""
        hash_sign = self.step(i, -1)
        if hash_sign is None or not self.is_punct(hash_sign, b"#", b"%:"):
            return False
        return self.same_line(hash_sign, i) and self.starts_line(hash_sign)

    @functools.cached_property
    def directives(self) -> list[tuple[int, int, bytes]]:
        """The preprocessor directives, as ``(index of #, index of the name, name)``."""
        found = []
        for hash_sign in _HASH.finditer(self.data):
            i = self.tokens.at(hash_sign.start())
            name = self.step(i, 1)
            if i is not None and name is not None and self.is_word(name) and self.names_directive(name):
                found.append((i, name, self.text(name)))
        return found

    def in_include_path(self, i: int) -> bool:
        """Whether token ``i`` is part of the header name of an ``#include`` line."""
        names = self.include_names
        before = bisect.bisect_left(names, i)
        return before > 0 and self.same_line(names[before - 1], i)

    @functools.cached_property
    def include_names(self) -> list[int]:
        """The indices of the ``include`` (``include_next``, ``import``) tokens of directives, in order
        (from those words, not from every directive: most are not includes)."""
        words = [i for m in _INCLUDE_WORD.finditer(self.data) if (i := self.tokens.at(m.start())) is not None
                 and self.spelling(i) == m.group()]  # fmt: skip
        words += [i for i, word in self.spliced_words if word in _INCLUDE_DIRECTIVES]
        return sorted(i for i in words if self.is_word(i) and self.names_directive(i))

    # -- edits and findings --------------------------------------------------------------------

    def replace(self, i: int, text: str | bytes) -> None:
        start = self.tokens.starts[i]
        self.replace_span(start, start + self.tokens.lengths[i], text)

    def replace_span(self, start: int, end: int, text: str | bytes) -> None:
        """Replace ``data[start:end]``; the line splices there are kept, after ``text``, so every line stays."""
        kept = b"".join(m.group() for m in ONE_SPLICE.finditer(self.data, start, end))
        self.edits[start] = (end, (text.encode() if isinstance(text, str) else text) + kept)

    def report(self, rule: str, offset: int, name: str, message: str) -> None:
        """Record a finding, unless it lies where a MUSA build never compiles (see :meth:`foreign`)."""
        if self.foreign(offset, rule == "TA1101"):
            return
        line, column = self.position(offset)
        self.findings.append(Finding(rule, self.path, line, column, name, message))

    def foreign(self, offset: int, assembly: bool) -> bool:
        """Whether ``offset`` is under a preprocessor branch for ROCm (``#ifdef USE_ROCM``, ``#if BNB_HIP``,
        ``#ifndef __HIP_PLATFORM_AMD__ … #else``), or, for assembly, for a host instruction set
        (``#ifdef __ARM_NEON``, ``__x86_64__``, ``__AVX2__``)."""
        if self._foreign is None:
            self._foreign = _foreign_branches(self)
        return any(start <= offset < end and (rocm or assembly) for start, end, rocm in self._foreign)

    def apply(self, entry: Entry, tokens: Sequence[int], musa_parts: Sequence[str] | None = None) -> None:
        """Translate ``tokens`` (the CUDA spelling of ``entry``) and report what the entry asks."""
        offset = self.tokens.starts[tokens[0]]
        if entry.status is Status.UNSUPPORTED:
            why = f": {entry.note}" if entry.note else ""
            self.report("TA1001", offset, entry.cuda, f"'{entry.cuda}' has no MUSA counterpart{why}")
            return
        if entry.renames:
            parts = musa_parts if musa_parts is not None else [entry.musa]
            for i, musa in zip(tokens, parts, strict=True):
                if self.text(i) != musa.encode():
                    self.replace(i, musa)
            self.renamed[entry.library] += 1
        if entry.status is Status.MANUAL:
            target = f" (translated to '{entry.musa}')" if entry.renames else ""
            self.report("TA1002", offset, entry.cuda, f"'{entry.cuda}' needs manual porting{target}: {entry.note}")

    # -- the rules -----------------------------------------------------------------------------

    def run(self, candidates: Sequence[re.Match[bytes]]) -> Translation:
        found = [(i, match.group()) for match in candidates if (i := self.tokens.at(match.start())) is not None]
        # Not inside a comment, a literal or a longer token; and the words with a line splice inside.
        words = [(i, w) for i, w in found if self.tokens.kinds[i] in _IDENTIFIER_KINDS and self.spelling(i) == w]
        words += self.spliced_words
        words.sort()
        includes = set(self.include_names)
        for i, word in words:
            if i in includes:
                includes.discard(i)
                self.translate_include(i)
            elif word not in _INCLUDE_DIRECTIVES and not self.in_include_path(i):  # a word of <some/path.h>
                self.translate_word(i, word.decode())
        for i in sorted(includes):  # those no candidate showed (#import, the header unknown)
            self.translate_include(i)
        text = self.splice()
        return Translation(self.path, self.data, text, tuple(self.findings), self.renamed, tuple(self.includes))

    @functools.cached_property
    def spliced_words(self) -> list[tuple[int, bytes]]:
        """The identifiers with a line splice inside that read as a candidate (``cuda\\<newline>Malloc``)."""
        found: list[tuple[int, bytes]] = []
        if not _has_spliced_word(self.data):
            return found
        for splice in SPLICES.finditer(self.data):
            i = bisect.bisect_right(self.tokens.starts, splice.start()) - 1
            if i >= 0 and self.tokens.end(i) > splice.start() and self.tokens.kinds[i] in _IDENTIFIER_KINDS:
                word = self.text(i)
                if self.tables.is_candidate(word) and (i, word) not in found:
                    found.append((i, word))
        return found

    def splice(self) -> bytes:
        out = []
        position = 0
        for start in sorted(self.edits):
            end, text = self.edits[start]
            if start < position:
                continue
            out.append(self.data[position:start])
            out.append(text)
            position = end
        out.append(self.data[position:])
        return b"".join(out)

    def translate_word(self, i: int, word: str) -> None:
        if word == "__CUDA_ARCH__":
            self.translate_arch(i)
        elif word in ASM_KEYWORDS and self.tokens.kinds[i] == TokenKind.KEYWORD and self.is_ptx(i):
            self.report(
                "TA1101",
                self.tokens.starts[i],
                word,
                f"inline assembly ('{word}') is PTX, which mcc cannot compile; replace it with a MUSA "
                "builtin or C++ (it is left unchanged, never disabled)",
            )
        elif not self.translate_qualified(i, word) and not self.translate_member(i, word):
            if not self.translate_dispatch_key(i, word):
                self.translate_plain(i, word)
        if word in WARP_INTRINSICS:
            self.check_full_mask(i, word)
        elif _WARP_SIZE_NAME.fullmatch(word.encode()):
            self.check_warp_size(i, word)

    def translate_qualified(self, i: int, word: str) -> bool:
        for parts, entry in self.tables.qualified.get(word, ()):
            qualifier = self.match_qualifier(i, parts[:-1])
            if qualifier is not None:
                self.apply(entry, [*qualifier, i], entry.musa.split("::") if entry.renames else None)
                return True
        return False

    def match_qualifier(self, i: int, qualifier: Sequence[str]) -> list[int] | None:
        """The tokens of ``a::b::`` right before token ``i``, if they spell ``qualifier``."""
        tokens: list[int] = []
        j: int | None = i
        for part in reversed(qualifier):
            colons = self.step(j, -1)
            j = self.step(colons, -1) if self.is_punct(colons, b"::") else None
            if j is None or not self.is_word(j, part.encode()):
                return None
            tokens.insert(0, j)
        return tokens

    def translate_member(self, i: int, word: str) -> bool:
        """Members (``x.is_cuda()``) translate only after ``.``/``->``; plain names never do there."""
        if not self.is_punct(self.step(i, -1), b".", b"->"):
            return False
        entry = self.tables.members.get(word)
        if entry is not None and self.after_type_call(i):
            self.report(
                "TA1002", self.tokens.starts[i], word,
                f"'x.type().{word}()' asks at::DeprecatedTypeProperties, which has no MUSA counterpart of "
                f"'{word}' (it is false for MUSA tensors); write 'x.{word}()', which is translated",
            )  # fmt: skip
        elif entry is not None:
            self.apply(entry, [i], [entry.musa.lstrip(".")] if entry.renames else None)
        return True

    def after_type_call(self, i: int) -> bool:
        """Whether member ``i`` is called on ``.type()``/``->type()``: a tensor's deprecated type properties."""
        close = self.step(self.step(i, -1), -1)
        opening = self.step(close, -1) if self.is_punct(close, b")") else None
        name = self.step(opening, -1) if self.is_punct(opening, b"(") else None
        return self.is_word(name, b"type") and self.is_punct(self.step(name, -1), b".", b"->")

    def translate_dispatch_key(self, i: int, word: str) -> bool:
        """``TORCH_LIBRARY_IMPL(ns, CUDA, m)``: the dispatch key is the macro's second argument."""
        entry = self.db.dispatch_key(word)
        if entry is None:
            return False
        comma = self.step(i, -1)
        namespace = self.step(comma, -1) if self.is_punct(comma, b",") else None
        paren = self.step(namespace, -1)
        macro = self.step(paren, -1) if self.is_punct(paren, b"(") else None
        if macro is not None and self.is_word(macro) and self.text(macro).endswith(b"TORCH_LIBRARY_IMPL"):
            self.apply(entry, [i])
            return True
        return False

    def translate_plain(self, i: int, word: str) -> None:
        entry = self.db.identifier(word)
        if entry is not None:
            self.apply(entry, [i])
        elif self.tables.unknown.fullmatch(word.encode()) and not self.defined_here(word):
            self.report(
                "TA1004",
                self.tokens.starts[i],
                word,
                f"'{word}' looks like CUDA API but is not in the mapping database; it is left unchanged",
            )

    def is_ptx(self, i: int) -> bool:
        """Whether the ``asm`` statement at ``i`` holds PTX: its first string (after ``volatile`` and
        ``(``) reads as PTX. Host assembly (x86, ARM NEON) is not; an ``asm`` whose text is not a
        literal there (a macro) is taken for PTX."""
        j = self.step(i, 1)
        while self.is_word(j, b"volatile") or self.is_word(j, b"__volatile__") or self.is_word(j, b"goto"):
            j = self.step(j, 1)
        literal = self.step(j, 1) if self.is_punct(j, b"(") else None
        if literal is None or self.tokens.kinds[literal] != TokenKind.LITERAL or self.text(literal)[:1] != b'"':
            return True
        return bool(_PTX_TEXT.search(self.text(literal)))

    def defined_here(self, word: str) -> bool:
        """Whether this file ``#define``s ``word`` itself (a project macro such as ``CUDA_CHECK``)."""
        if self._defined is None:
            self._defined = set()
            for i in range(len(self.tokens.kinds) - 2):
                if self.is_punct(i, b"#") and self.is_word(i + 1, b"define") and self.is_word(i + 2):
                    self._defined.add(self.text(i + 2))
        return word.encode() in self._defined

    def translate_include(self, i: int) -> None:
        j = self.step(i, 1)
        if j is None or not self.same_line(i, j):
            return
        kind = self.tokens.kinds[j]
        start = self.tokens.starts[j]
        if kind == TokenKind.LITERAL and self.text(j)[:1] == b'"':
            angled = False
            begin, end = start + 1, self.tokens.end(j) - 1
        elif self.is_punct(j, b"<"):
            angled = True
            k: int | None = j
            while (k := self.step(k, 1)) is not None and self.same_line(j, k) and not self.is_punct(k, b">"):
                pass
            if k is None or not self.is_punct(k, b">"):
                return
            begin, end = start + 1, self.tokens.starts[k]
        else:
            return  # #include MACRO
        spelled = unspliced(self.data[begin:end]).decode(errors="surrogateescape")
        entry = self.db.header(spelled)
        ported = self.tables.ported_libraries.get(spelled.partition("/")[0]) if "/" in spelled else None
        if ported is None and (entry is not None or self.report_includes) and self.is_local(self.path, spelled, angled):
            self.includes.append(Include(spelled, angled, self.position(start)[0]))
            return
        if entry is None:
            if ported is not None:
                library, musa_folder = ported
                self.report("TA1002", start, spelled, f"header '{spelled}' is {library}'s, and the database knows no "
                            f"counterpart in {musa_folder}/: port what uses it by hand")  # fmt: skip
            return
        if entry.status is Status.UNSUPPORTED:
            why = f": {entry.note}" if entry.note else ""
            self.report("TA1003", start, spelled, f"header '{spelled}' has no MUSA counterpart{why}")
            return
        if entry.renames:
            self.replace_span(begin, end, entry.musa)
            self.renamed[entry.library] += 1
        if entry.status is Status.MANUAL:
            self.report("TA1002", start, spelled, f"header '{spelled}' needs manual porting: {entry.note}")

    def translate_arch(self, i: int) -> None:
        """``__CUDA_ARCH__`` compared with a literal is translated by value; other uses by name only."""
        before, after = self.step(i, -1), self.step(i, 1)
        self.replace(i, "__MUSA_ARCH__")
        for operator, direction in ((after, 1), (before, -1)):
            number = self.step(operator, direction)
            if operator is not None and number is not None and self.is_punct(operator, *_COMPARISONS):
                if self.literal_value(number) is not None:
                    spelled = self.text(operator).decode()
                    self.translate_arch_comparison(i, operator, number, spelled if direction > 0 else _FLIPPED[spelled])
                    return
        if self.is_word(before, b"defined") or self.is_word(before, b"ifdef") or self.is_word(before, b"ifndef"):
            return
        if self.is_punct(before, b"(") and self.is_word(self.step(before, -1), b"defined"):
            return
        self.report(
            "TA1301",
            self.tokens.starts[i],
            "__CUDA_ARCH__",
            "__CUDA_ARCH__ is used as a number; it becomes __MUSA_ARCH__, whose values are 210/220/310 "
            "(mp_21/mp_22/mp_31), not CUDA's: review this expression",
        )

    def literal_value(self, i: int | None) -> int | None:
        if i is None or self.tokens.kinds[i] != TokenKind.LITERAL:
            return None
        match = _INTEGER.fullmatch(self.text(i))
        return int(match.group(1)) if match else None

    def translate_arch_comparison(self, arch: int, operator: int, number: int, cuda_operator: str) -> None:
        """``cuda_operator`` is the comparison read as ``__CUDA_ARCH__ <op> <number>``."""
        cuda_value = self.literal_value(number)
        assert cuda_value is not None
        result = self.tables.arch.translate_comparison(cuda_operator, cuda_value)
        musa_operator = result.operator if operator > arch else _FLIPPED[result.operator]
        if musa_operator != self.text(operator).decode():
            self.replace(operator, musa_operator)
        self.replace(number, str(result.value))
        if not result.exact:
            self.report(
                "TA1302",
                self.tokens.starts[min(arch, number)],
                "__CUDA_ARCH__",
                f"no MUSA architecture corresponds to __CUDA_ARCH__ {cuda_operator} {cuda_value}; it is "
                f"translated so that it has the same value on every known MUSA architecture",
            )

    def check_full_mask(self, i: int, word: str) -> None:
        paren = self.step(i, 1)
        mask = self.step(paren, 1) if self.is_punct(paren, b"(") else None
        if mask is not None and self.tokens.kinds[mask] == TokenKind.LITERAL and _FULL_MASK.fullmatch(self.text(mask)):
            self.report(
                "TA1201",
                self.tokens.starts[mask],
                word,
                f"'{word}' with a 32-bit full mask assumes 32-lane warps; MUSA warps are "
                f"{self.tables.arch.warp_summary()}: use warpSize-aware code",
            )

    def check_warp_size(self, i: int, word: str) -> None:
        """``#define WARP_SIZE 32``, ``constexpr int kWarpSize = 32;`` and the like."""
        value = self.step(i, 1)
        if self.is_punct(value, b"=", b"{", b"("):
            value = self.step(value, 1)
        is_define = self.is_word(self.step(i, -1), b"define")
        assigned = self.literal_value(value) == 32
        if assigned and (is_define or value != self.step(i, 1)):
            assert value is not None
            self.report(
                "TA1201",
                self.tokens.starts[value],
                word,
                f"'{word}' is 32, but MUSA warps are {self.tables.arch.warp_summary()}: use warpSize",
            )


_ROCM_MACRO = re.compile(rb"(?:\w*_)?(?:HIP|HIPCC|HIPBLAS|HIPCUB|HIPRAND|HIPSPARSE|HIPFFT|ROCM|ROCBLAS)(?:_\w*)?")
_HOST_ISA_MACRO = re.compile(rb"__(?:ARM_\w+|aarch64__|arm__|x86_64__|i386__|AVX\w*__|SSE\w*__|powerpc\w*__)|_M_(?:X64|IX86|ARM64?)")


def _condition_words(ft: _FileTranslator, i: int) -> tuple[list[bytes], list[bytes]]:
    """The words of the directive line starting at token ``i`` (after the directive name), and its
    operators."""
    words: list[bytes] = []
    operators: list[bytes] = []
    j = ft.step(i, 1)
    while j is not None and ft.same_line(i, j):
        (words if ft.is_word(j) else operators).append(ft.text(j))
        j = ft.step(j, 1)
    return words, operators


def _branch_kind(words: list[bytes], operators: list[bytes], negated: bool) -> str | None:
    """``"rocm"``/``"isa"`` when the branch is taken only for ROCm / a host instruction set, else None.

    A condition counts when it names such a macro, not negated, and has no ``||`` (nor, for a branch
    taken on the negation, ``&&``)."""
    names = [w for w in words if w != b"defined"]
    if b"||" in operators or (negated and b"&&" in operators) or not names:
        return None
    if negated != (b"!" in operators):  # `#ifndef X`, or `#if !defined(X)`, `#if !X`
        return None
    for name in names:
        if _ROCM_MACRO.fullmatch(name):
            return "rocm"
        if _HOST_ISA_MACRO.fullmatch(name):
            return "isa"
    return None


def _foreign_branches(ft: _FileTranslator) -> list[tuple[int, int, bool]]:
    """``(start, end, is_rocm)`` byte ranges of the branches :meth:`_FileTranslator.foreign` skips."""
    spans: list[tuple[int, int, bool]] = []
    stack: list[tuple[str | None, str | None, int]] = []  # (kind of the taken branch, of the #else branch, start)
    for i, name, directive in ft.directives:
        at = ft.tokens.starts[i]
        if directive in (b"if", b"ifdef", b"ifndef", b"elif", b"else", b"endif") and stack and stack[-1][0]:
            spans.append((stack[-1][2], at, stack[-1][0] == "rocm"))
        if directive in (b"if", b"ifdef", b"ifndef"):
            words, operators = _condition_words(ft, name)
            if directive == b"ifdef":
                operators = [o for o in operators if o != b"!"]
            elif directive == b"ifndef":
                operators = [*operators, b"!"]
            stack.append((_branch_kind(words, operators, False), _branch_kind(words, operators, True), at))
        elif directive == b"elif" and stack:
            words, operators = _condition_words(ft, name)
            stack[-1] = (_branch_kind(words, operators, False), None, at)
        elif directive == b"else" and stack:
            stack[-1] = (stack[-1][1], None, at)
        elif directive == b"endif" and stack:
            stack.pop()
    return spans

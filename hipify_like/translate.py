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
import collections
import functools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from .findings import Finding
from .lexer import ONE_SPLICE, SPLICES, TokenKind, Tokens, lex_many, unspliced
from .mapping import Entry, Status
from .tables import ASM_KEYWORDS, INCLUDE_DIRECTIVE, INCLUDE_WORDS, WARP_INTRINSICS, WORD_BYTES, Tables, get_tables

__all__ = ["Include", "LocalHeaderTest", "Translation", "project_macros", "translate_source", "translate_sources"]

LocalHeaderTest = Callable[[str, str, bool], bool]
"""``(including file, spelled, angled) -> bool``: whether an ``#include`` names a project header."""

_COMPARISONS = (b">=", b">", b"<", b"<=", b"==", b"!=")
_FLIPPED = {">=": "<=", ">": "<", "<": ">", "<=": ">=", "==": "==", "!=": "!="}
_INTEGER = re.compile(rb"(\d+)[uUlL]*")
_FULL_32 = 0xFFFFFFFF
_INTEGER_LITERAL = re.compile(rb"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?")
_IDENTIFIER = re.compile(rb"[A-Za-z_]\w*")
_LINE_DIRECTIVE = b"#line 1 "
_INCLUDE_PEEK = re.compile(rb'[ \t]*(?:<([^>\r\n]*)>|"([^"\r\n]*)")')
_BLANK = frozenset(b" \t\r\n\\\f\v")
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_HASH = re.compile(rb"#|%:")
_INCLUDE_WORD = re.compile(INCLUDE_DIRECTIVE)  # whole tokens: checked on the tokens
_INCLUDE_DIRECTIVES = frozenset(word.encode() for word in INCLUDE_WORDS)
_SPLICES_BEFORE_WORD = re.compile(SPLICES.pattern + rb"\w")
_IDENTIFIER_KINDS = (TokenKind.IDENTIFIER, TokenKind.KEYWORD)
_PTX_OPCODES = (
    "mov ld st cvt cvta add sub mul mad fma div rem abs neg min max and or xor not shl shr shf shfl bar barrier "
    "atom red mma wmma wgmma ldmatrix stmatrix cp prmt lop3 setp set selp slct bfe bfi brev popc clz bfind vote "
    "match activemask membar fence rcp sqrt rsqrt ex2 lg2 sin cos tanh copysign testp prefetch prefetchu "
    "isspacep mbarrier redux dp4a dp2a elect griddepcontrol tcgen05 mapa getctarank multimem nanosleep sad "
    "mul24 mad24 addc subc madc cnot szext bmsk discard applypriority createpolicy tensormap setmaxnreg "
    "vadd vsub vabsdiff vmin vmax vshl vshr vmad vset vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 "
    "vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 vset4 suld sust sured suq tex tld4 txq ldu istypep"
).split()
_PTX_TEXT = re.compile(
    rb"(?:^|[\s;{}@!]|\\[nt])(?:" + b"|".join(o.encode() for o in _PTX_OPCODES) + rb")\.[a-z0-9]"
    rb"|(?:^|[\s;{}])(?:trap|exit|brkpt|ret)\s*;|\.reg\b"
    rb"|%%?(?:laneid|warpid|smid|nsmid|clock(?:64)?|globaltimer|lanemask_\w+|n?tid|n?ctaid|\w+_smem_size)"
)
"""PTX in an ``asm`` template: an instruction with a ``.`` qualifier (``mov.u32``, ``vmax.s32.s32.s32``),
one without (``trap;``), a ``.reg`` declaration or a special register; ARM's ``vld1.32`` and x86's
``movl`` are not."""
_HOST_ASSEMBLY = re.compile(
    rb"%%?(?:[re]?(?:[abcd]x|[sd]i|[sb]p)|[xyz]mm\d+|[abcd][lh])\b"
    rb"|\b(?:cpuid|rdtscp?|pause|lock|xchg[bwlq]?|cmpxchg\w*|[lsm]fence|int3|hlt|xgetbv|rdrand|rdseed"
    rb"|bswap[lq]?|popcnt[wlq]?|[lt]zcnt[wlq]?|bs[fr][wlq]?|crc32[bwlq]?"
    rb"|(?:mov|add|sub|and|or|xor|push|pop|lea|cmp)[bwlq]"
    rb"|dmb|dsb|isb|yield|wfe|wfi|sevl?|mrs|msr|ldaxr\w*|ldxr\w*|stl?xr\w*|prfm|fmla|vld\d|vst\d|ld\d|st\d)\b"
)
"""Host assembly in an ``asm`` template: x86 registers and instructions (``%%eax``, ``cpuid``, ``movl``, ``bswap``),
ARM barriers, exclusives and NEON (``dmb``, ``ldaxr``, ``vld1``, ``fmla``)."""
_ASM_QUALIFIERS = frozenset({b"volatile", b"__volatile__", b"goto", b"inline", b"__inline__"})
_THREAD_INDEX_NAME = re.compile(rb"(?:\w*_)?(?:lane|laneId|tid|tidx|thread_?[iI]d[x]?|thread_?[iI]dx)(?:_?[iI]d[x]?)?")
"""Names of a thread's or lane's index (``tid``, ``lane_id``, ``threadId``), in lane arithmetic."""
_WARP_SIZE_LOG = re.compile(r"(?i)log|bits|shift")
"""A warp-size name that holds its logarithm (``WARP_SIZE_BITS``, ``kLog2WarpSize``)."""
_LANE_TARGET = re.compile(rb"(?i)(?:\w*_)?(?:lane|warp|wid)(?:_?(?:id|idx|index|num))?")
"""Names of a lane or warp index being initialised (``lane``, ``lane_id``, ``warp_id``, ``wid``)."""
_THREAD_INDEX_INITIALISER = (
    rb"\s*(?:=|\(|\{)\s*(?:\(\s*(?:unsigned\s+)?int\s*\)\s*|static_cast\s*<\s*(?:unsigned\s+)?int\s*>\s*\(\s*)?"
    rb"threadIdx\s*\.\s*[xyz]\b"
)
"""What follows a name initialised with a thread index: ``= threadIdx.x``, ``(static_cast<int>(threadIdx.x)``."""
_LANE_ARITHMETIC = re.compile(rb"(%|&|>>|/)\s*(3[12]|0[xX]1[fF]|5)\b")
"""``% 32``, ``& 31``, ``>> 5``, ``/ 32``: a lane or a warp index, for 32-lane warps (the operator and its
operand in :data:`_LANE_OPERANDS`; one expression with a common start is 12 times faster to search)."""
_LANE_OPERANDS = {b"%": {b"32"}, b"&": {b"31", b"0x1f", b"0x1F", b"0X1f", b"0X1F"}, b">>": {b"5"}, b"/": {b"32"}}
_FULL_MASK_NAME = re.compile(rb"(?i)\w*(?:full|final|all)_?(?:warp_?|lanes?_?)?mask\w*")
"""Names of a project's full warp mask (``FULL_MASK``, ``FINAL_MASK``, ``kFullMask``) whose value is not in
the file."""
_CAST_TYPE_WORDS = frozenset(
    {b"unsigned", b"signed", b"int", b"long", b"const", b"uint32_t", b"int32_t", b"uint64_t", b"int64_t", b"uint", b"unsigned_int"}
)
_MACRO_DEFINITION = re.compile(rb"#[ \t]*define[ \t]+(\w+)")
_TYPE_DEFINITION = re.compile(rb"\b(?:struct|class|union|enum|using|namespace)\s+(?:(?:class|struct)\s+)?(\w+)")
"""Where a file may define a name of its own: a macro, a type (or namespace); each is checked on the
tokens (:meth:`_FileTranslator.definitions`). Two expressions search faster than their alternation."""
_FUNCTION_QUALIFIERS = frozenset({b"const", b"noexcept", b"override", b"final"})
_NOT_A_TYPE = frozenset(
    {b"return", b"else", b"do", b"case", b"goto", b"throw", b"new", b"delete", b"sizeof", b"co_return", b"co_yield",
     b"co_await", b"typename", b"template", b"if", b"while", b"for", b"switch"}
)  # fmt: skip
_NOT_BEFORE_VARIABLE = frozenset({b"struct", b"class", b"union", b"enum", b"namespace", b"using", b"operator"})
"""Words after which a name is not a variable's (``using namespace nvcuda;``, ``struct cudaFoo;``)."""
_PROJECT_MACRO = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)


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
    project_names: frozenset[str] = frozenset(),
) -> Translation:
    """Translate one file. ``line_directive`` (a path) makes the output start with ``#line 1 "path"``."""
    result = translate_sources(
        [(data, path)], is_local=is_local, report_includes=report_includes, tables=tables, project_names=project_names
    )[0]
    return result if line_directive is None else _with_line_directive(result, line_directive)


def translate_sources(
    files: Sequence[tuple[bytes, str]],
    *,
    is_local: LocalHeaderTest = _never_local,
    report_includes: bool = False,
    line_directives: bool = False,
    tables: Tables | None = None,
    project_names: frozenset[str] = frozenset(),
) -> list[Translation]:
    """Translate several files, lexing together those that need it (faster than one at a time).

    ``is_local`` is asked about an ``#include`` whose header the database maps (a project header of
    that name is kept); with ``report_includes`` it is asked about every ``#include``, and the project
    headers found are listed in :attr:`Translation.includes`. ``line_directives`` starts each output
    with ``#line 1`` naming its file. ``project_names`` are the project's own names (its macros,
    :func:`project_macros`), kept even where the database would translate them.
    """
    tables = tables or get_tables()
    scans = [find_candidates(tables, data, report_includes) for data, _ in files]
    candidates = [found for found, _ in scans]
    needs_lexing = [i for i, found in enumerate(candidates) if found or _has_spliced_word(files[i][0])
                    or (b"threadIdx" in files[i][0] and _LANE_ARITHMETIC.search(files[i][0]))]  # fmt: skip
    lexed = dict(zip(needs_lexing, lex_many([files[i][0] for i in needs_lexing]), strict=True))
    results = []
    for i, (data, path) in enumerate(files):
        cuda_free = not scans[i][1] and not any(not _needs_nothing(tables, data, m, False) for m in candidates[i])
        if i in lexed:
            translator = _FileTranslator(tables, data, path, lexed[i], is_local, report_includes, project_names)
            result = translator.run(candidates[i])._replace(cuda_free=cuda_free and not _has_spliced_word(data))
        else:
            result = Translation(path, data, data, (), Counter(), (), cuda_free)
        results.append(_with_line_directive(result, path) if line_directives else result)
    return results


def project_macros(datas: Iterable[bytes], tables: Tables | None = None) -> frozenset[str]:
    """The CUDA-looking names (of the database, or with a CUDA prefix) that a project's files ``#define``
    themselves (its own ``CUDA_KERNEL_LOOP``, ``cudaCheckError``): every file of the project keeps them
    as they are, unreported."""
    tables = tables or get_tables()
    names = {m.group(1) for data in datas if b"define" in data for m in _PROJECT_MACRO.finditer(data)}
    return frozenset(name.decode() for name in names if tables.is_candidate(name))


def _has_spliced_word(data: bytes) -> bool:
    """Whether a line splice is inside a word: it may be a name to translate that no candidate shows."""
    return any(m.start() and data[m.start() - 1] in WORD_BYTES for m in _SPLICES_BEFORE_WORD.finditer(data))


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


def _integer(text: bytes) -> int | None:
    """An integer literal's value (``0xFFFFFFFFu``, ``4294967295``, ``0b1``, ``1'000``, ``017``)."""
    match = _INTEGER_LITERAL.fullmatch(text)
    if match is None:
        return None
    digits = match.group(1).replace(b"'", b"").decode()
    if digits[:2].lower() in ("0x", "0b"):
        return int(digits, 0)
    return int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits)


def _with_line_directive(result: Translation, original_path: str) -> Translation:
    """``#line 1 "<original>"`` first, after a UTF-8 byte-order mark (compilers take one only there)."""
    bom = _BOM if result.text.startswith(_BOM) else b""
    body = result.text[len(bom) :]
    if body.startswith(_LINE_DIRECTIVE):
        return result
    quoted = original_path.replace("\\", "\\\\").replace('"', '\\"')
    directive = _LINE_DIRECTIVE + b'"' + os.fsencode(quoted) + b'"\n'
    return result._replace(text=bom + directive + body)


class _FileTranslator:
    def __init__(
        self,
        tables: Tables,
        data: bytes,
        path: str,
        tokens: Tokens,
        is_local: LocalHeaderTest,
        report_includes: bool,
        project_names: frozenset[str],
    ):
        self.tables = tables
        self.db = tables.db
        self.data = data
        self.path = path
        self.tokens = tokens
        self.is_local = is_local
        self.report_includes = report_includes
        self.project_names = project_names
        self.edits: dict[int, tuple[int, bytes]] = {}
        self.findings: list[Finding] = []
        self.renamed: Counter[str] = Counter()
        self.includes: list[Include] = []
        self._line_starts: list[int] | None = None
        self._own: dict[str, bool] = {}
        self.occurrences: dict[bytes, list[int]] = collections.defaultdict(list)
        """Where each candidate word is, as tokens (:meth:`run` fills it)."""
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
        ``#ifndef __HIP_PLATFORM_AMD__ … #else``) or another operating system than Linux (``#ifdef _MSC_VER``,
        ``_WIN32``, ``__APPLE__``), or, for assembly, for a host instruction set (``#ifdef __ARM_NEON``,
        ``__x86_64__``, ``__AVX2__``)."""
        if self._foreign is None:
            self._foreign = _foreign_branches(self)
        return any(start <= offset < end and (every or assembly) for start, end, every in self._foreign)

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
        for i, word in words:
            self.occurrences[word].append(i)
        includes = set(self.include_names)
        for i, word in words:
            if i in includes:
                includes.discard(i)
                self.translate_include(i)
            elif word not in _INCLUDE_DIRECTIVES and not self.in_include_path(i):  # a word of <some/path.h>
                self.translate_word(i, word.decode())
        for i in sorted(includes):  # those no candidate showed (#import, the header unknown)
            self.translate_include(i)
        if _LANE_ARITHMETIC.search(self.data):
            self.check_lane_arithmetic(any(word.decode() in WARP_INTRINSICS for _, word in words))
        text = self.splice()
        findings = tuple(sorted(self.findings, key=lambda f: (f.line, f.column)))
        return Translation(self.path, self.data, text, findings, self.renamed, tuple(self.includes))

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
        elif self.tables.warp_size.fullmatch(word.encode()):
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
        """A name of the database is translated, and a CUDA-looking name it does not know is reported, unless
        the project defines it (its own ``CUDA_KERNEL_LOOP``) or the file declares it as a variable or member
        (``const float* texture = …``, ``int cudaDeviceIdx;``): those are the project's names."""
        if self.is_own(word):
            return
        entry = self.db.identifier(word)
        if entry is not None:
            self.apply(entry, [i])
        elif self.tables.unknown.fullmatch(word.encode()):
            self.report(
                "TA1004",
                self.tokens.starts[i],
                word,
                f"'{word}' looks like CUDA API but is not in the mapping database; it is left unchanged",
            )

    def is_ptx(self, i: int) -> bool:
        """Whether the ``asm`` statement at ``i`` is device assembly (PTX): its template (every string
        literal before the first ``:`` or ``)``) reads as PTX, or as anything but host assembly (x86, ARM);
        an empty template (a compiler barrier) is not, nor MSVC's block (``__asm { cpuid }``, x86 alone);
        a template that is not literals alone (a macro) is taken for PTX."""
        j = self.step(i, 1)
        while self.is_word(j) and self.text(j) in _ASM_QUALIFIERS:  # type: ignore[arg-type]
            j = self.step(j, 1)
        if self.is_punct(j, b"{"):
            return False
        if not self.is_punct(j, b"("):
            return True
        parts = []
        k = self.step(j, 1)
        while k is not None and self.tokens.kinds[k] == TokenKind.LITERAL and self.text(k).endswith(b'"'):
            literal = self.text(k)
            parts.append(literal[literal.index(b'"') + 1 : -1])
            k = self.step(k, 1)
        if not parts or not self.is_punct(k, b":", b"::", b")"):
            return True
        template = b" ".join(parts)
        if _PTX_TEXT.search(template):
            return True
        return not _HOST_ASSEMBLY.search(template) and template.replace(b"\\n", b"").replace(b"\\t", b"").strip() != b""

    def is_own(self, word: str) -> bool:
        """Whether ``word`` is the project's own name here (:meth:`defined_here`, :meth:`declared_here`)."""
        known = self._own.get(word)
        if known is None:
            known = self._own[word] = self.defined_here(word) or self.declared_here(word)
        return known

    def defined_here(self, word: str) -> bool:
        """Whether the project defines ``word`` itself: a macro, type or function of this file, or a macro
        of the project's other files (``project_names``), such as its own ``CUDA_KERNEL_LOOP``."""
        spelled = word.encode()
        return word in self.project_names or spelled in self.definitions or self.defines_function(spelled)

    @functools.cached_property
    def definitions(self) -> frozenset[bytes]:
        """The macros (``#define CUDA_CHECK``), types and namespaces (``struct cudaFoo``, ``using cudaBar =``)
        this file defines."""
        found = set()
        for match in _MACRO_DEFINITION.finditer(self.data):
            i = self.tokens.at(match.start(1))
            if i is not None and self.spelling(i) == match.group(1) and self.names_directive(self.step(i, -1)):  # type: ignore[arg-type]
                found.add(match.group(1))
        for match in _TYPE_DEFINITION.finditer(self.data):
            i = self.tokens.at(match.start(1))
            if i is not None and self.is_word(i) and self.spelling(i) == match.group(1):
                found.add(match.group(1))
        return frozenset(found)

    def defines_function(self, word: bytes) -> bool:
        """Whether this file defines a function ``word`` with a body (``__device__ float16 __shfl(…) {``)."""
        return any(self.declares(i) and self.has_body(i) for i in self.occurrences[word])

    def has_body(self, name: int) -> bool:
        """Whether the parameter list after word ``name`` is followed by a function body."""
        i = self.step(self.matching_paren(self.step(name, 1)), 1)
        while self.is_word(i) and self.text(i) in _FUNCTION_QUALIFIERS:  # type: ignore[arg-type]
            i = self.step(i, 1)
        return self.is_punct(i, b"{")

    def matching_paren(self, i: int | None) -> int | None:
        """The parenthesis that the one at ``i`` opens or closes, within one statement (else None)."""
        if not self.is_punct(i, b"(", b")"):
            return None
        direction = 1 if self.is_punct(i, b"(") else -1
        depth = 0
        while i is not None:
            if self.is_punct(i, b"(", b")"):
                depth += direction if self.is_punct(i, b"(") else -direction
                if depth == 0:
                    return i
            elif self.is_punct(i, b";", b"{", b"}"):
                return None
            i = self.step(i, direction)
        return None

    def declares(self, i: int, qualified: bool = True) -> bool:
        """Whether word ``i`` follows a type: a word other than a statement keyword, ``>``, a ``*``/``&``
        after one, or (``qualified``) ``::``/``~`` — a declaration's name, not a call's or a use's."""
        before = self.step(i, -1)
        while self.is_punct(before, b"*", b"&", b"&&") or self.is_word(before, b"const"):
            before = self.step(before, -1)
            if not (self.is_word(before) or self.is_punct(before, b"*", b"&", b"&&", b">")):
                return False
        if before is None:
            return False
        if self.is_word(before):
            return self.text(before) not in _NOT_A_TYPE
        return self.is_punct(before, b">") or (qualified and self.is_punct(before, b"::", b"~"))

    def declared_here(self, word: str) -> bool:
        """Whether this file declares ``word`` as a variable, parameter or member somewhere."""
        return any(self.declares_variable(i) for i in self.occurrences[word.encode()])

    def declares_variable(self, i: int) -> bool:
        """Whether word ``i`` is the name a declaration introduces, on one line outside directives: it follows
        a type (not ``struct``, ``namespace``: :data:`_NOT_BEFORE_VARIABLE`) and is followed by ``=``, ``;``,
        ``[``, ``,``, ``)`` or ``{`` (``int cudaDeviceIdx;``, ``const float* texture = …``, ``float texture[3]``)."""
        before, after = self.step(i, -1), self.step(i, 1)
        if before is None or after is None or not self.same_line(before, after):
            return False
        if not self.is_punct(after, b"=", b";", b"[", b",", b")", b"{") or self.text(before) in _NOT_BEFORE_VARIABLE:
            return False
        if not self.declares(i, False):
            return False
        first = i
        while not self.starts_line(first):
            first = self.step(first, -1)  # type: ignore[assignment]
        return not self.is_punct(first, b"#", b"%:")

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
            f"__CUDA_ARCH__ is used as a number; it becomes __MUSA_ARCH__, whose values are "
            f"{self.tables.arch.tier_values()}, not CUDA's: review this expression",
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
        """A warp intrinsic whose mask is 0xffffffff however it is spelled (``~0u``, ``-1``,
        ``(unsigned)-1``, a macro or constant of the file, a project's ``FULL_MASK``)."""
        paren = self.step(i, 1)
        if not self.is_punct(paren, b"("):
            return
        assert paren is not None
        mask = self.argument(paren)
        if mask and self.constant(mask) == _FULL_32:
            spelled = self.source_text(mask[0], mask[-1])
            self.report(
                "TA1201",
                self.tokens.starts[mask[0]],
                word,
                f"'{word}' with the full mask '{spelled}' assumes 32-lane warps; MUSA warps are "
                f"{self.tables.arch.warp_summary()}: use warpSize-aware code",
            )

    def source_text(self, first: int, last: int) -> str:
        """Tokens ``first`` to ``last`` as written, each run of blanks one space (for a message)."""
        text = unspliced(self.data[self.tokens.starts[first] : self.tokens.end(last)])
        return " ".join(text.decode(errors="replace").split())

    def argument(self, paren: int) -> list[int]:
        """The tokens of the first argument of the call whose ``(`` is token ``paren`` (none past 64)."""
        tokens: list[int] = []
        depth = 0
        k = self.step(paren, 1)
        while k is not None and len(tokens) < 64:
            if self.is_punct(k, b"(", b"[", b"{"):
                depth += 1
            elif self.is_punct(k, b")", b"]", b"}") or (depth == 0 and self.is_punct(k, b",")):
                if depth == 0:
                    return tokens
                depth -= 1
            tokens.append(k)
            k = self.step(k, 1)
        return []

    def constant(self, tokens: Sequence[int], depth: int = 0) -> int | None:
        """The value, modulo 2**32, of a constant expression of integer literals, unary ``~``/``-``/``+``,
        parentheses, casts to integer types and names this file gives a value (a macro, an initialised
        variable); a name it does not is 0xffffffff when it is named like a full mask."""
        texts = [self.text(k) for k in tokens]
        position = 0

        def unary() -> int | None:
            nonlocal position
            if position >= len(texts):
                return None
            text = texts[position]
            position += 1
            if text in (b"~", b"-", b"+"):
                value = unary()
                return None if value is None else {b"~": ~value, b"-": -value, b"+": value}[text]
            if text == b"static_cast" and texts[position : position + 1] == [b"<"]:
                end = texts.index(b">", position) if b">" in texts[position:] else -1
                if end < 0 or not set(texts[position + 1 : end]) <= _CAST_TYPE_WORDS:
                    return None
                position = end + 1
                return unary()
            if text == b"(":
                close = position
                while close < len(texts) and texts[close] in _CAST_TYPE_WORDS:
                    close += 1
                if close > position and texts[close : close + 1] == [b")"]:  # (unsigned)-1
                    position = close + 1
                    return unary()
                value = unary()
                if value is None or texts[position : position + 1] != [b")"]:
                    return None
                position += 1
                return value
            if text in _CAST_TYPE_WORDS and texts[position : position + 1] == [b"("]:  # uint32_t(-1)
                return unary()
            number = _integer(text)
            if number is not None:
                return number
            if _IDENTIFIER.fullmatch(text) and position == len(texts):
                return self.value_of(text, depth)
            return None

        value = unary()
        return None if value is None or position != len(texts) else value & _FULL_32

    def value_of(self, name: bytes, depth: int) -> int | None:
        """The value this file gives ``name`` (``#define FULL_MASK 0xffffffff``, ``const unsigned
        mask = ~0u;``), or 0xffffffff for an unknown name spelled like a full mask."""
        if depth < 8:
            for match in re.finditer(rb"\b" + re.escape(name) + rb"\b", self.data):
                i = self.tokens.at(match.start())
                if i is None or self.spelling(i) != name or not self.is_word(i):
                    continue
                after = self.step(i, 1)
                if self.is_word(self.step(i, -1), b"define") and self.names_directive(self.step(i, -1)):  # type: ignore[arg-type]
                    if after is not None and self.tokens.starts[after] == self.tokens.end(i) and self.is_punct(after, b"("):
                        continue  # a function-like macro
                    value = []
                    while after is not None and self.same_line(i, after):
                        value.append(after)
                        after = self.step(after, 1)
                elif self.is_punct(after, b"="):
                    value = []
                    after = self.step(after, 1)
                    while after is not None and not self.is_punct(after, b";", b",", b")"):
                        value.append(after)
                        after = self.step(after, 1)
                else:
                    continue
                return self.constant(value, depth + 1) if value else None
        return _FULL_32 if _FULL_MASK_NAME.fullmatch(name) else None

    def check_lane_arithmetic(self, shuffles: bool) -> None:
        """``threadIdx.x % 32``, ``threadIdx.x & 31``, ``threadIdx.x >> 5``, ``threadIdx.x / 32`` (a lane or
        warp index for 32-lane warps); the same on a name like ``tid`` or ``lane_id`` in a file that
        shuffles (``shuffles``)."""
        for match in _LANE_ARITHMETIC.finditer(self.data):
            operator = self.tokens.at(match.start())
            if operator is None or match.group(2) not in _LANE_OPERANDS[match.group(1)] \
                    or not self.is_punct(operator, match.group(1)):
                continue
            left = self.step(operator, -1)
            named = self.is_word(left) and _THREAD_INDEX_NAME.fullmatch(self.text(left))  # type: ignore[arg-type]
            if self.is_thread_index(left) or (shuffles and named) or self.makes_lane(left):
                spelled = " ".join(match.group().decode().split())
                self.report(
                    "TA1201",
                    self.tokens.starts[operator],
                    spelled,
                    f"'{spelled}' on a thread index makes a lane or warp index for 32-lane warps; MUSA warps "
                    f"are {self.tables.arch.warp_summary()}: use warpSize",
                )

    def makes_lane(self, i: int | None) -> bool:
        """Whether word ``i`` starts the initialiser of a lane or warp index (``lane = tid & 0x1f``,
        ``wid(t >> 5)``)."""
        before = self.step(i, -1)
        target = self.step(before, -1)
        return self.is_word(i) and self.is_punct(before, b"=", b"(", b"{") and self.is_word(target) \
            and bool(_LANE_TARGET.fullmatch(self.text(target)))  # type: ignore[arg-type]

    def is_thread_index(self, i: int | None) -> bool:
        """Whether token ``i`` ends ``threadIdx.x`` (``.y``, ``.z``), a parenthesised expression of it, or
        a name this file initialises with it (``int tid = threadIdx.x;``)."""
        if self.is_word(i) and self.text(i) not in (b"x", b"y", b"z"):  # type: ignore[arg-type]
            alias = re.escape(self.text(i))  # type: ignore[arg-type]
            return re.search(rb"\b" + alias + _THREAD_INDEX_INITIALISER, self.data) is not None
        if self.is_punct(i, b")"):
            opening = self.matching_paren(i)
            return opening is not None and any(self.is_word(k, b"threadIdx") for k in range(opening, i))  # type: ignore[arg-type]
        dot = self.step(i, -1)
        return (
            self.is_word(i)
            and self.text(i) in (b"x", b"y", b"z")  # type: ignore[arg-type]
            and self.is_punct(dot, b".")
            and self.is_word(self.step(dot, -1), b"threadIdx")
        )

    def check_warp_size(self, i: int, word: str) -> None:
        """``#define WARP_SIZE 32``, ``constexpr int kWarpSize = 32;`` and the like, and its logarithm
        (``#define WARP_SIZE_BITS 5``, ``kLog2WarpSize = 5``)."""
        value = self.step(i, 1)
        if self.is_punct(value, b"=", b"{", b"("):
            value = self.step(value, 1)
        is_define = self.is_word(self.step(i, -1), b"define")
        logarithm = _WARP_SIZE_LOG.search(word) is not None
        assigned = self.literal_value(value) == (5 if logarithm else 32)
        if assigned and (is_define or value != self.step(i, 1)):
            assert value is not None
            meaning = "log2 of 32" if logarithm else "32"
            self.report(
                "TA1201",
                self.tokens.starts[value],
                word,
                f"'{word}' is {meaning}, but MUSA warps are {self.tables.arch.warp_summary()}: use warpSize",
            )


_ROCM_MACRO = re.compile(rb"(?:\w*_)?(?:HIP|HIPCC|HIPBLAS|HIPCUB|HIPRAND|HIPSPARSE|HIPFFT|ROCM|ROCBLAS)(?:_\w*)?")
_OTHER_OS_MACRO = re.compile(rb"_WIN32|_WIN64|_MSC_VER|__MINGW(?:32|64)__|__CYGWIN__|__APPLE__|__MACH__")
"""Macros of Windows and macOS compilers: MUSA's SDK and torch_musa are for Linux alone (MUSAExtension
looks for mcc with ``which`` and links ``lib64`` on every platform, where torch's cpp_extension has Windows
branches), so mcc never compiles a branch only they take."""
_HOST_ISA_MACRO = re.compile(
    rb"__(?:ARM_\w+|aarch64__|arm__|x86_64__|i386__|AVX\w*__|SSE\w*__|powerpc\w*__|POWER\d+_VECTOR__|ALTIVEC__|VSX__"
    rb"|s390x__|riscv\w*|loongarch\w*|wasm\w*)|_M_(?:X64|IX86|ARM64?)"
)
"""Macros of a host instruction set (x86, ARM, POWER, s390x, RISC-V, LoongArch, WebAssembly): llama.cpp's
``ggml-impl.h`` keeps POWER9 assembly under ``#elif defined(__POWER9_VECTOR__)``."""


def _condition_terms(ft: _FileTranslator, i: int) -> tuple[list[tuple[bytes, bool]], bool] | None:
    """The macros the ``#if``/``#elif`` condition starting at token ``i`` (after the directive name) tests,
    each with whether it is negated (``!defined(X)``, ``!X``), and whether they are joined by ``||``;
    None where the terms cannot say (a negated parenthesis, ``&&`` beside ``||``)."""
    terms: list[tuple[bytes, bool]] = []
    joins: set[bytes] = set()
    negated = testing = False  # testing: after `defined`, whose parenthesis is not a group
    j = ft.step(i, 1)
    while j is not None and ft.same_line(i, j):
        word = ft.text(j)
        if word == b"!":
            negated = not negated
        elif word in (b"&&", b"||"):
            joins.add(word)
        elif word == b"(" and negated and not testing:
            return None
        elif word == b"defined":
            testing = True
        elif ft.is_word(j):
            terms.append((word, negated))
            negated = testing = False
        j = ft.step(j, 1)
    if len(joins) > 1:
        return None
    return terms, b"||" in joins


def _branch_kind(terms: list[tuple[bytes, bool]], disjunction: bool, negated: bool) -> str | None:
    """``"platform"``/``"isa"`` when the branch is taken only for ROCm or an operating system other than
    Linux / for a host instruction set, else None.

    A branch taken on the condition counts when the condition is one term or a conjunction
    (``defined(__x86_64__) && !defined(__APPLE__)``) with such a macro not negated; a branch taken on its
    negation (``#else``), when the condition is one term or a disjunction with such a macro negated."""
    if len(terms) > 1 and disjunction != negated:
        return None
    deciding = [name for name, negative in terms if negative == negated]
    if any(_ROCM_MACRO.fullmatch(name) or _OTHER_OS_MACRO.fullmatch(name) for name in deciding):
        return "platform"
    if any(_HOST_ISA_MACRO.fullmatch(name) for name in deciding):
        return "isa"
    return None


def _foreign_branches(ft: _FileTranslator) -> list[tuple[int, int, bool]]:
    """``(start, end, every_finding)`` byte ranges of the branches :meth:`_FileTranslator.foreign` skips:
    every finding under a ROCm or another operating system's branch, assembly under a host instruction set's."""
    spans: list[tuple[int, int, bool]] = []
    stack: list[tuple[str | None, str | None, int]] = []  # (kind of the taken branch, of the #else branch, start)
    for i, name, directive in ft.directives:
        at = ft.tokens.starts[i]
        if directive in (b"if", b"ifdef", b"ifndef", b"elif", b"else", b"endif") and stack and stack[-1][0]:
            spans.append((stack[-1][2], at, stack[-1][0] == "platform"))
        if directive in (b"if", b"ifdef", b"ifndef"):
            condition = _condition_terms(ft, name)
            if condition is not None and directive != b"if":
                condition = ([(word, directive == b"ifndef") for word, _ in condition[0]], False)
            kinds = (None, None) if condition is None else (_branch_kind(*condition, False), _branch_kind(*condition, True))
            stack.append((*kinds, at))
        elif directive == b"elif" and stack:
            condition = _condition_terms(ft, name)
            stack[-1] = (None if condition is None else _branch_kind(*condition, False), None, at)
        elif directive == b"else" and stack:
            stack[-1] = (stack[-1][1], None, at)
        elif directive == b"endif" and stack:
            stack.pop()
    return spans

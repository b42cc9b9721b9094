"""The translator's lookup tables, derived from the mapping database.

The translator lexes a file only when it has a candidate: a whole word (a maximal run of word
characters) that can matter. A file's distinct words are intersected with a set of names, so building
the tables compiles no expression over the database (which costs a fifth of a second in every new
process); the candidates' spans come from a small expression of the words found. Candidates are:

* every CUDA identifier the database renames or reports;
* the last word of each qualified (``at::cuda``) and member (``.is_cuda``) entry, and dispatch keys;
* the words the engine's own rules look at (``include``, ``__CUDA_ARCH__``, ``asm``, the warp
  intrinsics, ``WARP_SIZE``-like names);
* CUDA-looking prefixes (``cudaX``, ``cuX``, ``cublasX`` …) so that names the database does not know
  are reported rather than passed over in silence.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from typing import NamedTuple

from .arch import ArchTable, build_arch_table
from .mapping import IDENTIFIER, Entry, Kind, MappingDB, Status, load_db

__all__ = [
    "ASM_KEYWORDS",
    "INCLUDE_WORDS",
    "Tables",
    "INCLUDE_DIRECTIVE",
    "WARP_INTRINSICS",
    "WORD_BYTES",
    "get_tables",
]

INCLUDE_WORDS = frozenset({"include", "include_next", "import"})
"""The directives that include a header (GCC and clang take ``#import``, including the header once)."""
INCLUDE_DIRECTIVE = "|".join(sorted(INCLUDE_WORDS, key=len, reverse=True)).encode()
"""A regular expression of :data:`INCLUDE_WORDS` (the longest first: ``include_next`` before ``include``)."""
ARCH_MACRO = "__CUDA_ARCH__"
ASM_KEYWORDS = frozenset({"asm", "__asm__", "__asm"})
WARP_INTRINSICS = frozenset(
    {
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__any_sync",
        "__all_sync",
        "__uni_sync",
        "__match_any_sync",
        "__match_all_sync",
        "__activemask",
        "__syncwarp",
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
    }
)
WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
"""The bytes of an identifier (``\\w`` in ASCII)."""
_NON_WORD_TO_SPACE = bytes(c if c in WORD_BYTES else 0x20 for c in range(256))
"""``bytes.translate`` table: every byte that is not a letter, digit or underscore (ASCII) becomes a space."""
_ENGINE_WORDS = INCLUDE_WORDS | ASM_KEYWORDS | WARP_INTRINSICS | {ARCH_MACRO}

_LIBRARY_PREFIXES = ("cuda", "cublas", "curand", "cusparse", "cusolver", "cufft", "cudnn", "nccl")

# Prefixes of names that look like CUDA API but that the database may not know (reported as TA1004).
# A library's API is camel case after its prefix (cublasSgemm, cudnnCreate), so a project's own
# cublas_status or the cudnn_frontend namespace is not taken for it. The driver API's style (cuMemAlloc,
# CUstream) is that of many projects' own names too (cuWelfordOnlineSum): every driver name of the CUDA
# inventory has a database row (a test checks it), so such a name is never reported.
_SPELLED_PREFIXES = (
    "__nv_",
    *(f"{p}_" for p in ("CU", "CUBLAS", "CURAND", "CUSPARSE", "CUSOLVER", "CUFFT", "CUDNN", "NCCL")),
    "CUDA_R_", "CUDA_C_", "CUDA_ERROR_",
)  # fmt: skip
UNKNOWN_PREFIXES = frozenset(
    {*_SPELLED_PREFIXES, *(f"{p}{c}" for p in _LIBRARY_PREFIXES for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
)
_ANY_UNKNOWN_PREFIX = (
    "(?=" + "|".join(sorted({p[:2] for p in UNKNOWN_PREFIXES})) + ")"  # the first two bytes fail most words at once
    "(?:" + "|".join(_SPELLED_PREFIXES) + "|(?:" + "|".join(_LIBRARY_PREFIXES) + ")[A-Z])"
).encode()
"""One of :data:`UNKNOWN_PREFIXES`, spelled so that it compiles in a fifth of the time of their list and
matches faster."""
_CUDA_STYLE = ("cu", "__cu", "nccl", "__nv")
"""How the names of CUDA's own libraries start, in lower case (``CUDA_VERSION``, ``cudaStream_t``)."""
DRIVER_STYLE = re.compile(r"(?:CU[a-z]|cu[A-Z][a-z])\w*")
WARP_SIZE_PATTERN = rb"\b\w*?(?:[Ww]arp_?[Ss]ize|WARP_?SIZE)\w*"
"""Names such as ``WARP_SIZE`` and ``kWarpSize``; searched only in files containing "arp"/"ARP"."""


class Tables(NamedTuple):
    db: MappingDB
    arch: ArchTable
    words: frozenset[bytes]
    """The whole words that are candidates (a CUDA-looking prefix also makes one: :attr:`prefixes`)."""
    prefixes: tuple[bytes, ...]
    """:data:`UNKNOWN_PREFIXES`: a word starting with one is a candidate, known or not."""
    prefixed: re.Pattern[bytes]
    """A line (of words, one a line) that starts with one of :attr:`prefixes`."""
    kept: frozenset[bytes]
    """The CUDA-named names of the database that translation keeps (``CUDA_VERSION``, ``CUDART_PI``):
    no candidates, yet a file that uses one is CUDA code (the same-name math functions, ``sqrt``,
    ``min``, are not: host code uses them too)."""
    qualified: dict[str, tuple[tuple[tuple[str, ...], Entry], ...]]
    """Qualified entries by their last component, longest qualifier first."""
    members: dict[str, Entry]
    """Member entries (``.is_cuda``) by member name."""
    unknown: re.Pattern[bytes]
    """CUDA-looking names, reported when the database does not know them."""
    warp_size: re.Pattern[bytes]
    headers: frozenset[bytes]
    """The header paths the database knows, as ``#include`` spells them."""
    contextual: dict[bytes, frozenset[bytes]]
    """Words that matter only after certain text: the last word of a qualified name (after its
    qualifier, ``at::``), a member (after ``.``/``->``), a dispatch key (after ``,``)."""
    ported_libraries: dict[str, tuple[str, str]]
    """Header folders of a library whose MUSA port lives under another folder (``cutlass`` → ``mutlass``,
    ``cute`` → ``mute``): folder → (library, MUSA folder). A project's copy of such a library is the
    library, replaced by its port on MUSA, never the project's code to translate."""


    def is_candidate(self, word: bytes) -> bool:
        """Whether the whole word ``word`` may need translating or reporting."""
        return word in self.words or word.startswith(self.prefixes)

    def candidates(self, data: bytes) -> tuple[list[re.Match[bytes]], bool]:
        """The candidate words of ``data``, in order, each a whole word (``\\b`` on both sides); and
        whether ``data`` holds one of the names translation keeps (:attr:`kept`)."""
        words = set(data.translate(_NON_WORD_TO_SPACE).split())  # the \w+ runs, at C speed
        found = set(self.prefixed.findall(b"\n".join(words)))  # one C-level pass over the distinct words
        found.update(self.words.intersection(words))
        kept = not self.kept.isdisjoint(words)
        if not found:
            return [], kept
        return list(_spans_of(frozenset(found)).finditer(data)), kept


@functools.lru_cache(maxsize=256)
def _spans_of(words: frozenset[bytes]) -> re.Pattern[bytes]:
    return re.compile(rb"\b(?:" + b"|".join(map(re.escape, sorted(words))) + rb")\b")


def build_tables(db: MappingDB) -> Tables:
    words: set[str] = set(_ENGINE_WORDS)
    qualified: dict[str, list[tuple[tuple[str, ...], Entry]]] = defaultdict(list)
    members: dict[str, Entry] = {}
    after: dict[str, set[bytes]] = defaultdict(set)
    plain: set[str] = set(_ENGINE_WORDS)
    kept: list[str] = []
    for key in db.groups[Kind.DISPATCH_KEY.value]:
        words.add(key)
        after[key].add(b",")
    for name, entry in db.groups[IDENTIFIER].items():
        if not entry.renames and entry.status is Status.SUPPORTED:  # kept as spelled, nothing to report
            if name.isidentifier() and name.lower().startswith(_CUDA_STYLE):
                kept.append(name)
        elif name.startswith("."):
            members[name[1:]] = entry
            words.add(name[1:])
            after[name[1:]].update((b".", b"->"))
        elif "::" in name:
            parts = tuple(name.split("::"))
            qualified[parts[-1]].append((parts, entry))
            words.add(parts[-1])
            after[parts[-1]].add(parts[-2].encode() + b"::")
        else:
            words.add(name)
            plain.add(name)
    unknown = re.compile(_ANY_UNKNOWN_PREFIX + rb"\w*")
    contextual = {
        word.encode(): frozenset(before)
        for word, before in after.items()
        if word not in plain and db.identifier(word) is None and not unknown.fullmatch(word.encode())
    }
    return Tables(
        db=db,
        arch=build_arch_table(db),
        words=frozenset(word.encode() for word in words),
        prefixes=tuple(sorted(p.encode() for p in UNKNOWN_PREFIXES)),
        prefixed=re.compile(rb"^" + _ANY_UNKNOWN_PREFIX + rb"\w*$", re.MULTILINE),
        kept=frozenset(name.encode() for name in kept if name not in words),
        qualified={k: tuple(sorted(v, key=lambda item: -len(item[0]))) for k, v in qualified.items()},
        members=members,
        unknown=unknown,
        warp_size=re.compile(WARP_SIZE_PATTERN),
        headers=frozenset(e.cuda.encode() for e in db.of_kind(Kind.HEADER)),
        contextual=contextual,
        ported_libraries=_ported_libraries(db),
    )


def _ported_libraries(db: MappingDB) -> dict[str, tuple[str, str]]:
    """Header folders every one of whose database headers moves to one other folder."""
    moves: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for entry in db.of_kind(Kind.HEADER):
        folder, slash, _ = entry.cuda.partition("/")
        if slash:
            moves[folder].add((entry.library, entry.musa.partition("/")[0]))
    return {folder: next(iter(to)) for folder, to in sorted(moves.items()) if len(to) == 1 and next(iter(to))[1] != folder}


@functools.cache
def get_tables() -> Tables:
    return build_tables(load_db())

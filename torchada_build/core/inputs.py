"""The kinds of input file, by suffix: one table (as clang's ``Types.def``) from which every list derives.

Each row says what a file of that suffix is (:class:`Language`) and which tools take it by its name
alone: nvcc (``nvcc_driver`` of the CUDA Compiler Driver manual, "Supported input file suffixes"), gcc
("Options Controlling the Kind of Output"), and torchada-port (every source and header of a tree).

    >>> nvcc_language(".cu"), nvcc_language(".cp")
    (<Language.CUDA: 'cu'>, None)
    >>> ".cp" in GCC_SOURCES and ".cuh" in PORTED
    True
"""

from __future__ import annotations

import enum

__all__ = ["GCC_SOURCES", "PORTED", "Language", "nvcc_language", "nvcc_suffixes"]


class Language(enum.Enum):
    CUDA = "cu"
    CXX = "c++"
    C = "c"
    HEADER = "header"
    LINKER_INPUT = "linker input"
    DEVICE_CODE = "NVIDIA device code"


_NVCC, _GCC, _PORT = 1, 2, 4
"""Who takes the suffix by the name alone: nvcc, gcc (as C or C++), torchada-port (as a tree's source
or header)."""

_KINDS: tuple[tuple[str, Language, int], ...] = (
    (".cu", Language.CUDA, _NVCC | _PORT),
    (".mu", Language.CUDA, _NVCC),  # a MUSA source: torch_musa's MUSAExtension compiles .mu with mcc
    (".c", Language.C, _NVCC | _GCC | _PORT),
    (".i", Language.C, _NVCC),
    (".cc", Language.CXX, _NVCC | _GCC | _PORT),
    (".cpp", Language.CXX, _NVCC | _GCC | _PORT),
    (".cxx", Language.CXX, _NVCC | _GCC | _PORT),
    (".ii", Language.CXX, _NVCC),
    (".cp", Language.CXX, _GCC),
    (".CPP", Language.CXX, _GCC),
    (".c++", Language.CXX, _GCC | _PORT),
    (".C", Language.CXX, _GCC),
    (".cppm", Language.CXX, _PORT),
    (".ixx", Language.CXX, _PORT),
    (".o", Language.LINKER_INPUT, _NVCC),
    (".obj", Language.LINKER_INPUT, _NVCC),
    (".a", Language.LINKER_INPUT, _NVCC),
    (".so", Language.LINKER_INPUT, _NVCC),
    (".lib", Language.LINKER_INPUT, _NVCC),
    (".ptx", Language.DEVICE_CODE, _NVCC),
    (".cubin", Language.DEVICE_CODE, _NVCC),
    (".fatbin", Language.DEVICE_CODE, _NVCC),
    (".gpu", Language.DEVICE_CODE, _NVCC),
    *((suffix, Language.HEADER, _PORT) for suffix in ".cuh .h .hh .hpp .hxx .h++ .inl .inc .ipp .tpp .txx".split()),
)

_NVCC_LANGUAGES = {suffix: language for suffix, language, tools in _KINDS if tools & _NVCC}

GCC_SOURCES = frozenset(suffix for suffix, _, tools in _KINDS if tools & _GCC)
"""What gcc compiles as C or C++ by the file name alone."""

PORTED = frozenset(suffix for suffix, _, tools in _KINDS if tools & _PORT)
"""What torchada-port translates in a tree: the CUDA, C and C++ sources and headers (not MUSA's own
``.mu``, nor preprocessed output)."""


def nvcc_language(suffix: str) -> Language | None:
    """What nvcc takes a file of ``suffix`` for, or None when it does not know the suffix."""
    return _NVCC_LANGUAGES.get(suffix)


def nvcc_suffixes(language: Language) -> tuple[str, ...]:
    """The suffixes nvcc takes for ``language``."""
    return tuple(suffix for suffix, known in _NVCC_LANGUAGES.items() if known is language)

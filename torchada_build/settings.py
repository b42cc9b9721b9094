"""What a torch CUDA extension gets for one backend: include and library dirs, libraries, rpaths.

For ``mcc`` these follow torch_musa v2.7.1's ``torch_musa/utils/musa_extension.py`` (``docs/build.md``,
"torch_musa's conventions", has the table with line numbers): ``$MUSA_HOME/include``, torch_musa's ported
torch headers and ``MUDNN_HOME``/``MUDNN_PATH`` before torch's own headers; ``torch_musa/lib``, the SDK's
``lib64`` (or ``lib``) and muDNN's; ``musa_python`` in place of torch's ``c10_cuda``/``torch_cuda``; CUDA
library names renamed through the mapping database (``cudart`` → ``musart``); rpaths to ``$ORIGIN/lib``,
torch's and torch_musa's libraries; and the JIT link line of torch_musa's ``_prepare_ldflags``.

For ``loopback`` the translated code is compiled by the real nvcc and linked against CUDA, so the CUDA
names stay; only torch's CUDA libraries that the installed torch really has are kept (a CPU build of
torch has none).

    >>> settings = get_extension_settings(BackendChoice(Backend.LOOPBACK, "test"))
    >>> settings.link_libraries(["c10", "cudart"])
    ['c10', 'cudart']
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .platform import Backend, BackendChoice, require_musa_home, require_torch_musa

__all__ = [
    "HALF_SWITCHES",
    "TORCH_CUDA_LIBRARIES",
    "ExtensionSettings",
    "get_extension_settings",
    "musa_common_flags",
    "torch_library_dir",
]

TORCH_CUDA_LIBRARIES = ("c10_cuda", "torch_cuda")
"""torch's own CUDA libraries, which ``CUDAExtension`` and JIT builds link."""


HALF_SWITCHES = frozenset(
    {
        "-D__CUDA_NO_HALF_OPERATORS__",
        "-D__CUDA_NO_HALF_CONVERSIONS__",
        "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
        "-D__CUDA_NO_HALF2_OPERATORS__",
    }
)
"""What torch adds to every extension's nvcc flags (``COMMON_NVCC_FLAGS``) to hide ``cuda_fp16.h``'s
operators behind ``c10::Half``'s. torch_musa's own builder leaves their MUSA spelling out
(``COMMON_MCC_FLAGS`` in ``torch_musa/utils/musa_extension.py``: "musa now support half and bf16"), and
torch_musa's kernels are compiled that way, so on MUSA an extension is too. A project's own ``-D`` of one
of them is kept (translated); loopback keeps torch's, as CUDA's headers need them."""


def musa_common_flags(flags: Iterable[str]) -> list[str]:
    """torch's ``COMMON_NVCC_FLAGS`` as torch_musa's builder has them: without :data:`HALF_SWITCHES`.

    >>> musa_common_flags(["-D__CUDA_NO_HALF_OPERATORS__", "--expt-relaxed-constexpr"])
    ['--expt-relaxed-constexpr']
    """
    return [flag for flag in flags if flag not in HALF_SWITCHES]


def torch_library_dir() -> Path:
    import torch

    return Path(torch.__file__).parent / "lib"


@dataclass(frozen=True, slots=True)
class ExtensionSettings:
    backend: Backend
    include_dirs: tuple[str, ...]
    """Searched before torch's own include paths."""
    library_dirs: tuple[str, ...]
    device_libraries: tuple[str, ...]
    """Linked in place of :data:`TORCH_CUDA_LIBRARIES` by ``CUDAExtension``."""
    jit_device_libraries: tuple[str, ...]
    """Linked in place of :data:`TORCH_CUDA_LIBRARIES` by ``load()`` and ``load_inline()`` (``loopback``;
    ``mcc`` links torch_musa's line, :attr:`musa_jit`)."""
    renamed_libraries: Mapping[str, str]
    rpaths: tuple[str, ...]
    musa_jit: MusaJitLink | None = None
    """``mcc`` only: what torch_musa's JIT link line names."""

    def _replace(self, name: str, *, jit: bool) -> tuple[str, ...]:
        if name in TORCH_CUDA_LIBRARIES:
            return self.jit_device_libraries if jit else self.device_libraries
        return (self.renamed_libraries.get(name, name),)

    def link_libraries(self, libraries: Iterable[str]) -> list[str]:
        """``libraries`` with torch's CUDA libraries replaced and CUDA library names renamed, order kept."""
        result: list[str] = []
        for name in libraries:
            result.extend(n for n in self._replace(name, jit=False) if n not in result)
        return result

    def link_flags(self, flags: Iterable[str]) -> list[str]:
        """A JIT link line with the same replacements, each flag kept in place, and the library dirs added."""
        result: list[str] = []
        for flag in flags:
            if not flag.startswith("-l"):
                result.append(flag)
                continue
            replaced = self._replace(flag[2:], jit=True)
            result.extend(f"-l{n}" for n in replaced if len(replaced) == 1 or f"-l{n}" not in result)
        return [*result, *(f"-L{d}" for d in self.library_dirs)]

    @property
    def rpath_flags(self) -> list[str]:
        return [f"-Wl,-rpath,{path}" for path in self.rpaths]


@dataclass(frozen=True, slots=True)
class MusaJitLink:
    """torch_musa's JIT link line (``musa_extension.py:876-911``), with one difference: its
    ``torch_musa/lib`` directory is named whenever ``musa_python`` is, or a build without ``.cu``
    sources (whose translated C++ may still call torch_musa) could not find it."""

    torch_lib: str
    torch_musa_lib: str
    sdk_lib: str
    mudnn_home: str | None
    tbb: bool
    """torch was built with TBB (``torch.__config__.parallel_info()``): standalone links add ``-ltbb``."""

    renamed_libraries: Mapping[str, str]

    def flags(self, user_flags: Iterable[str], *, with_cuda: bool, is_standalone: bool) -> list[str]:
        """The user's flags (CUDA library names renamed), then torch_musa's.

        >>> link = MusaJitLink("T", "M", "S", None, False, {"cublas": "mublas"})
        >>> link.flags(["-lcublas"], with_cuda=True, is_standalone=False)  # doctest: +NORMALIZE_WHITESPACE
        ['-lmublas', '-LT', '-lc10', '-ltorch_cpu', '-LM', '-ltorch', '-ltorch_python', '-lmusa_python',
         '-lmusa_kernels', '-LS', '-lmusart']
        """
        flags = [f"-l{self.renamed_libraries.get(f[2:], f[2:])}" if f.startswith("-l") else f for f in user_flags]
        flags += [f"-L{self.torch_lib}", "-lc10", "-ltorch_cpu"]
        if with_cuda or not is_standalone:
            flags.append(f"-L{self.torch_musa_lib}")
        flags.append("-ltorch")
        if not is_standalone:
            flags += ["-ltorch_python", "-lmusa_python", "-lmusa_kernels"]
        else:
            flags += [*(["-ltbb"] if self.tbb else []), f"-Wl,-rpath,{self.torch_lib}"]
        if with_cuda:
            flags += [f"-L{self.sdk_lib}", "-lmusart"]
            if self.mudnn_home:
                flags.append(f"-L{Path(self.mudnn_home) / 'lib64'}")
        return flags


def _renamed_libraries() -> dict[str, str]:
    from hipify_like.mapping import Kind, load_db

    return {e.cuda: e.musa for e in load_db().of_kind(Kind.LIBRARY) if e.renames}


def mudnn_home(environ: Mapping[str, str]) -> str | None:
    """``MUDNN_HOME``, else ``MUDNN_PATH`` (``musa_extension.py:305``)."""
    return environ.get("MUDNN_HOME") or environ.get("MUDNN_PATH") or None


def _musa_settings(choice: BackendChoice, environ: Mapping[str, str]) -> ExtensionSettings:
    import torch

    sdk = require_musa_home(choice, environ)
    torch_musa = require_torch_musa(choice)
    share = torch_musa / "share"
    ported = share / "generated_cuda_compatible"
    mudnn = mudnn_home(environ)
    include_dirs = [
        sdk.include_dir,
        ported / "aten" / "src",
        ported / "include",
        ported / "include" / "torch" / "csrc" / "api" / "include",
        share / "torch_musa_codegen",
        torch_musa.parent,
        *([Path(mudnn) / "include"] if mudnn else []),
    ]
    torch_lib = torch_library_dir()
    renamed = _renamed_libraries()
    return ExtensionSettings(
        backend=choice.backend,
        include_dirs=tuple(map(str, include_dirs)),
        library_dirs=tuple(map(str, [torch_musa / "lib", sdk.lib_dir, *([Path(mudnn) / sdk.lib_dir.name] if mudnn else [])])),
        device_libraries=("musa_python",),
        jit_device_libraries=(),  # JIT links are torch_musa's line (musa_jit)
        renamed_libraries=renamed,
        rpaths=("$ORIGIN/lib", str(torch_lib), str(torch_musa / "lib")),
        musa_jit=MusaJitLink(
            str(torch_lib), str(torch_musa / "lib"), str(sdk.lib_dir), mudnn,
            "TBB" in torch.__config__.parallel_info(), renamed,
        ),
    )


def _loopback_settings(choice: BackendChoice) -> ExtensionSettings:
    torch_lib = torch_library_dir()
    present = tuple(name for name in TORCH_CUDA_LIBRARIES if (torch_lib / f"lib{name}.so").exists())
    return ExtensionSettings(
        backend=choice.backend,
        include_dirs=(),
        library_dirs=(),
        device_libraries=present,
        jit_device_libraries=present,
        renamed_libraries={},
        rpaths=(),
    )


def get_extension_settings(choice: BackendChoice, environ: Mapping[str, str] | None = None) -> ExtensionSettings:
    """The settings for a translating backend; raises one line when the MUSA side is missing."""
    environ = os.environ if environ is None else environ
    if choice.backend is Backend.MCC:
        return _musa_settings(choice, environ)
    return _loopback_settings(choice)

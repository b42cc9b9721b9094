"""The seam into ``torch.utils.cpp_extension``: an unchanged ``setup.py``, ``load()`` or ``load_inline()`` builds for MUSA.

:func:`install` rebinds a few names of ``torch.utils.cpp_extension`` (one row of :data:`PATCHES` each) when
the backend translates (``mcc``, or ``loopback`` for verification); with ``nvcc`` it changes nothing.

* ``CUDA_HOME`` becomes the toolkit mimic, a CUDA root whose ``bin/nvcc`` is torchada-nvcc. torch then
  compiles every ``.cu`` through torchada-nvcc on all its paths (setuptools with and without ninja, JIT),
  its CUDA version check reads the mimic's ``nvcc --version``, and ``CUDA_HOME`` is never ``None``.
  The mimic's ``bin`` also goes first on ``PATH``: a ``setup.py`` that runs ``nvcc`` to decide whether to
  build its CUDA extension (torchsort's does) finds torchada-nvcc on a MUSA machine, which has no nvcc.
* ``include_paths``/``library_paths`` and ``CUDAExtension`` add the backend's dirs, libraries and rpaths
  (:mod:`.settings`); ``_prepare_ldflags`` does the same for JIT links.
* ``COMMON_NVCC_FLAGS`` loses torch's half/bfloat16 switches on MUSA (:func:`.settings.musa_common_flags`).
* ``_get_cuda_arch_flags`` maps ``TORCH_MUSA_ARCH_LIST``/``TORCH_CUDA_ARCH_LIST`` (:mod:`.arch_flags`).
* ``_is_cuda_file`` (and ``BuildExtension``'s source suffixes) take torch_musa's ``.mu``/``.muh`` too.
* ``CUDAExtension`` on ``mcc`` adds ``-march=native`` on x86 hosts, as ``MUSAExtension`` does.
* ``_get_build_directory`` gives JIT builds their own folder, ``py3X_torchada_<backend>/<name>``.
* ``_write_ninja_file`` puts :mod:`.host_compile` in front of the host compiler (``cxx``), so the
  ``.cpp`` files are translated too, and keeps the ``.cu`` dependency files that torch drops when
  ``torch.version.cuda`` is ``None`` (as on a MUSA build of torch), so editing a header rebuilds the
  ``.cu`` files using it.
* ``BuildExtension.build_extensions`` does the same for builds without ninja: each host compile that
  setuptools runs goes through :mod:`.host_compile`.

Sources are never modified: torchada-nvcc and :mod:`.host_compile` translate into the cache. Problems with the machine (no
torch_musa, no ``MUSA_HOME``) are raised as one line when a build starts, never at ``import torchada``.

    >>> install()                      # doctest: +SKIP
    <InstallStatus.INSTALLED: 'installed'>
"""

from __future__ import annotations

import enum
import functools
import inspect
import os
import platform
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torchada_build.core.diagnostics import UNSUPPORTED_TORCH
from torchada_build.core.files import write_atomically

from . import host_compile
from .arch_flags import get_arch_flags
from .compilers.host import is_host_compile
from .compilers.toolkit import toolkit_root
from .errors import UnsupportedTorchError
from .platform import Backend, BackendChoice, detect_backend
from .settings import ExtensionSettings, get_extension_settings, musa_common_flags

__all__ = ["PATCHES", "InstallStatus", "Patch", "install", "installed_backend", "uninstall"]


class InstallStatus(enum.Enum):
    INSTALLED = "installed"
    ALREADY_INSTALLED = "already installed"
    PASSTHROUGH = "passthrough"
    """The backend is ``nvcc``: torch builds for CUDA exactly as without torchada."""


@dataclass(frozen=True, slots=True)
class Patch:
    name: str
    """The name rebound in ``torch.utils.cpp_extension``; dotted for a class attribute."""
    make: Callable[[Any, BackendChoice], Any]
    """``(original, choice) -> replacement``."""

    def current(self, module: Any) -> Any:
        """What the name is bound to in ``module`` now (None when absent)."""
        return _lookup(module, self.name)


@dataclass
class _State:
    choice: BackendChoice | None = None
    originals: dict[str, Any] | None = None
    path: str | None = None
    """``PATH`` before :func:`install` put the mimic's ``bin`` first."""


_STATE = _State()


def _settings(choice: BackendChoice) -> ExtensionSettings:
    return get_extension_settings(choice)


def _is_cuda_device(original: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether a call of ``include_paths``/``library_paths`` asks for the CUDA paths (``device_type`` or old ``cuda=``)."""
    bound = inspect.signature(original).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments.get("device_type") == "cuda" or bound.arguments.get("cuda") is True


def _make_include_paths(original: Callable[..., list[str]], choice: BackendChoice) -> Callable[..., list[str]]:
    @functools.wraps(original)
    def include_paths(*args: Any, **kwargs: Any) -> list[str]:
        paths = original(*args, **kwargs)
        if _is_cuda_device(original, args, kwargs):
            paths = [*_settings(choice).include_dirs, *paths]
        return paths

    return include_paths


def _make_library_paths(original: Callable[..., list[str]], choice: BackendChoice) -> Callable[..., list[str]]:
    @functools.wraps(original)
    def library_paths(*args: Any, **kwargs: Any) -> list[str]:
        paths = original(*args, **kwargs)
        if _is_cuda_device(original, args, kwargs):
            paths = [*paths, *_settings(choice).library_dirs]
        return paths

    return library_paths


def _with_native_host_code(compile_args: list[str] | dict[str, list[str]]) -> dict[str, list[str]]:
    """``extra_compile_args`` with ``-march=native`` for the host and the CUDA compiler, as
    ``MUSAExtension`` adds it on x86 hosts (``musa_extension.py:452-454``); a list (torch: for both) becomes a dict."""
    args = compile_args if isinstance(compile_args, dict) else {"cxx": list(compile_args), "nvcc": list(compile_args)}
    return {
        **args,
        "cxx": [*args.get("cxx", []), "-march=native"],
        "nvcc": [*args.get("nvcc", []), "-Xcompiler", "-march=native"],
    }


def _make_cuda_extension(original: Callable[..., Any], choice: BackendChoice) -> Callable[..., Any]:
    @functools.wraps(original)
    def CUDAExtension(name: str, sources: list[str], *args: Any, **kwargs: Any) -> Any:  # noqa: N802
        settings = _settings(choice)
        extension = original(name, sources, *args, **kwargs)
        extension.libraries = settings.link_libraries(extension.libraries)
        extension.extra_link_args = [*extension.extra_link_args, *settings.rpath_flags]
        if choice.backend is Backend.MCC and any(x in platform.machine() for x in ("x86", "x64")):
            extension.extra_compile_args = _with_native_host_code(extension.extra_compile_args)
        return extension

    return CUDAExtension


MUSA_SOURCE_SUFFIXES = (".mu", ".muh")
"""torch_musa's source suffixes (``musa_extension.py:468-470``), compiled like ``.cu``/``.cuh``."""


def _make_is_cuda_file(original: Callable[[str], bool], choice: BackendChoice) -> Callable[[str], bool]:
    @functools.wraps(original)
    def _is_cuda_file(path: str) -> bool:
        return original(path) or os.path.splitext(path)[1] in MUSA_SOURCE_SUFFIXES

    return _is_cuda_file


def _make_arch_flags(original: Callable[..., list[str]], choice: BackendChoice) -> Callable[..., list[str]]:
    @functools.wraps(original)
    def _get_cuda_arch_flags(cflags: list[str] | None = None) -> list[str]:
        return get_arch_flags(cflags, os.environ, original, choice.backend)

    return _get_cuda_arch_flags


def _make_prepare_ldflags(original: Callable[..., list[str]], choice: BackendChoice) -> Callable[..., list[str]]:
    @functools.wraps(original)
    def _prepare_ldflags(extra_ldflags: list[str], with_cuda: bool, *args: Any, **kwargs: Any) -> list[str]:
        settings = _settings(choice)
        if settings.musa_jit is not None:
            bound = inspect.signature(original).bind(extra_ldflags, with_cuda, *args, **kwargs)
            return settings.musa_jit.flags(extra_ldflags, with_cuda=with_cuda, is_standalone=bound.arguments["is_standalone"])
        flags = original(extra_ldflags, with_cuda, *args, **kwargs)
        return settings.link_flags(flags) if with_cuda else flags

    return _prepare_ldflags


def _make_build_directory(original: Callable[..., str], choice: BackendChoice) -> Callable[..., str]:
    @functools.wraps(original)
    def _get_build_directory(name: str, verbose: bool) -> str:
        if os.environ.get("TORCH_EXTENSIONS_DIR"):
            return original(name, verbose)
        from torch.utils.cpp_extension import get_default_build_root

        python = f"py{sys.version_info.major}{sys.version_info.minor}{getattr(sys, 'abiflags', '')}"
        directory = Path(get_default_build_root()) / f"{python}_torchada_{choice.backend.value}" / name
        directory.mkdir(parents=True, exist_ok=True)
        return str(directory)

    return _get_build_directory


_CUDA_RULE_WITHOUT_DEPS = "rule cuda_compile\n  command = $nvcc  $cuda_cflags"
_CUDA_RULE_WITH_DEPS = "rule cuda_compile\n  depfile = $out.d\n  deps = gcc\n  command = $nvcc -MD -MF $out.d $cuda_cflags"


def _ninja_escape(word: str) -> str:
    return word.replace("$", "$$")


def _edit_ninja_file(text: str, backend: Backend) -> str:
    """Host compiles through :mod:`.host_compile`; ``.cu`` dependency files kept."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("cxx = "):
            words = [*host_compile.prefix(backend), *shlex.split(line[len("cxx = ") :])]
            lines[index] = "cxx = " + _ninja_escape(shlex.join(words))
    text = "\n".join(lines)
    if os.environ.get("TORCH_EXTENSION_SKIP_NVCC_GEN_DEPENDENCIES", "0") != "1":
        text = text.replace(_CUDA_RULE_WITHOUT_DEPS, _CUDA_RULE_WITH_DEPS)
    return text


def _make_write_ninja_file(original: Callable[..., None], choice: BackendChoice) -> Callable[..., None]:
    @functools.wraps(original)
    def _write_ninja_file(path: str, *args: Any, **kwargs: Any) -> None:
        original(path, *args, **kwargs)
        text = Path(path).read_text()
        edited = _edit_ninja_file(text, choice.backend)
        if edited != text:
            write_atomically(path, edited)

    return _write_ninja_file


def _make_build_extensions(original: Callable[..., None], choice: BackendChoice) -> Callable[..., None]:
    """``.mu``/``.muh`` are sources; without ninja, setuptools runs each compile itself (``compiler.call``;
    ``spawn`` before setuptools 74): host compiles go through :mod:`.host_compile`."""

    @functools.wraps(original)
    def build_extensions(self: Any) -> None:
        self.compiler.src_extensions += [s for s in MUSA_SOURCE_SUFFIXES if s not in self.compiler.src_extensions]
        if not self.use_ninja:
            name = "call" if hasattr(self.compiler, "call") else "spawn"
            run = getattr(self.compiler, name)

            def run_host_compiles_translated(command: list[str], *args: Any, **kwargs: Any) -> None:
                if is_host_compile([str(word) for word in command]):
                    command = [*host_compile.prefix(choice.backend), *command]
                run(command, *args, **kwargs)

            setattr(self.compiler, name, run_host_compiles_translated)
        original(self)

    return build_extensions


PATCHES = (
    Patch("BuildExtension.build_extensions", _make_build_extensions),
    Patch("CUDAExtension", _make_cuda_extension),
    Patch("_get_build_directory", _make_build_directory),
    Patch("_get_cuda_arch_flags", _make_arch_flags),
    Patch("_is_cuda_file", _make_is_cuda_file),
    Patch("_prepare_ldflags", _make_prepare_ldflags),
    Patch("_write_ninja_file", _make_write_ninja_file),
    Patch("include_paths", _make_include_paths),
    Patch("library_paths", _make_library_paths),
)


def _lookup(module: Any, dotted: str) -> Any:
    """``module.BuildExtension.build_extensions`` for ``"BuildExtension.build_extensions"``; None when absent."""
    value = module
    for part in dotted.split("."):
        value = getattr(value, part, None)
    return value


def _rebind(module: Any, dotted: str, value: Any) -> None:
    owner, _, name = dotted.rpartition(".")
    setattr(_lookup(module, owner) if owner else module, name, value)


def installed_backend() -> BackendChoice | None:
    """The backend the hook was installed for, or ``None`` when it is not installed."""
    return _STATE.choice if _STATE.originals is not None else None


def install() -> InstallStatus:
    """Point ``torch.utils.cpp_extension`` at torchada-nvcc; idempotent, and a no-op for the ``nvcc`` backend."""
    if _STATE.originals is not None:
        return InstallStatus.ALREADY_INSTALLED
    choice = detect_backend()
    if choice.backend is Backend.NVCC:
        return InstallStatus.PASSTHROUGH
    import torch
    from torch.utils import cpp_extension

    if _STATE.originals is not None:  # that first import ran the start-up hook, which installed it
        return InstallStatus.ALREADY_INSTALLED
    missing = [p.name for p in PATCHES if not callable(p.current(cpp_extension))]
    if missing or not hasattr(cpp_extension, "CUDA_HOME"):
        names = ", ".join(missing or ["CUDA_HOME"])
        raise UnsupportedTorchError(UNSUPPORTED_TORCH.text(version=torch.__version__, names=names))
    originals = {p.name: p.current(cpp_extension) for p in PATCHES}
    originals["CUDA_HOME"] = cpp_extension.CUDA_HOME
    cpp_extension.CUDA_HOME = str(toolkit_root(choice.backend.value))
    _STATE.path = os.environ.get("PATH")
    os.environ["PATH"] = os.pathsep.join(filter(None, [str(Path(cpp_extension.CUDA_HOME, "bin")), _STATE.path]))
    if choice.backend is Backend.MCC:
        originals["COMMON_NVCC_FLAGS"] = cpp_extension.COMMON_NVCC_FLAGS
        cpp_extension.COMMON_NVCC_FLAGS = musa_common_flags(cpp_extension.COMMON_NVCC_FLAGS)
    for patch in PATCHES:
        _rebind(cpp_extension, patch.name, patch.make(originals[patch.name], choice))
    _STATE.choice, _STATE.originals = choice, originals
    return InstallStatus.INSTALLED


def uninstall() -> None:
    """Restore every name :func:`install` rebound."""
    if _STATE.originals is None:
        return
    from torch.utils import cpp_extension

    for name, value in _STATE.originals.items():
        _rebind(cpp_extension, name, value)
    if _STATE.path is None:
        os.environ.pop("PATH", None)
    else:
        os.environ["PATH"] = _STATE.path
    _STATE.choice, _STATE.originals, _STATE.path = None, None, None

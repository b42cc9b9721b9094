"""The loopback backend, a verification tool: translate exactly as for mcc, compile with the real nvcc.

The translated (MUSA) unit is compiled by NVIDIA's nvcc with the compat headers generated from the
mapping database (``hipify_like.compat``: a force-included prelude that maps each MUSA name back to
its CUDA name, and one header per renamed header). A unit that compiles, links and runs this way
uses only names the database maps. The command line reaches nvcc as the user wrote it, except what
the driver owns: inputs (the translated copies), include directories (their translated copies first),
``-D``/``-U`` names the database renames, phases, outputs and dependency files. Linking is done the
way the mcc backend does it (nvcc ``-dlink``, then the host compiler), so CMake sees the same shape.
cuBLAS, cuRAND and NCCL come from the pip wheels (``site-packages/nvidia``), through the toolkit
mimic's ``lib64`` (the wheels ship ``libcublas.so.13`` but no ``libcublas.so``).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from torchada_build.core.diagnostics import NO_NVCC
from torchada_build.core.files import make_private_dir, write_atomically
from torchada_build.core.inputs import nvcc_language

from ..backends import Backend
from ..cmdline import shell_words
from ..dbfacts import DbFacts, translator_fingerprint
from ..errors import ToolNotFoundError
from ..identity import loopback_version
from ..installations import find_cuda
from ..options import Option, Stage, Treatment
from ..parse import Arg, ArgKind, ParsedArgs
from ..request import DEVICE_ONLY_OPTIONS, Phase
from ..units import CachedUnit
from .base import (
    BuildContext,
    CompileStep,
    Render,
    TranslatingToolchain,
    dependency_flags,
    environment_mirrors,
    redirect_host_words,
    translate_macro,
)

__all__ = ["RENDERERS", "LoopbackToolchain", "wheel_include_dirs", "wheel_libraries"]

@functools.cache
@dataclass(frozen=True)
class LoopbackCompat:
    """The compat headers of one database version (``hipify_like.compat``), as the cache records them."""

    include_dir: Path
    prelude: str
    torch_alias_dir: Path
    torch_alias_names: tuple[str, ...]
    sizes: tuple[tuple[str, int], ...]
    """Each header and its size: a set a cleaner took a file from is written again."""

    def is_whole(self) -> bool:
        try:
            return all(os.stat(self.include_dir / relative).st_size == size for relative, size in self.sizes)
        except OSError:
            return False

    def pre_includes(self, unit: CachedUnit) -> list[str]:
        """``-include`` the prelude; and, first of all include folders, the torch aliases' where a
        translated file of ``unit`` holds one of their names (a byte search: a name in a comment costs
        only the folder)."""
        names = [n.encode() for n in self.torch_alias_names]
        for original in unit.originals:
            try:
                data = unit.mirror(original).read_bytes()
            except OSError:
                continue
            if any(n in data for n in names):
                return [f"-I{self.torch_alias_dir}", "-include", self.prelude]
        return ["-include", self.prelude]


def _nvidia_wheels(pattern: str) -> list[Path]:
    """Paths matching ``pattern`` under the NVIDIA pip wheels (``site-packages/nvidia/<wheel>/…``)."""
    spec = importlib.util.find_spec("nvidia")
    locations = sorted(spec.submodule_search_locations or ()) if spec else []
    return [path for location in locations for path in sorted(Path(location).glob(pattern))]


def wheel_libraries() -> dict[str, Path]:
    """The wheels' libraries by ``-l`` name: ``cublas`` → ``…/nvidia/cu13/lib/libcublas.so.13``."""
    found: dict[str, Path] = {}
    for path in _nvidia_wheels("*/lib/lib*.so.*"):
        found.setdefault(path.name[3:].partition(".so")[0], path)
    return found


def wheel_include_dirs() -> list[Path]:
    """The wheels' include directories (cuBLAS, cuRAND and NCCL headers)."""
    return [d for d in _nvidia_wheels("*/include") if d.is_dir()]


def _escape(value: str) -> str:
    """A value nvcc will not split: its list options split on commas."""
    return value.replace(",", "\\,")


def _macros(flag: str) -> Render:
    def render(ctx: BuildContext, unit: CachedUnit, arg: Arg) -> list[str]:
        translated = [translate_macro(v, ctx.facts) for v in arg.values]
        return list(arg.spelling) if translated == list(arg.values) else [f"{flag}{_escape(v)}" for v in translated]

    return render


def _system_include(ctx: BuildContext, unit: CachedUnit, arg: Arg) -> list[str]:
    return [w for value in arg.values for d in unit.search_dirs(value) for w in ("-isystem", _escape(d))]


def _pre_include(ctx: BuildContext, unit: CachedUnit, arg: Arg) -> list[str]:
    return [w for value in arg.values for w in ("-include", _escape(unit.pre_include(value)))]


def _compiler_options(ctx: BuildContext, unit: CachedUnit, arg: Arg) -> list[str]:
    """The host compiler's words with its search redirected; its forced includes given to nvcc instead,
    after the compat prelude (the host compiler would read them before it)."""
    words = [w for value in arg.values for w in shell_words(value)]
    redirected = redirect_host_words(unit, words)
    if redirected == words:
        return list(arg.spelling)
    includes = [i for i, word in enumerate(redirected) if word == "-include" and i + 1 < len(redirected)]
    forced = [w for i in includes for w in ("-include", _escape(redirected[i + 1]))]
    rest = [w for i, w in enumerate(redirected) if i not in includes and i - 1 not in includes]
    return (["-Xcompiler=" + _escape(shlex.join(rest))] if rest else []) + forced


RENDERERS: dict[str, Render] = {
    "--compiler-options": _compiler_options,
    "--define-macro": _macros("-D"),
    "--undefine-macro": _macros("-U"),
    "--include-path": lambda ctx, unit, arg: [f"-I{_escape(d)}" for v in arg.values for d in unit.search_dirs(v)],
    "--system-include": _system_include,
    "--pre-include": _pre_include,
}
"""The compile-stage options nvcc is not given as written: macro names the database renames, and
paths that point into the translated tree."""


class LoopbackToolchain(TranslatingToolchain):
    backend = Backend.LOOPBACK

    def __init__(self, environ: Mapping[str, str]) -> None:
        super().__init__(environ)
        self.cuda = find_cuda(environ)
        self.prepared_compat: LoopbackCompat | None = None
        """The compat headers :meth:`prepare` made, which compile commands name."""

    def describe(self) -> str:
        where = self.cuda.describe() if self.cuda else "no CUDA toolkit found"
        return f"loopback backend (verification: translated code compiled by NVIDIA's nvcc), {where}"

    def require_installed(self) -> None:
        if self.cuda is None:
            raise ToolNotFoundError(NO_NVCC.text(backend="loopback"))

    def _nvcc(self) -> str:
        self.require_installed()
        assert self.cuda is not None
        return str(self.cuda.nvcc)

    def cuda_version(self) -> tuple[int, int, int]:
        """The real nvcc's: what it compiles with is what a build that checks the version must see."""
        return loopback_version(self.cuda)

    def include_dirs(self) -> list[Path]:
        return ([self.cuda.include_dir] if self.cuda else []) + wheel_include_dirs()

    def library_dirs(self) -> list[Path]:
        return [self.cuda.lib_dir] if self.cuda else []

    def runtime_libraries(self, parsed: ParsedArgs) -> list[str]:
        libraries = [] if parsed.last("--cudadevrt") == "none" else ["-lcudadevrt"]
        cudart = parsed.last("--cudart") or "static"
        if cudart == "static":
            libraries += ["-lcudart_static", "-lrt", "-lpthread", "-ldl"]
        elif cudart == "shared":
            libraries.append("-lcudart")
        return libraries

    def shim_libraries(self, facts: DbFacts) -> dict[str, str]:
        shims = {f"lib{name}.so": f"INPUT({path})\n" for name, path in wheel_libraries().items()}
        if self.cuda is not None:
            for name in ("libcudart.so", "libcudart_static.a", "libcudadevrt.a"):
                if (self.cuda.lib_dir / name).exists():
                    shims[name] = f"INPUT({self.cuda.lib_dir / name})\n"
        return shims

    def treatment(self, option: Option) -> Treatment:
        return option.loopback

    def mimic_include_links(self) -> dict[str, Path]:
        """The real CUDA headers and the wheels' (``cublas_v2.h``, ``curand.h``) side by side, as in a CUDA
        toolkit: FindCUDAToolkit looks for ``cublas_v2.h`` there."""
        links: dict[str, Path] = {}
        for directory in ([self.cuda.include_dir] if self.cuda else []) + wheel_include_dirs():
            for entry in sorted(directory.iterdir()):
                links.setdefault(entry.name, entry)
        return links

    def rpath_dirs(self, ctx: BuildContext) -> list[Path]:
        wheels = wheel_libraries()
        named = [wheels[n].parent for n in ctx.parsed.values("--library") if n in wheels]
        return list(dict.fromkeys(named))

    def default_arch(self, ctx: BuildContext) -> int:
        return 75  # what nvcc 13 compiles for when no architecture is given

    def compat(self, cache_dir: Path) -> LoopbackCompat:
        """The compat headers, generated once per database version."""
        record = cache_dir / "compat" / f"{translator_fingerprint()}.json"
        try:
            data = json.loads(record.read_text())
            compat = LoopbackCompat(Path(data["include_dir"]), data["prelude"], Path(data["torch_alias_dir"]),
                                    tuple(data["torch_alias_names"]), tuple(map(tuple, data["sizes"])))  # fmt: skip
            if compat.is_whole():
                return compat
        except (OSError, ValueError, KeyError, TypeError):
            pass
        from hipify_like.compat import write_compat_headers

        make_private_dir(cache_dir / "compat")
        headers = write_compat_headers(cache_dir / "compat")
        compat = LoopbackCompat(headers.include_dir, headers.prelude, headers.torch_alias_dir, headers.torch_alias_names,
                                headers.sizes)  # fmt: skip
        fields = {"include_dir": str(compat.include_dir), "prelude": compat.prelude,
                  "torch_alias_dir": str(compat.torch_alias_dir), "torch_alias_names": list(compat.torch_alias_names),
                  "sizes": compat.sizes}  # fmt: skip
        write_atomically(record, json.dumps(fields).encode(), private=True)
        return compat

    def prepare(self, cache_dir: Path) -> None:
        self.prepared_compat = self.compat(cache_dir)

    def host_flags(self, cache_dir: Path, unit: CachedUnit) -> tuple[list[str], list[str]]:
        compat = self.compat(cache_dir)
        return compat.pre_includes(unit), [f"-I{d}" for d in (compat.include_dir, *self.include_dirs())]

    def compile_argv(self, ctx: BuildContext, step: CompileStep) -> list[str]:
        compat = self.prepared_compat
        assert compat is not None, "compile commands are planned after prepare()"
        argv = [self._nvcc(), *map(_escape, compat.pre_includes(step.unit))]
        for arg in ctx.parsed.args:
            if arg.kind in (ArgKind.TO_HOST_COMPILER, ArgKind.TO_HOST_BOTH):
                argv += arg.spelling
            elif arg.option is not None and Stage.COMPILE in self.treatment(arg.option).stage:
                render = RENDERERS.get(arg.option.canonical)
                argv += render(ctx, step.unit, arg) if render else arg.spelling
        # Headers that were not translated still resolve next to the original, after every translated copy.
        for directory in step.unit.original_dirs:
            argv.append("-Xcompiler=" + _escape(shlex.join(["-idirafter", directory])))  # ccache needs the = form
        argv += [f"-I{_escape(str(d))}" for d in (compat.include_dir, *wheel_include_dirs())]
        argv += [f"-I{_escape(str(d))}" for d in environment_mirrors(ctx, step)]
        argv += _language_flags(step)
        argv += _mode_flags(ctx, step)
        return self.finish_compile(ctx, step, argv)

    def device_link_argv(self, ctx: BuildContext, objects: list[str], output: str) -> list[str]:
        argv = [self._nvcc()]
        for arg in ctx.parsed.args:
            if arg.option is not None and Stage.DEVICE_LINK in self.treatment(arg.option).stage:
                argv += arg.spelling
        argv += ["-dlink", *objects, "-o", output]
        argv += [f"-L{_escape(d)}" for d in ctx.parsed.values("--library-path")]
        argv += [f"-l{_escape(n)}" for n in ctx.parsed.values("--library")]
        return argv

    def needs_device_link(self, ctx: BuildContext) -> bool:
        return not ctx.parsed.has("--no-device-link")  # nvcc always device-links when it links


def _language_flags(step: CompileStep) -> list[str]:
    """``-x`` where nvcc would take the translated file for another language than its source's (a
    ``.mu``, which nvcc 13 does not know, is CUDA)."""
    language = step.source.language
    if nvcc_language(step.unit.main.suffix) is language and step.unit.main.suffix != ".mu":
        return []
    return ["-x", language.value]


def _mode_flags(ctx: BuildContext, step: CompileStep) -> list[str]:
    if step.mode is Phase.PREPROCESS:
        return ["-E", "-Xcompiler=-P"] if ctx.parsed.has("--torchada-no-line-markers") else ["-E"]
    if step.mode is Phase.DEVICE_ONLY:
        phase = next(a for a in ctx.parsed.args if a.canonical in DEVICE_ONLY_OPTIONS)
        return list(phase.spelling)
    flags = dependency_flags(step)
    if step.mode is Phase.COMPILE:
        flags += ["-rdc=true", "-c"] if ctx.request.rdc else ["-c"]
    return flags

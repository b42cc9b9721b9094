"""The mcc backend: translated units compiled by Moore Threads' clang-based ``mcc``.

Flags follow ``docs/reference/musa_toolchain.md`` §1 and torch_musa's ``MUSAExtension`` (§1.4): ``-x musa`` for CUDA
sources (mcc would take ``.cu`` as clang CUDA; a ``.mu`` source goes without, as in ``MUSAExtension``), one ``--offload-arch=mp_XX`` per MUSA architecture,
and ``-U__CUDA__``, which torch_musa, Paddle and vllm_musa all pass because mcc's clang heritage
predefines ``__CUDA__`` and headers would take their clang-CUDA paths. ``-fPIC`` comes from the
command line as nvcc's does (CMake and torch pass ``-Xcompiler -fPIC``). ``-std`` too, but without one
nvcc 13 compiles CUDA as C++17 while mcc's clang would take gnu++14, so ``-std=c++17`` is added then
(torch_musa's MUSAExtension does the same; mcc refuses two ``-std``). Host-only ``.c``/``.cpp`` inputs are translated too and compiled by the
host compiler with the MUSA include directory; the host compiler also links, adding ``-lmusart``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path

from torchada_build.core.diagnostics import BAD_MUSA_ARCH, BAD_TORCH_MUSA_ARCH_LIST, NO_MCC
from torchada_build.core.settings import SETTINGS
from torchada_build.core.settings import value as setting

from ..archs import GpuTargets, musa_arch_list
from ..backends import Backend
from ..cmdline import shell_words
from ..dbfacts import DbFacts
from ..errors import ToolNotFoundError, UsageError
from ..identity import CUDA_VERSION_MACRO, GENERATED, VERSION_MACROS
from ..installations import find_musa
from ..options import Option, Stage, Treatment
from ..parse import Arg, ArgKind, ParsedArgs
from ..request import Language, Phase
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

__all__ = ["DEFAULT_CUDA_ARCH", "RENDERERS", "MccToolchain", "musa_arches_for"]

DEFAULT_CUDA_ARCH = 80
"""What ``-v`` reports, and builds target, when neither the command line, ``TORCHADA_MUSA_ARCH`` nor a
visible MUSA device says: sm_80, whose MUSA tier is mp_22 (MTT S4000)."""

_WERROR = {
    "all-warnings": "-Werror",
    "reorder": "-Werror=reorder",
    "deprecated-declarations": "-Werror=deprecated-declarations",
}

def _include(flag: str) -> Render:
    return lambda ctx, unit, arg: [w for v in arg.values for d in unit.search_dirs(v) for w in (flag, d)]


def _pre_include(ctx: BuildContext, unit: CachedUnit, arg: Arg) -> list[str]:
    return [w for value in arg.values for w in ("-include", unit.pre_include(value))]


def _default_stream(ctx: BuildContext, unit: CachedUnit, arg: Arg) -> list[str]:
    if arg.values[-1] != "per-thread":
        return []
    return [f"-D{ctx.facts.macro('CUDA_API_PER_THREAD_DEFAULT_STREAM')}=1"]


RENDERERS: dict[str, Render] = {
    "--compiler-options": lambda ctx, unit, arg: redirect_host_words(unit, [w for v in arg.values for w in shell_words(v)]),
    "--define-macro": lambda ctx, unit, arg: [f"-D{translate_macro(v, ctx.facts)}" for v in arg.values],
    "--undefine-macro": lambda ctx, unit, arg: [f"-U{translate_macro(v, ctx.facts)}" for v in arg.values],
    "--include-path": _include("-I"),
    "--system-include": _include("-isystem"),
    "--pre-include": _pre_include,
    "--Werror": lambda ctx, unit, arg: [_WERROR[v] for v in arg.values if v in _WERROR],
    "--default-stream": _default_stream,
    "--ftz": lambda ctx, unit, arg: ["-fmusa-flush-denormals-to-zero"] if arg.values[-1] == "true" else [],
    "--fmad": lambda ctx, unit, arg: ["-ffp-contract=fast" if arg.values[-1] == "true" else "-ffp-contract=off"],
}
"""How mcc spells a compile-stage option whose row has no spelling: its words depend on the value,
the unit or the mapping database. Every other compile-stage option is spelled by its row."""


def _check_listed(targets: GpuTargets, facts: DbFacts) -> None:
    """Refuse an architecture the table does not list, as nvcc 13.0 does one it does not know
    (``sm_12``, and ``sm_70``, which it dropped)."""
    for kind, numbers in (("sm", targets.real), ("compute", targets.virtual)):
        for number in numbers:
            if number not in facts.table_sms:
                oldest = min(facts.table_sms)
                musa = facts.musa_for_sm[oldest]
                hint = f" (the oldest nvcc 13.0 and torchada build for is sm_{oldest}, MUSA {musa})" if number < oldest else ""
                msg = f"Unsupported gpu architecture '{kind}_{number}'{hint}"
                raise UsageError(msg)


ARCH_VARIABLES = ("TORCHADA_MUSA_ARCH", "TORCH_MUSA_ARCH_LIST")
"""The variables naming MUSA architectures, first one set wins: torchada's, then torch_musa's own
(``musa_extension.py:805``, ``cmake/utils.cmake:68``)."""


def _named_arches(environ: Mapping[str, str], facts: DbFacts) -> list[str] | None:
    """The architectures the first of :data:`ARCH_VARIABLES` set names; one line for a name no table knows."""
    for variable in ARCH_VARIABLES:
        value = setting(variable, environ) if variable in SETTINGS else environ.get(variable, "")
        if value.strip():
            try:
                return musa_arch_list(value, facts.musa_targets)
            except ValueError as error:
                names = ", ".join(a.removeprefix("mp_") for a in facts.musa_targets)
                entry = error.args[0]
                if variable == "TORCHADA_MUSA_ARCH":
                    raise UsageError(BAD_MUSA_ARCH.text(entry=entry, names=names)) from None
                raise UsageError(BAD_TORCH_MUSA_ARCH_LIST.text(entry=entry, names=names)) from None
    return None


def _device_arches() -> list[str]:
    """torch_musa's default (``musa_extension.py:813-827``): every visible device's architecture, each
    clamped to the newest in ``torch.musa.get_arch_list()``; none without torch_musa or a device."""
    if importlib.util.find_spec("torch_musa") is None:
        return []
    try:
        import torch
        import torch_musa  # noqa: F401  (registers torch.musa)

        musa = torch.musa  # type: ignore[attr-defined]
        newest = max((int(a) // 10, int(a) % 10) for a in musa.get_arch_list())
        capabilities = [min(newest, tuple(musa.get_device_capability(i))) for i in range(musa.device_count())]
    except Exception:  # no device, a broken install: fall back to the documented default
        return []
    return [f"mp_{major}{minor}" for major, minor in sorted(set(capabilities))]


def musa_arches_for(targets: GpuTargets, environ: Mapping[str, str], facts: DbFacts) -> list[str]:
    """The MUSA architectures a compile asking for ``targets`` builds for: ``TORCHADA_MUSA_ARCH``, else
    ``TORCH_MUSA_ARCH_LIST``, else ``targets`` through the sm → mp table, else the visible devices'
    (:func:`_device_arches`), else the tier of :data:`DEFAULT_CUDA_ARCH`."""
    named = _named_arches(environ, facts)
    if named is not None:
        return named
    if targets.special in ("all", "all-major"):
        return list(facts.musa_arches)
    if targets.numbers and targets.special is None:
        _check_listed(targets, facts)
        return list(dict.fromkeys(facts.musa_for_sm[sm] for sm in targets.numbers))
    return _device_arches() or [facts.musa_for_sm[DEFAULT_CUDA_ARCH]]


class MccToolchain(TranslatingToolchain):
    backend = Backend.MCC

    def __init__(self, environ: Mapping[str, str]) -> None:
        super().__init__(environ)
        self.musa = find_musa(environ)

    def describe(self) -> str:
        return f"mcc backend, {self.musa.describe()}"

    def require_installed(self) -> None:
        if not self.musa.is_valid:
            raise ToolNotFoundError(NO_MCC.text(mcc=self.musa.mcc, found_by=self.musa.found_by))

    def include_dirs(self) -> list[Path]:
        return [self.musa.include_dir]

    def cuda_host_compiler(self, parsed: ParsedArgs, environ: Mapping[str, str]) -> str:
        """mcc compiles a CUDA file's host code itself (clang-based)."""
        return str(self.musa.mcc)

    def host_flags(self, cache_dir: Path, unit: CachedUnit) -> tuple[list[str], list[str]]:
        before, after = super().host_flags(cache_dir, unit)
        return [CUDA_VERSION_MACRO, *before], after

    def library_dirs(self) -> list[Path]:
        return [self.musa.lib_dir]

    def runtime_libraries(self, parsed: ParsedArgs) -> list[str]:
        # nvcc's default is the static runtime; mcc links the shared one for both, because kernels in a
        # static musart are reported not to register (docs/reference/musa_toolchain.md §2).
        if parsed.last("--cudart") == "none":
            return []
        return ["-lmusart", "-lrt", "-lpthread", "-ldl"]

    def shim_libraries(self, facts: DbFacts) -> dict[str, str]:
        shims = {}
        for cuda, musa in facts.libraries.items():
            suffix = ".a" if cuda.endswith("_static") else ".so"
            shims[f"lib{cuda}{suffix}"] = f"INPUT(-l{musa})\n"
        # The runtime is this backend's choice, whatever the database says (see runtime_libraries).
        musart = facts.library("cudart")
        shims["libcudart.so"] = shims["libcudart_static.a"] = f"INPUT(-l{musart})\n"
        # CMake puts -lcudadevrt on every CUDA host link; the device runtime belongs to the device link
        # (mcc -dlink ... -lmusadevrt), so on the host link it is an empty archive.
        del shims["libcudadevrt.so"]
        shims["libcudadevrt.a"] = "!<arch>\n"
        return shims

    def treatment(self, option: Option) -> Treatment:
        return option.mcc

    def mimic_headers(self, facts: DbFacts) -> dict[str, str]:
        """``cuda_runtime.h`` → ``#include <musa_runtime.h>``, for each header the database renames."""
        return {cuda: f"// {GENERATED}\n#pragma once\n#include <{musa}>\n" for cuda, musa in facts.headers.items()}

    def library_name(self, ctx: BuildContext, name: str) -> str | None:
        return ctx.facts.library("cudart" if name == "cudart_static" else name)

    def musa_targets(self, ctx: BuildContext) -> list[str]:
        return musa_arches_for(ctx.targets, ctx.environ, ctx.facts)

    def depends_on_device(self, ctx: BuildContext) -> bool:
        targets = ctx.targets
        asked = targets.special in ("all", "all-major") or (targets.numbers and targets.special is None)
        named = any(ctx.environ.get(variable, "").strip() for variable in ARCH_VARIABLES)
        return not named and not asked

    def arch_note(self, ctx: BuildContext, cuda_arch: int) -> str:
        return " ".join(f"--offload-arch={a}" for a in self.musa_targets(ctx))

    def default_arch(self, ctx: BuildContext) -> int:
        return ctx.facts.cuda_for_musa[self.musa_targets(ctx)[0]]

    def _flags(self, ctx: BuildContext, unit: CachedUnit, *, device: bool) -> list[str]:
        """The compile-stage options (and device-stage ones for a device compile) as the table spells
        them, or as :data:`RENDERERS` renders them."""
        stages = Stage.COMPILE | Stage.DEVICE if device else Stage.COMPILE
        flags: list[str] = []
        for arg in ctx.parsed.args:
            if arg.kind in (ArgKind.TO_HOST_COMPILER, ArgKind.TO_HOST_BOTH):
                flags += arg.spelling
            elif arg.option is not None and (treatment := self.treatment(arg.option)).stage & stages:
                flags += treatment.spell(arg.values) if treatment.spelling else RENDERERS[arg.option.canonical](ctx, unit, arg)
        # Headers that were not translated still resolve next to the original, after every translated copy.
        return flags + [w for directory in unit.original_dirs for w in ("-idirafter", directory)]

    def compile_argv(self, ctx: BuildContext, step: CompileStep) -> list[str]:
        device = step.source.language is Language.CUDA
        if device:
            # mcc takes a .mu file for MUSA by its suffix, as MUSAExtension compiles it; any other name
            # (a translated .cu, which mcc would take for clang CUDA) needs -x musa.
            musa_language = [] if step.unit.main.suffix == ".mu" else ["-x", "musa"]
            argv = [str(self.musa.mcc), *musa_language, *(f"--offload-arch={a}" for a in self.musa_targets(ctx))]
            argv += ["-U__CUDA__", *VERSION_MACROS]
            if not ctx.parsed.has("--std"):
                argv.append("-std=c++17")  # nvcc 13's default dialect
            if ctx.request.rdc and step.mode is Phase.COMPILE:
                argv.append("-fgpu-rdc")
        else:
            language = "c" if step.source.language is Language.C else "c++"
            argv = [self.host_compiler(ctx), "-x", language, CUDA_VERSION_MACRO]
        argv += self._flags(ctx, step.unit, device=device)
        argv += [f"-I{d}" for d in environment_mirrors(ctx, step)]
        argv += [f"-I{self.musa.include_dir}"]
        argv += _mode_flags(ctx, step, device)
        return self.finish_compile(ctx, step, argv)

    def device_link_argv(self, ctx: BuildContext, objects: list[str], output: str) -> list[str]:
        # torch_musa's musa_devlink rule: mcc <objects> -o dlink.o -fPIC ... -dlink -L... -l...
        words = [w for value in ctx.parsed.values("--compiler-options") for w in shell_words(value)]
        argv = [str(self.musa.mcc), "-dlink", *objects, "-o", output, *([] if "-fPIC" in words else ["-fPIC"])]
        argv += [f"--offload-arch={a}" for a in self.musa_targets(ctx)]
        argv += words
        argv += [f"-L{d}" for d in [*ctx.parsed.values("--library-path"), str(self.musa.lib_dir)]]
        libraries = self.library_flags(ctx)
        devrt = f"-l{ctx.facts.library('cudadevrt')}"
        if ctx.parsed.last("--cudadevrt") != "none" and devrt not in libraries:
            libraries.append(devrt)  # nvcc resolves device-runtime calls against cudadevrt here
        return argv + libraries

    def needs_device_link(self, ctx: BuildContext) -> bool:
        return ctx.request.rdc and not ctx.parsed.has("--no-device-link")


def _mode_flags(ctx: BuildContext, step: CompileStep, device: bool) -> list[str]:
    """``-c``/``-E``/``-M`` and the dependency flags (written to a temporary file the driver rewrites)."""
    if step.mode is Phase.PREPROCESS:
        # nvcc preprocesses a .cu in its device pass; clang's spelling (unverified for mcc).
        flags = ["-E", "--cuda-device-only"] if device else ["-E"]
        return [*flags, "-P"] if ctx.parsed.has("--torchada-no-line-markers") else flags
    flags = dependency_flags(step)
    if step.mode is Phase.COMPILE:
        flags.append("-c")
    return flags

"""What the translating backends share: the build context, one compile step, and the host link and archive.

A :class:`TranslatingToolchain` turns the plan's steps into commands. The backend-specific classes (mcc
in :mod:`.mcc`, loopback in :mod:`.loopback`) render compiles and device links; the
host link (nvcc's ``g++ … -Wl,--start-group objects … -l<runtime> -Wl,--end-group -o out``) and the
archive (``ar cr``) are the same for both, apart from the runtime libraries they name. The nvcc
backend's toolchain plans nothing: it hands the command line to the real nvcc untouched (:mod:`.nvcc`).
"""

from __future__ import annotations

import abc
import functools
import os
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..archs import GpuTargets
from ..cmdline import shell_words
from ..dbfacts import DbFacts, get_db_facts
from ..errors import ToolNotFoundError, UnsupportedOptionError
from ..identity import CUDA_VERSION
from ..options import Action, Option, Stage, Treatment
from ..parse import Arg, ArgKind, ParsedArgs
from ..request import Input, Language, Phase, Request
from ..units import CachedUnit
from . import Toolchain

__all__ = [
    "BuildContext",
    "CompileStep",
    "Render",
    "TranslatingToolchain",
    "dependency_flags",
    "environment_include_dirs",
    "environment_mirrors",
    "host_compiler_words",
    "host_searches",
    "redirect_host_words",
    "translate_macro",
]

_MACRO_NAME = re.compile(r"[A-Za-z_]\w*")

@dataclass(frozen=True)
class BuildContext:
    """One run of the driver: the parsed command line and everything derived from it."""

    parsed: ParsedArgs
    request: Request
    targets: GpuTargets
    environ: Mapping[str, str]
    cache_dir: Path
    workdir: Path
    """Where this run's temporaries go (created only when jobs run)."""
    launcher: tuple[str, ...] = ()
    """``TORCHADA_COMPILER_LAUNCHER`` (ccache, sccache), prefixed to compile commands."""

    @functools.cached_property
    def facts(self) -> DbFacts:
        return get_db_facts(self.cache_dir)


@dataclass(frozen=True)
class CompileStep:
    source: Input
    unit: CachedUnit
    mode: Phase
    """The phase of the request this compile runs (preprocess, dependencies, device-only output, compile)."""
    output: str | None
    depfile: str | None = None
    """A temporary dependency file for the compiler to write (the driver rewrites it)."""
    dependency_target: str | None = None
    system_dependencies: bool = True


Render = Callable[[BuildContext, CachedUnit, Arg], list[str]]
"""How a toolchain renders one option on a compile command that its row does not spell."""


def dependency_flags(step: CompileStep) -> list[str]:
    """``-M``/``-MM``/``-MD``/``-MMD`` with a temporary ``-MF`` (the driver rewrites it) and ``-MT``."""
    if step.depfile is None:
        return []
    if step.mode is Phase.DEPENDENCIES:
        flag = "-M" if step.system_dependencies else "-MM"
    else:
        flag = "-MD" if step.system_dependencies else "-MMD"
    return [flag, "-MF", step.depfile, "-MT", step.dependency_target or ""]


def translate_macro(item: str, facts: DbFacts) -> str:
    """``__CUDA_NO_HALF_OPERATORS__=1`` → the same with the macro's MUSA name, when it has one."""
    match = _MACRO_NAME.match(item)
    if not match:
        return item
    return facts.macro(match.group()) + item[match.end() :]


_HOST_SEARCH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")
_ENVIRONMENT_SEARCHES = {Language.C: ("CPATH", "C_INCLUDE_PATH"), Language.CXX: ("CPATH", "CPLUS_INCLUDE_PATH"),
                         Language.CUDA: ("CPATH", "CPLUS_INCLUDE_PATH")}  # fmt: skip
"""The variables gcc and clang search after every ``-I`` (nvcc's host compiler reads a ``.cu`` as C++)."""


_NOT_SEARCHES = ("-include-pch",)
"""Options that begin like a search flag and are not one: clang's precompiled header (its file is no
forced include of ``-pch``)."""


def _host_search_words(words: list[str]) -> list[tuple[str, str | None, bool]]:
    """``words`` as ``(flag, value, joined)``: a search flag or ``-include`` with its directory or file
    (joined to it, or the next word), and any other word with None."""
    parsed: list[tuple[str, str | None, bool]] = []
    rest = iter(words)
    for word in rest:
        searches = (*_HOST_SEARCH_FLAGS, "-include") if word not in _NOT_SEARCHES else ()
        flag = next((f for f in searches if word.startswith(f)), None)
        value = word[len(flag) :] if flag is not None else None
        joined = bool(value)
        if flag is not None and not value:
            value = next(rest, None)
        parsed.append((word, None, False) if flag is None or value is None else (flag, value, joined))
    return parsed


def host_searches(words: list[str]) -> tuple[list[str], list[str]]:
    """The include directories and the forced includes (``-include``) of host-compiler words."""
    directories: list[str] = []
    includes: list[str] = []
    for flag, value, _ in _host_search_words(words):
        if value is not None:
            (includes if flag == "-include" else directories).append(value)
    return directories, includes


def redirect_host_words(unit: CachedUnit, words: list[str]) -> list[str]:
    """Host-compiler words with each search directory's translated copy before it and each forced include
    as its translated copy, as the driver's own ``-I`` and ``-include`` are given; spelled as they were
    (``-Iinc`` or ``-I inc``)."""
    redirected: list[str] = []
    for flag, value, joined in _host_search_words(words):
        if value is None:
            redirected.append(flag)
            continue
        values = [unit.pre_include(value)] if flag == "-include" else unit.search_dirs(value)
        redirected += [f"{flag}{v}" for v in values] if joined else [w for v in values for w in (flag, v)]
    return redirected


def environment_include_dirs(environ: Mapping[str, str], language: Language) -> list[str]:
    """The directories ``CPATH`` and the language's variable add to the search (an empty entry is the
    working directory, as for gcc)."""
    values = [environ.get(name, "") for name in _ENVIRONMENT_SEARCHES.get(language, ())]
    return [entry or os.curdir for value in values if value for entry in value.split(os.pathsep)]


def environment_mirrors(ctx: BuildContext, step: CompileStep) -> list[Path]:
    """The translated copies of the :func:`environment_include_dirs` that have one: searched with ``-I``,
    which comes before every directory of the environment."""
    directories = environment_include_dirs(ctx.environ, step.source.language)
    return [m for d in directories if (m := step.unit.mirrored_dir(Path(d).absolute())) is not None]


def host_compiler_words(parsed: ParsedArgs) -> list[str]:
    """The ``-Xcompiler`` items as a shell would split them, and forwarded unknown options."""
    words = [w for value in parsed.values("--compiler-options") for w in shell_words(value)]
    return words + parsed.forwarded(ArgKind.TO_HOST_COMPILER, ArgKind.TO_HOST_BOTH)


class TranslatingToolchain(Toolchain, abc.ABC):
    """A toolchain that translates each unit and renders its commands (mcc, loopback)."""

    # -- identity and the toolkit mimic --------------------------------------------------------

    def cuda_version(self) -> tuple[int, int, int]:
        """The CUDA version this backend claims (``--version``, the toolkit mimic's ``version.json``)."""
        return CUDA_VERSION

    @abc.abstractmethod
    def include_dirs(self) -> list[Path]:
        """The toolkit's include directories (``#$ INCLUDES=``)."""

    @abc.abstractmethod
    def library_dirs(self) -> list[Path]:
        """The toolkit's library directories, after the mimic's ``lib64`` (``#$ LIBRARIES=``)."""

    def prepare(self, cache_dir: Path) -> None:
        """Write what this toolchain's compile commands name besides the unit (loopback: the compat
        headers), before they are planned."""

    def host_flags(self, cache_dir: Path, unit: CachedUnit) -> tuple[list[str], list[str]]:  # noqa: ARG002
        """What a host compiler needs around the user's flags to compile ``unit``, a translated C/C++
        file: (before them, after them). By default the toolkit's include directories, after."""
        return [], [f"-I{d}" for d in self.include_dirs()]

    @abc.abstractmethod
    def runtime_libraries(self, parsed: ParsedArgs) -> list[str]:
        """What the host link adds after the user's libraries (``-lmusart``, ``-lcudart_static``…)."""

    @abc.abstractmethod
    def shim_libraries(self, facts: DbFacts) -> dict[str, str]:
        """The toolkit mimic's ``lib64``: file name → GNU ld script (``libcudart.so`` → ``INPUT(-lmusart)``)."""

    def mimic_headers(self, facts: DbFacts) -> dict[str, str]:
        """The toolkit mimic's ``include/``: file name → text (see also :meth:`mimic_include_links`)."""
        return {}

    def mimic_include_links(self) -> dict[str, Path]:
        """The toolkit mimic's ``include/``: entry name → the file or directory it is a symlink to."""
        return {}

    @abc.abstractmethod
    def default_arch(self, ctx: BuildContext) -> int:
        """The ``compute_NN`` that ``-v`` reports when no architecture was asked for."""

    def musa_targets(self, ctx: BuildContext) -> list[str]:  # noqa: ARG002
        """The MUSA architectures a compile builds for; none where the backend builds for CUDA's."""
        return []

    def reported_arches(self, ctx: BuildContext) -> list[int]:
        """The ``-arch compute_NN`` lines of ``-v``: what was asked for, one per MUSA tier for ``all``."""
        if ctx.targets.virtual:
            return list(ctx.targets.virtual)
        if ctx.targets.special in ("all", "all-major"):
            return [sm for arch in ctx.facts.musa_arches if (sm := ctx.facts.tier_sm(arch)) is not None]
        return [self.default_arch(ctx)]

    def depends_on_device(self, ctx: BuildContext) -> bool:
        """Whether the commands depend on the visible device (no architecture was asked for)."""
        return False

    def arch_note(self, ctx: BuildContext, cuda_arch: int) -> str:
        """What ``-arch compute_<cuda_arch>`` becomes, for the ``-v`` line (empty: unchanged)."""
        return ""

    # -- compiling -----------------------------------------------------------------------------

    @abc.abstractmethod
    def compile_argv(self, ctx: BuildContext, step: CompileStep) -> list[str]: ...

    @abc.abstractmethod
    def device_link_argv(self, ctx: BuildContext, objects: list[str], output: str) -> list[str]: ...

    @abc.abstractmethod
    def needs_device_link(self, ctx: BuildContext) -> bool:
        """Whether linking executables or shared libraries runs a device link first."""

    @abc.abstractmethod
    def treatment(self, option: Option) -> Treatment:
        """This backend's column of the option table."""

    def check_options(self, parsed: ParsedArgs) -> None:
        for arg in parsed.args:
            if arg.option is None:
                continue
            treatment = self.treatment(arg.option)
            if treatment.action is Action.UNSUPPORTED:
                msg = (
                    f"option '{arg.spelling[0]}' is not supported by the {self.backend.value} backend: "
                    f"{treatment.reason}"
                )
                raise UnsupportedOptionError(msg)

    def library_name(self, ctx: BuildContext, name: str) -> str | None:
        """The backend's name for ``-l<name>``; None leaves it out."""
        return name

    def library_flags(self, ctx: BuildContext) -> list[str]:
        names = (self.library_name(ctx, n) for n in ctx.parsed.values("--library"))
        return [f"-l{name}" for name in names if name is not None]

    def rpath_dirs(self, ctx: BuildContext) -> list[Path]:
        return []

    # -- the host link and the archive ----------------------------------------------------------

    def host_compiler(self, ctx: BuildContext) -> str:
        """The host C++ compiler: ``-ccbin`` (a program or a directory), ``NVCC_CCBIN``, else ``c++``."""
        return self.find_host_compiler(ctx.parsed, ctx.environ)

    def cuda_host_compiler(self, parsed: ParsedArgs, environ: Mapping[str, str]) -> str:
        """The compiler of a CUDA file's host code, which ``nvcc .c -Xcompiler --version`` asks
        (llama.cpp's builds pick their host warning flags by it): nvcc's host compiler by default."""
        return self.find_host_compiler(parsed, environ)

    @staticmethod
    def find_host_compiler(parsed: ParsedArgs, environ: Mapping[str, str]) -> str:
        value = parsed.last("--compiler-bindir") or environ.get("NVCC_CCBIN")
        if value:
            value = value.strip('"')
            if os.path.isdir(value):
                for name in ("g++", "c++", "clang++"):
                    if os.access(os.path.join(value, name), os.X_OK):
                        return os.path.join(value, name)
                msg = f"no C++ compiler (g++, c++, clang++) in the -ccbin directory '{value}'"
                raise ToolNotFoundError(msg)
            found = shutil.which(value, path=environ.get("PATH"))
            if found is None:
                msg = f"cannot find the host compiler '{value}' given by -ccbin"
                raise ToolNotFoundError(msg)
            return found
        found = shutil.which("c++", path=environ.get("PATH")) or shutil.which("g++", path=environ.get("PATH"))
        if found is None:
            msg = "cannot find a host C++ compiler (c++ or g++) on PATH; pass -ccbin"
            raise ToolNotFoundError(msg)
        return found

    def link_argv(self, ctx: BuildContext, objects: list[str], output: str, library_flags: list[str]) -> list[str]:
        """nvcc's host link: user -L/-l before the toolkit's ``library_flags`` (the LIBRARIES words)."""
        parsed = ctx.parsed
        argv = [self.host_compiler(ctx), *host_compiler_words(parsed)]
        argv += parsed.forwarded(ArgKind.TO_HOST_LINKER)
        argv += ["-Wl,--start-group", *objects]
        for arg in parsed.args:  # the options the table spells for the link (-shared, -r, -pg)
            if arg.option is not None and Stage.LINK in (treatment := self.treatment(arg.option)).stage:
                argv += treatment.spell(arg.values)
        for item in parsed.values("--linker-options"):
            argv += ["-Xlinker", item]
        argv += [f"-L{d}" for d in parsed.values("--library-path")]
        argv += self.library_flags(ctx)
        argv += library_flags
        argv += [f"-Wl,-rpath,{d}" for d in self.rpath_dirs(ctx)]
        argv += self.runtime_libraries(parsed)
        argv += ["-Wl,--end-group", "-o", output]
        return argv

    def archive_argv(self, ctx: BuildContext, objects: list[str], output: str) -> list[str]:
        archiver = ctx.parsed.last("--archiver-binary") or "ar"
        options = [w for value in ctx.parsed.values("--archive-options") for w in shell_words(value)]
        return [archiver, "cr", *options, output, *objects]

    def finish_compile(self, ctx: BuildContext, step: CompileStep, argv: list[str]) -> list[str]:
        """The compile command: ``argv``, the translated main file, ``-o``, behind the launcher."""
        output = ["-o", step.output] if step.output is not None else []
        return [*ctx.launcher, *argv, str(step.unit.main), *output]

"""What a parsed command line asks for: the phase, the inputs and their languages, the outputs.

This is nvcc's semantics, backend-free (``docs/nvcc.md``, "Inputs, outputs and phases", "Dependency files"): the phase that stops
earliest wins (``-E``/``-M`` > ``-ptx``… > ``-c`` > ``-dlink`` > ``-lib`` > link), ``-x`` applies to every
input, ``-c`` without ``-o`` writes ``[odir/]stem.o`` in the current directory, and dependency files
follow nvcc's naming rules.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, replace
from pathlib import Path, PurePath

from torchada_build.core.inputs import Language, nvcc_language, nvcc_suffixes

from .errors import InputError, UsageError
from .parse import ParsedArgs

__all__ = [
    "DEVICE_ONLY_OPTIONS",
    "DependencyMode",
    "Dependencies",
    "Input",
    "Language",
    "Phase",
    "Request",
    "STDIN",
    "build_request",
    "standard_input",
]


class Phase(enum.Enum):
    PREPROCESS = "preprocess"
    DEPENDENCIES = "dependencies"
    DEVICE_ONLY = "device-only output"
    COMPILE = "compile"
    DEVICE_LINK = "device link"
    ARCHIVE = "archive"
    LINK = "link"


class DependencyMode(enum.Enum):
    NONE = "none"
    ONLY = "only"
    """``-M``/``-MM``: write dependencies instead of compiling."""
    WITH_COMPILE = "with compile"
    """``-MD``/``-MMD``: compile and write a ``.d`` file."""


_FORCED = {"cu": Language.CUDA, "c++": Language.CXX, "c": Language.C}
STDIN = "-"
"""The input that is standard input, in the language ``-x`` names (nvcc's ``-x cu -``)."""
DEVICE_ONLY_OPTIONS = ("--cuda", "--ptx", "--cubin", "--fatbin", "--optix-ir", "--ltoir")


@dataclass(frozen=True, slots=True)
class Input:
    path: str
    """As the user spelled it."""
    language: Language


@dataclass(frozen=True, slots=True)
class Dependencies:
    mode: DependencyMode
    system: bool = True
    """False for ``-MM``/``-MMD``: leave system headers out."""
    file: str | None = None
    """Where the rule goes; None means stdout (``-M`` without ``-o``/``-MF``) or nvcc's default name."""
    target: str | None = None
    phony: bool = False


@dataclass(frozen=True)
class Request:
    phase: Phase
    inputs: tuple[Input, ...]
    output: str | None
    output_dir: str | None
    rdc: bool
    dependencies: Dependencies
    run: bool
    shared: bool

    @property
    def sources(self) -> tuple[Input, ...]:
        return tuple(i for i in self.inputs if i.language in (Language.CUDA, Language.CXX, Language.C))

    @property
    def linker_inputs(self) -> tuple[Input, ...]:
        return tuple(i for i in self.inputs if i.language is Language.LINKER_INPUT)

    def object_for(self, source: Input) -> str:
        """nvcc's ``-c`` output without ``-o``: ``[odir/]stem.o`` in the current directory."""
        name = PurePath(source.path).stem + ".o"
        return os.path.join(self.output_dir, name) if self.output_dir else name

    def depfile_for(self, source: Input) -> str:
        """``-MD`` without ``-MF``: the ``-o`` name with ``.d`` (in link mode too), else ``[odir/]stem.d``."""
        if self.dependencies.file:
            return self.dependencies.file
        if self.output:
            return str(PurePath(self.output).with_suffix(".d"))
        return str(PurePath(self.object_for(source)).with_suffix(".d"))

    def dependency_target(self, source: Input) -> str:
        """``-MT``, else the ``-o`` path with ``-MD``, else ``[odir/]stem.o``."""
        if self.dependencies.target:
            return self.dependencies.target
        if self.dependencies.mode is DependencyMode.WITH_COMPILE and self.output:
            return self.output
        return self.object_for(source)


def _phase(parsed: ParsedArgs) -> Phase:
    if parsed.has("--generate-dependencies") or parsed.has("--generate-nonsystem-dependencies"):
        return Phase.DEPENDENCIES
    if parsed.has("--preprocess"):
        return Phase.PREPROCESS
    if any(parsed.has(o) for o in DEVICE_ONLY_OPTIONS):
        return Phase.DEVICE_ONLY
    if parsed.has("--compile") or parsed.has("--device-c") or parsed.has("--device-w"):
        return Phase.COMPILE
    if parsed.has("--device-link"):
        return Phase.DEVICE_LINK
    if parsed.has("--lib"):
        return Phase.ARCHIVE
    return Phase.LINK


def _language(path: str, forced: Language | None) -> Language:
    name = PurePath(path).name
    suffix = PurePath(path).suffix
    if ".so." in name:
        suffix = ".so"
    language = nvcc_language(suffix)
    if language is Language.LINKER_INPUT:
        return language
    if forced is not None:
        return forced
    if language is None:
        msg = f"Don't know what to do with '{path}'"
        raise InputError(msg)
    return language


def standard_input(request: Request, workdir: Path) -> Request:
    """``request`` with the standard input (:data:`STDIN`) read into ``stdin.<suffix>`` in ``workdir``:
    the translator and the compiler read a file, which names the object (``stdin.o``) as nvcc's
    ``tmpxft_…_stdin`` file names its own."""
    import sys

    (stdin,) = (i for i in request.inputs if i.path == STDIN)
    path = workdir / ("stdin" + nvcc_suffixes(stdin.language)[0])
    path.write_bytes(sys.stdin.buffer.read())
    return replace(request, inputs=tuple(Input(str(path), i.language) if i is stdin else i for i in request.inputs))


def _dependencies(parsed: ParsedArgs, phase: Phase, output: str | None) -> Dependencies:
    only = phase is Phase.DEPENDENCIES
    with_compile = parsed.has("--generate-dependencies-with-compile") or parsed.has(
        "--generate-nonsystem-dependencies-with-compile"
    )
    if not (only or with_compile):
        return Dependencies(DependencyMode.NONE)
    nonsystem = parsed.has("--generate-nonsystem-dependencies") or parsed.has(
        "--generate-nonsystem-dependencies-with-compile"
    )
    file = parsed.last("--dependency-output")
    if only and output:
        file = output  # nvcc: with -M, -o beats -MF
    return Dependencies(
        DependencyMode.ONLY if only else DependencyMode.WITH_COMPILE,
        system=not nonsystem,
        file=file,
        target=parsed.last("--dependency-target-name"),
        phony=parsed.has("--generate-dependency-targets"),
    )


def build_request(parsed: ParsedArgs) -> Request:
    """The request of a parsed command line; raises nvcc's errors for impossible ones."""
    phase = _phase(parsed)
    forced = _FORCED.get(parsed.last("--x") or "")
    inputs = tuple(Input(path, _language(path, forced)) for path in parsed.inputs)
    if not inputs:
        msg = "No input files specified; use option --help for more information"
        raise UsageError(msg)
    for item in inputs:
        if item.language is Language.DEVICE_CODE:
            msg = f"'{item.path}' is NVIDIA device code; torchada-nvcc compiles CUDA, C and C++ sources"
            raise InputError(msg)
    output = parsed.last("--output-file")
    single_output_phases = (Phase.PREPROCESS, Phase.DEPENDENCIES, Phase.DEVICE_ONLY, Phase.COMPILE)
    sources = [i for i in inputs if i.language is not Language.LINKER_INPUT]
    if phase in single_output_phases and output and len(sources) > 1:
        msg = "A single input file is required for a non-link phase when an outputfile is specified"
        raise UsageError(msg)
    rdc_value = parsed.last("--relocatable-device-code")
    rdc = parsed.has("--device-c") or rdc_value == "true"
    if parsed.has("--device-w"):
        rdc = False
    return Request(
        phase=phase,
        inputs=inputs,
        output=output,
        output_dir=parsed.last("--output-directory"),
        rdc=rdc,
        dependencies=_dependencies(parsed, phase, output),
        run=parsed.has("--run"),
        shared=parsed.has("--shared"),
    )

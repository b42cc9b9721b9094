"""The planner, modelled on clang's driver: a request, a toolchain and what was prepared → the jobs to run.

Preparing (:func:`prepare`) makes what the commands name: each source's translated unit (looked up or
translated into the cache), the toolkit mimic a link names, the loopback compat headers. Planning
(:func:`plan_jobs`) is then a function of the request, the toolchain and what was prepared, and writes
nothing. Each source input gets a translate job (which prints the unit's findings) and, by phase, a
preprocess, dependency or compile job;
dependency files are written by an in-process filter job that names the original files. Then come
the device link, the archive or the host link, and ``-run``'s program. ``-clean`` turns the plan
into one ``rm -f`` of its outputs.

    >>> jobs = plan_jobs(ctx, toolchain, prepare(ctx, toolchain, write=True))  # doctest: +SKIP
    >>> [j.kind.value for j in jobs]              # doctest: +SKIP
    ['translate', 'compile', 'filter dependencies']
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath

from .errors import TranslationError
from .identity import library_flags
from .jobs import Job, JobKind
from .reads import ReadsCheck
from .request import DependencyMode, Input, Phase
from .toolchains.base import (
    BuildContext,
    CompileStep,
    TranslatingToolchain,
    dependency_flags,
    environment_include_dirs,
    host_compiler_words,
    host_searches,
)
from .units import CachedUnit, UnitRequest, get_unit, translate_command

__all__ = ["Prepared", "clean_jobs", "plan_jobs", "prepare", "unit_request"]


@dataclass(frozen=True)
class Prepared:
    """What the commands of a plan name, made before planning."""

    units: Mapping[int, tuple[UnitRequest, CachedUnit]]
    """Each source input's unit (by the input's index), and the request it answers."""
    toolkit: Path | None = None
    """The toolkit mimic, whose libraries a link names (None: the request does not link)."""


def prepare(ctx: BuildContext, toolchain: TranslatingToolchain, *, write: bool) -> Prepared:
    """Translate each source's unit (or find it in the cache), and the toolchain's own files; the toolkit
    mimic too when ``write`` (a dry run names where it would be)."""
    from .toolkit import ensure_toolkit, toolkit_home

    ctx.facts  # noqa: B018 - the database's facts, cached in the cache, which every command renders with
    units = {}
    for index, item in enumerate(ctx.request.inputs):
        if item in ctx.request.sources:
            request = unit_request(ctx, item)
            units[index] = (request, get_unit(request, ctx.cache_dir))
    toolchain.prepare(ctx.cache_dir)
    if ctx.request.phase is not Phase.LINK:
        return Prepared(units)
    return Prepared(units, (ensure_toolkit if write else toolkit_home)(toolchain, ctx.facts, ctx.cache_dir))

def _absolute(paths: list[str]) -> tuple[Path, ...]:
    return tuple(Path(os.path.normpath(Path(p).absolute())) for p in paths)


def unit_request(ctx: BuildContext, source: Input) -> UnitRequest:
    """The unit of ``source``: its includes searched where the compiler searches them (nvcc's ``-I`` and
    ``-isystem``, the host compiler's, ``CPATH``), with the forced includes of both."""
    host_dirs, host_includes = host_searches(host_compiler_words(ctx.parsed))
    searched = ctx.parsed.values("--include-path") + ctx.parsed.values("--system-include") + host_dirs
    include_dirs = _absolute(searched + environment_include_dirs(ctx.environ, source.language))
    return UnitRequest.of(_absolute([source.path])[0], include_dirs, ctx.parsed.values("--pre-include") + host_includes)


WARP_FINDING = "TA1201"
"""The finding of a 32-lane warp assumption, which is none where every targeted architecture has 32 lanes."""


def _report_findings(ctx: BuildContext, toolchain: TranslatingToolchain, unit: CachedUnit, executing: bool) -> None:
    """Print the translator's findings gcc-style; under ``-Werror all-warnings`` they are errors and fail
    the build. A dry run prints every one (a header's too, though a build prints it once a session) and
    fails nothing. A 32-lane warp assumption is no finding where every MUSA architecture the compile
    targets has 32-lane warps (mp_31)."""
    from hipify_like.findings import Severity

    targets = toolchain.musa_targets(ctx)
    narrow = bool(targets) and all(ctx.facts.warps[arch] == 32 for arch in targets)

    left_out = (WARP_FINDING,) if narrow else ()
    if "all-warnings" in ctx.parsed.values("--Werror") and (errors := unit.findings_applying(left_out)):
        for finding in errors:
            print(finding.format(Severity.ERROR), file=sys.stderr)
        if executing:
            raise TranslationError(f"{len(errors)} translation finding(s) in '{unit.originals[0]}' are errors under -Werror")
    elif not ctx.parsed.has("--disable-warnings"):
        for finding in unit.findings_to_print(left_out) if executing else unit.findings_applying(left_out):
            print(finding.format(Severity.WARNING), file=sys.stderr)


def _reads_check(ctx: BuildContext, step: CompileStep, request: UnitRequest, own: bool) -> ReadsCheck:
    """The check of what ``step``'s compiler read, from its dependency file; ``own``: a file only the check
    asked for."""
    assert step.depfile is not None
    return ReadsCheck.of(step.unit, request, step.depfile, ctx.cache_dir, tuple(dependency_flags(step)) if own else ())


def _source_jobs(ctx: BuildContext, toolchain: TranslatingToolchain, prepared: Prepared, index: int, source: Input,
                 obj: str | None) -> list[Job]:  # fmt: skip
    request = ctx.request
    unit_req, unit = prepared.units[index]
    jobs = [Job(JobKind.TRANSLATE, translate_command(unit_req), report=lambda executing: _report_findings(ctx, toolchain, unit, executing))]
    deps = request.dependencies
    if request.phase is Phase.PREPROCESS:
        step = CompileStep(source, unit, Phase.PREPROCESS, request.output)
        preprocess = Job(JobKind.PREPROCESS, tuple(toolchain.compile_argv(ctx, step)))
        if deps.mode is DependencyMode.NONE:  # what the preprocessor reads, checked before it writes
            depfile = str(ctx.workdir / f"{index}_{PurePath(source.path).stem}.d")
            reads = CompileStep(source, unit, Phase.DEPENDENCIES, None, depfile, request.dependency_target(source))
            check = _reads_check(ctx, reads, unit_req, own=True)
            return [*jobs, Job(JobKind.DEPENDENCIES, tuple(toolchain.compile_argv(ctx, reads)), check=check), preprocess]
        # -E with -MD/-MMD (nvcc refuses it; gcc writes the rule while preprocessing, and sccache asks
        # for it): the rule comes from a dependencies-only job, as for -M.
        jobs += _dependency_jobs(ctx, toolchain, index, source, unit_req, unit, Phase.DEPENDENCIES, None)
        return [*jobs, preprocess]
    if request.phase is Phase.DEVICE_ONLY:
        step = CompileStep(source, unit, Phase.DEVICE_ONLY, request.output)
        return [*jobs, Job(JobKind.COMPILE, tuple(toolchain.compile_argv(ctx, step)))]
    if deps.mode is DependencyMode.NONE:
        assert obj is not None
        depfile = str(ctx.workdir / f"{index}_{PurePath(source.path).stem}.d")
        step = CompileStep(source, unit, Phase.COMPILE, obj, depfile, obj)
        compile_job = Job(JobKind.COMPILE, tuple(toolchain.compile_argv(ctx, step)), outputs=(obj,), check=_reads_check(ctx, step, unit_req, own=True))
        return [*jobs, compile_job]
    if deps.mode is DependencyMode.ONLY:
        return jobs + _dependency_jobs(ctx, toolchain, index, source, unit_req, unit, Phase.DEPENDENCIES, None)
    assert obj is not None
    return jobs + _dependency_jobs(ctx, toolchain, index, source, unit_req, unit, Phase.COMPILE, obj)


def _dependency_jobs(ctx: BuildContext, toolchain: TranslatingToolchain, index: int, source: Input,
                     unit_req: UnitRequest, unit: CachedUnit, mode: Phase, obj: str | None) -> list[Job]:  # fmt: skip
    """The job that writes a dependency rule to a temporary file (a ``-M`` run, or the compile with
    ``-MD``), then the filter job that writes it where asked, naming the original files."""
    request, deps = ctx.request, ctx.request.dependencies
    temporary = str(ctx.workdir / f"{index}_{PurePath(source.path).stem}.d")
    target = request.dependency_target(source)
    step = CompileStep(source, unit, mode, obj, temporary, target, deps.system)
    check = _reads_check(ctx, step, unit_req, own=False) if deps.system else None  # -MMD leaves out what -isystem found
    if mode is Phase.COMPILE:
        assert obj is not None
        final: str | None = request.depfile_for(source)
        jobs = [Job(JobKind.COMPILE, tuple(toolchain.compile_argv(ctx, step)), outputs=(obj,), check=check)]
    else:
        final = deps.file if deps.mode is DependencyMode.ONLY else request.depfile_for(source)
        jobs = [Job(JobKind.DEPENDENCIES, tuple(toolchain.compile_argv(ctx, step)), check=check)]
    display = f"-- Filter Dependencies -- > {final}" if final else "-- Filter Dependencies --"
    filter_job = Job(
        JobKind.FILTER_DEPENDENCIES,
        (),
        outputs=(final,) if final else (),
        rewrite=unit.rewrite(temporary, final, target, deps.phony, source.path),
        display=display,
    )
    return [*jobs, filter_job]


def plan_jobs(ctx: BuildContext, toolchain: TranslatingToolchain, prepared: Prepared) -> list[Job]:
    """The jobs of ``ctx``'s request; nothing is written (:func:`prepare` made what they name)."""
    request = ctx.request
    jobs: list[Job] = []
    objects: list[str] = []
    final_objects = request.phase is Phase.COMPILE
    for index, item in enumerate(request.inputs):
        if item not in request.sources:
            objects.append(item.path)
            continue
        obj = None
        if final_objects:
            obj = request.output or request.object_for(item)
        elif request.phase in (Phase.DEVICE_LINK, Phase.ARCHIVE, Phase.LINK):
            obj = str(ctx.workdir / f"{index}_{PurePath(item.path).stem}.o")
        jobs += _source_jobs(ctx, toolchain, prepared, index, item, obj)
        if obj is not None:
            objects.append(obj)
    if request.phase is Phase.DEVICE_LINK:
        output = request.output or "a_dlink.o"
        jobs.append(Job(JobKind.DEVICE_LINK, tuple(toolchain.device_link_argv(ctx, objects, output)), (output,)))
    elif request.phase is Phase.ARCHIVE:
        output = request.output or "a.a"
        jobs.append(Job(JobKind.ARCHIVE, tuple(toolchain.archive_argv(ctx, objects, output)), (output,)))
    elif request.phase is Phase.LINK:
        assert prepared.toolkit is not None
        jobs += _link_jobs(ctx, toolchain, objects, prepared.toolkit)
    return jobs


def _link_jobs(ctx: BuildContext, toolchain: TranslatingToolchain, objects: list[str], home: Path) -> list[Job]:
    jobs = []
    output = ctx.request.output or "a.out"
    if toolchain.needs_device_link(ctx):
        dlink = str(ctx.workdir / f"{PurePath(output).name}_dlink.o")
        jobs.append(Job(JobKind.DEVICE_LINK, tuple(toolchain.device_link_argv(ctx, objects, dlink)), (dlink,)))
        objects = [dlink, *objects]
    flags = library_flags([home / "lib64", *toolchain.library_dirs()])
    jobs.append(Job(JobKind.LINK, tuple(toolchain.link_argv(ctx, objects, output, flags)), (output,)))
    if ctx.request.run:
        program = output if os.sep in output else os.path.join(os.curdir, output)
        jobs.append(Job(JobKind.RUN, (program, *ctx.parsed.values("--run-args"))))
    return jobs


def clean_jobs(ctx: BuildContext, jobs: list[Job]) -> list[Job]:
    """``-clean``: delete what the plan would write (not its temporaries), and nothing else."""
    temporaries = str(ctx.workdir) + os.sep
    outputs = [o for job in jobs for o in job.outputs if not o.startswith(temporaries)]
    return [Job(JobKind.CLEAN, ("rm", "-f", "--", *outputs))] if outputs else []

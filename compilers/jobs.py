"""Jobs: the commands a plan runs, printed in nvcc's ``#$ `` form by ``--dryrun`` and ``-v``.

A job is an argv (never a shell line) or an in-process step that still prints as a command: the
translate job prints the ``python -m torchada_build.compilers.units`` command that does the same
work, and the dependency filter prints nvcc's own ``#$ -- Filter Dependencies -- > file`` line.
"""

from __future__ import annotations

import enum
import errno
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import CannotRunError, FailedProcessError
from .request import Phase

if TYPE_CHECKING:
    from .depfile import DependencyRewrite
    from .reads import ReadsCheck

__all__ = ["Job", "JobKind", "run_jobs"]


class JobKind(enum.Enum):
    """What a job does: a phase of the request (:class:`~.request.Phase`), or a step around them."""

    TRANSLATE = "translate"
    PREPROCESS = Phase.PREPROCESS.value
    DEPENDENCIES = Phase.DEPENDENCIES.value
    COMPILE = Phase.COMPILE.value
    FILTER_DEPENDENCIES = "filter dependencies"
    DEVICE_LINK = Phase.DEVICE_LINK.value
    ARCHIVE = Phase.ARCHIVE.value
    LINK = Phase.LINK.value
    RUN = "run"
    CLEAN = "clean"

    @property
    def replayed(self) -> bool:
        """Whether a compile memo replays a job of this kind (a compile's jobs; a link's are planned)."""
        return self in (JobKind.TRANSLATE, JobKind.PREPROCESS, JobKind.DEPENDENCIES, JobKind.COMPILE,
                        JobKind.FILTER_DEPENDENCIES)  # fmt: skip


@dataclass(frozen=True)
class Job:
    kind: JobKind
    argv: tuple[str, ...]
    outputs: tuple[str, ...] = ()
    report: Callable[[bool], None] | None = field(default=None, compare=False)
    """What the job prints instead of running ``argv`` (the translator's findings; the translation is done
    by planning), given whether the plan executes: a dry run prints what the build would."""
    rewrite: DependencyRewrite | None = None
    """The dependency file written again naming the original files, instead of running ``argv``."""
    display: str | None = None
    """What ``#$`` shows when ``argv`` is not the command (nvcc's ``-- Filter Dependencies --``)."""
    check: ReadsCheck | None = field(default=None, compare=False)
    """The check, once the command succeeded, that the compiler read no project file untranslated."""

    def render(self) -> str:
        return "#$ " + (self.display if self.display is not None else shlex.join(self.argv))


def run_jobs(jobs: Sequence[Job], *, echo: bool, execute: bool, environ: Mapping[str, str]) -> None:
    """Print (``echo``) and run (``execute``) each job in order; the first failure stops the plan."""
    for job in jobs:
        if echo:
            print(job.render(), file=sys.stderr, flush=True)
        if job.report is not None:
            job.report(execute)
            continue
        if not execute:
            continue
        if job.rewrite is not None:
            job.rewrite.run()
            continue
        try:
            returncode = subprocess.run(job.argv, env=dict(environ), check=False).returncode
        except OSError as error:
            raise CannotRunError(_cannot_run(job.argv, error)) from None
        if returncode != 0:
            if echo:
                print(f"# --error 0x{returncode & 0xFF:x} --", file=sys.stderr)
            raise FailedProcessError(job.argv, returncode)
        if job.check is not None:
            job.check.run(job.outputs)


def _cannot_run(argv: Sequence[str], error: OSError) -> str:
    message = f"cannot run '{argv[0]}': {error.strerror or error}"
    if error.errno == errno.E2BIG:
        size = sum(len(os.fsencode(word)) + 1 for word in argv)
        message += f" ({len(argv)} arguments, {size} bytes: more than the system lets a command line hold)"
    return message

"""``torchada.json`` in a distribution's metadata: what a MUSA build of it was built for.

A wheel built for MUSA has the name, version and tags a CUDA build of the project would have: core metadata
has no field for the accelerator (PEP 817's wheel variants are a draft). setuptools copies the files of a
project's ``.egg-info`` into the wheel's ``.dist-info``, and calls the writers that installed distributions
register for that (the ``egg_info.writers`` entry points). torchada registers :func:`write_record`: when the
seam is installed for a translating backend and the project has CUDA sources, it writes

    {"built_for": "MUSA", "backend": "mcc", "musa_architectures": ["mp_22"], "torch": "2.7.1",
     "torch_musa": "2.7.1", "torchada": "0.1.0"}

The architectures are the ones torchada-nvcc compiles for, worked out from each CUDA extension's own nvcc
flags and the architecture flags the seam adds, as the driver does (:func:`.compilers.toolchains.mcc.musa_arches_for`).
Elsewhere the file is not written (and a stale one is removed).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

__all__ = ["FILE_NAME", "build_record", "write_record"]

FILE_NAME = "torchada.json"


def _nvcc_flags(extension: Any, is_cuda_file: Callable[[str], bool]) -> list[str] | None:
    """The nvcc flags of an extension with CUDA sources (torch's ``_is_cuda_file``, which the seam makes take
    ``.mu`` too); None for one without."""
    if not any(is_cuda_file(str(s)) for s in extension.sources):
        return None
    args = extension.extra_compile_args
    return list(args.get("nvcc", [])) if isinstance(args, dict) else list(args)


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def build_record(backend: str, extensions: Iterable[Any]) -> dict[str, Any] | None:
    """The record of a build whose seam is installed for ``backend``; None when no extension has CUDA sources."""
    from torch.utils import cpp_extension

    from .compilers.archs import requested_targets
    from .compilers.cache import open_cache_dir
    from .compilers.dbfacts import get_db_facts
    from .compilers.parse import parse_args
    from .compilers.toolchains.mcc import musa_arches_for

    facts = get_db_facts(open_cache_dir(os.environ))
    arches: set[str] = set()
    for extension in extensions:
        flags = _nvcc_flags(extension, cpp_extension._is_cuda_file)
        if flags is not None:
            argv = [*flags, *cpp_extension._get_cuda_arch_flags(flags)]
            arches.update(musa_arches_for(requested_targets(parse_args(argv, environ=os.environ)), os.environ, facts))
    if not arches:
        return None
    return {
        "built_for": "MUSA",
        "backend": backend,
        "musa_architectures": [a for a in facts.musa_targets if a in arches],
        "torch": _version("torch"),
        "torch_musa": _version("torch_musa"),
        "torchada": _version("torchada"),
    }


def write_record(command: Any, basename: str, filename: str) -> None:
    """setuptools' ``egg_info`` writer: ``torchada.json`` for a MUSA build, none otherwise."""
    record = None
    seam = sys.modules.get("torchada_build.cpp_extension")
    choice = seam.installed_backend() if seam is not None else None
    if choice is not None and choice.backend.value != "nvcc":
        record = build_record(choice.backend.value, command.distribution.ext_modules or ())
    text = None if record is None else json.dumps(record, indent=2) + "\n"
    command.write_or_delete_file("torchada build record", filename, text, force=True)

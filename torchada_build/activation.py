"""What the start-up hook (:mod:`.startup`) does when a process imports torch's extension builder or
scikit-build-core's build backend.

A **MUSA machine** is one where ``TORCHADA_BACKEND`` asks for a translating backend, or torch_musa is installed
(as :func:`.platform.detect_backend` decides). There:

* ``torch.utils.cpp_extension``: the seam is installed (:func:`.cpp_extension.install`), as
  ``python -m torchada_build setup.py`` would;
* ``scikit_build_core.build``: ``CMAKE_TOOLCHAIN_FILE`` names torchada's toolchain file, unless the
  environment names one already (CMake reads the variable when it configures a new build folder);
* a build that pip isolated from the environment holding torchada (its site folder is gone from
  ``sys.path``) cannot see torch_musa: its torch is the one pip fetched into the isolated environment, and
  compiling against it would make a CUDA build. It stops with one line naming ``--no-build-isolation``
  (:data:`~torchada_build.core.diagnostics.ISOLATED_BUILD`). A CMake build needs no torch_musa and goes on.

Elsewhere nothing changes. A problem stops the process with one line, ``torchada: error: ...``.

In an isolated build only this package is importable (through ``torchada_build.__path__``, imported at
start-up), not ``hipify_like``: the isolated paths import nothing else until the process stops.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Mapping, Sequence

__all__ = ["activate", "is_isolated_from", "musa_machine_reason"]

SCIKIT_BUILD_CORE = "scikit_build_core.build"


def musa_machine_reason(environ: Mapping[str, str], search_path: Sequence[str] | None = None) -> str | None:
    """Why this is a MUSA machine (``TORCHADA_BACKEND`` asks for a translating backend, or torch_musa is
    installed; looked for on ``search_path`` when given), or None."""
    from .core.settings import value

    backend = value("TORCHADA_BACKEND", environ)
    if backend:
        return None if backend == "nvcc" else f"TORCHADA_BACKEND={backend}"
    if search_path is None:
        from .platform import find_torch_musa

        found = find_torch_musa() is not None
    else:
        found = importlib.machinery.PathFinder.find_spec("torch_musa", list(search_path)) is not None
    return "torch_musa is installed" if found else None


def is_isolated_from(sitedir: str | None, path: Sequence[str]) -> bool:
    """Whether ``sitedir`` (where ``torchada.pth`` was read) is no longer on ``path``, as in pip's isolated
    builds, whose ``sitecustomize`` removes every site folder but the build environment's."""
    if sitedir is None:
        return False
    return os.path.realpath(sitedir) not in {os.path.realpath(p) for p in path if p}


def activate(module_name: str, sitedir: str | None) -> None:
    """Act on the import of ``module_name`` (one of :data:`.startup.WATCHED`)."""
    from .core.settings import SettingError

    isolated = is_isolated_from(sitedir, sys.path)
    try:
        reason = musa_machine_reason(os.environ, [sitedir] if isolated and sitedir else None)
    except SettingError as error:
        _stop(str(error))
    if reason is None:
        return
    if module_name == SCIKIT_BUILD_CORE:
        from .commands import get_toolchain_file

        os.environ.setdefault("CMAKE_TOOLCHAIN_FILE", str(get_toolchain_file()))
        return
    if isolated and sitedir:
        sys.path.append(sitedir)  # torchada's table of messages lives there; the process stops now
        from torchada_build.core.diagnostics import ISOLATED_BUILD

        _stop(ISOLATED_BUILD.text(reason=reason))
    from .cpp_extension import install
    from .errors import TorchadaError

    try:
        install()
    except TorchadaError as error:
        _stop(str(error))


def _stop(message: str) -> None:
    raise SystemExit(f"torchada: error: {message}")

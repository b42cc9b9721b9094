"""The toolkit mimic: a fake CUDA root that build systems can be pointed at (``docs/nvcc.md``, "The toolkit root").

torch's extension builder wants ``$CUDA_HOME/bin/nvcc`` (for its version check and compiles),
``include/`` and ``lib64/libcudart.so``; CMake wants ``nvvm/libdevice`` and links ``cudart_static``
and ``cudadevrt`` itself. One directory per backend serves both:

``bin/nvcc``
    torchada-nvcc with the backend fixed (``TORCHADA_BACKEND`` is exported by the script).
``nvvm/libdevice/``
    empty: CMake only checks the path's name.
``include/``
    mcc: one header per CUDA header the database renames, including its MUSA counterpart
    (``cuda_runtime.h`` → ``#include <musa_runtime.h>``); loopback: symlinks to the real CUDA headers and
    to the pip wheels' (cuBLAS, cuRAND…), one per entry.
``lib64/``
    GNU ld scripts from the backend (mcc: ``libcudart.so`` and ``libcudart_static.a`` are
    ``INPUT(-lmusart)``, ``libcublas.so`` is ``INPUT(-lmublas)``…, ``libcudadevrt.a`` is an empty
    archive; loopback: the real CUDA libraries and the pip wheels' cuBLAS, cuRAND and NCCL).
``version.json``, ``version.txt``
    the CUDA version the driver claims, for FindCUDAToolkit.

The mimic lives at ``<cache>/toolkit/<backend>-<hash of its content>``, is written atomically, and
never changes once written. ``toolkit_root()`` returns it (or the real CUDA root for the nvcc
backend), creating it when needed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path

from torchada_build.core.files import atomic_directory, make_private_dir

from .backends import Backend
from .cache import open_cache_dir
from .dbfacts import DbFacts, get_db_facts
from .errors import ToolNotFoundError
from .identity import GENERATED
from .installations import find_cuda
from .toolchains.base import TranslatingToolchain

__all__ = ["ensure_toolkit", "toolkit_home", "toolkit_root"]


def _python() -> str:
    """This interpreter, spelled the same whether it was started as ``python`` or ``python3``."""
    candidate = Path(sys.prefix) / "bin" / f"python{sys.version_info.major}"
    return str(candidate) if os.access(candidate, os.X_OK) else sys.executable


_ENTRY = "import sys; from torchada_build.compilers.cli import main; sys.exit(main())"
"""The console script's entry point (``-m`` would load runpy and importlib.util first: 1.5 ms a compile)."""


def _nvcc_script(backend: Backend) -> str:
    python = shlex.quote(_python())
    return (
        "#!/bin/sh\n"
        f"# torchada-nvcc toolkit mimic, {GENERATED}\n"
        f"TORCHADA_BACKEND={backend.value}\n"
        "export TORCHADA_BACKEND\n"
        f"exec {python} -c {shlex.quote(_ENTRY)} \"$@\"\n"
    )


def _content(toolchain: TranslatingToolchain, facts: DbFacts) -> dict[str, str]:
    """Relative path → file text; ``include`` → a symlink target when the backend names one."""
    version = ".".join(map(str, toolchain.cuda_version()))
    files = {
        "bin/nvcc": _nvcc_script(toolchain.backend),
        "version.json": json.dumps({"cuda": {"name": "CUDA SDK", "version": version}}, indent=1) + "\n",
        "version.txt": f"CUDA Version {version}\n",
        "nvvm/libdevice/README": f"{GENERATED}: CMake requires this directory to exist by name.\n",
    }
    files.update({f"lib64/{name}": text for name, text in toolchain.shim_libraries(facts).items()})
    files.update({f"include/{name}": text for name, text in toolchain.mimic_headers(facts).items()})
    return files


def _files_and_links(toolchain: TranslatingToolchain, facts: DbFacts) -> tuple[dict[str, str], dict[str, str]]:
    files = _content(toolchain, facts)
    return files, {name: str(target) for name, target in toolchain.mimic_include_links().items()}


def toolkit_home(toolchain: TranslatingToolchain, facts: DbFacts, cache_dir: Path) -> Path:
    """Where the toolkit mimic of ``toolchain``'s backend is, or will be: named after what it holds."""
    key = hashlib.sha256(json.dumps(_files_and_links(toolchain, facts), sort_keys=True).encode()).hexdigest()[:16]
    return cache_dir / "toolkit" / f"{toolchain.backend.value}-{key}"


def ensure_toolkit(toolchain: TranslatingToolchain, facts: DbFacts, cache_dir: Path) -> Path:
    """The toolkit mimic of ``toolchain``'s backend (:func:`toolkit_home`), written first when missing."""
    home = toolkit_home(toolchain, facts, cache_dir)
    if (home / "bin" / "nvcc").is_file():
        return home
    files, links = _files_and_links(toolchain, facts)
    with atomic_directory(home) as temporary:
        for relative, text in files.items():
            path = temporary / relative
            make_private_dir(path.parent)
            path.write_text(text)
        (temporary / "bin" / "nvcc").chmod(0o755)
        make_private_dir(temporary / "include")
        for name, target in links.items():
            (temporary / "include" / name).symlink_to(target)
    return home


def toolkit_root(backend: str | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The CUDA root that build systems are pointed at: the directory to use as ``CUDA_HOME`` (and
    ``CMAKE_CUDA_COMPILER=<it>/bin/nvcc``): the toolkit mimic of a translating backend.

    ``backend`` is ``"mcc"``, ``"loopback"`` or ``"nvcc"``; by default the one torchada-nvcc would
    choose (``TORCHADA_BACKEND``, else the platform's). For nvcc it is the real CUDA root.
    """
    from .backends import select_backend
    from .toolchains import make_translating_toolchain

    environ = os.environ if environ is None else environ
    chosen = Backend(backend) if backend else select_backend([], environ)
    if chosen is Backend.NVCC:
        cuda = find_cuda(environ)
        if cuda is None:
            from torchada_build.core.diagnostics import NO_NVCC

            raise ToolNotFoundError(NO_NVCC.text(backend="nvcc"))
        return cuda.home
    cache_dir = open_cache_dir(environ)
    return ensure_toolkit(make_translating_toolchain(chosen, environ), get_db_facts(cache_dir), cache_dir)

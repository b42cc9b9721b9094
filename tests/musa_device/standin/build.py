"""Build the test device's C extension against the installed torch, once per source version.

The shared object is cached under ``$TORCHADA_TEST_DEVICE_CACHE`` (default
``~/.cache/torchada/test-device``) in a folder named by a hash of the sources, the torch version
and the Python version, so a second process, or a second run, only imports it.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

__all__ = ["cache_dir", "load_extension"]

NAME = "standin_C"
CSRC = Path(__file__).resolve().parent.parent / "csrc"
SOURCES = ("runtime.cpp", "kernels.cpp", "module.cpp")
CFLAGS = ("-O1",)


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "torchada" / "test-device"
    return Path(os.environ.get("TORCHADA_TEST_DEVICE_CACHE", default))


def _build_key() -> str:
    import torch

    digest = hashlib.sha256()
    for path in sorted(CSRC.iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(f"{torch.__version__}|{sys.version}|{' '.join(CFLAGS)}".encode())
    return digest.hexdigest()[:16]


def _import(path: Path) -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader(NAME, str(path))
    spec = importlib.util.spec_from_loader(NAME, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def load_extension() -> ModuleType:
    """Import the extension, building it first when this version is not cached yet."""
    if NAME in sys.modules:
        return sys.modules[NAME]
    folder = cache_dir() / _build_key()
    target = folder / (NAME + sysconfig.get_config_var("EXT_SUFFIX"))
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not target.exists():
                return _build(folder, target)
    module = _import(target)
    sys.modules[NAME] = module
    return module


def _build(folder: Path, target: Path) -> ModuleType:
    """Build in a child process with torch's JIT loader, then cache the object. The child asks torchada for
    the ``nvcc`` backend: the device is a stock C++ build, and the test process, which impersonates
    torch_musa, would make it a MUSA one (ninja's default job count overcommits small hosts too)."""
    work = folder / "build"
    work.mkdir(exist_ok=True)
    environ = {**os.environ, "TORCHADA_BACKEND": "nvcc", "MAX_JOBS": str(os.cpu_count() or 1)}
    sources = ",".join(str(CSRC / name) for name in SOURCES)
    subprocess.run([sys.executable, "-c", _COMPILE, NAME, sources, " ".join(CFLAGS), str(work)], env=environ, check=True)
    partial = target.with_suffix(".partial")
    shutil.copyfile(work / (NAME + ".so"), partial)
    os.replace(partial, target)
    module = _import(target)
    sys.modules[NAME] = module
    return module


_COMPILE = """\
import sys
from torch.utils.cpp_extension import load
name, sources, cflags, work = sys.argv[1:]
load(name, sources.split(","), extra_cflags=cflags.split(), build_directory=work)
"""

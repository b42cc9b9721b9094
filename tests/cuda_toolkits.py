"""NVIDIA's CUDA 12.4 compiler, arranged as a toolkit in the test cache, for builds against torch 2.7.1.

PyPI's torch 2.7.1 (what torch_musa v2.7.1 is built on) is a CUDA 12.6 build, and torch's extension
builder refuses an nvcc of another major version (``torch/utils/cpp_extension.py``,
``_check_cuda_version``). This machine's nvcc is 13.0, and NVIDIA's CUDA 12 compiler wheels on PyPI
(``nvidia-cuda-nvcc-cu12``, every release from 12.1 to 12.9) hold ``ptxas``, the ``crt`` headers and
libdevice but neither ``nvcc`` nor ``cicc``. Debian's non-free section packages NVIDIA's own CUDA 12.4.1
binaries (trixie's ``nvidia-cuda-toolkit``): :func:`cuda_12_home` lays those out as NVIDIA's installer
does (``bin/``, ``nvvm/``, ``include/``, ``lib64/``), with NVIDIA's CCCL wheel for cub and thrust, which
Debian packages apart. Every file is pinned by sha256 (``docs/real_projects.md`` says why this one).
Debian's pool keeps a package while a trixie release carries it: when it is gone, the tests that need
this toolkit skip and say so, and the pins here move to the package that replaced it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import lzma
import os
import shutil
import tarfile
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from torch_venvs import CACHE

__all__ = ["CUDA_12", "cuda_12_home", "download_pinned"]

DEBIAN_POOL = "http://deb.debian.org/debian/pool/non-free/n/nvidia-cuda-toolkit/"


@dataclass(frozen=True)
class Archive:
    """One pinned archive and where its members go in the toolkit: ``(member prefix, destination)``,
    a prefix ending in ``/`` taking everything under it."""

    url: str
    sha256: str
    places: tuple[tuple[str, str], ...]


_TOOLS = ("bin2c", "cu++filt", "cudafe++", "cuobjdump", "fatbinary", "nvdisasm", "nvlink", "nvprune", "ptxas")
CUDA_12 = (
    Archive(
        DEBIAN_POOL + "nvidia-cuda-toolkit_12.4.131~12.4.1-2_amd64.deb",
        "cd5fe85aee38d108b315f408a688641478f2402622a10c677478eb7a6c4e5319",
        (
            ("usr/lib/nvidia-cuda-toolkit/bin/nvcc", "bin/nvcc"),  # usr/bin/nvcc is Debian's wrapper script
            ("usr/lib/nvidia-cuda-toolkit/bin/crt/", "bin/crt/"),
            ("usr/lib/nvidia-cuda-toolkit/bin/cicc", "nvvm/bin/cicc"),
            ("usr/lib/nvidia-cuda-toolkit/libdevice/", "nvvm/libdevice/"),
            *((f"usr/bin/{tool}", f"bin/{tool}") for tool in _TOOLS),
        ),
    ),
    Archive(
        DEBIAN_POOL + "nvidia-cuda-dev_12.4.127~12.4.1-2_amd64.deb",
        "d846838f914a0176948d48a8bcade5d6dbcccb5c9374343f6475f5503f173ee0",
        (
            ("usr/include/", "include/"),
            ("usr/lib/x86_64-linux-gnu/stubs/", "lib64/stubs/"),
            *((f"usr/lib/x86_64-linux-gnu/{lib}", f"lib64/{lib}") for lib in ("libcudart_static.a", "libcudadevrt.a", "libculibos.a")),
        ),
    ),
    Archive(
        DEBIAN_POOL + "libcudart12_12.4.127~12.4.1-2_amd64.deb",
        "361b3721cf84bf068e111ff013c819de61cb475268b0d38db99839471f1b4130",
        (("usr/lib/x86_64-linux-gnu/", "lib64/"),),  # libcudart.so.12 and the file it links to
    ),
    Archive(
        "https://pypi.org/simple/nvidia-cuda-cccl-cu12/#nvidia_cuda_cccl_cu12-12.4.127.post1-py3-none-manylinux2014_x86_64.whl",
        "2027fa5fc75fbee703bf24e8275a40a605cf94a3e8fef8a7187897d49b34facb",
        (("nvidia/cuda_cccl/include/", "include/"),),
    ),
)
"""CUDA 12.4.1: Debian trixie's packages of NVIDIA's binaries (the compiler; the runtime's headers,
static libraries and link stubs; its shared library), and NVIDIA's CCCL 12.4 wheel from PyPI."""
CUDA_12_VERSION = "12.4.131"

NVCC_PROFILE = """\
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
"""
"""The ``nvcc.profile`` of NVIDIA's installer for this layout (Debian's points into ``/usr``)."""


def cuda_12_home() -> Path:
    """``CACHE/cuda-12.4.131``: the CUDA 12.4 toolkit of :data:`CUDA_12`, assembled once (under a lock)."""
    home = CACHE / f"cuda-{CUDA_12_VERSION}"
    stamp = json.dumps([a.sha256 for a in CUDA_12])
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{home.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (home / ".pins").is_file() and (home / ".pins").read_text() == stamp:
            return home
        partial = Path(tempfile.mkdtemp(prefix=f".{home.name}.", dir=CACHE))
        try:
            for archive in CUDA_12:
                _place(download_pinned(archive.url, archive.sha256, CACHE / "archives"), archive.places, partial)
            (partial / "bin" / "nvcc.profile").write_text(NVCC_PROFILE)
            (partial / "lib64" / "libcudart.so").symlink_to("libcudart.so.12")
            (partial / "version.json").write_text(json.dumps({"cuda": {"name": "CUDA SDK", "version": CUDA_12_VERSION}}) + "\n")
            (partial / ".pins").write_text(stamp)
            shutil.rmtree(home, ignore_errors=True)
            os.replace(partial, home)
        finally:
            shutil.rmtree(partial, ignore_errors=True)
    return home


def download_pinned(url: str, sha256: str, directory: Path) -> Path:
    """The file at ``url`` whose sha256 is ``sha256``, cached in ``directory`` under its name. A PyPI
    simple-index URL with a ``#filename`` fragment names a file of that index (PEP 691)."""
    page, _, filename = url.partition("#")
    target = directory / (filename or PurePosixPath(page).name)
    if target.is_file() and _sha256(target) == sha256:
        return target
    if filename:
        request = urllib.request.Request(page, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            (page,) = [f["url"] for f in json.load(response)["files"] if f["hashes"].get("sha256") == sha256]
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=directory, delete=False) as partial:
        with urllib.request.urlopen(page, timeout=600) as response:
            shutil.copyfileobj(response, partial, 1 << 20)
    if _sha256(Path(partial.name)) != sha256:
        os.unlink(partial.name)
        raise RuntimeError(f"{target.name}: its sha256 differs from the pinned one")
    os.replace(partial.name, target)
    return target


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _place(archive: Path, places: tuple[tuple[str, str], ...], home: Path) -> None:
    """Each member of ``archive`` (a ``.deb``'s data or a wheel) that ``places`` names, written under ``home``."""
    for name, kind, link, content in _members(archive):
        destination = _destination(name, places)
        if destination is None or kind == "dir":
            continue
        target = home / destination
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind == "link":
            target.symlink_to(link)
        else:
            target.write_bytes(content)
            target.chmod(0o755 if (destination.startswith(("bin/", "nvvm/bin/")) and "crt" not in destination) else 0o644)


def _destination(name: str, places: tuple[tuple[str, str], ...]) -> str | None:
    for prefix, destination in places:
        if prefix.endswith("/") and name.startswith(prefix):
            return destination + name[len(prefix) :]
        if name == prefix:
            return destination
    return None


def _members(archive: Path):  # type: ignore[no-untyped-def]
    """``(name, kind, link target, content)`` for each member: a wheel's, or a ``.deb``'s ``data.tar.xz``'s."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as wheel:
            for info in wheel.infolist():
                yield info.filename, "dir" if info.is_dir() else "file", "", b"" if info.is_dir() else wheel.read(info)
        return
    with archive.open("rb") as deb:
        if deb.read(8) != b"!<arch>\n":
            raise RuntimeError(f"{archive.name} is not a Debian package")
        while header := deb.read(60):
            name, size = header[:16].decode().strip().rstrip("/"), int(header[48:58])
            if name != "data.tar.xz":
                deb.seek(size + size % 2, os.SEEK_CUR)
                continue
            with tarfile.open(fileobj=lzma.LZMAFile(deb), mode="r|") as data:
                for member in data:
                    kind = "link" if member.issym() else "dir" if member.isdir() else "file"
                    handle = data.extractfile(member) if member.isfile() else None
                    yield member.name.removeprefix("./"), kind, member.linkname, handle.read() if handle else b""
            return
    raise RuntimeError(f"{archive.name} has no data.tar.xz")


if __name__ == "__main__":
    print(cuda_12_home())

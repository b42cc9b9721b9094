"""Pinned sdists from PyPI, fetched once into the test cache and unpacked where a test or benchmark asks."""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
import tempfile
import urllib.request
from pathlib import Path

from torch_venvs import CACHE

__all__ = ["fetch_pinned_sdist", "unpack"]


def fetch_pinned_sdist(name: str, key: str, sha256: str) -> Path:
    """Project ``name``'s sdist whose sha256 is ``sha256``, from PyPI's simple index (PEP 691), cached
    as ``<key>.tar.gz``."""
    target = CACHE / "sdists" / f"{key}.tar.gz"
    if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == sha256:
        return target
    request = urllib.request.Request(
        f"https://pypi.org/simple/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        files = json.load(response)["files"]
    (url,) = [f["url"] for f in files if f["hashes"].get("sha256") == sha256]
    with urllib.request.urlopen(url, timeout=600) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise RuntimeError(f"{key}: the sdist's sha256 differs from the pinned one")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as partial:
        partial.write(data)
    os.replace(partial.name, target)
    return target


def unpack(sdist: Path, destination: Path) -> Path:
    """The sdist's single top folder, unpacked under ``destination``."""
    with tarfile.open(sdist) as archive:
        archive.extractall(destination, filter="data")
    (top,) = [p for p in destination.iterdir() if p.is_dir()]
    return top

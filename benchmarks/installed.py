"""torchada installed as a user installs it, for benchmarks that time its programs.

An editable install (``pip install -e .``, the test set-up) runs a path finder from a ``.pth`` file in
every Python process of its environment, which costs about 9 ms of each start-up, torchada's programs
and the bare interpreter alike. :func:`installed_copy` builds torchada the way ``pip install .`` does
into a scratch directory, with bytecode compiled, and a virtual environment that sees that copy first
and this environment's packages (libclang, torch) after it, without running their ``.pth`` files.
"""

from __future__ import annotations

import compileall
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class InstalledCopy:
    python: Path
    """The environment's interpreter."""
    bin_dir: Path
    """Console scripts, each a few lines that run the entry point with :attr:`python`."""

    def script(self, name: str) -> Path:
        return self.bin_dir / name


_DISTRIBUTED = ("pyproject.toml", "setup.py", "README.md", "hipify_like", "compilers", "runtime", "torchada_build")
_SCRIPT = "#!{python}\nimport sys\nfrom {module} import {function}\nsys.exit({function}())\n"


def source_copy(scratch: Path) -> Path:
    """``scratch/source``: what ``pip install .`` reads of the checkout (setuptools builds in the source
    tree: a copy keeps the checkout clean)."""
    source = scratch / "source"
    source.mkdir(parents=True)
    for name in _DISTRIBUTED:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / name, source / name)
    return source


def installed_copy(scratch: Path) -> InstalledCopy:
    """A non-editable torchada under ``scratch``, with ``torchada-nvcc`` and ``torchada-host-compile``."""
    source = source_copy(scratch)
    site = scratch / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target",
         str(site), str(source)],
        check=True, cwd=scratch,
    )  # fmt: skip
    compileall.compile_dir(site, quiet=1)
    venv = scratch / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip
    (Path(purelib) / "torchada-benchmark.pth").write_text(f"{site}\n{sysconfig.get_paths()['purelib']}\n")
    bin_dir = scratch / "bin"
    bin_dir.mkdir()
    for name, entry in (("torchada-nvcc", "torchada_build.compilers.cli:main"),
                        ("torchada-host-compile", "torchada_build.host_compile:main")):  # fmt: skip
        module, function = entry.split(":")
        path = bin_dir / name
        path.write_text(_SCRIPT.format(python=python, module=module, function=function))
        path.chmod(0o755)
    return InstalledCopy(python, bin_dir)

"""A stand-in MUSA installation for "MUSA dry-run" builds: an SDK whose ``mcc`` records, and a fake torch_musa.

Real build systems (setuptools, ninja, CMake, make) run for real against it; only the bottom-most tool is
fake. ``bin/mcc`` appends each command line (JSON) to ``$STANDIN_MCC_LOG`` and writes an empty object,
shared library or executable where a real mcc would write one, so links with the real host linker
succeed against the SDK's empty ``lib/libmusart.so`` and friends. The fake ``torch_musa`` package has
the folders MUSAExtension uses (``share/generated_cuda_compatible`` …, ``lib/libmusa_python.so``) and
an ``__init__`` that fails, so a build that imports it is caught; torch says it has no CUDA, as the
vendor's does (:data:`VENDOR_TORCH`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MusaStandIn", "make_musa_standin", "read_mcc_calls"]

SDK_LIBRARIES = ("musart", "musa", "mublas", "mublasLt", "murand", "mccl", "mufft", "musparse", "musolver")
TORCH_MUSA_LIBRARIES = ("musa_python", "musa_kernels")

VENDOR_TORCH = '''"""Stand-in start-up: torch as torch_musa ships it says it was built without CUDA.

torch_musa v2.7.1 builds PyTorch from source in its MUSA image, which has no CUDA toolkit (build.sh:280-312;
its release script builds torchvision and torchaudio with USE_CUDA=0, scripts/run_daily_release.sh:17), so
``torch.version.cuda`` is None there and torch's extension builder checks no nvcc version. The machines
here have CUDA builds of torch; this sets ``torch.version.cuda`` to None once ``torch.version`` runs."""
import importlib.machinery
import sys


class VendorTorchVersion:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "torch.version":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                module.cuda = None

            spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, VendorTorchVersion)
'''
"""``site/sitecustomize.py``: Python runs it at start-up from the stand-in's ``site`` on ``PYTHONPATH``."""

MCC = '''#!{python}
"""Stand-in mcc: records its command line, then writes what a real mcc would write, empty, and the
dependency file of what its preprocessor reads."""
import json, os, subprocess, sys

argv = sys.argv[1:]
log = os.environ.get("STANDIN_MCC_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps({{"argv": [sys.argv[0], *argv], "cwd": os.getcwd()}}) + "\\n")
if "--version" in argv:
    print("mcc version 4.3.0 (stand-in for the MUSA compiler)")
    sys.exit(0)

def value(flag):
    return argv[argv.index(flag) + 1] if flag in argv and argv.index(flag) + 1 < len(argv) else None

SEARCH_WORDS = ("-I", "-isystem", "-idirafter", "-iquote", "-include", "-D", "-U")


def preprocessor_words():
    """The words of the command line that steer what the preprocessor reads, for g++."""
    words, rest = [], iter(argv)
    for arg in rest:
        if arg in SEARCH_WORDS:
            words += [arg, next(rest, "")]
        elif arg.startswith(("-I", "-D", "-U", "-std=")):
            words.append(arg)
    return words


def read_by_preprocessor(sources):
    """What clang's host pass and each device pass read (``__MUSA_ARCH__`` set), as g++'s preprocessor
    finds it; a header nothing provides is named as it is spelled (``-MG``), as in a generated file."""
    arches = [a.split("=", 1)[1] for a in argv if a.startswith("--offload-arch=")]
    passes = [[]] + [["-D__MUSA_ARCH__=" + a.removeprefix("mp_") + "0"] for a in arches]
    read = dict.fromkeys(sources)
    for extra in passes:
        done = subprocess.run(
            ["g++", "-M", "-MG", "-w", "-x", "c++", "-D__MUSACC__", *preprocessor_words(), *extra, *sources],
            capture_output=True, text=True)
        if done.returncode:
            sys.stderr.write("mcc (stand-in): preprocessing for the dependency file failed\\n" + done.stderr)
            sys.exit(1)
        words = done.stdout.replace("\\\\\\n", " ").split()
        read.update(dict.fromkeys(w for w in words if not w.endswith(":")))
    return list(read)


VALUED = {{"-o", "-x", "-MF", "-MT", "-MQ", "-include", "-isystem", "-idirafter", "-iquote", "-I", "-D", "-U", "-L", "-Xlinker", "-mllvm"}}
inputs = []
skip = False
for arg in argv:
    if skip:
        skip = False
    elif arg in VALUED:
        skip = True
    elif not arg.startswith("-"):
        inputs.append(arg)
missing = [i for i in inputs if not os.path.exists(i)]
if missing:
    print(f"mcc: error: no such file or directory: '{{missing[0]}}'", file=sys.stderr)
    sys.exit(1)
out = value("-o")
if "-E" in argv:
    text = "".join(open(i, errors="replace").read() for i in inputs)
    if out:
        open(out, "w").write(text)
    else:
        sys.stdout.write(text)
    sys.exit(0)
if out is None:
    out = "a.out"
if "-c" in argv or "-dlink" in argv:
    command = ["cc", "-c", "-x", "c", os.devnull, "-o", out]
elif "-shared" in argv:
    command = ["cc", "-shared", "-x", "c", os.devnull, "-o", out]
else:
    command = ["cc", "-x", "c", "-", "-o", out]
subprocess.run(command, input=b"int main(void) {{ return 0; }}\\n", check=True)
depfile = value("-MF")
if depfile:
    sources = [i for i in inputs if not i.endswith((".o", ".a", ".so"))]
    open(depfile, "w").write(out + ": " + " ".join(read_by_preprocessor(sources)) + "\\n")
'''


@dataclass(frozen=True, slots=True)
class MusaStandIn:
    home: Path
    """``MUSA_HOME``: ``bin/mcc``, ``include/``, ``lib/``."""
    site: Path
    """Put on ``PYTHONPATH``: holds the fake ``torch_musa`` package."""

    @property
    def torch_musa(self) -> Path:
        return self.site / "torch_musa"

    @property
    def mcc(self) -> Path:
        return self.home / "bin" / "mcc"


def _empty_shared_library(path: Path) -> None:
    subprocess.run(
        ["cc", "-shared", "-x", "c", os.devnull, f"-Wl,-soname,{path.name}", "-o", str(path)], check=True
    )


def make_musa_standin(root: Path) -> MusaStandIn:
    home, site = root / "musa", root / "site"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "mcc").write_text(MCC.format(python=sys.executable))
    (home / "bin" / "mcc").chmod(0o755)
    (home / "include").mkdir()
    (home / "include" / "musart_version.h").write_text("#define MUSART_VERSION 40300\n")
    for header in ("musa.h", "musa_runtime.h", "mublas.h", "murand.h", "mccl.h"):
        (home / "include" / header).write_text("/* stand-in MUSA header */\n")
    (home / "lib").mkdir()
    for name in SDK_LIBRARIES:
        _empty_shared_library(home / "lib" / f"lib{name}.so")
    (home / "lib" / "libmusadevrt.a").write_text("!<arch>\n")  # the device runtime, linked by mcc -dlink
    torch_musa = site / "torch_musa"
    for folder in (
        "share/generated_cuda_compatible/aten/src",
        "share/generated_cuda_compatible/include/torch/csrc/api/include",
        "share/torch_musa_codegen",
        "lib",
    ):
        (torch_musa / folder).mkdir(parents=True)
    (torch_musa / "__init__.py").write_text('raise ImportError("the stand-in torch_musa must not be imported")\n')
    (site / "sitecustomize.py").write_text(VENDOR_TORCH)
    for name in TORCH_MUSA_LIBRARIES:
        _empty_shared_library(torch_musa / "lib" / f"lib{name}.so")
    return MusaStandIn(home, site)


def read_mcc_calls(log: Path) -> list[list[str]]:
    """The recorded mcc command lines, in order."""
    if not log.exists():
        return []
    return [json.loads(line)["argv"] for line in log.read_text().splitlines() if line]

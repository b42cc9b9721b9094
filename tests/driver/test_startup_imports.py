"""Start-up stays cheap: ``--version``, nvcc passthrough and warm-cache compiles import neither torch,
libclang nor the translator and its mapping database (benchmarks/driver_overhead.py times them); of
hipify_like, only its error classes, its table of diagnostics, the finding a cached unit records and atomic file
writes (``torchada_build.core.errors``, ``.diagnostics``, ``hipify_like.findings``, ``torchada_build.core.files``:
modules that import nothing heavy). ``--version`` imports no backend's
planner either (``toolchains.mcc``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from driver_support import REPO, cli_env

PROBE = """
import contextlib, io, json, sys
from torchada_build.compilers.cli import main
with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
light = ("hipify_like", "hipify_like.findings", "torchada_build.core.errors", "torchada_build.core.diagnostics", "torchada_build.core.files")
heavy = [m for m in sys.modules if m.split(".")[0] in ("torch", "clang", "hipify_like") and m not in light]
heavy += [m for m in sys.modules if m.startswith("torchada_build.compilers.toolchains.")]  # a backend's planner
print(json.dumps([status, sorted(heavy)]))
"""


def _imported(argv: list[str], env: dict[str, str], cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], env=env, cwd=cwd, capture_output=True, text=True)
    status, modules = json.loads(done.stdout)
    assert status == 0, done.stderr
    return modules


def test_warm_compile_and_version_import_nothing_heavy(tmp_path: Path, cache_dir: Path) -> None:
    (tmp_path / "k.cu").write_text((REPO / "samples" / "makefile" / "saxpy.cu").read_text())
    (tmp_path / "common.cuh").write_text((REPO / "samples" / "makefile" / "common.cuh").read_text())
    env = cli_env(cache_dir, "mcc")
    argv = ["--dryrun", "-c", "k.cu", "-arch=sm_80", "-o", "k.o"]
    assert any(m.startswith("hipify_like") for m in _imported(argv, env, tmp_path))  # cold: it translates
    warm = _imported(argv, env, tmp_path)  # hashes files, reads two small JSON records, plans the dry run
    assert [m for m in warm if ".toolchains." not in m] == []
    assert _imported(["--version"], env, tmp_path) == []

"""The stand-in mcc is a real test of the MUSA backend's reads check, not a recorder that hides it.

A real mcc writes the dependency file of what its preprocessor read (``-MD``); the stand-in writes what
g++'s preprocessor reads with the same search words, for the host pass and each ``--offload-arch``. A
header only the compiler's own search finds (a computed include) is then caught on a MUSA machine as in
loopback: the compile is redone from the translated header, and the header is remembered.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from musa_standin import MusaStandIn, read_mcc_calls

HEADER = "#pragma once\n#include <cuda_runtime.h>\ninline cudaError_t last() { return cudaGetLastError(); }\n"
DRIVER = [str(Path(sys.executable).parent / "torchada-nvcc")]


def _compile(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*DRIVER, *args], cwd=project, env=env, capture_output=True, text=True, check=False)


def test_a_computed_include_is_read_translated_on_musa(tmp_path: Path, musa_env: dict[str, str], musa_standin: MusaStandIn) -> None:
    project = tmp_path / "project"
    (project / "inc").mkdir(parents=True)
    (project / "inc" / "b.cuh").write_text(HEADER)
    (project / "k.cu").write_text("#include HDR\n__global__ void k() {}\n")
    log = tmp_path / "mcc.jsonl"
    env = {**musa_env, "TORCHADA_CACHE_DIR": str(tmp_path / "cache"), "STANDIN_MCC_LOG": str(log),
           "TORCH_MUSA_ARCH_LIST": "22;31"}  # fmt: skip
    first = _compile(project, env, "-DHDR=<b.cuh>", "-Iinc", "-c", "k.cu", "-o", "k.o")
    assert first.returncode == 0, first.stderr
    compiles = [argv for argv in read_mcc_calls(log) if "-c" in argv]
    assert len(compiles) == 2, "compiled again once the dependency file named the untranslated header"
    assert [a for a in compiles[0] if a.startswith("--offload-arch=")] == ["--offload-arch=mp_22", "--offload-arch=mp_31"]
    (manifest,) = (tmp_path / "cache" / "manifests").glob("*.json")
    assert json.loads(manifest.read_text())["discovered"] == [str(project / "inc" / "b.cuh")]
    depfile = _compile(project, env, "-DHDR=<b.cuh>", "-Iinc", "-c", "k.cu", "-o", "k.o", "-MD", "-MF", "k.o.d")
    assert depfile.returncode == 0, depfile.stderr
    assert str(project / "inc" / "b.cuh") in (project / "k.o.d").read_text(), "the user's dependency file names the original"
    assert len([argv for argv in read_mcc_calls(log) if "-c" in argv]) == 3, "the next build translates it from the start"

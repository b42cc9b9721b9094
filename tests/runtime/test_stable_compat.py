"""torchada.utils.cpp_extension's stable-ABI compat headers: a libtorch_stable kernel library
built with them, with torch's own headers (this torch is 2.13) and with the backported dispatch
macros and boxer (``TORCHADA_STABLE_BACKPORT``, ``TORCHADA_STABLE_BOX``: what torch < 2.11 gets),
then loaded and called. The ``macros.h`` fallback only applies where torch has no such header.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from torchada.utils.cpp_extension import stable_compat_box_header, stable_compat_include_dir

SOURCE = r"""
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/core/Dispatch.h>
#include <torch/headeronly/core/ScalarType.h>
#include <tuple>

using torch::headeronly::ScalarType;

int64_t twice(int64_t x) { return 2 * x; }
std::tuple<int64_t, int64_t> halves(int64_t x) { return {x / 2, x - x / 2}; }
int64_t item_size(int64_t code) {
  return THO_DISPATCH_SWITCH(static_cast<ScalarType>(code), "item_size",
      THO_DISPATCH_CASE(ScalarType::Float, [&] { return int64_t(sizeof(scalar_t)); })
      THO_DISPATCH_CASE(ScalarType::Double, [&] { return int64_t(sizeof(scalar_t)); }));
}

STABLE_TORCH_LIBRARY(torchada_stable, m) {
  m.def("twice(int x) -> int");
  m.def("halves(int x) -> (int, int)");
  m.def("item_size(int code) -> int");
}
STABLE_TORCH_LIBRARY_IMPL(torchada_stable, CompositeExplicitAutograd, m) {
  m.impl("twice", BOX(&twice));
  m.impl("halves", BOX(&halves));
  m.impl("item_size", BOX(&item_size));
}
"""

CHECK = """
import sys, torch
torch.ops.load_library(sys.argv[1])
ops = torch.ops.torchada_stable
assert ops.twice(21) == 42
assert tuple(ops.halves(7)) == (3, 4)
assert ops.item_size(6) == 4 and ops.item_size(7) == 8  # ScalarType Float, Double
"""


def _torch_dir() -> Path:
    return Path(sysconfig.get_paths()["purelib"]) / "torch"


def test_headers_exist():
    root = Path(stable_compat_include_dir())
    for header in ("torch/headeronly/core/Dispatch.h", "torch/csrc/stable/macros.h"):
        assert (root / header).is_file()
    assert Path(stable_compat_box_header()).parent == root


@pytest.mark.slow
@pytest.mark.parametrize(("defines", "box"), [
    ([], "TORCH_BOX"),                                          # torch's own headers and boxer
    (["-DTORCHADA_STABLE_BACKPORT"], "TORCHADA_STABLE_BOX"),    # the backports
], ids=["native", "backport"])
def test_stable_kernels_build_and_run(tmp_path, defines, box):
    torch_dir = _torch_dir()
    source = tmp_path / "kernels.cpp"
    source.write_text(SOURCE.replace("BOX(", f"{box}("))
    library = tmp_path / "libkernels.so"
    built = subprocess.run(
        ["g++", "-std=c++17", "-shared", "-fPIC", "-O0", *defines,
         "-I", stable_compat_include_dir(), "-include", stable_compat_box_header(),
         "-isystem", str(torch_dir / "include"), str(source), "-o", str(library),
         f"-L{torch_dir / 'lib'}", "-ltorch_cpu", "-lc10"],
        capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    done = subprocess.run([sys.executable, "-c", CHECK, str(library)], capture_output=True,
                          text=True, env={**os.environ, "TORCHADA_PLATFORM": "cpu"}, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]

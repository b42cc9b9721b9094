"""Loopback: translated code compiles with the real nvcc against compat headers generated from the
mapping database. An input whose untranslated form nvcc cannot preprocess here (a library whose headers
are not installed) is skipped with that reason; every other must compile after translation. The golden
inputs are valid CUDA, so only their headers are checked before (preprocessing: seconds, not a minute)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

from hipify_like import translate_unit
from hipify_like.compat import write_compat_headers

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "translate" / "golden"
def _package_dirs(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []


LIBRARY_INCLUDES = [
    *(d / "cu13" / "include" for d in _package_dirs("nvidia")),
    *(d / "nccl" / "include" for d in _package_dirs("nvidia")),
]
INPUTS = [REPO / "samples" / "makefile" / "saxpy.cu"] + sorted([*GOLDEN.glob("*.cu"), *GOLDEN.glob("*.cuh")])


def _nvcc(nvcc: str, source: Path, output: Path, extra: list[str], torch_include: Path) -> subprocess.CompletedProcess[str]:
    directories = [*LIBRARY_INCLUDES, torch_include, torch_include / "torch" / "csrc" / "api" / "include"]
    includes = [f"-I{d}" for d in directories if d.is_dir()]
    command = [nvcc, "-std=c++20", "--expt-relaxed-constexpr", "-arch=sm_80", *extra, *includes, "-x", "cu", "-c", str(source), "-o", str(output)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def compat(tmp_path_factory: pytest.TempPathFactory):
    return write_compat_headers(tmp_path_factory.mktemp("compat"))


@pytest.mark.nvcc
@pytest.mark.slow
@pytest.mark.parametrize("source", INPUTS, ids=[p.name for p in INPUTS])
def test_translated_source_compiles(source: Path, nvcc: str, compat, cuda_torch_include: Path, tmp_path: Path) -> None:
    original = _nvcc(nvcc, source, tmp_path / "original.ii", ["-E"], cuda_torch_include)
    if original.returncode != 0:
        pytest.skip(f"the untranslated {source.name} does not preprocess here:\n{original.stderr[-2000:]}")
    tree = tmp_path / "tree"
    unit = translate_unit(source)
    for translation in unit.files:
        mirrored = tree / Path(translation.path).relative_to("/")
        mirrored.parent.mkdir(parents=True, exist_ok=True)
        mirrored.write_bytes(translation.text)
    main = tree / Path(unit.files[0].path).relative_to("/")
    translated = _nvcc(
        nvcc, main, tmp_path / "translated.o", ["-include", compat.prelude, f"-I{compat.include_dir}"], cuda_torch_include
    )
    assert translated.returncode == 0, translated.stderr[-4000:]

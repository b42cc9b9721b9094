"""Real projects build unchanged: each corpus sdist built stock, through torchada in loopback, and in the
MUSA dry-run (``tests/real/corpus.py``). The CI slice runs on every test run; the rest with ``-m real``.
The full table, with timings against the stock build, is ``python benchmarks/real_projects.py``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from corpus import CORPUS, BuildResult, Project, build_venv, fetch_sdist, run_project
from musa_standin import make_musa_standin

pytestmark = [pytest.mark.network, pytest.mark.nvcc, pytest.mark.slow]


def _param(project: Project) -> object:
    marks = [] if project.ci else [pytest.mark.real]
    return pytest.param(project, id=project.key, marks=marks)


@pytest.fixture(scope="module")
def venv(nvcc: str) -> Path:  # noqa: ARG001
    try:
        return build_venv()
    except RuntimeError as error:
        pytest.skip(f"cannot make the build venv with the CUDA build of torch: {error}")


@pytest.fixture(scope="module", params=[_param(p) for p in CORPUS])
def built(request: pytest.FixtureRequest, venv: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildResult]:
    project: Project = request.param
    try:
        fetch_sdist(project)
    except OSError as error:
        pytest.skip(f"cannot fetch {project.key} from PyPI: {error}")
    if shutil.which("cmake") is None and project.build[0] == "cmake":
        pytest.skip("cmake is not on PATH")
    work = tmp_path_factory.mktemp("real")
    standin = make_musa_standin(work / "musa-standin")
    return run_project(project, work, venv, standin.home.parent)


def test_stock_build_is_the_baseline(built: dict[str, BuildResult]) -> None:
    stock = built["stock"]
    assert stock.ok, f"the stock build fails here, so the others prove nothing: {stock.first_error}\n{stock.log[-3000:]}"
    assert stock.units > 0


def test_loopback_builds_every_unit(built: dict[str, BuildResult]) -> None:
    stock, loopback = built["stock"], built["loopback"]
    assert loopback.ok, f"{loopback.first_error}\n{loopback.log[-4000:]}"
    assert (loopback.units, loopback.cuda_units) == (stock.units, stock.cuda_units)


def test_every_cuda_unit_reaches_mcc(built: dict[str, BuildResult]) -> None:
    stock, musa = built["stock"], built["musa"]
    assert musa.refused_options == []
    assert musa.mcc_units == stock.cuda_units, f"{musa.first_error}\n{musa.log[-4000:]}"

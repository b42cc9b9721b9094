"""Real projects build unchanged: each corpus sdist built stock, through torchada in loopback, and in the
MUSA dry-run (``tests/real/corpus.py``). ``-m ci_slice`` builds the slice that CI runs on every change
(``.ci/run``), ``-m real`` every project; the default run builds none (it stays quick).
The full table, with timings against the stock build, is ``python benchmarks/real_projects.py``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from corpus import CORPUS, MODES, BuildResult, Project, fetch_sdist, run_project
from musa_standin import make_musa_standin

pytestmark = [pytest.mark.network, pytest.mark.nvcc, pytest.mark.slow]


def _params() -> list[object]:
    """Each project with the modes of its CI slice, and with every mode under ``-m real``."""
    params = []
    for project in CORPUS:
        if project.ci:
            marks = [pytest.mark.real, pytest.mark.ci_slice]
            params.append(pytest.param((project, project.ci), id=f"{project.key}-ci", marks=marks))
        if project.ci != MODES:
            params.append(pytest.param((project, MODES), id=project.key, marks=[pytest.mark.real]))
    return params


@pytest.fixture(scope="module", params=_params())
def built(request: pytest.FixtureRequest, venv: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildResult]:
    project: Project
    project, modes = request.param
    try:
        fetch_sdist(project)
    except OSError as error:
        pytest.skip(f"cannot fetch {project.key} from PyPI: {error}")
    if shutil.which("cmake") is None and project.build[0] == "cmake":
        pytest.skip("cmake is not on PATH")
    work = tmp_path_factory.mktemp("real")
    standin = make_musa_standin(work / "musa-standin")
    return run_project(project, work, venv, standin.home.parent, modes)


def expected_units(built: dict[str, BuildResult]) -> tuple[int, int]:
    """(units, CUDA units) every build must compile: the stock build's, else what the build planned."""
    if "stock" in built:
        return built["stock"].units, built["stock"].cuda_units
    loopback = built["loopback"]
    assert loopback.planned_units > 0, "without a stock build, the build must say what it plans (compile_commands.json)"
    return loopback.planned_units, loopback.planned_cuda_units


def test_stock_build_is_the_baseline(built: dict[str, BuildResult]) -> None:
    if "stock" not in built:
        pytest.skip("the CI slice of this project leaves the stock build to the full run (-m real)")
    stock = built["stock"]
    assert stock.ok, f"the stock build fails here, so the others prove nothing: {stock.first_error}\n{stock.log[-3000:]}"
    assert stock.units > 0


def test_loopback_builds_every_unit(built: dict[str, BuildResult]) -> None:
    loopback = built["loopback"]
    assert loopback.ok, f"{loopback.first_error}\n{loopback.log[-4000:]}"
    assert (loopback.units, loopback.cuda_units) == expected_units(built)


def test_every_cuda_unit_reaches_mcc(built: dict[str, BuildResult]) -> None:
    if "musa" not in built:
        pytest.skip("this project's slice has no MUSA dry-run (its note in tests/real/corpus.py says why)")
    musa = built["musa"]
    assert musa.ok, f"{musa.first_error}\n{musa.log[-4000:]}"
    assert musa.refused_options == []
    assert musa.mcc_units == expected_units(built)[1], f"{musa.first_error}\n{musa.log[-4000:]}"

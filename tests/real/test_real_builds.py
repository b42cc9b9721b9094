"""Real projects build unchanged: each corpus sdist built stock, through torchada in loopback, and in the
MUSA dry-run (``tests/real/corpus.py``). ``-m ci_slice`` builds the slice that CI runs on every change
(``.ci/run``), ``-m real`` every project; the default run builds none (it stays quick).
The full table, with timings against the stock build, is ``python benchmarks/real_projects.py``."""

from __future__ import annotations

import shutil

import pytest
from corpus import CORPUS, MODES, TORCHES, BuildResult, Project, Torch, fetch_sdist, musa_arch, run_project
from musa_standin import make_musa_standin

pytestmark = [pytest.mark.network, pytest.mark.nvcc, pytest.mark.slow]


def _params() -> list[object]:
    """Each project against each torch it builds on (``-m real``); its CI slice also without ``-m real``."""
    params = []
    for torch in TORCHES:
        for project in (p for p in CORPUS if torch.version not in p.not_on):
            marks = [pytest.mark.real, *([pytest.mark.ci_slice] if project.ci == torch.version else [])]
            params.append(pytest.param((project, torch), id=f"{project.key}-torch-{torch.version}", marks=marks))
    return params


@pytest.fixture(scope="module", params=_params())
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildResult]:
    project: Project
    torch: Torch
    project, torch = request.param
    try:
        fetch_sdist(project)
    except OSError as error:
        pytest.skip(f"cannot fetch {project.key} from PyPI: {error}")
    if shutil.which("cmake") is None and project.build[0] == "cmake":
        pytest.skip("cmake is not on PATH")
    try:
        torch.venv()
        torch.cuda_home()
    except (OSError, RuntimeError) as error:
        pytest.skip(f"cannot make the build venv or CUDA toolkit of torch {torch.version}: {error}")
    work = tmp_path_factory.mktemp("real")
    standin = make_musa_standin(work / "musa-standin")
    return run_project(project, work, torch, standin.home.parent, MODES)


def expected_units(built: dict[str, BuildResult]) -> tuple[int, int]:
    """(units, CUDA units) every build must compile: the stock build's, else what the build planned."""
    if "stock" in built:
        return built["stock"].units, built["stock"].cuda_units
    loopback = built["loopback"]
    assert loopback.planned_units > 0, "without a stock build, the build must say what it plans (compile_commands.json)"
    return loopback.planned_units, loopback.planned_cuda_units


def test_stock_build_is_the_baseline(built: dict[str, BuildResult]) -> None:
    stock = built["stock"]
    assert stock.ok, f"the stock build fails here, so the others prove nothing: {stock.first_error}\n{stock.log[-3000:]}"
    assert stock.units > 0


def test_loopback_builds_every_unit(built: dict[str, BuildResult]) -> None:
    loopback = built["loopback"]
    assert loopback.ok, f"{loopback.first_error}\n{loopback.log[-4000:]}"
    assert (loopback.units, loopback.cuda_units) == expected_units(built)


@pytest.mark.parametrize("mode", [m for m in MODES if musa_arch(m)])
def test_every_cuda_unit_reaches_mcc(built: dict[str, BuildResult], mode: str) -> None:
    musa = built[mode]
    assert musa.ok, f"{musa.first_error}\n{musa.log[-4000:]}"
    assert musa.refused_options == []
    assert musa.mcc_units == expected_units(built)[1], f"{musa.first_error}\n{musa.log[-4000:]}"


def test_warp_findings_follow_the_architecture(built: dict[str, BuildResult]) -> None:
    """A 32-lane warp assumption (TA1201) is a finding for mp_22's 128-lane warps, not for mp_31's 32;
    every other finding is the same for both."""
    wide, narrow = (built[f"musa-{arch}"].findings for arch in ("mp_22", "mp_31"))
    assert "TA1201" not in narrow
    assert {k: v for k, v in wide.items() if k != "TA1201"} == narrow
    assert ("TA1201" in wide) == ("TA1201" in built["loopback"].findings)  # a CMake dry-run replays its CUDA units only

"""Planning is a function of the request, the toolchain and what was prepared: it writes nothing, so a
plan is made and checked here without any cache. A dry run writes only the translation's entries."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from driver_support import FAKE_MUSA, cli_env, run_cli
from torchada_build.compilers.archs import requested_targets
from torchada_build.compilers.backends import Backend
from torchada_build.compilers.dbfacts import get_db_facts
from torchada_build.compilers.parse import parse_args
from torchada_build.compilers.plan import Prepared, plan_jobs
from torchada_build.compilers.request import build_request
from torchada_build.compilers.toolchains import make_toolchain
from torchada_build.compilers.toolchains.base import BuildContext, host_searches
from torchada_build.compilers.units import CachedUnit, UnitRequest


def _plan(tmp_path: Path, argv: list[str], toolkit: Path | None = None) -> tuple[list[str], CachedUnit, Path]:
    environ = {"MUSA_HOME": str(FAKE_MUSA), "PATH": "/usr/bin:/bin"}
    toolchain = make_toolchain(Backend.MCC, environ)
    parsed = parse_args(argv, environ=environ)
    cache = tmp_path / "no-cache"
    ctx = BuildContext(parsed, build_request(parsed), requested_targets(parsed), environ, cache, tmp_path / "work")
    ctx.__dict__["facts"] = get_db_facts(tmp_path / "facts")  # what prepare() would have read
    source = tmp_path / "k.cu"
    unit = CachedUnit(cache / "units" / ("0" * 32), (str(source),), (), manifest=cache / "manifests" / "k.json")
    jobs = plan_jobs(ctx, toolchain, Prepared({0: (UnitRequest(source), unit)}, toolkit))  # type: ignore[arg-type]
    return [job.render() for job in jobs], unit, cache


def test_a_compile_is_planned_without_a_cache(tmp_path: Path) -> None:
    lines, unit, cache = _plan(tmp_path, ["-c", str(tmp_path / "k.cu"), "-o", "k.o", "-arch=sm_80"])
    assert lines[0] == f"#$ {sys.executable} -m torchada_build.compilers.units {tmp_path}/k.cu"
    compile_line = lines[1].split()
    assert compile_line[1:4] == [str(FAKE_MUSA / "bin" / "mcc"), "-x", "musa"]
    assert compile_line[-4:] == ["-c", str(unit.main), "-o", "k.o"]
    assert not cache.exists() and not (tmp_path / "work").exists()


def test_a_link_names_the_toolkit_it_was_given(tmp_path: Path) -> None:
    lines, _, cache = _plan(tmp_path, [str(tmp_path / "k.cu"), "-o", "app", "-arch=sm_80"], Path("/prepared/toolkit"))
    assert "-L/prepared/toolkit/lib64" in lines[-1].split()
    assert not cache.exists()


@pytest.mark.parametrize(("backend", "written"), [("mcc", {"db", "files", "manifests", "units"}),
                                                  ("loopback", {"compat", "db", "files", "manifests", "units"})])  # fmt: skip
def test_a_dry_run_writes_only_the_translation(tmp_path: Path, backend: str, written: set[str]) -> None:
    (tmp_path / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k() {}\nint main() { cudaDeviceSynchronize(); }\n")
    result = run_cli(["--dryrun", "k.cu", "-o", "app", "-arch=sm_80"], env=cli_env(tmp_path / "cache", backend), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "toolkit/" in result.stderr, "the link names the toolkit mimic, where it would be"
    assert {p.name for p in (tmp_path / "cache").iterdir()} == written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "k.cu"]


@pytest.mark.parametrize(
    ("words", "directories", "includes"),
    [
        (["-Iinc", "-I", "b", "-isystem", "sys", "-iquote", "q", "-idirafter", "late", "-O2"], ["inc", "b", "sys", "q", "late"], []),
        (["-include", "pre.h", "-includejoined.h"], [], ["pre.h", "joined.h"]),
        (["-include-pch", "k.pch", "-Iinc"], ["inc"], []),  # clang's precompiled header: no forced include of "-pch"
        (["-isysroot", "/sdk", "-iwithprefix", "x"], [], []),
    ],
)
def test_host_searches_read_the_host_compilers_words(words: list[str], directories: list[str], includes: list[str]) -> None:
    assert host_searches(words) == (directories, includes)

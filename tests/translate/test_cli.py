"""``torchada-port`` as a user runs it: a file, a tree, in place, reports, audit listing, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "makefile"


def port(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hipify_like", *map(str, args)], capture_output=True, text=True, cwd=cwd, check=False
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    root.mkdir()
    (root / "kernel.cu").write_text('#include "common.cuh"\ncudaStream_t s; // cudaStream_t\n')
    (root / "common.cuh").write_text("#pragma once\n#include <cuda_runtime.h>\n")
    (root / "notes.txt").write_text("cudaStream_t stays in non-source files\n")
    return root


def test_one_file_and_its_project_header(project: Path, tmp_path: Path) -> None:
    result = port(project / "kernel.cu", "-o", tmp_path / "out" / "kernel.cu")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "kernel.cu").read_text() == '#include "common.cuh"\nmusaStream_t s; // cudaStream_t\n'
    assert (tmp_path / "out" / "common.cuh").read_text() == "#pragma once\n#include <musa_runtime.h>\n"
    assert (project / "kernel.cu").read_text().startswith('#include "common.cuh"\ncudaStream_t')
    out = tmp_path / "out"
    assert result.stderr.splitlines()[:2] == [f"torchada-port: wrote {out / 'kernel.cu'}",
                                              f"torchada-port: wrote {out / 'common.cuh'}"]
    assert "2 files (2 changed)" in result.stderr


def test_o_never_overwrites_a_file_it_did_not_write(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "common.cuh").write_text("// someone else's header\n")
    refused = port(project / "kernel.cu", "-o", out / "kernel.cu")
    assert refused.returncode == 2
    assert refused.stderr.strip() == (f"torchada-port: error: '{out / 'common.cuh'}' exists and is not an earlier "
                                      f"output of '{project / 'common.cuh'}'; move it away, or pass --force to overwrite it")
    assert sorted(p.name for p in out.iterdir()) == ["common.cuh"], "nothing was written"
    assert (out / "common.cuh").read_text() == "// someone else's header\n"

    forced = port(project / "kernel.cu", "-o", out / "kernel.cu", "--force", "-q")
    assert forced.returncode == 0 and forced.stderr == ""
    assert (out / "common.cuh").read_text() == "#pragma once\n#include <musa_runtime.h>\n"


def test_o_replaces_its_own_outputs_but_not_edited_ones(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert port(project / "kernel.cu", "-o", out / "kernel.cu").returncode == 0
    (project / "kernel.cu").write_text('#include "common.cuh"\ncudaEvent_t e;\n')
    again = port(project / "kernel.cu", "-o", out / "kernel.cu", "-q")
    assert again.returncode == 0, again.stderr
    assert (out / "kernel.cu").read_text() == '#include "common.cuh"\nmusaEvent_t e;\n'

    (out / "common.cuh").write_text((out / "common.cuh").read_text() + "// a local fix\n")
    refused = port(project / "kernel.cu", "-o", out / "kernel.cu", "-q")
    assert refused.returncode == 2
    assert f"'{out / 'common.cuh'}' was changed since torchada-port wrote it" in refused.stderr
    assert (out / "common.cuh").read_text().endswith("// a local fix\n")

    other = tmp_path / "other.cu"
    other.write_text("cudaStream_t s;\n")
    assert port(other, "-o", out / "kernel.cu", "-q").returncode == 2, "an output of another source is not replaced"


def test_one_file_to_standard_output(project: Path) -> None:
    result = port(project / "kernel.cu", "-q")
    assert result.returncode == 0 and result.stdout == '#include "common.cuh"\nmusaStream_t s; // cudaStream_t\n'


def test_a_tree_is_mirrored_and_other_files_are_copied(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "ported"
    result = port(project, "--out-root", out, "--report", tmp_path / "report.json")
    assert result.returncode == 0, result.stderr
    assert (out / "common.cuh").read_text() == "#pragma once\n#include <musa_runtime.h>\n"
    assert (out / "notes.txt").read_text() == (project / "notes.txt").read_text()
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["files"] == 2 and report["summary"]["renamed"]["runtime"] == 2


def test_html_report(project: Path, tmp_path: Path) -> None:
    result = port(project, "--out-root", tmp_path / "o", "--report", tmp_path / "r.html", "-q")
    assert result.returncode == 0 and "<h1>torchada-port report</h1>" in (tmp_path / "r.html").read_text()


def test_inplace_backs_up_once(project: Path) -> None:
    original = (project / "kernel.cu").read_text()
    assert port(project, "--inplace", "-q").returncode == 0
    assert (project / "kernel.cu.orig").read_text() == original
    assert "musaStream_t" in (project / "kernel.cu").read_text()
    assert not (project / "notes.txt.orig").exists()
    assert port(project, "--inplace", "-q").returncode == 0
    assert (project / "kernel.cu.orig").read_text() == original


def test_error_level_findings_exit_1(tmp_path: Path) -> None:
    source = tmp_path / "k.cu"
    source.write_text('__global__ void k() { asm volatile("bar.sync 0;"); }\n')
    result = port(source, "-o", tmp_path / "out.cu", "--findings-format", "json")
    assert result.returncode == 1
    assert json.loads(result.stderr.splitlines()[0])["id"] == "TA1101"
    assert (tmp_path / "out.cu").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["missing.cu"], "cannot read 'missing.cu'"),
        ([], "no input"),
        (["{project}", "-o", "x.cu"], "is a directory"),
        (["{project}"], "give --out-root DIR or --inplace"),
        (["{project}", "--out-root", "{project}/sub"], "inside the source tree"),
        (["{project}/kernel.cu", "--out-root", "o"], "is a file"),
        (["{project}/kernel.cu", "-o", "{project}/kernel.cu"], "is the source itself"),
        (["{project}/kernel.cu", "-o", "{project}/kernel2.cu"], "would overwrite the original header"),
        (["{project}", "--inplace", "--backup-suffix", ""], "non-empty --backup-suffix"),
        (["{project}", "--out-root", "o", "--report", "r.txt"], "report format"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(project: Path, tmp_path: Path, arguments: list[str], message: str) -> None:
    before = sorted(p.name for p in project.iterdir())
    result = port(*(a.format(project=project) for a in arguments), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("torchada-port: error: ") and message in lines[0]
    assert sorted(p.name for p in project.iterdir()) == before


def test_unknown_option_is_a_usage_error() -> None:
    assert port("--bogus").returncode == 2


def test_list_mappings_json_is_the_database() -> None:
    result = port("--list-mappings", "--json")
    assert result.returncode == 0
    rows = json.loads(result.stdout)
    by_name = {row["cuda"]: row for row in rows}
    assert by_name["cudaMalloc"]["musa"] == "musaMalloc"
    assert by_name["cudaMalloc"]["evidence"].startswith("inventory: ")
    assert set(rows[0]) == {"cuda", "musa", "kind", "library", "status", "evidence", "note"}


def test_the_readme_sample_ports(tmp_path: Path) -> None:
    result = port(SAMPLE / "saxpy.cu", "-o", tmp_path / "saxpy.cu")
    assert result.returncode == 0, result.stderr
    assert "musaMalloc" in (tmp_path / "saxpy.cu").read_text()

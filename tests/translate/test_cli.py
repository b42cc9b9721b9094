"""``torchada-port`` as a user runs it: a file, a tree, in place, reports, audit listing, bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "makefile"


def port(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hipify_like", *map(str, args)], capture_output=True, text=True, cwd=cwd, check=False,
        timeout=120,  # a FIFO once blocked it forever
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


@pytest.mark.parametrize("output", [[], ["-o", "-"]], ids=["no -o", "-o -"])
def test_one_file_to_standard_output(project: Path, output: list[str]) -> None:
    result = port(project / "kernel.cu", *output, "-q", cwd=project)
    assert result.returncode == 0 and result.stdout == '#include "common.cuh"\nmusaStream_t s; // cudaStream_t\n'
    assert sorted(p.name for p in project.iterdir()) == ["common.cuh", "kernel.cu", "notes.txt"]  # no file named '-', no manifest


def test_a_tree_is_mirrored_and_other_files_are_copied(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "ported"
    (project / "kernel.cu").chmod(0o750)
    (project / "notes.txt").chmod(0o604)
    result = port(project, "--out-root", out, "--report", tmp_path / "report.json")
    assert result.returncode == 0, result.stderr
    assert (out / "common.cuh").read_text() == "#pragma once\n#include <musa_runtime.h>\n"
    assert (out / "notes.txt").read_text() == (project / "notes.txt").read_text()
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
    assert modes["kernel.cu"] == 0o750 and modes["notes.txt"] == 0o604, "each file keeps its original's mode"
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["files"] == 2 and report["summary"]["renamed"]["runtime"] == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_files_a_source_includes_are_ported_whatever_their_suffix(tmp_path: Path, jobs: str) -> None:
    """A header without a suffix (libcu++'s style), an X-macro ``.def`` file and what they include in
    turn are translated, like torchada-nvcc translates them; a file nothing includes is copied."""
    root = tmp_path / "src"
    (root / "include" / "lib").mkdir(parents=True)
    (root / "include" / "lib" / "stream").write_text('#pragma once\n#include "detail/sync"\ncudaStream_t make();\n')
    (root / "include" / "lib" / "detail").mkdir()
    (root / "include" / "lib" / "detail" / "sync").write_text("inline void sync() { cudaDeviceSynchronize(); }\n")
    (root / "ops.def").write_text("OP(cudaMemcpy)\nOP(cudaFooBar)\n")
    (root / "kernel.cu").write_text('#include <lib/stream>\n#define OP(f) void f##_wrapped();\n#  include "ops.def"\n'
                                    '// a word, not a directive: include "stream"\n')
    (root / "stream").write_text("cudaStream_t is only named here\n")
    result = port(root, "--out-root", tmp_path / "o", "-I", root / "include", "-j", jobs, "--report",
                  tmp_path / "report.json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = tmp_path / "o"
    assert (out / "include" / "lib" / "stream").read_text() == '#pragma once\n#include "detail/sync"\nmusaStream_t make();\n'
    assert (out / "include" / "lib" / "detail" / "sync").read_text() == "inline void sync() { musaDeviceSynchronize(); }\n"
    assert (out / "ops.def").read_text() == "OP(musaMemcpy)\nOP(cudaFooBar)\n"
    assert (out / "stream").read_text() == (root / "stream").read_text(), "nothing includes it: copied"
    assert f"{root / 'ops.def'}:2:4: warning: 'cudaFooBar'" in result.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert [Path(f["path"]).name for f in report["files"]] == ["sync", "stream", "kernel.cu", "ops.def"], "tree order"


def test_a_tree_ported_by_several_processes_is_the_same(tmp_path: Path) -> None:
    """-j 2 splits the tree into batches translated by two worker processes; the output is -j 1's."""
    root = tmp_path / "src"
    for i in range(40):
        (root / f"d{i % 4}").mkdir(parents=True, exist_ok=True)
        (root / f"d{i % 4}" / f"k{i}.cu").write_text(
            f'#include "../common.cuh"\n__global__ void k{i}() {{ __shfl_xor_sync(0xffffffff, {i}, 1); }}\n'
            f"cudaError_t f{i}(cudaStream_t s) {{ return cudaStreamSynchronize(s); }}\n"
        )
    (root / "common.cuh").write_text("#pragma once\n#include <cuda_runtime.h>\n")
    one, two = port(root, "--out-root", tmp_path / "j1", "-j", "1"), port(root, "--out-root", tmp_path / "j2", "-j", "2")
    assert one.returncode == two.returncode == 0
    assert one.stderr == two.stderr and "TA1201" in one.stderr
    files = sorted(p.relative_to(tmp_path / "j1") for p in (tmp_path / "j1").rglob("*") if p.is_file())
    assert len(files) == 41
    assert all((tmp_path / "j1" / f).read_bytes() == (tmp_path / "j2" / f).read_bytes() for f in files)
    assert b"musaStreamSynchronize" in (tmp_path / "j2" / "d3" / "k39.cu").read_bytes()


def test_a_tree_with_line_directives_names_each_original(project: Path, tmp_path: Path) -> None:
    result = port(project, "--out-root", tmp_path / "o", "--line-directives")
    assert result.returncode == 0, result.stderr
    for name in ("kernel.cu", "common.cuh"):
        assert (tmp_path / "o" / name).read_text().startswith(f'#line 1 "{project / name}"\n')


@pytest.fixture
def findings_tree(tmp_path: Path) -> Path:
    """Two files with findings: TA1101 (an error) once, TA1004 three times, about two names."""
    root = tmp_path / "proj"
    (root / "sub").mkdir(parents=True)
    (root / "a.cu").write_text('__global__ void k() {\n  asm volatile("bar.sync 0;");\n  cudaFooBar();\n}\n')
    (root / "sub" / "b.cu").write_text("void f() {\n  cudaFooBar();\n  cudaBazQux();\n}\n")
    return root


def test_html_report_groups_by_id_and_by_file(findings_tree: Path, tmp_path: Path) -> None:
    result = port(findings_tree, "--out-root", tmp_path / "o", "--report", tmp_path / "r.html", "-q")
    assert result.returncode == 1
    page = (tmp_path / "r.html").read_text()
    assert "<h1>torchada-port report</h1>" in page and str(findings_tree / "a.cu") not in page, "relative paths"
    by_id = page[page.index("<h2>Findings by ID</h2>") : page.index("<h2>Findings by file</h2>")]
    assert "<td>TA1004</td><td>warning</td><td>a CUDA-style name that the mapping database does not know</td>" \
           "<td>3</td><td>2</td>" in by_id
    assert "<td>TA1101</td><td>error</td>" in by_id and by_id.index("TA1004") < by_id.index("TA1101"), "most first"
    by_file = page[page.index("<h2>Findings by file</h2>") : page.index("<h2>Files</h2>")]
    assert "<summary><b>a.cu</b>: 2 findings (TA1004 1, TA1101 1)</summary>" in by_file
    assert "<summary><b>sub/b.cu</b>: 2 findings (TA1004 2)</summary>" in by_file
    assert "<td>2:3</td><td>TA1101</td>" in by_file and "<code>asm volatile(&quot;bar.sync 0;&quot;);</code>" in by_file
    assert "<td>3:3</td><td>TA1004</td>" in by_file and "<code>cudaBazQux();</code>" in by_file


def test_suppress_by_id_and_by_name(findings_tree: Path, tmp_path: Path) -> None:
    result = port(findings_tree, "--out-root", tmp_path / "o", "--suppress", "TA1101", "--suppress", "cudaFooBar")
    assert result.returncode == 0, "the only error is suppressed"
    shown = [line for line in result.stderr.splitlines() if "[TA" in line]
    assert len(shown) == 1 and "'cudaBazQux'" in shown[0]
    assert result.stderr.splitlines()[-1].endswith("findings: 0 errors, 1 warnings (3 suppressed)")


def test_pyproject_suppresses_for_the_project(findings_tree: Path, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.torchada]\nsuppress = ["TA1004"]\n')
    result = port(findings_tree / "sub" / "b.cu", "-q", cwd=findings_tree / "sub")  # found upward from the source
    assert result.returncode == 0 and result.stderr == ""
    result = port(findings_tree / "a.cu", "--suppress", "TA1101", "-q")
    assert result.returncode == 0 and result.stderr == "", "the command line adds to the file"


@pytest.mark.parametrize(
    ("pyproject", "message"),
    [
        ('[tool.torchada]\nsupress = ["TA1004"]\n', "unknown key 'supress' in [tool.torchada] (known: suppress)"),
        ('[tool.torchada]\nsuppress = "TA1004"\n', "[tool.torchada] suppress must be a list of strings"),
        ('[tool.torchada]\nsuppress = ["TA9999"]\n', "unknown finding ID 'TA9999'"),
        ("[tool.torchada\n", "cannot read"),
    ],
)
def test_bad_config_is_one_line(findings_tree: Path, tmp_path: Path, pyproject: str, message: str) -> None:
    (findings_tree / "pyproject.toml").write_text(pyproject)
    result = port(findings_tree, "--out-root", tmp_path / "o")
    assert result.returncode == 2 and not (tmp_path / "o").exists()
    (line,) = result.stderr.splitlines()
    assert line.startswith("torchada-port: error: ") and message in line, line


def test_suppress_of_an_unknown_id_is_a_usage_error(findings_tree: Path) -> None:
    result = port(findings_tree / "a.cu", "--suppress", "TA0000")
    assert result.returncode == 2
    assert result.stderr.startswith("torchada-port: error: --suppress: unknown finding ID 'TA0000' (known: TA1001, ")


def test_inplace_backs_up_once(project: Path) -> None:
    original = (project / "kernel.cu").read_text()
    assert port(project, "--inplace", "-q").returncode == 0
    assert (project / "kernel.cu.orig").read_text() == original
    assert "musaStream_t" in (project / "kernel.cu").read_text()
    assert not (project / "notes.txt.orig").exists()
    assert port(project, "--inplace", "-q").returncode == 0
    assert (project / "kernel.cu.orig").read_text() == original


def test_inplace_never_overwrites_a_backup_nor_writes_through_a_link(project: Path, tmp_path: Path) -> None:
    """A dangling ``kernel.cu.orig`` link would have sent the backup outside the tree, and an existing
    backup meant none at all: both refuse before anything is written."""
    original = (project / "kernel.cu").read_text()
    (project / "kernel.cu.orig").symlink_to(tmp_path / "elsewhere")
    refused = port(project, "--inplace")
    assert refused.returncode == 2 and "is a symbolic link" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert not (tmp_path / "elsewhere").exists() and (project / "kernel.cu").read_text() == original
    assert not (project / "common.cuh.orig").exists(), "nothing was written, the other files neither"
    (project / "kernel.cu.orig").unlink()
    (project / "kernel.cu.orig").write_text("someone's backup\n")
    assert port(project / "kernel.cu", "--inplace").returncode == 2
    assert (project / "kernel.cu.orig").read_text() == "someone's backup\n" and (project / "kernel.cu").read_text() == original


def test_a_file_edited_after_an_inplace_port_is_not_ported_again_over_its_backup(project: Path) -> None:
    original = (project / "kernel.cu").read_text()
    assert port(project, "--inplace", "-q").returncode == 0
    (project / "kernel.cu").write_text((project / "kernel.cu").read_text() + "cudaStream_t added;\n")
    refused = port(project, "--inplace")
    assert refused.returncode == 2 and "kernel.cu.orig' is there" in refused.stderr
    assert (project / "kernel.cu.orig").read_text() == original


def test_inplace_and_o_write_nothing_outside_the_sources_directory(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "src").mkdir()
    header = tmp_path / "inc" / "h.cuh"
    header.write_text("#include <cuda_runtime.h>\n")
    (tmp_path / "src" / "k.cu").write_text('#include "../inc/h.cuh"\ncudaStream_t s;\n')
    for mode in (["--inplace"], ["-o", str(tmp_path / "out" / "k.cu")]):
        result = port(tmp_path / "src" / "k.cu", *mode)
        assert result.returncode == 0, result.stderr
        assert f"note: '{header}' is outside '{tmp_path / 'src'}' and was not written" in result.stderr
        assert header.read_text() == "#include <cuda_runtime.h>\n" and not (tmp_path / "inc" / "h.cuh.orig").exists()
    assert "musaStream_t" in (tmp_path / "src" / "k.cu").read_text()


def test_an_out_root_that_holds_the_tree_is_refused(tmp_path: Path) -> None:
    """``--out-root`` above the tree would write ``src/src/k.cu``'s translation over ``src/k.cu``."""
    (tmp_path / "src" / "src").mkdir(parents=True)
    (tmp_path / "src" / "k.cu").write_text("cudaStream_t mine;\n")
    (tmp_path / "src" / "src" / "k.cu").write_text("cudaStream_t nested;\n")
    refused = port(tmp_path / "src", "--out-root", tmp_path)
    assert refused.returncode == 2 and "holds the source tree" in refused.stderr
    assert (tmp_path / "src" / "k.cu").read_text() == "cudaStream_t mine;\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


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
        (["{project}/kernel.cu", "-o", "o/kernel.cu", "--report", "r.txt"],
         "cannot tell the report format of 'r.txt': name it report.json or report.html"),
        (["{project}", "--inplace", "--backup-suffix", "/x"], "--backup-suffix '/x' must be a file name suffix (no '/')"),
        (["{project}", "--out-root", "o", "-j", "0"], "-j 0: the number of processes must be at least 1"),
        (["{project}/fifo.cu", "-o", "o.cu"], "cannot read '{project}/fifo.cu': not a regular file (a FIFO, socket or device)"),
        (["{project}", "--out-root", "o"], "cannot read '{project}/sub/pipe.cuh': not a regular file (a FIFO, socket or "
                                           "device); move it out of the tree"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(project: Path, tmp_path: Path, arguments: list[str], message: str) -> None:
    fifo = re.search(r"'\{project\}/([^']+)': not a regular file", message)
    if fifo:
        (project / fifo.group(1)).parent.mkdir(exist_ok=True)
        os.mkfifo(project / fifo.group(1))
    before = sorted(p.name for p in project.iterdir())
    result = port(*(a.format(project=project) for a in arguments), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("torchada-port: error: ") and message.format(project=project) in lines[0]
    assert sorted(p.name for p in project.iterdir()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]  # no output, no report


def test_a_file_name_that_is_not_utf8_is_reported(tmp_path: Path) -> None:
    name = os.fsdecode(b"k\xff.cu")
    (tmp_path / name).write_text("cudaStream_t s;\n")
    for report in ("r.html", "r.json"):
        result = port(name, "-o", "o.cu", "--report", report, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "k\\udcff.cu" in (tmp_path / report).read_text()


def test_unknown_option_is_a_usage_error() -> None:
    assert port("--bogus").returncode == 2


def test_list_mappings_name_filters_the_rows() -> None:
    result = port("--list-mappings", "cudaMalloc")
    assert result.returncode == 0
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert ["cudaMalloc", "musaMalloc"] in [row[:2] for row in rows]
    assert all("cudaMalloc" in row[0] or "cudaMalloc" in row[1] for row in rows)
    assert 1 < len(rows) < 50, "cudaMalloc, cudaMallocAsync, cudaMallocHost... only"
    by_musa = json.loads(port("--list-mappings", "musaMallocHost", "--json").stdout)
    assert [row["cuda"] for row in by_musa] == ["cudaMallocHost"]
    missing = port("--list-mappings", "noSuchName")
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr == "torchada-port: error: no CUDA or MUSA name in the mapping database contains 'noSuchName'\n"


def test_json_without_list_mappings_is_a_usage_error(project: Path) -> None:
    result = port(project / "kernel.cu", "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("torchada-port: error: --json goes with --list-mappings "
                             "(for findings as JSON: --findings-format json)\n")


def test_list_mappings_json_is_the_database() -> None:
    result = port("--list-mappings", "--json")
    assert result.returncode == 0
    rows = json.loads(result.stdout)
    by_name = {row["cuda"]: row for row in rows}
    assert by_name["cudaMalloc"]["musa"] == "musaMalloc"
    inventory = "hipify_like/data/inventory/musa_api_inventory.tsv"
    assert (SAMPLE.parents[1] / inventory).is_file()
    assert by_name["cudaMalloc"]["evidence"].startswith(f"{inventory}: ")
    assert by_name["ncclCommSplit"]["evidence"] == f"absent from {inventory}"
    assert set(rows[0]) == {"cuda", "musa", "kind", "library", "status", "evidence", "note"}


def test_the_readme_sample_ports(tmp_path: Path) -> None:
    result = port(SAMPLE / "saxpy.cu", "-o", tmp_path / "saxpy.cu")
    assert result.returncode == 0, result.stderr
    assert "musaMalloc" in (tmp_path / "saxpy.cu").read_text()


def test_every_document_the_evidence_cites_is_in_the_repository(capsys) -> None:
    """``--list-mappings`` evidence names files of this repository (the reference notes under docs/reference)."""
    import json
    import re
    from pathlib import Path

    from hipify_like.cli import main

    assert main(["--list-mappings", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    repo = Path(__file__).resolve().parents[2]
    cited = {m for row in rows for m in re.findall(r"[\w./-]+\.(?:md|tsv)\b", row["evidence"])}
    assert "docs/reference/musa_toolchain.md" in cited
    assert sorted(c for c in cited if not (repo / c).is_file()) == []


def test_a_failed_write_names_the_file_and_leaves_nothing(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno
    import os

    from hipify_like.cli import main
    from torchada_build.core import files

    def full_disk(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", full_disk)
    (tmp_path / "out").mkdir()
    assert main([str(project / "kernel.cu"), "-o", str(tmp_path / "out" / "kernel.cu")]) == 2
    assert capsys.readouterr().err == f"torchada-port: error: cannot write '{tmp_path / 'out' / 'kernel.cu'}': No space left on device\n"
    assert os.listdir(tmp_path / "out") == []


def test_a_tree_port_imports_only_what_it_uses(project: Path, tmp_path: Path) -> None:
    """Start-up is in series with a port's processes (``-j``): a plain tree port imports no module that only a
    report, the JSON findings, ``-o``'s record or the pyproject.toml reader needs, nor ``dataclasses`` (which
    imports ``inspect``, ``ast`` and ``dis``); ``-j 2`` adds only what its workers use."""
    probe = (
        "import sys\nfrom hipify_like.cli import main\nstatus = main(sys.argv[1:])\n"
        "print(status, *sorted(m for m in sys.modules if m in {'dataclasses', 'inspect', 'json', 'html', 'hashlib',"
        " 'tomllib', 'pickle', 'hipify_like.outputs', 'hipify_like.inventory'}))"
    )
    for jobs, allowed in (("1", set()), ("2", {"pickle"})):  # pickle: if a worker sent a batch back before this ended
        done = subprocess.run([sys.executable, "-c", probe, str(project), "--out-root", tmp_path / f"o{jobs}", "-q",
                               "-j", jobs], capture_output=True, text=True, cwd=tmp_path, check=False)  # fmt: skip
        status, *imported = done.stdout.split()
        assert status == "0" and set(imported) <= allowed, done.stdout + done.stderr


def test_a_source_larger_than_torchada_translates_is_refused_with_one_line(tmp_path: Path) -> None:
    """A 65 MiB source (sparse: no disk is used) would take about a gigabyte to translate."""
    from torchada_build.core.files import SOURCE_LIMIT

    big = tmp_path / "src" / "big.cu"
    big.parent.mkdir()
    with open(big, "wb") as file:
        file.truncate(SOURCE_LIMIT + 1)
    result = port(tmp_path / "src", "--out-root", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr == f"torchada-port: error: cannot read '{big}': it is 64 MiB, and torchada translates files of at most 64 MiB\n"
    assert not (tmp_path / "out" / "big.cu").exists()

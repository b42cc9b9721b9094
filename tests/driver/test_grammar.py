"""nvcc's command-line grammar (``docs/nvcc.md``, "The command line", each rule verified on nvcc 13.0):
spellings, value forms, comma lists, pass-through unquoting, repeats, options files, environment
variables, unknown options, languages, phases, outputs, dependency-file names and architectures."""

from __future__ import annotations

from pathlib import Path

import pytest
from torchada_build.compilers.archs import GpuTargets, requested_targets
from torchada_build.compilers.cmdline import split_list, split_options_text
from torchada_build.compilers.errors import InputError, UsageError
from torchada_build.compilers.parse import ArgKind, parse_args
from torchada_build.compilers.request import DependencyMode, Language, Phase, build_request


def parse(*argv: str, **environ: str):
    return parse_args(list(argv), environ=environ)


def request(*argv: str):
    return build_request(parse(*argv))


def fails(message: str, *argv: str, **environ: str) -> None:
    with pytest.raises(UsageError) as error:
        build_request(parse(*argv, **environ))
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("argv", "option", "values"),
    [
        (["-Ifoo"], "--include-path", ["foo"]),
        (["-I=foo"], "--include-path", ["foo"]),
        (["-I", "foo,bar"], "--include-path", ["foo", "bar"]),
        (["-O3"], "--optimize", ["3"]),
        (["-O", "3"], "--optimize", ["3"]),
        (["-t4"], "--threads", ["4"]),
        (["-lm,pthread"], "--library", ["m", "pthread"]),
        (["-isystem=/x"], "--system-include", ["/x"]),  # CMake 3.25's spelling
        (["-isystem", "/x"], "--system-include", ["/x"]),  # CMake 4's
        (["--output-file=k.o"], "--output-file", ["k.o"]),
        (["-DFOO=1"], "--define-macro", ["FOO=1"]),
        (["--define-macro=A=1,B"], "--define-macro", ["A=1", "B"]),
    ],
)
def test_values(argv: list[str], option: str, values: list[str]) -> None:
    assert parse(*argv, "k.cu").values(option) == values


def test_lto_is_an_option_not_a_glued_library() -> None:
    assert parse("-lto", "k.cu").has("--dlink-time-opt")
    assert parse("-lineinfo", "k.cu").has("--generate-line-info")


@pytest.mark.parametrize("word", ["-ox.o", "-xcu", "-archsm_80", "-isystem/x", "--o", "-output-file", "--Xcompiler",
                                  "--output", "--use-fast-math", "--diag_suppress=1"])  # fmt: skip
def test_spellings_nvcc_refuses(word: str) -> None:
    with pytest.raises(UsageError, match=f"^Unknown option '{word}'"):
        parse(word, "k.cu")


def test_unknown_option_suggests_the_nearest() -> None:
    with pytest.raises(UsageError) as error:
        parse("--use-fast-math", "k.cu")
    assert str(error.value) == "Unknown option '--use-fast-math'; did you mean '--use_fast_math'?"


def test_value_errors_use_nvcc_wording() -> None:
    fails("no argument expected after '-lineinfo'", "-lineinfo=true", "k.cu")
    fails("argument expected after '-O'", "k.cu", "-O")
    fails("'1': expected true or false", "-rdc=1", "k.cu")
    fails("Value 'gnu++17' is not defined for option 'std'", "-std=gnu++17", "k.cu")
    fails("'fast': expected a number", "-Ofast", "k.cu")
    fails("Value 'foo' is not defined for option 'Werror'", "-Werror", "foo", "k.cu")  # bare -Werror eats a value
    fails("Value 'cuda' is not defined for option 'x'", "-x", "cuda", "k.cu")


def test_comma_lists_follow_nvcc() -> None:
    assert split_list('A=f(x\\,y),"B=1,2",,C') == ["A=f(x,y)", '"B=1,2"', "C"]
    assert split_list("X='a,b'") == ["X='a", "b'"]  # single quotes do not protect
    assert parse("-Xcompiler", ',"-a","-b"', "k.cu").values("--compiler-options") == ['"-a"', '"-b"']


def test_repeats_warn_and_the_last_wins() -> None:
    parsed = parse("-O2", "-O3", "-O3", "-arch=sm_80", "-arch=sm_80", "k.cu")
    assert parsed.last("--optimize") == "3"
    assert parsed.warnings == (
        "incompatible redefinition for option 'optimize', the last value of this option was used",
    )
    assert parse("-MT", "a", "-MT", "b", "k.cu").last("--dependency-target-name") == "b"  # nvcc: not gcc's accumulation
    assert parse("-Ia", "-I", "b", "k.cu").values("--include-path") == ["a", "b"]


def test_options_files_nest_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "outer.rsp").write_text('-O1 --options-file inner.rsp "-DX=a b"\n-O3')
    (tmp_path / "inner.rsp").write_text("-O2 -Iinc\\ dir -DQ='q'")
    parsed = parse("-O0", "--options-file", "outer.rsp", "k.cu")
    assert parsed.values("--optimize") == ["0", "1", "2", "3"]
    assert parsed.values("--include-path") == ["inc dir"]
    assert parsed.values("--define-macro") == ["Q='q'", "X=a b"]


def test_options_file_tokenizer() -> None:
    assert split_options_text("a \"b c\" d\\ e 'f g' h\\\ni # x") == ["a", "b c", "d e", "'f", "g'", "h\ni", "#", "x"]


def test_options_file_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="^Could not open options file 'missing.rsp'$"):
        parse("--options-file", "missing.rsp", "k.cu")
    (tmp_path / "loop.rsp").write_text("-optf loop.rsp")
    with pytest.raises(UsageError, match="include each other"):
        parse("-optf", "loop.rsp", "k.cu")


def test_at_file_is_an_input_not_a_response_file() -> None:
    assert parse("@flags.rsp", "k.cu").inputs == ["@flags.rsp", "k.cu"]


def test_environment_flags_surround_the_command_line() -> None:
    parsed = parse("-O2", "k.cu", NVCC_PREPEND_FLAGS="-O1 -DPRE", NVCC_APPEND_FLAGS="'-DAPP=a b' -O3")
    assert parsed.values("--optimize") == ["1", "2", "3"]
    assert parsed.values("--define-macro") == ["PRE", "APP=a b"]


def test_unknown_options_are_forwarded_only_when_asked() -> None:
    parsed = parse("-Wall", "-fopenmp", "k.cu", "-forward-unknown-to-host-compiler")  # anywhere on the line
    assert parsed.forwarded(ArgKind.TO_HOST_COMPILER) == ["-Wall", "-fopenmp"]
    assert parsed.inputs == ["k.cu"]  # the next word is not taken as a value
    assert parse("-Wl,-znow", "-forward-unknown-to-host-linker", "k.o").forwarded(ArgKind.TO_HOST_LINKER) == [
        "-Wl,-znow"
    ]
    assert parse("-pthread", "-forward-unknown-opts", "k.o").forwarded(ArgKind.TO_HOST_BOTH) == ["-pthread"]


def test_x_applies_to_every_input_and_the_last_wins() -> None:
    languages = [i.language for i in request("a.cpp", "-x", "c", "b", "c.cuh", "d.o", "-x", "cu").inputs]
    assert languages == [Language.CUDA, Language.CUDA, Language.CUDA, Language.LINKER_INPUT]
    assert request("-x", "c++", "-c", "k.cu").inputs[0].language is Language.CXX
    assert [i.language for i in request("a.c", "b.cc", "c.cpp", "d.cxx", "e.a", "f.so.1").inputs] == [
        Language.C, Language.CXX, Language.CXX, Language.CXX, Language.LINKER_INPUT, Language.LINKER_INPUT,
    ]  # fmt: skip


def test_inputs_nvcc_does_not_know() -> None:
    with pytest.raises(InputError, match="^Don't know what to do with 'k.cuh'$"):
        request("-c", "k.cuh")
    with pytest.raises(InputError, match="NVIDIA device code"):
        request("k.ptx")
    fails("No input files specified; use option --help for more information", "-c")


@pytest.mark.parametrize(
    ("argv", "phase"),
    [
        (["-c", "-E"], Phase.PREPROCESS),
        (["-E", "-c"], Phase.PREPROCESS),
        (["-M", "-c"], Phase.DEPENDENCIES),
        (["-c", "-lib"], Phase.COMPILE),
        (["-c", "-c"], Phase.COMPILE),  # torch's ninja rule says -c twice
        (["-dc", "-c"], Phase.COMPILE),
        (["-dlink"], Phase.DEVICE_LINK),
        (["-lib"], Phase.ARCHIVE),
        (["-ptx", "-c"], Phase.DEVICE_ONLY),
        ([], Phase.LINK),
    ],
)
def test_the_phase_that_stops_earliest_wins(argv: list[str], phase: Phase) -> None:
    assert request(*argv, "k.cu").phase is phase


def test_relocatable_device_code() -> None:
    assert request("-dc", "k.cu").rdc
    assert request("-rdc=true", "-c", "k.cu").rdc
    assert not request("-rdc", "false", "-c", "k.cu").rdc
    assert not request("-dw", "k.cu").rdc


def test_outputs() -> None:
    compile_two = request("-c", "dir/a.cu", "b.cu")
    assert [compile_two.object_for(i) for i in compile_two.sources] == ["a.o", "b.o"]  # here, not next to the source
    odir = request("-c", "a.cu", "-odir", "objs")
    assert odir.object_for(odir.sources[0]) == "objs/a.o"
    fails(
        "A single input file is required for a non-link phase when an outputfile is specified",
        "-c", "a.cu", "b.cu", "-o", "x.o",
    )  # fmt: skip
    assert request("a.cu", "b.cu", "-o", "app").phase is Phase.LINK


def test_dependency_file_names() -> None:
    r = request("-MD", "-c", "dir/k.cu", "-o", "obj/k.o")
    source = r.sources[0]
    assert r.dependencies.mode is DependencyMode.WITH_COMPILE
    assert r.depfile_for(source) == "obj/k.d"
    assert r.dependency_target(source) == "obj/k.o"
    r = request("-MD", "-c", "dir/k.cu", "-odir", "objs")
    assert r.depfile_for(r.sources[0]) == "objs/k.d"
    r = request("-MD", "k.cu", "-o", "prog")  # link mode: named after the program, as nvcc does
    assert (r.depfile_for(r.sources[0]), r.dependency_target(r.sources[0])) == ("prog.d", "prog")
    r = request("--generate-dependencies-with-compile", "--dependency-output", "k.o.d", "-c", "k.cu", "-o", "k.o")
    assert r.depfile_for(r.sources[0]) == "k.o.d"  # torch's spelling
    r = request("-M", "k.cu", "-MF", "a.d", "-o", "b.d", "-odir", "objs")
    assert r.dependencies.file == "b.d"  # with -M, -o beats -MF
    assert r.dependency_target(r.sources[0]) == "objs/k.o"
    assert not request("-MM", "k.cu").dependencies.system
    r = request("-E", "-MD", "-MF", "k.d", "-MT", "k.o", "k.cu")  # nvcc refuses it; gcc's form, which sccache uses
    assert (r.phase, r.dependencies.mode, r.depfile_for(r.sources[0])) == (Phase.PREPROCESS, DependencyMode.WITH_COMPILE, "k.d")


@pytest.mark.parametrize(
    ("argv", "targets"),
    [
        (["-arch=sm_80"], GpuTargets((80,), (80,))),
        (["-arch", "compute_80", "-code", "sm_86,compute_80"], GpuTargets((80,), (86,))),
        (["--generate-code=arch=compute_80,code=[compute_80,sm_80]"], GpuTargets((80,), (80,))),  # CMake
        (["-gencode=arch=compute_75,code=sm_75", "-gencode", "code=sm_90a,arch=compute_90a"],
         GpuTargets((75, 90), (75, 90))),
        (["-gencode=arch=compute_80,code=compute_80"], GpuTargets((80,), ())),  # torch's +PTX
        (["-arch=all-major"], GpuTargets(special="all-major")),
        (["-arch=native"], GpuTargets(special="native")),
        ([], GpuTargets()),
    ],
)  # fmt: skip
def test_architectures(argv: list[str], targets: GpuTargets) -> None:
    assert requested_targets(parse(*argv, "k.cu")) == targets


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-arch=foo"], "Unsupported gpu architecture 'foo'"),
        (["-code=sm_80"], "-arch option not specified"),
        (["-arch=sm_80", "-code=sm_80"], "Value of -arch option ('sm_80') must be a virtual code architecture"),
        (["-gencode", "arch=compute_80,code=sm_80,arch=compute_90"], "redefinition of keyword 'arch'"),
        (["-gencode=arch=compute_80"], "Option '--generate-code arch=compute_80', missing code"),
        (["-gencode=code=sm_80"], "Option '--generate-code code=sm_80', missing architecture"),
    ],
)
def test_architecture_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as error:
        requested_targets(parse(*argv, "k.cu"))
    assert str(error.value) == message

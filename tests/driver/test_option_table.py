"""The option table against nvcc's own list (``data/nvcc_options.tsv``, from ``nvcc --help`` 13.0 and
probes), and against the code that acts on it: every option a backend passes or translates names the
stage that acts on it, a compile-stage one is spelled by its row or rendered by its toolchain (not
both), and a dropped or unsupported one is acted on by nothing."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from torchada_build.compilers import docs
from torchada_build.compilers.option_table import all_options, find_option
from torchada_build.compilers.options import Action, Kind, Stage
from torchada_build.compilers.toolchains import loopback, mcc

TSV = Path(__file__).parent / "data" / "nvcc_options.tsv"
with TSV.open(newline="") as _f:
    ROWS = list(csv.DictReader(_f, delimiter="\t"))


def _expected_kind(row: dict[str, str]) -> Kind:
    takes, form = row["takes_value"], row["value_form"]
    if takes == "no":
        return Kind.FLAG
    if "per option" in takes:
        return Kind.REPEATED
    joined = "(attached)" in form
    if "comma list" in takes:
        return Kind.JOINED_COMMA_LIST if joined else Kind.COMMA_LIST
    return Kind.JOINED_OR_SEPARATE if joined else Kind.SEPARATE


def test_the_table_is_sorted_and_unique() -> None:
    longs = [o.long for o in all_options()]
    assert longs == sorted(longs, key=str.lower)
    spellings = [s for o in all_options() for s in o.spellings()]
    assert len(spellings) == len(set(spellings))


def test_every_nvcc_option_is_in_the_table() -> None:
    assert len(ROWS) == 146
    table = {o.long for o in all_options()}
    assert {r["long"] for r in ROWS} <= table
    assert table - {r["long"] for r in ROWS} == {"--torchada-backend", "--torchada-no-line-markers"}


@pytest.mark.parametrize("row", ROWS, ids=[r["long"] for r in ROWS])
def test_row_matches_nvcc(row: dict[str, str]) -> None:
    option = find_option(row["long"])
    assert option is not None
    assert option.short == (row["short"] or None)
    if row["short"]:
        assert find_option(row["short"]) is option
    assert option.kind is _expected_kind(row)
    if "enum" in row["takes_value"]:
        assert set(option.choices) == set(row["value_form"].split("{")[1].split("}")[0].split("|"))


def test_every_treatment_has_a_reason() -> None:
    for option in all_options():
        for treatment in (option.mcc, option.loopback):
            assert treatment.reason and "\n" not in treatment.reason, option.long
        if option.alias_of:
            assert find_option(option.alias_of) is not None


def test_what_a_backend_acts_on_names_its_stage_and_what_it_drops_names_none() -> None:
    for option in all_options():
        for backend in ("mcc", "loopback"):
            treatment = getattr(option, backend)
            if treatment.action in (Action.PASS, Action.TRANSLATE):
                assert treatment.stage, f"{option.long}: {backend} {treatment.action.value}es it, but no stage acts on it"
            else:
                assert not treatment.stage and not treatment.spelling, f"{option.long}: {backend} acts on what it drops"
            if treatment.spelling:
                assert treatment.stage & (Stage.COMPILE | Stage.DEVICE | Stage.LINK), f"{option.long}: a spelling nothing uses"


@pytest.mark.parametrize("backend", [mcc, loopback], ids=["mcc", "loopback"])
def test_a_renderer_is_for_a_compile_stage_option_its_row_does_not_spell(backend) -> None:
    name = backend.__name__.rsplit(".", 1)[1]
    for long in backend.RENDERERS:
        option = find_option(long)
        assert option is not None and option.canonical == long
        treatment = getattr(option, name)
        assert treatment.stage & (Stage.COMPILE | Stage.DEVICE) and not treatment.spelling, long


def test_every_compile_stage_option_of_mcc_is_spelled_or_rendered() -> None:
    for option in all_options():
        if option.mcc.stage & (Stage.COMPILE | Stage.DEVICE):
            assert option.mcc.spelling or option.canonical in mcc.RENDERERS, f"{option.long}: nothing spells it for mcc"


def test_help_lists_every_option() -> None:
    text = docs.help_text()
    for option in all_options():
        assert option.long in text


def test_a_lookup_of_a_name_not_in_the_table_raises() -> None:
    """A misspelt lookup would answer "absent" for ever; it is a KeyError instead (so is an alias)."""
    from torchada_build.compilers.parse import parse_args

    parsed = parse_args(["-O3", "--lto", "-c", "k.cu"], environ={})
    assert parsed.has("--optimize") and parsed.has("--dlink-time-opt")
    for name in ("--optimise", "--lto", "-O"):
        with pytest.raises(KeyError, match="canonical long name"):
            parsed.has(name)

"""The option table against nvcc's own list (``data/nvcc_options.tsv``, from ``nvcc --help`` 13.0 and
probes), and against the code that acts on it: every option the mcc backend passes or translates is
rendered somewhere, no dropped option is, and ``docs/options.md`` is what the table generates."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from torchada_build.compilers import docs
from torchada_build.compilers.option_table import all_options, find_option
from torchada_build.compilers.options import Action, Kind
from torchada_build.compilers.plan import HANDLED_BY_PLAN
from torchada_build.compilers.toolchains.base import LINK_OPTIONS
from torchada_build.compilers.toolchains.mcc import COMPILE_FLAGS, DEVICE_FLAGS

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


def test_what_mcc_passes_or_translates_is_rendered_and_what_it_drops_is_not() -> None:
    rendered = set(COMPILE_FLAGS) | set(DEVICE_FLAGS)
    handled = rendered | HANDLED_BY_PLAN | LINK_OPTIONS
    for option in all_options():
        action = option.mcc.action
        if action in (Action.PASS, Action.TRANSLATE):
            assert option.canonical in handled, f"{option.long} is {action.value} for mcc but nothing renders it"
        else:
            assert option.canonical not in rendered, f"{option.long} is {action.value} for mcc but is rendered"


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

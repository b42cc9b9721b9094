"""Every ``TORCHADA_*`` variable is in the settings table, and read through it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from torchada_build.core.settings import SETTINGS, SettingError, value

REPO = Path(__file__).resolve().parents[1]
FOLDERS = ("compilers", "hipify_like", "runtime", "torchada_build")
_NAMED = re.compile(r"""["'](TORCHADA_[A-Z0-9_]*[A-Z0-9])["']""")
_READ_DIRECTLY = re.compile(r"""(?:environ|getenv)\s*(?:\.get\s*\(|\[)\s*["']TORCHADA_""")


def _sources() -> list[Path]:
    return [path for folder in FOLDERS for path in sorted((REPO / folder).rglob("*.py"))]


def test_every_variable_named_in_the_code_is_in_the_table() -> None:
    named = {name for path in _sources() for name in _NAMED.findall(path.read_text())}
    assert named - SETTINGS.keys() == set()


def test_no_variable_is_read_around_the_table() -> None:
    settings = REPO / "torchada_build" / "core" / "settings.py"
    direct = [f"{path}:{n}" for path in _sources() if path != settings
              for n, line in enumerate(path.read_text().splitlines(), 1) if _READ_DIRECTLY.search(line)]  # fmt: skip
    assert direct == []


@pytest.mark.parametrize("name", [n for n, s in SETTINGS.items() if s.kind in ("choice", "switch")])
def test_a_value_a_choice_may_not_take_is_one_line(name: str) -> None:
    with pytest.raises(SettingError) as raised:
        value(name, {name: "nonsense"})
    assert str(raised.value).startswith(f"{name} must be ") and str(raised.value).endswith("not 'nonsense'; unset it for its default (docs/settings.md) [TA2022]")
    assert value(name, {name: "  "}) == SETTINGS[name].default

"""Golden tests in the HIPIFY style: ``golden/<name>`` is a CUDA input, ``<name>.expected`` its exact
MUSA translation, and ``<name>.findings`` (optional) the findings, one gcc-style line each with the
file named by its base name. An input without a ``.findings`` file must translate with no findings.

``TORCHADA_UPDATE_GOLDEN=1 python -m pytest tests/translate/test_golden.py`` rewrites the expected
files from the current translator; review the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipify_like import translate_source

GOLDEN = Path(__file__).parent / "golden"
INPUTS = sorted(p for p in GOLDEN.iterdir() if p.suffix in {".cu", ".cuh", ".cpp", ".h"})
UPDATE = os.environ.get("TORCHADA_UPDATE_GOLDEN") == "1"


def _findings_text(path: Path, translation) -> str:
    return "".join(f.format().replace(str(path), path.name, 1) + "\n" for f in translation.findings)


@pytest.mark.parametrize("source", INPUTS, ids=[p.name for p in INPUTS])
def test_golden(source: Path) -> None:
    translation = translate_source(source.read_bytes(), str(source))
    expected = source.with_name(source.name + ".expected")
    findings = source.with_name(source.name + ".findings")
    found = _findings_text(source, translation)
    if UPDATE:
        expected.write_bytes(translation.text)
        if found:
            findings.write_text(found)
        elif findings.exists():
            findings.unlink()
    assert translation.text == expected.read_bytes()
    assert found == (findings.read_text() if findings.exists() else "")


def test_every_input_has_an_expected_file() -> None:
    assert INPUTS, "no golden inputs"
    for source in INPUTS:
        assert source.with_name(source.name + ".expected").is_file(), source.name

"""The findings hold their floor on the hand-annotated corpus (``tests/findings_corpus.py``): every annotated
PTX statement and 32-lane assumption is found, and at least 95% of each ID's findings are annotated.
The table in ``docs/diagnostics.md`` is rendered from ``docs/findings_corpus.json``, which must be this run's."""

from __future__ import annotations

import json
import urllib.error
from pathlib import Path

import pytest
from findings_corpus import EXHAUSTIVE, PROJECTS, Score, annotations, findings_of, score, totals

pytestmark = [pytest.mark.network, pytest.mark.slow]

RECORDED = Path(__file__).resolve().parents[2] / "docs" / "findings_corpus.json"
PRECISION_FLOOR = 0.95


@pytest.fixture(scope="module")
def scores() -> dict[str, dict[str, Score]]:
    try:
        return {project.key: score(annotations(project), findings_of(project)) for project in PROJECTS}
    except urllib.error.URLError as error:
        pytest.skip(f"cannot fetch the corpus's sdists from PyPI: {error}")


def test_every_annotated_ptx_and_warp_statement_is_found(scores: dict[str, dict[str, Score]]) -> None:
    missed = {
        (key, rule): f"{s.matched}/{s.annotated}"
        for key, by_rule in scores.items()
        for rule, s in by_rule.items()
        if rule in EXHAUSTIVE and s.recall < 1.0
    }
    assert not missed


def test_each_ids_precision_on_the_corpus(scores: dict[str, dict[str, Score]]) -> None:
    corpus = totals(scores.values())
    assert {rule for rule, s in corpus.items() if s.precision < PRECISION_FLOOR} == set()
    assert {"TA1101", "TA1201"} <= corpus.keys()


def test_the_documented_table_is_this_runs(scores: dict[str, dict[str, Score]]) -> None:
    measured = {key: {rule: s._asdict() for rule, s in by_rule.items()} for key, by_rule in scores.items()}
    assert json.loads(RECORDED.read_text())["projects"] == measured, "run python benchmarks/findings_corpus.py"

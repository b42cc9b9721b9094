"""Recall and precision of torchada's findings on the hand-annotated corpus of ``tests/findings_corpus.py``.

    python benchmarks/findings_corpus.py            # every project; writes docs/findings_corpus.json
    python benchmarks/findings_corpus.py --misses   # also list each missed and each unexpected finding

Each pinned sdist is ported as a user would (``torchada-port TREE --out-root OUT``) and its findings are
matched against the annotations by file, line and ID. Prints a table per project and ID, and the whole
corpus per ID; then ``python -m torchada_build.generate`` renders the JSON into ``docs/diagnostics.md``.
Goals: recall 1.0 for TA1101 and TA1201, precision at least 0.95 for every ID. Needs the network (PyPI).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests")]

from findings_corpus import PROJECTS, Score, annotations, findings_of, score, totals  # noqa: E402

RESULTS = REPO / "docs" / "findings_corpus.json"


def _row(project: str, rule: str, s: Score) -> str:
    return f"{project:<30} {rule:<7} {s.annotated:>9} {s.reported:>8} {s.matched:>7} {s.recall:>6.2f} {s.precision:>9.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="list each missed and each unexpected finding")
    args = parser.parse_args()
    per_project: dict[str, dict[str, dict[str, int]]] = {}
    scores_by_project = []
    print(f"{'project':<30} {'ID':<7} {'annotated':>9} {'reported':>8} {'matched':>7} {'recall':>6} {'precision':>9}")
    for project in PROJECTS:
        expected, found = annotations(project), findings_of(project)
        scores = score(expected, found)
        per_project[project.key] = {rule: s._asdict() for rule, s in scores.items()}
        for rule, s in scores.items():
            print(_row(project.key, rule, s))
        scores_by_project.append(scores)
        if args.misses:
            for path, line, rule in sorted(expected - found):
                print(f"  missed      {path}:{line} {rule}")
            for path, line, rule in sorted(found - expected):
                print(f"  unexpected  {path}:{line} {rule}")
    for rule, s in sorted(totals(scores_by_project).items()):
        print(_row("all", rule, s))
    RESULTS.write_text(json.dumps({"projects": per_project}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {RESULTS.relative_to(REPO)}; run python -m torchada_build.generate to render docs/diagnostics.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())

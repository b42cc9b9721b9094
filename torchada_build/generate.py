"""Write every file generated in the repository, or check that each is fresh.

* from the mapping database (:mod:`hipify_like.generate`): ``runtime/_mapping_tables.py``,
  ``docs/coverage.md``;
* from nvcc's option table (:mod:`torchada_build.compilers.docs`): ``docs/options.md``;
* from the diagnostics table (:mod:`hipify_like.diagnostics`), the findings' IDs (:mod:`hipify_like.findings`)
  and their measured scores (``docs/findings_corpus.json``, from ``benchmarks/findings_corpus.py``):
  ``docs/diagnostics.md``.

Usage: ``python -m torchada_build.generate`` rewrites the stale ones; ``--check`` writes nothing and
exits 1 naming each stale file (a test runs it).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["generated_files", "main"]

REPOSITORY = Path(__file__).resolve().parent.parent


def generated_files() -> dict[str, Callable[[], str]]:
    """Path relative to the repository → the function that renders its text."""
    from hipify_like.arch import get_arch_table
    from hipify_like.diagnostics import diagnostics_markdown
    from hipify_like.findings import findings_markdown
    from hipify_like.generate import GENERATED
    from hipify_like.mapping import load_db

    from .compilers.docs import options_markdown

    db = load_db()
    files: dict[str, Callable[[], str]] = {path: functools.partial(render, db) for path, render in GENERATED.items()}
    files["docs/options.md"] = options_markdown
    files["docs/diagnostics.md"] = lambda: diagnostics_markdown() + "\n" + findings_markdown(
        json.loads((REPOSITORY / "docs" / "findings_corpus.json").read_text())["projects"], get_arch_table().warp_summary()
    )
    return files


def main(argv: Sequence[str] | None = None) -> int:
    from hipify_like.files import write_atomically

    parser = argparse.ArgumentParser(prog="python -m torchada_build.generate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file is stale; write nothing")
    parser.add_argument("--root", type=Path, default=REPOSITORY, help="the repository root (default: %(default)s)")
    args = parser.parse_args(argv)
    stale = []
    for relative, render in generated_files().items():
        path = args.root / relative
        text = render()
        if path.is_file() and path.read_text() == text:
            continue
        stale.append(relative)
        if not args.check:
            write_atomically(path, text)
    for relative in stale:
        print(f"{relative}: {'stale' if args.check else 'written'}", file=sys.stderr)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())

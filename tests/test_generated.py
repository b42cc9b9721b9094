"""Every generated file in the repository is what ``python -m torchada_build.generate`` makes now."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from torchada_build.generate import REPOSITORY, generated_files


def _generate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "torchada_build.generate", *args], capture_output=True, text=True,
                          check=False)  # fmt: skip


def test_every_generated_file_is_fresh() -> None:
    done = _generate("--check")
    assert done.returncode == 0, f"stale (run python -m torchada_build.generate): {done.stderr}"


def test_check_names_a_stale_file_and_writes_nothing(tmp_path: Path) -> None:
    for relative in generated_files():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPOSITORY / relative, tmp_path / relative)
    (tmp_path / "docs" / "options.md").write_text("edited by hand\n")
    done = _generate("--check", "--root", str(tmp_path))
    assert (done.returncode, done.stderr) == (1, "docs/options.md: stale\n")
    assert (tmp_path / "docs" / "options.md").read_text() == "edited by hand\n"
    assert _generate("--root", str(tmp_path)).returncode == 0
    assert (tmp_path / "docs" / "options.md").read_text() == (REPOSITORY / "docs" / "options.md").read_text()

"""The README's first command does its job however often it is run: what follows its ``pip install -e .``,
run twice from the checkout's root, prints the translated sample both times."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _first_command() -> str:
    block = re.search(r"```bash\n(.*?)```", (REPO / "README.md").read_text(), re.DOTALL)
    assert block is not None, "the README starts with a bash block"
    first = block.group(1).splitlines()[0]
    install = "pip install -e . && "
    assert first.startswith(install), first
    return first.removeprefix(install)


def test_the_first_command_passes_twice() -> None:
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    for _ in range(2):
        done = subprocess.run(["bash", "-c", _first_command()], cwd=REPO, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "musaMalloc" in done.stdout and "#include <musa_runtime.h>" in done.stdout

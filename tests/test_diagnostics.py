"""The registry of TA IDs: unique IDs in order, every ID a product file prints registered, every
diagnostic raised by some product code, and the line a user sees carries the message, the remedy and the ID."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from torchada_build.core import diagnostics
from torchada_build.core.diagnostics import DIAGNOSTICS, RULES, registered_ids

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("compilers", "hipify_like", "runtime", "torchada_build")


def test_ids_are_unique_and_in_order() -> None:
    ids = [d.id for d in DIAGNOSTICS]
    assert ids == sorted(set(ids))
    assert all(re.fullmatch(r"TA2\d{3}", i) for i in ids)
    named = {name for name, value in vars(diagnostics).items() if isinstance(value, diagnostics.Diagnostic)}
    assert len(named) == len(DIAGNOSTICS)


def test_one_registry_holds_every_id_the_code_names() -> None:
    """A finding's rule and a diagnostic share one namespace: an ID used anywhere is registered once."""
    ids = registered_ids()
    assert len(ids) == len(set(ids)) and list(RULES) == sorted(RULES)
    assert all(re.fullmatch(r"TA1\d{3}", i) for i in RULES)
    named = {m for package in PACKAGES for p in (REPO / package).rglob("*.py")
             for m in re.findall(r"\bTA[12]\d{3}\b", p.read_text())}  # fmt: skip
    assert named - set(ids) == set(), "IDs named in the code that the registry lacks"


def test_every_row_is_raised_somewhere() -> None:
    sources = "\n".join(p.read_text() for package in PACKAGES for p in (REPO / package).rglob("*.py")
                        if p.name != "diagnostics.py")  # fmt: skip
    for name, value in vars(diagnostics).items():
        if isinstance(value, diagnostics.Diagnostic):
            assert re.search(rf"\b{name}\.text\(", sources), f"{name} ({value.id}) is raised nowhere"


def test_a_user_sees_message_remedy_and_id(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    env = {"PATH": "/usr/bin:/bin", "TORCHADA_CACHE_DIR": str(a_file), "TORCHADA_BACKEND": "loopback"}
    done = subprocess.run([str(Path(sys.executable).with_name("torchada-nvcc")), "-c", "k.cu"], env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (f"torchada-nvcc fatal   : the cache directory '{a_file}' is not a directory; "
                           "set TORCHADA_CACHE_DIR to a directory [TA2011]\n")  # fmt: skip

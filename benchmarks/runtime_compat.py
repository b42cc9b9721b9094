"""Side by side: the runtime's behavioural suite against this torchada and PyPI's torchada.

Runs ``tests/runtime/on_device`` (the checks CI runs) on the musa test device twice: with this
torchada, and in a separate venv with ``torchada==0.1.103`` from PyPI (see runtime_pypi.py). Both
runs ignore one warning: PyPI's torchada warns at import that it cannot build its C++ operators
(they need the MUSA SDK, which no machine here has). Not CI-gating.

Usage: ``python benchmarks/runtime_compat.py``. Prints each check's outcome for both, then, last,
``ours=N/M torchada=K/M``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from runtime_pypi import PYPI_VERSION, ROOT, device_env, pypi_python

SUITE = ROOT / "tests" / "runtime" / "on_device"
IGNORED = "ignore:Failed to load torchada C++ ops:UserWarning"


def run_suite(python: Path | str) -> dict[str, bool]:
    """Each check's id -> whether it passed."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.xml"
        subprocess.run(
            [str(python), "-m", "pytest", str(SUITE), "-q", "-p", "no:cacheprovider",
             "-W", IGNORED, f"--junitxml={report}"],
            cwd=ROOT, env=device_env("musa"), capture_output=True, text=True, timeout=1800,
        )
        outcomes = {}
        for case in ElementTree.parse(report).iter("testcase"):
            name = f"{Path(case.get('classname', '').replace('.', '/')).name}::{case.get('name')}"
            failed = any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
            outcomes[name] = not failed
        return outcomes


def main() -> int:
    ours = run_suite(sys.executable)
    theirs = run_suite(pypi_python())
    checks = sorted(set(ours) | set(theirs))
    width = max(map(len, checks))
    print(f"{'check':<{width}}  ours  torchada {PYPI_VERSION}")
    for check in checks:
        mark = {True: "pass", False: "FAIL", None: "-"}
        print(f"{check:<{width}}  {mark[ours.get(check)]:<4}  {mark[theirs.get(check)]}")
    total = len(checks)
    print(f"ours={sum(ours.values())}/{total} torchada={sum(theirs.values())}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

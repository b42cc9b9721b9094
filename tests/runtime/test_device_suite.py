"""Run the behavioural suite (``on_device/``) on the test device, once per vendor profile.

The device is built first (cached between runs, see tests/musa_device/README.md); each vendor's
suite then runs in a pytest process of its own, since a process can rename PrivateUse1 once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEVICE = ROOT / "tests" / "musa_device"
SUITE = Path(__file__).resolve().parent / "on_device"


@pytest.fixture(scope="session")
def built_device() -> None:
    """Build the test device's extension in a process of its own (this one stays CUDA-free)."""
    done = subprocess.run(
        [sys.executable, "-c", "from standin.build import load_extension; load_extension()"],
        cwd=DEVICE, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-5000:]


def _failures(report: Path) -> list[str]:
    failed = []
    for case in ElementTree.parse(report).iter("testcase"):
        for outcome in ("failure", "error"):
            node = case.find(outcome)
            if node is not None:
                failed.append(f"{case.get('name')}: {(node.get('message') or '')[:300]}")
    return failed


@pytest.mark.slow
@pytest.mark.parametrize("vendor", ["musa", "mlu"])
def test_suite_on_device(vendor: str, built_device: None, tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    env = dict(os.environ, TORCHADA_TEST_VENDOR=vendor)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(SUITE), "-q", "-n", "0", "-p", "no:cacheprovider",
         f"--junitxml={report}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert report.exists(), done.stdout[-5000:] + done.stderr[-5000:]
    failed = _failures(report)
    assert not failed and done.returncode == 0, "\n".join(failed) + "\n" + done.stdout[-5000:]

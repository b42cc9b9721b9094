"""Run the behavioural suite (``on_device/``) on the test device, once per vendor profile.

The device is built first (cached between runs, see tests/musa_device/README.md); each vendor's
suite then runs in a pytest process of its own, since a process can rename PrivateUse1 once.
It runs on this environment's torch and, in a cached venv (``tests/torch_venvs.py``), on torch
2.7.1, which torch_musa v2.7.1 is built on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from torch_venvs import TORCH_2_7, PipError, torch_venv

ROOT = Path(__file__).resolve().parents[2]
DEVICE = ROOT / "tests" / "musa_device"
SUITE = Path(__file__).resolve().parent / "on_device"
VENDORS = ("musa", "mlu")


def _build_device(python: Path | str) -> None:
    """Build the test device's extension with ``python``'s torch in a process of its own (this one
    stays CUDA-free)."""
    done = subprocess.run(
        [str(python), "-c", "from standin.build import load_extension; load_extension()"],
        cwd=DEVICE, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-5000:]


@pytest.fixture(scope="session")
def built_device() -> None:
    _build_device(sys.executable)


@pytest.fixture(scope="session")
def torch_2_7_python() -> Path:
    """The python of the torch 2.7.1 venv, with the test device built against that torch."""
    try:
        venv = torch_venv(TORCH_2_7)
    except PipError as error:
        pytest.skip(f"cannot install {TORCH_2_7[0]} from PyPI: {error.last_line}")
    python = venv / "bin" / "python"
    _build_device(python)
    return python


def _failures(report: Path) -> list[str]:
    failed = []
    for case in ElementTree.parse(report).iter("testcase"):
        for outcome in ("failure", "error"):
            node = case.find(outcome)
            if node is not None:
                failed.append(f"{case.get('name')}: {(node.get('message') or '')[:300]}")
    return failed


def _run_suite(python: Path | str, vendor: str, work: Path) -> None:
    report = work / "report.xml"
    # Inductor's cache of its own: a compiled graph cached by another run (another version of the
    # test device's code generation) would be reused as it is.
    env = dict(os.environ, TORCHADA_TEST_VENDOR=vendor, TORCHINDUCTOR_CACHE_DIR=str(work / "inductor"))
    done = subprocess.run(
        [str(python), "-m", "pytest", str(SUITE), "-q", "-n", "0", "-p", "no:cacheprovider",
         f"--junitxml={report}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert report.exists(), done.stdout[-5000:] + done.stderr[-5000:]
    failed = _failures(report)
    assert not failed and done.returncode == 0, "\n".join(failed) + "\n" + done.stdout[-5000:]


@pytest.mark.slow
@pytest.mark.parametrize("vendor", VENDORS)
def test_suite_on_device(vendor: str, built_device: None, tmp_path: Path) -> None:
    _run_suite(sys.executable, vendor, tmp_path)


@pytest.mark.slow
@pytest.mark.network
@pytest.mark.parametrize("vendor", VENDORS)
def test_suite_on_device_torch_2_7(vendor: str, torch_2_7_python: Path, tmp_path: Path) -> None:
    """The suite on torch 2.7.1 (PyPI's CUDA 12 build, which runs without a GPU here)."""
    _run_suite(torch_2_7_python, vendor, tmp_path)

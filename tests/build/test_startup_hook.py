"""The start-up hook (``torchada.pth``, ``torchada_build/startup.py``) in fresh interpreters of this
environment: what start-up imports, and what importing torch's extension builder or scikit-build-core's
backend does on a MUSA machine, on a machine without one, and with ``TORCHADA_HOOK=0``."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import REPO

from torchada_build.activation import is_isolated_from, musa_machine_reason
from torchada_build.commands import get_toolchain_file

PROBE = """
import json, os, shutil, sys
before = sorted(m for m in sys.modules if m.startswith(("torchada", "hipify_like", "torch")))
import torch.utils.cpp_extension as cpp_extension
print(json.dumps({"start-up": before, "CUDA_HOME": cpp_extension.CUDA_HOME, "nvcc": shutil.which("nvcc")}))
"""


def _probe(env: dict[str, str], code: str = PROBE) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=False)


def _seen(env: dict[str, str]) -> dict[str, object]:
    done = _probe(env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_pth_file_is_installed() -> None:
    pth = Path(sysconfig.get_paths()["purelib"], "torchada.pth")
    assert pth.read_text() == "import torchada_build.startup as hook; hook.arm(sitedir)\n"


def test_start_up_imports_only_the_hook(build_env: dict[str, str]) -> None:
    assert _seen(build_env)["start-up"] == ["torchada_build", "torchada_build.startup"]
    table = ["torchada_build.core", "torchada_build.core.errors", "torchada_build.core.settings"]
    assert _seen({**build_env, "TORCHADA_HOOK": "0"})["start-up"] == ["torchada_build", *table, "torchada_build.startup"]


def test_a_musa_machine_gets_the_seam_when_torch_cpp_extension_is_imported(
    build_env: dict[str, str], musa_env: dict[str, str], loopback_env: dict[str, str]
) -> None:
    stock = _seen(build_env)
    assert _seen({**loopback_env, "TORCHADA_HOOK": "0"})["CUDA_HOME"] == stock["CUDA_HOME"]
    for env, backend in ((loopback_env, "loopback"), (musa_env, "mcc")):  # TORCHADA_BACKEND; torch_musa installed
        seen = _seen(env)
        mimic = Path(str(seen["CUDA_HOME"]))
        assert mimic.name.startswith(f"{backend}-") and mimic.parent.name == "toolkit"
        assert seen["nvcc"] == str(mimic / "bin" / "nvcc"), "a setup.py's own `nvcc` check finds torchada-nvcc"


def test_a_machine_without_torch_musa_is_left_alone(build_env: dict[str, str]) -> None:
    assert _seen(build_env)["CUDA_HOME"] == _seen({**build_env, "TORCHADA_HOOK": "0"})["CUDA_HOME"]
    assert _seen({**build_env, "TORCHADA_BACKEND": "nvcc"})["CUDA_HOME"] == _seen(build_env)["CUDA_HOME"]


def test_a_bad_setting_stops_the_import_with_one_line(build_env: dict[str, str]) -> None:
    done = _probe({**build_env, "TORCHADA_BACKEND": "mc"})
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "torchada: error: TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'mc'; unset it for its default (docs/settings.md) [TA2022]\n")  # fmt: skip


SKBUILD = "import os, scikit_build_core.build; print(os.environ.get('CMAKE_TOOLCHAIN_FILE'))"


def test_scikit_build_core_gets_the_toolchain_file(build_env: dict[str, str], loopback_env: dict[str, str]) -> None:
    pytest.importorskip("scikit_build_core")
    assert _probe(loopback_env, SKBUILD).stdout.strip() == str(get_toolchain_file())
    assert _probe({**loopback_env, "CMAKE_TOOLCHAIN_FILE": "/mine.cmake"}, SKBUILD).stdout.strip() == "/mine.cmake"
    assert _probe(build_env, SKBUILD).stdout.strip() == "None"


def test_an_isolated_build_looks_for_torch_musa_in_the_folder_it_left(tmp_path: Path) -> None:
    """pip's isolated build drops the environment's site folder from ``sys.path``; torch_musa is looked for there."""
    site = tmp_path / "site-packages"
    (site / "torch_musa").mkdir(parents=True)
    (site / "torch_musa" / "__init__.py").write_text("")
    assert is_isolated_from(str(site), [str(tmp_path / "overlay"), "/usr/lib/python3"])
    assert not is_isolated_from(str(site), [str(tmp_path / "overlay"), str(site)])
    assert musa_machine_reason({}, [str(site)]) == "torch_musa is installed"
    assert musa_machine_reason({}, [str(tmp_path / "overlay")]) is None
    assert musa_machine_reason({"TORCHADA_BACKEND": "nvcc"}, [str(site)]) is None

"""Without a vendor extension torchada changes nothing; TORCHADA_PLATFORM overrides detection."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

MUSA_SITE = Path(__file__).resolve().parents[1] / "musa_device" / "sites" / "musa"

REPORT = """
import json, torch, torchada
from torchada.apply import CudaModule
print(json.dumps({
    "platform": torchada.detect_platform().value,
    "redirected": isinstance(torch.cuda, CudaModule),
    "device_is_real": torch.device is torch._C.device,
    "has_gpu": torchada.has_gpu(),
}))
"""


def _report(**env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TORCHADA_PLATFORM")}
    environment.update(env)
    done = subprocess.run([sys.executable, "-c", REPORT], capture_output=True, text=True,
                          env=environment, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_vendor_means_no_redirects():
    assert _report() == {"platform": "cpu", "redirected": False, "device_is_real": True,
                         "has_gpu": False}


def test_platform_override_turns_redirects_off():
    # The stand-in for torch_musa is importable, but TORCHADA_PLATFORM=cpu wins; nothing is
    # imported from it (no build is needed for this check).
    report = _report(PYTHONPATH=str(MUSA_SITE), TORCHADA_PLATFORM="cpu")
    assert report == {"platform": "cpu", "redirected": False, "device_is_real": True,
                      "has_gpu": False}


def test_bad_platform_is_one_clear_error():
    environment = dict(os.environ, TORCHADA_PLATFORM="rocm")
    done = subprocess.run([sys.executable, "-c", "import torchada"], capture_output=True,
                          text=True, env=environment, timeout=120)
    assert done.returncode != 0
    assert "TORCHADA_PLATFORM must be cuda, musa, mlu or cpu, not 'rocm'; unset it for its default (docs/settings.md) [TA2022]" \
        in done.stderr

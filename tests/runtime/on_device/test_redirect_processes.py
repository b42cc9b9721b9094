"""Behaviour that needs a fresh process: CUDA_VISIBLE_DEVICES, and Triton's tl.extra.cuda."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

REPORT = "import json, os, torch; print(json.dumps([torch.cuda.device_count(), os.environ.get({env!r})]))"


def _run(vendor, script: str, **env: str) -> tuple[list, str]:
    environment = vendor.env()
    for name in ("CUDA_VISIBLE_DEVICES", vendor.visible_devices_env):
        environment.pop(name, None)
    environment.update(env)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=environment, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.mark.parametrize(("cuda", "expected"), [("1", 1), ("", 0), ("0,1", 2)])
def test_cuda_visible_devices_at_import(vendor, cuda, expected):
    script = "import torch, torchada; " + REPORT.format(env=vendor.visible_devices_env)
    (count, mapped), _ = _run(vendor, script, CUDA_VISIBLE_DEVICES=cuda)
    assert (count, mapped) == (expected, cuda)


def test_cuda_visible_devices_set_after_import(vendor):
    script = (
        "import os, torch, torchada; os.environ['CUDA_VISIBLE_DEVICES'] = '1'; "
        + REPORT.format(env=vendor.visible_devices_env)
    )
    (count, mapped), err = _run(vendor, script)
    if vendor.counts_devices_at_import:  # torch_musa's import counted them: one warning says so
        assert (count, mapped) == (2, None)
        assert err.count("CUDA_VISIBLE_DEVICES=1 was not applied") == 1
        assert f"{vendor.module} counts its devices when it is imported" in err
    else:
        assert (count, mapped) == (1, "1")
        assert "not applied" not in err


def test_cuda_visible_devices_with_the_vendor_imported_first(vendor):
    script = f"import torch, {vendor.module}, torchada; " + REPORT.format(env=vendor.visible_devices_env)
    (count, mapped), err = _run(vendor, script, CUDA_VISIBLE_DEVICES="1")
    if vendor.counts_devices_at_import:
        assert (count, mapped) == (2, None)
        assert err.count("CUDA_VISIBLE_DEVICES=1 was not applied") == 1
    else:
        assert (count, mapped) == (1, "1")


def test_cuda_visible_devices_overrides_a_vendor_value(vendor):
    script = "import torch, torchada; " + REPORT.format(env=vendor.visible_devices_env)
    (count, mapped), err = _run(vendor, script, CUDA_VISIBLE_DEVICES="1",
                                **{vendor.visible_devices_env: "0,1"})
    assert (count, mapped) == (1, "1")
    assert "replaced by CUDA_VISIBLE_DEVICES=1" in err


def test_triton_extra_cuda(vendor, tmp_path):
    """MUSA's Triton (docs/torch_musa.md): the backend is triton.backends.mtgpu and its language
    module triton.language.extra.musa (with libdevice); there is no triton.language.extra.cuda."""
    triton = tmp_path / "triton"
    extra = triton / "language" / "extra"
    (extra / vendor.device).mkdir(parents=True)
    (triton / "backends" / "mtgpu").mkdir(parents=True)
    (triton / "__init__.py").write_text("__version__ = '3.2.0'\nfrom . import language\n")
    (triton / "backends" / "__init__.py").write_text("")
    (triton / "backends" / "mtgpu" / "__init__.py").write_text("")
    (triton / "language" / "__init__.py").write_text("class dtype:\n    pass\nfrom . import extra\n")
    (extra / "__init__.py").write_text(f"from . import {vendor.device}\n")
    (extra / vendor.device / "__init__.py").write_text(f"from . import libdevice\nBACKEND = {vendor.device!r}\n")
    (extra / vendor.device / "libdevice.py").write_text(f"BACKEND = {vendor.device!r}\n")
    script = textwrap.dedent("""
        import json, sys, torch, torchada
        import triton.backends.mtgpu
        import triton.language as tl
        from triton.language.extra import cuda
        import triton.language.extra.cuda as imported
        from triton.language.extra.cuda import libdevice
        print(json.dumps([tl.extra.cuda.BACKEND, cuda.BACKEND, imported.BACKEND, libdevice.BACKEND]))
    """)
    environment = vendor.env()
    environment["PYTHONPATH"] = f"{tmp_path}:{environment['PYTHONPATH']}"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=environment, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [vendor.device] * 4


def test_build_hooks_install_when_cpp_extension_is_imported(vendor):
    """On MUSA, torchada_build's cpp_extension hooks are installed when (and only when) the
    program imports torch.utils.cpp_extension. A recording module stands in for the hooks; the start-up
    hook, which installs them too on a MUSA machine (tests/build/test_startup_hook.py), is off."""
    script = textwrap.dedent("""
        import json, sys, types
        calls = []
        hooks = types.ModuleType("torchada_build.cpp_extension")
        hooks.install = lambda: calls.append("install")
        sys.modules["torchada_build.cpp_extension"] = hooks
        import torch, torchada
        before = list(calls)
        import torch.utils.cpp_extension
        print(json.dumps([before, calls]))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**vendor.env(), "TORCHADA_HOOK": "0"}, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    expected = [[], ["install"]] if vendor.device == "musa" else [[], []]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == expected


@pytest.mark.musa_only
def test_cuda_profiler_calls_the_vendor_runtime_library(vendor, tmp_path):
    """torch.cuda.profiler.start/stop/profile reach musaProfilerStart/Stop in libmusart.so, which
    torch_musa's bindings lack."""
    source = tmp_path / "musart.c"
    source.write_text(textwrap.dedent("""
        #include <stdio.h>
        #include <stdlib.h>
        static int mark(const char* what) {
          FILE* log = fopen(getenv("PROFILER_LOG"), "a"); fputs(what, log); fclose(log); return 0;
        }
        int musaProfilerStart(void) { return mark("start "); }
        int musaProfilerStop(void) { return mark("stop "); }
    """))
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "libmusart.so"), str(source)], check=True)
    log = tmp_path / "log"
    script = ("import json, torch, torchada; torch.cuda.profiler.start(); torch.cuda.profiler.stop()\n"
              "with torch.cuda.profiler.profile(): pass\n"
              "print(json.dumps([torch.cuda.profiler.__name__, 0]))")
    (name, _), _ = _run(vendor, script, LD_LIBRARY_PATH=str(tmp_path), PROFILER_LOG=str(log))
    assert name == "torch.cuda.profiler"
    assert log.read_text() == "start stop start stop "

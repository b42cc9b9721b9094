"""Compatibility headers for libtorch stable-ABI kernels (``torch/csrc/stable``) on torch < 2.11.

vLLM- and SGLang-style ``libtorch_stable`` sources include headers and use macros newer than the
torch a vendor build may ship (torch_musa 2.9): ``torch/headeronly/core/Dispatch.h``
(``THO_DISPATCH_SWITCH``), ``torch/csrc/stable/macros.h`` and ``TORCH_BOX``. Each shadow header
forwards to torch's own where it exists, and backports it otherwise.

    include_dirs=[stable_compat_include_dir()]           # searched before torch's include dirs
    extra_compile_args=["-include", stable_compat_box_header()]
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["stable_compat_box_header", "stable_compat_include_dir"]

_ROOT = Path(__file__).resolve().parent / "stable_compat"


def stable_compat_include_dir() -> str:
    """The folder of shadow headers; put it on the include path ahead of torch's."""
    return str(_ROOT)


def stable_compat_box_header() -> str:
    """The header to force-include (``-include``): ``TORCH_BOX`` on torch < 2.11, and
    ``TORCHADA_STABLE_BOX`` (the backported boxer) on every torch."""
    return str(_ROOT / "torchada_stable_box.h")

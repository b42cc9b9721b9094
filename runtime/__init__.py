"""torchada: ``import torchada`` makes ``torch.cuda`` code run on Moore Threads GPUs (MUSA).

On a machine with torch_musa, importing torchada redirects CUDA to MUSA: ``torch.cuda.*``,
``"cuda"`` devices and ``.cuda()``, amp, CUDA graphs, ``cudart()``, the profiler's CUDA activity,
``Library.impl(..., "CUDA")``, the ``"nccl"`` backend, checkpoints saved on CUDA, ``ctypes``
loads of CUDA libraries and ``CUDA_VISIBLE_DEVICES``. On CUDA and CPU machines it does nothing.

Terms: a *vendor* (:mod:`torchada.vendors`) is a PyTorch device extension such as torch_musa;
a *redirect* (:mod:`torchada.redirects`) is one row of the table that says what a CUDA
attribute becomes on the vendor; :func:`torchada.apply.apply` installs the table.

    >>> import torch, torchada
    >>> x = torch.ones(2).cuda()        # on MUSA: a musa tensor  # doctest: +SKIP
    >>> torchada.is_gpu_device(x)       # x.device.type is "musa", not "cuda"  # doctest: +SKIP
    True
    >>> torch.cuda.is_available()       # stays False on MUSA; ask torchada.has_gpu()
    False
"""

from __future__ import annotations

from typing import Any

from ._warn import TorchadaWarning
from .names import (
    cublas_to_mublas_name,
    cuda_to_musa_name,
    curand_to_murand_name,
    nccl_to_mccl_name,
)
from .platform import (
    Platform,
    detect_platform,
    detect_vendor,
    get_cuda_home,
    has_gpu,
    is_cuda_platform,
    is_gpu_device,
    is_musa_platform,
)

__all__ = [
    "CUDA_HOME",
    "__version__",
    "Platform",
    "TorchadaWarning",
    "cublas_to_mublas_name",
    "cuda_to_musa_name",
    "curand_to_murand_name",
    "detect_platform",
    "has_gpu",
    "is_cuda_platform",
    "is_gpu_device",
    "is_musa_platform",
    "nccl_to_mccl_name",
]


def __getattr__(name: str) -> Any:
    if name == "CUDA_HOME":  # computed on first use: it may import torch.utils.cpp_extension
        return get_cuda_home()
    if name == "__version__":  # read on first use: importlib.metadata costs milliseconds
        return _version()
    msg = f"module 'torchada' has no attribute {name!r}"
    raise AttributeError(msg)


def _version() -> str:
    """The installed distribution's version; ``0+unknown`` when run from a tree never installed."""
    from importlib import metadata

    try:
        return metadata.version("torchada")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def _activate() -> None:
    vendor = detect_vendor()  # cheap: imports neither torch nor the vendor's extension
    if vendor is not None:
        from .apply import apply

        apply(vendor)


_activate()

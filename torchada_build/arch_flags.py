"""The architecture flags a torch extension build passes to torchada-nvcc.

Rules, in order (torch's own rule first, so user flags always win):

1. a user nvcc flag that names an arch (``-arch``, ``-gencode``, ...) means no flags are added;
2. ``TORCH_MUSA_ARCH_LIST`` (torch_musa's ``"21;22"``; also ``"mp_22 mp_31"``, ``"2.2"``) is checked
   against the MUSA architectures torch_musa builds for (10, 21, 22, 31, 32). For ``mcc`` nothing is
   added: torchada-nvcc reads the variable itself and passes one ``--offload-arch`` per architecture, as
   ``MUSAExtension`` does. For ``loopback``, whose real nvcc needs CUDA architectures, each becomes a
   ``-gencode`` for the CUDA architecture standing for it (``22`` → ``sm_80``; mp_32 → ``sm_90``);
3. ``TORCH_CUDA_ARCH_LIST`` is read by torch's own function (named arches, ``+PTX``), and the driver maps
   each CUDA architecture to its MUSA tier;
4. otherwise no flag: torchada-nvcc picks the architectures (``TORCHADA_MUSA_ARCH``, else every visible
   device's, as ``MUSAExtension`` does).

torch's fallback for step 4 asks ``torch.cuda`` for the visible GPUs, which a MUSA build of torch has none
of (torch then fails with an ``IndexError``).

    >>> get_arch_flags([], {"TORCH_MUSA_ARCH_LIST": "22;31"}, lambda cflags: [], Backend.LOOPBACK)
    ['-gencode=arch=compute_80,code=sm_80', '-gencode=arch=compute_90,code=sm_90']
    >>> get_arch_flags([], {"TORCH_MUSA_ARCH_LIST": "22;31"}, lambda cflags: [], Backend.MCC)
    []
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from torchada_build.core.diagnostics import BAD_TORCH_MUSA_ARCH_LIST

from .compilers.archs import musa_arch_list
from .errors import BuildConfigurationError
from .platform import Backend

__all__ = ["get_arch_flags", "musa_arches_from_list"]


def _names_an_arch(cflags: Sequence[str]) -> bool:
    """torch's test: any flag mentioning ``arch``, except the extension-name define."""
    return any("arch" in flag for flag in cflags if "TORCH_EXTENSION_NAME" not in flag)


def musa_arches_from_list(value: str) -> list[str]:
    """``"21;22"`` → ``['mp_21', 'mp_22']``, checked against the MUSA architecture table."""
    from hipify_like.arch import get_arch_table

    known = tuple(a.name for a in get_arch_table().targets)
    try:
        return musa_arch_list(value, known)
    except ValueError as error:
        names = ", ".join(a.removeprefix("mp_") for a in known)
        raise BuildConfigurationError(BAD_TORCH_MUSA_ARCH_LIST.text(entry=error.args[0], names=names)) from None


def _gencode_for(musa_arch: str) -> str:
    from hipify_like.arch import get_arch_table

    sm = get_arch_table().cuda_for(musa_arch)
    return f"-gencode=arch=compute_{sm},code=sm_{sm}"


def get_arch_flags(
    cflags: Sequence[str] | None,
    environ: Mapping[str, str],
    torch_arch_flags: Callable[[Sequence[str] | None], list[str]],
    backend: Backend,
) -> list[str]:
    """The ``-gencode`` flags to add for a build with these user ``cflags``."""
    if cflags is not None and _names_an_arch(cflags):
        return []
    if environ.get("TORCH_MUSA_ARCH_LIST", "").strip():
        arches = musa_arches_from_list(environ["TORCH_MUSA_ARCH_LIST"])
        return [] if backend is Backend.MCC else list(dict.fromkeys(map(_gencode_for, arches)))
    if environ.get("TORCH_CUDA_ARCH_LIST", "").strip() not in ("", "native"):
        return torch_arch_flags(cflags)
    return []

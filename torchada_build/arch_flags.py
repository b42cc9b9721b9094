"""The architecture flags a torch extension build passes to torchada-nvcc.

Rules, in order (torch's own rule first, so user flags always win):

1. a user nvcc flag that names an arch (``-arch``, ``-gencode``, ...) means no flags are added;
2. ``TORCH_MUSA_ARCH_LIST`` (``"21;22"``, ``"mp_22 mp_31"`` or ``"2.2"``) names MUSA architectures; each
   becomes a ``-gencode`` for the lowest CUDA architecture of its tier, which torchada-nvcc maps back
   to exactly that MUSA architecture (``22`` → ``sm_80`` → ``--offload-arch=mp_22``);
3. ``TORCH_CUDA_ARCH_LIST`` is read by torch's own function (named arches, ``+PTX``), and the driver maps
   each CUDA architecture to its MUSA tier;
4. otherwise no flag: torchada-nvcc picks the architecture (``TORCHADA_MUSA_ARCH``, else the device's).

torch's fallback for step 4 asks ``torch.cuda`` for the visible GPUs, which a MUSA build of torch has none
of (torch then fails with an ``IndexError``).

    >>> get_arch_flags([], {"TORCH_MUSA_ARCH_LIST": "22;31"}, lambda cflags: [])
    ['-gencode=arch=compute_80,code=sm_80', '-gencode=arch=compute_90,code=sm_90']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from hipify_like.diagnostics import BAD_TORCH_MUSA_ARCH_LIST

from .errors import BuildConfigurationError

__all__ = ["get_arch_flags", "musa_arches_from_list"]

_ENTRY = re.compile(r"(?:mp_)?(\d)\.?(\d)")


def _names_an_arch(cflags: Sequence[str]) -> bool:
    """torch's test: any flag mentioning ``arch``, except the extension-name define."""
    return any("arch" in flag for flag in cflags if "TORCH_EXTENSION_NAME" not in flag)


def musa_arches_from_list(value: str) -> list[str]:
    """``"21;22"`` → ``['mp_21', 'mp_22']``, checked against the arch table."""
    from hipify_like.arch import get_arch_table

    known = get_arch_table().musa_arches
    arches: list[str] = []
    for entry in value.replace(" ", ";").split(";"):
        if not entry:
            continue
        match = _ENTRY.fullmatch(entry.strip())
        arch = f"mp_{match.group(1)}{match.group(2)}" if match else ""
        if arch not in known:
            names = ", ".join(a.removeprefix("mp_") for a in known)
            raise BuildConfigurationError(BAD_TORCH_MUSA_ARCH_LIST.text(entry=entry, names=names))
        if arch not in arches:
            arches.append(arch)
    return arches


def _gencode_for(musa_arch: str) -> str:
    from hipify_like.arch import get_arch_table, guard_value

    value = guard_value(musa_arch)
    sm = next(cuda for cuda, musa in get_arch_table().tiers if musa == value) // 10
    return f"-gencode=arch=compute_{sm},code=sm_{sm}"


def get_arch_flags(
    cflags: Sequence[str] | None,
    environ: Mapping[str, str],
    torch_arch_flags: Callable[[Sequence[str] | None], list[str]],
) -> list[str]:
    """The ``-gencode`` flags to add for a build with these user ``cflags``."""
    if cflags is not None and _names_an_arch(cflags):
        return []
    if environ.get("TORCH_MUSA_ARCH_LIST", "").strip():
        return [_gencode_for(arch) for arch in musa_arches_from_list(environ["TORCH_MUSA_ARCH_LIST"])]
    if environ.get("TORCH_CUDA_ARCH_LIST", "").strip() not in ("", "native"):
        return torch_arch_flags(cflags)
    return []

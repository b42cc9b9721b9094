"""GPU architectures asked for with ``-arch``, ``-code`` and ``-gencode``, validated as nvcc does.

``-arch=sm_80`` means ``-arch=compute_80 -code=sm_80,compute_80``; ``-code`` needs a virtual
``-arch``; each ``-gencode`` is one ``arch=…,code=…`` pair whose ``code`` may be a bracketed list;
``all``, ``all-major`` and ``native`` are kept as words (``docs/nvcc.md``).

    >>> from torchada_build.compilers.parse import parse_args
    >>> requested_targets(parse_args(["-gencode", "arch=compute_80,code=[sm_86,compute_80]"], environ={}))
    GpuTargets(virtual=(80,), real=(86,), special=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import UsageError
from .parse import ParsedArgs

__all__ = ["GpuTargets", "arch_number", "musa_arch_list", "requested_targets"]

_NAME = re.compile(r"(sm|compute|lto)_(\d+)[af]?")
_MUSA_ENTRY = re.compile(r"(?:mp_)?(\d)\.?(\d)")
_SPECIAL = ("all", "all-major", "native")


@dataclass(frozen=True, slots=True)
class GpuTargets:
    virtual: tuple[int, ...] = ()
    """The ``compute_NN`` numbers, in order: what ``-v`` prints as ``-arch compute_NN``."""
    real: tuple[int, ...] = ()
    """The ``sm_NN`` numbers of the code images asked for."""
    special: str | None = None
    """``all``, ``all-major`` or ``native`` when ``-arch`` said so."""

    @property
    def empty(self) -> bool:
        return not (self.virtual or self.real or self.special)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The architectures that code is built for: the real ones, else the virtual ones."""
        return self.real or self.virtual


def arch_number(name: str) -> tuple[str, int]:
    """``sm_86`` → ("sm", 86); nvcc's error for anything else."""
    match = _NAME.fullmatch(name)
    if not match:
        msg = f"Unsupported gpu architecture '{name}'"
        raise UsageError(msg)
    return match.group(1), int(match.group(2))


def _unique(numbers: list[int]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(numbers))


def _codes(names: list[str], virtual: list[int], real: list[int]) -> None:
    for name in names:
        kind, number = arch_number(name)
        (real if kind == "sm" else virtual).append(number)


def _gencode(spec: str) -> tuple[str, list[str]]:
    """``arch=compute_80,code=[sm_80,compute_80]`` → ("compute_80", ["sm_80", "compute_80"])."""
    fields: dict[str, str] = {}
    for key, value in re.findall(r"(\w+)=(\[[^\]]*\]|[^,]*)", spec):
        if key in fields:
            msg = f"redefinition of keyword '{key}'"
            raise UsageError(msg)
        fields[key] = value
    for key, word in (("arch", "architecture"), ("code", "code")):
        if key not in fields:
            msg = f"Option '--generate-code {spec}', missing {word}"
            raise UsageError(msg)
    codes = [c for c in fields["code"].strip("[]").split(",") if c]
    return fields["arch"], codes


def requested_targets(parsed: ParsedArgs) -> GpuTargets:
    virtual: list[int] = []
    real: list[int] = []
    special = None
    arch = parsed.last("--gpu-architecture")
    codes = parsed.values("--gpu-code")
    if codes and arch is None:
        msg = "-arch option not specified"
        raise UsageError(msg)
    if arch in _SPECIAL:
        special = arch
    elif arch is not None:
        kind, number = arch_number(arch)
        if kind == "sm" and codes:
            msg = f"Value of -arch option ('{arch}') must be a virtual code architecture"
            raise UsageError(msg)
        virtual.append(number)
        if codes:
            _codes(codes, virtual, real)
        else:
            real.append(number)
    for spec in parsed.values("--generate-code"):
        arch_name, spec_codes = _gencode(spec)
        if arch_name == "native":
            msg = f"Unsupported gpu architecture '{arch_name}'"
            raise UsageError(msg)
        virtual.append(arch_number(arch_name)[1])
        _codes(spec_codes, virtual, real)
    return GpuTargets(_unique(virtual), _unique(real), special)


def musa_arch_list(value: str, known: tuple[str, ...]) -> list[str]:
    """``"22;21"`` (torch_musa's spelling; also ``mp_22``, ``2.2``, ``,`` and spaces) → ``['mp_21', 'mp_22']``,
    sorted as torch_musa sorts them (``musa_extension.py:830``).

    Raises ``ValueError(entry)`` for an entry that is not one of ``known``, or the whole value when it
    names none.

    >>> musa_arch_list("31;mp_21 2.2", ("mp_21", "mp_22", "mp_31"))
    ['mp_21', 'mp_22', 'mp_31']
    """
    arches: list[str] = []
    for entry in re.split(r"[;, ]+", value.strip()):
        if not entry:
            continue
        match = _MUSA_ENTRY.fullmatch(entry)
        arch = f"mp_{match.group(1)}{match.group(2)}" if match else ""
        if arch not in known:
            raise ValueError(entry)
        if arch not in arches:
            arches.append(arch)
    if not arches:
        raise ValueError(value)
    return sorted(arches)


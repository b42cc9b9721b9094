"""CUDA compute capabilities → MUSA architectures, from the ``arch`` entries of the mapping database.

Each ``arch`` entry maps one ``sm_XY`` to the MUSA architecture of its tier (``sm_86`` → ``mp_22``).
A MUSA architecture stands for the *lowest* CUDA architecture of its tier (mp_22 is treated as
sm_80), so an architecture guard keeps its meaning: ``__CUDA_ARCH__ >= 800`` holds on a MUSA
architecture exactly when its tier's lowest CUDA value is at least 800. ``__MUSA_ARCH__`` is the
``mp_`` number times ten (mp_22 → 220).

``data/architectures/musa.tsv`` lists every MUSA architecture torch_musa builds for (its
``MUSAExtension`` accepts 10, 21, 22, 31 and 32), with its GPUs, warp width and evidence; two of them
(mp_10, mp_32) are the tier of no CUDA architecture.

    >>> table = get_arch_table()
    >>> table.musa_for_sm(86)
    'mp_22'
    >>> table.translate_comparison(">=", 890)
    Comparison(operator='>=', value=310, exact=True)
    >>> [a.name for a in table.targets if a.warp == 128]
    ['mp_10', 'mp_21', 'mp_22']
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import NamedTuple

from .mapping import Kind, MappingDB, load_db

__all__ = ["MUSA_ARCHITECTURES", "ArchTable", "Comparison", "MusaArch", "get_arch_table", "guard_value", "sm_number"]

MUSA_ARCHITECTURES = Path(__file__).parent / "data" / "architectures" / "musa.tsv"

_SM = re.compile(r"(?:sm|compute)_(\d+)[af]?")


def sm_number(name: str) -> int:
    """``sm_86`` / ``compute_90a`` → 86 / 90."""
    match = _SM.fullmatch(name)
    if not match:
        msg = f"not a CUDA architecture name: {name!r}"
        raise ValueError(msg)
    return int(match.group(1))


def guard_value(musa_arch: str) -> int:
    """``mp_22`` → 220, the value of ``__MUSA_ARCH__``."""
    return int(musa_arch.removeprefix("mp_")) * 10


class Comparison(NamedTuple):
    """A translated ``__MUSA_ARCH__ <operator> <value>``; ``exact`` is False where no MUSA value fits."""

    operator: str
    value: int
    exact: bool


class MusaArch(NamedTuple):
    """One row of ``data/architectures/musa.tsv``."""

    name: str
    """``mp_22``."""
    gpus: str
    warp: int
    """Lanes per warp (``warpSize``)."""
    evidence: str

    @property
    def value(self) -> int:
        """``__MUSA_ARCH__`` on this architecture."""
        return guard_value(self.name)


def read_musa_architectures(path: Path = MUSA_ARCHITECTURES) -> tuple[MusaArch, ...]:
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines[1:] if line]
    return tuple(MusaArch(name, gpus, int(warp), evidence) for name, gpus, warp, evidence in rows)


class ArchTable(NamedTuple):
    by_sm: dict[int, str]
    tiers: tuple[tuple[int, int], ...]
    """(lowest ``__CUDA_ARCH__`` of the tier, ``__MUSA_ARCH__``), ascending."""
    targets: tuple[MusaArch, ...]
    """Every MUSA architecture torch_musa builds for, tier or not, ascending."""

    @classmethod
    def of(cls, by_sm: dict[int, str], targets: tuple[MusaArch, ...] = ()) -> ArchTable:
        """The table of ``sm`` number → MUSA architecture ``by_sm``."""
        lowest: dict[str, int] = {}
        for sm, musa in by_sm.items():
            lowest[musa] = min(lowest.get(musa, sm), sm)
        return cls(by_sm, tuple(sorted((sm * 10, guard_value(musa)) for musa, sm in lowest.items())), targets)

    def cuda_for(self, musa_arch: str) -> int:
        """The ``sm`` number standing for ``musa_arch``: its tier's lowest, or for an architecture that
        is no tier's (mp_10, mp_32) the nearest lower tier's (the oldest tier's for mp_10).

        >>> get_arch_table().cuda_for("mp_32"), get_arch_table().cuda_for("mp_10")
        (90, 75)
        """
        value = guard_value(musa_arch)
        below = [cuda for cuda, musa in self.tiers if musa <= value] or [self.tiers[0][0]]
        return below[-1] // 10

    def tier_values(self) -> str:
        """``210/220/310 (mp_21/mp_22/mp_31)``: the ``__MUSA_ARCH__`` value of each tier, and its name."""
        values = [value for _, value in self.tiers]
        return "/".join(map(str, values)) + " (" + "/".join(f"mp_{value // 10}" for value in values) + ")"

    def warp_summary(self) -> str:
        """``128 lanes wide on mp_10, mp_21, mp_22, 32 on mp_31, mp_32``: the warp widths, widest first."""
        widths = sorted({a.warp for a in self.targets}, reverse=True)
        groups = [f"{w} on {', '.join(a.name for a in self.targets if a.warp == w)}" for w in widths]
        return groups[0].replace(" on ", " lanes wide on ", 1) + "".join(f", {g}" for g in groups[1:])

    @property
    def musa_arches(self) -> tuple[str, ...]:
        return tuple(f"mp_{value // 10}" for _, value in self.tiers)

    def musa_for_sm(self, sm: int) -> str:
        """The MUSA architecture for ``sm_<sm>``: its tier, or the nearest lower one."""
        known = [s for s in self.by_sm if s <= sm]
        return self.by_sm[max(known)] if known else self.by_sm[min(self.by_sm)]

    def _at_least(self, cuda_value: int) -> int | None:
        """The lowest ``__MUSA_ARCH__`` whose tier is at least ``cuda_value``."""
        return next((musa for cuda, musa in self.tiers if cuda >= cuda_value), None)

    def translate_comparison(self, operator: str, cuda_value: int) -> Comparison:
        """Translate ``__CUDA_ARCH__ <operator> <cuda_value>`` (``>`` becomes ``>=``, ``<=`` becomes ``<``)."""
        if operator in (">", "<="):
            cuda_value += 1
            operator = ">=" if operator == ">" else "<"
        if operator in (">=", "<"):
            musa = self._at_least(cuda_value)
            if musa is None:
                return Comparison(operator, self.tiers[-1][1] + 1, exact=False)
            return Comparison(operator, musa, exact=True)
        if operator in ("==", "!="):
            musa = next((m for c, m in self.tiers if c == cuda_value), None)
            return Comparison(operator, musa if musa is not None else 0, exact=musa is not None)
        msg = f"not a comparison operator: {operator!r}"
        raise ValueError(msg)


def build_arch_table(db: MappingDB) -> ArchTable:
    return ArchTable.of({sm_number(e.cuda): e.musa for e in db.of_kind(Kind.ARCH)}, read_musa_architectures())


@functools.cache
def get_arch_table() -> ArchTable:
    return build_arch_table(load_db())

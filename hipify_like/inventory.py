"""The CUDA and MUSA API inventories (``data/inventory/``): the denominators and the evidence.

``cuda_api_inventory.tsv`` lists the CUDA names per library (what coverage is counted against);
``musa_api_inventory.tsv`` lists MUSA names with one public place each is used or declared, its
``basis`` (``code``, ``doc`` or ``mapping``: only a vendor rename table claims it) and, where evident,
its CUDA equivalent.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from pathlib import Path

from .mapping import DATA_DIR

__all__ = ["CudaName", "MusaName", "cuda_inventory", "musa_inventory"]

INVENTORY_DIR = DATA_DIR / "inventory"


@dataclass(frozen=True, slots=True)
class CudaName:
    library: str
    kind: str
    name: str


@dataclass(frozen=True, slots=True)
class MusaName:
    name: str
    kind: str
    cuda_equivalent: str
    evidence: str
    family: str
    basis: str

    @property
    def cuda_name(self) -> str:
        """The first CUDA name the equivalent column gives (``cublas_v2.h / cublas.h`` → ``cublas_v2.h``)."""
        return self.cuda_equivalent.split(" ", 1)[0] if self.cuda_equivalent[:1] not in ("", "(") else ""


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


@functools.cache
def cuda_inventory() -> tuple[CudaName, ...]:
    return tuple(
        CudaName(r["library"], r["kind"], r["cuda_name"]) for r in _rows(INVENTORY_DIR / "cuda_api_inventory.tsv")
    )


@functools.cache
def musa_inventory() -> dict[str, MusaName]:
    """MUSA names → their inventory row (the first row where a name repeats)."""
    names: dict[str, MusaName] = {}
    for r in _rows(INVENTORY_DIR / "musa_api_inventory.tsv"):
        names.setdefault(
            r["musa_name"],
            MusaName(r["musa_name"], r["kind"], r["cuda_equivalent_if_evident"], r["evidence"], r["family"], r["basis"]),
        )
    return names

"""The redirect table against torch_musa v2.7.1's inventory (tests/musa_device/vendor): every
vendor-side name the table uses is one torch_musa has, or its row says what the user gets without it."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from torchada.redirects import REDIRECTS, Kind
from torchada.vendors import vendor_for

INVENTORY = Path(__file__).resolve().parents[1] / "musa_device" / "vendor" / "torch_musa-v2.7.1.tsv"
MUSA = vendor_for("musa")


@functools.cache
def inventory() -> dict[str, tuple[str, str, str]]:
    """name -> (kind, signature, note), read once."""
    rows = {}
    for line in INVENTORY.read_text().splitlines()[1:]:
        name, kind, signature, _source, note = line.split("\t")
        rows[name] = (kind, signature, note)
    return rows


def has(rows: dict[str, tuple[str, str, str]], name: str) -> bool:
    """Whether torch_musa has ``name``, also as a member its class inherits from a vendor base."""
    if name in rows:
        return True
    owner, _, member = name.rpartition(".")
    if owner not in rows:
        return False
    note = rows[owner][2]
    bases = note.partition("bases: ")[2].split(";")[0].split(", ") if "bases: " in note else []
    return any(base.startswith("torch_musa.") and has(rows, f"{base}.{member}") for base in bases)


def vendor_side(row_name: str, musa_name: str, kind: Kind) -> str:
    assert MUSA is not None
    name = MUSA.format(musa_name)
    if kind is Kind.PROPERTY:  # an attribute of the vendor class that replaces the CUDA one
        return f"torch_musa.{MUSA.format(row_name).split('.')[-2]}.{name}"
    return f"torch_musa.{name}".rstrip(".")


ROWS = [row for row in REDIRECTS if row.musa_name is not None and row.kind is not Kind.CONSTANT
        and not row.musa_name.startswith(("torch.", "triton."))]


@pytest.mark.parametrize("row", ROWS, ids=[row.cuda_name for row in ROWS])
def test_vendor_names_of_the_table_are_torch_musas(row) -> None:
    name = vendor_side(row.cuda_name, row.musa_name, row.kind)
    if has(inventory(), name):
        assert row.without is None, f"{name} exists: {row.cuda_name}'s `without` is stale"
    else:
        assert row.without, f"torch_musa v2.7.1 has no {name}: say in {row.cuda_name}'s row what the user gets"


def test_names_the_builders_read_are_torch_musas() -> None:
    """The vendor attributes the runtime reads outside the table's musa_name column."""
    assert MUSA is not None
    rows = inventory()
    for name in ("is_initialized", "device_count", "is_available", "current_stream", "graph",
                 MUSA.runtime_handle, MUSA.collective, "_lazy_init", "_lazy_call"):
        assert has(rows, f"torch_musa.{name}"), name
    assert has(rows, "torch_musa.Stream.musa_stream") and has(rows, "torch_musa.Event.musa_event")
    for cuda_function in ("cudaHostRegister", "cudaHostUnregister", "cudaMemGetInfo", "cudaGetErrorString",
                          "cudaStreamCreate", "cudaStreamDestroy"):
        assert has(rows, f"torch_musa._MUSAC._musart.{cuda_function.replace('cuda', 'musa', 1)}"), cuda_function


def test_the_inventory_is_the_vendors_not_ours() -> None:
    """A few facts the runtime was wrong about before it was read from the vendor."""
    rows = inventory()
    assert not has(rows, "torch_musa._MUSAC._musart.musaProfilerStart")
    mccl = [name for name in rows if name.startswith("torch_musa.core.mccl.") and "__" not in name]
    assert mccl == ["torch_musa.core.mccl.version"]
    assert rows["torch_musa.MUSAGraph.__new__"][1] == "(cls)"
    assert "(torch.Event)" in rows["torch_musa._MUSAC._MusaEventBase"][2]

"""The test device's torch_musa against torch_musa v2.7.1's inventory (tests/musa_device/vendor).

Every name the device's ``torch_musa`` module offers (and each public member its classes define)
exists in the vendor's, as the same kind of object, and a class is constructed with the vendor's
parameters: the device can only agree with the vendor, never with torchada's own reading.
"""

from __future__ import annotations

import functools
import inspect
import sys
from pathlib import Path
from types import ModuleType

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_vendor_inventory import has, inventory  # noqa: E402

pytestmark = pytest.mark.musa_only

# Names the device's module has and torch_musa's has not, each for a reason of the device's own.
DEVICE_ONLY = {
    "torch_musa._MUSAC": "the device's own C module (its bindings are not the vendor's)",
}


@functools.cache
def _torchada_adds() -> frozenset[str]:
    """What torchada's table puts on the vendor's module and classes (``_is_compiled``, ``cuda_stream``)."""
    from torchada.redirects import REDIRECTS, Kind
    from torchada.vendors import vendor_for

    musa = vendor_for("musa")
    assert musa is not None
    added = set()
    for row in REDIRECTS:
        name = musa.format(row.cuda_name)
        if row.kind is Kind.FALLBACK and name.startswith("torch.musa."):
            added.add(name.replace("torch.musa.", "torch_musa.", 1))
        elif row.kind is Kind.PROPERTY:
            added.add("torch_musa." + name.removeprefix("torch.cuda."))
    return frozenset(added)


def _canonical(rows: dict[str, tuple[str, str, str]], name: str) -> str:
    """A module's defining name (``torch_musa.mccl`` is ``torch_musa.core.mccl``)."""
    kind, _, note = rows.get(name, ("", "", ""))
    if kind == "module" and note.startswith("module "):
        return note.split()[1].rstrip(";")
    return name


def _kind_agrees(value: object, kind: str) -> bool:
    if isinstance(value, ModuleType):
        return kind == "module"
    if isinstance(value, type):
        return kind in ("class", "binding", "attribute")
    return kind != "module"


def _parameters(signature: str) -> list[str]:
    names = [part.strip().split("=")[0].split(":")[0].strip() for part in signature.strip("()").split(",")]
    return [name for name in names if name and name not in ("self", "cls") and not name.startswith("*")]


def _constructor(rows: dict[str, tuple[str, str, str]], name: str) -> list[str] | None:
    for method in ("__new__", "__init__"):
        if f"{name}.{method}" in rows:
            return _parameters(rows[f"{name}.{method}"][1])
    return None


def _differences(module: ModuleType, path: str, rows: dict[str, tuple[str, str, str]], seen: set[int]) -> list[str]:
    found = []
    added = _torchada_adds()
    for attribute, value in sorted(vars(module).items()):
        name = f"{path}.{attribute}"
        if attribute.startswith("__") or name in DEVICE_ONLY or name in added:
            continue
        if not has(rows, name):
            found.append(f"{name}: not in torch_musa")
            continue
        if not _kind_agrees(value, rows[name][0]):
            found.append(f"{name}: a {type(value).__name__}, torch_musa's is a {rows[name][0]}")
        if isinstance(value, ModuleType) and value.__name__.startswith("torch_musa") and id(value) not in seen:
            seen.add(id(value))
            found += _differences(value, _canonical(rows, name), rows, seen)
        elif isinstance(value, type) and value.__module__.startswith("standin"):
            defining = rows[name][2].partition("re-export of ")[2].split(";")[0].split(" ")[0] or name
            listed = any(row.startswith(f"{defining}.") for row in rows)  # C types list no members
            for member in vars(value):
                qualified = f"{name}.{member}"
                if listed and not member.startswith("_") and qualified not in added and not has(rows, f"{defining}.{member}"):
                    found.append(f"{qualified}: not in torch_musa")
            wanted = _constructor(rows, defining)
            parameters = [p.name for p in inspect.signature(value).parameters.values()
                          if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            if wanted is not None and parameters != wanted:
                found.append(f"{name}{inspect.signature(value)}: torch_musa's takes {wanted}")
    return found


def test_the_device_offers_only_what_torch_musa_has(vendor):
    import torch_musa

    assert _differences(torch_musa, "torch_musa", inventory(), set()) == []


def test_the_runtime_handle_is_torch_musas(vendor):
    rows = inventory()
    handle = torch.musa.musart()
    device = sorted(name for name in vars(handle) if not name.startswith("__"))
    vendor_names = sorted(name.rpartition(".")[2] for name in rows
                          if name.startswith("torch_musa._MUSAC._musart.") and name.count(".") == 3)
    assert device == vendor_names


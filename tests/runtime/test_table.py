"""The redirect table and the vendor profiles: invariants checked without a device."""

from __future__ import annotations

import importlib
import string

import pytest
from torchada.redirects import REDIRECTS, Kind, factory_redirects
from torchada.vendors import VENDORS

NEEDS_TARGET = {Kind.ALIAS, Kind.PROPERTY, Kind.FALLBACK, Kind.CONSTANT}


def test_one_row_per_attribute():
    names = [row.cuda_name for row in REDIRECTS + factory_redirects()]
    duplicates = {name for name in names if names.count(name) > 1}
    assert not duplicates


@pytest.mark.parametrize("row", REDIRECTS, ids=lambda row: row.cuda_name)
def test_row_is_complete(row):
    if row.kind in NEEDS_TARGET and row.via is None:
        assert row.musa_name is not None
    if row.kind in (Kind.WRAP, Kind.REPLACE) or (row.kind is Kind.FALLBACK and row.via is not None):
        module, _, function = row.via.partition(":")
        assert callable(getattr(importlib.import_module(f"torchada.{module}"), function))
    else:
        assert row.via is None
    if row.kind is Kind.MODULE:
        assert row.cuda_name == "torch.cuda" or row.cuda_name.startswith("torch.cuda.")


@pytest.mark.parametrize("vendor", VENDORS, ids=lambda vendor: vendor.device)
def test_templates_fill_for_every_vendor(vendor):
    fields = {name for _, name, _, _ in string.Formatter().parse(
        "".join((row.musa_name or "") + row.cuda_name for row in REDIRECTS)) if name}
    assert fields <= {"device", "DEVICE", "collective", "runtime", "visible_devices"}
    filled = [vendor.format(row.musa_name) for row in REDIRECTS if row.musa_name]
    assert all("{" not in name and "cuda" not in name.lower() for name in filled)
    templated = [vendor.format(row.cuda_name) for row in REDIRECTS if "{" in row.cuda_name]
    assert templated and all(name.startswith(f"torch.{vendor.device}.") for name in templated)


VENDOR_FACTS = {
    # (the variable that hides devices, the graph class): torch_musa v2.7.1 (docs/torch_musa.md) and
    # Cambricon's torch_mlu (torch_mlu/utils/gpu_migration), written out, not derived from the profiles.
    "musa": ("MUSA_VISIBLE_DEVICES", "MUSAGraph"),
    "mlu": ("MLU_VISIBLE_DEVICES", "MLUGraph"),
}


@pytest.mark.parametrize("vendor", VENDORS, ids=lambda vendor: vendor.device)
def test_vendor_profiles(vendor):
    visible, graph = VENDOR_FACTS[vendor.device]
    assert dict(vendor.environment)["CUDA_VISIBLE_DEVICES"] == visible
    assert all(cuda.startswith(("CUDA_", "PYTORCH_CUDA_")) for cuda, _ in vendor.environment)
    assert vendor.format("{DEVICE}Graph") == graph


def test_factories_cover_torch_constructors():
    names = {row.cuda_name for row in factory_redirects()}
    assert {"torch.zeros", "torch.empty", "torch.randn", "torch.tensor", "torch.arange",
            "torch.zeros_like", "torch.full"} <= names
    assert all(row.kind is Kind.DEVICE_ARGS for row in factory_redirects())

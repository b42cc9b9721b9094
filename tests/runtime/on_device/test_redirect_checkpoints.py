"""Checkpoints saved on CUDA load on the vendor's device, with or without map_location."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest
import torch
from checkpoints import EXPECTED


def test_the_checkpoint_is_a_cuda_checkpoint(cuda_checkpoint):
    with zipfile.ZipFile(cuda_checkpoint) as archive:
        pickled = next(archive.read(n) for n in archive.namelist() if n.endswith("data.pkl"))
    assert b"cuda:0" in pickled and b"cuda:1" in pickled
    plain = subprocess.run(  # torch without torchada, on this CPU machine
        [sys.executable, "-c", f"import torch; torch.load({str(cuda_checkpoint)!r})"],
        capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
    )
    assert plain.returncode != 0 and "CUDA" in plain.stderr


def test_load_without_map_location(vendor, cuda_checkpoint):
    state = torch.load(cuda_checkpoint)
    for name, (tensor, location) in EXPECTED.items():
        assert state[name].device == torch.device(location.replace("cuda", vendor.device))
        assert torch.equal(state[name].cpu(), tensor)


@pytest.mark.parametrize("map_location", ["cuda", "cuda:1", "device", "dict"])
def test_load_with_map_location(vendor, cuda_checkpoint, map_location):
    expected_index = {"cuda": 0, "cuda:1": 1, "device": 0, "dict": 1}[map_location]
    location = {
        "device": torch.device("cuda"),
        "dict": {"cuda:0": "cuda:1", "cuda:1": "cuda:1"},
    }.get(map_location, map_location)
    state = torch.load(cuda_checkpoint, map_location=location)
    for name, (tensor, _) in EXPECTED.items():
        assert state[name].device == torch.device(vendor.device, expected_index)
        assert torch.equal(state[name].cpu(), tensor)


def test_load_to_cpu_still_works(cuda_checkpoint):
    state = torch.load(cuda_checkpoint, map_location="cpu")
    assert all(t.device.type == "cpu" for t in state.values())


def test_round_trip_on_the_device(vendor, tmp_path):
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Linear(2, 2).cuda().state_dict(), path)
    assert torch.load(path)["weight"].device.type == vendor.device

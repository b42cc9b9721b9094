"""A checkpoint exactly as ``torch.save`` writes it on a CUDA machine, written on any machine.

A saved storage carries its device only as a location tag (``"cuda:1"``), which ``torch.save``
asks the registered taggers for. While saving, a tagger placed ahead of torch's own answers
``cuda:N`` for the tensors below; it is removed again before anything else runs.
"""

from __future__ import annotations

from pathlib import Path

import torch

__all__ = ["EXPECTED", "write_cuda_checkpoint"]

EXPECTED = {
    "weight": (torch.arange(6.0).reshape(2, 3), "cuda:0"),
    "bias": (torch.tensor([0.5, -1.0, 2.0]), "cuda:1"),
}


def write_cuda_checkpoint(path: Path) -> Path:
    tensors = {name: tensor.clone() for name, (tensor, _) in EXPECTED.items()}
    locations = {
        tensors[name].untyped_storage().data_ptr(): location
        for name, (_, location) in EXPECTED.items()
    }

    def tag(storage: torch.UntypedStorage) -> str | None:
        return locations.get(storage.data_ptr())

    registry = torch.serialization._package_registry
    torch.serialization.register_package(0, tag, lambda storage, location: None)
    try:
        torch.save(tensors, path)
    finally:
        registry[:] = [entry for entry in registry if entry[1] is not tag]
    return path

"""The RNG API (``torch_musa.core.random``): one default generator per device."""

from __future__ import annotations

from typing import Any

import torch

from . import _state
from .device import _get_device_index, device_count

__all__ = [
    "get_rng_state", "get_rng_state_all", "initial_seed", "manual_seed", "manual_seed_all",
    "seed", "seed_all", "set_rng_state", "set_rng_state_all",
]

_generators: dict[int, torch.Generator] = {}


def default_generator(index: int) -> torch.Generator:
    if index not in _generators:
        _generators[index] = _state.C.default_generator(index)
    return _generators[index]


def _generator(device: Any) -> torch.Generator:
    if isinstance(device, str) and device == _state.profile.device:
        device = None
    return default_generator(_get_device_index(device, optional=True))


def get_rng_state(device: Any = None) -> torch.Tensor:
    return _generator(device).get_state()


def get_rng_state_all() -> list[torch.Tensor]:
    return [default_generator(i).get_state() for i in range(device_count())]


def set_rng_state(new_state: torch.Tensor, device: Any = None) -> None:
    _generator(device).set_state(new_state.clone())


def set_rng_state_all(new_states: list[torch.Tensor]) -> None:
    for index, state in enumerate(new_states):
        default_generator(index).set_state(state.clone())


def manual_seed(seed: int) -> None:
    _generator(None).manual_seed(int(seed))


def manual_seed_all(seed: int) -> None:
    for index in range(device_count()):
        default_generator(index).manual_seed(int(seed))


def seed() -> None:
    _generator(None).seed()


def seed_all() -> None:
    first = _generator(None).seed()
    for index in range(device_count()):
        default_generator(index).manual_seed(first)


def initial_seed() -> int:
    return _generator(None).initial_seed()

"""The collective backend (``mccl`` for the musa profile): device tensors are staged through host
memory and a gloo group, so two processes can run collectives on the test device."""

from __future__ import annotations

from datetime import timedelta
from types import ModuleType
from typing import Any

import torch
import torch.distributed as dist
from torch._C._distributed_c10d import AllgatherOptions  # torch.distributed has it after 2.7 only

from . import _state

__all__ = ["make_module", "register"]


class _Done(dist._Work):
    """A finished collective (the staging waits before returning)."""

    def __init__(self, result: Any) -> None:
        super().__init__()
        self._result = result

    def wait(self, timeout: timedelta | None = None) -> bool:
        return True

    def is_completed(self) -> bool:
        return True

    def is_success(self) -> bool:
        return True

    def result(self) -> Any:
        return self._result

    def get_future(self) -> torch.futures.Future:
        future: torch.futures.Future = torch.futures.Future()
        future.set_result(self._result)
        return future


def _host(tensors: list[torch.Tensor]) -> list[torch.Tensor]:
    for tensor in tensors:
        if tensor.device.type != _state.profile.device:
            msg = f"{_state.profile.collective} needs {_state.profile.device} tensors, got {tensor.device}"
            raise ValueError(msg)
    return [tensor.cpu() for tensor in tensors]


def _copy_back(targets: list[torch.Tensor], sources: list[torch.Tensor]) -> None:
    for target, source in zip(targets, sources, strict=True):
        target.copy_(source)


class StagedProcessGroup(dist.ProcessGroup):
    def __init__(self, store: dist.Store, rank: int, size: int, timeout: timedelta) -> None:
        super().__init__(rank, size)
        prefix = dist.PrefixStore(f"{_state.profile.collective}-staging", store)
        self._gloo = dist.ProcessGroupGloo(prefix, rank, size, timeout)

    def getBackendName(self) -> str:
        return _state.profile.collective

    def allreduce(self, tensors: list[torch.Tensor], opts: Any = None) -> _Done:
        host = _host(tensors)
        self._gloo.allreduce(host, opts or dist.AllreduceOptions()).wait()
        _copy_back(tensors, host)
        return _Done(tensors)

    def broadcast(self, tensors: list[torch.Tensor], opts: Any = None) -> _Done:
        host = _host(tensors)
        self._gloo.broadcast(host, opts or dist.BroadcastOptions()).wait()
        _copy_back(tensors, host)
        return _Done(tensors)

    def allgather(self, outputs: list[list[torch.Tensor]], inputs: list[torch.Tensor],
                  opts: Any = None) -> _Done:
        host_outputs = [_host(group) for group in outputs]
        self._gloo.allgather(host_outputs, _host(inputs), opts or AllgatherOptions()).wait()
        for group, host in zip(outputs, host_outputs, strict=True):
            _copy_back(group, host)
        return _Done(outputs)

    def _allgather_base(self, output: torch.Tensor, input: torch.Tensor, opts: Any = None) -> _Done:
        chunks = list(output.chunk(self.size()))
        return self.allgather([chunks], [input], opts)

    def barrier(self, opts: Any = None) -> _Done:
        self._gloo.barrier(dist.BarrierOptions()).wait()
        return _Done(None)


def _create(store: dist.Store, rank: int, size: int, timeout: timedelta) -> StagedProcessGroup:
    return StagedProcessGroup(store, rank, size, timeout)


def register() -> None:
    name = _state.profile.collective
    if name.upper() not in dist.Backend._plugins:
        dist.Backend.register_backend(name, _create, devices=[_state.profile.device])
    setattr(dist, f"is_{name}_available", lambda: True)


def make_module(parent: str) -> ModuleType:
    """``torch.musa.mccl``: ``version()`` only, a tuple (major, minor, patch) (core/mccl.py:4-25)."""
    module = ModuleType(f"{parent}.core.{_state.profile.collective}")
    module.__all__ = ["version"]
    module.version = lambda: (2, 11, 4)
    return module

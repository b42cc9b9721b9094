"""Streams and events (``torch_musa.core.stream``). Execution is synchronous, so streams keep
only the bookkeeping a program can observe (ids, the current stream, timing events)."""

from __future__ import annotations

import ctypes
from typing import Any

import torch

from . import _state
from .device import _get_device_index
from .device import device as _device_guard

__all__ = [
    "Event", "ExternalStream", "Stream", "StreamContext", "current_stream", "default_stream",
    "set_stream", "stream",
]

_PRIVATEUSE1 = 20  # c10::DeviceType::PrivateUse1


class Stream(torch.Stream):
    """A stream of this backend; ``Stream(device=None, priority=0)``."""

    def __new__(cls, device: Any = None, priority: int = 0, **kwargs: Any) -> Stream:
        if "stream_id" in kwargs:
            return super().__new__(cls, **kwargs)
        index = _get_device_index(device, optional=True)
        return super().__new__(cls, device=torch.device(_state.profile.device, index),
                               priority=priority)

    def wait_event(self, event: Event) -> None:
        event.wait(self)

    def wait_stream(self, stream: Stream) -> None:
        self.wait_event(stream.record_event())

    def record_event(self, event: Event | None = None) -> Event:
        event = Event() if event is None else event
        event.record(self)
        return event

    @property
    def _as_parameter_(self) -> ctypes.c_void_p:
        return ctypes.c_void_p(self.stream_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, torch.Stream) and (
            (self.stream_id, self.device_index, self.device_type)
            == (other.stream_id, other.device_index, other.device_type)
        )

    def __hash__(self) -> int:
        return hash((self.stream_id, self.device_index))


def _stream(stream_id: int, index: int) -> Stream:
    return Stream(stream_id=stream_id, device_index=index, device_type=_PRIVATEUSE1)


def ExternalStream(stream_ptr: int, device: Any = None) -> Stream:
    return _stream(int(stream_ptr), _get_device_index(device, optional=True))


def current_stream(device: Any = None) -> Stream:
    index = _get_device_index(device, optional=True)
    return _stream(_state.C.current_stream(index), index)


def default_stream(device: Any = None) -> Stream:
    return _stream(0, _get_device_index(device, optional=True))


def set_stream(stream: torch.Stream | None) -> None:
    if stream is not None:
        _state.C.set_stream(stream.device_index, stream.stream_id)


class StreamContext:
    """Makes ``stream`` current (and its device) inside the ``with`` block."""

    def __init__(self, stream: torch.Stream | None) -> None:
        self.stream = stream
        self._guard = _device_guard(stream.device_index if stream is not None else -1)
        self._previous: Stream | None = None

    def __enter__(self) -> None:
        if self.stream is None:
            return
        self._guard.__enter__()
        self._previous = current_stream(self.stream.device_index)
        set_stream(self.stream)

    def __exit__(self, *exc: object) -> None:
        if self.stream is None:
            return
        set_stream(self._previous)
        self._guard.__exit__(*exc)


def stream(stream: torch.Stream | None) -> StreamContext:
    return StreamContext(stream)


class Event:
    """An event of this backend, wrapping ``torch.Event`` (a subclass would fail its type checks)."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        self._event = torch.Event(device=_state.profile.device, enable_timing=enable_timing,
                                  blocking=blocking, interprocess=interprocess)

    def record(self, stream: torch.Stream | None = None) -> None:
        self._event.record(current_stream() if stream is None else stream)

    def wait(self, stream: torch.Stream | None = None) -> None:
        self._event.wait(current_stream() if stream is None else stream)

    def query(self) -> bool:
        return self._event.query()

    def synchronize(self) -> None:
        self._event.synchronize()

    def elapsed_time(self, end_event: Event) -> float:
        return self._event.elapsed_time(end_event._event)

    def ipc_handle(self) -> bytes:
        msg = "interprocess events are not supported by the test device"
        raise NotImplementedError(msg)

    @property
    def _event_id(self) -> int:
        return self._event.event_id

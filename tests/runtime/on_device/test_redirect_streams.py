"""Streams, events and stream contexts through torch.cuda."""

from __future__ import annotations

import torch


def test_streams_and_contexts(vendor):
    default = torch.cuda.current_stream()
    side = torch.cuda.Stream()
    assert isinstance(side, torch.cuda.Stream) and isinstance(side, torch.Stream)
    assert side != default and side.device.type == vendor.device
    assert side.cuda_stream == getattr(side, f"{vendor.device}_stream")
    with torch.cuda.stream(side):
        assert torch.cuda.current_stream() == side
        y = torch.ones(3, device="cuda") * 2
    assert torch.cuda.current_stream() == default
    side.synchronize()
    assert side.query()
    torch.cuda.current_stream().wait_stream(side)
    assert torch.equal(y.cpu(), torch.full((3,), 2.0))
    assert torch.cuda.default_stream() == default
    with torch.cuda.StreamContext(side):
        assert torch.cuda.current_stream() == side
    torch.cuda.set_stream(side)
    assert torch.cuda.current_stream() == side
    torch.cuda.set_stream(default)


def test_events_time_and_synchronize(vendor):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    torch.ones(1000, device="cuda").sum()
    end.record()
    end.synchronize()
    assert end.query()
    assert start.elapsed_time(end) >= 0
    stream = torch.cuda.Stream()
    event = stream.record_event()
    torch.cuda.current_stream().wait_event(event)


def test_torch_stream_api_on_the_device(vendor):
    stream = torch.Stream()  # the current accelerator
    assert stream.device.type == vendor.device
    event = torch.Event(enable_timing=True)
    event.record(stream)
    event.synchronize()

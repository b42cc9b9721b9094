"""CUDA graphs: CUDAGraph, torch.cuda.graph(cuda_graph=...), replay, and the debug dump."""

from __future__ import annotations

import re

import pytest
import torch


def _capture(**graph_kwargs):
    static_in = torch.zeros(4, device="cuda")
    weight = torch.full((4,), 2.0, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, **graph_kwargs):
        static_out = static_in * weight + 1
    return g, static_in, static_out


def test_capture_and_replay(vendor):
    g, static_in, static_out = _capture()
    assert isinstance(g, torch.cuda.CUDAGraph)
    assert type(g).__name__ == f"{vendor.upper}Graph"
    for value in (1.0, 5.0):
        static_in.fill_(value)
        g.replay()
        assert torch.equal(static_out.cpu(), torch.full((4,), value * 2 + 1))


def test_cuda_graph_keyword_and_pool(vendor):
    g = torch.cuda.CUDAGraph()
    x = torch.ones(2, device="cuda")
    with torch.cuda.graph(cuda_graph=g, pool=torch.cuda.graph_pool_handle()):
        assert torch.cuda.is_current_stream_capturing()
        x.add_(1)
    assert not torch.cuda.is_current_stream_capturing()
    g.replay()
    g.replay()
    assert torch.equal(x.cpu(), torch.full((2,), 4.0))  # once in capture, twice in replays


def test_capture_rules_hold(vendor):
    g = torch.cuda.CUDAGraph()
    with pytest.raises(RuntimeError, match="non-default stream"):
        g.capture_begin()
    with pytest.raises(RuntimeError, match="capturing"):
        with torch.cuda.graph(torch.cuda.CUDAGraph()):
            torch.ones(1, device="cuda").item()


def test_debug_dump_path(vendor, tmp_path, monkeypatch):
    folder = tmp_path / "dumps" / "nested"
    monkeypatch.setenv("TORCHADA_CUDA_GRAPH_DEBUG_DUMP_PATH", str(folder))
    g, static_in, static_out = _capture()
    _capture()
    dumps = sorted(folder.iterdir())
    assert len(dumps) == 2
    assert all(re.fullmatch(r"graph_\d+\.dot", path.name) for path in dumps)
    text = dumps[0].read_text()
    assert text.startswith("digraph") and "aten::mul" in text and "aten::add" in text
    static_in.fill_(3.0)
    g.replay()
    assert torch.equal(static_out.cpu(), torch.full((4,), 7.0))


def test_no_dump_without_the_variable(vendor, tmp_path, monkeypatch):
    monkeypatch.delenv("TORCHADA_CUDA_GRAPH_DEBUG_DUMP_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    _capture()
    assert list(tmp_path.iterdir()) == []


def test_cuda_graph_keep_graph(vendor):
    """torch 2.8's CUDAGraph(keep_graph=...): the vendor's graph takes no argument."""
    assert isinstance(torch.cuda.CUDAGraph(keep_graph=False), torch.cuda.CUDAGraph)
    with pytest.raises(TypeError, match=f"{vendor.upper}Graph cannot keep its graph after capture"):
        torch.cuda.CUDAGraph(keep_graph=True)

"""Graphs (``torch_musa.musa_graph``): ``MUSAGraph`` and ``graph(musa_graph=...)``.

Capture records the backend calls made on the capturing stream; replay runs them again on the
same tensors. As on a GPU, capture needs a non-default stream, and host synchronisation inside a
capture is an error.
"""

from __future__ import annotations

import gc
import inspect
from typing import Any

from . import _state
from .memory import empty_cache
from .streams import Stream, StreamContext, current_stream

__all__ = ["graph", "graph_pool_handle", "is_current_stream_capturing"]  # and Graph, installed
# under the vendor's name (MUSAGraph)


class Graph:
    """The vendor graph class (installed as ``MUSAGraph``): ``MUSAGraph()`` takes no argument and
    has no ``instantiate`` (torch_musa/musa_graph/graphs.py:44-128)."""

    def __init__(self) -> None:
        self._graph = _state.C.Graph()

    def capture_begin(self, pool: tuple[int, int] | None = None,
                      capture_error_mode: str = "global") -> None:
        self._graph.capture_begin((0, 0) if pool is None else tuple(pool))

    def capture_end(self) -> None:
        self._graph.capture_end()

    def reinstantiate_graph(self) -> None:
        pass

    def replay(self) -> None:
        self._graph.replay()

    def reset(self) -> None:
        self._graph.reset()

    def pool(self) -> tuple[int, int]:
        return tuple(self._graph.pool())

    def enable_debug_mode(self) -> None:
        self._graph.enable_debug_mode()

    def debug_dump(self, debug_path: str) -> None:
        self._graph.debug_dump(debug_path)


def graph_pool_handle() -> tuple[int, int]:
    return tuple(_state.C.graph_pool_handle())


def is_current_stream_capturing() -> bool:
    return _state.C.is_capturing()


def _signature() -> inspect.Signature:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    first = inspect.Parameter(f"{_state.profile.device}_graph", kind)
    rest = [inspect.Parameter(name, kind, default=default)
            for name, default in (("pool", None), ("stream", None),
                                  ("capture_error_mode", "global"))]
    return inspect.Signature([first, *rest])


class graph:
    """Capture the ``with`` block into a graph: ``graph(musa_graph, pool=None, stream=None)``.

    The first parameter is named after the backend (``musa_graph``), as in torch_musa.
    """

    default_capture_stream: Stream | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        bound = _signature().bind(*args, **kwargs)
        bound.apply_defaults()
        graph_, pool, stream, capture_error_mode = bound.arguments.values()
        self.graph: Graph = graph_
        if graph.default_capture_stream is None:
            graph.default_capture_stream = Stream()
        self.pool = () if pool is None else (pool,)
        self.capture_stream = stream if stream is not None else graph.default_capture_stream
        self.stream_ctx = StreamContext(self.capture_stream)
        self.capture_error_mode = capture_error_mode

    def __enter__(self) -> None:
        _state.C.synchronize(current_stream().device_index)
        gc.collect()
        empty_cache()
        self.stream_ctx.__enter__()
        self.graph.capture_begin(*self.pool, capture_error_mode=self.capture_error_mode)

    def __exit__(self, *exc: object) -> None:
        self.graph.capture_end()
        self.stream_ctx.__exit__(*exc)

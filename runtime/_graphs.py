"""``torch.cuda.graph(cuda_graph=g)``: the vendor's ``graph`` context takes ``musa_graph``; as in
torch, the graph is required. ``torch.cuda.CUDAGraph(keep_graph=False)``: torch_musa's
``MUSAGraph()`` takes no argument (docs/torch_musa.md), and cannot keep its graph after capture.

With ``TORCHADA_CUDA_GRAPH_DEBUG_DUMP_PATH`` set, each capture through it is dumped: the folder is
created, debug mode is enabled before capture, and ``graph_<ns>.dot`` is written after it.
"""

from __future__ import annotations

import os
import time
from typing import Any

from torchada_build.core.settings import value as setting

from ._device import _FactoryType
from .vendors import Vendor

__all__ = ["DUMP_PATH_ENV", "graph", "graph_class"]

DUMP_PATH_ENV = "TORCHADA_CUDA_GRAPH_DEBUG_DUMP_PATH"


def graph(original: Any, vendor: Vendor) -> type:
    vendor_graph = vendor.device_module().graph
    keyword = f"{vendor.device}_graph"

    class graph(vendor_graph):  # type: ignore[misc, valid-type]
        __doc__ = vendor_graph.__doc__

        def __init__(self, cuda_graph: Any = None, pool: Any = None, stream: Any = None,
                     capture_error_mode: str = "global", **kwargs: Any) -> None:
            captured = kwargs.pop(keyword, cuda_graph)
            if captured is None:
                msg = "graph() missing 1 required positional argument: 'cuda_graph'"
                raise TypeError(msg)
            if kwargs:
                msg = f"graph() got unexpected keyword arguments {sorted(kwargs)}"
                raise TypeError(msg)
            self._torchada_dump = setting(DUMP_PATH_ENV, os.environ) or None
            if self._torchada_dump:
                os.makedirs(self._torchada_dump, exist_ok=True)
                captured.enable_debug_mode()
            self._torchada_graph = captured
            super().__init__(captured, pool=pool, stream=stream,
                             capture_error_mode=capture_error_mode)

        def __exit__(self, *exc: object) -> Any:
            result = super().__exit__(*exc)
            if self._torchada_dump and exc[0] is None:
                name = f"graph_{time.time_ns()}.dot"
                self._torchada_graph.debug_dump(os.path.join(self._torchada_dump, name))
            return result

    graph.__qualname__ = graph.__name__ = "graph"
    graph.__module__ = "torch.cuda"
    return graph


class _GraphType(_FactoryType):
    def __call__(cls, keep_graph: bool = False) -> Any:
        if keep_graph:
            msg = (f"{cls._real.__name__} cannot keep its graph after capture: "
                   f"CUDAGraph(keep_graph=True) has no {cls._real.__name__} counterpart")
            raise TypeError(msg)
        return cls._real()


def graph_class(original: Any, vendor: Vendor) -> type:
    """``torch.cuda.CUDAGraph``: builds the vendor's graph; ``isinstance`` checks the vendor's class."""
    real = getattr(vendor.device_module(), vendor.format("{DEVICE}Graph"))
    return _GraphType("CUDAGraph", (), {"_real": real, "__doc__": real.__doc__, "__module__": "torch.cuda"})

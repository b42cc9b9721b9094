"""``torch.cuda.graph(cuda_graph=g)``: the vendor's ``graph`` context takes ``musa_graph``; as in
torch, the graph is required.

With ``TORCHADA_CUDA_GRAPH_DEBUG_DUMP_PATH`` set, each capture through it is dumped: the folder is
created, debug mode is enabled before capture, and ``graph_<ns>.dot`` is written after it.
"""

from __future__ import annotations

import os
import time
from typing import Any

from .vendors import Vendor

__all__ = ["DUMP_PATH_ENV", "graph"]

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
            self._torchada_dump = os.environ.get(DUMP_PATH_ENV) or None
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

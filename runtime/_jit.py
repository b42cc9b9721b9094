"""TorchScript: wrapped functions stay TorchScript builtins, and ``"cuda"`` device constants in
scripted code run on the vendor's device."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import _device
from .vendors import Vendor

__all__ = ["keep_builtin", "script"]


def keep_builtin(original: Any, wrapper: Any) -> None:
    """Script ``wrapper`` as the operator ``original`` is scripted as (``torch.arange`` is
    ``aten::arange``); TorchScript cannot compile the Python wrapper itself."""
    from torch.jit._builtins import _find_builtin, _register_builtin

    operator = _find_builtin(original)  # type: ignore[no-untyped-call]
    if operator is not None:
        _register_builtin(wrapper, operator)


def _retarget(block: Any) -> None:
    """Rewrite the CUDA ``Device`` constants of a graph (and its nested blocks) for the vendor."""
    for node in block.nodes():
        if node.kind() == "prim::Constant" and node.hasAttribute("value") \
                and node.output().type().kind() == "DeviceObjType":
            value = node.s("value")
            translated = str(_device.translate(value))
            if translated != value:
                node.s_("value", translated)
        for nested in node.blocks():
            _retarget(nested)


def _graphs(scripted: Any) -> list[Any]:
    import torch

    if isinstance(scripted, torch.jit.ScriptFunction):
        return [scripted.graph]
    if isinstance(scripted, torch.jit.ScriptModule):
        modules: list[Any] = list(scripted.modules())
        return [module._c._get_method(name).graph for module in modules for name in module._c._method_names()]
    return []


def script(original: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    """``torch.jit.script``: the functions it compiles, and those they call (TorchScript scripts
    them through ``torch.jit.script`` too), get their ``"cuda"`` constants as the vendor's."""

    @functools.wraps(original)
    def script(obj: Any, *args: Any, **kwargs: Any) -> Any:
        scripted = original(obj, *args, **kwargs)
        for graph in _graphs(scripted):
            _retarget(graph)
        return scripted

    return script

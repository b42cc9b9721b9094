"""torch.compile support: Inductor generates C++ CPU kernels for the test device (as for OpenReg).

Inductor asks the device module for ``Scheduling``, ``PythonWrapperCodegen`` and
``CppWrapperCodegen`` the first time it compiles for the backend; :func:`backend_attribute`
answers, so Inductor is imported only by programs that compile.
"""

from __future__ import annotations

from textwrap import dedent
from typing import Any

from . import _state

__all__ = ["ATTRIBUTES", "backend_attribute"]

ATTRIBUTES = ("Scheduling", "PythonWrapperCodegen", "CppWrapperCodegen", "WrapperFxCodegen")
_classes: dict[str, Any] = {}


def _define() -> None:
    import torch
    from torch._inductor.codegen.common import DeviceOpOverrides, register_device_op_overrides
    from torch._inductor.codegen.cpp import CppScheduling
    from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
    from torch._inductor.codegen.wrapper import PythonWrapperCodegen

    device = _state.profile.device

    class Overrides(DeviceOpOverrides):
        def import_get_raw_stream_as(self, name: str) -> str:
            return dedent(f"""
                def {name}(_):
                    return 0
                """)

        def set_device(self, device_idx: int) -> str:
            return "pass"

        def synchronize(self) -> str:
            return "pass"

        def device_guard(self, device_idx: int) -> str:
            return "torch._ops.contextlib.nullcontext()"

        def cpp_kernel_type(self) -> str:
            return "void*"

    class WrapperCodegen(PythonWrapperCodegen):
        @staticmethod
        def create(is_subgraph: bool, subgraph_name: Any, parent_wrapper: Any,
                   partition_signatures: Any = None) -> Any:
            if is_subgraph:
                from torch._inductor.codegen.wrapper import SubgraphPythonWrapperCodegen

                return SubgraphPythonWrapperCodegen(subgraph_name, parent_wrapper,
                                                    partition_signatures)
            return WrapperCodegen()

        @staticmethod
        def _kernel_device(device: Any) -> Any:
            from torch._inductor.virtualized import V

            device = device or V.graph.get_current_device_or_throw()
            if device.type == _state.profile.device:
                device = torch.device("cpu")  # the kernels are C++ CPU kernels on host memory
            return device

        def generate_kernel_call(self, kernel_name: str, call_args: Any, *, device: Any = None,
                                 **kwargs: Any) -> Any:
            # torch 2.7 writes the call here; later versions in _generate_kernel_call_helper
            return super().generate_kernel_call(kernel_name, call_args,
                                                device=self._kernel_device(device), **kwargs)

        def _generate_kernel_call_helper(self, kernel_name: str, call_args: Any, *,
                                         device: Any = None, **kwargs: Any) -> Any:
            return super()._generate_kernel_call_helper(
                kernel_name, call_args, device=self._kernel_device(device), **kwargs)

    from torch._inductor.codegen.common import get_device_op_overrides

    # torch 2.7 fills in its own devices' overrides only while the table is empty: first theirs.
    get_device_op_overrides("cpu")
    register_device_op_overrides(device, Overrides())
    _classes.update({
        "Scheduling": CppScheduling,
        "PythonWrapperCodegen": WrapperCodegen,
        "CppWrapperCodegen": CppWrapperCpu,
    })
    try:  # torch 2.8 and later ask for it too
        from torch._inductor.codegen.wrapper_fxir import WrapperFxCodegen
    except ImportError:
        return
    _classes["WrapperFxCodegen"] = WrapperFxCodegen


def backend_attribute(name: str) -> Any:
    if not _classes:
        _define()
    if name not in _classes:
        raise AttributeError(name)
    return _classes[name]

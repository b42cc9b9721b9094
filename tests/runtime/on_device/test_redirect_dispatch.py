"""Dispatch keys and the profiler: CUDA registrations and activities serve the vendor's device."""

from __future__ import annotations

import torch
from torch.profiler import ProfilerActivity


def test_library_impl_cuda_key(vendor):
    library = torch.library.Library("torchada_suite", "DEF")
    library.define("scale(Tensor x) -> Tensor")
    library.impl("scale", lambda x: x * 10, "CUDA")
    library.impl("scale", lambda x: x * 100, "CPU")
    assert torch.ops.torchada_suite.scale(torch.ones(2, device="cuda")).cpu().tolist() == [10, 10]
    assert torch.ops.torchada_suite.scale(torch.ones(2)).tolist() == [100, 100]


def test_autograd_cuda_key(vendor):
    library = torch.library.Library("torchada_suite_grad", "DEF")
    library.define("double(Tensor x) -> Tensor")

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 3  # distinguishable from the true gradient

    library.impl("double", Double.apply, "AutogradCUDA")
    library.impl("double", lambda x: x * 2, "CUDA")
    x = torch.ones(2, device="cuda", requires_grad=True)
    torch.ops.torchada_suite_grad.double(x).sum().backward()
    assert x.grad.cpu().tolist() == [3.0, 3.0]


def test_custom_op_device_types(vendor):
    @torch.library.custom_op("torchada_suite_op::triple", mutates_args=(), device_types="cuda")
    def triple(x: torch.Tensor) -> torch.Tensor:
        return x * 3

    assert triple(torch.ones(1, device="cuda")).item() == 3.0


def test_profiler_cuda_activity(vendor):
    # Without the redirect, a CPU build warns "CUDA is not available, disabling CUDA profiling"
    # (an error under this suite's filterwarnings).
    x = torch.randn(64, 64, device="cuda")
    with torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        (x @ x).sum().item()
    assert ProfilerActivity.PrivateUse1 in prof.activities
    assert ProfilerActivity.CUDA not in prof.activities
    assert "aten::mm" in {event.name for event in prof.events()}
    assert "aten::mm" in prof.key_averages().table(sort_by="cuda_time_total")


def test_legacy_profiler_use_cuda(vendor):
    x = torch.randn(8, 8, device="cuda")
    with torch.autograd.profiler.profile(use_device="cuda") as prof:
        x @ x
    assert prof.use_device == vendor.device
    assert "aten::mm" in {event.name for event in prof.function_events}

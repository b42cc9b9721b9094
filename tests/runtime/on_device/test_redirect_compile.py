"""torch.compile and FlexAttention on the vendor's device."""

from __future__ import annotations

import pytest
import torch

# Inductor's own imports warn about torch.jit.script_method, with or without torchada.
SCRIPT_METHOD = "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning"


@pytest.mark.slow
@pytest.mark.filterwarnings(SCRIPT_METHOD)
def test_compiled_model_matches_eager(vendor):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.GELU()).cuda()
    x = torch.randn(4, 8, device="cuda")
    compiled = torch.compile(model)
    out = compiled(x)
    assert out.device.type == vendor.device
    torch.testing.assert_close(out, model(x))


@pytest.mark.filterwarnings(SCRIPT_METHOD)
def test_compile_sees_cuda_device_objects(vendor):
    def shift(x: torch.Tensor) -> torch.Tensor:
        return x + torch.ones(x.shape, device=torch.device("cuda"))

    compiled = torch.compile(shift, backend="aot_eager")
    x = torch.zeros(3, device="cuda")
    assert torch.equal(compiled(x).cpu(), torch.ones(3))


@pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile:UserWarning")
def test_flex_attention_accepts_device_tensors(vendor):
    from torch.nn.attention.flex_attention import flex_attention

    q, k, v = (torch.randn(1, 2, 16, 8) for _ in range(3))
    expected = flex_attention(q, k, v)
    out = flex_attention(q.cuda(), k.cuda(), v.cuda())
    assert out.device.type == vendor.device
    torch.testing.assert_close(out.cpu(), expected)

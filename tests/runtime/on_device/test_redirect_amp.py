"""amp: autocast("cuda") casts the vendor's operators; a training loop matches the CPU's."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F


def _train(device: str, steps: int = 8) -> tuple[list[float], torch.nn.Module, float]:
    """An MLP trained with autocast(fp16), GradScaler and Adam: the loop CUDA code writes."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    inputs, targets = torch.randn(64, 8), torch.randn(64, 1)
    if device == "cuda":
        model = model.cuda()
        inputs, targets = inputs.cuda(), targets.cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    scaler = torch.amp.GradScaler(device)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        with torch.autocast(device, dtype=torch.float16):
            output = model(inputs)
            loss = F.mse_loss(output, targets)
        assert output.dtype == torch.float16 and loss.dtype == torch.float32
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        losses.append(loss.item())
    return losses, model, scaler.get_scale()


def test_training_loop_matches_cpu(vendor):
    losses, model, scale = _train("cuda")
    expected, reference, expected_scale = _train("cpu")
    assert next(model.parameters()).device.type == vendor.device
    assert losses == pytest.approx(expected, rel=1e-5, abs=1e-6)
    assert losses[-1] < losses[0]
    assert scale == expected_scale
    for ours, theirs in zip(model.parameters(), reference.parameters(), strict=True):
        torch.testing.assert_close(ours.cpu(), theirs, rtol=1e-4, atol=1e-5)


def test_autocast_spellings_cast_device_ops(vendor):
    a = torch.randn(4, 4, device="cuda")
    for context in (
        torch.autocast("cuda"),
        torch.autocast(device_type="cuda", dtype=torch.float16),
        torch.amp.autocast("cuda"),
        torch.cuda.amp.autocast(),
    ):
        with context:
            assert (a @ a).dtype == torch.float16
            assert torch.is_autocast_enabled("cuda")
            assert torch.is_autocast_enabled()
            assert torch.get_autocast_dtype("cuda") == torch.float16
        assert not torch.is_autocast_enabled("cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        assert (a @ a).dtype == torch.bfloat16
        assert torch.get_autocast_gpu_dtype() == torch.bfloat16


def test_autocast_decorator(vendor):
    @torch.autocast("cuda")
    def matmul(x: torch.Tensor) -> torch.Tensor:
        return x @ x

    assert matmul(torch.ones(2, 2, device="cuda")).dtype == torch.float16


def test_custom_fwd_casts_inputs(vendor):
    class Square(torch.autograd.Function):
        @staticmethod
        @torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @torch.amp.custom_bwd(device_type="cuda")
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = torch.ones(3, device="cuda", dtype=torch.float16, requires_grad=True)
    with torch.autocast("cuda"):
        y = Square.apply(x)
    assert y.dtype == torch.float32
    y.sum().backward()
    assert x.grad is not None and x.grad.device.type == vendor.device


def test_grad_scaler_spellings(vendor):
    for scaler in (torch.amp.GradScaler(), torch.amp.GradScaler("cuda"),
                   torch.cuda.amp.GradScaler()):
        assert scaler.is_enabled()
        scaled = scaler.scale(torch.ones(1, device="cuda"))
        assert scaled.device.type == vendor.device and scaled.item() == 65536.0

"""Device strings, torch.device, .cuda(), factories, generators, and the torch.cuda namespace."""

from __future__ import annotations

import pickle

import pytest
import torch
import torchada


def test_device_strings_become_the_vendors(vendor):
    assert torch.device("cuda") == torch.device(vendor.device)
    assert torch.device("cuda:1") == torch.device(vendor.device, 1)
    assert torch.device("cuda", 1) == torch.device(f"{vendor.device}:1")
    assert torch.device(type="cuda", index=0).type == vendor.device
    assert torch.device("cpu").type == "cpu"
    assert isinstance(torch.device("cuda"), torch.device)
    assert isinstance(torch.ones(1).device, torch.device)


def test_devices_pickle_and_compare(vendor):
    device = torch.device("cuda:1")
    assert pickle.loads(pickle.dumps(device)) == device
    assert pickle.loads(pickle.dumps({"d": torch.device("cpu")}))["d"] == torch.device("cpu")


def test_tensor_cuda_and_to(vendor):
    x = torch.arange(4.0)
    assert x.cuda().device == torch.device(vendor.device, 0)
    assert x.cuda(1).device == torch.device(vendor.device, 1)
    assert x.cuda("cuda:1").device.index == 1
    assert x.cuda(torch.device("cuda", 1)).device.index == 1
    assert x.to("cuda").device.type == vendor.device
    assert x.to("cuda:1", torch.float16).dtype == torch.float16
    assert x.to(device="cuda", dtype=torch.float64).device.type == vendor.device
    y = x.cuda()
    assert y.cuda() is y
    assert torch.equal(y.cpu(), x)
    assert y.is_cuda and not x.is_cuda


def test_module_cuda_and_to(vendor):
    model = torch.nn.Linear(3, 2)
    assert model.cuda().weight.device.type == vendor.device
    assert model.to("cuda:1").bias.device == torch.device(vendor.device, 1)
    assert model.cpu().weight.device.type == "cpu"


def test_factories_take_cuda(vendor):
    for tensor in (
        torch.zeros(2, device="cuda"),
        torch.ones(2, 2, device="cuda:1"),
        torch.empty(3, device=torch.device("cuda")),
        torch.arange(5, device="cuda"),
        torch.full((2,), 7.0, device="cuda"),
        torch.randn(4, device="cuda"),
        torch.tensor([1, 2], device="cuda"),
        torch.as_tensor([1.0], device="cuda"),
        torch.zeros_like(torch.ones(2), device="cuda"),
    ):
        assert tensor.device.type == vendor.device
    with torch.device("cuda:1"):
        assert torch.ones(1).device == torch.device(vendor.device, 1)


def test_generators(vendor):
    generator = torch.Generator(device="cuda")
    assert generator.device.type == vendor.device
    generator.manual_seed(3)
    first = torch.randn(4, device="cuda", generator=generator)
    generator.manual_seed(3)
    assert torch.equal(first.cpu(), torch.randn(4, device="cuda", generator=generator).cpu())
    assert isinstance(generator, torch.Generator)
    assert pickle.loads(pickle.dumps(torch.Generator())).device.type == "cpu"


def test_seeding_through_torch_cuda(vendor):
    torch.cuda.manual_seed(11)
    first = torch.rand(3, device="cuda").cpu()
    torch.cuda.manual_seed_all(11)
    assert torch.equal(first, torch.rand(3, device="cuda").cpu())
    state = torch.cuda.get_rng_state()
    again = torch.rand(3, device="cuda").cpu()
    torch.cuda.set_rng_state(state)
    assert torch.equal(again, torch.rand(3, device="cuda").cpu())


def test_mixing_devices_fails_as_on_a_gpu(vendor):
    x = torch.ones(3, device="cuda")
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        x + torch.ones(3)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.mm(torch.ones(2, 2, device="cuda"), torch.ones(2, 2, device="cuda:1"))
    assert (x + torch.tensor(2.0)).device.type == vendor.device  # a CPU scalar is fine
    assert x[torch.tensor([0, 2])].shape == (2,)  # so are CPU indices


def test_torch_cuda_answers_for_the_vendor(vendor):
    assert torch.cuda.device_count() == 2
    assert torch.cuda.is_available() is False  # by design; see torchada.has_gpu()
    assert torchada.has_gpu() is True
    torch.cuda.set_device(1)
    try:
        assert torch.cuda.current_device() == 1
        assert torch.ones(1).cuda().device.index == 1
        with torch.cuda.device(0):
            assert torch.cuda.current_device() == 0
    finally:
        torch.cuda.set_device(0)
    assert torch.cuda.get_device_name()
    properties = torch.cuda.get_device_properties(0)
    assert torch.cuda.get_device_capability() == (properties.major, properties.minor)
    assert torch.cuda.is_bf16_supported()
    torch.cuda.synchronize()
    assert torch.cuda.device_count is torch.cuda.device_count  # resolved once, then cached


def test_cuda_home_is_the_musa_toolkit(vendor, tmp_path, monkeypatch):
    if vendor.device != "musa":
        pytest.skip("CUDA_HOME names the MUSA toolkit on MUSA only")
    monkeypatch.setenv("MUSA_HOME", str(tmp_path))
    assert torchada.CUDA_HOME == str(tmp_path)


def test_public_api(vendor):
    platform = torchada.detect_platform()
    assert platform.value == vendor.device
    assert torchada.is_musa_platform() is (vendor.device == "musa")
    assert torchada.is_cuda_platform() is False
    assert torchada.is_gpu_device(torch.ones(1).cuda())
    assert torchada.is_gpu_device("cuda:0") and torchada.is_gpu_device(torch.device("cuda"))
    assert not torchada.is_gpu_device(torch.ones(1))

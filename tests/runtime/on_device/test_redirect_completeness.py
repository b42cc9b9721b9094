"""The rest of the runtime surface CUDA code relies on: TorchScript, CPU torch.compile, the
``torch._C`` and backend queries, stream/event/``new_*`` devices, ``infer_schema``, versions."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Optional

import pytest
import torch
import torchada

SCRIPT_METHOD = "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning"
SCRIPT = "ignore:`torch.jit.script` is deprecated:DeprecationWarning"


def _run(vendor, code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**vendor.env(), **env}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=environment, timeout=600)


@pytest.mark.slow
def test_cpu_compile_with_a_cold_cache(vendor, tmp_path):
    # torch_musa maps torch.cuda's _lazy_init to its own: PyTorch's torch.cuda then gets past
    # initialisation, and Inductor's cache key must still get the "no CUDA" answer.
    done = _run(vendor, f"""
        import torch, {vendor.module}
        torch.cuda._lazy_init = torch.{vendor.device}._lazy_init
        import torchada
        out = torch.compile(lambda x: (x * 2 + 1).sum(-1), fullgraph=True)(torch.ones(8, 16))
        assert torch.equal(out, torch.full((8,), 48.0)), out
        """, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    assert done.returncode == 0, done.stderr[-3000:]


def _scripted_helper(n: int) -> torch.Tensor:
    return torch.zeros(n, device="cuda")


@pytest.mark.filterwarnings(SCRIPT)
def test_script_calls_wrapped_factories_and_runs_cuda_constants_on_the_device(vendor):
    def steps(n: int) -> torch.Tensor:
        return torch.arange(n) + torch.zeros(n) + _scripted_helper(n).cpu()

    def on_device(n: int) -> torch.Tensor:
        return torch.ones(n, device=torch.device("cuda:1"))

    assert torch.equal(torch.jit.script(steps)(3), torch.tensor([0.0, 1.0, 2.0]))
    assert torch.jit.script(on_device)(2).device == torch.device(f"{vendor.device}:1")
    assert torch.jit._builtins._find_builtin(torch.arange) == "aten::arange"


class _ToCuda(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.to("cuda") * 2


@pytest.mark.filterwarnings(SCRIPT)
def test_scripted_module_runs_on_the_device(vendor):
    out = torch.jit.script(_ToCuda())(torch.ones(2))
    assert out.device.type == vendor.device and torch.equal(out.cpu(), torch.full((2,), 2.0))


def test_device_index_and_raw_stream(vendor):
    assert torch.cuda._get_device_index("cuda:1") == 1
    assert torch.cuda._get_device_index(torch.device("cuda:1")) == 1
    default = torch.cuda.current_stream()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        raw = torch._C._cuda_getCurrentRawStream(torch.cuda.current_device())
        assert torch.accelerator.current_stream() == side  # the C++ side's current stream
    assert raw == side.cuda_stream != default.cuda_stream
    assert torch._C._cuda_getCurrentRawStream(0) == torch.cuda.current_stream(0).cuda_stream


def test_graph_needs_a_graph(vendor):
    with pytest.raises(TypeError, match="cuda_graph"):
        torch.cuda.graph()


@pytest.mark.filterwarnings(SCRIPT_METHOD)
def test_backend_queries(vendor):
    assert torch.backends.cuda.is_built() is True
    assert torch.cuda._is_compiled() is True
    assert getattr(torch, vendor.device)._is_compiled() is True
    # with is_built() True, Inductor's CUDA-graph trees import CUDA names from torch._C
    __import__("torch._inductor.cudagraph_trees")
    torch.compiler.cudagraph_mark_step_begin()


def test_accelerator_initial_seed(vendor):
    torch.accelerator.manual_seed(12345)
    assert torch.accelerator.initial_seed() == 12345


def test_is_available_opt_in(vendor):
    code = "import torch, torchada; print(torch.cuda.is_available())"
    assert _run(vendor, code).stdout.strip() == "False"
    assert _run(vendor, code, TORCHADA_FORCE_CUDA_AVAILABLE="1").stdout.strip() == "True"
    assert torch.cuda.is_available() is (os.environ.get("TORCHADA_FORCE_CUDA_AVAILABLE") == "1")


def test_streams_events_and_new_tensors_take_cuda(vendor):
    stream = torch.Stream(device="cuda:1")
    assert stream.device == torch.device(f"{vendor.device}:1")
    assert isinstance(torch.cuda.current_stream(), torch.Stream)
    event, end = torch.Event(device="cuda", enable_timing=True), torch.Event(enable_timing=True)
    assert event.device.type == vendor.device and isinstance(event, torch.Event)
    event.record(stream)
    end.record(stream)
    end.synchronize()
    assert event.elapsed_time(end) >= 0  # C++ takes only torch's own Event type

    class Tagged(torch.Stream):
        pass

    assert Tagged(device="cuda").device.type == vendor.device
    base = torch.ones(2)
    for made in (base.new_zeros(2, device="cuda"), base.new_ones((2,), device="cuda:1"),
                 base.new_empty(2, device=torch.device("cuda")), base.new_full((2,), 3.0, device="cuda"),
                 base.new_tensor([1.0], device="cuda"), base.new_empty_strided((2,), (1,), device="cuda")):
        assert made.device.type == vendor.device
    assert base.new_ones((2,), device="cuda:1").device.index == 1


def test_infer_schema_takes_devices(vendor):
    def move(x: torch.Tensor, device: torch.device) -> torch.Tensor:
        return x.to(device)

    def maybe(x: torch.Tensor, device: Optional[torch.device] = None) -> torch.Tensor:  # noqa: UP045 - the form infer_schema reads
        return x.clone()

    assert torch.library.infer_schema(move, mutates_args=()) == "(Tensor x, Device device) -> Tensor"
    assert torch.library.infer_schema(maybe, mutates_args=()) == \
        "(Tensor x, Device? device=None) -> Tensor"

    @torch.library.custom_op("torchada_suite::move", mutates_args=())
    def moved(x: torch.Tensor, device: torch.device) -> torch.Tensor:
        return x.to(device)

    assert moved(torch.ones(2), torch.device("cuda")).device.type == vendor.device


def test_version():
    from importlib import metadata

    assert torchada.__version__ == metadata.version("torchada")

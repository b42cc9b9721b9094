"""cudart(), ctypes, torch.accelerator, and the warning for CUDA APIs with no counterpart."""

from __future__ import annotations

import ctypes
import subprocess
import warnings

import pytest
import torch
import torchada

LIBRARIES = {  # the vendor's library, and the CUDA name -> vendor name of its symbols
    "libmusart.so": {"cudaGetDeviceCount": "musaGetDeviceCount", "cudaMalloc": "musaMalloc",
                     "cudaFree": "musaFree"},
    "libmccl.so": {"ncclAllReduce": "mcclAllReduce"},
    "libmublas.so": {"cublasCreate_v2": "mublasCreate"},
    "libmurand.so": {"curandCreateGenerator": "murandCreateGenerator"},
}


@pytest.fixture(scope="module")
def vendor_libraries(tmp_path_factory):
    """Small shared libraries that export the vendor's symbols only (``musaMalloc`` ...)."""
    folder = tmp_path_factory.mktemp("libs")
    for library, symbols in LIBRARIES.items():
        source = folder / f"{library}.cpp"
        source.write_text("".join(
            f'extern "C" int {name}(void** out, long size) '
            f"{{ if (out) *out = (void*)size; return {40 + index}; }}\n"
            for index, name in enumerate(symbols.values())
        ))
        subprocess.run(["g++", "-shared", "-fPIC", "-o", str(folder / library), str(source)],
                       check=True)
    return folder


@pytest.mark.musa_only
def test_ctypes_translates_libraries_and_symbols(vendor, vendor_libraries):
    cudart = ctypes.CDLL(str(vendor_libraries / "libcudart.so.12"))
    assert isinstance(cudart, ctypes.CDLL)
    assert cudart.cudaGetDeviceCount(None, 0) == 40
    assert cudart.cudaMalloc(None, 0) == 41
    assert cudart["cudaFree"](None, 0) == 42
    out = ctypes.c_void_p()
    cudart.cudaMalloc(ctypes.byref(out), 4096)
    assert out.value == 4096
    musart = ctypes.CDLL(str(vendor_libraries / "libmusart.so"))
    assert musart.cudaFree(None, 0) == 42
    assert ctypes.cdll.LoadLibrary(str(vendor_libraries / "libnccl.so.2")).ncclAllReduce(None, 0) == 40
    assert ctypes.CDLL(str(vendor_libraries / "libcublas.so")).cublasCreate_v2(None, 0) == 40
    assert ctypes.CDLL(str(vendor_libraries / "libcurand.so")).curandCreateGenerator(None, 0) == 40
    with pytest.raises(AttributeError):
        _ = musart.cudaNoSuchFunction


@pytest.mark.musa_only
def test_ctypes_falls_back_to_the_prefix_rename(vendor, tmp_path):
    """A library that exports ``mublasCreate_v2`` (not the mapped ``mublasCreate``) and a name the
    mapping database does not know (``musaNotMapped``)."""
    source = tmp_path / "vendor.cpp"
    source.write_text('extern "C" int mublasCreate_v2(void) { return 7; }\n'
                      'extern "C" int musaNotMapped(void) { return 8; }\n')
    for library in ("libmublas.so", "libmusart.so"):
        subprocess.run(["g++", "-shared", "-fPIC", "-o", str(tmp_path / library), str(source)],
                       check=True)
    cublas = ctypes.CDLL(str(tmp_path / "libcublas.so"))
    assert cublas.cublasCreate_v2() == 7
    assert cublas["cublasCreate_v2"]() == 7  # the name found the first time
    assert ctypes.CDLL(str(tmp_path / "libcudart.so")).cudaNotMapped() == 8
    with pytest.raises(AttributeError, match="mublasNoSuch"):
        _ = cublas.cublasNoSuch_v2


@pytest.mark.musa_only
def test_cudart(vendor):
    runtime = torch.cuda.cudart()
    host = torch.empty(1024, dtype=torch.uint8)
    assert runtime.cudaHostRegister(host.data_ptr(), host.numel(), 0) == runtime.cudaError.success
    assert host.is_pinned()
    assert runtime.cudaHostUnregister(host.data_ptr()) == 0
    assert not host.is_pinned()
    free, total = runtime.cudaMemGetInfo(0)
    assert 0 < free <= total
    torch.cuda.check_error(runtime.cudaError.success)
    with pytest.raises(RuntimeError, match="MUSA runtime error 5"):
        torch.cuda.check_error(5)


@pytest.mark.musa_only
def test_cudart_functions_the_vendor_does_not_bind(vendor):
    """torch_musa's musart() binds no profiler functions: they are looked for in libmusart.so
    (none here), and a name with no counterpart says so, at the user's call."""
    runtime = torch.cuda.cudart()
    bindings = r"torch_musa's runtime bindings \(torch.musa.musart\(\)\)"
    with pytest.raises(AttributeError, match=bindings + " have no musaProfilerStart, and libmusart.so could not be loaded"):
        runtime.cudaProfilerStart()
    with pytest.raises(AttributeError, match=bindings + " have no musaProfilerStart"):
        torch.cuda.profiler.start()
    with pytest.raises(AttributeError, match=bindings + " have no musaDeviceReset, and torchada has no other way"):
        runtime.cudaDeviceReset()
    assert not hasattr(runtime, "cudaDeviceReset")


def test_cuda_nccl(vendor):
    """torch.cuda.nccl: the vendor's version(); torch's own is_available(); no direct collectives."""
    assert torch.cuda.nccl.version() == (2, 11, 4)
    assert torch.cuda.nccl.is_available([torch.ones(1).cuda()]) is False
    with pytest.raises(RuntimeError, match=rf"torch.cuda.nccl.all_reduce has no {vendor.upper} counterpart"):
        torch.cuda.nccl.all_reduce([torch.ones(1).cuda()])
    assert torch.cuda.nccl.SUM == 0


def test_accelerator_fallbacks(vendor):
    assert torch.accelerator.current_accelerator().type == vendor.device
    assert torch.accelerator.synchronize.__module__.startswith("torch.accelerator")  # torch's own
    stream = torch.accelerator.Stream()
    with torch.accelerator.stream(stream):
        assert torch.cuda.current_stream() == stream
    with torch.accelerator.device_index(1):
        assert torch.cuda.current_device() == 1
    torch.accelerator.manual_seed(5)
    first = torch.rand(2, device="cuda").cpu()
    torch.accelerator.manual_seed(5)
    assert torch.equal(first, torch.rand(2, device="cuda").cpu())
    x = torch.empty(256, device="cuda")
    assert torch.accelerator.memory_allocated() >= 1024
    torch.accelerator.empty_cache()
    del x
    event = torch.accelerator.Event(enable_timing=True)
    event.record()
    torch.accelerator.synchronize()


def test_cuda_api_without_counterpart_warns_once(vendor):
    with pytest.warns(torchada.TorchadaWarning, match="get_gencode_flags"):
        torch.cuda.get_gencode_flags()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.cuda.get_gencode_flags()  # once only
        torch.cuda.is_available()  # is_available is the CUDA answer, without a warning


def test_nvtx_annotations_are_accepted(vendor):
    torch.cuda.nvtx.range_push("step")
    torch.cuda.nvtx.range_pop()
    with torch.cuda.nvtx.range("block"):
        torch.cuda.nvtx.mark("inside")

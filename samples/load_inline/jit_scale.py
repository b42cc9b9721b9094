"""JIT-compile a CUDA kernel from strings with ``torch.utils.cpp_extension.load_inline`` and run it.

Run it for MUSA, unchanged: ``python -m torchada_build jit_scale.py`` (or ``import torchada`` first).
"""

import torch
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
__global__ void scale_kernel(const float* x, float* y, float factor, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = factor * x[i];
}

torch::Tensor scale(torch::Tensor x, double factor) {
  TORCH_CHECK(!x.is_cpu() && x.scalar_type() == torch::kFloat32, "scale: expects a float32 GPU tensor");
  auto input = x.contiguous();
  auto y = torch::empty_like(input);
  const int64_t n = input.numel();
  const int threads = 256;
  if (n > 0) {
    scale_kernel<<<(n + threads - 1) / threads, threads>>>(input.data_ptr<float>(), y.data_ptr<float>(),
                                                           static_cast<float>(factor), n);
  }
  const cudaError_t status = cudaGetLastError();
  TORCH_CHECK(status == cudaSuccess, "scale: ", cudaGetErrorString(status));
  return y;
}
"""

CPP_SOURCE = "torch::Tensor scale(torch::Tensor x, double factor);"


def build(verbose: bool = False):
    return load_inline(
        name="jit_scale",
        cpp_sources=CPP_SOURCE,
        cuda_sources=CUDA_SOURCE,
        functions=["scale"],
        extra_cuda_cflags=["-O2"],
        verbose=verbose,
    )


if __name__ == "__main__":
    module = build(verbose=True)
    x = torch.arange(8, dtype=torch.float32, device="cuda")
    print(module.scale(x, 2.0))

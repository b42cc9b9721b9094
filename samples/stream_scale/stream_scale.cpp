// Python bindings: stream_scale.scale_(x, factor) scales a float32 GPU tensor in place, on the current
// stream of x's device — the host code uses PyTorch's C++ CUDA API, as real extensions do.
#include <torch/extension.h>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include "stream_scale.h"

torch::Tensor scale_(torch::Tensor x, double factor) {
  TORCH_CHECK(x.is_cuda(), "scale_: expects a GPU tensor, got ", x.device());
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "scale_: expects a contiguous float32 tensor");
  const c10::cuda::CUDAGuard device_guard(x.device());
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_CUDA_CHECK(stream_scale_launch(x.data_ptr<float>(), static_cast<float>(factor), x.numel(), stream));
  return x;
}

int current_device() { return static_cast<int>(c10::cuda::current_device()); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_", &scale_, "x *= factor on the current stream of x's device");
  m.def("current_device", &current_device, "the current GPU");
}

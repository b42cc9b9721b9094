// Python bindings: vector_add.add(a, b) for two float32 GPU tensors of the same shape.
#include <torch/extension.h>

#include "vector_add.h"

torch::Tensor add(const torch::Tensor& a, const torch::Tensor& b) {
  TORCH_CHECK(!a.is_cpu() && a.device() == b.device(), "add: expects two tensors on the same GPU, got ",
              a.device(), " and ", b.device());
  TORCH_CHECK(a.sizes() == b.sizes(), "add: shapes differ: ", a.sizes(), " and ", b.sizes());
  TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "add: expects float32");
  const auto a_contiguous = a.contiguous();
  const auto b_contiguous = b.contiguous();
  auto out = torch::empty_like(a_contiguous);
  const char* error = vector_add_launch(a_contiguous.data_ptr<float>(), b_contiguous.data_ptr<float>(),
                                        out.data_ptr<float>(), out.numel());
  TORCH_CHECK(error == nullptr, "add: ", error);
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("add", &add, "out = a + b on the GPU"); }

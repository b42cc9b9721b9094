// pybind11 bindings: blas_rand.gemm(a, b) and blas_rand.uniform(n, seed, low, high, like).
#include <torch/extension.h>

#include "blas_rand.h"

namespace {

void check_gpu_float(const torch::Tensor& t, const char* name) {
  TORCH_CHECK(!t.is_cpu(), name, " must be on a GPU, got ", t.device());
  TORCH_CHECK(t.scalar_type() == torch::kFloat32, name, " must be float32");
}

torch::Tensor gemm_tensors(const torch::Tensor& a, const torch::Tensor& b) {
  check_gpu_float(a, "a");
  check_gpu_float(b, "b");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0), "gemm: shapes ", a.sizes(), " and ",
              b.sizes(), " do not multiply");
  const auto a_contiguous = a.contiguous();
  const auto b_contiguous = b.contiguous();
  auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  const char* error = gemm(a.size(0), b.size(1), a.size(1), a_contiguous.data_ptr<float>(),
                           b_contiguous.data_ptr<float>(), c.data_ptr<float>());
  TORCH_CHECK(error == nullptr, "gemm: ", error);
  return c;
}

torch::Tensor uniform_tensor(int64_t n, uint64_t seed, double low, double high, const torch::Tensor& like) {
  check_gpu_float(like, "like");
  auto out = torch::empty({n}, like.options());
  const char* error = uniform(out.data_ptr<float>(), n, seed, static_cast<float>(low), static_cast<float>(high));
  TORCH_CHECK(error == nullptr, "uniform: ", error);
  return out;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gemm", &gemm_tensors, "a @ b with cuBLAS", pybind11::arg("a"), pybind11::arg("b"));
  m.def("uniform", &uniform_tensor, "n uniform floats in (low, high] with cuRAND", pybind11::arg("n"),
        pybind11::arg("seed"), pybind11::arg("low") = 0.0, pybind11::arg("high") = 1.0, pybind11::arg("like"));
}

// The CUDA half of the extension: the kernel and its launcher (vector_add.cpp holds the bindings).
#include <cuda_runtime.h>

#include "vector_add.h"

__global__ void vector_add_kernel(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

const char* vector_add_launch(const float* a, const float* b, float* out, int64_t n) {
  constexpr int threads = 256;
  const int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 0) vector_add_kernel<<<blocks, threads>>>(a, b, out, n);
  const cudaError_t status = cudaGetLastError();
  return status == cudaSuccess ? nullptr : cudaGetErrorString(status);
}

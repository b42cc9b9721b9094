#include "stream_scale.h"

__global__ void stream_scale_kernel(float* data, float factor, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

cudaError_t stream_scale_launch(float* data, float factor, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  constexpr int threads = 256;
  const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
  stream_scale_kernel<<<blocks, threads, 0, stream>>>(data, factor, n);
  return cudaGetLastError();
}

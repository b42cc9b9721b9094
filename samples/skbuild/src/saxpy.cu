#include <cuda_runtime.h>

#include "saxpy.h"

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" const char* saxpy_on_gpu(int n, float a, const float* x, float* y) {
  float *dx = nullptr, *dy = nullptr;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  cudaError_t status = cudaMalloc(&dx, bytes);
  if (status == cudaSuccess) status = cudaMalloc(&dy, bytes);
  if (status == cudaSuccess) status = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  if (status == cudaSuccess) status = cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  if (status == cudaSuccess && n > 0) {
    saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
    status = cudaGetLastError();
  }
  if (status == cudaSuccess) status = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return status == cudaSuccess ? nullptr : cudaGetErrorString(status);
}

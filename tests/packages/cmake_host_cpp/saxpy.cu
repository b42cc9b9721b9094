#include "saxpy.h"

__global__ void saxpy_kernel(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

cudaError_t saxpy(float a, const float* x, float* y, int n, cudaStream_t stream) {
  saxpy_kernel<<<(n + 255) / 256, 256, 0, stream>>>(a, x, y, n);
  return cudaGetLastError();
}

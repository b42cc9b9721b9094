#include "kernels.cuh"

__global__ void fill_kernel(float* a, int n, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = value;
}

cudaError_t fill(float* a, int n, float value, cudaStream_t stream) {
  fill_kernel<<<(n + 255) / 256, 256, 0, stream>>>(a, n, value);
  return cudaGetLastError();
}

#include "scale.cuh"

__global__ void scale_kernel(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= SCALE_FACTOR;
}

cudaError_t scale_on_device(float* data, int n) {
  scale_kernel<<<(n + 127) / 128, 128>>>(data, n);
  return cudaGetLastError();
}

#include <cstdio>
#include <cuda_runtime.h>

__device__ float twice(float x);

__global__ void apply(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = twice(x[i]);
}

int main() {
  float* x = nullptr;
  if (cudaMalloc(&x, 4 * sizeof(float)) != cudaSuccess) return 1;
  apply<<<1, 4>>>(x, 4);
  cudaError_t status = cudaDeviceSynchronize();
  cudaFree(x);
  std::printf("%s\n", cudaGetErrorString(status));
  return 0;
}

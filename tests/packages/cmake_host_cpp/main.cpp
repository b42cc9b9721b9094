#include <cstdio>
#include <vector>

#include "saxpy.h"

static int check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return 0;
  std::printf("CUDA error in %s: %s\n", what, cudaGetErrorString(status));
  return 1;
}

int main() {
  const int n = 1000;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dx = nullptr, *dy = nullptr;
  cudaStream_t stream;
  if (check(cudaStreamCreate(&stream), "cudaStreamCreate")) return 1;
  if (check(cudaMalloc(&dx, n * sizeof(float)), "cudaMalloc")) return 1;
  if (check(cudaMalloc(&dy, n * sizeof(float)), "cudaMalloc")) return 1;
  cudaMemcpyAsync(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
  if (check(saxpy(3.0f, dx, dy, n, stream), "saxpy")) return 1;
  cudaMemcpyAsync(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  if (check(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) return 1;
  int errors = 0;
  for (float v : y) errors += v != 5.0f;
  std::printf("saxpy: %d errors\n", errors);
  cudaFree(dx);
  cudaFree(dy);
  cudaStreamDestroy(stream);
  return errors != 0;
}

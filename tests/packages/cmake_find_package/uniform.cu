// n uniform floats with cuRAND on the GPU; prints their mean.
#include <cuda_runtime.h>
#include <curand.h>

#include <cstdio>

int main() {
  const int n = 1024;
  float* values = nullptr;
  if (cudaMalloc(&values, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "uniform: cudaMalloc failed\n");
    return 1;
  }
  curandGenerator_t generator;
  curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT);
  curandGenerateUniform(generator, values, n);
  float host[n];
  cudaMemcpy(host, values, sizeof(host), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : host) sum += v;
  std::printf("uniform: mean %.3f\n", sum / n);
  curandDestroyGenerator(generator);
  cudaFree(values);
  return 0;
}

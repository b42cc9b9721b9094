// saxpy: y = a * x + y on the GPU, checked against the host.
#include "common.cuh"
#include <vector>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ >= 800
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
#else
  if (i < n) y[i] = a * x[i] + y[i];
#endif
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dx = nullptr, *dy = nullptr;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpyAsync(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  saxpy<<<(n + 255) / 256, 256, 0, stream>>>(n, 3.0f, dx, dy);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  int errors = 0;
  for (int i = 0; i < n; ++i) errors += y[i] != 5.0f;
  std::printf("saxpy: %d errors\n", errors);
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return errors != 0;
}

// C = A B for two n x n matrices of ones and twos with cuBLAS; every element of C must be 2n.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "kernels.cuh"

#define CHECK(expr, what)                                    \
  do {                                                       \
    if (!(expr)) {                                           \
      std::fprintf(stderr, "gemm: %s failed\n", what);       \
      return 1;                                              \
    }                                                        \
  } while (0)

int main() {
  const int n = 64;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream) == cudaSuccess, "cudaStreamCreate");
  CHECK(cudaMalloc(&a, n * n * sizeof(float)) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMalloc(&b, n * n * sizeof(float)) == cudaSuccess, "cudaMalloc");
  CHECK(cudaMalloc(&c, n * n * sizeof(float)) == cudaSuccess, "cudaMalloc");
  CHECK(fill(a, n * n, 1.0f, stream) == cudaSuccess, "fill");
  CHECK(fill(b, n * n, 2.0f, stream) == cudaSuccess, "fill");

  cublasHandle_t handle;
  CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  CHECK(cublasSetStream(handle, stream) == CUBLAS_STATUS_SUCCESS, "cublasSetStream");
  const float alpha = 1.0f, beta = 0.0f;
  CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n) ==
            CUBLAS_STATUS_SUCCESS,
        "cublasSgemm");

  std::vector<float> host(n * n);
  CHECK(cudaMemcpyAsync(host.data(), c, n * n * sizeof(float), cudaMemcpyDeviceToHost, stream) == cudaSuccess,
        "cudaMemcpyAsync");
  CHECK(cudaStreamSynchronize(stream) == cudaSuccess, "cudaStreamSynchronize");
  int errors = 0;
  for (float value : host) errors += value != 2.0f * n;
  std::printf("gemm: %d errors\n", errors);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaStreamDestroy(stream);
  return errors != 0;
}

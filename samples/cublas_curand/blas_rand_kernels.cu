// Host calls into cuBLAS and cuRAND, plus one kernel of our own.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <curand.h>

#include "blas_rand.h"

const char* gemm(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return "cublasCreate failed";
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands instead of transposing.
  const cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n),
                                            static_cast<int>(m), static_cast<int>(k), &alpha, b,
                                            static_cast<int>(n), a, static_cast<int>(k), &beta, c,
                                            static_cast<int>(n));
  cublasDestroy(handle);
  return status == CUBLAS_STATUS_SUCCESS ? nullptr : "cublasSgemm failed";
}

__global__ void scale_into_range(float* values, int64_t n, float low, float high) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) values[i] = low + (high - low) * values[i];
}

const char* uniform(float* out, int64_t n, unsigned long long seed, float low, float high) {
  curandGenerator_t generator;
  if (curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS)
    return "curandCreateGenerator failed";
  curandStatus_t status = curandSetPseudoRandomGeneratorSeed(generator, seed);
  if (status == CURAND_STATUS_SUCCESS) status = curandGenerateUniform(generator, out, static_cast<size_t>(n));
  curandDestroyGenerator(generator);
  if (status != CURAND_STATUS_SUCCESS) return "curandGenerateUniform failed";
  constexpr int threads = 256;
  if (n > 0) scale_into_range<<<(n + threads - 1) / threads, threads>>>(out, n, low, high);
  return cudaGetLastError() == cudaSuccess ? nullptr : "scale_into_range failed to launch";
}

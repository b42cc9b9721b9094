// cuBLAS v2 as extensions use it: a handle bound to a stream, GEMM in fp32, fp16 and
// mixed precision, batched GEMM, math modes and status handling.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdio>

static const char* status_name(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "alloc failed";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "invalid value";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "arch mismatch";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "execution failed";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "internal error";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "not supported";
    default:
      return cublasGetStatusString(status);
  }
}

#define CUBLAS_CHECK(expr)                                             \
  do {                                                                 \
    cublasStatus_t s_ = (expr);                                        \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                 \
      std::fprintf(stderr, "cublas: %s\n", status_name(s_));           \
      return s_;                                                       \
    }                                                                  \
  } while (0)

cublasStatus_t gemms(cudaStream_t stream, int m, int n, int k, const float* a, const float* b, float* c,
                     const __half* ha, const __half* hb, __half* hc, float** batch_a, float** batch_b,
                     float** batch_c, int batch) {
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));
  CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));

  const float alpha = 1.0f, beta = 0.0f;
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, a, m, b, n, &beta, c, m));
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, ha, CUDA_R_16F, k, hb,
                            CUDA_R_16F, k, &beta, hc, CUDA_R_16F, m, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT_TENSOR_OP));
  CUBLAS_CHECK(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, ha, CUDA_R_16F,
                                          m, static_cast<long long>(m) * k, hb, CUDA_R_16F, k,
                                          static_cast<long long>(k) * n, &beta, hc, CUDA_R_16F, m,
                                          static_cast<long long>(m) * n, batch, CUBLAS_COMPUTE_32F_FAST_16F,
                                          CUBLAS_GEMM_DEFAULT));
  CUBLAS_CHECK(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, batch_a, m, batch_b, k,
                                  &beta, batch_c, m, batch));
  const __half h_alpha = __float2half(1.0f), h_beta = __float2half(0.0f);
  CUBLAS_CHECK(cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &h_alpha, ha, m, hb, k, &h_beta, hc, m));
  CUBLAS_CHECK(cublasSaxpy(handle, m, &alpha, a, 1, c, 1));
  float norm = 0.0f;
  CUBLAS_CHECK(cublasSnrm2(handle, m, c, 1, &norm));
  int version = 0;
  CUBLAS_CHECK(cublasGetVersion(handle, &version));
  CUBLAS_CHECK(cublasDestroy(handle));
  return CUBLAS_STATUS_SUCCESS;
}

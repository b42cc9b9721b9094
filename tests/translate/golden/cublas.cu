// cuBLAS v2 as extensions use it: a handle bound to a stream, GEMM in fp32, fp16 and
// mixed precision, batched GEMM, math modes and status handling.
// CHECK: #include <mublas.h>
#include <cublas_v2.h>
// CHECK: #include <musa_fp16.h>
#include <cuda_fp16.h>
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
#include <cstdio>

// CHECK: static const char* status_name(mublasStatus_t status) {
static const char* status_name(cublasStatus_t status) {
  switch (status) {
// CHECK:     case MUBLAS_STATUS_SUCCESS:
    case CUBLAS_STATUS_SUCCESS:
      return "success";
// FINDING: 10: warning TA1002 'CUBLAS_STATUS_NOT_INITIALIZED'
// CHECK:     case MUBLAS_STATUS_INVALID_HANDLE:
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "not initialized";
// FINDING: 10: warning TA1002 'CUBLAS_STATUS_ALLOC_FAILED'
// CHECK:     case MUBLAS_STATUS_MEMORY_ERROR:
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "alloc failed";
// CHECK:     case MUBLAS_STATUS_INVALID_VALUE:
    case CUBLAS_STATUS_INVALID_VALUE:
      return "invalid value";
// FINDING: 10: error TA1001 'CUBLAS_STATUS_ARCH_MISMATCH'
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "arch mismatch";
// FINDING: 10: error TA1001 'CUBLAS_STATUS_EXECUTION_FAILED'
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "execution failed";
// CHECK:     case MUBLAS_STATUS_INTERNAL_ERROR:
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "internal error";
// FINDING: 10: warning TA1002 'CUBLAS_STATUS_NOT_SUPPORTED'
// CHECK:     case MUBLAS_STATUS_NOT_IMPLEMENTED:
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "not supported";
    default:
// CHECK:       return mublasGetStatusString(status);
      return cublasGetStatusString(status);
  }
}

// CHECK: #define CUBLAS_CHECK(expr)                                             \
// CHECK:   do {                                                                 \
// CHECK:     mublasStatus_t s_ = (expr);                                        \
// CHECK:     if (s_ != MUBLAS_STATUS_SUCCESS) {                                 \
// CHECK:       std::fprintf(stderr, "cublas: %s\n", status_name(s_));           \
// CHECK:       return s_;                                                       \
// CHECK:     }                                                                  \
// CHECK:   } while (0)
#define CUBLAS_CHECK(expr)                                             \
  do {                                                                 \
    cublasStatus_t s_ = (expr);                                        \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                 \
      std::fprintf(stderr, "cublas: %s\n", status_name(s_));           \
      return s_;                                                       \
    }                                                                  \
  } while (0)

// CHECK: mublasStatus_t gemms(musaStream_t stream, int m, int n, int k, const float* a, const float* b, float* c,
cublasStatus_t gemms(cudaStream_t stream, int m, int n, int k, const float* a, const float* b, float* c,
                     const __half* ha, const __half* hb, __half* hc, float** batch_a, float** batch_b,
                     float** batch_c, int batch) {
// CHECK:   mublasHandle_t handle;
  cublasHandle_t handle;
// CHECK:   CUBLAS_CHECK(mublasCreate(&handle));
  CUBLAS_CHECK(cublasCreate(&handle));
// CHECK:   CUBLAS_CHECK(mublasSetStream(handle, stream));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
// CHECK:   CUBLAS_CHECK(mublasSetMathMode(handle, MUBLAS_TENSOR_OP_MATH));
  CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));
// CHECK:   CUBLAS_CHECK(mublasSetPointerMode(handle, MUBLAS_POINTER_MODE_HOST));
  CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));

  const float alpha = 1.0f, beta = 0.0f;
// CHECK:   CUBLAS_CHECK(mublasSgemm(handle, MUBLAS_OP_N, MUBLAS_OP_T, m, n, k, &alpha, a, m, b, n, &beta, c, m));
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, a, m, b, n, &beta, c, m));
// CHECK:   CUBLAS_CHECK(mublasGemmEx(handle, MUBLAS_OP_T, MUBLAS_OP_N, m, n, k, &alpha, ha, MUSA_R_16F, k, hb,
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, ha, CUDA_R_16F, k, hb,
// CHECK:                             MUSA_R_16F, k, &beta, hc, MUSA_R_16F, m, MUBLAS_COMPUTE_32F,
                            CUDA_R_16F, k, &beta, hc, CUDA_R_16F, m, CUBLAS_COMPUTE_32F,
// CHECK:                             MUBLAS_GEMM_DEFAULT));
                            CUBLAS_GEMM_DEFAULT_TENSOR_OP));
// CHECK:   CUBLAS_CHECK(mublasGemmStridedBatchedEx(handle, MUBLAS_OP_N, MUBLAS_OP_N, m, n, k, &alpha, ha, MUSA_R_16F,
  CUBLAS_CHECK(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, ha, CUDA_R_16F,
// CHECK:                                           m, static_cast<long long>(m) * k, hb, MUSA_R_16F, k,
                                          m, static_cast<long long>(m) * k, hb, CUDA_R_16F, k,
// CHECK:                                           static_cast<long long>(k) * n, &beta, hc, MUSA_R_16F, m,
                                          static_cast<long long>(k) * n, &beta, hc, CUDA_R_16F, m,
// CHECK:                                           static_cast<long long>(m) * n, batch, MUBLAS_COMPUTE_32F_FAST_16F,
                                          static_cast<long long>(m) * n, batch, CUBLAS_COMPUTE_32F_FAST_16F,
// CHECK:                                           MUBLAS_GEMM_DEFAULT));
                                          CUBLAS_GEMM_DEFAULT));
// CHECK:   CUBLAS_CHECK(mublasSgemmBatched(handle, MUBLAS_OP_N, MUBLAS_OP_N, m, n, k, &alpha, batch_a, m, batch_b, k,
  CUBLAS_CHECK(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, batch_a, m, batch_b, k,
                                  &beta, batch_c, m, batch));
  const __half h_alpha = __float2half(1.0f), h_beta = __float2half(0.0f);
// CHECK:   CUBLAS_CHECK(mublasHgemm(handle, MUBLAS_OP_N, MUBLAS_OP_N, m, n, k, &h_alpha, ha, m, hb, k, &h_beta, hc, m));
  CUBLAS_CHECK(cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &h_alpha, ha, m, hb, k, &h_beta, hc, m));
// CHECK:   CUBLAS_CHECK(mublasSaxpy(handle, m, &alpha, a, 1, c, 1));
  CUBLAS_CHECK(cublasSaxpy(handle, m, &alpha, a, 1, c, 1));
  float norm = 0.0f;
// CHECK:   CUBLAS_CHECK(mublasSnrm2(handle, m, c, 1, &norm));
  CUBLAS_CHECK(cublasSnrm2(handle, m, c, 1, &norm));
  int version = 0;
// CHECK:   CUBLAS_CHECK(mublasGetVersion(handle, &version));
  CUBLAS_CHECK(cublasGetVersion(handle, &version));
// CHECK:   CUBLAS_CHECK(mublasDestroy(handle));
  CUBLAS_CHECK(cublasDestroy(handle));
// CHECK:   return MUBLAS_STATUS_SUCCESS;
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLASLt: an fp16 GEMM with fp32 accumulation and a fused bias + ReLU epilogue, as PyTorch's addmm and
// apex's fused dense layers call it.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <mublasLt.h>
#include <cublasLt.h>

#include <cstddef>

// CHECK: mublasStatus_t gemm_bias_relu(mublasLtHandle_t handle, musaStream_t stream, int m, int n, int k, const void* a,
cublasStatus_t gemm_bias_relu(cublasLtHandle_t handle, cudaStream_t stream, int m, int n, int k, const void* a,
                              const void* b, void* d, const void* bias, void* workspace, size_t workspace_size) {
// CHECK:   mublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatmulDesc_t operation = nullptr;
// CHECK:   mublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, d_layout = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, d_layout = nullptr;
// CHECK:   mublasLtMatmulPreference_t preference = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;

// CHECK:   mublasStatus_t status = mublasLtMatmulDescCreate(&operation, MUBLAS_COMPUTE_32F, MUSA_R_32F);
  cublasStatus_t status = cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F, CUDA_R_32F);
// CHECK:   mublasOperation_t transpose = MUBLAS_OP_T;
  cublasOperation_t transpose = CUBLAS_OP_T;
// CHECK:   mublasLtMatmulDescSetAttribute(operation, MUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose));
  cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose));
// CHECK:   mublasLtEpilogue_t epilogue = MUBLASLT_EPILOGUE_RELU_BIAS;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
// CHECK:   mublasLtMatmulDescSetAttribute(operation, MUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
  cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
// CHECK:   mublasLtMatmulDescSetAttribute(operation, MUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
  cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));

// CHECK:   mublasLtMatrixLayoutCreate(&a_layout, MUSA_R_16F, k, m, k);
  cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_16F, k, m, k);
// CHECK:   mublasLtMatrixLayoutCreate(&b_layout, MUSA_R_16F, k, n, k);
  cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_16F, k, n, k);
// CHECK:   mublasLtMatrixLayoutCreate(&d_layout, MUSA_R_16F, m, n, m);
  cublasLtMatrixLayoutCreate(&d_layout, CUDA_R_16F, m, n, m);

// CHECK:   mublasLtMatmulPreferenceCreate(&preference);
  cublasLtMatmulPreferenceCreate(&preference);
// CHECK:   mublasLtMatmulPreferenceSetAttribute(preference, MUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_size,
  cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_size,
                                       sizeof(workspace_size));
// CHECK:   mublasLtMatmulHeuristicResult_t heuristic = {};
  cublasLtMatmulHeuristicResult_t heuristic = {};
  int found = 0;
// CHECK:   mublasLtMatmulAlgoGetHeuristic(handle, operation, a_layout, b_layout, d_layout, d_layout, preference, 1, &heuristic,
  cublasLtMatmulAlgoGetHeuristic(handle, operation, a_layout, b_layout, d_layout, d_layout, preference, 1, &heuristic,
                                 &found);
// CHECK:   if (status == MUBLAS_STATUS_SUCCESS && found > 0) {
  if (status == CUBLAS_STATUS_SUCCESS && found > 0) {
    const float alpha = 1.0f, beta = 0.0f;
// CHECK:     status = mublasLtMatmul(handle, operation, &alpha, a, a_layout, b, b_layout, &beta, d, d_layout, d, d_layout,
    status = cublasLtMatmul(handle, operation, &alpha, a, a_layout, b, b_layout, &beta, d, d_layout, d, d_layout,
                            &heuristic.algo, workspace, workspace_size, stream);
  }
// CHECK:   mublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatmulPreferenceDestroy(preference);
// CHECK:   mublasLtMatrixLayoutDestroy(d_layout);
  cublasLtMatrixLayoutDestroy(d_layout);
// CHECK:   mublasLtMatrixLayoutDestroy(b_layout);
  cublasLtMatrixLayoutDestroy(b_layout);
// CHECK:   mublasLtMatrixLayoutDestroy(a_layout);
  cublasLtMatrixLayoutDestroy(a_layout);
// CHECK:   mublasLtMatmulDescDestroy(operation);
  cublasLtMatmulDescDestroy(operation);
  return status;
}

// CHECK: size_t lt_version() { return mublasLtGetVersion(); }
size_t lt_version() { return cublasLtGetVersion(); }

// cuBLASLt: an fp16 GEMM with fp32 accumulation and a fused bias + ReLU epilogue, as PyTorch's addmm and
// apex's fused dense layers call it.
#include <cuda_runtime.h>
#include <cublasLt.h>

#include <cstddef>

cublasStatus_t gemm_bias_relu(cublasLtHandle_t handle, cudaStream_t stream, int m, int n, int k, const void* a,
                              const void* b, void* d, const void* bias, void* workspace, size_t workspace_size) {
  cublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, d_layout = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;

  cublasStatus_t status = cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t transpose = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose));
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
  cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
  cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));

  cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_16F, k, m, k);
  cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_16F, k, n, k);
  cublasLtMatrixLayoutCreate(&d_layout, CUDA_R_16F, m, n, m);

  cublasLtMatmulPreferenceCreate(&preference);
  cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_size,
                                       sizeof(workspace_size));
  cublasLtMatmulHeuristicResult_t heuristic = {};
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(handle, operation, a_layout, b_layout, d_layout, d_layout, preference, 1, &heuristic,
                                 &found);
  if (status == CUBLAS_STATUS_SUCCESS && found > 0) {
    const float alpha = 1.0f, beta = 0.0f;
    status = cublasLtMatmul(handle, operation, &alpha, a, a_layout, b, b_layout, &beta, d, d_layout, d, d_layout,
                            &heuristic.algo, workspace, workspace_size, stream);
  }
  cublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatrixLayoutDestroy(d_layout);
  cublasLtMatrixLayoutDestroy(b_layout);
  cublasLtMatrixLayoutDestroy(a_layout);
  cublasLtMatmulDescDestroy(operation);
  return status;
}

size_t lt_version() { return cublasLtGetVersion(); }

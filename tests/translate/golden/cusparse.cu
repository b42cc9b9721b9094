// cuSPARSE generic API: y = alpha * A x + beta * y with A in CSR, as pytorch_sparse and torch.sparse use it.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstddef>
#include <cstdint>

#define SPARSE_CHECK(expr)                         \
  do {                                             \
    cusparseStatus_t status_ = (expr);             \
    if (status_ != CUSPARSE_STATUS_SUCCESS) {      \
      return cusparseGetErrorString(status_);      \
    }                                              \
  } while (0)

const char* csr_spmv(cusparseHandle_t handle, cudaStream_t stream, int64_t rows, int64_t cols, int64_t nnz,
                     int* row_offsets, int* columns, float* values, float* x, float* y, void* buffer,
                     size_t* buffer_size) {
  SPARSE_CHECK(cusparseSetStream(handle, stream));
  cusparseSpMatDescr_t matrix;
  cusparseDnVecDescr_t vec_x, vec_y;
  SPARSE_CHECK(cusparseCreateCsr(&matrix, rows, cols, nnz, row_offsets, columns, values, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&vec_x, cols, x, CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&vec_y, rows, y, CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f;
  SPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x, &beta,
                                       vec_y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer_size));
  if (buffer != nullptr) {
    SPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x, &beta, vec_y,
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  }
  SPARSE_CHECK(cusparseDestroyDnVec(vec_y));
  SPARSE_CHECK(cusparseDestroyDnVec(vec_x));
  SPARSE_CHECK(cusparseDestroySpMat(matrix));
  return nullptr;
}

// The legacy matrix descriptor and a format conversion, still used by many extensions.
cusparseStatus_t coo_to_csr(cusparseHandle_t handle, const int* coo_rows, int nnz, int rows, int* csr_offsets) {
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
  cusparseStatus_t status = cusparseXcoo2csr(handle, coo_rows, nnz, rows, csr_offsets, CUSPARSE_INDEX_BASE_ZERO);
  cusparseDestroyMatDescr(descr);
  return status;
}

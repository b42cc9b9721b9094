// cuSPARSE generic API: y = alpha * A x + beta * y with A in CSR, as pytorch_sparse and torch.sparse use it.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <musparse.h>
#include <cusparse.h>

#include <cstddef>
#include <cstdint>

// CHECK: #define SPARSE_CHECK(expr)                         \
// CHECK:   do {                                             \
// CHECK:     musparseStatus_t status_ = (expr);             \
// CHECK:     if (status_ != MUSPARSE_STATUS_SUCCESS) {      \
// CHECK:       return musparseGetErrorString(status_);      \
// CHECK:     }                                              \
// CHECK:   } while (0)
#define SPARSE_CHECK(expr)                         \
  do {                                             \
    cusparseStatus_t status_ = (expr);             \
    if (status_ != CUSPARSE_STATUS_SUCCESS) {      \
      return cusparseGetErrorString(status_);      \
    }                                              \
  } while (0)

// CHECK: const char* csr_spmv(musparseHandle_t handle, musaStream_t stream, int64_t rows, int64_t cols, int64_t nnz,
const char* csr_spmv(cusparseHandle_t handle, cudaStream_t stream, int64_t rows, int64_t cols, int64_t nnz,
                     int* row_offsets, int* columns, float* values, float* x, float* y, void* buffer,
                     size_t* buffer_size) {
// CHECK:   SPARSE_CHECK(musparseSetStream(handle, stream));
  SPARSE_CHECK(cusparseSetStream(handle, stream));
// CHECK:   musparseSpMatDescr_t matrix;
  cusparseSpMatDescr_t matrix;
// CHECK:   musparseDnVecDescr_t vec_x, vec_y;
  cusparseDnVecDescr_t vec_x, vec_y;
// CHECK:   SPARSE_CHECK(musparseCreateCsr(&matrix, rows, cols, nnz, row_offsets, columns, values, MUSPARSE_INDEX_32I,
  SPARSE_CHECK(cusparseCreateCsr(&matrix, rows, cols, nnz, row_offsets, columns, values, CUSPARSE_INDEX_32I,
// CHECK:                                  MUSPARSE_INDEX_32I, MUSPARSE_INDEX_BASE_ZERO, MUSA_R_32F));
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
// CHECK:   SPARSE_CHECK(musparseCreateDnVec(&vec_x, cols, x, MUSA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&vec_x, cols, x, CUDA_R_32F));
// CHECK:   SPARSE_CHECK(musparseCreateDnVec(&vec_y, rows, y, MUSA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&vec_y, rows, y, CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f;
// CHECK:   SPARSE_CHECK(musparseSpMV_bufferSize(handle, MUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x, &beta,
  SPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x, &beta,
// CHECK:                                        vec_y, MUSA_R_32F, MUSPARSE_SPMV_ALG_DEFAULT, buffer_size));
                                       vec_y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer_size));
  if (buffer != nullptr) {
// CHECK:     SPARSE_CHECK(musparseSpMV(handle, MUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x, &beta, vec_y,
    SPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vec_x, &beta, vec_y,
// CHECK:                               MUSA_R_32F, MUSPARSE_SPMV_ALG_DEFAULT, buffer));
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  }
// CHECK:   SPARSE_CHECK(musparseDestroyDnVec(vec_y));
  SPARSE_CHECK(cusparseDestroyDnVec(vec_y));
// CHECK:   SPARSE_CHECK(musparseDestroyDnVec(vec_x));
  SPARSE_CHECK(cusparseDestroyDnVec(vec_x));
// CHECK:   SPARSE_CHECK(musparseDestroySpMat(matrix));
  SPARSE_CHECK(cusparseDestroySpMat(matrix));
  return nullptr;
}

// The legacy matrix descriptor and a format conversion, still used by many extensions.
// CHECK: musparseStatus_t coo_to_csr(musparseHandle_t handle, const int* coo_rows, int nnz, int rows, int* csr_offsets) {
cusparseStatus_t coo_to_csr(cusparseHandle_t handle, const int* coo_rows, int nnz, int rows, int* csr_offsets) {
// CHECK:   musparseMatDescr_t descr;
  cusparseMatDescr_t descr;
// CHECK:   musparseCreateMatDescr(&descr);
  cusparseCreateMatDescr(&descr);
// CHECK:   musparseSetMatType(descr, MUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
// CHECK:   musparseSetMatIndexBase(descr, MUSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
// CHECK:   musparseStatus_t status = musparseXcoo2csr(handle, coo_rows, nnz, rows, csr_offsets, MUSPARSE_INDEX_BASE_ZERO);
  cusparseStatus_t status = cusparseXcoo2csr(handle, coo_rows, nnz, rows, csr_offsets, CUSPARSE_INDEX_BASE_ZERO);
// CHECK:   musparseDestroyMatDescr(descr);
  cusparseDestroyMatDescr(descr);
  return status;
}

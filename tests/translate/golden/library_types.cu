// library_types.h: the data-type enum that cuBLAS, cuBLASLt, cuSPARSE and cuFFT share.
#include <library_types.h>

#include <cstddef>

// CHECK: size_t element_size(musaDataType_t type) {
size_t element_size(cudaDataType_t type) {
  switch (type) {
// CHECK:     case MUSA_R_8F_E4M3:
    case CUDA_R_8F_E4M3:
// CHECK:     case MUSA_R_8F_E5M2:
    case CUDA_R_8F_E5M2:
// CHECK:     case MUSA_R_8I:
    case CUDA_R_8I:
// CHECK:     case MUSA_R_8U:
    case CUDA_R_8U:
      return 1;
// CHECK:     case MUSA_R_16F:
    case CUDA_R_16F:
// CHECK:     case MUSA_R_16BF:
    case CUDA_R_16BF:
      return 2;
// CHECK:     case MUSA_R_32F:
    case CUDA_R_32F:
// CHECK:     case MUSA_R_32I:
    case CUDA_R_32I:
// CHECK:     case MUSA_C_16F:
    case CUDA_C_16F:
      return 4;
// CHECK:     case MUSA_R_64F:
    case CUDA_R_64F:
// CHECK:     case MUSA_C_32F:
    case CUDA_C_32F:
      return 8;
// CHECK:     case MUSA_C_64F:
    case CUDA_C_64F:
      return 16;
    default:
      return 0;
  }
}

// CHECK: musaDataType accumulate_type(musaDataType input) { return input == MUSA_R_64F ? MUSA_R_64F : MUSA_R_32F; }
cudaDataType accumulate_type(cudaDataType input) { return input == CUDA_R_64F ? CUDA_R_64F : CUDA_R_32F; }

// library_types.h: the data-type enum that cuBLAS, cuBLASLt, cuSPARSE and cuFFT share.
#include <library_types.h>

#include <cstddef>

size_t element_size(cudaDataType_t type) {
  switch (type) {
    case CUDA_R_8F_E4M3:
    case CUDA_R_8F_E5M2:
    case CUDA_R_8I:
    case CUDA_R_8U:
      return 1;
    case CUDA_R_16F:
    case CUDA_R_16BF:
      return 2;
    case CUDA_R_32F:
    case CUDA_R_32I:
    case CUDA_C_16F:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
    default:
      return 0;
  }
}

cudaDataType accumulate_type(cudaDataType input) { return input == CUDA_R_64F ? CUDA_R_64F : CUDA_R_32F; }

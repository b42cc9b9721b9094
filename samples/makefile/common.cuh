#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

// The project's own error-check macro: its name looks like CUDA's, but it is ours.
#define CUDA_CHECK(expr)                                                              \
  do {                                                                                \
    cudaError_t status_ = (expr);                                                     \
    if (status_ != cudaSuccess) {                                                     \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(status_),   \
                   __FILE__, __LINE__);                                               \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

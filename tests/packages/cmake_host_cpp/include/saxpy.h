#pragma once
#include <cuda_runtime.h>

// Launches y = a * x + y on `stream`.
cudaError_t saxpy(float a, const float* x, float* y, int n, cudaStream_t stream);
